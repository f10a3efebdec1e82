#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Faults around a run (pfmon(1), FAILURES): a full filesystem, a file-size
# limit, closed or broken outputs, Ctrl-C in every phase, a command that
# ignores SIGINT, an unprivileged user.  Each asserts one clear line on
# stderr, the documented exit status, no hang (everything runs under
# timeout) and no lost data: the counts or the profile are printed.

bats_require_minimum_version 1.5.0
load helpers

T="timeout -k 5 60"

teardown() {
	if [ -n "${MNT:-}" ] && mountpoint -q "$MNT"; then
		umount "$MNT"
	fi
	if [ -n "${PF_PID:-}" ]; then
		kill -KILL "$PF_PID" 2>/dev/null || true
	fi
}

# a small tmpfs of SIZE at $MNT (root only)
small_tmpfs() {
	[ "$(id -u)" -eq 0 ] || skip "needs root to mount a tmpfs"
	MNT="$BATS_TEST_TMPDIR/mnt"
	mkdir -p "$MNT"
	mount -t tmpfs -o "size=$1" tmpfs "$MNT" || skip "cannot mount a tmpfs here"
}

# wait (20 s at most) until CONDITION (a shell command) holds
wait_until() {
	for _ in $(seq 1 400); do
		eval "$1" && return 0
		sleep 0.05
	done
	echo "timed out waiting for: $1" >&2
	return 1
}

has_child() { pgrep -P "$1" >/dev/null; }

# pfmon in the background, SIGINT at its default as from a terminal (a
# background job of a script gets it ignored, and so would its command);
# stdout, stderr and the exit status go to $BATS_TEST_TMPDIR/{out,err,st};
# $PF_PID is pfmon
start_pfmon() {
	(
		rc=0 # bats runs tests with errexit
		env --default-signal=INT "$PFMON" "$@" >"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" || rc=$?
		echo $rc >"$BATS_TEST_TMPDIR/st"
	) 3>&- &
	local sub=$!
	wait_until "pgrep -P $sub >/dev/null"
	PF_PID=$(pgrep -P "$sub")
}

# the same in a process group of its own, $PF_GROUP, as a terminal's
# foreground job: Ctrl-C is kill -INT -$PF_GROUP (pfmon and its command)
start_pfmon_group() {
	cd "$BATS_TEST_TMPDIR"
	setsid sh -c 'trap "" INT; env --default-signal=INT "$@" >out 2>err; echo $? >st' sh "$PFMON" "$@" 3>&- &
	PF_GROUP=$!
	cd - >/dev/null
	wait_until "pgrep -P $PF_GROUP >/dev/null"
	PF_PID=$(pgrep -P "$PF_GROUP")
}

finished_status() {
	wait_until "[ -s '$BATS_TEST_TMPDIR/st' ]" || return 1
	cat "$BATS_TEST_TMPDIR/st"
}

# --- outputs that fail -----------------------------------------------

@test "a full filesystem while sampling: the file stops, the command finishes, the profile is printed, exit 1" {
	small_tmpfs 8k
	run --separate-stderr $T "$PFMON" -F 4000 -e task-clock --smpl-outfile="$MNT/s.smpl" \
		sh -c "'$FIXTURES/burn' 500; echo finished"
	[ "$status" -eq 1 ]
	one_error_line "^error: cannot write '$MNT/s.smpl': No space left on device: the sample file stops there; the profile keeps every sample$"
	[[ "$output" == finished* ]]
	n=$(printf '%s\n' "$output" | awk '/^# event task-clock:/ { print $4; exit }')
	[ "$n" -gt 100 ]
	# what was written reads up to its last complete chunk
	run --separate-stderr "$PFMON" --report="$MNT/s.smpl"
	[ "$status" -eq 0 ]
	[[ "$stderr" =~ "is truncated at offset" ]]
}

