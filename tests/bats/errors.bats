#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Bad input: one clear line on stderr, the right exit status, no crash.

bats_require_minimum_version 1.5.0
load helpers

@test "unknown event: exit 2, suggests a near name" {
	run --separate-stderr "$PFMON" -e task-clok true
	[ "$status" -eq 2 ]
	one_error_line "^error: unknown event 'task-clok'; did you mean 'task-clock'\?$"
}

@test "unknown event with nothing near: points to -l" {
	run --separate-stderr "$PFMON" -e QQQQQQQQQQQQQQQQQQQQQQQQ true
	[ "$status" -eq 2 ]
	one_error_line "^error: unknown event 'QQQQQQQQQQQQQQQQQQQQQQQQ' \(see 'pfmon -l'\)$"
}

@test "bad unit mask: names it and lists the valid ones" {
	LIBPFM_FORCE_PMU=skl run --separate-stderr "$PFMON" -e INST_RETIRED:FOO true
	[ "$status" -eq 2 ]
	one_error_line "^error: event 'INST_RETIRED:FOO': invalid unit mask 'FOO' \(valid: .*ANY_P.*\)$"
}

@test "missing unit mask" {
	LIBPFM_FORCE_PMU=skl run --separate-stderr "$PFMON" -e MEM_LOAD_RETIRED true
	[ "$status" -eq 2 ]
	one_error_line "^error: event 'MEM_LOAD_RETIRED': invalid unit mask '\(missing\)' \(valid: .*L1_HIT.*\)$"
}

@test "a missing unit mask lists libpfm4's valid ones; a very long list ends politely" {
	# icl's INST_RETIRED has no default unit mask
	LIBPFM_FORCE_PMU=icl run --separate-stderr "$PFMON" -e INST_RETIRED true
	[ "$status" -eq 2 ]
	one_error_line "^error: event 'INST_RETIRED': invalid unit mask '\(missing\)' \(valid: STALL_CYCLES, ANY_P, PREC_DIST, ANY, NOP\)$"
	# icx's OCR has 90: the first ones, how many more, where they all are
	LIBPFM_FORCE_PMU=icx run --separate-stderr "$PFMON" -e OCR true
	[ "$status" -eq 2 ]
	one_error_line "^error: event 'OCR': invalid unit mask '\(missing\)' \(valid: [A-Z0-9_]+(, [A-Z0-9_]+)*, and [0-9]+ more: 'pfmon -i OCR' lists them\)$"
	[ "${#stderr}" -lt 600 ]
	listed=$(sed 's/.*(valid: //; s/, and .*//' <<<"$stderr" | tr ',' '\n' | wc -l)
	more=$(sed 's/.*, and \([0-9]*\) more.*/\1/' <<<"$stderr")
	[ $((listed + more)) -eq "$(LIBPFM_FORCE_PMU=icx "$PFMON" -i OCR | grep -c '^Umask')" ]
}

@test "bad modifier value and unknown modifier" {
	LIBPFM_FORCE_PMU=skl run --separate-stderr "$PFMON" -e INST_RETIRED:ANY_P:c=zz true
	[ "$status" -eq 2 ]
	one_error_line "^error: event 'INST_RETIRED:ANY_P:c=zz': invalid value 'zz' for modifier 'c': not a number$"
	LIBPFM_FORCE_PMU=skl run --separate-stderr "$PFMON" -e INST_RETIRED:ANY_P:zz=1 true
	[ "$status" -eq 2 ]
	one_error_line "^error: event 'INST_RETIRED:ANY_P:zz=1': unknown modifier 'zz'"
	run --separate-stderr "$PFMON" -e cycles:q true
	[ "$status" -eq 2 ]
	one_error_line "^error: event 'cycles:q': unknown modifier 'q'"
}

