/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where a session's records go: pfmon's sample file (pfmon-smpl(5)) or a
 * perf.data file (--smpl-format=perf), through one interface, so that the
 * session, the profile's binary identities and the conversion of a saved
 * file do not care which.
 */
#ifndef PFMON_SAMPLE_SAMPLE_OUT_H
#define PFMON_SAMPLE_SAMPLE_OUT_H

#include "common/error.h"
#include "sample/sample.h"
#include "sample/smpl_file.h"

enum sample_out_format {
	SAMPLE_OUT_PFMON,
	SAMPLE_OUT_PERF,
};

struct sample_out;

/* false for an unknown name ("pfmon", "perf"); NULL is pfmon's */
bool sample_out_format_from_name(const char *name, enum sample_out_format *out);
/* the names, in enum order; NULL past the last */
const char *sample_out_format_name(size_t i);

struct sample_out_opts {
	enum sample_out_format format;
	int zstd_level; /* perf.data: compressed as perf record -z (1 to 22), 0: not */
};

struct sample_out *sample_out_open(const char *path, const struct sample_out_opts *opts,
				   const struct smpl_header *h, struct pf_error *err);
int sample_out_record(struct sample_out *o, const struct sample_record *rec, struct pf_error *err);
int sample_out_flush(struct sample_out *o, struct pf_error *err);
/* complete the file and free o, even on error */
int sample_out_close(struct sample_out *o, struct pf_error *err);

#endif
