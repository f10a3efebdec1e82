#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --annotate: a hot function's source lines and instructions with their
# samples.  The instructions are checked against objdump -d (addresses and
# mnemonics), the counts against pfmon's own reports by function and by
# line and against perf annotate; which instruction gets the samples is
# never asserted (skid differs from CPU to CPU).

bats_require_minimum_version 1.5.0
load helpers

setup_file() {
	T="$BATS_FILE_TMPDIR"
	"$PFMON" -e task-clock --smpl-outfile="$T/hs.pfs" "$FIXTURES/hotspot" 300 >/dev/null 2>&1
	"$PFMON" -e task-clock --smpl-outfile="$T/cxx.pfs" "$FIXTURES/cxxhot" 300 >/dev/null 2>&1
	"$PFMON" -e task-clock --smpl-outfile="$T/moved.pfs" "$FIXTURES/hotspot_moved" 200 >/dev/null 2>&1
	if command -v perf >/dev/null 2>&1; then
		perf record -q -e task-clock -o "$T/perf.data" "$FIXTURES/hotspot" 300 >/dev/null 2>&1 ||
			rm -f "$T/perf.data"
	fi
}

setup() {
	T="$BATS_FILE_TMPDIR"
	command -v jq >/dev/null 2>&1 || skip "jq not installed"
}

# objdump_insns BINARY SYMBOL: "ADDRESS MNEMONIC" of each instruction of
# SYMBOL, objdump's Intel syntax (capstone's), segment and other prefixes
# objdump writes as words of their own dropped
objdump_insns() {
	objdump -d -M intel --no-show-raw-insn --disassemble="$2" "$1" |
		awk -F'\t' '/^ *[0-9a-f]+:\t/ {
			a = $1; sub(/^ */, "", a); sub(/:$/, "", a)
			n = split($2, w, " "); i = 1
			while (i < n && w[i] ~ /^(cs|ds|ss|es|fs|gs|data16|addr32|notrack|bnd)$/) i++
			print "0x" a, w[i] }'
}

# annotate_json FILE FUNCTION [OPTIONS...]: the one function's JSON object
annotate_json() {
	local f="$1" fn="$2"
	shift 2
	"$PFMON" --report="$f" --annotate="$fn" --report-format=json "$@" | jq -c '.events[0].functions[0]'
}

# function_samples FILE SYMBOL: the report by function's samples of SYMBOL
function_samples() {
	"$PFMON" --report="$1" --report-format=json |
		jq --arg s "$2" '[.events[0].entries[] | select(.symbol == $s) | .samples] | add // 0'
}

# check_function FILE BINARY SYMBOL NAME: NAME's (SYMBOL's) annotation of
# FILE: objdump's instructions, counts adding up to the report by function's
check_function() {
	local f="$1" bin="$2" sym="$3" name="$4" fn total
	fn=$(annotate_json "$f" "$name")
	[ "$(jq -r .function <<<"$fn")" = "$name" ]
	[ "$(jq -r .disassembler <<<"$fn")" = capstone ]
	diff <(objdump_insns "$bin" "$sym") <(jq -r '.instructions[] | "\(.address) \(.mnemonic)"' <<<"$fn")
	total=$(jq .samples <<<"$fn")
	[ "$total" -gt 0 ]
	[ "$(jq '[.instructions[].samples] | add' <<<"$fn")" -eq "$total" ]
	[ "$(jq .unattributed <<<"$fn")" -eq 0 ]
	[ "$(function_samples "$f" "$name")" -eq "$total" ]
}

@test "C: hot's instructions are objdump's; their samples add up to the report by function's" {
	check_function "$T/hs.pfs" "$FIXTURES/hotspot" hot hot
}

@test "C: each of hot's lines has the report by line's samples, and its instructions' sum" {
	fn=$(annotate_json "$T/hs.pfs" hot)
	src=$(jq -r .source_file <<<"$fn")
	[ "$src" -ef "$TESTS_SRCDIR/fixtures/hotspot.c" ]
	[ "$(jq -r .source_read <<<"$fn")" = "$src" ]
	lines=$("$PFMON" --report="$T/hs.pfs" --report-sort=line --report-format=json)
	read -r first last <<<"$(function_lines hotspot.c hot)"
	shown=0
	for l in $(seq "$first" "$last"); do
		want=$(jq --arg f "$src" --argjson l "$l" \
			'[.events[0].entries[] | select(.file == $f and .line == $l) | .samples] | add // 0' <<<"$lines")
		got=$(jq --argjson l "$l" '[.lines[] | select(.line == $l) | .samples] | add // 0' <<<"$fn")
		insns=$(jq --arg f "$src" --argjson l "$l" \
			'[.instructions[] | select(.file == $f and .line == $l) | .samples] | add // 0' <<<"$fn")
		[ "$got" -eq "$want" ] || { echo "line $l: $got samples, the report by line $want"; false; }
		[ "$insns" -eq "$got" ]
		shown=$((shown + got))
	done
	[ "$shown" -gt 0 ]
	# the text shows the hot line's source
	run -0 "$PFMON" --report="$T/hs.pfs" --annotate=hot
	[[ "$output" == *"sink += i * i; /* HOT LINE */"* ]]
	[[ "$output" == *"## hot ["*"hotspot]: $(jq .samples <<<"$fn") samples"* ]]
}

