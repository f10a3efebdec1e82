#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# perf.data both ways, checked by perf itself: pfmon's perf.data files read
# by perf report and perf script, perf record's files read by pfmon, and
# the reports of both agreeing on the same samples.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	command -v perf >/dev/null || skip "perf is not installed"
	W="$BATS_TEST_TMPDIR"
}

# share FUNC: the percentage of pfmon's profile row of function FUNC
# (in $output), 0 when absent
pfmon_share() {
	printf '%s\n' "$output" | awk -v f="$1" '$0 !~ /^#/ && $4 == f { sub("%", "", $2); print $2; found = 1; exit }
		END { if (!found) print 0 }'
}

# perf_share FILE FUNC: perf report's overhead of user function FUNC in FILE
perf_share() {
	perf report -i "$1" --stdio --no-children --sort sym -g none 2>/dev/null |
		awk -v f="$2" '$0 !~ /^#/ && $2 == "[.]" && $3 == f { sub("%", "", $1); print $1; found = 1; exit }
			END { if (!found) print 0 }'
}

# perf_top FILE: perf report's top symbol in FILE
perf_top() {
	perf report -i "$1" --stdio --no-children --sort sym -g none 2>/dev/null |
		awk '$0 !~ /^#/ && NF >= 3 { print $3; exit }'
}

# within_1 A B: the two percentages differ by at most 1 point
within_1() {
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1.0) }' || {
		echo "shares differ by more than 1 point: $1 vs $2" >&2
		return 1
	}
}

@test "--smpl-format=perf writes a perf.data file whose perf report agrees with pfmon's report" {
	run "$PFMON" -e task-clock --long-smpl-periods=200000 -g --smpl-format=perf \
		--smpl-outfile="$W/run.data" "$FIXTURES/hotspot" 400
	[ "$status" -eq 0 ]
	[ "$(head -c 8 "$W/run.data")" = PERFILE2 ]
	[ "$(perf_top "$W/run.data")" = hot ]
	within_1 "$(pfmon_share hot)" "$(perf_share "$W/run.data" hot)"
	within_1 "$(pfmon_share cold)" "$(perf_share "$W/run.data" cold)"
	[ "$(pfmon_share hot)" != 0 ]
	# the kernel's mapping lets perf name kernel frames: none is left as an address
	run perf report -i "$W/run.data" --stdio --no-children --sort sym -g none
	! printf '%s\n' "$output" | grep -q '\[k\] 0x'
	# the event's name, the build-ids of the binaries and the command line
	# that recorded, pfmon's own (perf record writes its own)
	run perf report -i "$W/run.data" --header-only
	[[ "$output" =~ "event : name = task-clock" ]]
	[[ "$output" =~ "cmdline : $PFMON -e task-clock --long-smpl-periods=200000 -g --smpl-format=perf --smpl-outfile=$W/run.data $FIXTURES/hotspot 400" ]]
	run perf buildid-list -i "$W/run.data"
	want=$(readelf -n "$FIXTURES/hotspot" | awk '/Build ID/ { print $3 }')
	[[ "$output" =~ $want\ [^[:space:]]*/hotspot ]]
}

@test "perf script reads every sample of pfmon's perf.data, with its call chain" {
	"$PFMON" -e task-clock --long-smpl-periods=200000 -g --smpl-format=perf \
		--smpl-outfile="$W/run.data" "$FIXTURES/hotspot" 300 >"$W/report"
	samples=$(awk '/^# event task-clock:/ { print $4 }' "$W/report")
	run perf script -i "$W/run.data"
	[ "$status" -eq 0 ]
	# one header line per sample, then its frames
	[ "$(printf '%s\n' "$output" | grep -c ' task-clock: $')" -eq "$samples" ]
	re_hot='hot\+0x[0-9a-f]+ \([^)]*/hotspot\)'
	re_main='main\+0x[0-9a-f]+ \([^)]*/hotspot\)'
	[[ "$output" =~ $re_hot ]]
	[[ "$output" =~ $re_main ]]
}

@test "hotspot's parser reads pfmon's perf.data: every sample, the functions named" {
	parser=/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)/libexec/hotspot-perfparser
	[ -x "$parser" ] || skip "hotspot is not installed"
	"$PFMON" -e task-clock --long-smpl-periods=200000 -g --smpl-format=perf \
		--smpl-outfile="$W/run.data" "$FIXTURES/hotspot" 300 >"$W/report"
	samples=$(awk '/^# event task-clock:/ { print $4 }' "$W/report")
	run "$parser" --input "$W/run.data" --print-stats
	[ "$status" -eq 0 ]
	[[ "$output" =~ "samples: $samples"$'\n' ]]
	[[ "$output" =~ "samples time violations: 0" ]]
	# the conversion hotspot's GUI loads names the functions
	"$parser" --input "$W/run.data" --output "$W/run.b2qt"
	strings -n 3 "$W/run.b2qt" | grep -qx hot
	strings -n 3 "$W/run.b2qt" | grep -qx cold
	strings -n 3 "$W/run.b2qt" | grep -qx main
	# its summary's command: pfmon, which recorded (HEADER_CMDLINE); the
	# string's length byte before it may be printable (',' for 44 bytes)
	strings -n 3 "$W/run.b2qt" | grep -qE -- "^.?$PFMON\$"
}

