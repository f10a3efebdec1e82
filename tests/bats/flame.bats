#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Call stacks as folded stacks and as pfmon's own flame graph: a root frame
# per process, unknown frames grouped per binary, and the SVG rendered by a
# real browser (headless Chromium).

bats_require_minimum_version 1.5.0
load helpers

# Debian's python3, whose python3-pil reads the screenshots
PY=/usr/bin/python3

setup_file() {
	# one recording of the hot spot (90% in hot(), 10% in cold()) for the SVG tests
	export HOT_PFS="$BATS_FILE_TMPDIR/hot.pfs"
	"$PFMON" -e cpu-clock --long-smpl-periods=1000000 -g --smpl-outfile="$HOT_PFS" \
		"$FIXTURES/hotspot" 400 >/dev/null 2>&1
}

require_chromium() {
	command -v chromium >/dev/null || skip "chromium not installed (contrib/install-deps.sh)"
}

# chromium ARGS...: headless, as root too, with a profile of its own
chromium_run() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--force-device-scale-factor=1 --user-data-dir="$BATS_TEST_TMPDIR/chromium" "$@" 2>/dev/null
}

@test "folded stacks start with the process's name, one root per program" {
	d="$BATS_TEST_TMPDIR"
	cp "$FIXTURES/hotspot" "$d/my hot"
	run --separate-stderr "$PFMON" -e cpu-clock --long-smpl-periods=1000000 -g --report-format=folded "$d/my hot" 200
	[ "$status" -eq 0 ]
	# perf's stackcollapse habit: the comm, blanks as '_'
	[ "$(cut -d';' -f1 <<<"$output" | sort -u)" = "my_hot" ]
	[[ "$output" =~ (^|$'\n')my_hot\;([^\;]+\;)*main\;hot\ [0-9]+ ]]
}

@test "JSON call chains: the process as comm, frames named as in folded stacks" {
	run --separate-stderr "$PFMON" --report="$HOT_PFS" --report-format=json
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | jq -e '[.callchains[].comm] | unique == ["hotspot"]'
	printf '%s\n' "$output" | jq -e '[.callchains[].frames[].name] | index("hotspot") == null'
	printf '%s\n' "$output" | jq -e '.callchains[0].frames[0].name == "hot"'
}

@test "frames without symbols are grouped per binary: [unknown] (binary), not one frame per address" {
	d="$BATS_TEST_TMPDIR"
	cp "$FIXTURES/hotspot" "$d/hs"
	strip "$d/hs"
	! nm "$d/hs" 2>/dev/null | grep -qw hot
	run --separate-stderr "$PFMON" -e cpu-clock --long-smpl-periods=500000 -g --report-format=folded \
		--smpl-outfile="$d/s.pfs" "$d/hs" 300
	[ "$status" -eq 0 ]
	# the flat profile still tells addresses apart: many of them were sampled
	run "$PFMON" --report="$d/s.pfs" --report-sort=function
	[ "$(grep -c '^ *[0-9].*  hs+0x' <<<"$output")" -ge 4 ]
	run --separate-stderr "$PFMON" --report="$d/s.pfs" --report-format=folded
	[ "$status" -eq 0 ]
	[ "$(cut -d';' -f1 <<<"$output" | sort -u)" = "hs" ]
	! grep -q '+0x\|\[unknown 0x' <<<"$output"
	# main and hot() are one [unknown] (hs) frame each: the hot path is one line
	[[ "$output" =~ (^|$'\n')hs\;([^\;]+\;)*\[unknown\]\ \(hs\)\;\[unknown\]\ \(hs\)\ [0-9]+ ]]
	top=$(head -1 <<<"$output")
	[ "${top##* }" -ge $(( $(awk '{ n += $NF } END { print n }' <<<"$output") * 8 / 10 )) ]
}

