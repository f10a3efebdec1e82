#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Following a command's tasks (pfmon 3.x --follow-*), per-task and per-exec
# results, --show-time.

bats_require_minimum_version 1.5.0
load helpers

# the count column of per-task rows whose name (third column) is $1
counts_named() {
	printf '%s\n' "$output" | awk -v n="$1" '$2 == "task-clock" && $3 == n { print $1 }'
}

# whole VALUE: the script's two fixtures (140 ms of their CPU clocks, a
# few % above task-clock) and at most what the kernel accounted to the run
whole() {
	echo "whole $1: 133000000 to $cpu_limit" >&2
	[ "$1" -ge 133000000 ] && [ "$1" -le "$cpu_limit" ] || false
}

# holds VALUE WORK: one result holds its fixture's WORK ns of CPU (task-clock
# reads a few % below the CPU clock the fixtures spin on) and at most WORK
# plus all the CPU the run (run_timed) spent beyond its fixtures' total work
# $run_work: loading and exec, 16 ms an image under stress-check's load
holds() {
	local spare=$(( cpu_limit - run_work * 95 / 100 ))
	echo "holds $1: $(( $2 * 95 / 100 )) to $(( $2 + spare ))" >&2
	[ "$1" -ge $(( $2 * 95 / 100 )) ] && [ "$1" -le $(( $2 + spare )) ] || false
}

within() { # within VALUE EXPECTED PCT
	echo "within $1 $2 $3%" >&2
	[ "$1" -ge $(( $2 * (100 - $3) / 100 )) ] && [ "$1" -le $(( $2 * (100 + $3) / 100 )) ] || false
}

@test "--exec-split-results: one result per program image, summing to the whole run" {
	cd "$FIXTURES"
	run_timed -e task-clock --follow-exec --exec-split-results ./execchain 50 ./execchain 70 ./execchain 90
	[ "$status" -eq 0 ]
	mapfile -t v < <(counts_named execchain)
	[ "${#v[@]}" -eq 3 ]
	# each row carries the same (pid,tid,ppid): one task, three images
	[ "$(printf '%s\n' "$output" | awk '{ print $4 }' | sort -u | wc -l)" -eq 1 ]
	run_work=210000000
	holds "${v[0]}" 50000000
	holds "${v[1]}" 70000000
	holds "${v[2]}" 90000000
	[ $(( v[0] + v[1] + v[2] )) -le "$cpu_limit" ]
}

@test "--follow-exec=PATTERN follows only matching programs; --follow-exec-exclude drops one" {
	cd "$FIXTURES"
	run --separate-stderr "$PFMON" -e task-clock --follow-exec=execchain --exec-split-results ./execchain 40 ./execchain 60 ./burn 400
	[ "$status" -eq 0 ]
	[ "$(counts_named execchain | wc -l)" -eq 2 ]
	[ -z "$(counts_named burn)" ]
	run_timed -e task-clock --follow-exec-exclude='^burn$' ./execchain 40 ./execchain 60 ./burn 400
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | wc -l)" -eq 1 ]
	# burn spins until the process has used 400 ms: its 300 are not counted
	run_work=400000000
	holds "$(counts_named execchain)" 100000000
}

@test "--per-thread: each thread's own work, in pfmon 3.x's layout" {
	# each spinner counts its own task-clock over its 100 ms spin: pfmon's
	# count of the thread holds that stretch and the thread's start and
	# exit, never another thread's spin (at least the smallest spin)
	SPINNERS_OWN_COUNT=1 run --separate-stderr "$PFMON" -e task-clock --per-thread "$FIXTURES/spinners" 3 0 0 100
	[ "$status" -eq 0 ]
	mapfile -t own < <(printf '%s\n' "$stderr" | awk '$1 == "own" { print $2, $3 }')
	[ "${#own[@]}" -eq 3 ]
	least=$(printf '%s\n' "${own[@]}" | awk 'NR == 1 || $2 < m { m = $2 } END { print m }')
	[ "$least" -gt 0 ]
	[ "$(counts_named spinners | wc -l)" -eq 4 ] # the main thread and three spinners
	for o in "${own[@]}"; do
		read -r tid ns <<<"$o"
		got=$(printf '%s\n' "$output" | awk -v t="$tid" '$2 == "task-clock" && $4 ~ "^\\([0-9]+," t "," { print $1 }')
		echo "thread $tid: $got, its own spin $ns, another's $least" >&2
		[ "$got" -ge "$ns" ] && [ "$got" -lt $(( ns + least / 2 )) ] || false
	done
	# the main thread sleeps: it holds no spinner's work
	pid=$(printf '%s\n' "$output" | awk '$2 == "task-clock" { split($4, f, /[(,)]/); if (f[2] == f[3]) print $1 }')
	echo "main thread: $pid" >&2
	[ -n "$pid" ] && [ "$pid" -lt $(( least / 2 )) ] || false
	# pfmon 3.x: count 26 wide, name, command, (pid,tid,ppid)
	[[ "$(printf '%s\n' "$output" | grep -v ready | head -1)" =~ ^\ *[0-9]+\ task-clock\ spinners\ \([0-9]+,[0-9]+,[0-9]+\)$ ]]
	row=$(printf '%s\n' "$output" | grep -v ready | head -1)
	[ "$(printf '%s' "$row" | awk '{ print index($0, " task-clock") }')" -eq 27 ]
}

