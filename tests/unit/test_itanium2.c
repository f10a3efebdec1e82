/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Itanium 2 model: the table self-check, name lookup in both spellings,
 * the libpfm_itanium2(3) queries, the spec's worked examples and the
 * register decoder.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "event/pmu_model.h"
#include "pmu/itanium2.h"
#include "pmu/itanium2_priv.h"
#include "tap.h"

extern const struct pmu_model pmu_itanium2;

static void test_table(void)
{
	char msg[256];
	size_t n = ita2_event_count();
	size_t bases = 0;

	ok(ita2_table_check(msg, sizeof(msg)) == 0, "table self-check: %s", msg);
	ok(n >= 450 && n <= 520, "about 500 entries (%zu)", n);
	for (size_t i = 0; i < n; i++)
		if (i == 0 || strcmp(ita2_event_at(i)->base, ita2_event_at(i - 1)->base))
			bases += ita2_event_at(i)->ear == ITA2_EAR_NONE;
	is_u64(bases, 145, "145 events of Table 11-36");
	ok(ita2_event_at(n) == NULL, "past the end is NULL");
}

static void lookup(const char *name, const char *want)
{
	int i = ita2_find_event(name);

	is_str(i >= 0 ? ita2_event_at((size_t)i)->name : NULL, want, "lookup '%s'", name);
}

static void test_lookup(void)
{
	lookup("CPU_CYCLES", "CPU_CYCLES");
	lookup("cpu_cycles", "CPU_CYCLES");
	lookup("L1D_READ_MISSES.ALL", "L1D_READ_MISSES.ALL");
	lookup("l1d_read_misses_rse_fill", "L1D_READ_MISSES.RSE_FILL");
	lookup("BR_MISPRED_DETAIL_ALL_ALL_PRED", "BR_MISPRED_DETAIL.ALL.ALL_PRED");
	lookup("IA64_TAGGED_INST_RETIRED_IBRP0_PMC8", "IA64_TAGGED_INST_RETIRED.IBRP0_PMC8");
	lookup("0x12", "CPU_CYCLES");
	lookup("DATA_EAR_CACHE_LAT4", "DATA_EAR_CACHE_LAT4");
	lookup("L2_OZQ_CANCELS2.RECIRC_OVER_SUB", "L2_OZQ_CANCELS2.RECIRC_OVER_SUB");
	ok(ita2_find_event("CPU_CYCLE") < 0, "unknown name");
	ok(ita2_find_event("L1D_READ_MISSES") < 0, "base name of a umask event needs a umask");
	ok(ita2_find_event("") < 0 && ita2_find_event(NULL) < 0, "empty name");
}

static size_t idx(const char *name)
{
	return (size_t)ita2_find_event(name);
}

