/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A counting session read into results/'s model (results/count_print.h):
 * the count rows of the whole run, of each CPU, of each task and of each
 * --print-interval round, with their metrics, and the results header of
 * the run (cli/count_rows.c).  What touches struct session; results/
 * prints.
 */
#ifndef PFMON_CLI_COUNT_ROWS_H
#define PFMON_CLI_COUNT_ROWS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/config.h"
#include "common/error.h"
#include "event/pmu_model.h"
#include "metrics.h"
#include "results/count_print.h"
#include "results/results.h"
#include "session/session.h"
#include "session/topology.h"

/* the blocks read, and what they point to */
struct count_blocks {
	struct count_block *blocks;
	size_t n, n_events;
	struct count_row *rows;        /* block i's: rows + i * n_events */
	struct metric_value **metrics; /* block i's, or NULL */
	struct count_task *tasks;      /* per task: block i's task */
};

/*
 * The whole run's block, a CPU's block each (system-wide), a task's block
 * each (per-task results; named by program with per_program).  Events
 * that could not be opened and requested metrics not available are said
 * on stderr, once.  0, or -1 with err and the blocks read before.
 */
int count_blocks_run(struct session *s, const struct metric_run *run, uint64_t duration_ns,
		     struct count_blocks *cb, struct pf_error *err);
/* with g (NULL: a block a CPU), a block per group of CPUs, their counts summed */
int count_blocks_cpus(const struct session *s, const struct cpu_groups *g, const struct metric_run *run,
		      uint64_t duration_ns, struct count_blocks *cb, struct pf_error *err);
int count_blocks_tasks(struct session *s, bool per_program, struct count_blocks *cb, struct pf_error *err);
void count_blocks_release(struct count_blocks *cb);

/*
 * perf stat -r N: each run's counts kept (scaled for multiplexing), then
 * one block of their means, each row with the relative standard error of
 * its mean (perf's "( +- 0.52% )") and the runs' values.  The block's
 * names, states and metrics are the last session's.
 */
struct count_repeats {
	size_t n_events, max_runs, runs;
	uint64_t *values;              /* event e's runs: values + e * max_runs */
	uint64_t *enabled, *running;   /* per event, summed over the runs */
	double *variance_pct;          /* per event, filled by count_blocks_repeats */
};
/* perf's stddev_stats over rel_stddev_stats: the standard error of the
 * mean of v[0..n-1], in percent of the mean (*mean); 0 for one value or a
 * mean of 0 */
double count_mean_error_pct(const uint64_t *v, size_t n, double *mean);
void count_repeats_init(struct count_repeats *r, size_t n_events, size_t max_runs);
/* one more run's counts from its session; -1 with err if they cannot be read */
int count_repeats_add(struct count_repeats *r, struct session *s, struct pf_error *err);
void count_repeats_release(struct count_repeats *r);
int count_blocks_repeats(struct session *last, struct count_repeats *r, const struct metric_run *run,
			 uint64_t duration_ns, struct count_blocks *cb, struct pf_error *err);

/* --print-interval: each round's deltas (per_cpu: a block per CPU, or a
 * block per group of CPUs with groups, which must outlive the intervals),
 * printed into out as they come; the session's tick (struct session_sink)
 * returns 1 after max_rounds rounds (0: no end) */
struct count_intervals;
struct count_intervals *count_intervals_new(struct session *s, const struct metric_run *run, bool per_cpu,
					    const struct cpu_groups *groups, uint64_t max_rounds, FILE *out,
					    const struct count_print_opts *po);
int count_intervals_tick(void *arg, uint64_t elapsed_ns, struct pf_error *err);
void count_intervals_free(struct count_intervals *iv);

/* The results header of the run (pfmon(1), CLUSTER RUNS): which rank of
 * which job, the events as programmed, start and end (CLOCK_REALTIME ns),
 * the metrics asked for.  host is the header's; count_header_release frees. */
void count_header_fill(const struct session *s, const struct pf_config *cfg, const struct pmu_model *m,
		       const struct metric_run *run, uint64_t start_ns, uint64_t end_ns, struct results_host *host,
		       struct results_header *h);
void count_header_release(struct results_header *h);

#endif
