#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Data-type profiling (issue 27; pfmon(1), --report-sort type and typeoff):
# live page-fault samples carry the exact address written and the writing
# instruction, so the fixture's accesses are known: one field of heap
# structs each on a page of its own (through a pointer parameter), one
# field of a page-aligned global, one of a big local struct (a stack slot),
# and stores of code DWARF says nothing of.

bats_require_minimum_version 1.5.0
load helpers

N=24

setup() {
	W="$BATS_TEST_TMPDIR"
	"$PFMON" -e page-faults --long-smpl-periods=1 --smpl-data-addr --smpl-outfile="$W/dt.pfs" \
		"$FIXTURES/dtypes" $N >/dev/null 2>"$W/rec.err" || skip "cannot sample page faults here: $(head -1 "$W/rec.err")"
}

# rows "count key" of a report of the samples, by SORT
rows() {
	"$PFMON" --report="$W/dt.pfs" --report-sort="$1" 2>/dev/null |
		awk '/^#/ { next } { n = $1; sub(/^ *[0-9]+ +[0-9.]+% +[0-9.]+%  /, ""); print n, $0 }'
}

# the count of the row KEY (0 when absent)
count() {
	awk -v k="$2" 'substr($0, index($0, " ") + 1) == k { print $1; f = 1 } END { if (!f) print 0 }' "$1"
}

@test "type and typeoff name the struct and field a heap access wrote, through a pointer" {
	rows typeoff >"$W/off"
	# each node's page faults once, on the one field written
	[ "$(count "$W/off" 'struct dt_node +76 (payload.flags)')" -ge $N ]
	# and no other field of the struct is named
	run -1 grep -v 'payload.flags' <(grep 'struct dt_node' "$W/off")
	rows type >"$W/type"
	[ "$(count "$W/type" 'struct dt_node')" -ge $N ]
}

@test "a global's field by its offset in the variable, arrays and nested structs named" {
	rows typeoff >"$W/off"
	[ "$(count "$W/off" 'struct dt_conf +2068 (limits[2].hi)')" -ge 1 ]
	run -1 grep -v 'limits\[2\].hi' <(grep 'struct dt_conf' "$W/off")
}

@test "a stack slot by the local variable the frame holds there (frame base from the CFI)" {
	rows function,typeoff >"$W/ft"
	# the deepest page of the frame is fresh: its store faults
	[ "$(count "$W/ft" 'dt_stack (dtypes) | struct dt_big +4 (head.flags)')" -ge 1 ]
	run -1 grep -v 'head.flags' <(grep 'struct dt_big' "$W/ft")
}

@test "an access DWARF cannot explain is [unknown], never a guess" {
	rows function,type >"$W/ft"
	[ "$(count "$W/ft" 'dt_poke (dtypes) | [unknown]')" -ge $N ]
	run -1 grep '^[0-9]* dt_poke .*struct' "$W/ft"
	# the writers of the structs are named with their type
	[ "$(count "$W/ft" 'dt_touch_node (dtypes) | struct dt_node')" -ge $N ]
	[ "$(count "$W/ft" 'dt_touch_global (dtypes) | struct dt_conf')" -ge 1 ]
}

@test "type keys in JSON fields, folded stacks and the flame graph" {
	run -0 --separate-stderr "$PFMON" --report="$W/dt.pfs" --report-sort=type,typeoff --report-format=json
	python3 -c '
import json, sys
d = json.loads(sys.argv[1])
e = [x for x in d["events"][0]["entries"] if x.get("type") == "struct dt_node"]
assert e and e[0]["typeoff"] == "struct dt_node +76 (payload.flags)", e
assert e[0]["name"] == "struct dt_node | struct dt_node +76 (payload.flags)", e
' "$output"
	run -0 --separate-stderr "$PFMON" --report="$W/dt.pfs" --report-sort=function,typeoff --report-format=folded
	[[ "$output" == *"dtypes;dt_touch_node;struct dt_node +76 (payload.flags) "* ]]
	run -0 --separate-stderr "$PFMON" --report="$W/dt.pfs" --report-sort=type --report-format=svg
	[[ "$output" == *"struct dt_conf"* ]]
}

@test "a sample without a data address has no type" {
	"$PFMON" -e page-faults --long-smpl-periods=1 --smpl-outfile="$W/noaddr.pfs" "$FIXTURES/dtypes" 4 >/dev/null 2>&1
	run -0 --separate-stderr "$PFMON" --report="$W/noaddr.pfs" --report-sort=typeoff
	[[ "$output" == *"[unknown]"* ]]
	[[ "$output" != *"struct dt_"* ]]
}
