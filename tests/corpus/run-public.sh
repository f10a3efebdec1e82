#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Read every perf.data file of a directory with perf and with pfmon, side by
# side, and print one line a file:
#   FILE: agree | differ (WHY) | pfmon error (WHY) | perf error (WHY)
# then a tally.  Each tool gets 60 s and 4 GiB of address space a run
# (pfmon's "hang" and "crash", perf's the same); pfmon's stderr is also
# searched for sanitizer reports (a build with --enable-sanitizers).
# A file perf 6.1 refuses for its 136-byte attributes (perf 6.3 and later)
# is given to perf through shrink-attr.py (the same file with the
# attributes of perf 6.1 when the bytes cut off are zero).
#
#   tests/corpus/run-public.sh DIR [PFMON] [WORKDIR]
# PFMON defaults to ./pfmon; the outputs of each file are kept in WORKDIR
# (default a temporary directory, removed) for compare.py to be rerun.
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:?usage: run-public.sh DIR [PFMON] [WORKDIR]}
pfmon=${2:-./pfmon}
work=${3:-}
[ -n "$work" ] || { work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; }
mkdir -p "$work"
lim() { (ulimit -v 4194304; timeout 60 "$@"); }
fail() {   # why a run that exited $1 failed, from its stderr $2
	case $1 in
	124) echo hang;;
	12[5-9]|1[3-9][0-9]|2[0-4][0-9]|25[0-4]) echo "crash: exit $1";;
	*) grep -m1 -v '^ *$' "$2" | cut -c1-120;;
	esac
}
n=0
for f in "$dir"/*; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	d=$work/$n
	mkdir -p "$d"
	echo "$f" > "$d/name"
	printf '%s: ' "$(basename "$f")"
	lim "$pfmon" --report="$f" --report-format=script > "$d/script.pfmon" 2> "$d/err.pfmon"
	rc=$?
	if grep -q -E 'runtime error|AddressSanitizer|LeakSanitizer' "$d/err.pfmon"; then
		echo "pfmon error (sanitizer: $(grep -m1 -E 'runtime error|ERROR: .*Sanitizer' "$d/err.pfmon" | cut -c1-120))"
		continue
	fi
	if [ $rc -ne 0 ]; then
		echo "pfmon error ($(fail $rc "$d/err.pfmon"))"
		continue
	fi
	pf=$f
	perf report -v -i "$f" --header-only > /dev/null 2> "$d/err.perf"
	if grep -q 'more recent and unsupported ABI' "$d/err.perf" &&
	   python3 "$here/shrink-attr.py" "$f" "$d/shrunk.data" 128 2>> "$d/err.perf"; then
		pf=$d/shrunk.data
		echo "perf 6.3+ attributes, shrunk for perf" > "$d/note"
	fi
	lim perf script -i "$pf" --no-inline > "$d/script.perf" 2> "$d/err.perf"
	rc=$?
	if [ $rc -ne 0 ] || { [ ! -s "$d/script.perf" ] && [ -s "$d/script.pfmon" ]; }; then
		echo "perf error ($(fail $rc "$d/err.perf"))"
		continue
	fi
	for key in dso:binary sym:function; do
		lim perf report -i "$pf" --stdio --no-children -g none --sort "${key%:*}" \
			-F "sample,${key%:*}" > "$d/${key%:*}.perf" 2>/dev/null
		lim "$pfmon" --report="$f" --report-sort="${key#*:}" > "$d/${key%:*}.pfmon" 2>> "$d/err.pfmon"
	done
	if grep -q -m1 '^	' "$d/script.perf"; then
		lim perf script -i "$pf" --no-inline -F comm,ip,sym,dso 2>/dev/null |
			awk -f "$here/../../bench/unwind/fold-perf.awk" > "$d/folded.perf"
		lim "$pfmon" --report="$f" --report-format=folded > "$d/folded.pfmon" 2>> "$d/err.pfmon"
	fi
	if grep -q -E 'runtime error|AddressSanitizer|LeakSanitizer' "$d/err.pfmon"; then
		echo "pfmon error (sanitizer: $(grep -m1 -E 'runtime error|ERROR: .*Sanitizer' "$d/err.pfmon" | cut -c1-120))"
		continue
	fi
	python3 "$here/compare.py" "$d"
done | tee "$work/results"
sed 's/^.*: \(agree\|differ\|pfmon error\|perf error\).*/\1/' "$work/results" | sort | uniq -c
