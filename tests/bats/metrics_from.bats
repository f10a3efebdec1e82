#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --metrics-from=FILE: metrics of counts saved earlier (pfmon's text and
# --outfile files, pfmon 3.x count lines, perf stat CSV and JSON), and the
# metrics of interval and per-CPU rows.

bats_require_minimum_version 1.5.0
load helpers

EVAL="$BATS_TEST_DIRNAME/metric_eval.py"

setup() {
	tmp="$BATS_TEST_TMPDIR"
}

# the lines of a results file that carry a metric on a count line, but
# not those of the task-clock line (CPUs utilized needs the elapsed time,
# which a counts file does not hold)
metric_lines() {
	grep '  # ' "$1" | grep -v ' task-clock ' | grep -v 'CPUs utilized' || true
}

@test "round trip: --outfile, then --metrics-from prints the metrics the live run printed" {
	run "$PFMON" -e task-clock,page-faults,context-switches,cpu-migrations --outfile="$tmp/live.txt" \
		"$FIXTURES/touch_pages" 3000
	[ "$status" -eq 0 ]
	run --separate-stderr "$PFMON" --metrics-from="$tmp/live.txt"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$tmp/again.txt"
	metric_lines "$tmp/live.txt" >"$tmp/want"
	metric_lines "$tmp/again.txt" >"$tmp/got"
	[ "$(wc -l <"$tmp/want")" -ge 3 ] # page-faults, context-switches, cpu-migrations rates
	diff "$tmp/want" "$tmp/got"
	# the counts are read back as written
	diff <(awk '{ print $1, $2 }' "$tmp/live.txt") <(awk '{ print $1, $2 }' "$tmp/again.txt")
	# asked for, CPUs utilized is not available: no elapsed time in the file
	run --separate-stderr "$PFMON" --metrics-from="$tmp/live.txt" -M CPUs_utilized
	[ "$status" -eq 0 ]
	[[ "$output" == *"<not available>"* ]]
	[ "$stderr" = "note: metric 'CPUs_utilized' is not available: 'duration_time' is not in the file" ]
}

@test "round trip with a results header: its start and end give CPUs utilized, exactly" {
	run "$PFMON" --with-header -e task-clock,page-faults --outfile="$tmp/h.txt" "$FIXTURES/burn" 100
	[ "$status" -eq 0 ]
	run --separate-stderr "$PFMON" --metrics-from="$tmp/h.txt"
	[ "$status" -eq 0 ]
	diff <(grep -v '^#' "$tmp/h.txt") <(printf '%s\n' "$output")
	grep -q 'CPUs utilized' "$tmp/h.txt"
	# JSON: the pfmon-header line (an --outfile name with a job escape writes one)
	run "$PFMON" --json -e task-clock,page-faults --outfile="$tmp/j%p.json" "$FIXTURES/burn" 100
	[ "$status" -eq 0 ]
	j=$(ls "$tmp"/j*.json)
	head -1 "$j" | grep -q '"pfmon-header"'
	run --separate-stderr "$PFMON" --metrics-from="$j" --json
	[ "$status" -eq 0 ]
	diff <(grep -v pfmon-header "$j" | jq -c '{event, "metric-value", "metric-unit"}') \
		<(printf '%s\n' "$output" | jq -c '{event, "metric-value", "metric-unit"}')
	[[ "$output" == *'"metric-unit" : "CPUs utilized"'* ]]
}

@test "round trip in every counter format and with a header naming two event sets" {
	for fmt in "" --us-counter-format --hex-counter-format --eu-counter-format; do
		run "$PFMON" $fmt --with-header -e task-clock,page-faults -e task-clock,context-switches \
			--outfile="$tmp/f.txt" "$FIXTURES/touch_pages" 2000
		[ "$status" -eq 0 ]
		run --separate-stderr "$PFMON" $fmt --metrics-from="$tmp/f.txt"
		[ "$status" -eq 0 ]
		printf '%s\n' "$output" >"$tmp/g.txt"
		diff <(metric_lines "$tmp/f.txt") <(metric_lines "$tmp/g.txt")
		[ "$(metric_lines "$tmp/g.txt" | wc -l)" -eq 2 ]
		# each rate from the task-clock of its own set: none marked across sets
		! grep -q 'different event sets' "$tmp/g.txt"
	done
	# 1.234.567 is read as a count only when --eu-counter-format says so
	run "$PFMON" --eu-counter-format -e task-clock --outfile="$tmp/eu.txt" "$FIXTURES/burn" 50
	run --separate-stderr "$PFMON" --metrics-from="$tmp/eu.txt"
	[ "$status" -eq 1 ]
	one_error_line "^error: '.*eu.txt' line 1: not a count line of pfmon's text output"
}

