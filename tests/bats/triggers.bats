#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Code and data triggers (pfmon 3.x): counting switched on and off at
# addresses of the launched program, --trigger-start-delay, --dont-start.
# The fixture trigwork calls work() N times with unrelated() between the
# calls; each work() makes exactly one page fault and calls inner() once,
# each unrelated() makes one page fault: exact counts of what ran inside
# the windows.

bats_require_minimum_version 1.5.0
load helpers

W="--trigger-code-start-address=work --trigger-code-stop-address=work"

# the address of a symbol in the non-PIE fixture (what mem:ADDR:x needs)
sym() {
	nm "$FIXTURES/trigwork_nopie" | awk -v s="$1" '$3 == s { print "0x" $1 }'
}

@test "start and stop at work (its return): page faults inside work() only, exactly" {
	run --separate-stderr "$PFMON" -e page-faults $W --trigger-code-repeat "$FIXTURES/trigwork" 10
	[ "$status" -eq 0 ]
	[ "$(count_of page-faults)" -eq 10 ]
	# the whole run makes many more (the loader, libc, unrelated())
	run --separate-stderr "$PFMON" -e page-faults "$FIXTURES/trigwork" 10
	[ "$(count_of page-faults)" -gt 30 ]
}

@test "sampling inside the windows: one page-fault sample a call of work(), in work(), in the file too" {
	f=$BATS_TEST_TMPDIR/w.pfs
	run -0 --separate-stderr "$PFMON" -e page-faults --long-smpl-periods=1 $W --trigger-code-repeat \
		--smpl-outfile="$f" "$FIXTURES/trigwork" 10
	run -0 --separate-stderr "$PFMON" --report="$f"
	[[ "$output" =~ "# event page-faults: 10 samples (period 1)" ]]
	# named: the mappings the kernel wrote while sampling was off are read at the start
	printf '%s\n' "$output" | grep -E '^ +10 100\.00% 100\.00%  work \(trigwork\)$'
	# without triggers: many more, most elsewhere
	run -0 --separate-stderr "$PFMON" -e page-faults --long-smpl-periods=1 "$FIXTURES/trigwork" 10
	printf '%s\n' "$output" | grep -E '^ +1[01] +[0-9.]+% +[0-9.]+%  unrelated \(trigwork\)$'
}

@test "--print-interval with triggers: the intervals' page faults add up to the windows' 10" {
	# unrelated() spins 50 ms of CPU before each call: the run lasts at
	# least 550 ms of wall time on any machine, so its windows fall in
	# several 100 ms intervals
	run -0 --separate-stderr "$PFMON" -e page-faults --print-interval=100 $W --trigger-code-repeat \
		"$FIXTURES/trigwork" 10 0 - 50ms
	echo "$output"
	intervals=$(printf '%s\n' "$output" | grep -c '^# [0-9.]* s$')
	sum=$(printf '%s\n' "$output" | awk '/^# total/ { exit } $2 == "page-faults" { t += $1 } END { print t + 0 }')
	total=$(printf '%s\n' "$output" | awk '/^# total/ { getline; print $1 }')
	[ "$intervals" -ge 3 ]
	[ "$sum" -eq 10 ]
	[ "$total" -eq 10 ]
}

@test "sampling after --trigger-start-delay: the samples are named, not [unknown]" {
	# unrelated() spins 21 x 75 ms of CPU: at most 1 s of it falls in the
	# one-second delay, so at least 575 ms (575 samples) come after it
	run -0 --separate-stderr "$PFMON" -e task-clock --long-smpl-periods=1000000 --trigger-start-delay=1 \
		"$FIXTURES/trigwork" 20 0 - 75ms
	echo "$output"
	n=$(printf '%s\n' "$output" | sed -n 's/^# event task-clock: \([0-9]*\) samples.*/\1/p')
	[ "$n" -ge 50 ]
	printf '%s\n' "$output" | grep -E '^ +[0-9]+ +[0-9.]+% +[0-9.]+%  unrelated \(trigwork\)$'
	! printf '%s\n' "$output" | grep -F '[unknown 0x'
}

