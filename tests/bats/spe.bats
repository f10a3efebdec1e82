#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Arm SPE (issue 27): perf.data files of an SPE recording, written from
# scratch per the Arm ARM's packet formats (perfdata_spe.py), read by pfmon
# and by perf 6.1 (which decodes SPE on any architecture) from the same
# bytes: the packets one by one, then the samples perf synthesizes.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	command -v perf >/dev/null || skip "perf is not installed"
	command -v python3 >/dev/null || skip "python3 is not installed"
	[ -x "$FIXTURES/calltree" ] || skip "the calltree fixture is not built"
	W="$BATS_TEST_TMPDIR"
	GEN="$TESTS_SRCDIR/bats/perfdata_spe.py"
}

# packets FILE: perf report -D's packet lines (offset, bytes, meaning)
perf_packets() {
	perf report -D -i "$1" 2>/dev/null | grep -E '^\.  [0-9a-f]{8}: '
}

pfmon_packets() {
	"$PFMON" --report="$1" --dump-aux 2>/dev/null | grep -E '^\.  [0-9a-f]{8}: '
}

@test "Arm SPE: pfmon's packet dump is perf 6.1's, packet by packet" {
	for mode in plain odd; do
		python3 "$GEN" "$W/$mode.data" "$FIXTURES/calltree" $mode >/dev/null
		perf_packets "$W/$mode.data" >"$W/perf.txt"
		pfmon_packets "$W/$mode.data" >"$W/pfmon.txt"
		# every kind of packet is there: perf reads what was written
		for k in ' PC ' ' TGT ' ' VA ' ' PA ' 'LAT .* TOT' 'LAT .* ISSUE' 'LAT .* XLAT' ' EV ' \
			'DATA-SOURCE' 'CONTEXT .* el1' 'CONTEXT .* el2' ' LD GP-REG' ' ST GP-REG' ' B COND' \
			' B IND' 'OTHER COND-SELECT' 'OTHER INSN-OTHER' ' TS ' ' END' ' PAD' \
			'SVE-PARTIAL-PRED' 'ALIGNMENT' 'REMOTE-ACCESS' 'LLC-REFILL'; do
			grep -q -- "$k" "$W/perf.txt" || { echo "no '$k' in perf's dump" >&2; false; }
		done
		[ "$(wc -l <"$W/perf.txt")" -ge 400 ]
		diff "$W/perf.txt" "$W/pfmon.txt"
	done
	# the odd packets: a reserved address index, counter index, class, header
	grep -q 'ADDR 0x1234 (5)' "$W/pfmon.txt"
	grep -q 'OP-TYPE 0x5 (3)' "$W/pfmon.txt"
	grep -q ' 02  .* Bad packet!' "$W/pfmon.txt"
}

@test "Arm SPE: what pfmon does not decode is counted and named in one note" {
	python3 "$GEN" "$W/odd.data" "$FIXTURES/calltree" odd >/dev/null
	run -0 --separate-stderr "$PFMON" --report="$W/odd.data"
	one_error_line "^note: '.*odd.data': Arm SPE trace not decoded: 1 reserved header byte, 1 address packet of index 5, 1 counter packet of index 3, 1 operation type packet of class 3$"
	run -0 --separate-stderr "$PFMON" --report="$W/odd.data" --dump-aux
	one_error_line "^note: .*: 1 reserved header byte, 1 address packet of index 5, 1 counter packet of index 3, 1 operation type packet of class 3$"
	python3 "$GEN" "$W/plain.data" "$FIXTURES/calltree" >/dev/null
	run -0 --separate-stderr "$PFMON" --report="$W/plain.data"
	[ -z "$stderr" ]
	# --dump-aux reads perf.data only
	"$PFMON" -e task-clock --long-smpl-periods=200000 --smpl-outfile="$W/own.smpl" -- true >/dev/null 2>&1
	run -2 --separate-stderr "$PFMON" --report="$W/own.smpl" --dump-aux
	[ "$stderr" = "error: option '--dump-aux' applies to perf.data files" ]
}

