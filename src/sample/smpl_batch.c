/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "sample/smpl_batch.h"

#define BLOCK_MIN (64u << 10)

struct smpl_batch_block {
	char *mem;
	size_t used, cap;
};

void smpl_batch_init(struct smpl_batch *b, bool fold)
{
	*b = (struct smpl_batch){ .fold = fold };
}

/* n bytes (8-aligned) that stay where they are until reset or release */
static void *batch_alloc(struct smpl_batch *b, size_t n)
{
	struct smpl_batch_block *k;

	n = (n + 7) & ~(size_t)7;
	while (b->cur < b->nr_blocks && b->blocks[b->cur].cap - b->blocks[b->cur].used < n)
		b->cur++;
	if (b->cur == b->nr_blocks) {
		b->blocks = xrealloc(b->blocks, (b->nr_blocks + 1) * sizeof(*b->blocks));
		b->blocks[b->nr_blocks++] = (struct smpl_batch_block){ xmalloc(n > BLOCK_MIN ? n : BLOCK_MIN), 0,
								      n > BLOCK_MIN ? n : BLOCK_MIN };
	}
	k = &b->blocks[b->cur];
	k->used += n;
	b->bytes += n;
	return k->mem + k->used - n;
}

static const void *copy_bytes(struct smpl_batch *b, const void *p, size_t n)
{
	return p && n ? memcpy(batch_alloc(b, n), p, n) : p;
}

static const char *copy_str(struct smpl_batch *b, const char *s)
{
	return s ? copy_bytes(b, s, strlen(s) + 1) : NULL;
}

static void copy_sample(struct smpl_batch *b, struct sample *s)
{
	uint32_t nregs = s->regs_abi ? (uint32_t)__builtin_popcountll(s->regs_mask) : 0;

	s->callchain = copy_bytes(b, s->callchain, (size_t)s->callchain_nr * sizeof(*s->callchain));
	s->branches = copy_bytes(b, s->branches, (size_t)s->branch_nr * sizeof(*s->branches));
	s->regs = copy_bytes(b, s->regs, (size_t)nregs * sizeof(*s->regs));
	s->stack = copy_bytes(b, s->stack, s->stack_size);
}

struct sample_record *smpl_batch_slot(struct smpl_batch *b)
{
	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 256;
		b->recs = xrealloc(b->recs, b->cap * sizeof(*b->recs));
		b->counts = xrealloc(b->counts, b->cap * sizeof(*b->counts));
	}
	return &b->recs[b->n];
}

/* A sample folded into: its record's index + 1 (0: free slot), and its
 * hash's low half, compared before the record is read (the table has
 * fewer than 2^32 slots, so the low half is all the index needs). */
struct smpl_fold_slot {
	uint32_t at;
	uint32_t hash;
};

struct fold_key {
	const struct sample *s;
	const struct sample_record *recs;
	uint32_t hash;
};

static bool fold_used(const void *slot)
{
	return ((const struct smpl_fold_slot *)slot)->at != 0;
}

static bool fold_match(const void *slot, const void *key)
{
	const struct smpl_fold_slot *f = slot;
	const struct fold_key *k = key;

	return f->hash == k->hash && sample_fold_equal(&k->recs[f->at - 1].sample, k->s);
}

static uint64_t fold_hash(const void *slot)
{
	return ((const struct smpl_fold_slot *)slot)->hash;
}

static const struct hashtab_ops fold_ops = {
	.slot_size = sizeof(struct smpl_fold_slot),
	.min_cap = 512,
	.load_pct = 50,
	.used = fold_used,
	.match = fold_match,
	.hash = fold_hash,
};

/* another record: the samples before it are not folded into any more */
static void end_fold_epoch(struct smpl_batch *b)
{
	hashtab_clear(&b->folds, &fold_ops);
}

/* the record s folds into, else s (at b->n) is entered for the next ones: NULL */
static struct sample_record *fold_into(struct smpl_batch *b, const struct sample *s)
{
	struct fold_key k = { s, b->recs, (uint32_t)sample_fold_hash(s) };
	bool added;
	struct smpl_fold_slot *f = hashtab_insert(&b->folds, &fold_ops, k.hash, &k, &added);

	if (!added)
		return &b->recs[f->at - 1];
	*f = (struct smpl_fold_slot){ (uint32_t)b->n + 1, k.hash };
	return NULL;
}

void smpl_batch_commit(struct smpl_batch *b)
{
	struct sample_record *r = &b->recs[b->n];

	if (r->type != SREC_SAMPLE) {
		end_fold_epoch(b);
	} else {
		struct sample_record *into = b->fold && sample_foldable(&r->sample) ? fold_into(b, &r->sample) : NULL;

		b->samples++;
		if (into) {
			b->counts[into - b->recs]++;
			return; /* the slot is the next record's */
		}
	}
	b->counts[b->n++] = 1;
	switch (r->type) {
	case SREC_SAMPLE:
		copy_sample(b, &r->sample);
		break;
	case SREC_MMAP:
		r->mmap.filename = copy_str(b, r->mmap.filename);
		break;
	case SREC_COMM:
		r->comm.comm = copy_str(b, r->comm.comm);
		break;
	case SREC_KSYM:
		r->ksym.name = copy_str(b, r->ksym.name);
		r->ksym.module = copy_str(b, r->ksym.module);
		break;
	case SREC_BINARY:
		r->binary.path = copy_str(b, r->binary.path);
		break;
	case SREC_IA64_CONFIG:
		r->ia64_config.events = copy_str(b, r->ia64_config.events);
		r->ia64_config.irange = copy_str(b, r->ia64_config.irange);
		r->ia64_config.drange = copy_str(b, r->ia64_config.drange);
		break;
	default: /* no pointers */
		break;
	}
}

void smpl_batch_reset(struct smpl_batch *b)
{
	for (size_t i = 0; i < b->nr_blocks; i++)
		b->blocks[i].used = 0;
	b->n = b->cur = b->bytes = 0;
	b->samples = 0;
	end_fold_epoch(b);
}

void smpl_batch_release(struct smpl_batch *b)
{
	for (size_t i = 0; i < b->nr_blocks; i++)
		free(b->blocks[i].mem);
	free(b->blocks);
	free(b->recs);
	free(b->counts);
	hashtab_release(&b->folds);
	smpl_batch_init(b, b->fold);
}