@test "C++: ns::Worker::spin's instructions are objdump's; samples add up" {
	check_function "$T/cxx.pfs" "$FIXTURES/cxxhot" _ZN2ns6Worker4spinEd 'ns::Worker::spin'
	# mangled, as --no-demangle names it
	fn=$(annotate_json "$T/cxx.pfs" _ZN2ns6Worker4spinEd --no-demangle)
	[ "$(jq -r .function <<<"$fn")" = _ZN2ns6Worker4spinEd ]
}

@test "the hottest functions by default, most samples first, their share of the event" {
	run -0 --separate-stderr "$PFMON" --report="$T/hs.pfs" --annotate --report-format=json
	n=$(jq '.events[0].functions | length' <<<"$output")
	[ "$n" -ge 1 ] && [ "$n" -le 3 ] || false
	jq -e '.events[0].functions | . == (sort_by(-.samples))' <<<"$output" >/dev/null
	all=$(jq '.events[0].samples' <<<"$output")
	[ "$all" -eq "$("$PFMON" --report="$T/hs.pfs" --report-format=json | jq '.events[0].samples')" ]
	run -0 --separate-stderr "$PFMON" --report="$T/hs.pfs" --annotate --smpl-show-top=1 --report-format=json
	[ "$(jq '.events[0].functions | length' <<<"$output")" -eq 1 ]
}

@test "perf.data: the same counts as the report by function and as perf annotate" {
	[ -f "$T/perf.data" ] || skip "perf record failed"
	check_function "$T/perf.data" "$FIXTURES/hotspot" hot hot
	total=$(annotate_json "$T/perf.data" hot | jq .samples)
	want=$(perf annotate --stdio -i "$T/perf.data" hot 2>/dev/null |
		sed -n 's/.*Source code & Disassembly of .* for task-clock (\([0-9]*\) samples.*/\1/p' | head -1)
	[ -n "$want" ] || skip "perf annotate printed no header"
	[ "$total" -eq "$want" ]
}

@test "a source file not found: a note and the instructions only; --source-root finds it" {
	run -0 --separate-stderr "$PFMON" --report="$T/moved.pfs" --annotate=hot
	[[ "${lines[2]}" == "# note: source file /nonexistent/moved-tree/hotspot.c not found"* ]]
	[[ "$output" != *"HOT LINE"* ]]
	[[ "$output" == *"/nonexistent/moved-tree/hotspot.c:"* ]]
	fn=$(annotate_json "$T/moved.pfs" hot 2>"$T/err")
	grep -q "^note: source file /nonexistent/moved-tree/hotspot.c not found" "$T/err"
	[ "$(jq -r .source_read <<<"$fn")" = null ]
	[ "$(jq '[.instructions[].samples] | add' <<<"$fn")" -eq "$(jq .samples <<<"$fn")" ]
	diff <(objdump_insns "$FIXTURES/hotspot_moved" hot) <(jq -r '.instructions[] | "\(.address) \(.mnemonic)"' <<<"$fn")
	# the tree moved to the fixtures' directory
	run -0 --separate-stderr "$PFMON" --report="$T/moved.pfs" --annotate=hot --source-root="$TESTS_SRCDIR/fixtures"
	[[ "$output" == *"sink += i * i; /* HOT LINE */"* ]]
	[[ "$output" != *"note:"* ]]
	fn=$(annotate_json "$T/moved.pfs" hot --source-root="$TESTS_SRCDIR/fixtures")
	[ "$(jq -r .source_read <<<"$fn")" -ef "$TESTS_SRCDIR/fixtures/hotspot.c" ]
}

# an Itanium 2 dump of samples in the IA-64 fixture: bundles 0 and 1 of
# ear_main and ear_leaf's first
ia64_dump() {
	fix="$FIXTURES/symbol/bin/ia64ear"
	command -v ia64-linux-gnu-objdump >/dev/null 2>&1 || skip "ia64-linux-gnu binutils not installed"
	[ -f "$fix" ] || skip "IA-64 fixture not built"
	main=$((0x$(ia64-linux-gnu-nm "$fix" | awk '$3 == "ear_main" { print $1 }')))
	{
		echo "pmc11=0x20008"
		echo "map=0x4000000000000000-0x4000000000010000:0:$fix"
		for o in 0 0x10 0x10 0x12 0x22 0x30; do
			printf 'ip=0x%x pmd2=0 pmd3=0 pmd17=0\n' $((main + o))
		done
	} >"$T/ia64.dump"
}

