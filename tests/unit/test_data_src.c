/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PERF_SAMPLE_DATA_SRC names against perf 6.1's, golden rows: each value
 * below was written into a perf.data file (tests/bats/perfdata_mem.py) and
 * the strings are what perf script -F data_src and perf report --mem-mode
 * printed for it.  The values are literal on purpose: built with the
 * decoder's own shifts, they would agree with any mistake in them.
 */
#include <config.h>

#include "common/util.h"
#include "sample/data_src.h"
#include "tap.h"

static const struct {
	uint64_t v;
	const char *op, *mem, *snoop, *tlb, *lock, *blocked;
} rows[] = {
	{ 0x69100142, "LOAD", "L1 hit", "None", "L1 or L2 hit", "N/A", "N/A" },
	{ 0x69100242, "LOAD", "LFB/MAB hit", "None", "L1 or L2 hit", "N/A", "N/A" },
	{ 0x6a100442, "LOAD", "L2 hit", "None", "L1 or L2 hit", "Yes", "N/A" },
	{ 0xd1800842, "LOAD", "L3 hit", "HitM", "L2 or Walker miss", "N/A", "N/A" },
	{ 0x20091400882, "LOAD", "L3 miss", "Miss", "Walker miss", "N/A", "Data" },
	{ 0x2029808042, "LOAD", "Remote Remote Cache (1 hop) hit", "HitM", "L1 hit", "N/A", "N/A" },
	{ 0x40069201042, "LOAD", "Local RAM hit", "Hit", "L1 or L2 hit", "N/A", "Addr" },
	{ 0x103a29202042, "LOAD", "Remote node, same socket RAM hit", "Hit", "L1 hit", "N/A", "N/A" },
	{ 0x229100142, "LOAD", "L1 or L1 hit", "None", "L1 hit", "N/A", "N/A" },
	{ 0x83609080042, "LOAD", "Remote core, same node Any cache hit", "N/A", "N/A hit", "N/A", "N/A" },
	{ 0x5809100242, "LOAD", "LFB/MAB or LFB/MAB hit", "None or Fwd", "N/A hit", "N/A", "N/A" },
	{ 0x6002a080144, "STORE", "L1 hit", "N/A", "L1 hit", "Yes", "Data Addr" },
	{ 0x51080184, "STORE", "L1 miss", "N/A", "L2 miss", "N/A", "N/A" },
	{ 0x11e05080021, "N/A", "N/A or N/A", "N/A", "N/A", "N/A", "N/A" },
	{ 0, "No", "N/A", "N/A", "N/A", "No", "N/A" },
};

static void check(uint64_t v, enum data_src_part part, const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	static const char *const parts[] = { "mem", "snoop", "tlb", "lock", "blocked", "op" };

	data_src_name(&sb, v, part);
	is_str(strbuf_str(&sb), want, "0x%llx %s", (unsigned long long)v, parts[part]);
	strbuf_release(&sb);
}

int main(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		check(rows[i].v, DATA_SRC_PART_OP, rows[i].op);
		check(rows[i].v, DATA_SRC_PART_MEM, rows[i].mem);
		check(rows[i].v, DATA_SRC_PART_SNOOP, rows[i].snoop);
		check(rows[i].v, DATA_SRC_PART_TLB, rows[i].tlb);
		check(rows[i].v, DATA_SRC_PART_LOCK, rows[i].lock);
		check(rows[i].v, DATA_SRC_PART_BLOCKED, rows[i].blocked);
	}
	/* a part keeps the bits its name reads, and only those */
	ok(data_src_part(0x2029808042, DATA_SRC_PART_MEM) == 0x2000008040, "mem: level, remote");
	ok(data_src_part(0x5809100242, DATA_SRC_PART_SNOOP) == 0x4000100000, "snoop: snoop and snoopx");
	ok(data_src_part(0x103a29202042, DATA_SRC_PART_MEM) == 0x103a00002040, "mem: hops, level number");
	ok(data_src_decode(0x103a29202042).hops == 2 && data_src_decode(0x103a29202042).lvl_num == 0xd,
	   "fields at the kernel's shifts");
	/* level numbers perf 6.1 has a word for (CXL) and has not (L5) */
	check(0x9ull << 33, DATA_SRC_PART_MEM, "CXL");
	check(0x5ull << 33, DATA_SRC_PART_MEM, "L5");
	check(0x2ull << 38, DATA_SRC_PART_SNOOP, "Peer");
	return tap_done();
}
