/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The first-generation Itanium PMU as seed 000 documents it (Itanium
 * Processor Reference Manual, chapter 6 fragment; ../shared/spec/
 * other-pmus.md §1): the instruction address range check (PMC13, IBR
 * pairs), the opcode matchers (PMC8, PMC9), the data address range check
 * (DBR pairs, PMC11.pt), the overflow status (PMC0) and the instruction
 * EAR layouts (PMC10, PMD0, PMD1), with the manual's match equations; and
 * the 230 events (itanium_events.h, from the manual as libpfm3 carried
 * them) on the counters PMC4-7, with the EAR (PMC10, PMC11) and BTB (PMC12)
 * configuration they program.  Pure computation.
 * Decisions and seed-vs-spec differences: src/pmu/ITANIUM-NOTES.md.
 */
#ifndef PFMON_PMU_ITANIUM_H
#define PFMON_PMU_ITANIUM_H

#include <stdbool.h>
#include <stdint.h>

#include "event/pmu_model.h"

extern const struct pmu_model pmu_itanium;

/* PMC0 (Fig 6-14, Tab 6-8) */
#define ITA_PMC0_FR_SHIFT 0
#define ITA_PMC0_OVFL_SHIFT 4 /* bits 7:4: PMD4-7 overflowed */
#define ITA_PMC0_OVFL_MASK 0xfull

/* PMC13 (Fig 6-15, Tab 6-9) */
#define ITA_PMC13_TA_SHIFT 0

/* PMC8, PMC9 (Fig 6-16, Tab 6-11) */
#define ITA_OPC_MASK_SHIFT 3
#define ITA_OPC_MATCH_SHIFT 33
#define ITA_OPC_FIELD_MASK 0x7ffffffull /* 27 bits: encoding bits 40:27 (field 26:13) and 12:0 */
#define ITA_OPC_B_SHIFT 60
#define ITA_OPC_F_SHIFT 61
#define ITA_OPC_I_SHIFT 62
#define ITA_OPC_M_SHIFT 63
#define ITA_ENCO_MASK 0x1ffffffffffull /* an instruction encoding: 41 bits, 40:0 */

/* PMC10, the instruction EAR configuration (Fig 6-17, Tab 6-12) */
#define ITA_PMC10_PLM_SHIFT 0
#define ITA_PMC10_PLM_MASK 0xfull
#define ITA_PMC10_PM_SHIFT 6
#define ITA_PMC10_TLB_SHIFT 7
#define ITA_PMC10_UMASK_SHIFT 16
#define ITA_PMC10_UMASK_MASK 0xfull
#define ITA_PMC10_ISM_SHIFT 24
#define ITA_PMC10_ISM_MASK 0x3ull

/* PMD0, PMD1, the instruction EAR data (Fig 6-18) */
#define ITA_PMD0_V_SHIFT 0
#define ITA_PMD0_TLB_SHIFT 1
#define ITA_PMD0_ADDR_SHIFT 5 /* bits 63:5: the cache line address */
#define ITA_PMD1_LAT_MASK 0xfffull

/* IBR/DBR odd registers: the architecture's layout (not in the seed) */
#define ITA_BR_MASK_MASK 0xffffffffffffffull /* mask 55:0 */
#define ITA_BR_PLM_SHIFT 56 /* plm 59:56 */
#define ITA_BR_PLM_MASK 0xfull
#define ITA_IBR_X_SHIFT 63
#define ITA_DBR_W_SHIFT 62
#define ITA_DBR_R_SHIFT 63

#define ITA_PAIRS 4

/* ---- the event table (itanium_events.h) and the counters ---------------- */

/* qualifier support of an event: instruction address range, opcode match,
 * data address range (libpfm3's pme_iar, pme_opm, pme_dar) */
#define ITA_Q_IAR 0x1u
#define ITA_Q_OPC 0x2u
#define ITA_Q_DAR 0x4u

#define ITA_PMC4_7 0xf0u
#define ITA_PMC4_5 0x30u
#define ITA_MAX_EVENTS 4

enum ita_ear { ITA_EAR_NONE, ITA_EAR_I_CACHE, ITA_EAR_I_TLB, ITA_EAR_D_CACHE, ITA_EAR_D_TLB };

