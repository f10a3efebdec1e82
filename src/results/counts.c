/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "common/json_writer.h"
#include "common/util.h"
#include "counts.h"
#include "format.h"
#include "metric.h"

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

static const char *state_text(enum count_state s)
{
	return s == COUNT_NOT_SUPPORTED ? "<not supported>" : "<not counted>";
}

static bool multiplexed(const struct count_row *r)
{
	return r->state == COUNT_OK && r->running < r->enabled;
}

/* ----- derived metrics: perf prints them after the count, "# 0.208 CPUs utilized" ----- */

static const struct metric_def *metric_def_of(const struct count_report *rep, const struct metric_value *v)
{
	return &rep->metric_defs->defs[v->def];
}

/* a percentage unit ("% of all branches") prints the value with its '%' */
static bool pct_unit(const char *unit)
{
	return unit[0] == '%';
}

/* the unit without its '%' for the metric-unit columns, as perf prints it */
static const char *column_unit(const char *unit)
{
	if (!pct_unit(unit))
		return unit;
	unit++;
	while (*unit == ' ')
		unit++;
	return unit;
}

static void metric_text(const struct metric_value *v, char *buf, size_t size)
{
	if (!v->ok)
		snprintf(buf, size, "<not available>");
	else if (pct_unit(v->unit))
		snprintf(buf, size, "%7.2f%s", v->value, v->unit);
	else
		snprintf(buf, size, "%8.3f %s", v->value, v->unit);
}

/* what a metric's value rests on, when it is not one plain set */
static void metric_marks(FILE *out, const struct count_report *rep, const struct metric_value *v)
{
	if (v->cross_set)
		fputs("  (inputs from different event sets)", out);
	if (v->multiplexed)
		fputs("  (multiplexed inputs)", out);
	if (metric_def_of(rep, v)->identity)
		fputs("  (identity: 0 when it holds)", out);
}

static bool row_has_metric(const struct count_report *rep, size_t row)
{
	for (size_t i = 0; i < rep->n_metrics; i++)
		if (rep->metrics[i].row == (int)row)
			return true;
	return false;
}

/* the metrics printed on count line row: the first on it, the others below */
static void row_metrics_text(FILE *out, const struct count_report *rep, size_t row, int indent)
{
	char buf[96];
	bool first = true;

	for (size_t i = 0; i < rep->n_metrics; i++) {
		const struct metric_value *v = &rep->metrics[i];

		if (v->row != (int)row)
			continue;
		metric_text(v, buf, sizeof(buf));
		if (!first)
			fprintf(out, "\n%*s", indent, "");
		fprintf(out, "  # %s", buf);
		metric_marks(out, rep, v);
		first = false;
	}
}

/* the metrics of no count line (or all, for --metric-only): value, name,
 * unit; a CPU's block starts each line with its label as its counts do */
static void block_metrics_text(FILE *out, const struct count_report *rep, const char *label, int width, bool all)
{
	for (size_t i = 0; i < rep->n_metrics; i++) {
		const struct metric_value *v = &rep->metrics[i];
		const struct metric_def *d = metric_def_of(rep, v);
		char buf[64];

		if (v->row >= 0 && !all)
			continue;
		if (!v->ok)
			snprintf(buf, sizeof(buf), "<not available>");
		else
			snprintf(buf, sizeof(buf), "%.3f", v->value);
		if (label)
			fprintf(out, "%-7s ", label);
		fprintf(out, "%*s %s", width, buf, d->name);
		if (*v->unit)
			fprintf(out, "  # %s", column_unit(v->unit));
		metric_marks(out, rep, v);
		fputc('\n', out);
	}
}

/* ----- text: count right-aligned to the widest count, a space, the name ----- */

static void count_text(const struct count_row *r, const struct count_format_opts *fo, char *buf, size_t size)
{
	if (r->state != COUNT_OK)
		snprintf(buf, size, "%s", state_text(r->state));
	else
		format_count(count_scaled(r), fo->counter_format, buf, size);
}

