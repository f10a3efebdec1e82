#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# AMD IBS (issue 27): op and fetch samples in perf.data files crafted per
# the kernel ABI (perfdata_ibs.py), their registers decoded by pfmon and by
# perf 6.1 from the same bytes and compared field by field; an op's data
# source, latency and address as the kernel derives them; the ibs_op and
# ibs_fetch PMUs' terms through a fake sysfs.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	W="$BATS_TEST_TMPDIR"
}

need_perf() {
	command -v perf >/dev/null || skip "perf is not installed"
	command -v python3 >/dev/null || skip "python3 is not installed"
}

# record FILE: page faults with their data addresses, the base the
# generator turns into IBS samples
record() {
	perf record -q -e page-faults -c 1 -d -o "$1" "$FIXTURES/touch_pages" 64 >/dev/null 2>&1 ||
		skip "perf record cannot sample page faults here"
}

ibs() {
	python3 "$TESTS_SRCDIR/bats/perfdata_ibs.py" "$@"
}

# registers FILE: perf's and pfmon's lines of each sample's registers into
# $W/perf.txt and $W/pfmon.txt ("TIME NAME 0xVALUE Field value ...")
registers() {
	perf report -D -i "$1" 2>/dev/null | python3 "$TESTS_SRCDIR/bats/ibs_lines.py" perf >"$W/perf.txt"
	"$PFMON" --report="$1" --smpl-module=detailed 2>/dev/null |
		python3 "$TESTS_SRCDIR/bats/ibs_lines.py" pfmon >"$W/pfmon.txt"
}

# the same keys as memsrc.bats: "k1|k2|... samples" rows, sorted
perf_keys() {
	perf report -i "$1" --mem-mode --sort "$2" --stdio -n -t '|' -w 8,12,60,60,60,60,60,60 2>/dev/null |
		awk -F'|' '/^#/ || NF < 3 { next }
			{ line = ""; for (i = 3; i <= NF; i++) { f = $i; gsub(/^ +| +$/, "", f); line = line (i > 3 ? "|" : "") f }
			  n = $2; gsub(/ /, "", n); sum[line] += n }
			END { for (k in sum) print k, sum[k] }' | LC_ALL=C sort
}
pfmon_keys() {
	"$PFMON" --report="$1" --report-sort="$2" 2>/dev/null |
		awk '/^#/ { next } { n = $1; sub(/^ *[0-9]+ +[0-9.]+% +[0-9.]+%  /, ""); gsub(/ \| /, "|"); print $0, n }' |
		LC_ALL=C sort
}

# CPUs of the crafted files: family 19h model 11h (no erratum), models
# 00h-0Fh (errata 1238, 1293, 1347; CacheHitSt invalid), each with and
# without the Zen4 extensions, and family 17h
CPUS=("AuthenticAMD,25,17,1" "AuthenticAMD,25,1,1" "AuthenticAMD,25,17,1 zen4" "AuthenticAMD,25,1,1 zen4"
	"AuthenticAMD,23,49,0")

@test "IBS op and fetch registers: each field pfmon decodes is perf 6.1's, sample by sample, on every CPU's rules" {
	need_perf
	record "$W/pf.data"
	for cpu in "${CPUS[@]}"; do
		for kind in op fetch; do
			# shellcheck disable=SC2086 # "CPUID zen4": two arguments
			n=$(ibs "$W/pf.data" "$W/$kind.data" $kind raw $cpu)
			[ "$n" -ge 30 ]
			registers "$W/$kind.data"
			# perf decodes them: it takes the file for an AMD one with IBS
			grep -q " IBS_${kind^^}_CTL 0x" "$W/perf.txt"
			[ "$(wc -l <"$W/perf.txt")" -ge $((3 * n)) ]
			diff "$W/perf.txt" "$W/pfmon.txt"
		done
	done
	# what the rows cover, as perf reads them
	registers "$W/op.data"
	grep -q 'IBS_OP_DATA2 .* DataSrc 4$' "$W/perf.txt"
	grep -q 'IBS_OP_DATA .* OpReturn 1 OpBrnTaken 1 OpBrnMisp 0 BrnRet 1' "$W/perf.txt"
	grep -q 'IBS_BR_TARGET 0x0000000000401000' "$W/perf.txt"
	registers "$W/fetch.data"
	grep -q 'IBS_FETCH_CTL .* IcMiss 1 .* L2Miss 1' "$W/perf.txt"
	grep -q 'IBS_EXTD_CTL .* IbsItlbRefillLat 52' "$W/perf.txt"
}

