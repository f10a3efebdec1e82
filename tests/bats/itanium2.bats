#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The Itanium 2 model through the CLI: --check, -l, -i, --dump-event-table
# and the errors.  The model is a dry run on any host.

load helpers

ita2() {
	run "$PFMON" --pmu=itanium2 "$@"
}

@test "--check lists each event with its PMC/PMD and value, in command-line order" {
	ita2 -e cpu_cycles,L2_REFERENCES --check
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" =~ ^CPU_CYCLES\ +PMC5/PMD5\ +0x001228$ ]]
	[[ "${lines[1]}" =~ ^L2_REFERENCES\ +PMC4/PMD4\ +0x00b128$ ]]
}

@test "the PMU can also be chosen through PFMON_PMU" {
	PFMON_PMU=itanium2 run "$PFMON" -e nops_retired --check
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" =~ ^NOPS_RETIRED\ +PMC4/PMD4 ]]
}

@test "--check prints the other registers it writes" {
	ita2 -e branch_event,DATA_EAR_CACHE_LAT4 --check
	[ "$status" -eq 0 ]
	[[ "$output" =~ PMC11\ +0x0000000000000008 ]]
	[[ "$output" =~ PMC12\ +0x0000000000003f08 ]]
}

@test "-v decodes every field" {
	ita2 -v -e nops_retired --event-thresholds=5 --check
	[ "$status" -eq 0 ]
	[[ "$output" =~ plm=0x8\ ev=0x0\ oi=0x1\ pm=0x0\ es=0x50\ umask=0x0\ threshold=0x5 ]]
}

@test "an invalid combination names the events and the rule, exit 1" {
	ita2 -e loads_retired,stores_retired --check
	[ "$status" -eq 1 ]
	[[ "$output" =~ error:\ events\ \'LOADS_RETIRED\'\ and\ \'STORES_RETIRED\'\ are\ in\ different\ L1D\ sets\ \(3\ and\ 4\)\ \(rule\ C-L1D-1\) ]]
}

@test "a threshold at the max increment is refused with C-GEN-2" {
	ita2 -e nops_retired --event-thresholds=6 --check
	[ "$status" -eq 1 ]
	[[ "$output" =~ \(rule\ C-GEN-2\) ]]
}

@test "the pfmon 3.x EVENT_UMASK spelling is accepted" {
	ita2 -e l1d_read_misses_all,L1D_READS_SET1 --check
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" =~ ^L1D_READ_MISSES.ALL ]]
}

@test "a code range prints the IBR pair and the over-coverage" {
	ita2 -e l1i_reads --irange=0x4000000000001100-0x4000000000002100 --check
	[ "$status" -eq 0 ]
	[[ "$output" =~ IBR0\ +0x4000000000000000 ]]
	[[ "$output" =~ start\ offset\ -0x1100,\ end\ offset\ \+0x1f00 ]]
}

@test "running a command on a modelled PMU is an error, not a dry run" {
	ita2 -e cpu_cycles true
	[ "$status" -ne 0 ]
	[[ "$output" =~ error: ]]
}

@test "-i prints the event's properties" {
	ita2 -i NOPS_RETIRED
	[ "$status" -eq 0 ]
	[[ "$output" =~ Code\ +:\ 0x50 ]]
	[[ "$output" =~ MaxIncr\ +:\ 6\ \ \(Threshold\ \[0-5\]\) ]]
}

@test "-l with a regex lists matching entries" {
	ita2 -l '^L2_OZQ_CANCELS1'
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 15 ]
}

@test "-l lists the 34 libpfm3 names after the manual's 473, each marked" {
	ita2 -l
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 507 ]
	# the manual's entries first, unmarked
	[ -z "$(printf '%s\n' "${lines[@]:0:473}" | grep ' ')" ]
	[ "$(printf '%s\n' "${lines[@]:473}" | grep -c '  \[libpfm3 \(alias\|name\) of ')" -eq 34 ]
	printf '%s\n' "$output" | grep -qx 'L2_OZQ_FULL_THIS  \[libpfm3 alias of L2_OZQ_FULL\]'
	printf '%s\n' "$output" | grep -qx 'BR_MISPRED_DETAIL_NTRETIND_ALL_PRED  \[libpfm3 alias of BR_MISPRED_DETAIL.NRETIND.ALL_PRED\]'
	printf '%s\n' "$output" | grep -qx 'EXTERN_DP_PINS_0_TO_3_PIN0_OR_PIN1  \[libpfm3 name of EXTERN_DP_PINS_0_TO_3.PIN0_OR_PIN1\]'
	printf '%s\n' "$output" | grep -qx 'BE_LOST_BW_DUE_TO_FE_IBFULL  \[libpfm3 name of BE_LOST_BW_DUE_TO_FE.IBFULL\]'
	# the pfmon 3.x spelling (-L) lists them too; a regex matches the name only
	ita2 -L
	[ "${#lines[@]}" -eq 507 ]
	ita2 -l 'SYLL_NOT_DISPERSED_.*_OR_'
	[ "${#lines[@]}" -eq 10 ]
	ita2 -l 'alias'
	[ "$status" -ne 0 ]
}

@test "--check echoes a libpfm3 name as given, a manual spelling canonically" {
	ita2 -e L2_OZQ_FULL_THIS,cpu_cycles,EXTERN_DP_PINS_0_TO_3_PIN0_OR_PIN1,l1d_read_misses_all --check
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" =~ ^L2_OZQ_FULL_THIS\ +PMC4/PMD4\ +0x00bc28$ ]]
	[[ "${lines[1]}" =~ ^CPU_CYCLES\ +PMC6/PMD6 ]]
	[[ "${lines[2]}" =~ ^EXTERN_DP_PINS_0_TO_3_PIN0_OR_PIN1\ +PMC7/PMD7\ +0x039e28$ ]]
	[[ "${lines[3]}" =~ ^L1D_READ_MISSES.ALL\ +PMC5/PMD5 ]]
	ita2 -e br_mispred_detail_ntretind_all_pred --check
	[[ "${lines[0]}" =~ ^br_mispred_detail_ntretind_all_pred\ +PMC4/PMD4 ]]
}

@test "--dump-event-table is a TSV with the documented header" {
	ita2 --dump-event-table
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "$(printf 'name\tcode\tumask\tgroup\tset\tear\tbtb\tiar\tdar\topc\tmaxincr\tcounters')" ]
	[ "${#lines[@]}" -eq 508 ]
	# the libpfm3 names after the manual's rows, marked in the name column,
	# with the columns of the event they program
	[ -z "$(printf '%s\n' "${lines[@]:1:473}" | cut -f1 | grep ' ')" ]
	printf '%s\n' "$output" | grep -qx "$(printf 'L2_OZQ_FULL_THIS \\[libpfm3 alias of L2_OZQ_FULL\\]\t0xbc\t0x0\tL2\t5\tnone\tN\tN\tN\tN\t1\t4,5,6,7')"
	printf '%s\n' "$output" | grep -q "$(printf '^SYLL_NOT_DISPERSED_EXPL_OR_FE \\[libpfm3 name of SYLL_NOT_DISPERSED.EXPL_OR_FE\\]\t0x4e\t0x5\t')"
	[ -z "$(printf '%s\n' "$output" | awk -F'\t' 'NF != 12')" ]
}