@test "an attached process's stacks are rooted at its name from /proc" {
	d="$BATS_TEST_TMPDIR"
	cp "$FIXTURES/hotspot" "$d/attached"
	"$d/attached" 600000 & # killed below
	pid=$!
	wait_running "$pid" attached
	run --separate-stderr "$PFMON" -e cpu-clock --smpl-freq=500 -g --report-format=folded -p "$pid" -t 1
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	[ "$status" -eq 0 ]
	[ -n "$output" ]
	[ "$(cut -d';' -f1 <<<"$output" | sort -u)" = "attached" ]
}

@test "--report-format=svg: valid XML, self-contained, the same bytes for the same samples" {
	svg="$BATS_TEST_TMPDIR/a.svg"
	"$PFMON" --report="$HOT_PFS" --report-format=svg >"$svg"
	"$PFMON" --report="$HOT_PFS" --report-format=svg >"$BATS_TEST_TMPDIR/b.svg"
	cmp "$svg" "$BATS_TEST_TMPDIR/b.svg"
	xmllint --noout "$svg"
	python3 - "$svg" <<-'EOF'
	import sys, xml.etree.ElementTree as ET
	NS = "{http://www.w3.org/2000/svg}"
	root = ET.parse(sys.argv[1]).getroot()
	assert root.tag == NS + "svg", root.tag
	# nothing from elsewhere: no links, no external scripts or images
	for e in root.iter():
	    for k, v in e.attrib.items():
	        assert "href" not in k and k != "src", (e.tag, k, v)
	scripts = root.findall(NS + "script")
	assert len(scripts) == 1 and scripts[0].text and "load" in scripts[0].text
	for s in ("http:", "https:", "fetch(", "XMLHttpRequest", "import("):
	    assert s not in scripts[0].text, s
	frames = root.findall(".//" + NS + "g[@class='f']")
	names = [g.get("data-n") for g in frames]
	assert names[0] == "all" and names[1] == "hotspot", names[:2]
	hot = frames[names.index("hot")]
	assert "hot (hotspot): " in hot.find(NS + "title").text, hot.find(NS + "title").text
	EOF
}

@test "Chromium renders the flame graph: hot() is the widest box on its level, on screen too" {
	require_chromium
	svg="$BATS_TEST_TMPDIR/hot.svg"
	"$PFMON" --report="$HOT_PFS" --report-format=svg >"$svg"
	height=$(sed -n 's/.*<svg [^>]* height="\([0-9]*\)".*/\1/p' "$svg")
	chromium_run --screenshot="$BATS_TEST_TMPDIR/hot.png" --window-size=1200,"$height" "file://$svg"
	# the geometry after the script has laid the boxes out (labels fitted by the browser's own fonts)
	chromium_run --dump-dom "file://$svg" >"$BATS_TEST_TMPDIR/dom.xml"
	"$PY" - "$svg" "$BATS_TEST_TMPDIR/dom.xml" "$BATS_TEST_TMPDIR/hot.png" <<-'EOF'
	import re, sys
	from PIL import Image
	svg, dom, png = sys.argv[1:]
	text = open(dom).read()
	assert 'data-ready="1"' in text, "the script did not run"
	frames = re.findall(r'<g class="f[^"]*" id="(f\d+)" data-a="\d+" data-s="(\d+)" data-d="(\d+)" data-n="([^"]*)"[^>]*>'
	                    r'<title>[^<]*</title><rect x="([\d.]+)" y="(\d+)" width="([\d.]+)"[^>]*fill="([^"]+)"/>'
	                    r'<text[^>]*>([^<]*)</text>', text)
	assert frames, "no frames in the DOM"
	hot = [f for f in frames if f[3] == "hot"]
	assert len(hot) == 1, hot
	hot = hot[0]
	level = [f for f in frames if f[2] == hot[2]]
	widest = max(level, key=lambda f: float(f[6]))
	assert widest is hot, (widest, hot)
	assert float(hot[6]) > 0.6 * 1180, hot
	assert hot[8] == "hot", "the browser's label: %r" % hot[8]
	# the screenshot: on a row inside the boxes of hot's level, hot's colour covers the most pixels
	img = Image.open(png).convert("RGB")
	y = int(hot[5]) + 2
	def rgb(s):
	    return tuple(int(v) for v in re.match(r"rgb\((\d+),(\d+),(\d+)\)", s).groups())
	row = [img.getpixel((x, y)) for x in range(img.width)]
	counts = {f[3]: sum(1 for p in row if p == rgb(f[7])) for f in level}
	assert len({f[7] for f in level}) == len(level), "two boxes share a colour"
	assert max(counts, key=counts.get) == "hot", counts
	assert abs(counts["hot"] - float(hot[6])) < 6, (counts, hot[6])
	EOF
}

