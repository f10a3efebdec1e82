/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Histograms of the sampling modules (inst-hist, dear-hist, the btb
 * module's branch pairs): rows keyed by one address, or by a pair of
 * addresses, counted as samples come.  Memory grows with the distinct keys,
 * never with the samples.  Internal to report/.
 */
#ifndef PFMON_REPORT_IA64_HIST_H
#define PFMON_REPORT_IA64_HIST_H

#include <stddef.h>
#include <stdint.h>

#include "common/u64set.h"

#define IA64_HIST_LEVELS 3 /* L2/L3/RAM, or L2TLB/VHPT/software */
/* host samples' latency buckets (dear-hist of PERF_SAMPLE_WEIGHT) */
#define IA64_HIST_LAT_BUCKETS 5

struct ia64_hist_row {
	uint64_t key;     /* address, latency or TLB level */
	uint64_t key2;    /* pairs: the second address */
	uint64_t count;
	uint64_t level[IA64_HIST_LEVELS];
	uint64_t mispredicted;
	uint64_t lat[IA64_HIST_LAT_BUCKETS]; /* host samples: by latency bucket */
	uint64_t weight;  /* host samples: the sum of their latencies */
	size_t next;      /* pairs: the next row of the same key, or SIZE_MAX */
};

struct ia64_hist {
	struct u64set index; /* key -> first row */
	struct ia64_hist_row *rows;
	size_t n, cap;
	uint64_t total;      /* sum of counts */
};

void ia64_hist_init(struct ia64_hist *h);
void ia64_hist_release(struct ia64_hist *h);
/* the row of key (and key2, for pairs), created at 0; total grows by one */
struct ia64_hist_row *ia64_hist_count(struct ia64_hist *h, uint64_t key, uint64_t key2);

enum ia64_hist_order {
	IA64_HIST_BY_COUNT, /* descending, then by key */
	IA64_HIST_BY_VALUE, /* by key, ascending */
	IA64_HIST_BY_COST,  /* by estimated cycles (levels x cost), descending */
	IA64_HIST_BY_WEIGHT, /* by the sum of the latencies, descending */
};

/* the rows in that order: an array of indexes the caller frees; costs[]
 * (IA64_HIST_LEVELS cycles) is used by IA64_HIST_BY_COST only */
size_t *ia64_hist_sorted(const struct ia64_hist *h, enum ia64_hist_order order,
			 const unsigned *costs);

/*
 * How many of the sorted rows to print: at most top (0: all), and pfmon's
 * cumulative threshold: stop before the row that takes the cumulative
 * percentage above cum_threshold.
 */
size_t ia64_hist_shown(const struct ia64_hist *h, const size_t *order, uint64_t top,
		       uint64_t cum_threshold);

#endif
