#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Itanium 2 PMD dumps (--pmu=itanium2 --report=DUMP): decoded, symbolized
# against an IA-64 fixture and cross-checked with ia64-linux-gnu-addr2line.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	fix="$FIXTURES/symbol/bin/ia64ear"
	dump="$BATS_TEST_TMPDIR/run.dump"
}

need_fixture() {
	command -v ia64-linux-gnu-addr2line >/dev/null 2>&1 || skip "ia64-linux-gnu binutils not installed"
	[ -f "$fix" ] || skip "IA-64 fixture not built"
	command -v jq >/dev/null 2>&1 || skip "jq not installed"
}

# a D-EAR (cache mode) and BTB dump whose addresses land in the fixture:
# ip = ear_main bundle 1 slot 0 (the load), data at table+0x10 and
# buffer+0x20 (.bss), PMD17 = ear_main bundle 0 with bn=1 slot 0 vl=1,
# BTB: the loop branch (bundle 2, slot 2, taken) then its target ear_main
write_dump() {
	main=0x$(ia64-linux-gnu-nm "$fix" | awk '$3 == "ear_main" { print $1 }')
	cat > "$dump" <<EOD
# D-EAR cache mode (PMC11 mode 00), BTB ds=0
pmc11=0x20008 pmc12=0x3f08
map=0x4000000000000000-0x4000000000010000:0:$fix
map=0x6000000000000000-0x6000000000010000:0:$fix
ip=$(printf 0x%x $((main + 0x10))) pid=7 tid=8 cpu=1 time=1000 period=2000 pmd2=0x6000000000000110 pmd3=0x4021 pmd17=$(printf 0x%x $((main | 0xc))) pmd8=$(printf 0x%x $((main + 0x20 + 0x9))) pmd9=$(printf 0x%x $((main | 0x2))) pmd10=0 pmd11=0 pmd12=0 pmd13=0 pmd14=0 pmd15=0 pmd16=2
ip=$(printf 0x%x $((main + 0x12))) pmd2=0x6000000000000220 pmd3=0x8000 pmd17=0 pmd8=0 pmd9=0 pmd10=0 pmd11=0 pmd12=0 pmd13=0 pmd14=0 pmd15=0 pmd16=0
EOD
}

@test "dump JSON: decoded fields, symbols and lines agree with ia64-linux-gnu-addr2line" {
	need_fixture
	write_dump
	run -0 --separate-stderr "$PFMON" --pmu=itanium2 --report="$dump" --smpl-module=detailed --report-format=json
	[ "${#lines[@]}" -eq 2 ]
	first=${lines[0]}
	[ "$(jq -r .ip_symbol <<<"$first")" = "ear_main+0x10" ]
	ip=$(jq -r .ip <<<"$first")
	want=$(ia64-linux-gnu-addr2line -e "$fix" "$ip")
	[ "$(jq -r .ip_line <<<"$first")" = "$want" ]
	[ "$(jq -r '.pid, .tid, .cpu, .time' <<<"$first" | tr '\n' ' ')" = "7 8 1 1000 " ]
	[ "$(jq -r '.dear.mode, .dear.valid, .dear.latency, .dear.overflow' <<<"$first" | tr '\n' ' ')" = "cache true 33 false " ]
	[ "$(jq -r .dear.data_address_symbol <<<"$first")" = "table+0x10" ]
	[ "$(jq -r .dear.tlb <<<"$first")" = "null" ]
	# PMD17: bn=1 -> the second bundle, slot 0: the load
	iaddr=$(jq -r .dear.instruction_address <<<"$first")
	[ "$(jq -r .dear.instruction_address_symbol <<<"$first")" = "ear_main+0x10" ]
	[ "$(jq -r .dear.instruction_address_line <<<"$first")" = "$(ia64-linux-gnu-addr2line -e "$fix" "$iaddr")" ]
	[[ "$(jq -r '.dear.instruction_address_line' <<<"$first")" == */earfix.c:31 ]]
	# BTB: the loop branch (slot 2) and its target, paired
	[ "$(jq -r '.btb_entries | map(.kind) | join(",")' <<<"$first")" = "branch,target" ]
	[ "$(jq -r '.branches[0].source_symbol, .branches[0].target_symbol' <<<"$first" | tr '\n' ' ')" = "ear_main+0x22 ear_main " ]
	src=$(jq -r .branches[0].source <<<"$first")
	[ "$(jq -r .branches[0].source_line <<<"$first")" = "$(ia64-linux-gnu-addr2line -e "$fix" "$src")" ]
	# second sample: stat 10 is undefined in cache mode: not a capture, fields null
	second=${lines[1]}
	[ "$(jq -r '.dear.valid, .dear.data_address, .dear.latency, .pid' <<<"$second" | tr '\n' ' ')" = "false null null null " ]
	[ "$(jq -r '.btb_entries | length' <<<"$second")" = 0 ]
}

