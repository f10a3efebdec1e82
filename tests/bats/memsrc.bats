#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Memory samples (issue 27): data sources and weights of PEBS-style samples
# in perf.data files crafted per the kernel ABI (perfdata_mem.py), decoded
# by pfmon and by perf 6.1 from the same bytes and compared key by key.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	command -v perf >/dev/null || skip "perf is not installed"
	command -v python3 >/dev/null || skip "python3 is not installed"
	W="$BATS_TEST_TMPDIR"
}

# record FILE: page faults with their data addresses and data sources
# (perf record -d), the base the generator gives PEBS-style fields
record() {
	perf record -q -e page-faults -c 1 -d -o "$1" "$FIXTURES/touch_pages" 64 >/dev/null 2>&1 ||
		skip "perf record cannot sample page faults here"
}

# perf_keys FILE SORT: perf report --mem-mode's rows as "k1|k2|... samples", sorted;
# rows of one name add up (perf keeps tlb N/A and tlb 0 apart, both "N/A");
# columns wide enough for perf not to cut a name
perf_keys() {
	perf report -i "$1" --mem-mode --sort "$2" --stdio -n -t '|' -w 8,12,60,60,60,60,60,60 2>/dev/null |
		awk -F'|' '/^#/ || NF < 3 { next }
			{ line = ""; for (i = 3; i <= NF; i++) { f = $i; gsub(/^ +| +$/, "", f); line = line (i > 3 ? "|" : "") f }
			  n = $2; gsub(/ /, "", n); sum[line] += n }
			END { for (k in sum) print k, sum[k] }' | LC_ALL=C sort
}

# pfmon_keys FILE SORT: pfmon's rows in the same form
pfmon_keys() {
	"$PFMON" --report="$1" --report-sort="$2" 2>/dev/null |
		awk '/^#/ { next } { n = $1; sub(/^ *[0-9]+ +[0-9.]+% +[0-9.]+%  /, ""); gsub(/ \| /, "|"); print $0, n }' |
		LC_ALL=C sort
}

@test "data sources: mem, snoop, tlb, lock and blocked named as perf 6.1 names them, on the same bytes" {
	record "$W/pf.data"
	n=$(python3 "$TESTS_SRCDIR/bats/perfdata_mem.py" "$W/pf.data" "$W/mem.data")
	[ "$n" -ge 30 ]
	# perf itself reads the crafted fields: HitM, a lock, a blocked load
	perf script -i "$W/mem.data" -F data_src 2>/dev/null | grep -q '|OP LOAD|LVL L3 hit|SNP HitM|TLB L2 or Walker miss|LCK N/A|BLK  N/A'
	perf script -i "$W/mem.data" -F data_src 2>/dev/null | grep -q '|LVL Remote Remote Cache (1 hop) hit|SNP HitM|'
	perf_keys "$W/mem.data" mem,snoop,tlb,locked,blocked >"$W/perf.txt"
	pfmon_keys "$W/mem.data" mem,snoop,tlb,lock,blocked >"$W/pfmon.txt"
	[ "$(wc -l <"$W/perf.txt")" -ge 15 ]
	diff "$W/perf.txt" "$W/pfmon.txt"
	# each key alone too (not mem or snoop: perf 6.1 sorts them by
	# mem_lvl and mem_snoop alone, and names a row after one of the
	# samples it lumps, "L1 hit" and "L1 or L1 hit" as one)
	for k in tlb blocked; do
		perf_keys "$W/mem.data" $k >"$W/perf.txt"
		pfmon_keys "$W/mem.data" $k >"$W/pfmon.txt"
		diff "$W/perf.txt" "$W/pfmon.txt"
	done
	diff <(perf_keys "$W/mem.data" locked) <(pfmon_keys "$W/mem.data" lock)
}

@test "data sources of random bits: every field decoded as perf 6.1 decodes it" {
	record "$W/pf.data"
	# each sample its own weight: perf's rows are single samples, named exactly
	python3 "$TESTS_SRCDIR/bats/perfdata_mem.py" "$W/pf.data" "$W/rnd.data" struct random >/dev/null
	perf_keys "$W/rnd.data" local_weight,mem,snoop >"$W/perf.txt"
	pfmon_keys "$W/rnd.data" weight,mem,snoop >"$W/pfmon.txt"
	[ "$(wc -l <"$W/perf.txt")" -ge 30 ]
	diff "$W/perf.txt" "$W/pfmon.txt"
	diff <(perf_keys "$W/rnd.data" local_weight,tlb,locked) <(pfmon_keys "$W/rnd.data" weight,tlb,lock)
	diff <(perf_keys "$W/rnd.data" local_weight,blocked) <(pfmon_keys "$W/rnd.data" weight,blocked)
}

