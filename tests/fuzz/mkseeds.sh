#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Make the seed corpora of the fuzz targets, tests/fuzz/corpus/<target>/.
# The results are small and committed; run this again when a format or the
# option table changes, and commit what changed.
#
#   mkseeds.sh SRCDIR BUILDDIR
#
# BUILDDIR holds a built pfmon: the sample-file seeds are real recordings
# (software events, so any Linux machine can make them; they name only
# /usr/bin/dash and libc, which every Debian system has).  CC (default cc)
# builds the ELF seeds; IA64_PREFIX (default ia64-linux-gnu-) adds an
# IA-64 object when binutils-ia64-linux-gnu is installed.
set -eu

src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
CC=${CC:-cc}
IA64_PREFIX=${IA64_PREFIX:-ia64-linux-gnu-}
out=$src/tests/fuzz/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# seed FILE ARG...: the arguments, each ended by a NUL byte (an argv)
seed() {
	f=$1
	shift
	: >"$f"
	for a in "$@"; do
		printf '%s\0' "$a" >>"$f"
	done
}

# ---- event_spec: one -e argument per file ----
d=$out/event_spec
rm -rf "$d" && mkdir -p "$d"
n=0
for e in cycles 'cycles:u' 'instructions:k' 'task-clock' 'INST_RETIRED:ANY_P:u=1:c=2' \
	'perf::cycles:k' 'BUS_MEMORY.ALL_SELF' 'L2_IFET_CANCELS_ANY' 'DATA_EAR_CACHE_LAT4' \
	'IA64_TAGGED_INST_RETIRED.IBRP0_PMC8' 'cycles:period=100000' 'cpu-clock:freq=1000' \
	'cycles,instructions,task-clock' 'mem:0x1000:rw' 'cycles:u:k:e=1:i=1:c=3' \
	'0x12' 'r01c2' 'UOPS_ISSUED:ANY:cpu=1' 'msr/tsc/' 'software/config=1,period=1000,name=x/uk,task-clock' \
	'msr/event=0x0,config1=2,bogus=?/:ppp' 'software/event=1,umask=0x1ff/G,msr/tsc'; do
	n=$((n + 1))
	printf '%s' "$e" >"$d/$(printf %02d $n)"
done

# ---- options: command lines after "pfmon", NUL-separated ----
d=$out/options
rm -rf "$d" && mkdir -p "$d"
seed "$d/01-count" -e cycles,instructions -- true
seed "$d/02-sets" -u -e cycles -e instructions,task-clock --priv-levels=u,k -- ls -l
seed "$d/03-sample" -e cpu-clock --long-smpl-periods=1000000 --smpl-outfile=/tmp/x.smpl -- sleep 1
seed "$d/04-random" -e cycles,instructions --long-smpl-periods=100000,200000 \
	--smpl-periods-random=0xff:1,0xfff --smpl-entries=4096 -g cmd
seed "$d/05-report" --report=/tmp/x.smpl --report-sort=line --report-format=json \
	--smpl-show-top=10 --smpl-cum-threshold=90 --resolve-addresses
seed "$d/06-output" --outfile=/tmp/out --append --with-header --us-counter-format --csv -e cycles true
seed "$d/07-json" --json --hex-counter-format --no-inherit --no-cmd-output -e task-clock -- true
seed "$d/08-ita2" --pmu=itanium2 --check -e CPU_CYCLES,L2_REFERENCES --event-thresholds=1,2 \
	--opc-match8=m:0x1:0x7ffffff --irange=0x4000000000001100-0x4000000000002100 --btb-tm-tk
seed "$d/09-info" -I
seed "$d/10-list" -l'^L2_' --pmu itanium2
seed "$d/11-short" -e cycles --smpl-freq=4000 --smpl-data-addr --smpl-weight --smpl-data-src \
	--smpl-branch-stack -k -3 cmd
seed "$d/12-help" --help
seed "$d/13-info" -i CPU_CYCLES --pmu=itanium2 -v

