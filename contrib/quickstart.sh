#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The README's first command: install what pfmon needs, build it, and count
# a sample command with the default events.
set -eu
cd "$(dirname "$0")/.."
start=$(date +%s)
step() { echo "quickstart: $* ($(($(date +%s) - start)) s so far)"; }
step "installing what pfmon needs (contrib/install-deps.sh)"
sh contrib/install-deps.sh
if [ ! -x configure ]; then
	step "generating the build system (autoreconf)"
	autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
fi
if [ ! -f Makefile ]; then
	step "configuring"
	./configure -q
fi
step "building pfmon with $(nproc) jobs"
make -j"$(nproc)" >/tmp/pfmon-quickstart-build.log 2>&1 || {
	tail -30 /tmp/pfmon-quickstart-build.log >&2
	echo "error: the build failed (its log: /tmp/pfmon-quickstart-build.log)" >&2
	exit 1
}
step "built ./pfmon"
echo
echo "\$ ./pfmon --no-cmd-output -- ls -l /usr/bin"
./pfmon --no-cmd-output -- ls -l /usr/bin
echo
echo "quickstart: done in $(($(date +%s) - start)) s; 'make check' runs the whole test suite"
