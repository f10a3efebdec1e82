/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pfmon --merge of count results: the ranks' files checked against each
 * other (one job, the same events, each rank once), then per event the
 * total, mean, min, max, standard deviation, the ranks of the min and the
 * max and the imbalance (max / mean, as likwid-mpirun's statistics);
 * metrics are computed per rank and summarized the same way.
 */
#ifndef PFMON_RESULTS_MERGE_H
#define PFMON_RESULTS_MERGE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "format.h"
#include "common/error.h"
#include "metric.h"
#include "results.h"

/* the spread of one quantity over the ranks that have it */
struct merge_stat {
	char *name;
	char *unit;        /* metrics: their unit; events: "ns" for clocks, else "" */
	bool is_metric;
	size_t ranks;      /* ranks with a value */
	long double total; /* exact for counts up to 2^64 ranks' worth */
	double mean, stddev, imbalance; /* imbalance: max / mean; NAN when the mean is 0 */
	double min, max;
	uint64_t min_count, max_count; /* events: min and max exactly (a double holds 2^53) */
	uint32_t min_rank, max_rank; /* the lowest rank on a tie */
};

struct merge_counts {
	char *group;    /* Slurm's name of what was merged: "7", "7.1" (step 1), "3_2.0" (array task 2) */
	bool of_several; /* one group of several merged: its output says which */
	struct results_file *files; /* by rank */
	size_t n_files;
	size_t n_hosts;
	struct merge_stat *stats; /* the events in header order, then the metrics */
	size_t n_stats;
	/* per rank (file) and stat: the value, NAN when the rank has none */
	double *per_rank;
};

/* the files of one launch (step) of one array task */
struct merge_group {
	struct results_file *files;
	size_t n;
};

/*
 * A job's files by group: one step of one array task (or of the job) each,
 * in the order of their ids; the files are moved into the groups (files is
 * freed; the groups' arrays are the caller's).  -1 with err, the files left
 * to the caller, when they are of different jobs (an array's tasks and a
 * heterogeneous job's components are one job).
 */
int merge_groups(struct results_file *files, size_t n, struct merge_group **out, size_t *n_out,
		 struct pf_error *err);
/* the group's name, Slurm's: JOB, JOB.STEP, ARRAYJOB_TASK.STEP (allocated) */
char *merge_group_name(const struct results_file *f);

/* Takes the files (sorted here by rank): checks they belong together, then
 * computes the statistics; metrics from l (may be NULL) per rank.
 * 0, or -1 with err; m owns the files either way. */
int merge_counts_compute(struct merge_counts *m, struct results_file *files, size_t n,
			 const struct metric_list *l, struct pf_error *err);
void merge_counts_release(struct merge_counts *m);
/* text, CSV (fo->csv_sep) or JSON, by fo->kind; fo->merge_ranks adds the per-rank rows */
void merge_counts_print(FILE *out, const struct merge_counts *m, const struct count_format_opts *fo);

#endif
