/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A counting session read into count rows (count_rows.h): the session's
 * counts of the run, of its CPUs, of its tasks, the deltas between two
 * --print-interval reads; the metrics of each block; the warnings about
 * what was not counted; the events as programmed for the results header.
 * results/count_print.c prints what this reads.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/count_rows.h"
#include "cli/results_setup.h"
#include "common/util.h"
#include "kernel/perf.h"

static bool is_clock(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_TASK_CLOCK || a->config == PERF_COUNT_SW_CPU_CLOCK);
}

/* where the event's name goes in a reason's message (no event is named so) */
#define NAME_MARK "@@pfmon-event@@"

/* events that could not be opened: a warning line for each reason,
 * naming every event it stops (-ddd on a machine without a PMU: one line,
 * not twelve), then <not supported> in the counts */
static void warn_unsupported(const struct session *s, const struct session_count *counts)
{
	size_t n = session_n_events(s);
	bool *said = xcalloc(n + 1, sizeof(*said));

	for (size_t k = 0; k < n; k++) {
		struct strbuf names = STRBUF_INIT;
		struct pf_error e, other;
		char *mark;

		if (!counts[k].open_errno || said[k])
			continue;
		/* the reason with a mark for the name, the same for each event it stops */
		kperf_open_error(&session_event(s, k)->attr, NAME_MARK, counts[k].open_errno, &e);
		for (size_t j = k; j < n; j++) {
			if (!counts[j].open_errno || said[j])
				continue;
			kperf_open_error(&session_event(s, j)->attr, NAME_MARK, counts[j].open_errno, &other);
			if (strcmp(other.msg, e.msg))
				continue;
			strbuf_addf(&names, "%s%s", names.len ? "', '" : "", session_event(s, j)->name);
			said[j] = true;
		}
		mark = strstr(e.msg, NAME_MARK);
		if (mark)
			*mark = '\0';
		fprintf(stderr, "warning: %s%s%s\n", e.msg, strbuf_str(&names), mark ? mark + strlen(NAME_MARK) : "");
		strbuf_release(&names);
	}
	free(said);
}

static void fill_rows(const struct session *s, const struct session_count *counts, struct count_row *rows)
{
	for (size_t k = 0; k < session_n_events(s); k++) {
		const struct counter_prog *p = session_event(s, k);
		const struct session_count *c = &counts[k];
		struct count_row *r = &rows[k];

		*r = (struct count_row){ .name = p->name, .set = session_event_set(s, k),
					 .is_clock = is_clock(&p->attr), .fstr = p->fstr, .scale = p->scale,
					 .unit = p->unit };
		if (!c->opened) { /* refused, or (open_errno 0) its PMU counts on other CPUs */
			r->state = c->open_errno ? COUNT_NOT_SUPPORTED : COUNT_NOT_COUNTED;
			continue;
		}
		r->raw = c->value;
		r->enabled = c->enabled;
		r->running = c->running;
		r->state = c->running ? COUNT_OK : COUNT_NOT_COUNTED;
	}
}

/* the metrics of these rows: the requested ones and the shadows; notes for those not available */
static struct metric_value *compute_metrics(const struct metric_run *run, struct count_report *rep,
					    uint64_t duration_ns, bool warn)
{
	const struct metric_list *l = &run->list;
	struct metric_value *v = xcalloc(run->n_want + rep->n_rows * l->n + 1, sizeof(*v));

	rep->metric_defs = l;
	rep->metrics = v;
	rep->n_metrics = metric_evaluate(l, run->want, run->n_want, true, rep->rows, rep->n_rows, duration_ns, v);
	for (size_t i = 0; warn && i < rep->n_metrics; i++)
		if (!v[i].ok)
			fprintf(stderr, "note: metric '%s' is not available: %s%s%s\n", l->defs[v[i].def].name,
				*v[i].missing ? "'" : "", *v[i].missing ? v[i].missing : "a division by zero",
				*v[i].missing ? "' was not counted" : "");
	return v;
}

/* a CPU's counters are enabled for as long as it was measured: its elapsed
 * time, exact where the session's clock starts after the counters open */
static uint64_t cpu_duration(const struct session_count *counts, size_t n, uint64_t fallback)
{
	uint64_t longest = 0;

	for (size_t k = 0; k < n; k++)
		if (counts[k].opened && counts[k].enabled > longest)
			longest = counts[k].enabled;
	return longest ? longest : fallback;
}

