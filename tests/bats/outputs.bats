#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Outputs people and programs can rely on: demangled C++ and Rust names in
# every report (as perf shows them), and the JSON profile's schema
# (pfmon(1), JSON PROFILES).

bats_require_minimum_version 1.5.0
load helpers

CXXHOT="$FIXTURES/cxxhot"

@test "C++ and Rust names are demangled by default in every report and output" {
	f="$BATS_TEST_TMPDIR/c.pfs"
	run --separate-stderr "$PFMON" -e cpu-clock -F 2000 -g --smpl-outfile="$f" "$CXXHOT" 300
	[ "$status" -eq 0 ]
	[[ "$output" =~ \ ns::Worker::spin\ \(cxxhot\) ]]
	[[ "$output" =~ \ mycrate::inner::spin\ \(cxxhot\) ]]    # Rust v0 (_R...)
	[[ "$output" =~ \ mycrate::legacy::spin\ \(cxxhot\) ]]   # Rust legacy, hash dropped
	[[ ! "$output" =~ _ZN|_RNv ]]
	# the same names in the report of the file, by address, folded, JSON
	run -0 --separate-stderr "$PFMON" --report="$f" --report-sort=address --resolve-addresses
	[[ "$output" =~ \ ns::Worker::spin\+0x ]]
	run -0 --separate-stderr "$PFMON" --report="$f" --report-format=folded
	[[ "$output" =~ main\;ns::Worker::spin\ [0-9]+ ]]
	[[ "$output" =~ main\;mycrate::inner::spin\ [0-9]+ ]]
	run -0 --separate-stderr "$PFMON" --report="$f" --report-format=json
	printf '%s\n' "$output" | jq -e '[.events[0].entries[].symbol] | index("mycrate::legacy::spin") != null'
	printf '%s\n' "$output" | jq -e '[.callchains[].frames[0].symbol] | index("ns::Worker::spin") != null'
	[[ ! "$output" =~ _ZN|_RNv ]]
}

@test "--no-demangle shows the symbol table's names; --demangle-cpp is pfmon 3.x's default" {
	f="$BATS_TEST_TMPDIR/c.pfs"
	run -0 --separate-stderr "$PFMON" -e cpu-clock -F 1000 --smpl-outfile="$f" --no-demangle "$CXXHOT" 200
	[[ "$output" =~ \ _ZN2ns6Worker4spinEd\ \(cxxhot\) ]]
	[[ "$output" =~ \ _RNvNtCs1234abcd_7mycrate5inner4spin\ \(cxxhot\) ]]
	[[ "$output" =~ \ _ZN7mycrate6legacy4spin17h0123456789abcdefE\ \(cxxhot\) ]]
	run -0 --separate-stderr "$PFMON" --report="$f" --demangle-cpp
	[[ "$output" =~ \ ns::Worker::spin\ \(cxxhot\) ]]
	run -0 --separate-stderr "$PFMON" --report="$f" --no-demangle --report-format=folded
	[[ "$output" =~ (^|;)_ZN2ns6Worker4spinEd\ [0-9]+ ]]
	run -2 --separate-stderr "$PFMON" --report="$f" --no-demangle --demangle-cpp
	one_error_line "^error: options '--demangle-cpp' and '--no-demangle' cannot be combined$"
	run -2 --separate-stderr "$PFMON" --no-demangle -e task-clock true
	one_error_line "^error: option '--no-demangle' is not used when counting"
}

@test "demangled names are perf report's (its default: no parameter list)" {
	command -v perf >/dev/null || skip "perf is not installed"
	d="$BATS_TEST_TMPDIR/perf.data"
	perf record -q -e cpu-clock -F 2000 -o "$d" "$CXXHOT" 300 >/dev/null 2>&1 || skip "perf record cannot sample here"
	theirs=$(perf report -i "$d" --stdio --sort symbol 2>/dev/null | grep -o '\[\.\] [^ ]*::spin[^ ]*' | sed 's/^\[\.\] //' | sort)
	[ -n "$theirs" ]
	run -0 --separate-stderr "$PFMON" -e cpu-clock -F 2000 --report-format=json "$CXXHOT" 300
	ours=$(printf '%s\n' "$output" | jq -r '.events[0].entries[].symbol // empty' | grep '::spin' | sort)
	[ "$ours" = "$theirs" ]
}