@test "dump detailed text: pfmon 3.x's entry lines with symbols" {
	need_fixture
	write_dump
	run -0 "$PFMON" --pmu=itanium2 --report="$dump"
	[[ "${lines[0]}" =~ ^"entry 0 PID:7 TID:8 CPU:1 STAMP:0x3e8 OVFL:- LAST_VAL:2000 SET:0 IIP:0x"[0-9a-f]{16}" <ear_main+0x10>"$ ]]
	[[ "$output" == *"PMD2  : miss addr=0x6000000000000110 <table+0x10>"* ]]
	[[ "$output" == *"PMD3  : valid=y, latency=33 cycles, latency overflow=n"* ]]
	[[ "$output" == *"slot 2 taken=y prediction=success <ear_main+0x22>"* ]]
	[[ "$output" == *"entry 1 PID:- TID:- CPU:- STAMP:- OVFL:- LAST_VAL:- SET:0"* ]]
}

@test "dump: .bss data objects name D-EAR data addresses" {
	need_fixture
	main=0x$(ia64-linux-gnu-nm "$fix" | awk '$3 == "ear_main" { print $1 }')
	printf 'pmc11=0x20088\nmap=0x6000000000000000-0x6000000000010000:0:%s\nip=%s pmd2=0x6000000000000220 pmd3=0xc000 pmd17=0\n' \
		"$fix" "$main" > "$dump"
	run -0 "$PFMON" --pmu=itanium2 --report="$dump" --report-format=json
	[ "$(jq -r '.dear.mode, .dear.tlb, .dear.data_address_symbol, .dear.instruction_address' <<<"$output" | tr '\n' ' ')" = "tlb FAULT buffer+0x20 null " ]
}

@test "dump: events= gives the PMCs --check computes" {
	printf 'events=DATA_EAR_TLB_ALL\nip=0x10 pmd2=0x1000 pmd3=0x4000 pmd17=0\n' > "$dump"
	run -0 "$PFMON" --pmu=itanium2 --report="$dump" --report-format=json
	[ "$(jq -r '.dear.mode, .dear.tlb' <<<"$output" | tr '\n' ' ')" = "tlb L2DTLB " ]
	# PMC12 = 0 (C-EAR-3) captures nothing: no BTB, so no PMD8-16 needed
	[ "$(jq -r 'has("btb_entries")' <<<"$output")" = false ]
	printf 'events=NO_SUCH_EVENT\nip=0x10\n' > "$dump"
	run -2 --separate-stderr "$PFMON" --pmu=itanium2 --report="$dump"
	one_error_line "unknown event 'NO_SUCH_EVENT'"
}

@test "dump: btb-* keys are the model's --btb-* options, unknown ones named by line" {
	# the key reaches the model: its rule C-EAR-3 refuses the BTB with a TLB-mode D-EAR
	printf 'events=DATA_EAR_TLB_ALL btb-tm-tk=1\nip=0x10 pmd2=0x1000 pmd3=0x4000 pmd17=0\n' > "$dump"
	run -1 --separate-stderr "$PFMON" --pmu=itanium2 --report="$dump"
	one_error_line "cannot be used with the BTB .PMC12. .rule C-EAR-3.$"
	printf 'events=DATA_EAR_TLB_ALL btb-tm-tk=0\nip=0x10 pmd2=0x1000 pmd3=0x4000 pmd17=0\n' > "$dump"
	run -0 "$PFMON" --pmu=itanium2 --report="$dump"
	printf 'events=BRANCH_EVENT btb-tm-bogus=1\nip=0x10\n' > "$dump"
	run -1 --separate-stderr "$PFMON" --pmu=itanium2 --report="$dump"
	one_error_line "^error: '.*run.dump' line 1: unknown key 'btb-tm-bogus'$"
	# a key given twice, as any other key
	printf 'events=BRANCH_EVENT btb-tm-tk=1\nbtb-tm-tk=1\nip=0x10\n' > "$dump"
	run -1 --separate-stderr "$PFMON" --pmu=itanium2 --report="$dump"
	one_error_line "^error: '.*run.dump' line 2: key given twice: 'btb-tm-tk=1'$"
}

