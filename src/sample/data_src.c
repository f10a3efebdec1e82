/* SPDX-License-Identifier: GPL-2.0-or-later */
/* PERF_SAMPLE_DATA_SRC decoded and named: see data_src.h. */
#include <config.h>

#include "sample/data_src.h"

#define FIELD(v, name) ((uint32_t)(((v) >> DATA_SRC_##name##_SHIFT) & DATA_SRC_##name##_MASK))

struct data_src data_src_decode(uint64_t v)
{
	return (struct data_src){
		.op = FIELD(v, OP), .lvl = FIELD(v, LVL), .snoop = FIELD(v, SNOOP),
		.lock = FIELD(v, LOCK), .tlb = FIELD(v, TLB), .lvl_num = FIELD(v, LVLNUM),
		.remote = FIELD(v, REMOTE), .snoopx = FIELD(v, SNOOPX), .blk = FIELD(v, BLK),
		.hops = FIELD(v, HOPS),
	};
}

#define KEEP(v, name) ((v) & ((uint64_t)DATA_SRC_##name##_MASK << DATA_SRC_##name##_SHIFT))

uint64_t data_src_part(uint64_t v, enum data_src_part part)
{
	switch (part) {
	case DATA_SRC_PART_MEM:
		return KEEP(v, LVL) | KEEP(v, LVLNUM) | KEEP(v, REMOTE) | KEEP(v, HOPS);
	case DATA_SRC_PART_SNOOP:
		return KEEP(v, SNOOP) | KEEP(v, SNOOPX);
	case DATA_SRC_PART_TLB:
		return KEEP(v, TLB);
	case DATA_SRC_PART_LOCK:
		return KEEP(v, LOCK);
	case DATA_SRC_PART_BLOCKED:
		return KEEP(v, BLK);
	case DATA_SRC_PART_OP:
	default:
		return KEEP(v, OP);
	}
}

/* The names of a bit mask's bits (lowest first, NULL: never named), joined
 * by " or "; how many were named. */
static unsigned join_bits(struct strbuf *sb, uint32_t mask, const char *const *names, unsigned n)
{
	unsigned named = 0;

	for (unsigned i = 0; i < n; i++) {
		if (!(mask & (1u << i)) || !names[i])
			continue;
		strbuf_addf(sb, "%s%s", named++ ? " or " : "", names[i]);
	}
	return named;
}

/* mem_lvl's bits; HIT and MISS are the suffix, not a level */
static const char *const lvl_names[] = {
	"N/A", NULL, NULL, "L1", "LFB/MAB", "L2", "L3", "Local RAM", "Remote RAM (1 hop)",
	"Remote RAM (2 hops)", "Remote Cache (1 hop)", "Remote Cache (2 hops)", "I/O", "Uncached",
};

/* mem_lvl_num's values perf 6.1 has a word for; the others are "L<n>" */
static const char *const lvlnum_names[16] = {
	[0x9] = "CXL", [0xa] = "I/O", [0xb] = "Any cache", [0xc] = "LFB/MAB", [0xd] = "RAM", [0xe] = "PMEM", [0xf] = "N/A",
};

/* mem_hops: how far the remote level is */
static const char *const hops_names[] = {
	"N/A", "core, same node", "node, same socket", "socket, same board", "board",
};

/*
 * perf 6.1's "mem": "Remote " when remote; then either the hops (when
 * set) or the legacy level bits joined by " or "; then the level number
 * (after " or " when legacy levels were named); "N/A" when all that is
 * empty; then " hit" and " miss" as the bits say.
 */
static void name_mem(struct strbuf *sb, const struct data_src *d)
{
	size_t start = sb->len;
	unsigned named = 0;

	if (d->remote)
		strbuf_addstr(sb, "Remote ");
	if (d->hops)
		strbuf_addf(sb, "%s ", d->hops < ARRAY_SIZE(hops_names) ? hops_names[d->hops] : "N/A");
	else
		named = join_bits(sb, d->lvl, lvl_names, ARRAY_SIZE(lvl_names));
	if (d->lvl_num) {
		if (named)
			strbuf_addstr(sb, " or ");
		if (lvlnum_names[d->lvl_num])
			strbuf_addstr(sb, lvlnum_names[d->lvl_num]);
		else
			strbuf_addf(sb, "L%u", d->lvl_num);
	}
	if (sb->len == start)
		strbuf_addstr(sb, "N/A");
	if (d->lvl & DATA_SRC_LVL_HIT)
		strbuf_addstr(sb, " hit");
	if (d->lvl & DATA_SRC_LVL_MISS)
		strbuf_addstr(sb, " miss");
}

static const char *const snoop_names[] = { "N/A", "None", "Hit", "Miss", "HitM" };

static void name_snoop(struct strbuf *sb, const struct data_src *d)
{
	unsigned named = join_bits(sb, d->snoop, snoop_names, ARRAY_SIZE(snoop_names));

	if (d->snoopx & DATA_SRC_SNOOPX_FWD)
		strbuf_addf(sb, "%sFwd", named++ ? " or " : "");
	if (d->snoopx & DATA_SRC_SNOOPX_PEER)
		strbuf_addf(sb, "%sPeer", named++ ? " or " : "");
	if (!named)
		strbuf_addstr(sb, "N/A");
}

/* mem_dtlb's bits; HIT and MISS are the suffix */
static const char *const tlb_names[] = { "N/A", NULL, NULL, "L1", "L2", "Walker", "Fault" };

static void name_tlb(struct strbuf *sb, const struct data_src *d)
{
	if (!join_bits(sb, d->tlb, tlb_names, ARRAY_SIZE(tlb_names)))
		strbuf_addstr(sb, "N/A");
	if (d->tlb & DATA_SRC_TLB_HIT)
		strbuf_addstr(sb, " hit");
	if (d->tlb & DATA_SRC_TLB_MISS)
		strbuf_addstr(sb, " miss");
}

static void name_blocked(struct strbuf *sb, const struct data_src *d)
{
	if (!d->blk || (d->blk & DATA_SRC_BLK_NA)) {
		strbuf_addstr(sb, "N/A");
		return;
	}
	if (d->blk & DATA_SRC_BLK_DATA)
		strbuf_addstr(sb, "Data");
	if (d->blk & DATA_SRC_BLK_ADDR)
		strbuf_addstr(sb, d->blk & DATA_SRC_BLK_DATA ? " Addr" : "Addr");
}

/* mem_op: the first of its bits that is set */
static const char *op_name(uint32_t op)
{
	static const char *const names[] = { "N/A", "LOAD", "STORE", "PFETCH", "EXEC" };

	for (unsigned i = 0; i < ARRAY_SIZE(names); i++)
		if (op & (1u << i))
			return names[i];
	return "No";
}

void data_src_name(struct strbuf *sb, uint64_t v, enum data_src_part part)
{
	struct data_src d = data_src_decode(v);

	switch (part) {
	case DATA_SRC_PART_MEM:
		name_mem(sb, &d);
		return;
	case DATA_SRC_PART_SNOOP:
		name_snoop(sb, &d);
		return;
	case DATA_SRC_PART_TLB:
		name_tlb(sb, &d);
		return;
	case DATA_SRC_PART_LOCK:
		strbuf_addstr(sb, (d.lock & DATA_SRC_LOCK_NA) ? "N/A" : (d.lock & DATA_SRC_LOCKED) ? "Yes" : "No");
		return;
	case DATA_SRC_PART_BLOCKED:
		name_blocked(sb, &d);
		return;
	case DATA_SRC_PART_OP:
	default:
		strbuf_addstr(sb, op_name(d.op));
	}
}
