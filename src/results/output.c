/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one place that decides where results go: standard output, the
 * --outfile (replaced or appended to), or the per-task and per-CPU files
 * named after it; and the check that what was written got there.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "results/output.h"

FILE *results_open(const struct output_opts *o, struct pf_error *err)
{
	FILE *f;

	if (!o->path)
		return o->to_stderr ? stderr : stdout;
	f = fopen(o->path, o->append ? "a" : "w");
	if (!f)
		pf_error_set(err, PF_E_OUTPUT, o->path, strerror(errno));
	return f;
}

int results_close(FILE *out, const char *path, struct pf_error *err)
{
	const char *name = path ? path : out == stderr ? "standard error" : "standard output";
	int failed = fflush(out) != 0 || ferror(out);
	int e = errno;

	if (out != stdout && out != stderr && fclose(out) != 0 && !failed) {
		failed = 1;
		e = errno;
	}
	if (failed)
		return pf_error_set(err, PF_E_OUTPUT, name, strerror(e ? e : EIO));
	return 0;
}

char *results_task_path(const struct output_opts *o, int pid, int tid, int exec_no)
{
	if (o->per_exec)
		return xasprintf("%s.%d.%d.%d", o->path, pid, tid, exec_no);
	return xasprintf("%s.%d.%d", o->path, pid, tid);
}

char *results_cpu_path(const struct output_opts *o, int cpu)
{
	return xasprintf("%s.cpu%d", o->path, cpu);
}

/* path in o's way (replaced, appended to, or a rank's: rank_output.c) */
static FILE *open_named(const struct output_opts *o, char *path, char **pathp, struct pf_error *err)
{
	FILE *f;

	*pathp = path;
	if (!o->job || o->append || !o->open_rank)
		return results_open(&(struct output_opts){ .path = path, .append = o->append }, err);
	f = o->open_rank(path, o->job, pathp, err);
	free(path);
	return f;
}

FILE *results_open_task(const struct output_opts *o, int pid, int tid, int exec_no, char **path,
			struct pf_error *err)
{
	return open_named(o, results_task_path(o, pid, tid, exec_no), path, err);
}

FILE *results_open_cpu(const struct output_opts *o, int cpu, char **path, struct pf_error *err)
{
	return open_named(o, results_cpu_path(o, cpu), path, err);
}
