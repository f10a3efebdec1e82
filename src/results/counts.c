/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include "counts.h"
#include "writer.h"

uint64_t count_scaled(const struct count_row *r)
{
	if (r->prescaled || r->running == 0 || r->running >= r->enabled)
		return r->raw;
	return (uint64_t)((double)r->raw * (double)r->enabled / (double)r->running + 0.5);
}

/* perf's rule (stat-display.c): 100 when the event ran all its enabled
 * time, also an event never enabled (<not supported>: 0 of 0); a counted
 * event that never ran (<not counted>) is 0 */
double count_running_pct(const struct count_row *r)
{
	if (r->running == r->enabled)
		return 100.0;
	return 100.0 * (double)r->running / (double)r->enabled;
}

void report_counts(FILE *out, const struct count_report *rep, const struct count_format_opts *fo)
{
	struct count_writer w;
	bool rows;

	count_writer_init(&w, out, fo);
	rows = w.ops->block(&w, rep);
	for (size_t i = 0; i < rep->n_rows && rows; i++) {
		w.ops->row(&w, i);
		for (size_t m = 0; m < rep->n_metrics; m++)
			if (rep->metrics[m].row == (int)i)
				w.ops->metric(&w, &rep->metrics[m]);
		w.ops->row_end(&w, i);
	}
	/* the metrics of no count line; all of them when the counts are not written */
	for (size_t m = 0; m < rep->n_metrics; m++)
		if (rep->metrics[m].row < 0 || !rows)
			w.ops->metric(&w, &rep->metrics[m]);
}

void report_interval_header(FILE *out, double seconds, const struct count_format_opts *fo)
{
	struct count_writer w;

	count_writer_init(&w, out, fo);
	if (w.ops->interval)
		w.ops->interval(&w, seconds);
}

void report_results_header(FILE *out, const struct results_header *h, const struct count_format_opts *fo)
{
	struct count_writer w;

	count_writer_init(&w, out, fo);
	if (w.ops->results_header)
		w.ops->results_header(&w, h);
}

void report_total(FILE *out, const struct count_format_opts *fo)
{
	struct count_writer w;

	count_writer_init(&w, out, fo);
	if (w.ops->total)
		w.ops->total(&w);
}

static void hms(FILE *out, const char *label, uint64_t ns)
{
	uint64_t ms = ns / 1000000;

	fprintf(out, "%s %lluh%02llum%02llu.%03llus", label, (unsigned long long)(ms / 3600000),
		(unsigned long long)(ms / 60000 % 60), (unsigned long long)(ms / 1000 % 60),
		(unsigned long long)(ms % 1000));
}

void report_times(FILE *out, uint64_t real_ns, uint64_t user_ns, uint64_t sys_ns)
{
	hms(out, "real", real_ns);
	hms(out, " user", user_ns);
	hms(out, " sys", sys_ns);
	fputc('\n', out);
}
