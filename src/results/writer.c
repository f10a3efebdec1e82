/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <math.h>
#include <string.h>

#include "common/util.h"
#include "writer.h"

/* ----- what every kind shows alike ----- */

static const char *state_text(enum count_state s)
{
	return s == COUNT_NOT_SUPPORTED ? "<not supported>" : "<not counted>";
}

static const struct metric_def *metric_def_of(const struct count_writer *w, const struct metric_value *v)
{
	return &w->rep->metric_defs->defs[v->def];
}

/* the unit without its '%' ("% of all branches"), as perf's metric-unit columns have it */
static const char *column_unit(const char *unit)
{
	if (unit[0] != '%')
		return unit;
	unit++;
	while (*unit == ' ')
		unit++;
	return unit;
}

/* CSV's and JSON's metric-unit: a metric of no count line is named there */
static void metric_unit(const struct count_writer *w, const struct metric_value *v, char *buf, size_t size)
{
	if (v->row < 0)
		snprintf(buf, size, "%s%s%s", column_unit(v->unit), *v->unit ? " " : "", metric_def_of(w, v)->name);
	else
		snprintf(buf, size, "%s", column_unit(v->unit));
}

/* a count in an event's own unit (perf's .scale and .unit) */
static bool has_unit(const struct count_row *r)
{
	return r->scale != 0 || r->unit;
}

/* text: as --*-counter-format says; perf stat -x: clocks in msec with 2
 * decimals, counts as integers; -j: %f both; counts in an event's own unit
 * as perf prints them, %.2f (-j: %f).  Returns the unit. */
static const char *count_value(const struct count_row *r, const struct count_format_opts *fo, char *val, size_t size)
{
	enum pf_output_kind kind = fo->kind;

	if (r->state != COUNT_OK)
		snprintf(val, size, "%s", state_text(r->state));
	else if (has_unit(r))
		snprintf(val, size, kind == PF_OUT_JSON ? "%f" : "%.2f",
			 (double)count_scaled(r) * (r->scale != 0 ? r->scale : 1));
	else if (kind == PF_OUT_TEXT)
		format_count(count_scaled(r), fo->counter_format, val, size);
	else if (r->is_clock)
		snprintf(val, size, kind == PF_OUT_JSON ? "%f" : "%.2f", (double)count_scaled(r) / 1e6);
	else if (kind == PF_OUT_JSON)
		snprintf(val, size, "%f", (double)count_scaled(r));
	else
		snprintf(val, size, "%llu", (unsigned long long)count_scaled(r));
	if (r->state == COUNT_OK && has_unit(r))
		return r->unit ? r->unit : "";
	return r->state == COUNT_OK && r->is_clock ? "msec" : "";
}

/* CSV and JSON lines: a block's counts unless --metric-only */
static bool lines_block(struct count_writer *w, const struct count_report *rep)
{
	w->rep = rep;
	return !w->fo->metric_only;
}

/* ----- text: the count right-aligned to the widest, the name, the metrics after "#" ----- */

static bool row_has_metric(const struct count_report *rep, size_t row)
{
	for (size_t i = 0; i < rep->n_metrics; i++)
		if (rep->metrics[i].row == (int)row)
			return true;
	return false;
}

static void text_interval(struct count_writer *w, double seconds)
{
	fprintf(w->out, "# %.3f s\n", seconds);
}

/* the run's total after the rounds; CSV and JSON tell it by its missing time */
static void text_total(struct count_writer *w)
{
	fputs("# total\n", w->out);
}

/*
 * pfmon 3.x's blocks: a CPU's lines start with "CPU<n>" left-justified in
 * 7 and a space; a task's (per-task, --follow-*) end with the command and
 * (pid,tid,ppid), the counts 26 wide and the names padded, as a CPU's of
 * several (wide).  A task's block has its counts even with --metric-only.
 */
