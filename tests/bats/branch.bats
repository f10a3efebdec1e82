#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Branch stacks (LBR, AMD LBR; IA-64 BTB dumps): branch pairs, hot paths,
# mispredicted branches and BOLT's fdata.  No machine here has an LBR: a
# perf record file of tests/fixtures/branchloop is given the branch stacks
# an LBR would hold in its loop (perfdata_brstack.py, per the kernel's
# perf_branch_entry), checked by perf 6.1 first, then compared with pfmon.

bats_require_minimum_version 1.5.0
load helpers

setup_file() {
	T="$BATS_FILE_TMPDIR"
	command -v perf >/dev/null || return 0
	"$FIXTURES/branchloop" 0 >/dev/null
	echo $? >"$T/fixture.rc" # 77: not x86-64, no loop4
	perf record -q -e task-clock -c 250000 -o "$T/rec.data" "$FIXTURES/branchloop" 150 >"$T/labels" 2>/dev/null ||
		return 0
	for k in lbr lbr-nohw amd reserved; do
		python3 "$TESTS_SRCDIR/bats/perfdata_brstack.py" "$T/rec.data" "$T/$k.data" "$k" "$T/labels" >"$T/$k.n"
	done
	python3 "$TESTS_SRCDIR/bats/perfdata_brbe.py" "$T/rec.data" "$T/brbe.data" "$T/labels" >"$T/brbe.n"
}

setup() {
	W="$BATS_TEST_TMPDIR"
	[[ "$BATS_TEST_DESCRIPTION" != recording* ]] || return 0 # needs neither perf nor the files
	command -v perf >/dev/null || skip "perf is not installed"
	T="$BATS_FILE_TMPDIR"
	[ "$(cat "$T/fixture.rc")" != 77 ] || skip "loop4 is written for x86-64 only"
	[ -s "$T/labels" ] # branchloop ran under perf record
	W="$BATS_TEST_TMPDIR"
	n=$(cat "$T/lbr.n")
	[ "$n" -ge 10 ] # samples in loop4, each with 12 branches
}

# addr NAME: a label's address, as branchloop printed it
addr() {
	awk -v k="$1" '$1 == k { print $2 }' "$T/labels"
}

# off NAME: a label's offset in loop4, as "0x1c"
off() {
	printf '0x%x' $(($(addr "$1") - $(addr loop4)))
}

# perf script's pairs "from to count mispredicted avg-cycles", by symbol
perf_pairs() {
	perf script -i "$1" -F brstacksym 2>/dev/null | tr -s ' \t' '\n' | awk -F/ 'NF >= 6 {
		f = $1; t = $2; sub(/\+0x[0-9a-f]+$/, "", f); sub(/\+0x[0-9a-f]+$/, "", t)
		k = f " " t; n[k]++; m[k] += $3 == "M"; c[k] += $6; if ($6 > 0) tc[k]++ }
		END { for (k in n) printf "%s %d %d %.2f\n", k, n[k], m[k], tc[k] ? c[k] / tc[k] : 0 }' | sort
}

# pfmon's pairs in the same words: the binary after the function left out
pfmon_pairs() {
	"$PFMON" --report="$1" --report-sort=symbol_from,symbol_to --report-format=json |
		jq -r '.pairs[] | "\(.from) \(.to) \(.count) \(.mispredicted) \(.avg_cycles)"' |
		sed -E 's/ \([^ )]*\)//g' | awk '{ printf "%s %s %d %d %.2f\n", $1, $2, $3, $4, $5 }' | sort
}

@test "branch pairs by function equal perf script's, pair by pair (LBR with and without hw_idx, AMD LBR)" {
	for k in lbr lbr-nohw amd; do
		# perf reads the crafted file: 12 entries per sample, the types saved
		[ "$(perf script -i "$T/$k.data" -F brstack 2>/dev/null | wc -l)" = "$n" ]
		perf_pairs "$T/$k.data" >"$W/perf.$k"
		[ "$(wc -l <"$W/perf.$k")" = 1 ]
		[ "$(awk '{ print $3 }' "$W/perf.$k")" = $((12 * n)) ]
		pfmon_pairs "$T/$k.data" >"$W/pfmon.$k"
		diff "$W/perf.$k" "$W/pfmon.$k"
	done
	# perf report -b counts the same (it crashes on files with cycles: AMD's only)
	perf report -i "$T/amd.data" -b -n --sort symbol_from,symbol_to --stdio 2>/dev/null |
		awk '$0 !~ /^#/ && NF >= 6 { print $4, $6, $2 }' >"$W/report"
	[ "$(cat "$W/report")" = "loop4 loop4 $((12 * n))" ]
	# LBR: 8 back edges of 5 or 3 cycles, 2 conds of 2 (mispredicted), 2 jumps of 1
	[ "$(cat "$W/pfmon.lbr")" = "loop4 loop4 $((12 * n)) $((2 * n)) 3.50" ]
	[ "$(cat "$W/pfmon.amd")" = "loop4 loop4 $((12 * n)) $((2 * n)) 0.00" ]
}

