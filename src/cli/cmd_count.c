/*
 * Counting: encode every event set with the model, run a session on the
 * command (one group per set, counting from its exec, inherited by its
 * threads and children), read and print.  Measurement yields count_rows;
 * the report layer prints them.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "metrics.h"
#include "common/util.h"
#include "kernel/perf.h"
#include "report/counts.h"
#include "target/session.h"

static bool follows(const struct pf_config *cfg)
{
	return cfg->follow_fork || cfg->follow_vfork || cfg->follow_pthread || cfg->follow_exec;
}

/*
 * The rule (pfmon(1), FOLLOWING): by default every thread and child is
 * counted with the command, in one result; --no-inherit counts the command
 * alone; any --follow-* follows exactly what it names, each task with its
 * own counters and results.  --per-thread on a command follows everything;
 * on an attached process it keeps each thread's counts apart.
 */
struct session_opts session_opts_from_config(const struct pf_config *cfg)
{
	bool follow = follows(cfg) || (cfg->per_thread && !cfg->n_attach);
	struct session_opts o = {
		.inherit = !cfg->no_inherit && !follow,
		.per_task = follow || cfg->per_thread,
		.launch = { .no_output = cfg->no_cmd_output },
		.timeout_ns = cfg->session_timeout * 1000000000ull,
	};

	if (follow) {
		bool all = !follows(cfg); /* --per-thread alone */

		o.follow = (struct session_follow){
			.enabled = true,
			.fork = all || cfg->follow_fork,
			.vfork = all || cfg->follow_vfork,
			.pthread = all || cfg->follow_pthread,
			.exec = all || cfg->follow_exec,
			.exec_pattern = cfg->follow_exec_pattern,
			.exec_exclude = cfg->follow_exec_exclude,
			.split_exec = cfg->exec_split,
		};
	}
	return o;
}

int check_task_options(const struct pf_config *cfg, struct pf_error *err)
{
	bool sampling = pf_config_is_sampling(cfg);

	if (cfg->aggregate && !follows(cfg) && !cfg->per_thread)
		return pf_error_set(err, PF_E_USAGE, "--aggregate-results sums per-task results: it needs "
				    "--follow-* or --per-thread (the results of a command are one sum already)");
	if (cfg->exec_split && !cfg->follow_exec)
		return pf_error_set(err, PF_E_USAGE, "--exec-split-results needs --follow-exec");
	if (follows(cfg) && cfg->n_attach)
		return pf_error_set(err, PF_E_USAGE, "--follow-* options apply to a launched command (an attached "
				    "process's new threads and children are always counted)");
	if (follows(cfg) && cfg->no_inherit)
		return pf_error_set(err, PF_E_USAGE, "--no-inherit and --follow-* exclude each other");
	if ((follows(cfg) || cfg->per_thread || cfg->aggregate) && sampling)
		return pf_error_set(err, PF_E_USAGE, "--follow-*, --per-thread and --aggregate-results are not "
				    "implemented with sampling yet (samples record each task's pid and tid)");
	if (cfg->show_time && (cfg->n_attach || sampling || cfg->follow_fork || cfg->follow_vfork ||
			       cfg->follow_pthread || cfg->per_thread))
		return pf_error_set(err, PF_E_USAGE, "--show-time times one launched command while counting "
				    "(not with attach, sampling, --per-thread or --follow-fork/vfork/pthread)");
	return 0;
}

int session_open_target(struct session *s, const struct pf_config *cfg, struct pf_error *err)
{
	if (cfg->n_attach)
		return session_open_tasks(s, cfg->attach, cfg->n_attach, !cfg->attach_threads, err);
	return session_open_command(s, cfg->command, err);
}