static bool text_block(struct count_writer *w, const struct count_report *rep)
{
	bool rows = !w->fo->metric_only || rep->task;
	char buf[64];

	w->rep = rep;
	if (rep->per_cpu && !rep->task)
		snprintf(w->label, sizeof(w->label), "CPU%-4d ", rep->cpu);
	else if (rep->aggr_key) /* perf: "S0-D0-C1    2  ..." */
		snprintf(w->label, sizeof(w->label), "%-13s %4d ", rep->aggr_label, rep->aggr_nr);
	for (size_t i = 0; i < rep->n_rows; i++) {
		count_value(&rep->rows[i], w->fo, buf, sizeof(buf));
		if ((int)strlen(buf) > w->width)
			w->width = (int)strlen(buf);
		if ((int)strlen(rep->rows[i].name) > w->name_width)
			w->name_width = (int)strlen(rep->rows[i].name);
	}
	w->pad_all = rep->task || ((rep->per_cpu || rep->aggr_key) && rep->wide);
	if (w->pad_all)
		w->width = 26;
	w->indent = rep->task ? 26 : (int)strlen(w->label) + w->width + 1 + w->name_width;
	if (!rows) /* the metrics' values in a column of their own */
		w->width = 15;
	return rows;
}

static void text_row(struct count_writer *w, size_t i)
{
	const struct count_row *r = &w->rep->rows[i];
	const struct count_task *t = w->rep->task;
	char buf[64];

	const char *unit = count_value(r, w->fo, buf, sizeof(buf));

	fputs(w->label, w->out);
	fprintf(w->out, "%*s ", w->width, buf);
	if (has_unit(r) && *unit) /* perf's "1.23 Joules power/energy-pkg/" */
		fprintf(w->out, "%s ", unit);
	fprintf(w->out, "%-*s", w->pad_all || row_has_metric(w->rep, i) ? w->name_width : 0, r->name);
	if (t)
		fprintf(w->out, " %s (%d,%d,%d)", t->name, t->pid, t->tid, t->ppid);
	w->line_open = true;
	w->line_metrics = 0;
}

static void text_row_end(struct count_writer *w, size_t i)
{
	const struct count_row *r = &w->rep->rows[i];

	if (r->state == COUNT_OK && r->running < r->enabled) /* multiplexed */
		fprintf(w->out, "  (%.2f%%)", count_running_pct(r));
	if (r->state == COUNT_OK && w->rep->runs)
		fprintf(w->out, "  ( +- %5.2f%% )", r->variance_pct);
	if (w->fo->verbose && r->fstr && !w->rep->task && !w->rep->per_cpu)
		fprintf(w->out, "  [%s]", r->fstr);
	fputc('\n', w->out);
	w->line_open = false;
}

/*
 * perf's shadow metric on its count line, "# 0.208 CPUs utilized" (a '%'
 * unit: "12.50% of all branches"), further ones below it; a metric of no
 * count line: value, name, unit, as a line of counts.
 */
static void text_metric(struct count_writer *w, const struct metric_value *v)
{
	char buf[96];

	if (!v->ok)
		snprintf(buf, sizeof(buf), "<not available>");
	else if (!w->line_open)
		snprintf(buf, sizeof(buf), "%.3f", v->value);
	else
		snprintf(buf, sizeof(buf), v->unit[0] == '%' ? "%7.2f%s" : "%8.3f %s", v->value, v->unit);
	if (w->line_open) {
		if (w->line_metrics++)
			fprintf(w->out, "\n%*s", w->indent, "");
		fprintf(w->out, "  # %s", buf);
	} else {
		fputs(w->label, w->out);
		fprintf(w->out, "%*s %s", w->width, buf, metric_def_of(w, v)->name);
		if (*v->unit)
			fprintf(w->out, "  # %s", column_unit(v->unit));
	}
	/* what the value rests on, when it is not one plain set */
	if (v->cross_set)
		fputs("  (inputs from different event sets)", w->out);
	if (v->multiplexed)
		fputs("  (multiplexed inputs)", w->out);
	if (metric_def_of(w, v)->identity)
		fputs("  (identity: 0 when it holds)", w->out);
	if (!w->line_open)
		fputc('\n', w->out);
}

/* ----- perf stat -x: [time,][CPU<n>,][comm-tid,]value,unit,event,runtime,pcnt-running,metric-value,metric-unit ----- */

static void csv_prefix(struct count_writer *w)
{
	const struct count_report *rep = w->rep;
	const char *sep = w->fo->csv_sep;
	char thread[64];

	if (rep->interval)
		fprintf(w->out, "%.9f%s", rep->interval_s, sep);
	if (rep->per_cpu)
		fprintf(w->out, "CPU%d%s", rep->cpu, sep);
	else if (rep->aggr_key) /* perf stat --per-core -x: "S0-D0-C1,2," */
		fprintf(w->out, "%s%s%d%s", rep->aggr_label, sep, rep->aggr_nr, sep);
	if (!rep->task)
		return;
	snprintf(thread, sizeof(thread), "%s-%d", rep->task->name, rep->task->tid);
	csv_field(w->out, thread, sep);
	fputs(sep, w->out);
}