@test "too many events for one group" {
	ev=INST_RETIRED:ANY_P
	LIBPFM_FORCE_PMU=skl run --separate-stderr "$PFMON" -e $ev,$ev,$ev,$ev,$ev,$ev,$ev,$ev,$ev,$ev,$ev,$ev true
	[ "$status" -eq 2 ]
	one_error_line "^error: too many events in event set 0: 12 given, at most [0-9]+ fit in one group$"
}

@test "an event this machine cannot count: says there is no hardware PMU" {
	hw_pmu_present && skip "this machine has a hardware PMU"
	run --separate-stderr "$PFMON" -e cycles true
	[ "$status" -eq 1 ]
	one_error_line "^error: cannot count 'cycles': the kernel exposes no hardware PMU .*software events .* still work$"
}

@test "permission denied names perf_event_paranoid and what to change" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to switch to an unprivileged user"
	command -v setpriv >/dev/null || skip "setpriv not installed"
	level=$(cat /proc/sys/kernel/perf_event_paranoid)
	[ "$level" -ge 2 ] || skip "perf_event_paranoid is $level: kernel counting is allowed to everybody"
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups "$PFMON" -k -e task-clock true
	[ "$status" -eq 1 ]
	one_error_line "^error: cannot open 'task-clock': permission denied \(kernel.perf_event_paranoid = $level\); .*sysctl kernel.perf_event_paranoid=1"
}

@test "command not found: exit 127" {
	run --separate-stderr "$PFMON" -e task-clock no-such-command-xyz
	[ "$status" -eq 127 ]
	one_error_line "^error: cannot execute 'no-such-command-xyz': command not found$"
	[ -z "$output" ]
}

@test "command not executable: exit 127" {
	f="$BATS_TEST_TMPDIR/notexec"
	touch "$f"
	run --separate-stderr "$PFMON" -e task-clock "$f"
	[ "$status" -eq 127 ]
	one_error_line "^error: cannot execute '.*notexec': Permission denied$"
}

@test "output file in a missing directory: exit 1, command not run" {
	run --separate-stderr "$PFMON" -e task-clock --outfile=/nonexistent/dir/out touch "$BATS_TEST_TMPDIR/ran"
	[ "$status" -eq 1 ]
	one_error_line "^error: cannot write '/nonexistent/dir/out': No such file or directory$"
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
}

@test "no command: usage error" {
	run --separate-stderr "$PFMON" -e task-clock
	[ "$status" -eq 2 ]
	one_error_line "^error: you need to specify a command to measure$"
}

@test "malformed option values: one line each, exit 2" {
	while IFS='|' read -r args want; do
		run --separate-stderr "$PFMON" $args true
		[ "$status" -eq 2 ] || { echo "$args: status $status"; return 1; }
		one_error_line "$want" || { echo "for: $args"; return 1; }
	done <<'LIST'
--priv-levels=x|^error: invalid value 'x' for option '--priv-levels'
--long-smpl-periods=abc|^error: invalid value 'abc' for option '--long-smpl-periods'
--long-smpl-periods=0|^error: invalid value '0' for option '--long-smpl-periods'
--smpl-entries=-5|^error: invalid value '-5' for option '--smpl-entries'
--smpl-cum-threshold=101|^error: invalid value '101' for option '--smpl-cum-threshold'
--csv=|^error: invalid value '' for option '--csv'
--outfile=|^error: invalid value '' for option '--outfile'
--no-such-option|^error: unknown or ambiguous option '--no-such-option'
-Z|^error: unknown option '-Z'
--pmu=vax|^error: unknown PMU model 'vax'
-e ,|^error: invalid event ',': empty event name in list
-e a::|^error: invalid event 'a::'
--report-sort=size|^error: invalid value 'size' for option '--report-sort'
LIST
}

