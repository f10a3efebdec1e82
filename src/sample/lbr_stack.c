/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * LBR call stacks and their stitching (lbr_stack.h).  What perf keeps per
 * thread (struct lbr_stitch: the previous sample, the frames its LBR
 * entries resolved to, the list of stitched frames) is kept here per tid,
 * at the address level: a stitched frame is the previous sample's call
 * site, named by the report as any frame of the chain.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "common/u64set.h"
#include "common/util.h"
#include "sample/lbr_stack.h"

struct lbr_thread {
	/* the last sample stitched (perf's prev_sample): its branch stack */
	bool have_prev;
	uint64_t prev_hw_idx;
	uint32_t prev_nr;
	struct sample_branch *prev;
	size_t prev_cap;
	/* perf allocates its stitching state at the thread's first sample with
	 * a hw_idx; from then on every LBR call stack's frames are kept */
	bool stitching;
	/* the frame of each entry of the last LBR call stack resolved (perf's
	 * prev_lbr_cursor), invalid for an entry whose from is no address */
	uint64_t *frame;
	bool *valid;
	size_t frames_cap;
	/* the stitched frames, outermost first (perf's list, reversed: its
	 * head, the frame next to the sample's own, is the last here) */
	uint64_t *stitched;
	size_t n_stitched, stitched_cap;
};

struct lbr_stacks {
	const struct smpl_header *h;
	bool stitch;
	struct u64set index; /* tid -> position in threads */
	struct lbr_thread *threads;
	size_t n_threads, cap_threads;
	uint64_t *chain; /* the last chain rewritten */
	size_t chain_cap;
};

struct lbr_stacks *lbr_stacks_new(const struct smpl_header *h, bool stitch)
{
	struct lbr_stacks *ls = xcalloc(1, sizeof(*ls));

	ls->h = h;
	ls->stitch = stitch;
	u64set_init(&ls->index);
	return ls;
}

static void thread_release(struct lbr_thread *t)
{
	free(t->prev);
	free(t->frame);
	free(t->valid);
	free(t->stitched);
	memset(t, 0, sizeof(*t));
}

void lbr_stacks_free(struct lbr_stacks *ls)
{
	if (!ls)
		return;
	for (size_t i = 0; i < ls->n_threads; i++)
		thread_release(&ls->threads[i]);
	free(ls->threads);
	u64set_release(&ls->index);
	free(ls->chain);
	free(ls);
}

bool lbr_call_stack_event(const struct smpl_event *e)
{
	return (e->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK) && (e->fields & SAMPLE_F_BRANCH);
}

const char *lbr_stitch_unable(const struct smpl_header *h)
{
	bool any = false, hw_idx = false;

	for (uint32_t i = 0; i < h->nr_events; i++) {
		if (!lbr_call_stack_event(&h->events[i]))
			continue;
		any = true;
		hw_idx |= (h->events[i].branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) != 0;
	}
	if (!any)
		return "its samples have no LBR call stacks (recorded with --call-graph=lbr, or perf record "
		       "--call-graph lbr)";
	if (!hw_idx)
		return "its LBR call stacks have no hw_idx (PERF_SAMPLE_BRANCH_HW_INDEX, Linux 5.7 and later): "
		       "where two stacks overlap cannot be found";
	if (!h->max_branches)
		return "it does not say the LBR's depth (perf.data's CPU_PMU_CAPS branches=): where two stacks "
		       "overlap cannot be found";
	return NULL;
}

static struct lbr_thread *thread_of(struct lbr_stacks *ls, uint32_t tid)
{
	uint64_t at;

	if (u64set_get(&ls->index, tid, &at))
		return &ls->threads[at];
	XGROW(ls->threads, ls->cap_threads, ls->n_threads);
	memset(&ls->threads[ls->n_threads], 0, sizeof(*ls->threads));
	u64set_put(&ls->index, tid, ls->n_threads);
	return &ls->threads[ls->n_threads++];
}

/* a FORK of tid: perf makes a new thread, without the old one's state */
static void forget_thread(struct lbr_stacks *ls, uint32_t tid)
{
	uint64_t at;

	if (u64set_get(&ls->index, tid, &at))
		thread_release(&ls->threads[at]);
}

/* entries [0, n) of t's frames addressable */
static void frames_reserve(struct lbr_thread *t, size_t n)
{
	if (n <= t->frames_cap)
		return;
	t->frame = xrealloc(t->frame, n * sizeof(*t->frame));
	t->valid = xrealloc(t->valid, n * sizeof(*t->valid));
	memset(t->valid + t->frames_cap, 0, (n - t->frames_cap) * sizeof(*t->valid));
	t->frames_cap = n;
}

/* perf's list_add of a stitched frame: at the head, next to the sample's
 * own frames; the outermost are dropped past LBR_STITCH_MAX */
static void stitch_push(struct lbr_thread *t, uint64_t frame)
{
	if (t->n_stitched == LBR_STITCH_MAX) {
		memmove(t->stitched, t->stitched + 1, (t->n_stitched - 1) * sizeof(*t->stitched));
		t->n_stitched--;
	}
	XGROW(t->stitched, t->stitched_cap, t->n_stitched);
	t->stitched[t->n_stitched++] = frame;
}