@test "dump: a malformed line is one error naming the line and the token" {
	printf '# c\npmc11=0x20008\nip=0x10 pmd2=0x1 pmd3=0x4zz pmd17=0\n' > "$dump"
	run -1 --separate-stderr "$PFMON" --pmu=itanium2 --report="$dump"
	one_error_line "^error: '.*run.dump' line 3: invalid number in 'pmd3=0x4zz'$"
	run -1 --separate-stderr "$PFMON" --pmu=itanium2 --report="$BATS_TEST_TMPDIR/missing"
	one_error_line "^error: cannot read '.*missing': No such file or directory$"
}

@test "--smpl-module: unknown modules and other modes are refused" {
	printf 'ip=0x10\n' > "$dump"
	run -2 --separate-stderr "$PFMON" --pmu=itanium2 --report="$dump" --smpl-module=nosuch
	one_error_line "unknown sampling module"
	# a live run takes a module when it samples (sample.bats), not when it counts
	run -2 --separate-stderr "$PFMON" --smpl-module=detailed true
	one_error_line "^error: option '--smpl-module' is not used when counting \(it is for sampling and --report\)$"
	run -2 --separate-stderr "$PFMON" --pmu=itanium2 --report="$dump" --report-format=folded
	one_error_line "text or json"
}

# three D-EAR samples in cache mode at two instructions of ear_main:
# latencies 5 (L2), 12 (L3) and 200 (RAM); data in table and buffer; the
# BTB of each: the loop branch (slot 2) to ear_main, mispredicted in one
write_hist_dump() {
	main=0x$(ia64-linux-gnu-nm "$fix" | awk '$3 == "ear_main" { print $1 }')
	br=$(printf 0x%x $((main + 0x20 + 0x9)))
	brmp=$(printf 0x%x $((main + 0x20 + 0xb)))
	tg=$(printf 0x%x $((main | 0x2)))
	btb="pmd10=0 pmd11=0 pmd12=0 pmd13=0 pmd14=0 pmd15=0 pmd16=2"
	cat > "$dump" <<EOD
pmc11=0x20008 pmc12=0x3f08
map=0x4000000000000000-0x4000000000010000:0:$fix
map=0x6000000000000000-0x6000000000010000:0:$fix
ip=$main pid=1 period=100 pmd2=0x6000000000000110 pmd3=0x4005 pmd17=$(printf 0x%x $((main | 0x8))) pmd8=$br pmd9=$tg $btb
ip=$main pid=1 period=100 pmd2=0x6000000000000110 pmd3=0x400c pmd17=$(printf 0x%x $((main | 0x8))) pmd8=$brmp pmd9=$tg $btb
ip=$main pid=1 period=100 pmd2=0x6000000000000220 pmd3=0x40c8 pmd17=$(printf 0x%x $((main + 0x10 | 0x9))) pmd8=$br pmd9=$tg $btb
ip=$main pid=1 period=100 pmd2=0 pmd3=0x8000 pmd17=0 pmd8=0 pmd9=0 $btb
EOD
}

