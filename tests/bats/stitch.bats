#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --stitch-lbr: LBR call stacks deeper than the LBR, each thread's samples
# stitched to the previous one's where their stacks overlap, as perf 6.1's
# report and script --stitch-lbr do.  No machine here has an LBR: perf
# record -g's frame-pointer chains of a call chain 14 deep (deepcall) are
# moved into the LBR of 8 entries each thread would hold, a ring driven
# sample after sample (perfdata_stitch.py, per the kernel's ABI), with the
# depth in perf's CPU_PMU_CAPS header.  perf decodes each file first; then
# perf and pfmon are compared on the same file.

bats_require_minimum_version 1.5.0
load helpers

setup_file() {
	command -v perf >/dev/null || skip "perf is not installed"
	T="$BATS_FILE_TMPDIR"
	perf record -q -e task-clock -c 100000 -g -o "$T/fp.data" "$FIXTURES/deepcall" 100 >/dev/null 2>&1
	for mode in "" nohw nocaps; do
		python3 "$TESTS_SRCDIR/bats/perfdata_stitch.py" "$T/fp.data" "$T/lbr$mode.data" 8 $mode >"$T/n$mode"
	done
	perf script -i "$T/lbr.data" 2>/dev/null >"$T/perf.plain"
	perf script --stitch-lbr -i "$T/lbr.data" 2>/dev/null >"$T/perf.stitched"
}

setup() {
	command -v perf >/dev/null || skip "perf is not installed"
	T="$BATS_FILE_TMPDIR"
	W="$BATS_TEST_TMPDIR"
}

# user_stacks: folded stacks ("a;b;c N") of deepcall's own frames only
# (kernel and loader frames are named differently by perf report), summed
user_stacks() {
	awk '{ n = $NF; s = $0; sub(/ [0-9]+$/, "", s); sub(/^deepcall;/, "", s)
		if (s ~ /^((f[0-9]+|leaf|main|__libc_start_call_main);)*(f[0-9]+|leaf|main)$/) c[s] += n }
		END { for (k in c) print k, c[k] }' | sort
}

# perf_folded [--stitch-lbr]: perf report's folded call stacks of lbr.data
perf_folded() {
	perf report -i "$T/lbr.data" "$@" --stdio --no-children -g folded,0,caller,count --sort comm 2>/dev/null |
		awk '/^[0-9]+ / { n = $1; sub(/^[0-9]+ /, ""); print $0, n }'
}

WHOLE="f0;f1;f2;f3;f4;f5;f6;f7;f8;f9;f10"

# samples whose folded stack (in $1) holds the 11 calls from f0 to f10 in
# a row: more than an LBR of 8 holds
whole_count() {
	awk -v w="$WHOLE" 'index($0, w) { n += $NF } END { print n + 0 }' "$1"
}

@test "the crafted file as perf reads it: LBR call stacks, the depth in CPU_PMU_CAPS, stitching changes perf's stacks" {
	[ "$(cat "$T/n")" -ge 300 ]
	perf report --header-only -i "$T/lbr.data" 2>/dev/null | grep -q '^# cpu pmu capabilities: branches=8, pmu_name=skylake$'
	perf report -D -i "$T/lbr.data" 2>/dev/null | grep -q '^\.\.\. branch callstack: nr:8$'
	# perf's own stitching recovers frames the LBR lost
	[ "$(wc -l <"$T/perf.stitched")" -gt $(($(wc -l <"$T/perf.plain") + 100)) ]
}

@test "--stitch-lbr --report-format=script: perf script --stitch-lbr's frames, sample by sample; without it, perf script's" {
	"$PFMON" --report="$T/lbr.data" --report-format=script --stitch-lbr >"$W/stitched"
	diff "$T/perf.stitched" "$W/stitched"
	"$PFMON" --report="$T/lbr.data" --report-format=script >"$W/plain"
	diff "$T/perf.plain" "$W/plain"
}

@test "--stitch-lbr folded stacks: perf report --stitch-lbr -g folded's, and whole down to f0 only when stitched" {
	perf_folded --stitch-lbr | user_stacks >"$W/perf.stitched"
	"$PFMON" --report="$T/lbr.data" --report-format=folded --stitch-lbr 2>/dev/null | user_stacks >"$W/pfmon.stitched"
	diff "$W/perf.stitched" "$W/pfmon.stitched"
	perf_folded | user_stacks >"$W/perf.plain"
	"$PFMON" --report="$T/lbr.data" --report-format=folded 2>/dev/null | user_stacks >"$W/pfmon.plain"
	diff "$W/perf.plain" "$W/pfmon.plain"
	# an LBR of 8 cannot hold the 13 calls down to leaf: only stitching can
	[ "$(whole_count "$W/pfmon.plain")" = 0 ]
	[ "$(whole_count "$W/pfmon.stitched")" -ge 20 ]
	# the reading thread and pfmon's own thread stitch alike
	PFMON_READ_THREADS=0 "$PFMON" --report="$T/lbr.data" --report-format=folded --stitch-lbr 2>/dev/null |
		user_stacks | diff "$W/pfmon.stitched" -
}

# the samples of the widest f0 frame of a flame graph (SVG or HTML)
f0_samples() {
	grep -o '<title>f0 (deepcall): [0-9]* samples' "$1" | awk '$3 > n { n = $3 } END { print n + 0 }'
}

