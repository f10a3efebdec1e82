#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --report-format=html: one self-contained page of a sampling report.  Its
# tables hold the text report's rows (read back with python3's html.parser),
# and headless Chromium loads it without a console error, draws it, and
# zooms the flame graph when a frame is clicked (the page's #click=ID hook,
# pfmon(1) HTML REPORTS); its annotated section, scrolled to, shows what
# --annotate prints.  PFMON_SCREENSHOT_DIR, when set, gets a copy of the
# screenshots (for README).

bats_require_minimum_version 1.5.0
load helpers
load chromium

setup_file() {
	export HTML_PFS="$BATS_FILE_TMPDIR/hot.pfs"
	"$PFMON" -e cpu-clock --long-smpl-periods=1000000 -g --smpl-outfile="$HTML_PFS" \
		"$FIXTURES/hotspot" 300 >/dev/null 2>&1
}

# rows FILE SORT: the page's table rows for SORT (function or line), one a
# line: samples, self, cum and the key, tab-separated
html_rows() {
	"$PY" - "$1" "$2" <<'EOF'
import sys
from html.parser import HTMLParser

class Rows(HTMLParser):
    def __init__(self, sort):
        super().__init__(convert_charrefs=True)
        self.sort, self.inside, self.row, self.cell, self.rows = sort, 0, None, None, []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == 'table' and a.get('data-sort') == self.sort:
            self.inside = 1
        elif self.inside and tag == 'tbody':
            self.inside = 2
        elif self.inside == 2 and tag == 'tr':
            self.row = []
        elif self.row is not None and tag == 'td':
            self.cell = ''
    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data
    def handle_endtag(self, tag):
        if tag == 'td' and self.cell is not None:
            self.row.append(self.cell)
            self.cell = None
        elif tag == 'tr' and self.row is not None:
            self.rows.append(self.row)
            self.row = None
        elif tag == 'table':
            self.inside = 0

p = Rows(sys.argv[2])
p.feed(open(sys.argv[1], encoding='utf-8').read())
for r in p.rows:
    print('\t'.join(r))
EOF
}

# text_rows: the text report's rows on stdin, as html_rows prints them
text_rows() {
	sed -nE 's/^ *([0-9]+) +([0-9.]+%) +([0-9.]+%)  (.*)$/\1\t\2\t\3\t\4/p'
}

@test "html: the tables by function and by line hold the text report's rows" {
	d="$BATS_TEST_TMPDIR"
	run --separate-stderr "$PFMON" --report="$HTML_PFS" --report-format=html
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$d/p.html"
	for sort in function line; do
		"$PFMON" --report="$HTML_PFS" --report-sort=$sort | text_rows >"$d/text.$sort"
		html_rows "$d/p.html" $sort >"$d/html.$sort"
		[ -s "$d/text.$sort" ]
		diff "$d/text.$sort" "$d/html.$sort"
	done
	# the hot function is in both, the flame graph and the annotation too
	grep -q $'\thot (hotspot)$' "$d/html.function"
	grep -q '<svg xmlns="http://www.w3.org/2000/svg"' "$d/p.html"
	grep -q '^## hot \[' "$d/p.html"
	# self-contained: no external script, style, font or image
	! grep -Eiq '<(script|link|img)[^>]*(src|href)=' "$d/p.html"
	# --smpl-show-top limits the rows as it limits the text report's
	"$PFMON" --report="$HTML_PFS" --report-format=html --smpl-show-top=2 >"$d/top.html"
	[ "$(html_rows "$d/top.html" function | wc -l)" -eq 2 ]
}

@test "html: a perf.data report: the same rows as its text report, perf's sample count" {
	command -v perf >/dev/null 2>&1 || skip "perf not installed"
	d="$BATS_TEST_TMPDIR"
	perf record -q -g -e task-clock -o "$d/perf.data" "$FIXTURES/hotspot" 200 >/dev/null 2>&1 ||
		skip "perf record cannot sample here"
	"$PFMON" --report="$d/perf.data" --report-format=html >"$d/p.html"
	for sort in function line; do
		"$PFMON" --report="$d/perf.data" --report-sort=$sort | text_rows >"$d/text.$sort"
		html_rows "$d/p.html" $sort >"$d/html.$sort"
		[ -s "$d/text.$sort" ]
		diff "$d/text.$sort" "$d/html.$sort"
	done
	# the summary's count is perf's: one line of perf script -F period a sample
	n=$(perf script -i "$d/perf.data" -F period 2>/dev/null | grep -c .)
	grep -q "<td>task-clock: $n samples (frequency " "$d/p.html"
	grep -q '<th>command</th><td>[^<]*perf record ' "$d/p.html"
}

