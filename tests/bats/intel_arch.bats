#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The Intel architectural perfmon model (--pmu=intel_arch): CPUID.0AH from
# --cpuid or this CPU, the --check programming and its -v decoding, the
# agreement with libpfm4's ix86arch encoding through pfmon's own host
# model, live runs as raw perf events (their attrs through PFMON_DUMP_ATTR),
# refusals.

bats_require_minimum_version 1.5.0
load helpers

CORE2=0x07280202:0:0:0x503
# v1 with 8 general-purpose counters: --check lists every event's PERFEVTSEL
WIDE=0x07300801:0:0:0
ALL="UNHALTED_CORE_CYCLES INSTRUCTION_RETIRED UNHALTED_REFERENCE_CYCLES LLC_REFERENCES LLC_MISSES
BRANCH_INSTRUCTIONS_RETIRED MISPREDICTED_BRANCH_RETIRED"

cpu_vendor() {
	awk -F': *' '/^vendor_id/ { print $2; exit }' /proc/cpuinfo
}

# does this CPU report the architectural PMU (CPUID.0AH version > 0)?
host_has_pmu() {
	! "$PFMON" --pmu=intel_arch --pmu-info | grep -q "^host CPUID.0AH:"
}

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
	run --separate-stderr "$PFMON" --pmu=intel_arch --check --system-wide
	[ "$status" -eq 2 ]
	one_error_line "not used with --check with --pmu=intel_arch"
}

# the attr lines of a run of EVENTS under --cpuid=LEAF (the run itself fails
# on a machine whose kernel has no PMU: the attrs are dumped before the open)
run_attrs() {
	local dump="$BATS_TEST_TMPDIR/attrs"

	rm -f "$dump"
	PFMON_DUMP_ATTR="$dump" "$PFMON" --pmu=intel_arch --cpuid="$1" -e "$2" true >/dev/null 2>&1 || true
	cat "$dump"
}

attr_field() { # LINE KEY
	sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<"$1"
}

# A live run needs an Intel CPU: elsewhere (an AMD guest) the tests take
# the Intel path through the vendor seam and read the attributes pfmon
# would open (the VM's kernel then refuses them, as it refuses them on an
# Intel guest without a PMU)
as_intel() {
	[ "$(cpu_vendor)" = GenuineIntel ] || export PFMON_TEST_CPU_VENDOR=GenuineIntel
}

@test "a run opens raw events: config = PERFEVTSEL less USR, OS, INT, EN; levels as exclude bits" {
	as_intel
	local kernel_owned=$((1 << 16 | 1 << 17 | 1 << 20 | 1 << 22)) n
	for mods in "" :u :k :u:k :e :i :c=1 :c=255 :e:i:c=3 :k:i:c=2 :u=0:k=1:e :u=1:k=0:i; do
		list=$(printf "%s$mods," $ALL)
		list=${list%,}
		check=$("$PFMON" --pmu=intel_arch --cpuid=$WIDE --check -e "$list" | awk '/PERFEVTSEL/ { print $1, $3 }')
		attrs=$(run_attrs $WIDE "$list")
		[ "$(wc -l <<<"$check")" -eq 7 ] && [ "$(wc -l <<<"$attrs")" -eq 7 ] || {
			echo "$mods: check '$check' attrs '$attrs'"
			false
		}
		n=0
		while read -r name value; do
			line=$(grep "^event=$name " <<<"$attrs")
			[ "$(attr_field "$line" type)" = 4 ] || { echo "$name$mods: $line"; false; }
			[ "$(($(attr_field "$line" config)))" -eq "$((value & ~kernel_owned))" ] ||
				{ echo "$name$mods: PERFEVTSEL $value, $line"; false; }
			[ "$(attr_field "$line" exclude_user)" -eq "$((!(value >> 16 & 1)))" ] || { echo "$name$mods u"; false; }
			[ "$(attr_field "$line" exclude_kernel)" -eq "$((!(value >> 17 & 1)))" ] || { echo "$name$mods k"; false; }
			n=$((n + 1))
		done <<<"$check"
		[ "$n" -eq 7 ]
	done
}

