#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Hostile inputs to a report: the files a sample file names are not what
# they were (a FIFO, a device, a rebuilt binary), file descriptors run short.
# A report must neither hang nor credit samples to the wrong code.

bats_require_minimum_version 1.5.0
load helpers

# record FILE BINARY ARGS...: a sample file of BINARY's run
record() {
	local f=$1
	shift
	run "$PFMON" -e cpu-clock --long-smpl-periods=1000000 --smpl-outfile="$f" "$@"
	[ "$status" -eq 0 ]
}

@test "a binary replaced by a FIFO after recording: the report says so and does not hang" {
	cp "$FIXTURES/hotspot" "$BATS_TEST_TMPDIR/hot"
	record "$BATS_TEST_TMPDIR/s.pfs" "$BATS_TEST_TMPDIR/hot" 100
	rm "$BATS_TEST_TMPDIR/hot"
	mkfifo "$BATS_TEST_TMPDIR/hot"
	run timeout 20 "$PFMON" --report="$BATS_TEST_TMPDIR/s.pfs"
	[ "$status" -eq 0 ]
	[[ "$output" =~ "# cannot read $BATS_TEST_TMPDIR/hot: "[^$'\n']*"not a regular file" ]]
	[[ "$output" =~ " hot+0x" ]]
}

@test "kallsyms from a device or a FIFO: refused unread, kernel samples one lump" {
	mkfifo "$BATS_TEST_TMPDIR/kfifo"
	for k in /dev/zero "$BATS_TEST_TMPDIR/kfifo"; do
		run timeout 20 env PFMON_KALLSYMS="$k" \
			"$PFMON" -e cpu-clock --smpl-freq=5000 "$FIXTURES/kloop" write 100
		[ "$status" -eq 0 ]
		[[ "$output" =~ "# no symbols: [kernel]: '$k': not a regular file" ]]
	done
}

# the GNU build-id of an ELF file, in hex
build_id_of() {
	readelf -n "$1" | awk '/Build ID:/ { print $3; exit }'
}

@test "a binary rebuilt after recording: its samples are [unknown] (binary), one warning naming it" {
	cp "$FIXTURES/hotspot" "$BATS_TEST_TMPDIR/hot"
	record "$BATS_TEST_TMPDIR/s.pfs" "$BATS_TEST_TMPDIR/hot" 100
	[[ "$output" =~ "  hot (hot)" ]]
	# another program written over it: same path, same inode
	cp "$FIXTURES/burn" "$BATS_TEST_TMPDIR/hot"
	run --separate-stderr "$PFMON" --report="$BATS_TEST_TMPDIR/s.pfs"
	[ "$status" -eq 0 ]
	[[ "$output" =~ "  [unknown] (hot)" ]]
	# no function of hot named: its offsets mean nothing in the new file
	[ -z "$(printf '%s\n' "$output" | grep -v '^#' | grep -E '  [a-z_]+ \(hot\)$')" ]
	one_error_line "^warning: '$BATS_TEST_TMPDIR/hot' is not the binary recorded: build-id [0-9a-f]+, recorded $(build_id_of "$FIXTURES/hotspot"): its samples are shown as \[unknown\]$"
}

@test "a rebuilt binary: the recorded one is found by its build-id in the debug root" {
	cp "$FIXTURES/hotspot" "$BATS_TEST_TMPDIR/hot"
	record "$BATS_TEST_TMPDIR/s.pfs" "$BATS_TEST_TMPDIR/hot" 100
	# the file's report while the binary is the recorded one (the live
	# profile may name a late kernel sample differently)
	live=$("$PFMON" --report="$BATS_TEST_TMPDIR/s.pfs")
	id=$(build_id_of "$FIXTURES/hotspot")
	[ -n "$id" ]
	# the system's debug files stay reachable through the test's root (a
	# sample that lands in ld.so or libc by chance keeps its name), with
	# the recorded binary added
	mkdir -p "$BATS_TEST_TMPDIR/debug"
	[ ! -d /usr/lib/debug ] || cp -as /usr/lib/debug/. "$BATS_TEST_TMPDIR/debug/"
	mkdir -p "$BATS_TEST_TMPDIR/debug/.build-id/${id:0:2}"
	cp "$FIXTURES/hotspot" "$BATS_TEST_TMPDIR/debug/.build-id/${id:0:2}/${id:2}.debug"
	cp "$FIXTURES/burn" "$BATS_TEST_TMPDIR/hot"
	run --separate-stderr env PFMON_DEBUG_ROOT="$BATS_TEST_TMPDIR/debug" "$PFMON" --report="$BATS_TEST_TMPDIR/s.pfs"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$output" = "$live" ]
}

