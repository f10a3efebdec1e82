/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Arm SPE records of a perf.data file as the samples perf 6.1 makes of
 * them (perf_data_spe.h).  Per record, perf 6.1 (tools/perf/util/arm-spe.c)
 * gives: ip the PC, addr the data virtual address (a branch-miss: the
 * branch target), weight the total latency, period 1, data_src from the
 * data-source packet (arm_spe.h), pid/tid from the context packet when
 * the trace has timestamps (CONTEXTIDR holds the tid when the kernel is
 * built with CONFIG_PID_IN_CONTEXTIDR), else the AUXTRACE record's tid,
 * time the timestamp through TIME_CONV (0 for a record ended by End).
 * Records are kept once; a sample is (record, event), numbered
 * record * 16 + event.
 */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "common/util.h"
#include "sample/perf_data_spe.h"

#define PER_RECORD 16 /* > SPE_S_COUNT */

struct spe_rec {
	uint64_t ip, addr, target, phys;
	uint64_t time;
	uint64_t data_src;
	uint32_t tid, cpu;
	uint16_t weight;
};

struct spe_queue {
	uint32_t idx;
	struct spe_decoder d;
	uint64_t last; /* the order time of its last record */
};

struct spe_thread {
	uint32_t tid, pid;
};

struct pd_spe {
	uint32_t first_synth, fields;
	bool timed;
	uint64_t midr;
	bool have_conv;
	uint64_t shift, mult, zero;
	struct spe_queue *queues;
	size_t n_queues;
	struct spe_rec *recs;
	size_t n_recs, cap_recs;
	struct spe_thread *threads;
	size_t n_threads, cap_threads;
	struct spe_unknown unknown;
	/* the AUXTRACE record being decoded */
	uint32_t cur_tid, cur_cpu;
	struct spe_queue *cur_q;
	uint64_t after;
	void (*order)(void *ctx, uint64_t time, size_t i);
	void *order_ctx;
};

struct pd_spe *pd_spe_new(uint32_t first_synth, uint32_t fields, uint64_t midr)
{
	struct pd_spe *s = xcalloc(1, sizeof(*s));

	s->first_synth = first_synth;
	s->fields = fields;
	s->timed = fields & SAMPLE_F_TIME;
	s->midr = midr;
	return s;
}

void pd_spe_free(struct pd_spe *s)
{
	if (!s)
		return;
	free(s->queues);
	free(s->recs);
	free(s->threads);
	free(s);
}

void pd_spe_reset(struct pd_spe *s)
{
	s->n_queues = s->n_recs = s->n_threads = 0;
	memset(&s->unknown, 0, sizeof(s->unknown));
}

void pd_spe_time_conv(struct pd_spe *s, uint64_t shift, uint64_t mult, uint64_t zero)
{
	s->have_conv = true;
	s->shift = shift < 64 ? shift : 63;
	s->mult = mult;
	s->zero = zero;
}

void pd_spe_thread(struct pd_spe *s, uint32_t pid, uint32_t tid)
{
	if (s->n_threads == s->cap_threads) {
		s->cap_threads = s->cap_threads ? 2 * s->cap_threads : 64;
		s->threads = xrealloc(s->threads, s->cap_threads * sizeof(*s->threads));
	}
	s->threads[s->n_threads++] = (struct spe_thread){ tid, pid };
}

/* perf's clock from an SPE timestamp (the counter's, as the kernel's
 * cap_user_time conversion); unconverted without TIME_CONV */
static uint64_t spe_time(const struct pd_spe *s, uint64_t ts)
{
	uint64_t quot, rem;

	if (!s->have_conv)
		return ts;
	quot = ts >> s->shift;
	rem = ts & ((1ull << s->shift) - 1);
	return s->zero + quot * s->mult + ((rem * s->mult) >> s->shift);
}

static struct spe_queue *queue_of(struct pd_spe *s, uint32_t idx)
{
	for (size_t i = 0; i < s->n_queues; i++)
		if (s->queues[i].idx == idx)
			return &s->queues[i];
	s->queues = xrealloc(s->queues, (s->n_queues + 1) * sizeof(*s->queues));
	memset(&s->queues[s->n_queues], 0, sizeof(*s->queues));
	s->queues[s->n_queues].idx = idx;
	return &s->queues[s->n_queues++];
}

