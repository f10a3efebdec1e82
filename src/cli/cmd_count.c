/* SPDX-License-Identifier: GPL-2.0-or-later */
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
#include <unistd.h>

#include "commands.h"
#include "metrics.h"
#include "common/util.h"
#include "kernel/perf.h"
#include "report/counts.h"
#include "report/results.h"
#include "symbol/symbol.h"
#include "session/procfs.h"
#include "session/session.h"
#include "triggers.h"

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
			char msg[128];

			snprintf(msg, sizeof(msg), "--cpu-list: CPU %d is not online (see "
				 "/sys/devices/system/cpu/online)", cfg->cpu_list[i]);
			rc = pf_error_set(err, PF_E_USAGE, msg);
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

/* the levels of an event were left to pfmon: no -u/-k/--priv-levels for
 * it, no modifier in its name */
static bool levels_defaulted(const struct pf_config *cfg, size_t set, size_t ev, const struct counter_prog *c)
{
	return c->is_live && !pf_config_event_plm(cfg, set, ev) && !c->levels_given;
}

/* the event counts at user level only from now on */
static void drop_kernel_level(struct counter_prog *c)
{
	char *k = c->fstr ? strstr(c->fstr, ":k=1") : NULL;

	c->attr.exclude_kernel = 1;
	c->attr.exclude_hv = 1;
	c->plm &= ~PF_PLM_KERNEL;
	if (k)
		k[3] = '0';
}

/* "'a', 'b'..." of at most 8 names, into names */
static void add_name(char *names, size_t size, size_t n, const char *name)
{
	size_t len = strlen(names);

	if (n < 8)
		snprintf(names + len, size - len, "%s'%s'", n ? ", " : "", name);
	else if (n == 8)
		snprintf(names + len, size - len, "...");
}

/* can this user count c at kernel level?  (false: at user level only) */
static bool must_drop_kernel(struct counter_prog *c)
{
	struct counter_prog user;
	int rc = kperf_probe(&c->attr);

	if (rc != -EACCES && rc != -EPERM)
		return false;
	user = *c;
	user.attr.exclude_kernel = user.attr.exclude_hv = 1;
	return kperf_probe(&user.attr) == 0; /* else not even at user level: the open says why */
}

/*
 * An event that fires in the kernel only (a tracepoint) counts 0 at user
 * level: one note says so, and why it is counted there, rather than a
 * silent 0 (perf prints none).
 */
static void kernel_only_note(const struct set_prog *sets, size_t n_sets, int lowered_at, char *note, size_t size)
{
	char names[256] = "";
	size_t n = 0, len = strlen(note);

	for (size_t i = 0; i < n_sets; i++)
		for (size_t j = 0; j < sets[i].n_counters; j++)
			if (sets[i].counters[j].kernel_only && sets[i].counters[j].attr.exclude_kernel)
				add_name(names, sizeof(names), n++, sets[i].counters[j].name);
	if (!n)
		return;
	if (lowered_at)
		snprintf(note + len, size - len, "note: %s fire%s in the kernel only: counted at user level only "
			 "(kernel.perf_event_paranoid = %d for this user), %s 0\n", names, n > 1 ? "" : "s",
			 lowered_at, n > 1 ? "they count" : "it counts");
	else
		snprintf(note + len, size - len, "note: %s fire%s in the kernel only: counted at user level only, "
			 "%s 0 (count at kernel level: -k, or ':k' on the event)\n", names, n > 1 ? "" : "s",
			 n > 1 ? "they count" : "it counts");
}

/*
 * At kernel.perf_event_paranoid >= 2 an unprivileged user counts at user
 * level only.  Events whose levels were left to pfmon (software events and
 * tracepoints count at every level by default) then fall back to user
 * level, as perf does, said once on one line; an event whose levels were
 * chosen keeps them, and its open fails with the advice to use -u.  The
 * test opens a counter on pfmon itself: kernel-level permission does not
 * depend on the task measured.  The note is printed once the counters are
 * open: before an error about something else it would only mislead.
 * Kernel-only events at user level get their own note (kernel_only_note).
 */
void lower_default_levels(const struct pf_config *cfg, struct set_prog *sets, size_t n_sets, char *note,
			  size_t size)
{
	char names[256] = "";
	size_t n = 0;
	int paranoid = kperf_paranoid(), lowered_at = 0;

	*note = 0;
	for (size_t i = 0; paranoid >= 2 && i < n_sets; i++)
		for (size_t j = 0; j < sets[i].n_counters; j++) {
			struct counter_prog *c = &sets[i].counters[j];

			if (c->attr.exclude_kernel || !levels_defaulted(cfg, i, j, c) || !must_drop_kernel(c))
				continue;
			drop_kernel_level(c);
			if (c->kernel_only)
				lowered_at = paranoid; /* said by kernel_only_note */
			else
				add_name(names, sizeof(names), n++, c->name);
		}
	if (n)
		snprintf(note, size, "note: kernel.perf_event_paranoid = %d lets this user count at user level "
			 "only: %s exclude%s the kernel (-u or ':u' says so and drops this note)\n",
			 paranoid, names, n > 1 ? "" : "s");
	kernel_only_note(sets, n_sets, lowered_at, note, size);
}