@test "dear-hist: %L2 %L3 %RAM by latency bucket, per instruction, data and level" {
	need_fixture
	write_hist_dump
	run -0 "$PFMON" --pmu=itanium2 --report="$dump" --smpl-module=dear-hist
	[[ "$output" == *"# samples without a captured miss (not counted) 1"* ]]
	[[ "$output" == *"# L2   : latency up to 6 cycles"* ]]
	row=$(grep -E '^ +2 ' <<<"$output")
	[[ "$row" =~ ^" "+"2  66.67%  66.67%  50.00%  50.00%   0.00% 0x"[0-9a-f]{16}" ear_main"$ ]]
	row=$(grep -E '^ +1 ' <<<"$output")
	[[ "$row" =~ "33.33% 100.00%   0.00%   0.00% 100.00% 0x"[0-9a-f]{16}" ear_main+0x11"$ ]]
	run -0 "$PFMON" --pmu=itanium2 --report="$dump" --smpl-module=dear-hist --smpl-data-view
	[[ "$output" == *"0x6000000000000110 table+0x10"* ]]
	[[ "$output" == *"0x6000000000000220 buffer+0x20"* ]]
	run -0 "$PFMON" --pmu=itanium2 --report="$dump" --smpl-module=dear-hist --smpl-level-view --smpl-sort-byvalue
	[ "$(grep -vE '^#' <<<"$output" | awk '{ print $4 }' | tr '\n' ' ')" = "5 12 200 " ]
	# by level: the RAM row (1 x 150 cycles) before the L2+L3 row (5 + 10)
	run -0 "$PFMON" --pmu=itanium2 --report="$dump" --smpl-module=dear-hist --smpl-sort-bylevel
	[[ "$(grep -vE '^#' <<<"$output" | head -1)" == *"ear_main+0x11" ]]
	# the cumulative threshold stops before the row that crosses it
	run -0 "$PFMON" --pmu=itanium2 --report="$dump" --smpl-module=dear-hist --smpl-cum-threshold=50
	[ "$(grep -vcE '^#' <<<"$output")" = 0 ]
	run -0 "$PFMON" --pmu=itanium2 --report="$dump" --smpl-module=dear-hist --smpl-cum-threshold=67
	[ "$(grep -vcE '^#' <<<"$output")" = 1 ]
	run -0 "$PFMON" --pmu=itanium2 --report="$dump" --smpl-module=dear-hist --smpl-show-top=1
	[ "$(grep -vcE '^#' <<<"$output")" = 1 ]
}

@test "btb module: one line per branch, then the pairs with their mispredicts" {
	need_fixture
	write_hist_dump
	run -0 "$PFMON" --pmu=itanium2 --report="$dump" --smpl-module=btb
	[ "${lines[0]}" = "# btb only sampling output format (1 branch event/line)" ]
	src=$(printf 0x%016x $((main + 0x22)))
	[ "${lines[1]}" = "$src $(printf 0x%016x $main)" ]
	[ "$(grep -c "^$src " <<<"$output")" = 3 ]
	[[ "$output" == *"# branch pairs: 1 distinct, 3 branches"* ]]
	[[ "$output" =~ "3 100.00% 100.00%        1 $src" ]]
	[[ "$output" == *"ear_main+0x22 -> ear_main"* ]]
}

@test "compact and inst-hist: a row per sample, the IIP histogram, --smpl-print-counts" {
	need_fixture
	write_hist_dump
	run -0 "$PFMON" --pmu=itanium2 --report="$dump" --smpl-module=compact
	[ "$(grep -cvE '^#' <<<"$output")" = 4 ]
	[[ "$output" =~ "0        1 - - - - 100 0 0x"[0-9a-f]{16}" PMD2=0x6000000000000110 PMD3=0x0000000000004005" ]]
	[ "${lines[-1]}" = "# total samples 4" ]
	run -0 "$PFMON" --pmu=itanium2 --report="$dump" --smpl-compact
	[ "$(grep -cvE '^#' <<<"$output")" = 4 ]
	run -0 "$PFMON" --pmu=itanium2 --report="$dump" --smpl-module=inst-hist --smpl-print-counts
	[[ "$output" =~ "4 100.00% 100.00% 0x"[0-9a-f]{16}" ear_main" ]]
	[[ "$output" == *"                   4 samples"* ]]
	[[ "$output" == *"                 400 sum of the sample periods (period=)"* ]]
}

