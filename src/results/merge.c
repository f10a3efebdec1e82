/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/json_writer.h"
#include "common/util.h"
#include "format.h"
#include "merge.h"
#include "writer.h"

/* ----- checks: the files are the ranks of one job, measuring the same ----- */

static int by_rank(const void *a, const void *b)
{
	const struct results_file *x = a, *y = b;

	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static int same_events(const struct results_file *a, const struct results_file *b, struct pf_error *err)
{
	char what[400];

	if (a->n_values != b->n_values) {
		snprintf(what, sizeof(what), " (%zu and %zu events)", a->n_values, b->n_values);
		return pf_error_set(err, PF_E_MERGE_EVENTS, a->path, b->path, "measured", what);
	}
	for (size_t i = 0; i < a->n_values; i++) {
		const struct count_row *x = &a->values[i], *y = &b->values[i];

		if (strcmp(x->name, y->name) || x->set != y->set) {
			snprintf(what, sizeof(what), " (event %zu is set%d '%.100s' and set%d '%.100s')", i + 1,
				 x->set, x->name, y->set, y->name);
			return pf_error_set(err, PF_E_MERGE_EVENTS, a->path, b->path, "measured", what);
		}
		if (strcmp(a->encodings[i], b->encodings[i]))
			return pf_error_set(err, PF_E_MERGE_ENCODING, a->path, b->path, x->name, a->encodings[i],
					    b->encodings[i]);
	}
	return 0;
}

/* the job a file is of as a whole: an array task's array, a component's heterogeneous job */
static const char *whole_job(const struct results_file *f)
{
	return job_whole_id(f->job_id, f->array_job, f->het_job);
}

static int check_files(const struct results_file *f, size_t n, struct pf_error *err)
{
	for (size_t i = 1; i < n; i++) {
		if (strcmp(whole_job(&f[0]), whole_job(&f[i])))
			return pf_error_set(err, PF_E_MERGE_JOBS, f[0].path, f[i].path, whole_job(&f[0]),
					    whole_job(&f[i]));
		if (f[0].size != f[i].size)
			return pf_error_set(err, PF_E_MERGE_SIZES, f[0].path, f[i].path, (int)f[0].size, (int)f[i].size);
		if (f[i].rank == f[i - 1].rank)
			return pf_error_set(err, PF_E_MERGE_RANK, f[i - 1].path, f[i].path, (int)f[i].rank,
					    " (one results file per rank: per-task files need --aggregate-results; "
					    "a rank's per-CPU files add up only when their CPUs differ)");
		if (same_events(&f[0], &f[i], err))
			return -1;
	}
	return 0;
}

/* ----- groups: one step of one array task each ----- */

/* step and task ids in their numeric order ("10" after "9"); "none" first */
static int by_id(const char *a, const char *b)
{
	uint64_t x, y;
	bool na = !strcmp(a, "none"), nb = !strcmp(b, "none");

	if (na || nb)
		return nb - na;
	if (parse_u64(a, &x) && parse_u64(b, &y))
		return x < y ? -1 : x > y;
	return strcmp(a, b);
}

static int by_group(const void *a, const void *b)
{
	const struct results_file *x = a, *y = b;
	int c = by_id(x->array_task, y->array_task);

	return c ? c : by_id(x->step, y->step);
}

char *merge_group_name(const struct results_file *f)
{
	struct strbuf sb = STRBUF_INIT;

	if (strcmp(f->het_job, "none"))
		strbuf_addstr(&sb, f->het_job);
	else if (strcmp(f->array_job, "none"))
		strbuf_addf(&sb, "%s_%s", f->array_job, f->array_task);
	else
		strbuf_addstr(&sb, f->job_id);
	if (strcmp(f->step, "none"))
		strbuf_addf(&sb, ".%s", f->step);
	return strbuf_detach(&sb);
}

int merge_groups(struct results_file *files, size_t n, struct merge_group **out, size_t *n_out,
		 struct pf_error *err)
{
	struct merge_group *g = NULL;
	size_t ng = 0;

	*out = NULL;
	*n_out = 0;
	for (size_t i = 1; i < n; i++)
		if (strcmp(whole_job(&files[0]), whole_job(&files[i])))
			return pf_error_set(err, PF_E_MERGE_JOBS, files[0].path, files[i].path, whole_job(&files[0]),
					    whole_job(&files[i]));
	/* stable enough: the ranks are sorted again in each group */
	qsort(files, n, sizeof(*files), by_group);
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;

		while (j < n && !by_group(&files[i], &files[j]))
			j++;
		g = xrealloc(g, (ng + 1) * sizeof(*g));
		g[ng].files = xcalloc(j - i + 1, sizeof(*g[ng].files));
		memcpy(g[ng].files, &files[i], (j - i) * sizeof(*files));
		g[ng++].n = j - i;
		i = j;
	}
	free(files);
	*out = g;
	*n_out = ng;
	return 0;
}

