#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# perf's PMU/TERMS/ syntax for every PMU sysfs describes, and the kernel's
# events (sysfs PMUs', tracepoints) in -l, -L, -i and --dump-event-table.

bats_require_minimum_version 1.5.0
load helpers

SYSFS=/sys/bus/event_source/devices

# a copy of sysfs's layout for PMUs this machine lacks: "fakepower" is the
# software PMU (type 1) under other names, so its events really count:
# energy-pkg is task-clock (config 1) in seconds (scale 1e-9)
fake_pmus() {
	local d="$BATS_TEST_TMPDIR/pmus/fakepower"
	mkdir -p "$d/format" "$d/events"
	echo 1 >"$d/type"
	echo 'config:0-7' >"$d/format/event"
	echo 'config:8-15,32-35' >"$d/format/umask"
	echo 'config1:0' >"$d/format/edge"
	echo 'event=0x01' >"$d/events/energy-pkg"
	echo '1e-9' >"$d/events/energy-pkg.scale"
	echo 'seconds' >"$d/events/energy-pkg.unit"
	echo 'event=0x3c,umask=?' >"$d/events/needs-umask"
	echo 'event=0x01' >"$d/events/task-clock"
	export PFMON_TEST_SYSFS_PMUS="$BATS_TEST_TMPDIR/pmus"
}

# value of key K in the PFMON_DUMP_ATTR line of event type T
dumped() {
	awk -v t="type=$1" -v k="$2" '{ ours = 0; for (i = 1; i <= NF; i++) ours = ours || $i == t }
		ours { for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) print substr($i, length(k) + 2) }' "$dump"
}

@test "msr/tsc/ counts the time stamp counter as perf counts it" {
	[ -r "$SYSFS/msr/events/tsc" ] || skip "the kernel has no msr PMU here"
	command -v perf >/dev/null || skip "perf is not installed"
	dump="$BATS_TEST_TMPDIR/attr"
	PFMON_DUMP_ATTR="$dump" run --separate-stderr "$PFMON" -e msr/tsc/,task-clock "$FIXTURES/burn" 200
	[ "$status" -eq 0 ]
	# the attr is perf's: the PMU's type, config from events/tsc, no level excluded
	[ "$(dumped "$(cat "$SYSFS/msr/type")" config)" = 0 ]
	[ "$(dumped "$(cat "$SYSFS/msr/type")" exclude_user)" = 0 ]
	[ "$(dumped "$(cat "$SYSFS/msr/type")" exclude_kernel)" = 0 ]
	tsc=$(count_of msr/tsc/) clock=$(count_of task-clock)
	# both count while burn runs: their ratio is the TSC's rate (ticks per ns),
	# the same in perf's run of the same command
	run --separate-stderr perf stat -x, -e msr/tsc/,task-clock "$FIXTURES/burn" 200
	[ "$status" -eq 0 ]
	ptsc=$(printf '%s\n' "$stderr" | awk -F, '$3 == "msr/tsc/" { print $1 }')
	pclock=$(printf '%s\n' "$stderr" | awk -F, '$3 == "task-clock" { print $1 * 1000000 }')
	echo "pfmon $tsc / $clock, perf $ptsc / $pclock" >&2
	awk -v a="$tsc" -v b="$clock" -v c="$ptsc" -v d="$pclock" \
		'BEGIN { r = (a / b) / (c / d); exit !(r > 0.95 && r < 1.05) }'
}

@test "format terms set their bits of config and config1, an alias's terms and a term's own value" {
	fake_pmus
	run -0 --separate-stderr "$PFMON" --check -v -e fakepower/event=0x3c,umask=0x1ff,edge/u,fakepower/needs-umask,umask=3/
	# umask's 9 bits: its low 8 in bits 8-15, the ninth in bit 32
	printf '%s\n' "$output" | grep -q '^fakepower/event=0x3c,umask=0x1ff,edge/u *type=0x1 config=0x10000ff3c levels=u$'
	printf '%s\n' "$output" | grep -q 'config1=0x1 '
	printf '%s\n' "$output" | grep -q '^fakepower/needs-umask,umask=3/ *type=0x1 config=0x33c levels=uk$'
	# name= names the event's row
	run -0 --separate-stderr "$PFMON" -e fakepower/task-clock,name=mine/ true
	[ -n "$(count_of mine)" ]
}

