/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Counting: encode every event set with the model, run a session on the
 * command (one group per set, counting from its exec, inherited by its
 * threads and children), read and print.  Measurement yields count_rows;
 * results/ prints them.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "commands.h"
#include "metrics.h"
#include "common/util.h"
#include "kernel/perf.h"
#include "results/counts.h"
#include "results_setup.h"
#include "results/results.h"
#include "results/output.h"
#include "session/session.h"
#include "session_setup.h"

static bool is_clock(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_TASK_CLOCK || a->config == PERF_COUNT_SW_CPU_CLOCK);
}

/* -v: what pfmon asks the kernel for, before it asks */
static void show_attrs(const struct session *s)
{
	for (size_t k = 0; k < session_n_events(s); k++) {
		const struct counter_prog *p = session_event(s, k);
		const struct perf_event_attr *a = &p->attr;

		fprintf(stderr,
			"pfmon: set%d %s: %s; perf_event_attr type=%u config=%#llx config1=%#llx config2=%#llx "
			"exclude_user=%u exclude_kernel=%u exclude_hv=%u inherit=%u\n",
			session_event_set(s, k), p->name, p->fstr ? p->fstr : p->kernel_only ? "(tracefs id)" : "(kernel ABI constant)", a->type,
			(unsigned long long)a->config, (unsigned long long)a->config1,
			(unsigned long long)a->config2, a->exclude_user, a->exclude_kernel, a->exclude_hv, a->inherit);
	}
}

/* events that could not be opened: one warning each, then <not supported> */
static void warn_unsupported(const struct session *s, const struct session_count *counts)
{
	for (size_t k = 0; k < session_n_events(s); k++) {
		const struct counter_prog *p = session_event(s, k);
		struct pf_error e;

		if (!counts[k].open_errno)
			continue;
		kperf_open_error(&p->attr, p->name, counts[k].open_errno, &e);
		fprintf(stderr, "warning: %s\n", e.msg);
	}
}

static void fill_rows(const struct session *s, const struct session_count *counts, struct count_row *rows)
{
	for (size_t k = 0; k < session_n_events(s); k++) {
		const struct counter_prog *p = session_event(s, k);
		const struct session_count *c = &counts[k];
		struct count_row *r = &rows[k];

		*r = (struct count_row){ .name = p->name, .set = session_event_set(s, k),
					 .is_clock = is_clock(&p->attr), .fstr = p->fstr };
		if (!c->opened) {
			r->state = COUNT_NOT_SUPPORTED;
			continue;
		}
		r->raw = c->value;
		r->enabled = c->enabled;
		r->running = c->running;
		r->state = c->running ? COUNT_OK : COUNT_NOT_COUNTED;
	}
}

/* --with-header, or an --outfile name with a job escape: a results file a merge can read */
static bool wants_header(const struct pf_config *cfg)
{
	return cfg->with_header || cfg->outfile_escaped;
}

/* the metrics of these rows: the requested ones and the shadows; notes for those not available */
static struct metric_value *compute_metrics(const struct metric_run *run, struct count_report *rep,
					    uint64_t duration_ns, bool shadows, bool warn)
{
	const struct metric_list *l = &run->list;
	struct metric_value *v = xcalloc(run->n_want + rep->n_rows * l->n + 1, sizeof(*v));

	rep->metric_defs = l;
	rep->metrics = v;
	rep->n_metrics = metric_evaluate(l, run->want, run->n_want, shadows, rep->rows, rep->n_rows, duration_ns, v);
	for (size_t i = 0; warn && i < rep->n_metrics; i++)
		if (!v[i].ok)
			fprintf(stderr, "note: metric '%s' is not available: %s%s%s\n", l->defs[v[i].def].name,
				*v[i].missing ? "'" : "", *v[i].missing ? v[i].missing : "a division by zero",
				*v[i].missing ? "' was not counted" : "");
	return v;
}

