/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pfmon --merge FILE|DIR...: the results files of a job's ranks into one
 * view.  Count results (text, CSV or JSON with their header) give per
 * event the spread over the ranks; sample files give one profile.  Every
 * file given must be of one kind; a directory stands for its files.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/commands.h"
#include "cli/metrics.h"
#include "cli/report_setup.h"
#include "cli/results_setup.h"
#include "common/userfile.h"
#include "common/util.h"
#include "results/merge.h"
#include "report/merge_samples.h"
#include "results/output.h"
#include "sample/perf_data.h"
#include "sample/smpl_file.h"

#define MERGE_MAX_FILE (64u << 20) /* a larger results file is refused */

struct name_list {
	char **v;
	size_t n, cap;
};

static void add_name(struct name_list *l, char *path)
{
	XGROW(l->v, l->cap, l->n);
	l->v[l->n++] = path;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* a directory's regular files (not hidden), in name order */
static int add_dir(struct name_list *l, const char *dir, struct pf_error *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t first = l->n;

	if (!d)
		return pf_error_set(err, PF_E_INPUT, dir, strerror(errno));
	while ((e = readdir(d))) {
		char *path;
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		path = xasprintf("%s/%s", dir, e->d_name);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
			add_name(l, path);
		else
			free(path);
	}
	closedir(d);
	if (l->n > first) /* an empty directory leaves l->v NULL, which qsort must not get */
		qsort(l->v + first, l->n - first, sizeof(*l->v), by_name);
	return 0;
}

static int collect(const struct pf_config *cfg, struct name_list *l, struct pf_error *err)
{
	for (char **a = cfg->command; a && *a; a++) {
		struct stat st;

		if (stat(*a, &st) != 0)
			return pf_error_set(err, PF_E_INPUT, *a, strerror(errno));
		if (S_ISDIR(st.st_mode)) {
			if (add_dir(l, *a, err))
				return -1;
		} else if (user_file_check(*a, err)) { /* /dev/zero or a FIFO would never end, or block */
			return -1;
		} else {
			add_name(l, xstrdup(*a));
		}
	}
	if (!l->n)
		return cfg->command ? pf_error_set(err, PF_E_MERGE_NO_FILE)
				    : pf_error_set(err, PF_E_OPTION_NEEDS, "--merge",
						   "the results files (or directories) of the ranks", "");
	return 0;
}

/* a sample file (pfmon's or perf record's) starts with its magic;
 * anything else is read as count results */
static int is_sample_file(const char *path, bool *sample, struct pf_error *err)
{
	FILE *f = fopen(path, "rbe");
	char magic[8];
	size_t got;

	if (!f)
		return pf_error_set(err, PF_E_INPUT, path, strerror(errno));
	got = fread(magic, 1, sizeof(magic), f);
	*sample = (got == sizeof(magic) && !memcmp(magic, SMPL_MAGIC, 8)) || perf_data_magic(magic, got);
	fclose(f);
	return 0;
}

static int read_counts(const struct name_list *l, struct results_file **out, struct pf_error *err)
{
	struct results_file *files = xcalloc(l->n + 1, sizeof(*files));

	for (size_t i = 0; i < l->n; i++) {
		char *text;
		size_t len;
		int rc = user_file_read(l->v[i], MERGE_MAX_FILE, "results file", &text, &len, err);

		if (!rc) {
			rc = results_parse(text, len, l->v[i], &files[i], err);
			free(text);
		}
		if (rc) {
			for (size_t j = 0; j < i; j++)
				results_file_release(&files[j]);
			free(files);
			return -1;
		}
	}
	*out = files;
	return 0;
}

/* the metric definitions of the model (--pmu, host by default) and --metrics-file */
static int metric_definitions(struct pf_config *cfg, struct metric_run *run, struct pf_error *err)
{
	const struct pmu_model *m = pmu_model_select(cfg->pmu, err);

	memset(run, 0, sizeof(*run));
	return m ? metrics_prepare(cfg, m, run, err) : -1;
}

/* one group's statistics, printed to out; the group's files are released */
static int merge_group(const struct pf_config *cfg, struct merge_group *g, bool of_several,
		       const struct metric_list *l, FILE *out, struct pf_error *err)
{
	const struct count_format_opts fo = count_format_opts_from_config(cfg);
	struct merge_counts m;
	int rc = merge_counts_compute(&m, g->files, g->n, l, err);

	m.of_several = of_several;
	if (!rc && m.n_files < m.files[0].size)
		fprintf(stderr, "note: %zu of the job's %u ranks%s%s: the statistics are of those\n", m.n_files,
			m.files[0].size, of_several ? " in " : "", of_several ? m.group : "");
	if (!rc)
		merge_counts_print(out, &m, &fo);
	merge_counts_release(&m);
	return rc;
}

/* which groups were merged, when there are several: said once, on stderr */
static void say_groups(const struct merge_group *g, size_t n)
{
	if (n < 2)
		return;
	fprintf(stderr, "note: %zu groups of job ", n);
	fput_escaped(stderr, job_whole_id(g[0].files[0].job_id, g[0].files[0].array_job, g[0].files[0].het_job));
	fputs(" merged apart:", stderr);
	for (size_t i = 0; i < n; i++) {
		char *name = merge_group_name(&g[i].files[0]);

		fputs(i ? ", " : " ", stderr);
		fput_escaped(stderr, name);
		fprintf(stderr, " (%zu rank%s)", g[i].n, g[i].n == 1 ? "" : "s");
		free(name);
	}
	fputc('\n', stderr);
}

static int merge_counts(struct pf_config *cfg, const struct name_list *l, struct pf_error *err)
{
	struct results_file *files;
	struct merge_group *groups = NULL;
	size_t n_groups = 0, i = 0;
	struct metric_run run;
	FILE *out = NULL;
	int rc;

	if (cfg->report_sort || cfg->report_format || cfg->smpl_show_top || cfg->smpl_cum_threshold != 100)
		return pf_error_set(err, PF_E_OPTION_APPLIES, cfg->report_sort ? "--report-sort"
				    : cfg->report_format ? "--report-format" : cfg->smpl_show_top ? "--smpl-show-top"
				    : "--smpl-cum-threshold", "the merge of sample files");
	if (metric_definitions(cfg, &run, err)) {
		metrics_release(&run);
		return -1;
	}
	rc = read_counts(l, &files, err);
	if (!rc && merge_groups(files, l->n, &groups, &n_groups, err)) {
		for (size_t j = 0; j < l->n; j++)
			results_file_release(&files[j]);
		free(files);
		rc = -1;
	}
	say_groups(groups, n_groups);
	/* a merge replaces its output: --append is for a run's counts */
	if (!rc && !(out = results_open(&(struct output_opts){ .path = cfg->outfile }, err)))
		rc = -1;
	for (; !rc && i < n_groups; i++)
		rc = merge_group(cfg, &groups[i], n_groups > 1, &run.list, out, err);
	for (; i < n_groups; i++) { /* the groups a failure left unmerged */
		for (size_t j = 0; j < groups[i].n; j++)
			results_file_release(&groups[i].files[j]);
		free(groups[i].files);
	}
	if (out && results_close(out, cfg->outfile, rc ? NULL : err)) /* a closed pipe as well */
		rc = -1;
	free(groups);
	metrics_release(&run);
	return rc;
}

/* sample files: one profile of every rank, per-rank shares with --merge-ranks */
static int merge_samples(const struct pf_config *cfg, const char *const *paths, size_t n, struct pf_error *err)
{
	struct merge_samples_opts o = { .profile = profile_opts_from_config(cfg), .ranks = cfg->merge_ranks,
					.top = cfg->smpl_show_top };
	struct sample_merge *m;
	FILE *out;
	int rc;

	if (cfg->output_kind != PF_OUT_TEXT)
		return pf_error_set(err, PF_E_OPTION_NOT_USED, cfg->output_kind == PF_OUT_JSON ? "--json" : "--csv",
				    "with a merge of sample files", " (a merged profile takes --report-format=json)");
	if (sample_merge_read(&o, paths, n, &m, err))
		return -1;
	out = results_open(&(struct output_opts){ .path = cfg->outfile }, err);
	rc = out ? 0 : -1;
	if (!rc) {
		sample_merge_print(m, out, stderr);
		rc = results_close(out, cfg->outfile, err); /* a closed pipe as well */
	}
	if (!rc)
		sample_merge_print_coverage(m, stderr);
	sample_merge_free(m);
	return rc;
}

int cmd_merge(struct pf_config *cfg, struct pf_error *err)
{
	struct name_list l = { 0 };
	bool first_sample = false;
	int rc = collect(cfg, &l, err);

	for (size_t i = 0; !rc && i < l.n; i++) {
		bool sample = false;

		rc = is_sample_file(l.v[i], &sample, err);
		if (!rc && i == 0)
			first_sample = sample;
		else if (!rc && sample != first_sample)
			rc = pf_error_set(err, PF_E_MERGE_MIXED, first_sample ? "sample files" : "count results",
					  first_sample ? "count results" : "sample files");
	}
	if (!rc && first_sample)
		rc = merge_samples(cfg, (const char *const *)l.v, l.n, err);
	else if (!rc)
		rc = merge_counts(cfg, &l, err);
	for (size_t i = 0; i < l.n; i++)
		free(l.v[i]);
	free(l.v);
	return rc ? -1 : 0;
}