@test "IBS op: data source, latency and data address derived from the registers as Linux 6.1+ fills them for perf" {
	need_perf
	record "$W/pf.data"
	for cpu in "${CPUS[@]}"; do
		# shellcheck disable=SC2086
		ibs "$W/pf.data" "$W/raw.data" op raw $cpu >/dev/null
		# shellcheck disable=SC2086
		ibs "$W/pf.data" "$W/kernel.data" op kernel $cpu >/dev/null
		# perf reads the kernel's fields; pfmon derives them from the registers alone
		perf_keys "$W/kernel.data" mem,snoop,tlb,locked,local_weight >"$W/perf.txt"
		pfmon_keys "$W/raw.data" mem,snoop,tlb,lock,weight >"$W/pfmon.txt"
		[ "$(wc -l <"$W/perf.txt")" -ge 12 ]
		diff "$W/perf.txt" "$W/pfmon.txt"
		# and takes the kernel's when the sample has them
		pfmon_keys "$W/kernel.data" mem,snoop,tlb,lock,weight >"$W/pfmon.txt"
		diff "$W/perf.txt" "$W/pfmon.txt"
	done
	# the sources the rows cover, as perf names them
	grep -q '^Remote node, same socket RAM hit|' "$W/perf.txt"
	grep -q '^core, same node Any cache hit|HitM|L2 hit|' "$W/perf.txt"
	grep -q '^LFB/MAB or LFB/MAB hit|' "$W/perf.txt"
	grep -q '|L1 hit|Yes|0 ' "$W/perf.txt"
}

@test "IBS op with --smpl-module=dear-hist and symbol_daddr: latencies per data address, as perf script gives them" {
	need_perf
	record "$W/pf.data"
	ibs "$W/pf.data" "$W/raw.data" op raw >/dev/null
	ibs "$W/pf.data" "$W/kernel.data" op kernel >/dev/null
	# perf's samples with a latency and an address: count, average, share <= 15 cycles
	perf script -i "$W/kernel.data" -F addr,weight 2>/dev/null | python3 -c '
import collections, sys
rows = collections.defaultdict(list)
for line in sys.stdin:
    a, w = line.split()
    if int(a, 16) and int(w):
        rows[int(a, 16)].append(int(w))
for a, ws in sorted(rows.items()):
    print("0x%016x %d %.1f %.2f" % (a, len(ws), sum(ws) / len(ws), 100.0 * sum(w <= 15 for w in ws) / len(ws)))
' >"$W/perf.txt"
	run -0 --separate-stderr "$PFMON" --report="$W/raw.data" --smpl-module=dear-hist --smpl-data-view
	printf '%s\n' "$output" | awk '!/^#/ { sub("%", "", $4); print $10, $1, $9, $4 }' | LC_ALL=C sort >"$W/pfmon.txt"
	[ "$(wc -l <"$W/perf.txt")" -ge 20 ]
	diff "$W/perf.txt" "$W/pfmon.txt"
	# an op without a latency (no L1 miss, no load) is said, not counted
	[[ "$output" == *"# samples without a latency or a data address (not counted) "[1-9]* ]]
	# the kernel's fields alike: its address 0 of an op without one is none
	run -0 --separate-stderr "$PFMON" --report="$W/kernel.data" --smpl-module=dear-hist --smpl-data-view
	printf '%s\n' "$output" | awk '!/^#/ { sub("%", "", $4); print $10, $1, $9, $4 }' | LC_ALL=C sort |
		diff "$W/perf.txt" -
	# the data addresses named: IbsDcLinAd when valid, as the kernel's addr
	run -0 --separate-stderr "$PFMON" --report="$W/raw.data" --report-sort=symbol_daddr
	printf '%s\n' "$output" | grep -q '\[no data address\]'
	printf '%s\n' "$output" | grep -q '\[stack\]+0x'
}

