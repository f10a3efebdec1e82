/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Itanium 2 PMU model: event table queries (what libpfm_itanium2(3)
 * answers) and the encoder that validates an event set against the rules of
 * the Itanium 2 Reference Manual, assigns counters and computes every
 * register value.  Pure computation: no I/O, no hardware access.
 *
 * Rule ids (C-GEN-1, C-L1D-2, ...) are those of spec/itanium2-pmu.md
 * section D; each error names one.
 */
#ifndef PFMON_PMU_ITANIUM2_H
#define PFMON_PMU_ITANIUM2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "event/pmu_model.h"

/* ---- the event table ---------------------------------------------------- */

enum ita2_group { ITA2_GRP_NONE, ITA2_GRP_L1D, ITA2_GRP_L2 };

/* EAR kind of an event name (spec F); NONE for ordinary events */
enum ita2_ear {
	ITA2_EAR_NONE,
	ITA2_EAR_I_CACHE,
	ITA2_EAR_I_TLB,
	ITA2_EAR_D_CACHE,
	ITA2_EAR_D_TLB,
	ITA2_EAR_D_ALAT,
};

/* qualifier support (Tab 11-36 columns IAR/DAR/OPC) */
#define ITA2_Q_IAR 0x1u
#define ITA2_Q_DAR 0x2u
#define ITA2_Q_OPC 0x4u

struct ita2_event {
	const char *name; /* manual spelling, EVENT.UMASK */
	const char *alt; /* pfmon 3.x spelling, EVENT_UMASK */
	const char *base; /* EVENT */
	const char *umask_name; /* NULL: no unit-mask selection in the name */
	uint8_t code; /* PMC.es */
	uint8_t umask; /* PMC.umask as programmed (x bits 0) */
	uint8_t umask_dc; /* the manual's don't-care (x) bits */
	uint8_t counters; /* bit n: may be counted on PMCn/PMDn */
	uint8_t maxincr; /* max increment per cycle; thresholds are < this */
	uint8_t qual; /* ITA2_Q_* */
	uint8_t group; /* enum ita2_group */
	int8_t set; /* L1D or L2 set, -1 if none */
	uint8_t ear; /* enum ita2_ear */
	uint8_t ear_umask; /* PMC10 bits 12:5 / 7:5, PMC11 bits 19:16 */
	bool btb; /* BRANCH_EVENT: programs the BTB (PMC12) */
	const char *desc;
};

struct ita2_name_key {
	const char *name;
	int idx;
};

size_t ita2_event_count(void);
const struct ita2_event *ita2_event_at(size_t i); /* NULL past the end */
/* Either spelling, any case; a number is an event code (first entry with
 * that code, as pfmon 3.x).  Returns the index, or -1. */
int ita2_find_event(const char *name);
/* pfmon 3.x (libpfm3) names that are not the manual's: alias k, and the
 * event it names in *idx (-1 if none); NULL past the end */
size_t ita2_alias_count(void);
const char *ita2_alias_at(size_t k, int *idx);
/* "libpfm3 alias of EVENT" (a manual entry) or "libpfm3 name of EVENT.A_OR_B"
 * (a combined unit mask): how -l marks alias k; -1 past the end */
int ita2_alias_marker(size_t k, char *buf, size_t len);
/* is name one of the manual's entries (either spelling, or a code), not a libpfm3 name? */
bool ita2_is_manual_name(const char *name);
/* The table self-check: 0, or -1 with a message naming the bad row. */
int ita2_table_check(char *msg, size_t len);

/* libpfm_itanium2(3) queries pfmon uses; i is an index from ita2_find_event() */
bool ita2_is_dear(size_t i);
bool ita2_is_dear_tlb(size_t i);
bool ita2_is_dear_cache(size_t i);
bool ita2_is_dear_alat(size_t i);
bool ita2_is_iear(size_t i);
bool ita2_is_iear_tlb(size_t i);
bool ita2_is_iear_cache(size_t i);

/* ---- encoding ----------------------------------------------------------- */

#define ITA2_MAX_EVENTS 4

/* instruction-set mask values (PMC.ism) */
#define ITA2_ISM_BOTH 0u
#define ITA2_ISM_IA32 1u
#define ITA2_ISM_IA64 2u

struct ita2_range {
	bool used;
	uint64_t start, end; /* [start, end) */
};

/* --btb-* filters, one bit per option (the order of the option rows) */
enum ita2_btb_opt {
	ITA2_BTB_TM_TK = 1u << 0,
	ITA2_BTB_TM_NTK = 1u << 1,
	ITA2_BTB_PTM_CORRECT = 1u << 2,
	ITA2_BTB_PTM_INCORRECT = 1u << 3,
	ITA2_BTB_PPM_CORRECT = 1u << 4,
	ITA2_BTB_PPM_INCORRECT = 1u << 5,
	ITA2_BTB_BRT_IPREL = 1u << 6,
	ITA2_BTB_BRT_RET = 1u << 7,
	ITA2_BTB_BRT_IND = 1u << 8,
};