@test "the flame graph's script: search highlights and sums, a click zooms (through its URL parameters)" {
	require_chromium
	svg="$BATS_TEST_TMPDIR/hot.svg"
	"$PFMON" --report="$HOT_PFS" --report-format=svg >"$svg"
	chromium_run --dump-dom "file://$svg?s=^(hot|cold)%24" >"$BATS_TEST_TMPDIR/search.xml"
	cold=$(sed -n 's/.*<g class="f" id="\(f[0-9]*\)" [^>]* data-n="cold">.*/\1/p' "$svg")
	[ -n "$cold" ]
	chromium_run --dump-dom "file://$svg?z=$cold" >"$BATS_TEST_TMPDIR/zoom.xml"
	python3 - "$BATS_TEST_TMPDIR/search.xml" "$BATS_TEST_TMPDIR/zoom.xml" <<-'EOF'
	import re, sys
	search, zoom = (open(p).read() for p in sys.argv[1:])
	def frame(text, name):
	    m = re.search(r'<g class="(f[^"]*)" id="f\d+" data-a="\d+" data-s="(\d+)"[^>]*data-n="%s"(?: style="([^"]*)")?>'
	                  r'<title>[^<]*</title><rect x="([\d.]+)" y="\d+" width="([\d.]+)"[^>]*fill="([^"]+)"' % name, text)
	    assert m, name
	    return m.groups()
	hot, cold, main = frame(search, "hot"), frame(search, "cold"), frame(search, "main")
	assert "match" in hot[0] and "match" in cold[0] and "match" not in main[0], (hot, cold, main)
	assert hot[5] == cold[5] == "rgb(230,0,230)" != main[5]
	share = float(re.search(r'id="matched"[^>]*>Matched: ([\d.]+)%<', search).group(1))
	total = int(frame(search, "all")[1])
	want = 100.0 * (int(hot[1]) + int(cold[1])) / total
	assert abs(share - want) < 0.01, (share, want)
	# zoomed into cold(): it fills the width, its ancestors too, hot() is gone
	cold, hot, main = frame(zoom, "cold"), frame(zoom, "hot"), frame(zoom, "main")
	assert float(cold[3]) == 10 and float(cold[4]) == 1180, cold
	assert float(main[4]) == 1180 and "anc" in main[0], main
	assert "display: none" in (hot[2] or ""), hot
	assert "Reset Zoom" in zoom
	EOF
}

@test "--report-format=svg with no samples, and with names that are not XML" {
	# a million page faults per sample: true makes none (a clock event
	# might catch its millisecond, or not, depending on the machine)
	run --separate-stderr "$PFMON" -e page-faults --long-smpl-periods=1000000 -g --report-format=svg true
	[ "$status" -eq 0 ]
	xmllint --noout - <<<"$output"
	[[ "$output" == *">no samples<"* ]]
	# a process name with markup and a byte that is not UTF-8
	d="$BATS_TEST_TMPDIR"
	cp "$FIXTURES/hotspot" "$d/$(printf '<a&b>\xff')"
	run --separate-stderr "$PFMON" -e cpu-clock --long-smpl-periods=1000000 -g --report-format=svg \
		"$d/$(printf '<a&b>\xff')" 100
	[ "$status" -eq 0 ]
	xmllint --noout - <<<"$output"
	[[ "$output" == *'data-n="&lt;a&amp;b&gt;\xff"'* ]]
}