# ---- itanium2: events and qualifier options, from the golden table ----
# (tests/golden/itanium2.tsv: events <TAB> options; see its test for the keys)
d=$out/itanium2
rm -rf "$d" && mkdir -p "$d"
grep -v '^#' "$src/tests/golden/itanium2.tsv" | grep . | awk -F'\t' '
function plm(v,   s, k) {
	s = ""
	for (k = 0; k < 4; k++)
		if (int(v / 2 ^ k) % 2)
			s = s k
	return s
}
{
	line = "-e\t" $1
	if ($2 != "-") {
		n = split($2, kv, ";")
		for (i = 1; i <= n; i++) {
			eq = index(kv[i], "=")
			k = eq ? substr(kv[i], 1, eq - 1) : kv[i]
			v = eq ? substr(kv[i], eq + 1) : ""
			if (k == "thres") line = line "\t--event-thresholds=" v
			else if (k == "opc8") line = line "\t--opc-match8=" v
			else if (k == "opc9") line = line "\t--opc-match9=" v
			else if (k == "insn") line = line "\t--insn-sets=" v
			else if (k == "ia32" || k == "ia64") line = line "\t--" k
			else if (k == "btb") { m = split(v, b, "+"); for (j = 1; j <= m; j++) line = line "\t--btb-" b[j] }
			else if (k == "irange" || k == "drange") line = line "\t--" k "=" v
			else if (k == "checkpoint") line = line "\t--checkpoint-func=" v
			else if (k == "inverse") line = line "\t--inverse-irange"
			else if (k == "noqual") line = line "\t--no-qual-check"
			else if (k == "sw") line = line "\t--system-wide"
			else if (k == "k") line = line "\t-k"
			else if (k == "plm") {
				m = split(v, p, ","); s = ""
				for (j = 1; j <= m; j++) s = s (j > 1 ? "," : "") plm(p[j] + 0 ? p[j] + 0 : strtonum_hex(p[j]))
				line = line "\t--priv-levels=" s
			}
		}
	}
	print line
}
function strtonum_hex(h,   i, c, r) {
	r = 0
	h = tolower(h)
	sub(/^0x/, "", h)
	for (i = 1; i <= length(h); i++) {
		c = index("0123456789abcdef", substr(h, i, 1)) - 1
		r = r * 16 + c
	}
	return r
}' >"$tmp/ita2.args"
n=0
while IFS= read -r line; do
	n=$((n + 1))
	f=$d/$(printf %03d $n)
	: >"$f"
	printf '%s\n' "$line" | tr '\t' '\n' | while IFS= read -r a; do printf '%s\0' "$a" >>"$f"; done
done <"$tmp/ita2.args"
# two sets, -v's decoded fields
seed "$d/two-sets" -v -e CPU_CYCLES,NOPS_RETIRED --event-thresholds=0,5 -e BRANCH_EVENT --btb-tm-tk \
	--btb-brt-ret

# ---- smpl_report: real recordings, small ----
d=$out/smpl_report
rm -rf "$d" && mkdir -p "$d"
loop='i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'
cd "$tmp"
rec() {
	name=$1
	shift
	"$build/pfmon" --smpl-outfile="$d/$name" "$@" >/dev/null
}
rec cpu-clock -e cpu-clock --long-smpl-periods=1000000 /bin/sh -c "$loop"
rec callchain -e cpu-clock --smpl-freq=2000 -g /bin/sh -c "$loop"
rec two-events -e cpu-clock,page-faults --long-smpl-periods=1000000,20 /bin/sh -c "$loop"
rec random -e cpu-clock --long-smpl-periods=500000 --smpl-periods-random=0xffff:7 /bin/sh -c "$loop"
rec fork -e task-clock --long-smpl-periods=1000000 /bin/sh -c "$loop & $loop; wait"
rec kernel -e cpu-clock --smpl-freq=2000 -g /bin/sh -c \
	'i=0; while [ $i -lt 3000 ]; do echo $i >/dev/null; i=$((i+1)); done'
