#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The false-sharing view (issue 27; pfmon(1), --smpl-module=c2c): the
# fixture falseshare has two threads, "left" and "right", write the
# neighbouring fields left and right of one 64-byte line of a struct
# fs_line, taking turns, each write a page fault (the page is dropped
# before it).  Live, its page-fault samples carry the address, the
# instruction and the thread.  Crafted, perf's own recording of it gets
# PEBS-style data sources (perfdata_mem.py c2c: local and remote HITM
# loads, stores), and perf 6.1's c2c report of the same bytes is the
# reference: lines, HITM counts, stores, offsets, threads, code addresses.

bats_require_minimum_version 1.5.0
load helpers

N=16

setup() {
	W="$BATS_TEST_TMPDIR"
}

# the live samples of the fixture, in pfmon's sample file
live_record() {
	"$PFMON" -e page-faults --long-smpl-periods=1 --smpl-data-addr --smpl-outfile="$W/fs.pfs" \
		"$FIXTURES/falseshare" $N >/dev/null 2>"$W/rec.err" ||
		skip "cannot sample page faults here: $(head -1 "$W/rec.err")"
}

# perf's recording of the fixture with PEBS-style data sources
crafted() {
	command -v perf >/dev/null || skip "perf is not installed"
	command -v python3 >/dev/null || skip "python3 is not installed"
	perf record -q -e page-faults -c 1 -d -o "$W/pf.data" "$FIXTURES/falseshare" $N >/dev/null 2>&1 ||
		skip "perf record cannot sample page faults here"
	python3 "$TESTS_SRCDIR/bats/perfdata_mem.py" "$W/pf.data" "$W/c2c.data" struct c2c >/dev/null
	perf c2c report --stdio -i "$W/c2c.data" >"$W/perf.txt" 2>/dev/null || skip "perf c2c report cannot read the file"
}

# pfmon's JSON view of FILE as rows of the python expression ROW over each
# line l (and access a, with ACCESSES set), of lines with HITM only (perf's)
pfmon_rows() {
	"$PFMON" --report="$1" --smpl-module=c2c --report-format=json | python3 -c '
import json, sys
d = json.load(sys.stdin)
def pct(x, t):
    return "%.2f%%" % (100.0 * x / t if t else 0)
for l in d["lines"]:
    if not l["hitm"]:
        continue
    if sys.argv[2] == "lines":
        print(l["address"], l["hitm"], l["local_hitm"], l["remote_hitm"], l["stores"])
        continue
    for a in l["accesses"]:
        print(l["address"], hex(a["offset"]), "%d:%s" % (a["tid"], a["comm"]), a["ip"],
              pct(a["remote_hitm"], l["remote_hitm"]), pct(a["local_hitm"], l["local_hitm"]),
              pct(a["stores"], l["stores"]))
' - "$2" | LC_ALL=C sort
}

@test "c2c of a crafted PEBS-style file: lines and their HITM and store counts as perf c2c report's" {
	crafted
	# perf sees the HITM loads and stores of the crafted bytes
	grep -Eq 'Load Local HITM +: +[1-9]' "$W/perf.txt"
	grep -Eq 'Load Remote HITM +: +[1-9]' "$W/perf.txt"
	grep -Eq 'Store Operations +: +[1-9]' "$W/perf.txt"
	# its line table: address, HITM total, local, remote, stores
	awk '/Shared Data Cache Line Table/ { t = 1; next } /Distribution Pareto/ { t = 0 }
		t && $1 ~ /^[0-9]+$/ && $2 ~ /^0x/ { print $2, $6, $7, $8, $11 }' "$W/perf.txt" | LC_ALL=C sort >"$W/perf.lines"
	pfmon_rows "$W/c2c.data" lines >"$W/pfmon.lines"
	[ "$(wc -l <"$W/perf.lines")" -ge 2 ]
	diff "$W/perf.lines" "$W/pfmon.lines"
}

@test "c2c of a crafted file: each line's offsets, threads and code addresses, and their shares, as perf's" {
	crafted
	# perf's pareto by thread and instruction: line, offset, tid:comm,
	# code address, the row's share of the line's remote and local HITM
	# and of its stores
	perf c2c report --stdio -i "$W/c2c.data" -c tid,iaddr 2>/dev/null |
		awk '/Distribution Pareto/ { t = 1; next } !t || /^#/ { next }
			NF == 7 && $7 ~ /^0x/ { line = $7; next }
			NF >= 10 && $6 ~ /^0x/ { print line, $6, $9, $10, $1, $2, $3 }' | LC_ALL=C sort >"$W/perf.rows"
	pfmon_rows "$W/c2c.data" rows >"$W/pfmon.rows"
	[ "$(wc -l <"$W/perf.rows")" -ge 2 ]
	diff "$W/perf.rows" "$W/pfmon.rows"
	# the fixture's line: both threads, one field each, HITM on both
	grep -q ' 0x0 [0-9]*:left ' "$W/pfmon.rows"
	grep -q ' 0x8 [0-9]*:right ' "$W/pfmon.rows"
}