@test "--export-perf-data converts a saved sample file for perf report" {
	"$PFMON" -e task-clock --long-smpl-periods=200000 --smpl-outfile="$W/run.pfs" "$FIXTURES/uselib" 300 >/dev/null
	run "$PFMON" --report="$W/run.pfs"
	[ "$status" -eq 0 ]
	mine=$(pfmon_share lib_spin)
	run "$PFMON" --report="$W/run.pfs" --export-perf-data="$W/run.data"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[ "$(perf_top "$W/run.data")" = lib_spin ]
	within_1 "$mine" "$(perf_share "$W/run.data" lib_spin)"
	# and pfmon reads its own perf.data back to the same profile
	run "$PFMON" --report="$W/run.data"
	[ "$status" -eq 0 ]
	[ "$(pfmon_share lib_spin)" = "$mine" ]
}

@test "pfmon's report of perf record's file agrees with perf report" {
	perf record -q -e task-clock -g -o "$W/perf.data" "$FIXTURES/hotspot" 400 >/dev/null 2>&1
	run "$PFMON" --report="$W/perf.data"
	[ "$status" -eq 0 ]
	[[ "$output" =~ "# event task-clock: " ]]
	top=$(printf '%s\n' "$output" | grep -v '^#' | head -1)
	[[ "$top" =~ \ hot\ \(hotspot\)$ ]]
	within_1 "$(pfmon_share hot)" "$(perf_share "$W/perf.data" hot)"
	within_1 "$(pfmon_share cold)" "$(perf_share "$W/perf.data" cold)"
}

@test "perf record's file reports by source line, binary and call chain" {
	perf record -q -e task-clock -g -o "$W/perf.data" "$FIXTURES/uselib" 300 >/dev/null 2>&1
	run "$PFMON" --report="$W/perf.data" --report-sort=line
	[ "$status" -eq 0 ]
	top=$(printf '%s\n' "$output" | grep -v '^#' | head -1)
	[[ "$top" =~ libspin\.c:([0-9]+)$ ]]
	line_in_function libspin.c lib_spin "${BASH_REMATCH[1]}"
	run "$PFMON" --report="$W/perf.data" --report-sort=binary
	top=$(printf '%s\n' "$output" | grep -v '^#' | head -1)
	[[ "$top" =~ /libspin\.so$ ]]
	run "$PFMON" --report="$W/perf.data" --report-format=folded
	[[ "$output" =~ main\;lib_spin\ [0-9]+ ]]
}

@test "perf record -a: every process's samples, the dummy event no profile of its own" {
	perf record -q -a -e task-clock -o "$W/all.data" "$FIXTURES/hotspot" 200 >/dev/null 2>&1 ||
		skip "perf record -a is not permitted here"
	run "$PFMON" --report="$W/all.data"
	[ "$status" -eq 0 ]
	[[ "$output" =~ " hot (hotspot)" ]]
	! [[ "$output" =~ "dummy" ]]
	[ "$(printf '%s\n' "$output" | grep -c '^# event ')" -eq 1 ]
}

@test "--report-format=script prints perf script's lines for perf record's file" {
	perf record -q -e task-clock -o "$W/perf.data" "$FIXTURES/hotspot" 200 >/dev/null 2>&1
	perf script -i "$W/perf.data" 2>/dev/null | grep '(.*/hotspot)$' >"$W/perf.txt"
	run "$PFMON" --report="$W/perf.data" --report-format=script
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | grep '(.*/hotspot)$' >"$W/pfmon.txt"
	[ -s "$W/perf.txt" ]
	diff "$W/perf.txt" "$W/pfmon.txt"
	# every sample is there
	[ "$(printf '%s\n' "$output" | wc -l)" -eq "$(perf script -i "$W/perf.data" 2>/dev/null | wc -l)" ]
}

