/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pfmon --merge of sample files: one profile of every rank of a job
 * (report/merge_samples.c). */
#ifndef PFMON_REPORT_MERGE_SAMPLES_H
#define PFMON_REPORT_MERGE_SAMPLES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "report/profile.h"

struct merge_samples_opts {
	struct profile_opts profile;
	bool ranks;   /* each rank's share of the top entries (--merge-ranks), as text */
	uint64_t top; /* how many top entries those are (0: 10) */
};

struct sample_merge;

/* every file's header checked (one job, one command line, each rank once),
 * then every file into one profile, in rank order; -1 with err */
int sample_merge_read(const struct merge_samples_opts *o, const char *const *paths, size_t n,
		      struct sample_merge **out, struct pf_error *err);
/* the profile (after a summary of the ranks, as text) into out; its
 * warnings and notes, and the samples lost, into notes */
void sample_merge_print(struct sample_merge *m, FILE *out, FILE *notes);
/* a note when the files are some of the job's ranks only */
void sample_merge_print_coverage(const struct sample_merge *m, FILE *notes);
void sample_merge_free(struct sample_merge *m);

#endif
