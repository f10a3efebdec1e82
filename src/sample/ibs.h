/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * AMD Instruction-Based Sampling: the registers the kernel's ibs_op and
 * ibs_fetch PMUs put in PERF_SAMPLE_RAW, decoded by the MSR layouts of
 * AMD's documentation (PPR MSRC001_1030..103D, the kernel's
 * arch/x86/include/asm/amd-ibs.h), and an op's data source, latency and
 * data address derived from them as Linux 6.1+ fills PERF_SAMPLE_DATA_SRC,
 * WEIGHT and ADDR for an ibs_op event (arch/x86/events/amd/ibs.c).
 *
 * IBS is the heir of the Alpha 21264's ProfileMe and of the Itanium 2's
 * D-EAR: one tagged op (or fetch) per period, its address exact (no skid),
 * its data address and cache level captured with it.
 */
#ifndef PFMON_SAMPLE_IBS_H
#define PFMON_SAMPLE_IBS_H

#include <stdbool.h>
#include <stdint.h>

#include "common/util.h"
#include "sample/sample.h"

enum ibs_kind { IBS_NONE, IBS_OP, IBS_FETCH };

/* CPUID 0x8000001B EAX, the caps word of the raw data (perf_event.h) */
#define IBS_CAPS_BRNTRGT          (1u << 5)
#define IBS_CAPS_OPCNTEXT         (1u << 6)
#define IBS_CAPS_RIPINVALIDCHK    (1u << 7)
#define IBS_CAPS_FETCHCTLEXTD     (1u << 9)
#define IBS_CAPS_OPDATA4          (1u << 10)
#define IBS_CAPS_ZEN4             (1u << 11)
#define IBS_CAPS_OPLDLAT          (1u << 12)
#define IBS_CAPS_STRMST_RMTSOCKET (1u << 16)
#define IBS_CAPS_OPDTLBPGSIZE     (1u << 19)

/* the registers in raw order: op, then fetch */
enum ibs_reg {
	IBS_OP_CTL, IBS_OP_RIP, IBS_OP_DATA, IBS_OP_DATA2, IBS_OP_DATA3, IBS_DC_LIN_AD,
	IBS_DC_PHYS_AD, IBS_BR_TARGET, IBS_OP_DATA4,
	IBS_FETCH_CTL, IBS_FETCH_LIN_AD, IBS_FETCH_PHYS_AD, IBS_EXTD_CTL,
	IBS_NREGS
};

/* the CPU that took the samples (perf.data's cpuid header), for the
 * family 19h errata; 0: unknown, no erratum applied */
struct ibs_cpu {
	uint32_t family, model;
};

struct ibs_sample {
	enum ibs_kind kind;
	uint32_t caps;
	uint32_t have;              /* bit (1 << enum ibs_reg): register present */
	uint64_t reg[IBS_NREGS];
};

/*
 * The registers of raw (a PERF_SAMPLE_RAW of raw_size bytes: the caps
 * word, then the MSRs, which the caps say are there).  False when it is
 * too short to hold the control, address and data registers the kernel
 * always reads.
 */
bool ibs_read(enum ibs_kind kind, const void *raw, uint32_t raw_size, struct ibs_sample *out);

/*
 * An op's memory fields, as the kernel derives them: data_src always (a
 * non-load/store op is "N/A"), the data address when IbsDcLinAd is valid,
 * the physical one when IbsDcPhysAd is, the weight (DcMissLat) and
 * ins_lat (TagToRetCtr) of a load that missed the L1.  Fields the sample
 * already has (the kernel's own) are kept, but for the kernel's address 0
 * of an op without a valid one, and its weight 0 of an op without a
 * latency: none.
 */
void ibs_fill_sample(const struct ibs_sample *ibs, const struct ibs_cpu *cpu, struct sample *s);
uint64_t ibs_op_data_src(const struct ibs_sample *ibs, const struct ibs_cpu *cpu);

/* one line per register, "\tNAME: 0x... Field value ...", fields in the
 * words of AMD's documentation (those perf report -D prints) */
void ibs_print(struct strbuf *sb, const struct ibs_sample *ibs, const struct ibs_cpu *cpu);

/*
 * Fields pfmon cannot decode (IbsOpData4, whose layout AMD has not
 * published; reserved bits set; registers missing): bit i names
 * ibs_undecoded_name(i).
 */
#define IBS_UNDECODED_BITS 9
uint32_t ibs_undecoded(const struct ibs_sample *ibs);
const char *ibs_undecoded_name(unsigned bit);

#endif
