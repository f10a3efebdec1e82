#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# perf's spellings of options pfmon has (issue 29): each acts as in perf,
# checked against perf on the same command where perf can run it.

bats_require_minimum_version 1.5.0
load helpers

needs_perf() {
	command -v perf >/dev/null || skip "perf is not installed"
}

# the unit and event columns of CSV lines with separator $1
csv_shape() {
	awk -F"$1" '{ print NF, $2, $3 }'
}

@test "-x SEP prints perf stat -x's columns, the separator attached or apart" {
	needs_perf
	run -0 --separate-stderr perf stat -x, -e task-clock,page-faults true
	want=$(printf '%s\n' "$stderr" | grep -v '^$' | csv_shape ,)
	run -0 --separate-stderr "$PFMON" -x, -e task-clock,page-faults true
	[ "$(printf '%s\n' "$output" | csv_shape ,)" = "$want" ]
	run -0 --separate-stderr "$PFMON" -x ';' -e task-clock,page-faults true
	[ "$(printf '%s\n' "$output" | csv_shape ';')" = "$want" ]
	# the same as --csv=SEP
	run -0 --separate-stderr "$PFMON" --csv=';' -e task-clock,page-faults true
	[ "$(printf '%s\n' "$output" | csv_shape ';')" = "$want" ]
}

@test "-o FILE when counting: the counts go to FILE, as perf stat -o" {
	needs_perf
	out="$BATS_TEST_TMPDIR/counts"
	run -0 --separate-stderr perf stat -o "$out.perf" -e page-faults true
	[ -z "$output" ] && [ -z "$stderr" ] || false
	grep -q 'page-faults' "$out.perf"
	run -0 --separate-stderr "$PFMON" -o "$out" -e page-faults true
	[ -z "$output" ] && [ -z "$stderr" ] || false
	[[ "$(cat "$out")" =~ ^[0-9]+\ page-faults$ ]]
	# both name the results file: refused
	run --separate-stderr "$PFMON" -o "$out" --outfile="$out.2" -e page-faults true
	[ "$status" -eq 2 ]
	one_error_line "^error: options '-o' and '--outfile' cannot be combined"
}

@test "-o FILE -c N when sampling: a perf.data perf reads, every sample at period N" {
	needs_perf
	data="$BATS_TEST_TMPDIR/perf.data"
	run -0 --separate-stderr "$PFMON" -c 1000000 -e cpu-clock -o "$data" "$FIXTURES/burn" 100
	n=$(printf '%s\n' "$output" | sed -n 's/^# event cpu-clock: \([0-9]*\) samples\{0,1\} (period 1000000)$/\1/p')
	[ -n "$n" ] && [ "$n" -gt 0 ] || false
	# perf reads the same samples, each of period 1000000
	run -0 --separate-stderr perf script -i "$data" -F period
	[ "${#lines[@]}" -eq "$n" ]
	[ -z "$(printf '%s\n' "$output" | awk '$1 != 1000000')" ]
	run --separate-stderr "$PFMON" -c 1000000 -e cpu-clock -o "$data" --smpl-outfile="$data.2" true
	[ "$status" -eq 2 ]
	one_error_line "^error: options '-o' and '--smpl-outfile' cannot be combined"
}

@test "-c N is every event's period; a per-event period wins" {
	smpl="$BATS_TEST_TMPDIR/s.smpl"
	run -0 --separate-stderr "$PFMON" -c 2000000 -e cpu-clock,task-clock --long-smpl-periods=,1000000 \
		--smpl-outfile="$smpl" "$FIXTURES/burn" 50
	run -0 --separate-stderr "$PFMON" --report="$smpl"
	printf '%s\n' "$output" | grep -q '^# event cpu-clock: [0-9]* samples\{0,1\} (period 2000000)$'
	printf '%s\n' "$output" | grep -q '^# event task-clock: [0-9]* samples\{0,1\} (period 1000000)$'
	run --separate-stderr "$PFMON" -c 0 -e cpu-clock true
	[ "$status" -eq 2 ]
}

