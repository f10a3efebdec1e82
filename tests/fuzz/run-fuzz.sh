#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Run the libFuzzer targets (built by 'make fuzz') for a bounded time each,
# on their seed corpora, one after the other.
#
#   run-fuzz.sh SECONDS [TARGET...]     (default: every target built)
#
# Run from the build directory.  The seeds are read from
# tests/fuzz/corpus/<target>/ of the source tree and never written: what
# the fuzzer adds goes to a scratch directory ($FUZZ_WORKDIR, default a
# temporary one removed at the end).  One line per target:
#
#   PASS: fuzz/<target> (N runs, cov C, ft F)
#   FAIL: fuzz/<target> (<libFuzzer's verdict>), then its report
#
# A crash, sanitizer report, leak, timeout (-timeout, 10 s per input) or
# out-of-memory is a failure; the input that caused it is kept under
# tests/fuzz/crashes/ and named in the report.  Exit status 1 if any failed.
set -u

seconds=${1:?usage: run-fuzz.sh SECONDS [TARGET...]}
shift
srcdir=$(cd "$(dirname "$0")/../.." && pwd)
bindir=tests/fuzz/bin
if [ $# -eq 0 ]; then
	[ -d "$bindir" ] || { echo "error: no $bindir: run 'make fuzz' first" >&2; exit 1; }
	set -- $(ls "$bindir")
fi
work=${FUZZ_WORKDIR:-}
if [ -z "$work" ]; then
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi
mkdir -p tests/fuzz/crashes

failed=0
for t in "$@"; do
	log=$work/$t.log
	mkdir -p "$work/$t"
	LSAN_OPTIONS="suppressions=$srcdir/tests/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}" \
	"$bindir/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="tests/fuzz/crashes/$t-" \
		"$work/$t" "$srcdir/tests/fuzz/corpus/$t" >"$log" 2>&1
	status=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -n 1)
	cov=$(printf '%s\n' "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
	ft=$(printf '%s\n' "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
	if [ "$status" -eq 0 ] && grep -q '^Done [0-9]* runs' "$log"; then
		echo "PASS: fuzz/$t (${runs:-?} runs, cov ${cov:-?}, ft ${ft:-?})"
	else
		failed=1
		verdict=$(grep -m1 -E '^==[0-9]+==ERROR|^SUMMARY|ALARM|out-of-memory|deadly signal' "$log")
		echo "FAIL: fuzz/$t (${verdict:-exit status $status})"
		tail -n 60 "$log" | sed 's/^/    /'
	fi
done
exit $failed
