/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The branch model (src/sample/branch.c): perf's flag word read as the
 * kernel's own bitfields lay it out (struct perf_branch_entry of the
 * installed linux/perf_event.h, filled field by field here), reserved bits
 * reported, Itanium 2 BTB pairs mapped.
 */
#include <config.h>

#include <linux/perf_event.h>
#include <string.h>

#include "sample/branch.h"
#include "tap.h"

/* an entry written through the kernel's bitfields, as the kernel writes it */
static struct sample_branch kernel_entry(unsigned mispred, unsigned predicted, unsigned in_tx, unsigned abort_,
					 unsigned cycles, unsigned type, unsigned spec, unsigned new_type,
					 unsigned priv)
{
	struct perf_branch_entry k;
	struct sample_branch s;

	memset(&k, 0, sizeof(k));
	k.from = 0x401000;
	k.to = 0x402000;
	k.mispred = mispred;
	k.predicted = predicted;
	k.in_tx = in_tx;
	k.abort = abort_;
	k.cycles = cycles;
	k.type = type;
	k.spec = spec;
	k.new_type = new_type;
	k.priv = priv;
	memcpy(&s, &k, sizeof(s));
	return s;
}

static void test_fields(void)
{
	struct sample_branch e = kernel_entry(1, 0, 1, 0, 0xbeef, 0xa, 3, 0x9, 5);
	struct branch b;

	ok(sizeof(struct perf_branch_entry) == sizeof(struct sample_branch), "an entry is 3 u64s");
	ok(branch_decode(&e, &b) == 0, "no reserved bit");
	ok(b.from == 0x401000 && b.to == 0x402000, "from and to");
	ok(b.mispred && !b.predicted && b.in_tx && !b.abort, "mispred, predicted, in_tx, abort");
	ok(b.cycles == 0xbeef, "cycles: %u", b.cycles);
	ok(b.type == 0xa, "type: %u", b.type);
	ok(b.spec == 3, "spec: %u", b.spec);
	ok(b.new_type == 0x9, "new_type: %u", b.new_type);
	ok(b.priv == 5, "priv: %u", b.priv);
	e = kernel_entry(0, 1, 0, 1, 0, 0, 0, 0, 0);
	branch_decode(&e, &b);
	ok(!b.mispred && b.predicted && !b.in_tx && b.abort && !b.cycles && !b.type && !b.spec && !b.priv,
	   "each flag on its own");
	/* every field at its maximum: nothing spills into its neighbour */
	e = kernel_entry(1, 1, 1, 1, 0xffff, 0xf, 3, 0xf, 7);
	ok(branch_decode(&e, &b) == 0 && b.cycles == 0xffff && b.type == 0xf && b.spec == 3 && b.new_type == 0xf &&
	   b.priv == 7, "every field at its maximum");
	e.flags |= 1ull << 33 | 1ull << 63;
	ok(branch_decode(&e, &b) == (1ull << 33 | 1ull << 63), "the reserved bits returned");
	ok(b.priv == 7 && b.new_type == 0xf, "and the fields still read");
}

static void test_ia64(void)
{
	struct ia64_btb_branch p = { .source = 0x4000000000000022, .taken = true, .mispredicted = true,
				     .has_target = true, .target = 0x4000000000000000 };
	struct branch b;

	branch_from_ia64(&p, &b);
	ok(b.from == p.source && b.to == p.target && b.mispred && !b.predicted && !b.cycles, "a BTB pair");
	p.has_target = false;
	p.mispredicted = false;
	branch_from_ia64(&p, &b);
	ok(b.to == 0 && !b.mispred && b.predicted, "without its target: to 0");
}

int main(void)
{
	test_fields();
	test_ia64();
	return tap_done();
}