@test "-B and --no-big-num: thousands separators or none, as perf stat" {
	run -0 --separate-stderr "$PFMON" -B -e page-faults "$FIXTURES/touch_pages" 2000
	[[ "$(count_of page-faults)" =~ ^[0-9]{1,3}(,[0-9]{3})+$ ]]
	run -0 --separate-stderr "$PFMON" --no-big-num -e page-faults "$FIXTURES/touch_pages" 2000
	[[ "$(count_of page-faults)" =~ ^[0-9]{4,}$ ]]
}

@test "perf's spelling beside pfmon's of the same setting: one usage error, never the later silently" {
	for pair in '-x,:--json:choose one output format' '--timeout=5:-t 1:both set the same thing' \
		'-D 5:--trigger-start-delay=1:both set the same thing' '-B:--no-big-num:both set the same thing' \
		'--interval-print=100:--print-interval=200:both set the same thing' '-B:--hex-counter-format:both set'; do
		IFS=: read -r a b why <<<"$pair"
		# shellcheck disable=SC2086 # the options are words
		run --separate-stderr "$PFMON" $a $b -e task-clock true
		[ "$status" -eq 2 ]
		one_error_line "^error: options '--[a-z-]+' and '--[a-z-]+' cannot be combined: $why"
	done
}

@test "--timeout MSEC ends the session as -t does; --interval-print is --print-interval" {
	# the sleeper sleeps 1 ms a hundred million times: the session ends it
	run -0 --separate-stderr "$PFMON" --timeout=100 -e task-clock "$FIXTURES/sleeper" 100000000
	timeout_out=$output timeout_err=$stderr
	[[ "$timeout_err" =~ ^note:\ session\ timeout\ after\ 0\.1\ s:\ the\ command\ was\ killed ]]
	run -0 --separate-stderr "$PFMON" -t 0.1 -e task-clock "$FIXTURES/sleeper" 100000000
	[ "$(printf '%s\n' "$timeout_out" | awk '{ print $2 }')" = "$(printf '%s\n' "$output" | awk '{ print $2 }')" ]
	[ "$timeout_err" = "$stderr" ]
	run -0 --separate-stderr "$PFMON" --interval-print=100 --interval-count=2 -e task-clock "$FIXTURES/sleeper" 100000000
	[ "$(printf '%s\n' "$output" | grep -c '^# [0-9.]* s$')" -eq 2 ]
}

@test "-D MSEC delays the start as --trigger-start-delay; a run shorter than it counts nothing" {
	run -0 --separate-stderr "$PFMON" -D 0 -e page-faults true
	[[ "$(count_of page-faults)" =~ ^[0-9]+$ ]]
	run -0 --separate-stderr "$PFMON" -D 60000 -e page-faults true
	[ "$output" = "<not counted> page-faults" ]
	run -0 --separate-stderr "$PFMON" --trigger-start-delay=60 -e page-faults true
	[ "$output" = "<not counted> page-faults" ]
}

@test "-T is accepted when sampling (samples always carry their time), refused when counting" {
	needs_perf
	data="$BATS_TEST_TMPDIR/perf.data"
	run -0 --separate-stderr "$PFMON" -T -c 1000000 -e cpu-clock -o "$data" "$FIXTURES/burn" 20
	run -0 --separate-stderr perf script -i "$data" -F time
	[ -z "$(printf '%s\n' "$output" | grep -Ev '^ *[0-9]+\.[0-9]+: *$')" ]
	run --separate-stderr "$PFMON" -T -e task-clock true
	[ "$status" -eq 2 ]
	one_error_line "^error: option '--timestamp' is not used when counting"
}

