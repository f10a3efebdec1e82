#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Sampling real programs through the perf ring buffer, the sample file, and
# the reports symbolized through ELF and DWARF.

bats_require_minimum_version 1.5.0
load helpers


# the percentage column of the profile row whose key matches REGEX
pct_of() {
	printf '%s\n' "$output" | awk -v re="$1" '$0 !~ /^#/ && $0 ~ re { sub("%", "", $2); print $2; exit }'
}

@test "a function burning 90% of the time gets most samples" {
	run "$PFMON" -e cpu-clock --long-smpl-periods=500000 "$FIXTURES/hotspot" 400
	[ "$status" -eq 0 ]
	[[ "$output" =~ "# event cpu-clock: " ]]
	top=$(printf '%s\n' "$output" | grep -v '^#' | head -1)
	[[ "$top" =~ \ hot\ \(hotspot\)$ ]]
	pct=$(pct_of ' hot \(hotspot\)$')
	[ "${pct%.*}" -ge 70 ]
}

@test "the hot function's samples are attributed to its source lines" {
	run "$PFMON" -e cpu-clock --long-smpl-periods=500000 --report-sort=line "$FIXTURES/hotspot" 400
	[ "$status" -eq 0 ]
	top=$(printf '%s\n' "$output" | grep -v '^#' | head -1)
	# a line of hot() in hotspot.c (which one depends on the CPU's skid)
	[[ "$top" =~ hotspot\.c:([0-9]+)$ ]]
	line_in_function hotspot.c hot "${BASH_REMATCH[1]}"
}

@test "a shared-library function is resolved through its load bias" {
	run "$PFMON" -e cpu-clock --long-smpl-periods=500000 "$FIXTURES/uselib" 300
	[ "$status" -eq 0 ]
	top=$(printf '%s\n' "$output" | grep -v '^#' | head -1)
	[[ "$top" =~ \ lib_spin\ \(libspin\.so\)$ ]]
	run "$PFMON" -e cpu-clock --long-smpl-periods=500000 --report-sort=line "$FIXTURES/uselib" 300
	top=$(printf '%s\n' "$output" | grep -v '^#' | head -1)
	[[ "$top" =~ libspin\.c:([0-9]+)$ ]]
	line_in_function libspin.c lib_spin "${BASH_REMATCH[1]}"
}

@test "a sample file reports the same profile later" {
	f="$BATS_TEST_TMPDIR/s.pfs"
	run "$PFMON" -e cpu-clock --long-smpl-periods=1000000 --smpl-outfile="$f" "$FIXTURES/hotspot" 200
	[ "$status" -eq 0 ]
	live=$output
	run "$PFMON" --report="$f"
	[ "$status" -eq 0 ]
	[ "$output" = "$live" ]
}

@test "a software event sampled every 1000 page faults: one sample a thousand, each of period 1000" {
	# (the kernel samples every fault, each with period 1, when asked to
	# record the period of a fixed-period software event)
	run -0 --separate-stderr "$PFMON" -e page-faults "$FIXTURES/touch_pages" 20000
	faults=$(count_of page-faults)
	f="$BATS_TEST_TMPDIR/pf.data"
	run -0 --separate-stderr "$PFMON" -e page-faults --long-smpl-periods=1000 --smpl-format=perf \
		--smpl-outfile="$f" "$FIXTURES/touch_pages" 20000
	n=$(printf '%s\n' "$output" | sed -n 's/^# event page-faults: \([0-9]*\) samples (period 1000)$/\1/p')
	ncpu=$(getconf _NPROCESSORS_ONLN)
	echo "$n samples, $faults page faults counted in another run" >&2
	# a counter a CPU (each counts its own thousands): between the
	# faults' thousands less one a CPU and the thousands (the two runs'
	# faults differ by a few)
	[ "$n" -le $(( (faults + 100) / 1000 )) ]
	[ "$n" -ge $(( (faults - 100) / 1000 - ncpu )) ]
	# perf reads the period of each sample as 1000
	command -v perf >/dev/null || return 0
	[ "$(perf script -i "$f" -F period 2>/dev/null | sort -u | tr -d ' ')" = 1000 ]
}

@test "a software event's fixed period beside a set sampled at a frequency is refused, not sampled every event" {
	run --separate-stderr "$PFMON" -e task-clock -e page-faults --long-smpl-periods=1000 "$FIXTURES/touch_pages" 300
	[ "$status" -eq 1 ]
	one_error_line "^error: cannot sample 'page-faults': a software event's fixed period cannot be recorded beside an event set sampled at a frequency: give every set a period$"
	# with a period for each set it samples
	run -0 --separate-stderr "$PFMON" -e task-clock --long-smpl-periods=1000000 -e page-faults --long-smpl-periods=1000 \
		"$FIXTURES/touch_pages" 300
}

@test "a period given for the second event set turns sampling on too" {
	run "$PFMON" -e task-clock -e cpu-clock --long-smpl-periods=1000000 "$FIXTURES/burn" 50
	[ "$status" -eq 0 ]
	[[ "$output" =~ "# event cpu-clock: " ]]
}

@test "frequency mode: about 2000 samples a second" {
	run "$PFMON" -e task-clock --smpl-freq=2000 "$FIXTURES/burn" 500
	[ "$status" -eq 0 ]
	n=$(printf '%s\n' "$output" | sed -n 's/^# event task-clock: \([0-9]*\) samples.*/\1/p')
	[ "$n" -ge 500 ]
	[ "$n" -le 1500 ]
}

@test "child processes are sampled too, each binary resolved" {
	run "$PFMON" -e cpu-clock --long-smpl-periods=1000000 --report-sort=binary sh -c "$FIXTURES/hotspot 200; $FIXTURES/uselib 200"
	[ "$status" -eq 0 ]
	[[ "$output" =~ /hotspot ]]
	[[ "$output" =~ /libspin\.so ]]
}

@test "JSON profile and folded stacks for flame graphs" {
	run "$PFMON" -e cpu-clock --long-smpl-periods=1000000 --report-format=json "$FIXTURES/hotspot" 200
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | python3 -c '
import json, sys
d = json.load(sys.stdin)
ev = d["events"][0]
assert ev["event"] == "cpu-clock" and ev["samples"] > 50, ev
top = ev["entries"][0]
assert top["name"] == "hot (hotspot)" and top["symbol"] == "hot" and top["percent"] > 60, top
assert any(b["path"].endswith("/hotspot") and b["debug_info"] for b in d["binaries"]), d["binaries"]
'
	run "$PFMON" -e cpu-clock --long-smpl-periods=1000000 -g --report-format=folded "$FIXTURES/hotspot" 200
	[ "$status" -eq 0 ]
	[[ "$output" =~ main\;hot\ [0-9]+ ]]
}

