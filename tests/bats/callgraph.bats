#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# DWARF call graphs (--call-graph=dwarf): user stacks copied with each
# sample and unwound at report time through the binaries' CFI, on a
# program built without frame pointers (-O2 -fomit-frame-pointer) whose
# call tree is known: main -> a -> b -> hot (3/4), main -> a -> c -> cold.

bats_require_minimum_version 1.5.0
load helpers

STATS="$TESTS_SRCDIR/../bench/unwind/stack-stats.awk"
FOLD_PERF="$TESTS_SRCDIR/../bench/unwind/fold-perf.awk"

setup() {
	TMP=$(mktemp -d)
}

teardown() {
	rm -rf "$TMP"
}

# samples whose stack holds the frames SEQ (";" between them) in a row
frames_count() {
	printf '%s\n' "$output" | awk -v seq="$1" '{ n = $NF; s = $0; sub(/ [0-9]+$/, "", s);
		if (index(";" s ";", ";" seq ";")) t += n } END { print t + 0 }'
}

# samples whose stack starts with the frames PREFIX after its root, the
# process's name
root_count() {
	printf '%s\n' "$output" | awk -v p="$1" '{ n = $NF; s = $0; sub(/ [0-9]+$/, "", s); sub(/^[^;]*;/, "", s);
		if (s == p || index(s, p ";") == 1) t += n } END { print t + 0 }'
}

START="_start;__libc_start_main@@GLIBC_2.34;__libc_start_call_main"

@test "--call-graph=dwarf: the full paths of a program without frame pointers, and their shares" {
	run -0 "$PFMON" -e cpu-clock --smpl-freq=1000 --call-graph=dwarf --report-format=folded \
		"$FIXTURES/calltree" 400
	hot=$(frames_count hot)
	cold=$(frames_count cold)
	full_hot=$(root_count "$START;main;a;b;hot")
	full_cold=$(root_count "$START;main;a;c;cold")
	echo "hot $hot (full path $full_hot), cold $cold (full path $full_cold)"
	[ "$hot" -ge 100 ] && [ "$cold" -ge 30 ] || false
	# every sample in hot or cold has its whole path, down to _start
	[ "$full_hot" -eq "$hot" ]
	[ "$full_cold" -eq "$cold" ]
	# hot does 3/4 of the work
	share=$((100 * hot / (hot + cold)))
	[ "$share" -ge 65 ] && [ "$share" -le 85 ] || false
}

@test "-g alone cannot follow the same program: why --call-graph=dwarf exists" {
	run -0 "$PFMON" -e cpu-clock --smpl-freq=1000 -g --report-format=folded "$FIXTURES/calltree" 400
	hot=$(frames_count hot)
	full=$(frames_count "main;a;b;hot")
	echo "hot $hot, with its callers $full"
	[ "$hot" -ge 100 ]
	# no frame pointer chain: the callers of hot are lost
	[ "$full" -le $((hot / 10)) ]
}

@test "--call-graph=fp is -g" {
	run -0 "$PFMON" -e cpu-clock --smpl-freq=1000 --call-graph=fp --report-format=folded "$FIXTURES/calltree" 200
	[ "$(frames_count 'main;a;b;hot')" -le "$(($(frames_count hot) / 10))" ]
	# frame pointers: no user stack in the file
	run -0 "$PFMON" -e cpu-clock --smpl-freq=1000 --call-graph=fp --smpl-outfile="$TMP/fp.smpl" \
		"$FIXTURES/calltree" 100
	run -0 "$PFMON" -e cpu-clock --smpl-freq=1000 --call-graph=dwarf --smpl-outfile="$TMP/dwarf.smpl" \
		"$FIXTURES/calltree" 100
	[ "$(stat -c %s "$TMP/dwarf.smpl")" -gt "$(stat -c %s "$TMP/fp.smpl")" ]
}

@test "--call-graph values are checked (lbr is one: see branch.bats)" {
	for bad in dwarf,12 dwarf,0 dwarf,65536 dwarf,x fp,8 dwarf, ''; do
		run -2 --separate-stderr "$PFMON" -e cpu-clock --smpl-freq=100 --call-graph="$bad" true
		one_error_line "^error: invalid value '$bad' for option '--call-graph': "
	done
	run -0 "$PFMON" -e cpu-clock --smpl-freq=100 --call-graph=dwarf,65528 true
}

