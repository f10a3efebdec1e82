#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Derived metrics live (software events: this machine may have no hardware
# PMU), the JSON checks of the kernel's perf_json_output_lint.py, the plan
# of --check -M, and bad metric input.

load helpers

LINT="$BATS_TEST_DIRNAME/json_lint.py"
CSV_LINT="$BATS_TEST_DIRNAME/csv_lint.py"

# the number before NAME's count-line metric: "  123 task-clock  #  0.250 CPUs utilized"
metric_of() {
	printf '%s\n' "$output" | awk -v ev="$1" '$2 == ev && $3 == "#" { print $4; exit }'
}

@test "CPUs utilized = task-clock / elapsed time, as perf computes it" {
	run --separate-stderr "$PFMON" --show-time -e task-clock "$FIXTURES/burn" 200
	[ "$status" -eq 0 ]
	# real 0h00m00.213s: the elapsed time pfmon also divides by
	real=$(printf '%s\n' "$output" | sed -n 's/^real 0h00m\([0-9.]*\)s.*/\1/p')
	tc=$(printf '%s\n' "$output" | awk '$2 == "task-clock" { print $1 }')
	cpus=$(metric_of task-clock)
	[ -n "$real" ] && [ -n "$tc" ] && [ -n "$cpus" ] || false
	python3 -c "
real, tc, cpus = $real, $tc, $cpus
want = tc / 1e9 / real
assert abs(cpus - want) <= 0.002 + want * 0.01, (cpus, want)
assert 0 < cpus <= 1.05, cpus  # one thread: at most one CPU (less on a busy machine)
"
	[[ "$output" =~ CPUs\ utilized ]]
}

@test "software event rates per second of task-clock, in K/sec or M/sec as perf prints them" {
	run --separate-stderr "$PFMON" --csv -e task-clock,page-faults "$FIXTURES/touch_pages" 2000
	[ "$status" -eq 0 ]
	IFS=, read -r tc _ _ _ _ cpus cpus_unit <<<"${lines[0]}"
	IFS=, read -r pf _ ev _ _ rate unit <<<"${lines[1]}"
	[ "$ev" = page-faults ]
	[ "$cpus_unit" = "CPUs utilized" ]
	python3 -c "
tc, pf, rate, unit = $tc, $pf, $rate, '$unit'
mult = {'/sec': 1, 'K/sec': 1e3, 'M/sec': 1e6, 'G/sec': 1e9}[unit]
want = pf / (tc / 1e3)
assert abs(rate * mult - want) <= want * 0.01, (rate, unit, want)
assert 1 <= rate < 1000, rate
"
}

@test "--json meets every check of perf_json_output_lint.py, with and without metrics" {
	run --separate-stderr "$PFMON" --json -e task-clock,page-faults,context-switches,cycles true
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | python3 "$LINT" --no-args
	# the metric keys: a number and a string when there is a metric, absent otherwise
	printf '%s\n' "$output" | python3 -c '
import json, sys
rows = {r["event"]: r for r in map(json.loads, sys.stdin)}
assert isinstance(rows["task-clock"]["metric-value"], float)
assert rows["task-clock"]["metric-unit"] == "CPUs utilized"
assert rows["page-faults"]["metric-unit"].endswith("/sec")
if rows["cycles"]["counter-value"] == "<not supported>":
    assert "metric-value" not in rows["cycles"] and "metric-unit" not in rows["cycles"]
'
	run --separate-stderr "$PFMON" --json -M CPUs_utilized,insn_per_cycle -e task-clock true
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | python3 "$LINT" --no-args
	run --separate-stderr "$PFMON" --json --per-thread --no-cmd-output -e task-clock,page-faults "$FIXTURES/spinners" 2 0 0 20
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | python3 "$LINT" --per-thread
	run --separate-stderr "$PFMON" --json --metric-only -e task-clock,page-faults true
	printf '%s\n' "$output" | python3 "$LINT" --metric-only
	run --separate-stderr "$PFMON" --json -e task-clock,page-faults --print-interval=100 "$FIXTURES/phases" 200 100
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | python3 "$LINT" --interval
	run --separate-stderr "$PFMON" --json -a -e cpu-clock sleep 0.1
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | python3 "$LINT" --system-wide-no-aggr
}

