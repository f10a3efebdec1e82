#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# perf stat's aggregation modes (issue 29): -A/--no-aggr, --per-core,
# --per-die, --per-socket, --per-node, --per-cache.  The groups are
# perf's on this machine's topology; topologies it lacks (several
# sockets, nodes, caches) are read from a copy of /sys/devices/system
# (PFMON_TEST_SYSTEM_DIR) while the counts are this machine's own.

bats_require_minimum_version 1.5.0
load helpers

LINT="$BATS_TEST_DIRNAME/json_lint.py"
CSV_LINT="$BATS_TEST_DIRNAME/csv_lint.py"
MODES="--per-core --per-die --per-socket --per-node"

setup() {
	[ "$(id -u)" -eq 0 ] || skip "system-wide monitoring needs root here"
	ncpu=$(getconf _NPROCESSORS_ONLN)
}

needs_perf() {
	command -v perf >/dev/null || skip "perf is not installed"
}

needs_two_cpus() {
	[ "$ncpu" -ge 2 ] || skip "a topology of several groups needs two CPUs"
}

# the group and aggregate-number columns of perf stat -x, lines
groups_of() {
	awk -F, 'NF > 3 { print $1, $2 }' | sort -u
}

# group_values KIND: each count line's group, CPUs, value and event, from
# text (KIND ""), CSV ("-x,") or JSON ("--json")
group_values() {
	case "$1" in
	--json) jq -r 'select(.event) | "\(.core) \(."aggregate-number") \(."counter-value") \(.event)"' ;;
	-x,) awk -F, 'NF > 3 { print $1, $2, $3, $5 }' ;;
	*) awk '/^S/ { print $1, $2, $3, $4 }' ;;
	esac
}

# A topology this machine lacks, for its online CPUs: CPU i alone in
# package i (die_id left out: a kernel before dies), core 0; an L1 data
# and instruction cache, an L2 of its own (id i), an L3 per package (id
# i); node 0 holds CPU 0, node 1 the others.
fake_topology() {
	local dir=$1 i last=$((ncpu - 1))
	for i in $(seq 0 $last); do
		mkdir -p "$dir/cpu/cpu$i/topology"
		echo "$i" >"$dir/cpu/cpu$i/topology/physical_package_id"
		echo 0 >"$dir/cpu/cpu$i/topology/core_id"
		cache "$dir" "$i" 0 1 Data "$i"
		cache "$dir" "$i" 1 1 Instruction "$i"
		cache "$dir" "$i" 2 2 Unified "$i"
		cache "$dir" "$i" 3 3 Unified "$i"
	done
	mkdir -p "$dir/node/node0" "$dir/node/node1"
	echo 0 >"$dir/node/node0/cpulist"
	echo "1-$last" >"$dir/node/node1/cpulist"
}

cache() { # cache DIR CPU INDEX LEVEL TYPE ID
	local d="$1/cpu/cpu$2/cache/index$3"
	mkdir -p "$d"
	echo "$4" >"$d/level"
	echo "$5" >"$d/type"
	echo "$6" >"$d/id"
}

@test "each mode groups the CPUs as perf stat does on this machine: the same groups, the same CPUs in each" {
	needs_perf
	for mode in $MODES; do
		run -0 --separate-stderr perf stat $mode -a -x, -e cpu-clock true
		want=$(printf '%s\n' "$stderr" | groups_of)
		run -0 --separate-stderr "$PFMON" $mode -a -x, -e cpu-clock true
		got=$(printf '%s\n' "$output" | groups_of)
		echo "$mode: perf '$want', pfmon '$got'" >&2
		[ -n "$got" ] && [ "$got" = "$want" ] || false
	done
	# -A: a line per CPU and event, named as perf names them
	run -0 --separate-stderr perf stat -A -a -x, -e cpu-clock true
	want=$(printf '%s\n' "$stderr" | awk -F, 'NF > 3 { print $1 }' | sort)
	run -0 --separate-stderr "$PFMON" -A -a -x, -e cpu-clock true
	[ "$(printf '%s\n' "$output" | awk -F, '{ print $1 }' | sort)" = "$want" ]
}

