#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --print-interval and --interval-count: deltas per interval.

bats_require_minimum_version 1.5.0
load helpers

@test "intervals show a busy phase then a sleeping one; the deltas sum to the total" {
	run --separate-stderr "$PFMON" -e task-clock --print-interval=100 "$FIXTURES/phases" 500 500
	[ "$status" -eq 0 ]
	# deltas of the intervals, then the total after "# total"
	mapfile -t d < <(printf '%s\n' "$output" | awk '/^# total/ { exit } $2 == "task-clock" { print $1 }')
	total=$(printf '%s\n' "$output" | awk '/^# total/ { t = 1 } t && $2 == "task-clock" { print $1 }')
	[ "${#d[@]}" -ge 6 ]
	sum=0
	for v in "${d[@]}"; do sum=$(( sum + v )); done
	[ "$sum" -eq "$total" ]
	# the busy phase is 500 ms of CPU (by the process's CPU clock, which
	# reads a few percent above task-clock): all of it in the intervals
	[ "$sum" -ge 450000000 ]
	# the last intervals are asleep: next to nothing
	[ "${d[-2]}" -lt 10000000 ]
	# and the busiest interval holds far more than a sleeping one, however
	# loaded the machine (a ratio between the phases, not a time)
	max=$(printf '%s\n' "${d[@]}" | sort -n | tail -1)
	[ "$max" -gt $(( 20 * ${d[-2]} + 1000000 )) ]
	# a '#' line with the time before each round
	[ "$(printf '%s\n' "$output" | grep -c '^# [0-9]*\.[0-9]* s$')" -eq "${#d[@]}" ]
}

@test "CSV has perf stat -I's columns: time first, then perf stat -x's" {
	run --separate-stderr "$PFMON" -e task-clock,page-faults --print-interval=100 --csv "$FIXTURES/phases" 200 100
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -cvE '^[0-9]+\.[0-9]{9},')" -eq 0 ]
	printf '%s\n' "$output" | awk -F, '
		NF != 8 { bad = 1 }
		$4 != "task-clock" && $4 != "page-faults" { bad = 1 }
		$1 + 0 < last + 0 { bad = 1 }
		{ last = $1 }
		END { exit bad }'
	run --separate-stderr "$PFMON" -e task-clock --print-interval=100 --json "$FIXTURES/phases" 200 100
	[ "$(printf '%s\n' "$output" | jq -r '.interval | type' | sort -u)" = number ]
}

@test "--interval-count ends the session after N intervals" {
	# sleeper would sleep 30,000 times: ended early, it switched fewer
	# times (timeout only guards against a hang)
	run --separate-stderr timeout 120 "$PFMON" -e context-switches --print-interval=100 --interval-count=3 \
		"$FIXTURES/sleeper" 30000
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -c '^# [0-9]')" -eq 3 ]
	total=$(printf '%s\n' "$output" | awk '/^# total/ { getline; print $1 }')
	[ "$total" -lt 30000 ]
	run --separate-stderr "$PFMON" -e task-clock --interval-count=3 true
	[ "$status" -eq 2 ]
	run --separate-stderr "$PFMON" -e task-clock --print-interval=5 true
	[ "$status" -eq 2 ]
}