/*
 * perf 6.1's has_stitched_lbr: where the current stack's oldest entry sits
 * in the LBR ring (its physical index, not reduced modulo the depth, as
 * perf computes it), how far below the previous sample's newest entry
 * that is, whether the entries from there up are the same calls (from, to
 * and flags), and if so the previous sample's frames below it stitched.
 */
static bool stitches(struct lbr_thread *t, const struct sample *s, uint64_t max_lbr)
{
	uint64_t cur_base, distance;
	int64_t i, j;
	uint32_t same = 0;

	if (!t->have_prev)
		return false;
	cur_base = max_lbr - s->branch_nr + s->branch_hw_idx + 1;
	distance = t->prev_hw_idx > cur_base ? t->prev_hw_idx - cur_base : max_lbr + t->prev_hw_idx - cur_base;
	/* the previous stack is shorter: nothing to stitch (distance + 1
	 * wraps to 0 for a distance of -1, which then compares nothing) */
	if (distance + 1 > t->prev_nr || distance == UINT64_MAX)
		return false;
	for (i = (int64_t)distance, j = (int64_t)s->branch_nr - 1; i >= 0 && j >= 0; i--, j--) {
		const struct sample_branch *p = &t->prev[i], *c = &s->branches[j];

		if (p->from != c->from || p->to != c->to || p->flags != c->flags)
			break;
		same++;
	}
	if (!same)
		return false;
	for (i = (int64_t)t->prev_nr - 1; i > (int64_t)distance; i--)
		if ((size_t)i < t->frames_cap && t->valid[i])
			stitch_push(t, t->frame[i]);
	return true;
}

/* the sample becomes the previous one of its thread */
static void keep_prev(struct lbr_thread *t, const struct sample *s)
{
	if (s->branch_nr > t->prev_cap) {
		t->prev_cap = s->branch_nr;
		t->prev = xrealloc(t->prev, t->prev_cap * sizeof(*t->prev));
	}
	if (s->branch_nr)
		memcpy(t->prev, s->branches, s->branch_nr * sizeof(*t->prev));
	t->prev_nr = s->branch_nr;
	t->prev_hw_idx = s->branch_hw_idx;
	t->have_prev = true;
}

/* perf's save_lbr_cursor_node: the frame of each entry, for the next
 * sample to stitch (a from that is a context marker adds no frame) */
static void keep_frames(struct lbr_thread *t, const struct sample *s)
{
	frames_reserve(t, s->branch_nr);
	for (uint32_t k = 0; k < s->branch_nr; k++) {
		t->frame[k] = s->branches[k].from;
		t->valid[k] = s->branches[k].from < (uint64_t)PERF_CONTEXT_MAX;
	}
}

/* the chain: kernel part and PERF_CONTEXT_USER (user + 1 entries), the
 * to of entry 0, each from, then what was stitched, innermost first */
static void build_chain(struct lbr_stacks *ls, struct sample *s, uint32_t user, const struct lbr_thread *stitched)
{
	size_t n = user + 1, need = n + 1 + s->branch_nr + (stitched ? stitched->n_stitched : 0);

	if (need > ls->chain_cap) {
		ls->chain_cap = need;
		ls->chain = xrealloc(ls->chain, need * sizeof(*ls->chain));
	}
	memcpy(ls->chain, s->callchain, n * sizeof(*ls->chain));
	ls->chain[n++] = s->branches[0].to;
	for (uint32_t k = 0; k < s->branch_nr; k++)
		ls->chain[n++] = s->branches[k].from;
	for (size_t k = stitched ? stitched->n_stitched : 0; k > 0; k--)
		ls->chain[n++] = stitched->stitched[k - 1];
	s->callchain = ls->chain;
	s->callchain_nr = (uint32_t)n;
}

static void apply_sample(struct lbr_stacks *ls, struct sample *s)
{
	const struct smpl_event *e = s->evidx < ls->h->nr_events ? &ls->h->events[s->evidx] : NULL;
	uint32_t user = 0;
	struct lbr_thread *t = NULL;
	bool stitched = false;

	if (!e || !lbr_call_stack_event(e))
		return;
	while (user < s->callchain_nr && s->callchain[user] != (uint64_t)PERF_CONTEXT_USER)
		user++;
	/* the LBR holds the user stack only: a chain without a user part stays */
	if (user == s->callchain_nr)
		return;
	if (ls->stitch)
		t = thread_of(ls, (s->fields & SAMPLE_F_TID) ? s->tid : UINT32_MAX);
	if (t && (s->fields & SAMPLE_F_BRANCH_HW_IDX) && ls->h->max_branches) {
		t->stitching = true;
		stitched = stitches(t, s, ls->h->max_branches);
		if (!stitched)
			t->n_stitched = 0;
		keep_prev(t, s);
	}
	/* an empty stack keeps the kernel's chain (perf 6.1 reads an entry 0
	 * past it) */
	if (!s->branch_nr)
		return;
	if (t && t->stitching)
		keep_frames(t, s);
	build_chain(ls, s, user, stitched ? t : NULL);
}

void lbr_stacks_apply(struct lbr_stacks *ls, struct sample_record *rec)
{
	if (rec->type == SREC_SAMPLE)
		apply_sample(ls, &rec->sample);
	else if (rec->type == SREC_FORK && ls->stitch)
		forget_thread(ls, rec->task.tid);
}
