/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pfmon: count and sample performance events of a command, pfmon-style. */
#include <config.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cli/commands.h"
#include "cli/metrics.h"
#include "cli/options.h"
#include "common/job.h"
#include "common/util.h"
#include "kernel/perf.h"
#include "report/ia64_report.h"
#include "session/launch.h"

/* pfmon 3.x's first line, then the licence (GNU's --version layout) */
static void print_version(void)
{
	printf("pfmon version %s\n"
	       "A pfmon-style performance monitor: perf_events, libpfm4, libelf, libdwarf.\n"
	       "Copyright (C) 2026 the pfmon authors.\n"
	       "License GPL-2.0-or-later: GNU GPL version 2 or later\n"
	       "<https://www.gnu.org/licenses/old-licenses/gpl-2.0.html>.\n"
	       "This is free software: you are free to change and redistribute it.\n"
	       "There is NO WARRANTY, to the extent permitted by law.\n",
	       PACKAGE_VERSION);
}

/*
 * No -e: the model's default events; a live model whose events this machine
 * cannot count (no hardware PMU, as in most VMs) falls back to its software
 * ones.  Returns whether the fallback happened, which main says once, after
 * a run that worked: before an error about something else (a command not
 * found, a bad option) the note would only mislead.
 */
static bool choose_default_events(struct pf_config *cfg, const struct pmu_model *m)
{
	struct pf_set_config *s = &cfg->sets[0];
	const char *list = m->default_events;
	bool fallback = false;

	if (cfg->n_sets != 1 || s->n_events || !list)
		return false;
	if (m->can_run && m->default_software && !kperf_hw_counting_works()) {
		list = m->default_software;
		fallback = true;
	}
	s->events = str_split(list, ',', &s->n_events);
	return fallback;
}

/* after -M: the default events, the checks, then --check, sampling or counting */
static int measure_with(struct pf_config *cfg, const struct pmu_model *m, const struct metric_run *run,
			bool *no_hw_note, struct pf_error *err)
{
	*no_hw_note = choose_default_events(cfg, m);
	if (options_validate(cfg, m, err))
		return -1;
	if (m->wants_describe && m->wants_describe(config_model_opts(cfg, m)))
		return cmd_describe_pmu(cfg, m, err);
	if (cfg->check) {
		if (run->n_want)
			metrics_print_plan(stdout, run);
		return cmd_check(cfg, m, err);
	}
	if (cfg->n_attach && cfg->command)
		return pf_error_set(err, PF_E_USAGE, "a command cannot be given with --attach-task/--pid/--tid "
				    "(bound the session with -t SECS)");
	if (!cfg->command && !cfg->n_attach && !cfg->system_wide)
		return pf_error_set(err, PF_E_NO_COMMAND);
	if (check_task_options(cfg, err))
		return -1;
	if (!m->can_run)
		return pf_error_set(err, PF_E_NOT_THIS_HOST,
				    "this host cannot program the modelled PMU; use --check for a dry run");
	if (pf_config_is_sampling(cfg))
		return cmd_record(cfg, m, err);
	return cmd_count(cfg, m, run, err);
}

/*
 * Which rank of which job this is (the launcher's environment), and the
 * output names with their %-escapes expanded: every rank writes its own.
 */
static int resolve_job(struct pf_config *cfg, struct pf_error *err)
{
	if (job_identity_from_env(&cfg->job, NULL, err))
		return -1;
	cfg->job_known = true;
	if (cfg->outfile) {
		cfg->outfile_escaped = job_has_escape(cfg->outfile);
		if (job_expand(cfg->outfile, &cfg->job, "outfile", &cfg->outfile_expanded, err))
			return -1;
		cfg->outfile = cfg->outfile_expanded;
	}
	if (cfg->smpl_outfile) {
		if (job_expand(cfg->smpl_outfile, &cfg->job, "smpl-outfile", &cfg->smpl_outfile_expanded, err))
			return -1;
		cfg->smpl_outfile = cfg->smpl_outfile_expanded;
	}
	return 0;
}

static int measure(struct pf_config *cfg, const struct pmu_model *m, bool *no_hw_note, struct pf_error *err)
{
	struct metric_run run;
	int rc;

	if (resolve_job(cfg, err))
		return -1;
	/* -M plans its event sets before the default events are chosen: they replace them */
	if (metrics_prepare(cfg, m, &run, err)) {
		metrics_release(&run);
		return -1;
	}
	rc = measure_with(cfg, m, &run, no_hw_note, err);
	metrics_release(&run);
	return rc;
}

