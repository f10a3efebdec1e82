/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * AMD IBS registers from PERF_SAMPLE_RAW: read, decoded, printed, and an
 * op's memory fields derived as the kernel derives them (ibs.h).
 *
 * The raw data is the kernel's struct perf_ibs_data from its caps word on:
 * u32 caps, then u64 MSRs in a fixed order, the optional ones present only
 * when the caps say so (IbsBrTarget with BRNTRGT, then IbsOpData4 with
 * OPDATA4; IbsExtdCtl with FETCHCTLEXTD).  Fields are taken with shifts
 * and masks of AMD's bit numbers, never C bitfields.
 */
#include <config.h>

#include <inttypes.h>
#include <string.h>

#include "sample/ibs.h"
#include "sample/data_src.h"

static uint64_t field(uint64_t v, unsigned lo, unsigned hi)
{
	unsigned w = hi - lo + 1;

	return (v >> lo) & (w == 64 ? ~0ull : (1ull << w) - 1);
}

static uint32_t bit(uint64_t v, unsigned b)
{
	return (uint32_t)(v >> b & 1);
}

static uint64_t le64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* the registers the kernel puts in each sample, in raw order */
static const enum ibs_reg op_order[] = {
	IBS_OP_CTL, IBS_OP_RIP, IBS_OP_DATA, IBS_OP_DATA2, IBS_OP_DATA3, IBS_DC_LIN_AD, IBS_DC_PHYS_AD,
};
static const enum ibs_reg fetch_order[] = { IBS_FETCH_CTL, IBS_FETCH_LIN_AD, IBS_FETCH_PHYS_AD };

bool ibs_read(enum ibs_kind kind, const void *raw, uint32_t raw_size, struct ibs_sample *out)
{
	const unsigned char *p = raw;
	enum ibs_reg regs[IBS_NREGS];
	size_t n = 0, have;

	memset(out, 0, sizeof(*out));
	out->kind = kind;
	if (kind == IBS_NONE || !raw || raw_size < 4)
		return false;
	out->caps = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	if (kind == IBS_OP) {
		memcpy(regs, op_order, sizeof(op_order));
		n = ARRAY_SIZE(op_order);
		if (out->caps & IBS_CAPS_BRNTRGT)
			regs[n++] = IBS_BR_TARGET;
		if (out->caps & IBS_CAPS_OPDATA4)
			regs[n++] = IBS_OP_DATA4;
	} else {
		memcpy(regs, fetch_order, sizeof(fetch_order));
		n = ARRAY_SIZE(fetch_order);
		if (out->caps & IBS_CAPS_FETCHCTLEXTD)
			regs[n++] = IBS_EXTD_CTL;
	}
	have = (raw_size - 4) / 8;
	for (size_t i = 0; i < n && i < have; i++) {
		out->reg[regs[i]] = le64(p + 4 + 8 * i);
		out->have |= 1u << regs[i];
	}
	/* more than the caps name: kept apart, said by ibs_undecoded() */
	if (have > n)
		out->have |= 1u << IBS_NREGS;
	return have >= (kind == IBS_OP ? ARRAY_SIZE(op_order) : ARRAY_SIZE(fetch_order));
}

static bool has(const struct ibs_sample *s, enum ibs_reg r)
{
	return s->have >> r & 1;
}

/* ----- the fields of IbsOpData2/3 the derivations read ----- */

#define D3_LD_OP          0
#define D3_ST_OP          1
#define D3_L1TLB_MISS     2
#define D3_L2TLB_MISS     3
#define D3_DC_MISS        7
#define D3_UC_MEM_ACC     14
#define D3_LOCKED_OP      15
#define D3_NO_MAB_ALLOC   16
#define D3_LIN_ADDR_VALID 17
#define D3_PHY_ADDR_VALID 18
#define D3_L2_MISS        20
#define D3_SW_PF          21
#define D2_RMT_NODE       4
#define D2_CACHE_HIT_ST   5