@test "without --trigger-code-repeat only the first start..stop window counts" {
	run --separate-stderr "$PFMON" -e page-faults $W "$FIXTURES/trigwork" 10
	[ "$status" -eq 0 ]
	[ "$(count_of page-faults)" -eq 1 ]
	run --separate-stderr "$PFMON" -e page-faults --trigger-code-start-addresses=work \
		--trigger-code-stop-addresses=unrelated "$FIXTURES/trigwork" 10
	[ "$status" -eq 0 ]
	# work(0) to unrelated(1): work(0)'s fault only
	[ "$(count_of page-faults)" -eq 1 ]
}

@test "an explicit stop address: the windows from work() to the next unrelated() miss unrelated's faults" {
	run --separate-stderr "$PFMON" -e page-faults --trigger-code-start-address=inner \
		--trigger-code-stop-address=unrelated --trigger-code-repeat "$FIXTURES/trigwork" 10
	[ "$status" -eq 0 ]
	# inner() runs after work's fault; unrelated's fault comes after its stop
	[ "$(count_of page-faults)" -eq 0 ]
	run --separate-stderr "$PFMON" -e page-faults --trigger-code-start-address=unrelated \
		--trigger-code-stop-address=work,exit --trigger-code-repeat "$FIXTURES/trigwork" 10
	[ "$status" -eq 0 ]
	# unrelated(0..9) each stopped at the next work(), unrelated(10) at exit()
	# (a library's function: what exit does faults differently from run to run)
	[ "$(count_of page-faults)" -eq 11 ]
}

@test "task-clock inside the windows is less than the whole run's" {
	# each of the 201 unrelated() calls, all outside the windows, spins
	# 1 ms of its thread's CPU time (the clock task-clock counts): the whole
	# run counts at least 201 ms, the windows none of them.  (Iterations
	# instead of CPU time made the margin a few ms, which load could undo.)
	run --separate-stderr "$PFMON" -e task-clock $W --trigger-code-repeat "$FIXTURES/trigwork" 200 0 - 1ms
	[ "$status" -eq 0 ]
	inside=$(count_of task-clock)
	run --separate-stderr "$PFMON" -e task-clock "$FIXTURES/trigwork" 200 0 - 1ms
	whole=$(count_of task-clock)
	echo "inside $inside whole $whole" >&2
	[ "$whole" -ge 201000000 ]
	[ "$inside" -gt 0 ]
	[ "$inside" -lt 201000000 ]
	[ "$inside" -lt "$whole" ]
}

@test "a stop at the start's own address acts at the outermost return of a recursive call" {
	run --separate-stderr "$PFMON" -e page-faults $W --trigger-code-repeat "$FIXTURES/trigwork" 10 3
	[ "$status" -eq 0 ]
	[ "$(count_of page-faults)" -eq 10 ]
}

@test "numeric addresses (as nm prints them) in a PIE are relocated to its load address" {
	addr=$(nm "$FIXTURES/trigwork" | awk '$3 == "work" { print "0x" $1 }')
	stop=$(nm "$FIXTURES/trigwork" | awk '$3 == "unrelated" { print "0x" $1 }')
	run --separate-stderr "$PFMON" -e page-faults --trigger-code-start-address="$addr" \
		--trigger-code-stop-address="$stop" --trigger-code-repeat "$FIXTURES/trigwork" 10
	[ "$status" -eq 0 ]
	[ "$(count_of page-faults)" -eq 10 ]
}

@test "an execute breakpoint on inner() counts exactly N inside the windows and 0 outside" {
	require_breakpoints
	inner=$(sym inner)
	run --separate-stderr "$PFMON" -e "mem:$inner:x" $W --trigger-code-repeat "$FIXTURES/trigwork_nopie" 25
	[ "$status" -eq 0 ]
	[ "$(count_of "mem:$inner:x")" -eq 25 ]
	run --separate-stderr "$PFMON" -e "mem:$inner:x" --trigger-code-start-address=unrelated \
		--trigger-code-stop-address=work --trigger-code-repeat "$FIXTURES/trigwork_nopie" 25
	[ "$status" -eq 0 ]
	[ "$(count_of "mem:$inner:x")" -eq 0 ]
}

