#!/usr/bin/env bats
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
