/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The session as the command line asks for it, shared by counting and
 * sampling: the run options (following, inheriting, CPUs, triggers), the
 * checks of the task options that do not go together, the target opened
 * (a command, running tasks or CPUs), and the notes at the end in the
 * command line's words.  Translation only: the session/ layer runs it.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/session_setup.h"
#include "cli/triggers.h"
#include "session/levels.h"
#include "session/procfs.h"
#include "symbol/symbol.h"

/* every CPU of --cpu-list is online */
static int check_cpus_online(const struct pf_config *cfg, struct pf_error *err)
{
	int *online = NULL;
	long n = procfs_online_cpus(&online);
	int rc = 0;

	for (size_t i = 0; n > 0 && i < cfg->n_cpu_list && !rc; i++) {
		bool found = false;

		for (long j = 0; j < n && !found; j++)
			found = online[j] == cfg->cpu_list[i];
		if (!found) {
			char cpu[16];

			snprintf(cpu, sizeof(cpu), "%d", cfg->cpu_list[i]);
			rc = pf_error_set(err, PF_E_BAD_OPTION_VALUE, cpu, "cpu-list",
					  "that CPU is not online (see /sys/devices/system/cpu/online)");
		}
	}
	free(online);
	return rc;
}

static bool follows(const struct pf_config *cfg)
{
	return cfg->follow_fork || cfg->follow_vfork || cfg->follow_pthread || cfg->follow_exec;
}

/*
 * pfmon(1), OUTPUT: when pfmon's standard output carries machine-readable
 * results (the sample stream of --smpl-outfile=-, CSV or JSON counts, a
 * JSON or folded profile), the command's standard output goes to pfmon's
 * standard error, so that a program reading ours (jq, a flame-graph tool)
 * gets our results alone.  perf writes its results to stderr instead; then
 * 'pfmon --json ... | jq' would get the command's output and no counts.
 */
static bool stdout_carries_results(const struct pf_config *cfg)
{
	if (cfg->smpl_outfile && !strcmp(cfg->smpl_outfile, "-"))
		return true;
	if (pf_config_is_sampling(cfg))
		return cfg->report_format && strcmp(cfg->report_format, "text") != 0;
	return !cfg->outfile && cfg->output_kind != PF_OUT_TEXT;
}

/* a program that would trace, or ask to be traced (pfmon(1), FOLLOWING) */
static bool calls_ptrace(const char *path)
{
	return sym_elf_names(path, "ptrace");
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
		.inherit = !cfg->no_inherit && !follow && !cfg->system_wide,
		.per_task = follow || cfg->per_thread,
		.launch = { .no_output = cfg->no_cmd_output, .stdout_to_stderr = stdout_carries_results(cfg) },
		.timeout_ns = cfg->session_timeout_ns,
		.interval_ns = cfg->print_interval * 1000000ull,
		.cpus = cfg->cpu_list,
		.n_cpus = cfg->n_cpu_list,
		/* pfmon 3.x: <press ENTER to stop session> */
		.stop_on_enter = cfg->system_wide && !cfg->command && isatty(STDIN_FILENO),
	};

	trigger_session_opts(cfg, &o.triggers);
	o.pin_command = cfg->pin_command;
	o.exclude_idle = cfg->exclude_idle;
	o.switch_ns = cfg->switch_timeout_ns;
	o.saturate = cfg->saturate_smpl;

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
			.calls_ptrace = calls_ptrace,
		};
	}
	return o;
}

/* the event's levels were given on the command line: -u/-k/--priv-levels
 * for it, or for every event */
static bool levels_chosen(const void *arg, size_t set, size_t ev)
{
	return pf_config_event_plm(arg, set, ev) != 0;
}

void lower_default_levels(const struct pf_config *cfg, struct set_prog *sets, size_t n_sets, char *note,
			  size_t size)
{
	session_lower_default_levels(sets, n_sets, levels_chosen, cfg, note, size);
}

/* the first --follow-* option given, for messages */
static const char *follow_name(const struct pf_config *cfg)
{
	return cfg->follow_fork ? "--follow-fork" : cfg->follow_vfork ? "--follow-vfork"
		: cfg->follow_pthread ? "--follow-pthread" : "--follow-exec";
}