/*
 * A task's block (pfmon 3.x, per-task with --follow-*): the count 26 wide,
 * the name padded to the longest, the command, (pid,tid,ppid).
 */
static void report_task_text(FILE *out, const struct count_report *rep, const struct count_format_opts *fo)
{
	const struct count_task *t = rep->task;
	char buf[64];
	int name_width = 0;

	for (size_t i = 0; i < rep->n_rows; i++)
		if ((int)strlen(rep->rows[i].name) > name_width)
			name_width = (int)strlen(rep->rows[i].name);
	for (size_t i = 0; i < rep->n_rows; i++) {
		const struct count_row *r = &rep->rows[i];

		count_text(r, fo, buf, sizeof(buf));
		fprintf(out, "%26s %-*s %s (%d,%d,%d)", buf, name_width, r->name, t->name, t->pid, t->tid, t->ppid);
		row_metrics_text(out, rep, i, 26);
		if (multiplexed(r))
			fprintf(out, "  (%.2f%%)", count_running_pct(r));
		fputc('\n', out);
	}
	block_metrics_text(out, rep, NULL, 26, false);
}

static int widest_name(const struct count_report *rep)
{
	int w = 0;

	for (size_t i = 0; i < rep->n_rows; i++)
		if ((int)strlen(rep->rows[i].name) > w)
			w = (int)strlen(rep->rows[i].name);
	return w;
}

/*
 * A CPU's block (pfmon 3.x, system-wide): "CPU<n>" left-justified in 7
 * characters and a space; with several CPUs the count is 26 wide and the
 * name padded to the longest, else as a per-task block.
 */
static void report_cpu_text(FILE *out, const struct count_report *rep, const struct count_format_opts *fo)
{
	char buf[64], label[16];
	int width = 0, name_width = 0;

	snprintf(label, sizeof(label), "CPU%d", rep->cpu);
	for (size_t i = 0; i < rep->n_rows; i++) {
		count_text(&rep->rows[i], fo, buf, sizeof(buf));
		if ((int)strlen(buf) > width)
			width = (int)strlen(buf);
		if ((int)strlen(rep->rows[i].name) > name_width)
			name_width = (int)strlen(rep->rows[i].name);
	}
	if (rep->wide)
		width = 26;
	if (fo->metric_only) {
		block_metrics_text(out, rep, label, 15, true);
		return;
	}
	for (size_t i = 0; i < rep->n_rows; i++) {
		const struct count_row *r = &rep->rows[i];
		int pad = rep->wide || row_has_metric(rep, i) ? name_width : 0;

		count_text(r, fo, buf, sizeof(buf));
		fprintf(out, "%-7s %*s %-*s", label, width, buf, pad, r->name);
		row_metrics_text(out, rep, i, 8 + width + 1 + name_width);
		if (multiplexed(r))
			fprintf(out, "  (%.2f%%)", count_running_pct(r));
		fputc('\n', out);
	}
	block_metrics_text(out, rep, label, width, false);
}

static void report_text(FILE *out, const struct count_report *rep, const struct count_format_opts *fo)
{
	char buf[64];
	int width = 0, name_width = rep->n_metrics ? widest_name(rep) : 0;

	if (rep->task) {
		report_task_text(out, rep, fo);
		return;
	}
	if (rep->per_cpu) {
		report_cpu_text(out, rep, fo);
		return;
	}
	if (fo->metric_only) {
		block_metrics_text(out, rep, NULL, 15, true);
		return;
	}
	for (size_t i = 0; i < rep->n_rows; i++) {
		count_text(&rep->rows[i], fo, buf, sizeof(buf));
		if ((int)strlen(buf) > width)
			width = (int)strlen(buf);
	}
	for (size_t i = 0; i < rep->n_rows; i++) {
		const struct count_row *r = &rep->rows[i];

		count_text(r, fo, buf, sizeof(buf));
		fprintf(out, "%*s %-*s", width, buf, row_has_metric(rep, i) ? name_width : 0, r->name);
		row_metrics_text(out, rep, i, width + 1 + name_width);
		if (multiplexed(r))
			fprintf(out, "  (%.2f%%)", count_running_pct(r));
		if (fo->verbose && r->fstr)
			fprintf(out, "  [%s]", r->fstr);
		fputc('\n', out);
	}
	block_metrics_text(out, rep, NULL, width, false);
}

