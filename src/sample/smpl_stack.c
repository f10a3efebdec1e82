/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The USER_STACK field of the sample file: registers and stack copies. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "common/hash.h"
#include "common/hashtab.h"
#include "common/util.h"
#include "sample/smpl_stack.h"

/* perf's x86-64 register number of the stack pointer (PERF_REG_X86_SP) */
#define X86_64_SP_BIT 7
/* a run of equal bytes shorter than this is cheaper as literal bytes */
#define MIN_COPY 16

struct thread_stack {
	uint32_t tid;
	uint32_t gen;      /* valid when equal to the table's generation */
	uint64_t addr;     /* of the first byte */
	uint32_t len;
	uint8_t *bytes;    /* SAMPLE_MAX_STACK bytes, allocated on first use */
};

struct smpl_stacks {
	struct hashtab threads; /* of struct thread_stack */
	uint32_t gen;      /* entries of older generations are empty */
	uint8_t *scratch;  /* the stack being decoded (swapped into its thread's entry) */
	uint64_t regs[SAMPLE_MAX_REGS];
};

/* an entry is used once its bytes are allocated */
static bool thread_used(const void *slot)
{
	return ((const struct thread_stack *)slot)->bytes != NULL;
}

static bool thread_match(const void *slot, const void *key)
{
	return ((const struct thread_stack *)slot)->tid == *(const uint32_t *)key;
}

static uint64_t thread_hash(const void *slot)
{
	return hash_u64(((const struct thread_stack *)slot)->tid);
}

static const struct hashtab_ops thread_ops = {
	.slot_size = sizeof(struct thread_stack),
	.min_cap = 16,
	.load_pct = 50,
	.used = thread_used,
	.match = thread_match,
	.hash = thread_hash,
};

struct smpl_stacks *smpl_stacks_new(void)
{
	struct smpl_stacks *t = xcalloc(1, sizeof(*t));

	t->gen = 1;
	return t;
}

void smpl_stacks_free(struct smpl_stacks *t)
{
	if (!t)
		return;
	struct thread_stack *e;

	for (size_t i = 0; (e = hashtab_next(&t->threads, &thread_ops, &i));)
		free(e->bytes);
	hashtab_release(&t->threads);
	free(t->scratch);
	free(t);
}

void smpl_stacks_reset(struct smpl_stacks *t)
{
	t->gen++;
}

/* tid's entry, created empty: a table of threads seen in the file so far
 * (at most a few thousand: the entries are reused chunk after chunk) */
static struct thread_stack *thread_entry(struct smpl_stacks *t, uint32_t tid)
{
	bool added;
	struct thread_stack *e = hashtab_insert(&t->threads, &thread_ops, hash_u64(tid), &tid, &added);

	if (added)
		*e = (struct thread_stack){ .tid = tid, .bytes = xmalloc(SAMPLE_MAX_STACK) };
	if (e->gen != t->gen) {
		e->gen = t->gen;
		e->len = 0;
	}
	return e;
}

uint64_t sample_user_sp(const struct sample *s)
{
	uint64_t below = s->regs_mask & ((1ull << X86_64_SP_BIT) - 1);

	if (!s->regs_abi || !(s->regs_mask & (1ull << X86_64_SP_BIT)))
		return 0;
	return s->regs[__builtin_popcountll(below)];
}

/* how many bytes from off of the new stack equal the previous one at the
 * same addresses, in whole words (or up to the end) */
static uint32_t same_run(const struct thread_stack *prev, uint64_t addr, const uint8_t *b, uint32_t n,
			 uint32_t off)
{
	uint32_t run = 0;

	while (off + run < n) {
		uint64_t at = addr + off + run;
		uint32_t step = n - (off + run) < 8 ? n - (off + run) : 8;

		if (at < prev->addr || at - prev->addr > prev->len || prev->len - (at - prev->addr) < step)
			break;
		if (memcmp(b + off + run, prev->bytes + (at - prev->addr), step))
			break;
		run += step;
	}
	return run;
}

/* literal bytes, then a run copied from the thread's previous stack */
static void encode_runs(struct obuf *o, const struct thread_stack *prev, uint64_t addr, const uint8_t *b,
			uint32_t n)
{
	uint32_t lit = 0, off = 0;

	while (off < n) {
		uint32_t run = prev->len ? same_run(prev, addr, b, n, off) : 0;

		if (run < MIN_COPY && off + run < n) {
			off += n - off < 8 ? n - off : 8;
			continue;
		}
		if (run < MIN_COPY)
			break; /* a short match at the end: literal */
		ob_varint(o, off - lit);
		ob_bytes(o, b + lit, off - lit);
		ob_varint(o, run);
		off += run;
		lit = off;
	}
	if (lit < n || n == 0) {
		ob_varint(o, n - lit);
		ob_bytes(o, b + lit, n - lit);
	}
}

