/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The values of saved counts, one parser per kind: the count of pfmon's
 * text output, the count and the msec clock of perf stat -x / -j, and a
 * perf stat -x line split into its fields.  The reader of saved counts
 * (counts_read.c: --metrics-from, and pfmon --merge through results.c)
 * uses them.
 */
#ifndef PFMON_RESULTS_COUNT_PARSE_H
#define PFMON_RESULTS_COUNT_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* a count as pfmon's text prints it: plain, 0x..., 1,234,567 (--us-counter-
 * format) or, when eu, 1.234.567 (--eu-counter-format; "1.234" is also how
 * a metric prints, so only when said); groups of three after the first */
bool count_parse_text(const char *s, bool eu, uint64_t *v);

/* a count as perf stat -x and -j print it: "351" or "351.000000" */
bool count_parse_perf(const char *s, uint64_t *v);

/* a count in an event's own unit (a sysfs event's .scale and .unit, as
 * "0.09 Joules" or "0.094372"): its digits in *raw and the scale of one,
 * 10^-decimals (up to 9 decimals, 19 digits) */
bool count_parse_unit_value(const char *s, uint64_t *raw, double *scale);

/* a clock in msec as perf stat prints it, in ns (up to 10^12 ms) */
bool count_parse_msec(const char *s, uint64_t *ns);

/* a CSV line split at sep, RFC 4180 quotes; NULL on an unterminated quote
 * or an empty sep (str_vec_free() frees it) */
char **count_csv_split(const char *s, const char *sep, size_t *n);

#endif
