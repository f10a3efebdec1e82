/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf.data, the file of perf record, both ways (the kernel tree's
 * tools/perf/Documentation/perf.data-file-format.txt):
 *
 *   reading: a perf.data file gives the same struct sample_record stream
 *            and struct smpl_header as pfmon's own sample file, so every
 *            report reads both (smpl_reader_open() hands a perf.data file
 *            to this reader by its magic);
 *   writing: the records of a session (or of a pfmon sample file) as a
 *            perf.data file that perf report, perf script and hotspot read.
 *
 * Only the file layout (not the pipe layout of perf record -o -), in the
 * byte order of this machine.  Every size and offset in a file read is
 * checked against the file's size: a hostile file gives one error, never
 * a read outside it.
 */
#ifndef PFMON_SAMPLE_PERF_DATA_H
#define PFMON_SAMPLE_PERF_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "sample/sample.h"
#include "sample/smpl_file.h"

/* "PERFILE2" read as a little-endian u64 */
#define PERF_DATA_MAGIC "PERFILE2"
#define PERF_DATA_MAGIC_LEN 8

/* true when the file's first bytes are those of a perf.data file (any
 * byte order, pipe layout too): the reader then says what it cannot read */
bool perf_data_magic(const void *head, size_t len);

/* perf's name of header feature feat ("BUILD_ID", "CMDLINE"), NULL for a
 * number perf 6.1 does not know */
const char *perf_data_feature_name(unsigned feat);

/* reading */
struct perf_data_reader;

/*
 * Read the perf.data file open as f (owned and closed by the reader), of
 * which the caller already read head_len bytes into head.  A regular file
 * is mapped; a pipe is read whole.  name is used in messages.
 */
struct perf_data_reader *perf_data_reader_fopen(FILE *f, const void *head, size_t head_len,
						const char *name, struct pf_error *err);
const struct smpl_header *perf_data_reader_header(const struct perf_data_reader *r);
/* as smpl_reader_next(): 1 a record, 0 the end, -1 a malformed file */
int perf_data_reader_next(struct perf_data_reader *r, struct sample_record *out,
			  struct pf_error *err);
const struct smpl_status *perf_data_reader_status(const struct perf_data_reader *r);
uint64_t perf_data_reader_tell(const struct perf_data_reader *r);
/* The AUX trace records in file order, to out: an Arm SPE trace packet by
 * packet (offset, bytes, meaning: perf report -D's lines); then one note
 * line on stderr of what was not decoded.  0, or -1 for a malformed file. */
int perf_data_reader_dump_aux(struct perf_data_reader *r, FILE *out, struct pf_error *err);
void perf_data_reader_close(struct perf_data_reader *r);

/* writing */
struct perf_data_writer;

/* path must be a file that can be rewritten in place (the header is
 * completed at close): not "-", not a pipe.  zstd_level 1 to 22 compresses
 * the records as perf record -z does (0: not) */
struct perf_data_writer *perf_data_writer_open(const char *path, const struct smpl_header *h, int zstd_level,
					       struct pf_error *err);
/* SREC_SAMPLE .. SREC_THROTTLE/UNTHROTTLE become perf records; SREC_KERNEL
 * and SREC_BINARY give the build-id section; the others are skipped */
int perf_data_write_record(struct perf_data_writer *w, const struct sample_record *rec,
			   struct pf_error *err);
int perf_data_writer_flush(struct perf_data_writer *w, struct pf_error *err);
/* Write the header sections and the final file header; frees w. */
int perf_data_writer_close(struct perf_data_writer *w, struct pf_error *err);

#endif