@test "a run opens the fixed-counter events as their raw generic codes" {
	as_intel
	# on a v2 PMU --check puts them on the fixed counters
	run "$PFMON" --pmu=intel_arch --cpuid=$CORE2 --check -e unhalted_core_cycles,instruction_retired:k,UnHalted_Reference_Cycles
	[ "$(grep -c IA32_FIXED_CTR_CTRL/ <<<"$output")" -eq 3 ]
	attrs=$(run_attrs $CORE2 unhalted_core_cycles,instruction_retired:k,UnHalted_Reference_Cycles)
	[[ "$attrs" == *"event=UNHALTED_CORE_CYCLES "*" type=4 config=0x3c "*"exclude_user=0 exclude_kernel=1"* ]]
	[[ "$attrs" == *"event=INSTRUCTION_RETIRED "*" type=4 config=0xc0 "*"exclude_user=1 exclude_kernel=0"* ]]
	# fixed counter 2 (TSC-rate reference cycles) is the kernel's generic ref-cycles
	[[ "$attrs" == *"event=UNHALTED_REFERENCE_CYCLES "*" type=0 config=0x9 "*"exclude_user=0 exclude_kernel=1"* ]]
	# sampling opens the same raw event
	run_attrs_smpl=$(cd "$BATS_TEST_TMPDIR" && rm -f a && PFMON_DUMP_ATTR=a "$PFMON" --pmu=intel_arch \
		--cpuid=$CORE2 -e llc_misses:c=2 --long-smpl-periods=100000 --smpl-outfile=s.pfs true >/dev/null 2>&1; cat a)
	[[ "$run_attrs_smpl" == *"event=LLC_MISSES "*" type=4 config=0x200412e "*"sample_period=100000 "* ]]
}

@test "a run where CPUID.0AH reports version 0 is refused in one line, before anything opens" {
	as_intel
	host_has_pmu && skip "this CPU reports the architectural PMU"
	for args in "true" "-e llc_misses:u,instruction_retired true" "-e llc_misses --long-smpl-periods=1000 true" \
		"--system-wide -t 1"; do
		rm -f "$BATS_TEST_TMPDIR/attrs"
		# shellcheck disable=SC2086
		run --separate-stderr env PFMON_DUMP_ATTR="$BATS_TEST_TMPDIR/attrs" "$PFMON" --pmu=intel_arch $args
		[ "$status" -eq 1 ]
		one_error_line "^error: this CPU reports no architectural performance monitoring \(CPUID.0AH:EAX version 0\): --pmu=intel_arch cannot run here; use --check for a dry run$"
		[ ! -e "$BATS_TEST_TMPDIR/attrs" ]
	done
	# --check still works, on the generic v2 PMU it says it models
	run "$PFMON" --pmu=intel_arch --check
	[ "$status" -eq 0 ]
	[[ "$output" == *"note: machine: a generic v2 PMU"* ]]
}

@test "a run on another vendor's CPU is refused by name, before anything opens; --check still works" {
	for vendor in AuthenticAMD HygonGenuine; do
		rm -f "$BATS_TEST_TMPDIR/attrs"
		run --separate-stderr env PFMON_TEST_CPU_VENDOR=$vendor PFMON_DUMP_ATTR="$BATS_TEST_TMPDIR/attrs" \
			"$PFMON" --pmu=intel_arch --cpuid=$CORE2 -e llc_misses true
		[ "$status" -eq 1 ]
		one_error_line "^error: the intel_arch model runs live on an Intel CPU only \(this one: $vendor\); use --check for a dry run$"
		[ ! -e "$BATS_TEST_TMPDIR/attrs" ]
	done
	PFMON_TEST_CPU_VENDOR=AuthenticAMD run -0 "$PFMON" --pmu=intel_arch --cpuid=$CORE2 --check -e llc_misses
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
	if [ "$(cpu_vendor)" = GenuineIntel ] && host_has_pmu; then
		grep -q "^  intel_arch  *live" <<<"$output"
		[[ "$output" == *"detected modelled PMUs: [intel_arch]"* ]]
	else
		grep -q "^  intel_arch  *dry run (--check)" <<<"$output"
	fi
	grep -q "^  itanium2  *dry run (--check)" <<<"$output"
	grep -q "^  host  *live" <<<"$output"
	[[ "$output" == *"supported sampling modules: [inst-hist] [detailed] [compact] [dear-hist] [btb] [c2c]"* ]]
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