/* what --system-wide cannot go with: it counts CPUs, not tasks */
static int check_system_wide(const struct pf_config *cfg, struct pf_error *err)
{
	const char *other = cfg->n_attach ? "--attach-task" : follows(cfg) ? follow_name(cfg)
			    : cfg->per_thread ? "--per-thread" : cfg->show_time ? "--show-time" : NULL;

	if (cfg->system_wide && other)
		return pf_error_set(err, PF_E_OPTIONS_EXCLUDE, "--system-wide", other, ": --system-wide counts CPUs");
	if (cfg->pin_command && (!cfg->system_wide || !cfg->command))
		return pf_error_set(err, PF_E_OPTION_NEEDS, "--pin-command", "--system-wide and a command",
				    ": it pins the command of a --system-wide session on its CPUs (--cpu-list)");
	if (cfg->n_cpu_list && !cfg->system_wide)
		return pf_error_set(err, PF_E_OPTION_NEEDS, cfg->cpu_set_relative ? "--cpu-set-relative" : "--cpu-list",
				    "--system-wide", "");
	/* a task's counters never run in the idle task: only a CPU's do */
	if (cfg->exclude_idle && !cfg->system_wide)
		return pf_error_set(err, PF_E_OPTION_NEEDS, "--exclude-idle", "--system-wide",
				    " (a task's own counters never count in the idle task)");
	return cfg->system_wide ? check_cpus_online(cfg, err) : 0;
}

/*
 * --switch-timeout: pfmon switches whole-run counting sets itself.  What
 * switches the counters otherwise (triggers, a delayed start), per-task
 * results and intervals are not combined with it yet.
 */
static int check_switch_timeout(const struct pf_config *cfg, struct pf_error *err)
{
	bool triggers = false;
	const char *with;

	if (!cfg->switch_timeout_ns)
		return 0;
	if (cfg->n_sets < 2)
		return pf_error_set(err, PF_E_OPTION_NEEDS, "--switch-timeout", "two event sets or more (-e given twice)",
				    ": it switches from one set to the next");
	for (int k = 0; k < PF_TRG_KINDS; k++)
		triggers |= cfg->n_triggers[k] > 0;
	with = follows(cfg) ? "with --follow-*" : cfg->per_thread ? "with --per-thread"
		: cfg->print_interval ? "with --print-interval" : cfg->dont_start ? "with --dont-start"
		: cfg->trigger_start_delay_ns ? "with --trigger-start-delay" : triggers ? "with triggers" : NULL;
	if (with)
		return pf_error_set(err, PF_E_NOT_IMPLEMENTED, "--switch-timeout", with, "");
	return 0;
}

int check_task_options(const struct pf_config *cfg, struct pf_error *err)
{
	bool sampling = pf_config_is_sampling(cfg);

	if (check_system_wide(cfg, err))
		return -1;
	if (cfg->interval_count && !cfg->print_interval)
		return pf_error_set(err, PF_E_OPTION_NEEDS, "--interval-count", "--print-interval", "");
	if (cfg->print_interval && (follows(cfg) || cfg->per_thread))
		return pf_error_set(err, PF_E_NOT_IMPLEMENTED, "--print-interval",
				    "with per-task results (--follow-*, --per-thread)", "");
	if (cfg->smpl_ignore_pids && !cfg->system_wide && sampling)
		return pf_error_set(err, PF_E_OPTION_NEEDS, "--smpl-ignore-pids", "--system-wide",
				    ": it merges the processes of a system-wide profile (a command's profile is one already)");
	if (cfg->aggregate && !follows(cfg) && !cfg->per_thread && !cfg->system_wide)
		return pf_error_set(err, PF_E_OPTION_NEEDS, "--aggregate-results", "--follow-* or --per-thread",
				    ": it sums per-task results (the results of a command are one sum already)");
	if (cfg->exec_split && !cfg->follow_exec)
		return pf_error_set(err, PF_E_OPTION_NEEDS, "--exec-split-results", "--follow-exec", "");
	if (follows(cfg) && cfg->n_attach)
		return pf_error_set(err, PF_E_OPTION_NOT_USED, follow_name(cfg), "with --attach-task",
				    " (it is for a launched command: an attached process's new threads and children "
				    "are always counted)");
	if (follows(cfg) && cfg->no_inherit)
		return pf_error_set(err, PF_E_OPTIONS_EXCLUDE, "--no-inherit", follow_name(cfg), "");
	/* a system-wide sampling module's output is a CPU's each, or one (cli/validate.c) */
	if ((follows(cfg) || cfg->per_thread || (cfg->aggregate && !cfg->system_wide)) && sampling)
		return pf_error_set(err, PF_E_NOT_IMPLEMENTED,
				    follows(cfg) ? follow_name(cfg) : cfg->per_thread ? "--per-thread" : "--aggregate-results",
				    "with sampling", " (samples record each task's pid and tid)");
	if (trigger_check_options(cfg, follows(cfg), err))
		return -1;
	if (check_switch_timeout(cfg, err))
		return -1;
	if (cfg->show_time && (cfg->n_attach || sampling || cfg->follow_fork || cfg->follow_vfork ||
			       cfg->follow_pthread || cfg->per_thread))
		return pf_error_set(err, PF_E_OPTION_NOT_USED, "--show-time",
				    "with attach, sampling, --per-thread or --follow-fork/vfork/pthread",
				    " (it times one launched command while counting)");
	return 0;
}

