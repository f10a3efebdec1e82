/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one writer of counts: a set of operations (the results header,
 * the total's line, a block's start, an event's count line, a metric,
 * merge's header, statistic and per-rank value, the end) with one
 * implementation per output kind: pfmon's text, CSV with perf stat -x
 * columns, JSON lines with perf stat -j keys (a merge: one JSON document).
 * report_counts, report_interval_header, report_results_header,
 * report_total and merge_counts_print only say what comes in which order;
 * how it looks is the writer's.
 */
#ifndef PFMON_RESULTS_WRITER_H
#define PFMON_RESULTS_WRITER_H

#include <stdbool.h>
#include <stdio.h>

#include "counts.h"
#include "format.h"
#include "merge.h"
#include "common/json_writer.h"

struct count_writer;
struct results_header;

/* an operation NULL: that kind writes nothing there */
struct count_writer_ops {
	/* the results header (--with-header, a rank's results file) */
	void (*results_header)(struct count_writer *w, const struct results_header *h);
	/* --print-interval: the heading of the run's total after the rounds */
	void (*total)(struct count_writer *w);
	/* --print-interval: the heading of a round of blocks */
	void (*interval)(struct count_writer *w, double seconds);
	/* a block's start (the run, a CPU, a task, an interval); false: its
	 * counts are not written (--metric-only), only its metrics */
	bool (*block)(struct count_writer *w, const struct count_report *rep);
	/* row i's count line, left open for its metrics, then closed */
	void (*row)(struct count_writer *w, size_t i);
	void (*row_end)(struct count_writer *w, size_t i);
	/* a metric: on the open count line, else a line of its own */
	void (*metric)(struct count_writer *w, const struct metric_value *v);
	/* --merge: the run's header, one statistic a line (the events, then
	 * the metrics), the per-rank part (--merge-ranks), a rank's value */
	void (*header)(struct count_writer *w, const struct merge_counts *m);
	void (*stat)(struct count_writer *w, const struct merge_stat *st);
	void (*ranks)(struct count_writer *w);
	void (*rank_value)(struct count_writer *w, const struct merge_counts *m, size_t file, size_t stat);
	/* the end of a merge's output */
	void (*end)(struct count_writer *w);
};

struct count_writer {
	const struct count_writer_ops *ops;
	FILE *out;
	const struct count_format_opts *fo;
	struct json_writer json;
	const struct count_report *rep; /* the block being written */
	/* text: a CPU block's label; the count's width, the names', the
	 * indent of a count line's further metrics; every name padded */
	char label[64];
	char thousands[8]; /* --perf-style: the locale's thousands separator */
	int width, name_width, indent;
	bool pad_all;
	bool line_open;      /* a count line is open */
	size_t line_metrics; /* the metrics on it */
	/* JSON merge: the "metrics" array, the "per-rank" array, the rank open (file + 1) */
	bool in_metrics, in_ranks;
	size_t rank;
};

/* the results header's operations (results_write.c, which knows the header):
 * text and CSV '#' lines, JSON one object line */
void text_results_header(struct count_writer *w, const struct results_header *h);
void json_results_header(struct count_writer *w, const struct results_header *h);

/* --perf-style's writer (writer_perf.c) */
extern const struct count_writer_ops perf_writer_ops;

/* the writer of fo->kind, writing to out */
void count_writer_init(struct count_writer *w, FILE *out, const struct count_format_opts *fo);

#endif