void smpl_encode_user_stack(struct obuf *o, struct smpl_stacks *t, const struct sample *s)
{
	uint32_t nregs = s->regs_abi ? (uint32_t)__builtin_popcountll(s->regs_mask) : 0;
	uint64_t base = sample_user_sp(s), rel = 0;
	struct thread_stack *e;

	ob_varint(o, s->regs_abi);
	if (!s->regs_abi)
		return; /* no user context: no registers, no stack */
	ob_varint(o, s->regs_mask);
	ob_varint(o, base);
	/* pointers into the stack are small distances from the stack pointer,
	 * other values (counters, -1, flags) small as themselves */
	for (uint32_t i = 0; i < nregs; i++) {
		uint64_t d = s->regs[i] - base, v = s->regs[i];

		if (((int64_t)d < 0 ? -d : d) < ((int64_t)v < 0 ? -v : v))
			rel |= 1ull << i;
	}
	ob_varint(o, rel);
	for (uint32_t i = 0; i < nregs; i++)
		ob_svarint(o, (int64_t)((rel >> i) & 1 ? s->regs[i] - base : s->regs[i]));
	e = thread_entry(t, s->tid);
	ob_varint(o, s->stack_size);
	encode_runs(o, e, base, s->stack, s->stack_size);
	memcpy(e->bytes, s->stack, s->stack_size);
	e->addr = base;
	e->len = s->stack_size;
}

static const char *decode_regs(struct ibuf *ib, struct smpl_stacks *t, struct sample *s, uint64_t *base)
{
	uint64_t rel;
	uint32_t nregs;

	if (ib_varint(ib, &s->regs_mask) || ib_varint(ib, base) || ib_varint(ib, &rel))
		return "bad user registers";
	nregs = (uint32_t)__builtin_popcountll(s->regs_mask);
	if (nregs < 64 && rel >> nregs)
		return "bad user registers";
	for (uint32_t i = 0; i < nregs; i++) {
		int64_t v;

		if (ib_svarint(ib, &v))
			return "user registers overrun the record";
		t->regs[i] = (rel >> i) & 1 ? *base + (uint64_t)v : (uint64_t)v;
	}
	s->regs = t->regs;
	return NULL;
}

static const char *decode_runs(struct ibuf *ib, const struct thread_stack *prev, uint64_t addr, uint8_t *b,
			       uint32_t n)
{
	uint32_t off = 0;

	do {
		uint64_t lit, run, at;

		if (ib_varint(ib, &lit) || lit > n - off || lit > ib_left(ib))
			return "user stack overruns its size or the record";
		memcpy(b + off, ib->p, lit);
		ib->p += lit;
		off += (uint32_t)lit;
		if (off == n)
			break;
		if (ib_varint(ib, &run) || run == 0 || run > n - off)
			return "bad user stack run";
		at = addr + off;
		if (at < prev->addr || at - prev->addr > prev->len || prev->len - (at - prev->addr) < run)
			return "user stack run outside the thread's previous stack";
		memcpy(b + off, prev->bytes + (at - prev->addr), run);
		off += (uint32_t)run;
	} while (off < n);
	return NULL;
}

const char *smpl_decode_user_stack(struct ibuf *ib, struct smpl_stacks *t, struct sample *s)
{
	struct thread_stack *e;
	uint64_t abi, base, n;
	const char *why;
	uint8_t *swap;

	if (ib_varint(ib, &abi) || abi > UINT32_MAX)
		return "bad user register ABI";
	if (!abi)
		return NULL;
	s->regs_abi = (uint32_t)abi;
	why = decode_regs(ib, t, s, &base);
	if (why)
		return why;
	if (ib_varint(ib, &n) || n > SAMPLE_MAX_STACK)
		return "bad user stack size";
	if (!t->scratch)
		t->scratch = xmalloc(SAMPLE_MAX_STACK);
	e = thread_entry(t, s->tid);
	why = decode_runs(ib, e, base, t->scratch, (uint32_t)n);
	if (why)
		return why;
	/* the copy becomes the thread's previous stack, the old buffer the scratch */
	swap = e->bytes;
	e->bytes = t->scratch;
	t->scratch = swap;
	e->addr = base;
	e->len = (uint32_t)n;
	s->stack = e->bytes;
	s->stack_size = (uint32_t)n;
	return NULL;
}
