/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A counting run's results printed (count_print.h): the times, the
 * total's line, the header and the blocks, each block into the output its
 * split names.  The lines of a block are report_counts' (counts.c); the
 * files' names are output.c's.
 */
#include <config.h>

#include <stdlib.h>

#include "results/count_print.h"

/* a task's block into its own file (or out): the header, the counts, the close */
static int print_task(FILE *out, const struct count_results *r, const struct count_block *b,
		      const struct count_print_opts *o, struct pf_error *err)
{
	const struct count_task *t = b->rep.task;
	char *path = NULL;
	FILE *f = o->files.path ? results_open_task(&o->files, t->pid, t->tid, b->exec_no, &path, err) : out;
	int rc = 0;

	if (!f) {
		free(path);
		return -1;
	}
	if (r->hdr)
		report_results_header(f, r->hdr, &o->fo);
	report_counts(f, &b->rep, &o->fo);
	if (f != out && results_close(f, path, err)) {
		report_counts(stderr, &b->rep, &o->fo); /* not lost: the error line follows */
		rc = -1;
	}
	free(path);
	return rc;
}

static int print_tasks(FILE *out, const struct count_results *r, const struct count_print_opts *o,
		       struct pf_error *err)
{
	int rc = 0;

	for (size_t i = 0; i < r->n_blocks; i++) {
		if (!rc)
			rc = print_task(out, r, &r->blocks[i], o, err);
		else /* after a failed write, the other tasks' results go to stderr */
			report_counts(stderr, &r->blocks[i].rep, &o->fo);
	}
	return rc;
}

/* each CPU's block into its own file, with the header */
static int print_cpu_files(const struct count_results *r, const struct count_print_opts *o, struct pf_error *err)
{
	int rc = 0;

	for (size_t i = 0; i < r->n_blocks && !rc; i++) {
		const struct count_block *b = &r->blocks[i];
		char *path = NULL;
		FILE *f = results_open_cpu(&o->files, b->rep.cpu, &path, err);

		if (f) {
			if (r->hdr)
				report_results_header(f, r->hdr, &o->fo);
			report_counts(f, &b->rep, &o->fo);
		}
		rc = f ? results_close(f, path, err) : -1;
		free(path);
	}
	return rc;
}

static int print_blocks(FILE *out, const struct count_results *r, const struct count_print_opts *o,
			struct pf_error *err)
{
	if (r->split == COUNT_SPLIT_TASK)
		return print_tasks(out, r, o, err);
	if (r->split == COUNT_SPLIT_CPU && o->files.path)
		return print_cpu_files(r, o, err);
	if (r->hdr && r->n_blocks)
		report_results_header(out, r->hdr, &o->fo);
	for (size_t i = 0; i < r->n_blocks; i++)
		report_counts(out, &r->blocks[i].rep, &o->fo);
	return 0;
}

int count_results_print(FILE *out, const struct count_results *r, const struct count_print_opts *o,
			struct pf_error *err)
{
	int rc;

	if (r->times)
		report_times(out, r->times->real_ns, r->times->user_ns, r->times->sys_ns);
	if (r->total_line)
		report_total(out, &o->fo);
	if (r->interval)
		report_interval_header(out, r->interval_s, &o->fo);
	if (r->perf)
		report_perf_heading(out, r->perf);
	rc = print_blocks(out, r, o, err);
	if (r->perf)
		report_perf_footer(out, r->perf);
	if (r->interval)
		fflush(out); /* each round as it comes */
	return rc;
}