@test "--report-format=script with call chains: a block per sample, as stackcollapse-perf.pl reads" {
	"$PFMON" -e task-clock --long-smpl-periods=200000 -g --smpl-outfile="$W/run.pfs" "$FIXTURES/hotspot" 200 >"$W/report"
	samples=$(awk '/^# event task-clock:/ { print $4 }' "$W/report")
	run "$PFMON" --report="$W/run.pfs" --report-format=script
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -c '^hotspot  *[0-9]* \[[0-9]*\]  *[0-9]*\.[0-9]\{6\}:  *200000 task-clock: $')" -eq "$samples" ]
	re=$'\t'' +[0-9a-f]+ hot\+0x[0-9a-f]+ \([^)]*/hotspot\)'$'\n\t'' +[0-9a-f]+ main\+0x'
	[[ "$output" =~ $re ]]
}

@test "kernel frames of perf record's file are named only if the kernel has not moved since" {
	perf record -q -e task-clock -g -o "$W/perf.data" "$FIXTURES/hotspot" 200 >/dev/null 2>&1
	run "$PFMON" --report="$W/perf.data"
	[ "$status" -eq 0 ]
	! [[ "$output" =~ "another boot" ]]
	# the same kernel relocated elsewhere (KASLR at the next boot), and no
	# copy of kallsyms in perf's build-id cache
	awk '$3 == "_text" { $1 = "ffffffff9abc0000" } { print }' /proc/kallsyms >"$W/kallsyms"
	mkdir "$W/no-cache"
	HOME="$W/no-cache" PFMON_KALLSYMS="$W/kallsyms" run "$PFMON" --report="$W/perf.data"
	[ "$status" -eq 0 ]
	[[ "$output" =~ "another boot of this kernel" ]]
	! printf '%s\n' "$output" | grep -q '^ .*\[kernel\] [a-z_]'
}

@test "perf record's copy of kallsyms in its build-id cache names the kernel frames of its boot" {
	mkdir "$W/home"
	HOME="$W/home" perf record -q -e task-clock -g -o "$W/perf.data" "$FIXTURES/hotspot" 200 >/dev/null 2>&1
	ls "$W/home/.debug/[kernel.kallsyms]"/*/kallsyms
	# the running kernel moved (as after a reboot): the copy still applies
	awk '$3 == "_text" { $1 = "ffffffff9abc0000" } { print }' /proc/kallsyms >"$W/kallsyms"
	HOME="$W/home" PFMON_KALLSYMS="$W/kallsyms" run "$PFMON" --report="$W/perf.data"
	[ "$status" -eq 0 ]
	! [[ "$output" =~ "not symbolized" ]]
	# a copy of another boot is not used
	for f in "$W/home/.debug/[kernel.kallsyms]"/*/kallsyms; do
		awk '$3 == "_text" { $1 = "ffffffff9abc0000" } { print }' "$f" >"$f.new" && mv "$f.new" "$f"
	done
	HOME="$W/home" PFMON_KALLSYMS="$W/kallsyms" run "$PFMON" --report="$W/perf.data"
	[[ "$output" =~ "another boot of this kernel" ]]
}

@test "a perf.data file whose writer was killed is read to its end" {
	# on one CPU: perf copies its rings one after the other, so a program
	# that moved CPU can have its samples in the file's first half and its
	# mapping in the second, which the cut below would take away (seen once)
	taskset -c 0 perf record -q -e task-clock -o "$W/perf.data" "$FIXTURES/hotspot" 200 >/dev/null 2>&1
	# perf record killed: the header's data size is still 0, nothing after the data
	off=$(od -A n -t u8 -j 40 -N 8 "$W/perf.data" | tr -d ' ')
	size=$(od -A n -t u8 -j 48 -N 8 "$W/perf.data" | tr -d ' ')
	head -c $((off + size)) "$W/perf.data" >"$W/killed.data"
	printf '\0\0\0\0\0\0\0\0' | dd of="$W/killed.data" bs=1 seek=48 conv=notrunc status=none
	run "$PFMON" --report="$W/killed.data"
	[ "$status" -eq 0 ]
	[[ "$output" =~ " hot (hotspot)" ]]
	[[ "$output" =~ "no end record" ]]
	# cut in the middle of a record
	head -c $((off + size / 2 + 3)) "$W/killed.data" >"$W/cut.data"
	run "$PFMON" --report="$W/cut.data"
	[ "$status" -eq 0 ]
	[[ "$output" =~ " hot (hotspot)" ]]
	[[ "$output" =~ "truncated at offset" ]]
}

