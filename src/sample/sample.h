/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a sample is, independent of where it came from (a live perf ring, a
 * pfmon sample file, a decoded IA-64 EAR/BTB register dump), plus the
 * side-band records that say which binary an address belongs to and what was
 * lost on the way.
 *
 * Variable-length parts (callchain, branch stack, file names) are pointers
 * into storage owned by whoever filled the struct: the raw perf record for
 * perf_record_decode(), the reader for smpl_reader_next().  They stay valid
 * until that owner's next call.
 */
#ifndef PFMON_SAMPLE_SAMPLE_H
#define PFMON_SAMPLE_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include "sample/ia64_dump.h"

/*
 * Field bits: which members of struct sample (and of struct sample_id) hold
 * data.  The same bits are the per-event field mask of the sample file, so
 * their values are part of the file format: never renumber them.
 */
#define SAMPLE_F_IP        (1u << 0)
#define SAMPLE_F_TID       (1u << 1)  /* pid and tid */
#define SAMPLE_F_TIME      (1u << 2)
#define SAMPLE_F_CPU       (1u << 3)
#define SAMPLE_F_PERIOD    (1u << 4)
#define SAMPLE_F_ADDR      (1u << 5)  /* data address (PEBS/IBS/SPE, faults) */
#define SAMPLE_F_WEIGHT    (1u << 6)  /* latency */
#define SAMPLE_F_DATA_SRC  (1u << 7)
#define SAMPLE_F_CALLCHAIN (1u << 8)
#define SAMPLE_F_BRANCH    (1u << 9)  /* branch stack (LBR/BRBE/BTB) */
#define SAMPLE_F_ID        (1u << 10)
#define SAMPLE_F_STREAM_ID (1u << 11)
#define SAMPLE_F_INS_LAT   (1u << 12) /* instruction latency (weight struct) */
#define SAMPLE_F_PHYS_ADDR (1u << 13)
#define SAMPLE_F_READ      (1u << 14) /* counts of the events recorded in each sample */
#define SAMPLE_F_USER_STACK (1u << 15) /* user registers and stack, unwound at report time */
#define SAMPLE_F_BRANCH_HW_IDX (1u << 16) /* the branch stack's hw_idx (PERF_SAMPLE_BRANCH_HW_INDEX) */
/* PERF_SAMPLE_WEIGHT_STRUCT's third field, var3_w: perf 6.1's p_stage_cyc
 * (pipeline stage cycles, POWER10's), later perf's retire_lat (Intel's
 * retire latency) */
#define SAMPLE_F_P_STAGE_CYC (1u << 17)
#define SAMPLE_F_ALL       ((1u << 18) - 1)

/* at most this many counts recorded in one sample (SAMPLE_F_READ) */
#define SAMPLE_MAX_READ 16

/* --call-graph=dwarf: the kernel copies at most 65528 bytes of user stack
 * (a u16 size, 8-byte aligned) and, on any architecture, at most 64 user
 * registers (a u64 mask) */
#define SAMPLE_MAX_STACK 65528u
#define SAMPLE_MAX_REGS 64u
/* The user registers --call-graph=dwarf records on x86-64 (perf's
 * PERF_REG_X86_* bits): the 16 general registers and the ip, what a CFI
 * rule can name; flags and segment registers are left out. */
#define SAMPLE_USER_REGS_X86_64 0xff01ffull

/* the sample_id fields a side-band record can carry */
#define SAMPLE_ID_FIELDS \
	(SAMPLE_F_TID | SAMPLE_F_TIME | SAMPLE_F_CPU | SAMPLE_F_ID | SAMPLE_F_STREAM_ID)

/* cpumode: PERF_RECORD_MISC_CPUMODE_MASK values of the record header */
#define SAMPLE_CPUMODE_MASK 7u

/*
 * One branch stack entry.  flags is the kernel's perf_branch_entry flag word
 * (ABI, little-endian bit order); pick it apart with these, never bitfields.
 */
struct sample_branch {
	uint64_t from;
	uint64_t to;
	uint64_t flags;
};
#define SAMPLE_BR_MISPRED        (1ull << 0)
#define SAMPLE_BR_PREDICTED      (1ull << 1)
#define SAMPLE_BR_IN_TX          (1ull << 2)
#define SAMPLE_BR_ABORT          (1ull << 3)
#define SAMPLE_BR_CYCLES_SHIFT   4
#define SAMPLE_BR_CYCLES_MASK    0xffffull
#define SAMPLE_BR_TYPE_SHIFT     20
#define SAMPLE_BR_TYPE_MASK      0xfull