@test "branch pairs by source line equal perf report -b --sort srcline_from,srcline_to" {
	for k in lbr lbr-nohw amd; do
		perf report -i "$T/$k.data" -b -n --sort srcline_from,srcline_to --stdio 2>/dev/null |
			awk '$0 ~ /^ +[0-9.]+%/ { print $3, $4, $2 }' | sort >"$W/perf"
		[ "$(wc -l <"$W/perf")" = 3 ]
		run -0 --separate-stderr "$PFMON" --report="$T/$k.data" --report-sort=srcline_from,srcline_to
		printf '%s\n' "$output" | awk '$0 !~ /^#/ { print $6, $8, $1 }' | sed -E 's|[^ ]*/||g' | sort >"$W/pfmon"
		diff "$W/perf" "$W/pfmon"
	done
	grep -q "^loop4.S:[0-9]* loop4.S:[0-9]* $((8 * n))$" "$W/pfmon"
}

# hot_paths FILE: "first last line count with-cycles avg-cycles" of each block
hot_paths() {
	"$PFMON" --report="$1" --report-sort=block --report-format=json |
		jq -r '.paths[] | "\(.first) \(.last) \(.line) \(.count) \(.with_cycles) \(.avg_cycles)"' |
		sed -E 's| [^ ]*/| |' | awk '{ printf "%s %s %s %s %s %.2f\n", $1, $2, $3, $4, $5, $6 }' | sort
}

# the source line of loop4.S's first instruction at or after LABEL
label_line() {
	awk -v l=".L$1:" '$1 == l { found = 1; next } found && $1 !~ /^\./ { print NR; exit }' \
		"$TESTS_SRCDIR/fixtures/loop4.S"
}

@test "hot paths of the known loop: each block between two taken branches counted exactly" {
	# per sample, two rounds of 4 iterations (the branch at cond taken in
	# the 4th): 11 blocks; [loop, back] 5 times (5 cycles), [loop, cond],
	# [rare, rarejmp] and [join, back] twice (2, 1 and 3 cycles)
	expect() {
		printf 'loop4+%s loop4+%s loop4.S:%s %s %s %s\n' \
			"$(off loop)" "$(off back)" "$(label_line loop)" $((5 * n)) $(($1 * 5 * n)) "$2" \
			"$(off loop)" "$(off cond)" "$(label_line loop)" $((2 * n)) $(($1 * 2 * n)) "$3" \
			"$(off rare)" "$(off rarejmp)" "$(label_line rare)" $((2 * n)) $(($1 * 2 * n)) "$4" \
			"$(off join)" "$(off back)" "$(label_line join)" $((2 * n)) $(($1 * 2 * n)) "$5" | sort
	}
	hot_paths "$T/lbr.data" >"$W/lbr"
	expect 1 5.00 2.00 1.00 3.00 >"$W/expected"
	diff "$W/expected" "$W/lbr"
	hot_paths "$T/lbr-nohw.data" | diff "$W/expected" -
	# AMD's LBR records no cycles: the same blocks, untimed
	hot_paths "$T/amd.data" >"$W/amd"
	expect 0 0.00 0.00 0.00 0.00 | diff - "$W/amd"
	# the text report: the same counts, the most run block first
	run -0 --separate-stderr "$PFMON" --report="$T/lbr.data" --report-sort=block
	[[ "${lines[1]}" == "# $n samples with a branch stack, $((12 * n)) taken branches ($((12 * n)) with cycles), $((11 * n)) blocks" ]]
	[[ "${lines[3]}" =~ ^\ +$((5 * n))\ +45\.45%\ +5\.0\ +loop4\+$(off loop)\.\.loop4\+$(off back)\ .*loop4\.S:$(label_line loop)$ ]]
}