@test "a damaged or unsupported perf.data file gets one error line" {
	perf record -q -e task-clock -o "$W/perf.data" true >/dev/null 2>&1
	# the attributes' offset far past the end of the file
	cp "$W/perf.data" "$W/bad.data"
	printf '\377\377\377\377' | dd of="$W/bad.data" bs=1 seek=28 conv=notrunc status=none
	run --separate-stderr "$PFMON" --report="$W/bad.data"
	[ "$status" -eq 1 ]
	one_error_line "^error: '.*bad.data': the event attributes lie outside the file"
	# a stream of perf record -o - without its attributes
	perf record -q -e task-clock -o - true >"$W/pipe.data" 2>/dev/null
	python3 - "$W/pipe.data" "$W/noattr.data" <<-'PY'
	import struct, sys
	b = open(sys.argv[1], 'rb').read()
	out, off = bytearray(b[:16]), 16
	while off + 8 <= len(b):
	    typ, size = struct.unpack_from('<IxxH', b, off)
	    if typ != 64:  # HEADER_ATTR
	        out += b[off:off + size]
	    off += size
	open(sys.argv[2], 'wb').write(out)
	PY
	run --separate-stderr "$PFMON" --report="$W/noattr.data"
	[ "$status" -eq 1 ]
	one_error_line "^error: .*noattr.data.: a record at offset [0-9]+ comes before any event attribute$"
	# a record of size 0 would never end
	cp "$W/perf.data" "$W/zero.data"
	off=$(od -A n -t u8 -j 40 -N 8 "$W/perf.data" | tr -d ' ')
	printf '\0\0' | dd of="$W/zero.data" bs=1 seek=$((off + 6)) conv=notrunc status=none
	run --separate-stderr "$PFMON" --report="$W/zero.data"
	[ "$status" -eq 1 ]
	one_error_line "impossible size 0"
}

# same_as_perf_script FILE [PROGRAM]: pfmon's script lines of FILE are perf
# script's, sample by sample: libraries' and the kernel's too (of symbols
# at one address both name the same; PLT entries are FUNC@plt in both);
# at least 100 samples in PROGRAM (hotspot)
same_as_perf_script() {
	perf script -i "$1" 2>/dev/null >"$W/perf.all"
	"$PFMON" --report="$1" --report-format=script 2>/dev/null >"$W/pfmon.all"
	[ "$(grep -c "(.*/${2:-hotspot})\$" "$W/perf.all")" -ge 100 ]
	diff "$W/perf.all" "$W/pfmon.all"
}

@test "of several symbols at one address pfmon names the one perf names" {
	perf record -q -e task-clock -c 100000 -o "$W/alias.data" "$FIXTURES/aliases" 300 >/dev/null 2>&1
	perf script -i "$W/alias.data" -F sym 2>/dev/null | sort | uniq -c | sort -rn | head -3
	# spin (not __spin_impl or the weak spin_weakly), turn_around (not turn)
	"$PFMON" --report="$W/alias.data" --report-format=script 2>/dev/null | grep -q ' spin+0x[0-9a-f]* (.*/aliases)$'
	"$PFMON" --report="$W/alias.data" --report-format=script 2>/dev/null | grep -q ' turn_around+0x[0-9a-f]* (.*/aliases)$'
	same_as_perf_script "$W/alias.data" aliases
}

@test "perf record --call-graph lbr's file: the user call stack from the branch stack, as perf script resolves it" {
	# no LBR here: perf record -g's frame-pointer chains, moved into the
	# branch stacks as the LBR holds a call stack (perfdata_lbr.py)
	perf record -q -e task-clock -c 200000 -g -o "$W/fp.data" "$FIXTURES/hotspot" 300 >/dev/null 2>&1
	n=$(python3 "$TESTS_SRCDIR/bats/perfdata_lbr.py" "$W/fp.data" "$W/lbr.data")
	[ "$n" -ge 100 ]
	perf report -D -i "$W/lbr.data" 2>/dev/null | grep -q '^\.\.\. branch callstack: nr:'
	# perf script's frames, sample by sample, addresses too (a user frame's
	# at its place in the mapped file, as perf prints them)
	perf script -i "$W/lbr.data" 2>/dev/null >"$W/perf.txt"
	"$PFMON" --report="$W/lbr.data" --report-format=script 2>/dev/null >"$W/pfmon.txt"
	diff "$W/perf.txt" "$W/pfmon.txt"
	# whole stacks where the kernel's chain held the leaf alone
	run -0 --separate-stderr "$PFMON" --report="$W/lbr.data" --report-format=folded
	[ "$(printf '%s\n' "$output" | awk '/^hotspot;(.*;)?main;hot / { n += $NF } END { print n + 0 }')" -ge 50 ]
}

@test "perf record -z: the compressed records decoded, every sample as perf script and perf inject's plain copy give it" {
	perf record -q -z -e task-clock -c 100000 -o "$W/z.data" "$FIXTURES/hotspot" 300 >/dev/null 2>&1
	perf report --header-only -i "$W/z.data" 2>/dev/null | grep -q '^# compressed : Zstd' ||
		skip "this perf record wrote no compressed records (built without zstd)"
	same_as_perf_script "$W/z.data"
	# perf inject writes the same records uncompressed: the same report
	perf inject -i "$W/z.data" -o "$W/plain.data"
	"$PFMON" --report="$W/z.data" --report-sort=line >"$W/z.report"
	"$PFMON" --report="$W/plain.data" --report-sort=line >"$W/plain.report"
	diff "$W/z.report" "$W/plain.report"
}

