/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pfmon's sample file (man/pfmon-smpl.5): a fixed header, then a stream of
 * CRC-checked chunks of self-delimiting records.  Written as a stream, so the
 * file of a pfmon that was killed reads cleanly up to its last complete
 * record; an end record with totals marks a file that was closed properly.
 */
#ifndef PFMON_SAMPLE_SMPL_FILE_H
#define PFMON_SAMPLE_SMPL_FILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "sample/sample.h"

#define SMPL_MAGIC "PFMONSMP"
#define SMPL_VERSION_MAJOR 1
/* 1.1: random period masks, read lists, the kernel record;
 * 1.2: chunk sequence numbers, binary identities;
 * 1.3: Itanium 2 dumps (configuration and PMD sample records);
 * 1.4: the job (rank, size, host, job id, launcher) in the header, the end time in the end record;
 * 1.5: user registers and stacks (the USER_STACK field, --call-graph=dwarf);
 * 1.6: branch_sample_type of each event and the branch stack's depth in the
 *      header, the BRANCH_HW_IDX field (--call-graph=lbr, --stitch-lbr);
 * 1.7: the P_STAGE_CYC field (WEIGHT_STRUCT's third field, var3_w) */
#define SMPL_VERSION_MINOR 7

#define SMPL_FIXED_HEADER_SIZE 48
#define SMPL_HEADER_MAX (16u << 20)
#define SMPL_CHUNK_HEADER_SIZE 12
#define SMPL_CHUNK_TARGET (64u << 10) /* the writer emits a chunk at this size */
#define SMPL_CHUNK_MAX (4u << 20)     /* a reader refuses larger chunks */
#define SMPL_MAX_EVENTS 4096
/* an Itanium 2 dump's map= lines hold for every process: in its sample
 * file their mapping records carry this pid and tid */
#define SMPL_IA64_ALL_PIDS UINT32_MAX

/* one event of the session */
struct smpl_event {
	char *name;
	uint32_t fields;       /* SAMPLE_F_* stored in each sample of this event */
	uint32_t attr_type;    /* perf_event_attr.type, .config: for reference */
	uint64_t attr_config;
	uint64_t sample_type;  /* perf_event_attr.sample_type */
	uint64_t branch_sample_type; /* 1.6: perf_event_attr.branch_sample_type; 0: none or unknown */
	bool freq;             /* period is a frequency, in Hz */
	uint64_t period;
	uint64_t random_mask;  /* --smpl-periods-random: periods are period + (random & mask); 0: fixed */
	bool counting;         /* not sampled: its counts are recorded in other events' samples */
	uint32_t n_reads;      /* events whose counts each sample records (SAMPLE_F_READ) */
	uint32_t reads[SAMPLE_MAX_READ];
	/* enum ibs_kind: the samples of AMD's ibs_op or ibs_fetch PMU, whose
	 * PERF_SAMPLE_RAW holds the IBS registers (perf.data: the attr type
	 * of that PMU in the PMU mappings header) */
	uint8_t ibs;
};

struct smpl_header {
	uint16_t version_major, version_minor; /* of the file read; ignored by the writer */
	uint64_t created_ns;   /* CLOCK_REALTIME, ns since the epoch; 0: the writer uses now */
	uint64_t clock_ns;     /* sample clock at created_ns, to place samples in wall time; 0: unknown */
	int32_t clockid;       /* clock of sample times (perf use_clockid), -1: perf's default */
	uint32_t argc;
	char **argv;           /* the command monitored */
	/* the recorder's own command line (pfmon's), perf.data's HEADER_CMDLINE
	 * as perf record writes its own; 0: argv (a converted file) */
	uint32_t recorder_argc;
	char **recorder_argv;
	uint32_t nr_events;
	struct smpl_event *events;
	/* perf.data's HEADER_TRACING_DATA (the tracepoints' formats), in the
	 * reader's memory; size 0: none */
	const void *tracing_data;
	size_t tracing_size;
	/* 1.4: which rank of which job wrote the file (pfmon(1), CLUSTER RUNS);
	 * has_job false: an older file, or a writer that gave none */
	bool has_job;
	uint32_t rank, size;
	char *host, *job_id, *launcher;
	/* the family and model of the CPU that took the samples (perf.data's
	 * cpuid header), for the IBS errata; 0: unknown */
	uint32_t cpu_family, cpu_model;
	/* 1.6: the branch stack's depth (perf.data's CPU_PMU_CAPS branches=,
	 * for --stitch-lbr); 0: unknown */
	uint32_t max_branches;
};