static void blocks_alloc(struct count_blocks *cb, size_t n_blocks, size_t n_events)
{
	*cb = (struct count_blocks){ .n_events = n_events,
				     .blocks = xcalloc(n_blocks + 1, sizeof(*cb->blocks)),
				     .rows = xcalloc(n_blocks * n_events + 1, sizeof(*cb->rows)),
				     .metrics = xcalloc(n_blocks + 1, sizeof(*cb->metrics)) };
}

/* block i's rows from counts, and its report */
static struct count_report *block_fill(struct count_blocks *cb, size_t i, const struct session *s,
				       const struct session_count *counts)
{
	struct count_row *rows = cb->rows + i * cb->n_events;

	fill_rows(s, counts, rows);
	cb->blocks[i].rep = (struct count_report){ .rows = rows, .n_rows = cb->n_events };
	return &cb->blocks[i].rep;
}

/* block i's metrics, over duration_ns */
static void block_metrics(struct count_blocks *cb, size_t i, const struct metric_run *run, uint64_t duration_ns,
			  bool warn)
{
	free(cb->metrics[i]);
	cb->metrics[i] = compute_metrics(run, &cb->blocks[i].rep, duration_ns, warn);
}

void count_blocks_release(struct count_blocks *cb)
{
	for (size_t i = 0; cb->metrics && i < cb->n; i++)
		free(cb->metrics[i]);
	free(cb->metrics);
	free(cb->rows);
	free(cb->tasks);
	free(cb->blocks);
	*cb = (struct count_blocks){ 0 };
}

int count_blocks_run(struct session *s, const struct metric_run *run, uint64_t duration_ns,
		     struct count_blocks *cb, struct pf_error *err)
{
	size_t n = session_n_events(s);
	struct session_count *counts = xcalloc(n + 1, sizeof(*counts));
	int rc = session_read_counts(s, counts, err);

	blocks_alloc(cb, 1, n);
	if (!rc) {
		warn_unsupported(s, counts);
		block_fill(cb, 0, s, counts);
		block_metrics(cb, 0, run, duration_ns, true);
		cb->n = 1;
	}
	free(counts);
	return rc;
}

void count_repeats_init(struct count_repeats *r, size_t n_events, size_t max_runs)
{
	*r = (struct count_repeats){ .n_events = n_events, .max_runs = max_runs };
	r->values = xcalloc(n_events * max_runs + 1, sizeof(*r->values));
	r->enabled = xcalloc(n_events + 1, sizeof(*r->enabled));
	r->running = xcalloc(n_events + 1, sizeof(*r->running));
	r->variance_pct = xcalloc(n_events + 1, sizeof(*r->variance_pct));
}

void count_repeats_release(struct count_repeats *r)
{
	free(r->values);
	free(r->enabled);
	free(r->running);
	free(r->variance_pct);
	*r = (struct count_repeats){ 0 };
}

int count_repeats_add(struct count_repeats *r, struct session *s, struct pf_error *err)
{
	struct session_count *counts = xcalloc(r->n_events + 1, sizeof(*counts));
	int rc = session_read_counts(s, counts, err);

	for (size_t e = 0; !rc && e < r->n_events && r->runs < r->max_runs; e++) {
		struct count_row row = { .raw = counts[e].value, .enabled = counts[e].enabled,
					 .running = counts[e].running };

		r->values[e * r->max_runs + r->runs] = count_scaled(&row);
		r->enabled[e] += counts[e].enabled;
		r->running[e] += counts[e].running;
	}
	if (!rc && r->runs < r->max_runs)
		r->runs++;
	free(counts);
	return rc;
}

/* perf's stddev_stats over rel_stddev_stats: the standard error of the
 * mean (the sample's standard deviation over the square root of the
 * runs), in percent of the mean; 0 for one run or a mean of 0 */
double count_mean_error_pct(const uint64_t *v, size_t n, double *mean)
{
	double sum = 0, m2 = 0;

	for (size_t k = 0; k < n; k++)
		sum += (double)v[k];
	*mean = n ? sum / (double)n : 0;
	if (n < 2 || *mean == 0)
		return 0;
	for (size_t k = 0; k < n; k++)
		m2 += ((double)v[k] - *mean) * ((double)v[k] - *mean);
	return 100.0 * sqrt(m2 / (double)(n - 1) / (double)n) / *mean;
}