/* Erratum #1293 (family 19h models 00h-0Fh): with SwPf or
 * DcMissNoMabAlloc, L2Miss, OpDcMissOpenMemReqs and IbsOpData2 are wrong */
static bool erratum_1293(const struct ibs_cpu *cpu, uint64_t d3)
{
	return cpu->family == 0x19 && cpu->model < 0x10 && (bit(d3, D3_SW_PF) || bit(d3, D3_NO_MAB_ALLOC));
}

/* CacheHitSt is invalid on family 19h models 00h-0Fh and 20h-5Fh */
static bool cache_hit_st_valid(const struct ibs_cpu *cpu)
{
	return !(cpu->family == 0x19 && (cpu->model < 0x10 || (cpu->model >= 0x20 && cpu->model < 0x60)));
}

/* DataSrc: 3 bits, or 5 with the Zen4 extensions (bits 7:6 above) */
static unsigned op_data_src(const struct ibs_sample *s)
{
	uint64_t d2 = s->reg[IBS_OP_DATA2];

	if (s->caps & IBS_CAPS_ZEN4)
		return (unsigned)(field(d2, 6, 7) << 3 | field(d2, 0, 2));
	return (unsigned)field(d2, 0, 2);
}

/* ----- data source (include/uapi/linux/perf_event.h's values) ----- */

#define OP_NA 0x1ull
#define OP_LOAD 0x2ull
#define OP_STORE 0x4ull
#define LVL_NA 0x1ull
#define LVL_HIT 0x2ull
#define LVL_L1 0x8ull
#define LVL_LFB 0x10ull
#define LVL_L2 0x20ull
#define LVL_L3 0x40ull
#define LVL_LOC_RAM 0x80ull
#define LVL_REM_RAM1 0x100ull
#define LVL_REM_CCE1 0x400ull
#define LVL_REM_CCE2 0x800ull
#define LVL_IO 0x1000ull
#define LVL_UNC 0x2000ull
#define LN_L1 0x1ull
#define LN_L2 0x2ull
#define LN_L3 0x3ull
#define LN_UNC 0x8ull
#define LN_CXL 0x9ull
#define LN_IO 0xaull
#define LN_ANY_CACHE 0xbull
#define LN_LFB 0xcull
#define LN_RAM 0xdull
#define LN_PMEM 0xeull
#define LN_NA 0xfull
#define SNOOP_NA 0x1ull
#define SNOOP_HITM 0x10ull
#define TLB_NA 0x1ull
#define TLB_HIT 0x2ull
#define TLB_MISS 0x4ull
#define TLB_L1 0x8ull
#define TLB_L2 0x10ull
#define LOCK_NA 0x1ull
#define LOCKED 0x2ull

/* a level hit (the legacy bits) and its number */
#define L(x) ((LVL_##x | LVL_HIT) << DATA_SRC_LVL_SHIFT)
#define LN(x) (LN_##x << DATA_SRC_LVLNUM_SHIFT)
#define REM (1ull << DATA_SRC_REMOTE_SHIFT)
/* PERF_MEM_HOPS_h: 0 another core of the node, 1 another node */
#define HOPS(h) ((uint64_t)((h) + 1) << DATA_SRC_HOPS_SHIFT)

/* DataSrc of a load that missed the L2, or 0 */
static uint64_t src_table(unsigned src, bool zen4)
{
	static const uint64_t zen4_tbl[] = {
		[1] = L(L3) | LN(L3),
		[2] = L(REM_CCE1) | LN(ANY_CACHE) | REM | HOPS(0),
		[3] = L(LOC_RAM) | LN(RAM),
		[5] = L(REM_CCE2) | LN(ANY_CACHE) | REM | HOPS(1),
		[6] = LN(PMEM),
		[7] = L(IO) | LN(IO),
		[8] = LN(CXL),
	};
	static const uint64_t tbl[] = {
		[2] = L(L3) | L(REM_CCE1) | LN(ANY_CACHE) | HOPS(0),
		[3] = L(LOC_RAM) | LN(RAM),
		[4] = L(REM_CCE2) | LN(ANY_CACHE) | REM | HOPS(1),
		[7] = L(IO) | LN(IO),
	};

	if (zen4)
		return src < ARRAY_SIZE(zen4_tbl) ? zen4_tbl[src] : 0;
	return src < ARRAY_SIZE(tbl) ? tbl[src] : 0;
}

