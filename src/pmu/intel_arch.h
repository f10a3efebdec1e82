/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Intel architectural performance monitoring, versions 1 and 2 (seed 004,
 * ../shared/spec/other-pmus.md §3): CPUID leaf 0AH decoding, the seven
 * predefined events, the IA32_PERFEVTSELx / IA32_FIXED_CTR_CTRL / global
 * MSR layouts.  Pure computation except ia_host_cpuid().
 */
#ifndef PFMON_PMU_INTEL_ARCH_H
#define PFMON_PMU_INTEL_ARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "event/event_spec.h"
#include "event/pmu_model.h"

extern const struct pmu_model pmu_intel_arch;

/* IA32_PERFEVTSELx fields (SDM vol. 3; the seed's figure is missing) */
#define IA_EVTSEL_EVENT_SHIFT 0
#define IA_EVTSEL_EVENT_MASK 0xffull
#define IA_EVTSEL_UMASK_SHIFT 8
#define IA_EVTSEL_UMASK_MASK 0xffull
#define IA_EVTSEL_USR_SHIFT 16
#define IA_EVTSEL_OS_SHIFT 17
#define IA_EVTSEL_E_SHIFT 18
#define IA_EVTSEL_PC_SHIFT 19
#define IA_EVTSEL_INT_SHIFT 20
#define IA_EVTSEL_ANY_SHIFT 21 /* architectural from v3 only: never set here */
#define IA_EVTSEL_EN_SHIFT 22
#define IA_EVTSEL_INV_SHIFT 23
#define IA_EVTSEL_CMASK_SHIFT 24
#define IA_EVTSEL_CMASK_MASK 0xffull

/* IA32_FIXED_CTR_CTRL: one 4-bit field per fixed counter */
#define IA_FIXED_FIELD_BITS 4
#define IA_FIXED_EN_OS 0x1u
#define IA_FIXED_EN_USR 0x2u
#define IA_FIXED_ANY 0x4u
#define IA_FIXED_PMI 0x8u

/* global MSRs (v2) */
#define IA_GLOBAL_FIXED_SHIFT 32 /* bits 34:32: the fixed counters */
#define IA_GLOBAL_OVF_BUFFER_SHIFT 62
#define IA_GLOBAL_COND_CHGD_SHIFT 63

/* MSR addresses */
#define IA_MSR_PMC0 0xc1u
#define IA_MSR_PERFEVTSEL0 0x186u
#define IA_MSR_FIXED_CTR0 0x309u
#define IA_MSR_FIXED_CTR_CTRL 0x38du
#define IA_MSR_PERF_GLOBAL_STATUS 0x38eu
#define IA_MSR_PERF_GLOBAL_CTRL 0x38fu
#define IA_MSR_PERF_GLOBAL_OVF_CTRL 0x390u

#define IA_MAX_GP 8 /* IA32_PERFEVTSEL0-7 / IA32_PMC0-7: the architectural MSR range */
#define IA_MAX_FIXED 3 /* the fixed events v2 defines */
#define IA_N_EVENTS 7

struct ia_cpuid {
	uint32_t eax, ebx, ecx, edx;
};

/* CPUID.0AH, decoded */
struct ia_pmu_desc {
	unsigned version; /* EAX[7:0]; 0 = no architectural monitoring */
	unsigned n_gp; /* EAX[15:8] */
	unsigned gp_width; /* EAX[23:16] */
	unsigned ebx_len; /* EAX[31:24]: EBX bits that are meaningful */
	unsigned n_fixed; /* EDX[4:0], 0 before v2 */
	unsigned fixed_width; /* EDX[12:5], 0 before v2 */
	unsigned unavailable; /* bit i: predefined event i is not available */
};

struct ia_event {
	const char *name; /* libpfm4's ix86arch name */
	const char *alias; /* the seed's (SDM's) name, without spaces */
	uint8_t code, umask;
	int fixed; /* the fixed counter that counts it (v2), or -1 */
	const char *desc;
};

const struct ia_event *ia_event_at(unsigned i); /* NULL past the end */
int ia_find_event(const char *name); /* name or alias, any case; -1 if none */

void ia_decode_cpuid(const struct ia_cpuid *r, struct ia_pmu_desc *d);

/* Leaf 0AH of this CPU.  Returns false with why set when there is none
 * (not x86, or a CPU whose highest leaf is below 0AH); an AMD CPU
 * reserves the leaf: true, all zero, and *vendor says so. */
bool ia_host_cpuid(struct ia_cpuid *r, char *vendor, size_t vendor_len, const char **why);

/* One parsed event, encoded for a general-purpose counter. */
struct ia_evsel {
	uint64_t value; /* IA32_PERFEVTSELx */
	int idx; /* table index */
	unsigned plm; /* PF_PLM0 | PF_PLM3 actually programmed */
	bool fixed_ok; /* no e, i or c: a fixed counter can count it */
};

/* The PERFEVTSELx value of one parsed event: modifiers u, k, e, i, c as
 * libpfm4's ix86arch; plm = the privilege levels when neither u nor k is
 * given.  EN and INT are set, as libpfm4 sets them. */
int ia_encode_evtsel(const struct event_spec *spec, unsigned plm, struct ia_evsel *out, struct pf_error *err);

#endif