@test "execute breakpoints at the trigger addresses themselves count the exact window [start, stop)" {
	# Debug-register triggers resume with RF set, which used to hide the
	# counted breakpoint at a start and count the one at a stop: work 0
	# and unrelated N, the window inverted.  trigwork runs unrelated(),
	# work() N times, then unrelated() once more.
	require_breakpoints
	work=$(sym work) other=$(sym unrelated)
	run --separate-stderr "$PFMON" -e "mem:$work:x,mem:$other:x" --trigger-code-start-address=work \
		--trigger-code-stop-address=unrelated --trigger-code-repeat "$FIXTURES/trigwork_nopie" 25
	[ "$status" -eq 0 ]
	[ "$(count_of "mem:$work:x")" -eq 25 ]
	[ "$(count_of "mem:$other:x")" -eq 0 ]
	run --separate-stderr "$PFMON" -e "mem:$work:x,mem:$other:x" --trigger-code-start-address=unrelated \
		--trigger-code-stop-address=work --trigger-code-repeat "$FIXTURES/trigwork_nopie" 25
	[ "$status" -eq 0 ]
	[ "$(count_of "mem:$work:x")" -eq 0 ]
	[ "$(count_of "mem:$other:x")" -eq 26 ]
	# int3s (more code triggers than the 4 debug registers) see the same
	run --separate-stderr "$PFMON" -e "mem:$work:x,mem:$other:x" --trigger-code-start-address=work \
		--trigger-code-stop-address=unrelated,main,inner,exit --trigger-code-repeat "$FIXTURES/trigwork_nopie" 25
	[ "$status" -eq 0 ]
	[ "$(count_of "mem:$work:x")" -eq 25 ]
	[ "$(count_of "mem:$other:x")" -eq 0 ]
	# a sample cannot be corrected: refused
	run --separate-stderr "$PFMON" -e "mem:$work:x" --long-smpl-periods=1 --smpl-outfile="$BATS_TEST_TMPDIR/s" \
		--trigger-code-start-address=work --trigger-code-stop-address=unrelated "$FIXTURES/trigwork_nopie" 25
	[ "$status" -eq 1 ]
	one_error_line "^error: cannot sample 'mem:$work:x' at a code trigger's own address"
}

@test "a symbol of a shared library, at its load address" {
	# uselib counts its own task-clock from main's start to the loop's end:
	# the loop is most of that, in the same run (two runs of N million
	# iterations differ in CPU time on a loaded machine)
	USELIB_OWN_COUNT=1 run --separate-stderr "$PFMON" -e task-clock --trigger-code-start-address=lib_spin \
		--trigger-code-stop-address=lib_spin "$FIXTURES/uselib" 100
	[ "$status" -eq 0 ]
	inside=$(count_of task-clock)
	main=$(printf '%s\n' "$stderr" | awk '$1 == "own" { print $2 }')
	echo "inside $inside, main to the loop's end $main" >&2
	[ "$inside" -gt $(( main / 2 )) ] && [ "$inside" -le "$main" ] || false
	# and what runs before it is the loader and main: about a whole run
	# without the loop (uselib 0) on this machine, not the loop (whose
	# share of the run depends on the CPU's speed)
	run --separate-stderr "$PFMON" -e task-clock "$FIXTURES/uselib" 0
	noloop=$(count_of task-clock)
	run --separate-stderr "$PFMON" -e task-clock --trigger-code-stop-address=lib_spin "$FIXTURES/uselib" 100
	[ "$status" -eq 0 ]
	before=$(count_of task-clock)
	echo "before $before, a run without the loop $noloop" >&2
	[ "$before" -lt $(( 2 * noloop + 2000000 )) ]
}

@test "threads and forked children step over the triggers; --trigger-code-follow makes them act" {
	for mode in thread fork; do
		run --separate-stderr "$PFMON" -e page-faults $W --trigger-code-repeat "$FIXTURES/trigwork" 10 0 $mode
		[ "$status" -eq 0 ] # the fixture fails if its child or thread did
		[ "$(count_of page-faults)" -eq 10 ]
	done
	run --separate-stderr "$PFMON" -e page-faults $W --trigger-code-repeat --trigger-code-follow \
		"$FIXTURES/trigwork" 10 0 thread
	[ "$status" -eq 0 ]
	[ "$(count_of page-faults)" -eq 20 ]
	# a forked child's windows count too (its copy-on-write faults as well)
	run --separate-stderr "$PFMON" -e page-faults $W --trigger-code-repeat --trigger-code-follow \
		"$FIXTURES/trigwork" 10 0 fork
	[ "$status" -eq 0 ]
	[ "$(count_of page-faults)" -ge 20 ]
}

