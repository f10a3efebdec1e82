/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Batches of records (sample/smpl_batch.h): what they copy, and which
 * samples a folding batch counts once.  A fold must never join samples a
 * profile tells apart, nor across a record that can change what an
 * address is.
 */
#include <config.h>

#include <string.h>

#include "sample/smpl_batch.h"
#include "tap.h"

static const uint64_t chain_a[] = { 0xffffffffffffff80ull, 0x401000, 0x402000 };
static const uint64_t chain_b[] = { 0xffffffffffffff80ull, 0x401000, 0x402008 };

static struct sample base_sample(void)
{
	return (struct sample){ .fields = SAMPLE_F_IP | SAMPLE_F_TID | SAMPLE_F_TIME | SAMPLE_F_CPU |
					  SAMPLE_F_PERIOD | SAMPLE_F_CALLCHAIN,
				.cpumode = 2, .ip = 0x401234, .pid = 7, .tid = 8, .time = 100, .cpu = 0,
				.period = 10000, .callchain_nr = 3, .callchain = chain_a };
}

static void commit_sample(struct smpl_batch *b, const struct sample *s)
{
	struct sample_record *r = smpl_batch_slot(b);

	*r = (struct sample_record){ .type = SREC_SAMPLE, .sample = *s };
	smpl_batch_commit(b);
}

static void commit_comm(struct smpl_batch *b, const char *name)
{
	struct sample_record *r = smpl_batch_slot(b);

	*r = (struct sample_record){ .type = SREC_COMM, .comm = { .pid = 7, .tid = 7, .comm = name } };
	smpl_batch_commit(b);
}

/* time, CPU and ids are what a profile never looks at: folded */
static void test_folds_what_profiles_ignore(void)
{
	struct smpl_batch b;
	struct sample s = base_sample();
	uint64_t chain_copy[3];

	smpl_batch_init(&b, true);
	memcpy(chain_copy, chain_a, sizeof(chain_copy));
	s.callchain = chain_copy;
	commit_sample(&b, &s);
	/* the batch has its own copy: the reader's buffer changes under it */
	chain_copy[2] = 0xdead;
	s.callchain = chain_a;
	s.time = 200;
	s.cpu = 1;
	s.id = 99;
	s.stream_id = 98;
	commit_sample(&b, &s);
	commit_sample(&b, &s);
	ok(b.n == 1 && b.counts[0] == 3, "equal samples but for time, CPU and ids: one record counted 3 times");
	ok(b.samples == 3, "the batch counts every sample it took");
	ok(b.recs[0].sample.callchain != chain_a && b.recs[0].sample.callchain[2] == 0x402000,
	   "the folded record's call chain is the batch's copy");
	smpl_batch_release(&b);
}

/* every field a profile keys on keeps samples apart */
static void test_keeps_apart(void)
{
	struct sample v[12];
	struct smpl_batch b;
	size_t n = 0;

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		v[i] = base_sample();
	v[n++].ip += 1;
	v[n++].pid += 1;
	v[n++].tid += 1;
	v[n++].evidx = 1;
	v[n++].period += 1;
	v[n++].cpumode = 1;
	v[n++].addr = 0x1000;
	v[n++].callchain = chain_b;
	v[n++].callchain_nr = 2;
	v[n++].fields &= ~SAMPLE_F_CALLCHAIN;
	v[n++].exact_ip = true;
	v[n++].weight = 5;
	smpl_batch_init(&b, true);
	commit_sample(&b, &(struct sample){ 0 } /* not equal to any */);
	{
		struct sample s = base_sample();

		commit_sample(&b, &s);
	}
	for (size_t i = 0; i < n; i++)
		commit_sample(&b, &v[i]);
	ok(b.n == n + 2, "a different ip, pid, tid, event, period, mode, data address, call chain, field "
	   "set, precise flag or weight: %zu records of %zu samples", b.n, n + 2);
	/* and each one folds with its own kind */
	for (size_t i = 0; i < n; i++)
		commit_sample(&b, &v[i]);
	ok(b.n == n + 2, "each variant again folds into its own record");
	ok(b.counts[2] == 2 && b.counts[n + 1] == 2 && b.counts[1] == 1, "with a count of 2 each");
	smpl_batch_release(&b);
}

/* a name or a mapping between two samples: no fold across it */
static void test_epochs(void)
{
	struct smpl_batch b;
	struct sample s = base_sample();

	smpl_batch_init(&b, true);
	commit_sample(&b, &s);
	commit_comm(&b, "renamed");
	commit_sample(&b, &s);
	commit_sample(&b, &s);
	ok(b.n == 3 && b.counts[0] == 1 && b.counts[1] == 1 && b.counts[2] == 2,
	   "samples fold only since the last other record");
	ok(!strcmp(b.recs[1].comm.comm, "renamed"), "the name in between is kept, in its place");
	smpl_batch_reset(&b);
	commit_sample(&b, &s);
	ok(b.n == 1 && b.counts[0] == 1 && b.samples == 1, "a reset batch folds from scratch");
	smpl_batch_release(&b);
}

/* counts read in samples and user stacks: each sample its own */
static void test_never_folded(void)
{
	struct smpl_batch b;
	struct sample s = base_sample(), r, u;
	static const uint8_t stack[16];
	static const uint64_t regs[1] = { 0x7ffc0000 };

	r = s;
	r.fields |= SAMPLE_F_READ;
	r.read_nr = 1;
	u = s;
	u.fields |= SAMPLE_F_USER_STACK;
	u.regs_abi = 2;
	u.regs_mask = 1;
	u.regs = regs;
	u.stack_size = sizeof(stack);
	u.stack = stack;
	smpl_batch_init(&b, true);
	commit_sample(&b, &r);
	commit_sample(&b, &r);
	commit_sample(&b, &u);
	commit_sample(&b, &u);
	ok(b.n == 4, "samples with read counts or a user stack are never folded");
	smpl_batch_release(&b);
	smpl_batch_init(&b, false);
	commit_sample(&b, &s);
	commit_sample(&b, &s);
	ok(b.n == 2 && b.counts[0] == 1 && b.counts[1] == 1, "a batch made not to fold keeps every sample");
	smpl_batch_release(&b);
}

/* many distinct samples in one epoch: the fold table grows and still finds them */
static void test_many(void)
{
	struct smpl_batch b;
	struct sample s = base_sample();
	bool all2 = true;

	smpl_batch_init(&b, true);
	for (int round = 0; round < 2; round++)
		for (uint64_t i = 0; i < 5000; i++) {
			s.ip = 0x400000 + 4 * i;
			commit_sample(&b, &s);
		}
	for (size_t i = 0; i < b.n; i++)
		all2 = all2 && b.counts[i] == 2;
	ok(b.n == 5000 && all2, "5,000 addresses twice: 5,000 records of 2 samples");
	smpl_batch_release(&b);
}

int main(void)
{
	test_folds_what_profiles_ignore();
	test_keeps_apart();
	test_epochs();
	test_never_folded();
	test_many();
	return tap_done();
}