void session_note_end(const struct session *s, const struct pf_config *cfg)
{
	switch (session_ended_by(s)) {
	case SESSION_END_TARGETS:
		fprintf(stderr, "note: the monitored %s ended before the session did\n",
			cfg->attach_threads ? "threads" : cfg->n_attach > 1 ? "processes" : "process");
		break;
	case SESSION_END_TIMEOUT:
		if (!cfg->n_attach)
			fprintf(stderr, "note: session timeout after %llu s: the command was killed\n",
				(unsigned long long)cfg->session_timeout);
		break;
	default:
		break;
	}
}

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
			session_event_set(s, k), p->name, p->fstr ? p->fstr : "(kernel ABI constant)", a->type,
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

static FILE *open_output(const struct pf_config *cfg, struct pf_error *err)
{
	FILE *f;

	if (!cfg->outfile)
		return stdout;
	f = fopen(cfg->outfile, cfg->append ? "a" : "w");
	if (!f)
		pf_error_set(err, PF_E_OUTPUT, cfg->outfile, strerror(errno));
	return f;
}

static int close_output(FILE *out, const struct pf_config *cfg, struct pf_error *err)
{
	const char *name = cfg->outfile ? cfg->outfile : "standard output";
	int failed = fflush(out) != 0 || ferror(out);
	int e = errno;

	if (out != stdout && fclose(out) != 0 && !failed) {
		failed = 1;
		e = errno;
	}
	if (failed)
		return pf_error_set(err, PF_E_OUTPUT, name, strerror(e ? e : EIO));
	return 0;
}

/* the metrics of these rows: the requested ones and the shadows; notes for those not available */
static struct metric_value *compute_metrics(const struct metric_run *run, struct count_report *rep,
					    uint64_t duration_ns, bool shadows)
{
	const struct metric_list *l = &run->list;
	struct metric_value *v = xcalloc(run->n_want + rep->n_rows * l->n + 1, sizeof(*v));

	rep->metric_defs = l;
	rep->metrics = v;
	rep->n_metrics = metric_evaluate(l, run->want, run->n_want, shadows, rep->rows, rep->n_rows, duration_ns, v);
	for (size_t i = 0; i < rep->n_metrics; i++)
		if (!v[i].ok)
			fprintf(stderr, "note: metric '%s' is not available: %s%s%s\n", l->defs[v[i].def].name,
				*v[i].missing ? "'" : "", *v[i].missing ? v[i].missing : "a division by zero",
				*v[i].missing ? "' was not counted" : "");
	return v;
}

static int print_counts(struct session *s, const struct pf_config *cfg, const struct pmu_model *m,
			const struct metric_run *run, uint64_t duration_ns, FILE *out, struct pf_error *err)
{
	struct metric_value *mv = NULL;
	size_t n = session_n_events(s);
	struct session_count *counts = xcalloc(n + 1, sizeof(*counts));
	struct count_row *rows = xcalloc(n + 1, sizeof(*rows));
	struct count_report rep = { .rows = rows, .n_rows = n };
	int rc = session_read_counts(s, counts, err);

	if (!rc) {
		warn_unsupported(s, counts);
		fill_rows(s, counts, rows);
		mv = compute_metrics(run, &rep, duration_ns, true);
		if (cfg->with_header && cfg->output_kind != PF_OUT_JSON)
			report_header(out, cfg, m->name, m->desc);
		report_counts(out, &rep, cfg);
	}
	free(mv);
	free(rows);
	free(counts);
	return rc;
}

/* per-task results go to F.<pid>.<tid> (.<exec#> when split), pfmon 3.x */
static FILE *open_task_output(const struct pf_config *cfg, const struct session_task_result *r,
			      struct pf_error *err)
{
	char *path;
	FILE *f;

	if (cfg->exec_split)
		path = xasprintf("%s.%d.%d.%d", cfg->outfile, r->pid, r->tid, r->exec_no);
	else
		path = xasprintf("%s.%d.%d", cfg->outfile, r->pid, r->tid);
	f = fopen(path, cfg->append ? "a" : "w");
	if (!f)
		pf_error_set(err, PF_E_OUTPUT, path, strerror(errno));
	free(path);
	return f;
}