static int print_counts(struct session *s, const struct pf_config *cfg, const struct results_header *hdr, FILE *out,
			const struct metric_run *run, uint64_t duration_ns, bool warn, struct pf_error *err)
{
	struct metric_value *mv = NULL;
	size_t n = session_n_events(s);
	struct session_count *counts = xcalloc(n + 1, sizeof(*counts));
	struct count_row *rows = xcalloc(n + 1, sizeof(*rows));
	struct count_report rep = { .rows = rows, .n_rows = n };
	const struct count_format_opts fo = count_format_opts_from_config(cfg);
	int rc = session_read_counts(s, counts, err);

	if (!rc) {
		if (warn)
			warn_unsupported(s, counts);
		fill_rows(s, counts, rows);
		mv = compute_metrics(run, &rep, duration_ns, true, warn);
		if (wants_header(cfg))
			results_header_write(out, &fo, hdr);
		report_counts(out, &rep, &fo);
	}
	free(mv);
	free(rows);
	free(counts);
	return rc;
}

/* per-task results go to F.<pid>.<tid> (.<exec#> when split), pfmon 3.x */
static FILE *open_task_output(const struct pf_config *cfg, const struct session_task_result *r, char **pathp,
			      struct pf_error *err)
{
	char *path;
	FILE *f;

	if (cfg->exec_split)
		path = xasprintf("%s.%d.%d.%d", cfg->outfile, r->pid, r->tid, r->exec_no);
	else
		path = xasprintf("%s.%d.%d", cfg->outfile, r->pid, r->tid);
	f = results_open(&(struct output_opts){ .path = path, .append = cfg->append }, err);
	*pathp = path;
	return f;
}

static const char *task_name(const struct pf_config *cfg, const struct session_task_result *r)
{
	const char *base = strrchr(r->program, '/');

	if (cfg->exec_split) /* one result per program: named by it */
		return base ? base + 1 : r->program;
	return r->comm;
}

static int print_task(const struct session *s, const struct pf_config *cfg, const struct results_header *hdr,
		      const struct session_task_result *r, FILE *out, struct count_row *rows, struct pf_error *err)
{
	struct count_task task = { r->pid, r->tid, r->ppid, task_name(cfg, r) };
	struct count_report rep = { .rows = rows, .n_rows = session_n_events(s), .task = &task };
	const struct count_format_opts fo = count_format_opts_from_config(cfg);
	char *path = NULL;
	FILE *f = cfg->outfile ? open_task_output(cfg, r, &path, err) : out;
	int rc = 0;

	if (!f) {
		free(path);
		return -1;
	}
	fill_rows(s, r->counts, rows);
	if (wants_header(cfg))
		results_header_write(f, &fo, hdr);
	report_counts(f, &rep, &fo);
	if (f != out && results_close(f, path, err)) {
		report_counts(stderr, &rep, &fo); /* not lost: the error line follows */
		rc = -1;
	}
	free(path);
	return rc;
}

/* each task's results apart (--follow-*, --per-thread without --aggregate-results) */
static int print_task_counts(struct session *s, const struct pf_config *cfg, const struct results_header *hdr,
			     FILE *out, bool warn, struct pf_error *err)
{
	const struct session_task_result *r;
	struct count_row *rows = xcalloc(session_n_events(s) + 1, sizeof(*rows));
	const struct count_format_opts fo = count_format_opts_from_config(cfg);
	size_t n;
	int rc = session_task_results(s, &r, &n, err);

	if (!rc && n && warn)
		warn_unsupported(s, r[0].counts);
	for (size_t i = 0; i < n; i++) {
		struct count_task task = { r[i].pid, r[i].tid, r[i].ppid, task_name(cfg, &r[i]) };

		if (!rc) {
			rc = print_task(s, cfg, hdr, &r[i], out, rows, err);
			continue;
		}
		/* after a failed write, the other tasks' results go to stderr */
		fill_rows(s, r[i].counts, rows);
		report_counts(stderr, &(struct count_report){ .rows = rows, .n_rows = session_n_events(s),
							       .task = &task }, &fo);
	}
	free(rows);
	return rc;
}

