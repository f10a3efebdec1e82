/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where results go: a file (created, or appended to) or standard output,
 * and the check at the end that they got there.  A full disk, a closed
 * descriptor or a reader gone is an error of one line (pfmon(1),
 * FAILURES), never silence.  The CLI fills output_opts from its options.
 */
#ifndef PFMON_RESULTS_OUTPUT_H
#define PFMON_RESULTS_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "common/error.h"
#include "common/job.h"

struct output_opts {
	const char *path; /* NULL: standard output (or error, with to_stderr) */
	bool append;      /* add to the file rather than replace it */
	bool to_stderr;   /* no path: standard error, where perf stat writes (--perf-style) */
	/* per-task results files: one per program a task runs too
	 * (--exec-split-results) */
	bool per_exec;
	/* a rank's files (the --outfile named with a job escape), not appended
	 * to: never replace another rank's, step's or array task's results of
	 * the job (results_open_rank); NULL: replace as asked */
	const struct job_identity *job;
	/* how a rank's files open: results_open_rank, which output.c does not
	 * link (it reads results back); NULL: as results_open */
	FILE *(*open_rank)(const char *path, const struct job_identity *job, char **chosen, struct pf_error *err);
};

/* the output o names, opened before the run: a bad path must not cost a
 * measurement; NULL with err when the file cannot be opened */
FILE *results_open(const struct output_opts *o, struct pf_error *err);
/*
 * A rank's results file path, created, as results_open does, unless it
 * holds something this rank must not replace: results of another rank,
 * step or array task of the same job, or no finished results at all (a
 * rank writing it now: the header comes at the end).  Then a name of its
 * own, path with a suffix saying whose (.step1, .task2, .rank3, .pid42),
 * said on stderr.  Results of another job, or this rank's own of an
 * earlier run, are replaced.  In rank_output.c.  *chosen: the name opened (allocated; also
 * set when NULL is returned with err).
 */
FILE *results_open_rank(const char *path, const struct job_identity *job, char **chosen, struct pf_error *err);
/* flush and close out (stdout is only flushed); -1 with err (may be NULL)
 * when something written did not get there.  path: the file's name in the
 * error, NULL for standard output. */
int results_close(FILE *out, const char *path, struct pf_error *err);

/*
 * Per-task and per-CPU results, each in a file of its own named after
 * o->path (pfmon 3.x): <path>.<pid>.<tid>, and .<exec#> with per_exec;
 * <path>.cpu<n>.  The names (allocated) and the files opened as
 * results_open does, *path set to the name (the caller frees it, also
 * when NULL is returned with err).
 */
char *results_task_path(const struct output_opts *o, int pid, int tid, int exec_no);
char *results_cpu_path(const struct output_opts *o, int cpu);
FILE *results_open_task(const struct output_opts *o, int pid, int tid, int exec_no, char **path,
			struct pf_error *err);
FILE *results_open_cpu(const struct output_opts *o, int cpu, char **path, struct pf_error *err);

#endif