@test "--stitch-lbr in JSON, SVG and HTML: the stitched stacks of the folded report" {
	"$PFMON" --report="$T/lbr.data" --report-format=folded --stitch-lbr 2>/dev/null >"$W/folded"
	run -0 --separate-stderr "$PFMON" --report="$T/lbr.data" --report-format=json --stitch-lbr
	# each JSON call chain, leaf first, as folded stacks (root first) name it
	printf '%s\n' "$output" | python3 -c '
import json, sys
for c in json.load(sys.stdin)["callchains"]:
    print(";".join([c["comm"]] + [f["name"] for f in reversed(c["frames"])]), c["samples"])' |
		sort >"$W/json"
	sort "$W/folded" | diff - "$W/json"
	grep -q "$WHOLE" "$W/json"
	# the flame graph's f0 right above the process: every stack that
	# starts there, more of them once stitched (the same profile in HTML)
	root_f0=$(awk '/^deepcall;f0[; ]/ { n += $NF } END { print n }' "$W/folded")
	for fmt in svg html; do
		"$PFMON" --report="$T/lbr.data" --report-format=$fmt --stitch-lbr 2>/dev/null >"$W/out.$fmt"
		[ "$(f0_samples "$W/out.$fmt")" = "$root_f0" ]
	done
	"$PFMON" --report="$T/lbr.data" --report-format=svg 2>/dev/null >"$W/plain.svg"
	[ "$(f0_samples "$W/plain.svg")" -lt "$root_f0" ]
}

@test "--stitch-lbr is refused in one line where it cannot act" {
	run -1 --separate-stderr "$PFMON" --report="$T/lbrnohw.data" --stitch-lbr
	one_error_line "^error: option '--stitch-lbr' cannot act on '.*/lbrnohw.data': its LBR call stacks have no hw_idx "
	run -1 --separate-stderr "$PFMON" --report="$T/lbrnocaps.data" --stitch-lbr
	one_error_line "^error: option '--stitch-lbr' cannot act on '.*/lbrnocaps.data': it does not say the LBR's depth \(perf.data's CPU_PMU_CAPS branches=\)"
	run -1 --separate-stderr "$PFMON" --report="$T/fp.data" --stitch-lbr
	one_error_line "^error: option '--stitch-lbr' cannot act on '.*/fp.data': its samples have no LBR call stacks "
	# perf itself stitches nothing in either: no hw_idx, no depth
	perf script --stitch-lbr -i "$T/lbrnohw.data" 2>/dev/null | cmp -s - <(perf script -i "$T/lbrnohw.data" 2>/dev/null)
	perf script --stitch-lbr -i "$T/lbrnocaps.data" 2>/dev/null | cmp -s - <(perf script -i "$T/lbrnocaps.data" 2>/dev/null)
	run -2 --separate-stderr "$PFMON" --report="$T/lbr.data" --stitch-lbr --export-perf-data="$W/x.data"
	one_error_line "^error: option '--stitch-lbr' applies to the profile's call stacks"
	run -2 --separate-stderr "$PFMON" --report="$T/lbr.data" --stitch-lbr --smpl-module=detailed
	one_error_line "^error: option '--stitch-lbr' applies to the profile's call stacks"
	# a live run: LBR call stacks to stitch, from an LBR
	run -2 --separate-stderr "$PFMON" --stitch-lbr -e task-clock -c 100000 "$FIXTURES/deepcall" 1
	one_error_line "^error: option '--stitch-lbr' needs --call-graph=lbr \(it stitches LBR call stacks\)$"
	mkdir "$W/nolbr"
	PFMON_TEST_SYSFS_PMUS="$W/nolbr" run -1 --separate-stderr "$PFMON" --stitch-lbr --call-graph=lbr -e task-clock \
		-c 100000 "$FIXTURES/deepcall" 1
	one_error_line "^error: option '--stitch-lbr' cannot act on this machine: its cpu PMU names no LBR depth \($W/nolbr/cpu/caps/branches\): it records no LBR call stacks$"
}

@test "pfmon's perf.data writer keeps the LBR's depth in CPU_PMU_CAPS: perf stitches an exported file as the original" {
	run -0 --separate-stderr "$PFMON" --report="$T/lbr.data" --export-perf-data="$W/x.data"
	perf report --header-only -i "$W/x.data" 2>/dev/null | grep -q '^# cpu pmu capabilities: branches=8$'
	perf script --stitch-lbr -i "$W/x.data" 2>/dev/null | diff "$T/perf.stitched" -
	"$PFMON" --report="$W/x.data" --report-format=script --stitch-lbr 2>/dev/null | diff "$T/perf.stitched" -
	# a live run writes the depth the cpu PMU's caps say (a copy of sysfs
	# here: this machine has no LBR)
	mkdir -p "$W/pmus/cpu/caps"
	echo 16 >"$W/pmus/cpu/caps/branches"
	PFMON_TEST_SYSFS_PMUS="$W/pmus" run -0 --separate-stderr "$PFMON" -e task-clock -c 100000 -g --smpl-format=perf \
		--smpl-outfile="$W/live.data" "$FIXTURES/deepcall" 5
	perf report --header-only -i "$W/live.data" 2>/dev/null | grep -q '^# cpu pmu capabilities: branches=16$'
	# and without one, no CPU_PMU_CAPS, as perf record on such a machine
	mkdir "$W/none"
	PFMON_TEST_SYSFS_PMUS="$W/none" run -0 --separate-stderr "$PFMON" -e task-clock -c 100000 -g --smpl-format=perf \
		--smpl-outfile="$W/none.data" "$FIXTURES/deepcall" 5
	! perf report --header-only -i "$W/none.data" 2>/dev/null | grep -q 'cpu pmu capabilities'
}
