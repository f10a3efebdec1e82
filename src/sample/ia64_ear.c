/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Itanium 2 EAR and BTB register decoding (manual chapter 10.3.7-10.3.9). */
#include <config.h>

#include <string.h>

#include "sample/ia64_ear.h"

static unsigned field(uint64_t v, unsigned shift, uint64_t mask)
{
	return (unsigned)((v >> shift) & mask);
}

static bool bit(uint64_t v, unsigned shift)
{
	return (v >> shift) & 1;
}

enum ia64_iear_mode ia64_iear_mode_of(uint64_t pmc10)
{
	unsigned ct = field(pmc10, IA64_PMC10_CT_SHIFT, IA64_PMC10_CT_MASK);

	/* Tab 10-14: 1x cache, 00 TLB, 01 nothing is monitored */
	if (ct & 2)
		return IA64_IEAR_CACHE;
	return ct == 0 ? IA64_IEAR_TLB : IA64_IEAR_OFF;
}

enum ia64_dear_mode ia64_dear_mode_of(uint64_t pmc11)
{
	unsigned mode = field(pmc11, IA64_PMC11_MODE_SHIFT, IA64_PMC11_MODE_MASK);

	/* Tab 10-19: 00 cache, 01 TLB, 1x ALAT */
	if (mode & 2)
		return IA64_DEAR_ALAT;
	return mode ? IA64_DEAR_TLB : IA64_DEAR_CACHE;
}

bool ia64_btb_ds_of(uint64_t pmc12)
{
	return bit(pmc12, IA64_PMC12_DS_SHIFT);
}

void ia64_iear_decode(enum ia64_iear_mode mode, uint64_t pmd0, uint64_t pmd1,
		      struct ia64_iear *out)
{
	unsigned stat = field(pmd0, 0, IA64_PMD0_STAT_MASK);

	memset(out, 0, sizeof(*out));
	out->mode = mode;
	out->address = pmd0 & IA64_PMD0_ADDR_MASK;
	if (mode == IA64_IEAR_CACHE) {
		/* Tab 10-16: stat x1 valid; bit 1 is undefined in cache mode */
		out->valid = stat & 1;
		if (out->valid) {
			out->has_latency = true;
			out->latency = (uint32_t)(pmd1 & IA64_PMD1_LAT_MASK);
			out->overflow = bit(pmd1, IA64_PMD1_OV_SHIFT);
		}
	} else if (mode == IA64_IEAR_TLB) {
		/* Tab 10-18: 00 none, 01 L2 ITLB, 10 VHPT, 11 fault */
		out->valid = stat != 0;
		out->tlb = (enum ia64_tlb_level)stat;
	}
}

void ia64_dear_decode(enum ia64_dear_mode mode, uint64_t pmd2, uint64_t pmd3, uint64_t pmd17,
		      struct ia64_dear *out)
{
	unsigned stat = field(pmd3, IA64_PMD3_STAT_SHIFT, IA64_PMD3_STAT_MASK);

	memset(out, 0, sizeof(*out));
	out->mode = mode;
	if (mode == IA64_DEAR_OFF)
		return;
	if (mode == IA64_DEAR_TLB) {
		/* Tab 10-23: 00 invalid, 01 L2 DTLB, 10 VHPT, 11 fault */
		out->valid = stat != 0;
		out->tlb = (enum ia64_tlb_level)stat;
	} else {
		/* Tab 10-21, 10-24: 00 invalid, 01 valid; 1x is not defined, and
		 * an undefined code is not taken for a capture */
		out->valid = stat == 1;
	}
	if (!out->valid)
		return;
	if (mode != IA64_DEAR_ALAT) { /* PMD2 is undefined in ALAT mode */
		out->has_data_address = true;
		out->data_address = pmd2;
	}
	if (mode == IA64_DEAR_CACHE) {
		out->has_latency = true;
		out->latency = (uint32_t)(pmd3 & IA64_PMD3_LAT_MASK);
		out->overflow = bit(pmd3, IA64_PMD3_OV_SHIFT);
	}
	if (bit(pmd17, IA64_PMD17_VL_SHIFT)) {
		out->has_iaddr = true;
		out->iaddr = (pmd17 & IA64_PMD17_ADDR_MASK) +
			     (bit(pmd17, IA64_PMD17_BN_SHIFT) ? IA64_BUNDLE_SIZE : 0);
		out->slot = field(pmd17, 0, IA64_PMD17_SLOT_MASK);
	}
}

static unsigned btb_ext(uint64_t pmd16, unsigned idx)
{
	return field(pmd16, IA64_PMD16_EXT_SHIFT + IA64_PMD16_EXT_WIDTH * idx, 0xf);
}

