#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --report-format=pprof read by the real consumer, go tool pprof (Debian's
# golang-go): its -top and -traces agree with pfmon's own text report and
# folded stacks of the same file, for pfmon's sample files (frame-pointer
# and DWARF-unwound stacks) and for a perf.data recorded by perf; its web
# UI (pprof -http) shows that profile in headless Chromium.
# PFMON_SCREENSHOT_DIR, when set, gets a copy of the flame graph's
# screenshot (for README).

bats_require_minimum_version 1.5.0
load helpers
load chromium

setup_file() {
	export GO_HOME="$BATS_FILE_TMPDIR/home"
	mkdir -p "$GO_HOME"
	# one recording each, reported in every format by the tests
	export FP_PFS="$BATS_FILE_TMPDIR/fp.pfs" DWARF_PFS="$BATS_FILE_TMPDIR/dwarf.pfs"
	"$PFMON" -e task-clock --long-smpl-periods=1000000 -g --smpl-outfile="$FP_PFS" \
		"$FIXTURES/hotspot" 300 >/dev/null 2>&1
	"$PFMON" -e task-clock --long-smpl-periods=1000000 --call-graph=dwarf --smpl-outfile="$DWARF_PFS" \
		"$FIXTURES/calltree" 300 >/dev/null 2>&1
	export PERF_DATA="$BATS_FILE_TMPDIR/perf.data"
	perf record -q -e task-clock -c 1000000 -g -o "$PERF_DATA" "$FIXTURES/hotspot" 300 >/dev/null 2>&1 ||
		rm -f "$PERF_DATA"
}

require_perf_data() {
	[ -s "$PERF_DATA" ] || skip "perf record cannot sample here (or perf is not installed)"
}

require_go() {
	command -v go >/dev/null || skip "go not installed (golang-go: contrib/install-deps.sh)"
}

# the web UI's server, when a test started one: stopped by its pid alone
teardown() {
	if [ -n "${PPROF_PID:-}" ]; then
		kill "$PPROF_PID" 2>/dev/null || true
		wait "$PPROF_PID" 2>/dev/null || true
	fi
}

# go tool pprof ARGS...: in a home and build cache of the test's own; pfmon
# names every frame, so pprof is not to look for the binaries
gopprof() {
	HOME="$GO_HOME" GOCACHE="$GO_HOME/cache" GOFLAGS=-mod=mod go tool pprof -symbolize=none "$@"
}

# pprof -traces on stdin as folded stacks: "comm;root;...;leaf count",
# the samples of one stack added up, sorted
traces_folded() {
	awk '
		function flush() { if (n) { s = comm; for (i = n; i >= 1; i--) s = s ";" f[i]; sum[s] += cnt } n = 0; comm = "" }
		/^-----------\+/ { flush(); inblock = 1; next }
		!inblock { next }
		/^ +comm: +/ { sub(/^ +comm: +/, ""); comm = $0; next }
		/^ +[0-9]+   / { match($0, /[0-9]+/); cnt = substr($0, RSTART, RLENGTH); sub(/^ +[0-9]+   /, ""); f[++n] = $0; next }
		/^             [^ ]/ { sub(/^             /, ""); f[++n] = $0; next }
		END { flush(); for (s in sum) print s, sum[s] }' | sort
}

# pfmon's text report on stdin (one event): "function count" per row, the
# binary and kernel marks dropped as folded stacks name the frames,
# functions of several binaries added up, sorted
text_functions() {
	awk '/^ *[0-9]+ +[0-9.]+% +[0-9.]+%  / {
		name = $0; sub(/^ *[0-9]+ +[0-9.]+% +[0-9.]+%  /, "", name)
		sub(/^\[kernel\] /, "", name); sub(/ \([^()]*\)$/, "", name)
		sum[name] += $1 }
		END { for (k in sum) print k, sum[k] }' | sort
}

# pprof -top on stdin: "function flat" per row with samples of its own, sorted
top_functions() {
	awk 'go && $1 + 0 > 0 { name = $0; sub(/^ *[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+  /, "", name); print name, $1 }
		/ flat +flat% +sum% +cum +cum%/ { go = 1 }' | sort
}