@test "a binary without a build-id: a changed mtime or size is enough to refuse it" {
	command -v objcopy >/dev/null || skip "objcopy not installed"
	objcopy --remove-section .note.gnu.build-id "$FIXTURES/hotspot" "$BATS_TEST_TMPDIR/hot"
	[ -z "$(build_id_of "$BATS_TEST_TMPDIR/hot")" ]
	record "$BATS_TEST_TMPDIR/s.pfs" "$BATS_TEST_TMPDIR/hot" 100
	live=$output
	# untouched: the same report
	run "$PFMON" --report="$BATS_TEST_TMPDIR/s.pfs"
	[ "$output" = "$live" ]
	touch -d '2001-02-03 04:05:06' "$BATS_TEST_TMPDIR/hot"
	run --separate-stderr "$PFMON" --report="$BATS_TEST_TMPDIR/s.pfs"
	[ "$status" -eq 0 ]
	[[ "$output" =~ "  [unknown] (hot)" ]]
	one_error_line "^warning: '$BATS_TEST_TMPDIR/hot' is not the binary recorded \(no build-id; inode, mtime or size changed\)"
}

# report_with THREADS ARGS...: stdout, stderr and the exit status of a report
report_with() {
	local t=$1 rc=0
	shift
	PFMON_READ_THREADS=$t "$PFMON" "$@" >"$BATS_TEST_TMPDIR/out.$t" 2>"$BATS_TEST_TMPDIR/err.$t" || rc=$?
	cat "$BATS_TEST_TMPDIR/out.$t" "$BATS_TEST_TMPDIR/err.$t"
	echo "exit $rc"
}

@test "a report read by a reading thread that folds samples: the same output as read in pfmon's thread" {
	f=$BATS_TEST_TMPDIR/g.pfs
	run -0 "$PFMON" -e cpu-clock -g --long-smpl-periods=20000 --smpl-outfile="$f" "$FIXTURES/hotspot" 300
	for view in "" --report-format=folded --report-format=svg --report-format=json --report-sort=line \
		--report-sort=address --report-sort=binary --report-format=script; do
		one=$(report_with 0 --report="$f" $view)
		[[ "$one" =~ "exit 0" ]]
		[ "$(report_with 1 --report="$f" $view)" = "$one" ]
		[ "$(report_with 4 --report="$f" $view)" = "$one" ]
	done
	# perf.data too
	run -0 "$PFMON" --report="$f" --export-perf-data="$BATS_TEST_TMPDIR/p.data"
	[ "$(report_with 1 --report="$BATS_TEST_TMPDIR/p.data")" = "$(report_with 0 --report="$BATS_TEST_TMPDIR/p.data")" ]
	# a truncated file: its warning, the samples before; a corrupted one: the same one error
	head -c $(($(stat -c %s "$f") / 2)) "$f" >"$BATS_TEST_TMPDIR/t.pfs"
	one=$(report_with 0 --report="$BATS_TEST_TMPDIR/t.pfs")
	[[ "$one" =~ "is truncated at offset" ]]
	[ "$(report_with 1 --report="$BATS_TEST_TMPDIR/t.pfs")" = "$one" ]
	cp "$f" "$BATS_TEST_TMPDIR/c.pfs"
	printf 'XXXXXXXX' | dd of="$BATS_TEST_TMPDIR/c.pfs" bs=1 seek=$(($(stat -c %s "$f") / 2)) conv=notrunc 2>/dev/null
	one=$(report_with 0 --report="$BATS_TEST_TMPDIR/c.pfs")
	[[ "$one" =~ "exit 1" ]]
	[ "$(report_with 1 --report="$BATS_TEST_TMPDIR/c.pfs")" = "$one" ]
	# a pipe is read in pfmon's own thread (it cannot be read again from its start)
	[ "$(cat "$f" | PFMON_READ_THREADS=1 "$PFMON" --report=/dev/stdin)" = "$(PFMON_READ_THREADS=0 "$PFMON" --report="$f")" ]
	PFMON_READ_THREADS=x run -2 --separate-stderr "$PFMON" --report="$f"
	one_error_line "PFMON_READ_THREADS='x': give a number of threads from 0 to 64"
}

@test "folded, JSON, SVG and script reports note the binaries without symbols or debug info, or unreadable, as the text report lists them" {
	d="$BATS_TEST_TMPDIR"
	cp "$FIXTURES/hotspot" "$d/stripped" && strip "$d/stripped"
	cp "$FIXTURES/hotspot" "$d/nodebug" && strip --strip-debug "$d/nodebug"
	cp "$FIXTURES/hotspot" "$d/gone"
	for b in stripped nodebug gone; do
		record "$d/$b.pfs" -g "$d/$b" 100
	done
	# at the end of a run too, in the formats other than text
	for b in stripped nodebug; do
		run -0 --separate-stderr "$PFMON" -e cpu-clock --long-smpl-periods=1000000 --report-format=folded "$d/$b" 50
		printf '%s\n' "$stderr" | grep -q "^note: no [a-z ]*: $d/$b$"
	done
	rm "$d/gone"
	for b in stripped nodebug gone; do
		run -0 --separate-stderr "$PFMON" --report="$d/$b.pfs"
		want=$(printf '%s\n' "$output" | sed -n 's/^# \(cannot read\|no symbols:\|no debug info:\) /note: \1 /p')
		[[ "$want" == *"$d/$b"* ]]
		for f in folded json svg script; do
			run -0 --separate-stderr "$PFMON" --report="$d/$b.pfs" --report-format=$f
			[ "$(printf '%s\n' "$stderr" | grep '^note: ')" = "$want" ] || {
				echo "$f: '$stderr', want '$want'"
				false
			}
		done
	done
}