@test "--smpl-show-top and --smpl-cum-threshold cut the profile" {
	run "$PFMON" -e cpu-clock --long-smpl-periods=500000 --report-sort=address --smpl-show-top=2 "$FIXTURES/hotspot" 200
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -vc '^#')" -eq 2 ]
	run "$PFMON" -e cpu-clock --long-smpl-periods=500000 --report-sort=address --smpl-cum-threshold=1 "$FIXTURES/hotspot" 200
	[ "$(printf '%s\n' "$output" | grep -vc '^#')" -eq 1 ]
}

@test "a watched variable: each write sampled, data address and line resolved" {
	require_breakpoints
	addr=$(nm "$FIXTURES/watch" | awk '$3 == "watched" { print $1 }')
	[ -n "$addr" ]
	run "$PFMON" -e "mem:0x$addr/8:w" --long-smpl-periods=1 --report-sort=data "$FIXTURES/watch" 50
	[ "$status" -eq 0 ]
	[[ "$output" =~ "# event mem:0x$addr/8:w: 50 samples" ]]
	[[ "$output" =~ \ +50\ 100\.00%\ 100\.00%\ \ watched\ \(watch\) ]]
	run "$PFMON" -e "mem:0x$addr/8:w" --long-smpl-periods=1 --report-sort=line "$FIXTURES/watch" 50
	[[ "$output" =~ \ +50\ 100\.00%\ 100\.00%\ \ .*watch\.c:$(line_of watch.c 'WRITE LINE')$'\n' ]]
}

@test "breakpoints that cannot fire here are refused, naming why, never counted as 0" {
	command -v perf >/dev/null || skip "perf not installed"
	# where they fire, pfmon's test seam takes them for silent
	! breakpoints_fire || export PFMON_TEST_BREAKPOINTS_SILENT=1
	addr=$(nm "$FIXTURES/watch" | awk '$3 == "watched" { print $1 }')
	why="hardware breakpoints do not fire on this machine \\(a probe breakpoint on pfmon's own code counted 0 hits"
	run --separate-stderr "$PFMON" -e "mem:0x$addr/8:w" --long-smpl-periods=1 "$FIXTURES/watch" 50
	[ "$status" -eq 1 ]
	one_error_line "^error: cannot open 'mem:0x0*$addr/8:w': $why"
	run --separate-stderr "$PFMON" -e "mem:0x$addr/8:w" "$FIXTURES/watch" 50
	[ "$status" -eq 1 ]
	one_error_line "^error: cannot open 'mem:0x0*$addr/8:w': $why"
	# beside an event that counts: <not supported>, and a warning saying why
	run --separate-stderr "$PFMON" -e "task-clock,mem:0x$addr/8:w" "$FIXTURES/watch" 50
	[ "$status" -eq 0 ]
	[[ "$output" =~ "<not supported> mem:0x"0*"$addr/8:w" ]]
	one_error_line "^warning: cannot open 'mem:0x0*$addr/8:w': $why"
}

@test "a truncated sample file reads up to its last complete record, with a warning" {
	f="$BATS_TEST_TMPDIR/s.pfs"
	"$PFMON" -e cpu-clock --long-smpl-periods=200000 --smpl-outfile="$f" "$FIXTURES/hotspot" 300 >/dev/null
	size=$(stat -c %s "$f")
	head -c $((size * 2 / 3)) "$f" >"$f.cut"
	run --separate-stderr "$PFMON" --report="$f.cut"
	[ "$status" -eq 0 ]
	[[ "$output" =~ "# event cpu-clock: " ]]
	[[ "$stderr" =~ ^warning:\ .*truncated ]]
}

@test "a corrupted sample file gives one clear error, not a crash" {
	f="$BATS_TEST_TMPDIR/s.pfs"
	"$PFMON" -e cpu-clock --long-smpl-periods=200000 --smpl-outfile="$f" "$FIXTURES/hotspot" 200 >/dev/null
	size=$(stat -c %s "$f")
	printf '\377\377\377\377' | dd of="$f" bs=1 seek=$((size / 2)) conv=notrunc status=none
	run --separate-stderr "$PFMON" --report="$f"
	[ "$status" -eq 1 ]
	one_error_line "^error: .*s\.pfs.*(corrupt|checksum)"
	echo "not a sample file at all" >"$f"
	run --separate-stderr "$PFMON" --report="$f"
	[ "$status" -eq 1 ]
	one_error_line "^error: .*s\.pfs"
	run --separate-stderr "$PFMON" --report=/nonexistent.pfs
	[ "$status" -eq 1 ]
	one_error_line "^error: .*nonexistent\.pfs.*No such file"
}

@test "hardware-only sample fields on a machine without them: a clear error" {
	hw_pmu_present && skip "this machine has a hardware PMU"
	run --separate-stderr "$PFMON" -e cpu-clock --smpl-branch-stack --long-smpl-periods=100000 true
	[ "$status" -eq 1 ]
	one_error_line "^error: cannot sample 'cpu-clock': branch stacks need a branch-stack PMU .*, and this machine has no hardware PMU"
}

@test "--smpl-periods-random: every period is the base plus random low bits, and they vary" {
	f="$BATS_TEST_TMPDIR/r.pfs"
	run "$PFMON" -e cpu-clock --long-smpl-periods=1000000 --smpl-periods-random=0xfffff:7 \
		--smpl-outfile="$f" --report-format=json "$FIXTURES/hotspot" 300
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | python3 -c '
import json, sys
ev = json.load(sys.stdin)["events"][0]
assert ev["period"] == 1000000 and ev["random_mask"] == 0xfffff, ev
assert ev["samples"] > 50, ev
assert 1000000 <= ev["min_period"] < ev["max_period"] <= 1000000 + 0xfffff, ev
'
	# the file keeps the mask and each sample its own period
	run "$PFMON" --report="$f"
	[ "$status" -eq 0 ]
	[[ "${lines[1]}" =~ \(period\ 1000000\ \+\ random\ \&\ 0xfffff:\ [0-9]+\ to\ [0-9]+\)$ ]]
}