struct ita_event {
	const char *name; /* pfmon 3.x (libpfm3) spelling */
	uint8_t code; /* PMC.es, 7 bits */
	uint8_t umask; /* PMC.umask; an EAR event's PMC10/PMC11.umask */
	uint8_t counters; /* bit n: PMCn */
	uint8_t maxincr; /* thresholds are below it */
	uint8_t qual; /* ITA_Q_* */
	uint8_t ear; /* enum ita_ear: programs PMC10 (I) or PMC11 (D) */
	bool btb; /* programs the branch trace buffer, PMC12 */
	const char *desc;
};

size_t ita_event_count(void);
const struct ita_event *ita_event_at(size_t i); /* NULL past the end */
int ita_find_event(const char *name); /* any case, or an event code; -1 if none */
int ita_table_check(char *msg, size_t len);

/* the qualifiers a set applies (ITA_Q_*), which every event must support */
struct ita_counters_req {
	int ev[ITA_MAX_EVENTS];
	const char *text[ITA_MAX_EVENTS]; /* as given, for messages */
	unsigned plm[ITA_MAX_EVENTS];
	unsigned thres[ITA_MAX_EVENTS];
	size_t n;
	bool system_wide;
	unsigned quals_used;
	const char *qual_why[3]; /* the option that applies IAR, OPC, DAR */
};

/* counter placement and PMC4-7 values: pmc[i] of event i, value[i] its PMC */
int ita_assign_counters(const struct ita_counters_req *req, int *pmc, uint64_t *value, struct pf_error *err);

/* PMC4-7 (libpfm3 include/perfmon/pfmlib_itanium.h, pfm_ita_pmc_reg_t) */
#define ITA_PMC_PLM_SHIFT 0
#define ITA_PMC_OI_SHIFT 5
#define ITA_PMC_PM_SHIFT 6
#define ITA_PMC_ES_SHIFT 8
#define ITA_PMC_ES_MASK 0x7full
#define ITA_PMC_UMASK_SHIFT 16
#define ITA_PMC_THRES_SHIFT 20
#define ITA_PMC_THRES_MASK 0x7ull
#define ITA_PMC_ISM_SHIFT 24

/* PMC11, the data EAR (same source): PMC10's fields and pt */
#define ITA_PMC11_PT_SHIFT 28

/* PMC12, the branch trace buffer (same source) */
#define ITA_PMC12_PM_SHIFT 6
#define ITA_PMC12_TAR_SHIFT 7
#define ITA_PMC12_TM_SHIFT 8
#define ITA_PMC12_PTM_SHIFT 10
#define ITA_PMC12_PPM_SHIFT 12
#define ITA_PMC12_BPT_SHIFT 14
#define ITA_PMC12_BAC_SHIFT 15

enum ita_tri { ITA_NO, ITA_YES, ITA_UNKNOWN };

/* The settings an explanation is computed from. */
struct ita_pair {
	bool set;
	uint64_t addr, mask;
	unsigned plm; /* IBR: the privilege levels it matches (DBR plm is ignored for monitoring) */
	bool x; /* IBR: the breakpoint fault enable (a debugger uses the pair) */
};

struct ita_state {
	bool ta; /* PMC13.ta */
	struct ita_pair ibr[ITA_PAIRS], dbr[ITA_PAIRS];
	unsigned mifb[2]; /* PMC8, PMC9: bit 3 m, 2 i, 1 f, 0 b */
	uint32_t match[2], mask[2]; /* 27-bit fields */
	bool pt; /* PMC11.pt */
	bool psr_is, psr_db;
	unsigned cpl;
};

/* the equations of §6.2.4-6.2.6, each result with its reason appended to why */
bool ita_ibr_match(const struct ita_state *s, unsigned pair, uint64_t ip, char *why, size_t len);
bool ita_ibr_range_tag(const struct ita_state *s, uint64_t ip, char *why, size_t len);
bool ita_opcode_match(const struct ita_state *s, unsigned pmc, char itype, uint64_t enco, char *why, size_t len);
bool ita_dbr_range_match(const struct ita_state *s, uint64_t addr, char *why, size_t len);

/* register values of the state */
uint64_t ita_pmc13(const struct ita_state *s);
uint64_t ita_opc_pmc(const struct ita_state *s, unsigned pmc);

#endif
