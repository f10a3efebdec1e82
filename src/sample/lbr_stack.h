/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * User call stacks from the LBR (perf record --call-graph lbr, pfmon
 * --call-graph=lbr), as perf 6.1 resolves them (tools/perf/util/machine.c,
 * resolve_lbr_callchain_sample): when a sample's event has a branch stack
 * of PERF_SAMPLE_BRANCH_CALL_STACK, the kernel's call chain holds the
 * kernel frames and the branch stack the user call stack (entry k's from a
 * call site, entry 0's to the current function).  The sample's chain
 * becomes the kernel part up to PERF_CONTEXT_USER, the to of entry 0, then
 * each entry's from.
 *
 * Stitching (perf report/script --stitch-lbr): an LBR holds max_branches
 * calls, so a deeper stack loses its outer frames.  When the branch stack
 * of a thread's sample overlaps the previous one's in the LBR ring (the
 * same entries at the same physical places, found by hw_idx), the
 * previous sample's frames below the current sample's oldest entry are
 * appended, and the frames stitched before them with them, as perf does:
 * its arithmetic, quirks included, so both give the same stacks.
 */
#ifndef PFMON_SAMPLE_LBR_STACK_H
#define PFMON_SAMPLE_LBR_STACK_H

#include <stdbool.h>

#include "sample/smpl_file.h"

/* at most this many frames stitched below a sample's own (perf has no
 * bound; a crafted file could grow the list by a stack each sample) */
#define LBR_STITCH_MAX 4096u

struct lbr_stacks;

/* the call stacks of the samples of h (read when each sample comes: a
 * pipe's events and features come with its records), stitched if stitch */
struct lbr_stacks *lbr_stacks_new(const struct smpl_header *h, bool stitch);
void lbr_stacks_free(struct lbr_stacks *ls);
/* rec's call chain rewritten when it is an LBR call stack's sample (its
 * chain then points into ls until the next call); a thread's FORK forgets
 * what was kept of its tid, as perf's new thread does */
void lbr_stacks_apply(struct lbr_stacks *ls, struct sample_record *rec);

/* an event whose branch stack holds the user call stack */
bool lbr_call_stack_event(const struct smpl_event *e);
/* NULL when stitching can act on the samples of h, else why not: the end
 * of a sentence, lowercase ("no event has LBR call stacks ...") */
const char *lbr_stitch_unable(const struct smpl_header *h);

#endif
