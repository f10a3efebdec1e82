/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A counting run's results as they are printed: the blocks of count rows
 * (the whole run, a CPU, a task, a round of --print-interval deltas) with
 * the header and the times before them, and which output each block goes
 * to.  cli/ fills the model from its session (cli/count_rows.c);
 * count_results_print writes it, so results/ alone decides the layout
 * and where it goes (results/output.c).
 */
#ifndef PFMON_RESULTS_COUNT_PRINT_H
#define PFMON_RESULTS_COUNT_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "counts.h"
#include "format.h"
#include "output.h"
#include "results.h"

struct count_block {
	struct count_report rep; /* the rows, their CPU, task or interval, their metrics */
	int exec_no;             /* a task's block: which of its programs (per-exec files) */
};

/* which output each block goes to */
enum count_split {
	COUNT_SPLIT_NONE, /* every block to the output, the header once */
	COUNT_SPLIT_TASK, /* a task a block, each with its header: <outfile>.<pid>.<tid>[.<exec#>] */
	COUNT_SPLIT_CPU,  /* a CPU a block: <outfile>.cpu<n> */
};

/* --show-time: the command's real, user and system time (ns) */
struct count_times {
	uint64_t real_ns, user_ns, sys_ns;
};

struct count_results {
	const struct count_times *times; /* first, or NULL */
	const struct count_perf_frame *perf; /* --perf-style: the heading before, the times after */
	/* "# total" before the counts: the run's total after --print-interval's deltas (text) */
	bool total_line;
	const struct results_header *hdr; /* --with-header: before the counts, or NULL */
	/* one round of --print-interval deltas: its header line first, flushed after */
	bool interval;
	double interval_s;
	enum count_split split;
	const struct count_block *blocks;
	size_t n_blocks;
};

struct count_print_opts {
	struct count_format_opts fo;
	/* where split blocks go: files named after files.path (the --outfile,
	 * with --append and per_exec), or with no path the output */
	struct output_opts files;
};

/*
 * r into out; split blocks into their own files when o->files.path.  A
 * task's file that cannot be written sends the remaining tasks' blocks to
 * stderr, the failed one too when it was written but not closed, so no
 * result is lost; a CPU's file ends the printing.  0, or -1 with err.
 */
int count_results_print(FILE *out, const struct count_results *r, const struct count_print_opts *o,
			struct pf_error *err);

#endif