@test "a metric of no count line (VALUE NAME) is read as a metric's line, not refused as a count" {
	printf 'metric TWICE_PF\n\tformula page-faults * 2.5\n' >"$tmp/defs"
	"$PFMON" -e page-faults --metrics-file="$tmp/defs" -M TWICE_PF --outfile="$tmp/live.txt" true
	grep -Eq '^[0-9]+\.[0-9]{3} TWICE_PF$' "$tmp/live.txt"
	run --separate-stderr "$PFMON" --metrics-file="$tmp/defs" -M TWICE_PF --metrics-from="$tmp/live.txt"
	[ "$status" -eq 0 ]
	[ "$output" = "$(cat "$tmp/live.txt")" ]
}

@test "interval rows carry their own metrics, and --metrics-from reads them back" {
	run "$PFMON" -e task-clock,context-switches --print-interval=100 --outfile="$tmp/iv.txt" "$FIXTURES/burn" 500
	[ "$status" -eq 0 ]
	# every interval in which the command ran has its context-switch rate
	[ "$(grep -c '^# [0-9.]* s$' "$tmp/iv.txt")" -ge 3 ]
	[ "$(grep -c 'context-switches .*/sec' "$tmp/iv.txt")" -ge 3 ]
	run --separate-stderr "$PFMON" --metrics-from="$tmp/iv.txt"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$tmp/iv2.txt"
	diff <(grep -v task-clock "$tmp/iv.txt") <(grep -v task-clock "$tmp/iv2.txt")
	# an interval's time is a number without a sign, as in CSV: a signed one is
	# refused with its line, not read as a comment that merges two intervals
	for sign in + -; do
		sed "1s/^# /# $sign/" "$tmp/iv.txt" >"$tmp/signed.txt"
		run --separate-stderr "$PFMON" --metrics-from="$tmp/signed.txt"
		[ "$status" -eq 1 ]
		one_error_line "^error: '.*signed.txt' line 1: bad interval time '\\$sign[0-9.]+'$"
	done
	# CSV: perf stat -I's columns, the metric in its own
	run --separate-stderr "$PFMON" --csv -e task-clock,context-switches --print-interval=100 "$FIXTURES/burn" 500
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | awk -F, '$4 == "context-switches" && $7 != "" { n++ } END { exit !(n >= 3) }'
	# an interval's CPUs utilized is its task-clock over its own length, not over the whole run
	printf '%s\n' "$output" | python3 -c '
import sys
prev, n = 0.0, 0
for line in sys.stdin:
    f = line.rstrip("\n").split(",")
    if f[3] != "task-clock":
        continue
    t, ms, cpus = float(f[0]), float(f[1]), float(f[6])
    want = ms / 1e3 / (t - prev)
    assert abs(cpus - want) <= 0.002 + want * 0.02, (line, want)
    prev, n = t, n + 1
assert n >= 3, n'
}