struct sample {
	uint32_t fields;  /* SAMPLE_F_* present */
	uint32_t evidx;   /* index of the event in the session's event list */
	uint8_t cpumode;  /* PERF_RECORD_MISC_{KERNEL,USER,...} */
	bool exact_ip;    /* PERF_RECORD_MISC_EXACT_IP: ip is the sampled instruction */
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint32_t cpu;
	uint64_t period;
	uint64_t id, stream_id;
	uint64_t addr;      /* data address */
	uint64_t weight;    /* latency, in cycles or the PMU's unit */
	uint32_t ins_lat;   /* instruction latency (PERF_SAMPLE_WEIGHT_STRUCT) */
	uint16_t p_stage_cyc; /* SAMPLE_F_P_STAGE_CYC: WEIGHT_STRUCT's var3_w */
	uint64_t data_src;  /* PERF_MEM_* encoding */
	uint64_t phys_addr;
	uint32_t callchain_nr;
	const uint64_t *callchain; /* may hold PERF_CONTEXT_* markers */
	uint32_t branch_nr;
	const struct sample_branch *branches; /* most recent first */
	/* SAMPLE_F_BRANCH_HW_IDX: the LBR's index of the newest entry (perf's
	 * hw_idx; --stitch-lbr finds where two call stacks overlap by it) */
	uint64_t branch_hw_idx;
	uint32_t raw_size;
	const void *raw; /* PERF_SAMPLE_RAW: a tracepoint's record, an IBS dump */
	/* pfmon 3.x's non-sampling events: their running counts when the
	 * sample was taken, in the order of the event's read list (a perf
	 * group read: the leader's siblings; the leader's own count, which
	 * its periods already tell, is left out) */
	uint32_t read_nr;
	uint64_t read[SAMPLE_MAX_READ];
	/* SAMPLE_F_USER_STACK (--call-graph=dwarf): the user registers when
	 * the sample was taken (or when the thread entered the kernel) and the
	 * used part of the user stack from the stack pointer up, for
	 * unwinding at report time */
	uint32_t regs_abi;        /* PERF_SAMPLE_REGS_ABI_*: 0, no registers (a kernel thread) */
	uint64_t regs_mask;       /* perf register numbers (PERF_REG_X86_*) present */
	const uint64_t *regs;     /* popcount(regs_mask) values, lowest register first */
	uint32_t stack_size;      /* bytes at stack (the kernel's dyn_size), <= SAMPLE_MAX_STACK */
	const uint8_t *stack;
};

/* the sample_id trailer of side-band records (perf's sample_id_all) */
struct sample_id {
	uint32_t fields; /* subset of SAMPLE_ID_FIELDS */
	uint32_t pid, tid;
	uint64_t time;
	uint32_t cpu;
	uint64_t id, stream_id;
};

struct sample_mmap {
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	uint8_t cpumode;  /* kernel (modules) or user */
	bool data;        /* non-executable mapping (PERF_RECORD_MISC_MMAP_DATA) */
	bool has_build_id;
	bool has_inode;   /* maj/min/ino/ino_generation valid (MMAP2 without build id) */
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint8_t build_id_size; /* <= 20 */
	uint8_t build_id[20];
	uint32_t prot, flags; /* PROT_*, MAP_*; 0 from a plain MMAP record */
	const char *filename;
};

struct sample_comm {
	uint32_t pid, tid;
	bool exec; /* the name changed because of exec, not prctl */
	const char *comm;
};

/* fork and exit */
struct sample_task {
	uint32_t pid, ppid;
	uint32_t tid, ptid;
	uint64_t time;
};

/* LOST (id, count) and LOST_SAMPLES (count only: id is 0) */
struct sample_lost {
	uint64_t id;
	uint64_t lost;
};

/* THROTTLE and UNTHROTTLE */
struct sample_throttle {
	uint64_t time;
	uint64_t id, stream_id;
	uint32_t evidx; /* filled by whoever knows the id -> event mapping */
};

#define SAMPLE_KERNEL_BUILD_ID_MAX 64
#define SAMPLE_KERNEL_BOOT_ID_MAX 36 /* a UUID */
#define SAMPLE_KERNEL_RELEASE_MAX 64 /* uname -r */