int count_blocks_repeats(struct session *last, struct count_repeats *r, const struct metric_run *run,
			 uint64_t duration_ns, struct count_blocks *cb, struct pf_error *err)
{
	struct session_count *counts = xcalloc(r->n_events + 1, sizeof(*counts));
	int rc = session_read_counts(last, counts, err); /* which events opened */

	blocks_alloc(cb, 1, r->n_events);
	if (!rc) {
		struct count_report *rep;

		warn_unsupported(last, counts);
		rep = block_fill(cb, 0, last, counts);
		rep->runs = r->runs;
		for (size_t e = 0; e < r->n_events; e++) {
			struct count_row *row = &cb->rows[e];
			double mean;

			r->variance_pct[e] = count_mean_error_pct(r->values + e * r->max_runs, r->runs, &mean);
			row->raw = (uint64_t)(mean + 0.5);
			row->prescaled = true; /* the mean of scaled counts */
			row->enabled = r->runs ? r->enabled[e] / r->runs : 0;
			row->running = r->runs ? r->running[e] / r->runs : 0;
			row->variance_pct = r->variance_pct[e];
			row->run_values = r->values + e * r->max_runs;
		}
		block_metrics(cb, 0, run, duration_ns, true);
		cb->n = 1;
	}
	free(counts);
	return rc;
}

/* a group's counts: the sum of its CPUs' (values and times add up, as
 * perf sums them); an event is counted where it opened on any of them */
static void counts_add(struct session_count *sum, const struct session_count *c, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		if (!c[k].opened) {
			if (!sum[k].opened)
				sum[k].open_errno = c[k].open_errno;
			continue;
		}
		sum[k].opened = true;
		sum[k].open_errno = 0;
		sum[k].value += c[k].value;
		sum[k].enabled += c[k].enabled;
		sum[k].running += c[k].running;
	}
}

/* block b of a system-wide session: the b-th CPU, or the b-th group of them */
static void name_cpu_block(struct count_report *rep, const struct session *s, const struct cpu_groups *g, size_t b,
			   size_t n_blocks)
{
	rep->wide = n_blocks > 1;
	if (!g) {
		rep->per_cpu = true;
		rep->cpu = session_cpus(s)[b];
		return;
	}
	rep->aggr_key = g->key;
	rep->aggr_label = g->groups[b].label;
	rep->aggr_nr = g->groups[b].nr;
}

static size_t cpu_block_of(const struct cpu_groups *g, size_t i)
{
	return g ? g->group_of[i] : i;
}

/* the blocks whole when the read of CPU `read` failed: the CPUs before it,
 * or no group (one may miss a CPU); all of them when none failed */
static size_t cpu_blocks_read(const struct cpu_groups *g, size_t read, bool failed, size_t n_blocks)
{
	return !failed ? n_blocks : g ? 0 : read;
}

int count_blocks_cpus(const struct session *s, const struct cpu_groups *g, const struct metric_run *run,
		      uint64_t duration_ns, struct count_blocks *cb, struct pf_error *err)
{
	size_t n = session_n_events(s), ncpu = session_n_cpus(s), n_blocks = g ? g->n : ncpu, read = 0;
	struct session_count *counts = xcalloc(n + 1, sizeof(*counts));
	struct session_count *sums = xcalloc(n_blocks * n + 1, sizeof(*sums));
	uint64_t *durations = xcalloc(n_blocks + 1, sizeof(*durations));
	int cpu, rc = 0;

	blocks_alloc(cb, n_blocks, n);
	for (; read < ncpu && !(rc = session_cpu_counts(s, read, &cpu, counts, err)); read++) {
		size_t b = cpu_block_of(g, read);
		uint64_t cpu_ns = cpu_duration(counts, n, duration_ns);

		if (read == 0)
			warn_unsupported(s, counts);
		counts_add(sums + b * n, counts, n);
		/* a group's metrics are over its longest-measured CPU's time, as perf's */
		if (cpu_ns > durations[b])
			durations[b] = cpu_ns;
	}
	for (size_t b = 0, whole = cpu_blocks_read(g, read, rc != 0, n_blocks); b < whole; b++) {
		name_cpu_block(block_fill(cb, b, s, sums + b * n), s, g, b, n_blocks);
		/* the requested metrics not available: said once, for the first block */
		block_metrics(cb, b, run, durations[b], b == 0);
		cb->n = b + 1;
	}
	free(durations);
	free(sums);
	free(counts);
	return rc;
}

static const char *task_name(bool per_program, const struct session_task_result *r)
{
	const char *base = strrchr(r->program, '/');

	if (per_program) /* one result per program: named by it */
		return base ? base + 1 : r->program;
	return r->comm;
}

