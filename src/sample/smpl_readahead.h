/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sample files read ahead by worker threads: each worker opens a file,
 * decodes its records into batches (sample/smpl_batch.h) and queues them;
 * one consumer takes every file's records in file order, as it would have
 * read them itself.  Memory stays bounded: a file has at most a few
 * batches queued, and workers run at most a few files ahead of the
 * consumer.  Folding workers count samples a profile cannot tell apart
 * (sample/smpl_batch.h) once: the consumer adds them at once, and so does
 * less of the work.
 */
#ifndef PFMON_SAMPLE_SMPL_READAHEAD_H
#define PFMON_SAMPLE_SMPL_READAHEAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "sample/sample.h"
#include "sample/smpl_file.h"

struct smpl_readahead;

/* workers >= 1 threads reading paths[0..n) (which must outlive it) with
 * the readers' opts, folding samples if fold; NULL when no thread could be
 * started */
struct smpl_readahead *smpl_readahead_start(const char *const *paths, size_t n, unsigned workers, bool fold,
					    const struct smpl_read_opts *opts);
/*
 * The next record of file i, as smpl_reader_next() would return it (it
 * and its pointers valid until the next call), and *count, the samples
 * folded into it (1 for every other record): 1; 0 at the file's clean end, *st
 * then the reader's status; -1 for an unreadable or corrupted file, err
 * then as the reader set it.  Files are taken in order, each to its end.
 */
int smpl_readahead_next(struct smpl_readahead *ra, size_t i, const struct sample_record **out, uint64_t *count,
			struct smpl_status *st, struct pf_error *err);
/* stops the workers (early too) and frees everything */
void smpl_readahead_stop(struct smpl_readahead *ra);

#endif