/* ----- statistics ----- */

static void stat_of(struct merge_stat *st, const double *v, size_t stride, size_t n,
		    const struct results_file *files)
{
	double sq = 0;
	long double total = 0;

	st->ranks = 0;
	st->min = INFINITY;
	st->max = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		double x = v[i * stride];

		if (isnan(x))
			continue;
		st->ranks++;
		total += x;
		if (x < st->min) {
			st->min = x;
			st->min_rank = files[i].rank;
		}
		if (x > st->max) {
			st->max = x;
			st->max_rank = files[i].rank;
		}
	}
	st->total = total;
	if (!st->ranks)
		return;
	st->mean = (double)(total / st->ranks);
	for (size_t i = 0; i < n; i++) {
		double x = v[i * stride];

		if (!isnan(x))
			sq += (x - st->mean) * (x - st->mean);
	}
	/* the ranks are the whole population, not a sample of it */
	st->stddev = sqrt(sq / (double)st->ranks);
	st->imbalance = st->mean > 0 ? st->max / st->mean : NAN;
}

/* a metric's place among the stats: one per (metric, count line) */
struct metric_slot {
	size_t def;
	int row;
};

static size_t slot_of(struct metric_slot **slots, size_t *n, size_t def, int row)
{
	for (size_t i = 0; i < *n; i++)
		if ((*slots)[i].def == def && (*slots)[i].row == row)
			return i;
	*slots = xrealloc(*slots, (*n + 1) * sizeof(**slots));
	(*slots)[*n] = (struct metric_slot){ def, row };
	return (*n)++;
}

/* each rank's metrics: the shadows of its counts and those it asked for with -M */
static struct metric_value *rank_metrics(const struct metric_list *l, const struct results_file *f, size_t *n)
{
	size_t *want = xcalloc(f->n_metrics + 1, sizeof(*want)), n_want = 0;
	struct metric_value *v = xcalloc(f->n_metrics + f->n_values * l->n + 1, sizeof(*v));

	for (size_t i = 0; i < f->n_metrics; i++) {
		long d = metric_list_find(l, f->metrics[i]);

		if (d >= 0)
			want[n_want++] = (size_t)d;
	}
	*n = metric_evaluate(l, want, n_want, true, f->values, f->n_values,
			     f->end_ns > f->start_ns ? f->end_ns - f->start_ns : 0, v);
	free(want);
	return v;
}