@test "weights: PERF_SAMPLE_WEIGHT and WEIGHT_STRUCT's var1_dw, as perf's local_weight" {
	record "$W/pf.data"
	for kind in struct weight; do
		python3 "$TESTS_SRCDIR/bats/perfdata_mem.py" "$W/pf.data" "$W/w.data" $kind >/dev/null
		perf report -D -i "$W/w.data" 2>/dev/null | grep -q '^\.\.\. weight: 16'
		perf_keys "$W/w.data" local_weight >"$W/perf.txt"
		pfmon_keys "$W/w.data" weight >"$W/pfmon.txt"
		[ "$(wc -l <"$W/perf.txt")" -eq 13 ]
		diff "$W/perf.txt" "$W/pfmon.txt"
	done
	# with the TLB: the weight of each "L1 hit" sample
	diff <(perf_keys "$W/w.data" tlb,local_weight) <(pfmon_keys "$W/w.data" tlb,weight)
}

@test "memory keys combine with data and go into JSON, folded stacks and SVG" {
	record "$W/pf.data"
	python3 "$TESTS_SRCDIR/bats/perfdata_mem.py" "$W/pf.data" "$W/mem.data" >/dev/null
	run -0 --separate-stderr "$PFMON" --report="$W/mem.data" --report-sort=data,mem,snoop
	[[ "$output" == *"# pfmon profile by data | mem | snoop"* ]]
	printf '%s\n' "$output" | grep -Eq ' \| L3 hit \| HitM$'
	run -0 --separate-stderr "$PFMON" --report="$W/mem.data" --report-sort=symbol_daddr,mem,weight --report-format=json
	printf '%s\n' "$output" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["sort"] == "data,mem,weight", d["sort"]
e = d["events"][0]["entries"]
assert any(x.get("mem") == "Remote Remote Cache (1 hop) hit" for x in e), e[:3]
assert all(isinstance(x["weight"], int) and "data_address" in x for x in e), e[:3]
'
	run -0 --separate-stderr "$PFMON" --report="$W/mem.data" --report-sort=mem,tlb --report-format=folded
	printf '%s\n' "$output" | grep -Eq '^touch_pages;.*;L3 miss;Walker miss [0-9]+$'
	run -0 --separate-stderr "$PFMON" --report="$W/mem.data" --report-sort=mem --report-format=svg
	[[ "$output" == *"LFB/MAB hit"* ]]
	run -2 "$PFMON" --report="$W/mem.data" --report-sort=data,line
	[ "$output" = "error: invalid value 'data,line' for option '--report-sort': a second key of code or data (one of function, line, binary, address, data goes with memory keys): 'line'" ]
}

@test "an address in an anonymous mapping is named by its offset into the mapping, not by itself" {
	record "$W/pf.data"
	# the [stack] mapping's start and the samples' data addresses in it
	start=$(perf script -i "$W/pf.data" --show-mmap-events 2>/dev/null |
		awk '/PERF_RECORD_MMAP2/ && /\[stack\]$/ { sub(/.*\[0x/, ""); sub(/\(.*/, ""); print; exit }')
	[ -n "$start" ] || skip "no [stack] mapping recorded"
	len=$(perf script -i "$W/pf.data" --show-mmap-events 2>/dev/null |
		awk '/PERF_RECORD_MMAP2/ && /\[stack\]$/ { sub(/.*\[0x[0-9a-f]+\(0x/, ""); sub(/\).*/, ""); print; exit }')
	perf script -i "$W/pf.data" -F addr 2>/dev/null | python3 -c '
import sys
s, l = int(sys.argv[1], 16), int(sys.argv[2], 16)
for a in sys.stdin:
    a = int(a, 16)
    if s <= a < s + l:
        print("[stack]+0x%x" % (a - s))' "$start" "$len" | sort -u >"$W/want.txt"
	[ -s "$W/want.txt" ] || skip "no sample in the stack"
	run -0 --separate-stderr "$PFMON" --report="$W/pf.data" --report-sort=data
	printf '%s\n' "$output" | grep -o '\[stack\]+0x[0-9a-f]*' | sort -u >"$W/got.txt"
	diff "$W/want.txt" "$W/got.txt"
}

