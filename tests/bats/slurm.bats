#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Cluster runs under a real Slurm (slurm.bash starts a single node of its
# own): srun, an sbatch job of two steps, a job array, salloc with srun,
# and mpirun in an allocation each keep every rank's results, and
# pfmon --merge reports them by step and array task.  cluster.bats
# imitates the launchers' variables for the error paths.

bats_require_minimum_version 1.5.0
load helpers
load slurm

setup_file() {
	slurm_start || true
	export SLURM_WHY
}

teardown_file() {
	slurm_stop
}

setup() {
	[ -z "$SLURM_WHY" ] || skip "no Slurm here: $SLURM_WHY"
	cd "$BATS_TEST_TMPDIR"
}

# header_value FILE KEY: the value of "# KEY: value"
header_value() {
	sed -n "s/^# $2: //p" "$1" | tail -1
}

# merged_total OUTPUT GROUP EVENT: the total of EVENT in the group's block of a text --merge
merged_total() {
	printf '%s\n' "$1" | awk -v g="$2" -v ev="$3" '
		/^# pfmon --merge: / { in_group = index($0, " of job " g " on ") > 0; next }
		in_group && $NF == ev { print $1; exit }'
}

# sum_of EVENT FILES...: the sum of a text results file's counts of EVENT
sum_of() {
	local ev=$1
	shift
	awk -v ev="$ev" '!/^#/ && $2 == ev { t += $1 } END { print t + 0 }' "$@"
}

@test "srun -n 2: a file a rank, the step in each header, merged as one step" {
	run -0 timeout 120 srun -n 2 "$PFMON" -e page-faults,task-clock --outfile=run.%J.%r "$FIXTURES/rank_pages" 300
	job=$(ls run.*.0 | cut -d. -f2)
	[ -f "run.$job.0.0" ] && [ -f "run.$job.0.1" ] || false
	[ "$(header_value "run.$job.0.1" 'job step')" = 0 ]
	[ "$(header_value "run.$job.0.1" launcher)" = slurm ]
	run -0 --separate-stderr "$PFMON" --merge run.*
	[[ "${lines[0]}" =~ "2 of 2 ranks of job $job.0 on 1 host" ]]
	[ "$(merged_total "$output" "$job.0" page-faults)" -eq "$(sum_of page-faults run.*)" ]
}