/* the level: the kernel's perf_ibs_get_mem_lvl(), first match wins */
static uint64_t op_level(const struct ibs_sample *s, const struct ibs_cpu *cpu, bool load, unsigned src)
{
	uint64_t d3 = s->reg[IBS_OP_DATA3], v;
	bool zen4 = s->caps & IBS_CAPS_ZEN4;

	if (bit(d3, D3_UC_MEM_ACC) && src != 7)
		return L(UNC) | LN(UNC);
	if (!bit(d3, D3_DC_MISS))
		return L(L1) | LN(L1);
	if (!bit(d3, D3_L2_MISS) && !erratum_1293(cpu, d3))
		return L(L2) | LN(L2);
	/* IbsOpData2 holds a load's source only */
	if (load && (v = src_table(src, zen4)) != 0) {
		bool rmt = bit(s->reg[IBS_OP_DATA2], D2_RMT_NODE);

		if (zen4 && rmt && (src == 3 || src == 6 || src == 8))
			return src == 3 ? L(REM_RAM1) | LN(RAM) | REM | HOPS(1) : v | REM | HOPS(1);
		if (!zen4 && rmt && src == 3)
			return L(REM_RAM1) | LN(RAM) | REM | HOPS(1);
		return v;
	}
	if (bit(d3, D3_NO_MAB_ALLOC))
		return L(LFB) | LN(LFB);
	return (LVL_NA << DATA_SRC_LVL_SHIFT) | LN(NA);
}

/* HitM: a load served by another core's cache holding the line modified */
static uint64_t op_snoop(const struct ibs_sample *s, const struct ibs_cpu *cpu, bool load, uint64_t lvl,
			 unsigned src)
{
	bool zen4 = s->caps & IBS_CAPS_ZEN4;
	uint64_t levels = (LVL_L1 | LVL_L2) << DATA_SRC_LVL_SHIFT;

	if (!cache_hit_st_valid(cpu) || !load || (lvl & levels) || bit(s->reg[IBS_OP_DATA2], D2_CACHE_HIT_ST))
		return SNOOP_NA;
	if (zen4 ? (src == 1 || src == 2 || src == 5) : src == 2)
		return SNOOP_HITM;
	return SNOOP_NA;
}

static uint64_t op_tlb(const struct ibs_sample *s)
{
	uint64_t d3 = s->reg[IBS_OP_DATA3];

	if (!bit(d3, D3_LIN_ADDR_VALID) || ((s->caps & IBS_CAPS_OPDTLBPGSIZE) && !bit(d3, D3_PHY_ADDR_VALID)))
		return TLB_NA;
	if (!bit(d3, D3_L1TLB_MISS))
		return TLB_L1 | TLB_HIT;
	if (!bit(d3, D3_L2TLB_MISS))
		return TLB_L2 | TLB_HIT;
	return TLB_L2 | TLB_MISS;
}