# FILE [PFMON OPTIONS]: pprof's -top and -traces of pfmon's pprof output
# agree with pfmon's text report and folded stacks of FILE
agree_with_pfmon() {
	local f=$1 pb="$BATS_TEST_TMPDIR/p.pb.gz"
	shift
	"$PFMON" --report="$f" --report-format=pprof "$@" >"$pb"
	gzip -t "$pb"
	run -0 gopprof -sample_index=samples -top -nodecount=100000 -nodefraction=0 -edgefraction=0 "$pb"
	top="$output"
	run -0 "$PFMON" --report="$f" "$@"
	text="$output"
	# the same functions with the same samples, and the same top function and share
	diff <(text_functions <<<"$text" | grep -v '\[unknown\|+0x') \
		<(top_functions <<<"$top" | grep -v '\[unknown\|+0x')
	first=$(grep -m1 '^ *[0-9]\+ \+[0-9.]\+%' <<<"$text")
	pfirst=$(awk 'go { print; exit } / flat +flat%/ { go = 1 }' <<<"$top")
	echo "text: $first / pprof: $pfirst"
	[ "$(awk '{ print $1, $2 }' <<<"$first")" = "$(awk '{ print $1, $2 }' <<<"$pfirst")" ]
	total=$(grep -m1 '^# event' <<<"$text" | awk '{ print $4 }')
	[[ "$top" == *"Total samples = $total "* ]]
	# the same stacks, with the process at the root
	run -0 gopprof -sample_index=samples -traces "$pb"
	diff <(traces_folded <<<"$output") <("$PFMON" --report="$f" --report-format=folded "$@" | sort)
}

@test "pprof: go tool pprof's -top and -traces agree with the text report and folded stacks (-g)" {
	require_go
	[ -s "$FP_PFS" ]
	agree_with_pfmon "$FP_PFS"
	# the hot path is there, with its source file and line (pprof -list needs them)
	run -0 gopprof -sample_index=samples -traces "$BATS_TEST_TMPDIR/p.pb.gz"
	[[ "$output" == *"comm:  hotspot"* ]]
	run -0 gopprof -raw "$BATS_TEST_TMPDIR/p.pb.gz"
	[[ "$output" =~ [0-9]+:\ 0x[0-9a-f]+\ M=1\ hot\ [^\ ]*/hotspot\.c:[0-9]+\ s=[1-9] ]]
}

@test "pprof: DWARF-unwound stacks (--call-graph=dwarf) are the folded stacks" {
	require_go
	[ -s "$DWARF_PFS" ]
	agree_with_pfmon "$DWARF_PFS"
	run -0 gopprof -sample_index=samples -traces "$BATS_TEST_TMPDIR/p.pb.gz"
	[[ "$output" == *$'   hot\n             b\n             a\n             main'* ]]
}

@test "pprof: a perf.data recorded by perf, read by pfmon" {
	require_go
	require_perf_data
	d="$BATS_TEST_TMPDIR"
	agree_with_pfmon "$PERF_DATA"
	run -0 gopprof -sample_index=samples -top "$d/p.pb.gz"
	# mapping[0] is the program, its build-id the one perf saw
	[[ "$output" == *"File: hotspot"* ]]
	id=$(perf buildid-list -i "$PERF_DATA" 2>/dev/null | awk '$2 ~ /\/hotspot$/ { print $1 }')
	[ -n "$id" ]
	[[ "$output" == *"Build ID: $id"* ]]
	# perf.data's command line is perf record's
	run -0 gopprof -comments "$d/p.pb.gz"
	[[ "$output" == *"command line: "*"perf record -q -e task-clock"* ]]
}

@test "pprof: kernel frames that cannot be named are one [kernel] lump, as in folded stacks" {
	require_go
	require_perf_data
	: >"$BATS_TEST_TMPDIR/no-kallsyms"
	# neither perf's copy of kallsyms (under HOME) nor the running kernel's
	HOME=/nonexistent PFMON_KALLSYMS="$BATS_TEST_TMPDIR/no-kallsyms" agree_with_pfmon "$PERF_DATA"
	run -0 gopprof -sample_index=samples -traces "$BATS_TEST_TMPDIR/p.pb.gz"
	[[ "$output" == *"   [kernel]"* ]]
	run -0 gopprof -comments "$BATS_TEST_TMPDIR/p.pb.gz"
	[[ "$output" == *"kernel samples not symbolized"* ]]
}