int count_blocks_tasks(struct session *s, bool per_program, struct count_blocks *cb, struct pf_error *err)
{
	const struct session_task_result *r = NULL;
	size_t n = 0;
	int rc = session_task_results(s, &r, &n, err);

	if (rc)
		n = 0;
	blocks_alloc(cb, n, session_n_events(s));
	cb->tasks = xcalloc(n + 1, sizeof(*cb->tasks));
	if (n)
		warn_unsupported(s, r[0].counts);
	for (size_t i = 0; i < n; i++) {
		cb->tasks[i] = (struct count_task){ r[i].pid, r[i].tid, r[i].ppid, task_name(per_program, &r[i]) };
		block_fill(cb, i, s, r[i].counts)->task = &cb->tasks[i];
		cb->blocks[i].exec_no = r[i].exec_no;
	}
	cb->n = n;
	return rc;
}

/* --print-interval: the previous read and this one of each CPU (per CPU
 * or by groups of CPUs) or of the run, and a block each CPU, group or run */
struct count_intervals {
	struct session *s;
	const struct metric_run *run;
	bool per_cpu;
	const struct cpu_groups *groups; /* per_cpu: the CPUs' groups, or NULL: a block each */
	size_t n, n_reads, n_blocks;     /* events; CPUs (per CPU) or 1; blocks */
	struct session_count *prev, *now; /* each read's */
	struct count_blocks cb;
	uint64_t last_ns; /* the end of the previous interval */
	uint64_t rounds, max_rounds;
	FILE *out;
	struct count_print_opts po;
};

struct count_intervals *count_intervals_new(struct session *s, const struct metric_run *run, bool per_cpu,
					    const struct cpu_groups *groups, uint64_t max_rounds, FILE *out,
					    const struct count_print_opts *po)
{
	struct count_intervals *iv = xcalloc(1, sizeof(*iv));
	size_t n = session_n_events(s), reads = per_cpu ? session_n_cpus(s) : 1;

	*iv = (struct count_intervals){ .s = s, .run = run, .per_cpu = per_cpu, .groups = per_cpu ? groups : NULL,
					.n = n, .n_reads = reads, .n_blocks = per_cpu && groups ? groups->n : reads,
					.prev = xcalloc(n * reads + 1, sizeof(*iv->prev)),
					.now = xcalloc(n * reads + 1, sizeof(*iv->now)),
					.max_rounds = max_rounds, .out = out, .po = *po };
	blocks_alloc(&iv->cb, iv->n_blocks, n);
	iv->cb.n = iv->n_blocks;
	return iv;
}

void count_intervals_free(struct count_intervals *iv)
{
	if (!iv)
		return;
	count_blocks_release(&iv->cb);
	free(iv->prev);
	free(iv->now);
	free(iv);
}

static struct session_count count_delta(const struct session_count *now, const struct session_count *prev)
{
	return (struct session_count){ .opened = now->opened, .open_errno = now->open_errno,
				       .value = now->value - prev->value,
				       .enabled = now->enabled - prev->enabled,
				       .running = now->running - prev->running };
}

/* one round's deltas of each block, with what the block's metrics are over */
struct interval_sums {
	struct session_count *delta; /* block b's: delta + b * n */
	bool *ran;                   /* block b's event k ever ran: ran[b * n + k] */
	uint64_t *length_ns;         /* block b's */
};

/* block b's deltas since the previous read, over the interval's length */
static void interval_block(struct count_intervals *iv, size_t b, const struct interval_sums *sum, double seconds)
{
	struct count_row *rows = iv->cb.rows + b * iv->n;
	struct count_report *rep = block_fill(&iv->cb, b, iv->s, sum->delta + b * iv->n);

	if (iv->per_cpu)
		name_cpu_block(rep, iv->s, iv->groups, b, iv->n_blocks);
	rep->interval = true;
	rep->interval_s = seconds;
	/* an interval in which a counting event did not run (a task-clock of
	 * a sleeping task) counted 0: "<not counted>" is for events never run */
	for (size_t k = 0; k < iv->n; k++)
		if (rows[k].state == COUNT_NOT_COUNTED && sum->ran[b * iv->n + k])
			rows[k].state = COUNT_OK;
	block_metrics(&iv->cb, b, iv->run, sum->length_ns[b], false);
}

/* read r's counts (a CPU, or the run) added to its block's deltas */
static int interval_add(struct count_intervals *iv, size_t r, uint64_t length_ns, struct interval_sums *sum,
			struct pf_error *err)
{
	struct session_count *now = iv->now + r * iv->n, *prev = iv->prev + r * iv->n;
	struct session_count *delta = xcalloc(iv->n + 1, sizeof(*delta));
	size_t b = iv->per_cpu ? cpu_block_of(iv->groups, r) : 0;
	int cpu;

