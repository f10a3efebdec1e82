#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# System-wide sessions: -a/--system-wide, -C/--cpu-list, per-CPU results.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	[ "$(id -u)" -eq 0 ] || skip "system-wide monitoring needs root here"
	ncpu=$(getconf _NPROCESSORS_ONLN)
}

teardown() {
	[ -z "${loops:-}" ] || kill $loops 2>/dev/null || true
}

busy_loops() { # two CPU-bound loops for 3 s
	"$FIXTURES/burn" 3000 & loops="$!"
	"$FIXTURES/burn" 3000 & loops="$loops $!"
}

@test "--system-wide counts what runs on every CPU, as perf stat -a does" {
	command -v perf >/dev/null || skip "perf not installed"
	busy_loops
	# cpu-clock system-wide is every CPU's clock over the session: at
	# least the second that sleep slept, at most the time the tool ran
	# (measured around it), for pfmon as for perf, however loaded
	t0=$(date +%s%N)
	"$PFMON" -a --aggregate-results --csv -e cpu-clock sleep 1 >"$BATS_TEST_TMPDIR/ours"
	t1=$(date +%s%N)
	perf stat -a -x, -e cpu-clock sleep 1 2>"$BATS_TEST_TMPDIR/theirs"
	t2=$(date +%s%N)
	ours=$(awk -F, '$3 == "cpu-clock" { printf "%d", $1 * 1000 }' "$BATS_TEST_TMPDIR/ours")
	theirs=$(awk -F, '$3 == "cpu-clock" { printf "%d", $1 * 1000 }' "$BATS_TEST_TMPDIR/theirs")
	echo "pfmon $ours us in $(( (t1 - t0) / 1000 )) us, perf stat -a $theirs us in $(( (t2 - t1) / 1000 )) us" >&2
	[ "$ours" -ge $(( ncpu * 990000 )) ]
	[ "$ours" -le $(( ncpu * (t1 - t0) / 1000 )) ]
	[ "$theirs" -ge $(( ncpu * 990000 )) ]
	[ "$theirs" -le $(( ncpu * (t2 - t1) / 1000 )) ]
}