static void test_queries(void)
{
	const struct ita2_event *e;

	ok(ita2_event_at(idx("DATA_EAR_CACHE_LAT4"))->ear != ITA2_EAR_NONE && ita2_event_at(idx("CPU_CYCLES"))->ear == ITA2_EAR_NONE, "is_ear");
	ok(ita2_is_dear(idx("DATA_EAR_TLB_ALL")) && ita2_is_dear_tlb(idx("DATA_EAR_TLB_ALL")), "is_dear_tlb");
	ok(ita2_is_dear_cache(idx("DATA_EAR_CACHE_LAT64")), "is_dear_cache");
	ok(ita2_is_dear_alat(idx("DATA_EAR_ALAT")), "is_dear_alat");
	ok(ita2_is_iear_cache(idx("L1I_EAR_CACHE_LAT8")) && ita2_is_iear(idx("L1I_EAR_TLB_VHPT")),
	   "is_iear");
	ok(ita2_is_iear_tlb(idx("L1I_EAR_TLB_VHPT")), "is_iear_tlb");
	/* the table's columns, as the encoder reads them */
	ok(ita2_event_at(idx("BRANCH_EVENT"))->btb && !ita2_event_at(idx("CPU_CYCLES"))->btb, "btb");
	ok((ita2_event_at(idx("NOPS_RETIRED"))->qual & ITA2_Q_OPC) &&
	   !(ita2_event_at(idx("INST_DISPERSED"))->qual & ITA2_Q_OPC), "opcm");
	ok((ita2_event_at(idx("L1I_READS"))->qual & ITA2_Q_IAR) && !(ita2_event_at(idx("CPU_CYCLES"))->qual & ITA2_Q_IAR),
	   "iarr");
	ok((ita2_event_at(idx("LOADS_RETIRED"))->qual & ITA2_Q_DAR) && !(ita2_event_at(idx("L1I_READS"))->qual & ITA2_Q_DAR),
	   "darr");
	ok(ita2_event_at(idx("NOPS_RETIRED"))->maxincr == 6, "NOPS_RETIRED max incr 6");
	ok(ita2_event_at(idx("BUS_LOCK.SELF"))->umask == 2, "BUS_LOCK.SELF umask bxx10");
	ok(ita2_event_at(idx("L2_REFERENCES"))->group == ITA2_GRP_L2, "L2 group");
	ok(ita2_event_at(idx("L2_REFERENCES"))->set == 1, "L2_REFERENCES set 1");
	ok(ita2_event_at(idx("STORES_RETIRED"))->set == 4, "STORES_RETIRED L1D set 4");
	ok(ita2_event_at(idx("CPU_CYCLES"))->set == -1, "no set");
	e = ita2_event_at(idx("DATA_EAR_TLB_VHPT"));
	ok(e->ear == ITA2_EAR_D_TLB && ita2_event_at(idx("CPU_CYCLES"))->ear == ITA2_EAR_NONE, "ear kind");
	is_u64(ita2_event_at(idx("L2_L3ACCESS_CANCEL.ANY"))->counters, 0x10, "L2_L3ACCESS_CANCEL on PMD4 only");
	is_u64(ita2_event_at(idx("L1D_READS_SET1"))->code, 0xc4, "L1D_READS_SET1 code corrected");
	is_u64(ita2_event_at(idx("DATA_REFERENCES_SET1"))->code, 0xc5, "DATA_REFERENCES_SET1 code");
	is_u64(ita2_event_at(idx("L2_IFET_CANCELS.ANY"))->code, 0xa1, "L2_IFET_CANCELS first code");
	is_u64(ita2_event_at(idx("L1I_EAR_CACHE_LAT0"))->ear_umask, 0x40, "I-EAR LAT0 umask 01xxxxxx");
}

static void test_decode(void)
{
	struct reg_field f[16];
	size_t n = ita2_decode_reg(NULL, &(struct reg_value){ REG_PMC, 4, 0x801228 }, f, 16);

	ok(n == 9, "PMC4 has 9 fields");
	ok(!strcmp(f[0].name, "plm") && f[0].value == 8, "plm 8");
	ok(!strcmp(f[4].name, "es") && f[4].value == 0x12, "es 0x12");
	ok(!strcmp(f[7].name, "enable") && f[7].value == 1, "enable");
	n = ita2_decode_reg(NULL, &(struct reg_value){ REG_PMC, 12, 0x3f08 }, f, 16);
	ok(n == 7 && f[3].value == 3 && f[4].value == 3 && f[5].value == 3, "PMC12 tm/ptm/ppm");
	n = ita2_decode_reg(NULL, &(struct reg_value){ REG_IBR, 1, 0x08fffffffffff000ull }, f, 16);
	ok(n == 2 && f[1].value == 8, "IBR1 plm");
	ok(ita2_decode_reg(NULL, &(struct reg_value){ REG_PMD, 4, 0 }, f, 16) == 0, "PMD4 has no fields");
}