@test "a report of the sample file unwinds the same stacks as the end of the run" {
	run -0 --separate-stderr "$PFMON" -e cpu-clock --smpl-freq=1000 --call-graph=dwarf --report-format=folded \
		--smpl-outfile="$TMP/ct.smpl" "$FIXTURES/calltree" 200
	printf '%s\n' "$output" | sort > "$TMP/live"
	run -0 --separate-stderr "$PFMON" --report="$TMP/ct.smpl" --report-format=folded
	printf '%s\n' "$output" | sort > "$TMP/file"
	diff "$TMP/live" "$TMP/file"
	grep -q ';main;a;b;hot ' "$TMP/file"
}

# bytes_per_sample FORMAT: record calltree into $TMP/bps.FORMAT; "SAMPLES BYTES/SAMPLE".
# Without address-space randomization (setarch -R) and with an empty
# environment: the kernel moves the stack top down by a random 0-8 KiB at
# each exec, which changes how much of the stack each copy holds (a run
# took 195 B a sample, the next 759), and the environment is stored too.
bytes_per_sample() {
	run -0 --separate-stderr env -i setarch -R "$PFMON" -e cpu-clock --smpl-freq=1000 --call-graph=dwarf \
		--smpl-format="$1" --report-format=folded --smpl-outfile="$TMP/bps.$1" "$FIXTURES/calltree" 300
	local samples bytes
	samples=$(printf '%s\n' "$output" | awk '{ t += $NF } END { print t }')
	bytes=$(stat -c %s "$TMP/bps.$1")
	echo "$1: $samples samples, $bytes bytes: $((bytes / samples)) bytes per sample" >&2
	echo "$samples $((bytes / samples))"
}

@test "the stacks are stored compactly: the used part, as a difference from the thread's last" {
	setarch -R true 2>/dev/null || skip "setarch -R (no address-space randomization) is not permitted here"
	read -r samples pfmon_bps < <(bytes_per_sample pfmon)
	read -r perf_samples perf_bps < <(bytes_per_sample perf)
	[ "$samples" -ge 100 ] && [ "$perf_samples" -ge 100 ] || false
	# a perf.data sample holds its whole used stack (pfmon writes that
	# part; perf record 8 KiB and more); pfmon's file the difference from
	# the thread's last
	[ "$pfmon_bps" -le 1024 ]
	[ $((pfmon_bps * 3)) -le "$perf_bps" ]
}

@test "the vDSO is unwound through" {
	run -0 "$PFMON" -e cpu-clock --smpl-freq=2000 --call-graph=dwarf --report-format=folded "$FIXTURES/hotspot" 300
	# libc's clock_gettime by the name perf gives its address (libc6-dbg's
	# clock_gettime@@GLIBC_2.17 among __clock_gettime and __GI___clock_gettime)
	[[ "$output" =~ main\;(hot|cold)\;[^\;]*clock_gettime[^\;]*\;__vdso_clock_gettime ]]
}

@test "CFI only in the .debug_frame of the separate debug file" {
	! readelf -S "$FIXTURES/calltree-debugframe" | grep -q debug_frame
	run -0 "$PFMON" -e cpu-clock --smpl-freq=1000 --call-graph=dwarf --report-format=folded \
		"$FIXTURES/calltree-debugframe" 300
	hot=$(frames_count hot)
	[ "$hot" -ge 50 ]
	[ "$(root_count "$START;main;a;b;hot")" -eq "$hot" ]
}

@test "no CFI: the frames end with a marker" {
	run -0 "$PFMON" -e cpu-clock --smpl-freq=1000 --call-graph=dwarf --report-format=folded \
		"$FIXTURES/calltree-nocfi" 300
	hot=$(root_count '[unwind: no CFI];hot')
	echo "hot with the marker: $hot"
	[ "$hot" -ge 50 ]
	! [[ "$output" =~ "main;a;b;hot" ]]
}

@test "truncated stack copies end with a marker" {
	run -0 "$PFMON" -e cpu-clock --smpl-freq=1000 --call-graph=dwarf,16 --report-format=folded \
		"$FIXTURES/calltree" 300
	marked=$(printf '%s\n' "$output" | awk '/^calltree;\[unwind: stack copy ends\];/ { t += $NF } END { print t + 0 }')
	echo "ended by the copy: $marked"
	[ "$marked" -ge 50 ]
	# every stack reaches _start or says why it does not (a sample in _start
	# itself is a whole stack of one frame: 'calltree;_start N')
	! printf '%s\n' "$output" | grep -v -E '^calltree;(_start|\[unwind: [a-zA-Z ]+\])[; ]'
}

