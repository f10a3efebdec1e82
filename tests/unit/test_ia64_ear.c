/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Itanium 2 EAR/BTB decoding against register values written out by hand
 * from the manual's bit layouts (chapter 10.3.7-10.3.9).  The constants are
 * literal on purpose: a test that built them with the decoder's own masks
 * would agree with any mistake in them.
 */
#include <config.h>

#include "sample/ia64_ear.h"
#include "tap.h"

static void test_modes(void)
{
	/* PMC10.ct is bits 13:12: 1x cache, 00 TLB, 01 nothing */
	ok(ia64_iear_mode_of(0x2000) == IA64_IEAR_CACHE, "PMC10 ct=10: cache");
	ok(ia64_iear_mode_of(0x3fe8) == IA64_IEAR_CACHE, "PMC10 ct=11 (umask 0xff): cache");
	ok(ia64_iear_mode_of(0x0028) == IA64_IEAR_TLB, "PMC10 ct=00: TLB");
	ok(ia64_iear_mode_of(0x1000) == IA64_IEAR_OFF, "PMC10 ct=01: nothing monitored");
	/* PMC11.mode is bits 8:7 */
	ok(ia64_dear_mode_of(0x00020008) == IA64_DEAR_CACHE, "PMC11 mode=00: cache");
	ok(ia64_dear_mode_of(0x00020088) == IA64_DEAR_TLB, "PMC11 mode=01: TLB");
	ok(ia64_dear_mode_of(0x00000108) == IA64_DEAR_ALAT, "PMC11 mode=10: ALAT");
	ok(ia64_dear_mode_of(0x00000188) == IA64_DEAR_ALAT, "PMC11 mode=11: ALAT");
	/* PMC12.ds is bit 7 */
	ok(!ia64_btb_ds_of(0x3f08), "PMC12 ds=0");
	ok(ia64_btb_ds_of(0x3f88), "PMC12 ds=1");
}

static void test_iear(void)
{
	struct ia64_iear e;

	/* cache mode: line 0x4000000000001240, stat 01; PMD1 latency 0x123, ov */
	ia64_iear_decode(IA64_IEAR_CACHE, 0x4000000000001241ull, 0x1123, &e);
	ok(e.valid && e.has_latency, "I-EAR cache: valid with latency");
	is_u64(e.address, 0x4000000000001240ull, "I-EAR cache: line address, low 5 bits clear");
	is_u64(e.latency, 0x123, "I-EAR cache: latency bits 11:0");
	ok(e.overflow, "I-EAR cache: overflow bit 12");
	/* stat x1: bit 1 is undefined in cache mode, bits 4:2 reserved */
	ia64_iear_decode(IA64_IEAR_CACHE, 0x400000000000125full, 0x0fff, &e);
	ok(e.valid && !e.overflow && e.latency == 0xfff, "I-EAR cache: stat 11 valid, no ov");
	is_u64(e.address, 0x4000000000001240ull, "I-EAR cache: bits 4:0 dropped");
	ia64_iear_decode(IA64_IEAR_CACHE, 0x4000000000001242ull, 0x1123, &e);
	ok(!e.valid && !e.has_latency, "I-EAR cache: stat 10 is not a capture");

	/* TLB mode: stat 01 L2TLB, 10 VHPT, 11 FAULT; PMD1 undefined */
	ia64_iear_decode(IA64_IEAR_TLB, 0x2000000000000081ull, 0x1fff, &e);
	ok(e.valid && e.tlb == IA64_TLB_L2 && !e.has_latency, "I-EAR TLB: stat 01 L2TLB");
	is_str(ia64_tlb_name(e.tlb, false), "L2TLB", "I-EAR TLB: L2TLB name");
	is_u64(e.address, 0x2000000000000080ull, "I-EAR TLB: line address");
	ia64_iear_decode(IA64_IEAR_TLB, 0x2000000000000082ull, 0, &e);
	ok(e.valid && e.tlb == IA64_TLB_VHPT, "I-EAR TLB: stat 10 VHPT");
	ia64_iear_decode(IA64_IEAR_TLB, 0x2000000000000083ull, 0, &e);
	ok(e.valid && e.tlb == IA64_TLB_FAULT, "I-EAR TLB: stat 11 FAULT");
	ia64_iear_decode(IA64_IEAR_TLB, 0x2000000000000080ull, 0, &e);
	ok(!e.valid && e.tlb == IA64_TLB_NONE, "I-EAR TLB: stat 00 nothing captured");
}

