/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Decoding raw perf_event records (as read from the ring) into struct sample
 * and the side-band structs.  Every read is bounds-checked against
 * header.size: a malformed record is an error, never an out-of-bounds read.
 */
#ifndef PFMON_SAMPLE_PERF_RECORD_H
#define PFMON_SAMPLE_PERF_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/perf_event.h>

#include "common/error.h"
#include "sample/sample.h"

/* added in Linux 6.8; absent from older uapi headers */
#ifndef PERF_SAMPLE_BRANCH_COUNTERS
#define PERF_SAMPLE_BRANCH_COUNTERS (1u << 19)
#endif

/* What the kernel writes for one event: the parts of its perf_event_attr
 * that shape the records. */
struct perf_layout {
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t branch_sample_type;
	uint64_t sample_regs_user;
	uint64_t sample_regs_intr;
	bool sample_id_all;
	uint32_t evidx; /* copied to sample.evidx */
};

void perf_layout_from_attr(struct perf_layout *l, const struct perf_event_attr *attr,
			   uint32_t evidx);

/* The SAMPLE_F_* fields a sample of this sample_type carries. */
uint32_t perf_sample_fields(uint64_t sample_type);
/* ... and those of an attr: with the branch stack's hw_idx when it has one */
uint32_t perf_attr_fields(const struct perf_event_attr *attr);

/*
 * Decode rec (8-byte aligned, rec->size bytes readable) into out.
 * Returns 1 when decoded, 0 for a record type pfmon does not use
 * (out->type == SREC_NONE), -1 with err set for a malformed record.
 * out's pointers (callchain, branches, filename, comm) point into rec.
 */
int perf_record_decode(const struct perf_event_header *rec, const struct perf_layout *l,
		       struct sample_record *out, struct pf_error *err);

/*
 * The event id of a record when the layout has PERF_SAMPLE_IDENTIFIER (first
 * u64 of a sample, last u64 of a side-band record with sample_id_all): how a
 * reader picks the layout when several events share one ring.  Returns 0 and
 * sets *id, or -1 when the record has no identifier.
 */
int perf_record_peek_id(const struct perf_event_header *rec, bool sample_id_all, uint64_t *id);

/*
 * The time of a record without decoding it (samples: a fixed offset after
 * the header; side-band records: in the sample_id trailer), for merging
 * rings by time.  Returns 0 and sets *time, or -1 when the record carries
 * none or is too short to.
 */
int perf_record_peek_time(const struct perf_event_header *rec, const struct perf_layout *l, uint64_t *time);

const char *perf_record_type_name(uint32_t type);

#endif
