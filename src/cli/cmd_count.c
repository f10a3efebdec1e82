/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Counting: encode every event set with the model, run a session on the
 * command (one group per set, counting from its exec, inherited by its
 * threads and children), read and print.  This file is the options and
 * the calls: cli/count_rows.c reads the session into count rows (the run,
 * per CPU, per task, per interval), results/count_print.c prints them
 * where results/output.c says.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "commands.h"
#include "common/util.h"
#include "count_rows.h"
#include "kernel/perf.h"
#include "metrics.h"
#include "results/count_print.h"
#include "results/output.h"
#include "results_setup.h"
#include "session/session.h"
#include "session_setup.h"

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

/* --with-header, or an --outfile name with a job escape: a results file a merge can read */
static bool wants_header(const struct pf_config *cfg)
{
	return cfg->with_header || cfg->outfile_escaped;
}

/* system-wide counts per CPU, or per group of CPUs (perf stat --per-core,
 * ...); --perf-style (never with those modes) sums them as perf stat -a does */
static bool per_cpu_output(const struct pf_config *cfg)
{
	return cfg->system_wide && !cfg->aggregate && cfg->output_kind != PF_OUT_PERF;
}

/* pfmon 3.x: a file per CPU with --outfile; perf stat -A and --per-*: one output */
static bool per_cpu_files(const struct pf_config *cfg)
{
	return per_cpu_output(cfg) && cfg->aggr == PF_AGGR_DEFAULT;
}

static bool per_task_output(const struct pf_config *cfg)
{
	return session_opts_from_config(cfg).per_task && !cfg->aggregate;
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t timeval_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000u + (uint64_t)tv->tv_usec * 1000u;
}

/* --show-time: the command's real, user and system time; NULL without a command */
static const struct count_times *command_times(const struct session *s, const struct pf_config *cfg,
					       uint64_t real_ns, struct count_times *t)
{
	const struct rusage *ru = session_command_rusage(s);

	/* perf stat -n in pfmon's layout: the times are all it prints */
	if (!(cfg->show_time || (cfg->null_run && cfg->output_kind == PF_OUT_TEXT)) || !ru)
		return NULL;
	*t = (struct count_times){ real_ns, timeval_ns(&ru->ru_utime), timeval_ns(&ru->ru_stime) };
	return t;
}

/* what the results are read with, besides the session */
struct count_inputs {
	const struct metric_run *run;
	struct count_repeats *reps;      /* -r's runs, whose means the results are (NULL: one run) */
	const struct cpu_groups *groups; /* system-wide, --per-core, ...: the CPUs' groups (NULL: per CPU) */
	uint64_t real_ns;                /* the run's real time (-r: the runs' mean) */
	double real_error_pct;           /* -r: the standard error of that mean, in percent */
};

/* --perf-style: perf stat's heading ("'make -j2'", "'system wide'",
 * "process id '42'") and its footer's times; NULL for pfmon's layouts */
static const struct count_perf_frame *perf_frame(const struct session *s, const struct pf_config *cfg,
						 const struct count_inputs *in, struct strbuf *target,
						 struct count_perf_frame *f)
{
	const struct rusage *ru = session_command_rusage(s);

	if (cfg->output_kind != PF_OUT_PERF)
		return NULL;
	if (cfg->system_wide) {
		strbuf_addstr(target, "'system wide'");
	} else if (cfg->n_attach) {
		strbuf_addstr(target, cfg->attach_threads ? "thread id '" : "process id '");
		for (size_t i = 0; i < cfg->n_attach; i++)
			strbuf_addf(target, "%s%d", i ? "," : "", cfg->attach[i]);
		strbuf_addch(target, '\'');
	} else {
		strbuf_addch(target, '\'');
		for (char **a = cfg->command; a && *a; a++)
			strbuf_addf(target, "%s%s", a == cfg->command ? "" : " ", *a);
		strbuf_addch(target, '\'');
	}
	*f = (struct count_perf_frame){ .target = strbuf_str(target), .runs = in->reps ? in->reps->runs : 1,
					.elapsed_s = (double)in->real_ns / 1e9,
					.elapsed_sd_s = (double)in->real_ns / 1e9 * in->real_error_pct / 100.0,
					.rusage = ru && !in->reps && !cfg->system_wide, .null_run = cfg->null_run };
	if (f->rusage) {
		f->user_s = (double)timeval_ns(&ru->ru_utime) / 1e9;
		f->sys_s = (double)timeval_ns(&ru->ru_stime) / 1e9;
	}
	return f;
}

