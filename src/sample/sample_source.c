/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "sample/sample_source.h"
#include "common/util.h"
#include "sample/ibs.h"
#include "sample/perf_data.h"

int sample_source_next(struct sample_source *s, const struct sample_record **rec, uint64_t *count,
		       struct pf_error *err)
{
	if (!s->ra) {
		*rec = &s->rec;
		*count = 1;
		return smpl_reader_next(s->r, &s->rec, err);
	}
	return smpl_readahead_next(s->ra, s->i, rec, count, &s->st, err);
}

const struct smpl_status *sample_source_status(const struct sample_source *s)
{
	return s->ra ? &s->st : smpl_reader_status(s->r);
}

/* "BUILD_ID, CMDLINE, ..." into sb: the features a cut perf.data lost */
static void name_features(const uint64_t *lost, size_t words, struct strbuf *sb)
{
	for (unsigned feat = 0; feat < words * 64; feat++) {
		const char *name = perf_data_feature_name(feat);

		if (!(lost[feat / 64] >> (feat % 64) & 1))
			continue;
		if (sb->len)
			strbuf_addstr(sb, ", ");
		if (name)
			strbuf_addstr(sb, name);
		else
			strbuf_addf(sb, "feature %u", feat);
	}
}

void sample_source_warn(const char *file, const struct smpl_status *st)
{
	struct strbuf sb = STRBUF_INIT;

	if (st->truncated) {
		fputs("warning: '", stderr);
		fput_escaped(stderr, file);
		fprintf(stderr, "' is truncated at offset %llu: the samples after it are lost\n",
			(unsigned long long)st->truncated_at);
	}
	name_features(st->features_lost, ARRAY_SIZE(st->features_lost), &sb);
	if (sb.len) {
		fputs("warning: '", stderr);
		fput_escaped(stderr, file);
		fprintf(stderr, "' is cut at offset %llu after its samples (all there): its header "
			"features %s are lost\n", (unsigned long long)st->features_cut_at, strbuf_str(&sb));
	}
	strbuf_reset(&sb);
	for (unsigned b = 0; b < IBS_UNDECODED_BITS; b++)
		if (st->ibs_undecoded_what >> b & 1)
			strbuf_addf(&sb, "%s%s", sb.len ? ", " : "", ibs_undecoded_name(b));
	if (st->ibs_undecoded)
		fprintf(stderr, "note: %llu IBS samples hold what pfmon does not decode: %s\n",
			(unsigned long long)st->ibs_undecoded, strbuf_str(&sb));
	strbuf_release(&sb);
	if (st->aux_note[0]) {
		fputs("note: '", stderr);
		fput_escaped(stderr, file);
		fprintf(stderr, "': %s\n", st->aux_note);
	}
}

#define MAX_READ_THREADS 64

/*
 * Once the threads have folded the samples pfmon's own thread has little
 * left to do, so it does not count as one of the CPUs' worth of threads:
 * with 2 CPUs, 2 threads merge 1.5 million samples in half the time one
 * file's report takes in one thread, 1 in 80% of it (bench/merge), and one
 * reading thread reports a file in 80 to 90% of the time.
 */
int sample_read_threads(unsigned *out, struct pf_error *err)
{
	const char *env = getenv("PFMON_READ_THREADS");
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t v;

	if (env) {
		if (!parse_u64(env, &v) || v > MAX_READ_THREADS)
			return pf_error_set(err, PF_E_READ_THREADS, env, MAX_READ_THREADS);
		*out = (unsigned)v;
		return 0;
	}
	*out = cpus < 1 ? 1 : cpus > 8 ? 8 : (unsigned)cpus;
	return 0;
}