@test "html: names are escaped: a command named with <, &, quotes stays text" {
	d="$BATS_TEST_TMPDIR"
	name='a<b>&"q'"'"
	cp "$FIXTURES/hotspot" "$d/$name"
	"$PFMON" -e cpu-clock --long-smpl-periods=1000000 --smpl-outfile="$d/s.pfs" "$d/$name" 100 >/dev/null 2>&1
	run --separate-stderr "$PFMON" --report="$d/s.pfs" --report-format=html
	[ "$status" -eq 0 ]
	[[ "$output" != *'a<b>'* ]]
	[[ "$output" == *'a&lt;b&gt;&amp;&quot;q&#39;'* ]]
	printf '%s\n' "$output" >"$d/p.html"
	# the parsed page gives the name back, in the summary's command
	"$PY" -c 'import sys, html.parser
class P(html.parser.HTMLParser):
    text = ""
    def handle_data(self, d): self.text += d
p = P(); p.feed(open(sys.argv[1]).read()); sys.exit(0 if sys.argv[2] in p.text else 1)' "$d/p.html" "$name"
}

@test "html: refused with a sort other than function or line, and with --merge (exit 2)" {
	run --separate-stderr "$PFMON" --report="$HTML_PFS" --report-format=html --report-sort=binary
	[ "$status" -eq 2 ]
	one_error_line "options '--report-sort' and '--report-format=html' cannot be combined"
	run --separate-stderr "$PFMON" --report-format=html --merge "$BATS_FILE_TMPDIR"
	[ "$status" -eq 2 ]
	one_error_line "options '--merge' and '--report-format=html' cannot be combined"
}

@test "html: at the end of a sampling run, and with --annotate=FUNCTION" {
	d="$BATS_TEST_TMPDIR"
	run --separate-stderr "$PFMON" -e cpu-clock --long-smpl-periods=1000000 --report-format=html \
		--annotate=cold "$FIXTURES/hotspot" 200
	[ "$status" -eq 0 ]
	[[ "$output" == '<!DOCTYPE html>'* ]]
	printf '%s\n' "$output" >"$d/p.html"
	[ "$(html_rows "$d/p.html" function | wc -l)" -ge 1 ]
	grep -q '^## cold \[' "$d/p.html"
	! grep -q '^## hot \[' "$d/p.html"
}

@test "html: Chromium loads the page with no console error, with its tables, and draws it" {
	require_chromium
	d="$BATS_TEST_TMPDIR"
	"$PFMON" --report="$HTML_PFS" --report-format=html >"$d/report.html"
	chromium_run --dump-dom "file://$d/report.html" >"$d/dom.html"
	! grep -E 'Uncaught|ERROR:CONSOLE|INFO:CONSOLE.*report\.html' "$d/chromium.log"
	[ "$(html_rows "$d/dom.html" function | wc -l)" -ge 2 ]
	[ "$(html_rows "$d/dom.html" line | wc -l)" -ge 2 ]
	# the flame graph's script ran in the page
	grep -q 'data-ready="1"' "$d/dom.html"
	chromium_run --screenshot="$d/html-report.png" --window-size=1280,2000 "file://$d/report.html"
	[ -s "$d/html-report.png" ]
	keep_screenshot "$d/html-report.png"
	# not blank: many colours (text, the tables' shading, the flame graph)
	"$PY" - "$d/html-report.png" <<'EOF'
import sys
from PIL import Image
im = Image.open(sys.argv[1]).convert('RGB')
colours = im.getcolors(maxcolors=1 << 20)
assert colours is not None and len(colours) >= 16, len(colours or [])
# drawn with the page's style: the tables' heads (#eef) and the flame
# graph's background (#f8f8f4) cover areas of their own
count = dict((rgb, c) for c, rgb in colours)
assert count.get((238, 238, 255), 0) > 1000, count.get((238, 238, 255), 0)
assert count.get((248, 248, 244), 0) > 10000, count.get((248, 248, 244), 0)
EOF
}

@test "html: clicking a flame-graph frame zooms it (the #click=ID hook)" {
	require_chromium
	d="$BATS_TEST_TMPDIR"
	"$PFMON" --report="$HTML_PFS" --report-format=html >"$d/report.html"
	# the frame of cold(): narrower than the graph before the click
	id=$(grep -o '<g class="f" id="f[0-9]*"[^>]*data-n="cold"' "$d/report.html" | head -1 |
		sed -E 's/.* id="(f[0-9]+)".*/\1/')
	[ -n "$id" ]
	before=$(sed -n "/ id=\"$id\"/{s/.*<rect [^>]*width=\"\\([0-9.]*\\)\".*/\\1/p;q}" "$d/report.html")
	[ "$before" != "1180.00" ]
	chromium_run --dump-dom "file://$d/report.html#click=$id" >"$d/dom.html"
	! grep -E 'Uncaught|ERROR:CONSOLE' "$d/chromium.log"
	grep -q "data-clicked=\"$id\"" "$d/dom.html"
	# zoomed: the frame fills the graph's width (1200 less the pads), Reset
	# Zoom shows, and frames outside its subtree are hidden
	after=$(grep -o "<g [^>]*id=\"$id\"[^>]*>.*" "$d/dom.html" | grep -o '<rect [^>]*>' | head -1 |
		sed -E 's/.*width="([0-9.]+)".*/\1/')
	[ "$after" = "1180.00" ]
	grep -q 'id="unzoom" [^>]*style=""' "$d/dom.html"
	grep -q 'data-n="hot"[^>]*style="display: none;"\|style="display: none;"[^>]*data-n="hot"' "$d/dom.html"
}

