/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "sample/perf_data.h"
#include "sample/sample_out.h"

struct sample_out {
	struct smpl_writer *pfmon;
	struct perf_data_writer *perf;
};

static const char *const format_names[] = { "pfmon", "perf" };

const char *sample_out_format_name(size_t i)
{
	return i < ARRAY_SIZE(format_names) ? format_names[i] : NULL;
}

bool sample_out_format_from_name(const char *name, enum sample_out_format *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(format_names); i++)
		if (!strcmp(name ? name : "pfmon", format_names[i])) {
			*out = (enum sample_out_format)i;
			return true;
		}
	return false;
}

struct sample_out *sample_out_open(const char *path, const struct sample_out_opts *opts,
				   const struct smpl_header *h, struct pf_error *err)
{
	struct sample_out *o = xcalloc(1, sizeof(*o));

	if (opts->format == SAMPLE_OUT_PERF)
		o->perf = perf_data_writer_open(path, h, opts->zstd_level, err);
	else
		o->pfmon = smpl_writer_open(path, h, err);
	if (!o->perf && !o->pfmon) {
		free(o);
		return NULL;
	}
	return o;
}

int sample_out_record(struct sample_out *o, const struct sample_record *rec, struct pf_error *err)
{
	return o->perf ? perf_data_write_record(o->perf, rec, err) : smpl_write_record(o->pfmon, rec, err);
}

int sample_out_flush(struct sample_out *o, struct pf_error *err)
{
	return o->perf ? perf_data_writer_flush(o->perf, err) : smpl_writer_flush(o->pfmon, err);
}

int sample_out_close(struct sample_out *o, struct pf_error *err)
{
	int rc;

	if (!o)
		return 0;
	rc = o->perf ? perf_data_writer_close(o->perf, err) : smpl_writer_close(o->pfmon, err);
	free(o);
	return rc;
}