@test "a vfork child that execs (posix_spawn) leaves the command's triggers in place" {
	for f in "" --trigger-code-follow; do
		run --separate-stderr "$PFMON" -e page-faults $W --trigger-code-repeat $f "$FIXTURES/trigwork" 10 0 spawn
		[ "$status" -eq 0 ]
		[ "$(count_of page-faults)" -eq 10 ]
	done
}

@test "int3 code triggers (where debug registers do not fire) count the same" {
	export PFMON_TEST_BREAKPOINTS_SILENT=1
	run --separate-stderr "$PFMON" -e page-faults $W --trigger-code-repeat "$FIXTURES/trigwork" 10
	[ "$(count_of page-faults)" -eq 10 ]
	run --separate-stderr "$PFMON" -e page-faults $W "$FIXTURES/trigwork" 10
	[ "$(count_of page-faults)" -eq 1 ]
	run --separate-stderr "$PFMON" -e page-faults $W --trigger-code-repeat "$FIXTURES/trigwork" 10 3
	[ "$(count_of page-faults)" -eq 10 ]
	run --separate-stderr "$PFMON" -e page-faults --trigger-code-start-address=unrelated \
		--trigger-code-stop-address=work,exit --trigger-code-repeat "$FIXTURES/trigwork" 10
	[ "$(count_of page-faults)" -eq 11 ]
	for mode in thread fork spawn; do
		run --separate-stderr "$PFMON" -e page-faults $W --trigger-code-repeat "$FIXTURES/trigwork" 10 0 $mode
		[ "$status" -eq 0 ]
		[ "$(count_of page-faults)" -eq 10 ]
	done
	run --separate-stderr "$PFMON" -e page-faults $W --trigger-code-repeat --trigger-code-follow \
		"$FIXTURES/trigwork" 10 0 thread
	[ "$(count_of page-faults)" -eq 20 ]
	# more code triggers than debug registers: int3s wherever breakpoints fire too
	unset PFMON_TEST_BREAKPOINTS_SILENT
	run --separate-stderr "$PFMON" -e page-faults --trigger-code-start-address=work,inner \
		--trigger-code-stop-address=unrelated,main,loop --trigger-code-repeat "$FIXTURES/trigwork" 10
	[ "$status" -eq 0 ]
	[ "$(count_of page-faults)" -eq 10 ]
	run --separate-stderr "$PFMON" -e page-faults $W --trigger-code-repeat "$FIXTURES/trigwork" 10 0 trap
	[ "$status" -eq $(( 128 + 5 )) ]
}

@test "the program's own SIGTRAP is still its own" {
	run --separate-stderr "$PFMON" -e page-faults $W --trigger-code-repeat "$FIXTURES/trigwork" 10 0 trap
	[ "$status" -eq $(( 128 + 5 )) ]
	[ "$(count_of page-faults)" -eq 10 ]
}

@test "data triggers: after a write of 'watched' until a write of 'other'" {
	require_breakpoints
	run --separate-stderr "$PFMON" -e page-faults --trigger-data-start-address=watched \
		--trigger-data-stop-address=other --trigger-data-repeat "$FIXTURES/trigwork" 10
	[ "$status" -eq 0 ]
	# each window holds the next unrelated()'s fault only
	[ "$(count_of page-faults)" -eq 10 ]
	run --separate-stderr "$PFMON" -e page-faults --trigger-data-start-address=watched \
		--trigger-data-stop-address=other "$FIXTURES/trigwork" 10
	[ "$(count_of page-faults)" -eq 1 ]
}

@test "data triggers: --trigger-data-wo ignores reads; reads and writes by default" {
	require_breakpoints
	# 'gate' is only read
	run --separate-stderr "$PFMON" -e page-faults --trigger-data-start-address=gate --trigger-data-wo \
		"$FIXTURES/trigwork" 10
	[ "$status" -eq 0 ]
	[[ "$output" =~ "<not counted>" ]]
	run --separate-stderr "$PFMON" -e page-faults --trigger-data-start-address=gate "$FIXTURES/trigwork" 10
	[ "$status" -eq 0 ]
	[ "$(count_of page-faults)" -ge 19 ]
}