@test "-r N: the mean of N runs and the standard error of that mean, as perf computes it" {
	run -0 --separate-stderr "$PFMON" -r 5 --json -e page-faults,task-clock "$FIXTURES/touch_pages" 500
	# the test recomputes mean and variance from the runs pfmon lists
	printf '%s\n' "$output" | python3 -c '
import json, math, sys
for line in sys.stdin:
    r = json.loads(line)
    v = r["run-values"]
    assert len(v) == 5, v
    mean = sum(v) / 5
    err = 100 * math.sqrt(sum((x - mean) ** 2 for x in v) / 4 / 5) / mean
    shown = float(r["counter-value"]) * (1e6 if r["unit"] == "msec" else 1)
    assert abs(shown - mean) <= 1 + mean * 1e-6, (r["event"], shown, mean)
    assert abs(r["variance"] - err) <= 0.005 + 1e-9, (r["event"], r["variance"], err)
'
	run -0 --separate-stderr "$PFMON" -r 3 -e page-faults "$FIXTURES/touch_pages" 500
	[[ "$output" =~ ^\ *[0-9]+\ page-faults\ \ \(\ \+-\ +[0-9]+\.[0-9][0-9]%\ \)$ ]]
}

@test "-r N against perf stat -r N on the same fixture: the same columns, means within their errors" {
	needs_perf
	run -0 --separate-stderr perf stat -r 5 -x, -e page-faults "$FIXTURES/touch_pages" 500
	theirs=$(printf '%s\n' "$stderr" | grep ',page-faults,')
	run -0 --separate-stderr "$PFMON" -r 5 -x, -e page-faults "$FIXTURES/touch_pages" 500
	ours=$(printf '%s\n' "$output" | grep ',page-faults,')
	echo "perf: $theirs; pfmon: $ours" >&2
	# value,unit,event,variance%,runtime,pcnt,metric,metric-unit
	[ "$(awk -F, '{ print NF, $2, $3, ($4 ~ /%$/) }' <<<"$ours")" = "$(awk -F, '{ print NF, $2, $3, ($4 ~ /%$/) }' <<<"$theirs")" ]
	# the two means differ by less than three standard errors of their
	# difference, and two pages: the kernel moves each exec's stack top
	# down by a random 0-8 KiB, so a series' pages can sit up to two pages
	# from another series' (perf against itself here: 551, 551, 551 and
	# pfmon 550, 552, 551, each series of 5 with a standard error of ~0.3)
	awk -F, -v a="$ours" -v b="$theirs" 'BEGIN {
		split(a, x, ","); split(b, y, ",")
		ex = x[1] * x[4] / 100; ey = y[1] * y[4] / 100
		d = x[1] - y[1]; if (d < 0) d = -d
		exit !(d <= 3 * sqrt(ex * ex + ey * ey) + 2) }'
}

@test "-r N: a run whose command fails stops the series, its status is pfmon's; -r with per-task results is refused" {
	run --separate-stderr "$PFMON" -r 4 -e task-clock sh -c 'exit 3'
	[ "$status" -eq 3 ]
	[ "$stderr" = "note: run 1 of 4: the command ended with status 3: the series stops" ]
	[[ "$output" =~ task-clock ]]
	run --separate-stderr "$PFMON" -r 2 --per-thread -e task-clock true
	[ "$status" -eq 2 ]
	one_error_line "^error: options '--repeat' and '--per-thread' cannot be combined"
	run --separate-stderr "$PFMON" -r 0 -e task-clock true
	[ "$status" -eq 2 ]
}

# perf stat's text with its numbers masked and its blanks squeezed: the
# words and their order (heading, units, events, metrics, footer); a
# count's "( +- 0.52% )" of -r left out (perf omits it when the runs'
# counts are equal, which a page-fault count may be in one tool's runs)
perf_words() {
	grep -v '^warning: ' | sed -E '/seconds/!s/  \( \+- *[0-9.]+% \)//; s/[0-9]+(\.[0-9]+)?/N/g; s/ +/ /g'
}

