/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One zstd stream decoded piece by piece, as perf record -z writes it:
 * the records of its rings compressed into one stream that is flushed,
 * never ended, after each chunk, and split over PERF_RECORD_COMPRESSED
 * records (see ../shared/spec/modern-sampling.md §6).  libzstd is loaded
 * on first use (common/dynlib.h): a run that reads no compressed file
 * does not pay for it.
 */
#ifndef PFMON_SAMPLE_ZSTD_STREAM_H
#define PFMON_SAMPLE_ZSTD_STREAM_H

#include <stddef.h>

#include "common/error.h"

struct zstd_stream;

/* a decoder, or NULL with err saying libzstd could not be loaded */
struct zstd_stream *zstd_stream_new(struct pf_error *err);

/* an output buffer that grows, never past max bytes */
struct zstd_out {
	unsigned char *buf;
	size_t len, cap, max;
};

/*
 * Decode the n bytes at in, appending to out.  NULL, or why the bytes are
 * not the rest of a zstd stream, or that out would pass its max.
 */
const char *zstd_stream_decode(struct zstd_stream *z, const void *in, size_t n, struct zstd_out *out);

void zstd_stream_free(struct zstd_stream *z);

/* The other way, as perf record -z writes: one stream for the file,
 * flushed (not ended) after each chunk, so that each chunk's records can
 * be decoded as soon as its bytes are read. */
struct zstd_writer;

/* at level 1 (fast) to 22 (small), or NULL with err (libzstd not loaded) */
struct zstd_writer *zstd_writer_new(int level, struct pf_error *err);
/* compress and flush the n bytes at in, appending to out; NULL or why not */
const char *zstd_writer_flush(struct zstd_writer *z, const void *in, size_t n, struct zstd_out *out);
void zstd_writer_free(struct zstd_writer *z);

#endif