@test "a binary replaced after the run is not unwound through" {
	cp "$FIXTURES/calltree" "$TMP/prog"
	run -0 --separate-stderr "$PFMON" -e cpu-clock --smpl-freq=1000 --call-graph=dwarf \
		--smpl-outfile="$TMP/p.smpl" "$TMP/prog" 200
	cp "$FIXTURES/calltree-nocfi" "$TMP/prog"
	run -0 --separate-stderr "$PFMON" --report="$TMP/p.smpl" --report-format=folded
	[[ "$stderr" =~ "warning: '$TMP/prog' is " ]]
	n=$(printf '%s\n' "$output" | awk '/^prog;\[unwind: binary replaced\];\[unknown\] \(prog\)/ { t += $NF } END { print t + 0 }')
	[ "$n" -ge 50 ]
	! [[ "$output" =~ ";main;" ]]
}

@test "hostile user stacks in a sample file: one error, no crash" {
	run -0 --separate-stderr "$PFMON" -e cpu-clock --smpl-freq=1000 --call-graph=dwarf \
		--smpl-outfile="$TMP/ok.smpl" "$FIXTURES/calltree" 50
	size=$(stat -c %s "$TMP/ok.smpl")
	# every byte of the second half changed in turn would take long: a stride
	for off in $(seq $((size / 2)) 97 $((size - 64))); do
		cp "$TMP/ok.smpl" "$TMP/bad.smpl"
		printf '\377' | dd of="$TMP/bad.smpl" bs=1 seek="$off" conv=notrunc 2>/dev/null
		run --separate-stderr "$PFMON" --report="$TMP/bad.smpl" --report-format=folded
		[ "$status" -eq 0 ] || [ "$status" -eq 1 ]
		[ "${#stderr_lines[@]}" -le 2 ]
	done
}

@test "Debian's python3: no more unknown stacks than perf record --call-graph dwarf" {
	command -v perf >/dev/null || skip "perf is not installed"
	[ -x /usr/bin/python3 ] || skip "/usr/bin/python3 is not installed"
	cp "$TESTS_SRCDIR/../bench/unwind/work.py" "$TMP/work.py"
	run -0 --separate-stderr "$PFMON" -e task-clock --smpl-freq=1000 --call-graph=dwarf --report-format=folded \
		/usr/bin/python3 "$TMP/work.py" 100
	printf '%s\n' "$output" > "$TMP/pfmon.folded"
	perf record -q -F 1000 --call-graph dwarf -e task-clock -o "$TMP/perf.data" \
		-- /usr/bin/python3 "$TMP/work.py" 100 >/dev/null 2>&1
	perf script -i "$TMP/perf.data" -F comm,ip,sym,dso 2>/dev/null | awk -f "$FOLD_PERF" > "$TMP/perf.folded"
	read -r _ p_stacks _ p_samples _ p_unk _ p_unk_samples < <(awk -f "$STATS" "$TMP/pfmon.folded")
	read -r _ f_stacks _ f_samples _ f_unk _ f_unk_samples < <(awk -f "$STATS" "$TMP/perf.folded")
	echo "pfmon: $p_unk of $p_stacks stacks unknown ($p_unk_samples of $p_samples samples)"
	echo "perf:  $f_unk of $f_stacks stacks unknown ($f_unk_samples of $f_samples samples)"
	[ "$p_samples" -ge 200 ]
	[ "$f_samples" -ge 200 ]
	# the share of samples in unknown stacks, in thousandths: at most perf's,
	# with two percentage points for sampling noise (both are about one
	# percent: stacks deeper than the 8 KiB copy, different samples each)
	[ $((1000 * p_unk_samples / p_samples)) -le $((1000 * f_unk_samples / f_samples + 20)) ]
}

# ----- perf record --call-graph dwarf's files: perf's samples, pfmon's unwinder

# perf_dwarf OUT ARGS...: perf record --call-graph dwarf of ARGS into OUT
perf_dwarf() {
	local out=$1
	shift
	perf record -q -F 1000 -e task-clock --call-graph dwarf -o "$out" -- "$@" >/dev/null 2>&1
}