@test "two interval headings of the same time stay two intervals in --metrics-from" {
	# the last, partial interval can end within the millisecond of the one
	# before it: its heading prints the same time, and it is still its own block
	run "$PFMON" -e task-clock,context-switches --print-interval=100 --outfile="$tmp/iv.txt" "$FIXTURES/burn" 300
	[ "$status" -eq 0 ]
	awk '/^# [0-9.]* s$/ { n++; t[n] = $2 } END { if (n < 2) exit 1; print t[n - 1], t[n] }' "$tmp/iv.txt" >"$tmp/last2"
	read -r prev last <"$tmp/last2"
	sed "s/^# $last s\$/# $prev s/" "$tmp/iv.txt" >"$tmp/same.txt"
	[ "$(grep -c "^# $prev s\$" "$tmp/same.txt")" -eq 2 ]
	run --separate-stderr "$PFMON" --metrics-from="$tmp/same.txt"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$tmp/same2.txt"
	[ "$(grep -c "^# $prev s\$" "$tmp/same2.txt")" -eq 2 ]
	# every count line read back once, in its own interval
	diff <(grep -v task-clock "$tmp/same.txt") <(grep -v task-clock "$tmp/same2.txt")
}

@test "per-CPU rows carry their metrics (system-wide), and --metrics-from reads a CPU's file" {
	[ "$(id -u)" -eq 0 ] || skip "system-wide monitoring needs root here"
	run --separate-stderr "$PFMON" --system-wide -e cpu-clock,context-switches,task-clock -- "$FIXTURES/burn" 200
	[ "$status" -eq 0 ]
	# each CPU: cpu-clock's CPUs utilized close to 1 (the CPU's own time), the switch rate
	printf '%s\n' "$output" | awk '$1 ~ /^CPU[0-9]+$/ && $3 == "cpu-clock" { if ($5 < 0.9 || $5 > 1.01) bad++; n++ }
		END { exit !(n >= 1 && !bad) }'
	printf '%s\n' "$output" | grep -q '^CPU[0-9]* .* context-switches *# .*/sec'
	run --separate-stderr "$PFMON" --system-wide --json -e cpu-clock -- "$FIXTURES/burn" 100
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | python3 "$BATS_TEST_DIRNAME/json_lint.py" --system-wide-no-aggr
	printf '%s\n' "$output" | python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin]
assert rows and all("cpu" in r and r["metric-unit"] == "CPUs utilized" for r in rows), rows'
	run "$PFMON" --system-wide -e task-clock,context-switches --outfile="$tmp/sw" -- "$FIXTURES/burn" 200
	[ "$status" -eq 0 ]
	run --separate-stderr "$PFMON" --metrics-from="$tmp/sw.cpu0"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$tmp/sw2"
	# (one CPU's file: the counts no longer 26 wide)
	diff <(metric_lines "$tmp/sw.cpu0" | tr -s ' ') <(metric_lines "$tmp/sw2" | tr -s ' ')
	grep -q '^CPU0 .*context-switches' "$tmp/sw2"
}

@test "perf stat's own CSV and JSON files: perf's metric values" {
	command -v perf >/dev/null || skip "perf not installed"
	perf stat -j -e task-clock,page-faults -o "$tmp/p.json" "$FIXTURES/touch_pages" 2000
	run --separate-stderr "$PFMON" --metrics-from="$tmp/p.json" --json
	[ "$status" -eq 0 ]
	# perf stat -j gives clocks to the ns: the very value perf printed
	want=$(python3 -c '
import json
for l in open("'"$tmp/p.json"'"):
    if l.startswith("{"):
        r = json.loads(l)
        if r.get("event") == "page-faults": print("%.3f %s" % (r["metric-value"], r["metric-unit"]))')
	got=$(printf '%s\n' "$output" | python3 -c '
import json, sys
for r in map(json.loads, sys.stdin):
    if r["event"] == "page-faults": print("%.3f %s" % (r["metric-value"], r["metric-unit"]))')
	[ -n "$want" ] && [ "$want" = "$got" ] || false
	[ -z "$stderr" ]
	# perf stat -x: msec with two decimals, said once
	perf stat -x, -e task-clock,page-faults -o "$tmp/p.csv" "$FIXTURES/touch_pages" 2000
	run --separate-stderr "$PFMON" --metrics-from="$tmp/p.csv" --csv
	[ "$status" -eq 0 ]
	[ "$stderr" = "note: the clock counts of the file are in msec with 2 decimals: metrics of them are exact to that precision" ]
	IFS=, read -r _ _ _ _ _ prate punit < <(grep ',page-faults,' "$tmp/p.csv")
	IFS=, read -r _ _ _ _ _ rate unit < <(printf '%s\n' "$output" | grep ',page-faults,')
	[ "$unit" = "$punit" ]
	python3 -c "assert abs($rate - $prate) <= $prate * 0.01 + 0.001, ($rate, $prate)"
}

# a pfmon 3.x counts file of an Itanium 2: every event of every derived
# monitor, named as libpfm3 named them (L3_READS_DATA_READ_ALL), counts
# with thousands separators (--us-counter-format)
make_itanium2_counts() {
	"$PFMON" --pmu=itanium2 --check -M all | python3 -c '
import random, sys
random.seed(2026)
events = []
for line in sys.stdin:
    if line.startswith("#   set"):
        events += [e for e in line.split(":", 1)[1].split() if e not in events]
print("#\n# pfmon 3.x on an Itanium 2 (archived)\n#")
for e in events:
    print("%26s %s" % ("{:,}".format(random.randint(10**5, 10**9)), e.replace(".", "_")))
' >"$1"
}

@test "a pfmon 3.x Itanium 2 counts file: every derived monitor, each equal to its formula" {
	make_itanium2_counts "$tmp/i2.txt"
	[ "$(grep -c '^ ' "$tmp/i2.txt")" -ge 100 ]
	run --separate-stderr "$PFMON" --pmu=itanium2 --metrics-from="$tmp/i2.txt" -M all
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	printf '%s\n' "$output" >"$tmp/out"
	# the counts under the manual's names, as the file gave them
	diff <(awk '!/^#/ { gsub(",", "", $1); print $1 }' "$tmp/i2.txt") <(awk 'NF == 2 && $1 ~ /^[0-9]+$/ { print $1 }' "$tmp/out")
	awk 'NF == 2 && $1 ~ /^[0-9]+$/ { print }' "$tmp/out" >"$tmp/counts"
	grep -q ' L3_READS.DATA_READ.ALL$' "$tmp/counts"
	grep -E '  #|<not available>' "$tmp/out" >"$tmp/metrics"
	"$PFMON" --pmu=itanium2 --show-metrics >"$tmp/defs"
	n_defs=$(grep -c '^[^[:space:]]' "$tmp/defs")
	# every metric computed, by an evaluator written apart from pfmon's
	[ "$(python3 "$EVAL" "$tmp/defs" "$tmp/counts" "$tmp/metrics")" -eq "$n_defs" ]
	! grep -q 'not available' "$tmp/metrics"
}

@test "an Itanium 2 file with some events: the metrics of the others are not available" {
	printf 'CPU0   2292689 CPU_CYCLES\nCPU0   1000000 IA64_INST_RETIRED_THIS\nCPU1   3000000 CPU_CYCLES\nCPU1   <not counted> IA64_INST_RETIRED_THIS\n' >"$tmp/part.txt"
	run --separate-stderr "$PFMON" --pmu=itanium2 --metrics-from="$tmp/part.txt" -M IPC,IA32_IPC
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" =~ ^CPU0\ +2292689\ CPU_CYCLES\ *$ ]]
	[[ "${lines[1]}" =~ ^CPU0\ +1000000\ IA64_INST_RETIRED$ ]] # the manual's name of the pfmon 3.x alias
	printf '%s\n' "$output" | grep -q '^CPU0 .*0\.436 IPC'
	printf '%s\n' "$output" | grep -q '^CPU1 .*<not available> IPC'
	printf '%s\n' "$output" | grep -q '^CPU0 .*<not available> IA32_IPC'
	[[ "$stderr" == *"note: metric 'IA32_IPC' is not available: 'IA32_INST_RETIRED' is not in the file"* ]]
	[[ "$stderr" == *"note: metric 'IPC' is not available: 'IA64_INST_RETIRED' is not in the file"* ]]
}

@test "hostile saved counts: one error line each, exit status 1" {
	bad() { # bad CONTENT REGEX
		printf '%b' "$1" >"$tmp/bad"
		run --separate-stderr "$PFMON" --metrics-from="$tmp/bad"
		[ "$status" -eq 1 ] || { echo "status $status for '$1'" >&2; return 1; }
		one_error_line "$2"
	}
	bad 'hello world\n' "line 1: not a count line"
	bad '' "no counts in it"
	bad '# only a comment\n' "no counts in it"
	bad '123\n' "line 1: a count '123' without an event name"
	bad '99999999999999999999999 cycles\n' "line 1: a count too large \\(past 2\\^64\\) '99999999999999999999999' for event 'cycles'$"
	bad '-12 cycles\n' "line 1: a negative count '-12' for event 'cycles'$"
	bad '1,,cycles,100,100.00,,\n-3,,instructions,100,100.00,,\n' "line 2: a negative count '-3' for event 'instructions'$"
	bad '1,23,456 cycles\n' "line 1: not a count line"
	bad '<not much> cycles\n' "line 1: unknown state"
	bad '12 a\x01b\n' "line 1: a control character"
	bad '12 cycles\n\x00\n' "holds a NUL byte"
	bad '{"event": "x"\n' "line 1: invalid JSON"
	bad '[1, 2]\n' "line 1: not a count line"
	bad '{"counter-value": "1", "unit": "", "event": "x", "event-runtime": -5, "pcnt-running": 100}\n' \
		'line 1: not a count: it needs'
	bad '{"counter-value": "1", "unit": "", "event": "x", "event-runtime": 5, "pcnt-running": 100, "cpu": "x"}\n' \
		'line 1: "cpu" is not a CPU number'
	bad '{"counter-value": "1.5", "unit": "", "event": "x", "event-runtime": 5, "pcnt-running": 100}\n' \
		"line 1: invalid count '1.5'"
	bad '1,,cycles,100,100.00,,\n2,,cycles,100,250.00,,\n' "line 2: running percentage 250.00 is above 100"
	bad '1,,cycles,100,100.00,,\nfoo bar\n' "line 2: not a CSV count line"
	bad "$(head -c 1100000 /dev/zero | tr '\0' 'a') x\n" "line 1: longer than 1048576 bytes"
	run --separate-stderr "$PFMON" --metrics-from="$tmp/nonexistent"
	[ "$status" -eq 1 ]
	one_error_line "^error: cannot read '.*nonexistent': No such file or directory$"
	head -c 100000 /dev/urandom >"$tmp/random"
	run --separate-stderr "$PFMON" --metrics-from="$tmp/random"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	# usage: no command, no event list, no model options
	run --separate-stderr "$PFMON" --metrics-from="$tmp/random" true
	[ "$status" -eq 2 ]
	one_error_line "no command is run"
	run --separate-stderr "$PFMON" --metrics-from="$tmp/random" -e cycles
	[ "$status" -eq 2 ]
	one_error_line "option '--events' is not used with --metrics-from"
}
