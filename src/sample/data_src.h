/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PERF_SAMPLE_DATA_SRC: the kernel's union perf_mem_data_src (where a
 * sampled load or store found its data: cache level, snoop, TLB, lock,
 * blocking), decoded with shifts and masks of the little-endian layout of
 * include/uapi/linux/perf_event.h, and named in the words perf 6.1 prints
 * (perf report --mem-mode's columns, perf script -F data_src), so that a
 * report of pfmon reads as perf's of the same bytes.
 */
#ifndef PFMON_SAMPLE_DATA_SRC_H
#define PFMON_SAMPLE_DATA_SRC_H

#include <stdint.h>

#include "common/util.h"

/* each field's shift and width, in the kernel's order */
#define DATA_SRC_OP_SHIFT      0
#define DATA_SRC_OP_MASK       0x1fu
#define DATA_SRC_LVL_SHIFT     5
#define DATA_SRC_LVL_MASK      0x3fffu
#define DATA_SRC_SNOOP_SHIFT   19
#define DATA_SRC_SNOOP_MASK    0x1fu
#define DATA_SRC_LOCK_SHIFT    24
#define DATA_SRC_LOCK_MASK     0x3u
#define DATA_SRC_TLB_SHIFT     26
#define DATA_SRC_TLB_MASK      0x7fu
#define DATA_SRC_LVLNUM_SHIFT  33
#define DATA_SRC_LVLNUM_MASK   0xfu
#define DATA_SRC_REMOTE_SHIFT  37
#define DATA_SRC_REMOTE_MASK   0x1u
#define DATA_SRC_SNOOPX_SHIFT  38
#define DATA_SRC_SNOOPX_MASK   0x3u
#define DATA_SRC_BLK_SHIFT     40
#define DATA_SRC_BLK_MASK      0x7u
#define DATA_SRC_HOPS_SHIFT    43
#define DATA_SRC_HOPS_MASK     0x7u

/* bits inside the fields that the names test */
#define DATA_SRC_LVL_HIT   0x2u
#define DATA_SRC_LVL_MISS  0x4u
#define DATA_SRC_TLB_HIT   0x2u
#define DATA_SRC_TLB_MISS  0x4u
#define DATA_SRC_LOCK_NA   0x1u
#define DATA_SRC_LOCKED    0x2u
#define DATA_SRC_BLK_NA    0x1u
#define DATA_SRC_BLK_DATA  0x2u
#define DATA_SRC_BLK_ADDR  0x4u
#define DATA_SRC_SNOOPX_FWD 0x1u
#define DATA_SRC_SNOOPX_PEER 0x2u

/* What a sample without a data source is taken as (perf's
 * PERF_MEM_DATA_SRC_NONE: every field "not available"). */
#define DATA_SRC_NONE \
	((1ull << DATA_SRC_OP_SHIFT) | (1ull << DATA_SRC_LVL_SHIFT) | (1ull << DATA_SRC_SNOOP_SHIFT) | \
	 (1ull << DATA_SRC_LOCK_SHIFT) | (1ull << DATA_SRC_TLB_SHIFT))

struct data_src {
	uint32_t op, lvl, snoop, lock, tlb, lvl_num, remote, snoopx, blk, hops;
};

struct data_src data_src_decode(uint64_t v);

/*
 * The parts of a data source each name depends on (the bits of v the
 * name reads, others cleared): two samples whose parts are equal have one
 * name, so a report can key by them before naming.
 */
enum data_src_part {
	DATA_SRC_PART_MEM,     /* perf's "mem": level, remote, hops */
	DATA_SRC_PART_SNOOP,   /* "snoop": snoop and snoopx */
	DATA_SRC_PART_TLB,     /* "tlb" */
	DATA_SRC_PART_LOCK,    /* "locked" */
	DATA_SRC_PART_BLOCKED, /* "blocked" */
	DATA_SRC_PART_OP,      /* perf script's OP */
};
uint64_t data_src_part(uint64_t v, enum data_src_part part);
/* that part's name into sb, as perf 6.1 prints it (blocked without
 * perf's leading blank) */
void data_src_name(struct strbuf *sb, uint64_t v, enum data_src_part part);

#endif
