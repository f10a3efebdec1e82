/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pfmon --merge of sample files: one profile of every rank of a job, as
 * --report prints it for one file.  Each file is read in turn into the
 * same profile; between files the address spaces are dropped (another
 * host's pids), the binaries and their symbols stay.  A binary is known by
 * its build-id: mapped at another path on another host it is still one
 * binary, under the first path it was seen at.  --merge-ranks adds each
 * rank's share of the top functions.  Where the merged profile goes is
 * the caller's (results/output.h).
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "common/strmap.h"
#include "common/util.h"
#include "report/merge_samples.h"
#include "report/profile.h"
#include "sample/sample_source.h"
#include "sample/smpl_file.h"
#include "sample/smpl_readahead.h"

struct sample_input {
	const char *path;
	uint32_t rank, size;
	char *host, *job_id;
};

static int by_rank(const void *a, const void *b)
{
	const struct sample_input *x = a, *y = b;

	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* the events of two files are the same: names and encodings */
static int same_events(const struct smpl_header *a, const struct smpl_header *b, const char *pa, const char *pb,
		       struct pf_error *err)
{
	if (a->nr_events != b->nr_events)
		return pf_error_set(err, PF_E_MERGE_EVENTS, pa, pb, "sampled", "");
	for (uint32_t i = 0; i < a->nr_events; i++) {
		const struct smpl_event *x = &a->events[i], *y = &b->events[i];

		if (strcmp(x->name, y->name) || x->attr_type != y->attr_type || x->attr_config != y->attr_config ||
		    x->period != y->period || x->freq != y->freq)
			return pf_error_set(err, PF_E_MERGE_EVENTS, pa, pb, "sampled", " or periods");
	}
	return 0;
}

/* The job a perf.data file is a rank of: perf record writes no job, so
 * the files given are taken as the ranks of one (perf record -o
 * perf.data.$RANK under a launcher), numbered in the order given. */
#define PERF_DATA_JOB "(perf.data files)"

static const struct smpl_header *perf_data_rank(const struct smpl_header *h, size_t i, size_t n,
						struct smpl_header *job)
{
	*job = *h;
	job->has_job = true;
	job->rank = (uint32_t)i;
	job->size = (uint32_t)n;
	job->host = h->host ? h->host : (char *)"?";
	job->job_id = (char *)PERF_DATA_JOB;
	return job;
}

/* every file's header: a job, the first file's job and events */
static int read_headers(struct sample_input *in, size_t n, struct smpl_header *first, struct pf_error *err)
{
	struct smpl_header job;

	for (size_t i = 0; i < n; i++) {
		struct smpl_reader *r = smpl_reader_open(in[i].path, err);
		const struct smpl_header *h;
		int rc = 0;

		if (!r)
			return -1;
		h = smpl_reader_header(r);
		if (!h->has_job && smpl_reader_is_perf_data(r))
			h = perf_data_rank(h, i, n, &job);
		if (!h->has_job)
			rc = pf_error_set(err, PF_E_MERGE_NO_JOB, in[i].path);
		else if (i && strcmp(h->job_id, in[0].job_id))
			rc = pf_error_set(err, PF_E_MERGE_JOBS, in[0].path, in[i].path, in[0].job_id, h->job_id);
		else if (i && h->size != in[0].size)
			rc = pf_error_set(err, PF_E_MERGE_SIZES, in[0].path, in[i].path, (int)in[0].size, (int)h->size);
		if (!rc && i == 0) {
			first->nr_events = h->nr_events;
			first->events = xcalloc(h->nr_events + 1, sizeof(*first->events));
			for (uint32_t e = 0; e < h->nr_events; e++) {
				first->events[e] = h->events[e];
				first->events[e].name = xstrdup(h->events[e].name);
			}
		}
		if (!rc && i)
			rc = same_events(first, h, in[0].path, in[i].path, err);
		if (!rc)
			in[i] = (struct sample_input){ in[i].path, h->rank, h->size, xstrdup(h->host),
						       xstrdup(h->job_id) };
		smpl_reader_close(r);
		if (rc)
			return -1;
	}
	qsort(in, n, sizeof(*in), by_rank);
	for (size_t i = 1; i < n; i++)
		if (in[i].rank == in[i - 1].rank)
			return pf_error_set(err, PF_E_MERGE_RANK, in[i - 1].path, in[i].path, (int)in[i].rank, "");
	return 0;
}

/* build-id (hex) -> the first path a binary was mapped at */
struct binaries {
	struct strmap index; /* build-id -> 1 + position in paths */
	char **paths;
	size_t n, cap;
};

static const char *canonical_path(struct binaries *b, const struct sample_binary *bin)
{
	char hex[2 * sizeof(bin->build_id) + 1];
	uint64_t at;

	if (!bin->build_id_size || bin->build_id_size > sizeof(bin->build_id))
		return bin->path;
	for (unsigned i = 0; i < bin->build_id_size; i++)
		snprintf(hex + 2 * i, 3, "%02x", bin->build_id[i]);
	at = strmap_get(&b->index, hex);
	if (at)
		return b->paths[at - 1];
	XGROW(b->paths, b->cap, b->n);
	b->paths[b->n++] = xstrdup(bin->path);
	strmap_add(&b->index, hex, b->n);
	return bin->path;
}

/*
 * One file's records into the profile.  A mapping is held back one record:
 * the binary identity that follows it (pfmon writes it right after the
 * first mapping of a binary) may say it is a binary already known at
 * another path.
 */
static int add_file(struct profile *p, struct binaries *b, const char *path, struct sample_source *src,
		    struct pf_error *err)
{
	const struct sample_record *rec;
	struct sample_record held, renamed;
	char *held_name = NULL;
	uint64_t count;
	int rc;

	if (!src->ra && !(src->r = smpl_reader_open(path, err)))
		return -1;
	if (!src->ra)
		smpl_reader_set_opts(src->r, &(struct smpl_read_opts){ .lbr_call_stacks = true });
	while ((rc = sample_source_next(src, &rec, &count, err)) > 0) {
		if (held_name && rec->type == SREC_BINARY && !strcmp(rec->binary.path, held_name)) {
			const char *canon = canonical_path(b, &rec->binary);

			held.mmap.filename = canon;
			renamed = *rec;
			renamed.binary.path = canon;
			rec = &renamed;
		}
		if (held_name) {
			profile_add(p, &held);
			free(held_name);
			held_name = NULL;
		}
		if (rec->type == SREC_MMAP && rec->mmap.filename) {
			held = *rec;
			held_name = xstrdup(rec->mmap.filename);
			held.mmap.filename = held_name;
			continue;
		}
		profile_add_n(p, rec, count);
	}
	if (held_name) {
		profile_add(p, &held);
		free(held_name);
	}
	if (rc == 0 && sample_source_status(src)->truncated) {
		fputs("warning: '", stderr);
		fput_escaped(stderr, path);
		fprintf(stderr, "' is truncated at offset %llu: the samples after it are lost\n",
			(unsigned long long)sample_source_status(src)->truncated_at);
	}
	if (src->r)
		smpl_reader_close(src->r);
	src->r = NULL;
	return rc < 0 ? -1 : 0;
}

#define TOP_DEFAULT 10

/* --merge-ranks: for the top functions of each event, each rank's samples in them */
static void print_rank_shares(FILE *out, const struct profile *p, const struct sample_input *in, size_t n,
			      uint64_t top)
{
	size_t max = top ? (size_t)top : TOP_DEFAULT;
	const char **keys = xcalloc(max + 1, sizeof(*keys));
	uint64_t *counts = xcalloc(max + 1, sizeof(*counts));

	for (size_t ev = 0; ev < profile_nr_events(p); ev++) {
		size_t nk = profile_top_keys(p, ev, max, keys, counts);

		fprintf(out, "\n# per rank: the top %zu entries of event ", nk);
		fput_escaped(out, profile_event_name(p, ev));
		fputs(", each rank's samples there\n#    rank   samples  %entry  host  entry\n", out);
		for (size_t k = 0; k < nk; k++)
			for (size_t i = 0; i < n; i++) {
				uint64_t c = profile_source_count(p, ev, i, keys[k]);

				fprintf(out, "%9u %9llu %6.2f%%  ", in[i].rank, (unsigned long long)c,
					counts[k] ? 100.0 * (double)c / (double)counts[k] : 0.0);
				fput_escaped(out, in[i].host);
				fputs("  ", out);
				fput_escaped(out, keys[k]);
				fputc('\n', out);
			}
	}
	free(keys);
	free(counts);
}

static void print_summary(FILE *out, const struct sample_input *in, size_t n)
{
	size_t hosts = 0;

	for (size_t i = 0; i < n; i++) {
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(in[i].host, in[j].host);
		hosts += !seen;
	}
	fprintf(out, "# pfmon --merge: %zu of %u ranks of job ", n, in[0].size);
	fput_escaped(out, in[0].job_id);
	fprintf(out, " on %zu host%s\n", hosts, hosts == 1 ? "" : "s");
}

/* every file into the profile, in rank order, read ahead by threads if
 * there are some, and folded by them if fold */
static int add_files(struct profile *p, struct binaries *b, const struct sample_input *in, size_t n, bool fold,
		     struct pf_error *err)
{
	const char **paths = xcalloc(n + 1, sizeof(*paths));
	struct sample_source src = { 0 };
	unsigned threads = 0;
	int rc = sample_read_threads(&threads, err);

	for (size_t i = 0; i < n; i++)
		paths[i] = in[i].path;
	if (!rc && threads && n > 1)
		src.ra = smpl_readahead_start(paths, n, threads, fold, &(struct smpl_read_opts){ .lbr_call_stacks = true });
	for (size_t i = 0; i < n && !rc; i++) {
		profile_begin_source(p, i);
		src.i = i;
		rc = add_file(p, b, in[i].path, &src, err);
	}
	if (src.ra)
		smpl_readahead_stop(src.ra);
	free(paths);
	return rc;
}

struct sample_merge {
	struct merge_samples_opts o;
	struct sample_input *in; /* in rank order once the headers are read */
	size_t n;
	struct smpl_header first; /* the first file's events */
	struct profile *p;
	struct binaries b;
};

void sample_merge_free(struct sample_merge *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->b.n; i++)
		free(m->b.paths[i]);
	free(m->b.paths);
	strmap_release(&m->b.index);
	profile_free(m->p);
	for (size_t i = 0; i < m->n; i++) {
		free(m->in[i].host);
		free(m->in[i].job_id);
	}
	for (uint32_t e = 0; e < m->first.nr_events; e++)
		free(m->first.events[e].name);
	free(m->first.events);
	free(m->in);
	free(m);
}

int sample_merge_read(const struct merge_samples_opts *o, const char *const *paths, size_t n,
		      struct sample_merge **out, struct pf_error *err)
{
	struct sample_merge *m = xcalloc(1, sizeof(*m));
	int rc;

	m->o = *o;
	m->in = xcalloc(n + 1, sizeof(*m->in));
	m->n = n;
	m->first.clockid = -1;
	strmap_init(&m->b.index);
	for (size_t i = 0; i < n; i++)
		m->in[i].path = paths[i];
	rc = read_headers(m->in, n, &m->first, err);
	if (!rc && o->ranks && o->profile.format != PROFILE_TEXT) {
		char format[64];

		snprintf(format, sizeof(format), "--report-format=%s", profile_format_name(o->profile.format));
		rc = pf_error_set(err, PF_E_OPTIONS_EXCLUDE, "--merge-ranks", format,
				  ": --merge-ranks prints the ranks' shares as text");
	}
	if (!rc) {
		m->p = profile_new(&o->profile, &m->first);
		/* each rank's own counts cost a second count per sample: only when asked */
		if (o->ranks)
			profile_set_sources(m->p, n);
		/* perf script's sample by sample is the one profile that sees each */
		rc = add_files(m->p, &m->b, m->in, n, !profile_format_each_sample(o->profile.format), err);
	}
	if (rc) {
		sample_merge_free(m);
		return -1;
	}
	*out = m;
	return 0;
}

void sample_merge_print(struct sample_merge *m, FILE *out, FILE *notes)
{
	if (m->o.profile.format == PROFILE_TEXT)
		print_summary(out, m->in, m->n);
	profile_print(m->p, out);
	if (m->o.ranks)
		print_rank_shares(out, m->p, m->in, m->n, m->o.top);
	profile_print_warnings(m->p, notes);
	profile_print_notes(m->p, notes);
	profile_print_lost(m->p, notes);
}

void sample_merge_print_coverage(const struct sample_merge *m, FILE *notes)
{
	if (m->n < m->in[0].size)
		fprintf(notes, "note: %zu of the job's %u ranks: the profile is of those\n", m->n, m->in[0].size);
}