@test "per-CPU results in pfmon 3.x's layout, summing to the aggregate" {
	last=$(( ncpu - 1 ))
	run --separate-stderr "$PFMON" -a -e cpu-clock,context-switches sleep 0.5
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -c '^CPU[0-9]')" -eq $(( ncpu * 2 )) ]
	if [ "$ncpu" -gt 1 ]; then
		# "CPU0" in 7 characters and a space, the count 26 wide, names padded,
		# then the CPU's metric as on the whole run's count line
		row=$(printf '%s\n' "$output" | grep '^CPU0 .* cpu-clock')
		[[ "$row" =~ ^CPU0\ {4}\ {1}\ *[0-9]+\ cpu-clock\ {7}\ \ #\ +[0-9]+\.[0-9]{3}\ CPUs\ utilized$ ]]
		prefix=${row%%  #*}
		[ "${#prefix}" -eq $(( 8 + 26 + 1 + 16 )) ]
		row=$(printf '%s\n' "$output" | grep '^CPU0 .* context-switches')
		[[ "$row" =~ ^CPU0\ {4}\ {1}\ *[0-9]+\ context-switches$ ]]
	fi
	# A fixture pinned to the last CPU takes $pages page faults (one per page
	# it touches): the per-CPU rows hold them on that CPU, and the aggregate
	# holds them too, whatever else the machine does meanwhile.  (Two runs'
	# cpu-clock sums cannot be compared: each run's length depends on load.)
	pages=20000
	run --separate-stderr "$PFMON" -a --csv -e page-faults taskset -c "$last" "$FIXTURES/touch_pages" $pages
	[ "$status" -eq 0 ]
	on_last=$(printf '%s\n' "$output" | awk -F, -v c="CPU$last" '$1 == c && $4 == "page-faults" { print $2 }')
	sum=$(printf '%s\n' "$output" | awk -F, '$1 ~ /^CPU/ && $4 == "page-faults" { s += $2 } END { print s + 0 }')
	run --separate-stderr "$PFMON" -a --aggregate-results --csv -e page-faults taskset -c "$last" "$FIXTURES/touch_pages" $pages
	[ "$status" -eq 0 ]
	all=$(printf '%s\n' "$output" | awk -F, '$3 == "page-faults" { print $1 }')
	echo "CPU$last $on_last, per-CPU sum $sum, aggregate $all page faults; the fixture's own $pages" >&2
	[ "$on_last" -ge "$pages" ] && [ "$sum" -ge "$on_last" ] && [ "$all" -ge "$pages" ] || false
	run --separate-stderr "$PFMON" -a --json -e cpu-clock sleep 0.2
	[ "$(printf '%s\n' "$output" | jq -r .cpu | sort -u | wc -l)" -eq "$ncpu" ]
}

@test "--cpu-list restricts the CPUs; --outfile writes F.cpu<n>" {
	last=$(( ncpu - 1 ))
	run --separate-stderr "$PFMON" -a -C "$last" -e cpu-clock sleep 0.3
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | wc -l)" -eq 1 ]
	[[ "$output" =~ ^CPU$last\  ]]
	run "$PFMON" -a -e cpu-clock --outfile="$BATS_TEST_TMPDIR/sw" sleep 0.2
	[ "$status" -eq 0 ]
	[ "$(ls "$BATS_TEST_TMPDIR"/sw.cpu* | wc -l)" -eq "$ncpu" ]
	grep -q '^CPU0 .*cpu-clock' "$BATS_TEST_TMPDIR/sw.cpu0"
}

@test "without a command: -t ends the session" {
	# (timeout only guards against a hang: without -t it would wait for ENTER)
	run --separate-stderr timeout 120 "$PFMON" -a -e cpu-clock -t 1 </dev/null
	[ "$status" -eq 0 ]
	[ "${stderr_lines[0]}" = "<session to end in 1 seconds>" ]
	[ "$(printf '%s\n' "$output" | grep -c '^CPU')" -eq "$ncpu" ]
	# each CPU's clock counted the whole second
	[ -z "$(printf '%s\n' "$output" | awk '/^CPU/ && $2 < 990000000')" ] || false
}

@test "system-wide sampling: every process's samples, symbolized" {
	"$FIXTURES/hotspot" 600000 & # until teardown kills it
	loops=$!
	wait_running "$loops" hotspot
	run --separate-stderr "$PFMON" -a -e cpu-clock --long-smpl-periods=1000000 sleep 1
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | grep -q ' hot (hotspot)$'
}

@test "system-wide errors: a CPU not online, a list twice, an unprivileged user, with attach" {
	run --separate-stderr "$PFMON" -a -C 9999 -e cpu-clock true
	[ "$status" -eq 2 ]
	one_error_line "^error: invalid value '9999' for option '--cpu-list': that CPU is not online"
	run --separate-stderr "$PFMON" -a -C 0,0 -e cpu-clock true
	[ "$status" -eq 2 ]
	one_error_line "CPU 0 is listed twice"
	run --separate-stderr "$PFMON" -C 0 -e cpu-clock true
	[ "$status" -eq 2 ]
	run --separate-stderr "$PFMON" -a -p 1 -e cpu-clock
	[ "$status" -eq 2 ]
	run --separate-stderr "$PFMON" --check -a -e cpu-clock
	[ "$status" -eq 2 ]
	command -v setpriv >/dev/null || skip "setpriv not installed"
	[ "$(cat /proc/sys/kernel/perf_event_paranoid)" -gt 0 ] || skip "perf_event_paranoid allows it"
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups "$PFMON" -a -e cpu-clock -t 1
	[ "$status" -eq 1 ]
	[[ "$stderr" =~ "error: system-wide monitoring is not permitted: it needs CAP_PERFMON (or CAP_SYS_ADMIN), or kernel.perf_event_paranoid <= 0 (it is "[0-9]")" ]]
}

@test "system-wide folded stacks and SVG: every root is command-pid, pfmon's own process's too" {
	pidfile="$BATS_TEST_TMPDIR/pfmon.pid"
	for fmt in folded svg; do
		# the command writes pfmon's pid (its parent's) and its own, then
		# becomes hotspot
		run -0 --separate-stderr "$PFMON" -a -e cpu-clock --long-smpl-periods=100000 --report-format=$fmt \
			sh -c 'echo $PPID $$ >"$0"; exec "$1" 300' "$pidfile" "$FIXTURES/hotspot"
		read -r pp hp <"$pidfile"
		if [ $fmt = folded ]; then
			roots=$(printf '%s\n' "$output" | sed 's/;.*//')
		else
			roots=$(printf '%s\n' "$output" | sed -n 's/.*<title>\([^<]*\): [0-9]* samples\{0,1\}, .*/\1/p')
		fi
		printf '%s: hotspot %s, pfmon %s; roots:\n%s\n%s\n' $fmt "$hp" "$pp" "$(printf '%s\n' "$roots" | sort -u)" "$stderr" >&2
		# a ring that overflowed may have lost the record of hotspot's exec
		# (pfmon says so): its samples keep the name the pid had before
		if printf '%s\n' "$stderr" | grep -q 'samples lost'; then
			printf '%s\n' "$roots" | grep -q -- "-$hp$"
		else
			printf '%s\n' "$roots" | grep -q "^hotspot-$hp$"
		fi
		# pfmon runs, and is sampled, as any process: named as the others
		! printf '%s\n' "$roots" | grep -E "^-[0-9]+$"
		! printf '%s\n' "$roots" | grep -E "^:$pp-$pp$"
		printf '%s\n' "$roots" | grep -q "^pfmon-$pp$"
	done
}