@test "--smpl-periods-random with a wide mask takes fewer samples, as its longer mean period says" {
	run "$PFMON" -e cpu-clock --long-smpl-periods=1000000 "$FIXTURES/burn" 400
	fixed=$(printf '%s\n' "$output" | sed -n 's/^# event cpu-clock: \([0-9]*\) samples.*/\1/p')
	# mean period 1000000 + 0x3fffff/2, about 3.1 times the base
	run "$PFMON" -e cpu-clock --long-smpl-periods=1000000 --smpl-periods-random=0x3fffff "$FIXTURES/burn" 400
	[ "$status" -eq 0 ]
	rnd=$(printf '%s\n' "$output" | sed -n 's/^# event cpu-clock: \([0-9]*\) samples.*/\1/p')
	[ "$rnd" -gt 0 ]
	[ $((rnd * 2)) -lt "$fixed" ]
	[ $((rnd * 5)) -gt "$fixed" ]
}

@test "--smpl-periods-random needs a period, one entry per event, a non-zero mask" {
	# a missing companion option: a usage error (pfmon(1))
	run --separate-stderr "$PFMON" -e cpu-clock --smpl-periods-random=0xff:5 true
	[ "$status" -eq 2 ]
	one_error_line "^error: option '--smpl-periods-random': event 1 of set 0 \('cpu-clock'\) has no period to randomize"
	run --separate-stderr "$PFMON" -e cpu-clock --long-smpl-periods=100000 --smpl-periods-random=0xff,0xff true
	[ "$status" -eq 2 ]
	one_error_line "^error: option '--smpl-periods-random' has 2 entries but event set 0 has 1 event$"
	run --separate-stderr "$PFMON" -e cpu-clock --long-smpl-periods=100000 --smpl-periods-random=0:5 true
	[ "$status" -eq 2 ]
	one_error_line "^error: invalid value '0:5' for option '--smpl-periods-random': entries are MASK or MASK:SEED"
	run --separate-stderr "$PFMON" -e cpu-clock --long-smpl-periods=100000 --smpl-periods-random=0xff:x true
	[ "$status" -eq 2 ]
}

