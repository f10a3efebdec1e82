#!/usr/bin/env bats
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

@test "the man page renders without warnings" {
	command -v groff >/dev/null || skip "groff not installed"
	run bash -c "groff -man -Tutf8 -ww -z '$TESTS_SRCDIR/../man/pfmon.1' 2>&1"
	[ -z "$output" ]
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
