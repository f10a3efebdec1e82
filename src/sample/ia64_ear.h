/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Itanium 2 event address registers and branch trace buffer: the raw PMD
 * values decoded into fields, as the Itanium 2 Reference Manual (chapter
 * 10.3.7-10.3.9) lays them out.  Pure functions of register values: no I/O,
 * no allocation, so a dump reader, a sample file reader and the tests can
 * all feed them.
 *
 * Layouts are SHIFT/MASK constants (never bitfields: their layout is the
 * compiler's).  src/pmu/ITANIUM2-NOTES.md says where the manual and the
 * distilled spec disagree and which reading is used.
 */
#ifndef PFMON_SAMPLE_IA64_EAR_H
#define PFMON_SAMPLE_IA64_EAR_H

#include <stdbool.h>
#include <stdint.h>

/* ---- PMC10: I-EAR configuration [Fig 10-18, Tab 10-14] ---- */
#define IA64_PMC10_CT_SHIFT 12
#define IA64_PMC10_CT_MASK 0x3ull /* 1x cache, 00 TLB, 01 nothing monitored */

/* ---- PMD0/PMD1: I-EAR data [Tab 10-16, Tab 10-18] ---- */
#define IA64_PMD0_STAT_MASK 0x3ull
#define IA64_PMD0_ADDR_MASK (~0x1full) /* cache line address, bits 63:5 */
#define IA64_PMD1_LAT_MASK 0xfffull    /* bits 11:0 */
#define IA64_PMD1_OV_SHIFT 12

/* ---- PMC11: D-EAR configuration [Fig 10-20, Tab 10-19] ---- */
#define IA64_PMC11_MODE_SHIFT 7
#define IA64_PMC11_MODE_MASK 0x3ull /* 00 cache, 01 TLB, 1x ALAT */

/* ---- PMD2/PMD3/PMD17: D-EAR data [Tab 10-21, 10-23, 10-24] ---- */
#define IA64_PMD3_LAT_MASK 0x1fffull /* bits 12:0 */
#define IA64_PMD3_OV_SHIFT 13
#define IA64_PMD3_STAT_SHIFT 14
#define IA64_PMD3_STAT_MASK 0x3ull
#define IA64_PMD17_SLOT_MASK 0x3ull
#define IA64_PMD17_BN_SHIFT 2
#define IA64_PMD17_VL_SHIFT 3
#define IA64_PMD17_ADDR_MASK (~0xfull) /* first bundle of the dispersal window */

/* ---- PMC12: BTB configuration [Fig 10-22, Tab 10-25] ---- */
#define IA64_PMC12_DS_SHIFT 7

/* ---- PMD8-PMD15: BTB entries [Fig 10-23, 10-24, Tab 10-26] ---- */
#define IA64_BTB_B_SHIFT 0
#define IA64_BTB_MP_SHIFT 1
#define IA64_BTB_SLOT_SHIFT 2
#define IA64_BTB_SLOT_MASK 0x3ull
#define IA64_BTB_SLOT_NOT_TAKEN 3
#define IA64_BTB_ADDR_MASK (~0xfull)               /* bundle address, 63:4 */
#define IA64_BTB_DS1_ADDR_LOW_MASK 0x1fffffffff0ull /* branch address bits 40:4 */
#define IA64_BTB_DS1_ADDR_HIGH_MASK (0x7ull << 61)  /* branch address bits 63:61 */
#define IA64_BTB_DS1_DETAIL_SHIFT 41
#define IA64_BTB_DS1_DETAIL_MASK 0xfffffull         /* 20 bits, 60:41 */

/* ---- PMD16: BTB index [Fig 10-25, Tab 10-27] ---- */
#define IA64_PMD16_BBI_MASK 0x7ull
#define IA64_PMD16_FULL_SHIFT 3
#define IA64_PMD16_EXT_SHIFT 4 /* PMD(8+i)'s 4 extension bits at 4 + 4*i */
#define IA64_PMD16_EXT_WIDTH 4
#define IA64_BTB_EXT_B1 0x1u       /* the branch is in bundle 1: + 0x10 */
#define IA64_BTB_EXT_BRUFLUSH 0x2u /* back-end mispredict, pipeline flushed */

#define IA64_BUNDLE_SIZE 16
#define IA64_BTB_ENTRIES 8
#define IA64_BTB_FIRST_PMD 8

enum ia64_iear_mode {
	IA64_IEAR_OFF = 0, /* PMC10 not in use, or ct=01 (nothing monitored) */
	IA64_IEAR_CACHE,
	IA64_IEAR_TLB,
};

enum ia64_dear_mode {
	IA64_DEAR_OFF = 0, /* PMC11 not in use */
	IA64_DEAR_CACHE,
	IA64_DEAR_TLB,
	IA64_DEAR_ALAT,
};

/* who serviced a TLB miss; the stat codes 01, 10, 11 of both EARs */
enum ia64_tlb_level {
	IA64_TLB_NONE = 0,
	IA64_TLB_L2,    /* L2TLB (I-EAR) / L2DTLB (D-EAR) */
	IA64_TLB_VHPT,
	IA64_TLB_FAULT, /* serviced by software */
};

struct ia64_iear {
	enum ia64_iear_mode mode;
	bool valid;
	uint64_t address;      /* cache line address: PMD0 with bits 4:0 clear */
	bool has_latency;      /* cache mode and valid */
	uint32_t latency;      /* cycles */
	bool overflow;         /* the latency counter overflowed (has_latency) */
	enum ia64_tlb_level tlb; /* TLB mode and valid */
};

struct ia64_dear {
	enum ia64_dear_mode mode;
	bool valid;            /* PMD3.stat says a captured event */
	bool has_data_address; /* cache and TLB modes, when valid */
	uint64_t data_address;
	bool has_latency;      /* cache mode, when valid */
	uint32_t latency;
	bool overflow;
	enum ia64_tlb_level tlb; /* TLB mode, when valid */
	bool has_iaddr;        /* PMD17.vl */
	uint64_t iaddr;        /* bundle address of the instruction (bn applied) */
	unsigned slot;         /* its slot, 0-2 (has_iaddr) */
};

enum ia64_btb_kind {
	IA64_BTB_BRANCH, /* b=1: a branch instruction */
	IA64_BTB_TARGET, /* b=0, ds=0: a branch target bundle */
	IA64_BTB_DETAIL, /* b=0, ds=1: prediction detail of a branch */
};

struct ia64_btb_entry {
	uint8_t pmd;           /* 8..15 */
	enum ia64_btb_kind kind;
	uint64_t address;      /* branch/target bundle; for detail, the branch bundle bits kept */
	bool taken;            /* branch: slot != 3 */
	uint8_t slot;          /* branch and taken: slot of the first taken branch */
	bool mispredicted;     /* branch */
	bool bruflush;         /* branch and mispredicted: back-end flush (PMD16 ext) */
	bool bundle1;          /* branch: PMD16's b1 bit, already added to address */
	uint32_t detail;       /* detail: the 20 prediction detail bits */
};

/* a branch paired with what the next valid entry says of it */
struct ia64_btb_branch {
	uint8_t pmd;           /* the branch entry's PMD */
	uint64_t source;       /* bundle address | slot (slot 0 when not taken) */
	bool taken, mispredicted, bruflush;
	bool has_target;
	uint64_t target;       /* target bundle address */
	bool has_detail;       /* ds=1: the detail entry that followed */
	uint32_t detail;
};

struct ia64_btb {
	bool ds;               /* PMC12.ds: b=0 entries are prediction detail */
	bool wrapped;          /* PMD16.full */
	uint8_t nr_entries;    /* valid entries, oldest first */
	struct ia64_btb_entry entries[IA64_BTB_ENTRIES];
	uint8_t nr_branches;
	struct ia64_btb_branch branches[IA64_BTB_ENTRIES];
	uint8_t dropped_targets; /* b=0 entries whose branch was overwritten or absent */
};

enum ia64_iear_mode ia64_iear_mode_of(uint64_t pmc10);
enum ia64_dear_mode ia64_dear_mode_of(uint64_t pmc11);
bool ia64_btb_ds_of(uint64_t pmc12);

void ia64_iear_decode(enum ia64_iear_mode mode, uint64_t pmd0, uint64_t pmd1,
		      struct ia64_iear *out);
void ia64_dear_decode(enum ia64_dear_mode mode, uint64_t pmd2, uint64_t pmd3, uint64_t pmd17,
		      struct ia64_dear *out);
/* pmd[0..7] are PMD8..PMD15 */
void ia64_btb_decode(bool ds, const uint64_t pmd[IA64_BTB_ENTRIES], uint64_t pmd16,
		     struct ia64_btb *out);

/* names used by every printer (JSON and text agree) */
const char *ia64_iear_mode_name(enum ia64_iear_mode m);  /* "cache", "tlb" */
const char *ia64_dear_mode_name(enum ia64_dear_mode m);  /* "cache", "tlb", "alat" */
const char *ia64_tlb_name(enum ia64_tlb_level t, bool data); /* "L2TLB"/"L2DTLB", "VHPT", "FAULT" */
const char *ia64_btb_kind_name(enum ia64_btb_kind k);    /* "branch", "target", "detail" */

#endif