	if (iv->per_cpu ? session_cpu_counts(iv->s, r, &cpu, now, err) : session_read_counts(iv->s, now, err)) {
		free(delta);
		return -1;
	}
	for (size_t k = 0; k < iv->n; k++) {
		delta[k] = count_delta(&now[k], &prev[k]);
		if (session_event(iv->s, k)->snapshot) /* a value, not a running count (perf's .snapshot) */
			delta[k].value = now[k].value;
		sum->ran[b * iv->n + k] |= now[k].running != 0;
	}
	counts_add(sum->delta + b * iv->n, delta, iv->n);
	/* a CPU's counter is enabled exactly as long as the interval lasted
	 * for it (the first interval also holds the time between opening and
	 * the clock's start); a group's, its longest-measured CPU's */
	if (iv->per_cpu)
		length_ns = cpu_duration(delta, iv->n, length_ns);
	if (length_ns > sum->length_ns[b])
		sum->length_ns[b] = length_ns;
	memcpy(prev, now, iv->n * sizeof(*now));
	free(delta);
	return 0;
}

/* this round's blocks: how many were read (all, or those whole before an error) */
static size_t interval_read(struct count_intervals *iv, double seconds, uint64_t length_ns, struct pf_error *err)
{
	size_t n = iv->n, blocks = iv->n_blocks, r = 0;
	struct interval_sums sum = { .delta = xcalloc(blocks * n + 1, sizeof(*sum.delta)),
				     .ran = xcalloc(blocks * n + 1, sizeof(*sum.ran)),
				     .length_ns = xcalloc(blocks + 1, sizeof(*sum.length_ns)) };

	while (r < iv->n_reads && !interval_add(iv, r, length_ns, &sum, err))
		r++;
	blocks = cpu_blocks_read(iv->groups, r, r < iv->n_reads, blocks);
	for (size_t b = 0; b < blocks; b++)
		interval_block(iv, b, &sum, seconds);
	free(sum.delta);
	free(sum.ran);
	free(sum.length_ns);
	return blocks;
}

int count_intervals_tick(void *arg, uint64_t elapsed_ns, struct pf_error *err)
{
	struct count_intervals *iv = arg;
	double seconds = (double)elapsed_ns / 1e9;
	size_t read = interval_read(iv, seconds, elapsed_ns - iv->last_ns, err);
	struct count_results r = { .interval = true, .interval_s = seconds, .blocks = iv->cb.blocks, .n_blocks = read };

	count_results_print(iv->out, &r, &iv->po, NULL);
	if (read < iv->n_blocks)
		return -1;
	iv->last_ns = elapsed_ns;
	return iv->max_rounds && ++iv->rounds >= iv->max_rounds ? 1 : 0;
}

/* the events as programmed: what a merge compares between ranks */
static struct results_event *programmed_events(const struct session *s)
{
	size_t n = session_n_events(s);
	struct results_event *ev = xcalloc(n + 1, sizeof(*ev));

	for (size_t k = 0; k < n; k++) {
		const struct counter_prog *p = session_event(s, k);

		ev[k] = (struct results_event){ .name = p->name, .set = session_event_set(s, k),
						.type = p->attr.type, .config = p->attr.config,
						.config1 = p->attr.config1, .config2 = p->attr.config2,
						.exclude_user = p->attr.exclude_user,
						.exclude_kernel = p->attr.exclude_kernel,
						.exclude_hv = p->attr.exclude_hv };
	}
	return ev;
}

void count_header_fill(const struct session *s, const struct pf_config *cfg, const struct pmu_model *m,
		       const struct metric_run *run, uint64_t start_ns, uint64_t end_ns, struct results_host *host,
		       struct results_header *h)
{
	const char **metrics = xcalloc(run->n_want + 1, sizeof(*metrics));

	for (size_t i = 0; i < run->n_want; i++)
		metrics[i] = run->list.defs[run->want[i]].name;
	results_host_facts(host);
	*h = (struct results_header){ .pmu_name = m->name, .pmu_desc = m->desc, .host = host, .job = &cfg->job,
				      .start_ns = start_ns, .end_ns = end_ns,
				      .events = programmed_events(s), .n_events = session_n_events(s),
				      .metrics = metrics, .n_metrics = run->n_want };
	results_header_given(cfg, h);
}

void count_header_release(struct results_header *h)
{
	results_header_given_release(h);
	free((void *)h->events);
	free((void *)h->metrics);
}