@test "sampling modules: -S describes one; options that do not apply are refused" {
	run -0 "$PFMON" -S dear-hist
	[ "${lines[0]}" = "name        : dear-hist" ]
	[[ "$output" == *"--smpl-level-view"* ]]
	run -2 --separate-stderr "$PFMON" -S nosuch
	one_error_line "unknown sampling module"
	printf 'pmc12=0x3f08\nip=0x10 pmd8=0 pmd9=0 pmd10=0 pmd11=0 pmd12=0 pmd13=0 pmd14=0 pmd15=0 pmd16=0\n' > "$dump"
	run -2 --separate-stderr "$PFMON" --pmu=itanium2 --report="$dump" --smpl-module=dear-hist
	one_error_line "dear-hist module needs D-EAR samples"
	run -2 --separate-stderr "$PFMON" --pmu=itanium2 --report="$dump" --smpl-module=btb --smpl-data-view
	one_error_line "^error: option '--smpl-\\*-view' applies to the dear-hist module$"
	run -2 --separate-stderr "$PFMON" --pmu=itanium2 --report="$dump" --smpl-module=detailed --smpl-compact
	one_error_line "applies to the inst-hist module"
	run -2 --separate-stderr "$PFMON" --pmu=itanium2 --report="$dump" --smpl-module=btb --report-format=json
	one_error_line "detailed and c2c modules"
	run -2 --separate-stderr "$PFMON" --smpl-inst-view --smpl-data-view --pmu=itanium2 --report="$dump"
	one_error_line "^error: options '--smpl-inst-view' and '--smpl-data-view' cannot be combined: give one view$"
	run -2 --separate-stderr "$PFMON" --smpl-print-counts true
	one_error_line "^error: option '--smpl-print-counts' is not used when counting"
}

@test "dump: a map= file that cannot be opened is reported once, by name" {
	printf 'map=0x1000-0x2000:0:/nonexistent/prog\nmap=0x3000-0x4000:0:/nonexistent/prog\nip=0x1010\nip=0x3010\n' > "$dump"
	run -0 --separate-stderr "$PFMON" --pmu=itanium2 --report="$dump" --smpl-module=inst-hist
	[ "$stderr" = "warning: map= line 1: cannot open '/nonexistent/prog': No such file or directory; its addresses get no symbols" ]
	[[ "$output" == *"# total samples          : 2"* ]]
}

# same_outputs OPTIONS...: the dump's report and the report of its sample
# file (saved by the same command) are byte for byte the same, stderr too
# (but for where a map comes from: a dump's line, the file's record)
same_outputs() {
	local pfs="$BATS_TEST_TMPDIR/saved.pfs"

	rm -f "$pfs"
	"$PFMON" --pmu=itanium2 --report="$dump" --smpl-outfile="$pfs" "$@" \
		>"$BATS_TEST_TMPDIR/dump.out" 2>"$BATS_TEST_TMPDIR/dump.err"
	"$PFMON" --report="$pfs" "$@" >"$BATS_TEST_TMPDIR/file.out" 2>"$BATS_TEST_TMPDIR/file.err"
	[ -s "$BATS_TEST_TMPDIR/dump.out" ]
	diff "$BATS_TEST_TMPDIR/dump.out" "$BATS_TEST_TMPDIR/file.out"
	sed 's/^warning: map= line [0-9]*:/warning: mapping record:/' "$BATS_TEST_TMPDIR/dump.err" |
		diff - "$BATS_TEST_TMPDIR/file.err"
}

@test "--smpl-outfile: a dump's sample file reports exactly as the dump, every module" {
	need_fixture
	write_dump
	# and samples without pid/tid/cpu/time/period, one more map after them
	main=0x$(ia64-linux-gnu-nm "$fix" | awk '$3 == "ear_main" { print $1 }')
	for i in 1 2 3 4 5 6 7 8 9; do
		echo "ip=$(printf 0x%x $((main + 0x10 * (i % 3)))) pmd2=$(printf 0x%x $((0x6000000000000100 + 8 * i))) pmd3=$(printf 0x%x $((0x4000 + 4 * i))) pmd17=$(printf 0x%x $((main | 0x8 | (i % 3)))) pmd8=$(printf 0x%x $((main + 0x29))) pmd9=$(printf 0x%x $((main | 0x2))) pmd10=0 pmd11=0 pmd12=0 pmd13=0 pmd14=0 pmd15=0 pmd16=$((i % 4)) pmd5=$i"
	done >> "$dump"
	echo "map=0x8000000000000000-0x8000000000001000:0x10:$fix" >> "$dump"
	echo "ip=0x8000000000000010 cpu=3 pmd2=0 pmd3=0 pmd17=0 pmd8=0 pmd9=0 pmd10=0 pmd11=0 pmd12=0 pmd13=0 pmd14=0 pmd15=0 pmd16=0" >> "$dump"
	same_outputs
	same_outputs --smpl-module=detailed
	same_outputs --smpl-module=detailed --report-format=json
	same_outputs --smpl-module=compact --smpl-print-counts
	same_outputs --smpl-compact
	same_outputs --smpl-module=inst-hist --smpl-show-top=2
	same_outputs --smpl-module=btb --smpl-cum-threshold=50
	for view in inst data level; do
		for sort in "" --smpl-sort-byvalue --smpl-sort-bylevel; do
			same_outputs --smpl-module=dear-hist --smpl-$view-view $sort
		done
	done
	# the file is format 1.7 (1.3 added dumps); the PMCs are kept, not recomputed
	[ "$(od -An -tu2 -j8 -N4 "$BATS_TEST_TMPDIR/saved.pfs" | tr -s ' ')" = " 1 7" ]
}