@test "events without a period are counted in each sample of their set, and credited per function" {
	f="$BATS_TEST_TMPDIR/c.pfs"
	run "$PFMON" -e cpu-clock,page-faults --long-smpl-periods=200000 --smpl-outfile="$f" \
		--report-format=json "$FIXTURES/touch_pages" 20000
	[ "$status" -eq 0 ]
	live=$output
	printf '%s\n' "$output" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert [e["event"] for e in d["events"]] == ["cpu-clock"], d["events"]  # page-faults is not sampled
ev = d["events"][0]
assert ev["samples"] > 10, ev
faults = sum(e["counts"]["page-faults"] for e in ev["entries"])
# 20,000 first writes to fresh pages, each a fault; what follows the last
# sample of a thread is in no interval
assert 10000 <= faults <= 21000, faults
'
	run "$PFMON" --report="$f" --report-format=json
	[ "$status" -eq 0 ]
	[ "$output" = "$live" ]
	run "$PFMON" --report="$f"
	[[ "${lines[2]}" = "# counted in each sample: page-faults" ]]
	[[ "${lines[3]}" =~ ^#\ +samples\ +%self\ +%cum\ +page-faults\ +function$ ]]
}

@test "a set without any period samples every event, at the frequency" {
	run "$PFMON" -e cpu-clock,task-clock --smpl-freq=500 "$FIXTURES/burn" 200
	[ "$status" -eq 0 ]
	[[ "$output" =~ "# event cpu-clock: " ]]
	[[ "$output" =~ "# event task-clock: " ]]
	[[ ! "$output" =~ "counted in each sample" ]]
}

@test "by address: raw addresses, and symbol+offset with --resolve-addresses" {
	f="$BATS_TEST_TMPDIR/a.pfs"
	run "$PFMON" -e cpu-clock --long-smpl-periods=1000000 --smpl-outfile="$f" --report-sort=address \
		--smpl-show-top=1 "$FIXTURES/hotspot" 200
	[ "$status" -eq 0 ]
	[[ "${lines[3]}" =~ \ 0x[0-9a-f]{16}$ ]]
	run "$PFMON" --report="$f" --report-sort=address --resolve-addresses --smpl-show-top=1
	[ "$status" -eq 0 ]
	[[ "${lines[3]}" =~ \ 0x[0-9a-f]{16}\ hot\+0x[0-9a-f]+$ ]]
}

# --- kernel and vDSO symbols ---

# the function column of the profile's rows (text format), one per line
keys() {
	printf '%s\n' "$output" | sed -n 's/^ *[0-9][0-9]* *[0-9.]*% *[0-9.]*%  //p'
}

# a row whose key matches the extended regex must exist / must not exist
# (a plain "! cmd" does not fail a bats test)
has_key() {
	keys | grep -qE "$1" || { echo "no row matching '$1'" >&2; return 1; }
}
no_key() {
	if keys | grep -qE "$1"; then
		echo "unexpected row matching '$1': $(keys | grep -E "$1" | head -1)" >&2
		return 1
	fi
}

# kallsyms readable with real addresses (not hidden by kernel.kptr_restrict)
kallsyms_visible() {
	[ -r /proc/kallsyms ] && awk '$2 ~ /^[tT]$/ && $1 !~ /^0+$/ { found = 1; exit } END { exit !found }' /proc/kallsyms
}

# a notes file with a GNU build-id no kernel has (native byte order, like the kernel's)
other_kernel_notes() {
	python3 -c 'import struct, sys; sys.stdout.buffer.write(struct.pack("=III", 4, 20, 3) + b"GNU\0" + bytes(range(1, 21)))' >"$1"
}

@test "time in the kernel is shown by kernel function, not as one [kernel] lump" {
	kallsyms_visible || skip "/proc/kallsyms hides kernel addresses"
	run "$PFMON" -e cpu-clock --smpl-freq=5000 "$FIXTURES/kloop" write 300
	[ "$status" -eq 0 ]
	no_key '^\[kernel\]$'
	# the top kernel function is a text symbol of the running kernel
	fn=$(keys | sed -n 's/^\[kernel\] \([^ ]*\)$/\1/p' | head -1)
	[ -n "$fn" ]
	awk -v f="$fn" '$2 ~ /^[tTwW]$/ && $3 == f { found = 1 } END { exit !found }' /proc/kallsyms
	# most of the loop is in the kernel
	nk=$(keys | grep -c '^\[kernel\] ')
	[ "$nk" -ge 3 ]
	[[ ! "$output" =~ "kernel samples not symbolized" ]]
}

@test "kernel functions in every sort key and in folded stacks" {
	kallsyms_visible || skip "/proc/kallsyms hides kernel addresses"
	run "$PFMON" -e cpu-clock --smpl-freq=5000 --report-sort=binary "$FIXTURES/kloop" write 200
	[ "$status" -eq 0 ]
	has_key '^\[kernel\]$'
	run "$PFMON" -e cpu-clock --smpl-freq=5000 --report-sort=address --resolve-addresses "$FIXTURES/kloop" write 200
	has_key '^0xffff[0-9a-f]{12} \[kernel\] [A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-f]+'
	run "$PFMON" -e cpu-clock --smpl-freq=5000 --report-sort=line "$FIXTURES/kloop" write 200
	has_key '^\[kernel\] [A-Za-z_]'
	no_key '^\[kernel\]$'
	run "$PFMON" -e cpu-clock --smpl-freq=5000 -g --report-format=folded "$FIXTURES/kloop" write 200
	[ "$status" -eq 0 ]
	# user frames down to libc's write, then kernel frames by name
	[[ "$output" =~ main\;([^\ \;]+\;)*[^\ \;]*write\;[A-Za-z_][^\ ]*\ [0-9]+ ]]
	[[ ! "$output" =~ \[kernel\] ]]
	leaf=$(printf '%s\n' "$output" | sort -k2 -nr | awk '$1 ~ /write;/ { n = split($1, f, ";"); print f[n]; exit }')
	awk -v f="$leaf" '$3 == f { found = 1 } END { exit !found }' /proc/kallsyms
}

@test "a sample file keeps the kernel symbols its samples used: its report reads no kallsyms" {
	kallsyms_visible || skip "/proc/kallsyms hides kernel addresses"
	f="$BATS_TEST_TMPDIR/k.pfs"
	run "$PFMON" -e cpu-clock --smpl-freq=5000 -g --smpl-outfile="$f" "$FIXTURES/kloop" write 200
	[ "$status" -eq 0 ]
	live=$output
	has_key '^\[kernel\] [A-Za-z_]'
	# no kallsyms at all now: the same report, from the file's symbols
	run env PFMON_KALLSYMS=/nonexistent/kallsyms "$PFMON" --report="$f"
	[ "$status" -eq 0 ]
	[ "$output" = "$live" ]
	# and under another kernel too (only the vDSO, not kept, is then unnamed)
	other_kernel_notes "$BATS_TEST_TMPDIR/notes"
	run env PFMON_KALLSYMS=/nonexistent/kallsyms PFMON_KERNEL_NOTES="$BATS_TEST_TMPDIR/notes" \
		"$PFMON" --report="$f"
	[ "$status" -eq 0 ]
	has_key '^\[kernel\] [A-Za-z_]'
	no_key '^\[kernel\]$'
	run env PFMON_KALLSYMS=/nonexistent/kallsyms "$PFMON" --report="$f" --report-format=folded
	[[ "$output" =~ write\;[A-Za-z_][^\ ]*\ [0-9]+ ]]
	[[ ! "$output" =~ \[kernel\] ]]
}

@test "kallsyms with hidden addresses: kernel samples are one [kernel] lump, and the report says why" {
	run env PFMON_KALLSYMS="$TESTS_SRCDIR/fixtures/kernel/kallsyms-hidden" \
		"$PFMON" -e cpu-clock --smpl-freq=5000 "$FIXTURES/kloop" write 200
	[ "$status" -eq 0 ]
	has_key '^\[kernel\]$'
	no_key '^\[kernel\] '
	[[ "$output" =~ $'\n'"# no symbols: [kernel]: '".*kallsyms-hidden"' shows every kernel address as 0: kernel.kptr_restrict" ]]
}

@test "vDSO time is named from the vDSO's own symbol table" {
	run "$PFMON" -e cpu-clock --smpl-freq=5000 "$FIXTURES/kloop" clock 300
	[ "$status" -eq 0 ]
	has_key '^(__vdso_clock_gettime|__kernel_clock_gettime|clock_gettime) \(\[vdso\]\)$'
	[[ ! "$output" =~ "cannot read [vdso]" ]]
	# an address is shown only where no symbol of the vDSO covers it (some
	# kernels' vDSOs have local helpers that only .text holds, as perf shows)
	"$FIXTURES/kloop" vdso "$BATS_TEST_TMPDIR/vdso.so"
	nm -D -S "$BATS_TEST_TMPDIR/vdso.so" >"$BATS_TEST_TMPDIR/vdso.syms"
	for off in $(keys | sed -n 's/^\[vdso\]+0x\([0-9a-f]*\)$/\1/p'); do
		while read -r start size type name; do
			[[ "$type" =~ ^[TtWw]$ ]] || continue
			if ((16#$off >= 16#$start && 16#$off < 16#$start + 16#$size)); then
				echo "[vdso]+0x$off is inside $name" >&2
				return 1
			fi
		done <"$BATS_TEST_TMPDIR/vdso.syms"
	done
}

@test "a sample file from another kernel, without kernel symbols: [kernel], with one note saying why" {
	f="$BATS_TEST_TMPDIR/k.pfs"
	other_kernel_notes "$BATS_TEST_TMPDIR/notes"
	# recorded "under" a kernel whose build-id is 0102...14 and whose
	# kallsyms hid its addresses, so the file could keep no kernel symbols
	run env PFMON_KERNEL_NOTES="$BATS_TEST_TMPDIR/notes" \
		PFMON_KALLSYMS="$TESTS_SRCDIR/fixtures/kernel/kallsyms-hidden" \
		"$PFMON" -e cpu-clock --smpl-freq=5000 --smpl-outfile="$f" "$FIXTURES/kloop" write 200
	[ "$status" -eq 0 ]
	run "$PFMON" --report="$f"
	[ "$status" -eq 0 ]
	has_key '^\[kernel\]$'
	no_key '^\[kernel\] '
	[ "$(printf '%s\n' "$output" | grep -c '^# kernel samples not symbolized')" -eq 1 ]
	[[ "$output" =~ "# kernel samples not symbolized: they were taken under kernel "[^$'\n']*"(build-id 0102030405060708090a0b0c0d0e0f1011121314), not the running " ]]
	# and the same file on "its" kernel is symbolized
	kallsyms_visible || return 0
	run env PFMON_KERNEL_NOTES="$BATS_TEST_TMPDIR/notes" "$PFMON" --report="$f"
	has_key '^\[kernel\] '
	[[ ! "$output" =~ "not symbolized" ]]
}

@test "128 threads sampled at 10 kHz: every sample kept or counted as lost" {
	# spinners: 128 threads, 20 ms of CPU each; one sample per 100 us of CPU
	run --separate-stderr "$PFMON" -e cpu-clock --long-smpl-periods=100000 "$FIXTURES/spinners" 128 0 0 20
	[ "$status" -eq 0 ]
	cpu_ns=$(printf '%s\n' "$stderr" | awk '$1 == "cpu_ns" { print $2 }')
	kept=$(printf '%s\n' "$output" | sed -n 's/^# event cpu-clock: \([0-9]*\) samples.*/\1/p')
	lost=$(printf '%s\n' "$output" | sed -n 's/^# lost samples: \([0-9]*\),.*/\1/p')
	expected=$(( cpu_ns / 100000 ))
	echo "kept $kept, lost $lost, expected $expected" >&2
	[ $(( kept + lost )) -gt $(( expected * 90 / 100 )) ]
	[ $(( kept + lost )) -lt $(( expected * 110 / 100 )) ]
	# and with the rings pfmon sizes, a loaded 2-CPU machine keeps them all
	[ "$kept" -gt $(( expected * 75 / 100 )) ]
}

@test "sampling modules on a sample file: detailed, compact and inst-hist rows of live samples" {
	f="$BATS_TEST_TMPDIR/s.pfs"
	"$PFMON" -e cpu-clock --long-smpl-periods=1000000 --smpl-outfile="$f" "$FIXTURES/hotspot" 200 >/dev/null
	run -0 --separate-stderr "$PFMON" --report="$f" --smpl-module=detailed
	[[ "${lines[0]}" =~ ^"entry 0 PID:"[0-9]+" TID:"[0-9]+" CPU:"[0-9]+" STAMP:0x"[0-9a-f]+" OVFL:0 LAST_VAL:1000000 SET:0 IIP:0x" ]]
	[ "${lines[1]}" = $'\tEVENT : cpu-clock' ]
	[[ "$output" == *"<hot+0x"* ]]
	n=$(grep -c '^entry ' <<<"$output")
	run -0 --separate-stderr "$PFMON" --report="$f" --smpl-module=compact
	[ "$(grep -cvE '^#' <<<"$output")" = "$n" ]
	[ "${lines[-1]}" = "# total samples $n" ]
	run -0 --separate-stderr "$PFMON" --report="$f" --smpl-compact
	[ "$(grep -cvE '^#' <<<"$output")" = "$n" ]
	run -0 --separate-stderr "$PFMON" --report="$f" --smpl-module=inst-hist --smpl-show-top=1
	[ "${lines[1]}" = "# total samples          : $n" ]
	[[ "${lines[3]}" =~ " 0x"[0-9a-f]{16}" hot+0x" ]]
	[ "${#lines[@]}" = 4 ]
	run -2 --separate-stderr "$PFMON" --report="$f" --smpl-module=btb
	one_error_line "module needs an Itanium 2 dump"
}

# live_and_report F [COMMAND...]: a live run with the options in RUN and MOD
# writing its samples to F (stdout in $live), then the report of F with the
# options in MOD (stdout in $output): the same module, the same records
live_and_report() {
	local f="$1"
	shift
	run -0 --separate-stderr "$PFMON" --smpl-outfile="$f" "${RUN[@]}" "${MOD[@]}" "$@"
	live="$output"
	run -0 --separate-stderr "$PFMON" --report="$f" "${MOD[@]}"
}

@test "sampling modules in a live run: the same output as the report of its sample file (pfmon 3.x)" {
	f="$BATS_TEST_TMPDIR/s.pfs"
	RUN=(-e task-clock --long-smpl-periods=1000000)
	MOD=(--smpl-module=detailed)
	live_and_report "$f" "$FIXTURES/hotspot" 100
	[[ "${lines[0]}" =~ ^"entry 0 PID:"[0-9]+" TID:"[0-9]+" CPU:"[0-9]+" STAMP:0x"[0-9a-f]+" OVFL:0 LAST_VAL:1000000 SET:0 IIP:0x" ]]
	[ "${lines[1]}" = $'\tEVENT : task-clock' ]
	[ "$live" = "$output" ]
	n=$(grep -c '^entry ' <<<"$output")
	[ "$n" -gt 0 ]
	# one row per sample, then the totals (--smpl-print-counts): the live
	# run's are the event's count, the file's the samples and their periods
	MOD=(--smpl-module=compact --smpl-print-counts)
	live_and_report "$f" "$FIXTURES/hotspot" 100
	[ "${live%$'\n'*}" = "$(head -n -3 <<<"$output")" ]
	[[ "${live##*$'\n'}" =~ ^\ *[1-9][0-9]*" task-clock" ]]
	n=$(grep -cvE '^#|^ ' <<<"$output")
	[ "$n" -gt 0 ]
	[ "${lines[-4]}" = "# total samples $n" ]
	[ "${lines[-3]}" = "# counts" ]
	[[ "${lines[-2]}" =~ ^\ +$n" samples"$ ]]
	[[ "${lines[-1]}" =~ ^\ +$((n * 1000000))" sum of the sample periods" ]]
	[ "$stderr" = "note: '$f' keeps no counts: --smpl-print-counts gives the number of its samples and the sum of their periods" ]
	# pfmon 3.9's --smpl-compact: the default inst-hist one row per sample
	MOD=(--smpl-compact)
	live_and_report "$f" "$FIXTURES/hotspot" 100
	[ "$live" = "$output" ]
	[ "$(grep -cvE '^#' <<<"$output")" -gt 0 ]
	# the histogram, named through the live run's own mappings
	MOD=(--smpl-module=inst-hist --smpl-print-counts)
	live_and_report "$f" "$FIXTURES/hotspot" 100
	[ "${live%$'\n'*}" = "$(head -n -3 <<<"$output")" ]
	[ "${lines[0]}" = "# aggregated results" ]
	[[ "$output" == *" hot+0x"* ]]
	[ "${lines[-3]}" = "# counts" ]
	# page faults, each one a sample: their data addresses in detailed
	RUN=(-e page-faults --long-smpl-periods=1 --smpl-data-addr)
	MOD=(--smpl-module=detailed)
	live_and_report "$f" "$FIXTURES/touch_pages" 64
	[ "$live" = "$output" ]
	[[ "$output" == *$'\tEVENT : page-faults\n\tADDR  : 0x'* ]]
	# dear-hist ranks by latencies, which software events have none: every sample said so
	RUN=(-e page-faults --long-smpl-periods=1)
	MOD=(--smpl-module=dear-hist)
	live_and_report "$f" "$FIXTURES/touch_pages" 64
	[ "$live" = "$output" ]
	[[ "$output" == *"# samples without a latency (not counted) "[1-9]* ]]
}

@test "sampling modules in a live run: attached, system-wide; the output on stderr with --smpl-outfile=-" {
	f="$BATS_TEST_TMPDIR/a.pfs"
	"$FIXTURES/hotspot" 60000 &
	pid=$!
	wait_running $pid hotspot
	RUN=(--attach-task=$pid -t 1 -e task-clock --long-smpl-periods=1000000)
	MOD=(--smpl-module=compact)
	live_and_report "$f"
	kill $pid
	[ "$live" = "$output" ]
	[[ "${lines[-1]}" =~ ^"# total samples "[1-9] ]]
	# the sample stream has stdout: the module writes to stderr, as the profile does
	"$PFMON" -e task-clock --long-smpl-periods=1000000 --smpl-outfile=- --smpl-module=compact \
		"$FIXTURES/hotspot" 50 >"$f" 2>"$BATS_TEST_TMPDIR/err"
	run -0 --separate-stderr "$PFMON" --report="$f" --smpl-module=compact
	[ "$(grep -v '^note: ' "$BATS_TEST_TMPDIR/err")" = "$output" ]
	[[ "${lines[-1]}" =~ ^"# total samples "[1-9] ]]
	[ "$(id -u)" -eq 0 ] || skip "system-wide monitoring needs root here"
	# the CPUs' samples as one histogram, as the report of the file has them
	RUN=(--system-wide --aggregate-results -e task-clock --long-smpl-periods=1000000)
	MOD=(--smpl-module=inst-hist --smpl-show-top=3)
	live_and_report "$f" "$FIXTURES/hotspot" 50
	[ "$live" = "$output" ]
	[[ "${lines[1]}" =~ ^"# total samples          : "[1-9] ]]
}

@test "--symbol-file, --sysmap-file and --print-syms in a live run: the module names what no map covers" {
	f="$BATS_TEST_TMPDIR/y.pfs"
	# the ELF's own symbols, listed before the samples
	RUN=(-e task-clock --long-smpl-periods=1000000)
	MOD=(--smpl-module=inst-hist --symbol-file="$FIXTURES/hotspot" --print-syms)
	live_and_report "$f" "$FIXTURES/hotspot" 50
	[ "$live" = "$output" ]
	[[ "${lines[0]}" =~ ^"# symbols: "[1-9][0-9]*" ($FIXTURES/hotspot)"$ ]]
	[[ "$output" == *" code hot"$'\n'* ]]
	# a System.map whose one symbol covers the kernel's half: kernel samples (if
	# this machine lets pfmon take any) are named from it, as the report names them
	printf 'ffff800000000000 T kernel_half\nffffffffffffff00 T kernel_end\n' > "$BATS_TEST_TMPDIR/System.map"
	RUN=(-e task-clock --long-smpl-periods=1000000)
	MOD=(--smpl-module=detailed --sysmap-file="$BATS_TEST_TMPDIR/System.map")
	live_and_report "$f" "$FIXTURES/kloop" write 100
	[ "$live" = "$output" ]
	if grep -q 'IIP:0xffff' <<<"$output"; then
		! grep 'IIP:0xffff' <<<"$output" | grep -qv '<kernel_half+0x' || false
	fi
	# a bad file is refused before the command runs
	printf 'zz T x\n' > "$BATS_TEST_TMPDIR/bad.map"
	run -1 --separate-stderr "$PFMON" -e task-clock --long-smpl-periods=1000000 --smpl-module=detailed \
		--sysmap-file="$BATS_TEST_TMPDIR/bad.map" touch "$BATS_TEST_TMPDIR/ran"
	one_error_line "bad.map': line 1: bad address"
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
}

@test "sampling module options in a live run: refused without a module, when counting, with --smpl-raw" {
	run -2 --separate-stderr "$PFMON" -e task-clock --long-smpl-periods=1000000 --smpl-print-counts true
	one_error_line "^error: option '--smpl-print-counts' applies to a sampling module \(--smpl-module=NAME\)$"
	run -2 --separate-stderr "$PFMON" -e task-clock --smpl-module=detailed true
	one_error_line "^error: option '--smpl-module' is not used when counting \(it is for sampling and --report\)$"
	run -2 --separate-stderr "$PFMON" -e task-clock --long-smpl-periods=1000000 --smpl-outfile="$BATS_TEST_TMPDIR/r.pfs" \
		--smpl-raw --smpl-compact true
	one_error_line "^error: options '--smpl-raw' and '--smpl-compact' cannot be combined \(no sampling module's output is printed\)$"
	run -2 --separate-stderr "$PFMON" -e task-clock --long-smpl-periods=1000000 --smpl-module=detailed \
		--report-format=svg true
	one_error_line "^error: options '--report-format' and '--smpl-module' cannot be combined: a sampling module prints text$"
}

@test "a report by source line loads libelf and libdwarf when it names its first address" {
	run -0 "$PFMON" -e cpu-clock --long-smpl-periods=500000 --smpl-outfile="$BATS_TEST_TMPDIR/h.pfs" "$FIXTURES/hotspot" 100
	run -0 --separate-stderr env LD_DEBUG=files "$PFMON" --report="$BATS_TEST_TMPDIR/h.pfs" --report-sort=line
	[[ "$output" =~ hotspot\.c: ]]
	[[ "$stderr" =~ file=libelf\.so ]]
	[[ "$stderr" =~ file=libdwarf\.so ]]
}

@test "--smpl-print-counts in a live run: each event's final count, as a counting run prints it (pfmon 3.x)" {
	# every page fault a sample (period 1): the count read at the end is the
	# number of samples the run took, and what a counting run of the same
	# command counts, give or take the pages an exec's random stack offset moves
	run -0 --separate-stderr "$PFMON" -e page-faults --long-smpl-periods=1 --smpl-module=compact \
		--smpl-print-counts "$FIXTURES/touch_pages" 512
	[[ "${lines[-2]}" =~ ^"# total samples "([0-9]+)$ ]]
	n=${BASH_REMATCH[1]}
	[[ "${lines[-1]}" =~ ^\ *([0-9]+)" page-faults"$ ]]
	c=${BASH_REMATCH[1]}
	sampled_line=${lines[-1]}
	[ "$c" -eq "$n" ]
	[ "$c" -ge 512 ]
	run -0 --separate-stderr "$PFMON" -e page-faults "$FIXTURES/touch_pages" 512
	[[ "$output" =~ ^\ *([0-9]+)" page-faults"$ ]]
	k=${BASH_REMATCH[1]}
	[ $((c * 100)) -ge $((k * 95)) ]
	[ $((c * 100)) -le $((k * 105)) ]
	# the same layout: only the digits differ
	[ "$(sed 's/[0-9]/9/g; s/^ *//' <<<"$sampled_line")" = "$(sed 's/[0-9]/9/g; s/^ *//' <<<"$output")" ]
	# the count, not the samples' periods: task-clock sampled every ms reads
	# at least the periods of its samples, and less than one more period a CPU
	run -0 --separate-stderr "$PFMON" -e task-clock --long-smpl-periods=1000000 --smpl-module=inst-hist \
		--smpl-print-counts "$FIXTURES/hotspot" 100
	[[ "${lines[1]}" =~ ^"# total samples          : "([0-9]+)$ ]]
	n=${BASH_REMATCH[1]}
	[[ "${lines[-1]}" =~ ^\ *([0-9]+)" task-clock " ]]
	c=${BASH_REMATCH[1]}
	[ "$c" -ge $((n * 1000000)) ]
	[ "$c" -lt $(((n + $(getconf _NPROCESSORS_ONLN)) * 1000000)) ]
}

@test "--smpl-print-counts attached: the counts of the attached process, <not counted> when it never ran" {
	"$FIXTURES/hotspot" 60000 &
	pid=$!
	wait_running $pid hotspot
	run -0 --separate-stderr "$PFMON" --attach-task=$pid -t 1 -e task-clock --long-smpl-periods=1000000 \
		--smpl-module=compact --smpl-print-counts
	kill $pid
	[[ "${lines[-2]}" =~ ^"# total samples "([0-9]+)$ ]]
	n=${BASH_REMATCH[1]}
	[ "$n" -gt 0 ]
	[[ "${lines[-1]}" =~ ^\ *([0-9]+)" task-clock " ]]
	c=${BASH_REMATCH[1]}
	[ "$c" -ge $((n * 1000000)) ]
	[ "$c" -lt $(((n + $(getconf _NPROCESSORS_ONLN)) * 1000000)) ]
	# a process that sleeps throughout: nothing counted, said as counting says it
	sleep 60 &
	pid=$!
	until [ "$(basename "$(readlink "/proc/$pid/exe")")" = sleep ]; do sleep 0.01; done
	run -0 --separate-stderr "$PFMON" --attach-task=$pid -t 0.3 -e task-clock,page-faults \
		--long-smpl-periods=1000000 --smpl-module=compact --smpl-print-counts
	sampled="$output"
	run -0 --separate-stderr "$PFMON" --attach-task=$pid -t 0.3 -e task-clock,page-faults
	kill $pid
	[ "$output" = $'<not counted> task-clock\n<not counted> page-faults' ]
	[ "$sampled" = $'# total samples 0\n'"$output" ]
}

@test "system-wide sampling modules: one output a CPU (pfmon 3.x), summing to the aggregated one" {
	[ "$(id -u)" -eq 0 ] || skip "system-wide monitoring needs root here"
	f="$BATS_TEST_TMPDIR/w.pfs"
	ncpu=$(getconf _NPROCESSORS_ONLN)
	run -0 --separate-stderr "$PFMON" --system-wide -e task-clock --long-smpl-periods=1000000 \
		--smpl-module=inst-hist --smpl-print-counts --smpl-outfile="$f" "$FIXTURES/hotspot" 50
	live="$output"
	# a section a CPU, in CPU order, each its own histogram
	[ "$(grep -c '^# results for CPU' <<<"$live")" -eq "$ncpu" ]
	[ "$(grep '^# results for CPU' <<<"$live")" = "$(grep '^# results for CPU' <<<"$live" | sort -t U -k2 -n)" ]
	! grep -q '^# aggregated results' <<<"$live"
	# each CPU's count after the sections, as counting -a prints them: at
	# least its samples' periods (an idle CPU's clock runs on between its
	# timer's samples), and of their order
	[ "$(grep -cE '^CPU[0-9]+ +[0-9]+ task-clock ' <<<"$live")" -eq "$ncpu" ]
	awk '/^# results for CPU/ { cpu = substr($4, 4) } /^# total samples/ { n[cpu] = $5 }
	     /^CPU[0-9]+ / { c = substr($1, 4); if (!(c in n) || n[c] * 1000000 > $2 + 1000000 || $2 > (2 * n[c] + 2) * 1000000) bad = 1 }
	     END { exit bad }' <<<"$live"
	# the rows of every CPU summed: the aggregated histogram of the same samples
	sum_rows() { awk '$2 ~ /%$/ && $1 ~ /^[0-9]+$/ { $2 = $3 = ""; k = $0; sub(/^[0-9]+ +/, "", k); s[k] += $1 }
			  END { for (k in s) print s[k], k }' | sort; }
	run -0 --separate-stderr "$PFMON" --report="$f" --smpl-module=inst-hist
	[ "${lines[0]}" = "# aggregated results" ]
	[ "$(sum_rows <<<"$live")" = "$(sum_rows <<<"$output")" ]
	total=$(awk '/^# total samples/ { t += $5 } END { print t }' <<<"$live")
	[ "${lines[1]}" = "# total samples          : $total" ]
	[ "$total" -gt 0 ]
	# --aggregate-results: one output, the report's, and the counts summed
	run -0 --separate-stderr "$PFMON" --system-wide --aggregate-results -e task-clock --long-smpl-periods=1000000 \
		--smpl-module=compact --smpl-print-counts --smpl-outfile="$f" "$FIXTURES/hotspot" 50
	[[ "${lines[-1]}" =~ ^\ *[0-9]+" task-clock " ]]
	! grep -q '^# results for CPU' <<<"$output"
	live="${output%$'\n'*}"
	run -0 --separate-stderr "$PFMON" --report="$f" --smpl-module=compact
	[ "$live" = "$output" ]
	# without -a, or without a module, it is refused
	run -2 --separate-stderr "$PFMON" --aggregate-results -e task-clock --long-smpl-periods=1000000 \
		--smpl-module=compact true
	one_error_line "^error: option '--aggregate-results' needs --follow-\* or --per-thread"
	run -2 --separate-stderr "$PFMON" --system-wide --aggregate-results -e task-clock --long-smpl-periods=1000000 true
	one_error_line "^error: option '--aggregate-results' applies to a system-wide sampling module's output"
}

# a System.map of the running kernel's code symbols, each renamed pfmap_NAME:
# names from it prove which source named an address
renamed_sysmap() {
	awk 'NF == 3 && $2 ~ /^[tTwW]$/ && $1 !~ /^0+$/ { print $1, $2, "pfmap_" $3 }' /proc/kallsyms > "$1"
	[ -s "$1" ]
}

@test "--symbol-file and --sysmap-file name the profile's kernel addresses, live and in reports (pfmon 3.x)" {
	f="$BATS_TEST_TMPDIR/k.pfs"
	map="$BATS_TEST_TMPDIR/System.map"
	renamed_sysmap "$map" || skip "kallsyms hides the kernel's addresses here"
	run -0 --separate-stderr "$PFMON" -e cpu-clock --long-smpl-periods=100000 --smpl-outfile="$f" \
		"$FIXTURES/kloop" write 100
	grep -q ' \[kernel\] [a-z_]' <<<"$output" || skip "no kernel sample named from kallsyms here"
	# the file's own kernel names (kallsyms'), then the map's: the same rows,
	# every kernel name the map's, none of the other
	run -0 --separate-stderr "$PFMON" --report="$f"
	plain="$output"
	! grep -q 'pfmap_' <<<"$plain"
	run -0 --separate-stderr "$PFMON" --report="$f" --sysmap-file="$map"
	[ "$(grep -c ' \[kernel\] pfmap_' <<<"$output")" -gt 0 ]
	! grep ' \[kernel\] ' <<<"$output" | grep -qv ' \[kernel\] \(pfmap_\|0x\)'
	[ "$(grep -v ' \[kernel\] ' <<<"$output")" = "$(grep -v ' \[kernel\] ' <<<"$plain")" ]
	[ "$(grep -c ' \[kernel\] ' <<<"$output")" -le "$(grep -c ' \[kernel\] ' <<<"$plain")" ]
	# a function kallsyms named has the map's name and the same samples
	row=$(grep -m1 ' \[kernel\] [a-z_]' <<<"$plain" | awk '{ print $1, $NF }')
	grep -q "^ *${row% *} .* \[kernel\] pfmap_${row#* }$" <<<"$output"
	# folded stacks and JSON name them the same way
	run -0 --separate-stderr "$PFMON" --report="$f" --sysmap-file="$map" --report-format=folded
	grep -q ';pfmap_' <<<"$output"
	run -0 --separate-stderr "$PFMON" --report="$f" --sysmap-file="$map" --report-format=json
	grep -q '"pfmap_' <<<"$output"
	# a live run: the table first with --print-syms, then the profile
	run -0 --separate-stderr "$PFMON" -e cpu-clock --long-smpl-periods=100000 --sysmap-file="$map" --print-syms \
		"$FIXTURES/kloop" write 100
	[[ "${lines[0]}" =~ ^"# symbols: "[1-9][0-9]*" ($map)"$ ]]
	grep -q ' code pfmap_' <<<"$output"
	grep -q ' \[kernel\] pfmap_' <<<"$output"
	# an ELF symbol table: two functions at kernel addresses (as a vmlinux has them)
	command -v as >/dev/null && command -v ld >/dev/null || skip "no assembler and linker to build an ELF here"
	a=$(awk '$3 == "vfs_write" { print $1; exit }' /proc/kallsyms)
	b=$(awk '$3 == "fdget_pos" { print $1; exit }' /proc/kallsyms)
	[ -n "$a" ] && [ -n "$b" ] && [ $((0x$b)) -gt $((0x$a)) ] || skip "no vfs_write before fdget_pos in kallsyms"
	printf '.text\n.globl elf_vfs_write\n.type elf_vfs_write,@function\nelf_vfs_write: .skip 0x%x\n.size elf_vfs_write,.-elf_vfs_write\n.globl elf_fdget_pos\n.type elf_fdget_pos,@function\nelf_fdget_pos: .skip 256\n.size elf_fdget_pos,256\n' \
		$((0x$b - 0x$a)) > "$BATS_TEST_TMPDIR/k.s"
	as "$BATS_TEST_TMPDIR/k.s" -o "$BATS_TEST_TMPDIR/k.o"
	ld -Ttext=0x$a -e elf_vfs_write -o "$BATS_TEST_TMPDIR/k.elf" "$BATS_TEST_TMPDIR/k.o"
	run -0 --separate-stderr "$PFMON" --report="$f" --symbol-file="$BATS_TEST_TMPDIR/k.elf"
	! grep ' \[kernel\] ' <<<"$output" | grep -qv ' \[kernel\] \(elf_\|0x\)'
	if grep -q ' \[kernel\] fdget_pos$' <<<"$plain"; then
		n=$(awk '$NF == "fdget_pos" { print $1 }' <<<"$plain")
		grep -q "^ *$n .* \[kernel\] elf_fdget_pos$" <<<"$output"
	fi
}

@test "--symbol-file and --sysmap-file with the profile: a bad file is one error line, before the command runs" {
	printf 'zz T x\n' > "$BATS_TEST_TMPDIR/bad.map"
	run -1 --separate-stderr "$PFMON" -e cpu-clock --long-smpl-periods=100000 \
		--sysmap-file="$BATS_TEST_TMPDIR/bad.map" touch "$BATS_TEST_TMPDIR/ran"
	one_error_line "^error: '$BATS_TEST_TMPDIR/bad.map': line 1: bad address$"
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	run -1 --separate-stderr "$PFMON" -e cpu-clock --long-smpl-periods=100000 \
		--symbol-file="$BATS_TEST_TMPDIR/nosuch" touch "$BATS_TEST_TMPDIR/ran"
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == "error: "*"nosuch"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	f="$BATS_TEST_TMPDIR/s.pfs"
	"$PFMON" -e cpu-clock --long-smpl-periods=1000000 --smpl-outfile="$f" "$FIXTURES/hotspot" 20 >/dev/null 2>&1
	run -1 --separate-stderr "$PFMON" --report="$f" --sysmap-file="$BATS_TEST_TMPDIR/bad.map"
	one_error_line "bad.map': line 1: bad address$"
	[ -z "$output" ]
	run -2 --separate-stderr "$PFMON" --report="$f" --sysmap-file="$BATS_TEST_TMPDIR/bad.map" --symbol-file="$f"
	one_error_line "^error: options '--symbol-file' and '--sysmap-file' cannot be combined$"
	run -2 --separate-stderr "$PFMON" --report="$f" --sysmap-file="$BATS_TEST_TMPDIR/bad.map" \
		--export-perf-data="$BATS_TEST_TMPDIR/p.data"
	one_error_line "^error: option '--sysmap-file' is not used with --export-perf-data"
}