@test "mispredicted branches by cost: count x cycles, cycles or not" {
	run -0 --separate-stderr "$PFMON" --report="$T/lbr.data" --report-sort=mispredict --report-format=json
	[ "$(jq -r '.mispredicted[] | "\(.from) \(.to) \(.count) \(.mispredicted) \(.cost)"' <<<"$output")" = \
		"loop4+$(off cond) loop4+$(off rare) $((2 * n)) $((2 * n)) $((4 * n))" ]
	run -0 --separate-stderr "$PFMON" --report="$T/amd.data" --report-sort=mispredict
	[ "${#lines[@]}" = 4 ]
	[[ "${lines[3]}" =~ \ $((2 * n))\.0\ +loop4\+$(off cond)\ -\>\ loop4\+$(off rare)$ ]]
}

@test "fdata: the taken branches as perf2bolt writes them, offsets in their function" {
	"$PFMON" --report="$T/lbr.data" --report-format=fdata | sort >"$W/fdata"
	o() { printf '%x' $(($(addr "$1") - $(addr loop4))); }
	printf '%s\n' "1 loop4 $(o back) 1 loop4 $(o loop) 0 $((8 * n))" \
		"1 loop4 $(o cond) 1 loop4 $(o rare) $((2 * n)) $((2 * n))" \
		"1 loop4 $(o rarejmp) 1 loop4 $(o join) 0 $((2 * n))" | sort | diff - "$W/fdata"
}

@test "fdata read by llvm-bolt: the profile of loop4 found" {
	bolt=$(command -v llvm-bolt llvm-bolt-16 llvm-bolt-15 /usr/lib/llvm-1[56]/bin/llvm-bolt 2>/dev/null | head -1)
	[ -n "$bolt" ] || skip "llvm-bolt is not installed (Debian: bolt-16 or bolt-15)"
	"$PFMON" --report="$T/lbr.data" --report-format=fdata >"$W/prof.fdata"
	run -0 "$bolt" "$FIXTURES/branchloop" -o "$W/bolted" -data="$W/prof.fdata" -dyno-stats
	[[ "$output" == *"BOLT-INFO: 1 out of "*" functions in the binary"*"have non-empty execution profile"* ]]
}

@test "perf flag bits no kernel defines: counted and named in one note" {
	run -0 --separate-stderr "$PFMON" --report="$T/reserved.data" --report-sort=symbol_from,symbol_to
	[ "$stderr" = "note: $((2 * n)) branches have perf flag bits no known kernel defines (bit 40): a newer kernel's fields, not read" ]
	# the branches themselves read as without them
	pfmon_pairs "$T/reserved.data" | diff <(pfmon_pairs "$T/lbr.data") -
	run -0 --separate-stderr "$PFMON" --report="$T/reserved.data" --report-sort=block --report-format=json
	[ "$(jq -r '"\(.reserved_flag_branches) \(.reserved_flag_bits)"' <<<"$output")" = "$((2 * n)) 0x10000000000" ]
	run -0 --separate-stderr "$PFMON" --report="$T/lbr.data" --report-sort=block
	[ -z "$stderr" ]
}

@test "branch pairs as folded stacks and a flame graph" {
	run -0 --separate-stderr "$PFMON" --report="$T/lbr.data" --report-sort=mispredict --report-format=folded
	[ "$output" = "loop4+$(off cond);loop4+$(off rare) $((2 * n))" ]
	run -0 --separate-stderr "$PFMON" --report="$T/lbr.data" --report-sort=symbol_from,symbol_to --report-format=svg
	[[ "$output" == "<?xml"* ]]
	[[ "$output" == *"loop4 (branchloop)"* ]]
}

@test "--export-perf-data writes the branch stacks: perf script -F brstack the same, filter and hw_idx kept" {
	for k in lbr lbr-nohw amd; do
		"$PFMON" --report="$T/$k.data" --export-perf-data="$W/$k.data"
		perf script -i "$T/$k.data" -F brstack 2>/dev/null >"$W/want"
		perf script -i "$W/$k.data" -F brstack 2>/dev/null >"$W/got"
		[ "$(wc -l <"$W/want")" = "$(cat "$T/$k.n")" ]
		cmp "$W/want" "$W/got"
		perf evlist -v -i "$T/$k.data" 2>/dev/null | grep -o 'branch_sample_type: [A-Z_|]*' >"$W/want"
		perf evlist -v -i "$W/$k.data" 2>/dev/null | grep -o 'branch_sample_type: [A-Z_|]*' >"$W/got"
		[ -s "$W/want" ]
		cmp "$W/want" "$W/got"
	done
}

