#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# No option silently does nothing (issue 13).  Every option of the option
# table (read from --help, which the table generates, so a new option is
# walked automatically) is tried in each mode -- counting, sampling,
# --report and --check -- against the same command line without it.  It
# must change what pfmon does (stdout, stderr, exit status or the
# perf_event_attr it opens, PFMON_DUMP_ATTR) or be refused as a usage error
# (exit 2, one line).  An option accepted and changing nothing fails.

bats_require_minimum_version 1.5.0
load helpers

# A value for each option that takes one.  A new option needs a row here.
declare -gA VALUE=(
	[events]=page-faults [priv-levels]=k [show-events]= [long-show-events]= [event-info]=task-clock
	[pmu]=itanium2 [outfile]=@T/out.txt [csv]= [long-smpl-periods]=100000 [short-smpl-periods]=100000
	[smpl-periods-random]=0xff:1 [smpl-freq]=500 [smpl-outfile]=@T/other.pfs [smpl-entries]=100000
	[smpl-show-top]=1 [smpl-cum-threshold]=50 [report]=@T/rep2.pfs [report-sort]=line
	[report-format]=json [event-thresholds]=1 [opc-match8]=m:0x1:0x1 [opc-match9]=m:0x1:0x1
	[irange]=0x1000-0x2000 [drange]=0x1000-0x2000 [checkpoint-func]=0x1000 [insn-sets]=ia32
	[attach-task]=1 [pid]=1 [tid]=1 [session-timeout]=1 [follow-exec]= [follow-exec-exclude]=zzz
	[call-graph]=dwarf [smpl-module]=detailed [smpl-module-info]=detailed [cpu-list]=0 [print-interval]=100 [interval-count]=1
	[symbol-file]=@T/rep.pfs [sysmap-file]=@T/rep.pfs [cpuid]=0x07300404:0:0:0x603
	[metrics]=CPUs_utilized [metrics-file]=@T/walk.def [show-metrics]= [metrics-from]=@T/walk.def
	[pmc13-ta]=0 [ibr-pair]=0:0x1000:0xfffffffffff000 [dbr-pair]=0:0x1000:0xfffffffffff000
	[pmc8-match]=m:0:0 [pmc9-match]=m:0:0 [pmc11-pt]=0 [psr]=cpl=3 [iear]=cache:1
	[explain-address]=0x1000 [explain-opcode]=M:0 [explain-data-address]=0x1000 [decode-pmd]=0:0x21
	# sh has no such symbol: the trigger is resolved (and refused) in the running program
	[trigger-code-start-address]=walk_nosuch [trigger-code-start-addresses]=walk_nosuch
	[trigger-code-stop-address]=walk_nosuch [trigger-code-stop-addresses]=walk_nosuch
	[trigger-data-start-address]=walk_nosuch [trigger-data-start-addresses]=walk_nosuch
	[trigger-data-stop-address]=walk_nosuch [trigger-data-stop-addresses]=walk_nosuch
	[trigger-start-delay]=1
	[smpl-format]=perf [export-perf-data]=@T/exp.data [compression-level]=3
	[field-separator]=';' [repeat]=2 [output]=@T/out2.txt [count]=100000 [timeout]=200 [delay]=1000 [interval-print]=100 [per-cache]=L2
	[branch-filter]=any,u [mmap-pages]=16 [annotate]= [source-root]=/nonexistent
	[debug]= [switch-timeout]=10 [extra-smpl-pmds]=4 [reset-non-smpl-periods]=
)

# A command an option needs to act (given to both runs, counting and
# sampling): -t bounds a session only when the command outlives it.
declare -gA CMD_CONTEXT=(
	[session-timeout]="$FIXTURES/sleeper 3000"
	[timeout]="$FIXTURES/sleeper 3000"
	[quiet]="$FIXTURES/sleeper 3000"
)
# Options given to both runs with the command above, for an option to act
# (-q acts on a note: the session timeout's, on any machine).
declare -gA RUN_CONTEXT=(
	[quiet]="--timeout=100"
)

# pfmon 3.x names kept for what is now the default: accepted, and doing
# exactly what the line without them does (checked, not skipped).
declare -gA RESTATES_DEFAULT=(
	[demangle-cpp]="names are demangled by default"
	[no-big-num]="counts have no separators by default"
	[timestamp]="samples always carry their time"
	[no-una-detect]="pfmon never probes for registers another user holds"
	[smpl-eager-save]="samples are written as they are read"
	[smpl-per-function]="the profile is by function by default"
	[resolve-addresses]="the profile names functions by default"
)

