#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Every global function of src/ is used by pfmon's own code: a function that
# only tests or nothing call is dead code, deleted in the change that kills it
# (STYLE.md).  Run by make check (TAP); fails naming each unreferenced
# function.
#
# A function is used when some object of pfmon (the .o of every src/*/*.c)
# has a relocation against it -- a call, or its address in a table of
# function pointers -- or, since the compiler may inline every call of a
# global function inside its own file and leave no relocation, when its name
# appears in the body of a function of its own file (comments stripped).
# Static and static inline functions are not global: never looked at.
set -eu
LC_ALL=C
export LC_ALL

# make check gives the tests' folders (Makefile.am); by hand: the top folder
srcdir=${TESTS_SRCDIR:+${TESTS_SRCDIR%/tests}}
srcdir=${srcdir:-.}
builddir=${TESTS_BUILDDIR:+${TESTS_BUILDDIR%/tests}}
builddir=${builddir:-.}
CC=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

objs=
for c in "$srcdir"/src/*/*.c; do
	# protoc-c's output is the library's whole API for each message, not ours
	case $c in *.pb-c.c) continue ;; esac
	rel=${c#"$srcdir"/}
	o="$builddir/${rel%.c}.o"
	if [ ! -f "$o" ]; then
		echo "Bail out! $o is missing (build pfmon first)"
		exit 99
	fi
	objs="$objs $o"
done

# defined global functions, as "name object"; those of protoc-c's output,
# compiled by report/profile_pb.c, are the library's API (its calls count)
# shellcheck disable=SC2086
nm -A --defined-only $objs | awk '$2 == "T" { sub(/:.*/, "", $1); if ($1 !~ /\/profile_pb\.o$/) print $3, $1 }' |
	sort >"$tmp/defs"
# every symbol a relocation names (calls, data tables of function pointers)
# shellcheck disable=SC2086
objdump -r $objs | awk '$2 ~ /^R_/ { s = $3; sub(/[-+]0x[0-9a-f]+$/, "", s); print s }' |
	sort -u >"$tmp/used"

# the test seams: global functions kept for the tests, with their reason
seams="$srcdir/tests/test-seams.list"
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$seams" | awk '{ print $1 }' | sort >"$tmp/seams"

: >"$tmp/unused"
join -v 1 "$tmp/defs" "$tmp/used" | while read -r fn obj; do
	[ "$fn" = main ] && continue
	src="$srcdir/${obj#"$builddir"/}"
	src=${src%.o}.c
	# calls inlined in its own file: the name on an indented line of its
	# code (its definition and declarations start at column 0)
	n=$("$CC" -fpreprocessed -dD -E -P "$src" 2>/dev/null | grep -w -- "$fn" | grep -c '^[[:space:]]' || true)
	if [ "$n" -eq 0 ]; then
		echo "$fn ${src#"$srcdir"/}" >>"$tmp/unused"
	fi
done
sort -o "$tmp/unused" "$tmp/unused"

echo "1..1"
join -v 1 "$tmp/unused" "$tmp/seams" | while read -r fn src; do
	echo "unreferenced: $fn ($src): pfmon's code never calls it; delete it (and its tests)"
done >"$tmp/report"
awk '{ print $1 }' "$tmp/unused" | join -v 2 - "$tmp/seams" | while read -r fn; do
	echo "tests/test-seams.list: pfmon calls $fn, or it is gone: remove its line"
done >>"$tmp/report"
if [ -s "$tmp/report" ]; then
	sed 's/^/# /' "$tmp/report"
	echo "not ok 1 - every global function of src/ is called by pfmon"
else
	echo "ok 1 - every global function of src/ is called by pfmon ($(wc -l <"$tmp/seams") test seams)"
fi