int session_open_target(struct session *s, const struct pf_config *cfg, struct pf_error *err)
{
	if (cfg->system_wide) {
		if (cfg->command || cfg->interval_count)
			; /* the command or the intervals bound the session */
		else if (cfg->session_timeout_ns)
			fprintf(stderr, "<session to end in %.10g seconds>\n", cfg->session_timeout_ns / 1e9);
		else
			fprintf(stderr, "<press %s to stop session>\n", isatty(STDIN_FILENO) ? "ENTER" : "Ctrl-C");
		return session_open_cpus(s, cfg->command, err);
	}
	if (cfg->n_attach)
		return session_open_tasks(s, cfg->attach, cfg->n_attach, !cfg->attach_threads, err);
	return session_open_command(s, cfg->command, err);
}

/* a trigger whose address the program never reached switched nothing:
 * say which, once each (an address inside an instruction, a function
 * never called, a variable never touched) */
static void warn_unreached_triggers(const struct session *s, const struct pf_config *cfg)
{
	for (int k = 0; k < PF_TRG_KINDS; k++)
		for (size_t i = 0; i < cfg->n_triggers[k]; i++)
			if (!session_trigger_reached(s, (enum session_trigger_kind)k, i))
				fprintf(stderr, "warning: trigger '%s' (--%s) never fired: the program never %s it\n",
					cfg->triggers[k][i], trigger_option_name((enum pf_trigger_kind)k),
					k == PF_TRG_CODE_START || k == PF_TRG_CODE_STOP ? "executed" : "accessed");
}

void session_note_end(const struct session *s, const struct pf_config *cfg)
{
	size_t exited = cfg->n_attach ? session_tasks_exited(s) : 0;
	const char *name;
	size_t let_go = session_let_go(s, &name);

	warn_unreached_triggers(s, cfg);
	if (let_go)
		fprintf(stderr, "note: %zu followed task%s (%s%s) stopped being traced at the exec of a program that "
			"calls ptrace(2), so that its own ptrace works: its counts go on, what it starts is not "
			"followed\n", let_go, let_go > 1 ? "s" : "", name, let_go > 1 ? ", ..." : "");
	if (exited && session_ended_by(s) != SESSION_END_TARGETS)
		fprintf(stderr, "note: %zu of the threads monitored exited during the session; their counts "
			"are kept\n", exited);
	switch (session_ended_by(s)) {
	case SESSION_END_TARGETS:
		fprintf(stderr, "note: the monitored %s ended before the session did\n",
			cfg->attach_threads ? "threads" : cfg->n_attach > 1 ? "processes" : "process");
		break;
	case SESSION_END_TIMEOUT:
		if (cfg->command)
			fprintf(stderr, "note: session timeout after %.10g s: the command was killed\n",
				cfg->session_timeout_ns / 1e9);
		break;
	default:
		break;
	}
}

int session_cpu_groups(const struct session *s, const struct pf_config *cfg, struct cpu_groups *g,
		       struct pf_error *err)
{
	static const enum cpu_aggr_mode modes[] = {
		[PF_AGGR_CORE] = CPU_AGGR_CORE, [PF_AGGR_DIE] = CPU_AGGR_DIE,     [PF_AGGR_SOCKET] = CPU_AGGR_SOCKET,
		[PF_AGGR_NODE] = CPU_AGGR_NODE, [PF_AGGR_CACHE] = CPU_AGGR_CACHE,
	};
	struct cpu_aggr_opts o;

	*g = (struct cpu_groups){ 0 };
	if (!cfg->system_wide || cfg->aggregate || cfg->aggr < PF_AGGR_CORE)
		return 0;
	o = (struct cpu_aggr_opts){ .mode = modes[cfg->aggr], .cache_level = cfg->aggr_cache_level };
	return cpu_groups_make(session_cpus(s), session_n_cpus(s), &o, g, err) ? -1 : 1;
}