@test "c2c text of a crafted file names the struct's two fields, the threads and the source lines" {
	crafted
	run -0 --separate-stderr "$PFMON" --report="$W/c2c.data" --smpl-module=c2c
	# the line with the most HITM is the fixture's
	line=$(grep -m1 '^# line 0:' <<<"$output")
	[[ "$line" == *"threads 2"* ]]
	grep -A1 -m1 '^# line 0:' <<<"$output" | grep -q 'fields: struct fs_line +0 (left), struct fs_line +8 (right)$'
	grep -Eq ' 0x0 .*[0-9]+:left .* fs_write_left +falseshare\.c:[0-9]+ +struct fs_line \+0 \(left\)$' <<<"$output"
	grep -Eq ' 0x8 .*[0-9]+:right .* fs_write_right +falseshare\.c:[0-9]+ +struct fs_line \+8 \(right\)$' <<<"$output"
}

@test "c2c of live page faults: the line two threads write, its two fields and the two threads" {
	live_record
	run -0 --separate-stderr "$PFMON" --report="$W/fs.pfs" --smpl-module=c2c --report-format=json
	python3 -c '
import json, sys
n = int(sys.argv[2])
d = json.loads(sys.argv[1])
fs = [l for l in d["lines"] if any(a["type"] == "struct fs_line" for a in l["accesses"])]
assert len(fs) == 1, fs
l = fs[0]
assert l["threads"] == 2 and l["hitm"] == 0, l
# page faults carry no data source: every access of unknown kind
assert l["unknown"] == l["samples"] and l["loads"] == l["stores"] == 0, l
by = {}
for a in l["accesses"]:
    by.setdefault((a["comm"], a["field"], a["function"]), []).append(a)
assert set(by) == {("left", "struct fs_line +0 (left)", "fs_write_left"),
                   ("right", "struct fs_line +8 (right)", "fs_write_right")}, by
# each write faulted: as many samples per thread as rounds, one thread each
for k, rows in by.items():
    assert sum(a["samples"] for a in rows) >= n, (k, rows)
    assert len({a["tid"] for a in rows}) == 1, rows
    assert all(a["file"].endswith("falseshare.c") and a["line"] > 0 for a in rows), rows
left, right = [by[k][0] for k in sorted(by)]
assert left["tid"] != right["tid"] and left["offset"] == 0 and right["offset"] == 8, by
# a line one thread alone touched is no false sharing: none shown
assert all(x["threads"] > 1 or x["hitm"] for x in d["lines"]), d["lines"]
' "$output" $N
}

@test "c2c live, at the end of a run, as of its sample file" {
	live_record
	run -0 --separate-stderr "$PFMON" -e page-faults --long-smpl-periods=1 --smpl-data-addr --smpl-module=c2c \
		"$FIXTURES/falseshare" $N
	[[ "$output" == *"fields: struct fs_line +0 (left), struct fs_line +8 (right)"* ]]
	[[ "$output" =~ [0-9]+:left\ .*fs_write_left ]]
	[[ "$output" =~ [0-9]+:right\ .*fs_write_right ]]
	# --smpl-show-top cuts the lines shown
	run -0 --separate-stderr "$PFMON" --report="$W/fs.pfs" --smpl-module=c2c --smpl-show-top=1
	[ "$(grep -c '^# line ' <<<"$output")" -eq 1 ]
}

@test "c2c refuses what it cannot show, in one line" {
	live_record
	run -2 --separate-stderr "$PFMON" --report="$W/fs.pfs" --smpl-module=c2c --report-sort=data
	[ "${#lines[@]}" -eq 0 ] && [ "$(wc -l <<<"$stderr")" -eq 1 ]
	run --separate-stderr "$PFMON" --report="$W/fs.pfs" --smpl-module=c2c --report-format=folded
	[ "$status" -ne 0 ] && [ "$(wc -l <<<"$stderr")" -eq 1 ]
	# -S describes it
	run -0 "$PFMON" -S c2c
	[[ "$output" == *"false sharing"* ]]
}
