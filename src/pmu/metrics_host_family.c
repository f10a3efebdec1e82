/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host metrics of the PMU families libpfm4 knows, from each family's own
 * events, where the ratio is well defined by the vendor's documentation of
 * the events: IPC from the family's unhalted-cycle and retired-instruction
 * events, the clock, the branch misprediction share and the cache miss
 * ratios whose numerator and denominator count the same requests.  A list
 * applies when libpfm4 detects (or LIBPFM_FORCE_PMU forces) one of its PMUs;
 * the tests encode every event of every list under each PMU it names.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "host.h"
#include "metrics.h"

/* AMD Zen 2, 3 and 4 (the events of the PPRs for families 17h and 19h) */
static const char zen_metrics[] =
	"# AMD Zen: the family's own events\n"
	"metric zen.ipc\n"
	"\tformula RETIRED_INSTRUCTIONS / CYCLES_NOT_IN_HALT\n"
	"\tunit insn per cycle\n\tshown-on RETIRED_INSTRUCTIONS\n\tgroup family,zen\n"
	"\tdesc instructions retired per core cycle not in halt\n"
	"metric zen.frequency\n"
	"\tformula CYCLES_NOT_IN_HALT / task-clock\n"
	"\tunit GHz\n\tshown-on CYCLES_NOT_IN_HALT\n\tgroup family,zen\n"
	"\tdesc core cycles not in halt per nanosecond of CPU time\n"
	"metric zen.branch_miss_rate\n"
	"\tformula 100 * RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED / RETIRED_BRANCH_INSTRUCTIONS\n"
	"\tunit % of all branches\n\tshown-on RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED\n\tgroup family,zen\n"
	"\tdesc share of retired branches that were mispredicted\n"
	"metric zen.l2_dc_miss_rate\n"
	"\tformula 100 * CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:LS_RD_BLK_C / "
	"CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:LS_RD_BLK_C:LS_RD_BLK_X:LS_RD_BLK_L_HIT_S:LS_RD_BLK_L_HIT_X:"
	"LS_RD_BLK_C_S\n"
	"\tunit % of data-cache requests to L2\n\tgroup family,zen,cache\n"
	"\tdesc share of the data cache's requests to L2 that missed in L2 (the miss status over every "
	"data-cache status of the same event; L2 prefetches are not counted by it)\n"
	"metric zen.l2_ic_miss_rate\n"
	"\tformula 100 * CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:IC_FILL_MISS / "
	"CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:IC_FILL_MISS:IC_FILL_HIT_S:IC_FILL_HIT_X\n"
	"\tunit % of instruction-cache fills from L2\n\tgroup family,zen,cache\n"
	"\tdesc share of the instruction cache's fill requests to L2 that missed in L2\n";

/* Zen 3 and 4 count their op cache's hits and misses */
static const char zen_op_cache_metrics[] =
	"metric zen.op_cache_miss_rate\n"
	"\tformula 100 * OP_CACHE_HIT_MISS:OC_MISS / OP_CACHE_HIT_MISS:ALL_OC_ACCESS\n"
	"\tunit % of op cache accesses\n\tgroup family,zen,cache\n"
	"\tdesc share of op cache accesses that missed\n";

/* Intel Core families since Westmere: the architectural events by their
 * model-specific names (the programmable ones, not the fixed counters) */
static const char intel_core_metrics[] =
	"# Intel Core: the family's own events\n"
	"metric core.ipc\n"
	"\tformula INST_RETIRED:ANY_P / CPU_CLK_UNHALTED:THREAD_P\n"
	"\tunit insn per cycle\n\tshown-on INST_RETIRED:ANY_P\n\tgroup family,intel\n"
	"\tdesc instructions retired per unhalted core cycle\n"
	"metric core.frequency\n"
	"\tformula CPU_CLK_UNHALTED:THREAD_P / task-clock\n"
	"\tunit GHz\n\tshown-on CPU_CLK_UNHALTED:THREAD_P\n\tgroup family,intel\n"
	"\tdesc unhalted core cycles per nanosecond of CPU time\n"
	"metric core.branch_miss_rate\n"
	"\tformula 100 * BR_MISP_RETIRED:ALL_BRANCHES / BR_INST_RETIRED:ALL_BRANCHES\n"
	"\tunit % of all branches\n\tshown-on BR_MISP_RETIRED:ALL_BRANCHES\n\tgroup family,intel\n"
	"\tdesc share of retired branches that were mispredicted\n";

/* the last-level cache unit mask is REFERENCE before Ice Lake, REFERENCES from it on */
static const char intel_llc_reference_metrics[] =
	"metric core.llc_miss_rate\n"
	"\tformula 100 * LONGEST_LAT_CACHE:MISS / LONGEST_LAT_CACHE:REFERENCE\n"
	"\tunit % of LLC references\n\tshown-on LONGEST_LAT_CACHE:MISS\n\tgroup family,intel,cache\n"
	"\tdesc share of core requests to the last-level cache that missed it\n";
static const char intel_llc_references_metrics[] =
	"metric core.llc_miss_rate\n"
	"\tformula 100 * LONGEST_LAT_CACHE:MISS / LONGEST_LAT_CACHE:REFERENCES\n"
	"\tunit % of LLC references\n\tshown-on LONGEST_LAT_CACHE:MISS\n\tgroup family,intel,cache\n"
	"\tdesc share of core requests to the last-level cache that missed it\n";

static const char *const zen_pmus[] = { "amd64_fam17h_zen2", "amd64_fam19h_zen3", "amd64_fam19h_zen4", NULL };
static const char *const zen3_pmus[] = { "amd64_fam19h_zen3", "amd64_fam19h_zen4", NULL };
static const char *const intel_pmus[] = { "wsm", "wsm_dp", "ivb", "ivb_ep", "hsw", "hsw_ep", "bdw", "bdw_ep",
					  "skl", "skx", "clx", "icl", "icx", "spr", NULL };
static const char *const intel_reference_pmus[] = { "wsm", "wsm_dp", "ivb", "ivb_ep", "hsw", "hsw_ep", "bdw",
						    "bdw_ep", "skl", "skx", "clx", "spr", NULL };
static const char *const intel_references_pmus[] = { "icl", "icx", NULL };

const struct pmu_family_metrics pmu_family_metrics[] = {
	{ zen_pmus, zen_metrics },
	{ zen3_pmus, zen_op_cache_metrics },
	{ intel_pmus, intel_core_metrics },
	{ intel_reference_pmus, intel_llc_reference_metrics },
	{ intel_references_pmus, intel_llc_references_metrics },
	{ NULL, NULL },
};

char *pmu_host_family_metrics(char *pmu_name, size_t size)
{
	struct strbuf sb = STRBUF_INIT;

	*pmu_name = '\0';
	for (const struct pmu_family_metrics *f = pmu_family_metrics; f->pmus; f++)
		for (const char *const *p = f->pmus; *p; p++)
			if (host_pmu_present(*p)) {
				strbuf_addstr(&sb, f->text);
				snprintf(pmu_name, size, "%s", *p);
				break;
			}
	return sb.len ? strbuf_detach(&sb) : (strbuf_release(&sb), NULL);
}
