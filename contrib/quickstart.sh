#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The README's first command: install what pfmon needs, build it, and count
# a sample command with the default events.
set -eu
cd "$(dirname "$0")/.."
sh contrib/install-deps.sh
[ -x configure ] || autoreconf -fi
[ -f Makefile ] || ./configure
make -j"$(nproc)"
echo
echo "\$ ./pfmon --no-cmd-output -- ls -l /usr/bin"
./pfmon --no-cmd-output -- ls -l /usr/bin