# each count line's columns: where the event starts, where its metric's
# "#" is, how long the line is (its -r variance left out)
perf_columns() {
	sed -E 's/  \( \+- *[0-9.]+% \)$//' |
		awk '/(msec|  ) [a-z]/ && !/seconds/ { n = index($0, $2); if ($2 == "msec") n = index($0, $3)
			print n, index($0, "#"), length($0) }'
}

@test "--perf-style prints what perf stat prints, column for column: heading, counts, metrics, times" {
	needs_perf
	for args in "-e task-clock,page-faults,context-switches true" "-r 3 -e task-clock,page-faults true" \
		"-a -e cpu-clock true" "-e task-clock -e page-faults $FIXTURES/burn 20"; do
		perf stat $args 2>"$BATS_TEST_TMPDIR/theirs" >/dev/null
		"$PFMON" --perf-style $args 2>"$BATS_TEST_TMPDIR/ours" >/dev/null
		echo "== $args" >&2
		cat "$BATS_TEST_TMPDIR/theirs" "$BATS_TEST_TMPDIR/ours" >&2
		diff <(perf_words <"$BATS_TEST_TMPDIR/theirs") <(perf_words <"$BATS_TEST_TMPDIR/ours")
		diff <(perf_columns <"$BATS_TEST_TMPDIR/theirs") <(perf_columns <"$BATS_TEST_TMPDIR/ours")
	done
	# -r: a clock's runs differ, so both print its variance where perf does
	"$PFMON" --perf-style -r 3 -e task-clock true 2>&1 | grep -Eq '^ +[0-9.]+ msec task-clock .*  \( \+- *[0-9.]+% \)$' 
}

@test "--perf-style: attached, to --outfile, without grouping; what it does not print is refused" {
	"$FIXTURES/sleeper" 3000 &
	pid=$!
	"$PFMON" --perf-style -p $pid --timeout 100 -e context-switches 2>"$BATS_TEST_TMPDIR/ours"
	kill $pid
	mapfile -t l <"$BATS_TEST_TMPDIR/ours"
	[ "${l[0]}" = "" ] && [ "${l[1]}" = " Performance counter stats for process id '$pid':" ] || false
	[[ "${l[3]}" =~ ^\ +[0-9]+\ {6}context-switches\ + ]]
	[[ "${l[5]}" =~ ^\ +[0-9]+\.[0-9]{9}\ seconds\ time\ elapsed$ ]]
	run -0 --separate-stderr "$PFMON" --perf-style -o "$BATS_TEST_TMPDIR/c" -e page-faults true
	[ -z "$output" ] && [ -z "$stderr" ] || false
	grep -q "^ Performance counter stats for 'true':$" "$BATS_TEST_TMPDIR/c"
	grep -Eq '^ +[0-9]+ seconds user$|^ +[0-9]+\.[0-9]{9} seconds user$' "$BATS_TEST_TMPDIR/c"
	# --no-big-num: no thousands separator whatever the locale
	run -0 --separate-stderr env LC_ALL=C.UTF-8 "$PFMON" --perf-style --no-big-num -e page-faults true
	[[ "$stderr" =~ $'\n'\ +[0-9]+\ {6}page-faults\ + ]]
	for other in --print-interval=100 --per-thread --show-time --with-header --metric-only; do
		run -2 --separate-stderr "$PFMON" --perf-style $other -e page-faults true
		one_error_line "^error: options '--perf-style' and '${other%%=*}' cannot be combined"
	done
}

# each CSV line's event and whether it was counted
csv_events() {
	awk -F"," 'NF > 3 { print $3, ($1 ~ /^</ ? $1 : "counted") }'
}

