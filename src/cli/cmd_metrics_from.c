/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --metrics-from FILE: the metrics of counts saved earlier (pfmon's text
 * output, pfmon 3.x count lines, --outfile files, CSV, JSON lines), with
 * the metric definitions of the model chosen by --pmu.  This is how the
 * archived counts of a machine pfmon cannot program (an Itanium 2) or of
 * another host get their metrics.  Each block of the file (the run, a CPU,
 * a task, an interval) is printed again with its metrics, in the output
 * format asked for.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common/strmap.h"
#include "common/util.h"
#include "metrics.h"
#include "results/counts.h"
#include "results/counts_read.h"
#include "results/output.h"
#include "results_setup.h"

static bool is_metric_name(const char *name, void *arg)
{
	return metric_list_find(arg, name) >= 0;
}

/* the model's canonical name of the event a saved line names (an alias of
 * pfmon 3.x, another case), or NULL when the model does not know it */
static char *canonical_name(const struct encode_opts *o, const struct pmu_model *m, const char *name)
{
	char *ev = (char *)name;
	struct set_prog prog = { 0 };
	struct pf_error e;
	char *canon = NULL;

	if (pmu_encode_events(m, o, &ev, 1, &prog, &e) == 0 && prog.n_counters == 1 && prog.counters[0].name)
		canon = xstrdup(prog.counters[0].name);
	set_prog_release(&prog);
	return canon;
}

/* every row named as the model names it; each distinct name is asked once */
static void canonicalize(const struct pf_config *cfg, const struct pmu_model *m, struct saved_counts *sc)
{
	struct strmap seen;
	struct encode_opts o;
	char **canon = NULL;
	size_t n = 0;

	config_encode_opts(cfg, m, &o);
	o.model_opts = NULL; /* defaults: the name alone is asked about */
	strmap_init(&seen);
	for (size_t b = 0; b < sc->n_blocks; b++) {
		for (size_t i = 0; i < sc->blocks[b].n_rows; i++) {
			struct count_row *r = &sc->blocks[b].rows[i];
			uint64_t k = strmap_get(&seen, r->name);

			if (!k) {
				canon = xrealloc(canon, (n + 1) * sizeof(*canon));
				canon[n++] = canonical_name(&o, m, r->name);
				strmap_add(&seen, r->name, n);
				k = n;
			}
			if (canon[k - 1] && strcmp(canon[k - 1], r->name) != 0) {
				free((char *)r->name);
				r->name = xstrdup(canon[k - 1]);
			}
		}
	}
	for (size_t i = 0; i < n; i++)
		free(canon[i]);
	free(canon);
	strmap_release(&seen);
	config_encode_opts_release(&o);
}

/* the requested metrics that are not available, once each, on stderr */
static void note_unavailable(const struct metric_run *run, const struct metric_value *v, size_t n, bool *said)
{
	for (size_t i = 0; i < n; i++) {
		const struct metric_def *d = &run->list.defs[v[i].def];
		bool wanted = false;

		for (size_t w = 0; w < run->n_want && !wanted; w++)
			wanted = run->want[w] == v[i].def;
		if (v[i].ok || !wanted || said[v[i].def])
			continue;
		said[v[i].def] = true;
		fprintf(stderr, "note: metric '%s' is not available: %s%s%s\n", d->name, *v[i].missing ? "'" : "",
			*v[i].missing ? v[i].missing : "a division by zero",
			*v[i].missing ? "' is not in the file" : "");
	}
}

/* pfmon 3.x prints the counts of several CPUs (or groups of CPUs) 26 wide */
static bool several_cpus(const struct saved_counts *sc)
{
	const struct saved_block *first = NULL;

	for (size_t b = 0; b < sc->n_blocks; b++) {
		const struct saved_block *k = &sc->blocks[b];

		if (!k->per_cpu && !k->aggr_key)
			continue;
		if (!first)
			first = k;
		else if (k->cpu != first->cpu || strcmp(k->aggr_label, first->aggr_label))
			return true;
	}
	return false;
}

static void print_blocks(FILE *out, const struct pf_config *cfg, const struct metric_run *run,
			 const struct saved_counts *sc)
{
	const struct metric_list *l = &run->list;
	bool *said = xcalloc(l->n + 1, sizeof(*said));
	bool wide = several_cpus(sc), in_interval = false;
	double last_s = -1;
	unsigned last_round = 0;
	const struct count_format_opts fo = count_format_opts_from_config(cfg);

	for (size_t b = 0; b < sc->n_blocks; b++) {
		const struct saved_block *k = &sc->blocks[b];
		struct metric_value *v = xcalloc(run->n_want + k->n_rows * l->n + 1, sizeof(*v));
		struct count_report rep = { .rows = k->rows, .n_rows = k->n_rows, .task = k->has_task ? &k->task : NULL,
					    .per_cpu = k->per_cpu, .wide = wide, .cpu = k->cpu,
					    .aggr_key = k->aggr_key, .aggr_label = k->aggr_label, .aggr_nr = k->aggr_nr,
					    .interval = k->interval, .interval_s = k->interval_s,
					    .metric_defs = l, .metrics = v };

		rep.n_metrics = metric_evaluate(l, run->want, run->n_want, true, k->rows, k->n_rows, k->duration_ns, v);
		note_unavailable(run, v, rep.n_metrics, said);
		/* a new interval: its time, or (text) its heading, repeating a time */
		if (k->interval && (k->interval_s != last_s || k->round != last_round))
			report_interval_header(out, k->interval_s, &fo);
		else if (!k->interval && in_interval)
			report_total(out, &fo);
		in_interval = k->interval;
		last_s = k->interval ? k->interval_s : -1;
		last_round = k->round;
		report_counts(out, &rep, &fo);
		free(v);
	}
	free(said);
}

/* perf's CSV and JSON columns give clocks in msec: perf stat -x with two
 * decimals (10 us), perf stat -j with six */
static void note_clock_precision(const struct saved_counts *sc)
{
	if (sc->clock_decimals < 0 || sc->clock_decimals >= 6)
		return;
	fprintf(stderr, "note: the clock counts of the file are in msec with %d decimal%s: metrics of them are "
		"exact to that precision\n", sc->clock_decimals, sc->clock_decimals == 1 ? "" : "s");
}

int cmd_metrics_from(const struct pf_config *cfg, const struct pmu_model *m, struct pf_error *err)
{
	struct metric_run run;
	struct saved_counts sc = { 0 };
	struct saved_read_opts o = { .csv_sep = cfg->output_kind == PF_OUT_CSV ? cfg->csv_sep : NULL,
				     .eu_counts = cfg->counter_format == PF_FMT_EU, .is_metric = is_metric_name };
	FILE *out = NULL;
	int rc;

	if (cfg->command)
		return pf_error_set(err, PF_E_OPTION_NOT_USED, "--metrics-from", "with a command",
				    " (it reads counts saved earlier: no command is run)");
	rc = metrics_load(cfg, m, &run, err);
	o.arg = &run.list;
	if (!rc)
		rc = saved_counts_read(cfg->metrics_from, &o, &sc, err);
	if (!rc) {
		canonicalize(cfg, m, &sc);
		note_clock_precision(&sc);
		out = results_open(&(struct output_opts){ .path = cfg->outfile, .append = cfg->append }, err);
		rc = out ? 0 : -1;
	}
	if (!rc) {
		print_blocks(out, cfg, &run, &sc);
		rc = results_close(out, out == stdout ? NULL : cfg->outfile, err);
	}
	saved_counts_release(&sc);
	metrics_release(&run);
	return rc;
}
