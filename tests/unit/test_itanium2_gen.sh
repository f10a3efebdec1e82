#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Re-run contrib/gen-itanium2-table on the manual and diff against the
# committed src/pmu/itanium2_events.h.  Skips without python3 or the manual
# (ITANIUM2_MANUAL, default: the project's seed copy).
top="${TESTS_SRCDIR:-$(dirname "$0")/..}/.."
# the seeds live in shared/, beside the clone
manual="${ITANIUM2_MANUAL:-$top/../shared/seeds/002_473c0ad8b6485ae7.txt}"
echo 1..1
if ! command -v python3 >/dev/null 2>&1; then
	echo "ok 1 # SKIP python3 not available"
	exit 0
fi
if [ ! -r "$manual" ]; then
	echo "ok 1 # SKIP manual text not found (set ITANIUM2_MANUAL)"
	exit 0
fi
tmp="${TMPDIR:-/tmp}/itanium2_events.$$.h"
if python3 "$top/contrib/gen-itanium2-table" "$manual" >"$tmp" && cmp -s "$tmp" "$top/src/pmu/itanium2_events.h"; then
	echo "ok 1 - generated table matches the committed one"
	rm -f "$tmp"
else
	echo "not ok 1 - generated table differs from src/pmu/itanium2_events.h"
	diff "$tmp" "$top/src/pmu/itanium2_events.h" | head -20 | sed 's/^/# /'
	rm -f "$tmp"
fi