@test "Arm SPE: hostile sizes: an AUXTRACE past the file's end, every cut of the file" {
	python3 "$GEN" "$W/spe.data" "$FIXTURES/calltree" >/dev/null
	# the first AUXTRACE record's size: 2^64 - 8
	python3 - "$W/spe.data" "$W/huge.data" <<-'EOF'
		import struct, sys
		b = bytearray(open(sys.argv[1], 'rb').read())
		off, size = struct.unpack_from('<QQ', b, 40)
		end = off + size
		while off < end:
		    typ, sz = struct.unpack_from('<IxxH', b, off)
		    if typ == 71:
		        struct.pack_into('<Q', b, off + 8, (1 << 64) - 8)
		        break
		    off += sz
		open(sys.argv[2], 'wb').write(b)
	EOF
	run -0 --separate-stderr "$PFMON" --report="$W/huge.data"
	[[ "$stderr" == *"is truncated at offset"* ]]
	run -0 --separate-stderr "$PFMON" --report="$W/huge.data" --dump-aux
	[[ "$stderr" == *"is truncated at offset"* ]]
	# cut anywhere: a warning or one error line, never a crash
	size=$(stat -c %s "$W/spe.data")
	for cut in $(seq 100 37 "$size"); do
		head -c "$cut" "$W/spe.data" >"$W/cut.data"
		run "$PFMON" --report="$W/cut.data"
		[ "$status" -le 1 ] || { echo "cut at $cut: status $status" >&2; false; }
		run "$PFMON" --report="$W/cut.data" --dump-aux
		[ "$status" -le 1 ] || { echo "dump cut at $cut: status $status" >&2; false; }
	done
}

# perf_samples FILE KEY: "event key" per sample perf 6.1 synthesizes (KEY
# ip or addr), its default events and, by --itrace=i1i, instructions
perf_samples() {
	{ perf script -i "$1" -F hw:event,ip,addr 2>/dev/null
	  perf script -i "$1" --itrace=i1i -F hw:event,ip,addr 2>/dev/null; } |
		awk -v k="$2" 'NF == 3 { sub(/:$/, "", $1); print $1, (k == "ip" ? $3 : $2) }' |
		LC_ALL=C sort | uniq -c | awk '{ print $2, $3, $1 }'
}

# pfmon_samples FILE KEY: the same from pfmon's JSON profile by address or
# data address
pfmon_samples() {
	"$PFMON" --report="$1" --report-sort="$([ "$2" = ip ] && echo address || echo data)" \
		--report-format=json 2>/dev/null | python3 -c '
import json, sys
for e in json.load(sys.stdin)["events"]:
    for x in e["entries"]:
        a = x.get("address", x.get("data_address", x["name"]))
        print(e["event"], "%x" % int(a, 16), x["samples"])' | LC_ALL=C sort
}

# per event and function: "event function samples" (the kernel's left out:
# perf names its address, pfmon [kernel] without a kallsyms of that boot)
perf_functions() {
	{ perf report -i "$1" --stdio -n --sort sym 2>/dev/null
	  perf report -i "$1" --stdio -n --sort sym --itrace=i1i 2>/dev/null; } |
		awk '/^# Samples: .* of event / { ev = $NF; gsub(/\x27/, "", ev) }
			/\[\.\]/ { print ev, $4, $2 }' | LC_ALL=C sort
}

pfmon_functions() {
	"$PFMON" --report="$1" --report-format=json 2>/dev/null | python3 -c '
import json, sys
for e in json.load(sys.stdin)["events"]:
    for x in e["entries"]:
        if x["name"] != "[kernel]":
            print(e["event"], x["name"].split(" (")[0], x["samples"])' | LC_ALL=C sort
}

@test "Arm SPE: per synthesized event, the samples with their ip and data address are perf 6.1's" {
	for mode in plain generic; do
		python3 "$GEN" "$W/$mode.data" "$FIXTURES/calltree" $mode >/dev/null
		for key in ip addr; do
			perf_samples "$W/$mode.data" $key >"$W/perf.txt"
			pfmon_samples "$W/$mode.data" $key >"$W/pfmon.txt"
			# each of the ten events has samples
			[ "$(cut -d' ' -f1 "$W/perf.txt" | uniq | wc -l)" -eq 10 ]
			diff "$W/perf.txt" "$W/pfmon.txt"
		done
		perf_functions "$W/$mode.data" >"$W/perf.txt"
		pfmon_functions "$W/$mode.data" >"$W/pfmon.txt"
		[ "$(wc -l <"$W/perf.txt")" -ge 30 ]
		diff "$W/perf.txt" "$W/pfmon.txt"
	done
}