@test "data triggers follow threads with --trigger-data-follow" {
	require_breakpoints
	run --separate-stderr "$PFMON" -e page-faults --trigger-data-start-address=watched \
		--trigger-data-stop-address=other --trigger-data-repeat "$FIXTURES/trigwork" 10 0 thread
	[ "$(count_of page-faults)" -eq 10 ]
	run --separate-stderr "$PFMON" -e page-faults --trigger-data-start-address=watched \
		--trigger-data-stop-address=other --trigger-data-repeat --trigger-data-follow \
		"$FIXTURES/trigwork" 10 0 thread
	[ "$(count_of page-faults)" -eq 20 ]
}

@test "data triggers are refused where hardware breakpoints do not fire" {
	PFMON_TEST_BREAKPOINTS_SILENT=1 run --separate-stderr "$PFMON" -e page-faults \
		--trigger-data-start-address=watched "$FIXTURES/trigwork" 10
	[ "$status" -eq 1 ]
	one_error_line "^error: data triggers need the debug registers, and hardware breakpoints do not fire"
}

@test "--trigger-start-delay: counting starts SECS seconds after the exec" {
	# 3000 fresh pages first (a few ms of CPU: done well within the second
	# even on a loaded machine), two seconds asleep, then 300 more pages:
	# the delayed count has the last 300 faults and none of the first 3000
	cmd="$FIXTURES/touch_pages 3000; sleep 2; $FIXTURES/touch_pages 300"
	run --separate-stderr "$PFMON" -e page-faults --trigger-start-delay=1 sh -c "$cmd"
	[ "$status" -eq 0 ]
	delayed=$(count_of page-faults)
	run --separate-stderr "$PFMON" -e page-faults sh -c "$cmd"
	whole=$(count_of page-faults)
	echo "delayed $delayed whole $whole" >&2
	[ "$whole" -ge 3300 ]
	[ "$delayed" -ge 300 ]
	[ "$delayed" -lt 3000 ]
}

@test "--trigger-start-delay system-wide: half of a two-second session" {
	[ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 0 ] || [ "$(id -u)" -eq 0 ] || skip "needs root"
	ncpu=$(nproc)
	run --separate-stderr "$PFMON" -a --aggregate-results -e cpu-clock --trigger-start-delay=1 -t 2
	[ "$status" -eq 0 ]
	v=$(count_of cpu-clock)
	echo "cpu-clock $v on $ncpu CPUs" >&2
	[ "$v" -ge $(( ncpu * 800000000 )) ]
	[ "$v" -le $(( ncpu * 1200000000 )) ]
}

@test "--dont-start with a start trigger is what the trigger does; alone it is refused" {
	run --separate-stderr "$PFMON" -e page-faults --dont-start $W --trigger-code-repeat "$FIXTURES/trigwork" 10
	[ "$status" -eq 0 ]
	[ "$(count_of page-faults)" -eq 10 ]
	run --separate-stderr "$PFMON" -e page-faults --dont-start "$FIXTURES/trigwork" 10
	[ "$status" -eq 2 ]
	one_error_line "^error: option '--dont-start' needs a start trigger or --trigger-start-delay: nothing else would start the counters"
	run --separate-stderr "$PFMON" -e page-faults --dont-start --trigger-code-stop-address=work "$FIXTURES/trigwork" 10
	[ "$status" -eq 2 ]
}

@test "errors found in the running program: unknown symbol, outside the text; the command never runs" {
	run --separate-stderr "$PFMON" -e page-faults --trigger-code-start-address=nosuch "$FIXTURES/trigwork" 10
	[ "$status" -eq 1 ]
	one_error_line "^error: trigger 'nosuch' \(--trigger-code-start-address\): unknown function symbol: not in the symbol tables of .*trigwork or of the libraries it loaded$"
	[ -z "$output" ]
	run --separate-stderr "$PFMON" -e page-faults --trigger-code-stop-address=0x10 "$FIXTURES/trigwork" 10
	[ "$status" -eq 1 ]
	one_error_line "^error: trigger '0x10' \(--trigger-code-stop-address\): 0x[0-9a-f]+ is outside the text of .*trigwork$"
	run --separate-stderr "$PFMON" -e page-faults --trigger-code-start-address=work+0x100000 "$FIXTURES/trigwork" 10
	[ "$status" -eq 1 ]
	one_error_line "is outside the text of"
	# a variable is not code, a function is not data
	run --separate-stderr "$PFMON" -e page-faults --trigger-code-start-address=gate "$FIXTURES/trigwork" 10
	[ "$status" -eq 1 ]
	one_error_line "unknown function symbol"
}

