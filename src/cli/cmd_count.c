/*
 * Counting a command: encode every event set with the model, fork the
 * command held before exec, open one group per set on its pid (disabled,
 * enable_on_exec, inherited by threads and children), let it run, read and
 * print.  Measurement yields count_rows; the report layer prints them.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common/util.h"
#include "kernel/perf.h"
#include "report/counts.h"
#include "target/launch.h"

struct open_counter {
	struct counter_prog *prog;
	int set;
	int fd; /* -1: not opened */
	int open_errno;
};

struct count_run {
	struct set_prog *sets;
	size_t n_sets;
	struct open_counter *ctr;
	size_t n_ctr;
};

static void run_release(struct count_run *run)
{
	for (size_t i = 0; i < run->n_ctr; i++)
		kperf_close(run->ctr[i].fd);
	free(run->ctr);
	for (size_t i = 0; i < run->n_sets; i++)
		set_prog_release(&run->sets[i]);
	free(run->sets);
}

static int encode_all(const struct pf_config *cfg, const struct pmu_model *m, struct count_run *run,
		      struct pf_error *err)
{
	if (pmu_encode_config(m, cfg, &run->sets, &run->n_sets, err))
		return -1;
	for (size_t s = 0; s < run->n_sets; s++)
		run->n_ctr += run->sets[s].n_counters;
	run->ctr = xcalloc(run->n_ctr, sizeof(*run->ctr));
	for (size_t s = 0, k = 0; s < run->n_sets; s++) {
		for (size_t i = 0; i < run->sets[s].n_counters; i++, k++) {
			struct perf_event_attr *a = &run->sets[s].counters[i].attr;

			run->ctr[k] = (struct open_counter){ &run->sets[s].counters[i], (int)s, -1, 0 };
			a->disabled = 1;
			a->enable_on_exec = 1; /* counting starts exactly at the exec */
			a->inherit = !cfg->no_inherit;
			a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		}
	}
	return 0;
}

/* a failure that leaves the event "<not supported>" rather than ending the run */
static bool soft_failure(int e)
{
	return e == ENOENT || e == ENODEV || e == EOPNOTSUPP || e == EINVAL || e == ENOSPC;
}

/* -v: what pfmon asks the kernel for, before it asks */
static void show_attrs(const struct count_run *run)
{
	for (size_t k = 0; k < run->n_ctr; k++) {
		const struct counter_prog *p = run->ctr[k].prog;
		const struct perf_event_attr *a = &p->attr;

		fprintf(stderr,
			"pfmon: set%d %s: %s; perf_event_attr type=%u config=%#llx config1=%#llx config2=%#llx "
			"exclude_user=%u exclude_kernel=%u exclude_hv=%u inherit=%u\n",
			run->ctr[k].set, p->name, p->fstr ? p->fstr : "(kernel ABI constant)", a->type,
			(unsigned long long)a->config, (unsigned long long)a->config1,
			(unsigned long long)a->config2, a->exclude_user, a->exclude_kernel, a->exclude_hv, a->inherit);
	}
}

/* One group per set: the set's first event that opens leads it. */
static int open_all(pid_t pid, void *arg, struct pf_error *err)
{
	struct count_run *run = arg;
	int leader = -1, leader_set = -1;
	size_t opened = 0, first_failed = run->n_ctr;

	for (size_t k = 0; k < run->n_ctr; k++) {
		struct open_counter *c = &run->ctr[k];
		int fd;

		if (c->set != leader_set) {
			leader = -1;
			leader_set = c->set;
		}
		fd = kperf_open(&c->prog->attr, c->prog->name, pid, -1, leader);
		if (fd < 0) {
			c->open_errno = -fd;
			if (!soft_failure(c->open_errno))
				return kperf_open_error(&c->prog->attr, c->prog->name, c->open_errno, err);
			if (first_failed == run->n_ctr)
				first_failed = k;
			continue;
		}
		c->fd = fd;
		if (leader < 0)
			leader = fd;
		opened++;
	}
	if (!opened)
		return kperf_open_error(&run->ctr[first_failed].prog->attr, run->ctr[first_failed].prog->name,
					run->ctr[first_failed].open_errno, err);
	return 0;
}

/* events that could not be opened: one warning each, then <not supported> */
static void warn_unsupported(const struct count_run *run)
{
	for (size_t k = 0; k < run->n_ctr; k++) {
		struct pf_error e;

		if (run->ctr[k].fd >= 0)
			continue;
		kperf_open_error(&run->ctr[k].prog->attr, run->ctr[k].prog->name, run->ctr[k].open_errno, &e);
		fprintf(stderr, "warning: %s\n", e.msg);
	}
}

static bool is_clock(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_TASK_CLOCK || a->config == PERF_COUNT_SW_CPU_CLOCK);
}

static int read_rows(const struct count_run *run, struct count_row *rows, struct pf_error *err)
{
	for (size_t k = 0; k < run->n_ctr; k++) {
		const struct open_counter *c = &run->ctr[k];
		struct count_row *r = &rows[k];
		struct kperf_count kc;
		int rc;

		*r = (struct count_row){ .name = c->prog->name, .set = c->set, .is_clock = is_clock(&c->prog->attr),
					 .fstr = c->prog->fstr };
		if (c->fd < 0) {
			r->state = COUNT_NOT_SUPPORTED;
			continue;
		}
		rc = kperf_read(c->fd, &kc);
		if (rc)
			return pf_error_set(err, PF_E_READ, c->prog->name, strerror(-rc));
		r->raw = kc.value;
		r->enabled = kc.enabled;
		r->running = kc.running;
		r->state = kc.running ? COUNT_OK : COUNT_NOT_COUNTED;
	}
	return 0;
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

static int print_counts(const struct count_run *run, const struct pf_config *cfg, const struct pmu_model *m,
			FILE *out, struct pf_error *err)
{
	struct count_row *rows = xcalloc(run->n_ctr, sizeof(*rows));
	struct count_report rep = { .rows = rows, .n_rows = run->n_ctr };
	int rc = read_rows(run, rows, err);

	if (!rc) {
		if (cfg->with_header && cfg->output_kind != PF_OUT_JSON)
			report_header(out, cfg, m->name, m->desc);
		report_counts(out, &rep, cfg);
	}
	free(rows);
	return rc;
}

static int measure(const struct pf_config *cfg, struct count_run *run, int *status, struct pf_error *err)
{
	struct launch_opts lo = { .no_output = cfg->no_cmd_output };
	struct child child;

	if (cfg->verbose)
		show_attrs(run);
	if (child_start(cfg->command, &lo, open_all, run, &child, err))
		return -1;
	*status = child_wait(&child);
	return 0;
}

int cmd_count(const struct pf_config *cfg, const struct pmu_model *m, struct pf_error *err)
{
	struct count_run run = { 0 };
	FILE *out = NULL;
	int status = 0, rc;

	rc = encode_all(cfg, m, &run, err);
	if (!rc) {
		/* open the output before the run: a bad path must not cost the measurement */
		out = open_output(cfg, err);
		rc = out ? 0 : -1;
	}
	if (!rc)
		rc = measure(cfg, &run, &status, err);
	if (!rc) {
		warn_unsupported(&run);
		rc = print_counts(&run, cfg, m, out, err);
	}
	if (out && close_output(out, cfg, rc ? NULL : err))
		rc = -1;
	run_release(&run);
	return rc ? -1 : status;
}
