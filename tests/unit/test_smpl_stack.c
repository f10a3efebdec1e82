/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The USER_STACK field of the sample file: round trips, size, hostile input. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "sample/smpl_stack.h"
#include "tap.h"

#define STACK_TOP 0x7ffd00010000ull

static uint64_t regs[17];
static uint8_t memory[16384]; /* the thread's stack, ending at STACK_TOP */

/* a sample of tid whose stack pointer is depth bytes below the top */
static struct sample at_depth(uint32_t tid, uint32_t depth)
{
	struct sample s = { .pid = 1, .tid = tid, .regs_abi = 2, .regs_mask = SAMPLE_USER_REGS_X86_64,
			    .regs = regs, .stack_size = depth };

	for (size_t i = 0; i < 17; i++)
		regs[i] = i == 7 ? STACK_TOP - depth : i * 0x1111;
	s.stack = memory + sizeof(memory) - depth;
	return s;
}

static int same(const struct sample *a, const struct sample *b)
{
	if (a->regs_abi != b->regs_abi || !a->regs_abi)
		return a->regs_abi == b->regs_abi && !b->stack_size;
	return a->regs_mask == b->regs_mask && a->stack_size == b->stack_size && !memcmp(a->regs, b->regs, 17 * 8) &&
	       (!a->stack_size || !memcmp(a->stack, b->stack, a->stack_size));
}

/* encode then decode s with fresh tables on both sides of each chunk */
static size_t round_trip(struct smpl_stacks *wt, struct smpl_stacks *rt, const struct sample *s, int *good)
{
	struct obuf o = { 0 };
	struct sample back = { .tid = s->tid };
	struct ibuf ib;
	const char *why;
	size_t len;

	smpl_encode_user_stack(&o, wt, s);
	ib = (struct ibuf){ o.b, o.b + o.len };
	why = smpl_decode_user_stack(&ib, rt, &back);
	*good = !why && ib.p == ib.end && same(s, &back);
	len = o.len;
	ob_free(&o);
	return len;
}

static void test_round_trip(void)
{
	struct smpl_stacks *wt = smpl_stacks_new(), *rt = smpl_stacks_new();
	struct sample s;
	size_t first, again, deeper;
	int good;

	for (size_t i = 0; i < sizeof(memory); i++)
		memory[i] = (uint8_t)(i * 31 + (i >> 8));
	s = at_depth(10, 8192);
	first = round_trip(wt, rt, &s, &good);
	ok(good && first > 8192, "an 8 KiB stack, the thread's first: %zu bytes", first);
	again = round_trip(wt, rt, &s, &good);
	/* the registers (17 varints) are most of it */
	ok(good && again < 96, "the same stack again: %zu bytes", again);
	/* a call deeper: 128 new bytes at the top, the rest as before */
	memory[sizeof(memory) - 8192 - 100] ^= 0xff;
	s = at_depth(10, 8192 + 128);
	deeper = round_trip(wt, rt, &s, &good);
	ok(good && deeper < 128 + 96, "one frame deeper: %zu bytes", deeper);
	/* a change in the middle of the old frames */
	memory[sizeof(memory) - 4000] ^= 0x55;
	s = at_depth(10, 6000);
	ok(round_trip(wt, rt, &s, &good) < 160 && good, "returned, one saved word changed");
	/* another thread has no previous stack */
	s = at_depth(11, 512);
	ok(round_trip(wt, rt, &s, &good) > 512 && good, "another thread: a literal copy");
	/* a new chunk: every thread starts over */
	smpl_stacks_reset(wt);
	smpl_stacks_reset(rt);
	s = at_depth(10, 6000);
	ok(round_trip(wt, rt, &s, &good) > 6000 && good, "a new chunk: a literal copy");
	/* no registers (a kernel thread), an empty stack */
	s = (struct sample){ .tid = 12 };
	ok(round_trip(wt, rt, &s, &good) == 1 && good, "no user context: one byte");
	s = at_depth(13, 0);
	ok(round_trip(wt, rt, &s, &good) < 96 && good, "registers without stack");
	/* registers of any value: -1, 2^63, 2^63 - 1 */
	s = at_depth(14, 64);
	regs[1] = (uint64_t)-1, regs[2] = 1ull << 63, regs[3] = (1ull << 63) - 1, regs[4] = 0;
	ok(round_trip(wt, rt, &s, &good) && good, "extreme register values");
	smpl_stacks_free(wt);
	smpl_stacks_free(rt);
}

