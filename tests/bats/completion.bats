#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The bash completion (contrib/pfmon.bash-completion), called as bash calls
# it: every option of --help and nothing else, the values pfmon accepts
# (each offered value is given back to pfmon, which must accept it), event
# lists completed without losing what was typed, pmu::EVENT names, values
# given as separate words, and the command's own words left to it.

load helpers
load completion

setup() {
	require_bash_completion
}

replies() { # the replies alone, without the <compopt ...> line
	printf '%s\n' "$output" | grep -v '^<compopt' || true
}

help_options() {
	"$PFMON" --help | grep -o -- '--[a-z0-9][a-z0-9-]*' | sort -u
}

@test "'--' completes every option of --help and nothing else" {
	run complete_line "pfmon --"
	[ "$status" -eq 0 ]
	diff <(help_options) <(replies | sed 's/=$//' | sort -u)
}

@test "an option that takes a value completes with '=' and no space" {
	run complete_line "pfmon --report-so"
	[ "$status" -eq 0 ]
	[ "$(replies)" = "--report-sort=" ]
	[[ "$output" == *"<compopt -o nospace"* ]]
	run complete_line "pfmon --no-inh"
	[ "$(replies)" = "--no-inherit" ]
	[[ "$output" != *nospace* ]]
}

# value_check OPTION VALUE: pfmon given VALUE for OPTION (the callers check
# that it is accepted)
value_check() {
	case $1 in
	--report-sort | --report-format) "$PFMON" "$1=$2" --report=/nonexistent ;;
	--pmu) "$PFMON" "$1=$2" -I ;; # -l: a model without an event table (itanium) has none
	--smpl-module-info) "$PFMON" "$1=$2" ;;
	-S) "$PFMON" -S "$2" ;;
	--smpl-module) "$PFMON" "$1=$2" --report=/nonexistent ;;
	esac
}

@test "every --report-sort key, and only those the parser accepts" {
	run complete_line "pfmon --report-sort="
	[ "$status" -eq 0 ]
	keys=$(replies)
	[ -n "$keys" ]
	for k in $keys; do
		run value_check --report-sort "$k"
		[[ "$output" != *"invalid value"* ]] || { echo "$k refused: $output"; false; }
	done
	# the parser's own list, in its message, is the completion's
	run "$PFMON" --report-sort=bogus --report=/nonexistent
	[ "$status" -eq 2 ]
	listed=$(printf '%s' "$output" | sed -n 's/.*sort keys are //p' | sed 's/, / /g; s/ and / /')
	[ "$(printf '%s\n' $listed | sort)" = "$(printf '%s\n' $keys | sort)" ]
}

@test "values as a separate word: --report-sort KEY, --pmu NAME, -S NAME" {
	run complete_line "pfmon --report-sort li"
	[ "$(replies)" = "line" ]
	run complete_line "pfmon --report-format "
	formats=$(replies)
	[[ "$formats" == *json* ]]
	for f in $formats; do
		run value_check --report-format "$f"
		[[ "$output" != *"invalid value"* ]] || { echo "$f refused: $output"; false; }
	done
	run complete_line "pfmon --pmu "
	pmus=$(replies)
	[[ "$pmus" == *itanium2* ]]
	for p in $pmus; do
		run value_check --pmu "$p"
		[ "$status" -eq 0 ] || { echo "--pmu=$p: $output"; false; }
	done
	run complete_line "pfmon -S "
	modules=$(replies)
	[[ "$modules" == *dear-hist* ]]
	for m in $modules; do
		run value_check -S "$m"
		[ "$status" -eq 0 ] || { echo "-S $m: $output"; false; }
	done
	# an abbreviated long option takes its value as getopt_long reads it
	run complete_line "pfmon --report-so bin"
	[ "$(replies)" = "binary" ]
}

