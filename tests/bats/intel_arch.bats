#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The Intel architectural perfmon model (--pmu=intel_arch): CPUID.0AH from
# --cpuid or this CPU, the --check programming and its -v decoding, the
# agreement with libpfm4's ix86arch encoding through pfmon's own host
# model, refusals.

bats_require_minimum_version 1.5.0
load helpers

CORE2=0x07280202:0:0:0x503

@test "--pmu-info decodes a given CPUID leaf 0AH" {
	run "$PFMON" --pmu=intel_arch --pmu-info --cpuid=0x05300403:0x8:0:0x603
	[ "$status" -eq 0 ]
	[[ "$output" == *"version: 3 (modelled as v2)"* ]]
	[[ "$output" == *"general-purpose counters: 4, 48 bits wide"* ]]
	[[ "$output" == *"fixed counters: 3, 48 bits wide"* ]]
	[[ "$output" == *"EBX event vector: 5 bits"* ]]
	grep -q "LLC_REFERENCES *unavailable" <<<"$output"
	grep -q "LLC_MISSES *available" <<<"$output"
	grep -q "MISPREDICTED_BRANCH_RETIRED *unavailable" <<<"$output"
}

@test "--pmu-info on this host says where the leaf comes from" {
	run "$PFMON" --pmu=intel_arch --pmu-info
	[ "$status" -eq 0 ]
	if [[ "$output" == *"host CPUID.0AH:"* ]]; then
		# no leaf here (a VM hiding the PMU, an AMD CPU): a generic v2 PMU, said so
		[[ "$output" == *"modelled machine: a generic v2 PMU"* ]]
	else
		[[ "$output" == *"modelled machine: this CPU"* ]]
	fi
}

@test "--check assigns fixed counters first and writes the v2 global MSRs" {
	run "$PFMON" --pmu=intel_arch --cpuid=$CORE2 --check -e llc_misses:c=2:i,instruction_retired:k,unhalted_core_cycles
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "LLC_MISSES                               IA32_PERFEVTSEL0/IA32_PMC0  0x2d1412e" ]
	[ "${lines[1]}" = "INSTRUCTION_RETIRED                      IA32_FIXED_CTR_CTRL/IA32_FIXED_CTR0  0x0000a9" ]
	[ "${lines[2]}" = "UNHALTED_CORE_CYCLES                     IA32_FIXED_CTR_CTRL/IA32_FIXED_CTR1  0x0000a9" ]
	[ "${lines[3]}" = "IA32_PERF_GLOBAL_OVF_CTRL                0xc000000300000001" ]
	[ "${lines[4]}" = "IA32_PERF_GLOBAL_CTRL                    0x0000000300000001" ]
	[ "${lines[5]}" = "note: machine: --cpuid" ]
}

@test "-v decodes IA32_PERFEVTSELx and IA32_FIXED_CTR_CTRL" {
	run "$PFMON" --pmu=intel_arch --cpuid=$CORE2 --check -v -e LLC_Misses:e:u:k,UnHalted_Reference_Cycles
	[ "$status" -eq 0 ]
	[[ "$output" == *"event=0x2e umask=0x41 usr=0x1 os=0x1 e=0x1 pc=0x0 int=0x1 any=0x0 en=0x1 inv=0x0 cmask=0x0"* ]]
	[[ "$output" == *"en2=0x2 any2=0x0 pmi2=0x1"* ]]
	[[ "$output" == *"pmc=0x1 fixed=0x4 ovf_buffer=0x1 cond_chgd=0x1"* ]]
}

# the value pfmon's host model gets from libpfm4 (perf's config: event,
# umask, E, INV, CMASK) plus USR/OS from its levels and INT|EN, as libpfm4
# sets them for the raw register
libpfm_evtsel() {
	local line config levels v
	line=$(LIBPFM_FORCE_PMU=ix86arch "$PFMON" --check "$@" | head -1)
	config=$(sed -n 's/.* config=\(0x[0-9a-f]*\).*/\1/p' <<<"$line")
	levels=$(sed -n 's/.* levels=\([uk]*\).*/\1/p' <<<"$line")
	v=$((config | 1 << 20 | 1 << 22))
	[[ $levels == *u* ]] && v=$((v | 1 << 16))
	[[ $levels == *k* ]] && v=$((v | 1 << 17))
	printf '0x%x\n' "$v"
}

