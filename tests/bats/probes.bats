#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# kprobes and uprobes defined in tracefs are tracepoints pfmon counts,
# samples, lists and describes by name (issue 29), checked against the
# fixture's own calls and against perf on the same command.  Each test
# defines its probes with perf probe under names of its own and removes
# them after.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	[ "$(id -u)" -eq 0 ] || skip "defining probes needs root"
	command -v perf >/dev/null || skip "perf is not installed (it defines the probes)"
	tracefs=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)
	[ -n "$tracefs" ] && [ -w "$tracefs/uprobe_events" ] || skip "no writable tracefs here"
	probes=()
}

teardown() {
	for p in "${probes[@]}"; do perf probe -q -d "$p" 2>/dev/null || true; done
}

# define PROBE-SPEC [-x BINARY]: a perf probe; its event name on stdout
define() {
	local out
	out=$(perf probe "$@" 2>&1) || { echo "$out" >&2; return 1; }
	sed -n 's/^[[:space:]]*perf record -e \([^ ]*\) .*/\1/p' <<<"$out" | head -1
}

@test "a uprobe counts each call of its function: exactly the fixture's calls, and sampled there" {
	ev=$(define -x "$FIXTURES/calltree" -a "hot_$$=hot")
	probes+=("$ev")
	[ "$ev" = "probe_calltree:hot_$$" ]
	# calltree N calls hot once a round
	run -0 --separate-stderr "$PFMON" -e "$ev" "$FIXTURES/calltree" 7
	[ "$(count_of "$ev")" -eq 7 ]
	run -0 --separate-stderr "$PFMON" -x, -e "$ev" "$FIXTURES/calltree" 3
	[[ "${lines[0]}" =~ ^3,,$ev, ]]
	# sampled at period 1: a sample a call, each in hot
	run -0 --separate-stderr "$PFMON" -e "$ev" --long-smpl-periods=1 --smpl-outfile="$BATS_TEST_TMPDIR/u.pfs" \
		"$FIXTURES/calltree" 5
	[[ "$output" =~ "# event $ev: 5 samples (period 1)" ]]
	[[ "$output" =~ [[:space:]]5\ 100\.00%\ 100\.00%\ \ hot\ \(calltree\) ]]
}

@test "-l lists a probe among the tracepoints, -i describes it with its fields" {
	ev=$(define -x "$FIXTURES/calltree" -a "cold_$$=cold")
	probes+=("$ev")
	run -0 --separate-stderr "$PFMON" -l "cold_$$"
	[ "$output" = "$ev" ]
	run -0 --separate-stderr "$PFMON" -i "$ev"
	[[ "$output" =~ "Name     : $ev" ]]
	[[ "$output" =~ "PMU      : kernel tracepoint ($tracefs/events/${ev%%:*}/${ev#*:})" ]]
	[[ "$output" =~ "Fields   : __probe_ip" ]]
}

@test "a kprobe counts what perf stat counts on the same command" {
	[ -e "$tracefs/kprobe_events" ] || skip "the kernel has no kprobe events (CONFIG_KPROBE_EVENTS)"
	grep -q ' vfs_write$' /proc/kallsyms || skip "the kernel has no vfs_write symbol to probe"
	ev=$(define -a "vfs_write_$$=vfs_write")
	probes+=("$ev")
	# dd writes 40 one-byte blocks, and its summary: the same writes for both tools
	perf stat -x, -e "$ev" dd if=/dev/zero of=/dev/null bs=1 count=40 2>"$BATS_TEST_TMPDIR/perf" >/dev/null
	theirs=$(awk -F, -v ev="$ev" '$3 == ev { print $1 }' "$BATS_TEST_TMPDIR/perf")
	run -0 --separate-stderr "$PFMON" -x, -e "$ev" dd if=/dev/zero of=/dev/null bs=1 count=40
	ours=$(printf '%s\n' "$output" | awk -F, -v ev="$ev" '$3 == ev { print $1 }')
	echo "perf $theirs, pfmon $ours" >&2
	[ "$ours" -ge 40 ] && [ "$ours" -eq "$theirs" ] || false
}
