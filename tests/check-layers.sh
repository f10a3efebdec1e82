#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The layering rule of issue 24: struct pf_config (src/common/config.h) is
# the command line, read by src/cli/ alone.  The CLI translates it once
# into small structs that each layer below owns (struct encode_opts,
# struct record_opts, ...), so no file under src/ outside src/cli/ (and
# config.c/config.h themselves) includes common/config.h or names
# struct pf_config.  And results/ (the counts) includes nothing of report/
# (the profiles): what both need, such as the JSON writer, is common/'s.
# TAP output; the offending files as diagnostics.
#
# Usage: check-layers.sh [SRCDIR]   (default: the tree's src/)
set -u

src=${1:-${TESTS_SRCDIR:-$(dirname "$0")}/../src}

# The command line's own files.
allowed() {
	case $1 in
	cli/* | common/config.[ch]) return 0 ;;
	esac
	return 1
}

# the files below the CLI (relative to src/) whose text matches the ERE
offenders() {
	(cd "$src" && find . -name '*.[ch]' | sed 's|^\./||' | LC_ALL=C sort) | while read -r f; do
		allowed "$f" && continue
		grep -Eq "$1" "$src/$f" && echo "$f"
	done
}

# the files of one folder of src/ (relative to src/) whose text matches the ERE
layer_offenders() { # layer_offenders FOLDER ERE
	(cd "$src" && find "$1" -name '*.[ch]' | LC_ALL=C sort) | while read -r f; do
		grep -Eq "$2" "$src/$f" && echo "$f"
	done
}

if [ ! -d "$src/cli" ]; then
	echo "1..0 # SKIP no source tree at $src"
	exit 0
fi

echo "1..3"
n=0
fail=0
point() { # description, offending files (one a line)
	n=$((n + 1))
	if [ -z "$2" ]; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		echo "$2" | sed 's/^/#   /'
		fail=1
	fi
}

point "no file outside src/cli/ includes common/config.h" \
	"$(offenders '^[[:space:]]*#[[:space:]]*include[[:space:]]*"common/config\.h"')"
point "no file outside src/cli/ names struct pf_config or struct pf_set_config" \
	"$(offenders '\<struct[[:space:]]+pf_(set_)?config\>')"
point "no file of src/results/ includes a header of src/report/" \
	"$(layer_offenders results '^[[:space:]]*#[[:space:]]*include[[:space:]]*"report/')"
exit $fail