static void csv_row(struct count_writer *w, size_t i)
{
	const struct count_row *r = &w->rep->rows[i];
	const char *sep = w->fo->csv_sep, *unit;
	char val[64];

	unit = count_value(r, w->fo, val, sizeof(val));
	csv_prefix(w);
	csv_field(w->out, val, sep);
	fputs(sep, w->out);
	csv_field(w->out, unit, sep);
	fputs(sep, w->out);
	csv_field(w->out, r->name, sep);
	if (w->rep->runs) /* perf stat -r -x: the variance after the event */
		fprintf(w->out, "%s%.2f%%", sep, r->variance_pct);
	fprintf(w->out, "%s%llu%s%.2f%s", sep, (unsigned long long)r->running, sep, count_running_pct(r), sep);
	w->line_open = true;
	w->line_metrics = 0;
}

static void csv_row_end(struct count_writer *w, size_t i)
{
	if (!w->line_metrics) /* no metric: both its fields empty */
		fputs(w->fo->csv_sep, w->out);
	fputc('\n', w->out);
	w->line_open = false;
}

/* the first metric of a count line on it, each further one (perf) and
 * those of no count line on a line of their own, counts' fields empty;
 * a metric not available: empty fields, and no line of its own */
static void csv_metric(struct count_writer *w, const struct metric_value *v)
{
	const char *sep = w->fo->csv_sep;
	char unit[160];

	if (w->line_open && w->line_metrics++)
		fputc('\n', w->out);
	else if (!w->line_open && !v->ok)
		return;
	if (!w->line_open || w->line_metrics > 1) {
		csv_prefix(w);
		fprintf(w->out, "%s%s%s%s%s%s", sep, sep, sep, w->rep->runs ? sep : "", sep, sep);
	}
	if (v->ok) {
		metric_unit(w, v, unit, sizeof(unit));
		fprintf(w->out, "%.3f%s", v->value, sep);
		csv_field(w->out, unit, sep);
	} else {
		fputs(sep, w->out);
	}
	if (!w->line_open)
		fputc('\n', w->out);
}

/* ----- perf stat -j: one object a line, the same fields by name ----- */

static void json_prefix(struct count_writer *w)
{
	const struct count_report *rep = w->rep;
	char buf[64];

	if (rep->interval) { /* perf stat -I -j */
		json_key(&w->json, "interval");
		json_double(&w->json, rep->interval_s, 9);
	}
	if (rep->per_cpu) { /* perf stat -A -j */
		snprintf(buf, sizeof(buf), "%d", rep->cpu);
		json_key_string(&w->json, "cpu", buf);
	} else if (rep->aggr_key) { /* perf stat --per-core -j */
		json_key_string(&w->json, rep->aggr_key, rep->aggr_label);
		json_key(&w->json, "aggregate-number");
		json_int(&w->json, rep->aggr_nr);
	}
	if (!rep->task) /* perf stat --per-thread -j */
		return;
	snprintf(buf, sizeof(buf), "%s-%d", rep->task->name, rep->task->tid);
	json_key_string(&w->json, "thread", buf);
}

static void json_row(struct count_writer *w, size_t i)
{
	const struct count_row *r = &w->rep->rows[i];
	char val[64];
	const char *unit = count_value(r, w->fo, val, sizeof(val));

	json_begin_object(&w->json);
	json_prefix(w);
	json_key_string(&w->json, "counter-value", val);
	json_key_string(&w->json, "unit", unit);
	json_key_string(&w->json, "event", r->name);
	if (w->rep->runs) { /* perf stat -r -j: "variance"; pfmon: each run's count too */
		json_key(&w->json, "variance");
		json_double(&w->json, r->variance_pct, 2);
		json_key(&w->json, "run-values");
		json_begin_array(&w->json);
		for (size_t k = 0; r->run_values && k < w->rep->runs; k++)
			json_uint(&w->json, r->run_values[k]);
		json_end_array(&w->json);
	}
	json_key_uint(&w->json, "event-runtime", r->running);
	json_key(&w->json, "pcnt-running");
	json_double(&w->json, count_running_pct(r), 2);
	w->line_open = true;
	w->line_metrics = 0;
}