@test "--smpl-outfile: I-EAR and BTB detail dumps, events= and a map that cannot be opened" {
	need_fixture
	main=0x$(ia64-linux-gnu-nm "$fix" | awk '$3 == "ear_main" { print $1 }')
	# I-EAR cache mode and the BTB with ds=1 (prediction detail)
	cat > "$dump" <<EOD
pmc10=0x10 pmc12=0x3f18
map=0x4000000000000000-0x4000000000010000:0:$fix
map=0x6000000000000000-0x6000000000010000:0:$BATS_TEST_TMPDIR/gone
ip=$main pid=1 tid=1 pmd0=$(printf 0x%x $((main | 0x3))) pmd1=0x1fff pmd8=$(printf 0x%x $((main + 0x29))) pmd9=0x12345 pmd10=0 pmd11=0 pmd12=0 pmd13=0 pmd14=0 pmd15=0 pmd16=0x6
ip=0x6000000000000010 pid=2 tid=2 pmd0=0x6000000000000011 pmd1=0x5 pmd8=0 pmd9=0 pmd10=0 pmd11=0 pmd12=0 pmd13=0 pmd14=0 pmd15=0 pmd16=0
EOD
	same_outputs
	same_outputs --report-format=json
	same_outputs --smpl-module=btb
	grep -q "cannot open '$BATS_TEST_TMPDIR/gone'" "$BATS_TEST_TMPDIR/file.err"
	# events=: the file keeps the PMCs the model computed
	printf 'events=DATA_EAR_TLB_ALL\nip=0x10 pmd2=0x1000 pmd3=0x4000 pmd17=0\n' > "$dump"
	same_outputs
	same_outputs --smpl-module=dear-hist --smpl-level-view
}

