#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --pin-command: a system-wide session's command runs on the CPUs of --cpu-list.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	[ "$(id -u)" -eq 0 ] || skip "system-wide monitoring needs root here"
	[ "$(nproc)" -ge 2 ] || skip "needs two CPUs"
}

@test "--pin-command: the command's affinity is the CPU list, as /proc and taskset see it" {
	last=$(( $(nproc) - 1 ))
	run --separate-stderr "$PFMON" -a --cpu-list=$last --pin-command -e cpu-clock -- \
		sh -c 'grep Cpus_allowed_list /proc/self/status; taskset -cp $$'
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | grep -q "^Cpus_allowed_list:[[:space:]]*$last\$"
	[[ "$output" =~ "current affinity list: $last" ]]
	# without it the command keeps pfmon's affinity
	run --separate-stderr "$PFMON" -a --cpu-list=$last -e cpu-clock -- grep Cpus_allowed_list /proc/self/status
	[ "$status" -eq 0 ]
	want=$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/$$/status)
	printf '%s\n' "$output" | grep -q "^Cpus_allowed_list:[[:space:]]*$want\$"
}

@test "--pin-command: a CPU-bound command's time lands on its CPU only" {
	# two CPUs, the busy command pinned on CPU 1: CPU 1 carries its 300 ms
	run --separate-stderr "$PFMON" -a --cpu-list=1 --pin-command -e task-clock -- "$FIXTURES/burn" 300
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | awk '{ print $2 }')" -ge 250000000 ]
}

@test "--pin-command needs --system-wide and a command" {
	run --separate-stderr "$PFMON" --pin-command -e task-clock true
	[ "$status" -eq 2 ]
	one_error_line "^error: option '--pin-command' needs --system-wide and a command: it pins the command of a --system-wide session"
	run --separate-stderr "$PFMON" -a --pin-command -e cpu-clock -t 1
	[ "$status" -eq 2 ]
	one_error_line "^error: option '--pin-command' needs --system-wide and a command"
}