# perf_mem_keys FILE: "level|tlb samples" of perf script's data source
# words (perf report --mem-mode refuses: the SPE event has no DATA_SRC),
# summed over the events (the default ones and instructions)
perf_mem_keys() {
	{ perf script -i "$1" -F hw:event,data_src 2>/dev/null
	  perf script -i "$1" --itrace=i1i -F hw:event,data_src 2>/dev/null; } |
		awk -F'|' 'NF > 5 { l = $3; t = $5; sub(/^LVL /, "", l); sub(/^TLB /, "", t); sum[l "|" t]++ }
			END { for (k in sum) print k, sum[k] }' | LC_ALL=C sort
}

pfmon_mem_keys() {
	"$PFMON" --report="$1" --report-sort=mem,tlb 2>/dev/null |
		awk '/^#/ { next } { n = $1; sub(/^ *[0-9]+ +[0-9.]+% +[0-9.]+%  /, ""); gsub(/ \| /, "|"); sum[$0] += n }
			END { for (k in sum) print k, sum[k] }' | LC_ALL=C sort
}

@test "Arm SPE: data sources (Neoverse's encoding, and the events' alone) named as perf 6.1 names them" {
	for mode in plain generic; do
		python3 "$GEN" "$W/$mode.data" "$FIXTURES/calltree" $mode >/dev/null
		perf_mem_keys "$W/$mode.data" >"$W/perf.txt"
		pfmon_mem_keys "$W/$mode.data" >"$W/pfmon.txt"
		[ "$(wc -l <"$W/perf.txt")" -ge 6 ]
		diff "$W/perf.txt" "$W/pfmon.txt"
	done
	grep -q 'Remote' "$W/pfmon.txt"
	# the sorts of memory samples work: weight, data symbol
	run -0 "$PFMON" --report="$W/plain.data" --report-sort=weight
	[[ "$output" == *"# event memory: 34 samples"* ]]
}

# a copy of sysfs's arm_spe_0 (the terms of drivers/perf/arm_spe_pmu.c),
# for this machine has none; type 1 so that nothing else could refuse it
fake_spe_pmu() {
	local d="$W/pmus/arm_spe_0" f
	mkdir -p "$d/format"
	echo 1 >"$d/type"
	for f in ts_enable:config:0 pa_enable:config:1 pct_enable:config:2 jitter:config:16 \
		branch_filter:config:32 load_filter:config:33 store_filter:config:34 \
		event_filter:config1:0-63 min_latency:config2:0-11; do
		echo "${f#*:}" >"$d/format/${f%%:*}"
	done
	export PFMON_TEST_SYSFS_PMUS="$W/pmus"
}

@test "Arm SPE recording: arm_spe// names arm_spe_0, its filters set their bits; a run refuses in one line" {
	# no SPE PMU (this machine's sysfs, or an empty copy): what is missing
	mkdir -p "$W/none"
	PFMON_TEST_SYSFS_PMUS="$W/none" run -2 --separate-stderr "$PFMON" -e arm_spe// true
	one_error_line "^error: invalid event 'arm_spe//': no PMU 'arm_spe' in .*: Arm SPE needs an arm64 CPU with the Statistical Profiling Extension and the kernel's arm_spe_pmu driver$"
	fake_spe_pmu
	run -0 --separate-stderr "$PFMON" --check -v \
		-e arm_spe/ts_enable=1,pa_enable=1,jitter=1,load_filter=1,store_filter=1,branch_filter=1,min_latency=20,event_filter=0x22/
	# bits 0, 1, 16, 32, 33, 34; the event filter in config1, the latency in config2
	printf '%s\n' "$output" | grep -q ' type=0x1 config=0x700010003 '
	printf '%s\n' "$output" | grep -q 'config1=0x22 config2=0x14 '
	run -0 --separate-stderr "$PFMON" --check -v -e arm_spe_0/ts_enable=1/
	printf '%s\n' "$output" | grep -q ' config=0x1 '
	run -2 --separate-stderr "$PFMON" -e arm_spe/min_latency=4096/ true
	one_error_line "does not fit its 12 bits"
	# counting or sampling: pfmon maps no AUX buffer, and says so
	for mode in "" "--long-smpl-periods=4096 --smpl-outfile=$W/x.smpl"; do
		run -1 --separate-stderr "$PFMON" -e arm_spe// $mode true
		one_error_line "^error: cannot count 'arm_spe//': its samples are an AUX trace \(Arm SPE\), which pfmon does not map: record with perf record -e arm_spe// and read the perf.data with pfmon --report$"
	done
}