# What --check with --pmu=itanium2 needs for an Itanium 2 option to act
# (given to both runs, with and without the option).
declare -gA ITA2_CONTEXT=(
	[opc-match8]="-e IA64_TAGGED_INST_RETIRED_IBRP0_PMC8"
	[opc-match9]="-e IA64_TAGGED_INST_RETIRED_IBRP1_PMC9"
	[event-thresholds]="-e L1D_READS_SET0"
	[irange]="-e IA64_INST_RETIRED" [checkpoint-func]="-e IA64_INST_RETIRED"
	[inverse-irange]="-e IA64_INST_RETIRED --irange=0x1000-0x2000"
	[drange]="-e L1D_READS_SET0"
	[no-qual-check]="-e CPU_CYCLES --irange=0x1000-0x2000"
)
# The same for the first-generation Itanium model's options.
declare -gA ITANIUM_CONTEXT=(
	[pmc13-ta]="" [ibr-pair]="--pmc13-ta=0" [dbr-pair]="--pmc11-pt=0 --dbr-pair=1:0:0"
	[pmc8-match]="" [pmc9-match]="" [pmc11-pt]="--dbr-pair=0:0x1000:0xfff000"
	[psr]="--explain-address=0x1000" [iear]="" [explain-address]="" [explain-opcode]=""
	[explain-data-address]="" [decode-pmd]=""
)
# The same for the Intel architectural perfmon model's options.
declare -gA INTEL_CONTEXT=(
	[cpuid]="-e LLC_MISSES" [pmu-info]="-e LLC_MISSES"
)
for b in tm-tk tm-ntk ptm-correct ptm-incorrect ppm-correct ppm-incorrect brt-iprel brt-ret brt-ind; do
	ITA2_CONTEXT[btb-$b]="-e BRANCH_EVENT"
done

setup_file() {
	T="$BATS_FILE_TMPDIR"
	# a metric shown on the default event: --metrics-file acts when counting
	printf 'metric walk_double\n\tformula 2 * task-clock\n\tshown-on task-clock\nmetric walk_cycles\n\tformula 2 * cycles\n\tshown-on cycles\n' >"$T/walk.def"
	# C and C++ (demangled names: --no-demangle acts)
	"$PFMON" -e task-clock --smpl-outfile="$T/rep.pfs" --smpl-data-addr -g \
		sh -c '"$0" 300; exec "$1" 100' "$FIXTURES/hotspot" "$FIXTURES/cxxhot" >/dev/null 2>&1
	"$PFMON" -e page-faults --smpl-outfile="$T/rep2.pfs" --long-smpl-periods=1 "$FIXTURES/hotspot" 1 \
		>/dev/null 2>&1
}

# name and "=" / "[=" / "" for each row of the table, from --help
table_options() {
	"$PFMON" --help | sed -n 's/^  \(-[^-], \)*--\([a-z0-9-]*\)\(\[\{0,1\}=\)\{0,1\}.*/\2 \3/p'
}

# mask: counts, sample numbers and the few kernel samples vary from run to
# run of a command (noise can only hide an option that does nothing, never
# fail one that acts)
mask() {
	if [ "$MASK" = yes ]; then sed 's/[0-9][0-9]*/N/g' | grep -v '\[kernel\]'; else cat; fi
}

# observe ARGS...: what pfmon did -- first line "status S errors E" (exit
# status, stderr lines), then its output and the attrs it opened, masked
observe() {
	local dump="$T/attr.$$" out rc=0

	rm -f "$dump" "$T/out.txt" "$T/other.pfs" "$T/s.pfs" "$T/exp.data"
	out=$(cd "$T" && PFMON_DUMP_ATTR="$dump" "$PFMON" "$@" 2>"$T/err.$$") || rc=$?
	echo "status $rc errors $(wc -l <"$T/err.$$")"
	{
		printf '%s\n' "$out"
		cat "$T/err.$$"
	} | mask
	[ -f "$dump" ] && sed 's/pid=[0-9-]*/pid=N/' "$dump"
	[ -f "$T/out.txt" ] && { echo "outfile:"; mask <"$T/out.txt"; }
	[ -f "$T/other.pfs" ] && echo "other.pfs written"
	# the sampling base line's file: which format (--smpl-format)
	[ -f "$T/s.pfs" ] && echo "s.pfs: $(head -c 8 "$T/s.pfs" | tr -dc 'A-Z0-9')"
	[ -f "$T/exp.data" ] && echo "exp.data written"
	return 0
}