static void json_row_end(struct count_writer *w, size_t i)
{
	json_end_object(&w->json);
	json_newline(&w->json);
	w->line_open = false;
}

/* placed as CSV's; "metric-value" a number, "metric-unit" a string, both
 * absent when not available (a further metric then has no line) */
static void json_metric(struct count_writer *w, const struct metric_value *v)
{
	char unit[160];
	bool own_line = !w->line_open || w->line_metrics++;

	if (!v->ok)
		return;
	if (own_line) {
		if (w->line_open) {
			json_end_object(&w->json);
			json_newline(&w->json);
		}
		json_begin_object(&w->json);
		json_prefix(w);
	}
	metric_unit(w, v, unit, sizeof(unit));
	json_key(&w->json, "metric-value");
	json_double(&w->json, v->value, 6);
	json_key_string(&w->json, "metric-unit", unit);
	if (!w->line_open) {
		json_end_object(&w->json);
		json_newline(&w->json);
	}
}

/* ----- merge: the statistics of each event and metric over the ranks ----- */

/* a rank's value: a count exactly (the files' integers; a double holds
 * 2^53), a metric with 3 decimals; "-" or "<not counted>" when none */
static void rank_cell(const struct merge_counts *m, size_t f, size_t s, char *buf, size_t size)
{
	double x = m->per_rank[f * m->n_stats + s];
	bool count = s < m->files[0].n_values;

	if (count && m->files[f].values[s].state == COUNT_OK)
		snprintf(buf, size, "%llu", (unsigned long long)m->files[f].values[s].raw);
	else if (count)
		snprintf(buf, size, "<not counted>");
	else if (isnan(x) || isinf(x))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%.3f", x);
}

/* a statistic as text, "-" when there is none: counts as integers (mean
 * and stddev with 2 decimals; min, max and total exactly), metrics with 3 */
static void num(char *buf, size_t size, const struct merge_stat *st, double v)
{
	if (!st->ranks || isnan(v) || isinf(v))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, st->is_metric ? "%.3f" : "%.2f", v);
}

static void extreme(char *buf, size_t size, const struct merge_stat *st, bool max)
{
	if (!st->ranks)
		snprintf(buf, size, "-");
	else if (st->is_metric)
		snprintf(buf, size, "%.3f", max ? st->max : st->min);
	else
		snprintf(buf, size, "%llu", (unsigned long long)(max ? st->max_count : st->min_count));
}

/* total, mean, min, max, stddev, min_rank, max_rank, imbalance: the cells of text and CSV, in their order */
static void stat_cells(const struct merge_stat *st, char c[][64])
{
	if (st->ranks)
		snprintf(c[0], sizeof(c[0]), st->is_metric ? "%.3Lf" : "%.0Lf", st->total);
	else
		snprintf(c[0], sizeof(c[0]), "-");
	num(c[1], sizeof(c[1]), st, st->mean);
	extreme(c[2], sizeof(c[2]), st, false);
	extreme(c[3], sizeof(c[3]), st, true);
	num(c[4], sizeof(c[4]), st, st->stddev);
	snprintf(c[5], sizeof(c[5]), "%u", st->min_rank);
	snprintf(c[6], sizeof(c[6]), "%u", st->max_rank);
	snprintf(c[7], sizeof(c[7]), "%.3f", st->imbalance);
	for (size_t i = 5; i < 8; i++)
		if (!st->ranks || (i == 7 && isnan(st->imbalance)))
			snprintf(c[i], sizeof(c[i]), "-");
}

static void text_header(struct count_writer *w, const struct merge_counts *m)
{
	const struct results_file *f = &m->files[0];

	fprintf(w->out, "# pfmon --merge: %zu of %u ranks of job ", m->n_files, f->size);
	fput_escaped(w->out, m->group);
	fprintf(w->out, " on %zu host%s, %zu events", m->n_hosts, m->n_hosts == 1 ? "" : "s", f->n_values);
	fputs(", command: ", w->out);
	fput_escaped(w->out, f->command);
	fprintf(w->out, "\n%20s %16s %16s %16s %16s %8s %8s %9s %5s  %s\n", "total", "mean", "min", "max", "stddev",
		"min_rank", "max_rank", "imbalance", "ranks", "event");
}

