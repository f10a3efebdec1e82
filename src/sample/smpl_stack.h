/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The USER_STACK field of the sample file (format 1.4, man/pfmon-smpl.5):
 * a sample's user registers and stack copy, for --call-graph=dwarf.
 *
 * The stack copy is most of a sample's size (perf.data stores 8 KiB per
 * sample whatever is used).  Two things keep it small: only the bytes the
 * kernel could copy are stored (its dyn_size), and the stack is stored as
 * a difference from the previous stack of the same thread in the same
 * chunk: the outer frames of a thread rarely change between two samples,
 * so most of a copy is a run of "same bytes as last time at these
 * addresses".  Like the other delta bases, the table is emptied at each
 * chunk, so chunks still decode on their own.
 */
#ifndef PFMON_SAMPLE_SMPL_STACK_H
#define PFMON_SAMPLE_SMPL_STACK_H

#include <stdint.h>

#include "sample/sample.h"
#include "sample/smpl_codec.h"

/* the last stack of each thread in the current chunk */
struct smpl_stacks;

struct smpl_stacks *smpl_stacks_new(void);
void smpl_stacks_free(struct smpl_stacks *t);
/* a new chunk: no thread has a previous stack */
void smpl_stacks_reset(struct smpl_stacks *t);

/* the stack pointer of a sample's registers (where its copy starts), 0 if unknown */
uint64_t sample_user_sp(const struct sample *s);

/* append s's registers and stack (SAMPLE_F_USER_STACK) */
void smpl_encode_user_stack(struct obuf *o, struct smpl_stacks *t, const struct sample *s);
/* read them into s (pointers into the table's storage, valid until the
 * next call); NULL, or why the field is corrupted */
const char *smpl_decode_user_stack(struct ibuf *ib, struct smpl_stacks *t, struct sample *s);

#endif