@test "-z/--compression-level: pfmon's perf.data compressed as perf record -z writes it, read by perf and by pfmon" {
	run -0 --separate-stderr "$PFMON" -e task-clock --long-smpl-periods=100000 -z3 --smpl-format=perf \
		--smpl-outfile="$W/z.data" "$FIXTURES/hotspot" 300
	samples=$(printf '%s\n' "$output" | awk '/^# event task-clock:/ { print $4 }')
	perf report --header-only -i "$W/z.data" 2>/dev/null | grep -q '^# compressed : Zstd, level = 3, ratio = [0-9]'
	# the records are all in COMPRESSED records: perf decodes every sample
	[ "$(perf script -i "$W/z.data" 2>/dev/null | wc -l)" -eq "$samples" ]
	same_as_perf_script "$W/z.data"
	# the same samples uncompressed take more room
	"$PFMON" --report="$W/z.data" --export-perf-data="$W/plain.data"
	[ "$(stat -c %s "$W/z.data")" -lt "$(stat -c %s "$W/plain.data")" ]
	"$PFMON" --report="$W/plain.data" --export-perf-data="$W/z2.data" --compression-level=19
	perf report --header-only -i "$W/z2.data" 2>/dev/null | grep -q '^# compressed : Zstd, level = 19,'
	[ "$(perf script -i "$W/z2.data" 2>/dev/null | wc -l)" -eq "$samples" ]
	# pfmon's own sample file has its own encoding; levels are perf's
	run --separate-stderr "$PFMON" -e task-clock --long-smpl-periods=100000 -z --smpl-outfile="$W/x.pfs" true
	[ "$status" -eq 2 ]
	one_error_line "^error: option '--compression-level' needs --smpl-format=perf with --smpl-outfile, or --export-perf-data \(it compresses perf.data\)$"
	run --separate-stderr "$PFMON" -e task-clock --long-smpl-periods=100000 --compression-level=23 \
		--smpl-format=perf --smpl-outfile="$W/x.data" true
	[ "$status" -eq 2 ]
	one_error_line "'23' for option '--compression-level'"
}

@test "perf record -o - (pipe mode): read from the pipe itself and from the saved stream, compressed or not" {
	perf record -q -e task-clock -c 100000 -o - "$FIXTURES/hotspot" 300 2>/dev/null >"$W/pipe.data"
	same_as_perf_script "$W/pipe.data"
	perf record -q -z -e task-clock -c 100000 -o - "$FIXTURES/hotspot" 300 2>/dev/null >"$W/zpipe.data"
	same_as_perf_script "$W/zpipe.data"
	# straight from perf record, no file between
	perf record -q -e task-clock -c 100000 -o - "$FIXTURES/hotspot" 300 2>/dev/null |
		"$PFMON" --report=- --report-format=script >"$W/live.txt" 2>/dev/null
	[ "$(grep -c ' hot+0x[0-9a-f]* (.*/hotspot)$' "$W/live.txt")" -ge 100 ]
}