static void text_stat(struct count_writer *w, const struct merge_stat *st)
{
	char c[8][64];

	stat_cells(st, c);
	fprintf(w->out, "%20s %16s %16s %16s %16s %8s %8s %9s %5zu  ", c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7],
		st->ranks);
	fput_escaped(w->out, st->name);
	if (*st->unit && st->is_metric)
		fprintf(w->out, "  # %s", st->unit);
	fputc('\n', w->out);
}

static void text_ranks(struct count_writer *w)
{
	fputs("# per rank\n", w->out);
}

static void text_rank_value(struct count_writer *w, const struct merge_counts *m, size_t f, size_t s)
{
	char c[64];

	rank_cell(m, f, s, c, sizeof(c));
	fprintf(w->out, "%6u %20s  ", m->files[f].rank, c);
	fput_escaped(w->out, m->stats[s].name);
	fputs("  ", w->out);
	fput_escaped(w->out, m->files[f].host);
	fputc('\n', w->out);
}

/* the CSV's columns are a promise to scripts: never reorder them */
static const char *const csv_columns[] = { "event", "total", "mean", "min", "max", "stddev", "min_rank",
					   "max_rank", "imbalance", "ranks" };

static void csv_header(struct count_writer *w, const struct merge_counts *m)
{
	if (m->of_several) { /* which group the rows below are of */
		fputs("# job ", w->out);
		fput_escaped(w->out, m->group);
		fprintf(w->out, ": %zu of %u ranks\n", m->n_files, m->files[0].size);
	}
	fputs("# ", w->out);
	for (size_t i = 0; i < ARRAY_SIZE(csv_columns); i++)
		fprintf(w->out, "%s%s", i ? w->fo->csv_sep : "", csv_columns[i]);
	fputc('\n', w->out);
}

static void csv_stat(struct count_writer *w, const struct merge_stat *st)
{
	char c[8][64];

	stat_cells(st, c);
	csv_field(w->out, st->name, w->fo->csv_sep);
	for (size_t i = 0; i < 8; i++) /* no value: an empty field */
		fprintf(w->out, "%s%s", w->fo->csv_sep, strcmp(c[i], "-") ? c[i] : "");
	fprintf(w->out, "%s%zu\n", w->fo->csv_sep, st->ranks);
}

static void csv_ranks(struct count_writer *w)
{
	const char *sep = w->fo->csv_sep;

	fprintf(w->out, "# rank%shost%sevent%svalue\n", sep, sep, sep);
}

static void csv_rank_value(struct count_writer *w, const struct merge_counts *m, size_t f, size_t s)
{
	const char *sep = w->fo->csv_sep;
	char c[64];

	rank_cell(m, f, s, c, sizeof(c));
	fprintf(w->out, "%u%s", m->files[f].rank, sep);
	csv_field(w->out, m->files[f].host, sep);
	fputs(sep, w->out);
	csv_field(w->out, m->stats[s].name, sep);
	fprintf(w->out, "%s%s\n", sep, strcmp(c, "-") && c[0] != '<' ? c : "");
}

/* JSON: one document, {job..., "events": [...], "metrics": [...], "per-rank": [...]} */
static void json_header(struct count_writer *w, const struct merge_counts *m)
{
	struct json_writer *j = &w->json;

	json_init(j, w->out, true);
	json_begin_object(j);
	json_key_string(j, "job-id", m->files[0].job_id);
	json_key_string(j, "group", m->group);
	json_key_string(j, "job-step", m->files[0].step);
	json_key_string(j, "array-job-id", m->files[0].array_job);
	json_key_string(j, "array-task-id", m->files[0].array_task);
	json_key_uint(j, "job-size", m->files[0].size);
	json_key_uint(j, "files", m->n_files);
	json_key_uint(j, "hosts", m->n_hosts);
	json_key_string(j, "command", m->files[0].command);
	json_key(j, "events");
	json_begin_array(j);
}

static void json_num(struct json_writer *j, const char *key, bool known, double v, int decimals)
{
	json_key(j, key);
	if (!known || isnan(v) || isinf(v))
		json_null(j);
	else
		json_double(j, v, decimals);
}