# mid_insn FILE FUNC: "OFFSET START SIZE" of the first instruction of FUNC
# longer than one byte, as objdump (the independent disassembler) reads
# it: OFFSET is its second byte, START its first, both from FUNC's start
mid_insn() {
	local base at n
	# objdump -d: "ADDR:<TAB>BYTES<TAB>MNEMONIC", long instructions go on
	# over lines with bytes and no mnemonic
	read -r base at n < <(objdump -d "$1" | awk -F '\t' -v f="<$2>:" '
		$1 ~ f"$" { split($1, w, " "); base = w[1]; on = 1; next }
		!on { next }
		/^$/ || (at && $3 != "") { exit }
		$1 ~ /:$/ {
			k = split($2, b, " ")
			if (at) { n += k; next }
			if (k > 1 || $3 == "") { at = $1; n = k; sub(/^ */, "", at); sub(/:$/, "", at) }
		}
		END { if (at) print base, at, n }')
	[ -n "$n" ] && echo "$(( 16#$at - 16#$base + 1 )) $(( 16#$at - 16#$base )) $n"
}

@test "a code trigger inside an instruction (objdump's) is refused before the command runs; its first byte is taken" {
	read -r off start size < <(mid_insn "$FIXTURES/trigwork" work)
	[ -n "$size" ]
	run --separate-stderr "$PFMON" -e page-faults --trigger-code-start-address="work+$off" "$FIXTURES/trigwork" 10
	[ "$status" -eq 1 ]
	one_error_line "^error: trigger 'work\+$off' \(--trigger-code-start-address\): work\+$(printf '0x%x' "$off") is inside the instruction at work\+$(printf '0x%x' "$start") \($size bytes\): a code trigger must be where an instruction starts$"
	[ -z "$output" ]
	# as an address (nm's, relocated in the PIE), and as a stop
	addr=$(printf '0x%x' $(( $(nm "$FIXTURES/trigwork" | awk '$3 == "work" { print "0x" $1 }') + off )))
	run --separate-stderr "$PFMON" -e page-faults --trigger-code-stop-address="$addr" "$FIXTURES/trigwork" 10
	[ "$status" -eq 1 ]
	one_error_line "^error: trigger '$addr' \(--trigger-code-stop-address\): work\+$(printf '0x%x' "$off") is inside"
	# the instruction's first byte is a boundary: taken, and it fires
	run --separate-stderr "$PFMON" -e page-faults --trigger-code-start-address="work+$start" \
		--trigger-code-stop-address=unrelated --trigger-code-repeat "$FIXTURES/trigwork" 10
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$(count_of page-faults)" -eq 10 ]
	# a library's function is disassembled from its own file
	read -r off start size < <(mid_insn "$FIXTURES/libspin.so" lib_spin)
	[ -n "$size" ]
	run --separate-stderr "$PFMON" -e task-clock --trigger-code-start-address="lib_spin+$off" "$FIXTURES/uselib" 10
	[ "$status" -eq 1 ]
	one_error_line "^error: trigger 'lib_spin\+$off' \(--trigger-code-start-address\): lib_spin\+$(printf '0x%x' "$off") is inside the instruction at lib_spin\+$(printf '0x%x' "$start") \($size bytes\)"
}

@test "data trigger errors found in the running program: a function is not data, an address outside the segments" {
	# data triggers go in the debug registers: where breakpoints do not
	# fire they are refused before the command runs (tested above with
	# PFMON_TEST_BREAKPOINTS_SILENT), so these checks are never reached
	require_breakpoints
	run --separate-stderr "$PFMON" -e page-faults --trigger-data-start-address=work "$FIXTURES/trigwork" 10
	[ "$status" -eq 1 ]
	one_error_line "unknown data symbol"
	run --separate-stderr "$PFMON" -e page-faults --trigger-data-start-address=0x7ff000000000 "$FIXTURES/trigwork" 10
	[ "$status" -eq 1 ]
	one_error_line "not an address of .*trigwork's loaded segments"
}

@test "a trigger that never fired: one warning line each, whatever the mechanism" {
	for silent in "" 1; do
		# 'trigwork 0' refuses its argument (exit 2) before it calls work()
		PFMON_TEST_BREAKPOINTS_SILENT=$silent run --separate-stderr "$PFMON" -e page-faults $W \
			"$FIXTURES/trigwork" 0
		echo "silent=$silent $status: $stderr" >&2
		[ "$status" -eq 2 ]
		[[ "$output" =~ "<not counted>" ]]
		[ "${#stderr_lines[@]}" -eq 2 ]
		[ "${stderr_lines[0]}" = "warning: trigger 'work' (--trigger-code-start-address) never fired: the program never executed it" ]
		[ "${stderr_lines[1]}" = "warning: trigger 'work' (--trigger-code-stop-address) never fired: the program never executed it" ]
	done
	# reached, even by a stop before any start: nothing to say
	run --separate-stderr "$PFMON" -e page-faults --trigger-code-start-address=work \
		--trigger-code-stop-address=main "$FIXTURES/trigwork" 3
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
}

@test "address 0 is outside the text: exit status 1, as any such address, not a usage error" {
	for f in trigwork trigwork_nopie; do
		for a in 0 0x0; do
			run --separate-stderr "$PFMON" -e page-faults --trigger-code-start-address=$a "$FIXTURES/$f" 10
			echo "$f $a -> $status: $stderr" >&2
			[ "$status" -eq 1 ]
			one_error_line "^error: trigger '$a' \(--trigger-code-start-address\): 0x[0-9a-f]+ is outside the text of .*$f$"
			[ -z "$output" ]
		done
	done
}

@test "usage errors: syntax, combinations, debug registers, where triggers cannot act" {
	check() { # check EXPECTED-REGEX ARGS...
		local re=$1
		shift
		run --separate-stderr "$PFMON" -e page-faults "$@"
		echo "$* -> $status: $stderr" >&2
		[ "$status" -eq 2 ]
		one_error_line "$re"
	}
	F="$FIXTURES/trigwork"
	check "'1bad': not a number" --trigger-code-start-address=1bad "$F"
	check "the address is empty" --trigger-code-start-address=work,,inner "$F"
	check "SYMBOL\+OFFSET" --trigger-data-stop-address=a-b "$F"
	check "needs --trigger-code-start-address and --trigger-code-stop-address" --trigger-code-repeat \
		--trigger-code-start-address=work "$F"
	check "needs --trigger-data-start-address and --trigger-data-stop-address" --trigger-data-repeat \
		--trigger-data-stop-address=watched "$F"
	check "'--trigger-code-follow' needs a code trigger" --trigger-code-follow "$F"
	check "'--trigger-data-follow' needs a data trigger" --trigger-data-follow --trigger-code-start-address=work "$F"
	check "'--trigger-data-wo' needs a data trigger" --trigger-data-wo "$F"
	check "options '--trigger-data-ro' and '--trigger-data-wo' cannot be combined" --trigger-data-ro --trigger-data-wo --trigger-data-start-address=gate "$F"
	check "never reads alone" --trigger-data-ro --trigger-data-start-address=gate "$F"
	check "5 data triggers: more than the 4 debug registers of x86" \
		--trigger-data-start-address=gate,watched,other --trigger-data-stop-addresses=pages,page_size "$F"
	check "also a data start trigger: one access would do both" --trigger-data-start-address=gate \
		--trigger-data-stop-address=gate "$F"
	check "both say when counting starts" --trigger-start-delay=1 --trigger-code-start-address=work "$F"
	check "expected seconds from 0.001" --trigger-start-delay=0 "$F"
	check "is not used with --system-wide \\(code and data triggers act in a launched command" -a --trigger-code-start-address=work "$F"
	check "is not used with --attach-task \\(code and data triggers act in a launched command" -p $$ --trigger-code-start-address=work
	check "need to specify a command" --trigger-code-start-address=work
	check "not implemented with per-task results" --follow-fork --trigger-code-start-address=work "$F"
}

@test "system-wide sampling after --trigger-start-delay: a program started during the delay is named" {
	[ "$(id -u)" -eq 0 ] || skip "system-wide monitoring needs root here"
	# it execs while sampling is off: its mappings come from /proc at the start
	(sleep 0.2; exec "$FIXTURES/hotspot" 2500 >/dev/null) &
	run -0 --separate-stderr "$PFMON" -a -e cpu-clock --long-smpl-periods=1000000 --trigger-start-delay=1 -t 2
	wait
	printf '%s\n' "$output" | grep -E '^ +[0-9]+ +[0-9.]+% +[0-9.]+%  [0-9]+:hotspot hot \(hotspot\)$'
}