@test "--smpl-module=dear-hist on a perf.data with weights: latency buckets per data address, as perf script gives the weights" {
	record "$W/pf.data"
	python3 "$TESTS_SRCDIR/bats/perfdata_mem.py" "$W/pf.data" "$W/mem.data" >/dev/null
	# perf's samples: per data address, the count, average weight and share <= 15 cycles
	perf script -i "$W/mem.data" -F addr,weight 2>/dev/null | python3 -c '
import collections, sys
rows = collections.defaultdict(list)
for line in sys.stdin:
    a, w = line.split()
    rows[int(a, 16)].append(int(w))
for a, ws in sorted(rows.items()):
    print("0x%016x %d %.1f %.2f" % (a, len(ws), sum(ws) / len(ws), 100.0 * sum(w <= 15 for w in ws) / len(ws)))
' >"$W/perf.txt"
	run -0 --separate-stderr "$PFMON" --report="$W/mem.data" --smpl-module=dear-hist --smpl-data-view
	[[ "$output" == *"# data addr view"* ]]
	printf '%s\n' "$output" | awk '!/^#/ { sub("%", "", $4); print $10, $1, $9, $4 }' | LC_ALL=C sort >"$W/pfmon.txt"
	[ "$(wc -l <"$W/perf.txt")" -ge 20 ]
	diff "$W/perf.txt" "$W/pfmon.txt"
	# the latency view: perf's local_weight histogram
	run -0 --separate-stderr "$PFMON" --report="$W/mem.data" --smpl-module=dear-hist --smpl-level-view
	diff <(perf_keys "$W/mem.data" local_weight) <(printf '%s\n' "$output" | awk '!/^#/ { print $4, $1 }' | LC_ALL=C sort)
	# a file without weights: every sample left out, and said
	run -0 --separate-stderr "$PFMON" --report="$W/pf.data" --smpl-module=dear-hist
	[[ "$output" == *"# samples without a latency (not counted) "[1-9]* ]]
}

@test "--smpl-module=detailed names each sample's data source as perf script -F data_src does" {
	record "$W/pf.data"
	python3 "$TESTS_SRCDIR/bats/perfdata_mem.py" "$W/pf.data" "$W/mem.data" >/dev/null
	# sample by sample, in file order; perf cuts the line at 100 bytes:
	# those it cut are left out of both
	perf script -i "$W/mem.data" -F data_src 2>/dev/null | sed -E 's/^ +//; s/ +$//; s/\|BLK  /|BLK /' >"$W/perf.txt"
	run -0 --separate-stderr "$PFMON" --report="$W/mem.data" --smpl-module=detailed
	printf '%s\n' "$output" | sed -n 's/^\tDATA_SRC: 0x//p' >"$W/pfmon.txt"
	[ "$(wc -l <"$W/perf.txt")" = "$(wc -l <"$W/pfmon.txt")" ]
	paste -d '\n' "$W/perf.txt" "$W/pfmon.txt" | awk 'NR % 2 { p = $0; next }
		p ~ /\|BLK (N\/A|Data|Addr|Data Addr)$/ { n++; if (p != $0) { print "perf:  " p; print "pfmon: " $0; bad = 1 } }
		END { exit bad || n < 30 }'
	[[ "$output" == *$'\tINS_LAT: 4\n'* ]]
}

# the samples' lines of perf script and of pfmon's script output, kernel
# frames as one word (named from kallsyms, which a machine may hide)
script_lines() {
	sed -E 's/ffffffff[0-9a-f]{8} [^ ]+ \([^)]*\)/KERNEL/'
}