@test "PMU/TERMS/ errors: one line naming what is wrong" {
	fake_pmus
	for bad in 'fakepower/umask=0x2000/:does not fit its 12 bits' 'fakepower/needs-umask/:needs a value for .umask.' \
		'fakepower/bogus/:has no event or term .bogus.' 'nopmu/x/:no PMU .nopmu.' \
		'fakepower/event=1:no ./. closes' 'fakepower/event=1/q:unknown modifier .q.' \
		'fakepower/event=x/:term .event.' 'fakepower/period=0/:needs a number above 0'; do
		run --separate-stderr "$PFMON" -e "${bad%%:*}" true
		[ "$status" -eq 2 ]
		one_error_line "^error: invalid event '${bad%%:*}': .*${bad#*:}"
	done
}

@test "a -e list keeps the commas between a PMU's slashes" {
	fake_pmus
	run -0 --separate-stderr "$PFMON" -e fakepower/event=0x1,umask=0/,task-clock,fakepower/energy-pkg/ true
	[ "${#lines[@]}" -eq 3 ]
	[ -n "$(count_of fakepower/event=0x1,umask=0/)" ]
}

@test "an event's .scale and .unit: counts in its unit, in text, CSV and JSON" {
	fake_pmus
	# energy-pkg and its unscaled twin (a clock: msec) count the same clock in one group
	run -0 --separate-stderr "$PFMON" --json -e fakepower/energy-pkg/,fakepower/task-clock/ "$FIXTURES/burn" 100
	scaled=$(printf '%s\n' "$output" | python3 -c 'import json,sys
for l in sys.stdin:
    r = json.loads(l)
    if r["event"] == "fakepower/energy-pkg/": print(r["counter-value"], r["unit"])')
	raw=$(printf '%s\n' "$output" | python3 -c 'import json,sys
for l in sys.stdin:
    r = json.loads(l)
    if r["event"] == "fakepower/task-clock/": print(r["counter-value"])')
	echo "scaled $scaled, raw $raw" >&2
	[ "${scaled#* }" = seconds ]
	awk -v s="${scaled% *}" -v r="$raw" 'BEGIN { exit !(s * 1e3 > r * 0.99 && s * 1e3 < r * 1.01) }'
	run -0 --separate-stderr "$PFMON" --csv -e fakepower/energy-pkg/ true
	[[ "$output" =~ ^[0-9]+\.[0-9][0-9],seconds,fakepower/energy-pkg/, ]]
	run -0 --separate-stderr "$PFMON" -e fakepower/energy-pkg/ true
	[[ "$output" =~ ^\ *[0-9]+\.[0-9][0-9]\ seconds\ fakepower/energy-pkg/$ ]]
}

@test "period= and freq= terms sample the event at that period or frequency" {
	fake_pmus
	smpl="$BATS_TEST_TMPDIR/s.smpl"
	run -0 --separate-stderr "$PFMON" -e fakepower/task-clock,period=1000000/ --smpl-outfile="$smpl" "$FIXTURES/burn" 50
	run -0 --separate-stderr "$PFMON" --report="$smpl"
	printf '%s\n' "$output" | grep -q '^# event fakepower/task-clock,period=1000000/: [0-9]* samples\{0,1\} (period 1000000)$'
	run -0 --separate-stderr "$PFMON" -e fakepower/task-clock,freq=200/ --smpl-outfile="$smpl" "$FIXTURES/burn" 50
	run -0 --separate-stderr "$PFMON" --report="$smpl"
	printf '%s\n' "$output" | grep -q '^# event fakepower/task-clock,freq=200/: [0-9]* samples\{0,1\} (frequency 200)$'
}

@test "-l and -L list each sysfs PMU's events and terms; -i describes one" {
	fake_pmus
	run -0 --separate-stderr "$PFMON" -l '^fakepower/'
	[ "$output" = "$(printf 'fakepower/energy-pkg/\nfakepower/needs-umask/\nfakepower/task-clock/')" ]
	run -0 --separate-stderr "$PFMON" -L '^fakepower/'
	printf '%s\n' "$output" | grep -qx 'fakepower/umask=N/'
	printf '%s\n' "$output" | grep -qx 'fakepower/edge=N/'
	run -0 --separate-stderr "$PFMON" -i fakepower/energy-pkg/
	printf '%s\n' "$output" | grep -q '^Scale *: one count is 1e-09 seconds$'
	printf '%s\n' "$output" | grep -q '^Term *: umask : config:8-15,32-35$'
	# the real machine's PMUs: every events/ file is listed
	unset PFMON_TEST_SYSFS_PMUS
	for f in "$SYSFS"/*/events/*; do
		case $f in *.scale | *.unit | *.per-pkg | *.snapshot | "$SYSFS/*/events/*") continue ;; esac
		pmu=${f#"$SYSFS"/}
		"$PFMON" -l | grep -qxF "${pmu%%/*}/${f##*/}/"
	done
}

@test "-l lists tracefs's tracepoints, -i names a tracepoint's fields, --dump-event-table has their rows" {
	dir=/sys/kernel/tracing
	[ -r "$dir/events/sched/sched_switch/format" ] || skip "tracefs is not readable here"
	run -0 --separate-stderr "$PFMON" -l '^sched:'
	[ "$output" = "$(find "$dir/events/sched" -mindepth 1 -maxdepth 1 -type d -printf 'sched:%f\n' | sort)" ]
	run -0 --separate-stderr "$PFMON" -i sched:sched_switch
	want=$(sed -n 's/^\tfield:.* \([a-z_]*\)\(\[[0-9]*\]\)\{0,1\};.*/\1/p' "$dir/events/sched/sched_switch/format" |
		grep -v '^common_' | tr '\n' ' ')
	printf '%s\n' "$output" | grep -qx "Fields *: ${want% }"
	# -L: each tracepoint with its fields, as the format file lists them
	run -0 --separate-stderr "$PFMON" -L '^sched:sched_switch$'
	[ "$output" = "sched:sched_switch  [Tracepoint event: ${want% }]" ]
	run -0 --separate-stderr "$PFMON" --dump-event-table
	printf '%s\n' "$output" | grep -q "^sched:sched_switch	tracepoint	0x$(printf '%x' "$(cat "$dir/events/sched/sched_switch/id")")	-	Tracepoint event$"
	[ "$((${#lines[@]} - 1))" -eq "$("$PFMON" -l | wc -l)" ]
}

@test "saved counts in an event's own unit are read back as printed (text, CSV, JSON); --merge refuses them in one line" {
	fake_pmus
	for kind in "" "-x," "--json"; do
		run -0 --separate-stderr "$PFMON" $kind -o "$BATS_TEST_TMPDIR/c" -e fakepower/energy-pkg/,page-faults true
		run -0 --separate-stderr "$PFMON" --metrics-from="$BATS_TEST_TMPDIR/c" $kind
		echo "$kind: $(cat "$BATS_TEST_TMPDIR/c") / $output" >&2
		# the same value, unit and event, as saved
		[ "$(printf '%s\n' "$output" | grep energy-pkg | grep -oE '[0-9.]+.{0,5}seconds')" = \
			"$(grep energy-pkg "$BATS_TEST_TMPDIR/c" | grep -oE '[0-9.]+.{0,5}seconds')" ]
	done
	cd "$BATS_TEST_TMPDIR"
	for r in 0 1; do
		env OMPI_COMM_WORLD_RANK=$r OMPI_COMM_WORLD_SIZE=2 OMPI_MCA_ess_base_jobid=5 \
			"$PFMON" -e fakepower/energy-pkg/ --outfile=e.%r true
	done
	run -1 --separate-stderr "$PFMON" --merge e.0 e.1
	one_error_line "^error: 'e.0' line [0-9]+: event 'fakepower/energy-pkg/' is in its own unit \(seconds\), rounded as printed: --merge adds counts$"
}

# fakeuncore counts on CPU 0 only (its cpumask); pkgclk is once a package
# (.per-pkg), snap a value (.snapshot): each the software cpu-clock
fake_uncore() {
	local u="$BATS_TEST_TMPDIR/pmus/fakeuncore" d="$BATS_TEST_TMPDIR/pmus/fakepower"
	fake_pmus
	mkdir -p "$u/format" "$u/events"
	echo 1 >"$u/type"
	echo 'config:0-7' >"$u/format/event"
	echo 0 >"$u/cpumask"
	echo 'event=0x00' >"$u/events/clk"
	echo 'event=0x00' >"$d/events/pkgclk"
	echo 1 >"$d/events/pkgclk.per-pkg"
	echo 'event=0x00' >"$d/events/snap"
	echo 1 >"$d/events/snap.snapshot"
}

@test "system-wide, an uncore PMU's event opens on its cpumask's CPUs only, a .per-pkg one on a CPU a package" {
	[ "$(id -u)" -eq 0 ] || skip "system-wide monitoring needs root here"
	[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip "needs two CPUs"
	fake_uncore
	dump="$BATS_TEST_TMPDIR/attr"
	PFMON_DUMP_ATTR="$dump" run -0 --separate-stderr "$PFMON" -A -a -x, -e fakeuncore/clk/,cpu-clock true
	# opened once, on CPU 0; the other CPUs' rows are <not counted>, as a CPU the event never ran on
	[ "$(grep -c 'event=fakeuncore/clk/ ' "$dump")" -eq 1 ]
	grep -q 'event=fakeuncore/clk/ pid=-1 cpu=0 ' "$dump"
	[[ "$(printf '%s\n' "$output" | grep '^CPU0,.*fakeuncore')" =~ ^CPU0,[0-9.]+,msec,fakeuncore/clk/, ]]
	[[ "$(printf '%s\n' "$output" | grep '^CPU1,.*fakeuncore')" =~ ^CPU1,\<not\ counted\>,,fakeuncore/clk/, ]]
	# summed: CPU 0's count alone, not one a CPU
	run -0 --separate-stderr "$PFMON" --per-core -a -x, -e fakeuncore/clk/ true
	[[ "$(printf '%s\n' "$output" | sed -n 2p)" =~ ^S[0-9]+-D[0-9]+-C[0-9]+,1,\<not\ counted\>, ]]
	# the session's CPUs leave none of the mask: one line
	run -1 --separate-stderr "$PFMON" -a -C 1 -e fakeuncore/clk/ true
	one_error_line "^error: cannot count 'fakeuncore/clk/': its PMU counts on CPUs 0 only \(its cpumask\), none of the session's$"
	# .per-pkg: one CPU of each package (the copy's topology: a package a CPU)
	rm -f "$dump"
	PFMON_DUMP_ATTR="$dump" "$PFMON" -a -e fakepower/pkgclk/ true >/dev/null 2>&1
	want=$(awk '{ print $1 }' /sys/devices/system/cpu/cpu*/topology/physical_package_id | sort -u | wc -l)
	[ "$(grep -c 'event=fakepower/pkgclk/ ' "$dump")" -eq "$want" ]
	mkdir -p "$BATS_TEST_TMPDIR/system"
	for c in $(seq 0 $(($(getconf _NPROCESSORS_ONLN) - 1))); do
		mkdir -p "$BATS_TEST_TMPDIR/system/cpu/cpu$c/topology"
		echo "$c" >"$BATS_TEST_TMPDIR/system/cpu/cpu$c/topology/physical_package_id"
	done
	rm -f "$dump"
	PFMON_TEST_SYSTEM_DIR="$BATS_TEST_TMPDIR/system" PFMON_DUMP_ATTR="$dump" "$PFMON" -a -e fakepower/pkgclk/ true \
		>/dev/null 2>&1
	[ "$(grep -c 'event=fakepower/pkgclk/ ' "$dump")" -eq "$(getconf _NPROCESSORS_ONLN)" ]
}

@test "a .snapshot event's intervals show its reading, not the delta since the last" {
	fake_uncore
	run -0 --separate-stderr "$PFMON" -x, -e fakepower/snap/,task-clock --print-interval=100 --interval-count=3 \
		"$FIXTURES/burn" 2000
	echo "$output" >&2
	snap=($(printf '%s\n' "$output" | awk -F, '$4 == "fakepower/snap/" { print $2 }'))
	clk=($(printf '%s\n' "$output" | awk -F, '$4 == "task-clock" { print $2 }'))
	[ "${#snap[@]}" -eq 3 ]
	# the clock's reading only grows; each is the sum of the deltas so far
	awk -v a="${snap[0]}" -v b="${snap[1]}" -v c="${snap[2]}" 'BEGIN { exit !(a < b && b < c) }'
	awk -v s="${snap[2]}" -v a="${clk[0]}" -v b="${clk[1]}" -v c="${clk[2]}" \
		'BEGIN { exit !(s * 1000 >= (a + b + c) * 1000 * 0.99 - 1000 && s > c) }'
}