# a branch report's rows "key... count mispredicted with_cycles", from its JSON
branch_rows() {
	jq -r '[.[] | arrays][0][] | ([to_entries[] | select(.value | type == "string") | .value] | join(" "))
		+ " \(.count) \(.mispredicted // 0) \(.with_cycles)"'
}

@test "--merge with a branch sort: each row the sum of the files' rows (pairs, lines, blocks, mispredicted)" {
	for s in symbol_from,symbol_to srcline_from,srcline_to block mispredict; do
		for k in lbr lbr-nohw amd; do
			"$PFMON" --report-sort=$s --report-format=json --report="$T/$k.data" | branch_rows
		done | awk '{ c = $(NF - 2); m = $(NF - 1); y = $NF; NF -= 3; n[$0] += c; mp[$0] += m; wc[$0] += y }
			END { for (k in n) print k, n[k], mp[k], wc[k] }' | sort >"$W/want"
		"$PFMON" --report-sort=$s --report-format=json --merge "$T/lbr.data" "$T/lbr-nohw.data" "$T/amd.data" |
			branch_rows | sort >"$W/got"
		[ "$(wc -l <"$W/want")" -ge 1 ]
		diff "$W/want" "$W/got"
	done
}

@test "--report-format=brstack: each sample's stack as perf script -F brstack prints it (LBR, AMD, Arm BRBE)" {
	perf report --header-only -i "$T/brbe.data" 2>/dev/null | grep -qx '# arch : aarch64'
	for k in lbr lbr-nohw amd brbe; do
		perf script -i "$T/$k.data" -F brstack 2>/dev/null >"$W/want"
		"$PFMON" --report="$T/$k.data" --report-format=brstack >"$W/got"
		[ "$(wc -l <"$W/want")" = "$(cat "$T/$k.n")" ]
		cmp "$W/want" "$W/got"
	done
	# BRBE's stack names every branch type, the new types of EXTEND_ABI too,
	# with spec and priv set in its entries (perf 6.1 prints neither)
	[ "$(head -1 "$W/got" | tr -s ' ' '\n' | awk -F/ 'NF == 7 && $7 != "" { print $7 }' | sort -u | wc -l)" = 22 ]
}

@test "a file without branch stacks: an empty branch report, said so" {
	run -0 --separate-stderr "$PFMON" --report="$T/rec.data" --report-sort=symbol_from,symbol_to
	[ "${lines[1]}" = "# 0 samples with a branch stack, 0 taken branches (0 with cycles), 0 blocks" ]
	[ "${#lines[@]}" = 3 ]
}

@test "recording: branch stacks refused in one line naming what is missing, the attr encoded as perf's filter says" {
	for args in "-b" "--branch-filter=any_call,any_ret,u,save_type" "--smpl-module=btb"; do
		rm -f "$W/attrs"
		PFMON_DUMP_ATTR="$W/attrs" run --separate-stderr "$PFMON" $args -e task-clock --smpl-outfile="$W/s.pfs" true
		if [ "$status" = 0 ]; then
			false # a software event never has a branch stack
		elif hw_pmu_present; then
			one_error_line "^error: cannot sample 'task-clock': a software event has no branch stack: sample a hardware event \(-e cycles\) for one$"
		else
			one_error_line "^error: cannot sample 'task-clock': branch stacks need a branch-stack PMU \(Intel LBR, AMD LBR v2, Arm BRBE\), and this machine has no hardware PMU \(as in most VMs\)$"
		fi
		[ "$status" = 1 ]
		# PERF_SAMPLE_BRANCH_STACK, with the filter's bits (ANY 0x8; ANY_CALL 0x10 | ANY_RETURN 0x20
		# | USER 0x1 | TYPE_SAVE 0x10000)
		st=$(grep -o 'sample_type=0x[0-9a-f]*' "$W/attrs" | head -1 | cut -d= -f2)
		[ $((st & 0x800)) != 0 ]
		case $args in
		--branch-filter=*) grep -q "branch_sample_type=0x10031 " "$W/attrs" ;;
		*) grep -q "branch_sample_type=0x8 " "$W/attrs" ;;
		esac
	done
	# pfmon 3.x's btb module is a report's when reading a file, and needs samples
	run -2 --separate-stderr "$PFMON" --smpl-module=btb -e task-clock true
	one_error_line "^error: option '--smpl-module' is not used when counting \(it is for sampling and --report\)$"
}