static void compute_metrics(struct merge_counts *m, const struct metric_list *l)
{
	struct metric_value **per_file = xcalloc(m->n_files + 1, sizeof(*per_file));
	size_t *counts = xcalloc(m->n_files + 1, sizeof(*counts));
	struct metric_slot *slots = NULL;
	size_t n_slots = 0, n_events = m->n_stats;

	for (size_t f = 0; f < m->n_files; f++) {
		per_file[f] = rank_metrics(l, &m->files[f], &counts[f]);
		for (size_t i = 0; i < counts[f]; i++)
			slot_of(&slots, &n_slots, per_file[f][i].def, per_file[f][i].row);
	}
	m->stats = xrealloc(m->stats, (n_events + n_slots + 1) * sizeof(*m->stats));
	m->per_rank = xrealloc(m->per_rank, (m->n_files * (n_events + n_slots) + 1) * sizeof(*m->per_rank));
	/* per_rank is rank-major: spread the event columns to the new width */
	for (size_t f = m->n_files; f-- > 0;) {
		memmove(&m->per_rank[f * (n_events + n_slots)], &m->per_rank[f * n_events],
			n_events * sizeof(*m->per_rank));
		for (size_t s = 0; s < n_slots; s++)
			m->per_rank[f * (n_events + n_slots) + n_events + s] = NAN;
	}
	m->n_stats = n_events + n_slots;
	for (size_t s = 0; s < n_slots; s++) {
		const struct metric_def *d = &l->defs[slots[s].def];
		struct merge_stat *st = &m->stats[n_events + s];

		*st = (struct merge_stat){ .is_metric = true, .unit = xstrdup(d->unit ? d->unit : "") };
		st->name = slots[s].row >= 0 ? xasprintf("%s (%s)", d->name, m->files[0].values[slots[s].row].name)
					     : xstrdup(d->name);
	}
	for (size_t f = 0; f < m->n_files; f++) {
		for (size_t i = 0; i < counts[f]; i++) {
			const struct metric_value *v = &per_file[f][i];
			size_t s = slot_of(&slots, &n_slots, v->def, v->row);

			if (v->ok) {
				m->per_rank[f * m->n_stats + n_events + s] = v->value;
				/* the unit as printed (K/sec, M/sec): the first rank's */
				if (!*m->stats[n_events + s].unit || !strcmp(m->stats[n_events + s].unit, "/sec")) {
					free(m->stats[n_events + s].unit);
					m->stats[n_events + s].unit = xstrdup(v->unit);
				}
			}
		}
		free(per_file[f]);
	}
	free(per_file);
	free(counts);
	free(slots);
}

static bool share_a_cpu(const struct results_file *a, const struct results_file *b)
{
	for (size_t i = 0; i < a->n_cpus; i++)
		for (size_t j = 0; j < b->n_cpus; j++)
			if (a->cpus[i] == b->cpus[j])
				return true;
	return false;
}

/* b's CPUs into a, a rank's results over more of its CPUs; b is emptied */
static void add_cpus(struct results_file *a, struct results_file *b)
{
	for (size_t e = 0; e < a->n_values; e++)
		if (!results_count_add(&a->values[e], &b->values[e]))
			a->values[e].state = COUNT_NOT_COUNTED; /* a sum past 2^64 is not known either */
	a->cpus = xrealloc(a->cpus, (a->n_cpus + b->n_cpus) * sizeof(*a->cpus));
	memcpy(a->cpus + a->n_cpus, b->cpus, b->n_cpus * sizeof(*b->cpus));
	a->n_cpus += b->n_cpus;
	a->start_ns = b->start_ns < a->start_ns ? b->start_ns : a->start_ns;
	a->end_ns = b->end_ns > a->end_ns ? b->end_ns : a->end_ns;
	results_file_release(b);
}

/*
 * System-wide without --aggregate-results writes a file a CPU (.cpuN):
 * a rank's files of different CPUs and the same events are one rank, its
 * counts their sums.  Files sorted by rank; returns how many are left,
 * the emptied ones moved to the end.
 */