/* writing */
struct smpl_writer;

/* path "-" is stdout.  The header is written at once. */
struct smpl_writer *smpl_writer_open(const char *path, const struct smpl_header *h,
				     struct pf_error *err);
/* Append one record (types SREC_SAMPLE .. SREC_UNTHROTTLE, SREC_KERNEL, SREC_KSYM,
 * SREC_BINARY, SREC_IA64_CONFIG first of all, SREC_IA64_SAMPLE);
 * SREC_NONE is ignored.  The kernel record belongs before the first sample. */
int smpl_write_record(struct smpl_writer *w, const struct sample_record *rec,
		      struct pf_error *err);
int smpl_write_sample(struct smpl_writer *w, const struct sample *s, struct pf_error *err);
/* sid may be NULL: the record then carries no time/cpu/tid of its own */
int smpl_write_mmap(struct smpl_writer *w, const struct sample_mmap *m,
		    const struct sample_id *sid, struct pf_error *err);
/* Write out buffered records as one chunk: call it after each ring drain
 * (or every second) so a killed pfmon loses little. */
int smpl_writer_flush(struct smpl_writer *w, struct pf_error *err);
/* Write the end record, flush, fsync and close; frees w even on error. */
int smpl_writer_close(struct smpl_writer *w, struct pf_error *err);

/* reading */
struct smpl_reader;

struct smpl_status {
	bool truncated;          /* the file ends in the middle of a chunk or record */
	uint64_t truncated_at;   /* offset of the first byte that could not be used */
	/* perf.data cut after its data section: its records are whole, these
	 * header feature sections (bit N: perf's feature N, named by
	 * perf_data_feature_name()) lie past the end, at cut_at */
	uint64_t features_lost[4];
	uint64_t features_cut_at;
	/* IBS samples holding fields pfmon does not decode, and which
	 * (bit i: ibs_undecoded_name(i)) */
	uint64_t ibs_undecoded;
	uint32_t ibs_undecoded_what;
	/* perf.data's AUX trace pfmon did not decode, in words ("" if none) */
	char aux_note[320];
	bool complete;           /* the end record was read */
	struct sample_totals end;     /* from the end record, when complete */
	struct sample_totals counted; /* what was read so far */
};

/* path "-" is stdin.  Validates the header (magic, byte order, version, checksum). */
struct smpl_reader *smpl_reader_open(const char *path, struct pf_error *err);
/* Read from f (owned and closed by the reader); name is used in messages. */
struct smpl_reader *smpl_reader_fopen(FILE *f, const char *name, struct pf_error *err);
const struct smpl_header *smpl_reader_header(const struct smpl_reader *r);
/* a perf.data file (or stream) read as a sample file: never an Itanium 2
 * dump's, and its records are indexed at the first read */
bool smpl_reader_is_perf_data(const struct smpl_reader *r);
/* a perf.data file's AUX trace to out, packet by packet (perf_data.h) */
int smpl_reader_dump_aux(struct smpl_reader *r, FILE *out, struct pf_error *err);
/*
 * 1: *out holds the next record (its pointers valid until the next call);
 * 0: clean end -- check smpl_reader_status() for truncation or a missing end
 *    record; -1: corrupted or unreadable file, err names the file and offset.
 */
int smpl_reader_next(struct smpl_reader *r, struct sample_record *out, struct pf_error *err);
const struct smpl_status *smpl_reader_status(const struct smpl_reader *r);
/* file offset just past the last record returned (the header size at first) */
uint64_t smpl_reader_tell(const struct smpl_reader *r);
/* What a reader makes of the records it decodes (none by default: the
 * records as written).  Set before the first record is read. */
struct smpl_read_opts {
	/* the samples of LBR call stacks come with their user call stack as
	 * their chain, as perf resolves it (sample/lbr_stack.h) */
	bool lbr_call_stacks;
	/* and stitched as perf --stitch-lbr does */
	bool stitch_lbr;
};
void smpl_reader_set_opts(struct smpl_reader *r, const struct smpl_read_opts *o);
void smpl_reader_close(struct smpl_reader *r);

#endif