@test "event lists: the last entry is completed, the ones typed are kept" {
	run complete_line "pfmon -e cycles,task-c"
	[ "$(replies)" = "cycles,task-clock" ]
	run complete_line "pfmon --events=page-faults,cont"
	[ "$(replies)" = "page-faults,context-switches" ]
	run complete_line "pfmon --events page-faults,"
	[ "$(replies | wc -l)" -eq "$("$PFMON" -l | sort -u | wc -l)" ]
	[ -z "$(replies | grep -v '^page-faults,')" ]
	# -i takes one event: a comma is no separator there
	run complete_line "pfmon -i task-c"
	[ "$(replies)" = "task-clock" ]
}

@test "pmu::EVENT names: bash gets the part after the last ':'" {
	name=$("$PFMON" -l | grep -m1 '::' || true)
	[ -n "$name" ] || skip "libpfm4 lists no pmu::EVENT names on this machine"
	pmu=${name%%::*}
	ev=${name#*::}
	# readline replaces what follows the last ':' with the reply
	run complete_line "pfmon -e ${pmu}::${ev%?}"
	replies | grep -qx -- "$ev"
	run complete_line "pfmon -e task-clock,${pmu}::${ev%?}"
	replies | grep -qx -- "$ev"
	for r in $(replies); do
		"$PFMON" -l | grep -qx -- "${pmu}::$r"
	done
}

@test "--pmu on the line chooses the events offered" {
	run complete_line "pfmon --pmu itanium2 -e ALAT_CAPACITY_MISS.I"
	[ "$(replies)" = "ALAT_CAPACITY_MISS.INT" ]
	run complete_line "pfmon --pmu=itanium2 --check -e CPU_CY"
	[ "$(replies)" = "CPU_CYCLES" ]
	# the host's list has no such name
	run complete_line "pfmon --check -e CPU_CY"
	[ -z "$(replies)" ]
}

@test "file options complete files" {
	touch "$BATS_TEST_TMPDIR/run-one.pfs" "$BATS_TEST_TMPDIR/run-two.pfs"
	run complete_line "pfmon --report $BATS_TEST_TMPDIR/run-t"
	[ "$(replies)" = "$BATS_TEST_TMPDIR/run-two.pfs" ]
	run complete_line "pfmon --smpl-outfile=$BATS_TEST_TMPDIR/run-o"
	[ "$(replies)" = "$BATS_TEST_TMPDIR/run-one.pfs" ]
}

@test "the command and its arguments are not pfmon's" {
	run complete_line "pfmon -e task-clock ech"
	replies | grep -qx echo
	# after '=' and ':' in earlier words (bash split them; the offset holds)
	run complete_line "pfmon --events=task-clock,perf::page-faults -- ech"
	replies | grep -qx echo
	# the command's options are its own, even one named like pfmon's
	run complete_line "pfmon -e task-clock true --eve"
	[ -z "$(replies | grep -- '--events')" ]
	run complete_line "pfmon -e task-clock true -e "
	[ -z "$(replies | grep -x 'task-clock')" ]
	# -e's value is not the command
	run complete_line "pfmon -ke task-clock --no-inh"
	[ "$(replies)" = "--no-inherit" ]
}

@test "a real interactive bash on a terminal completes the lines in place" {
	command -v python3 >/dev/null || skip "python3 is not installed"
	name=$("$PFMON" -l | grep -m1 '::' || echo task-clock)
	run env PATH="$(dirname "$PFMON"):$PATH" python3 "$TESTS_SRCDIR/bats/complete_pty.py" \
		"$BASH_COMPLETION_SCRIPT" "$COMPLETION_SCRIPT" \
		"pfmon -e cycles,${name%?}" "pfmon --events=cycles,task-c" "pfmon --report-sort li" \
		"pfmon --report-so" "pfmon -e task-clock -- ech"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "LINE<pfmon -e cycles,$name >" ]
	[ "${lines[1]}" = "LINE<pfmon --events=cycles,task-clock >" ]
	[ "${lines[2]}" = "LINE<pfmon --report-sort line >" ]
	[ "${lines[3]}" = "LINE<pfmon --report-sort=>" ]
	[ "${lines[4]}" = "LINE<pfmon -e task-clock -- echo >" ]
}
