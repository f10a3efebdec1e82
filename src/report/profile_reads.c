/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The counts of non-sampling events recorded in samples: their increases. */
#include <config.h>

#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "profile_internal.h"

static size_t stream_slot(const struct read_streams *t, uint32_t evidx, uint32_t tid, uint32_t cpu)
{
	size_t i = (size_t)(((uint64_t)evidx << 48 ^ (uint64_t)cpu << 32 ^ tid) * 0x9e3779b97f4a7c15ull >> 20);

	for (i &= t->cap - 1;; i = (i + 1) & (t->cap - 1)) {
		const struct read_stream *r = &t->slots[i];

		if (!r->used || (r->evidx == evidx && r->tid == tid && r->cpu == cpu))
			return i;
	}
}

static void streams_grow(struct read_streams *t)
{
	struct read_streams n = { xcalloc(t->cap ? t->cap * 2 : 64, sizeof(struct read_stream)),
				  t->cap ? t->cap * 2 : 64, t->len };

	for (size_t i = 0; i < t->cap; i++)
		if (t->slots[i].used)
			n.slots[stream_slot(&n, t->slots[i].evidx, t->slots[i].tid, t->slots[i].cpu)] = t->slots[i];
	free(t->slots);
	*t = n;
}

/* the counter stream of this sample, created with zero counts */
static struct read_stream *stream_of(struct read_streams *t, const struct sample *s)
{
	struct read_stream *r;

	if ((t->len + 1) * 2 > t->cap)
		streams_grow(t);
	r = &t->slots[stream_slot(t, s->evidx, s->tid, s->cpu)];
	if (!r->used) {
		*r = (struct read_stream){ .evidx = s->evidx, .tid = s->tid, .cpu = s->cpu, .used = true };
		t->len++;
	}
	return r;
}

void prof_add_reads(struct profile *p, struct event_hist *h, const struct sample *s, struct prof_entry *e)
{
	struct read_stream *r = stream_of(&p->streams, s);

	for (uint32_t j = 0; j < h->n_reads && j < s->read_nr; j++) {
		/* below the last count: a new counter with the same ids */
		uint64_t delta = s->read[j] >= r->last[j] ? s->read[j] - r->last[j] : s->read[j];

		r->last[j] = s->read[j];
		e->reads[j] += delta;
	}
}
