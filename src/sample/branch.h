/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One taken branch, whichever hardware recorded it: Intel LBR, AMD LBR,
 * Arm BRBE (all through perf's PERF_SAMPLE_BRANCH_STACK) or the Itanium 2
 * BTB (PMD8-16, paired by ia64_btb_decode()).  The reports count these and
 * never look at a format's own bits.
 */
#ifndef PFMON_SAMPLE_BRANCH_H
#define PFMON_SAMPLE_BRANCH_H

#include <stdbool.h>
#include <stdint.h>

#include "sample/ia64_ear.h"
#include "sample/sample.h"

struct branch {
	uint64_t from, to;
	bool mispred;    /* the target was mispredicted */
	bool predicted;  /* the target was predicted (neither: not recorded) */
	bool in_tx, abort; /* TSX: in a transaction, a transaction's abort */
	uint16_t cycles; /* since the previous taken branch; 0: not recorded */
	uint8_t type;    /* PERF_BR_* (0: unknown, not recorded) */
	uint8_t new_type; /* PERF_BR_NEW_* when type is PERF_BR_EXTEND_ABI */
	uint8_t spec;    /* PERF_BR_SPEC_* (BRBE); 0: not available */
	uint8_t priv;    /* PERF_BR_PRIV_* (BRBE); 0: unknown */
};

/* The bits of perf_branch_entry's flag word no kernel up to 6.12 defines
 * (its 31 reserved bits): a newer kernel's fields, which this pfmon
 * cannot read. */
#define BRANCH_FLAGS_RESERVED (~0ull << 33)

/* e decoded; returns its reserved bits (0 for any kernel's entry today) */
uint64_t branch_decode(const struct sample_branch *e, struct branch *out);
/* an Itanium 2 BTB pair: its source is the branch bundle | slot, its
 * target 0 when the BTB lost it (has_target false) */
void branch_from_ia64(const struct ia64_btb_branch *b, struct branch *out);

#endif