cd - >/dev/null

# ---- perf_data: perf.data files, pfmon's and perf record's, small ----
d=$out/perf_data
rm -rf "$d" && mkdir -p "$d"
cd "$tmp"
"$build/pfmon" -e cpu-clock --smpl-freq=2000 -g --smpl-format=perf --smpl-outfile="$d/pfmon-callchain" \
	/bin/sh -c "$loop" >/dev/null
"$build/pfmon" -e cpu-clock,page-faults --long-smpl-periods=1000000,20 --smpl-format=perf \
	--smpl-outfile="$d/pfmon-two-events" /bin/sh -c "$loop & $loop; wait" >/dev/null
if command -v perf >/dev/null; then
	perf record -q -e cpu-clock -F 2000 -g --no-buildid-cache -o "$d/perf-record" /bin/sh -c "$loop" >/dev/null 2>&1
	# user registers and 256-byte stack copies (REGS_USER, STACK_USER): the unwinder's input
	perf record -q -e cpu-clock -F 4000 --call-graph dwarf,256 --no-buildid-cache -o "$d/perf-record-dwarf" \
		/bin/sh -c 'i=0; while [ $i -lt 4000 ]; do i=$((i+1)); done' >/dev/null 2>&1
	# the target picks the report's format by the file's size: folded stacks,
	# which unwind (zero bytes after the feature sections are not read)
	while [ $(($(stat -c %s "$d/perf-record-dwarf") / 5 % 4)) -ne 2 ]; do
		printf '\0' >>"$d/perf-record-dwarf"
	done
	# perf record -z's compressed records, in a file and in pipe mode
	perf record -q -z -e cpu-clock -F 2000 --no-buildid-cache -o "$d/perf-record-zstd" /bin/sh -c "$loop" >/dev/null 2>&1
	perf record -q -z -e cpu-clock -F 2000 -o - /bin/sh -c "$loop" 2>/dev/null >"$d/perf-record-pipe-zstd"
	# tracepoints with their formats (HEADER_TRACING_DATA), reported as script
	perf record -q -e sched:sched_process_exec,kmem:kmalloc -o "$d/perf-record-tracepoints" true >/dev/null 2>&1
	while [ $(($(stat -c %s "$d/perf-record-tracepoints") / 5 % 4)) -ne 3 ]; do
		printf '\0' >>"$d/perf-record-tracepoints"
	done
fi
# an Arm SPE recording (AUXTRACE_INFO, AUXTRACE with SPE packets), odd packets too
python3 "$src/tests/bats/perfdata_spe.py" "$d/perf-spe" /bin/true odd >/dev/null
cd - >/dev/null

# ---- metrics: metric definition files (--metrics-file), small ----
d=$out/metrics
rm -rf "$d" && mkdir -p "$d"
printf 'metric PF_PER_MS\n\tformula page-faults / (task-clock / 1e6)\n\tunit faults per ms\n' >"$d/01-one"
printf '# a comment\nmetric IPC\n\tformula instructions / cycles\n\tunit insn per cycle\n\tgroup basic,ipc\n\tshown-on instructions\n\tdesc instructions per cycle\nmetric CPI\n\tformula 1 / IPC\n\tscale 100\n\tnote the inverse\n' >"$d/02-refs"
printf 'metric RATE\n\tformula page-faults / (duration_time / 1e9)\n\trate\n\tunit /sec\nmetric CHECK\n\tformula cycles - cycles\n\tidentity\n' >"$d/03-keys"
printf 'metric G\n\tformula if(cycles, min(instructions, cycles) / cycles, max(0, -1))\nmetric H\n\tformula G + G * (G - 1e-3)\nmetric J\n\tformula H + G\n' >"$d/04-diamond"
i=1; : >"$d/05-chain"
while [ $i -lt 40 ]; do printf 'metric M%d\n\tformula M%d + 1\n' $i $((i + 1)) >>"$d/05-chain"; i=$((i + 1)); done
printf 'metric M40\n\tformula task-clock * 0 + 1\n' >>"$d/05-chain"
printf 'metric X\n\tformula Y + 1\nmetric Y\n\tformula X\n' >"$d/06-cycle"