/* ----- perf stat -x: value,unit,event,runtime,pcnt-running,metric-value,metric-unit ----- */

static void value_and_unit(const struct count_row *r, char *val, size_t size, const char **unit)
{
	*unit = "";
	if (r->state != COUNT_OK) {
		snprintf(val, size, "%s", state_text(r->state));
	} else if (r->is_clock) {
		/* perf reports clock events in milliseconds */
		snprintf(val, size, "%.2f", (double)count_scaled(r) / 1e6);
		*unit = "msec";
	} else {
		snprintf(val, size, "%llu", (unsigned long long)count_scaled(r));
	}
}

/* perf stat -I: the time first; --per-thread: comm-tid; -A: CPU<n> */
static void csv_task(FILE *out, const struct count_report *rep, const char *sep)
{
	char thread[64];

	if (rep->interval)
		fprintf(out, "%.9f%s", rep->interval_s, sep);
	if (rep->per_cpu)
		fprintf(out, "CPU%d%s", rep->cpu, sep);
	if (!rep->task)
		return;
	snprintf(thread, sizeof(thread), "%s-%d", rep->task->name, rep->task->tid);
	csv_field(out, thread, sep);
	fputs(sep, out);
}

/* metric-value and metric-unit: empty when there is none or it is not available */
static void csv_metric(FILE *out, const struct count_report *rep, const struct metric_value *v, bool named,
		       const char *sep)
{
	char unit[160];

	if (!v || !v->ok) {
		fputs(sep, out);
		return;
	}
	if (named) /* a metric of no count line: its name says what it is */
		snprintf(unit, sizeof(unit), "%s%s%s", column_unit(v->unit), *v->unit ? " " : "",
			 metric_def_of(rep, v)->name);
	else
		snprintf(unit, sizeof(unit), "%s", column_unit(v->unit));
	fprintf(out, "%.3f%s", v->value, sep);
	csv_field(out, unit, sep);
}

/* the next metric of count line row after index *from, or NULL */
static const struct metric_value *next_row_metric(const struct count_report *rep, int row, size_t *from)
{
	for (; *from < rep->n_metrics; (*from)++)
		if (rep->metrics[*from].row == row)
			return &rep->metrics[(*from)++];
	return NULL;
}

static void csv_metric_line(FILE *out, const struct count_report *rep, const struct metric_value *v,
			    const char *sep)
{
	csv_task(out, rep, sep);
	fprintf(out, "%s%s%s%s%s", sep, sep, sep, sep, sep);
	csv_metric(out, rep, v, v->row < 0, sep);
	fputc('\n', out);
}

static void report_csv(FILE *out, const struct count_report *rep, const struct count_format_opts *fo)
{
	const char *sep = fo->csv_sep;

	for (size_t i = 0; i < rep->n_rows && !fo->metric_only; i++) {
		const struct count_row *r = &rep->rows[i];
		const struct metric_value *v;
		const char *unit;
		char val[64];
		size_t from = 0;

		value_and_unit(r, val, sizeof(val), &unit);
		csv_task(out, rep, sep);
		csv_field(out, val, sep);
		fputs(sep, out);
		csv_field(out, unit, sep);
		fputs(sep, out);
		csv_field(out, r->name, sep);
		fprintf(out, "%s%llu%s%.2f%s", sep, (unsigned long long)r->running, sep, count_running_pct(r), sep);
		csv_metric(out, rep, next_row_metric(rep, (int)i, &from), false, sep);
		fputc('\n', out);
		while ((v = next_row_metric(rep, (int)i, &from))) /* perf: one line per further metric */
			csv_metric_line(out, rep, v, sep);
	}
	for (size_t i = 0; i < rep->n_metrics; i++)
		if ((rep->metrics[i].row < 0 || fo->metric_only) && rep->metrics[i].ok)
			csv_metric_line(out, rep, &rep->metrics[i], sep);
}

