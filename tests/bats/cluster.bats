#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Cluster runs: each rank's files named by the launcher's environment
# (%r %s %h %p %j), the header a merge needs, and pfmon --merge.

bats_require_minimum_version 1.5.0
load helpers

# the launchers' variables must not leak in from the shell running the suite
clean_env() {
	env -u OMPI_COMM_WORLD_RANK -u OMPI_COMM_WORLD_SIZE -u OMPI_MCA_ess_base_jobid -u PMIX_RANK \
		-u PMIX_NAMESPACE -u PMI_RANK -u PMI_SIZE -u SLURM_PROCID -u SLURM_NTASKS -u SLURM_NPROCS \
		-u SLURM_JOB_ID "$@"
}

# header_value FILE KEY: the value of "# KEY: value"
header_value() {
	sed -n "s/^# $2: //p" "$1" | tail -1
}

# count_in FILE EVENT: the count of EVENT in a text results file
count_in() {
	awk -v ev="$2" '!/^#/ && $2 == ev { print $1; exit }' "$1"
}

# csv_col OUTPUT EVENT COLUMN: a column of --merge --csv by its header name
csv_col() {
	printf '%s\n' "$1" | awk -F, -v ev="$2" -v col="$3" '
		NR == 1 { sub(/^# /, ""); for (i = 1; i <= NF; i++) idx[$i] = i; next }
		/^#/ { exit }
		$1 == ev { print $idx[col]; exit }'
}

mpirun_works() {
	command -v mpirun >/dev/null || return 1
	timeout 60 mpirun $MPI_ARGS -np 2 true >/dev/null 2>&1
}

setup() {
	MPI_ARGS="--oversubscribe"
	[ "$(id -u)" -eq 0 ] && MPI_ARGS="$MPI_ARGS --allow-run-as-root"
	cd "$BATS_TEST_TMPDIR"
}

@test "mpirun -np 4: four rank files, merged: totals are the sum, rank 3 the busiest, imbalance max/mean" {
	mpirun_works || skip "mpirun cannot start 2 processes here (Open MPI not installed or not working)"
	run timeout 120 mpirun $MPI_ARGS -np 4 "$PFMON" -e page-faults,task-clock --outfile=run.%r \
		"$FIXTURES/rank_pages" 2000
	[ "$status" -eq 0 ]
	[ -f run.0 ] && [ -f run.1 ] && [ -f run.2 ] && [ -f run.3 ] && [ ! -f run.4 ] || false
	for r in 0 1 2 3; do
		[ "$(header_value run.$r rank)" = "$r" ]
		[ "$(header_value run.$r 'job size')" = 4 ]
		[ "$(header_value run.$r launcher)" = openmpi ]
	done
	# one job: the same job id in every file, Open MPI's
	[ "$(cat run.* | sed -n 's/^# job id: //p' | sort -u | wc -l)" -eq 1 ]
	[ "$(header_value run.0 'job id')" != none ]

	run "$PFMON" --merge --csv run.0 run.1 run.2 run.3
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "# event,total,mean,min,max,stddev,min_rank,max_rank,imbalance,ranks" ]
	sum=0 max=0
	for r in 0 1 2 3; do
		c=$(count_in run.$r page-faults)
		# rank r touched (r+1)*2000 pages
		[ "$c" -ge $(((r + 1) * 2000)) ]
		sum=$((sum + c))
		[ "$c" -gt "$max" ] && max=$c
	done
	[ "$(csv_col "$output" page-faults total)" -eq "$sum" ]
	[ "$(csv_col "$output" page-faults max)" -eq "$max" ]
	[ "$(csv_col "$output" page-faults max_rank)" -eq 3 ]
	[ "$(csv_col "$output" page-faults min_rank)" -eq 0 ]
	[ "$(csv_col "$output" page-faults ranks)" -eq 4 ]
	want=$(awk -v s="$sum" -v m="$max" 'BEGIN { printf "%.3f", m / (s / 4) }')
	[ "$(csv_col "$output" page-faults imbalance)" = "$want" ]
	# 8000 of 5000 pages on average, plus each process's own few faults
	awk -v i="$want" 'BEGIN { exit !(i > 1.45 && i < 1.61) }'
	[ "$(csv_col "$output" task-clock max_rank)" -eq 3 ]
}

@test "--merge text and JSON: the same statistics; --merge-ranks adds each rank's counts" {
	for r in 0 1 2; do
		clean_env OMPI_COMM_WORLD_RANK=$r OMPI_COMM_WORLD_SIZE=3 OMPI_MCA_ess_base_jobid=17 \
			"$PFMON" -e page-faults,task-clock --outfile=r.%r "$FIXTURES/touch_pages" $(((r + 1) * 500))
	done
	sum=$(($(count_in r.0 page-faults) + $(count_in r.1 page-faults) + $(count_in r.2 page-faults)))
	run "$PFMON" --merge r.0 r.1 r.2
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" =~ ^#\ pfmon\ --merge:\ 3\ of\ 3\ ranks\ of\ job\ 17\ on\ 1\ host ]]
	[ "$(printf '%s\n' "$output" | awk '$NF == "page-faults" { print $1 }')" -eq "$sum" ]
	run "$PFMON" --merge --json --merge-ranks .
	[ "$status" -eq 0 ]
	[ "$(printf '%s' "$output" | jq '.events[] | select(.event == "page-faults") | .total')" -eq "$sum" ]
	[ "$(printf '%s' "$output" | jq '.events[0].max_rank')" -eq 2 ]
	[ "$(printf '%s' "$output" | jq '."job-size"')" -eq 3 ]
	[ "$(printf '%s' "$output" | jq '."per-rank" | length')" -eq 3 ]
	[ "$(printf '%s' "$output" | jq '."per-rank"[1].values[0].value')" -eq "$(count_in r.1 page-faults)" ]
	# the shadow metrics (CPUs utilized of task-clock), computed per rank, summarized
	[ "$(printf '%s' "$output" | jq '[.metrics[] | select(.event | startswith("CPUs_utilized"))][0].ranks')" -eq 3 ]
}

@test "CSV and JSON results files merge like text ones" {
	for r in 0 1; do
		clean_env SLURM_PROCID=$r SLURM_NTASKS=2 SLURM_JOB_ID=5150 \
			"$PFMON" -e page-faults --csv --outfile=c.%r "$FIXTURES/touch_pages" 300
		clean_env SLURM_PROCID=$r SLURM_NTASKS=2 SLURM_JOB_ID=5151 \
			"$PFMON" -e page-faults --json --outfile=j.%r "$FIXTURES/touch_pages" 300
	done
	head -1 j.0 | jq -e '."pfmon-header".rank == 0 and ."pfmon-header"."job-id" == "5151"'
	grep -q '^# csv separator: ,$' c.1
	c0=$(awk -F, '!/^#/ && $3 == "page-faults" { print $1 }' c.0)
	c1=$(awk -F, '!/^#/ && $3 == "page-faults" { print $1 }' c.1)
	run "$PFMON" --merge --csv c.0 c.1
	[ "$status" -eq 0 ]
	[ "$(csv_col "$output" page-faults total)" -eq $((c0 + c1)) ]
	j0=$(tail -n +2 j.0 | jq -r 'select(.event == "page-faults") | ."counter-value"')
	j1=$(tail -n +2 j.1 | jq -r 'select(.event == "page-faults") | ."counter-value"')
	run "$PFMON" --merge --csv j.1 j.0
	[ "$status" -eq 0 ]
	# perf stat -j prints counts with decimals (351.000000)
	[ "$(csv_col "$output" page-faults total)" -eq $((${j0%.000000} + ${j1%.000000})) ]
}

@test "Slurm (srun): SLURM_PROCID, SLURM_NTASKS and SLURM_JOB_ID name the files" {
	run clean_env SLURM_PROCID=5 SLURM_NTASKS=8 SLURM_JOB_ID=4242 \
		"$PFMON" -e page-faults --outfile=s.%j.%r.%s true
	[ "$status" -eq 0 ]
	[ -f s.4242.5.8 ]
	[ "$(header_value s.4242.5.8 rank)" = 5 ]
	[ "$(header_value s.4242.5.8 'job size')" = 8 ]
	[ "$(header_value s.4242.5.8 'job id')" = 4242 ]
	[ "$(header_value s.4242.5.8 launcher)" = slurm ]
}

@test "MPICH/Hydra and PMI: PMI_RANK and PMI_SIZE; PMIx: PMIX_RANK" {
	run clean_env PMI_RANK=2 PMI_SIZE=3 "$PFMON" -e page-faults --outfile=p.%r-%s true
	[ "$status" -eq 0 ]
	[ "$(header_value p.2-3 launcher)" = pmi ]
	[ "$(header_value p.2-3 'job id')" = none ]
	run clean_env PMIX_RANK=1 PMIX_NAMESPACE=ns7 PMI_SIZE=4 "$PFMON" -e page-faults --outfile=x.%r.%j true
	[ "$status" -eq 0 ]
	[ "$(header_value x.1.ns7 launcher)" = pmix ]
	[ "$(header_value x.1.ns7 'job size')" = 4 ]
	# PMIx alone gives no size: said, not guessed
	run -2 --separate-stderr clean_env PMIX_RANK=1 "$PFMON" -e page-faults --outfile=y.%r true
	one_error_line "^error: PMIX_RANK='1': the launcher gives no job size"
}

@test "precedence: Open MPI's rank over PMIx, PMI and Slurm (mpirun inside an allocation)" {
	run clean_env OMPI_COMM_WORLD_RANK=3 OMPI_COMM_WORLD_SIZE=4 PMI_RANK=1 PMI_SIZE=2 SLURM_PROCID=0 \
		SLURM_NTASKS=1 SLURM_JOB_ID=77 "$PFMON" -e page-faults --outfile=o.%r.%s.%j true
	[ "$status" -eq 0 ]
	[ -f o.3.4.77 ]
	[ "$(header_value o.3.4.77 launcher)" = openmpi ]
}

@test "outside a launcher %r is 0 and %s 1; %h, %p and %% expand; no escape, no header" {
	run clean_env "$PFMON" -e page-faults --outfile='n.%r.%s.%h.%%' true
	[ "$status" -eq 0 ]
	f="n.0.1.$(hostname).%"
	[ -f "$f" ]
	[ "$(header_value "$f" launcher)" = none ]
	pid=$(header_value "$f" pid)
	run clean_env "$PFMON" -e page-faults --outfile='q.%p' true
	[ "$(ls q.* | wc -l)" -eq 1 ]
	p=$(ls q.*)
	[ "$(header_value "$p" pid)" = "${p#q.}" ]
	# a plain name keeps pfmon 3.x's plain counts
	run clean_env "$PFMON" -e page-faults --outfile=plain true
	[ "$(grep -c '^#' plain)" -eq 0 ]
}

@test "bad escapes and bad launcher variables: one line, exit 2" {
	run -2 --separate-stderr clean_env "$PFMON" -e page-faults --outfile=a.%x true
	one_error_line "invalid value 'a.%x' for option '--outfile': unknown escape '%x'"
	run -2 --separate-stderr clean_env "$PFMON" -e page-faults --outfile=a.% true
	one_error_line "a '%' ends the name"
	run -2 --separate-stderr clean_env "$PFMON" -e page-faults --smpl-outfile=s.%q true
	one_error_line "option '--smpl-outfile': unknown escape '%q'"
	run -2 --separate-stderr clean_env SLURM_PROCID=x SLURM_NTASKS=2 "$PFMON" -e page-faults true
	one_error_line "^error: SLURM_PROCID='x': "
	run -2 --separate-stderr clean_env PMI_RANK=4 PMI_SIZE=4 "$PFMON" -e page-faults true
	one_error_line "rank 4 \(PMI_RANK\) is not below its job size 4"
}

# make_ranks N PREFIX JOB: N synthetic ranks' files from one real results
# file, rank r counting 1000 + r page-faults
make_ranks() {
	clean_env "$PFMON" -e page-faults --with-header --outfile=template "$FIXTURES/touch_pages" 10
	awk -v n="$1" -v prefix="$2" -v job="$3" '
		{ line[NR] = $0 }
		END {
			for (r = 0; r < n; r++) {
				f = prefix r
				for (i = 1; i <= NR; i++) {
					l = line[i]
					if (l ~ /^# rank: /) l = "# rank: " r
					else if (l ~ /^# job size: /) l = "# job size: " n
					else if (l ~ /^# job id: /) l = "# job id: " job
					else if (l ~ /^# hostname: /) l = "# hostname: node" int(r / 16)
					else if (l !~ /^#/) { split(l, a, " "); l = (1000 + r) " " a[2] }
					print l > f
				}
				close(f)
			}
		}' template
}

@test "merge of 1,024 ranks' files: exact total, mean, extremes, imbalance, hosts" {
	mkdir ranks
	make_ranks 1024 ranks/r. 9001
	run "$PFMON" --merge --csv ranks
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "page-faults,1547776,1511.50,1000,2023,295.60,0,1023,1.338,1024" ]
	run "$PFMON" --merge ranks
	[[ "${lines[0]}" =~ "1024 of 1024 ranks of job 9001 on 64 hosts" ]]
}

@test "merge refuses files of different jobs, events, versions, twice a rank, without header" {
	make_ranks 2 a. 1
	make_ranks 2 b. 2
	run -2 --separate-stderr "$PFMON" --merge a.0 b.1
	one_error_line "'a.0' and 'b.1' are of different jobs \('1' and '2'\)"
	run -2 --separate-stderr "$PFMON" --merge a.0 a.0
	one_error_line "are both rank 0"
	clean_env "$PFMON" -e page-faults,task-clock --with-header --outfile=ev.1 true
	sed -i 's/^# rank: 0/# rank: 1/; s/^# job size: 1/# job size: 2/; s/^# job id: none/# job id: 1/' ev.1
	run -2 --separate-stderr "$PFMON" --merge a.0 ev.1
	one_error_line "measured different events \(1 and 2 events\)"
	sed 's/^# results format: 1\.[0-9]*/# results format: 2.0/' a.1 >v2
	run -1 --separate-stderr "$PFMON" --merge a.0 v2
	one_error_line "'v2' line [0-9]+: results format 2.0: this pfmon reads 1.x"
	clean_env "$PFMON" -e page-faults --outfile=nohead true
	run -1 --separate-stderr "$PFMON" --merge nohead
	one_error_line "'nohead': no pfmon results header"
	run -2 --separate-stderr "$PFMON" --merge
	one_error_line "^error: option '--merge' needs the results files"
	run -2 --separate-stderr "$PFMON" --merge -e page-faults a.0
	one_error_line "option '--events' is not used with --merge"
}

@test "--merge of an empty directory: one usage error, nothing else (no sanitizer report)" {
	mkdir empty
	run -2 --separate-stderr "$PFMON" --merge empty
	one_error_line "^error: --merge: the directories given hold no file$"
	# hidden files and subdirectories are not results files either
	mkdir -p only/.hidden only/sub
	touch only/.dot
	run -2 --separate-stderr "$PFMON" --merge only
	one_error_line "^error: --merge: the directories given hold no file$"
}

@test "merge refuses a second row of an event, a negative count and a count past 2^64, naming file and line" {
	clean_env "$PFMON" -e page-faults,task-clock --with-header --outfile=r.0 true
	clean_env "$PFMON" -e page-faults,task-clock --with-header --csv --outfile=c.0 true
	clean_env "$PFMON" -e page-faults,task-clock --json --outfile=j.%r true
	n=$(wc -l <r.0)
	{ cat r.0; echo "-5 task-clock"; } >neg
	run -1 --separate-stderr "$PFMON" --merge neg
	one_error_line "^error: 'neg' line $((n + 1)): a negative count '-5' for event 'task-clock'$"
	{ cat r.0; echo "12345678901234567890123 task-clock"; } >big
	run -1 --separate-stderr "$PFMON" --merge big
	one_error_line "^error: 'big' line $((n + 1)): a count too large \(past 2\^64\) '12345678901234567890123' for event 'task-clock'$"
	{ cat r.0; grep ' page-faults' r.0 | grep -v '^#'; } >twice
	run -1 --separate-stderr "$PFMON" --merge twice
	one_error_line "^error: 'twice' line $((n + 1)): a second row of event 'page-faults'$"
	# the header's pid is a number, checked as the rank is (it was read with atol: 0)
	l=$(grep -n '^# pid: ' r.0 | cut -d: -f1)
	[ -n "$l" ]
	sed 's/^# pid: .*/# pid: 12x/' r.0 >badpid
	run -1 --separate-stderr "$PFMON" --merge badpid
	one_error_line "^error: 'badpid' line $l: bad pid '12x'$"
	# the same in CSV and JSON lines
	{ cat c.0; grep ',page-faults,' c.0; } >twice.csv
	run -1 --separate-stderr "$PFMON" --merge twice.csv
	one_error_line "^error: 'twice.csv' line [0-9]+: a second row of event 'page-faults'$"
	sed 's/^[0-9][0-9]*,,page-faults,/-7,,page-faults,/' c.0 >neg.csv
	run -1 --separate-stderr "$PFMON" --merge neg.csv
	one_error_line "^error: 'neg.csv' line [0-9]+: a negative count '-7' for event 'page-faults'$"
	sed 's/"counter-value" : "[0-9.]*","unit" : "","event" : "page-faults"/"counter-value" : "99999999999999999999999","unit" : "","event" : "page-faults"/' j.0 >big.json
	run -1 --separate-stderr "$PFMON" --merge big.json
	one_error_line "^error: 'big.json' line [0-9]+: a count too large \(past 2\^64\) '99999999999999999999999' for event 'page-faults'$"
	{ cat j.0; grep -v pfmon-header j.0 | grep '"event" : "task-clock"'; } >twice.json
	run -1 --separate-stderr "$PFMON" --merge twice.json
	one_error_line "^error: 'twice.json' line [0-9]+: a second row of event 'task-clock'$"
	# the untouched files still merge
	run -0 --separate-stderr "$PFMON" --merge r.0
	run -0 --separate-stderr "$PFMON" --merge c.0
	run -0 --separate-stderr "$PFMON" --merge j.0
}

@test "merge of a results file appended to by interval runs: the last run's totals, not its intervals" {
	# burn spins 150 ms of CPU time: intervals of 50 ms in each run
	for run in 1 2; do
		clean_env "$PFMON" -e page-faults,task-clock --print-interval=50 --with-header --append --outfile=a.0 \
			"$FIXTURES/burn" 150 >/dev/null
	done
	[ "$(grep -c '^# results format: ' a.0)" -eq 2 ]
	[ "$(grep -c '^# total$' a.0)" -eq 2 ]
	last=$(awk '/^# results format: / { s = 1; v = "" } s && $2 == "page-faults" { v = $1 } END { print v }' a.0)
	[ -n "$last" ]
	run -0 --separate-stderr "$PFMON" --merge --csv a.0
	[ "$(csv_col "$output" page-faults total)" = "$last" ]
}

# cpu_sum FILES... EVENT: the sum of the per-CPU text rows of EVENT
cpu_sum() {
	local ev=${@: -1}
	awk -v ev="$ev" '/^CPU[0-9]+ / && $3 == ev { t += $2 } END { print t + 0 }' "${@:1:$#-1}"
}

@test "system-wide per-CPU files (.cpuN): a rank's CPUs add up, in text, CSV and JSON" {
	for r in 0 1; do
		clean_env OMPI_COMM_WORLD_RANK=$r OMPI_COMM_WORLD_SIZE=2 OMPI_MCA_ess_base_jobid=9 \
			"$PFMON" -a -e page-faults,context-switches --outfile=t.%r sleep 0.2
		clean_env OMPI_COMM_WORLD_RANK=$r OMPI_COMM_WORLD_SIZE=2 OMPI_MCA_ess_base_jobid=10 \
			"$PFMON" -a -e page-faults,context-switches --csv --outfile=c.%r sleep 0.2
		clean_env OMPI_COMM_WORLD_RANK=$r OMPI_COMM_WORLD_SIZE=2 OMPI_MCA_ess_base_jobid=11 \
			"$PFMON" -a -e page-faults,context-switches --json --outfile=j.%r sleep 0.2
	done
	ncpu=$(ls t.0.cpu* | wc -l)
	[ "$ncpu" -ge 1 ]
	[ "$(header_value t.0.cpu0 'monitoring mode')" = "system-wide, per CPU" ]
	run -0 --separate-stderr "$PFMON" --merge --csv t.*
	[ "$(csv_col "$output" context-switches ranks)" = 2 ]
	[ "$(csv_col "$output" context-switches total)" -eq "$(cpu_sum t.* context-switches)" ]
	[ "$(csv_col "$output" page-faults min)" -eq "$(cpu_sum t.0.* t.1.* page-faults | \
		awk -v a="$(cpu_sum t.0.* page-faults)" -v b="$(cpu_sum t.1.* page-faults)" \
		'{ print (a < b ? a : b) }')" ]
	run -0 --separate-stderr "$PFMON" --merge --csv c.*
	[ "$(csv_col "$output" context-switches ranks)" = 2 ]
	run -0 --separate-stderr "$PFMON" --merge --csv j.*
	[ "$(csv_col "$output" context-switches ranks)" = 2 ]
	# a CPU twice in one rank is not a larger rank
	cp t.0.cpu0 t.0.again
	run -2 --separate-stderr "$PFMON" --merge t.*
	one_error_line "are both rank 0 .*per-CPU files add up only when their CPUs differ"
	rm t.0.again
	# a CPU's rows need not be together (perf stat -a -A writes an event's CPUs in a row)
	{ grep '^#' t.0.cpu0; printf 'CPU0 5 page-faults\nCPU3 7 page-faults\nCPU0 11 context-switches\n'
	  printf 'CPU3 13 context-switches\n'; } >mixed
	run -0 --separate-stderr "$PFMON" --merge --csv mixed
	[ "$(csv_col "$output" page-faults total)" = 12 ]
	[ "$(csv_col "$output" context-switches total)" = 24 ]
	# crafted files: a CPU's rows twice, a row twice, a CPU without an event's row
	{ cat t.0.cpu0; grep '^CPU0 ' t.0.cpu0 | sed 's/^CPU0/CPU7/'; grep '^CPU0 ' t.0.cpu0; } >bad.2
	run -1 --separate-stderr "$PFMON" --merge bad.2
	one_error_line "'bad.2' line [0-9]+: CPU 0 has a second row of event 'page-faults'"
	{ cat t.0.cpu0; grep '^CPU0 .* page-faults' t.0.cpu0; } >bad.1
	run -1 --separate-stderr "$PFMON" --merge bad.1
	one_error_line "'bad.1' line [0-9]+: CPU 0 has a second row of event 'page-faults'"
	grep -v '^CPU0 .* page-faults' t.0.cpu0 >bad.3
	run -1 --separate-stderr "$PFMON" --merge bad.3
	one_error_line "'bad.3': .*no count for event 'page-faults' of set 0 on CPU 0"
}

@test "system-wide results by group of CPUs (--per-core, --per-socket): a rank's groups add up, in text, CSV and JSON" {
	[ "$(id -u)" -eq 0 ] || skip "system-wide monitoring needs root here"
	for r in 0 1; do
		clean_env OMPI_COMM_WORLD_RANK=$r OMPI_COMM_WORLD_SIZE=2 OMPI_MCA_ess_base_jobid=12 \
			"$PFMON" -a --per-core -e page-faults,context-switches --outfile=g.%r sleep 0.2
		clean_env OMPI_COMM_WORLD_RANK=$r OMPI_COMM_WORLD_SIZE=2 OMPI_MCA_ess_base_jobid=13 \
			"$PFMON" -a --per-socket -e page-faults,context-switches -x, --outfile=gc.%r sleep 0.2
		clean_env OMPI_COMM_WORLD_RANK=$r OMPI_COMM_WORLD_SIZE=2 OMPI_MCA_ess_base_jobid=14 \
			"$PFMON" -a --per-core -e page-faults,context-switches --json --outfile=gj.%r sleep 0.2
	done
	[ "$(header_value g.0 'monitoring mode')" = "system-wide, per-core" ]
	# the groups' rows: "S0-D0-C1  NR  COUNT EVENT"
	sum=$(awk '/^S[0-9]/ && $4 == "context-switches" { t += $3 } END { print t + 0 }' g.0 g.1)
	run -0 --separate-stderr "$PFMON" --merge --csv g.0 g.1
	[ "$(csv_col "$output" context-switches ranks)" = 2 ]
	[ "$(csv_col "$output" context-switches total)" -eq "$sum" ]
	sum=$(awk -F, '$5 == "page-faults" { t += $3 } END { print t + 0 }' gc.0 gc.1)
	run -0 --separate-stderr "$PFMON" --merge --csv gc.0 gc.1
	[ "$(csv_col "$output" page-faults total)" -eq "$sum" ]
	sum=$(jq -s '[.[] | select(.event == "page-faults") | ."counter-value" | tonumber] | add' gj.0 gj.1)
	run -0 --separate-stderr "$PFMON" --merge --csv gj.0 gj.1
	[ "$(csv_col "$output" page-faults total)" -eq "${sum%.*}" ]
	# a group's row twice is refused, naming the group
	{ cat g.0; grep '^S0-D0-C0 .* page-faults' g.0; } >bad.g
	run -1 --separate-stderr "$PFMON" --merge bad.g
	one_error_line "'bad.g' line [0-9]+: CPUs S0-D0-C0 have a second row of event 'page-faults'"
}

# sample_ranks N JOB: N ranks sampling the hotspot fixture into s.<rank>.pfs
sample_ranks() {
	for r in $(seq 0 $(($1 - 1))); do
		clean_env OMPI_COMM_WORLD_RANK=$r OMPI_COMM_WORLD_SIZE=$1 OMPI_MCA_ess_base_jobid=$2 \
			"$PFMON" -e cpu-clock --long-smpl-periods=1000000 --smpl-outfile=s.%r.pfs \
			"${3:-$FIXTURES/hotspot}" >/dev/null
	done
}

# samples_of OUTPUT FUNCTION: the samples of a function in a text profile
samples_of() {
	printf '%s\n' "$1" | awk -v f="$2" '!/^#/ && $4 == f { print $1; exit }'
}

@test "--merge of sample files: one profile, each rank's samples added up, per-rank shares" {
	sample_ranks 3 31
	for r in 0 1 2; do
		run "$PFMON" --report=s.$r.pfs
		hot[r]=$(samples_of "$output" hot)
		total[r]=$(printf '%s\n' "$output" | sed -n 's/^# event cpu-clock: \([0-9]*\) samples.*/\1/p')
	done
	run "$PFMON" --merge --merge-ranks s.0.pfs s.1.pfs s.2.pfs
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" =~ ^#\ pfmon\ --merge:\ 3\ of\ 3\ ranks\ of\ job\ 31\ on\ 1\ host ]]
	[[ "$output" =~ "# event cpu-clock: $((total[0] + total[1] + total[2])) samples" ]]
	[ "$(samples_of "$output" hot)" -eq $((hot[0] + hot[1] + hot[2])) ]
	for r in 0 1 2; do
		[ "$(printf '%s\n' "$output" | awk -v r=$r '$1 == r && $NF == "(hotspot)" && $(NF-1) == "hot" { print $2 }')" -eq "${hot[r]}" ] || false
	done
	# the merged profile's JSON form is --report's
	run "$PFMON" --merge --report-format=json .
	[ "$status" -eq 0 ]
	printf '%s' "$output" | jq -e . >/dev/null
}

@test "--merge of sample files: one binary by its build-id, wherever each host had it" {
	mkdir a b
	cp "$FIXTURES/hotspot" a/hotspot
	cp "$FIXTURES/hotspot" b/hotspot2
	clean_env OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=2 OMPI_MCA_ess_base_jobid=8 \
		"$PFMON" -e cpu-clock --long-smpl-periods=1000000 --smpl-outfile=s.%r.pfs a/hotspot >/dev/null
	clean_env OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=2 OMPI_MCA_ess_base_jobid=8 \
		"$PFMON" -e cpu-clock --long-smpl-periods=1000000 --smpl-outfile=s.%r.pfs b/hotspot2 >/dev/null
	run "$PFMON" --report=s.1.pfs
	[[ "$output" =~ "hot (hotspot2)" ]]
	h1=$(printf '%s\n' "$output" | awk '$4 == "hot" { print $1; exit }')
	run "$PFMON" --report=s.0.pfs
	h0=$(samples_of "$output" hot)
	run "$PFMON" --merge s.0.pfs s.1.pfs
	[ "$status" -eq 0 ]
	[[ ! "$output" =~ hotspot2 ]]
	[ "$(samples_of "$output" hot)" -eq $((h0 + h1)) ]
}

# merge_with THREADS ARGS...: stdout, then stderr, then the exit status of a merge
merge_with() {
	local t=$1 rc=0
	shift
	PFMON_READ_THREADS=$t "$PFMON" --merge "$@" >out.$t 2>err.$t || rc=$?
	cat out.$t err.$t
	echo "exit $rc"
}

@test "--merge of sample files: the same output whatever the number of reading threads" {
	# thousands of records a file: many batches each, queues that fill up
	for r in 0 1 2 3 4; do
		clean_env OMPI_COMM_WORLD_RANK=$r OMPI_COMM_WORLD_SIZE=6 OMPI_MCA_ess_base_jobid=61 \
			"$PFMON" -e cpu-clock --long-smpl-periods=20000 --smpl-outfile=s.%r.pfs \
			"$FIXTURES/hotspot" 200 >/dev/null
	done
	one=$(merge_with 0 --merge-ranks s.*.pfs)
	[[ "$one" =~ "# event cpu-clock: " ]]
	[[ "$one" =~ "exit 0" ]]
	for t in 1 2 3 8; do
		[ "$(merge_with $t --merge-ranks s.*.pfs)" = "$one" ]
	done
	[ "$(merge_with 1 --report-format=json s.*.pfs)" = "$(merge_with 0 --report-format=json s.*.pfs)" ]
	# call chains, every format and sort: the folding threads change none
	for r in 0 1 2 3 4; do
		clean_env OMPI_COMM_WORLD_RANK=$r OMPI_COMM_WORLD_SIZE=6 OMPI_MCA_ess_base_jobid=62 \
			"$PFMON" -e cpu-clock -g --long-smpl-periods=20000 --smpl-outfile=g.%r.pfs \
			"$FIXTURES/hotspot" 200 >/dev/null
	done
	for view in --report-format=folded --report-format=svg --report-format=json --report-sort=line \
		--report-sort=address --report-sort=binary --report-format=script; do
		one=$(merge_with 0 $view g.*.pfs)
		[[ "$one" =~ "exit 0" ]]
		[ "$(merge_with 2 $view g.*.pfs)" = "$one" ]
	done
	[[ "$(merge_with 2 --report-format=folded g.*.pfs)" =~ hotspot\;.*\;hot\ [0-9]+ ]]
	# a truncated rank: its warning where it was, the rest the same
	head -c $(($(stat -c %s s.2.pfs) / 2)) s.2.pfs >t.pfs && mv t.pfs s.2.pfs
	one=$(merge_with 0 s.*.pfs)
	[[ "$one" =~ "'s.2.pfs' is truncated at offset" ]]
	[ "$(merge_with 2 s.*.pfs)" = "$one" ]
	# a corrupted rank: the same one error, exit 1
	printf 'XXXXXXXX' | dd of=s.3.pfs bs=1 seek=$(($(stat -c %s s.3.pfs) / 2)) conv=notrunc 2>/dev/null
	one=$(merge_with 0 s.*.pfs)
	[[ "$one" =~ "exit 1" ]]
	[[ "$one" =~ "s.3.pfs" ]]
	[ "$(merge_with 1 s.*.pfs)" = "$one" ]
	[ "$(merge_with 3 s.*.pfs)" = "$one" ]
	# the variable is a number of threads, or refused
	PFMON_READ_THREADS=many run -2 --separate-stderr "$PFMON" --merge s.0.pfs s.1.pfs
	one_error_line "PFMON_READ_THREADS='many': give a number of threads from 0 to 64"
	PFMON_READ_THREADS=65 run -2 --separate-stderr "$PFMON" --merge s.0.pfs s.1.pfs
	one_error_line "PFMON_READ_THREADS='65'"
}

@test "--merge of sample files refuses other jobs, a repeated rank, mixed kinds, CSV" {
	sample_ranks 2 40
	mv s.0.pfs j40.pfs
	sample_ranks 2 41
	run -2 --separate-stderr "$PFMON" --merge j40.pfs s.1.pfs
	one_error_line "'j40.pfs' and 's.1.pfs' are of different jobs"
	run -2 --separate-stderr "$PFMON" --merge s.1.pfs s.1.pfs
	one_error_line "'s.1.pfs' and 's.1.pfs' are both rank 1$"
	clean_env SLURM_PROCID=0 SLURM_NTASKS=1 "$PFMON" -e page-faults --outfile=c.%r true
	run -2 --separate-stderr "$PFMON" --merge s.0.pfs c.0
	one_error_line "sample files and count results cannot be merged together"
	run -2 --separate-stderr "$PFMON" --merge --csv s.0.pfs
	one_error_line "a merged profile takes --report-format=json"
}

@test "Slurm's step and array task: %S %J %A %a and the header; merged by group; a rank's file never replaced by another step's" {
	run -0 clean_env SLURM_PROCID=1 SLURM_NTASKS=2 SLURM_JOB_ID=12 SLURM_STEP_ID=3 SLURM_ARRAY_JOB_ID=10 \
		SLURM_ARRAY_TASK_ID=2 "$PFMON" -e page-faults --outfile=x.%S.%J.%A.%a.%r true
	[ -f x.3.12.3.10.2.1 ]
	[ "$(header_value x.3.12.3.10.2.1 'job step')" = 3 ]
	[ "$(header_value x.3.12.3.10.2.1 'array job id')" = 10 ]
	[ "$(header_value x.3.12.3.10.2.1 'array task id')" = 2 ]
	# outside an array %A is the job id, outside a step %J too
	run -0 clean_env SLURM_PROCID=0 SLURM_NTASKS=1 SLURM_JOB_ID=13 "$PFMON" -e page-faults --outfile=y.%J.%A.%S true
	[ -f y.13.13.none ]
	# two steps named alike: the second's files get a name of their own, said
	for st in 0 1; do
		for r in 0 1; do
			run -0 --separate-stderr clean_env SLURM_PROCID=$r SLURM_NTASKS=2 SLURM_JOB_ID=14 SLURM_STEP_ID=$st \
				"$PFMON" -e page-faults --outfile=s.%j.%r true
		done
	done
	[ "$stderr" = "note: 's.14.1' holds rank 1 of job 14.0: this rank's results go to 's.14.1.step1' (name each step's files with %J, each array task's with %a)" ]
	[ "$(header_value s.14.1 'job step')" = 0 ]
	[ "$(header_value s.14.1.step1 'job step')" = 1 ]
	run -0 --separate-stderr "$PFMON" --merge s.*
	[ "$stderr" = "note: 2 groups of job 14 merged apart: 14.0 (2 ranks), 14.1 (2 ranks)" ]
	[ "$(printf '%s\n' "$output" | grep -c '^# pfmon --merge: 2 of 2 ranks of job 14\.[01] on 1 host')" -eq 2 ]
	# the same step again replaces its own file; --append appends, as always
	run -0 --separate-stderr clean_env SLURM_PROCID=0 SLURM_NTASKS=2 SLURM_JOB_ID=14 SLURM_STEP_ID=0 \
		"$PFMON" -e page-faults --outfile=s.%j.%r true
	[ -z "$stderr" ]
	run -0 --separate-stderr clean_env SLURM_PROCID=0 SLURM_NTASKS=2 SLURM_JOB_ID=14 SLURM_STEP_ID=1 \
		"$PFMON" -e page-faults --append --outfile=s.%j.%r true
	[ -z "$stderr" ]
	[ "$(grep -c '^# results format: ' s.14.0)" -eq 2 ]
	# a file without finished results (a rank writing it): a name of this process's own
	: >e.0
	run -0 --separate-stderr clean_env SLURM_PROCID=0 SLURM_NTASKS=1 SLURM_JOB_ID=15 \
		"$PFMON" -e page-faults --outfile=e.%r true
	[[ "$stderr" =~ ^note:\ \'e.0\'\ holds\ no\ finished\ results.*\'e.0.pid[0-9]+\' ]]
	[ ! -s e.0 ]
	# files of two jobs are still refused
	run -2 --separate-stderr "$PFMON" --merge s.14.0 x.3.12.3.10.2.1
	one_error_line "are of different jobs \('14' and '10'\)"
}