@test "script: a PERF_TYPE_RAW event's address, data source, weight and instruction latency, as perf 6.1 prints them" {
	# the public corpus's Xeon cpu/mem-loads/pp file (tests/corpus): perf
	# script shows these fields by default for a raw event alone
	record "$W/pf.data"
	for kind in weight struct; do
		python3 "$TESTS_SRCDIR/bats/perfdata_mem.py" "$W/pf.data" "$W/mem.data" $kind >/dev/null
		python3 "$TESTS_SRCDIR/bats/perfdata_corpus.py" "$W/mem.data" "$W/raw.data" raw >/dev/null
		perf script -i "$W/raw.data" 2>/dev/null | script_lines >"$W/perf.txt"
		grep -q ' |OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 hit|LCK N/A|BLK  N/A  *8 ' "$W/perf.txt"
		"$PFMON" --report="$W/raw.data" --report-format=script 2>/dev/null | script_lines >"$W/pfmon.txt"
		diff "$W/perf.txt" "$W/pfmon.txt"
	done
	# the software event itself: no memory fields, as perf prints it
	perf script -i "$W/mem.data" 2>/dev/null | script_lines >"$W/perf.txt"
	! grep -q '|OP ' "$W/perf.txt"
	"$PFMON" --report="$W/mem.data" --report-format=script 2>/dev/null | script_lines | diff "$W/perf.txt" -
}

@test "script: a raw event's physical addresses after the frame, the kernel's own data sources" {
	perf record -q -e page-faults -c 1 -d --phys-data -o "$W/phys.data" "$FIXTURES/touch_pages" 8 >/dev/null 2>&1 ||
		skip "perf record cannot sample page faults here"
	python3 "$TESTS_SRCDIR/bats/perfdata_corpus.py" "$W/phys.data" "$W/raw.data" raw >/dev/null
	perf script -i "$W/raw.data" 2>/dev/null | script_lines >"$W/perf.txt"
	grep -q ' |OP N/A|LVL N/A' "$W/perf.txt" || skip "the kernel gives page faults another data source"
	"$PFMON" --report="$W/raw.data" --report-format=script 2>/dev/null | script_lines | diff "$W/perf.txt" -
}

# dt_mem: the dtypes fixture's page faults recorded by perf, given PEBS-style
# weights (8 to 104 cycles) and data sources: its heap nodes, its struct
# types and the source lines writing them known
dt_mem() {
	perf record -q -e page-faults -c 1 -d -o "$W/dt.data" "$FIXTURES/dtypes" 24 >/dev/null 2>&1 ||
		skip "perf record cannot sample page faults here"
	python3 "$TESTS_SRCDIR/bats/perfdata_mem.py" "$W/dt.data" "$W/dtm.data" struct >/dev/null
}

# hist_rows WHO KIND: a report on stdin as dear-hist's rows (dear_hist_rows.py)
hist_rows() {
	python3 "$TESTS_SRCDIR/bats/dear_hist_rows.py" "$@"
}

@test "dear-hist per data object: latency buckets as perf 6.1's symbol_daddr and local_weight count them" {
	dt_mem
	perf report -i "$W/dtm.data" --mem-mode --sort dso_daddr,symbol_daddr,local_weight --stdio -n -t '|' 2>/dev/null |
		hist_rows perf object >"$W/perf.txt"
	"$PFMON" --report="$W/dtm.data" --smpl-module=dear-hist --smpl-object-view >"$W/out.txt"
	hist_rows pfmon object <"$W/out.txt" >"$W/pfmon.txt"
	grep -q '^# data object view$' "$W/out.txt"
	# the heap nodes (an anonymous mapping: no symbol) are one object, in
	# both, with the same buckets and average latency; perf names data
	# addresses in code by its functions, pfmon by data symbols only, so
	# the binaries' own rows are not compared
	grep '(anon)|' "$W/perf.txt" >"$W/perf.anon"
	[ "$(cut -d'|' -f2 "$W/perf.anon")" -ge 24 ]
	grep '(anon)|' "$W/pfmon.txt" | diff "$W/perf.anon" -
}

@test "dear-hist per source line: the fixture's lines as perf 6.1's srcline and local_weight count them" {
	dt_mem
	perf report -i "$W/dtm.data" --sort srcline,local_weight --stdio -n -t '|' 2>/dev/null |
		hist_rows perf line | grep '^dtypes\.c:' >"$W/perf.txt"
	"$PFMON" --report="$W/dtm.data" --smpl-module=dear-hist --smpl-line-view | hist_rows pfmon line |
		grep '^dtypes\.c:' >"$W/pfmon.txt"
	# the node writer's line, each node once, and the others
	[ "$(wc -l <"$W/perf.txt")" -ge 2 ]
	grep -q '|24|' "$W/perf.txt"
	diff "$W/perf.txt" "$W/pfmon.txt"
}