static int dispatch(struct pf_config *cfg, bool *no_hw_note, struct pf_error *err)
{
	const struct pmu_model *m;

	if (cfg->help) {
		options_usage(stdout);
		return 0;
	}
	if (cfg->list_opts) {
		options_list_table(stdout);
		return 0;
	}
	if (cfg->version) {
		print_version();
		return 0;
	}
	if (cfg->smpl_module_info)
		return ia64_smpl_module_describe(cfg->smpl_module_info, stdout, err) ? -1 : 0;
	if (cfg->list_pmus && !cfg->pmu && !cfg->n_model_options)
		return cmd_list_pmus(cfg, NULL, err);
	if (cfg->merge) {
		if (options_validate(cfg, NULL, err) || resolve_job(cfg, err))
			return -1;
		return cmd_merge(cfg, err);
	}
	/* the informational commands answer first, as --help does */
	if (cfg->report_file && !cfg->list_events && !cfg->event_info && !cfg->dump_event_table &&
	    !cfg->show_metrics)
		return options_validate(cfg, NULL, err) || resolve_job(cfg, err) ? -1 : cmd_report(cfg, err);
	if (cfg->smpl_module || cfg->smpl_compact || cfg->smpl_print_counts || cfg->smpl_view_given ||
	    cfg->smpl_sort_given)
		return pf_error_set(err, PF_E_USAGE, "--smpl-module and its options apply to reports "
				    "(--report=FILE)");
	m = pmu_model_select(cfg->pmu, err);
	if (!m)
		return -1;
	if (cfg->list_pmus)
		return options_apply_model(cfg, m, err) ? -1 : cmd_list_pmus(cfg, m, err);
	if (cfg->list_events) {
		/* "pfmon -l REGEX" as well as pfmon's "-lREGEX" */
		if (!cfg->list_regex && cfg->command)
			cfg->list_regex = cfg->command[0];
		return cmd_list_events(cfg, m, err);
	}
	if (cfg->event_info)
		return cmd_event_info(cfg, m, err);
	if (cfg->dump_event_table)
		return cmd_dump_event_table(cfg, m, err);
	if (cfg->show_metrics)
		return cmd_show_metrics(cfg, m, err);
	if (cfg->metrics_from)
		return options_validate(cfg, m, err) ? -1 : cmd_metrics_from(cfg, m, err);
	return measure(cfg, m, no_hw_note, err);
}

/*
 * Counters (events x CPUs x threads) and the binaries a report reads each
 * need a descriptor: the soft limit (often 1024, or what `ulimit -n` set)
 * goes up to the hard one, as far as the system allows without privilege.
 */
static void raise_nofile_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl); /* a failure leaves the old limit: still usable */
	}
}

int main(int argc, char **argv)
{
	struct pf_config cfg;
	struct pf_error err = { .code = PF_E_OK };
	bool no_hw_note = false;
	int status;

	launch_init(); /* first: what the command inherits is what pfmon received */
	raise_nofile_limit();
	pf_config_init(&cfg);
	if (options_parse(argc, argv, &cfg, &err) == 0)
		status = dispatch(&cfg, &no_hw_note, &err);
	else
		status = -1;
	if (status < 0)
		options_explain_abbreviation(&cfg, &err);
	pf_config_release(&cfg);
	if (status >= 0 && no_hw_note)
		fprintf(stderr, "note: the kernel exposes no hardware PMU (as in most VMs): "
				"the default events are task-clock instead of cycles and instructions\n");
	if (status < 0) {
		fflush(stdout);
		fprintf(stderr, "error: %s\n", err.msg);
		return pf_error_exit_status(err.code);
	}
	/* a full disk is an error, not silence; a reader that went away
	 * (pfmon -l | head) ends a listing as SIGPIPE would have: quietly.
	 * Runs, reports and merges checked their own output already (one
	 * error line, pfmon(1) FAILURES). */
	if (fflush(stdout) != 0 && errno == EPIPE) {
		signal(SIGPIPE, SIG_DFL);
		raise(SIGPIPE);
	}
	if (ferror(stdout)) {
		fprintf(stderr, "error: cannot write standard output\n");
		return PF_EXIT_ERROR;
	}
	return status;
}