@test "--smpl-outfile: a malformed dump leaves no file; other modes and files refuse it" {
	printf 'pmc11=0x20008\nip=0x10 pmd2=0x1 pmd3=0x4 pmd17=0\nip=0x10 pmd2=0x1 pmd3=0x4zz pmd17=0\n' > "$dump"
	run -1 --separate-stderr "$PFMON" --pmu=itanium2 --report="$dump" --smpl-outfile="$BATS_TEST_TMPDIR/bad.pfs"
	[ "$stderr" = "pfmon: '$dump' line 3: invalid number in 'pmd3=0x4zz'" ] || [[ "$stderr" == *"line 3"*"pmd3=0x4zz"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/bad.pfs" ]
	# a host sample file cannot be "converted"
	"$PFMON" -e task-clock --smpl-outfile="$BATS_TEST_TMPDIR/host.pfs" "$FIXTURES/hotspot" 20 >/dev/null 2>&1
	run -2 --separate-stderr "$PFMON" --report="$BATS_TEST_TMPDIR/host.pfs" --smpl-outfile="$BATS_TEST_TMPDIR/x.pfs"
	[[ "$stderr" == *"'--smpl-outfile' needs --pmu=itanium2 with --report (it saves an Itanium 2 dump"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/x.pfs" ]
}

@test "a dump's sample file: the records in the wrong place are refused, named" {
	printf 'pmc11=0x20008\nip=0x10 pmd2=0x1 pmd3=0x4 pmd17=0\n' > "$dump"
	"$PFMON" --pmu=itanium2 --report="$dump" --smpl-outfile="$BATS_TEST_TMPDIR/d.pfs" >/dev/null
	# the same file is read by the dump's report, with or without --pmu=itanium2 given to it as a dump
	run -0 "$PFMON" --report="$BATS_TEST_TMPDIR/d.pfs" --smpl-module=compact
	[[ "${lines[-1]}" == "# total samples 1" ]]
	run -1 --separate-stderr "$PFMON" --pmu=itanium2 --report="$BATS_TEST_TMPDIR/d.pfs"
	[[ "$stderr" == *"line 1"* ]]
}

@test "--symbol-file and --sysmap-file name addresses no map covers; --print-syms; a bad System.map line" {
	need_fixture
	main=0x$(ia64-linux-gnu-nm "$fix" | awk '$3 == "ear_main" { print $1 }')
	printf 'pmc11=0x20008\nip=%s pmd2=0x6000000000000110 pmd3=0x4021 pmd17=0\n' "$(printf 0x%x $((main + 0x12)))" > "$dump"
	# without symbols: no names
	run -0 "$PFMON" --pmu=itanium2 --report="$dump"
	[[ "$output" != *"<"* ]]
	# a System.map: nm's own output
	ia64-linux-gnu-nm "$fix" > "$BATS_TEST_TMPDIR/System.map"
	run -0 --separate-stderr "$PFMON" --pmu=itanium2 --report="$dump" --sysmap-file="$BATS_TEST_TMPDIR/System.map"
	[[ "${lines[0]}" == *"IIP:$(printf 0x%016x $((main + 0x12))) <ear_main+0x12>" ]]
	[ "${lines[1]}" = $'\tPMD2  : miss addr=0x6000000000000110 <table+0x10>' ]
	run -0 --separate-stderr "$PFMON" --pmu=itanium2 --report="$dump" --sysmap-file="$BATS_TEST_TMPDIR/System.map" --print-syms
	[ "${lines[0]}" = "# symbols: 5 ($BATS_TEST_TMPDIR/System.map)" ]
	[[ "$output" == *"$(printf 0x%016x $main) 0x40000000000000e0 code ear_main"* ]]
	[[ "$output" == *"0x6000000000000100 0x6000000000000200 data table"* ]]
	# the ELF itself: symbols and, through its DWARF, lines (as addr2line says)
	run -0 --separate-stderr "$PFMON" --pmu=itanium2 --report="$dump" --symbol-file="$fix" --report-format=json
	[ "$(jq -r .ip_symbol <<<"$output")" = "ear_main+0x12" ]
	[ "$(jq -r .ip_line <<<"$output")" = "$(ia64-linux-gnu-addr2line -e "$fix" "$(printf 0x%x $((main + 0x12)))")" ]
	[ "$(jq -r .dear.data_address_symbol <<<"$output")" = "table+0x10" ]
	run -0 "$PFMON" --pmu=itanium2 --report="$dump" --symbol-file="$fix" --print-syms
	[[ "$output" == *" code ear_leaf"* ]]
	# the dump's sample file takes them too
	"$PFMON" --pmu=itanium2 --report="$dump" --smpl-outfile="$BATS_TEST_TMPDIR/d.pfs" >/dev/null
	run -0 "$PFMON" --report="$BATS_TEST_TMPDIR/d.pfs" --sysmap-file="$BATS_TEST_TMPDIR/System.map"
	[[ "${lines[0]}" == *"<ear_main+0x12>" ]]
	# hostile input: one error naming the line
	printf 'a000000100000000 T _stext\nnot-an-address T x\n' > "$BATS_TEST_TMPDIR/bad.map"
	run -1 --separate-stderr "$PFMON" --pmu=itanium2 --report="$dump" --sysmap-file="$BATS_TEST_TMPDIR/bad.map"
	[ "$stderr" = "error: '$BATS_TEST_TMPDIR/bad.map': line 2: bad address" ]
	printf 'a000000100000000 T\n' > "$BATS_TEST_TMPDIR/bad.map"
	run -1 --separate-stderr "$PFMON" --pmu=itanium2 --report="$dump" --sysmap-file="$BATS_TEST_TMPDIR/bad.map"
	[[ "$stderr" == "error: '$BATS_TEST_TMPDIR/bad.map': line 1: "* ]]
	[ "${#stderr_lines[@]}" -eq 1 ]
	# usage errors: both files, --print-syms alone, a host sample file
	run -2 "$PFMON" --pmu=itanium2 --report="$dump" --symbol-file="$fix" --sysmap-file="$BATS_TEST_TMPDIR/System.map"
	run -2 --separate-stderr "$PFMON" --pmu=itanium2 --report="$dump" --print-syms
	[ "$stderr" = "error: option '--print-syms' needs --symbol-file or --sysmap-file" ]
	# (a host sample file's profile takes them for its kernel addresses: sample.bats)
	run -1 "$PFMON" --pmu=itanium2 --report="$dump" --symbol-file=/dev/null
}

@test "a dump of 1,000,000 samples reports in bounded memory" {
	dump="$BATS_TEST_TMPDIR/big.dump"
	{
		echo "pmc11=0x20008 pmc12=0x3f08"
		awk 'BEGIN { for (i = 0; i < 1000000; i++)
			printf "ip=%d pmd2=0x6000000000000110 pmd3=0x4021 pmd17=0 pmd8=0x29 pmd9=0x2 pmd10=0 pmd11=0 pmd12=0 pmd13=0 pmd14=0 pmd15=0 pmd16=2\n", 4096 + (i % 4096) * 16 }'
	} >"$dump"
	run --separate-stderr /usr/bin/time -f 'maxrss %M' "$PFMON" --pmu=itanium2 --report="$dump" --smpl-module=inst-hist --smpl-show-top=2
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "# total samples          : 1000000" ]
	kb=$(printf '%s\n' "$stderr" | awk '$1 == "maxrss" { print $2 }')
	echo "peak RSS $kb KB" >&2
	[ "$kb" -lt 102400 ] # under 100 MB, sanitizers included: the reader streams
	rm -f "$dump"
}

@test "BTB dumps through the host's branch reports: pairs, mispredicted branches, hot paths, fdata" {
	need_fixture
	write_hist_dump
	# the btb module's pairs (the pairing rules of PMD8-16), as the branch report counts them
	run -0 --separate-stderr "$PFMON" --pmu=itanium2 --report="$dump" --report-sort=symbol_from,symbol_to \
		--report-format=json
	[ "$(jq -r '"\(.samples) \(.branches)"' <<<"$output")" = "3 3" ]
	[ "$(jq -r '.pairs[] | "\(.from) -> \(.to) \(.count) \(.mispredicted)"' <<<"$output")" = \
		"ear_main (ia64ear) -> ear_main (ia64ear) 3 1" ]
	run -0 --separate-stderr "$PFMON" --pmu=itanium2 --report="$dump" --report-sort=mispredict
	[ "${lines[0]}" = "# pfmon branch profile: mispredicted branches by cost" ]
	[[ "${lines[3]}" =~ ^\ +3\ 100\.00%\ +1\ +33\.33%\ +0\.0\ +1\.0\ +ear_main\+0x22\ -\>\ ear_main$ ]]
	# each BTB holds one branch: no block between two of them
	run -0 --separate-stderr "$PFMON" --pmu=itanium2 --report="$dump" --report-sort=block --report-format=json
	[ "$(jq -r '"\(.blocks) \(.paths | length)"' <<<"$output")" = "0 0" ]
	run -0 --separate-stderr "$PFMON" --pmu=itanium2 --report="$dump" --report-format=fdata
	[ "$output" = "1 ear_main 22 1 ear_main 0 1 3" ]
	# the dump's sample file: the same report
	"$PFMON" --pmu=itanium2 --report="$dump" --smpl-outfile="$BATS_TEST_TMPDIR/d.pfs" >/dev/null
	run -0 --separate-stderr "$PFMON" --report="$BATS_TEST_TMPDIR/d.pfs" --report-format=fdata
	[ "$output" = "1 ear_main 22 1 ear_main 0 1 3" ]
	# a sampling module is not a branch report; a dump without a BTB has no branches
	run -2 --separate-stderr "$PFMON" --pmu=itanium2 --report="$dump" --report-sort=block --smpl-module=btb
	one_error_line "^error: options '--report-sort' and '--smpl-module' cannot be combined: a branch report is not a sampling module's$"
	printf 'pmc11=0x20008\nip=0x10 pmd2=0x1000 pmd3=0x4005 pmd17=0\n' >"$dump"
	run -2 --separate-stderr "$PFMON" --pmu=itanium2 --report="$dump" --report-sort=symbol_from,symbol_to
	one_error_line "^error: option '--report-sort' needs BTB samples \(the dump gives no pmc12= and no BTB event\)$"
}
