/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How counts are written: the output kinds (text, CSV, JSON), the number
 * formats (plain, US 1,024, EU 1.024, hex) and the options every count
 * writer takes.  The CLI fills struct count_format_opts from its options
 * (src/cli/results_setup.c); results/ never sees the command line's config.
 */
#ifndef PFMON_RESULTS_FORMAT_H
#define PFMON_RESULTS_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum pf_counter_format {
	PF_FMT_PLAIN,
	PF_FMT_US, /* 1,024 */
	PF_FMT_EU, /* 1.024 */
	PF_FMT_HEX, /* 0x0000000000000400 */
};

enum pf_output_kind {
	PF_OUT_TEXT,
	PF_OUT_CSV,
	PF_OUT_JSON,
	PF_OUT_PERF, /* --perf-style: perf stat's text layout */
};

/* what the count writers (counts.h, merge.h, results.h) read */
struct count_format_opts {
	enum pf_output_kind kind;
	const char *csv_sep;               /* CSV's separator (-x SEP) */
	enum pf_counter_format counter_format;
	bool verbose;                      /* -v: each count's event string (text) */
	bool metric_only;                  /* --metric-only: the metrics, not the counts */
	bool merge_ranks;                  /* --merge-ranks: the per-rank rows too */
};

/* pfmon's defaults: text, plain numbers, CSV separated by commas */
#define COUNT_FORMAT_OPTS_INIT { .kind = PF_OUT_TEXT, .csv_sep = ",", .counter_format = PF_FMT_PLAIN }

/* write v into buf (at least 32 bytes) in format fmt; returns buf */
char *format_count(uint64_t v, enum pf_counter_format fmt, char *buf, size_t size);

/* CSV field: quoted when it contains sep, a quote or a line break (RFC 4180) */
void csv_field(FILE *out, const char *s, const char *sep);

#endif
