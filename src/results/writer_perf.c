/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --perf-style: the counts in perf stat's own text layout (perf 6.1's
 * stat-display.c, column for column): the value right-aligned in 18 (a
 * clock in msec with two decimals, a count with the locale's thousands
 * separator), the unit in 4, the event in 32, the first metric after
 * " # " in a field of 32, "( +- 0.52% )" of -r, "(50.00%)" when
 * multiplexed; around the counts, the "Performance counter stats for"
 * heading and the elapsed, user and sys seconds.
 */
#include <config.h>

#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "writer.h"

#define VALUE_WIDTH 18
#define UNIT_WIDTH 4
#define NAME_WIDTH 32
#define METRIC_WIDTH 32 /* after " # " */
#define NOT_COUNTED_END 84 /* perf pads a <not counted> line to here, a counted one to the metric's end */

/* the locale's thousands separator, as printf's %' takes it (perf's -B,
 * its default); pfmon's own locale stays "C", so decimal points stay '.' */
static void locale_thousands(char *sep, size_t size)
{
	const char *old = setlocale(LC_NUMERIC, NULL);
	char *saved = xstrdup(old ? old : "C");

	*sep = '\0';
	if (setlocale(LC_NUMERIC, ""))
		snprintf(sep, size, "%s", localeconv()->thousands_sep);
	setlocale(LC_NUMERIC, saved);
	free(saved);
}

/* v with sep between groups of three digits */
static void group_digits(uint64_t v, const char *sep, char *buf, size_t size)
{
	char digits[24];
	size_t n = (size_t)snprintf(digits, sizeof(digits), "%llu", (unsigned long long)v), len = 0;

	for (size_t i = 0; i < n && len + strlen(sep) + 2 < size; i++) {
		if (i && (n - i) % 3 == 0)
			len += (size_t)snprintf(buf + len, size - len, "%s", sep);
		buf[len++] = digits[i];
	}
	buf[len] = '\0';
}

static bool perf_block(struct count_writer *w, const struct count_report *rep)
{
	w->rep = rep;
	if (w->fo->counter_format != PF_FMT_PLAIN) /* --no-big-num: none */
		locale_thousands(w->thousands, sizeof(w->thousands));
	return true;
}

/* the value and unit columns */
static void value_columns(struct count_writer *w, const struct count_row *r)
{
	char buf[64];

	if (r->state != COUNT_OK) {
		fprintf(w->out, "%*s %-*s ", VALUE_WIDTH,
			r->state == COUNT_NOT_SUPPORTED ? "<not supported>" : "<not counted>", UNIT_WIDTH, "");
	} else if (r->scale != 0 || r->unit) { /* perf's .scale and .unit: "1.23 Joules" */
		fprintf(w->out, "%*.2f %-*s ", VALUE_WIDTH, (double)count_scaled(r) * (r->scale != 0 ? r->scale : 1),
			UNIT_WIDTH, r->unit ? r->unit : "");
	} else if (r->is_clock) {
		fprintf(w->out, "%*.2f %-*s ", VALUE_WIDTH, (double)count_scaled(r) / 1e6, UNIT_WIDTH, "msec");
	} else {
		group_digits(count_scaled(r), w->thousands, buf, sizeof(buf));
		fprintf(w->out, "%*s %-*s ", VALUE_WIDTH, buf, UNIT_WIDTH, "");
	}
}

static void perf_row(struct count_writer *w, size_t i)
{
	const struct count_row *r = &w->rep->rows[i];

	value_columns(w, r);
	fprintf(w->out, "%-*s", NAME_WIDTH, r->name);
	w->line_open = true;
	w->line_metrics = 0;
}

/* the metric field: " # value unit" padded as perf pads it */
static void metric_field(struct count_writer *w, const struct metric_value *v)
{
	char body[160];

	if (!v->ok)
		snprintf(body, sizeof(body), "%8s", "");
	else if (v->unit[0] == '%') /* "12.50% of all branches" */
		snprintf(body, sizeof(body), "%7.2f%s", v->value, v->unit);
	else
		snprintf(body, sizeof(body), "%8.3f %s", v->value, v->unit);
	fprintf(w->out, " # %-*s", METRIC_WIDTH, body);
}

static void perf_metric(struct count_writer *w, const struct metric_value *v)
{
	int indent = VALUE_WIDTH + 1 + UNIT_WIDTH + 1 + NAME_WIDTH;

	if (w->line_open && w->line_metrics++) /* further ones below, as perf prints them */
		fprintf(w->out, "\n%*s", indent, "");
	else if (!w->line_open) {
		if (!v->ok)
			return;
		fprintf(w->out, "%*s", indent - NAME_WIDTH, "");
		fprintf(w->out, "%-*s", NAME_WIDTH, w->rep->metric_defs->defs[v->def].name);
	}
	metric_field(w, v);
	if (!w->line_open)
		fputc('\n', w->out);
}

static void perf_row_end(struct count_writer *w, size_t i)
{
	const struct count_row *r = &w->rep->rows[i];

	if (!w->line_metrics) /* the metric's field empty, as perf leaves it */
		fprintf(w->out, "%*s", r->state == COUNT_OK ? 3 + METRIC_WIDTH
							  : NOT_COUNTED_END - (VALUE_WIDTH + UNIT_WIDTH + 2 + NAME_WIDTH),
			"");
	if (r->state == COUNT_OK && w->rep->runs && r->variance_pct != 0)
		fprintf(w->out, "  ( +-%6.2f%% )", r->variance_pct);
	if (r->state == COUNT_OK && r->running < r->enabled)
		fprintf(w->out, "  (%.2f%%)", count_running_pct(r));
	fputc('\n', w->out);
	w->line_open = false;
}

const struct count_writer_ops perf_writer_ops = {
	.block = perf_block,
	.row = perf_row,
	.row_end = perf_row_end,
	.metric = perf_metric,
};

void report_perf_heading(FILE *out, const struct count_perf_frame *f)
{
	fprintf(out, "\n Performance counter stats for %s", f->target);
	if (f->runs > 1)
		fprintf(out, " (%zu runs)", f->runs);
	fputs(":\n\n", out);
}

/* perf's precision of a mean: two digits past the first of its error */
static int error_precision(double sd)
{
	return (sd > 1 ? 0 : (int)lround(ceil(-log10(sd)))) + 2;
}

void report_perf_footer(FILE *out, const struct count_perf_frame *f)
{
	if (!f->null_run)
		fputc('\n', out);
	if (f->runs > 1) {
		int p = f->elapsed_sd_s > 0 ? error_precision(f->elapsed_sd_s) : 9;

		fprintf(out, " %17.*f +- %.*f seconds time elapsed", p, f->elapsed_s, p, f->elapsed_sd_s);
		if (f->elapsed_sd_s > 0 && f->elapsed_s > 0)
			fprintf(out, "  ( +-%6.2f%% )", 100.0 * f->elapsed_sd_s / f->elapsed_s);
	} else {
		fprintf(out, " %17.9f seconds time elapsed", f->elapsed_s);
		if (f->rusage)
			fprintf(out, "\n\n %17.9f seconds user\n %17.9f seconds sys\n", f->user_s, f->sys_s);
	}
	fputs("\n\n", out);
}