# perf -vv's attr field NAME as bits: the names of perf's sample_type and
# branch_sample_type (perf 6.1, util/perf_event_attr_fprintf.c)
perf_attr_bits() {
	local v=0 b
	for b in $(awk -v k="$1" '$1 == k { print $2; exit }' "$2" | tr '|' ' '); do
		case $b in
		IP) v=$((v | 0x1)) ;; TID) v=$((v | 0x2)) ;; TIME) v=$((v | 0x4)) ;; ADDR) v=$((v | 0x8)) ;;
		READ) v=$((v | 0x10)) ;; CALLCHAIN) v=$((v | 0x20)) ;; ID) v=$((v | 0x40)) ;; CPU) v=$((v | 0x80)) ;;
		PERIOD) v=$((v | 0x100)) ;; BRANCH_STACK) v=$((v | 0x800)) ;; IDENTIFIER) v=$((v | 0x10000)) ;;
		USER) v=$((v | 0x1)) ;; KERNEL) v=$((v | 0x2)) ;; HV) v=$((v | 0x4)) ;; ANY) v=$((v | 0x8)) ;;
		CALL_STACK) v=$((v | 0x800)) ;; NO_FLAGS) v=$((v | 0x4000)) ;; NO_CYCLES) v=$((v | 0x8000)) ;;
		HW_INDEX) v=$((v | 0x20000)) ;; *) echo "unknown bit $b" >&2; return 1 ;;
		esac
	done
	echo $v
}

@test "recording: --call-graph=lbr encodes perf record --call-graph lbr's attr, refused in one line without an LBR" {
	PFMON_DUMP_ATTR="$W/attrs" run --separate-stderr "$PFMON" --call-graph=lbr -e task-clock \
		--smpl-outfile="$W/s.pfs" true
	[ "$status" = 1 ] # a software event has no LBR, whatever the machine
	if hw_pmu_present; then
		one_error_line "^error: cannot sample 'task-clock': a software event has no branch stack: sample a hardware event \(-e cycles\) for one$"
	else
		one_error_line "^error: cannot sample 'task-clock': --call-graph=lbr needs LBR call stacks \(Intel, Haswell or later\), and this machine has no hardware PMU \(as in most VMs\)$"
	fi
	st=$(grep -o 'sample_type=0x[0-9a-f]*' "$W/attrs" | head -1 | cut -d= -f2)
	bt=$(grep -o 'branch_sample_type=0x[0-9a-f]*' "$W/attrs" | head -1 | cut -d= -f2)
	# CALLCHAIN | BRANCH_STACK; USER | CALL_STACK | NO_FLAGS | NO_CYCLES | HW_INDEX
	[ $((st & 0x820)) = $((0x820)) ]
	[ $((bt)) = $((0x2c801)) ]
	command -v perf >/dev/null || skip "perf is not installed: no attr of perf's to compare"
	perf record -e task-clock --call-graph lbr -vv -o "$W/p.data" true >"$W/perf.txt" 2>&1 || true
	grep -q '^  branch_sample_type ' "$W/perf.txt" || skip "perf printed no attr"
	[ "$(perf_attr_bits branch_sample_type "$W/perf.txt")" = $((bt)) ]
	pst=$(perf_attr_bits sample_type "$W/perf.txt")
	[ $((pst & 0x820)) = $((0x820)) ]
	[ $((pst & ~st)) = 0 ] # perf's fields are pfmon's (pfmon adds IDENTIFIER and CPU)
	# an event without user level: frame pointers' chains, as perf falls back to
	PFMON_DUMP_ATTR="$W/k" run -0 --separate-stderr "$PFMON" --call-graph=lbr -e task-clock:k \
		--smpl-outfile="$W/k.pfs" true
	grep -q 'branch_sample_type=0 ' "$W/k"
	kst=$(grep -o 'sample_type=0x[0-9a-f]*' "$W/k" | head -1 | cut -d= -f2)
	[ $((kst & 0x820)) = $((0x20)) ]
	# with -b: refused (perf falls back to frame pointers, silently to a script)
	run -2 --separate-stderr "$PFMON" --call-graph=lbr -b --smpl-outfile="$W/s.pfs" true
	one_error_line "^error: options '--call-graph=lbr' and '-b/--branch-filter' cannot be combined \(the LBR holds the call stack or the branches, not both\)$"
}