static void test_dear(void)
{
	struct ia64_dear d;

	/* cache mode: stat 01 (bit 14), ov (bit 13), latency 0x1abc (13 bits);
	 * PMD17: address 0x4000000000000a30, vl=1, bn=1, slot 2 -> 0x...a40 slot 2 */
	ia64_dear_decode(IA64_DEAR_CACHE, 0x6000000000012345ull, 0x7abc,
			 0x4000000000000a3eull, &d);
	ok(d.valid && d.has_data_address && d.has_latency, "D-EAR cache: valid");
	is_u64(d.data_address, 0x6000000000012345ull, "D-EAR cache: PMD2 whole");
	is_u64(d.latency, 0x1abc, "D-EAR cache: latency bits 12:0");
	ok(d.overflow, "D-EAR cache: ov bit 13");
	ok(d.has_iaddr, "D-EAR cache: vl=1");
	is_u64(d.iaddr, 0x4000000000000a40ull, "D-EAR cache: bn=1 adds 16");
	is_u64(d.slot, 2, "D-EAR cache: slot");
	/* vl=0: the instruction address is not known */
	ia64_dear_decode(IA64_DEAR_CACHE, 0x1000, 0x4004, 0x4000000000000a36ull, &d);
	ok(d.valid && !d.has_iaddr && !d.overflow && d.latency == 4, "D-EAR cache: vl=0");
	/* bn=0 slot 1 */
	ia64_dear_decode(IA64_DEAR_CACHE, 0x1000, 0x4004, 0x4000000000000a39ull, &d);
	is_u64(d.iaddr, 0x4000000000000a30ull, "D-EAR cache: bn=0");
	is_u64(d.slot, 1, "D-EAR cache: slot 1");
	/* stat 00: nothing; stat 10 is undefined in cache mode */
	ia64_dear_decode(IA64_DEAR_CACHE, 0x1000, 0x0004, 0x4000000000000a38ull, &d);
	ok(!d.valid && !d.has_data_address && !d.has_iaddr, "D-EAR cache: stat 00 invalid");
	ia64_dear_decode(IA64_DEAR_CACHE, 0x1000, 0x8004, 0x4000000000000a38ull, &d);
	ok(!d.valid, "D-EAR cache: stat 10 (undefined) not a capture");

	/* TLB mode: stat 01 L2DTLB, 10 VHPT, 11 FAULT; no latency */
	ia64_dear_decode(IA64_DEAR_TLB, 0x600000000000f000ull, 0x5fff, 0x4000000000000a38ull, &d);
	ok(d.valid && d.tlb == IA64_TLB_L2 && !d.has_latency && d.has_data_address,
	   "D-EAR TLB: stat 01 L2DTLB, latency undefined");
	is_str(ia64_tlb_name(d.tlb, true), "L2DTLB", "D-EAR TLB: L2DTLB name");
	ia64_dear_decode(IA64_DEAR_TLB, 0x600000000000f000ull, 0x8000, 0x4000000000000a38ull, &d);
	ok(d.valid && d.tlb == IA64_TLB_VHPT, "D-EAR TLB: stat 10 VHPT");
	ia64_dear_decode(IA64_DEAR_TLB, 0x600000000000f000ull, 0xc000, 0x4000000000000a38ull, &d);
	ok(d.valid && d.tlb == IA64_TLB_FAULT, "D-EAR TLB: stat 11 FAULT");
	ia64_dear_decode(IA64_DEAR_TLB, 0x600000000000f000ull, 0x3fff, 0x4000000000000a38ull, &d);
	ok(!d.valid, "D-EAR TLB: stat 00 invalid");

	/* ALAT mode: PMD2 and latency undefined; address of the chk.a from PMD17 */
	ia64_dear_decode(IA64_DEAR_ALAT, 0xdeadbeef, 0x5fff, 0x4000000000000a38ull, &d);
	ok(d.valid && !d.has_data_address && !d.has_latency && d.has_iaddr,
	   "D-EAR ALAT: only the instruction address");
	is_u64(d.iaddr, 0x4000000000000a30ull, "D-EAR ALAT: instruction address");
	is_str(ia64_dear_mode_name(d.mode), "alat", "D-EAR ALAT: mode name");
}