/* F.cpu<n> (pfmon 3.x), or the output */
static FILE *open_cpu_output(const struct pf_config *cfg, int cpu, FILE *out, struct pf_error *err)
{
	char *path;
	FILE *f;

	if (!cfg->outfile)
		return out;
	path = xasprintf("%s.cpu%d", cfg->outfile, cpu);
	f = results_open(&(struct output_opts){ .path = path, .append = cfg->append }, err);
	free(path);
	return f;
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

/* system-wide without --aggregate-results: one block per CPU */
static int print_cpu_counts(struct session *s, const struct pf_config *cfg, const struct results_header *hdr, FILE *out,
			    const struct metric_run *run, uint64_t duration_ns, struct pf_error *err)
{
	size_t n = session_n_events(s), ncpu = session_n_cpus(s);
	struct session_count *counts = xcalloc(n + 1, sizeof(*counts));
	struct count_row *rows = xcalloc(n + 1, sizeof(*rows));
	const struct count_format_opts fo = count_format_opts_from_config(cfg);
	int rc = 0;

	for (size_t i = 0; i < ncpu && !rc; i++) {
		struct count_report rep = { .rows = rows, .n_rows = n, .per_cpu = true, .wide = ncpu > 1 };
		struct metric_value *mv;
		FILE *f;

		rc = session_cpu_counts(s, i, &rep.cpu, counts, err);
		if (rc)
			break;
		if (i == 0)
			warn_unsupported(s, counts);
		f = open_cpu_output(cfg, rep.cpu, out, err);
		if (!f) {
			rc = -1;
			break;
		}
		fill_rows(s, counts, rows);
		/* the requested metrics not available: said once, for the first CPU */
		mv = compute_metrics(run, &rep, cpu_duration(counts, n, duration_ns), true, i == 0);
		if (wants_header(cfg) && (f != out || i == 0))
			results_header_write(f, &fo, hdr);
		report_counts(f, &rep, &fo);
		free(mv);
		if (f != out)
			rc = results_close(f, cfg->outfile, err);
	}
	free(rows);
	free(counts);
	return rc;
}

/* --print-interval: each interval's deltas, printed as they come */
struct intervals {
	struct session *s;
	const struct pf_config *cfg;
	struct count_format_opts fo;
	const struct metric_run *run;
	uint64_t last_ns; /* the end of the previous interval */
	FILE *out;
	size_t n, blocks;              /* events; CPUs (per-CPU) or 1 */
	struct session_count *prev, *now;
	struct count_row *rows;
	uint64_t ticks;
};

static struct session_count count_delta(const struct session_count *now, const struct session_count *prev)
{
	return (struct session_count){ .opened = now->opened, .open_errno = now->open_errno,
				       .value = now->value - prev->value,
				       .enabled = now->enabled - prev->enabled,
				       .running = now->running - prev->running };
}

static int print_interval_block(struct intervals *iv, size_t b, int cpu, double seconds, uint64_t length_ns)
{
	struct metric_value *mv;
	struct session_count *now = iv->now + b * iv->n, *prev = iv->prev + b * iv->n;
	struct session_count *delta = xcalloc(iv->n + 1, sizeof(*delta));
	struct count_report rep = { .rows = iv->rows, .n_rows = iv->n, .per_cpu = iv->blocks > 1 || iv->cfg->system_wide,
				    .wide = iv->blocks > 1, .cpu = cpu, .interval = true, .interval_s = seconds };

	if (!iv->cfg->system_wide || iv->cfg->aggregate)
		rep.per_cpu = false;
	for (size_t k = 0; k < iv->n; k++)
		delta[k] = count_delta(&now[k], &prev[k]);
	fill_rows(iv->s, delta, iv->rows);
	/* an interval in which a counting event did not run (a task-clock of
	 * a sleeping task) counted 0: "<not counted>" is for events never run */
	for (size_t k = 0; k < iv->n; k++)
		if (iv->rows[k].state == COUNT_NOT_COUNTED && now[k].running)
			iv->rows[k].state = COUNT_OK;
	/* the interval's metrics: its deltas over its own length; a CPU's
	 * counter is enabled exactly as long as the interval lasted for it (the
	 * first interval also holds the time between opening and the clock's start) */
	if (rep.per_cpu)
		length_ns = cpu_duration(delta, iv->n, length_ns);
	mv = compute_metrics(iv->run, &rep, length_ns, true, false);
	report_counts(iv->out, &rep, &iv->fo);
	free(mv);
	memcpy(prev, now, iv->n * sizeof(*now));
	free(delta);
	return 0;
}

static int interval_tick(void *arg, uint64_t elapsed_ns, struct pf_error *err)
{
	struct intervals *iv = arg;
	double seconds = (double)elapsed_ns / 1e9;

	report_interval_header(iv->out, seconds, &iv->fo);
	for (size_t b = 0; b < iv->blocks; b++) {
		int cpu = -1;

		if (iv->blocks > 1 || (iv->cfg->system_wide && !iv->cfg->aggregate)) {
			if (session_cpu_counts(iv->s, b, &cpu, iv->now + b * iv->n, err))
				return -1;
		} else if (session_read_counts(iv->s, iv->now, err)) {
			return -1;
		}
		print_interval_block(iv, b, cpu, seconds, elapsed_ns - iv->last_ns);
	}
	iv->last_ns = elapsed_ns;
	fflush(iv->out);
	return iv->cfg->interval_count && ++iv->ticks >= iv->cfg->interval_count ? 1 : 0;
}

static bool per_cpu_output(const struct pf_config *cfg)
{
	return cfg->system_wide && !cfg->aggregate;
}

static bool per_task_output(const struct pf_config *cfg)
{
	return session_opts_from_config(cfg).per_task && !cfg->aggregate;
}

static uint64_t timeval_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000u + (uint64_t)tv->tv_usec * 1000u;
}