@test "a full filesystem for --outfile: the counts go to stderr, one error, exit 1" {
	small_tmpfs 16k
	dd if=/dev/zero of="$MNT/fill" bs=4k count=64 2>/dev/null || true
	run --separate-stderr $T "$PFMON" -e task-clock --outfile="$MNT/counts" echo ran
	[ "$status" -eq 1 ]
	[ "$output" = "ran" ]
	[[ "${stderr_lines[0]}" =~ ^[0-9]+\ task-clock(\ |$) ]]
	[ "${stderr_lines[1]}" = "error: cannot write '$MNT/counts': No space left on device" ]
	[ "${#stderr_lines[@]}" -eq 2 ]
}

@test "a full filesystem for per-thread --outfile files: every thread's counts go to stderr, one error" {
	small_tmpfs 16k
	dd if=/dev/zero of="$MNT/fill" bs=4k count=64 2>/dev/null || true
	run --separate-stderr $T "$PFMON" --per-thread -e task-clock --outfile="$MNT/c" "$FIXTURES/spinners" 2 0 0 30
	[ "$status" -eq 1 ]
	[ "$(printf '%s\n' "$stderr" | grep -c ' task-clock spinners (')" -eq 3 ]
	[ "$(printf '%s\n' "$stderr" | grep -c '^error: ')" -eq 1 ]
	[[ "${stderr_lines[-1]}" =~ ^error:\ cannot\ write\ \'$MNT/c\.[0-9]+\.[0-9]+\':\ No\ space\ left\ on\ device$ ]]
}

@test "a file-size limit while sampling: no SIGXFSZ death, the profile is printed, exit 1" {
	f="$BATS_TEST_TMPDIR/s.smpl"
	run --separate-stderr $T bash -c "ulimit -f 8; exec '$PFMON' -F 4000 -e task-clock --smpl-outfile='$f' \
		sh -c \"'$FIXTURES/burn' 400; echo finished\""
	[ "$status" -eq 1 ]
	one_error_line "^error: cannot write '$f': File too large: the sample file stops there"
	[[ "$output" == finished* ]]
	[[ "$output" =~ "# event task-clock: " ]]
	[ "$(stat -c %s "$f")" -le 8192 ]
}

@test "/dev/full as --outfile and as stdout: the counts go to stderr, one error, exit 1" {
	run --separate-stderr $T "$PFMON" -e task-clock --outfile=/dev/full true
	[ "$status" -eq 1 ]
	[[ "${stderr_lines[0]}" =~ ^[0-9]+\ task-clock(\ |$) ]]
	[ "${stderr_lines[1]}" = "error: cannot write '/dev/full': No space left on device" ]
	[ "${#stderr_lines[@]}" -eq 2 ]
	run --separate-stderr $T bash -c "'$PFMON' -e task-clock true >/dev/full"
	[ "$status" -eq 1 ]
	[[ "${stderr_lines[0]}" =~ ^[0-9]+\ task-clock(\ |$) ]]
	[ "${stderr_lines[1]}" = "error: cannot write 'standard output': No space left on device" ]
	# a profile as well
	run --separate-stderr $T bash -c "'$PFMON' -F 1000 -e task-clock '$FIXTURES/burn' 50 >/dev/full"
	[ "$status" -eq 1 ]
	[[ "$stderr" =~ "# event task-clock: " ]]
	[ "${stderr_lines[-1]}" = "error: cannot write 'standard output': No space left on device" ]
}

@test "/dev/full as the sample file: refused before the command runs" {
	run --separate-stderr $T "$PFMON" -F 100 -e task-clock --smpl-outfile=/dev/full touch "$BATS_TEST_TMPDIR/ran"
	[ "$status" -eq 1 ]
	one_error_line "^error: cannot write '/dev/full': No space left on device$"
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
}

@test "a reader that went away (SIGPIPE): the counts go to stderr, one error, exit 1" {
	run --separate-stderr $T bash -c "'$PFMON' -e task-clock sleep 0.3 | head -c0; exit \${PIPESTATUS[0]}"
	[ "$status" -eq 1 ]
	[[ "${stderr_lines[0]}" =~ ^[0-9]+\ task-clock(\ |$) ]]
	[ "${stderr_lines[1]}" = "error: cannot write 'standard output': Broken pipe" ]
	[ "${#stderr_lines[@]}" -eq 2 ]
}

@test "a FIFO as the perf.data file: refused before open() could block, the command never runs" {
	mkfifo "$BATS_TEST_TMPDIR/fifo"
	run --separate-stderr $T "$PFMON" -F 100 -e task-clock --smpl-format=perf \
		--smpl-outfile="$BATS_TEST_TMPDIR/fifo" touch "$BATS_TEST_TMPDIR/ran"
	[ "$status" -eq 1 ]
	one_error_line "^error: cannot write '$BATS_TEST_TMPDIR/fifo': perf.data must be a regular file \(its header is completed at the end\)$"
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	# a character device is not truncated nor written either
	run --separate-stderr $T "$PFMON" -F 100 -e task-clock --smpl-format=perf --smpl-outfile=/dev/null true
	[ "$status" -eq 1 ]
	one_error_line "^error: cannot write '/dev/null': perf.data must be a regular file"
}

# closed_pipe CMD...: CMD with standard output a pipe whose reader is gone
# before CMD starts (no race with a reader that exits); its status, 128 + N
# when signal N ended it
closed_pipe() {
	$T python3 -c '
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
rc = subprocess.run(sys.argv[1:], stdout=w).returncode
sys.exit(128 - rc if rc < 0 else rc)' "$@"
}

@test "--report in every format, a reader gone: one error line, exit 1, never a death by SIGPIPE" {
	f="$BATS_TEST_TMPDIR/s.smpl"
	run -0 $T "$PFMON" -F 1000 -e task-clock --smpl-outfile="$f" "$FIXTURES/burn" 50
	for fmt in text json svg script folded; do
		run --separate-stderr closed_pipe "$PFMON" --report="$f" --report-format="$fmt"
		echo "format $fmt: status $status" >&2
		[ "$status" -eq 1 ]
		one_error_line "^error: cannot write 'standard output': Broken pipe$"
	done
}

@test "--merge of count results and of sample files, a reader gone: one error line, exit 1" {
	cd "$BATS_TEST_TMPDIR"
	run -0 $T env -u OMPI_COMM_WORLD_RANK -u PMIX_RANK -u PMI_RANK -u SLURM_PROCID \
		"$PFMON" -e task-clock --with-header --outfile=c.0 true
	run -0 $T env -u OMPI_COMM_WORLD_RANK -u PMIX_RANK -u PMI_RANK -u SLURM_PROCID \
		"$PFMON" -F 1000 -e task-clock --smpl-outfile=s.0 "$FIXTURES/burn" 20
	for args in "c.0" "--csv c.0" "--json c.0" "s.0" "--report-format=folded s.0"; do
		run --separate-stderr closed_pipe "$PFMON" --merge $args
		echo "--merge $args: status $status" >&2
		[ "$status" -eq 1 ]
		one_error_line "^error: cannot write 'standard output': Broken pipe$"
	done
	# into a full --outfile: the same, naming the file
	run --separate-stderr $T "$PFMON" --merge --outfile=/dev/full c.0
	[ "$status" -eq 1 ]
	one_error_line "^error: cannot write '/dev/full': No space left on device$"
}

@test "a closed stdout while sampling: the profile goes to stderr, never into the sample file" {
	f="$BATS_TEST_TMPDIR/s.smpl"
	run --separate-stderr $T bash -c "'$PFMON' -F 1000 -e task-clock --smpl-outfile='$f' '$FIXTURES/burn' 50 >&-"
	[ "$status" -eq 1 ]
	[[ "$stderr" =~ "# event task-clock: " ]]
	[ "${stderr_lines[-1]}" = "error: cannot write 'standard output': Bad file descriptor" ]
	run --separate-stderr "$PFMON" --report="$f"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
}

@test "--smpl-outfile=-: stdout is the sample file alone; the command's output and the profile go to stderr" {
	run --separate-stderr $T bash -c "'$PFMON' -F 1000 -e task-clock --smpl-outfile=- sh -c 'echo from-command' \
		>'$BATS_TEST_TMPDIR/s.smpl'"
	[ "$status" -eq 0 ]
	[ "${stderr_lines[0]}" = "from-command" ]
	[[ "$stderr" =~ "# event task-clock: " ]]
	[ "$(head -c 8 "$BATS_TEST_TMPDIR/s.smpl")" = "PFMONSMP" ]
	! grep -q from-command "$BATS_TEST_TMPDIR/s.smpl"
	run --separate-stderr "$PFMON" --report=- <"$BATS_TEST_TMPDIR/s.smpl"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
}

# --- what the command inherits ---------------------------------------

@test "the command gets pfmon's signal dispositions, mask and descriptor limit as pfmon received them" {
	# ignored SIGINT and SIGPIPE, blocked SIGUSR1: as given, not as pfmon made them
	# (grep itself reads its status: a shell would change its mask)
	run --separate-stderr $T env --ignore-signal=INT,PIPE --block-signal=USR1 \
		"$PFMON" -e task-clock grep -E "^Sig(Ign|Blk)" /proc/self/status
	[ "$status" -eq 0 ]
	ign=$(printf '%s\n' "$output" | awk '$1 == "SigIgn:" { print $2 }')
	blk=$(printf '%s\n' "$output" | awk '$1 == "SigBlk:" { print $2 }')
	# SIGINT is bit 1, SIGPIPE bit 12, SIGUSR1 bit 9 (signal N is bit N-1)
	[ $((0x$ign & 0x1002)) -eq $((0x1002)) ]
	[ $((0x$ign & 0x10000)) -eq 0 ] # SIGXFSZ, which pfmon ignores, is not
	[ $((0x$blk & 0x200)) -eq $((0x200)) ]
	run --separate-stderr $T bash -c "ulimit -Sn 100; exec '$PFMON' -e task-clock sh -c 'ulimit -n'"
	[ "${lines[0]}" = "100" ]
}

@test "trap '' INT in a script still protects the command" {
	run --separate-stderr $T sh -c "trap '' INT; exec '$PFMON' -e task-clock sh -c 'kill -INT \$\$; echo alive'"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "alive" ]
	[ -n "$(count_of task-clock)" ]
}

@test "the command dies of SIGPIPE when pfmon got it at its default (pfmon ignores it)" {
	out="$BATS_TEST_TMPDIR/counts"
	run --separate-stderr $T bash -c "env --default-signal=PIPE '$PFMON' -e task-clock --outfile='$out' \
		sh -c 'while :; do echo y; done' | head -1; exit \${PIPESTATUS[0]}"
	[ "$status" -eq 141 ]
	[ -z "$stderr" ]
	grep -qE ' task-clock( |$)' "$out"
}

# --- Ctrl-C in every phase -------------------------------------------

@test "Ctrl-C while counters open on a command: 'error: interrupted', exit 130, the command never ran" {
	PFMON_TEST_OPEN_DELAY=1000 start_pfmon -e task-clock,page-faults touch "$BATS_TEST_TMPDIR/ran"
	wait_until "has_child $PF_PID" # the command is held before its exec: counters opening
	kill -INT "$PF_PID"
	[ "$(finished_status)" -eq 130 ]
	[ "$(cat "$BATS_TEST_TMPDIR/err")" = "error: interrupted" ]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
}

@test "Ctrl-C from a terminal (the whole process group) while counters open, sampling" {
	PFMON_TEST_OPEN_DELAY=1000 start_pfmon_group -F 100 -e task-clock touch "$BATS_TEST_TMPDIR/ran"
	wait_until "has_child $PF_PID"
	kill -INT -- "-$PF_GROUP"
	[ "$(finished_status)" -eq 130 ]
	[ "$(cat "$BATS_TEST_TMPDIR/err")" = "error: interrupted" ]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
}

@test "Ctrl-C while attaching: 'error: interrupted', exit 130" {
	sleep 30 3>&- &
	sl=$!
	PFMON_DUMP_ATTR="$BATS_TEST_TMPDIR/attrs" PFMON_TEST_OPEN_DELAY=1000 start_pfmon -e task-clock -p "$sl"
	wait_until "[ -s '$BATS_TEST_TMPDIR/attrs' ]" # opening its first counter
	kill -INT "$PF_PID"
	st=$(finished_status)
	kill "$sl"
	[ "$st" -eq 130 ]
	[ "$(cat "$BATS_TEST_TMPDIR/err")" = "error: interrupted" ]
}

@test "Ctrl-C during the run (the whole process group): the counts so far, exit 130, nothing on stderr" {
	start_pfmon_group -e task-clock "$FIXTURES/burn" 20000
	wait_for_cpu_ticks "$PF_PID" 10
	kill -INT -- "-$PF_GROUP"
	[ "$(finished_status)" -eq 130 ]
	[ ! -s "$BATS_TEST_TMPDIR/err" ]
	ns=$(awk '$2 == "task-clock" { print $1 }' "$BATS_TEST_TMPDIR/out")
	[ "$ns" -gt 50000000 ]
}

@test "Ctrl-C during the report: the report is printed whole, the command's status" {
	PFMON_TEST_REPORT_DELAY=1500 start_pfmon -e task-clock sh -c "touch '$BATS_TEST_TMPDIR/ran'; exit 3"
	wait_until "[ -e '$BATS_TEST_TMPDIR/ran' ] && ! has_child $PF_PID"
	kill -INT "$PF_PID"
	[ "$(finished_status)" -eq 3 ]
	[ ! -s "$BATS_TEST_TMPDIR/err" ]
	grep -qE ' task-clock( |$)' "$BATS_TEST_TMPDIR/out"
}

@test "a command that ignores SIGINT runs on: pfmon waits for it and counts all of it" {
	start_pfmon -e task-clock sh -c "trap '' INT; touch '$BATS_TEST_TMPDIR/ran'; '$FIXTURES/burn' 300; echo done"
	wait_until "[ -e '$BATS_TEST_TMPDIR/ran' ]"
	kill -INT "$PF_PID"
	[ "$(finished_status)" -eq 0 ]
	[ ! -s "$BATS_TEST_TMPDIR/err" ]
	grep -qx done "$BATS_TEST_TMPDIR/out"
	ns=$(awk '$2 == "task-clock" { print $1 }' "$BATS_TEST_TMPDIR/out")
	[ "$ns" -gt 200000000 ]
}

# --- an unprivileged user --------------------------------------------

unprivileged() {
	[ "$(id -u)" -eq 0 ] || skip "needs root to switch to an unprivileged user"
	command -v setpriv >/dev/null || skip "setpriv not installed"
	level=$(cat /proc/sys/kernel/perf_event_paranoid)
	[ "$level" -ge 2 ] || skip "perf_event_paranoid is $level: kernel counting is allowed to everybody"
	[ "$level" -eq 2 ] || skip "perf_event_paranoid is $level: user-level counting is forbidden too"
}

U="setpriv --reuid=65534 --regid=65534 --clear-groups"

@test "an unprivileged user: software events fall back to user level, said once" {
	unprivileged
	run --separate-stderr $T $U "$PFMON" -e task-clock,page-faults true
	[ "$status" -eq 0 ]
	one_error_line "^note: kernel.perf_event_paranoid = 2 lets this user count at user level only: 'task-clock', 'page-faults' exclude the kernel \(-u or ':u' says so and drops this note\)$"
	[ -n "$(count_of task-clock)" ]
	# -u asks for it: no note
	run --separate-stderr $T $U "$PFMON" -u -e task-clock true
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	# sampling as well (a system program: the user may not reach the
	# build tree, a clone in a 0700 directory)
	run --separate-stderr $T $U "$PFMON" -F 1000 -e task-clock \
		sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i + 1)); done'
	[ "$status" -eq 0 ]
	one_error_line "^note: kernel.perf_event_paranoid = 2 lets this user count at user level only: 'task-clock' excludes the kernel"
	[[ "$output" =~ "# event task-clock: " ]]
}

@test "an unprivileged user asking for the kernel level: refused, -u advised first" {
	unprivileged
	run --separate-stderr $T $U "$PFMON" -e task-clock:k touch "$BATS_TEST_TMPDIR/ran"
	[ "$status" -eq 1 ]
	one_error_line "^error: cannot open 'task-clock:k': permission denied \(kernel.perf_event_paranoid = 2\); count user level only \(-u, or ':u' on the event\), run as root, grant CAP_PERFMON, or lower it with 'sysctl kernel.perf_event_paranoid=1'$"
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
}
