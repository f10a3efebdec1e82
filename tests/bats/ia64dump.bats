#!/usr/bin/env bats
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

@test "dump: a malformed line is one error naming the line and the token" {
	printf '# c\npmc11=0x20008\nip=0x10 pmd2=0x1 pmd3=0x4zz pmd17=0\n' > "$dump"
	run -1 --separate-stderr "$PFMON" --pmu=itanium2 --report="$dump"
	one_error_line "^error: '.*run.dump' line 3: invalid number in 'pmd3=0x4zz'$"
	run -1 --separate-stderr "$PFMON" --pmu=itanium2 --report="$BATS_TEST_TMPDIR/missing"
	one_error_line "^error: cannot read '.*missing': No such file or directory$"
}

@test "--smpl-module: unknown modules and other modes are refused" {
	printf 'ip=0x10\n' > "$dump"
	run -1 --separate-stderr "$PFMON" --pmu=itanium2 --report="$dump" --smpl-module=btb
	one_error_line "cannot count 'btb'|'btb'.*not implemented"
	run -2 --separate-stderr "$PFMON" --smpl-module=detailed true
	one_error_line "^error: --smpl-module applies to Itanium 2 dumps"
	run -2 --separate-stderr "$PFMON" --pmu=itanium2 --report="$dump" --report-format=folded
	one_error_line "text or json"
}
