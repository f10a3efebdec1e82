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

hw_pmu_present() {
	"$PFMON" -e cycles true >/dev/null 2>&1
}
