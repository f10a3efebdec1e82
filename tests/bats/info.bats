#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# -l, -L, -i, -I, --help, --version

bats_require_minimum_version 1.5.0
load helpers

@test "-l lists perf's generic names and libpfm4's events" {
	run "$PFMON" -l
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | grep -qx task-clock
	printf '%s\n' "$output" | grep -qx cycles
	# libpfm4's own events need a model it knows: force one, since this
	# host's CPU may be newer than the installed libpfm4
	LIBPFM_FORCE_PMU=skl run "$PFMON" -l
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | grep -qx task-clock
	printf '%s\n' "$output" | grep -qx 'skl::INST_RETIRED'
	[ "${#lines[@]}" -gt 50 ]
}

@test "-lREGEX filters, case-insensitive; no match is an error" {
	run "$PFMON" -lTASK-CL
	[ "$status" -eq 0 ]
	[ "$output" = "task-clock" ]
	run --separate-stderr "$PFMON" -lzzzzzqqq
	[ "$status" -eq 1 ]
	one_error_line "^error: no event matches 'zzzzzqqq'$"
	run --separate-stderr "$PFMON" '-l(('
	[ "$status" -eq 2 ]
	one_error_line "^error: invalid regular expression"
}

@test "-L adds unit-mask variants of a forced model" {
	LIBPFM_FORCE_PMU=skl run "$PFMON" -L'INST_RETIRED'
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | grep -qx 'skl::INST_RETIRED'
	printf '%s\n' "$output" | grep -qx 'skl::INST_RETIRED:ANY_P'
}

@test "--dump-event-table on the host: libpfm4's table, a row per event -l lists" {
	LIBPFM_FORCE_PMU=skl run --separate-stderr "$PFMON" --dump-event-table
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "${lines[0]}" = "$(printf 'name\tpmu\tcode\tumasks\tdesc')" ]
	printf '%s\n' "$output" | grep -q "^task-clock	perf_sw	0x1	-	"
	# libpfm4's own row: code, unit masks ('*': the default) as -i shows them
	printf '%s\n' "$output" | grep -q "^INST_RETIRED	skl	0xc0	ANY_P\*,ALL,TOTAL_CYCLES,PREC_DIST	"
	# five fields a row, and the rows are -l's events
	[ -z "$(printf '%s\n' "$output" | awk -F'\t' 'NF != 5')" ]
	[ "$((${#lines[@]} - 1))" -eq "$(LIBPFM_FORCE_PMU=skl "$PFMON" -l | wc -l)" ]
}

@test "-i describes a generic event with its encoding" {
	run "$PFMON" -i page-faults
	[ "$status" -eq 0 ]
	[[ "$output" =~ Name\ +:\ page-faults ]]
	[[ "$output" =~ Encoding\ +:\ type=1\ config=0x2 ]]
	[[ "$output" =~ Canonical\ +:\ perf::PERF_COUNT_SW_PAGE_FAULTS ]]
}

@test "-i describes a libpfm4 event: unit masks, modifiers, encoding" {
	LIBPFM_FORCE_PMU=skl run "$PFMON" -i INST_RETIRED:ANY_P
	[ "$status" -eq 0 ]
	[[ "$output" =~ Name\ +:\ INST_RETIRED ]]
	[[ "$output" =~ Umask\ +:\ 0x00\ :\ ANY_P ]]
	[[ "$output" =~ Modifier\ +:\ c\ \(integer\) ]]
	[[ "$output" =~ Encoding\ +:\ type=4\ config=0xc0 ]]
	run --separate-stderr "$PFMON" -i NO_SUCH_EVENT_AT_ALL
	[ "$status" -eq 2 ]
	one_error_line "^error: unknown event 'NO_SUCH_EVENT_AT_ALL'"
}

@test "-I lists the PMU models" {
	run "$PFMON" -I
	[ "$status" -eq 0 ]
	[[ "$output" =~ "supported pfmon PMU models: [host]" ]]
}

@test "--help is generated from the option table; --version" {
	run "$PFMON" --help
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" =~ ^usage:\ pfmon ]]
	[[ "$output" =~ "--events=EV1,EV2,..." ]]
	run "$PFMON" -V
	[[ "$output" =~ ^pfmon\ version\ [0-9] ]]
}

@test "every registered model answers -l, -i and --check through the CLI" {
	run "$PFMON" -I
	[ "$status" -eq 0 ]
	models=$(printf '%s\n' "$output" | sed -n 's/^supported pfmon PMU models://p' | tr -d '[]')
	[ -n "$models" ]
	for m in $models; do
		run --separate-stderr "$PFMON" --pmu="$m" -l
		if [ "$status" -ne 0 ] && [[ "$stderr" == *"has no events"* ]]; then
			# a manual without an event table: -i says so too, --check programs the registers
			run --separate-stderr "$PFMON" --pmu="$m" -i X
			[ "$status" -eq 1 ] && [[ "$stderr" == *"has no events"* ]] || false
			run "$PFMON" --pmu="$m" --check
			[ "$status" -eq 0 ] && [ -n "$output" ] || false
			run "$PFMON" --pmu="$m" -I
			[[ "$output" == *"event table: none"* ]]
			continue
		fi
		[ "$status" -eq 0 ] || { echo "$m: -l: $output $stderr"; false; }
		first=${lines[0]}
		run "$PFMON" --pmu="$m" -i "$first"
		[ "$status" -eq 0 ] || { echo "$m: -i $first: $output"; false; }
		run "$PFMON" --pmu="$m" --check -e "$first"
		[ "$status" -eq 0 ] || { echo "$m: --check -e $first: $output"; false; }
		[[ "$output" == *"$first"* ]]
	done
}

@test "an option of a model that is not selected names its model" {
	run --separate-stderr "$PFMON" -e task-clock --opc-match8=junk true
	[ "$status" -eq 2 ]
	one_error_line "^error: option '--opc-match8' is for the Itanium 2 model \(--pmu=itanium2\)$"
	run --separate-stderr "$PFMON" --pmu=itanium2 --check -e CPU_CYCLES --opc-match8=junk
	[ "$status" -eq 2 ]
	one_error_line "^error: invalid value 'junk' for option '--opc-match8'"
}