@test "an abbreviated long option: an error about it says what it was taken as" {
	# getopt_long's unique prefixes, as pfmon 3.x and perf: the run works
	run --separate-stderr "$PFMON" --with-h --us-c -e task-clock true
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ "$output" =~ task-clock ]]
	# "--smpl-period" is --smpl-periods-random, not a period: the later error says so
	run --separate-stderr "$PFMON" --smpl-period=1000 -e cpu-clock true
	[ "$status" -eq 2 ]
	one_error_line "^error: '--smpl-period' was taken as --smpl-periods-random: option '--smpl-periods-random': event 1 of set 0 \('cpu-clock'\) has no period to randomize"
	# a value refused while parsing, given as --opt=V and as --opt V
	run --separate-stderr "$PFMON" --smpl-periods-r=0 true
	[ "$status" -eq 2 ]
	one_error_line "^error: '--smpl-periods-r' was taken as --smpl-periods-random: invalid value '0' for option '--smpl-periods-random': entries are MASK"
	run --separate-stderr "$PFMON" --smpl-ent x true
	[ "$status" -eq 2 ]
	one_error_line "^error: '--smpl-ent' was taken as --smpl-entries: invalid value 'x' for option '--smpl-entries'"
	# the whole name: no note; --follow-exec is itself, not --follow-exec-exclude
	run --separate-stderr "$PFMON" --smpl-entries=x true
	one_error_line "^error: invalid value 'x' for option '--smpl-entries'"
	run --separate-stderr "$PFMON" --follow-exec='(' true
	[ "$status" -eq 2 ]
	[[ "$stderr" != *"was taken as"* ]]
	# an option refused in this mode: named as typed, then as taken
	run --separate-stderr "$PFMON" --smpl-ent=64 -e task-clock true
	[ "$status" -eq 2 ]
	one_error_line "^error: '--smpl-ent' was taken as --smpl-entries: option '--smpl-entries' is not used when counting"
	# an error about another option or event is not about the abbreviation
	run --separate-stderr "$PFMON" --us-c -e no_such_event true
	[ "$status" -eq 2 ]
	one_error_line "^error: unknown event 'no_such_event'"
	# a prefix of several options is refused
	run --separate-stderr "$PFMON" --smpl-s true
	[ "$status" -eq 2 ]
	one_error_line "^error: unknown or ambiguous option '--smpl-s'"
}

@test "perf's -I 500 (print interval) is refused, naming pfmon's --print-interval; -I alone is --info" {
	for args in "-a -I 500" "-I500" "-aI500"; do
		run --separate-stderr "$PFMON" $args true
		[ "$status" -eq 2 ] || { echo "$args: status $status"; return 1; }
		one_error_line "^error: option '-I 500': -I is pfmon's --info, which takes no value; perf's -I 500 \(print interval\) is --print-interval=500 in pfmon$"
	done
	# not a value only perf's meaning takes: -I is --info, as in pfmon 3.x
	run --separate-stderr "$PFMON" -I
	[ "$status" -eq 0 ]
	[[ "$output" == *"supported pfmon PMU models:"* ]]
}

@test "perf's -i FILE (input file) is refused, naming pfmon's --report; -i EVENT is --event-info" {
	: >"$BATS_TEST_TMPDIR/samples.pfs"
	for file in perf.data "$BATS_TEST_TMPDIR/samples.pfs"; do
		run -2 --separate-stderr "$PFMON" -e task-clock -i "$file"
		one_error_line "^error: option '-i $file': -i is pfmon's --event-info, which takes an event; perf's -i $file \(perf report's input file\) is --report=$file in pfmon$"
	done
	run -0 --separate-stderr "$PFMON" -i task-clock
	[[ "$output" =~ "Name      : task-clock" ]]
}

@test "a fraction where an integer is needed: not an integer" {
	for opt in --print-interval=10.5 --smpl-entries=1.5 --interval-count=2.0; do
		run --separate-stderr "$PFMON" $opt -e task-clock true
		[ "$status" -eq 2 ] || { echo "$opt: status $status"; return 1; }
		one_error_line "^error: invalid value '${opt#*=}' for option '${opt%%=*}': not an integer; expected an integer from" || return 1
	done
}