/* --show-time: the command's real, user and system time */
static void print_times(const struct session *s, uint64_t real_ns, FILE *out)
{
	const struct rusage *ru = session_command_rusage(s);

	if (ru)
		report_times(out, real_ns, timeval_ns(&ru->ru_utime), timeval_ns(&ru->ru_stime));
}

static uint64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* the results: times (--show-time), then the counts, into out (stdout
 * when NULL, per-task results to their own files with --outfile) */
static int print_results(struct session *s, const struct pf_config *cfg, const struct results_header *hdr, FILE *out,
			 const struct metric_run *run, uint64_t real_ns, bool warn, struct pf_error *err)
{
	if (cfg->show_time)
		print_times(s, real_ns, out ? out : stdout);
	if (cfg->print_interval) {
		/* perf stat -I prints no total: the deltas are all; the text has one */
		if (cfg->output_kind != PF_OUT_TEXT)
			return 0;
		fputs("# total\n", out ? out : stdout);
	}
	if (per_task_output(cfg))
		return print_task_counts(s, cfg, hdr, out ? out : stdout, warn, err);
	if (per_cpu_output(cfg))
		return print_cpu_counts(s, cfg, hdr, out ? out : stdout, run, real_ns, err);
	return print_counts(s, cfg, hdr, out, run, real_ns, warn, err);
}

/*
 * Results that could not be written (a full disk, a closed descriptor, a
 * reader gone) are not lost: they go to stderr, followed by the one error
 * line that says why.
 */
static int write_results(struct session *s, const struct pf_config *cfg, const struct results_header *hdr, FILE *out,
			 const struct metric_run *run, uint64_t real_ns, struct pf_error *err)
{
	struct pf_error ignored;
	int rc;

	kperf_test_pause("PFMON_TEST_REPORT_DELAY");
	rc = print_results(s, cfg, hdr, out, run, real_ns, true, err);

	if (!out)
		return rc;
	if (results_close(out, cfg->outfile, rc ? NULL : err)) {
		if (!rc)
			print_results(s, cfg, hdr, stderr, run, real_ns, false, &ignored);
		return -1;
	}
	return rc;
}

/* the machine, for the header's pfmon 3.x lines */
static void host_facts(struct results_host *h)
{
	struct utsname u;

	memset(h, 0, sizeof(*h));
	if (uname(&u) == 0)
		snprintf(h->kernel, sizeof(h->kernel), "%s %s %s", u.sysname, u.release, u.machine);
	h->page_size = sysconf(_SC_PAGESIZE);
	h->cpus_configured = sysconf(_SC_NPROCESSORS_CONF);
	h->cpus_online = sysconf(_SC_NPROCESSORS_ONLN);
}

/*
 * The results with the header a merge needs (pfmon(1), CLUSTER RUNS):
 * which rank of which job, the events as programmed, start and end.
 */