@test "damaged compressed records: one error line; a file cut inside them: every whole record, one warning" {
	perf record -q -z -e task-clock -c 100000 -o "$W/z.data" "$FIXTURES/hotspot" 300 >/dev/null 2>&1
	perf report --header-only -i "$W/z.data" 2>/dev/null | grep -q '^# compressed : Zstd' ||
		skip "this perf record wrote no compressed records (built without zstd)"
	# the offset and size of the first COMPRESSED record (type 81)
	read -r off size < <(python3 - "$W/z.data" <<-'PY'
	import struct, sys
	b = open(sys.argv[1], 'rb').read()
	off, end = struct.unpack_from('<QQ', b, 40)
	end += off
	while off < end:
	    typ, size = struct.unpack_from('<IxxH', b, off)
	    if typ == 81:
	        print(off, size)
	        break
	    off += size
	PY
	)
	[ "$size" -gt 64 ]
	cp "$W/z.data" "$W/bad.data"
	head -c 32 /dev/zero | dd of="$W/bad.data" bs=1 seek=$((off + 8)) conv=notrunc status=none
	run --separate-stderr "$PFMON" --report="$W/bad.data"
	[ "$status" -eq 1 ]
	one_error_line "^error: '.*bad.data': compressed records \(perf record -z\) at offset $off: "
	# cut in the middle of the first compressed record: what was decoded is read
	head -c $((off + size / 2)) "$W/z.data" >"$W/cut.data"
	run --separate-stderr "$PFMON" --report="$W/cut.data"
	[ "$status" -eq 0 ]
	[[ "$stderr" =~ "truncated" ]]
	# a decompression bomb: 300 MiB of records in a 40 KB stream, past the
	# bound (100 times the file, at least 256 MiB)
	command -v zstd >/dev/null || skip "the zstd command is not installed"
	perf record -q -e task-clock -o - true 2>/dev/null >"$W/pipe.data"
	python3 - "$W/pipe.data" "$W/bomb.data" <<-'PY'
	import struct, subprocess, sys
	b = open(sys.argv[1], 'rb').read()
	out, off = bytearray(b[:16]), 16
	while off + 8 <= len(b):  # the attributes and features, no record
	    typ, size = struct.unpack_from('<IxxH', b, off)
	    if typ in (64, 80):
	        out += b[off:off + size]
	    off += size
	rounds = struct.pack('<IHH', 68, 0, 8) * (300 << 17)  # FINISHED_ROUND
	z = subprocess.run(['zstd', '-3', '-c'], input=rounds, capture_output=True, check=True).stdout
	for i in range(0, len(z), 60000):
	    out += struct.pack('<IHH', 81, 0, 8 + len(z[i:i + 60000])) + z[i:i + 60000]
	open(sys.argv[2], 'wb').write(out)
	PY
	run --separate-stderr "$PFMON" --report="$W/bomb.data"
	[ "$status" -eq 1 ]
	one_error_line "^error: '.*bomb.data': compressed records \(perf record -z\) at offset [0-9]+: the output would pass its bound$"
}

@test "perf.data needs a regular file; --smpl-format needs --smpl-outfile" {
	run --separate-stderr "$PFMON" -e task-clock --smpl-format=perf --smpl-outfile=- true
	[ "$status" -eq 2 ]
	one_error_line "standard output"
	run --separate-stderr "$PFMON" -e task-clock --long-smpl-periods=100000 --smpl-format=perf true
	[ "$status" -eq 2 ]
	one_error_line "needs --smpl-outfile"
	run --separate-stderr "$PFMON" -e task-clock --smpl-format=ctf --smpl-outfile="$W/x" true
	[ "$status" -eq 2 ]
	one_error_line "sample file formats are pfmon and perf"
}

