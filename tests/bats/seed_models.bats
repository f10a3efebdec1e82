#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The first-generation Itanium and Alpha 21264/EV67 ProfileMe models through
# the command line: --check -v with the explanations, -i, -I, errors.
# Register values and rule ids row by row: tests/golden/{itanium,ev67}.tsv.

bats_require_minimum_version 1.5.0
load helpers

@test "itanium: --check -v explains an instruction address, an opcode and a data address" {
	run --separate-stderr "$PFMON" --pmu=itanium --check -v --pmc13-ta=0 \
		--ibr-pair=0:0x4000000000001000:0xfffffffffff000 --explain-address=0x4000000000002230 \
		--pmc8-match=m:0x4000:0x1fff --explain-opcode=M:0x8000000 \
		--pmc11-pt=0 --dbr-pair=1:0x600000000000a000:0xffffffffffff00 --explain-data-address=0x600000000000a010:rse
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ "${lines[0]}" =~ ^PMC13\ +0x0000000000000000$ ]]
	[ "${lines[1]}" = "    ta=0x0" ]
	printf '%s\n' "$output" | grep -qx 'PMC8 *0x800080000000fff8'
	printf '%s\n' "$output" | grep -qx '    m=0x1 i=0x0 f=0x0 b=0x0 match=0x4000 mask=0x1fff'
	printf '%s\n' "$output" | grep -qx 'IBR1 *0x0ffffffffffff000'
	printf '%s\n' "$output" | grep -qx 'DBR2 *0x600000000000a000'
	[[ "$output" == *"IBRmatch0 (IBR0=0x4000000000001000, IBR1.mask=0xfffffffffff000, plm=0xf): no: masked bits 50:0 differ, first at bit 13"* ]]
	[[ "$output" == *"IBRRangeTag = 0: no IBR pair matches"* ]]
	[[ "$output" == *"Match(PMC8): no: ematch: encoding bit 28 is 0, match bit 14 is 1 and not masked"* ]]
	[[ "$output" == *"DBRRangeTag = yes: PMC11.pt = 0: an RSE operation or VHPT walk that hits the DBR range is tagged"* ]]
	[[ "$output" == *"PMC11's bit position is in §6.2.7.4, which the seed lacks"* ]]
}

@test "itanium: no event table, said by -l, -i, -e and -I" {
	run --separate-stderr "$PFMON" --pmu=itanium -l
	[ "$status" -eq 1 ]
	one_error_line "^error: the first-generation Itanium model has no events: seed 000 has no event table"
	run --separate-stderr "$PFMON" --pmu=itanium --check -e CPU_CYCLES
	[ "$status" -eq 1 ]
	one_error_line "has no event table .* \(rule ITA-EVENTS\)$"
	run "$PFMON" --pmu=itanium -I
	[[ "$output" == *"event table: none: the seed documents no events, and the model invents none"* ]]
	run --separate-stderr "$PFMON" --pmu=itanium --check --explain-address=0x0010000000000000
	[ "$status" -eq 1 ]
	one_error_line "is not an implemented address .* \(rule ITA-VA\)$"
	run --separate-stderr "$PFMON" --pmu=itanium --check --ibr-pair=7:0:0
	[ "$status" -eq 2 ]
	one_error_line "^error: invalid value '7:0:0' for option '--ibr-pair': the pairs are 0 to 3"
	run --separate-stderr "$PFMON" --pmc13-ta=0 -e task-clock true
	[ "$status" -eq 2 ]
	one_error_line "^error: option '--pmc13-ta' is for the first-generation Itanium model \(--pmu=itanium\)$"
}

@test "ev67: the counters of the ProfileMe inputs, their caveats in -i, the refusals" {
	run --separate-stderr "$PFMON" --pmu=ev67 --check
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "note: CYCLES: PCTR1 counts every cycle of the profiled instruction's window (§6.10.3.3.1)" ]
	[[ "$output" == *"RETIRED_INSTRUCTIONS: plus or minus 4 instructions"* ]]
	run "$PFMON" --pmu=ev67 -i INUM_RETIRE_DELAY
	[[ "$output" == *"Counters  : PCTR1"* ]]
	[[ "$output" == *"the largest final PCTR1 value is the window length minus 2"* ]]
	run "$PFMON" --pmu=ev67 -i long_latency_probes
	[[ "$output" == *"Name      : BCACHE_MISS"* ]]
	[[ "$output" == *"Counters  : not stated in the manual"* ]]
	run --separate-stderr "$PFMON" --pmu=ev67 --check -e INUM_RETIRE_DELAY,MBOX_REPLAY_TRAPS
	[ "$status" -eq 1 ]
	one_error_line "^error: INUM_RETIRE_DELAY and MBOX_REPLAY_TRAPS both need PCTR1 \(rule EV67-COUNTER\)$"
	run --separate-stderr "$PFMON" --pmu=ev67 --check -e BCACHE_MISS
	[ "$status" -eq 1 ]
	one_error_line "\(rule EV67-UNSTATED\)$"
	run --separate-stderr "$PFMON" --pmu=ev67 --check -k -e CYCLES
	[ "$status" -eq 2 ]
	one_error_line "not documented for ProfileMe counting"
	run --separate-stderr "$PFMON" --pmu=ev67 -e CYCLES true
	[ "$status" -eq 1 ]
	one_error_line "use --check for a dry run"
	run "$PFMON" --pmu=ev67 --dump-event-table
	[ "${#lines[@]}" -eq 6 ]
	[ "${lines[0]}" = "$(printf 'name\tcounters\tsection\tcaveat')" ]
}
