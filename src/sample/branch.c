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

const char *branch_type_name(uint8_t type, uint8_t new_type)
{
	static const char *const names[] = {
		[PERF_BR_COND] = "COND",	  [PERF_BR_UNCOND] = "UNCOND", [PERF_BR_IND] = "IND",
		[PERF_BR_CALL] = "CALL",	  [PERF_BR_IND_CALL] = "IND_CALL", [PERF_BR_RET] = "RET",
		[PERF_BR_SYSCALL] = "SYSCALL",	  [PERF_BR_SYSRET] = "SYSRET", [PERF_BR_COND_CALL] = "COND_CALL",
		[PERF_BR_COND_RET] = "COND_RET", [PERF_BR_ERET] = "ERET",	[PERF_BR_IRQ] = "IRQ",
		[PERF_BR_SERROR] = "SERROR",	  [PERF_BR_NO_TX] = "NO_TX",
	};
	static const char *const new_names[] = { "FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1",
						 "ARCH_2",     "ARCH_3",     "ARCH_4",     "ARCH_5" };

	if (type == 15) /* PERF_BR_EXTEND_ABI (not in every kernel's header) */
		return new_type < sizeof(new_names) / sizeof(*new_names) ? new_names[new_type] : "";
	return type < sizeof(names) / sizeof(*names) && names[type] ? names[type] : "";
}