static void test_btb_empty(void)
{
	uint64_t pmd[8] = { 0x1001, 0x2002, 0x3003, 0x4004, 0x5005, 0x6006, 0x7007, 0x8009 };
	struct ia64_btb b;

	/* bbi=0, full=0: nothing captured, whatever PMD8-15 hold */
	ia64_btb_decode(false, pmd, 0, &b);
	ok(b.nr_entries == 0 && b.nr_branches == 0, "BTB empty: bbi=0 full=0");
	/* all invalid (b=0, mp=0) though wrapped */
	uint64_t inv[8] = { 0x1000, 0x2000, 0x3000, 0x4000, 0x5000, 0x6000, 0x7000, 0x8000 };
	ia64_btb_decode(false, inv, 0x8, &b);
	ok(b.nr_entries == 0 && b.wrapped, "BTB wrapped, all invalid: no entries");
}

static void test_btb_ds0(void)
{
	/* not wrapped, bbi=5: PMD8..PMD12 written.
	 * PMD8  branch 0x4000000000000100, slot 1, taken, predicted  = ...0105
	 * PMD9  target 0x4000000000000800 (b=0 mp=1)                = ...0802
	 * PMD10 invalid (b=0 mp=0)                                  = ...0000
	 * PMD11 branch 0x4000000000000810, not taken (slot 11), mp  = ...081f
	 * PMD12 branch 0x4000000000000900 slot 2 taken mp, b1 and bruflush
	 *       in PMD16 ext for PMD12 (bits 23:20 = 0011)          = ...090b
	 * PMD13 leftover from an earlier run (not walked)           = valid-looking */
	uint64_t pmd[8] = { 0x4000000000000105ull, 0x4000000000000802ull, 0,
			    0x400000000000081full, 0x400000000000090bull, 0x400000000000fff1ull,
			    0, 0 };
	uint64_t pmd16 = 0x5 | (0x3ull << 20);
	struct ia64_btb b;

	ia64_btb_decode(false, pmd, pmd16, &b);
	ok(!b.wrapped && b.nr_entries == 4, "BTB ds=0: 4 valid of 5 written");
	ok(b.entries[0].pmd == 8 && b.entries[0].kind == IA64_BTB_BRANCH, "BTB ds=0: PMD8 branch");
	is_u64(b.entries[0].address, 0x4000000000000100ull, "BTB ds=0: PMD8 bundle");
	ok(b.entries[0].taken && b.entries[0].slot == 1 && !b.entries[0].mispredicted,
	   "BTB ds=0: PMD8 taken slot 1 predicted");
	ok(b.entries[1].pmd == 9 && b.entries[1].kind == IA64_BTB_TARGET, "BTB ds=0: PMD9 target");
	is_u64(b.entries[1].address, 0x4000000000000800ull, "BTB ds=0: PMD9 address");
	ok(b.entries[2].pmd == 11 && !b.entries[2].taken && b.entries[2].mispredicted,
	   "BTB ds=0: PMD10 invalid skipped, PMD11 not taken mispredicted");
	ok(!b.entries[2].bruflush, "BTB ds=0: PMD11 no bruflush (ext 0)");
	ok(b.entries[3].pmd == 12 && b.entries[3].bundle1 && b.entries[3].bruflush,
	   "BTB ds=0: PMD12 b1 and bruflush from PMD16 bits 21:20");
	is_u64(b.entries[3].address, 0x4000000000000910ull, "BTB ds=0: b1 adds 0x10");
	is_str(ia64_btb_kind_name(b.entries[1].kind), "target", "BTB kind name");

	ok(b.nr_branches == 3, "BTB ds=0: three branches");
	is_u64(b.branches[0].source, 0x4000000000000101ull, "pair 0: source bundle|slot");
	ok(b.branches[0].has_target, "pair 0: has target");
	is_u64(b.branches[0].target, 0x4000000000000800ull, "pair 0: target");
	ok(!b.branches[1].taken && !b.branches[1].has_target,
	   "pair 1: not taken, the next branch is not its target");
	ok(b.branches[2].bruflush && !b.branches[2].has_target, "pair 2: open at end of buffer");
	is_u64(b.branches[2].source, 0x4000000000000912ull, "pair 2: b1 bundle | slot 2");
}