/* the counts' blocks: per task, per CPU (or group of CPUs) or the whole run */
static int read_blocks(struct session *s, const struct pf_config *cfg, const struct count_inputs *in,
		       struct count_blocks *cb, struct pf_error *err)
{
	*cb = (struct count_blocks){ 0 };
	if (in->reps)
		return count_blocks_repeats(s, in->reps, in->run, in->real_ns, cb, err);
	/* perf stat -I prints no total: the deltas are all; the text has one */
	if (cfg->print_interval && cfg->output_kind != PF_OUT_TEXT)
		return 0;
	if (per_task_output(cfg))
		return count_blocks_tasks(s, cfg->exec_split, cb, err);
	if (per_cpu_output(cfg))
		return count_blocks_cpus(s, in->groups, in->run, in->real_ns, cb, err);
	return count_blocks_run(s, in->run, in->real_ns, cb, err);
}

/*
 * The results into out (NULL: per-task or per-CPU files, the times to
 * stdout).  Results that could not be written (a full disk, a closed
 * descriptor, a reader gone) are not lost: they go to stderr, followed by
 * the one error line that says why.
 */
static int write_results(struct session *s, const struct pf_config *cfg, const struct results_header *hdr,
			 FILE *out, const char *out_path, const struct count_inputs *in, struct pf_error *err)
{
	const struct count_print_opts po = count_print_opts_from_config(cfg);
	struct count_times times;
	struct count_perf_frame frame;
	struct strbuf target = STRBUF_INIT;
	struct count_blocks cb;
	struct count_results r;
	int rc;

	kperf_test_pause("PFMON_TEST_REPORT_DELAY");
	rc = read_blocks(s, cfg, in, &cb, err);
	r = (struct count_results){ .times = command_times(s, cfg, in->real_ns, &times),
				    .perf = perf_frame(s, cfg, in, &target, &frame),
				    .total_line = cfg->print_interval && cfg->output_kind == PF_OUT_TEXT,
				    .hdr = hdr, .blocks = cb.blocks, .n_blocks = cb.n,
				    .split = per_task_output(cfg) ? COUNT_SPLIT_TASK :
					     per_cpu_files(cfg)   ? COUNT_SPLIT_CPU : COUNT_SPLIT_NONE };
	if (count_results_print(out ? out : stdout, &r, &po, rc ? NULL : err))
		rc = -1;
	if (out && results_close(out, out_path, rc ? NULL : err)) {
		if (!rc)
			count_results_print(stderr, &r, &po, NULL);
		rc = -1;
	}
	count_blocks_release(&cb);
	strbuf_release(&target);
	return rc;
}

/* the results, after the header a merge needs when one is wanted */
static int write_with_header(struct session *s, const struct pf_config *cfg, const struct pmu_model *m, FILE *out,
			     const char *out_path, const struct count_inputs *in, uint64_t start_wall,
			     struct pf_error *err)
{
	struct results_host host;
	struct results_header hdr;
	int rc;

	if (!wants_header(cfg))
		return write_results(s, cfg, NULL, out, out_path, in, err);
	count_header_fill(s, cfg, m, in->run, start_wall, start_wall + in->real_ns, &host, &hdr);
	rc = write_results(s, cfg, &hdr, out, out_path, in, err);
	count_header_release(&hdr);
	return rc;
}

/* open the output before the run: a bad path must not cost the
 * measurement; none (NULL) when the results go to per-task or per-CPU files.
 * *path: the file's name (allocated; a rank's may differ from --outfile's),
 * NULL for standard output. */
static int open_output(const struct pf_config *cfg, FILE **out, char **path, struct pf_error *err)
{
	*out = NULL;
	*path = NULL;
	if ((per_task_output(cfg) || per_cpu_files(cfg)) && cfg->outfile)
		return 0;
	if (cfg->outfile && cfg->outfile_escaped && !cfg->append) /* a rank's: never another's results */
		return (*out = results_open_rank(cfg->outfile, &cfg->job, path, err)) ? 0 : -1;
	*out = results_open(&(struct output_opts){ .path = cfg->outfile, .append = cfg->append,
						    .to_stderr = cfg->output_kind == PF_OUT_PERF },
			    err);
	*path = cfg->outfile ? xstrdup(cfg->outfile) : NULL;
	return *out ? 0 : -1;
}