@test "the JSON profile: format, version, sort, and symbol, binary, file, line apart" {
	f="$BATS_TEST_TMPDIR/h.pfs"
	run -0 --separate-stderr "$PFMON" -e cpu-clock -F 1000 --smpl-outfile="$f" "$FIXTURES/hotspot" 200
	hot_lines=$(function_lines hotspot.c hot)
	for sort in function line binary address data; do
		run -0 --separate-stderr "$PFMON" --report="$f" --report-format=json --report-sort=$sort
		printf '%s\n' "$output" | jq -e --arg s "$sort" '.format == "pfmon-profile" and .version == 1 and .sort == $s'
		# the same keys, in the same order, as the text report
		names=$(printf '%s\n' "$output" | jq -r '.events[0].entries[].name')
		run -0 --separate-stderr "$PFMON" --report="$f" --report-sort=$sort
		text=$(printf '%s\n' "$output" | grep -v '^#' | sed -E 's/^ *[0-9]+ +[0-9.]+% +[0-9.]+%  //')
		[ "$names" = "$text" ]
	done
	run -0 --separate-stderr "$PFMON" --report="$f" --report-format=json --report-sort=line
	# the top line is one of hot()'s (which one depends on the CPU's skid)
	printf '%s\n' "$output" | jq -e --argjson first "${hot_lines% *}" --argjson last "${hot_lines#* }" \
		'.events[0].entries[0] | .symbol == "hot" and (.binary | endswith("/hotspot")) and
		(.file | endswith("/hotspot.c")) and .line >= $first and .line <= $last'
	run -0 --separate-stderr "$PFMON" --report="$f" --report-format=json
	# by function: no file or line (no line table read), and absent keys rather than empty strings
	printf '%s\n' "$output" | jq -e '.events[0].entries[0] | .symbol == "hot" and (has("file") | not) and (has("line") | not)'
	printf '%s\n' "$output" | jq -e '[.. | strings | select(. == "")] | length == 0'
	printf '%s\n' "$output" | jq -e 'has("callchains") | not'   # none recorded
	run -0 --separate-stderr "$PFMON" --report="$f" --report-format=json --report-sort=address --resolve-addresses
	printf '%s\n' "$output" | jq -e '.events[0].entries[0] | .symbol == "hot" and .offset > 0 and (.address | test("^0x[0-9a-f]+$"))'
	run -0 --separate-stderr "$PFMON" --report="$f" --report-format=json --report-sort=binary
	printf '%s\n' "$output" | jq -e '.events[0].entries[0] | (.binary | endswith("/hotspot")) and (has("symbol") | not)'
}

@test "the JSON profile's call chains, when recorded: frames leaf first, as folded stacks name them" {
	run -0 --separate-stderr "$PFMON" -e cpu-clock -F 1000 -g --report-format=json "$FIXTURES/hotspot" 200
	printf '%s\n' "$output" | jq -e '.callchains | length > 0'
	printf '%s\n' "$output" | jq -e '.callchains[0] | .samples > 0 and .frames[0].symbol == "hot" and
		.frames[0].name == "hot" and ([.frames[].symbol] | index("main") != null)'
	# the chains add up to the samples
	printf '%s\n' "$output" | jq -e '([.callchains[].samples] | add) == .events[0].samples'
}

@test "a JSON or folded profile on stdout keeps it: the command's output goes to stderr" {
	run -0 --separate-stderr bash -c "'$PFMON' -e cpu-clock -F 1000 --report-format=json sh -c 'echo from-command; exec $FIXTURES/hotspot 50' | jq -e .version"
	[ "$output" = 1 ]
	[[ "$stderr" =~ from-command ]]
	run -0 --separate-stderr "$PFMON" -e cpu-clock -F 1000 -g --report-format=folded sh -c "echo from-command; exec $FIXTURES/hotspot 50"
	[[ ! "$output" =~ from-command ]]
	[[ "$stderr" =~ from-command ]]
}

@test "every key the JSON profile prints is in pfmon(1)'s JSON PROFILES" {
	man="$TESTS_SRCDIR/../man/pfmon.1"
	section=$(sed -n '/^\.SH JSON PROFILES/,/^\.SH /p' "$man")
	[ -n "$section" ]
	keys=""
	for args in "--report-sort=function -g" "--report-sort=line" "--report-sort=address --resolve-addresses"; do
		run -0 --separate-stderr "$PFMON" -e cpu-clock -F 1000 $args --report-format=json "$FIXTURES/hotspot" 50
		keys+=$(printf '%s\n' "$output" | jq -r '[paths | .[] | strings] | unique | .[]')$'\n'
	done
	for k in $(printf '%s\n' "$keys" | sort -u); do
		[ "$k" = cpu-clock ] && continue # an event's name, under "counts"
		grep -qE "(fB|^\.B )$k(\\\\f|\$)" <<<"$section" || { echo "key $k is not documented"; return 1; }
	done
}
