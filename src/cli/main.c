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
#include "cli/quiet.h"
#include "common/debug.h"
#include "cli/session_setup.h"
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

/*
 * perf stat -d, -dd, -ddd: perf's detailed events after the others, each
 * an event set of its own, as perf opens them ungrouped; an event this
 * machine lacks is <not supported>, as in perf.
 */
static void add_detailed_events(struct pf_config *cfg)
{
	static const char *const levels[3][7] = {
		{ "L1-dcache-loads", "L1-dcache-load-misses", "LLC-loads", "LLC-load-misses" },
		{ "L1-icache-loads", "L1-icache-load-misses", "dTLB-loads", "dTLB-load-misses", "iTLB-loads",
		  "iTLB-load-misses" },
		{ "L1-dcache-prefetches", "L1-dcache-prefetch-misses" },
	};

	for (unsigned level = 0; level < cfg->detailed; level++)
		for (const char *const *name = levels[level]; *name; name++) {
			char **events = xcalloc(2, sizeof(*events));

			events[0] = xstrdup(*name);
			cfg->sets = xrealloc(cfg->sets, (cfg->n_sets + 1) * sizeof(*cfg->sets));
			cfg->sets[cfg->n_sets++] = (struct pf_set_config){ .events = events, .n_events = 1 };
		}
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

/*
 * The commands, as git's cmd_struct table: dispatch() walks the rows in
 * order and runs the first whose condition holds; the last row always
 * does.  A row's stage is what must be ready before its condition is asked
 * (the model; then the measurement: the job, -M's plan, the default
 * events, the checks); its needs are what its command asks of the options
 * once chosen.  The order is pfmon's: what informs (help, lists) answers
 * before what measures, and a refusal row stands where its check always
 * stood.
 */
enum cmd_stage {
	STAGE_OPTIONS, /* the parsed options alone */
	STAGE_MODEL,   /* the model (--pmu, else the host's) chosen */
	STAGE_MEASURE, /* the job resolved, -M planned, the default events, options_validate */
};

enum cmd_needs {
	NEED_VALIDATE = 1 << 0,    /* options_validate (with the model once chosen) */
	NEED_RESOLVE_JOB = 1 << 1, /* the rank and the %-escapes of the output names */
	NEED_APPLY_MODEL = 1 << 2, /* the model's own options applied */
	NEED_TASKS = 1 << 3,       /* following, attaching and per-task options that fit together */
	NEED_LIVE_PMU = 1 << 4,    /* this host can program the model */
};

struct cmd_ctx {
	struct pf_config *cfg;
	const struct pmu_model *m; /* from STAGE_MODEL */
	struct metric_run run;     /* from STAGE_MEASURE: -M's metrics, the model's shadows */
	bool run_prepared;         /* run to be released */
	bool *no_hw_note;          /* the default events fell back to software ones */
	enum cmd_stage stage;
};

struct cmd_struct {
	const char *name;
	enum cmd_stage stage;
	bool (*selects)(const struct cmd_ctx *c); /* NULL: always */
	unsigned needs;                           /* enum cmd_needs */
	int (*run)(struct cmd_ctx *c, struct pf_error *err);
};

static bool wants_help(const struct cmd_ctx *c)
{
	return c->cfg->help;
}

static bool wants_list_opts(const struct cmd_ctx *c)
{
	return c->cfg->list_opts;
}

static bool wants_version(const struct cmd_ctx *c)
{
	return c->cfg->version;
}

static bool wants_module_info(const struct cmd_ctx *c)
{
	return c->cfg->smpl_module_info;
}

static bool wants_merge(const struct cmd_ctx *c)
{
	return c->cfg->merge;
}

static bool wants_list_pmus(const struct cmd_ctx *c)
{
	return c->cfg->list_pmus;
}

static bool wants_list_events(const struct cmd_ctx *c)
{
	return c->cfg->list_events;
}

static bool wants_event_info(const struct cmd_ctx *c)
{
	return c->cfg->event_info;
}

static bool wants_event_table(const struct cmd_ctx *c)
{
	return c->cfg->dump_event_table;
}

static bool wants_show_metrics(const struct cmd_ctx *c)
{
	return c->cfg->show_metrics;
}

static bool wants_metrics_from(const struct cmd_ctx *c)
{
	return c->cfg->metrics_from;
}

static bool wants_check(const struct cmd_ctx *c)
{
	return c->cfg->check;
}

static bool samples(const struct cmd_ctx *c)
{
	return pf_config_is_sampling(c->cfg);
}

/* -I alone: every model, before one is chosen */
static bool wants_host_list(const struct cmd_ctx *c)
{
	return c->cfg->list_pmus && !c->cfg->pmu && !c->cfg->n_model_options;
}

/* the informational commands answer first, as --help does */
static bool wants_report(const struct cmd_ctx *c)
{
	const struct pf_config *cfg = c->cfg;

	return cfg->report_file && !cfg->list_events && !cfg->event_info && !cfg->dump_event_table &&
	       !cfg->show_metrics;
}

static bool wants_describe(const struct cmd_ctx *c)
{
	return c->m->wants_describe && c->m->wants_describe(config_model_opts(c->cfg, c->m));
}

static bool attach_with_command(const struct cmd_ctx *c)
{
	return c->cfg->n_attach && c->cfg->command;
}

static bool no_target(const struct cmd_ctx *c)
{
	return !c->cfg->command && !c->cfg->n_attach && !c->cfg->system_wide;
}

static int run_help(struct cmd_ctx *c, struct pf_error *err)
{
	options_usage(stdout);
	return 0;
}

static int run_list_opts(struct cmd_ctx *c, struct pf_error *err)
{
	options_list_table(stdout);
	return 0;
}

static int run_version(struct cmd_ctx *c, struct pf_error *err)
{
	print_version();
	return 0;
}

static int run_module_info(struct cmd_ctx *c, struct pf_error *err)
{
	return ia64_smpl_module_describe(c->cfg->smpl_module_info, stdout, err) ? -1 : 0;
}

static int run_list_pmus(struct cmd_ctx *c, struct pf_error *err)
{
	return cmd_list_pmus(c->cfg, c->m, err);
}

static int run_merge(struct cmd_ctx *c, struct pf_error *err)
{
	return cmd_merge(c->cfg, err);
}

static int run_report(struct cmd_ctx *c, struct pf_error *err)
{
	return cmd_report(c->cfg, err);
}

static int run_event_info(struct cmd_ctx *c, struct pf_error *err)
{
	return cmd_event_info(c->cfg, c->m, err);
}

static int run_event_table(struct cmd_ctx *c, struct pf_error *err)
{
	return cmd_dump_event_table(c->cfg, c->m, err);
}

static int run_show_metrics(struct cmd_ctx *c, struct pf_error *err)
{
	return cmd_show_metrics(c->cfg, c->m, err);
}

static int run_metrics_from(struct cmd_ctx *c, struct pf_error *err)
{
	return cmd_metrics_from(c->cfg, c->m, err);
}

static int run_describe(struct cmd_ctx *c, struct pf_error *err)
{
	return cmd_describe_pmu(c->cfg, c->m, err);
}

static int run_record(struct cmd_ctx *c, struct pf_error *err)
{
	return cmd_record(c->cfg, c->m, &c->run, err);
}

static int run_count(struct cmd_ctx *c, struct pf_error *err)
{
	return cmd_count(c->cfg, c->m, &c->run, err);
}

static int run_list_events(struct cmd_ctx *c, struct pf_error *err)
{
	/* "pfmon -l REGEX" as well as pfmon's "-lREGEX" */
	if (!c->cfg->list_regex && c->cfg->command)
		c->cfg->list_regex = c->cfg->command[0];
	return cmd_list_events(c->cfg, c->m, err);
}

static int run_check(struct cmd_ctx *c, struct pf_error *err)
{
	if (c->run.n_want)
		metrics_print_plan(stdout, &c->run);
	return cmd_check(c->cfg, c->m, err);
}

static int refuse_attach_with_command(struct cmd_ctx *c, struct pf_error *err)
{
	return pf_error_set(err, PF_E_OPTION_NOT_USED, c->cfg->attach_threads ? "--tid" : "--attach-task",
			    "with a command", " (bound the session with -t SECS)");
}

static int refuse_no_target(struct cmd_ctx *c, struct pf_error *err)
{
	return pf_error_set(err, PF_E_NO_COMMAND);
}

static const struct cmd_struct commands[] = {
	{ "help", STAGE_OPTIONS, wants_help, 0, run_help },
	{ "list-opts", STAGE_OPTIONS, wants_list_opts, 0, run_list_opts },
	{ "version", STAGE_OPTIONS, wants_version, 0, run_version },
	{ "smpl-module-info", STAGE_OPTIONS, wants_module_info, 0, run_module_info },
	{ "list-pmus", STAGE_OPTIONS, wants_host_list, 0, run_list_pmus },
	{ "merge", STAGE_OPTIONS, wants_merge, NEED_VALIDATE | NEED_RESOLVE_JOB, run_merge },
	{ "report", STAGE_OPTIONS, wants_report, NEED_VALIDATE | NEED_RESOLVE_JOB, run_report },
	{ "list-pmus-model", STAGE_MODEL, wants_list_pmus, NEED_APPLY_MODEL, run_list_pmus },
	{ "list-events", STAGE_MODEL, wants_list_events, 0, run_list_events },
	{ "event-info", STAGE_MODEL, wants_event_info, 0, run_event_info },
	{ "dump-event-table", STAGE_MODEL, wants_event_table, 0, run_event_table },
	{ "show-metrics", STAGE_MODEL, wants_show_metrics, 0, run_show_metrics },
	{ "metrics-from", STAGE_MODEL, wants_metrics_from, NEED_VALIDATE, run_metrics_from },
	{ "describe-pmu", STAGE_MEASURE, wants_describe, 0, run_describe },
	{ "check", STAGE_MEASURE, wants_check, 0, run_check },
	{ "attach-with-command", STAGE_MEASURE, attach_with_command, 0, refuse_attach_with_command },
	{ "no-target", STAGE_MEASURE, no_target, 0, refuse_no_target },
	{ "record", STAGE_MEASURE, samples, NEED_TASKS | NEED_LIVE_PMU, run_record },
	{ "count", STAGE_MEASURE, NULL, NEED_TASKS | NEED_LIVE_PMU, run_count },
};

/* the measurement's preparation: -M plans its event sets before the
 * default events are chosen (they replace them), then the checks; without
 * metrics asked for, the count parses only its events' shadow metrics */
static int prepare_measure(struct cmd_ctx *c, struct pf_error *err)
{
	if (resolve_job(c->cfg, err))
		return -1;
	c->run_prepared = true;
	if (metrics_prepare_deferred(c->cfg, c->m, &c->run, err))
		return -1;
	if (!c->cfg->null_run)
		*c->no_hw_note = choose_default_events(c->cfg, c->m);
	add_detailed_events(c->cfg);
	return options_validate(c->cfg, c->m, err);
}

/* every stage up to the row's, each once */
static int enter_stage(struct cmd_ctx *c, enum cmd_stage stage, struct pf_error *err)
{
	if (c->stage < STAGE_MODEL && stage >= STAGE_MODEL) {
		c->m = pmu_model_select(c->cfg->pmu, err);
		if (!c->m)
			return -1;
		pf_debug(1, "PMU model %s (%s)", c->m->name, c->m->title);
		c->stage = STAGE_MODEL;
	}
	if (c->stage < STAGE_MEASURE && stage >= STAGE_MEASURE) {
		c->stage = STAGE_MEASURE;
		return prepare_measure(c, err);
	}
	return 0;
}

/* what the chosen command asks of the options, in this order */
static int meet_needs(struct cmd_ctx *c, unsigned needs, struct pf_error *err)
{
	if ((needs & NEED_VALIDATE) && options_validate(c->cfg, c->m, err))
		return -1;
	if ((needs & NEED_RESOLVE_JOB) && resolve_job(c->cfg, err))
		return -1;
	if ((needs & NEED_APPLY_MODEL) && options_apply_model(c->cfg, c->m, err))
		return -1;
	if ((needs & NEED_TASKS) && check_task_options(c->cfg, err))
		return -1;
	if ((needs & NEED_LIVE_PMU) && !c->m->can_run)
		return pf_error_set(err, PF_E_NOT_THIS_HOST,
				    "this host cannot program the modelled PMU; use --check for a dry run");
	return 0;
}

/*
 * --debug: pfmon's lines from now on; at level 3 libpfm4's own too (it
 * reads these variables when it initialises, after the options)
 */
static void start_debug(const struct pf_config *cfg)
{
	char level[16];

	pf_debug_set(cfg->debug);
	if (cfg->debug < PF_DEBUG_MAX)
		return;
	snprintf(level, sizeof(level), "%u", cfg->debug);
	setenv("LIBPFM_VERBOSE", level, 0);
	setenv("LIBPFM_DEBUG", level, 0);
}

static int dispatch(struct pf_config *cfg, bool *no_hw_note, struct pf_error *err)
{
	struct cmd_ctx c = { .cfg = cfg, .no_hw_note = no_hw_note, .stage = STAGE_OPTIONS };
	int rc = -1;

	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		const struct cmd_struct *cmd = &commands[i];

		if (enter_stage(&c, cmd->stage, err))
			break;
		if (cmd->selects && !cmd->selects(&c))
			continue;
		pf_debug(1, "command %s", cmd->name);
		rc = meet_needs(&c, cmd->needs, err) ? -1 : cmd->run(&c, err);
		break;
	}
	if (c.run_prepared)
		metrics_release(&c.run);
	return rc;
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
	if (options_parse(argc, argv, &cfg, &err) == 0) {
		if (cfg.quiet)
			quiet_stderr();
		start_debug(&cfg);
		status = dispatch(&cfg, &no_hw_note, &err);
	} else {
		status = -1;
	}
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