@test "PERFEVTSEL values equal libpfm4's ix86arch encoding, through the host model" {
	for ev in UNHALTED_CORE_CYCLES:c=1 INSTRUCTION_RETIRED:e:c=3 LLC_REFERENCES:u LLC_MISSES:k:i:c=2 \
		BRANCH_INSTRUCTIONS_RETIRED:u:k MISPREDICTED_BRANCH_RETIRED:c=255:i:e UNHALTED_REFERENCE_CYCLES:c=4; do
		want=$(libpfm_evtsel -e "ix86arch::$ev")
		got=$("$PFMON" --pmu=intel_arch --cpuid=0x07280201:0:0:0 --check -e "$ev" | awk 'NR == 1 { print $3 }')
		[ "$((got))" -eq "$((want))" ] || { echo "$ev: pfmon $got, libpfm4 $want"; false; }
	done
}

@test "too many events, unavailable events, version 0: one line with the rule" {
	run --separate-stderr "$PFMON" --pmu=intel_arch --cpuid=$CORE2 --check -e llc_misses,llc_references,llc_misses:u
	[ "$status" -eq 1 ]
	one_error_line "rule C-IA-CTR\)$"
	run --separate-stderr "$PFMON" --pmu=intel_arch --cpuid=0x07280202:0x10:0:0x503 --check -e llc_misses
	[ "$status" -eq 1 ]
	one_error_line "^error: LLC_MISSES is not available .*rule C-IA-AVAIL\)$"
	run --separate-stderr "$PFMON" --pmu=intel_arch --cpuid=0:0:0:0 --check
	[ "$status" -eq 1 ]
	one_error_line "rule C-IA-VER\)$"
}

@test "bad values and misplaced options are usage errors" {
	run --separate-stderr "$PFMON" --pmu=intel_arch --cpuid=1:2:3 --check
	[ "$status" -eq 2 ]
	one_error_line "^error: invalid value '1:2:3' for option '--cpuid'"
	run --separate-stderr "$PFMON" --pmu=intel_arch --cpuid=$CORE2 --check -e llc_misses:c=300
	[ "$status" -eq 2 ]
	one_error_line "modifier 'c'"
	run --separate-stderr "$PFMON" --pmu=intel_arch --check -e llc_misses:t
	[ "$status" -eq 2 ]
	one_error_line "unknown modifier 't'"
	run --separate-stderr "$PFMON" --pmu=intel_arch --check -e LLC_MISSES.0x41
	[ "$status" -eq 2 ]
	run --separate-stderr "$PFMON" --cpuid=$CORE2 -e task-clock true
	[ "$status" -eq 2 ]
	one_error_line "is for the Intel architectural perfmon model \(--pmu=intel_arch\)$"
	run --separate-stderr "$PFMON" --pmu=intel_arch --cpuid=$CORE2 true
	[ "$status" -eq 2 ]
	one_error_line "is not used when counting"
	run --separate-stderr "$PFMON" --pmu=intel_arch true
	[ "$status" -eq 1 ]
	one_error_line "dry run"
}

@test "-I: host, models live or dry run, modules, versions, kernel; with --pmu the model's own lines" {
	run "$PFMON" -I
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "detected host CPUs: "*-way* ]]
	[[ "$output" == *"detected pfmon PMU model: host (runs live)"* ]]
	[[ "$output" == *"detected modelled PMUs: "* ]]
	[[ "$output" == *"detected libpfm PMU model: "* ]]
	[[ "$output" == *"max counters/set: "* ]]
	[[ "$output" == *"supported pfmon PMU models: [host] [itanium2] [intel_arch]"* ]]
	grep -q "^  intel_arch  *dry run (--check)" <<<"$output"
	grep -q "^  itanium2  *dry run (--check)" <<<"$output"
	grep -q "^  host  *live" <<<"$output"
	[[ "$output" == *"supported sampling modules: [inst-hist] [detailed] [compact] [dear-hist] [btb]"* ]]
	[[ "$output" == *"libpfm version: 4."* ]]
	[[ "$output" == *"kernel perf_event: hardware PMU "* ]]
	[[ "$output" == *"host kernel architecture: $(uname -m)"* ]]
	[[ "$output" != *"general-purpose counters"* ]]
	run "$PFMON" -I --pmu=intel_arch --cpuid=$CORE2
	[ "$status" -eq 0 ]
	[[ "$output" == *"Intel architectural perfmon model (--pmu=intel_arch):"* ]]
	[[ "$output" == *"  general-purpose counters: 2, 40 bits wide"* ]]
	# a model with nothing of its own to describe: no empty heading
	run "$PFMON" -I --pmu=itanium2
	[ "$status" -eq 0 ]
	[[ "${lines[-1]}" == "host kernel architecture: "* ]]
	# another model's option names its model, as everywhere
	run --separate-stderr "$PFMON" -I --cpuid=$CORE2
	[ "$status" -eq 2 ]
	one_error_line "is for the Intel architectural perfmon model"
}