/* perf stat -j prints every count with %f: "0.691368" msec, "49.000000" */
static void json_value_and_unit(const struct count_row *r, char *val, size_t size, const char **unit)
{
	*unit = "";
	if (r->state != COUNT_OK) {
		snprintf(val, size, "%s", state_text(r->state));
	} else if (r->is_clock) {
		snprintf(val, size, "%f", (double)count_scaled(r) / 1e6);
		*unit = "msec";
	} else {
		snprintf(val, size, "%f", (double)count_scaled(r));
	}
}

static void json_task(struct json_writer *w, const struct count_report *rep)
{
	char thread[64];

	if (rep->interval) { /* perf stat -I -j */
		json_key(w, "interval");
		json_double(w, rep->interval_s, 9);
	}
	if (rep->per_cpu) { /* perf stat -A -j */
		snprintf(thread, sizeof(thread), "%d", rep->cpu);
		json_key(w, "cpu");
		json_string(w, thread);
	}
	if (!rep->task) /* perf stat --per-thread -j */
		return;
	snprintf(thread, sizeof(thread), "%s-%d", rep->task->name, rep->task->tid);
	json_key(w, "thread");
	json_string(w, thread);
}

/* "metric-value" a number, "metric-unit" a string; both absent when there is no value */
static void json_metric(struct json_writer *w, const struct count_report *rep, const struct metric_value *v)
{
	char unit[160];

	if (!v || !v->ok)
		return;
	if (v->row < 0)
		snprintf(unit, sizeof(unit), "%s%s%s", column_unit(v->unit), *v->unit ? " " : "",
			 metric_def_of(rep, v)->name);
	else
		snprintf(unit, sizeof(unit), "%s", column_unit(v->unit));
	json_key(w, "metric-value");
	json_double(w, v->value, 6);
	json_key(w, "metric-unit");
	json_string(w, unit);
}

static void json_metric_line(struct json_writer *w, const struct count_report *rep, const struct metric_value *v)
{
	if (!v->ok)
		return;
	json_begin_object(w);
	json_task(w, rep);
	json_metric(w, rep, v);
	json_end_object(w);
	json_newline(w);
}

static void report_json(FILE *out, const struct count_report *rep, const struct count_format_opts *fo)
{
	struct json_writer w;

	json_init(&w, out, false);
	for (size_t i = 0; i < rep->n_rows && !fo->metric_only; i++) {
		const struct count_row *r = &rep->rows[i];
		const struct metric_value *v;
		const char *unit;
		char val[64];
		size_t from = 0;

		json_value_and_unit(r, val, sizeof(val), &unit);
		json_begin_object(&w);
		json_task(&w, rep);
		json_key(&w, "counter-value");
		json_string(&w, val);
		json_key(&w, "unit");
		json_string(&w, unit);
		json_key(&w, "event");
		json_string(&w, r->name);
		json_key(&w, "event-runtime");
		json_uint(&w, r->running);
		json_key(&w, "pcnt-running");
		json_double(&w, count_running_pct(r), 2);
		json_metric(&w, rep, next_row_metric(rep, (int)i, &from));
		json_end_object(&w);
		json_newline(&w);
		while ((v = next_row_metric(rep, (int)i, &from)))
			json_metric_line(&w, rep, v);
	}
	for (size_t i = 0; i < rep->n_metrics; i++)
		if (rep->metrics[i].row < 0 || fo->metric_only)
			json_metric_line(&w, rep, &rep->metrics[i]);
}

void report_counts(FILE *out, const struct count_report *rep, const struct count_format_opts *fo)
{
	switch (fo->kind) {
	case PF_OUT_CSV:
		report_csv(out, rep, fo);
		break;
	case PF_OUT_JSON:
		report_json(out, rep, fo);
		break;
	case PF_OUT_TEXT:
	default:
		report_text(out, rep, fo);
	}
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

void report_interval_header(FILE *out, double seconds, const struct count_format_opts *fo)
{
	if (fo->kind == PF_OUT_TEXT)
		fprintf(out, "# %.3f s\n", seconds);
}