# annotated_section FILE: the text of the page's annotated section
annotated_section() {
	"$PY" - "$1" <<'EOF'
import sys
from html.parser import HTMLParser

class Pre(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.inside, self.text = 0, ''
    def handle_starttag(self, tag, attrs):
        if tag == 'section' and dict(attrs).get('id') == 'annotated':
            self.inside = 1
        elif self.inside == 1 and tag == 'pre':
            self.inside = 2
    def handle_endtag(self, tag):
        if self.inside and tag in ('pre', 'section'):
            self.inside = 0
    def handle_data(self, data):
        if self.inside == 2:
            self.text += data

p = Pre()
p.feed(open(sys.argv[1], encoding='utf-8').read())
sys.stdout.write(p.text)
EOF
}

# instructions FUNCTION: the instruction rows of FUNCTION's block in the
# annotation on stdin: samples, percent, address and instruction
instructions() {
	awk -v f="$1" '
		/^## [^ ]+ \[/ { inside = index($0, "## " f " [") == 1; next }
		inside && /^ +[0-9]+ +[0-9.]+% +0x[0-9a-f]+  / { sub(/^ +/, ""); print }'
}

@test "html: the annotated section, scrolled to, has --annotate's samples per instruction" {
	require_chromium
	d="$BATS_TEST_TMPDIR"
	"$PFMON" --report="$HTML_PFS" --report-format=html >"$d/report.html"
	# the hottest function of the text report, annotated as text alone
	f=$("$PFMON" --report="$HTML_PFS" | text_rows | head -1 | cut -f4 | sed -E 's/ \([^()]*\)$//')
	[ "$f" = hot ]
	"$PFMON" --report="$HTML_PFS" --annotate="$f" | instructions "$f" >"$d/text.rows"
	# the page as Chromium read it: the same rows, the same samples
	chromium_run --dump-dom "file://$d/report.html#annotated" >"$d/dom.html"
	chromium_console_clean
	annotated_section "$d/dom.html" | instructions "$f" >"$d/html.rows"
	[ "$(wc -l <"$d/text.rows")" -ge 2 ]
	awk '$1 > 0 { n++ } END { exit !(n >= 1) }' "$d/text.rows"
	diff "$d/text.rows" "$d/html.rows"
	# drawn scrolled to the section: the annotation's shading (#f8f8f4)
	# fills most of the picture, text on it
	chromium_shot_at "file://$d/report.html#annotated" "$d/annotate.png" 1280 900
	chromium_console_clean
	png_colours "$d/annotate.png" 16
	"$PY" - "$d/annotate.png" <<'EOF'
import sys
from PIL import Image
im = Image.open(sys.argv[1]).convert('RGB')
assert im.size == (1280, 900), im.size
count = dict((rgb, c) for c, rgb in im.getcolors(maxcolors=1 << 20))
assert count.get((248, 248, 244), 0) > 1280 * 900 // 2, count.get((248, 248, 244), 0)
EOF
	keep_screenshot "$d/annotate.png"
}

# opened FILE: the files a traced run opened (successfully), one a line,
# as often as it opened them
opened() {
	sed -nE 's/^[0-9]+ +(openat\(AT_FDCWD, |open\()"([^"]*)".* = [0-9]+$/\2/p' "$1" | sort
}

@test "html: the page's parts share one resolver: a binary is read as often as for the text report by line" {
	command -v strace >/dev/null || skip "strace not installed"
	d="$BATS_TEST_TMPDIR"
	strace -f -e trace=open,openat -o "$d/line.trace" "$PFMON" --report="$HTML_PFS" --report-sort=line \
		>"$d/line.txt" 2>/dev/null || skip "strace cannot trace here"
	strace -f -e trace=open,openat -o "$d/html.trace" "$PFMON" --report="$HTML_PFS" --report-format=html \
		>"$d/page.html" 2>/dev/null
	opened "$d/line.trace" | uniq -c >"$d/line.opens"
	opened "$d/html.trace" | uniq -c >"$d/html.opens"
	# the program sampled is among them, opened once by both
	grep -q " $FIXTURES/hotspot\$" "$d/line.opens"
	grep -q "^ *1 $FIXTURES/hotspot\$" "$d/html.opens"
	# no binary the text report reads is read more often for the page
	# (each part its own resolver: each binary opened once a part)
	while read -r n path; do
		[ "$(head -c 4 "$path" 2>/dev/null | od -An -c | tr -d ' ')" = '177ELF' ] || continue
		m=$(awk -v p="$path" '{ c = $1; sub(/^ *[0-9]+ /, "") } $0 == p { print c }' "$d/html.opens")
		echo "$path: $n for the text report, ${m:-0} for the page"
		[ "${m:-0}" -le "$n" ]
	done <"$d/line.opens"
}
