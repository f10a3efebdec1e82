/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Arm SPE trace of a perf.data file as samples (internal to
 * perf_data_reader.c): the AUXTRACE records' bytes go through pfmon's
 * packet decoder (arm_spe.h), each record gives the samples perf 6.1
 * synthesizes from it, under events appended after the file's own
 * (l1d-miss ... instructions), and the reader gives them out in time
 * order among the file's records.
 */
#ifndef PFMON_SAMPLE_PERF_DATA_SPE_H
#define PFMON_SAMPLE_PERF_DATA_SPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sample/arm_spe.h"
#include "sample/sample.h"

struct pd_spe;

/* the first synthesized event's index, the fields of their samples (with
 * SAMPLE_F_TIME when the SPE event's samples have a time; else perf decodes
 * "timeless"), the CPU's MIDR */
struct pd_spe *pd_spe_new(uint32_t first_synth, uint32_t fields, uint64_t midr);
void pd_spe_free(struct pd_spe *s);
/* forget every sample and count (the index is made again) */
void pd_spe_reset(struct pd_spe *s);

/* PERF_RECORD_TIME_CONV: SPE timestamps to perf's clock */
void pd_spe_time_conv(struct pd_spe *s, uint64_t shift, uint64_t mult, uint64_t zero);
/* a thread's process, from COMM and FORK records */
void pd_spe_thread(struct pd_spe *s, uint32_t pid, uint32_t tid);

/* The trace bytes of one AUXTRACE record (queue idx, thread tid or -1,
 * cpu; aux_offset its place in the AUX buffer): for each sample, order()
 * is told its time (for the index) and its number. after: the time of the
 * file's record before it, for samples of no timestamp. */
void pd_spe_trace(struct pd_spe *s, const uint8_t *buf, size_t len, uint64_t aux_offset, uint32_t idx,
		  uint32_t tid, uint32_t cpu, uint64_t after,
		  void (*order)(void *ctx, uint64_t time, size_t i), void *ctx);
/* a PERF_RECORD_AUX record's flags: truncated or partial trace is lost */
void pd_spe_aux_flags(struct pd_spe *s, uint64_t flags);

/* after indexing: the processes of the threads named by context packets */
void pd_spe_finish(struct pd_spe *s);
/* sample i, as the reader gives it out */
void pd_spe_sample(const struct pd_spe *s, size_t i, struct sample *out);
/* the one note of what was not decoded ("" when everything was) */
void pd_spe_note(const struct pd_spe *s, char *out, size_t n);

#endif