# perf's folded stacks of FILE, named as pfmon names them
perf_folded() {
	perf script -i "$1" -F comm,ip,sym,dso 2>/dev/null | awk -f "$FOLD_PERF"
}

@test "perf record --call-graph dwarf's file: pfmon unwinds perf's samples, the paths and shares perf script gives" {
	command -v perf >/dev/null || skip "perf is not installed"
	perf_dwarf "$TMP/perf.data" "$FIXTURES/calltree" 400
	perf_folded "$TMP/perf.data" > "$TMP/perf.folded"
	run -0 --separate-stderr "$PFMON" --report="$TMP/perf.data" --report-format=folded
	hot=$(frames_count hot)
	cold=$(frames_count cold)
	total=$(printf '%s\n' "$output" | awk '{ t += $NF } END { print t + 0 }')
	# perf drops __libc_start_main (its debug name is __libc_start_main_impl)
	output=$(cat "$TMP/perf.folded")
	p_hot=$(frames_count "main;a;b;hot")
	p_cold=$(frames_count "main;a;c;cold")
	p_total=$(awk '{ t += $NF } END { print t + 0 }' "$TMP/perf.folded")
	echo "pfmon: hot $hot cold $cold of $total; perf script: hot $p_hot cold $p_cold of $p_total"
	[ "$hot" -ge 100 ] && [ "$cold" -ge 30 ] || false
	[ "$total" -eq "$p_total" ]
	# every sample in hot or cold has its whole path, down to _start
	run -0 --separate-stderr "$PFMON" --report="$TMP/perf.data" --report-format=folded
	[ "$(root_count "$START;main;a;b;hot")" -eq "$hot" ]
	[ "$(root_count "$START;main;a;c;cold")" -eq "$cold" ]
	# the same samples: shares within one point (in thousandths)
	d=$((1000 * hot / total - 1000 * p_hot / p_total))
	[ "${d#-}" -le 10 ]
	d=$((1000 * cold / total - 1000 * p_cold / p_total))
	[ "${d#-}" -le 10 ]
}

@test "perf record --call-graph dwarf's file: the same stacks in the SVG flame graph and the JSON report" {
	command -v perf >/dev/null || skip "perf is not installed"
	perf_dwarf "$TMP/perf.data" "$FIXTURES/calltree" 200
	run -0 --separate-stderr "$PFMON" --report="$TMP/perf.data" --report-format=svg
	printf '%s\n' "$output" > "$TMP/f.svg"
	python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$TMP/f.svg"
	for f in main a b c hot cold; do
		grep -q "<title>$f (calltree): [0-9]* samples" "$TMP/f.svg" || { echo "no frame $f"; false; }
	done
	run -0 --separate-stderr "$PFMON" --report="$TMP/perf.data" --report-format=json
	# the hottest call chain, leaf first, down to _start
	printf '%s\n' "$output" | jq -e '.callchains | max_by(.samples) | [.frames[].name][0:4] == ["hot", "b", "a", "main"]'
	printf '%s\n' "$output" | jq -e '.callchains | max_by(.samples) | .frames[-1].name == "_start"'
}

@test "Debian's python3, perf's own file: no more unknown stacks than perf script finds in it" {
	command -v perf >/dev/null || skip "perf is not installed"
	[ -x /usr/bin/python3 ] || skip "/usr/bin/python3 is not installed"
	cp "$TESTS_SRCDIR/../bench/unwind/work.py" "$TMP/work.py"
	perf_dwarf "$TMP/perf.data" /usr/bin/python3 "$TMP/work.py" 100
	run -0 --separate-stderr "$PFMON" --report="$TMP/perf.data" --report-format=folded
	printf '%s\n' "$output" > "$TMP/pfmon.folded"
	perf_folded "$TMP/perf.data" > "$TMP/perf.folded"
	read -r _ p_stacks _ p_samples _ p_unk _ p_unk_samples < <(awk -f "$STATS" "$TMP/pfmon.folded")
	read -r _ f_stacks _ f_samples _ f_unk _ f_unk_samples < <(awk -f "$STATS" "$TMP/perf.folded")
	echo "pfmon: $p_unk of $p_stacks stacks unknown ($p_unk_samples of $p_samples samples)"
	echo "perf:  $f_unk of $f_stacks stacks unknown ($f_unk_samples of $f_samples samples)"
	[ "$p_samples" -ge 200 ]
	# the same samples: exactly
	[ "$p_samples" -eq "$f_samples" ]
	[ "$p_unk_samples" -le "$f_unk_samples" ]
}

