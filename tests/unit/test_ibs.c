/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * AMD IBS registers from PERF_SAMPLE_RAW: where each register is by the
 * caps, what a short or long raw record gives, and the data sources the
 * kernel derives, golden rows: each value below was written as
 * PERF_SAMPLE_DATA_SRC next to the registers that produce it (tests/bats/
 * perfdata_ibs.py "kernel"), perf 6.1 named it, and ibs.bats checks that
 * pfmon's derivation from the registers names every sample alike.  Literal
 * on purpose: built with the decoder's shifts they would agree with any
 * mistake in them.
 */
#include <config.h>

#include <string.h>

#include "common/util.h"
#include "sample/ibs.h"
#include "tap.h"

/* IbsOpData, IbsOpData2, IbsOpData3; data_src pre-Zen4, with Zen4, on
 * family 19h model 01h (errata) */
static const struct {
	uint64_t data, data2, data3, plain, zen4, errata;
	const char *what;
} rows[] = {
	{ 0x90002, 0x0, 0x1060001, 0x229080142, 0x229080142, 0x229080142, "L1 hit" },
	{ 0x1e0002, 0x0, 0x1209060081, 0x429080442, 0x429080442, 0x429080442, "L2 hit" },
	{ 0x460002, 0x2, 0x7003d01160085, 0x81649808842, 0x83649808042, 0x81649088842, "HitM in the node" },
	{ 0x1040002, 0x3, 0x2c00d20156008d, 0x1a51081042, 0x1a51081042, 0x1a51081042, "DRAM, TLBs missed" },
	{ 0x1a40002, 0x13, 0x18b15160081, 0x103a29082042, 0x103a29082042, 0x103a29082042, "remote DRAM" },
	{ 0x14a0002, 0x24, 0x12d01160081, 0x103629090042, 0x1e29080022, 0x103629090042, "remote cache" },
	{ 0x90002, 0x7, 0x38401164081, 0x14290a0042, 0x14290a0042, 0x14290a0042, "I/O" },
	{ 0x90002, 0x0, 0x2bc00d64081, 0x10290c0042, 0x10290c0042, 0x10290c0042, "uncached" },
	{ 0x90002, 0x0, 0x1068052, 0x22a080144, 0x22a080144, 0x22a080144, "locked store" },
	{ 0x90002, 0x3, 0x1160086, 0x1e49080024, 0x1e49080024, 0x1e49080024, "store miss" },
	{ 0x90002, 0x0, 0x1901170081, 0x1829080242, 0x1829080242, 0x1829080242, "no MAB" },
	{ 0x3800090002, 0x0, 0x0, 0x5080021, 0x5080021, 0x5080021, "a branch" },
	{ 0x90002, 0x3, 0x9601100081, 0x1a05081042, 0x1a05081042, 0x1a05081042, "no address" },
	{ 0x90002, 0x22, 0x5001b62181, 0x81629088842, 0x83629088042, 0x1e29080022, "software prefetch" },
};

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* a raw record: caps, then n registers */
static uint32_t raw_of(unsigned char *buf, uint32_t caps, const uint64_t *regs, unsigned n)
{
	memcpy(buf, &caps, 4); /* the host's order is the file's (little-endian) */
	for (unsigned i = 0; i < n; i++)
		put64(buf + 4 + 8 * i, regs[i]);
	return 4 + 8 * n;
}

static void golden(void)
{
	static const struct ibs_cpu plain = { 0x19, 0x11 }, errata = { 0x19, 0x01 };

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		struct ibs_sample s = { .kind = IBS_OP };

		s.reg[IBS_OP_DATA] = rows[i].data;
		s.reg[IBS_OP_DATA2] = rows[i].data2;
		s.reg[IBS_OP_DATA3] = rows[i].data3;
		is_u64(ibs_op_data_src(&s, &plain), rows[i].plain, "%s", rows[i].what);
		is_u64(ibs_op_data_src(&s, &errata), rows[i].errata, "%s, erratum 1293", rows[i].what);
		s.caps = IBS_CAPS_ZEN4;
		is_u64(ibs_op_data_src(&s, &plain), rows[i].zen4, "%s, Zen4", rows[i].what);
	}
}