int check_task_options(const struct pf_config *cfg, struct pf_error *err)
{
	bool sampling = pf_config_is_sampling(cfg);

	if (cfg->system_wide && (cfg->n_attach || follows(cfg) || cfg->per_thread || cfg->show_time))
		return pf_error_set(err, PF_E_USAGE, "--system-wide counts CPUs: not with --attach-task, "
				    "--follow-*, --per-thread or --show-time");
	if (cfg->pin_command && (!cfg->system_wide || !cfg->command))
		return pf_error_set(err, PF_E_USAGE, "--pin-command pins the command of a --system-wide session on "
				    "its CPUs (--cpu-list): it needs both");
	if (cfg->interval_count && !cfg->print_interval)
		return pf_error_set(err, PF_E_USAGE, "--interval-count needs --print-interval");
	if (cfg->print_interval && (follows(cfg) || cfg->per_thread))
		return pf_error_set(err, PF_E_USAGE, "--print-interval is not implemented with per-task "
				    "results (--follow-*, --per-thread) yet");
	if (cfg->smpl_ignore_pids && !cfg->system_wide && sampling)
		return pf_error_set(err, PF_E_USAGE, "--smpl-ignore-pids merges the processes of a system-wide "
				    "profile: it needs --system-wide (a command's profile is one already)");
	if (cfg->n_cpu_list && !cfg->system_wide)
		return pf_error_set(err, PF_E_USAGE, "--cpu-list needs --system-wide");
	if (cfg->system_wide && check_cpus_online(cfg, err))
		return -1;
	if (cfg->aggregate && !follows(cfg) && !cfg->per_thread && !cfg->system_wide)
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
	if (trigger_check_options(cfg, follows(cfg), err))
		return -1;
	if (cfg->show_time && (cfg->n_attach || sampling || cfg->follow_fork || cfg->follow_vfork ||
			       cfg->follow_pthread || cfg->per_thread))
		return pf_error_set(err, PF_E_USAGE, "--show-time times one launched command while counting "
				    "(not with attach, sampling, --per-thread or --follow-fork/vfork/pthread)");
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

FILE *results_open(const struct pf_config *cfg, struct pf_error *err)
{
	FILE *f;

	if (!cfg->outfile)
		return stdout;
	f = fopen(cfg->outfile, cfg->append ? "a" : "w");
	if (!f)
		pf_error_set(err, PF_E_OUTPUT, cfg->outfile, strerror(errno));
	return f;
}

/* path: the file's name in the error, NULL for stdout */
int results_close(FILE *out, const char *path, struct pf_error *err)
{
	const char *name = path ? path : "standard output";
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
	int rc = session_read_counts(s, counts, err);

	if (!rc) {
		if (warn)
			warn_unsupported(s, counts);
		fill_rows(s, counts, rows);
		mv = compute_metrics(run, &rep, duration_ns, true, warn);
		if (wants_header(cfg))
			results_header_write(out, cfg, hdr);
		report_counts(out, &rep, cfg);
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
	f = fopen(path, cfg->append ? "a" : "w");
	if (!f)
		pf_error_set(err, PF_E_OUTPUT, path, strerror(errno));
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
	char *path = NULL;
	FILE *f = cfg->outfile ? open_task_output(cfg, r, &path, err) : out;
	int rc = 0;

	if (!f) {
		free(path);
		return -1;
	}
	fill_rows(s, r->counts, rows);
	if (wants_header(cfg))
		results_header_write(f, cfg, hdr);
	report_counts(f, &rep, cfg);
	if (f != out && results_close(f, path, err)) {
		report_counts(stderr, &rep, cfg); /* not lost: the error line follows */
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
							       .task = &task }, cfg);
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
	f = fopen(path, cfg->append ? "a" : "w");
	if (!f)
		pf_error_set(err, PF_E_OUTPUT, path, strerror(errno));
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
			results_header_write(f, cfg, hdr);
		report_counts(f, &rep, cfg);
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
	report_counts(iv->out, &rep, iv->cfg);
	free(mv);
	memcpy(prev, now, iv->n * sizeof(*now));
	free(delta);
	return 0;
}

static int interval_tick(void *arg, uint64_t elapsed_ns, struct pf_error *err)
{
	struct intervals *iv = arg;
	double seconds = (double)elapsed_ns / 1e9;

	report_interval_header(iv->out, seconds, iv->cfg);
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
	struct results_header hdr = { .pmu_name = m->name, .pmu_desc = m->desc, .job = &cfg->job,
				      .start_ns = start_wall, .end_ns = start_wall + real_ns,
				      .events = ev, .n_events = n, .metrics = metrics, .n_metrics = run->n_want };
	int rc;

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
		out = results_open(cfg, err);
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

		iv = (struct intervals){ .s = s, .cfg = cfg, .run = run, .out = out ? out : stdout, .n = n, .blocks = blocks,
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