uint64_t ibs_op_data_src(const struct ibs_sample *s, const struct ibs_cpu *cpu)
{
	uint64_t d3 = s->reg[IBS_OP_DATA3], v, lvl;
	bool load = bit(d3, D3_LD_OP);
	struct ibs_sample fixed = *s;
	unsigned src;

	if (!load && !bit(d3, D3_ST_OP))
		return DATA_SRC_NONE;
	/* under the erratum IbsOpData2 says nothing */
	if (erratum_1293(cpu, d3))
		fixed.reg[IBS_OP_DATA2] = 0;
	src = op_data_src(&fixed);
	lvl = op_level(&fixed, cpu, load, src);
	v = (load ? OP_LOAD : OP_STORE) << DATA_SRC_OP_SHIFT;
	v |= lvl;
	v |= op_snoop(&fixed, cpu, load, lvl, src) << DATA_SRC_SNOOP_SHIFT;
	v |= op_tlb(&fixed) << DATA_SRC_TLB_SHIFT;
	v |= (bit(d3, D3_LOCKED_OP) ? LOCKED : LOCK_NA) << DATA_SRC_LOCK_SHIFT;
	return v;
}

void ibs_fill_sample(const struct ibs_sample *ibs, const struct ibs_cpu *cpu, struct sample *s)
{
	uint64_t d3 = ibs->reg[IBS_OP_DATA3];

	if (ibs->kind != IBS_OP)
		return;
	if (!(s->fields & SAMPLE_F_DATA_SRC)) {
		s->data_src = ibs_op_data_src(ibs, cpu);
		s->fields |= SAMPLE_F_DATA_SRC;
	}
	/* the kernel writes 0 for an op without a valid address: none */
	if ((s->fields & SAMPLE_F_ADDR) && !bit(d3, D3_LIN_ADDR_VALID) && !s->addr)
		s->fields &= ~SAMPLE_F_ADDR;
	if (!(s->fields & SAMPLE_F_ADDR) && bit(d3, D3_LIN_ADDR_VALID)) {
		s->addr = ibs->reg[IBS_DC_LIN_AD];
		s->fields |= SAMPLE_F_ADDR;
	}
	if (!(s->fields & SAMPLE_F_PHYS_ADDR) && bit(d3, D3_PHY_ADDR_VALID)) {
		s->phys_addr = ibs->reg[IBS_DC_PHYS_AD];
		s->fields |= SAMPLE_F_PHYS_ADDR;
	}
	/* the kernel's weight: only a load that missed the L1 has one (its
	 * 0 for any other op is no latency) */
	if ((s->fields & SAMPLE_F_WEIGHT) && !(bit(d3, D3_LD_OP) && bit(d3, D3_DC_MISS)) && !s->weight)
		s->fields &= ~(SAMPLE_F_WEIGHT | SAMPLE_F_INS_LAT);
	if (!(s->fields & SAMPLE_F_WEIGHT) && bit(d3, D3_LD_OP) && bit(d3, D3_DC_MISS)) {
		s->weight = field(d3, 32, 47);
		s->ins_lat = (uint32_t)field(ibs->reg[IBS_OP_DATA], 16, 31);
		s->fields |= SAMPLE_F_WEIGHT | SAMPLE_F_INS_LAT;
	}
}

/* ----- printing ----- */

static void reg_head(struct strbuf *sb, const char *name, uint64_t v)
{
	strbuf_addf(sb, "\t%s: 0x%016" PRIx64, name, v);
}

static void fetch_ctl(struct strbuf *sb, const struct ibs_sample *s, const struct ibs_cpu *cpu)
{
	static const char *const pgsz[] = { "4KB", "2MB", "1GB", "RESERVED" };
	/* erratum #1347: family 19h models 00h-0Fh have a 16KB size */
	static const char *const pgsz_1347[] = { "4KB", "16KB", "2MB", "1GB" };
	uint64_t c = s->reg[IBS_FETCH_CTL];
	bool e1347 = cpu->family == 0x19 && cpu->model < 0x10;

	reg_head(sb, "IBS_FETCH_CTL", c);
	strbuf_addf(sb, " MaxCnt %" PRIu64 " Cnt %" PRIu64 " Lat %" PRIu64 " En %u Val %u Comp %u",
		    field(c, 0, 15) << 4, field(c, 16, 31) << 4, field(c, 32, 47), bit(c, 48), bit(c, 49),
		    bit(c, 50));
	/* erratum #1238 on the same models: IcMiss is wrong */
	if (!e1347)
		strbuf_addf(sb, " IcMiss %u", bit(c, 51));
	strbuf_addf(sb, " PhyAddrValid %u", bit(c, 52));
	if (bit(c, 52))
		strbuf_addf(sb, " L1TlbPgSz %s", (e1347 ? pgsz_1347 : pgsz)[field(c, 53, 54)]);
	strbuf_addf(sb, " L1TlbMiss %u L2TlbMiss %u RandEn %u", bit(c, 55), bit(c, 56), bit(c, 57));
	if (bit(c, 50))
		strbuf_addf(sb, " L2Miss %u", bit(c, 58));
	if (s->caps & IBS_CAPS_ZEN4)
		strbuf_addf(sb, " L3MissOnly %u FetchOcMiss %u FetchL3Miss %u", bit(c, 59), bit(c, 60), bit(c, 61));
	strbuf_addch(sb, '\n');
}

