/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sample records copied out of a reader, with everything they point to.
 * A reader's record is valid only until its next one; a batch's records
 * until the batch is reset or released, so a batch can be decoded on one
 * thread and used on another (pfmon --merge decodes files in worker
 * threads and profiles them on the main one).
 *
 * A folding batch counts a sample equal to one it holds since its last
 * other record (sample_fold_equal(): the same to a profile) in that
 * sample's count instead of holding it twice: a profile adds the pair at
 * once.  Only since the last other record: a mapping or a name in between
 * may change what the same address is.
 */
#ifndef PFMON_SAMPLE_SMPL_BATCH_H
#define PFMON_SAMPLE_SMPL_BATCH_H

#include <stddef.h>

#include "common/hashtab.h"
#include "sample/sample.h"

struct smpl_batch_block;

struct smpl_batch {
	struct sample_record *recs;
	uint64_t *counts; /* each record's: 1, or the samples folded into it */
	size_t n, cap;
	bool fold;
	uint64_t samples; /* every sample committed, folded ones too */
	/* folding: the samples since the last other record, by hash */
	struct hashtab folds; /* of struct smpl_fold_slot (smpl_batch.c) */
	size_t epoch; /* recs before it are not folded into */
	/* the bytes the records point to: blocks that never move, kept for
	 * reuse when the batch is reset */
	struct smpl_batch_block *blocks;
	size_t nr_blocks, cur;
	size_t bytes; /* pointed-to bytes held: a producer bounds a batch by it */
};

void smpl_batch_init(struct smpl_batch *b, bool fold);
/* Where the next record goes: a reader decodes into it, then
 * smpl_batch_commit() copies what it points to into the batch (one copy of
 * the record, not two). */
struct sample_record *smpl_batch_slot(struct smpl_batch *b);
void smpl_batch_commit(struct smpl_batch *b);
/* empty (and folding from scratch), its memory kept for the next records */
void smpl_batch_reset(struct smpl_batch *b);
void smpl_batch_release(struct smpl_batch *b);

#endif
