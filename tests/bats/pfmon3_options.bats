#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# pfmon 3.x's options that were unknown (issue 31): each acts as pfmon 3.x
# documented it, or is refused in one line naming why Linux perf_event
# cannot (pfmon(1), PFMON 3.X OPTIONS).

bats_require_minimum_version 1.5.0
load helpers

# the first CPU pfmon may run on (taskset), for tests that pin
first_cpu() {
	python3 -c 'import os; print(min(os.sched_getaffinity(0)))'
}

needs_root() {
	[ "$(id -u)" -eq 0 ] || skip "system-wide monitoring needs root here"
}

@test "--debug: each counter opened on stderr; level 2 adds the reads; level 4 is refused" {
	run --separate-stderr "$PFMON" --debug -e task-clock true
	[ "$status" -eq 0 ]
	[[ "$stderr" =~ debug:\ perf_event_open\ task-clock\ type=1\ config=0x1\ pid=[0-9]+\ cpu=-1\ group_fd=-1\ disabled=1:\ fd\ [0-9]+ ]]
	[[ "$stderr" != *"debug: read fd"* ]]
	run --separate-stderr "$PFMON" --debug=2 -e task-clock true
	[ "$status" -eq 0 ]
	[[ "$stderr" =~ debug:\ read\ fd\ [0-9]+:\ value=[0-9]+\ enabled=[0-9]+\ running=[0-9]+ ]]
	run --separate-stderr "$PFMON" --debug=4 -e task-clock true
	[ "$status" -eq 2 ]
	one_error_line "invalid value '4' for option '--debug': expected an integer from 1 to 3"
}

@test "--debug names the command pfmon runs, also for a listing" {
	run --separate-stderr "$PFMON" --debug -l task-clock
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"debug: command list-events"* ]]
	[ "$output" = task-clock ]
}

@test "--switch-timeout: pfmon switches the sets itself, one at a time, and scales each to the whole run" {
	local dump="$BATS_TEST_TMPDIR/attr" pcts
	run --separate-stderr env PFMON_DUMP_ATTR="$dump" "$PFMON" --debug --switch-timeout=10 \
		-e task-clock -e cpu-clock "$FIXTURES/hotspot" 300
	[ "$status" -eq 0 ]
	# the first set starts at the exec, the second only when pfmon switches to it
	grep -q '^event=task-clock .*disabled=1 .*enable_on_exec=1 ' "$dump"
	grep -q '^event=cpu-clock .*disabled=1 .*enable_on_exec=0 ' "$dump"
	[[ "$stderr" == *"debug: switch 1: event set 0 to 1"* ]]
	[[ "$stderr" == *"debug: switch 2: event set 1 to 0"* ]]
	# each set counted a share of the run: the shares add up to the whole
	pcts=$(printf '%s\n' "$output" | sed -n 's/.*(\([0-9.]*\)%)$/\1/p')
	[ "$(printf '%s\n' "$pcts" | wc -l)" -eq 2 ]
	awk '{ s += $1 } END { exit !(s > 99.9 && s < 100.1) }' <<<"$pcts"
	# both scaled counts estimate the same run: neither is off by half
	awk '$2 == "task-clock" { a = $1 } $2 == "cpu-clock" { b = $1 }
		END { exit !(a > 0 && b > 0 && a / b > 0.5 && a / b < 2) }' <<<"$output"
	# the fallback, without it: the kernel runs two software sets at once, unscaled
	run --separate-stderr "$PFMON" -e task-clock -e cpu-clock "$FIXTURES/hotspot" 50
	[ "$status" -eq 0 ]
	[[ "$output" != *"%)"* ]]
}

@test "--switch-timeout: system-wide, each CPU's sets add up to the whole run" {
	needs_root
	run --separate-stderr "$PFMON" -a --cpu-list="$(first_cpu)" --switch-timeout=5 -e cpu-clock -e cpu-clock \
		-t 0.2 </dev/null
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | sed -n 's/.*(\([0-9.]*\)%)$/\1/p' |
		awk '{ s += $1; n++ } END { exit !(n == 2 && s > 99.9 && s < 100.1) }'
}

