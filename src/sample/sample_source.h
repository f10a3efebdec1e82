/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where a report's records come from: a reader in pfmon's own thread, or
 * reading threads (sample/smpl_readahead.h) that decode the files, and
 * fold their samples, while this thread builds the profile.  --report of
 * one file and --merge of many read either way; the output is the same.
 */
#ifndef PFMON_SAMPLE_SAMPLE_SOURCE_H
#define PFMON_SAMPLE_SAMPLE_SOURCE_H

#include <stdint.h>

#include "common/error.h"
#include "sample/smpl_file.h"
#include "sample/smpl_readahead.h"

struct sample_source {
	struct smpl_readahead *ra; /* NULL: r */
	size_t i;                  /* with ra: the file being read */
	struct smpl_reader *r;
	struct sample_record rec;  /* r's */
	struct smpl_status st;     /* from ra, at the file's end */
};

/* the next record, and how many samples are folded into it (1 from r) */
int sample_source_next(struct sample_source *s, const struct sample_record **rec, uint64_t *count,
		       struct pf_error *err);
/* at the file's end: the reader's status */
const struct smpl_status *sample_source_status(const struct sample_source *s);

/* At a file's end: one warning line for a file truncated in its records,
 * one for a perf.data file cut in its header (the features lost named) */
void sample_source_warn(const char *file, const struct smpl_status *st);

/* PFMON_READ_THREADS, else one a CPU online (at most 8); 0: none */
int sample_read_threads(unsigned *out, struct pf_error *err);

#endif