/* One PMD8-15 value; false for an invalid entry (b=0, mp=0). */
static bool btb_entry_decode(bool ds, uint64_t e, unsigned ext, unsigned idx,
			     struct ia64_btb_entry *out)
{
	bool b = bit(e, IA64_BTB_B_SHIFT), mp = bit(e, IA64_BTB_MP_SHIFT);
	unsigned slot = field(e, IA64_BTB_SLOT_SHIFT, IA64_BTB_SLOT_MASK);

	if (!b && !mp)
		return false;
	memset(out, 0, sizeof(*out));
	out->pmd = (uint8_t)(IA64_BTB_FIRST_PMD + idx);
	if (b) {
		out->kind = IA64_BTB_BRANCH;
		out->bundle1 = ext & IA64_BTB_EXT_B1;
		out->address = (e & IA64_BTB_ADDR_MASK) + (out->bundle1 ? IA64_BUNDLE_SIZE : 0);
		out->taken = slot != IA64_BTB_SLOT_NOT_TAKEN;
		out->slot = out->taken ? (uint8_t)slot : 0;
		out->mispredicted = mp;
		out->bruflush = mp && (ext & IA64_BTB_EXT_BRUFLUSH);
	} else if (!ds) {
		out->kind = IA64_BTB_TARGET;
		out->address = e & IA64_BTB_ADDR_MASK;
	} else {
		out->kind = IA64_BTB_DETAIL;
		out->address = e & (IA64_BTB_DS1_ADDR_HIGH_MASK | IA64_BTB_DS1_ADDR_LOW_MASK);
		out->detail = field(e, IA64_BTB_DS1_DETAIL_SHIFT, IA64_BTB_DS1_DETAIL_MASK);
	}
	return true;
}

/*
 * Pair branches with their targets (spec F.3): the valid entry after a
 * branch closes it.  A target/detail entry gives its target or detail; a
 * branch entry gives the target bundle of a taken branch (the target bundle
 * held the next branch): the first bundle of that branch's dispersal window,
 * its address before the b1 correction.  A target with no branch before it
 * (overwritten at wrap-around) is dropped.
 */
static void btb_pair(struct ia64_btb *btb)
{
	struct ia64_btb_branch *open = NULL;

	for (unsigned i = 0; i < btb->nr_entries; i++) {
		const struct ia64_btb_entry *e = &btb->entries[i];

		if (e->kind != IA64_BTB_BRANCH) {
			if (!open) {
				btb->dropped_targets++;
				continue;
			}
			if (e->kind == IA64_BTB_TARGET) {
				open->has_target = true;
				open->target = e->address;
			} else {
				open->has_detail = true;
				open->detail = e->detail;
			}
			open = NULL;
			continue;
		}
		if (open && open->taken) {
			open->has_target = true;
			open->target = e->address - (e->bundle1 ? IA64_BUNDLE_SIZE : 0);
		}
		open = &btb->branches[btb->nr_branches++];
		memset(open, 0, sizeof(*open));
		open->pmd = e->pmd;
		open->source = e->address | e->slot;
		open->taken = e->taken;
		open->mispredicted = e->mispredicted;
		open->bruflush = e->bruflush;
	}
}

void ia64_btb_decode(bool ds, const uint64_t pmd[IA64_BTB_ENTRIES], uint64_t pmd16,
		     struct ia64_btb *out)
{
	unsigned bbi = field(pmd16, 0, IA64_PMD16_BBI_MASK);
	bool full = bit(pmd16, IA64_PMD16_FULL_SHIFT);
	/* Tab 10-27: bbi is the next entry to write, so when the buffer has
	 * wrapped it is the oldest; before that, PMD8 is */
	unsigned n = full ? IA64_BTB_ENTRIES : bbi;
	unsigned first = full ? bbi : 0;

	memset(out, 0, sizeof(*out));
	out->ds = ds;
	out->wrapped = full;
	for (unsigned k = 0; k < n; k++) {
		unsigned idx = (first + k) % IA64_BTB_ENTRIES;

		if (btb_entry_decode(ds, pmd[idx], btb_ext(pmd16, idx), idx,
				     &out->entries[out->nr_entries]))
			out->nr_entries++;
	}
	btb_pair(out);
}

const char *ia64_iear_mode_name(enum ia64_iear_mode m)
{
	return m == IA64_IEAR_CACHE ? "cache" : m == IA64_IEAR_TLB ? "tlb" : "off";
}

const char *ia64_dear_mode_name(enum ia64_dear_mode m)
{
	static const char *const names[] = { "off", "cache", "tlb", "alat" };

	return names[m];
}

const char *ia64_tlb_name(enum ia64_tlb_level t, bool data)
{
	static const char *const names[] = { "none", "L2TLB", "VHPT", "FAULT" };

	if (t == IA64_TLB_L2 && data)
		return "L2DTLB";
	return names[t];
}

const char *ia64_btb_kind_name(enum ia64_btb_kind k)
{
	static const char *const names[] = { "branch", "target", "detail" };

	return names[k];
}