@test "--switch-timeout: needs two sets; counting only" {
	run --separate-stderr "$PFMON" --switch-timeout=10 -e task-clock true
	[ "$status" -eq 2 ]
	one_error_line "^error: option '--switch-timeout' needs two event sets or more"
	run --separate-stderr "$PFMON" --switch-timeout=10 --long-smpl-periods=100000 -e task-clock -e cpu-clock true
	[ "$status" -eq 2 ]
	one_error_line "^error: option '--switch-timeout' is not used when sampling"
	run --separate-stderr "$PFMON" --switch-timeout=10 --print-interval=100 -a -e task-clock -e cpu-clock true
	[ "$status" -eq 2 ]
	one_error_line "^error: option '--switch-timeout' is not implemented with --print-interval yet"
}

@test "--cpu-set-relative: --cpu-list counts positions in pfmon's affinity set" {
	needs_root
	[ "$(nproc)" -ge 2 ] || skip "needs two CPUs"
	local cpus second
	cpus=$(python3 -c 'import os; print(*sorted(os.sched_getaffinity(0)))')
	second=$(awk '{ print $2 }' <<<"$cpus")
	run --separate-stderr taskset -c "$second" "$PFMON" -a --cpu-set-relative --cpu-list=0 -e cpu-clock -t 0.05 </dev/null
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^CPU$second\  ]]
	[ "$(printf '%s\n' "$output" | wc -l)" -eq 1 ]
	# without --cpu-list: the whole set (one CPU here)
	run --separate-stderr taskset -c "$second" "$PFMON" -a --cpu-set-relative -e cpu-clock -t 0.05 </dev/null
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^CPU$second\  ]]
	run --separate-stderr taskset -c "$second" "$PFMON" -a --cpu-set-relative --cpu-list=1 -e cpu-clock -t 0.05
	[ "$status" -eq 2 ]
	one_error_line "^error: invalid value '1' for option '--cpu-list': with --cpu-set-relative, positions go from 0 to 0"
}

@test "--cpu-set-relative needs --system-wide" {
	run --separate-stderr "$PFMON" --cpu-set-relative -e task-clock true
	[ "$status" -eq 2 ]
	one_error_line "^error: option '--cpu-set-relative' needs --system-wide$"
}

@test "--exclude-idle sets perf_event_attr.exclude_idle; a system-wide profile has no idle task" {
	needs_root
	local dump="$BATS_TEST_TMPDIR/attr"
	run --separate-stderr env PFMON_DUMP_ATTR="$dump" "$PFMON" -a --exclude-idle --long-smpl-periods=1000000 \
		-e cpu-clock -t 0.3 </dev/null
	[ "$status" -eq 0 ]
	grep -q 'exclude_idle=1' "$dump"
	! grep -q 'exclude_idle=0' "$dump"
	# rows are "samples %self %cum pid:command function": none of pid 0
	[[ "$output" == *"# pfmon profile"* ]]
	! printf '%s\n' "$output" | grep -Eq '^ +[0-9]+ +[0-9.]+% +[0-9.]+% +0:'
}

@test "--exclude-idle needs --system-wide" {
	run --separate-stderr "$PFMON" --exclude-idle -e task-clock true
	[ "$status" -eq 2 ]
	one_error_line "^error: option '--exclude-idle' needs --system-wide"
}

@test "--saturate-smpl-buffer keeps the first samples that fit --smpl-entries, the rest counted lost" {
	run --separate-stderr taskset -c "$(first_cpu)" "$PFMON" --saturate-smpl-buffer --smpl-entries=64 \
		--long-smpl-periods=100000 -e task-clock "$FIXTURES/hotspot" 300
	[ "$status" -eq 0 ]
	# one ring of 64 samples of at least 40 bytes: a page or two, never thousands
	n=$(printf '%s\n' "$output" | sed -n 's/^# event task-clock: \([0-9]*\) samples.*/\1/p')
	[ "$n" -gt 0 ] && [ "$n" -le 256 ] || false
	[[ "$output" =~ "# lost samples: "[1-9] ]]
	[[ "$stderr" == *"samples lost (the ring buffer was full)"* ]]
}