static void test_model(void)
{
	struct encode_set_opts set = { 0 };
	struct encode_opts o = { .sets = &set, .n_sets = 1, .live = true };
	struct set_prog prog;
	struct pf_error err = { 0 };
	char *evs[] = { "cpu_cycles", "L2_REFERENCES" };
	struct event_info info = { 0 };

	set.events = evs;
	set.n_events = 2;
	ok(pmu_encode_set(&pmu_itanium2, &o, 0, &prog, &err) == 0, "encode: %s", err.msg);
	ok(prog.n_counters == 2 && prog.counters[0].ctl.num == 5 && prog.counters[1].ctl.num == 4 &&
		   prog.counters[0].ctl.file == REG_PMC && prog.counters[0].ctr.file == REG_PMD,
	   "CPU_CYCLES on PMD5, L2_REFERENCES on PMD4");
	is_str(prog.counters[0].name, "CPU_CYCLES", "canonical name");
	is_u64(prog.counters[0].ctl.value, 0x001228, "CPU_CYCLES value on PMC5");
	ok(!prog.counters[0].is_live, "modelled, not live");
	set_prog_release(&prog);
	ok(pmu_itanium2.event_info(&pmu_itanium2, "nops_retired", &info, &err) == 0, "event_info");
	ok(info.n_lines > 8 && !strcmp(info.lines[0].value, "NOPS_RETIRED"), "info name");
	event_info_release(&info);
	ok(pmu_itanium2.event_info(&pmu_itanium2, "L1D_READ_MISSES", &info, &err) < 0 &&
		   err.code == PF_E_UNKNOWN_EVENT && strstr(err.msg, "L1D_READ_MISSES.ALL"),
	   "info on a base name suggests a umask: %s", err.msg);
	ok(!pmu_itanium2.can_run && pmu_itanium2.max_counters == 4, "dry run, 4 counters");
#ifndef __ia64__
	ok(!pmu_itanium2.detect(&pmu_itanium2), "not detected on this host");
#endif
}

/* every pfmon 3.x name names an event; combined unit masks are not listed by -l */
static void test_pfmon3_names(void)
{
	size_t named = 0;
	int idx;

	for (size_t k = 0; ita2_alias_at(k, &idx); k++)
		named += idx >= 0;
	ok(ita2_alias_count() == 34 && named == 34, "34 pfmon 3.x names, each an event (%zu)", named);
	idx = ita2_find_event("EXTERN_DP_PINS_0_TO_3_PIN1_OR_PIN3");
	ok(idx >= (int)ita2_event_count(), "a combined unit mask is past the manual's table");
	is_u64(ita2_event_at((size_t)idx)->umask, 0xa, "PIN1_OR_PIN3 = b1010");
	is_str(ita2_event_at((size_t)idx)->name, "EXTERN_DP_PINS_0_TO_3.PIN1_OR_PIN3", "canonical spelling");
	ok(ita2_find_event("extern_dp_pins_0_to_3.pin1_or_pin3") == idx, "found by its canonical name too");
	ok(ita2_find_event("L2_OZQ_FULL_THIS") == ita2_find_event("L2_OZQ_FULL"), "_THIS is an alias");
	/* -l marks each: an alias of a manual entry, or the name of a derived one */
	char marker[200];
	size_t aliases = 0, names = 0;

	for (size_t k = 0; !ita2_alias_marker(k, marker, sizeof(marker)); k++) {
		aliases += !strncmp(marker, "libpfm3 alias of ", 17);
		names += !strncmp(marker, "libpfm3 name of ", 16);
	}
	ok(aliases == 10 && names == 24, "10 aliases, 24 combined or meaningless unit masks (%zu, %zu)", aliases,
	   names);
	ok(!ita2_is_manual_name("L2_OZQ_FULL_THIS") && ita2_is_manual_name("l2_ozq_full") &&
	   ita2_is_manual_name("L1D_READ_MISSES_ALL"), "libpfm3 names are not the manual's spellings");
}

int main(void)
{
	test_pfmon3_names();
	test_table();
	test_lookup();
	test_queries();
	test_decode();
	test_model();
	return tap_done();
}
