#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Values pfmon or the kernel cannot honour are refused up front: one line on
# stderr naming the option or the event, exit status 2 (issue 13).

bats_require_minimum_version 1.5.0
load helpers

# refused EXPECTED-REGEX ARGS...: exit 2, one stderr line matching
refused() {
	local want="$1"
	shift
	run --separate-stderr "$PFMON" "$@"
	[ "$status" -eq 2 ] || { echo "status $status for: $*; stderr: $stderr"; return 1; }
	one_error_line "$want"
}

@test "numbers: no sign, no blanks, no octal surprise, no overflow" {
	refused "^error: invalid value '010' for option '--smpl-entries': a leading 0 is refused" \
		--smpl-entries=010 -e task-clock true
	refused "^error: invalid value ' 10' for option '--smpl-entries': blanks are not allowed" \
		--smpl-entries=' 10' -e task-clock true
	refused "^error: invalid value '-5' for option '--smpl-show-top': a sign is not allowed" \
		--smpl-show-top=-5 -e task-clock true
	refused "^error: invalid value '18446744073709551616' for option '--long-smpl-periods': entry 1: too large" \
		-e task-clock --long-smpl-periods=18446744073709551616 true
	run "$PFMON" --smpl-entries=0x10 -e task-clock --smpl-outfile="$BATS_TEST_TMPDIR/s" true
	[ "$status" -eq 0 ]
}

@test "itanium2: a signed range bound is refused, not wrapped (was a shift by 64)" {
	refused "^error: invalid value '0x1200--0x20e0' for option '--irange': a sign is not allowed$" \
		--pmu=itanium2 -e L2_IFET_CANCELS_ANY --irange=0x1200--0x20e0 --check
	refused "^error: invalid value '0-0xffffffffffffffff' for option '--irange': the range crosses a 2\^56-byte boundary" \
		--pmu=itanium2 -e L2_IFET_CANCELS_ANY --irange=0-0xffffffffffffffff --check
	run --separate-stderr "$PFMON" --pmu=itanium2 -e L2_IFET_CANCELS_ANY --irange=0x0-0x0100000000000000 --check
	[ "$status" -eq 0 ] && [ -z "$stderr" ] || false
}

@test "itanium2: --checkpoint-func=-32 and --opc-match8=m:-1:-1 are refused" {
	refused "^error: invalid value '-32' for option '--checkpoint-func': a sign is not allowed$" \
		--pmu=itanium2 -e CPU_CYCLES --checkpoint-func=-32 --check
	refused "^error: invalid value 'm:-1:-1' for option '--opc-match8': a sign is not allowed$" \
		--pmu=itanium2 -e IA64_TAGGED_INST_RETIRED_IBRP0_PMC8 --opc-match8=m:-1:-1 --check
	refused "^error: invalid value 'm: 1:1' for option '--opc-match8': blanks are not allowed$" \
		--pmu=itanium2 -e IA64_TAGGED_INST_RETIRED_IBRP0_PMC8 '--opc-match8=m: 1:1' --check
}

@test "itanium2: opcode match and mask wider than 27 bits are refused, not truncated" {
	refused "^error: invalid value 'm:0x8000000:0' for option '--opc-match9': '0x8000000' is above the maximum 0x7ffffff$" \
		--pmu=itanium2 -e IA64_TAGGED_INST_RETIRED_IBRP1_PMC9 --opc-match9=m:0x8000000:0 --check
	run "$PFMON" --pmu=itanium2 -e IA64_TAGGED_INST_RETIRED_IBRP1_PMC9 --opc-match9=m:0x7ffffff:0 --check
	[ "$status" -eq 0 ]
}

@test "event modifiers: values through the same parser" {
	refused "^error: event 'INST_RETIRED:ANY_P:c=010': invalid value '010' for modifier 'c': a leading 0" \
		-e INST_RETIRED:ANY_P:c=010 --pmu=host true
	LIBPFM_FORCE_PMU=skl run "$PFMON" --check -e INST_RETIRED:ANY_P:c=0x2
	[ "$status" -eq 0 ] && [[ "$output" == *config=0x20000c0* ]] || false
}