@test "pprof: sample types per event with units, period, comments with the command line" {
	require_go
	d="$BATS_TEST_TMPDIR"
	# recorded and written at once: the profile knows pfmon's command line too
	"$PFMON" -e task-clock,page-faults --long-smpl-periods=1000000,20 -g --report-format=pprof \
		--smpl-outfile="$d/two.pfs" "$FIXTURES/hotspot" 200 >"$d/live.pb.gz"
	run -0 gopprof -comments "$d/live.pb.gz"
	[[ "$output" == *"command line: $FIXTURES/hotspot 200"* ]]
	[[ "$output" == *"recorded with: $PFMON "*"--smpl-outfile=$d/two.pfs"* ]]
	"$PFMON" --report="$d/two.pfs" --report-format=pprof >"$d/two.pb.gz"
	run -0 gopprof -raw "$d/two.pb.gz"
	[[ "$output" == *"PeriodType: task-clock nanoseconds"* ]]
	[[ "$output" == *"Period: 1000000"* ]]
	[[ "$output" =~ samples:task-clock/count\[dflt\]\ +task-clock/nanoseconds\ +samples:page-faults/count\ +page-faults/count ]]
	run -0 gopprof -comments "$d/two.pb.gz"
	[[ "$output" == *"command line: $FIXTURES/hotspot 200"* ]]
	[[ "$output" == *"event page-faults: "*" samples (period 20)"* ]]
	# each event's samples are its own: page-faults' as the text report counts them
	faults=$("$PFMON" --report="$d/two.pfs" | awk '/^# event page-faults:/ { print $4 }')
	[ "$faults" -gt 0 ]
	run -0 gopprof -sample_index=samples:page-faults -top "$d/two.pb.gz"
	[[ "$output" == *"Total samples = $faults "* ]]
	# task-clock's periods are time: its samples times 1 ms
	ticks=$("$PFMON" --report="$d/two.pfs" | awk '/^# event task-clock:/ { print $4 }')
	run -0 gopprof -sample_index=task-clock -unit=ms -top "$d/two.pb.gz"
	[[ "$output" == *"Total samples = ${ticks}ms"* ]]
}

@test "pprof: one sample file gives one pprof file, byte for byte, whatever the reading threads" {
	[ -s "$FP_PFS" ]
	d="$BATS_TEST_TMPDIR"
	for t in 0 1 2; do
		PFMON_READ_THREADS=$t "$PFMON" --report="$FP_PFS" --report-format=pprof >"$d/p.$t"
	done
	[ -s "$d/p.0" ]
	cmp "$d/p.0" "$d/p.1"
	cmp "$d/p.0" "$d/p.2"
}

@test "pprof: a profile without samples is a valid profile pprof reads" {
	require_go
	d="$BATS_TEST_TMPDIR"
	# one page fault in a billion: none
	run -0 "$PFMON" -e page-faults --long-smpl-periods=1000000000 --smpl-outfile="$d/none.pfs" true
	run -0 --separate-stderr "$PFMON" --report="$d/none.pfs" --report-format=pprof
	"$PFMON" --report="$d/none.pfs" --report-format=pprof >"$d/none.pb.gz"
	gzip -t "$d/none.pb.gz"
	run -0 gopprof -top "$d/none.pb.gz"
	[[ "$output" == *"Type: samples"* ]]
	[[ "$output" == *"of 0 total"* ]]
	run -0 gopprof -raw "$d/none.pb.gz"
	[[ "$output" == *"samples/count[dflt] page-faults/count"* ]]
}

@test "pprof: never onto a terminal, nor with the sample stream on standard output" {
	command -v script >/dev/null || skip "script (util-linux) not installed"
	[ -s "$FP_PFS" ] || skip "no recording"
	run script -qec "'$PFMON' --report='$FP_PFS' --report-format=pprof; echo status=\$?" /dev/null
	[[ "$output" == *"error: the pprof report is binary and standard output is a terminal: redirect it to a file"* ]]
	[[ "$output" == *"status=2"* ]]
	run -2 --separate-stderr "$PFMON" -e task-clock --smpl-outfile=- --report-format=pprof true
	one_error_line "^error: options '--smpl-outfile=-' and '--report-format=pprof' cannot be combined"
}

