/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The counts of non-sampling events recorded in samples: their increases. */
#include <config.h>

#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "common/hash.h"
#include "profile_internal.h"

static uint64_t stream_key_hash(uint32_t evidx, uint32_t tid, uint32_t cpu)
{
	return hash_u64(hash_combine((uint64_t)evidx << 32 | cpu, tid));
}

static bool stream_used(const void *slot)
{
	return ((const struct read_stream *)slot)->used;
}

static bool stream_match(const void *slot, const void *key)
{
	const struct read_stream *r = slot;
	const struct sample *s = key;

	return r->evidx == s->evidx && r->tid == s->tid && r->cpu == s->cpu;
}

static uint64_t stream_hash(const void *slot)
{
	const struct read_stream *r = slot;

	return stream_key_hash(r->evidx, r->tid, r->cpu);
}

static const struct hashtab_ops stream_ops = {
	.slot_size = sizeof(struct read_stream),
	.min_cap = 64,
	.load_pct = 50,
	.used = stream_used,
	.match = stream_match,
	.hash = stream_hash,
};

/* the counter stream of this sample, created with zero counts */
static struct read_stream *stream_of(struct read_streams *t, const struct sample *s)
{
	bool added;
	struct read_stream *r = hashtab_insert(&t->tab, &stream_ops, stream_key_hash(s->evidx, s->tid, s->cpu), s,
					       &added);

	if (added)
		*r = (struct read_stream){ .evidx = s->evidx, .tid = s->tid, .cpu = s->cpu, .used = true };
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