# every stack through decoy_hot of a decoy run, root first: none walked
# into the decoy frame (the few samples elsewhere, in main, a or the PLT
# stub, do not count)
decoy_stacks_whole() {
	local want="decoy;$START;main;a;decoy_hot"
	printf '%s\n' "$output" | awk -v want="$want" '
		/;decoy_hot( |;)/ { n += $NF } index($0, want) == 1 { ok += $NF }
		!/;decoy_hot( |;)/ { print "not in decoy_hot: " $0 }
		END { print "whole stacks: " ok + 0 " of " n + 0; exit !(n >= 50 && ok == n) }'
}

@test "a library's leaf under a caller whose rbp is a decoy: libdwfl knows each binary before it steps out (no rbp guess)" {
	# decoy_hot runs with rbp pointing at a made-up frame; a binary not yet
	# reported to libdwfl when it unwinds a frame makes it follow rbp there
	# (python3's first samples in malloc did, about one run in five)
	for i in 1 2 3; do
		"$PFMON" -e task-clock --call-graph=dwarf --smpl-outfile="$TMP/d$i.pfs" "$FIXTURES/decoy" 600 >/dev/null
		run -0 --separate-stderr "$PFMON" --report="$TMP/d$i.pfs" --report-format=folded
		decoy_stacks_whole
	done
	command -v perf >/dev/null || skip "perf is not installed"
	perf_dwarf "$TMP/perf.data" "$FIXTURES/decoy" 600
	run -0 --separate-stderr "$PFMON" --report="$TMP/perf.data" --report-format=folded
	decoy_stacks_whole
}

@test "perf record --call-graph dwarf,64: the short stack copies end with a marker" {
	command -v perf >/dev/null || skip "perf is not installed"
	perf record -q -F 1000 -e task-clock --call-graph dwarf,64 -o "$TMP/perf.data" -- \
		"$FIXTURES/calltree" 200 >/dev/null 2>&1
	run -0 --separate-stderr "$PFMON" --report="$TMP/perf.data" --report-format=folded
	marked=$(printf '%s\n' "$output" | awk '/^calltree;\[unwind: stack copy ends\];/ { t += $NF } END { print t + 0 }')
	echo "ended by the copy: $marked"
	[ "$marked" -ge 50 ]
	! printf '%s\n' "$output" | grep -v -E '^calltree;(_start|\[unwind: [a-zA-Z0-9 -]+\])[; ]'
}

@test "hostile user registers and stacks in perf.data: one error line or a marker, no crash" {
	command -v perf >/dev/null || skip "perf is not installed"
	perf_dwarf "$TMP/perf.data" "$FIXTURES/calltree" 50
	run -0 --separate-stderr "$PFMON" --report="$TMP/perf.data" --report-format=folded
	printf '%s\n' "$output" | sort > "$TMP/good"
	patch() { python3 "$TESTS_SRCDIR/bats/perfdata_patch.py" "$TMP/perf.data" "$TMP/bad.data" "$1"; }
	# a stack size past the end of its record
	[ "$(patch stack-size)" -eq 1 ]
	run -1 --separate-stderr "$PFMON" --report="$TMP/bad.data" --report-format=folded
	one_error_line "^error: '$TMP/bad.data': record at offset [0-9]+: .*user stack overruns the record$"
	# dyn_size larger than the copy: the copy's size is what is used
	[ "$(patch dyn-size)" -ge 20 ]
	run -0 --separate-stderr "$PFMON" --report="$TMP/bad.data" --report-format=folded
	diff "$TMP/good" <(printf '%s\n' "$output" | sort)
	# a 32-bit process's registers are not read as x86-64 ones
	[ "$(patch abi32)" -ge 20 ]
	run -0 --separate-stderr "$PFMON" --report="$TMP/bad.data" --report-format=folded
	! printf '%s\n' "$output" | grep -v '^calltree;\[unwind: not 64-bit registers\];'
	# more registers than were recorded: the stack bytes read as registers
	patch all-regs
	run --separate-stderr "$PFMON" --report="$TMP/bad.data" --report-format=folded
	[ "$status" -eq 0 ] || [ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -le 1 ]
}