static int write_with_header(struct session *s, const struct pf_config *cfg, const struct pmu_model *m, FILE *out,
			     const struct metric_run *run, uint64_t start_wall, uint64_t real_ns, struct pf_error *err)
{
	size_t n = session_n_events(s);
	struct results_event *ev = xcalloc(n + 1, sizeof(*ev));
	const char **metrics = xcalloc(run->n_want + 1, sizeof(*metrics));
	struct results_host host;
	struct results_header hdr = { .pmu_name = m->name, .pmu_desc = m->desc, .host = &host, .job = &cfg->job,
				      .start_ns = start_wall, .end_ns = start_wall + real_ns,
				      .events = ev, .n_events = n, .metrics = metrics, .n_metrics = run->n_want };
	int rc;

	host_facts(&host);
	results_header_given(cfg, &hdr);
	for (size_t k = 0; k < n; k++) {
		const struct counter_prog *p = session_event(s, k);

		ev[k] = (struct results_event){ .name = p->name, .set = session_event_set(s, k),
						.type = p->attr.type, .config = p->attr.config,
						.config1 = p->attr.config1, .config2 = p->attr.config2,
						.exclude_user = p->attr.exclude_user,
						.exclude_kernel = p->attr.exclude_kernel,
						.exclude_hv = p->attr.exclude_hv };
	}
	for (size_t i = 0; i < run->n_want; i++)
		metrics[i] = run->list.defs[run->want[i]].name;
	rc = write_results(s, cfg, &hdr, out, run, real_ns, err);
	results_header_given_release(&hdr);
	free(metrics);
	free(ev);
	return rc;
}

int cmd_count(const struct pf_config *cfg, const struct pmu_model *m, const struct metric_run *run,
	      struct pf_error *err)
{
	struct set_prog *sets = NULL;
	size_t n_sets = 0;
	struct session *s = NULL;
	FILE *out = NULL;
	int status = 0, rc;
	char levels_note[512] = "";
	uint64_t start = 0, start_wall = 0;
	struct intervals iv = { 0 };

	rc = config_encode_sets(cfg, m, &sets, &n_sets, err);
	if (!rc)
		lower_default_levels(cfg, sets, n_sets, levels_note, sizeof(levels_note));
	if (!rc && !((per_task_output(cfg) || per_cpu_output(cfg)) && cfg->outfile)) {
		/* open the output before the run: a bad path must not cost the measurement */
		out = results_open(&(struct output_opts){ .path = cfg->outfile, .append = cfg->append }, err);
		rc = out ? 0 : -1;
	}
	if (!rc) {
		struct session_opts so = session_opts_from_config(cfg);

		s = session_new(sets, n_sets, NULL, &so);
		if (cfg->verbose)
			show_attrs(s);
		start = now_ns();
		start_wall = wall_ns();
		rc = session_open_target(s, cfg, err);
		if (!rc)
			fputs(levels_note, stderr);
	}
	if (!rc && cfg->print_interval) {
		size_t n = session_n_events(s), blocks = per_cpu_output(cfg) ? session_n_cpus(s) : 1;

		iv = (struct intervals){ .s = s, .cfg = cfg, .fo = count_format_opts_from_config(cfg), .run = run,
					 .out = out ? out : stdout, .n = n, .blocks = blocks,
					 .prev = xcalloc(n * blocks + 1, sizeof(*iv.prev)),
					 .now = xcalloc(n * blocks + 1, sizeof(*iv.now)),
					 .rows = xcalloc(n + 1, sizeof(*iv.rows)) };
	}
	if (!rc)
		rc = session_run(s, &(struct session_sink){ .tick = cfg->print_interval ? interval_tick : NULL, .arg = &iv },
				 &status, err);
	if (!rc) {
		uint64_t real_ns = now_ns() - start;

		session_note_end(s, cfg);
		rc = write_with_header(s, cfg, m, out, run, start_wall, real_ns, err);
	} else if (out) {
		results_close(out, cfg->outfile, NULL);
	}
	free(iv.prev);
	free(iv.now);
	free(iv.rows);
	session_free(s);
	for (size_t i = 0; i < n_sets; i++)
		set_prog_release(&sets[i]);
	free(sets);
	return rc ? -1 : status;
}