static void emit(void *ctx, const struct spe_record *rec)
{
	struct pd_spe *s = ctx;
	struct spe_rec *r;
	unsigned events;
	uint64_t key;

	if (s->n_recs == s->cap_recs) {
		s->cap_recs = s->cap_recs ? 2 * s->cap_recs : 1024;
		s->recs = xrealloc(s->recs, s->cap_recs * sizeof(*s->recs));
	}
	r = &s->recs[s->n_recs];
	memset(r, 0, sizeof(*r));
	r->ip = rec->pc;
	r->addr = rec->va;
	r->target = rec->target;
	r->phys = rec->pa;
	r->weight = rec->lat[SPE_LAT_TOTAL];
	r->data_src = spe_data_src(rec, s->midr);
	r->time = spe_time(s, rec->timestamp);
	r->cpu = s->cur_cpu;
	r->tid = s->timed && rec->has_context ? rec->context : s->cur_tid;
	/* where it goes among the file's records: its time; one without (End,
	 * or no timestamps at all) right after the record before it */
	key = s->timed && rec->timestamp ? r->time : s->cur_q->last > s->after ? s->cur_q->last : s->after;
	s->cur_q->last = key;
	events = spe_synth_events(rec, r->data_src);
	for (unsigned e = 0; e < SPE_S_COUNT; e++)
		if (events >> e & 1)
			s->order(s->order_ctx, key, s->n_recs * PER_RECORD + e);
	s->n_recs++;
}

void pd_spe_trace(struct pd_spe *s, const uint8_t *buf, size_t len, uint64_t aux_offset, uint32_t idx,
		  uint32_t tid, uint32_t cpu, uint64_t after,
		  void (*order)(void *ctx, uint64_t time, size_t i), void *ctx)
{
	s->cur_q = queue_of(s, idx);
	s->cur_tid = tid;
	s->cur_cpu = cpu;
	s->after = after;
	s->order = order;
	s->order_ctx = ctx;
	spe_decode(&s->cur_q->d, buf, len, aux_offset, &s->unknown, emit, s);
}

void pd_spe_aux_flags(struct pd_spe *s, uint64_t flags)
{
	if (flags & (PERF_AUX_FLAG_TRUNCATED | PERF_AUX_FLAG_PARTIAL))
		s->unknown.lost_aux++;
}

static int cmp_thread(const void *a, const void *b)
{
	const struct spe_thread *x = a, *y = b;

	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

void pd_spe_finish(struct pd_spe *s)
{
	size_t k = 0;

	if (s->n_threads)
		qsort(s->threads, s->n_threads, sizeof(*s->threads), cmp_thread);
	for (size_t i = 0; i < s->n_threads; i++) {
		if (k && s->threads[k - 1].tid == s->threads[i].tid)
			continue; /* a thread's process never changes */
		s->threads[k++] = s->threads[i];
	}
	s->n_threads = k;
}

static uint32_t pid_of(const struct pd_spe *s, uint32_t tid)
{
	struct spe_thread key = { tid, 0 };
	const struct spe_thread *t;

	if (tid == UINT32_MAX || !s->n_threads)
		return tid;
	t = bsearch(&key, s->threads, s->n_threads, sizeof(*s->threads), cmp_thread);
	return t ? t->pid : tid;
}

void pd_spe_sample(const struct pd_spe *s, size_t i, struct sample *out)
{
	const struct spe_rec *r = &s->recs[i / PER_RECORD];
	unsigned e = (unsigned)(i % PER_RECORD);

	memset(out, 0, sizeof(*out));
	out->fields = s->fields;
	out->evidx = s->first_synth + e;
	out->ip = r->ip;
	/* perf 6.1 takes an address at or above the kernel's start as the
	 * kernel's: on arm64 the upper half */
	out->cpumode = r->ip >> 63 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	out->exact_ip = true;
	out->tid = r->tid;
	out->pid = pid_of(s, r->tid);
	out->time = r->time;
	out->cpu = r->cpu;
	out->period = 1;
	out->addr = e == SPE_S_BRANCH_MISS ? r->target : r->addr;
	out->phys_addr = e == SPE_S_BRANCH_MISS ? 0 : r->phys;
	out->weight = r->weight;
	out->data_src = e == SPE_S_BRANCH_MISS ? 0 : r->data_src;
}

void pd_spe_note(const struct pd_spe *s, char *out, size_t n)
{
	spe_unknown_note(&s->unknown, out, n);
}