static const char *task_name(const struct pf_config *cfg, const struct session_task_result *r)
{
	const char *base = strrchr(r->program, '/');

	if (cfg->exec_split) /* one result per program: named by it */
		return base ? base + 1 : r->program;
	return r->comm;
}

static int print_task(const struct session *s, const struct pf_config *cfg, const struct pmu_model *m,
		      const struct metric_run *run, uint64_t duration_ns, const struct session_task_result *r,
		      FILE *out, struct count_row *rows, struct pf_error *err)
{
	struct metric_value *mv;
	int rc;

	struct count_task task = { r->pid, r->tid, r->ppid, task_name(cfg, r) };
	struct count_report rep = { .rows = rows, .n_rows = session_n_events(s), .task = &task };
	FILE *f = cfg->outfile ? open_task_output(cfg, r, err) : out;

	if (!f)
		return -1;
	fill_rows(s, r->counts, rows);
	/* pfmon 3.x's per-task lines stay as they were: only requested metrics there */
	mv = compute_metrics(run, &rep, duration_ns, cfg->output_kind != PF_OUT_TEXT);
	if (cfg->with_header && cfg->output_kind != PF_OUT_JSON)
		report_header(f, cfg, m->name, m->desc);
	report_counts(f, &rep, cfg);
	rc = f == out ? 0 : close_output(f, cfg, err);
	free(mv);
	return rc;
}

/* each task's results apart (--follow-*, --per-thread without --aggregate-results) */
static int print_task_counts(struct session *s, const struct pf_config *cfg, const struct pmu_model *m,
			     const struct metric_run *run, uint64_t duration_ns, FILE *out, struct pf_error *err)
{
	const struct session_task_result *r;
	struct count_row *rows = xcalloc(session_n_events(s) + 1, sizeof(*rows));
	size_t n;
	int rc = session_task_results(s, &r, &n, err);

	if (!rc && n)
		warn_unsupported(s, r[0].counts);
	for (size_t i = 0; i < n && !rc; i++)
		rc = print_task(s, cfg, m, run, duration_ns, &r[i], out, rows, err);
	free(rows);
	return rc;
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

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int cmd_count(const struct pf_config *cfg, const struct pmu_model *m, const struct metric_run *run,
	      struct pf_error *err)
{
	struct set_prog *sets = NULL;
	size_t n_sets = 0;
	struct session *s = NULL;
	FILE *out = NULL;
	int status = 0, rc;

	uint64_t start = 0, duration = 0;

	rc = pmu_encode_config(m, cfg, &sets, &n_sets, err);
	if (!rc && !(per_task_output(cfg) && cfg->outfile)) {
		/* open the output before the run: a bad path must not cost the measurement */
		out = open_output(cfg, err);
		rc = out ? 0 : -1;
	}
	if (!rc) {
		struct session_opts so = session_opts_from_config(cfg);

		s = session_new(sets, n_sets, NULL, &so);
		if (cfg->verbose)
			show_attrs(s);
		start = now_ns();
		rc = session_open_target(s, cfg, err);
	}
	if (!rc)
		rc = session_run(s, NULL, &status, err);
	if (!rc) {
		duration = now_ns() - start; /* perf's duration_time, for the metrics */
		session_note_end(s, cfg);
		if (cfg->show_time)
			print_times(s, duration, out ? out : stdout);
	}
	if (!rc)
		rc = per_task_output(cfg) ? print_task_counts(s, cfg, m, run, duration, out ? out : stdout, err)
					  : print_counts(s, cfg, m, run, duration, out, err);
	if (out && close_output(out, cfg, rc ? NULL : err))
		rc = -1;
	session_free(s);
	for (size_t i = 0; i < n_sets; i++)
		set_prog_release(&sets[i]);
	free(sets);
	return rc ? -1 : status;
}