@test "--smpl-raw and --smpl-save-raw: the samples to --smpl-outfile, no profile" {
	local f="$BATS_TEST_TMPDIR/raw.pfs"
	for opt in --smpl-raw --smpl-save-raw; do
		rm -f "$f"
		run --separate-stderr "$PFMON" "$opt" --smpl-outfile="$f" --long-smpl-periods=1000000 -e task-clock \
			"$FIXTURES/hotspot" 100
		[ "$status" -eq 0 ]
		[[ "$output" != *"# pfmon profile"* ]]
		run --separate-stderr "$PFMON" --report="$f"
		[ "$status" -eq 0 ]
		[[ "$output" == *"hot (hotspot)"* ]]
	done
	run --separate-stderr "$PFMON" --smpl-raw --long-smpl-periods=1000000 -e task-clock true
	[ "$status" -eq 2 ]
	one_error_line "^error: option '--smpl-raw' needs --smpl-outfile"
	run --separate-stderr "$PFMON" --smpl-raw --smpl-outfile="$f" --report-sort=line --long-smpl-periods=1000000 \
		-e task-clock true
	[ "$status" -eq 2 ]
	one_error_line "^error: options '--smpl-raw' and '--report-sort' cannot be combined \(no profile is printed\)$"
}

@test "--smpl-per-function is the profile by function; --report-sort=address contradicts it" {
	local f="$BATS_TEST_TMPDIR/s.pfs"
	"$PFMON" --smpl-outfile="$f" --long-smpl-periods=1000000 -e task-clock "$FIXTURES/hotspot" 100 >/dev/null
	run --separate-stderr "$PFMON" --report="$f" --smpl-per-function --resolve-addresses
	[ "$status" -eq 0 ]
	local with="$output"
	run --separate-stderr "$PFMON" --report="$f"
	[ "$with" = "$output" ]
	[[ "$output" == *"# pfmon profile by function"* ]]
	run --separate-stderr "$PFMON" --report="$f" --smpl-per-function --report-sort=address
	[ "$status" -eq 2 ]
	one_error_line "^error: options '--smpl-per-function' and '--report-sort' cannot be combined"
}

@test "--resolve-addresses is accepted in every profile, and names addresses by address" {
	local f="$BATS_TEST_TMPDIR/s.pfs"
	"$PFMON" --smpl-outfile="$f" --long-smpl-periods=1000000 -e task-clock "$FIXTURES/hotspot" 100 >/dev/null
	run --separate-stderr "$PFMON" --report="$f" --resolve-addresses --report-sort=line
	[ "$status" -eq 0 ]
	run --separate-stderr "$PFMON" --report="$f" --resolve-addresses --report-sort=address
	[ "$status" -eq 0 ]
	[[ "$output" =~ hot\+0x[0-9a-f]+ ]]
}