/* the "events" array over, "metrics" begins */
static void json_to_metrics(struct count_writer *w)
{
	if (w->in_metrics)
		return;
	json_end_array(&w->json);
	json_key(&w->json, "metrics");
	json_begin_array(&w->json);
	w->in_metrics = true;
}

static void json_stat(struct count_writer *w, const struct merge_stat *st)
{
	struct json_writer *j = &w->json;
	int d = st->is_metric ? 6 : 2;

	if (st->is_metric)
		json_to_metrics(w);
	json_begin_object(j);
	json_key_string(j, "event", st->name);
	if (st->is_metric)
		json_key_string(j, "unit", st->unit);
	json_num(j, "total", st->ranks, (double)st->total, st->is_metric ? 6 : 0);
	json_num(j, "mean", st->ranks, st->mean, d);
	if (st->is_metric || !st->ranks) {
		json_num(j, "min", st->ranks, st->min, 6);
		json_num(j, "max", st->ranks, st->max, 6);
	} else {
		json_key_uint(j, "min", st->min_count);
		json_key_uint(j, "max", st->max_count);
	}
	json_num(j, "stddev", st->ranks, st->stddev, d);
	json_key(j, "min_rank");
	st->ranks ? json_uint(j, st->min_rank) : json_null(j);
	json_key(j, "max_rank");
	st->ranks ? json_uint(j, st->max_rank) : json_null(j);
	json_num(j, "imbalance", st->ranks, st->imbalance, 6);
	json_key_uint(j, "ranks", st->ranks);
	json_end_object(j);
}

static void json_ranks(struct count_writer *w)
{
	json_to_metrics(w);
	json_end_array(&w->json);
	json_key(&w->json, "per-rank");
	json_begin_array(&w->json);
	w->in_ranks = true;
}

/* a rank: {"rank", "host", "file", "values": [{"event", "value"}...]} */
static void json_rank_value(struct count_writer *w, const struct merge_counts *m, size_t f, size_t s)
{
	struct json_writer *j = &w->json;
	double x = m->per_rank[f * m->n_stats + s];

	if (w->rank != f + 1) {
		if (w->rank) {
			json_end_array(j);
			json_end_object(j);
		}
		w->rank = f + 1;
		json_begin_object(j);
		json_key_uint(j, "rank", m->files[f].rank);
		json_key_string(j, "host", m->files[f].host);
		json_key_string(j, "file", m->files[f].path);
		json_key(j, "values");
		json_begin_array(j);
	}
	json_begin_object(j);
	json_key_string(j, "event", m->stats[s].name);
	if (s < m->files[0].n_values && m->files[f].values[s].state == COUNT_OK)
		json_key_uint(j, "value", m->files[f].values[s].raw);
	else /* a count not counted: null; a metric: its value, if the rank has one */
		json_num(j, "value", s >= m->files[0].n_values, x, 6);
	json_end_object(j);
}

static void json_end(struct count_writer *w)
{
	if (w->rank) {
		json_end_array(&w->json);
		json_end_object(&w->json);
	}
	if (!w->in_ranks)
		json_to_metrics(w);
	json_end_array(&w->json);
	json_end_object(&w->json);
	json_newline(&w->json);
}

static const struct count_writer_ops writers[] = {
	[PF_OUT_TEXT] = { text_results_header, text_total, text_interval, text_block, text_row, text_row_end,
			  text_metric, text_header, text_stat, text_ranks, text_rank_value, NULL },
	[PF_OUT_CSV] = { text_results_header, NULL, NULL, lines_block, csv_row, csv_row_end, csv_metric,
			 csv_header, csv_stat, csv_ranks, csv_rank_value, NULL },
	[PF_OUT_JSON] = { json_results_header, NULL, NULL, lines_block, json_row, json_row_end, json_metric,
			  json_header, json_stat, json_ranks, json_rank_value, json_end },
};

void count_writer_init(struct count_writer *w, FILE *out, const struct count_format_opts *fo)
{
	memset(w, 0, sizeof(*w));
	w->ops = fo->kind == PF_OUT_PERF ? &perf_writer_ops : &writers[fo->kind <= PF_OUT_JSON ? fo->kind : PF_OUT_TEXT];
	w->out = out;
	w->fo = fo;
	json_init(&w->json, out, false);
}
