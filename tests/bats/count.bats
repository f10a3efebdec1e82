#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Counting real software events of real commands.

bats_require_minimum_version 1.5.0
load helpers

@test "default events: one count line, the command's output, exit 0" {
	run --separate-stderr "$PFMON" echo hello
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "hello" ]
	if hw_pmu_present; then
		[[ "${lines[1]}" =~ ^\ *[0-9]+\ cycles$ ]]
	else
		[[ "${lines[1]}" =~ ^\ *[0-9]+\ task-clock\ +#\ +[0-9.]+\ CPUs\ utilized$ ]]
		[[ "$stderr" =~ "no hardware PMU" ]]
	fi
}

@test "page-faults of a command touching 2000 fresh pages is at least 2000" {
	run "$PFMON" -e page-faults "$FIXTURES/touch_pages" 2000
	[ "$status" -eq 0 ]
	n=$(count_of page-faults)
	[ "$n" -ge 2000 ]
	[ "$n" -lt 4000 ]
}

@test "task-clock of a command burning 300 ms of CPU: at least that, at most what the kernel accounted to the run" {
	run_timed -e task-clock "$FIXTURES/burn" 300
	[ "$status" -eq 0 ]
	ns=$(count_of task-clock)
	# the process CPU clock burn watches reads a few % above task-clock
	[ "$ns" -ge 280000000 ]
	# and the count is at most the CPU of pfmon and burn together (GNU
	# time, from the kernel's accounting, 10 ms ticks: 20 ms of rounding),
	# however loaded the machine (343 ms was seen beside 3 CPU hogs)
	echo "task-clock $ns, run's CPU $cpu_limit" >&2
	[ "$ns" -le "$cpu_limit" ]
}

@test "context-switches of a command sleeping 25 times is at least 25" {
	run "$PFMON" -e context-switches "$FIXTURES/sleeper" 25
	[ "$status" -eq 0 ]
	[ "$(count_of context-switches)" -ge 25 ]
}

@test "child processes are counted by default, not with --no-inherit" {
	run "$PFMON" -e task-clock sh -c "$FIXTURES/burn 200; $FIXTURES/burn 200"
	[ "$status" -eq 0 ]
	[ "$(count_of task-clock)" -ge 380000000 ]
	run "$PFMON" --no-inherit -e task-clock sh -c "$FIXTURES/burn 200; $FIXTURES/burn 200"
	[ "$status" -eq 0 ]
	[ "$(count_of task-clock)" -lt 100000000 ]
}

@test "counting starts at the exec: pfmon's own work is not counted" {
	run "$PFMON" -e page-faults true
	[ "$status" -eq 0 ]
	# true faults in a few dozen pages; pfmon's set-up (libraries, fork) would add hundreds
	[ "$(count_of page-faults)" -lt 200 ]
}

@test "several events in one set, in command-line order, counts right-aligned" {
	run "$PFMON" -e task-clock,page-faults,context-switches "$FIXTURES/sleeper" 3
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 3 ]
	[[ "${lines[0]}" =~ \ task-clock(\ +#\ .*)?$ ]]
	[[ "${lines[1]}" =~ \ page-faults(\ +#\ .*)?$ ]]
	[[ "${lines[2]}" =~ \ context-switches(\ +#\ .*)?$ ]]
	w0=$(printf '%s' "${lines[0]}" | awk '{ print index($0, $2) }')
	w1=$(printf '%s' "${lines[1]}" | awk '{ print index($0, $2) }')
	[ "$w0" -eq "$w1" ]
}

@test "two -e make two event sets, printed set by set" {
	run "$PFMON" -e task-clock -e page-faults,cpu-clock "$FIXTURES/burn" 50
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 3 ]
	[[ "${lines[0]}" =~ task-clock(\ +#\ .*)?$ ]]
	[[ "${lines[2]}" =~ cpu-clock(\ +#\ .*)?$ ]]
}

@test "the command's exit status is pfmon's" {
	run "$PFMON" -e task-clock sh -c 'exit 3'
	[ "$status" -eq 3 ]
	[ -n "$(count_of task-clock)" ]
}

@test "a command killed by signal N gives 128+N and its counts" {
	run "$PFMON" -e task-clock sh -c 'kill -TERM $$'
	[ "$status" -eq 143 ]
	[ -n "$(count_of task-clock)" ]
}

@test "SIGINT to pfmon stops the command and prints the counts so far" {
	out="$BATS_TEST_TMPDIR/out"
	# a background job of a script ignores SIGINT, and so would the
	# command pfmon starts (it gets what pfmon got): give both the default
	env --default-signal=INT "$PFMON" -e task-clock --outfile="$out" "$FIXTURES/burn" 20000 &
	pid=$!
	# wait for the condition, not the clock: the command has used 200 ms
	# of CPU (a loaded machine may give it much less in 0.5 s)
	wait_for_cpu_ticks "$pid" 20
	kill -INT "$pid"
	status=0
	wait "$pid" || status=$?
	[ "$status" -eq 130 ]
	ns=$(awk '$2 == "task-clock" { print $1 }' "$out")
	[ "$ns" -gt 100000000 ]
}

@test "--outfile writes the counts there, --append adds to them" {
	out="$BATS_TEST_TMPDIR/counts"
	run "$PFMON" -e page-faults --outfile="$out" echo run1
	[ "$status" -eq 0 ]
	[ "$output" = "run1" ]
	[ "$(wc -l <"$out")" -eq 1 ]
	run "$PFMON" -e page-faults --outfile="$out" --append true
	[ "$(wc -l <"$out")" -eq 2 ]
	run "$PFMON" -e page-faults --outfile="$out" true
	[ "$(wc -l <"$out")" -eq 1 ]
}

@test "--with-header prints # lines with date, host, PMU, events, command" {
	run "$PFMON" --with-header -e page-faults true
	[ "$status" -eq 0 ]
	[[ "$output" =~ "# date: " ]]
	[[ "$output" =~ "# hostname: $(hostname)" ]]
	# the machine's facts, as uname and getconf give them (cmd_count asks, report/ prints)
	[[ "$output" =~ "# kernel version: $(uname -s) $(uname -r) $(uname -m)" ]]
	[[ "$output" =~ "# page size: $(getconf PAGESIZE)" ]]
	[[ "$output" =~ "# CPUs: $(getconf _NPROCESSORS_CONF) configured, " ]]
	[[ "$output" =~ "# PMU: host" ]]
	[[ "$output" =~ set0:\ page-faults ]]
	[[ "$output" =~ "# command: true" ]]
	[[ "${lines[-1]}" =~ page-faults$ ]]
}

@test "counter formats: --us, --eu and --hex" {
	run "$PFMON" -e task-clock --us-counter-format "$FIXTURES/burn" 20
	[[ "$output" =~ ^[0-9]{1,3}(,[0-9]{3})+\ task-clock(\ +#\ .*)?$ ]]
	run "$PFMON" -e task-clock --eu-counter-format "$FIXTURES/burn" 20
	[[ "$output" =~ ^[0-9]{1,3}(\.[0-9]{3})+\ task-clock(\ +#\ .*)?$ ]]
	run "$PFMON" -e task-clock --hex-counter-format "$FIXTURES/burn" 20
	[[ "$output" =~ ^0x[0-9a-f]{16}\ task-clock(\ +#\ .*)?$ ]]
}

@test "--csv gives perf stat -x columns" {
	run "$PFMON" --csv -e task-clock,page-faults "$FIXTURES/burn" 50
	[ "$status" -eq 0 ]
	IFS=, read -r value unit event runtime pcnt mv mu <<<"${lines[0]}"
	[ "$unit" = "msec" ]
	[ "$event" = "task-clock" ]
	[[ "$value" =~ ^[0-9]+\.[0-9]{2}$ ]]
	[ "$runtime" -gt 0 ]
	[ "$pcnt" = "100.00" ]
	IFS=, read -r value unit event runtime pcnt mv mu <<<"${lines[1]}"
	[ "$event" = "page-faults" ]
	[ -z "$unit" ]
	run "$PFMON" --csv=';' -e page-faults true
	[[ "$output" =~ ^[0-9]+\;\;page-faults\; ]]
}

@test "--json gives one perf stat -j object per event" {
	run "$PFMON" --json -e task-clock,page-faults true
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin]
assert [r["event"] for r in rows] == ["task-clock", "page-faults"], rows
for r in rows:
    # perf: the metric keys are there with a value, absent without one
    assert set(r) == {"counter-value", "unit", "event", "event-runtime", "pcnt-running", "metric-value", "metric-unit"}, r
    assert isinstance(r["metric-value"], float), r
    assert r["pcnt-running"] == 100.0
    float(r["counter-value"])
assert rows[0]["unit"] == "msec"
'
}

@test "the man page's 'pfmon --json ... | jq' works: the command's output goes to stderr" {
	# pfmon(1), EXAMPLES: pfmon --json -e task-clock ./app | jq .
	run --separate-stderr bash -c "'$PFMON' --json -e task-clock echo hello from the command | jq -c ."
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "${lines[0]}" =~ ^\{\"counter-value\":\"[0-9.]+\",\"unit\":\"msec\",\"event\":\"task-clock\" ]]
	[[ "$stderr" =~ "hello from the command" ]]
	# CSV on stdout too; with --outfile stdout is the command's again
	run --separate-stderr "$PFMON" --csv -e task-clock echo hello
	[ "${#lines[@]}" -eq 1 ] && [[ "${lines[0]}" =~ ,msec,task-clock, ]] || false
	[[ "$stderr" =~ hello ]]
	run --separate-stderr "$PFMON" --json --outfile="$BATS_TEST_TMPDIR/c.json" -e task-clock echo hello
	[ "$output" = hello ]
	jq -e '.event == "task-clock"' "$BATS_TEST_TMPDIR/c.json"
	# text counts share stdout, as pfmon 3.x's did
	run --separate-stderr "$PFMON" -e task-clock echo hello
	[ "${lines[0]}" = hello ]
}

@test "an event the machine cannot count next to one it can: <not supported>" {
	hw_pmu_present && skip "this machine has a hardware PMU"
	run --separate-stderr "$PFMON" -e task-clock,cycles true
	[ "$status" -eq 0 ]
	[[ "$output" =~ "<not supported> cycles" ]]
	[[ "$stderr" =~ ^warning:\ cannot\ count\ \'cycles\' ]]
}

@test "-v shows each event's canonical libpfm4 string and perf_event_attr" {
	run --separate-stderr "$PFMON" -v -e page-faults true
	[[ "$output" =~ "[perf::PERF_COUNT_SW_PAGE_FAULTS:u=1:k=1]" ]]
	[[ "$stderr" =~ "pfmon: set0 page-faults: perf::PERF_COUNT_SW_PAGE_FAULTS:u=1:k=1; perf_event_attr type=1 config=0x2 " ]]
	LIBPFM_FORCE_PMU=skl run --separate-stderr "$PFMON" -v -e INST_RETIRED:ANY_P:c=2 true
	[[ "$stderr" =~ "skl::INST_RETIRED:ANY_P:"[^\;]*"c=2"[^\;]*"; perf_event_attr type=4 config=0x20000c0 " ]]
}

@test "forced libpfm4 models: the perf_event_attr pfmon would open (skl)" {
	dump="$BATS_TEST_TMPDIR/attr"
	PFMON_DUMP_ATTR="$dump" LIBPFM_FORCE_PMU=skl run "$PFMON" -e INST_RETIRED:ANY_P:u=1:c=2,task-clock true
	grep -q '^event=INST_RETIRED:ANY_P:u=1:c=2 .* type=4 config=0x20000c0 ' "$dump"
	grep -q '^event=INST_RETIRED:ANY_P:u=1:c=2 .* read_format=0x3 disabled=1 inherit=1 enable_on_exec=1 exclude_user=0 exclude_kernel=1 ' "$dump"
	# the second event of the set joins the first one's group
	grep -q '^event=task-clock .* type=1 config=0x1 ' "$dump"
}

@test "forced libpfm4 models: zen4 and Skylake encodings" {
	dump="$BATS_TEST_TMPDIR/attr"
	PFMON_DUMP_ATTR="$dump" LIBPFM_FORCE_PMU=amd64_fam19h_zen4 run "$PFMON" -e RETIRED_INSTRUCTIONS:k=1:u=0 true
	grep -q '^event=RETIRED_INSTRUCTIONS:k=1:u=0 .* type=4 config=0xc0 .* exclude_user=1 exclude_kernel=0 ' "$dump"
	rm -f "$dump"
	PFMON_DUMP_ATTR="$dump" LIBPFM_FORCE_PMU=skl run "$PFMON" -k -e BR_MISP_RETIRED:ALL_BRANCHES true
	grep -q '^event=BR_MISP_RETIRED:ALL_BRANCHES .* config=0xc5 .* exclude_user=1 exclude_kernel=0 ' "$dump"
}

# the tracing directory the kernel's tracepoints are read from, where it is
# mounted (the tests mount nothing); skips without one
require_tracefs() {
	local dir
	dir=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)
	[ -n "$dir" ] || dir=$(awk '$3 == "debugfs" { print $2 "/tracing"; exit }' /proc/mounts)
	[ -n "$dir" ] || skip "tracefs is not mounted"
	[ -r "$dir/events/sched/sched_switch/id" ] || skip "no sched:sched_switch tracepoint in $dir"
}

@test "a tracepoint, read from tracefs, counts at kernel level by default as in perf" {
	require_tracefs
	# each of the sleeper's 25 sleeps switches it out of the CPU (the kernel's
	# voluntary_ctxt_switches counts them)
	run --separate-stderr "$PFMON" -e sched:sched_switch "$FIXTURES/sleeper" 25
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$(count_of sched:sched_switch)" -ge 25 ]
	# perf counts it too (a comparison as "both non-zero": perf is the independent reference)
	if command -v perf >/dev/null; then
		n=$(perf stat -x, -e sched:sched_switch "$FIXTURES/sleeper" 25 2>&1 >/dev/null |
			awk -F, '$3 == "sched:sched_switch" { print $1 }')
		[ "${n:-0}" -gt 0 ] 2>/dev/null || skip "perf cannot count sched:sched_switch here ($n)"
	fi
}

@test "a tracepoint counted at user level only: one note says it counts 0" {
	require_tracefs
	run --separate-stderr "$PFMON" -u -e sched:sched_switch "$FIXTURES/sleeper" 5
	[ "$status" -eq 0 ]
	[ "$(count_of sched:sched_switch)" -eq 0 ]
	one_error_line "^note: 'sched:sched_switch' fires in the kernel only: counted at user level only, it counts 0 \(count at kernel level: -k, or ':k' on the event\)$"
	# the event's own modifier is a choice of levels too
	run --separate-stderr "$PFMON" -e sched:sched_switch:u,task-clock "$FIXTURES/sleeper" 5
	[ "$status" -eq 0 ]
	one_error_line "^note: 'sched:sched_switch:u' fires in the kernel only"
	run --separate-stderr "$PFMON" -e sched:sched_switch:k "$FIXTURES/sleeper" 5
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$(count_of sched:sched_switch:k)" -ge 5 ]
}

@test "a tracepoint for an unprivileged user: the one note says why it counts 0, or tracefs is not readable" {
	require_tracefs
	[ "$(id -u)" -eq 0 ] || skip "needs root to switch to an unprivileged user"
	command -v setpriv >/dev/null || skip "setpriv not installed"
	level=$(cat /proc/sys/kernel/perf_event_paranoid)
	[ "$level" -ge 2 ] || skip "perf_event_paranoid is $level: kernel counting is allowed to everybody"
	as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	run --separate-stderr as_nobody "$PFMON" -e sched:sched_switch "$FIXTURES/sleeper" 5
	if as_nobody test -r "$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)/events"; then
		[ "$status" -eq 0 ]
		[ "$(count_of sched:sched_switch)" -eq 0 ]
		one_error_line "^note: 'sched:sched_switch' fires in the kernel only: counted at user level only \(kernel.perf_event_paranoid = $level for this user\), it counts 0$"
	else
		# tracefs is root's (mode 0700, the kernel's default): known, not readable
		[ "$status" -eq 2 ]
		one_error_line "^error: unknown event 'sched:sched_switch' \(tracepoints are read from /.*, which this user cannot read\)$"
	fi
}

@test "an unknown tracepoint of a known subsystem: says where the events are" {
	require_tracefs
	run --separate-stderr "$PFMON" -e sched:sched_nosuch true
	[ "$status" -eq 2 ]
	one_error_line "^error: unknown event 'sched:sched_nosuch' \(tracepoint subsystem 'sched' has no such event: see /.*/events/sched\)$"
}

# the libraries the dynamic loader mapped for one run of pfmon (LD_DEBUG=files)
libraries_loaded() {
	rm -f "$tmp"/ld.*
	LD_DEBUG=files LD_DEBUG_OUTPUT="$tmp/ld" "$PFMON" "$@" >/dev/null 2>&1 || true
	cat "$tmp"/ld.* | sed -n 's/.*file=\([^ ]*\) .*/\1/p' | sort -u
}

@test "libpfm4 and capstone are loaded only by a run that needs them" {
	loaded=$(libraries_loaded -e task-clock,page-faults true)
	[ -n "$loaded" ] # the loader's own record of what it mapped
	! grep -q 'libpfm\|libcapstone' <<<"$loaded"
	# perf's generic names are the kernel ABI's, not libpfm4's
	! libraries_loaded -e cycles,instructions true | grep -q libpfm
	# a libpfm4 name, and the event list, need the library
	libraries_loaded -l | grep -q '^libpfm\.so\.4'
	libraries_loaded -e INST_RETIRED:ANY_P true | grep -q '^libpfm\.so\.4'
}

@test "without libpfm4, perf's events still count and a libpfm4 name says which library is missing" {
	[ "$(id -u)" -eq 0 ] || skip "hiding a library needs a private mount namespace (root)"
	command -v unshare >/dev/null || skip "unshare not installed"
	lib=$(ldconfig -p | awk '$1 == "libpfm.so.4" { print $NF; exit }')
	[ -n "$lib" ] || skip "libpfm.so.4 is not in the loader's cache"
	lib=$(readlink -f "$lib")
	# a chroot whose root is no mount point has no private mount namespace
	why=$(unshare -m true 2>&1) || skip "no private mount namespace here (unshare -m: $why)"
	# the library file becomes empty for this one command only
	hidden() { unshare -m sh -c 'mount --bind /dev/null "$1" && shift && exec "$@"' sh "$lib" "$@"; }
	run --separate-stderr hidden "$PFMON" -e task-clock true
	[ "$status" -eq 0 ]
	[ "$(count_of task-clock)" -gt 0 ]
	run --separate-stderr hidden "$PFMON" -e INST_RETIRED:ANY_P true
	[ "$status" -eq 1 ]
	one_error_line "^error: cannot load libpfm4: .*libpfm\.so\.4: .*$"
}

# jansson reads JSON (--metrics-from, --merge), protobuf-c packs pprof
# profiles (pprof.bats): both are loaded on first use (results/json_lib.h,
# report/protobuf_lib.h)
@test "jansson and protobuf-c are loaded only to read JSON or write pprof, and a missing jansson is named" {
	! libraries_loaded -e task-clock,page-faults true | grep -q 'libjansson\|libprotobuf-c'
	run -0 "$PFMON" --json -e task-clock -o "$tmp/c.json" true
	libraries_loaded --metrics-from="$tmp/c.json" | grep -q '^libjansson\.so'
	run -0 --separate-stderr "$PFMON" --metrics-from="$tmp/c.json"
	[[ "$output" =~ task-clock ]]
	[ "$(id -u)" -eq 0 ] || skip "hiding a library needs a private mount namespace (root)"
	command -v unshare >/dev/null || skip "unshare not installed"
	lib=$(ldconfig -p | awk '$1 == "libjansson.so.4" { print $NF; exit }')
	[ -n "$lib" ] || skip "libjansson.so.4 is not in the loader's cache"
	lib=$(readlink -f "$lib")
	why=$(unshare -m true 2>&1) || skip "no private mount namespace here (unshare -m: $why)"
	hidden() { unshare -m sh -c 'mount --bind /dev/null "$1" && shift && exec "$@"' sh "$lib" "$@"; }
	run -0 --separate-stderr hidden "$PFMON" -e task-clock true
	run --separate-stderr hidden "$PFMON" --metrics-from="$tmp/c.json"
	[ "$status" -eq 1 ]
	one_error_line "^error: cannot load jansson: .*libjansson\.so\.4: .*$"
}

# the symbol layer's libraries are loaded on first use (symbol/sym_lib_*.h):
# a count names no address, so the dynamic loader never maps them
@test "a count loads none of the symbol libraries (libelf, libdw, libdwarf, libdeflate)" {
	run -0 --separate-stderr env LD_DEBUG=files "$PFMON" -e task-clock true
	[[ "$stderr" =~ file=libc\.so ]] # the loader's trace is there
	! grep -E 'file=lib(elf|dw|dwarf|deflate)\.so' <<<"$stderr" || false
}