@test "breakpoints the kernel would refuse are refused first, naming the event" {
	refused "^error: invalid event 'mem: 0x1000': breakpoint address: blanks are not allowed" -e 'mem: 0x1000' true
	refused "^error: invalid event 'mem:0x1000:': breakpoint access after ':' is r, w, x or rw$" -e 'mem:0x1000:' true
	refused "^error: invalid event 'mem:-8': breakpoint address: a sign is not allowed" -e 'mem:-8' true
	refused "^error: invalid event 'mem:0x10000000000000000': breakpoint address: too large" \
		-e 'mem:0x10000000000000000' true
	refused "^error: invalid event 'mem:0xfffffffffffffffc/8': breakpoint \[0xfffffffffffffffc, \+8\) wraps" \
		-e 'mem:0xfffffffffffffffc/8' true
	refused "^error: invalid event 'mem:0xffffffff81000000': a kernel address cannot be watched at user level" \
		-e 'mem:0xffffffff81000000' true
	refused "^error: invalid event 'mem:0x1000:rw/4': breakpoint access after ':' is r, w, x or rw$" \
		-e 'mem:0x1000:rw/4' true
}

@test "sampling frequency above kernel.perf_event_max_sample_rate: a usage error naming it" {
	max=$(cat /proc/sys/kernel/perf_event_max_sample_rate 2>/dev/null) || skip "no perf_event_max_sample_rate"
	[ "$max" -lt 1000000 ] || skip "the limit is above pfmon's own (1000000)"
	refused "^error: option '--smpl-freq': $((max + 1)) Hz is above the kernel's limit of $max Hz" \
		-e task-clock -F $((max + 1)) true
}

@test "periods that can reach 2^63 after randomization are refused" {
	refused "^error: option '--smpl-periods-random': event 1 of set 0: period 1000 plus mask 0xffffffffffffffff can reach 2\^63" \
		-e task-clock --long-smpl-periods=1000 --smpl-periods-random=0xffffffffffffffff true
	refused "^error: option '--smpl-periods-random': event 1 of set 0: period 9223372036854775000 plus mask 0x3ff" \
		-e task-clock --long-smpl-periods=9223372036854775000 --smpl-periods-random=0x3ff true
	refused "^error: invalid value '9223372036854775808' for option '--long-smpl-periods': entry 1: periods are from 1 to 2\^63-1$" \
		-e task-clock --long-smpl-periods=9223372036854775808 true
}