@test "every mode passes perf's CSV and JSON lints, as perf's own output does" {
	for mode in $MODES; do
		run -0 --separate-stderr "$PFMON" $mode -a -x, -e cpu-clock,page-faults,context-switches true
		printf '%s\n' "$output" | python3 "$CSV_LINT" $mode
		run -0 --separate-stderr "$PFMON" $mode -a --json -e cpu-clock,page-faults,context-switches true
		printf '%s\n' "$output" | python3 "$LINT" $mode
		# the key of the mode, perf 6.1's aggregate-number
		key=${mode#--per-}
		[[ "${lines[0]}" =~ ^\{\"$key\"\ :\ \"[^\"]+\",\"aggregate-number\"\ :\ [0-9]+, ]]
	done
	run -0 --separate-stderr "$PFMON" -A -a -x, -e cpu-clock,page-faults true
	printf '%s\n' "$output" | python3 "$CSV_LINT" --system-wide-no-aggr
	run -0 --separate-stderr "$PFMON" --no-aggr -a --json -e cpu-clock,page-faults true
	printf '%s\n' "$output" | python3 "$LINT" --system-wide-no-aggr
}

@test "a group's count is the sum of its CPUs': cpu-clock is each CPU's whole time, so nr times the sleep at least" {
	needs_two_cpus
	topo="$BATS_TEST_TMPDIR/system"
	fake_topology "$topo"
	# one group of every CPU (this machine's packages: perf's own test
	# above says they are its) and a group a CPU (the copy's packages)
	t0=$(date +%s%N)
	run -0 --separate-stderr "$PFMON" --per-node -a -x, -e cpu-clock sleep 0.3
	t1=$(date +%s%N)
	echo "$output" >&2
	while IFS=, read -r group nr msec _; do
		us=$(awk -v m="$msec" 'BEGIN { printf "%d", m * 1000 }')
		[ "$us" -ge $((nr * 297000)) ] && [ "$us" -le $((nr * (t1 - t0) / 1000)) ] || false
	done <<<"$output"
	t0=$(date +%s%N)
	run -0 --separate-stderr env PFMON_TEST_SYSTEM_DIR="$topo" "$PFMON" --per-node -a -x, -e cpu-clock sleep 0.3
	t1=$(date +%s%N)
	echo "$output" >&2
	[ "$(printf '%s\n' "$output" | groups_of)" = "$(printf 'N0 1\nN1 %d' $((ncpu - 1)))" ]
	while IFS=, read -r group nr msec _; do
		us=$(awk -v m="$msec" 'BEGIN { printf "%d", m * 1000 }')
		[ "$us" -ge $((nr * 297000)) ] && [ "$us" -le $((nr * (t1 - t0) / 1000)) ] || false
	done <<<"$output"
}

@test "topologies this machine lacks: packages, dies missing (die 0), nodes, caches of each level" {
	needs_two_cpus
	topo="$BATS_TEST_TMPDIR/system"
	fake_topology "$topo"
	export PFMON_TEST_SYSTEM_DIR="$topo"
	socket_groups=$(for i in $(seq 0 $((ncpu - 1))); do echo "S$i 1"; done)
	run -0 --separate-stderr "$PFMON" --per-socket -a -x, -e cpu-clock true
	[ "$(printf '%s\n' "$output" | groups_of)" = "$socket_groups" ]
	run -0 --separate-stderr "$PFMON" --per-core -a -x, -e cpu-clock true
	[ "$(printf '%s\n' "$output" | groups_of)" = "$(printf '%s\n' "$socket_groups" | sed 's/ /-D0-C0 /')" ]
	run -0 --separate-stderr "$PFMON" --per-die -a -x, -e cpu-clock true
	[ "$(printf '%s\n' "$output" | groups_of)" = "$(printf '%s\n' "$socket_groups" | sed 's/ /-D0 /')" ]
	# --per-cache: the last level by default; L1 is the data cache's
	for level in "" =L3 =3 =L2 =l1; do
		n=${level//[^0-9]/}
		run -0 --separate-stderr "$PFMON" --per-cache$level -a -x, -e cpu-clock true
		want=$(for i in $(seq 0 $((ncpu - 1))); do echo "S$i-D0-L${n:-3}-ID$i 1"; done)
		[ "$(printf '%s\n' "$output" | groups_of)" = "$want" ]
	done
	run -0 --separate-stderr "$PFMON" --per-cache -a --json -e cpu-clock true
	printf '%s\n' "$output" | python3 "$LINT" --per-cache
	[[ "${lines[0]}" =~ ^\{\"cache\"\ :\ \"S0-D0-L3-ID0\",\"aggregate-number\"\ :\ 1, ]]
	# an id the kernel does not write: the first CPU sharing the cache
	for i in $(seq 0 $((ncpu - 1))); do
		rm "$topo/cpu/cpu$i/cache/index3/id"
		echo "0-$((ncpu - 1))" >"$topo/cpu/cpu$i/cache/index3/shared_cpu_list"
	done
	run -0 --separate-stderr "$PFMON" --per-cache -a -x, -e cpu-clock true
	[ "$(printf '%s\n' "$output" | groups_of)" = "$(for i in $(seq 0 $((ncpu - 1))); do echo "S$i-D0-L3-ID0 1"; done)" ]
}

@test "what the kernel does not describe is one error line: no cache, no such level, no node, no package id" {
	needs_two_cpus
	topo="$BATS_TEST_TMPDIR/system"
	fake_topology "$topo"
	export PFMON_TEST_SYSTEM_DIR="$topo"
	run -1 --separate-stderr "$PFMON" --per-cache=L4 -a -e cpu-clock true
	one_error_line "^error: '$topo/cpu/cpu0/cache': the kernel describes no level-4 cache of this CPU$"
	[ -z "$output" ]
	rm -r "$topo/cpu/cpu1/cache"
	run -1 --separate-stderr "$PFMON" --per-cache=L2 -a -e cpu-clock true
	one_error_line "^error: '$topo/cpu/cpu1/cache': the kernel describes no level-2 cache of this CPU$"
	rm -r "$topo/cpu/cpu0/cache"
	run -1 --separate-stderr "$PFMON" --per-cache -a -e cpu-clock true
	one_error_line "^error: '$topo/cpu/cpu0/cache': the kernel describes no data or unified cache of this CPU$"
	echo 0 >"$topo/node/node1/cpulist"
	run -1 --separate-stderr "$PFMON" --per-node -a -e cpu-clock true
	one_error_line "^error: '$topo/node': no node lists CPU 1 \(a kernel without NUMA has no nodes\)$"
	rm "$topo/cpu/cpu1/topology/physical_package_id"
	run -1 --separate-stderr "$PFMON" --per-socket -a -e cpu-clock true
	one_error_line "^error: cannot read '$topo/cpu/cpu1/topology/physical_package_id': No such file or directory$"
	echo x >"$topo/cpu/cpu1/topology/physical_package_id"
	run -1 --separate-stderr "$PFMON" --per-socket -a -e cpu-clock true
	one_error_line "^error: '$topo/cpu/cpu1/topology/physical_package_id': not a topology id$"
}

@test "-A and --per-*: one output (pfmon's default system-wide writes a file per CPU)" {
	out="$BATS_TEST_TMPDIR/counts"
	run -0 --separate-stderr "$PFMON" -A -a --outfile="$out" -e cpu-clock true
	[ -z "$output" ]
	[ "$(grep -c '^CPU[0-9]* .* cpu-clock' "$out")" -eq "$ncpu" ]
	[ ! -e "$out.cpu0" ]
	run -0 --separate-stderr "$PFMON" --per-socket -a -o "$out.s" -e cpu-clock true
	[ -z "$output" ]
	grep -Eq "^S[0-9]+ +[0-9]+ +[0-9]+ cpu-clock" "$out.s"
	# pfmon 3.x's default stays: a file per CPU
	run -0 --separate-stderr "$PFMON" -a --outfile="$out.d" -e cpu-clock true
	[ -e "$out.d.cpu0" ]
}

@test "--print-interval by group: every round has each group" {
	run -0 --separate-stderr "$PFMON" --per-socket -a -x, -e cpu-clock --print-interval=100 --interval-count=3 sleep 10
	echo "$output" >&2
	groups=$(printf '%s\n' "$output" | awk -F, '{ print $2 }' | sort -u | wc -l)
	rounds=$(printf '%s\n' "$output" | awk -F, '{ print $1 }' | sort -u | wc -l)
	[ "$rounds" -eq 3 ]
	[ "$(printf '%s\n' "$output" | wc -l)" -eq $((groups * 3)) ]
	# the text: "# TIME s" before each round, the groups' lines after
	run -0 --separate-stderr "$PFMON" --per-socket -a -e cpu-clock --print-interval=100 --interval-count=2 sleep 10
	[[ "${lines[0]}" =~ ^#\ [0-9]+\.[0-9]{3}\ s$ ]]
	[[ "${lines[1]}" =~ ^S[0-9]+\ +[0-9]+\ +[0-9]+\ cpu-clock ]]
}

@test "refused in one line: without -a, two modes, with --aggregate-results, a bad cache level, when sampling" {
	run -2 --separate-stderr "$PFMON" --per-core -e cpu-clock true
	one_error_line "^error: option '--per-core' needs --system-wide \(-a\) \(it groups the counts of CPUs\)$"
	run -2 --separate-stderr "$PFMON" -A -e cpu-clock true
	one_error_line "^error: option '-A/--no-aggr' needs --system-wide \(-a\)"
	run -2 --separate-stderr "$PFMON" -a --per-core --per-socket -e cpu-clock true
	one_error_line "^error: options '--per-core' and '--per-socket' cannot be combined: perf stat aggregates one way at a time$"
	run -2 --separate-stderr "$PFMON" -a --per-node --aggregate-results -e cpu-clock true
	one_error_line "^error: options '--per-node' and '--aggregate-results' cannot be combined"
	run -2 --separate-stderr "$PFMON" -a --per-cache=L0 -e cpu-clock true
	one_error_line "^error: invalid value 'L0' for option '--per-cache': cache levels go from L1 to L9$"
	run -2 --separate-stderr "$PFMON" -a --per-cache=big -e cpu-clock true
	one_error_line "^error: invalid value 'big' for option '--per-cache': give a cache level"
	run -2 --separate-stderr "$PFMON" -a --per-socket --smpl-outfile="$BATS_TEST_TMPDIR/s" -e cpu-clock true
	one_error_line "per-socket"
	# the same mode twice is that mode
	run -0 --separate-stderr "$PFMON" -a --per-socket --per-socket -x, -e cpu-clock true
	[[ "${lines[0]}" =~ ^S[0-9]+,[0-9]+, ]]
}

@test "--metrics-from reads groups of CPUs back: pfmon's and perf's text, CSV and JSON, each group its own block" {
	f="$BATS_TEST_TMPDIR/g"
	for kind in "" "-x," "--json"; do
		run -0 --separate-stderr "$PFMON" --per-core -a $kind -e cpu-clock,page-faults -o "$f" true
		# the same groups, the same CPUs in each, the same values
		run -0 --separate-stderr "$PFMON" --metrics-from="$f" $kind
		[ "$(printf '%s\n' "$output" | group_values "$kind")" = "$(group_values "$kind" <"$f")" ]
		[ "$(group_values "$kind" <"$f" | wc -l)" -eq "$(( $(group_values "$kind" <"$f" | cut -d' ' -f1 | sort -u | wc -l) * 2 ))" ]
	done
	command -v perf >/dev/null || skip "perf is not installed"
	perf stat --per-socket -a -x, -e cpu-clock,page-faults -o "$f.perf" true
	run -0 --separate-stderr "$PFMON" --metrics-from="$f.perf" -x,
	[ "$(printf '%s\n' "$output" | groups_of)" = "$(groups_of <"$f.perf")" ]
	perf stat --per-core -a -j -e cpu-clock,page-faults -o "$f.perf" true
	run -0 --separate-stderr "$PFMON" --metrics-from="$f.perf" --json
	printf '%s\n' "$output" | python3 "$LINT" --per-core
	# a group without its number of CPUs, a key that names no group
	printf 'S0 two 123 page-faults\n' >"$f.bad"
	run -1 --separate-stderr "$PFMON" --metrics-from="$f.bad"
	one_error_line "line 1: a group of CPUs 'S0' without its number of CPUs"
	printf '{"socket" : "X1", "aggregate-number" : 2, "counter-value" : "5", "unit" : "", "event" : "page-faults", "event-runtime" : 1, "pcnt-running" : 100.00}\n' >"$f.bad"
	run -1 --separate-stderr "$PFMON" --metrics-from="$f.bad"
	one_error_line "line 1: \"socket\" is not a group of CPUs as perf names it"
}