static void print_fetch(struct strbuf *sb, const struct ibs_sample *s, const struct ibs_cpu *cpu)
{
	fetch_ctl(sb, s, cpu);
	reg_head(sb, "IBS_FETCH_LIN_AD", s->reg[IBS_FETCH_LIN_AD]);
	strbuf_addch(sb, '\n');
	if (bit(s->reg[IBS_FETCH_CTL], 52)) {
		reg_head(sb, "IBS_FETCH_PHYS_AD", s->reg[IBS_FETCH_PHYS_AD]);
		strbuf_addch(sb, '\n');
	}
	if (has(s, IBS_EXTD_CTL)) {
		reg_head(sb, "IBS_EXTD_CTL", s->reg[IBS_EXTD_CTL]);
		strbuf_addf(sb, " IbsItlbRefillLat %" PRIu64 "\n", field(s->reg[IBS_EXTD_CTL], 0, 15));
	}
}

static void op_ctl(struct strbuf *sb, const struct ibs_sample *s)
{
	uint64_t c = s->reg[IBS_OP_CTL];

	reg_head(sb, "IBS_OP_CTL", c);
	/* MaxCnt[26:20] sit at bits 26:20, MaxCnt[19:4] at 15:0 */
	strbuf_addf(sb, " MaxCnt %" PRIu64, (field(c, 20, 26) << 16 | field(c, 0, 15)) << 4);
	if (s->caps & IBS_CAPS_ZEN4)
		strbuf_addf(sb, " L3MissOnly %u", bit(c, 16));
	strbuf_addf(sb, " En %u Val %u CntCtl %u=%s CurCnt %" PRIu64, bit(c, 17), bit(c, 18), bit(c, 19),
		    bit(c, 19) ? "uOps" : "cycles", field(c, 32, 58));
	if (s->caps & IBS_CAPS_OPLDLAT)
		strbuf_addf(sb, " LdLatThrsh %" PRIu64 " LdLatEn %u", field(c, 59, 62), bit(c, 63));
	strbuf_addch(sb, '\n');
}

static void op_data(struct strbuf *sb, uint64_t d)
{
	reg_head(sb, "IBS_OP_DATA", d);
	strbuf_addf(sb, " CompToRetCtr %" PRIu64 " TagToRetCtr %" PRIu64, field(d, 0, 15), field(d, 16, 31));
	/* return, taken and mispredicted say something of a branch only */
	if (bit(d, 37))
		strbuf_addf(sb, " OpReturn %u OpBrnTaken %u OpBrnMisp %u", bit(d, 34), bit(d, 35), bit(d, 36));
	strbuf_addf(sb, " BrnRet %u RipInvalid %u BrnFuse %u Microcode %u\n", bit(d, 37), bit(d, 38), bit(d, 39),
		    bit(d, 40));
}