@test "options that would do nothing are refused (issue 13, section 5)" {
	f="$BATS_TEST_TMPDIR/s.pfs"
	refused "^error: option '--outfile' is not used when sampling \(it is for counting and --merge and --metrics-from\)$" \
		-e task-clock --smpl-outfile="$f" --outfile="$BATS_TEST_TMPDIR/o" true
	"$PFMON" -e task-clock --smpl-outfile="$f" true >/dev/null 2>&1
	refused "^error: option '--outfile' is not used with --report \(it is for counting and --merge and --metrics-from\)$" \
		--report="$f" --outfile="$BATS_TEST_TMPDIR/o"
	refused "^error: option '--json' is not used when sampling" -e task-clock --smpl-outfile="$f" --json true
	refused "^error: options '--json' and '--csv' cannot be combined" -e task-clock --json --csv true
	refused "^error: option '--append' needs --outfile$" -e task-clock --append true
	refused "^error: option '--smpl-freq' is not used when every event set has sampling periods$" \
		-e task-clock --long-smpl-periods=100000 -F 100 true
	refused "^error: option '--long-smpl-periods' has 2 entries but event set 0 has 1 event$" \
		-e task-clock --long-smpl-periods=100000,100000 true
	refused "^error: option '--priv-levels' has 2 entries but event set 0 has 1 event$" \
		-e task-clock --priv-levels=u,k true
	refused "^error: invalid value '' for option '--long-smpl-periods': the list is empty$" \
		-e task-clock --long-smpl-periods= true
	for o in smpl-branch-stack smpl-weight smpl-data-src smpl-data-addr callchain; do
		refused "^error: option '--$o' is not used when counting \(it is for sampling\)$" -e task-clock --$o true
	done
	# the kernel would store zeros: refused before anything runs, naming the event
	refused "^error: event 'task-clock': --smpl-weight needs a hardware event that records latencies; " \
		-e task-clock -F 100 --smpl-weight touch "$BATS_TEST_TMPDIR/ran"
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	refused "^error: event 'mem:0x1000:w': --smpl-data-src needs a hardware event that records data sources; " \
		-e mem:0x1000:w --long-smpl-periods=1 --smpl-data-src true
	refused "^error: event 'perf::task-clock:period=1000': modifier 'period' is not supported" \
		-e perf::task-clock:period=1000 true
	refused "^error: event 'perf::task-clock:freq=10': modifier 'freq' is not supported" \
		-e perf::task-clock:freq=10 true
	refused "^error: event 'perf::task-clock:cpu=99': modifier 'cpu' is not supported" \
		-e perf::task-clock:cpu=99 true
	refused "^error: invalid value '\"' for option '--csv': the separator cannot hold a quote or a control character$" \
		-e task-clock '--csv="' true
	refused "^error: invalid value 'a\\\\nb' for option '--csv': the separator cannot hold a quote or a control character$" \
		-e task-clock "--csv=$(printf 'a\nb')" true
	run --separate-stderr "$PFMON" -e task-clock "$(printf 'no\nerror: forged')"
	[ "$status" -eq 127 ]
	one_error_line "^error: cannot execute 'no\\\\nerror: forged': "
	refused "^error: option '--pl1' is for the Itanium 2 model \(--pmu=itanium2\)$" -e task-clock -1 true
	refused "^error: option '--pl2' is for the Itanium 2 model \(--pmu=itanium2\)$" -e task-clock -2 true
	refused "^error: option '--priv-levels': levels 1 and 2 exist only on Itanium" -e task-clock --priv-levels=1 true
	refused "^error: option '--system-wide' is not used with --check on the host \\(it is the Itanium 2 model's pm bit there\\)$" --check -e task-clock --system-wide
	refused "^error: option '--irange' is for the Itanium 2 model" -e task-clock --irange=0x1000-0x2000 true
	run "$PFMON" --pmu=itanium2 -e CPU_CYCLES --system-wide --check
	[ "$status" -eq 0 ]
}

@test "one line means one line: user strings are escaped in text reports" {
	f="$BATS_TEST_TMPDIR/s.pfs"
	run --separate-stderr "$PFMON" -e task-clock --with-header -- sh -c 'true' "$(printf 'x\n# forged')"
	[ "$status" -eq 0 ]
	[[ "$output" == *'# command: sh -c true x\n# forged'* ]]
	! grep -q '^# forged' <<<"$output"
	"$PFMON" -e task-clock --smpl-outfile="$f" "$FIXTURES/hotspot" 20 >/dev/null 2>&1
	cp "$f" "$BATS_TEST_TMPDIR/$(printf 'a\nb').pfs"
	run --separate-stderr "$PFMON" --report="$BATS_TEST_TMPDIR/$(printf 'a\nb').pfs"
	[ "$status" -eq 0 ]
}

@test "folded output says on stderr, once each, which binaries could not be read" {
	d="$BATS_TEST_TMPDIR"
	cp "$FIXTURES/hotspot" "$d/hs"
	"$PFMON" -e task-clock --smpl-outfile="$d/s.pfs" "$d/hs" 30 >/dev/null 2>&1
	# unreadable: gone since recording (root reads a mode-000 file anyway)
	rm "$d/hs"
	run --separate-stderr "$PFMON" --report="$d/s.pfs" --report-format=folded
	[ "$status" -eq 0 ]
	[ "$(grep -c "^note: cannot read $d/hs: " <<<"$stderr")" -eq 1 ]
	! grep -q '^#' <<<"$output"
	# and when it is not a regular file
	mkfifo "$d/hs"
	run --separate-stderr timeout 20 "$PFMON" --report="$d/s.pfs" --report-format=folded
	[ "$status" -eq 0 ]
	[ "$(grep -c "^note: cannot read $d/hs: .*not a regular file" <<<"$stderr")" -eq 1 ]
}