/* the counters opened on the target, the run (with its intervals), the results */
static int run_session(struct session *s, const struct pf_config *cfg, const struct pmu_model *m, FILE *out,
		       const char *out_path, const struct metric_run *run, const char *levels_note, int *status, struct pf_error *err)
{
	const struct count_print_opts po = count_print_opts_from_config(cfg);
	struct count_intervals *iv = NULL;
	struct cpu_groups groups = { 0 };
	uint64_t start = clock_ns(CLOCK_MONOTONIC), start_wall = clock_ns(CLOCK_REALTIME);
	int rc = session_open_target(s, cfg, err), grouped = 0;

	/* the topology is read before the run: a machine that lacks it costs no measurement */
	if (!rc)
		rc = (grouped = session_cpu_groups(s, cfg, &groups, err)) < 0 ? -1 : 0;
	if (!rc) {
		fputs(levels_note, stderr);
		if (cfg->print_interval)
			iv = count_intervals_new(s, run, per_cpu_output(cfg), grouped ? &groups : NULL,
						 cfg->interval_count, out ? out : stdout, &po);
		rc = session_run(s, &(struct session_sink){ .tick = iv ? count_intervals_tick : NULL, .arg = iv },
				 status, err);
	}
	if (!rc) {
		struct count_inputs in = { .run = run, .groups = grouped ? &groups : NULL,
					   .real_ns = clock_ns(CLOCK_MONOTONIC) - start };

		session_note_end(s, cfg);
		rc = write_with_header(s, cfg, m, out, out_path, &in, start_wall, err);
	} else if (out) {
		results_close(out, out_path, NULL);
	}
	count_intervals_free(iv);
	cpu_groups_release(&groups);
	return rc;
}

/*
 * perf stat -r N: the command run N times, each in a session of its own;
 * the results are the means of the runs' counts, each with its variance,
 * over the mean real time.  A run whose command fails (a non-zero status)
 * ends the series with one note, its counts included; the exit status is
 * the last run's.
 */
static int run_repeats(const struct pf_config *cfg, const struct pmu_model *m, struct set_prog *sets,
		       size_t n_sets, FILE *out, const char *out_path, const struct metric_run *run, const char *levels_note, int *status,
		       struct pf_error *err)
{
	struct session_opts so = session_opts_from_config(cfg);
	struct count_repeats reps;
	struct session *s = NULL;
	uint64_t *reals = xcalloc(cfg->repeat + 1, sizeof(*reals)), start_wall = clock_ns(CLOCK_REALTIME);
	int rc = 0;

	for (uint64_t k = 0; k < cfg->repeat && !rc; k++) {
		uint64_t start = clock_ns(CLOCK_MONOTONIC);

		session_free(s);
		s = session_new(sets, n_sets, NULL, &so);
		if (!k)
			count_repeats_init(&reps, session_n_events(s), cfg->repeat);
		if (!k && cfg->verbose)
			show_attrs(s);
		rc = session_open_target(s, cfg, err);
		if (!rc && !k)
			fputs(levels_note, stderr);
		if (!rc)
			rc = session_run(s, &(struct session_sink){ 0 }, status, err);
		if (!rc)
			rc = count_repeats_add(&reps, s, err);
		reals[k] = clock_ns(CLOCK_MONOTONIC) - start;
		if (!rc && *status && k + 1 < cfg->repeat) {
			fprintf(stderr, "note: run %llu of %llu: the command ended with status %d: the series stops\n",
				(unsigned long long)k + 1, (unsigned long long)cfg->repeat, *status);
			break;
		}
	}
	if (!rc) {
		double mean_real;
		struct count_inputs in = { .run = run, .reps = &reps,
					   .real_error_pct = count_mean_error_pct(reals, reps.runs, &mean_real) };

		in.real_ns = (uint64_t)llround(mean_real);
		session_note_end(s, cfg);
		rc = write_with_header(s, cfg, m, out, out_path, &in, start_wall, err);
	} else if (out) {
		results_close(out, out_path, NULL);
	}
	if (s)
		count_repeats_release(&reps);
	session_free(s);
	free(reals);
	return rc;
}

int cmd_count(const struct pf_config *cfg, const struct pmu_model *m, struct metric_run *run,
	      struct pf_error *err)
{
	struct set_prog *sets = NULL;
	size_t n_sets = 0;
	struct session *s = NULL;
	FILE *out = NULL;
	char *out_path = NULL;
	int status = 0, rc;
	char levels_note[512] = "";

	rc = config_encode_sets(cfg, m, &sets, &n_sets, err);
	if (!rc)
		rc = metrics_add_shadows(run, sets, n_sets, err);
	if (!rc) {
		lower_default_levels(cfg, sets, n_sets, levels_note, sizeof(levels_note));
		rc = open_output(cfg, &out, &out_path, err);
	}
	if (!rc && cfg->repeat) {
		rc = run_repeats(cfg, m, sets, n_sets, out, out_path, run, levels_note, &status, err);
	} else if (!rc) {
		struct session_opts so = session_opts_from_config(cfg);

		s = session_new(sets, n_sets, NULL, &so);
		if (cfg->verbose)
			show_attrs(s);
		rc = run_session(s, cfg, m, out, out_path, run, levels_note, &status, err);
	}
	session_free(s);
	free(out_path);
	for (size_t i = 0; i < n_sets; i++)
		set_prog_release(&sets[i]);
	free(sets);
	return rc ? -1 : status;
}
