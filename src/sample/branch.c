// SPDX-License-Identifier: GPL-2.0-or-later
/* Taken branches of every recorder, as one record (branch.h). */
#include <config.h>

#include <linux/perf_event.h>

#include "branch.h"

/* perf_branch_entry's flag word, in the kernel's bitfield order (little
 * endian, first field lowest): mispred, predicted, in_tx, abort,
 * cycles:16, type:4, spec:2, new_type:4, priv:3, reserved:31 */
#define F_SPEC_SHIFT 24
#define F_NEW_TYPE_SHIFT 26
#define F_PRIV_SHIFT 30

uint64_t branch_decode(const struct sample_branch *e, struct branch *out)
{
	uint64_t f = e->flags;

	out->from = e->from;
	out->to = e->to;
	out->mispred = f & SAMPLE_BR_MISPRED;
	out->predicted = f & SAMPLE_BR_PREDICTED;
	out->in_tx = f & SAMPLE_BR_IN_TX;
	out->abort = f & SAMPLE_BR_ABORT;
	out->cycles = (uint16_t)((f >> SAMPLE_BR_CYCLES_SHIFT) & SAMPLE_BR_CYCLES_MASK);
	out->type = (uint8_t)((f >> SAMPLE_BR_TYPE_SHIFT) & SAMPLE_BR_TYPE_MASK);
	out->spec = (uint8_t)((f >> F_SPEC_SHIFT) & 3);
	out->new_type = (uint8_t)((f >> F_NEW_TYPE_SHIFT) & 0xf);
	out->priv = (uint8_t)((f >> F_PRIV_SHIFT) & 7);
	return f & BRANCH_FLAGS_RESERVED;
}

/* The BTB says whether the branch was mispredicted; a branch it records
 * as predicted correctly is "predicted" as perf's flag means it.  It has
 * no cycles, type or speculation. */
void branch_from_ia64(const struct ia64_btb_branch *b, struct branch *out)
{
	*out = (struct branch){ .from = b->source, .to = b->has_target ? b->target : 0 };
	out->mispred = b->mispredicted;
	out->predicted = !b->mispredicted;
}