@test "-d, -dd, -ddd add perf's detailed events after the others, counted or <not supported> as perf finds them" {
	needs_perf
	for d in -d -dd -ddd; do
		run -0 --separate-stderr perf stat $d -x, -e task-clock true
		want=$(printf '%s\n' "$stderr" | csv_events)
		run -0 --separate-stderr "$PFMON" $d -x, -e task-clock true
		echo "$d: perf '$want' pfmon '$(printf '%s\n' "$output" | csv_events)'" >&2
		[ "$(printf '%s\n' "$output" | csv_events)" = "$want" ]
	done
	# -d with the default events: they come first, perf's detailed ones after
	run -0 --separate-stderr "$PFMON" -d -x, true
	[ "$(printf '%s\n' "$output" | tail -4 | cut -d, -f3 | tr '\n' ' ')" = "L1-dcache-loads L1-dcache-load-misses LLC-loads LLC-load-misses " ]
	# -dddd is -ddd, as in perf
	run -0 --separate-stderr "$PFMON" -dddd -x, -e task-clock true
	[ "${#lines[@]}" -eq 13 ]
}

@test "events the machine cannot count for one reason: one warning line naming them all" {
	hw_pmu_present && skip "this machine counts hardware events"
	run -0 --separate-stderr "$PFMON" -ddd -e task-clock true
	one_error_line "^warning: cannot count 'L1-dcache-loads', 'L1-dcache-load-misses', 'LLC-loads', .*, 'L1-dcache-prefetch-misses': the kernel exposes no hardware PMU"
	[ "$(printf '%s\n' "$output" | grep -c '^<not supported> ')" -eq 12 ]
}

@test "-n: no counter, the command's times; in perf's layout as perf stat -n prints them" {
	needs_perf
	for args in "-n true" "-n -r 3 true" "-n -a true"; do
		perf stat $args 2>"$BATS_TEST_TMPDIR/theirs" >/dev/null
		"$PFMON" --perf-style $args 2>"$BATS_TEST_TMPDIR/ours" >/dev/null
		cat "$BATS_TEST_TMPDIR/theirs" "$BATS_TEST_TMPDIR/ours" >&2
		diff <(perf_words <"$BATS_TEST_TMPDIR/theirs") <(perf_words <"$BATS_TEST_TMPDIR/ours")
	done
	# no counter was opened
	PFMON_DUMP_ATTR="$BATS_TEST_TMPDIR/attrs" "$PFMON" -n --perf-style true 2>/dev/null
	[ ! -s "$BATS_TEST_TMPDIR/attrs" ]
	# pfmon's layout: --show-time's line, the command's own times
	run -0 --separate-stderr "$PFMON" -n true
	[[ "$output" =~ ^real\ 0h00m[0-9]{2}\.[0-9]{3}s\ user\ 0h00m[0-9]{2}\.[0-9]{3}s\ sys\ 0h00m[0-9]{2}\.[0-9]{3}s$ ]]
	run -2 --separate-stderr "$PFMON" -n -e task-clock true
	one_error_line "^error: options '-n/--null' and '--events' cannot be combined \(a null run opens no counter\)$"
	run -2 --separate-stderr "$PFMON" -n -x, true
	one_error_line "^error: options '-n/--null' and '-x/--csv' cannot be combined"
	run -2 --separate-stderr "$PFMON" -n -r 3 true
	one_error_line "^error: option '-n/--null' needs --perf-style with -r"
}