@test "--follow-fork: each process its own result; --aggregate-results sums them" {
	script="$BATS_TEST_TMPDIR/two.sh"
	printf '#!/bin/sh\n"%s" 60 &\n"%s" 80\nwait\n' "$FIXTURES/execchain" "$FIXTURES/execchain" >"$script"
	chmod +x "$script"
	run_timed -e task-clock --follow-all "$script"
	[ "$status" -eq 0 ]
	mapfile -t v < <(counts_named execchain | sort -n)
	[ "${#v[@]}" -eq 2 ]
	run_work=140000000
	holds "${v[0]}" 60000000
	holds "${v[1]}" 80000000
	# the sum: the fixtures' CPU and the shell's, however loaded the machine
	run_timed -e task-clock --follow-all --aggregate-results "$script"
	[ "$status" -eq 0 ]
	whole "$(count_of task-clock)"
	# without following, the default counts them too, in one result
	run_timed -e task-clock "$script"
	whole "$(count_of task-clock)"
	# --no-inherit: the shell alone
	run --separate-stderr "$PFMON" -e task-clock --no-inherit "$script"
	[ "$(count_of task-clock)" -lt 30000000 ]
}

@test "per-task --outfile writes F.<pid>.<tid>, .<exec#> when split; CSV and JSON have perf's thread column" {
	cd "$FIXTURES"
	out="$BATS_TEST_TMPDIR/res"
	run "$PFMON" -e task-clock --follow-exec --exec-split-results --outfile="$out" ./execchain 20 ./execchain 20
	[ "$status" -eq 0 ]
	[ "$(ls "$out".*.*.* | wc -l)" -eq 2 ]
	ls "$out".*.*.0 "$out".*.*.1
	run --separate-stderr "$PFMON" -e task-clock --per-thread --csv "$FIXTURES/spinners" 2 0 0 20
	[ "$(printf '%s\n' "$output" | grep -c '^spinners-[0-9]*,[0-9.]*,msec,task-clock,')" -eq 3 ]
	run --separate-stderr "$PFMON" -e task-clock --per-thread --json "$FIXTURES/spinners" 2 0 0 20
	[ "$(printf '%s\n' "$output" | grep '^{' | jq -r .thread | grep -c '^spinners-[0-9]*$')" -eq 3 ]
}

@test "--show-time prints the command's real, user and sys time before the counts" {
	run --separate-stderr "$PFMON" --show-time -e task-clock "$FIXTURES/burn" 100
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" =~ ^real\ 0h[0-9]{2}m[0-9]{2}\.[0-9]{3}s\ user\ 0h00m00\.[0-9]{3}s\ sys\ 0h00m00\.[0-9]{3}s$ ]]
	# burn spins until its CPU clock reads 100 ms; wait4's user and sys
	# time add up to that same clock (how the kernel splits them between
	# user and sys depends on the clock source: no share is asserted), each
	# printed to the millisecond below
	user_ms=$(printf '%s\n' "${lines[0]}" | sed 's/.*user 0h00m00\.\([0-9]*\)s.*/\1/')
	sys_ms=$(printf '%s\n' "${lines[0]}" | sed 's/.*sys 0h00m00\.\([0-9]*\)s.*/\1/')
	[ $(( 10#$user_ms + 10#$sys_ms )) -ge 98 ]
}

@test "following options that do not fit: one usage error each" {
	run --separate-stderr "$PFMON" -e task-clock --exec-split-results true
	[ "$status" -eq 2 ]
	one_error_line "^error: option '--exec-split-results' needs --follow-exec$"
	run --separate-stderr "$PFMON" -e task-clock --follow-fork -p 1 -t 1
	[ "$status" -eq 2 ]
	run --separate-stderr "$PFMON" -e task-clock --follow-fork --no-inherit true
	[ "$status" -eq 2 ]
	run --separate-stderr "$PFMON" -e task-clock --follow-all --long-smpl-periods=100000 true
	[ "$status" -eq 2 ]
	run --separate-stderr "$PFMON" -e task-clock --follow-exec='(' true
	[ "$status" -eq 2 ]
	run --separate-stderr "$PFMON" --show-time -e task-clock --follow-fork true
	[ "$status" -eq 2 ]
}

@test "a followed program that uses ptrace(2) is let go at its exec: its ptrace works, one note says so" {
	note="^note: 1 followed task \(dbgself\) stopped being traced at the exec of a program that calls ptrace\(2\)"
	# the child asks to be traced and stops itself; its parent waits for that stop
	run --separate-stderr timeout 20 "$PFMON" -e task-clock --follow-fork "$FIXTURES/dbgself"
	echo "$status: $stderr" >&2
	[ "$status" -eq 0 ]
	one_error_line "$note"
	[ "$(counts_named dbgself | wc -l)" -eq 1 ]
	[ "$(counts_named dbgself)" -gt 0 ] # its counts go on after it is let go
	# PTRACE_TRACEME in the command itself
	run --separate-stderr timeout 20 "$PFMON" -e task-clock --follow-all "$FIXTURES/dbgself" self
	[ "$status" -eq 0 ]
	one_error_line "$note"
	# a followed shell's child that execs it: the shell stays followed
	run --separate-stderr timeout 20 "$PFMON" -e task-clock --follow-all sh -c "\"$FIXTURES/dbgself\"; :"
	[ "$status" -eq 0 ]
	one_error_line "$note"
	[ "$(counts_named sh | wc -l)" -eq 1 ]
	[ "$(counts_named dbgself | wc -l)" -eq 1 ]
}

@test "strace -f under --follow-all traces its command as without pfmon" {
	command -v strace >/dev/null || skip "strace not installed"
	run --separate-stderr timeout 20 "$PFMON" -e task-clock --follow-all strace -f -o /dev/null true
	echo "$status: $stderr" >&2
	[ "$status" -eq 0 ]
	one_error_line "^note: 1 followed task \(strace\) stopped being traced"
}