static size_t join_cpu_files(struct results_file *f, size_t n)
{
	size_t out = 0;

	for (size_t i = 0; i < n; i++) {
		struct results_file *last = out ? &f[out - 1] : NULL;
		struct pf_error ignored = { 0 };

		if (last && last->rank == f[i].rank && last->n_cpus && f[i].n_cpus && !share_a_cpu(last, &f[i]) &&
		    !same_events(last, &f[i], &ignored)) {
			add_cpus(last, &f[i]);
			continue;
		}
		if (out != i) {
			f[out] = f[i];
			memset(&f[i], 0, sizeof(f[i]));
		}
		out++;
	}
	return out;
}

int merge_counts_compute(struct merge_counts *m, struct results_file *files, size_t n,
			 const struct metric_list *l, struct pf_error *err)
{
	size_t ne;

	memset(m, 0, sizeof(*m));
	m->files = files;
	m->n_files = n;
	m->group = n ? merge_group_name(&files[0]) : NULL;
	if (!n)
		return pf_error_set(err, PF_E_OPTION_NEEDS, "--merge", "the results files (or directories) of the ranks", "");
	qsort(files, n, sizeof(*files), by_rank);
	n = m->n_files = join_cpu_files(files, n);
	if (check_files(files, n, err))
		return -1;
	ne = files[0].n_values;
	m->n_stats = ne;
	m->stats = xcalloc(ne + 1, sizeof(*m->stats));
	m->per_rank = xcalloc(n * ne + 1, sizeof(*m->per_rank));
	for (size_t f = 0; f < n; f++)
		for (size_t e = 0; e < ne; e++)
			m->per_rank[f * ne + e] = files[f].values[e].state == COUNT_OK ? (double)files[f].values[e].raw
										     : NAN;
	for (size_t e = 0; e < ne; e++)
		m->stats[e] = (struct merge_stat){ .name = xstrdup(files[0].values[e].name),
						   .unit = xstrdup(files[0].values[e].is_clock ? "ns" : "") };
	for (size_t f = 0; f < n; f++) {
		bool seen = false;

		for (size_t g = 0; g < f && !seen; g++)
			seen = !strcmp(files[f].host, files[g].host);
		m->n_hosts += !seen;
	}
	if (l && l->n)
		compute_metrics(m, l);
	for (size_t s = 0; s < m->n_stats; s++)
		stat_of(&m->stats[s], &m->per_rank[s], m->n_stats, n, files);
	/* counts: the exact integers, not their doubles (min, max, total) */
	for (size_t e = 0; e < ne; e++) {
		unsigned __int128 total = 0;

		for (size_t f = 0; f < n; f++)
			if (files[f].values[e].state == COUNT_OK) {
				uint64_t v = files[f].values[e].raw;

				total += v;
				if (files[f].rank == m->stats[e].min_rank)
					m->stats[e].min_count = v;
				if (files[f].rank == m->stats[e].max_rank)
					m->stats[e].max_count = v;
			}
		m->stats[e].total = (long double)total;
	}
	return 0;
}

void merge_counts_release(struct merge_counts *m)
{
	for (size_t i = 0; i < m->n_files; i++)
		results_file_release(&m->files[i]);
	free(m->files);
	for (size_t i = 0; i < m->n_stats; i++) {
		free(m->stats[i].name);
		free(m->stats[i].unit);
	}
	free(m->group);
	free(m->stats);
	free(m->per_rank);
	memset(m, 0, sizeof(*m));
}

void merge_counts_print(FILE *out, const struct merge_counts *m, const struct count_format_opts *fo)
{
	struct count_writer w;

	count_writer_init(&w, out, fo);
	w.ops->header(&w, m);
	for (size_t s = 0; s < m->n_stats; s++)
		w.ops->stat(&w, &m->stats[s]);
	if (fo->merge_ranks) {
		w.ops->ranks(&w);
		for (size_t f = 0; f < m->n_files; f++)
			for (size_t s = 0; s < m->n_stats; s++)
				w.ops->rank_value(&w, m, f, s);
	}
	if (w.ops->end)
		w.ops->end(&w);
}