# ia64-linux-gnu-objdump's rows of FUNCTION as "bundle+slot mnemonic"
ia64_objdump_insns() {
	ia64-linux-gnu-objdump -d --no-show-raw-insn --disassemble="$2" "$1" |
		awk -F'\t' '/^[0-9a-f]+:\t/ {
			a = $1; sub(/:$/, "", a); sub(/^0+/, "", a); s = $2; sub(/^\[[A-Z_]*\]/, "", s); split(s, w, " ")
			off = substr(a, length(a)); slot = (off == "6") ? 1 : (off == "c") ? 2 : 0
			print "0x" substr(a, 1, length(a) - 1) slot, w[1] }'
}

@test "IA-64: bundles through binutils' objdump, slot by slot; samples add up" {
	ia64_dump
	run -0 --separate-stderr "$PFMON" --pmu=itanium2 --report="$T/ia64.dump" --annotate=ear_main --report-format=json
	fn=$(jq -c '.events[0].functions[0]' <<<"$output")
	[ "$(jq -r .disassembler <<<"$fn")" = objdump ]
	diff <(ia64_objdump_insns "$fix" ear_main) <(jq -r '.instructions[] | "\(.address) \(.mnemonic)"' <<<"$fn")
	[ "$(jq -r '[.instructions[] | select(.bundle) | .bundle] | join(",")' <<<"$fn")" = "MII,MIB,MIB" ]
	[ "$(jq .samples <<<"$fn")" -eq 5 ]
	[ "$(jq '[.instructions[].samples] | add' <<<"$fn")" -eq 5 ]
	# each instruction's line is ia64-linux-gnu-addr2line's
	for a in $(jq -r '.instructions[] | select(.samples > 0) | .address' <<<"$fn"); do
		want=$(ia64-linux-gnu-addr2line -e "$fix" "$a")
		got=$(jq -r --arg a "$a" '.instructions[] | select(.address == $a) | "\(.file):\(.line)"' <<<"$fn")
		[ "$got" = "$want" ] || { echo "$a: $got, addr2line $want"; false; }
	done
	# text: the template on each bundle's first slot
	run -0 --separate-stderr "$PFMON" --pmu=itanium2 --report="$T/ia64.dump" --annotate=ear_main
	[[ "$output" == *"[MIB]   ld8 r15=[r14]"* ]]
}

@test "IA-64: raw bundles without objdump; the dump's sample file the same; --source-root shows lines" {
	ia64_dump
	PFMON_IA64_OBJDUMP=/nonexistent/objdump run -0 --separate-stderr "$PFMON" --pmu=itanium2 \
		--report="$T/ia64.dump" --annotate=ear_main --report-format=json
	fn=$(jq -c '.events[0].functions[0]' <<<"$output")
	[ "$(jq -r .disassembler <<<"$fn")" = raw-bundles ]
	# three slots a bundle, the templates objdump prints
	[ "$(jq '.instructions | length' <<<"$fn")" -eq 9 ]
	[ "$(jq -r '[.instructions[] | select(.bundle) | .bundle] | join(",")' <<<"$fn")" = "MII,MIB,MIB" ]
	[ "$(jq '[.instructions[].samples] | add' <<<"$fn")" -eq 5 ]
	# the dump saved as a sample file, then annotated from it
	run -0 "$PFMON" --pmu=itanium2 --report="$T/ia64.dump" --smpl-outfile="$T/ia64.pfs"
	run -0 --separate-stderr "$PFMON" --report="$T/ia64.pfs" --annotate=ear_main --report-format=json
	[ "$(jq -c '.events[0].functions[0]' <<<"$output")" = "$(annotate_json_dump)" ]
	# the source, where --source-root says
	mkdir -p "$T/ia64src"
	for l in $(seq 1 40); do echo "/* earfix.c line $l */"; done >"$T/ia64src/earfix.c"
	run -0 --separate-stderr "$PFMON" --pmu=itanium2 --report="$T/ia64.dump" --annotate=ear_main \
		--source-root="$T/ia64src"
	[[ "$output" == *"      31  /* earfix.c line 31 */"* ]]
}

annotate_json_dump() {
	"$PFMON" --pmu=itanium2 --report="$T/ia64.dump" --annotate=ear_main --report-format=json |
		jq -c '.events[0].functions[0]'
}

@test "errors: a function without samples, other formats, --source-root alone" {
	run -1 --separate-stderr "$PFMON" --report="$T/hs.pfs" --annotate=no_such_function
	one_error_line "^error: --annotate=no_such_function: no sampled function has that name"
	run -2 --separate-stderr "$PFMON" --report="$T/hs.pfs" --annotate --report-format=folded
	one_error_line "^error: option '--annotate' is not used with --report-format=folded$"
	run -2 --separate-stderr "$PFMON" --report="$T/hs.pfs" --source-root=/tmp
	one_error_line "^error: option '--source-root' needs --annotate$"
	run -2 --separate-stderr "$PFMON" --report="$T/hs.pfs" --annotate --smpl-module=inst-hist
	one_error_line "^error: options '--annotate' and '--smpl-module' cannot be combined"
}
