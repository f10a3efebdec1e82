#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# contrib/pfmon-interval-svg: --print-interval CSV (and perf stat -I -x,)
# turned into an SVG line chart, one panel per event, one line per CPU.

bats_require_minimum_version 1.5.0
load helpers

TOOL="$TESTS_SRCDIR/../contrib/pfmon-interval-svg"

# valid XML whose root is an SVG element; prints the number of lines
# (polylines) and of panels (frames)
svg_check() {
	python3 - "$1" <<'PY'
import sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
assert root.tag == ns + "svg", root.tag
frames = [r for r in root.iter(ns + "rect") if r.get("class") == "frame"]
lines = list(root.iter(ns + "polyline"))
for l in lines:
    for p in l.get("points").split():
        x, y = map(float, p.split(","))
        assert 0 <= x <= float(root.get("width")) and 0 <= y <= float(root.get("height")), p
print(len(lines), len(frames))
PY
}

@test "pfmon --print-interval --csv: one panel per event, valid SVG" {
	command -v python3 >/dev/null || skip "python3 not installed"
	"$PFMON" --print-interval=50 --csv -e task-clock,page-faults "$FIXTURES/phases" 200 200 >"$BATS_TEST_TMPDIR/iv.csv"
	run --separate-stderr "$TOOL" -t phases "$BATS_TEST_TMPDIR/iv.csv" -o "$BATS_TEST_TMPDIR/iv.svg"
	[ "$status" -eq 0 ]
	run svg_check "$BATS_TEST_TMPDIR/iv.svg"
	[ "$status" -eq 0 ]
	[ "$output" = "2 2" ]
	if command -v xmllint >/dev/null; then xmllint --noout "$BATS_TEST_TMPDIR/iv.svg"; fi
}

@test "system-wide per CPU: one line per CPU, from standard input" {
	command -v python3 >/dev/null || skip "python3 not installed"
	[ "$(id -u)" -eq 0 ] || skip "system-wide monitoring needs root here"
	"$PFMON" -a --print-interval=100 --csv -e cpu-clock -t 1 2>/dev/null >"$BATS_TEST_TMPDIR/sw.csv"
	run --separate-stderr "$TOOL" -o "$BATS_TEST_TMPDIR/sw.svg" <"$BATS_TEST_TMPDIR/sw.csv"
	[ "$status" -eq 0 ]
	run svg_check "$BATS_TEST_TMPDIR/sw.svg"
	[ "$output" = "$(nproc) 1" ]
	grep -q '>CPU0<' "$BATS_TEST_TMPDIR/sw.svg"
}

@test "perf stat -I -x, output reads the same" {
	command -v python3 >/dev/null || skip "python3 not installed"
	command -v perf >/dev/null || skip "perf not installed"
	perf stat -I 100 -x, -e task-clock "$FIXTURES/phases" 200 200 2>"$BATS_TEST_TMPDIR/p.csv" >/dev/null
	run --separate-stderr "$TOOL" "$BATS_TEST_TMPDIR/p.csv" -o "$BATS_TEST_TMPDIR/p.svg"
	[ "$status" -eq 0 ]
	run svg_check "$BATS_TEST_TMPDIR/p.svg"
	[ "$output" = "1 1" ]
}

@test "an interval not counted is a gap, not a zero; bad input is one error line" {
	command -v python3 >/dev/null || skip "python3 not installed"
	printf '%s\n' '0.1,5,,page-faults,100,100.00,,' '0.2,<not counted>,,page-faults,0,0.00,,' \
		'0.3,7,,page-faults,100,100.00,,' '0.4,9,,page-faults,100,100.00,,' >"$BATS_TEST_TMPDIR/gap.csv"
	run --separate-stderr "$TOOL" "$BATS_TEST_TMPDIR/gap.csv" -o "$BATS_TEST_TMPDIR/gap.svg"
	[ "$status" -eq 0 ]
	run svg_check "$BATS_TEST_TMPDIR/gap.svg"
	# a dot for 0.1, a line 0.3-0.4
	[ "$output" = "1 1" ]
	grep -q '<circle' "$BATS_TEST_TMPDIR/gap.svg"
	printf 'not,a,time\n' >"$BATS_TEST_TMPDIR/bad.csv"
	run --separate-stderr "$TOOL" "$BATS_TEST_TMPDIR/bad.csv"
	[ "$status" -eq 1 ]
	one_error_line "^error: .*bad.csv: line 1: the first column is not a time"
	run --separate-stderr "$TOOL" /dev/null
	[ "$status" -eq 1 ]
	one_error_line "no interval rows"
}