static const char *src_meaning(unsigned src, bool zen4)
{
	static const char *const zen4_names[] = {
		[1] = "local L3 or another L1/L2 of the CCX",
		[2] = "another CCX's cache in the same NUMA node",
		[3] = "DRAM",
		[5] = "another CCX's cache in another NUMA node",
		[6] = "long-latency DIMM",
		[7] = "MMIO, configuration, PCI or APIC",
		[8] = "extension memory",
		[12] = "coherent memory of another processor type",
	};
	static const char *const names[] = {
		[2] = "local node cache", [3] = "DRAM", [4] = "remote node cache", [7] = "other (I/O)",
	};
	const char *n = zen4 ? (src < ARRAY_SIZE(zen4_names) ? zen4_names[src] : NULL)
			     : (src < ARRAY_SIZE(names) ? names[src] : NULL);

	return n ? n : "reserved";
}

static void op_data2(struct strbuf *sb, const struct ibs_sample *s)
{
	uint64_t d2 = s->reg[IBS_OP_DATA2];
	bool zen4 = s->caps & IBS_CAPS_ZEN4;
	unsigned src = op_data_src(s);

	reg_head(sb, "IBS_OP_DATA2", d2);
	/* the cache line's state is said for a cache source only */
	if (zen4 ? (src == 1 || src == 2 || src == 5) : src == 2)
		strbuf_addf(sb, " CacheHitSt %s", bit(d2, D2_CACHE_HIT_ST) ? "1=O-state" : "0=M-state");
	strbuf_addf(sb, " RmtNode %u", bit(d2, D2_RMT_NODE));
	if (s->caps & IBS_CAPS_STRMST_RMTSOCKET)
		strbuf_addf(sb, " StrmSt %u RmtSocket %u", bit(d2, 8), bit(d2, 9));
	if (src)
		strbuf_addf(sb, " DataSrc %u=%s", src, src_meaning(src, zen4));
	strbuf_addch(sb, '\n');
}

static void op_data3(struct strbuf *sb, uint64_t d, bool e1293)
{
	static const struct {
		const char *name;
		unsigned bit;
	} flags[] = {
		{ "LdOp", 0 },           { "StOp", 1 },           { "DcL1TlbMiss", 2 },     { "DcL2TlbMiss", 3 },
		{ "DcL1TlbHit2M", 4 },   { "DcL1TlbHit1G", 5 },   { "DcL2TlbHit2M", 6 },    { "DcMiss", 7 },
		{ "DcMisAcc", 8 },       { "DcWcMemAcc", 13 },    { "DcUcMemAcc", 14 },     { "DcLockedOp", 15 },
		{ "DcMissNoMabAlloc", 16 }, { "DcLinAddrValid", 17 }, { "DcPhyAddrValid", 18 }, { "DcL2TlbHit1G", 19 },
	};

	reg_head(sb, "IBS_OP_DATA3", d);
	for (size_t i = 0; i < ARRAY_SIZE(flags); i++)
		strbuf_addf(sb, " %s %u", flags[i].name, bit(d, flags[i].bit));
	if (!e1293)
		strbuf_addf(sb, " L2Miss %u", bit(d, D3_L2_MISS));
	strbuf_addf(sb, " SwPf %u", bit(d, D3_SW_PF));
	if (field(d, 22, 25))
		strbuf_addf(sb, " OpMemWidth %u bytes", 1u << (field(d, 22, 25) - 1));
	if (!e1293)
		strbuf_addf(sb, " OpDcMissOpenMemReqs %" PRIu64, field(d, 26, 31));
	strbuf_addf(sb, " DcMissLat %" PRIu64 " TlbRefillLat %" PRIu64 "\n", field(d, 32, 47), field(d, 48, 63));
}

