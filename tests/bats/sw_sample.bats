#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# System-wide sampling: the profile keeps each process apart (pid:command),
# --smpl-ignore-pids merges them, as pfmon 3.x.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	[ "$(id -u)" -eq 0 ] || skip "system-wide monitoring needs root here"
}

teardown() {
	[ -z "${a:-}" ] || kill "$a" "$b" 2>/dev/null || true
}

# the samples of rows whose key is $1 (the rest of the line after the percentages)
samples_of() {
	printf '%s\n' "$output" | awk -v k="$1" '{ n = $1; $1 = $2 = $3 = ""; sub(/^ +/, "") } $0 == k { print n }'
}

@test "system-wide profile: two processes of one program, each its own rows, named by pid:command" {
	"$FIXTURES/hotspot" 600000 & # until teardown kills it
	a=$!
	"$FIXTURES/hotspot" 600000 & # until teardown kills it
	b=$!
	wait_running "$a" hotspot
	wait_running "$b" hotspot
	run --separate-stderr "$PFMON" -a -e cpu-clock --long-smpl-periods=1000000 sleep 1
	echo "status $status: $stderr" >&2 # why, when it fails
	[ "$status" -eq 0 ]
	[[ "$output" =~ "pid:command function" ]]
	# running before pfmon started: named from /proc
	[ -n "$(samples_of "$a:hotspot hot (hotspot)")" ]
	[ -n "$(samples_of "$b:hotspot hot (hotspot)")" ]
	# folded stacks start with comm-pid (stackcollapse-perf.pl --pid)
	run --separate-stderr "$PFMON" -a -e cpu-clock --long-smpl-periods=1000000 --report-format=folded sleep 1
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | grep -q "^hotspot-$a;"
	printf '%s\n' "$output" | grep -q "^hotspot-$b;"
}

@test "JSON profile by process: each entry's pid and comm, documented; merged: neither" {
	"$FIXTURES/hotspot" 600000 & # until teardown kills it
	a=$!
	"$FIXTURES/hotspot" 600000 & # until teardown kills it
	b=$!
	wait_running "$a" hotspot
	wait_running "$b" hotspot
	run -0 --separate-stderr "$PFMON" -a -e cpu-clock --long-smpl-periods=1000000 --report-format=json sleep 1
	# every entry: a pid, the number its name starts with; comm, the name's command when known
	[ "$(jq '[.events[0].entries[] | select((.pid | type) != "number" or (.pid as $p | .name | startswith("\($p):") | not))]
		| length' <<<"$output")" -eq 0 ]
	[ "$(jq '[.events[0].entries[] | select(has("comm") and ("\(.pid):\(.comm) " as $k | .name | startswith($k) | not))]
		| length' <<<"$output")" -eq 0 ]
	for p in $a $b; do
		[ "$(jq --argjson p "$p" '[.events[0].entries[] | select(.pid == $p and .comm == "hotspot" and
			.symbol == "hot" and (.binary | endswith("/hotspot")))] | length' <<<"$output")" -eq 1 ]
	done
	# the keys are in pfmon(1)'s JSON PROFILES
	section=$(sed -n '/^\.SH JSON PROFILES/,/^\.SH /p' "$TESTS_SRCDIR/../man/pfmon.1")
	for k in pid comm; do
		grep -qE "fB$k\\\\f" <<<"$section" || { echo "key $k is not documented"; false; }
	done
	# merged: no process, no pid or comm.  Rows are merged by name, and a
	# system-wide profile sees whatever else the machine runs (another
	# build's hotspot would share "hot (hotspot)"): the merged processes
	# run a copy under a name of this test's own
	kill "$a" "$b"
	bin=$BATS_TEST_TMPDIR/swmerge$$
	cp "$FIXTURES/hotspot" "$bin"
	"$bin" 600000 & # until teardown kills it
	a=$!
	"$bin" 600000 & # until teardown kills it
	b=$!
	wait_running "$a" "${bin##*/}"
	wait_running "$b" "${bin##*/}"
	run --separate-stderr "$PFMON" -a -e cpu-clock --long-smpl-periods=1000000 --smpl-ignore-pids \
		--report-format=json sleep 1
	# a system-wide run names whatever the machine runs: say what failed
	[ "$status" -eq 0 ] || { printf '%s\n' "$stderr" | grep -v '^note: ' | tail -40; false; }
	[ "$(jq '[.events[0].entries[] | select(has("pid") or has("comm"))] | length' <<<"$output")" -eq 0 ]
	# the two processes' hot, one row
	hot=$(jq -c --arg bin "$bin" '[.events[0].entries[] | select(.symbol == "hot" and .binary == $bin)]' <<<"$output")
	[ "$(jq length <<<"$hot")" -eq 1 ] ||
		{ echo "rows of hot in $bin: $hot"; jq -c '.events[0].entries[] | select(.symbol == "hot")' <<<"$output"; false; }
}

@test "--smpl-ignore-pids: one row for every process's samples of a function" {
	"$FIXTURES/hotspot" 600000 & # until teardown kills it
	a=$!
	"$FIXTURES/hotspot" 600000 & # until teardown kills it
	b=$!
	wait_running "$a" hotspot
	wait_running "$b" hotspot
	run --separate-stderr "$PFMON" -a -e cpu-clock --long-smpl-periods=1000000 --smpl-ignore-pids sleep 1
	[ "$status" -eq 0 ]
	[[ ! "$output" =~ "pid:command" ]]
	[ "$(printf '%s\n' "$output" | grep -c ' hot (hotspot)$')" -eq 1 ]
	[ "$(samples_of "hot (hotspot)")" -gt 0 ]
	# and no row is a process's
	[ -z "$(samples_of "$a:hotspot hot (hotspot)")" ]
}

@test "--smpl-ignore-pids needs a system-wide profile" {
	run --separate-stderr "$PFMON" -e cpu-clock --long-smpl-periods=1000000 --smpl-ignore-pids true
	[ "$status" -eq 2 ]
	one_error_line "^error: option '--smpl-ignore-pids' needs --system-wide: it merges the processes of a system-wide profile"
	run --separate-stderr "$PFMON" -a -e cpu-clock --smpl-ignore-pids -t 1
	[ "$status" -eq 2 ]
	one_error_line "is not used when counting"
}
