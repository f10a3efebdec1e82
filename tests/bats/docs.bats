#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Docs drift: the options of --help (generated from the option table) and
# the man page agree (the shell completion asks pfmon itself: completion.bats);
# --help and the man pages fit 80 columns and render without a warning.

load helpers

help_options() {
	"$PFMON" --help | grep -o -- '--[a-z0-9][a-z0-9-]*' | sort -u
}

@test "every option of --help is in the man page" {
	man="$TESTS_SRCDIR/../man/pfmon.1"
	missing=
	for o in $(help_options); do
		roff=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
		grep -q -- "$roff" "$man" || missing="$missing $o"
	done
	[ -z "$missing" ] || { echo "not in pfmon.1:$missing"; return 1; }
}

@test "--help fits 80 columns" {
	run "$PFMON" --help
	[ "$status" -eq 0 ]
	long=$(printf '%s\n' "$output" | awk 'length > 80')
	[ -z "$long" ] || { echo "wider than 80 columns:"; echo "$long"; false; }
}

# every man page of man/: no warning from mandoc -Tlint nor from groff -ww
# (tables through tbl), and no rendered line wider than 80 columns
@test "every man page is lint-clean and fits 80 columns" {
	command -v groff >/dev/null || skip "groff not installed"
	command -v mandoc >/dev/null || skip "mandoc not installed"
	n=0
	for man in "$TESTS_SRCDIR"/../man/*.[1-8]; do
		n=$((n + 1))
		run mandoc -Tlint "$man"
		[ -z "$output" ] || { echo "$output"; false; }
		run bash -c "groff -t -man -Tutf8 -ww -z '$man' 2>&1"
		[ -z "$output" ] || { echo "$man: $output"; false; }
		# ASCII output: a byte is a column
		run bash -c "groff -t -man -Tascii -P-cbou '$man' 2>/dev/null | awk 'length > 80'"
		[ -z "$output" ] || { echo "$man: wider than 80 columns:"; echo "$output"; false; }
	done
	[ "$n" -ge 3 ]
}

@test "the man pages, the package and --version give one version" {
	version=$("$PFMON" --version | sed -n '1s/^pfmon version //p')
	[ -n "$version" ]
	for man in "$TESTS_SRCDIR"/../man/*.[1-8]; do
		grep -q "^\.TH .* \"pfmon $version\"" "$man" || { echo "$man: not pfmon $version"; false; }
	done
	head -1 "$TESTS_SRCDIR/../debian/changelog" | grep -q "^pfmon ($version-[0-9][^)]*)"
}

@test "--version states the licence, which COPYING holds" {
	run "$PFMON" --version
	[ "$status" -eq 0 ]
	[[ "$output" == *"License GPL-2.0-or-later"* ]]
	[ -z "$(printf '%s\n' "$output" | awk 'length > 80')" ]
	run "$PFMON" -V
	[[ "$output" == *"GPL-2.0-or-later"* ]]
	grep -q "GNU GENERAL PUBLIC LICENSE" "$TESTS_SRCDIR/../COPYING"
	grep -q "Version 2, June 1991" "$TESTS_SRCDIR/../COPYING"
}

@test "pfmon-metrics(5) renders without warnings and documents every key of the syntax" {
	man="$TESTS_SRCDIR/../man/pfmon-metrics.5"
	if command -v groff >/dev/null; then
		run bash -c "groff -man -Tutf8 -ww -z '$man' 2>&1"
		[ -z "$output" ]
	fi
	# the keys the parser accepts are the ones its error message lists
	printf 'metric A\n\tformula 1\n\tbogus 1\n' >"$BATS_TEST_TMPDIR/m.def"
	run "$PFMON" --metrics-file="$BATS_TEST_TMPDIR/m.def" --show-metrics
	[ "$status" -eq 1 ]
	keys=$(printf '%s' "$output" | sed -n 's/.*unknown key .bogus. (\(.*\))/\1/p' | tr -d ',')
	[ -n "$keys" ]
	for k in $keys; do
		roff=$(printf '%s' "$k" | sed 's/-/\\\\-/g')
		grep -q -- "^\\\\fB$roff\\\\fR" "$man" || { echo "key $k not in pfmon-metrics.5"; return 1; }
	done
}

# GPL-2.0-or-later: every source file of the tree says so in its first lines
# (contrib/gen-itanium2-table writes it into the table it generates; the C
# code protoc-c makes of src/report/profile.proto, which says it, is not ours)
@test "every source file carries the SPDX licence line" {
	top="$TESTS_SRCDIR/.."
	missing=$(find "$top/src" "$top/tests/bats" "$top/tests/unit" "$top/tests/fixtures" \
		"$top/tests/fuzz" "$top/bench" "$top/contrib" "$top/man" -type f \
		\( -name '*.[ch]' -o -name '*.cc' -o -name '*.sh' -o -name '*.bats' -o -name '*.bash' \
		-o -name '*.py' -o -name '*.awk' -o -name '*.am' -o -name '*.[15]' \) \
		-not -path '*/corpus/*' -not -path '*/crashes/*' -not -path '*/.deps/*' -not -name '*.pb-c.[ch]' -print |
		while read -r f; do
			head -3 "$f" | grep -q 'SPDX-License-Identifier: GPL-2.0-or-later' || echo "$f"
		done)
	[ -z "$missing" ] || { echo "no SPDX line: $missing"; false; }
	n=$(find "$top/src" -name '*.c' | wc -l)
	[ "$n" -gt 50 ]
}