# ---- merge: a job's results files (--merge), text, CSV and JSON; two ranks
# in one input are separated by a form feed ----
d=$out/merge
rm -rf "$d" && mkdir -p "$d"
cd "$tmp"
for r in 0 1; do
	env OMPI_COMM_WORLD_RANK=$r OMPI_COMM_WORLD_SIZE=2 OMPI_MCA_ess_base_jobid=7 "$build/pfmon" \
		-e task-clock,page-faults -e task-clock --outfile=text.%r true
	env OMPI_COMM_WORLD_RANK=$r OMPI_COMM_WORLD_SIZE=2 OMPI_MCA_ess_base_jobid=7 "$build/pfmon" \
		-e task-clock,page-faults --csv --outfile=csv.%r true
	env OMPI_COMM_WORLD_RANK=$r OMPI_COMM_WORLD_SIZE=2 OMPI_MCA_ess_base_jobid=7 "$build/pfmon" \
		-e task-clock,page-faults --json --outfile=json.%r true
done
for k in text csv json; do
	cp $k.0 "$d/$k"
	{ cat $k.0; printf '\f'; cat $k.1; } >"$d/$k-two-ranks"
done
# system-wide by group of CPUs (perf stat --per-core): root only
if [ "$(id -u)" -eq 0 ]; then
	for r in 0 1; do
		env OMPI_COMM_WORLD_RANK=$r OMPI_COMM_WORLD_SIZE=2 OMPI_MCA_ess_base_jobid=7 "$build/pfmon" \
			-a --per-core -e task-clock,page-faults --outfile=groups.%r true
	done
	{ cat groups.0; printf '\f'; cat groups.1; } >"$d/groups-two-ranks"
fi
cd - >/dev/null

# ---- elf: small programs, with DWARF ----
d=$out/elf
rm -rf "$d" && mkdir -p "$d"
cat >"$tmp/prog.c" <<'PROG'
static volatile int sink;
int data_table[64] = { 1 };
__attribute__((noinline)) int helper(int x) { return x * 3 + data_table[x & 63]; }
__attribute__((noinline)) void hot_loop(int n)
{
	for (int i = 0; i < n; i++)
		sink += helper(i);
}
int main(int argc, char **argv) { hot_loop(argc * 1000); return 0; }
PROG
cat >"$tmp/lib.c" <<'LIB'
int lib_counter;
int lib_func(int x)
{
	while (x > 1)
		x = x & 1 ? 3 * x + 1 : x / 2;
	return ++lib_counter;
}
LIB
# -Os and no .comment/.note.gnu.property keep the seeds small
# (no C runtime: main is the entry point; these are never run)
small() { "$CC" -Os -fno-asynchronous-unwind-tables -nostartfiles -Wl,--build-id=none \
	-Wl,-z,noseparate-code "$@"; }
small -g -Wl,-e,main -o "$d/exe-dwarf5" "$tmp/prog.c"
small -gdwarf-4 -no-pie -Wl,-e,main -o "$d/exe-dwarf4" "$tmp/prog.c"
small -g -fPIC -shared -o "$d/lib-dwarf5.so" "$tmp/lib.c"
small -g -gz=zlib -Wl,-e,main -o "$d/exe-gz" "$tmp/prog.c"
small -Wl,-e,main -o "$d/exe-nodebug" "$tmp/prog.c"
"$CC" -g -Os -c -o "$d/prog.o" "$tmp/prog.c"
for f in "$d"/*; do
	objcopy --remove-section=.comment --remove-section=.note.gnu.property "$f" 2>/dev/null || :
done
if command -v "${IA64_PREFIX}as" >/dev/null 2>&1; then
	"${IA64_PREFIX}as" -o "$d/ia64.o" "$src/tests/fixtures/symbol/ia64.s"
fi