@test "--call-graph=dwarf --smpl-format=perf: perf script unwinds the stacks pfmon wrote, and so does pfmon" {
	command -v perf >/dev/null || skip "perf is not installed"
	run -0 "$PFMON" -e cpu-clock --smpl-freq=1000 --call-graph=dwarf --smpl-format=perf \
		--smpl-outfile="$TMP/p.data" "$FIXTURES/calltree" 400
	output=$(perf_folded "$TMP/p.data")
	p_hot=$(frames_count "main;a;b;hot")
	p_cold=$(frames_count "main;a;c;cold")
	p_total=$(printf '%s\n' "$output" | awk '{ t += $NF } END { print t + 0 }')
	run -0 --separate-stderr "$PFMON" --report="$TMP/p.data" --report-format=folded
	hot=$(root_count "$START;main;a;b;hot")
	cold=$(root_count "$START;main;a;c;cold")
	echo "perf script: hot $p_hot cold $p_cold of $p_total; pfmon: hot $hot cold $cold"
	[ "$p_hot" -ge 100 ] && [ "$p_cold" -ge 30 ] || false
	# the same samples, whole paths on both sides
	[ "$hot" -eq "$p_hot" ] && [ "$cold" -eq "$p_cold" ] || false
}

# script_stacks: per sample of perf script's lines on stdin, "FRAMES PERIOD
# MARKER": its frames counted once per address (perf adds a line per inlined
# function at one address), its period column, 1 when pfmon's unwinding ended
# early (a marker frame, which perf does not print)
script_stacks() {
	awk '/^[^\t ]/ { if (h) print n, per, m; h = 1; n = 0; m = 0; last = ""; per = $(NF - 1); next }
		/^\t/ && /\[unwind: / { m = 1; next }
		/^\t/ { if ($1 != last) n++; last = $1 }
		END { if (h) print n, per, m }'
}

# same_script_stacks FILE: pfmon's script output of FILE has perf script's
# samples, frames and periods, and folds into pfmon's own folded stacks
same_script_stacks() {
	perf script -i "$1" 2>/dev/null | script_stacks >"$TMP/perf.stacks"
	"$PFMON" --report="$1" --report-format=script >"$TMP/pfmon.script"
	script_stacks <"$TMP/pfmon.script" >"$TMP/pfmon.stacks"
	[ "$(wc -l <"$TMP/perf.stacks")" -eq "$(wc -l <"$TMP/pfmon.stacks")" ]
	[ "$(wc -l <"$TMP/perf.stacks")" -ge 100 ]
	# every period as perf prints it, every stack pfmon unwound to its end as deep as perf's
	paste -d' ' "$TMP/perf.stacks" "$TMP/pfmon.stacks" | awk '$2 != $5 || ($6 == 0 && $1 != $4) { if (bad++ < 5) print }
		$6 == 0 && $1 > 3 { deep++ } END { exit bad || deep < 100 }'
	# stackcollapse's folding of the script output: pfmon's folded stacks
	awk '/^[^\t]/ { print $1; next } { print }' "$TMP/pfmon.script" | awk -f "$FOLD_PERF" | sort >"$TMP/script.folded"
	"$PFMON" --report="$1" --report-format=folded | sort >"$TMP/pfmon.folded"
	diff "$TMP/script.folded" "$TMP/pfmon.folded"
}

@test "--report-format=script of --call-graph=dwarf files: perf script's unwound frames and period column" {
	command -v perf >/dev/null || skip "perf is not installed"
	# user time only, a fixed period (the samples carry none: the attribute's is printed)
	perf record -q -e task-clock:u -c 1000000 --call-graph dwarf -o "$TMP/perf.data" \
		"$FIXTURES/calltree" 300 >/dev/null 2>&1
	same_script_stacks "$TMP/perf.data"
	"$PFMON" -e cpu-clock -u --long-smpl-periods=1000000 --call-graph=dwarf --smpl-format=perf \
		--smpl-outfile="$TMP/pfmon.data" "$FIXTURES/calltree" 300 >/dev/null
	same_script_stacks "$TMP/pfmon.data"
	grep -q '^calltree .*:    1000000 cpu-clock: $' "$TMP/pfmon.script"
}
