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
	printf '%s\n' "$output" | grep -qx 'PMC11 *0x0000000000000000'
	[[ "$output" == *"PMC11 (pt bit 28, the data EAR fields at PMC10's positions) follows libpfm3's pfm_ita_pmc_reg_t"* ]]
}

@test "itanium: the event table through -l, -i, --check, --dump-event-table and -I" {
	run --separate-stderr "$PFMON" --pmu=itanium -l
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 230 ]
	[ "${lines[0]}" = "ALAT_INST_CHKA_LDC_ALL" ]
	run "$PFMON" --pmu=itanium -i NOPS_RETIRED
	[[ "$output" == *"Counters : [ 4 5 ]"* ]]
	[[ "$output" == *"MaxIncr  : 6  (Threshold [0-5], EVENT:thres=N)"* ]]
	run "$PFMON" --pmu=itanium -i DATA_EAR_CACHE_LAT64
	[[ "$output" == *"EAR umask : 0x4 (PMC11)"* ]]
	# an event restricted to PMC4-5 gets one of them; the others take what is left
	run --separate-stderr "$PFMON" --pmu=itanium --check -e CPU_CYCLES,IA64_INST_RETIRED,NOPS_RETIRED
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" =~ ^CPU_CYCLES\ +PMC6/PMD6\ +0x001228$ ]]
	[[ "${lines[1]}" =~ ^IA64_INST_RETIRED\ +PMC4/PMD4\ +0x000828$ ]]
	[[ "${lines[2]}" =~ ^NOPS_RETIRED\ +PMC5/PMD5\ +0x003028$ ]]
	run --separate-stderr "$PFMON" --pmu=itanium --check -e IA64_INST_RETIRED,NOPS_RETIRED,INST_DISPERSED
	[ "$status" -eq 1 ]
	one_error_line "^error: 'IA64_INST_RETIRED', 'NOPS_RETIRED', 'INST_DISPERSED' count on PMC4 or PMC5 only: 3 events for 2 counters \(rule ITA-COUNTERS\)$"
	run --separate-stderr "$PFMON" --pmu=itanium --check -e NOPS_RETIRED:thres=6
	[ "$status" -eq 1 ]
	one_error_line "^error: threshold 6 of 'NOPS_RETIRED:thres=6' is not below its max increment 6 \(0-5\) \(rule ITA-THRESHOLD\)$"
	run --separate-stderr "$PFMON" --pmu=itanium --check -v -e NOPS_RETIRED:thres=5
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "    plm=0x8 oi=0x1 pm=0x0 es=0x30 umask=0x0 threshold=0x5 ism=0x0" ]
	# EAR and BTB events program their configuration registers
	run --separate-stderr "$PFMON" --pmu=itanium --check -e INSTRUCTION_EAR_TLB_VHPT,BRANCH_EVENT
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | grep -qx 'PMC10 *0x0000000000040088'
	printf '%s\n' "$output" | grep -qx 'PMC12 *0x000000000000ff88'
	run --separate-stderr "$PFMON" --pmu=itanium --check --iear=cache:1 -e INSTRUCTION_EAR_CACHE_LAT4
	[ "$status" -eq 1 ]
	one_error_line "which --iear programs already \(rule ITA-EAR\)$"
	# an opcode match qualifies only events that support it
	run --separate-stderr "$PFMON" --pmu=itanium --check --pmc8-match=m:0x1:0x7fffffe -e CPU_CYCLES
	[ "$status" -eq 1 ]
	one_error_line "^error: event 'CPU_CYCLES' cannot be qualified by opcode matching \(--pmc8-match\) \(rule ITA-QUAL-OPC\)$"
	run --separate-stderr "$PFMON" --pmu=itanium --check --pmc8-match=m:0x1:0x7fffffe -e IA64_TAGGED_INST_RETIRED_PMC8
	[ "$status" -eq 0 ]
	run --separate-stderr "$PFMON" --pmu=itanium --check -e CPU_CYCLE
	[ "$status" -eq 2 ]
	one_error_line "^error: unknown event 'CPU_CYCLE' \(the first-generation Itanium events: pfmon --pmu=itanium -l\)$"
	run "$PFMON" --pmu=itanium --dump-event-table
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 231 ]
	[ "${lines[0]}" = "$(printf 'name\tcode\tumask\tear\tbtb\tiar\tdar\topc\tmaxincr\tcounters')" ]
	printf '%s\n' "$output" | grep -qx "$(printf 'INST_DISPERSED\t0x2d\t0x0\tnone\tN\tY\tN\tN\t6\t4,5')"
	run "$PFMON" --pmu=itanium -I
	[[ "$output" == *"event table: 230 events"* ]]
}

@test "itanium: the register checks and the options of another model" {
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

@test "itanium: --event-thresholds, the Itanium 2 model's option, programs the fields thres=N does" {
	# one option name for both Itanium models: the same dump as EVENT:thres=N
	run -0 --separate-stderr "$PFMON" --pmu=itanium --check -v -e NOPS_RETIRED:thres=5
	want="$output"
	run -0 --separate-stderr "$PFMON" --pmu=itanium --check -v -e NOPS_RETIRED --event-thresholds=5
	[ "$output" = "$want" ]
	[ "${lines[1]}" = "    plm=0x8 oi=0x1 pm=0x0 es=0x30 umask=0x0 threshold=0x5 ism=0x0" ]
	# per event, in -e order; an empty entry keeps the event's own; per event set
	run -0 --separate-stderr "$PFMON" --pmu=itanium --check -e NOPS_RETIRED:thres=4,L2_REFERENCES --event-thresholds=,2 \
		-e CPU_CYCLES,NOPS_RETIRED --event-thresholds=0,3
	[ "${lines[0]}" = "set 0:" ]
	[[ "${lines[1]}" =~ ^NOPS_RETIRED\ +PMC4/PMD4\ +0x403028$ ]]
	[[ "${lines[2]}" =~ ^L2_REFERENCES\ +PMC5/PMD5\ +0x206828$ ]]
	[[ "$output" =~ "set 1:"$'\n'"CPU_CYCLES "+[^$'\n']*$'\n'"NOPS_RETIRED "+"PMC5/PMD5  0x303028" ]]
	# the model's rule: below the max increment, as thres=6 is refused
	run --separate-stderr "$PFMON" --pmu=itanium --check -e NOPS_RETIRED --event-thresholds=6
	[ "$status" -eq 1 ]
	one_error_line "^error: threshold 6 of 'NOPS_RETIRED' is not below its max increment 6 \(0-5\) \(rule ITA-THRESHOLD\)$"
	run --separate-stderr "$PFMON" --pmu=itanium --check -e NOPS_RETIRED --event-thresholds=1,2
	[ "$status" -eq 2 ]
	one_error_line "^error: invalid value '1,2' for option '--event-thresholds': too many thresholds specified$"
	run --separate-stderr "$PFMON" --pmu=itanium --check -e NOPS_RETIRED --event-thresholds=8
	[ "$status" -eq 2 ]
	one_error_line "a threshold is 0-7"
	run --separate-stderr "$PFMON" --pmu=itanium --check -e NOPS_RETIRED:thres=1 --event-thresholds=2
	[ "$status" -eq 2 ]
	one_error_line "given twice"
	# the Itanium 2 model still takes it as its own
	run -0 --separate-stderr "$PFMON" --pmu=itanium2 --check -v -e NOPS_RETIRED --event-thresholds=5
	[[ "$output" == *"threshold=0x5"* ]]
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