/*
 * Which kernel took the samples (the sample file's kernel record): a report
 * may use the running kernel's symbols (kallsyms, vDSO) only if it is that
 * kernel, in that boot.  Empty fields are unknown.
 */
struct sample_kernel {
	uint8_t build_id_size;
	uint8_t build_id[SAMPLE_KERNEL_BUILD_ID_MAX]; /* GNU build-id of vmlinux */
	char boot_id[SAMPLE_KERNEL_BOOT_ID_MAX + 1];  /* /proc/sys/kernel/random/boot_id */
	char release[SAMPLE_KERNEL_RELEASE_MAX + 1];
	/* the address of _text then (perf.data's kernel mapping; not in
	 * pfmon's file, whose boot id says as much): a kernel relocated at
	 * boot (KASLR) has moved when it differs.  0: unknown */
	uint64_t text_addr;
};

/* A kernel symbol kept with the samples it named, so that a report of the
 * file needs no kallsyms, whichever kernel runs then: [addr, end). */
struct sample_ksym {
	uint64_t addr, end;
	const char *name;
	const char *module; /* NULL: vmlinux itself */
};

/*
 * Which file a mapped binary was when it was recorded (sample files only):
 * a report refuses a file that is no longer it (rebuilt, replaced), which
 * would name the samples after the wrong code.  The GNU build-id says it
 * best; device, inode, mtime and size are the fallback for binaries
 * without one.
 */
#define SAMPLE_BUILD_ID_MAX 20
struct sample_binary {
	const char *path;
	uint8_t build_id_size;  /* 0: the file has none */
	uint8_t build_id[SAMPLE_BUILD_ID_MAX];
	uint64_t dev, ino;
	uint64_t mtime_ns;      /* st_mtim, ns since the epoch */
	uint64_t size;
};

/* totals, written in the end record of a sample file */
struct sample_totals {
	uint64_t samples;
	uint64_t lost;          /* sum of LOST and LOST_SAMPLES counts */
	uint64_t throttled;     /* THROTTLE records */
	uint64_t records;       /* every record, this one excluded */
	uint64_t end_ns;        /* 1.4: CLOCK_REALTIME at the end record (0: unknown, or counted) */
};

enum sample_rec_type {
	SREC_NONE = 0,    /* a perf record pfmon does not use */
	SREC_SAMPLE,
	SREC_MMAP,        /* MMAP and MMAP2 */
	SREC_COMM,
	SREC_FORK,
	SREC_EXIT,
	SREC_LOST,
	SREC_LOST_SAMPLES,
	SREC_THROTTLE,
	SREC_UNTHROTTLE,
	SREC_END,         /* sample files only */
	SREC_KERNEL,      /* sample files only: which kernel took the samples */
	SREC_KSYM,        /* sample files only: a kernel symbol that named samples */
	SREC_BINARY,      /* sample files only: which file a mapped binary was */
	SREC_IA64_CONFIG, /* sample files only: an Itanium 2 dump's PMC10-12 (first record) */
	SREC_IA64_SAMPLE, /* sample files only: an Itanium 2 dump's sample and its PMDs */
};

struct sample_record {
	enum sample_rec_type type;
	struct sample_id sid; /* side-band records only */
	union {
		struct sample sample;
		struct sample_mmap mmap;
		struct sample_comm comm;
		struct sample_task task;       /* SREC_FORK, SREC_EXIT */
		struct sample_lost lost;       /* SREC_LOST, SREC_LOST_SAMPLES */
		struct sample_throttle throttle;
		struct sample_totals end;
		struct sample_kernel kernel;
		struct sample_ksym ksym;
		struct sample_binary binary;
		struct ia64_dump_config ia64_config; /* events, irange, drange: NULL */
		struct ia64_dump_sample ia64_sample; /* line: 0 */
	};
};

/* rec into the totals of an end record: one record, and its samples,
 * lost samples or throttling */
void sample_totals_add(struct sample_totals *t, const struct sample_record *rec);

/*
 * Folding: samples a profile cannot tell apart, counted once with their
 * number.  A profile never looks at a sample's time, CPU, or id and stream
 * id (the event is evidx); every other field must be equal.  Samples with
 * counts read in them (each credits the increase since the previous one)
 * or with a user stack to unwind are never folded.
 */
bool sample_foldable(const struct sample *s);
uint64_t sample_fold_hash(const struct sample *s);
bool sample_fold_equal(const struct sample *a, const struct sample *b);

#endif
