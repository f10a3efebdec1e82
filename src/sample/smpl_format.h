/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal to the sample file code: record codes, flag bits and the delta
 * state shared by the writer and the reader.  The values are the format
 * (man/pfmon-smpl.5): never renumber them.
 */
#ifndef PFMON_SAMPLE_SMPL_FORMAT_H
#define PFMON_SAMPLE_SMPL_FORMAT_H

#include <stdint.h>
#include <string.h>

#include "sample/ia64_dump.h"
#include "sample/smpl_stack.h"

/* byte order marker: the u32 0x01020304, so the bytes read 04 03 02 01 */
#define SMPL_BOM 0x01020304u

/* record codes (the first byte of each record) */
enum smpl_code {
	SMPL_REC_SAMPLE = 0x01,
	SMPL_REC_MMAP = 0x02,
	SMPL_REC_COMM = 0x03,
	SMPL_REC_FORK = 0x04,
	SMPL_REC_EXIT = 0x05,
	SMPL_REC_LOST = 0x06,
	SMPL_REC_LOST_SAMPLES = 0x07,
	SMPL_REC_THROTTLE = 0x08,
	SMPL_REC_UNTHROTTLE = 0x09,
	SMPL_REC_END = 0x0f,
	/* codes a reader may skip when it does not know them (minor versions);
	 * the end record's totals do not count them, or an older reader that
	 * skips them would find records missing */
	SMPL_REC_OPTIONAL_MIN = 0x40,
	SMPL_REC_KERNEL = 0x40, /* 1.1: which kernel took the samples */
	SMPL_REC_KSYM = 0x41,   /* 1.1: a kernel symbol that named samples */
	SMPL_REC_CHUNK = 0x42,  /* 1.2: the chunk's sequence number, its first record */
	SMPL_REC_BINARY = 0x43, /* 1.2: which file a mapped binary was (build-id, inode) */
	SMPL_REC_IA64_CONFIG = 0x44, /* 1.3: an Itanium 2 dump's PMC10-12, the file's first record */
	SMPL_REC_IA64_SAMPLE = 0x45, /* 1.3: an Itanium 2 dump's sample with its PMDs */
	SMPL_REC_OPTIONAL_MAX = 0x7f,
};

/* largest record body a writer produces (a reader accepts up to the chunk size) */
#define SMPL_RECORD_MAX (1u << 20)

/* sample record head: evidx << 4 | exact_ip << 3 | cpumode */
#define SMPL_HEAD_CPUMODE_MASK 7u
#define SMPL_HEAD_EXACT (1u << 3)
#define SMPL_HEAD_EVIDX_SHIFT 4

#define SMPL_EVENT_F_FREQ 1u
#define SMPL_EVENT_F_COUNTING 2u

#define SMPL_MMAP_F_BUILD_ID 1u
#define SMPL_MMAP_F_INODE 2u
#define SMPL_MMAP_F_DATA 4u
#define SMPL_MMAP_F_ALL 7u

#define SMPL_COMM_F_EXEC 1u

/* the Itanium 2 configuration record: which of PMC10, 11, 12 follow */
#define SMPL_IA64_HAS_PMC10 1u
#define SMPL_IA64_HAS_PMC11 2u
#define SMPL_IA64_HAS_PMC12 4u
#define SMPL_IA64_HAS_ALL 7u
/* the Itanium 2 sample record's field bits are IA64_DUMP_F_* */
#define SMPL_IA64_FIELDS_ALL 0x1fu
#define SMPL_IA64_PMDS_ALL ((1u << IA64_DUMP_NR_PMDS) - 1)


/* callchain context markers (PERF_CONTEXT_*) are the top 4095 u64 values;
 * they do not move the delta base of the following entries */
#define SMPL_CONTEXT_MIN ((uint64_t)-4095)

/*
 * Delta bases.  Reset at the start of every chunk, so each chunk decodes on
 * its own and a lost chunk cannot shift the values of the next one.
 */
struct smpl_delta {
	uint64_t time, ip, addr;
	uint32_t pid;
	uint32_t nr_events;
	uint64_t *period; /* per event */
	uint64_t pmd[IA64_DUMP_NR_PMDS]; /* Itanium 2 samples: each PMD's last value */
	struct smpl_stacks *stacks; /* 1.4: each thread's last user stack */
};

static inline void smpl_delta_reset(struct smpl_delta *d)
{
	d->time = d->ip = d->addr = 0;
	d->pid = 0;
	memset(d->pmd, 0, sizeof(d->pmd));
	if (d->stacks)
		smpl_stacks_reset(d->stacks);
	if (d->nr_events)
		memset(d->period, 0, d->nr_events * sizeof(*d->period));
}

#endif