/* One event set, resolved: what the encoder needs, nothing textual. */
struct ita2_request {
	int ev[ITA2_MAX_EVENTS + 1]; /* table indices, in list order */
	size_t n;
	unsigned plm[ITA2_MAX_EVENTS + 1]; /* effective privilege mask */
	bool own_plm[ITA2_MAX_EVENTS + 1]; /* given for this event (C-QUAL-6) */
	unsigned thres[ITA2_MAX_EVENTS + 1];
	unsigned ism[ITA2_MAX_EVENTS + 1];
	unsigned default_plm; /* the session's */
	bool system_wide; /* pm = 1 */
	bool opcm8_used, opcm9_used;
	uint64_t opcm8, opcm9; /* as given by --opc-match8/9 */
	unsigned btb_opts; /* enum ita2_btb_opt bits */
	struct ita2_range irange, drange;
	bool fine_disabled; /* --checkpoint-func */
	bool inverse_irange;
	bool no_qual_check;
};

struct ita2_result {
	int pmc[ITA2_MAX_EVENTS]; /* counter of event i */
	uint64_t value[ITA2_MAX_EVENTS]; /* PMC value as listed (bit 23 clear) */
	/* the other registers (register order) and the notes go to the model's
	 * output, by set_prog_reg() and set_prog_note() */
	struct set_prog *prog;
	bool fine; /* code range in fine mode (pfm_ita2_irange_is_fine) */
};

/* Validate, assign and encode, the registers beyond PMC4-7 and the notes
 * added to prog; -1 with err naming the rule (prog then holds a part:
 * set_prog_release() it). */
int ita2_encode(const struct ita2_request *req, struct ita2_result *res, struct set_prog *prog, struct pf_error *err);

/* PMC/PMD register fields, shared by the encoder and the decoder */
#define ITA2_PMC_PLM_MASK 0xfull
#define ITA2_PMC_EV_SHIFT 4
#define ITA2_PMC_OI_SHIFT 5
#define ITA2_PMC_PM_SHIFT 6
#define ITA2_PMC_ES_SHIFT 8
#define ITA2_PMC_ES_MASK 0xffull
#define ITA2_PMC_UMASK_SHIFT 16
#define ITA2_PMC_UMASK_MASK 0xfull
#define ITA2_PMC_THRES_SHIFT 20
#define ITA2_PMC_THRES_MASK 0x7ull
#define ITA2_PMC4_ENABLE (1ull << 23)
#define ITA2_PMC_ISM_SHIFT 24
#define ITA2_PMC_ISM_MASK 0x3ull
#define ITA2_PMC_MBZ_MASK (0x3ull << 26)

#define ITA2_PMC10_PM_SHIFT 4
#define ITA2_PMC10_UMASK_SHIFT 5
#define ITA2_PMC10_CT_SHIFT 12 /* ct = bits 13:12; bit 12 is also umask bit 7 */
#define ITA2_PMC10_ISM_SHIFT 14

#define ITA2_PMC11_PM_SHIFT 6
#define ITA2_PMC11_MODE_SHIFT 7
#define ITA2_PMC11_UMASK_SHIFT 16

#define ITA2_PMC12_PM_SHIFT 6
#define ITA2_PMC12_DS_SHIFT 7
#define ITA2_PMC12_TM_SHIFT 8
#define ITA2_PMC12_PTM_SHIFT 10
#define ITA2_PMC12_PPM_SHIFT 12
#define ITA2_PMC12_BRT_SHIFT 14

#define ITA2_PMC8_IG_AD (1ull << 0)
#define ITA2_PMC8_INV (1ull << 1)
#define ITA2_PMC8_ONE (1ull << 2)
#define ITA2_OPC_MASK_SHIFT 3
#define ITA2_OPC_MATCH_SHIFT 33
#define ITA2_OPC_FIELD_MASK 0x7ffffffull
#define ITA2_OPC_SLOT_SHIFT 60

#define ITA2_PMC13_RESET 0x2078fefefefeull
#define ITA2_PMC13_CFG_SHIFT(n) (3 + 8 * (n))
#define ITA2_PMC13_ENA_SHIFT(n) (45 + (n))
#define ITA2_PMC14_RESET 0xdb6ull
#define ITA2_PMC14_IBRP_BIT(n) (1ull << (1 + 3 * (n)))
#define ITA2_PMC14_FINE (1ull << 13)
#define ITA2_PMC15_RESET 0xfffffff0ull

#define ITA2_BR_PLM_SHIFT 56
#define ITA2_BR_MASK_BITS 0x00ffffffffffffffull

/* the model descriptor, listed in the registry */
struct pmu_model;
extern const struct pmu_model pmu_itanium2;

#endif