static const char *decode(struct smpl_stacks *t, const unsigned char *p, size_t n)
{
	struct ibuf ib = { p, p + n };
	struct sample s = { .tid = 5 };

	return smpl_decode_user_stack(&ib, t, &s);
}

static void test_hostile(void)
{
	static const struct {
		const char *what;
		unsigned char p[32];
		size_t len;
		const char *want;
	} rows[] = {
		{ "abi past 2^32", { 0x80, 0x80, 0x80, 0x80, 0x10 }, 5, "bad user register ABI" },
		{ "abi cut short", { 0x80 }, 1, "bad user register ABI" },
		{ "mask cut short", { 0x02 }, 1, "bad user registers" },
		{ "relative bits past the registers", { 0x02, 0x03, 0x00, 0x04 }, 4, "bad user registers" },
		{ "registers overrun the record", { 0x02, 0x03, 0x00, 0x00, 0x02 }, 5, "overrun" },
		{ "stack size past 65528", { 0x02, 0x00, 0x00, 0x00, 0xf9, 0xff, 0x03 }, 7, "bad user stack size" },
		{ "literal longer than the stack", { 0x02, 0x00, 0x00, 0x00, 0x04, 0x05, 1, 2, 3, 4, 5 }, 11, "overruns" },
		{ "literal overruns the record", { 0x02, 0x00, 0x00, 0x00, 0x08, 0x08, 1, 2 }, 8, "overruns" },
		{ "a run without a previous stack", { 0x02, 0x00, 0x00, 0x00, 0x08, 0x00, 0x08 }, 7, "outside the thread" },
		{ "a run of zero bytes", { 0x02, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00 }, 7, "bad user stack run" },
		{ "a run past the stack size", { 0x02, 0x00, 0x00, 0x00, 0x08, 0x00, 0x09 }, 7, "bad user stack run" },
		{ "a stack cut short", { 0x02, 0x00, 0x00, 0x00, 0x08 }, 5, "overruns" },
	};
	struct smpl_stacks *t = smpl_stacks_new();

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		const char *why = decode(t, rows[i].p, rows[i].len);

		ok(why && strstr(why, rows[i].want), "hostile: %s -> %s", rows[i].what, why ? why : "accepted");
	}
	/* a run reaching past the previous stack of the thread */
	{
		static const unsigned char first[] = { 0x02, 0x00, 0x10, 0x00, 0x08, 0x08, 1, 2, 3, 4, 5, 6, 7, 8 };
		static const unsigned char past[] = { 0x02, 0x00, 0x10, 0x00, 0x10, 0x00, 0x10 };
		static const unsigned char below[] = { 0x02, 0x00, 0x08, 0x00, 0x10, 0x00, 0x10 };
		static const unsigned char inside[] = { 0x02, 0x00, 0x14, 0x00, 0x04, 0x00, 0x04 };

		ok(!decode(t, first, sizeof(first)), "a stack of 8 bytes at 0x10");
		ok(decode(t, past, sizeof(past)) != NULL, "a run of 16 bytes from 0x10 is refused");
		ok(!decode(t, first, sizeof(first)), "the 8 bytes again");
		ok(decode(t, below, sizeof(below)) != NULL, "a run from 0x08 is refused");
		ok(!decode(t, first, sizeof(first)), "the 8 bytes again");
		ok(!decode(t, inside, sizeof(inside)), "a run of 4 bytes from 0x14 is taken");
	}
	smpl_stacks_free(t);
}

/* random bytes after a valid head: never a crash or an out-of-bounds read */
static void test_fuzz(void)
{
	struct smpl_stacks *t = smpl_stacks_new();
	unsigned char p[256];
	unsigned seed = 777;
	int accepted = 0;

	for (int i = 0; i < 20000; i++) {
		size_t n = 1 + (size_t)rand_r(&seed) % sizeof(p);
		unsigned char *b = xmalloc(n); /* exactly n bytes: ASan sees an over-read */

		for (size_t j = 0; j < n; j++)
			p[j] = (unsigned char)rand_r(&seed);
		p[0] = 2;
		if (n > 1)
			p[1] = (unsigned char)(rand_r(&seed) % 4); /* few registers: get to the stack */
		memcpy(b, p, n);
		accepted += decode(t, b, n) == NULL;
		free(b);
		if (i % 1000 == 0)
			smpl_stacks_reset(t);
	}
	ok(1, "20000 random user stack fields: %d accepted, the others refused, no crash", accepted);
	smpl_stacks_free(t);
}

int main(void)
{
	test_round_trip();
	test_hostile();
	test_fuzz();
	return tap_done();
}