# feature_offset FILE FEAT: where header feature FEAT's section starts in FILE
# (the table of sections follows the data section, one entry per feature bit)
feature_offset() {
	python3 - "$1" "$2" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
data_off, data_size = struct.unpack_from('<QQ', b, 40)
bits = struct.unpack_from('<4Q', b, 72)
feats = [f for f in range(256) if bits[f // 64] >> (f % 64) & 1]
k = feats.index(int(sys.argv[2]))
print(struct.unpack_from('<Q', b, data_off + data_size + 16 * k)[0])
PY
}

@test "tracepoint samples: their payloads as perf script prints them, from a file or a pipe; damaged formats: a note" {
	perf record -q -e sched:sched_process_exec,syscalls:sys_enter_openat,kmem:kmalloc,signal:signal_generate \
		-o "$W/tp.data" -- sh -c 'cat /etc/hostname >/dev/null; kill -0 $$' >/dev/null 2>&1 ||
		skip "perf record cannot record tracepoints here"
	perf script -i "$W/tp.data" 2>/dev/null >"$W/perf.txt"
	"$PFMON" --report="$W/tp.data" --report-format=script >"$W/pfmon.txt"
	grep -q 'sched:sched_process_exec: filename=/usr/bin/cat ' "$W/pfmon.txt"
	# the %pS of kmalloc's call site, named from the kernel's symbols
	grep -q 'kmem:kmalloc: call_site=[a-z_]' "$W/pfmon.txt"
	diff "$W/perf.txt" "$W/pfmon.txt"
	perf record -q -e sched:sched_process_exec,syscalls:sys_enter_openat -o - -- sh -c 'cat /etc/hostname' \
		2>/dev/null >"$W/tpp.data"
	perf script -i "$W/tpp.data" 2>/dev/null >"$W/perf.txt"
	"$PFMON" --report=- --report-format=script <"$W/tpp.data" >"$W/pfmon.txt"
	diff "$W/perf.txt" "$W/pfmon.txt"
	# the formats' magic damaged: the samples still, a note why without payloads
	off=$(feature_offset "$W/tp.data" 1)
	cp "$W/tp.data" "$W/bad.data"
	printf 'X' | dd of="$W/bad.data" bs=1 seek="$off" conv=notrunc status=none
	run -0 --separate-stderr "$PFMON" --report="$W/bad.data" --report-format=script
	[ "${#lines[@]}" -eq "$(perf script -i "$W/tp.data" 2>/dev/null | wc -l)" ]
	[[ "$stderr" =~ "note: tracepoint payloads are not shown: 'tracing data (HEADER_TRACING_DATA)': not tracing data (no magic)" ]]
}

@test "a perf.data file cut in its header features: every sample reported, one warning naming the features lost" {
	perf record -q -e cpu-clock -o "$W/perf.data" "$FIXTURES/hotspot" 200 >/dev/null 2>&1
	run -0 --separate-stderr "$PFMON" --report="$W/perf.data"
	intact=$output
	# inside CMDLINE (feature 11): it and the sections after it are lost
	off=$(feature_offset "$W/perf.data" 11)
	head -c $((off + 4)) "$W/perf.data" >"$W/cut.data"
	run -0 --separate-stderr "$PFMON" --report="$W/cut.data"
	[ "$output" = "$intact" ]
	one_error_line "^warning: '$W/cut.data' is cut at offset $((off + 4)) after its samples \(all there\): its header features CMDLINE, EVENT_DESC(, [A-Z_]+)* are lost$"
	# perf reads it too
	perf report -i "$W/cut.data" --stdio >/dev/null 2>&1
	# inside the table of sections: all are lost, the kernel's build-id too,
	# so the kernel samples cannot be named, but every sample is there
	data_end=$(python3 -c 'import struct,sys; o,s = struct.unpack_from("<QQ", open(sys.argv[1],"rb").read(), 40); print(o + s)' "$W/perf.data")
	head -c $((data_end + 8)) "$W/perf.data" >"$W/table.data"
	run -0 --separate-stderr "$PFMON" --report="$W/table.data" --report-format=folded
	# (and notes: without the kernel's identity its vDSO cannot be read)
	[ "$(grep -c '^warning: ' <<<"$stderr")" -eq 1 ]
	grep -Eq "^warning: '$W/table.data' is cut at offset $((data_end + 8)) after its samples \(all there\): its header features BUILD_ID, .*, CMDLINE, EVENT_DESC.* are lost$" <<<"$stderr"
	[ "$(printf '%s\n' "$output" | awk '{ t += $NF } END { print t }')" -eq \
		"$(printf '%s\n' "$intact" | awk '/^# event cpu-clock:/ { print $4 }')" ]
}

@test "perf record -a inside a pid namespace: the tasks outside it, all pid 0, are never named from each other's mappings" {
	[ "$(id -u)" -eq 0 ] || skip "a pid namespace needs root here"
	command -v unshare >/dev/null || skip "unshare is not installed"
	# inside the namespace perf runs hotspot; outside, burn starts once the
	# recording runs: the kernel reports it (and every outside task) as pid 0
	unshare --pid --fork --mount-proc perf record -q -a -e cpu-clock -c 1000000 -o "$W/ns.data" \
		"$FIXTURES/hotspot" 1000 >/dev/null 2>&1 &
	rec=$!
	for _ in $(seq 1 400); do
		pgrep -f "^$FIXTURES/hotspot 1000" >/dev/null && break
		sleep 0.05
	done
	"$FIXTURES/burn" 300
	wait $rec || skip "perf record cannot record system-wide in a pid namespace here"
	# perf's view: samples of pid 0 in user mode, burn's mappings recorded as pid 0's
	perf script -i "$W/ns.data" -F pid,ip,sym,dso 2>/dev/null | awk '$1 == 0 && $2 !~ /^ffff/' | grep -q .
	perf report -D -i "$W/ns.data" 2>/dev/null | grep -q 'PERF_RECORD_MMAP2 0/0: .*/burn$'
	run -0 --separate-stderr "$PFMON" --report="$W/ns.data" --report-format=script
	# pid 0's user samples: no symbol, no binary; its name says whom it stands for
	! printf '%s\n' "$output" | awk '$2 == 0' | grep -v -e '(\[kernel.kallsyms\])$' -e ' \[unknown\] (\[unknown\])$'
	! printf '%s\n' "$output" | awk '$2 == 0' | grep -v '^\[other pid namespace\] '
	[[ "$stderr" =~ "samples of pid 0 ran in user mode" ]]
	# the namespace's own processes (pid > 0) are named as perf names them;
	# pid 0's, whatever else the machine runs (another build's hotspot
	# too), perf names from pid 0's mappings and pfmon does not (above)
	hot_rows() { awk '$2 != 0' | grep -c ' hot+0x[0-9a-f]* (.*/hotspot)$'; }
	[ "$(printf '%s\n' "$output" | hot_rows)" -eq "$(perf script -i "$W/ns.data" 2>/dev/null | hot_rows)" ]
	[ "$(printf '%s\n' "$output" | hot_rows)" -gt 0 ]
}

@test "pid 0 outside any pid namespace is the idle task, swapper as perf names it" {
	[ "$(id -u)" -eq 0 ] || skip "system-wide recording needs root here"
	perf record -q -a -e cpu-clock -c 100000 -o "$W/idle.data" sleep 0.5 >/dev/null 2>&1
	n=$(perf script -i "$W/idle.data" -F comm,tid 2>/dev/null | awk '$1 == "swapper" && $2 == 0' | wc -l)
	[ "$n" -gt 0 ] || skip "no idle time sampled"
	run -0 --separate-stderr "$PFMON" --report="$W/idle.data" --report-format=script
	[ "$(printf '%s\n' "$output" | awk '$1 == "swapper" && $2 == 0' | wc -l)" -eq "$n" ] || false
	run -0 --separate-stderr "$PFMON" --report="$W/idle.data" --report-format=folded
	printf '%s\n' "$output" | grep -q '^swapper;'
	! printf '%s\n' "$output" | grep -q '^:0;'
}

@test "--merge of perf record's files: one profile whose counts are the files' sums, each file a rank" {
	perf record -q -e task-clock -c 100000 -g -o "$W/a.data" "$FIXTURES/hotspot" 300 >/dev/null 2>&1
	perf record -q -e task-clock -c 100000 -g -o "$W/b.data" "$FIXTURES/hotspot" 600 >/dev/null 2>&1
	# each file's own report: function -> samples, summed over the two
	for f in a b; do
		"$PFMON" --report="$W/$f.data" 2>/dev/null
	done | awk '!/^#/ { n = $1; $1 = $2 = $3 = ""; sub(/^ +/, ""); s[$0] += n }
		END { for (k in s) print s[k] "\t" k }' | sort >"$W/sums"
	run -0 --separate-stderr "$PFMON" --merge "$W/a.data" "$W/b.data"
	[ "${lines[0]}" = "# pfmon --merge: 2 of 2 ranks of job (perf.data files) on 1 host" ]
	printf '%s\n' "${lines[@]:1}" | awk '!/^#/ { n = $1; $1 = $2 = $3 = ""; sub(/^ +/, ""); print n "\t" $0 }' |
		sort | diff "$W/sums" -
	[ "$(wc -l <"$W/sums")" -gt 2 ]
	# the event line: the samples of both, as perf counts them
	a=$(perf script -i "$W/a.data" -F period 2>/dev/null | wc -l)
	b=$(perf script -i "$W/b.data" -F period 2>/dev/null | wc -l)
	[ "${lines[2]}" = "# event task-clock: $((a + b)) samples (period 100000)" ]
	# a pfmon file and a perf.data file are not one job
	"$PFMON" -e task-clock --smpl-outfile="$W/c.pfs" "$FIXTURES/hotspot" 100 >/dev/null 2>&1
	run -2 --separate-stderr "$PFMON" --merge "$W/a.data" "$W/c.pfs"
	[ "$stderr" = "error: '$W/a.data' and '$W/c.pfs' are of different jobs ('(perf.data files)' and 'none'): merge one job at a time" ]
}

@test "--report-format=script: a call chain's frame in [stack] at its address, as perf shows it" {
	# frame-pointer walks of the public corpus (tests/corpus) ran into the
	# stack: perf maps [stack], [heap] and anonymous memory to themselves
	perf record -q -e page-faults -c 1 -d -g -o "$W/pf.data" "$FIXTURES/touch_pages" 8 >/dev/null 2>&1 ||
		skip "perf record cannot sample page faults here"
	stack=$(perf script -i "$W/pf.data" --show-mmap-events 2>/dev/null |
		sed -n 's/.*PERF_RECORD_MMAP2.*\[0x\([0-9a-f]*\)(.*\[stack\]$/\1/p' | head -1)
	[ -n "$stack" ] || skip "perf recorded no [stack] mapping"
	n=$(python3 "$TESTS_SRCDIR/bats/perfdata_corpus.py" "$W/pf.data" "$W/st.data" stack "$stack")
	[ "$n" -ge 1 ]
	perf script -i "$W/st.data" 2>/dev/null | sed -E 's/ffffffff[0-9a-f]{8} [^ ]+ \([^)]*\)/KERNEL/' >"$W/perf.txt"
	grep -q "^	 *${stack%???}088 \[unknown\] (\[stack\])$" "$W/perf.txt"
	"$PFMON" --report="$W/st.data" --report-format=script 2>/dev/null |
		sed -E 's/ffffffff[0-9a-f]{8} [^ ]+ \([^)]*\)/KERNEL/' | diff "$W/perf.txt" -
}