static void layout(void)
{
	uint64_t regs[10] = { 0x60fa0, 0x401000, 0x2000000000, 0, 0x1060001, 0xdead, 0xbeef, 0x402000, 0x44, 0x55 };
	unsigned char buf[4 + 8 * 10];
	struct ibs_sample s;
	uint32_t n;

	ok(!ibs_read(IBS_OP, NULL, 0, &s) && !ibs_read(IBS_OP, buf, 3, &s), "no raw data: nothing read");
	/* six registers: IbsDcPhysAd missing */
	n = raw_of(buf, 0, regs, 6);
	ok(!ibs_read(IBS_OP, buf, n, &s), "an op without IbsDcPhysAd is too short");
	ok(ibs_undecoded(&s) & (1u << 8), "and said so: %s", ibs_undecoded_name(8));
	/* BrnTrgt and OpData4 in the caps, eight registers given: no OpData4 */
	n = raw_of(buf, IBS_CAPS_BRNTRGT | IBS_CAPS_OPDATA4, regs, 8);
	ok(ibs_read(IBS_OP, buf, n, &s), "eight registers read");
	is_u64(s.reg[IBS_BR_TARGET], 0x402000, "IbsBrTarget at index 7 with BrnTrgt");
	ok(!(s.have >> IBS_OP_DATA4 & 1), "IbsOpData4 missing");
	/* OpData4 without BrnTrgt: at index 7 */
	n = raw_of(buf, IBS_CAPS_OPDATA4, regs, 8);
	ok(ibs_read(IBS_OP, buf, n, &s) && s.reg[IBS_OP_DATA4] == 0x402000 && !(s.have >> IBS_BR_TARGET & 1),
	   "IbsOpData4 at index 7 without BrnTrgt");
	ok(ibs_undecoded(&s) & 1u, "and not decoded: %s", ibs_undecoded_name(0));
	/* more registers than the caps name */
	n = raw_of(buf, 0, regs, 10);
	ok(ibs_read(IBS_OP, buf, n, &s) && (ibs_undecoded(&s) & (1u << 7)), "registers past the caps: said");
	/* fetch: IbsExtdCtl only with FetchCtlExtd */
	n = raw_of(buf, IBS_CAPS_FETCHCTLEXTD, regs, 3);
	ok(ibs_read(IBS_FETCH, buf, n, &s) && !(s.have >> IBS_EXTD_CTL & 1), "a fetch without IbsExtdCtl");
	n = raw_of(buf, IBS_CAPS_FETCHCTLEXTD, regs, 4);
	ok(ibs_read(IBS_FETCH, buf, n, &s) && s.reg[IBS_EXTD_CTL] == 0 && (s.have >> IBS_EXTD_CTL & 1),
	   "a fetch with IbsExtdCtl");
	ok(!ibs_read(IBS_FETCH, buf, 4 + 8 * 2, &s), "a fetch of two registers is too short");
}

static void fill(void)
{
	static const struct ibs_cpu cpu = { 0x19, 0x11 };
	struct ibs_sample ibs = { .kind = IBS_OP };
	struct sample s = { 0 };

	ibs.reg[IBS_OP_DATA] = rows[3].data;
	ibs.reg[IBS_OP_DATA3] = rows[3].data3;
	ibs.reg[IBS_OP_DATA2] = rows[3].data2;
	ibs.reg[IBS_DC_LIN_AD] = 0x7fff0000;
	ibs_fill_sample(&ibs, &cpu, &s);
	ok((s.fields & (SAMPLE_F_ADDR | SAMPLE_F_WEIGHT | SAMPLE_F_DATA_SRC | SAMPLE_F_INS_LAT)) ==
		   (SAMPLE_F_ADDR | SAMPLE_F_WEIGHT | SAMPLE_F_DATA_SRC | SAMPLE_F_INS_LAT),
	   "a DRAM load: address, weight, data source");
	is_u64(s.weight, 210, "weight: DcMissLat");
	is_u64(s.ins_lat, 260, "ins_lat: TagToRetCtr");
	is_u64(s.addr, 0x7fff0000, "addr: IbsDcLinAd");
	/* the kernel's own fields stay */
	s = (struct sample){ .fields = SAMPLE_F_DATA_SRC | SAMPLE_F_ADDR, .data_src = 7, .addr = 9 };
	ibs_fill_sample(&ibs, &cpu, &s);
	ok(s.data_src == 7 && s.addr == 9, "the sample's own data source and address kept");
	/* an L1 hit: no weight */
	s = (struct sample){ 0 };
	ibs.reg[IBS_OP_DATA3] = rows[0].data3;
	ibs_fill_sample(&ibs, &cpu, &s);
	ok(!(s.fields & SAMPLE_F_WEIGHT) && (s.fields & SAMPLE_F_DATA_SRC), "an L1 hit has no weight");
}

int main(void)
{
	golden();
	layout();
	fill();
	return tap_done();
}
