/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A rank's results file (output.h, results_open_rank): never another
 * rank's, step's or array task's results of the job replaced.  Apart from
 * output.c, which stands alone (tests/unit/test_results_output), as this
 * reads the file found with results.c.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/userfile.h"
#include "common/util.h"
#include "results/merge.h"
#include "results/output.h"
#include "results/results.h"

/* a results file larger than this is no rank's: read no further */
#define RANK_FILE_MAX (64u << 20)

/* what a rank finds at its file's name */
enum holder {
	HOLDER_NONE,  /* replace it: another job's results, this rank's own, no regular file */
	HOLDER_RANK,  /* another rank's, step's or array task's results of this job */
	HOLDER_UNKNOWN, /* no finished results: being written, or not pfmon's */
};

/* whose results path holds; *differs: what tells them from this rank's
 * (".step1"), *whose: whose they are ("rank 0 of job 7.0") */
static enum holder holder_of(const char *path, const struct job_identity *id, struct strbuf *differs,
			     struct strbuf *whose)
{
	char *group;
	struct pf_error ignored = { 0 };
	struct results_file f;
	struct stat st;
	char *text;
	size_t len;
	int rc;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return HOLDER_NONE;
	if (user_file_read(path, RANK_FILE_MAX, "results file", &text, &len, &ignored))
		return HOLDER_UNKNOWN;
	rc = results_parse(text, len, path, &f, &ignored);
	free(text);
	if (rc)
		return HOLDER_UNKNOWN;
	if (strcmp(job_whole_id(f.job_id, f.array_job, f.het_job),
		   job_whole_id(id->job_id, id->array_job, id->het_job))) {
		results_file_release(&f);
		return HOLDER_NONE;
	}
	if (strcmp(f.array_task, id->array_task))
		strbuf_addf(differs, ".task%s", id->array_task);
	if (strcmp(f.step, id->step))
		strbuf_addf(differs, ".step%s", id->step);
	if (f.rank != id->rank || strcmp(f.job_id, id->job_id)) /* a component of a heterogeneous job */
		strbuf_addf(differs, ".rank%u", id->rank);
	group = merge_group_name(&f);
	strbuf_release(whose);
	strbuf_addf(whose, "rank %u of job %s", f.rank, group);
	free(group);
	results_file_release(&f);
	return differs->len ? HOLDER_RANK : HOLDER_NONE;
}

/* path created, not there before: no other rank can have opened it */
static FILE *create_new(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (fd >= 0 && !f)
		close(fd);
	return f;
}

static void say_renamed(const char *path, const char *name, const char *whose)
{
	fputs("note: '", stderr);
	fput_escaped(stderr, path);
	fputs("' holds ", stderr);
	fput_escaped(stderr, *whose ? whose : "no finished results (a rank writing it?)");
	fputs(": this rank's results go to '", stderr);
	fput_escaped(stderr, name);
	fputs("' (name each step's files with %J, each array task's with %a)\n", stderr);
}

FILE *results_open_rank(const char *path, const struct job_identity *job, char **chosen, struct pf_error *err)
{
	struct strbuf suffix = STRBUF_INIT, whose = STRBUF_INIT, later = STRBUF_INIT;
	FILE *f = NULL;
	int e = 0;

	*chosen = xstrdup(path);
	/* the name asked for, then one saying what differs, then one of this process's own */
	for (int attempt = 0; attempt < 3 && !f; attempt++) {
		enum holder h;

		if (attempt) {
			free(*chosen);
			*chosen = xasprintf("%s%s", path, strbuf_str(&suffix));
		}
		f = create_new(*chosen);
		e = errno;
		if (f || e != EEXIST)
			break;
		strbuf_release(&suffix);
		/* the note names the first holder, of the name asked for */
		h = holder_of(*chosen, job, &suffix, attempt ? &later : &whose);
		if (h == HOLDER_NONE) {
			f = fopen(*chosen, "w");
			e = errno;
		} else if (h == HOLDER_UNKNOWN || attempt) {
			strbuf_release(&suffix);
			strbuf_addf(&suffix, ".pid%ld", job->pid);
		}
	}
	strbuf_release(&suffix);
	strbuf_release(&later);
	if (!f) {
		pf_error_set(err, PF_E_OUTPUT, *chosen, e == EEXIST ? "it holds another rank's results" : strerror(e));
		strbuf_release(&whose);
		return NULL;
	}
	if (strcmp(*chosen, path))
		say_renamed(path, *chosen, strbuf_str(&whose));
	strbuf_release(&whose);
	return f;
}