# pprof_serve FILE: pprof's web UI on FILE at a port pprof picks (an empty
# port in -http), in the background; $PPROF_PID, its URL in $PPROF_URL.  The
# tool itself, not `go tool`: go would leave it running when killed.
pprof_serve() {
	local log="$BATS_TEST_TMPDIR/pprof-http.log" i
	local tool
	tool="$(HOME="$GO_HOME" GOCACHE="$GO_HOME/cache" go env GOTOOLDIR)/pprof"
	[ -x "$tool" ] || skip "go's pprof tool not found"
	HOME="$GO_HOME" "$tool" -symbolize=none -http=127.0.0.1: -no_browser "$1" >"$log" 2>&1 3>&- &
	PPROF_PID=$!
	PPROF_URL=
	# it says where it listens, then answers there: both waited for, boundedly
	for i in $(seq 300); do
		PPROF_URL=$(sed -n 's|^Serving web UI on \(http://127\.0\.0\.1:[0-9]*\)$|\1|p' "$log")
		[ -n "$PPROF_URL" ] && curl -sf -o /dev/null "$PPROF_URL/ui/top" && return 0
		kill -0 "$PPROF_PID" 2>/dev/null || break
		sleep 0.1
	done
	cat "$log" >&2
	return 1
}

@test "pprof: its web UI shows pfmon's profile: top view and flame graph in Chromium" {
	require_go
	require_chromium
	command -v curl >/dev/null || skip "curl not installed"
	[ -s "$FP_PFS" ]
	d="$BATS_TEST_TMPDIR"
	"$PFMON" --report="$FP_PFS" --report-format=pprof >"$d/p.pb.gz"
	# the hottest function by pfmon's own text report of the same file
	first=$("$PFMON" --report="$FP_PFS" | grep -m1 '^ *[0-9]\+ \+[0-9.]\+%')
	hot=$(sed -E 's/^ *[0-9]+ +[0-9.]+% +[0-9.]+%  //; s/^\[kernel\] //; s/ \([^()]*\)$//' <<<"$first")
	[ "$hot" = hot ]
	pprof_serve "$d/p.pb.gz"
	# the views that need no graphviz answer, not with an error page
	curl -sf -o "$d/top.http" "$PPROF_URL/ui/top"
	curl -sf -o "$d/flame.http" "$PPROF_URL/ui/flamegraph"
	# top: its first row is the same function, with the same samples
	chromium_run --dump-dom "$PPROF_URL/ui/top" >"$d/top.html"
	chromium_console_clean
	grep -q '<title>hotspot samples</title>' "$d/top.html"
	row=$(grep -o '<tr id="node[0-9]*"><td>[^<]*</td>\(<td>[^<]*</td>\)*</tr>' "$d/top.html" | head -1)
	echo "text: $first / pprof top: $row"
	[[ "$row" =~ ^'<tr id="node'[0-9]+'"><td>'([0-9]+)'</td>'(<td>[^<]*</td>){4}'<td>'([^<]*)'</td>' ]]
	[ "${BASH_REMATCH[1]}" = "$(awk '{ print $1 }' <<<"$first")" ]
	[ "${BASH_REMATCH[3]}" = "$hot" ]
	# flame graph: drawn by its script (the frames are not in the page
	# pprof sends), the hot function's frame among them
	! grep -q "<g [^>]*name=\"$hot\"" "$d/flame.http"
	chromium_run --dump-dom "$PPROF_URL/ui/flamegraph" >"$d/flame.html"
	chromium_console_clean
	grep -q '<title>hotspot samples</title>' "$d/flame.html"
	grep -q "<g [^>]*name=\"$hot\" class=\"frame\"" "$d/flame.html"
	grep -q '<g [^>]*name="main" class="frame"' "$d/flame.html"
	chromium_run --screenshot="$d/pprof-flamegraph.png" --window-size=1280,600 "$PPROF_URL/ui/flamegraph"
	png_colours "$d/pprof-flamegraph.png" 16
	keep_screenshot "$d/pprof-flamegraph.png"
}