@test "--json counts with perf's precision: %f values, <not supported> at 100.00 %" {
	run --separate-stderr "$PFMON" --json -e task-clock,page-faults,cycles true
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" =~ \"counter-value\"\ :\ \"[0-9]+\.[0-9]{6}\" ]]
	[[ "${lines[1]}" =~ \"counter-value\"\ :\ \"[0-9]+\.000000\" ]]
	if [[ "${lines[2]}" =~ "<not supported>" ]]; then
		[[ "${lines[2]}" =~ \"event-runtime\"\ :\ 0,\"pcnt-running\"\ :\ 100\.00\} ]]
	fi
}

@test "--csv meets every check of perf_csv_output_lint.py in each mode" {
	run --separate-stderr "$PFMON" --csv -e task-clock,page-faults,context-switches,cycles true
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | python3 "$CSV_LINT" --no-args
	run --separate-stderr "$PFMON" --csv=';' -M CPUs_utilized -e task-clock,page-faults true
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | python3 "$CSV_LINT" --no-args --separator ';'
	run --separate-stderr "$PFMON" --csv --per-thread --no-cmd-output -e task-clock,page-faults "$FIXTURES/spinners" 2 0 0 20
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | python3 "$CSV_LINT" --per-thread
	run --separate-stderr "$PFMON" --csv -e task-clock,page-faults --print-interval=100 "$FIXTURES/phases" 200 100
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | python3 "$CSV_LINT" --interval
	run --separate-stderr "$PFMON" --csv -a -e cpu-clock sleep 0.1
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | python3 "$CSV_LINT" --system-wide-no-aggr
	run --separate-stderr "$PFMON" --csv -a --aggregate-results -e cpu-clock sleep 0.1
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | python3 "$CSV_LINT" --system-wide
	# and it fails where the kernel's fails: a missing column
	run python3 "$CSV_LINT" --no-args <<<'12,,page-faults,100,100.00,'
	[ "$status" -ne 0 ]
	run python3 "$CSV_LINT" --no-args <<<'<not supported>,,cycles,0,0.00,,'
	[ "$status" -ne 0 ]
}

@test "our lint fails on what the kernel's fails on: empty metric strings, unknown keys" {
	run python3 "$LINT" <<<'{"counter-value" : "1","unit" : "","event" : "a","event-runtime" : 1,"pcnt-running" : 100.00,"metric-value" : "","metric-unit" : ""}'
	[ "$status" -ne 0 ]
	run python3 "$LINT" <<<'{"counter-value" : "1","unit" : "","event" : "a","event-runtime" : 1,"pcnt-running" : 100.00,"colour" : 1}'
	[ "$status" -ne 0 ]
	run python3 "$LINT" <<<'{"counter-value" : "x","unit" : "","event" : "a","event-runtime" : 1,"pcnt-running" : 100.00}'
	[ "$status" -ne 0 ]
	# the number of keys of the mode, perf's precision
	run python3 "$LINT" --per-thread <<<'{"counter-value" : "1.000000","unit" : "","event" : "a","event-runtime" : 1,"pcnt-running" : 100.00}'
	[ "$status" -ne 0 ]
	run python3 "$LINT" --no-args <<<'{"counter-value" : "1","unit" : "","event" : "a","event-runtime" : 1,"pcnt-running" : 100.00}'
	[ "$status" -ne 0 ]
	run python3 "$LINT" --no-args <<<'{"counter-value" : "<not supported>","unit" : "","event" : "a","event-runtime" : 0,"pcnt-running" : 0.00}'
	[ "$status" -ne 0 ]
	run python3 "$LINT" --no-args <<<'{"counter-value" : "1.000000","unit" : "","event" : "a","event-runtime" : 1,"pcnt-running" : 100.00}'
	[ "$status" -eq 0 ]
}

@test "-M adds the events a metric needs; hardware metrics without a PMU are not available, never 0" {
	run --separate-stderr "$PFMON" -M CPUs_utilized,insn_per_cycle "$FIXTURES/burn" 20
	[ "$status" -eq 0 ]
	[[ "$output" =~ task-clock ]]
	[ -n "$(metric_of task-clock)" ]
	if ! hw_pmu_present; then
		[[ "$output" =~ \<not\ supported\>\ instructions\ +#\ \<not\ available\> ]]
		[[ "$stderr" =~ "note: metric 'insn_per_cycle' is not available: 'instructions' was not counted" ]]
	fi
}

@test "a metric after the counts: value, name, unit; --metric-only prints only metrics" {
	printf 'metric PF_PER_MS\n\tformula page-faults / (task-clock / 1e6)\n\tunit faults per ms\n' >"$BATS_TEST_TMPDIR/m.def"
	run --separate-stderr "$PFMON" --metrics-file="$BATS_TEST_TMPDIR/m.def" -M PF_PER_MS true
	[ "$status" -eq 0 ]
	[[ "${lines[-1]}" =~ ^\ *[0-9]+\.[0-9]{3}\ PF_PER_MS\ +#\ faults\ per\ ms$ ]]
	run --separate-stderr "$PFMON" --metrics-file="$BATS_TEST_TMPDIR/m.def" -M PF_PER_MS --metric-only true
	[ "$status" -eq 0 ]
	[[ ! "$output" =~ page-faults ]]
	[[ "$output" =~ PF_PER_MS ]]
	run --separate-stderr "$PFMON" --csv --metrics-file="$BATS_TEST_TMPDIR/m.def" -M PF_PER_MS true
	[[ "${lines[-1]}" =~ ^,,,,,[0-9]+\.[0-9]{3},faults\ per\ ms\ PF_PER_MS$ ]]
}

@test "--check -M prints the Itanium 2 plan: sets, metrics, counters; cross-set metrics marked" {
	run "$PFMON" --pmu=itanium2 --check -M IA64_IPC,L2_RECIRC_ATTEMPTS
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" = "# metric plan: 2 metrics in 2 event sets" ]]
	[[ "$output" =~ "#   IA64_IPC = IA64_INST_RETIRED / CPU_CYCLES: set0"$'\n' ]]
	[[ "$output" =~ "L2_RECIRC_ATTEMPTS = L2_ISSUED_RECIRC_OZQ_ACC + L2_OZQ_CANCELS2.DIDNT_RECIRC: set0,set1 (across sets" ]]
	[[ "$output" =~ CPU_CYCLES\ +PMC[4-7]/PMD[4-7] ]]
	# the same request in another order: the same plan
	run "$PFMON" --pmu=itanium2 --check -M L2_RECIRC_ATTEMPTS,IA64_IPC
	[[ "${lines[1]}" =~ ^#\ \ \ set0: ]]
	# every Itanium 2 metric at once
	run "$PFMON" --pmu=itanium2 --check -M all
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" =~ ^#\ metric\ plan:\ [0-9]+\ metrics\ in\ [0-9]+\ event\ sets$ ]]
	run "$PFMON" --pmu=itanium2 --show-metrics=identity
	[[ "$output" =~ BE_BUBBLE_IDENTITY ]]
	[[ "$output" =~ DISPERSAL_IDENTITY ]]
}

@test "bad metric input: one line, the documented status" {
	run --separate-stderr "$PFMON" -M NO_SUCH_METRIC true
	[ "$status" -eq 2 ]
	[ "$stderr" = "error: unknown metric or metric group 'NO_SUCH_METRIC' (see 'pfmon --show-metrics')" ]
	printf 'metric X\n\tformula a + * b\n' >"$BATS_TEST_TMPDIR/bad.def"
	run --separate-stderr "$PFMON" --metrics-file="$BATS_TEST_TMPDIR/bad.def" -M X true
	[ "$status" -eq 1 ]
	[ "$stderr" = "error: $BATS_TEST_TMPDIR/bad.def line 2: metric 'X': formula position 5: unexpected '*': a + ^* b" ]
	printf 'metric X\n\tformula Y + 1\nmetric Y\n\tformula X\n' >"$BATS_TEST_TMPDIR/cycle.def"
	run --separate-stderr "$PFMON" --metrics-file="$BATS_TEST_TMPDIR/cycle.def" -M X true
	[ "$status" -eq 1 ]
	[ "$stderr" = "error: metric 'X': its formula refers back to itself through other metrics (a cycle)" ]
	printf 'metric X\n\tformula task-clock / NO_SUCH_EVENT\n' >"$BATS_TEST_TMPDIR/ev.def"
	run --separate-stderr "$PFMON" --metrics-file="$BATS_TEST_TMPDIR/ev.def" -M X true
	[ "$status" -eq 1 ]
	[[ "$stderr" =~ ^"error: metric 'X': event 'NO_SUCH_EVENT' at position 14 of its formula" ]]
	[ "${#stderr_lines[@]}" -eq 1 ]
	run --separate-stderr "$PFMON" --metrics-file="$BATS_TEST_TMPDIR/none.def" -M X true
	[ "$status" -eq 1 ]
	[[ "$stderr" =~ ^"error: cannot read '$BATS_TEST_TMPDIR/none.def': No such file" ]]
	head -c 3000 /dev/urandom >"$BATS_TEST_TMPDIR/junk.def"
	run --separate-stderr "$PFMON" --metrics-file="$BATS_TEST_TMPDIR/junk.def" --show-metrics
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	run --separate-stderr "$PFMON" --pmu=itanium2 --check -M IA64_IPC --metrics-file="$BATS_TEST_TMPDIR/ev.def"
	[ "$status" -eq 0 ]
}

@test "a chain of 5,000 metrics each naming the next: evaluated, planned and checked, never a crash" {
	f="$BATS_TEST_TMPDIR/chain.def"
	awk 'BEGIN { for (i = 1; i < 5000; i++) printf "metric M%d\n\tformula M%d + 1\n", i, i + 1
		print "metric M5000\n\tformula task-clock * 0 + 1" }' >"$f"
	run --separate-stderr "$PFMON" -e task-clock --metrics-file="$f" -M M1 true
	[ "$status" -eq 0 ]
	[[ "${lines[-1]}" =~ ^\ *5000\.000\ M1$ ]]
	[ -z "$stderr" ]
	run --separate-stderr "$PFMON" --check --metrics-file="$f" -M M1,M2500
	[ "$status" -eq 0 ]
	[[ "$output" =~ "#   M1 = M2 + 1: set0" ]]
	# the chain closed into a cycle: found, named, one line
	sed -i 's/^\tformula task-clock \* 0 + 1$/\tformula M1/' "$f"
	run --separate-stderr "$PFMON" --metrics-file="$f" -M M1 true
	[ "$status" -eq 1 ]
	[ "$stderr" = "error: metric 'M1': its formula refers back to itself through other metrics (a cycle)" ]
}

@test "PMU family metrics (libpfm4's Zen and Intel Core events): planned, and not available without a PMU" {
	run --separate-stderr env LIBPFM_FORCE_PMU=amd64_fam19h_zen3 "$PFMON" --check -M family
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" =~ ^"# metric plan: 6 metrics in "[0-9]+" event sets"$ ]]
	[[ "$output" == *"zen.ipc = RETIRED_INSTRUCTIONS / CYCLES_NOT_IN_HALT: set"* ]]
	[[ "$output" == *"RETIRED_INSTRUCTIONS                     type=0x4 config=0xc0 levels=u"* ]]
	run --separate-stderr env LIBPFM_FORCE_PMU=skl "$PFMON" --show-metrics=family
	[ "$status" -eq 0 ]
	[[ "$output" == *"LONGEST_LAT_CACHE:MISS / LONGEST_LAT_CACHE:REFERENCE"* ]]
	[[ "$output" != *zen.* ]]
	run --separate-stderr env LIBPFM_FORCE_PMU=icl "$PFMON" --show-metrics=llc
	[[ "$output" == *"LONGEST_LAT_CACHE:REFERENCES"* ]]
	hw_pmu_present && skip "this machine counts hardware events: the refusal below is for machines without"
	run --separate-stderr env LIBPFM_FORCE_PMU=amd64_fam19h_zen3 "$PFMON" -M zen.ipc -e task-clock true
	[ "$status" -eq 0 ]
	[[ "$output" =~ "<not supported> RETIRED_INSTRUCTIONS "+"# <not available>" ]]
	[[ "$stderr" == *"note: metric 'zen.ipc' is not available: 'RETIRED_INSTRUCTIONS' was not counted"* ]]
}