@test "what pfmon cannot decode of IBS samples is counted and named in one note" {
	need_perf
	record "$W/pf.data"
	ibs "$W/pf.data" "$W/odd.data" op raw AuthenticAMD,25,17,1 odd >/dev/null
	run -0 --separate-stderr "$PFMON" --report="$W/odd.data" --report-sort=mem
	[ "$(printf '%s\n' "$stderr" | grep -c '^note: .*IBS')" -eq 1 ]
	n=$(perf report -D -i "$W/odd.data" 2>/dev/null | grep -c '^ibs_op_ctl:')
	printf '%s\n' "$stderr" | grep -qx "note: $n IBS samples hold what pfmon does not decode: IbsOpData4 (layout not published), reserved bits of IbsOpData"
	# the fields it decodes are still perf's
	registers "$W/odd.data"
	grep -v ' IBS_OP_DATA4 ' "$W/pfmon.txt" | diff "$W/perf.txt" -
	# a clean file: no note
	ibs "$W/pf.data" "$W/op.data" op >/dev/null
	run -0 --separate-stderr "$PFMON" --report="$W/op.data" --report-sort=mem
	[[ "$stderr" != *IBS* ]]
}

# the ibs_op and ibs_fetch PMUs as the kernel describes them in sysfs
# (arch/x86/events/amd/ibs.c), at type TYPE
fake_ibs() {
	local d="$BATS_TEST_TMPDIR/pmus"
	mkdir -p "$d/ibs_op/format" "$d/ibs_op/caps" "$d/ibs_fetch/format"
	echo "$1" >"$d/ibs_op/type"
	echo "$(($1 + 1))" >"$d/ibs_fetch/type"
	echo 'config:19' >"$d/ibs_op/format/cnt_ctl"
	echo 'config:16' >"$d/ibs_op/format/l3missonly"
	echo 'config1:0-11' >"$d/ibs_op/format/ldlat"
	echo 'config2:0' >"$d/ibs_op/format/swfilt"
	echo 'config:57' >"$d/ibs_fetch/format/rand_en"
	echo 'config:59' >"$d/ibs_fetch/format/l3missonly"
	echo 1 >"$d/ibs_op/caps/zen4_ibs_extensions"
	export PFMON_TEST_SYSFS_PMUS="$d"
}

@test "ibs_op// and ibs_fetch// terms: the kernel's format bits, through pfmon's sysfs PMU parser" {
	fake_ibs 11
	run -0 --separate-stderr "$PFMON" --check -v -e 'ibs_op//,ibs_op/cnt_ctl=1,l3missonly=1/,ibs_fetch/rand_en=1/,ibs_op/ldlat=256/'
	printf '%s\n' "$output" | grep -q '^ibs_op// *type=0xb config=0x0 '
	# IbsOpCntCtl (bit 19) and IbsOpL3MissOnly (bit 16)
	printf '%s\n' "$output" | grep -q '^ibs_op/cnt_ctl=1,l3missonly=1/ *type=0xb config=0x90000 '
	printf '%s\n' "$output" | grep -q '^ibs_fetch/rand_en=1/ *type=0xc config=0x200000000000000 '
	printf '%s\n' "$output" | grep -A1 '^ibs_op/ldlat=256/' | grep -q 'config1=0x100 '
	# a D-EAR-like recording: the op's address, latency and source asked of
	# the kernel (type 4 opens nothing here: the attr is dumped before)
	fake_ibs 4
	dump="$W/attr"
	PFMON_DUMP_ATTR="$dump" run --separate-stderr "$PFMON" --smpl-outfile="$W/s.smpl" --smpl-data-addr \
		--smpl-weight --smpl-data-src -e ibs_op/cnt_ctl=1/ true
	st=$(awk '/^event=ibs_op\/cnt_ctl=1\// { for (i = 1; i <= NF; i++) if ($i ~ /^sample_type=/) print substr($i, 13) }' "$dump")
	[ -n "$st" ]
	# ADDR (bit 3), WEIGHT (14), DATA_SRC (15)
	(( (st & 0xc008) == 0xc008 ))
	grep -q 'config=0x80000 ' "$dump"
}

@test "without the ibs_op PMU, -e ibs_op// is refused in one line saying what it takes" {
	[ -e /sys/bus/event_source/devices/ibs_op ] && skip "this machine has IBS"
	for ev in ibs_op// ibs_fetch//; do
		run -2 --separate-stderr "$PFMON" -e $ev true
		one_error_line "^error: invalid event '$ev': no PMU '${ev%//}' in /sys/bus/event_source/devices: AMD IBS needs an AMD CPU with IBS"
	done
}