# perf record -vv's branch_sample_type names as the kernel's bits
branch_bits() {
	local -A bit=([USER]=1 [KERNEL]=2 [HV]=4 [ANY]=8 [ANY_CALL]=16 [ANY_RETURN]=32 [IND_CALL]=64 [ABORT_TX]=128
		[IN_TX]=256 [NO_TX]=512 [COND]=1024 [CALL_STACK]=2048 [IND_JUMP]=4096 [CALL]=8192)
	local sum=0 name
	for name in ${1//|/ }; do sum=$((sum + bit[$name])); done
	printf '0x%x\n' $sum
}

@test "-b and --branch-filter (perf record -j) program the branch filter perf programs; -j FILTER names --branch-filter" {
	needs_perf
	for filter in "call,k" "any,u" "any_call,any_ret,u" "u" "cond,ind_jmp"; do
		perf record -vv -j "$filter" -e cpu-clock -o "$BATS_TEST_TMPDIR/p.data" true 2>"$BATS_TEST_TMPDIR/vv" || true
		want=$(branch_bits "$(awk '$1 == "branch_sample_type" { print $2; exit }' "$BATS_TEST_TMPDIR/vv")")
		rm -f "$BATS_TEST_TMPDIR/attrs"
		PFMON_DUMP_ATTR="$BATS_TEST_TMPDIR/attrs" "$PFMON" --branch-filter="$filter" -e cpu-clock \
			--smpl-outfile="$BATS_TEST_TMPDIR/s.pfs" true >/dev/null 2>&1 || true
		echo "$filter: perf $want, pfmon $(cat "$BATS_TEST_TMPDIR/attrs")" >&2
		grep -q "branch_sample_type=$want\b" "$BATS_TEST_TMPDIR/attrs"
	done
	perf record -vv -b -e cpu-clock -o "$BATS_TEST_TMPDIR/p.data" true 2>"$BATS_TEST_TMPDIR/vv" || true
	want=$(branch_bits "$(awk '$1 == "branch_sample_type" { print $2; exit }' "$BATS_TEST_TMPDIR/vv")")
	rm -f "$BATS_TEST_TMPDIR/attrs"
	PFMON_DUMP_ATTR="$BATS_TEST_TMPDIR/attrs" "$PFMON" -b -e cpu-clock --smpl-outfile="$BATS_TEST_TMPDIR/s.pfs" \
		true >/dev/null 2>&1 || true
	grep -q "branch_sample_type=$want\b" "$BATS_TEST_TMPDIR/attrs"
	# -j is perf stat's --json; perf record's -j FILTER is refused naming pfmon's spelling
	run -2 --separate-stderr "$PFMON" -j any,u -e cpu-clock true
	one_error_line "^error: option '-j any,u': -j is pfmon's --json \(perf stat -j\), which takes no value; perf's -j any,u \(perf record's branch filter\) is --branch-filter=any,u in pfmon$"
	run -0 --separate-stderr "$PFMON" -j -e page-faults true
	[[ "$output" =~ ^\{\"counter-value\"\ :\ \"[0-9.]+\",.*\"event\"\ :\ \"page-faults\" ]]
	run -2 --separate-stderr "$PFMON" --branch-filter=any,sideways -e cpu-clock --smpl-outfile=x true
	one_error_line "^error: invalid value 'any,sideways' for option '--branch-filter': perf's branch filters are u, k, hv, any"
}

# the sizes (in pages) of a process's perf_event ring mappings, once there
ring_pages_of() {
	local pid=$1 maps range _
	for _ in $(seq 1 400); do
		maps=$(grep perf_event "/proc/$pid/maps" 2>/dev/null | while read -r range _; do
			echo $(((0x${range#*-} - 0x${range%-*}) / 4096))
		done | sort -u)
		[ -n "$maps" ] && { echo "$maps"; return 0; }
		sleep 0.05
	done
	return 1
}

@test "-m PAGES sizes each CPU's ring as perf record -m does (its mapping: the pages and the header page)" {
	needs_perf
	for m in 16 64 8K; do
		perf record -m "$m" -e cpu-clock -o "$BATS_TEST_TMPDIR/p.data" "$FIXTURES/sleeper" 2000 >/dev/null 2>&1 &
		rec=$!
		want=$(ring_pages_of $rec)
		kill -INT $rec; wait $rec || true
		"$PFMON" -m "$m" -e cpu-clock --smpl-outfile="$BATS_TEST_TMPDIR/s.pfs" "$FIXTURES/sleeper" 2000 >/dev/null 2>&1 &
		pf=$!
		got=$(ring_pages_of $pf)
		kill -INT $pf; wait $pf || true
		echo "-m $m: perf's rings $want pages, pfmon's $got" >&2
		# pfmon's rings: one size, a size of perf's rings (perf maps others too)
		[ "$(printf '%s\n' "$got" | wc -l)" -eq 1 ] && [ -n "$got" ] && grep -qx "$got" <<<"$want" || false
	done
	run -2 --separate-stderr "$PFMON" -m 8192 -e cpu-clock --smpl-outfile=x true
	one_error_line "^error: invalid value '8192' for option '--mmap-pages': at most 4096 pages a ring$"
	run -2 --separate-stderr "$PFMON" -s -e cpu-clock --smpl-outfile=x true
	one_error_line "^error: option '-s/--stat' is not implemented"
}

@test "--metric-no-group: each event of -M's metrics opened alone, as perf stat opens them; the plan says so" {
	# grouped (pfmon's default): the metrics' events share one leader
	PFMON_DUMP_ATTR="$BATS_TEST_TMPDIR/grouped" "$PFMON" -M cs_per_second,page_faults_per_second true >/dev/null 2>&1
	grep -q 'group_fd=[0-9]' "$BATS_TEST_TMPDIR/grouped"
	PFMON_DUMP_ATTR="$BATS_TEST_TMPDIR/alone" "$PFMON" -M cs_per_second,page_faults_per_second --metric-no-group \
		true >/dev/null 2>&1
	[ "$(grep -c 'group_fd=-1' "$BATS_TEST_TMPDIR/alone")" -eq 3 ]
	! grep -q 'group_fd=[0-9]' "$BATS_TEST_TMPDIR/alone"
	run -0 --separate-stderr "$PFMON" --check -M cs_per_second,page_faults_per_second --metric-no-group
	[[ "$output" =~ "# metric plan: 2 metrics in 3 event sets" ]]
	[[ "$output" =~ "cs_per_second = context-switches * 1e9 / task-clock: set0,set2 (ungrouped: --metric-no-group)" ]]
	# the values are still computed, each from its events' own counts
	run -0 --separate-stderr "$PFMON" -x, -M cs_per_second --metric-no-group true
	[[ "$output" =~ ,context-switches,[0-9]+,100\.00,[0-9.]+,/sec ]]
}

@test "-q: no note or warning line on standard error; errors, counts and perf's layout still there" {
	run -0 --separate-stderr "$PFMON" -m 3 -e task-clock --smpl-outfile="$BATS_TEST_TMPDIR/s.pfs" true
	[[ "$stderr" =~ "note: -m 3: rings of 4 pages" ]]
	run -0 --separate-stderr "$PFMON" -q -m 3 -e task-clock --smpl-outfile="$BATS_TEST_TMPDIR/s.pfs" true
	[ -z "$stderr" ]
	[[ "$output" =~ "# lost samples: 0" ]]
	# events not counted: their warning goes, their <not supported> rows stay
	run --separate-stderr "$PFMON" -q -ddd -e task-clock true
	[ "$status" -eq 0 ] && [ -z "$stderr" ] || false
	[ "$(printf '%s\n' "$output" | grep -Ec ' L1-dcache-loads( |$)')" -eq 1 ]
	# errors are never quiet
	run -127 --separate-stderr "$PFMON" -q -e task-clock "$BATS_TEST_TMPDIR/no-such-program"
	one_error_line "^error: cannot execute"
	# perf's layout on stderr passes whole
	"$PFMON" -q --perf-style -e task-clock true 2>"$BATS_TEST_TMPDIR/perf" >/dev/null
	grep -q "^ Performance counter stats for 'true':$" "$BATS_TEST_TMPDIR/perf"
	grep -Eq '^ +[0-9.]+ seconds time elapsed$' "$BATS_TEST_TMPDIR/perf"
}