@test "dear-hist per data type: the type key's latencies, struct dt_node's buckets" {
	dt_mem
	"$PFMON" --report="$W/dtm.data" --report-sort=type,weight | hist_rows profile type >"$W/profile.txt"
	"$PFMON" --report="$W/dtm.data" --smpl-module=dear-hist --smpl-type-view | hist_rows pfmon type >"$W/pfmon.txt"
	grep -q '^struct dt_node|24|' "$W/pfmon.txt"
	diff "$W/profile.txt" "$W/pfmon.txt"
	# by name with --smpl-sort-byvalue, the top N; two views refused
	run -0 "$PFMON" --report="$W/dtm.data" --smpl-module=dear-hist --smpl-type-view --smpl-sort-byvalue
	printf '%s\n' "$output" | grep -v '^#' | awk '{ $1 = $2 = $3 = $4 = $5 = $6 = $7 = $8 = $9 = ""; print }' >"$W/names"
	LC_ALL=C sort -c "$W/names"
	run -0 "$PFMON" --report="$W/dtm.data" --smpl-module=dear-hist --smpl-type-view --smpl-show-top=1
	[ "$(grep -vc '^#' <<<"$output")" -eq 1 ]
	run -2 --separate-stderr "$PFMON" --smpl-type-view --smpl-line-view --report="$W/dtm.data" --smpl-module=dear-hist
	[ "$(wc -l <<<"$stderr")" -eq 1 ]
}

@test "WEIGHT_STRUCT's third field (var3_w): kept, and the p_stage_cyc key perf 6.1 names it by" {
	record "$W/pf.data"
	n=$(python3 "$TESTS_SRCDIR/bats/perfdata_mem.py" "$W/pf.data" "$W/mem.data" struct)
	# perf 6.1 -D shows each weight struct as var1,var2,var3; its x86 build
	# reads var3 as 0 (only its powerpc build parses it, as p_stage_cyc),
	# so the generator's rule is the reference for var3: sample k's is
	# k % 3; perf's var1 and var2 locate the same u64 as pfmon's
	perf report -D -i "$W/mem.data" 2>/dev/null | sed -n 's/^\.\.\. weight: \([0-9]*\),0x\([0-9a-f]*\),0x[0-9a-f]*$/\1 \2/p' |
		while read -r w i; do echo "$w $((16#$i))"; done >"$W/perf.txt"
	[ "$(wc -l <"$W/perf.txt")" -eq "$n" ]
	"$PFMON" --report="$W/mem.data" --smpl-module=detailed |
		awk '/^\tWEIGHT: / { w = $2 } /^\tINS_LAT: / { i = $2 } /^\tP_STAGE_CYC: / { print w, i; print $2 >"/dev/stderr" }' \
			>"$W/pfmon.txt" 2>"$W/var3.txt"
	diff "$W/perf.txt" "$W/pfmon.txt"
	diff <(for ((k = 0; k < n; k++)); do echo $((k % 3)); done) "$W/var3.txt"
	# the key: a row per value, counted as the generator wrote them
	run -0 --separate-stderr "$PFMON" --report="$W/mem.data" --report-sort=p_stage_cyc
	for v in 0 1 2; do
		want=$(for ((k = 0; k < n; k++)); do echo $((k % 3)); done | grep -c "^$v$")
		printf '%s\n' "$output" | grep -Eq "^ +$want +[0-9.]+% +[0-9.]+%  $v$"
	done
	# perf's local_p_stage_cyc spelling, combined, and in JSON
	run -0 --separate-stderr "$PFMON" --report="$W/mem.data" --report-sort=weight,local_p_stage_cyc --report-format=json
	python3 -c '
import json, sys
e = json.loads(sys.argv[1])["events"][0]["entries"]
assert all(x["p_stage_cyc"] in (0, 1, 2) for x in e) and {x["p_stage_cyc"] for x in e} == {0, 1, 2}, e
' "$output"
	# a file without the field: every sample 0, as perf takes it
	python3 "$TESTS_SRCDIR/bats/perfdata_mem.py" "$W/pf.data" "$W/w.data" weight >/dev/null
	run -0 --separate-stderr "$PFMON" --report="$W/w.data" --report-sort=p_stage_cyc
	printf '%s\n' "$output" | grep -Eq "^ +$n +100.00% +100.00%  0$"
}