@test "--demangle-java names a JIT's code from /tmp/perf-PID.map, as perf does" {
	local f="$BATS_TEST_TMPDIR/jit.pfs" map
	run --separate-stderr "$PFMON" --smpl-outfile="$f" --long-smpl-periods=1000000 -e task-clock \
		--demangle-java "$FIXTURES/jit" 200
	[ "$status" -ne 77 ] || skip "the JIT fixture is x86-64 only"
	[ "$status" -eq 0 ]
	map=$(printf '%s\n' "$output" | grep '^/tmp/perf-')
	[[ "$output" == *"Lpfmon/Jit;::hotLoop (perf-"*".map)"* ]]
	# without the option, the anonymous code has no name
	run --separate-stderr "$PFMON" --report="$f"
	[[ "$output" != *"hotLoop"* ]]
	run --separate-stderr "$PFMON" --report="$f" --demangle-java
	[[ "$output" == *"Lpfmon/Jit;::hotLoop"* ]]
	[[ "$stderr" != *"no JIT perf map"* ]]
	rm -f "$map"
	# no sample in anonymous code: said, not silently nothing
	"$PFMON" --smpl-outfile="$f" --long-smpl-periods=1000000 -e task-clock "$FIXTURES/hotspot" 50 >/dev/null
	run --separate-stderr "$PFMON" --report="$f" --demangle-java
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"note: no sample fell in anonymous code: no JIT perf map (/tmp/perf-PID.map) was read"* ]]
	if command -v perf >/dev/null; then
		local pd="$BATS_TEST_TMPDIR/perf.data"
		map=$(perf record -q -e task-clock -o "$pd" "$FIXTURES/jit" 200 2>/dev/null | grep '^/tmp/perf-')
		perf report -i "$pd" --stdio 2>/dev/null | grep -q 'Lpfmon/Jit;::hotLoop'
		rm -f "$map"
	fi
}

@test "options for what perfmon2 did and perf_event cannot: refused in one line naming why" {
	local opt
	for opt in --overflow-block --extra-smpl-pmds=4 --reset-non-smpl-periods --reset-non-smpl-periods=4-5 \
		--restart-wait --insecure --excl-intr --intr-only; do
		run --separate-stderr "$PFMON" "$opt" -e task-clock true
		[ "$status" -eq 2 ] || { echo "$opt: $status"; false; }
		one_error_line "^error: option '${opt%%=*}' cannot act on Linux perf_event: [a-z]"
	done
}

@test "pfmon 3.x options for what pfmon always does: accepted, output unchanged" {
	local f="$BATS_TEST_TMPDIR/s.pfs"
	run --separate-stderr "$PFMON" --no-una-detect --pmu=itanium2 -e CPU_CYCLES --check
	[ "$status" -eq 0 ]
	local with="$output"
	run --separate-stderr "$PFMON" --pmu=itanium2 -e CPU_CYCLES --check
	[ "$with" = "$output" ]
	run --separate-stderr "$PFMON" --smpl-eager-save --smpl-outfile="$f" --long-smpl-periods=1000000 \
		-e task-clock "$FIXTURES/hotspot" 50
	[ "$status" -eq 0 ]
	[ -s "$f" ]
}

@test "--cpu-mask and --trigger-address (pfmon 2.0) are refused naming their replacements" {
	run --separate-stderr "$PFMON" --cpu-mask=0x3 -a -e task-clock true
	[ "$status" -eq 2 ]
	one_error_line "^error: option '--cpu-mask' is obsolete \(pfmon 2.0\): use --cpu-list="
	run --separate-stderr "$PFMON" --trigger-address=main -e task-clock true
	[ "$status" -eq 2 ]
	one_error_line "^error: option '--trigger-address' is obsolete \(pfmon 2.0\): use --trigger-code-start-address="
}

@test "-i takes a regular expression, as pfmon 3.x's: every event whose whole name matches" {
	run --separate-stderr "$PFMON" --pmu=itanium2 -i 'CPU_CYC.*'
	[ "$status" -eq 0 ]
	[[ "$output" == *"Name     : CPU_CYCLES"* ]]
	run --separate-stderr "$PFMON" -i 'task-cl.*'
	[ "$status" -eq 0 ]
	[[ "$output" == "Name      : task-clock"* ]]
	# two matches, a blank line between; a part of a name matches nothing
	run --separate-stderr "$PFMON" -i '(task|cpu)-clock'
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -c '^Name ')" -eq 2 ]
	[ "$(printf '%s\n' "$output" | grep -c '^$')" -eq 1 ]
	run --separate-stderr "$PFMON" -i 'task-cl'
	[ "$status" -eq 2 ]
	one_error_line "^error: unknown event 'task-cl'"
	run --separate-stderr "$PFMON" -i 'nosuch.*'
	[ "$status" -eq 2 ]
	one_error_line "^error: unknown event 'nosuch\.\*'"
}