@test "sbatch --wait, two steps with --outfile=s.%j.%r: the second step keeps the first's files; merged by step" {
	cat >job.sh <<EOS
#!/bin/sh
srun -n 2 "$PFMON" -e page-faults --outfile=s.%j.%r "$FIXTURES/rank_pages" 200
srun -n 2 "$PFMON" -e page-faults --outfile=s.%j.%r "$FIXTURES/rank_pages" 400
EOS
	run -0 timeout 120 sbatch --wait -n 2 -o job.out job.sh
	job=${output##* }
	# step 1 found step 0's files: its own names say so, and the job's output why
	[ -f "s.$job.0" ] && [ -f "s.$job.1" ] && [ -f "s.$job.0.step1" ] && [ -f "s.$job.1.step1" ] || false
	[ "$(header_value "s.$job.0" 'job step')" = 0 ]
	[ "$(header_value "s.$job.0.step1" 'job step')" = 1 ]
	grep -q "^note: 's.$job.0' holds rank 0 of job $job.0: this rank's results go to 's.$job.0.step1'" job.out
	run -0 --separate-stderr "$PFMON" --merge s.*
	[[ "$stderr" =~ "note: 2 groups of job $job merged apart: $job.0 (2 ranks), $job.1 (2 ranks)" ]]
	[ "$(merged_total "$output" "$job.0" page-faults)" -eq "$(sum_of page-faults "s.$job.0" "s.$job.1")" ]
	[ "$(merged_total "$output" "$job.1" page-faults)" -eq \
		"$(sum_of page-faults "s.$job.0.step1" "s.$job.1.step1")" ]
	# the second step touched twice the pages: its total is the larger
	[ "$(merged_total "$output" "$job.1" page-faults)" -gt "$(merged_total "$output" "$job.0" page-faults)" ]
	run -0 --separate-stderr "$PFMON" --merge --json s.*
	[ "$(printf '%s' "$output" | jq -s -c '[.[] | ."job-step"]')" = '["0","1"]' ]
}

@test "sbatch --array=0-2 with --outfile=a.%A_%a.%r: every task's file, merged by task" {
	run -0 timeout 120 sbatch --wait --array=0-2 -n 1 -o /dev/null \
		--wrap "srun -n 1 '$PFMON' -e page-faults --outfile=a.%A_%a.%r '$FIXTURES/touch_pages' 100"
	ajob=${output##* }
	for t in 0 1 2; do
		[ -f "a.${ajob}_$t.0" ]
		[ "$(header_value "a.${ajob}_$t.0" 'array task id')" = "$t" ]
		[ "$(header_value "a.${ajob}_$t.0" 'array job id')" = "$ajob" ]
	done
	run -0 --separate-stderr "$PFMON" --merge --csv a.*
	[[ "$stderr" =~ "note: 3 groups of job $ajob merged apart: ${ajob}_0.0 (1 rank), ${ajob}_1.0 (1 rank), ${ajob}_2.0 (1 rank)" ]]
	[ "$(printf '%s\n' "$output" | grep -c '^# job ')" -eq 3 ]
	[ "$(printf '%s\n' "$output" | sed -n 2p)" = "# event,total,mean,min,max,stddev,min_rank,max_rank,imbalance,ranks" ]
}

@test "a job array with --outfile=b.%A.%r: the tasks share names, none is lost" {
	run -0 timeout 120 sbatch --wait --array=0-1 -n 1 -o /dev/null \
		--wrap "srun -n 1 '$PFMON' -e page-faults --outfile=b.%A.%r '$FIXTURES/touch_pages' 100"
	ajob=${output##* }
	[ "$(ls b.$ajob.0* | wc -l)" -eq 2 ]
	run -0 --separate-stderr "$PFMON" --merge b.*
	[[ "$stderr" =~ "note: 2 groups of job $ajob merged apart: ${ajob}_0.0 (1 rank), ${ajob}_1.0 (1 rank)" ]]
}

@test "salloc -n 2, two srun steps with %J: each step's ranks merged as a group" {
	run -0 timeout 120 salloc -n 2 sh -c "srun -n 2 '$PFMON' -e page-faults --outfile=c.%J.%r true &&
		srun -n 2 '$PFMON' -e page-faults --outfile=c.%J.%r true"
	[ "$(ls c.* | wc -l)" -eq 4 ]
	run -0 --separate-stderr "$PFMON" --merge c.*
	[ "$(printf '%s\n' "$output" | grep -c '^# pfmon --merge: 2 of 2 ranks of job [0-9]*\.[01] on 1 host')" -eq 2 ]
}

@test "mpirun in an allocation, twice: Open MPI's ranks, each mpirun a step of its own" {
	command -v mpirun >/dev/null || skip "Open MPI is not installed"
	run -0 timeout 180 salloc -n 2 sh -c "mpirun --allow-run-as-root --oversubscribe -np 2 '$PFMON' -e page-faults \
		--outfile=m.%j.%r '$FIXTURES/rank_pages' 200 &&
		mpirun --allow-run-as-root --oversubscribe -np 2 '$PFMON' -e page-faults --outfile=m.%j.%r \
		'$FIXTURES/rank_pages' 200"
	[ "$(ls m.* | wc -l)" -eq 4 ]
	f=$(ls m.* | head -1)
	[ "$(header_value "$f" launcher)" = openmpi ]
	[ "$(header_value "$f" 'job size')" = 2 ]
	run -0 --separate-stderr "$PFMON" --merge m.*
	[ "$(printf '%s\n' "$output" | grep -c '^# pfmon --merge: 2 of 2 ranks of job ')" -eq 2 ]
	[[ "$stderr" =~ "note: 2 groups of job " ]]
}