# walk MODE BASE-OPTIONS... [-- COMMAND...]: each option against the base
# command line, given after the base options (so that it wins)
walk() {
	local mode="$1" name kind arg ctx with failures= opts=() cmd=()
	local -A base=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		opts+=("$1")
		shift
	done
	[ $# -gt 0 ] && shift
	cmd=("$@")
	T="$BATS_FILE_TMPDIR"
	while read -r name kind; do
		case "$name" in help | version) continue ;; esac
		# the option that makes the mode is the base line's own
		case "$mode:$name" in check:check | check:check-events-only) continue ;; esac
		arg="--$name"
		if [ -n "$kind" ]; then
			[ -n "${VALUE[$name]+set}" ] || { failures+=" --$name(no test value)"; continue; }
			[ -n "${VALUE[$name]}" ] && arg="--$name=${VALUE[$name]//@T/$T}"
		fi
		ctx=()
		if [ "$mode" = check ] && [ -n "${ITA2_CONTEXT[$name]+set}" ]; then
			read -r -a ctx <<<"--pmu=itanium2 ${ITA2_CONTEXT[$name]}"
		elif [ "$mode" = check ] && [ -n "${INTEL_CONTEXT[$name]+set}" ]; then
			read -r -a ctx <<<"--pmu=intel_arch ${INTEL_CONTEXT[$name]}"
		elif [ "$mode" = check ] && [ -n "${ITANIUM_CONTEXT[$name]+set}" ]; then
			read -r -a ctx <<<"--pmu=itanium ${ITANIUM_CONTEXT[$name]}"
		fi
		local run_cmd=("${cmd[@]}") key="k${ctx[*]}"
		if [ ${#cmd[@]} -gt 0 ] && [ -n "${CMD_CONTEXT[$name]+set}" ]; then
			read -r -a run_cmd <<<"${CMD_CONTEXT[$name]}"
			key+=" #$name" # a base of its own
			[ -z "${RUN_CONTEXT[$name]+set}" ] || read -r -a ctx <<<"${RUN_CONTEXT[$name]}"
		fi
		with=$(observe "${ctx[@]}" "${opts[@]}" "$arg" "${run_cmd[@]}")
		# accepted in this mode: what it restates is checked; refused: below
		if [ -n "${RESTATES_DEFAULT[$name]+set}" ] && [[ "$with" != "status 2 "* ]]; then
			[ -n "${base["$key"]+set}" ] || base["$key"]=$(observe "${ctx[@]}" "${opts[@]}" "${run_cmd[@]}")
			# a report is deterministic; samples vary: there, the same status and errors
			if [ "$mode" = report ]; then
				[ "${base["$key"]}" = "$with" ] || failures+=" $arg(not the default it restates)"
			else
				[ "${base["$key"]%%$'\n'*}" = "${with%%$'\n'*}" ] || failures+=" $arg(not the default it restates)"
			fi
			continue
		fi
		case "${with%%$'\n'*}" in
		"status 2 errors 1") continue ;; # refused
		"status 2 "*) failures+=" $arg(refused, but not in one line)" && continue ;;
		esac
		[ -n "${base["$key"]+set}" ] || base["$key"]=$(observe "${ctx[@]}" "${opts[@]}" "${run_cmd[@]}")
		[ "${base["$key"]}" != "$with" ] || failures+=" $arg"
	done < <(table_options)
	[ -z "$failures" ] || { echo "accepted but changed nothing $mode:$failures"; return 1; }
}

@test "every option acts or is refused when counting" {
	MASK=yes walk counting -- sh -c 'echo hi'
}

@test "every option acts or is refused when sampling" {
	MASK=yes walk sampling --smpl-outfile="$BATS_FILE_TMPDIR/s.pfs" -- sh -c 'echo hi; "$0" 100; exec "$1" 50' \
		"$FIXTURES/hotspot" "$FIXTURES/cxxhot"
}

@test "every option acts or is refused with --report" {
	walk report --report="$BATS_FILE_TMPDIR/rep.pfs"
}

@test "every option acts or is refused with --check" {
	walk check --check
}