@test "--with-header: CLK_TCK, physical memory and the CPU, as pfmon 3.x's header" {
	run --separate-stderr "$PFMON" --with-header -e task-clock true
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | grep -qx "# CLK_TCK: $(getconf CLK_TCK)"
	mem=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
	kb=$(printf '%s\n' "$output" | sed -n 's/^# physical memory: \([0-9]*\) kB$/\1/p')
	# sysconf's pages and /proc/meminfo's kB: the same memory, to the page
	[ -n "$kb" ] && [ $((kb - mem)) -le 4 ] && [ $((mem - kb)) -le 4 ] || false
	if grep -q '^model name' /proc/cpuinfo; then
		name=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
		printf '%s\n' "$output" | grep -qF "# CPU: $name"
	fi
}

@test "--irange, --drange, --checkpoint-func take a symbol of the command, as pfmon 3.x" {
	local hot size
	hot=$(nm "$FIXTURES/hotspot" | awk '$3 == "hot" { print $1 }')
	size=$(nm -S "$FIXTURES/hotspot" | awk '$4 == "hot" { print $2 }')
	[ -n "$hot" ] && [ -n "$size" ] || skip "no symbol hot in the fixture"
	# the symbol's extent in whole 16-byte bundles (the Itanium models' ranges)
	run --separate-stderr "$PFMON" --pmu=itanium2 --check -e IA64_INST_RETIRED \
		--irange="$(printf '%#x-%#x' $((0x$hot & ~15)) $(((0x$hot + 0x$size + 15) & ~15)))" "$FIXTURES/hotspot"
	[ "$status" -eq 0 ]
	local by_address="$output"
	run --separate-stderr "$PFMON" --pmu=itanium2 --check -e IA64_INST_RETIRED --irange=hot "$FIXTURES/hotspot"
	[ "$status" -eq 0 ]
	[ "$output" = "$by_address" ]
	run --separate-stderr "$PFMON" --pmu=itanium2 --check -e IA64_INST_RETIRED \
		--checkpoint-func="0x$hot" "$FIXTURES/hotspot"
	by_address="$output"
	run --separate-stderr "$PFMON" --pmu=itanium2 --check -e IA64_INST_RETIRED --checkpoint-func=hot \
		"$FIXTURES/hotspot"
	[ "$status" -eq 0 ]
	[ "$output" = "$by_address" ]
	run --separate-stderr "$PFMON" --pmu=itanium2 --check -e IA64_INST_RETIRED --irange=no_such_fn \
		"$FIXTURES/hotspot"
	[ "$status" -eq 2 ]
	one_error_line "^error: invalid value 'no_such_fn' for option '--irange': no function of that name in"
	run --separate-stderr "$PFMON" --pmu=itanium2 --check -e IA64_INST_RETIRED --irange=hot
	[ "$status" -eq 2 ]
	one_error_line "^error: option '--irange' needs a command when it names a symbol"
}

@test "--drange takes a data object of the command" {
	local sink size
	sink=$(nm "$FIXTURES/hotspot" | awk '$3 == "sink" { print $1 }')
	size=$(nm -S "$FIXTURES/hotspot" | awk '$4 == "sink" { print $2 }')
	[ -n "$sink" ] || skip "no symbol sink in the fixture"
	run --separate-stderr "$PFMON" --pmu=itanium2 --check -e L1D_READS_SET0 \
		--drange="$(printf '%#x-%#x' $((0x$sink & ~15)) $(((0x$sink + 0x$size + 15) & ~15)))" "$FIXTURES/hotspot"
	[ "$status" -eq 0 ]
	local by_address="$output"
	run --separate-stderr "$PFMON" --pmu=itanium2 --check -e L1D_READS_SET0 --drange=sink "$FIXTURES/hotspot"
	[ "$status" -eq 0 ]
	[ "$output" = "$by_address" ]
}
