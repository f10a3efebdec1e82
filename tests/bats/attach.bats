#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Attaching to running processes: -p/--attach-task, --pid, --tid, -t.

bats_require_minimum_version 1.5.0
load helpers

# start_spinners N M DELAY_MS: spinners in the background, $SP_PID once ready
start_spinners() {
	"$FIXTURES/spinners" "$@" >"$BATS_TEST_TMPDIR/spinners.out" &
	SP_PID=$!
	for _ in $(seq 1 200); do
		grep -q ready "$BATS_TEST_TMPDIR/spinners.out" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

teardown() {
	[ -z "${SP_PID:-}" ] || kill -KILL "$SP_PID" 2>/dev/null || true
}

cpu_ticks() {
	awk '{ print $14 + $15 }' "/proc/$1/stat"
}

@test "attach counts every thread, also those created after the attach, as perf stat -p does" {
	command -v perf >/dev/null || skip "perf not installed"
	start_spinners 4 4 400
	t0=$(cpu_ticks "$SP_PID")
	"$PFMON" -e task-clock -p "$SP_PID" -t 1 >"$BATS_TEST_TMPDIR/pfmon.out" 2>"$BATS_TEST_TMPDIR/pfmon.err" &
	pf=$!
	perf stat -x, -e task-clock -p "$SP_PID" -- sleep 1 2>"$BATS_TEST_TMPDIR/perf.out"
	wait "$pf"
	t1=$(cpu_ticks "$SP_PID")
	ours=$(awk '$2 == "task-clock" { print $1 }' "$BATS_TEST_TMPDIR/pfmon.out")
	theirs=$(awk -F, '$3 == "task-clock" { printf "%d", $1 * 1000000 }' "$BATS_TEST_TMPDIR/perf.out")
	window=$(( (t1 - t0) * 10000000 ))
	echo "pfmon $ours ns, perf $theirs ns, process CPU over the window $window ns" >&2
	[ "$(ls "/proc/$SP_PID/task" | wc -l)" -eq 9 ] # the 4 late threads exist
	# the process's CPU time over a window a little longer than ours (on a
	# loaded machine pfmon and perf may take a while to start)
	[ "$ours" -gt $(( window * 40 / 100 )) ]
	[ "$ours" -le $(( window * 105 / 100 + 20000000 )) ]
	# perf measured the same process over the same second
	[ "$ours" -gt $(( theirs * 90 / 100 )) ]
	[ "$ours" -lt $(( theirs * 110 / 100 )) ]
	[ ! -s "$BATS_TEST_TMPDIR/pfmon.err" ]
	# undisturbed: still running, never stopped, no signal pending
	kill -0 "$SP_PID"
	! grep -q '^State:.*[tT]' "/proc/$SP_PID/status"
	grep -q '^SigPnd:[[:space:]]*0*$' "/proc/$SP_PID/status"
	grep -q '^ShdPnd:[[:space:]]*0*$' "/proc/$SP_PID/status"
	t2=$(cpu_ticks "$SP_PID")
	sleep 0.3
	[ "$(cpu_ticks "$SP_PID")" -gt "$t2" ] # it runs on
}

@test "--tid counts the named thread alone" {
	start_spinners 2
	tid=$(ls "/proc/$SP_PID/task" | sort -n | tail -1)
	run --separate-stderr "$PFMON" -e task-clock --tid="$tid" -t 1
	[ "$status" -eq 0 ]
	ns=$(count_of task-clock)
	[ "$ns" -gt 0 ]
	[ "$ns" -le 1100000000 ] # one thread cannot run more than the second
}

@test "Ctrl-C ends an attached session: the counts are printed, exit 0" {
	start_spinners 1
	"$PFMON" -e task-clock -p "$SP_PID" >"$BATS_TEST_TMPDIR/out" &
	pf=$!
	sleep 0.5
	kill -INT "$pf"
	status=0
	wait "$pf" || status=$?
	[ "$status" -eq 0 ]
	[ "$(awk '$2 == "task-clock" { print $1 }' "$BATS_TEST_TMPDIR/out")" -gt 0 ]
	kill -0 "$SP_PID" # SIGINT was pfmon's, not the process's
}

@test "a process that exits first ends the session: counts kept, a note says so" {
	"$FIXTURES/burn" 300 &
	pid=$!
	run --separate-stderr "$PFMON" -e task-clock -p "$pid" -t 20
	[ "$status" -eq 0 ]
	[ "$(count_of task-clock)" -gt 0 ]
	one_error_line '^note: the monitored process ended before the session did$'
}

# the perf_event fds process $1 holds
perf_fds() {
	find "/proc/$1/fd" -lname 'anon_inode:*perf_event*' 2>/dev/null | wc -l
}

@test "threads that exit during the session keep their counts, and a note says so" {
	# the threads spin 100 ms each once told to, after pfmon has attached
	# to them (the main thread and two spinners: three counters)
	SPINNERS_GO_ON_USR1=1 start_spinners 2 0 0 100 stay
	"$PFMON" -e task-clock -p "$SP_PID" -t 2 >"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" &
	pf=$!
	for _ in $(seq 1 200); do
		[ "$(perf_fds $pf)" -ge 3 ] && break
		sleep 0.01
	done
	kill -USR1 "$SP_PID"
	status=0
	wait $pf || status=$?
	[ "$status" -eq 0 ]
	output=$(cat "$BATS_TEST_TMPDIR/out")
	stderr=$(cat "$BATS_TEST_TMPDIR/err")
	mapfile -t stderr_lines <"$BATS_TEST_TMPDIR/err"
	ns=$(count_of task-clock)
	echo "task-clock $ns" >&2
	[ "$ns" -gt 150000000 ] && [ "$ns" -lt 300000000 ] # the two threads' 100 ms each
	one_error_line '^note: 2 of the threads monitored exited during the session; their counts are kept$'
}

@test "-t ends a launched command, as pfmon 3.x did" {
	SECONDS=0
	run --separate-stderr "$PFMON" -e task-clock -t 1 "$FIXTURES/sleeper" 30000
	[ "$status" -eq 0 ]
	[ "$SECONDS" -lt 10 ]
	one_error_line '^note: session timeout after 1 s: the command was killed$'
	count_of task-clock >/dev/null
}

@test "-t takes fractions of a second, as perf's --timeout takes milliseconds" {
	run --separate-stderr "$PFMON" -e task-clock -t 0.5 "$FIXTURES/sleeper" 30000
	[ "$status" -eq 0 ]
	one_error_line '^note: session timeout after 0.5 s: the command was killed$'
	count_of task-clock >/dev/null
	# a duration is more than 0, without a sign
	run --separate-stderr "$PFMON" -e task-clock -t 0 true
	[ "$status" -eq 2 ]
	one_error_line "^error: invalid value '0' for option '--session-timeout': expected seconds from 0.001 to [0-9]+$"
	run --separate-stderr "$PFMON" -e task-clock --trigger-start-delay=-1 true
	[ "$status" -eq 2 ]
	one_error_line "^error: invalid value '-1' for option '--trigger-start-delay': a sign is not allowed"
}

@test "sampling an attached process: its hot function and line, also from the file after it exited" {
	"$FIXTURES/hotspot" 4000 &
	pid=$!
	sleep 0.3
	f="$BATS_TEST_TMPDIR/att.pfs"
	run --separate-stderr "$PFMON" -e cpu-clock --long-smpl-periods=1000000 --smpl-outfile="$f" -p "$pid" -t 1
	[ "$status" -eq 0 ]
	first=$(printf '%s\n' "$output" | grep -v '^#' | head -1)
	[[ "$first" =~ \ hot\ \(hotspot\)$ ]]
	kill "$pid"
	wait "$pid" || true
	run "$PFMON" --report="$f" --report-sort=line
	[ "$status" -eq 0 ]
	first=$(printf '%s\n' "$output" | grep -v '^#' | head -1)
	[[ "$first" =~ hotspot\.c:$(line_of hotspot.c 'HOT LINE')$ ]]
}

@test "attach errors: no such process, a command with -p, --tid with -p" {
	run --separate-stderr "$PFMON" -e task-clock -p 2147483646 -t 1
	[ "$status" -eq 1 ]
	one_error_line '^error: cannot attach to 2147483646: no such process$'
	run --separate-stderr "$PFMON" -e task-clock -p 1 true
	[ "$status" -eq 2 ]
	one_error_line '^error: a command cannot be given with --attach-task'
	run --separate-stderr "$PFMON" -e task-clock -p 1 --tid=1 -t 1
	[ "$status" -eq 2 ]
	one_error_line '^error: --tid cannot be combined'
	run --separate-stderr "$PFMON" -e task-clock -p 12x -t 1
	[ "$status" -eq 2 ]
	one_error_line "^error: invalid value '12x' for option '--attach-task'"
}

@test "another user's process: permission denied, naming why" {
	command -v setpriv >/dev/null || skip "setpriv not installed"
	[ "$(id -u)" -eq 0 ] || skip "needs root to run as another user"
	start_spinners 1
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups "$PFMON" -e task-clock -p "$SP_PID" -t 1
	[ "$status" -eq 1 ]
	one_error_line "^error: cannot attach to $SP_PID: permission denied \(it belongs to another user"
}
