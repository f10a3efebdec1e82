# SPDX-License-Identifier: GPL-2.0-or-later
# Shared setup for the bats suites.  make check exports PFMON (the binary
# under test), TESTS_BUILDDIR and TESTS_SRCDIR.

: "${PFMON:=$BATS_TEST_DIRNAME/../../build/pfmon}"
: "${TESTS_BUILDDIR:=$(dirname "$PFMON")/tests}"
: "${TESTS_SRCDIR:=$BATS_TEST_DIRNAME/..}"
FIXTURES="$TESTS_BUILDDIR/fixtures"
export PFMON FIXTURES TESTS_SRCDIR

# count_of NAME: the count printed for event NAME in $output (pfmon layout)
count_of() {
	printf '%s\n' "$output" | awk -v ev="$1" '$2 == ev { print $1; exit }'
}

# exactly one line on stderr, matching the given extended regex
one_error_line() {
	[ "${#stderr_lines[@]}" -eq 1 ] || {
		echo "expected one stderr line, got ${#stderr_lines[@]}: $stderr" >&2
		return 1
	}
	[[ "$stderr" =~ $1 ]] || {
		echo "stderr '$stderr' does not match '$1'" >&2
		return 1
	}
}

line_of() { # line_of FILE MARKER: the line number of the marker comment
	grep -n "$2" "$TESTS_SRCDIR/fixtures/$1" | cut -d: -f1
}

# function_lines FILE FUNCTION: "FIRST LAST", the lines of FUNCTION's
# definition in the fixture source FILE, from its name to the closing
# brace at the start of a line
function_lines() {
	awk -v f="$2" '!first && $0 ~ "^[A-Za-z_].*[ *]" f "\\(" && $0 !~ ";$" { first = NR }
		first && /^}/ { print first, NR; exit }' "$TESTS_SRCDIR/fixtures/$1"
}

# line_in_function FILE FUNCTION LINE: LINE is one of FUNCTION's lines.
# Which line of a loop gets the most samples depends on the CPU's skid and
# the compiler's layout: tests name the function, never the line.
line_in_function() {
	local range
	range=$(function_lines "$1" "$2")
	[ -n "$range" ] || { echo "no function $2 in $1" >&2; return 1; }
	[ "$3" -ge "${range% *}" ] && [ "$3" -le "${range#* }" ] || {
		echo "line $3 is not one of $2's lines ($range) in $1" >&2
		return 1
	}
}

# wait_running PID PROGRAM: wait (20 s at most) until PID has exec'd
# PROGRAM (a basename) and used 2 clock ticks of CPU: it runs its own
# loop, its mappings are in /proc.  Tests wait on this, never on a sleep.
wait_running() {
	for _ in $(seq 1 2000); do
		if [ "$(basename "$(readlink "/proc/$1/exe" 2>/dev/null)")" = "$2" ] &&
			[ "$(awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0)" -ge 2 ]; then
			return 0
		fi
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.01
	done
	return 1
}

hw_pmu_present() {
	"$PFMON" -e cycles true >/dev/null 2>&1
}

# wait_for_cpu_ticks PID TICKS: wait (20 s at most) until the child of PID
# (the command pfmon runs) has used TICKS clock ticks (1/100 s) of CPU
wait_for_cpu_ticks() {
	local child ticks
	for _ in $(seq 1 400); do
		child=$(pgrep -P "$1" | head -1)
		if [ -n "$child" ] && [ -r "/proc/$child/stat" ]; then
			ticks=$(awk '{ print $14 + $15 }' "/proc/$child/stat" 2>/dev/null)
			[ "${ticks:-0}" -ge "$2" ] && return 0
		fi
		sleep 0.05
	done
	return 1
}

# Do hardware breakpoints fire on this machine?  perf is the oracle: an
# execute breakpoint on the watch fixture's writer(), called once, counts 1
# where debug exceptions are delivered and 0 under hypervisors that drop them.
breakpoints_fire() {
	local addr n
	addr=$(nm "$FIXTURES/watch" | awk '$3 == "writer" { print $1 }')
	n=$(perf stat -x, -e "mem:0x$addr:x" "$FIXTURES/watch" 3 2>&1 >/dev/null | awk -F, '/mem:/ { print $1 }')
	[ "${n:-0}" -gt 0 ] 2>/dev/null
}

require_breakpoints() {
	command -v perf >/dev/null || skip "perf not installed (it tells whether breakpoints fire here)"
	breakpoints_fire || skip "hardware breakpoints do not fire on this machine (perf counts 0 too)"
}

# run_timed ARGS...: run pfmon under GNU time; $cpu_limit is the CPU the
# kernel accounted to pfmon and every process it ran (ns, less than 20 ms
# of rounding): more than pfmon can count of its command
run_timed() {
	run --separate-stderr /usr/bin/time -f 'cputime %U %S' -o "$BATS_TEST_TMPDIR/time" "$PFMON" "$@"
	cpu_limit=$(awk '$1 == "cputime" { printf "%d", ($2 + $3 + 0.02) * 1e9 }' "$BATS_TEST_TMPDIR/time")
}