static void print_op(struct strbuf *sb, const struct ibs_sample *s, const struct ibs_cpu *cpu)
{
	uint64_t d = s->reg[IBS_OP_DATA], d3 = s->reg[IBS_OP_DATA3];
	bool e1293 = erratum_1293(cpu, d3);

	op_ctl(sb, s);
	if (!bit(d, 38)) {
		reg_head(sb, "IBS_OP_RIP", s->reg[IBS_OP_RIP]);
		strbuf_addch(sb, '\n');
	}
	op_data(sb, d);
	if (!e1293)
		op_data2(sb, s);
	op_data3(sb, d3, e1293);
	if (bit(d3, D3_LIN_ADDR_VALID)) {
		reg_head(sb, "IBS_DC_LIN_AD", s->reg[IBS_DC_LIN_AD]);
		strbuf_addch(sb, '\n');
	}
	if (bit(d3, D3_PHY_ADDR_VALID)) {
		reg_head(sb, "IBS_DC_PHYS_AD", s->reg[IBS_DC_PHYS_AD]);
		strbuf_addch(sb, '\n');
	}
	if (has(s, IBS_BR_TARGET) && bit(d, 37) && s->reg[IBS_BR_TARGET]) {
		reg_head(sb, "IBS_BR_TARGET", s->reg[IBS_BR_TARGET]);
		strbuf_addch(sb, '\n');
	}
	if (has(s, IBS_OP_DATA4)) {
		reg_head(sb, "IBS_OP_DATA4", s->reg[IBS_OP_DATA4]);
		strbuf_addstr(sb, " (not decoded)\n");
	}
}

void ibs_print(struct strbuf *sb, const struct ibs_sample *s, const struct ibs_cpu *cpu)
{
	if (s->kind == IBS_OP)
		print_op(sb, s, cpu);
	else if (s->kind == IBS_FETCH)
		print_fetch(sb, s, cpu);
}

/* ----- what is not decoded ----- */

static const char *const undecoded_names[IBS_UNDECODED_BITS] = {
	"IbsOpData4 (layout not published)",
	"reserved bits of IbsOpCtl",
	"reserved bits of IbsOpData",
	"reserved bits of IbsOpData2",
	"reserved bits of IbsOpData3",
	"reserved bits of IbsFetchCtl",
	"reserved bits of IbsExtdCtl",
	"registers past those the caps name",
	"samples too short for their registers",
};

const char *ibs_undecoded_name(unsigned b)
{
	return b < IBS_UNDECODED_BITS ? undecoded_names[b] : NULL;
}

uint32_t ibs_undecoded(const struct ibs_sample *s)
{
	uint32_t u = 0;
	uint64_t d2_known = 0x37; /* DataSrc[2:0], RmtNode, CacheHitSt */

	if (s->have >> IBS_NREGS & 1)
		u |= 1u << 7;
	if (s->kind == IBS_OP) {
		if (!has(s, IBS_DC_PHYS_AD))
			u |= 1u << 8;
		if (has(s, IBS_OP_DATA4))
			u |= 1u << 0;
		if (field(s->reg[IBS_OP_CTL], 27, 31) ||
		    (!(s->caps & IBS_CAPS_OPLDLAT) && field(s->reg[IBS_OP_CTL], 59, 63)))
			u |= 1u << 1;
		if (field(s->reg[IBS_OP_DATA], 32, 33) || field(s->reg[IBS_OP_DATA], 41, 63))
			u |= 1u << 2;
		if (s->caps & IBS_CAPS_ZEN4)
			d2_known |= 0xc0;
		if (s->caps & IBS_CAPS_STRMST_RMTSOCKET)
			d2_known |= 0x300;
		if (s->reg[IBS_OP_DATA2] & ~d2_known)
			u |= 1u << 3;
		if (field(s->reg[IBS_OP_DATA3], 9, 12))
			u |= 1u << 4;
	} else if (s->kind == IBS_FETCH) {
		if (!has(s, IBS_FETCH_PHYS_AD))
			u |= 1u << 8;
		if (field(s->reg[IBS_FETCH_CTL], 62, 63))
			u |= 1u << 5;
		if (field(s->reg[IBS_EXTD_CTL], 16, 63))
			u |= 1u << 6;
	}
	return u;
}
