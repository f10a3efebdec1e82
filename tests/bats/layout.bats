#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Commands are leaves (git's builtin/*.c, perf's builtin-*.c): a command
# (src/cli/cmd_*.c) never calls into another command.  What two commands
# share lives below cli/ (results/, session/, report/, sample/) or, when it
# only translates options, in a cli/ file that is not a command.  Read from
# the objects the build made, so a call hidden behind a macro counts too.

load helpers

# the archive make rebuilds from the sources of today: a stale object of
# a command since removed is not in it
LIB="$TESTS_BUILDDIR/../libpfmon.a"

# "SYMBOL MEMBER.o" for the commands' members of the archive: nm's own
# "libpfmon.a:cmd_x.o:" prefix turned into a column
symbols() { # symbols NM-OPTIONS...
	LC_ALL=C nm -A "$@" "$LIB" | awk '{ split($1, p, ":"); if (p[2] ~ /^cmd_.*\.o$/) print $NF, p[2] }' | LC_ALL=C sort
}

# "USER.o uses SYMBOL, defined in DEFINER.o", one line per reference
cross_references() {
	LC_ALL=C join <(symbols -u) <(symbols -g --defined-only) | awk '$2 != $3 { print $2 " uses " $1 ", defined in " $3 }'
}

@test "no command uses a symbol another command defines" {
	command -v nm >/dev/null || skip "no nm (binutils)"
	[ -f "$LIB" ] || { echo "no $LIB: build first"; return 1; }
	# the check reads what it means to: the commands' members and their entry points
	symbols -g --defined-only | grep -qx 'cmd_count cmd_count.o'
	refs=$(cross_references)
	[ -z "$refs" ] || { echo "commands are leaves; these cross into another command:"; echo "$refs"; false; }
}