static void test_btb_wrap(void)
{
	/* wrapped, bbi=3: oldest is PMD11, order 11..15, 8, 9, 10.
	 * PMD11 target (its branch was overwritten): dropped from pairs
	 * PMD12 branch A slot 0 taken       PMD13 branch B slot 0 taken (A's target bundle,
	 *                                          b1=1 so B is in the window's bundle 1)
	 * PMD14 target of B                 PMD15 branch C slot 2 taken mispredicted (no bruflush)
	 * PMD8  target of C                 PMD9  branch D slot 1
	 * PMD10 target of D (the newest, bbi-1 = 2 -> PMD10) */
	uint64_t pmd[8] = {
		0x0000000000003002ull, /* PMD8 */
		0x0000000000004005ull, /* PMD9 */
		0x0000000000005002ull, /* PMD10 */
		0x0000000000000a02ull, /* PMD11 */
		0x0000000000001001ull, /* PMD12 */
		0x0000000000002001ull, /* PMD13 */
		0x0000000000002802ull, /* PMD14 */
		0x000000000000200bull, /* PMD15 */
	};
	/* full=1 bbi=3; b1 in PMD13's ext (index 5: bits 27:24) */
	uint64_t pmd16 = 0x8 | 0x3 | (0x1ull << 24);
	struct ia64_btb b;

	ia64_btb_decode(false, pmd, pmd16, &b);
	ok(b.wrapped && b.nr_entries == 8, "BTB wrap: 8 entries");
	ok(b.entries[0].pmd == 11 && b.entries[7].pmd == 10, "BTB wrap: oldest PMD11, newest PMD10");
	ok(b.dropped_targets == 1, "BTB wrap: the leading target is dropped");
	ok(b.nr_branches == 4, "BTB wrap: four branches");
	is_u64(b.branches[0].source, 0x1000, "wrap: A");
	is_u64(b.branches[0].target, 0x2000, "wrap: A's target is B's bundle before b1");
	is_u64(b.branches[1].source, 0x2010, "wrap: B in bundle 1");
	is_u64(b.branches[1].target, 0x2800, "wrap: B's target");
	ok(b.branches[2].mispredicted && !b.branches[2].bruflush, "wrap: C mispredicted, no flush");
	is_u64(b.branches[2].source, 0x2002, "wrap: C slot 2");
	is_u64(b.branches[2].target, 0x3000, "wrap: C's target in PMD8");
	is_u64(b.branches[3].target, 0x5000, "wrap: D's target in PMD10");
}

static void test_btb_ds1(void)
{
	/* ds=1: b=0 entries hold region bits 63:61, detail 60:41, address 40:4.
	 * PMD8 branch 0x20000000000a0140 slot 0 taken = ...0141
	 * PMD9 detail: region 001, detail 0xabcde, low bits 0xa0140 >> 4 -> 0x000a014, mp=1
	 *      = 0x2000000000000000 | 0xabcde << 41 | 0xa0140 | 0x2 */
	uint64_t detail = 0x2000000000000000ull | (0xabcdeull << 41) | 0xa0140ull | 0x2;
	uint64_t pmd[8] = { 0x20000000000a0141ull, detail, 0, 0, 0, 0, 0, 0 };
	struct ia64_btb b;

	ok(detail == 0x3579bc00000a0142ull, "ds=1 detail value built as the figure says");
	ia64_btb_decode(true, pmd, 0x2, &b);
	ok(b.nr_entries == 2 && b.entries[1].kind == IA64_BTB_DETAIL, "ds=1: detail entry");
	is_u64(b.entries[1].detail, 0xabcde, "ds=1: prediction detail bits 60:41");
	is_u64(b.entries[1].address, 0x20000000000a0140ull, "ds=1: branch address bits kept");
	ok(b.nr_branches == 1 && b.branches[0].has_detail && !b.branches[0].has_target,
	   "ds=1: the branch gets the detail, no target");
	is_u64(b.branches[0].detail, 0xabcde, "ds=1: pair detail");
	/* the same PMD9 read with ds=0 is a target bundle */
	ia64_btb_decode(false, pmd, 0x2, &b);
	is_u64(b.branches[0].target, 0x3579bc00000a0140ull, "ds=0: same bits are a target");
}

int main(void)
{
	test_modes();
	test_iear();
	test_dear();
	test_btb_empty();
	test_btb_ds0();
	test_btb_wrap();
	test_btb_ds1();
	return tap_done();
}