@test "an option without its companion option is a usage error, found before any work" {
	while IFS='|' read -r args want; do
		run --separate-stderr "$PFMON" $args
		[ "$status" -eq 2 ] || { echo "$args: status $status"; return 1; }
		one_error_line "$want" || { echo "for: $args"; return 1; }
	done <<'LIST'
-e task-clock --smpl-periods-random=0xff:5 true|^error: option '--smpl-periods-random': event 1 of set 0 \('task-clock'\) has no period to randomize: give it one with --long-smpl-periods or --short-smpl-periods$
-e task-clock,page-faults --long-smpl-periods=1000 --smpl-periods-random=,0xff true|^error: option '--smpl-periods-random': event 2 of set 0 \('page-faults'\) has no period to randomize
--print-syms --report=/dev/null|^error: option '--print-syms' needs --symbol-file or --sysmap-file$
--append -e task-clock true|^error: option '--append' needs --outfile$
--interval-count=2 -e task-clock true|^error: option '--interval-count' needs --print-interval$
LIST
}

@test "an option needing a value, given none" {
	run --separate-stderr "$PFMON" -e
	[ "$status" -eq 2 ]
	one_error_line "^error: option '-e' needs a value"
}

@test "a per-set option twice for one set" {
	run --separate-stderr "$PFMON" -e task-clock --priv-levels=u --priv-levels=k true
	[ "$status" -eq 2 ]
	one_error_line "^error: option '--priv-levels' given twice for event set 0$"
}

@test "a closed standard output is an error, not silence; the counts go to stderr" {
	run --separate-stderr bash -c "'$PFMON' -e task-clock true >&-"
	[ "$status" -eq 1 ]
	[[ "${stderr_lines[0]}" =~ ^[0-9]+\ task-clock(\ |$) ]]
	[ "${stderr_lines[1]}" = "error: cannot write 'standard output': Bad file descriptor" ]
	[ "${#stderr_lines[@]}" -eq 2 ]
}

@test "files read whole (--merge, --metrics-file, --metrics-from): devices, FIFOs, directories refused; sizes bounded" {
	cd "$BATS_TEST_TMPDIR"
	mkfifo fifo
	T="timeout -k 5 60"
	for opt in "--merge" "--metrics-from=" "--metrics-file="; do
		for f in /dev/zero fifo "$BATS_TEST_TMPDIR"; do
			# (a directory given to --merge stands for its files)
			[ "$opt" = --merge ] && [ "$f" = "$BATS_TEST_TMPDIR" ] && continue
			case $opt in
			--merge) args=(--merge "$f") ;;
			--metrics-from=) args=("--metrics-from=$f") ;;
			*) args=("--metrics-file=$f" --show-metrics) ;;
			esac
			run --separate-stderr $T "$PFMON" "${args[@]}"
			echo "$opt $f: status $status" >&2
			[ "$status" -eq 1 ]
			one_error_line "^error: '$f': (a character device|a FIFO or pipe|a directory), not a regular file$"
		done
	done
	# a regular file past the bound: refused after reading the bound, not all of it
	truncate -s 65M big
	run --separate-stderr $T "$PFMON" --merge big
	[ "$status" -eq 1 ]
	one_error_line "^error: 'big': larger than 64 MiB: not a results file$"
	run --separate-stderr $T "$PFMON" --metrics-from=big
	[ "$status" -eq 1 ]
	one_error_line "^error: 'big': larger than 64 MiB: not a saved counts file$"
	truncate -s 5M big
	run --separate-stderr $T "$PFMON" --metrics-file=big --show-metrics
	[ "$status" -eq 1 ]
	one_error_line "^error: 'big': larger than 4 MiB: not a metrics file$"
	# a results file with a line past 1 MiB
	{ echo "# results format: 1.0"; head -c 1100000 /dev/zero | tr '\0' 'a'; echo; } >long
	run --separate-stderr $T "$PFMON" --merge long
	[ "$status" -eq 1 ]
	one_error_line "^error: 'long' line 2: longer than 1048576 bytes$"
}
