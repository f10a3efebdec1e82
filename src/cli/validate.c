/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The checks that need the whole command line: the mode (counting,
 * sampling, --report, --check) and the model are known, and the default
 * events are chosen.  Every option either acts in this mode or is refused
 * here, with one usage error naming it; values the kernel would refuse with
 * a bare EINVAL are refused first, naming the option.
 */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"
#include "event/pmu_model.h"
#include "layer_opts.h"
#include "options.h"
#include "report_setup.h"
#include "session/plan.h"
#include "triggers.h"

#define MAX_SAMPLE_RATE_PATH "/proc/sys/kernel/perf_event_max_sample_rate"
#define PERIOD_LIMIT (1ull << 63) /* the kernel refuses a period with bit 63 set */

static unsigned current_mode(const struct pf_config *cfg)
{
	if (cfg->merge)
		return M_MERGE;
	if (cfg->metrics_from)
		return M_SAVED;
	if (cfg->report_file)
		return M_REPORT;
	if (cfg->check)
		return M_CHECK;
	return pf_config_is_sampling(cfg) ? M_SAMPLE : M_COUNT;
}

static const char *mode_phrase(unsigned mode)
{
	return mode == M_COUNT ? "when counting" : mode == M_SAMPLE ? "when sampling"
						 : mode == M_REPORT ? "with --report"
						 : mode == M_MERGE ? "with --merge"
						 : mode == M_SAVED ? "with --metrics-from"
								    : "with --check";
}

/* "sampling and --report": the modes an option is for, in words */
static void modes_words(unsigned modes, char *buf, size_t size)
{
	static const struct {
		unsigned bit;
		const char *word;
	} words[] = { { M_COUNT, "counting" }, { M_SAMPLE, "sampling" }, { M_REPORT, "--report" },
		      { M_CHECK, "--check" }, { M_MERGE, "--merge" },
		      { M_SAVED, "--metrics-from" } };
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (modes & words[i].bit)
			len += (size_t)snprintf(buf + len, len < size ? size - len : 0, "%s%s", len ? " and " : "",
						words[i].word);
}

static bool given(const struct pf_config *cfg, const char *name)
{
	size_t n;
	const struct opt_def *t = options_table(&n);

	/* only the given rows are compared: a run gives a few of 300 options,
	 * and the checks ask about dozens (a name scan each was a tenth of a
	 * count's start-up) */
	for (size_t i = 0; cfg->options_given && i < n; i++)
		if (cfg->options_given[i] && strcmp(t[i].long_name, name) == 0)
			return true;
	return false;
}

/* "--NAME" of an option row, for messages */
static const char *dashed(const char *name, char *buf, size_t size)
{
	snprintf(buf, size, "--%s", name);
	return buf;
}

/* the first registered model that has the privilege levels plm, for messages */
static const struct pmu_model *model_with_levels(unsigned plm)
{
	const struct pmu_model *m;

	for (size_t i = 0; (m = pmu_model_at(i)); i++)
		if ((m->plm_levels & plm) == plm)
			return m;
	return NULL;
}

/* what the model has: privilege levels and system-wide sessions */
static int check_capabilities(const struct pf_config *cfg, const struct pmu_model *m, struct pf_error *err)
{
	static const struct {
		const char *option;
		unsigned plm;
	} levels[] = { { "pl1", PF_PLM1 }, { "pl2", PF_PLM2 } };
	char opt[64], where[128];

	for (size_t i = 0; i < ARRAY_SIZE(levels); i++) {
		const struct pmu_model *owner = model_with_levels(levels[i].plm);

		if (given(cfg, levels[i].option) && !(m->plm_levels & levels[i].plm) && owner)
			return pf_error_set(err, PF_E_OPTION_FOR_MODEL, dashed(levels[i].option, opt, sizeof(opt)),
					    owner->title, owner->name);
	}
	if (given(cfg, "system-wide") && !m->system_wide) {
		snprintf(where, sizeof(where), m->can_run ? "on the host" : "for the %s model", m->title);
		return pf_error_set(err, PF_E_NOT_IMPLEMENTED, "--system-wide", where, "");
	}
	/* a live model's --system-wide is a session, which --check does not run: the
	 * same option must never do nothing on one model and something on another */
	if (given(cfg, "system-wide") && m->can_run && cfg->check) {
		snprintf(where, sizeof(where), m == pmu_model_at(0) ? "with --check on the host" : "with --check with --pmu=%s",
			 m->name);
		return pf_error_set(err, PF_E_OPTION_NOT_USED, "--system-wide", where,
				    " (it is the Itanium 2 model's pm bit there)");
	}
	return 0;
}

/* each option given acts in this mode, with this model */
static int check_modes(const struct pf_config *cfg, const struct pmu_model *model, struct pf_error *err)
{
	unsigned mode = current_mode(cfg);
	size_t n;
	const struct opt_def *t = options_table(&n);
	char words[96], opt[64], why[128];

	if (model && check_capabilities(cfg, model, err))
		return -1;
	for (size_t i = 0; cfg->options_given && i < n; i++) {
		if (!cfg->options_given[i])
			continue;
		if (!(t[i].modes & mode)) {
			modes_words(t[i].modes, words, sizeof(words));
			snprintf(why, sizeof(why), " (it is for %s)", words);
			return pf_error_set(err, PF_E_OPTION_NOT_USED, dashed(t[i].long_name, opt, sizeof(opt)),
					    mode_phrase(mode), why);
		}
	}
	return 0;
}

/* perf's spelling and pfmon's of one setting, or two settings of one
 * thing: given both, the later would silently win */
static int check_spellings(const struct pf_config *cfg, struct pf_error *err)
{
	static const char *const pairs[][2] = {
		{ "json", "csv" }, { "json", "field-separator" }, { "timeout", "session-timeout" },
		{ "delay", "trigger-start-delay" }, { "interval-print", "print-interval" },
		{ "big-num", "eu-counter-format" }, { "big-num", "hex-counter-format" },
		{ "no-big-num", "us-counter-format" }, { "no-big-num", "eu-counter-format" },
		{ "no-big-num", "hex-counter-format" }, { "big-num", "no-big-num" },
	};
	char a[64], b[64];

	for (size_t i = 0; i < ARRAY_SIZE(pairs); i++)
		if (given(cfg, pairs[i][0]) && given(cfg, pairs[i][1]))
			return pf_error_set(err, PF_E_OPTIONS_EXCLUDE, dashed(pairs[i][0], a, sizeof(a)),
					    dashed(pairs[i][1], b, sizeof(b)),
					    i < 2 ? ": choose one output format" : ": both set the same thing");
	return 0;
}

/* option with the first of others given: one usage error, why appended */
static int refuse_given(const struct pf_config *cfg, const char *option, const char *const *others, size_t n,
			const char *why, struct pf_error *err)
{
	char opt[64];

	for (size_t i = 0; i < n; i++)
		if (given(cfg, others[i]))
			return pf_error_set(err, PF_E_OPTIONS_EXCLUDE, option, dashed(others[i], opt, sizeof(opt)), why);
	return 0;
}

/* -r repeats a launched command's whole-run counts: not yet per CPU, per
 * task, per interval, nor with an attached process (nothing to repeat) */
static int check_repeat(const struct pf_config *cfg, struct pf_error *err)
{
	static const char *const not_with[] = {
		"system-wide", "attach-task", "pid", "tid", "print-interval", "interval-print", "follow-fork",
		"follow-vfork", "follow-pthread", "follow-exec", "follow-exec-exclude", "follow-all",
		"exec-split-results", "per-thread", "show-time",
	};

	if (!given(cfg, "repeat"))
		return 0;
	return refuse_given(cfg, "--repeat", not_with, ARRAY_SIZE(not_with),
			    " (-r repeats a launched command's whole-run counts)", err);
}

/* --perf-style prints one whole-run block, as perf stat prints it */
static int check_perf_style(const struct pf_config *cfg, struct pf_error *err)
{
	static const char *const not_with[] = {
		"print-interval", "interval-print", "follow-fork", "follow-vfork", "follow-pthread", "follow-exec",
		"follow-exec-exclude", "follow-all", "exec-split-results", "per-thread", "show-time", "with-header",
		"metric-only", "no-aggr", "per-core", "per-die", "per-socket", "per-node", "per-cache",
	};

	if (cfg->output_kind != PF_OUT_PERF)
		return 0;
	return refuse_given(cfg, "--perf-style", not_with, ARRAY_SIZE(not_with),
			    " (perf's layout is printed for a whole run's counts; pfmon's, -x and --json print the others)",
			    err);
}

/* perf stat -n opens no counter: what it prints is a command's times
 * (pfmon's layout: --show-time's line) or perf's heading and footer */
static int check_null_run(const struct pf_config *cfg, struct pf_error *err)
{
	static const char *const counters[] = { "events", "metrics", "detailed", "print-interval", "interval-print",
						"per-thread", "follow-fork", "follow-vfork", "follow-pthread",
						"follow-exec", "follow-all" };

	if (!cfg->null_run)
		return 0;
	if (refuse_given(cfg, "-n/--null", counters, ARRAY_SIZE(counters), " (a null run opens no counter)", err))
		return -1;
	if (cfg->output_kind == PF_OUT_CSV || cfg->output_kind == PF_OUT_JSON)
		return pf_error_set(err, PF_E_OPTIONS_EXCLUDE, "-n/--null", cfg->output_kind == PF_OUT_CSV ? "-x/--csv" : "--json",
				    " (a null run has no count to print: its times print in pfmon's text or --perf-style)");
	if (cfg->output_kind == PF_OUT_TEXT && (cfg->repeat || cfg->system_wide || cfg->n_attach))
		return pf_error_set(err, PF_E_OPTION_NEEDS, "-n/--null",
				    cfg->repeat ? "--perf-style with -r" : cfg->system_wide ? "--perf-style with -a" : "--perf-style with -p",
				    " (pfmon's layout prints one launched command's times; perf's, the elapsed seconds of any run)");
	return 0;
}

/* perf stat's aggregation modes group a system-wide session's CPUs */
static int check_aggr(const struct pf_config *cfg, struct pf_error *err)
{
	if (!cfg->aggr)
		return 0;
	if (!cfg->system_wide)
		return pf_error_set(err, PF_E_OPTION_NEEDS, cfg->aggr_option, "--system-wide (-a)",
				    " (it groups the counts of CPUs)");
	if (cfg->aggregate)
		return pf_error_set(err, PF_E_OPTIONS_EXCLUDE, cfg->aggr_option, "--aggregate-results",
				    " (that sums every CPU: perf stat -a's default)");
	return 0;
}

/* A binary profile (pprof's) goes to standard output, and never to a
 * terminal, where it would be garbage; with --smpl-outfile=- the sample
 * stream has standard output and the profile would go to standard error. */
static int check_binary_report(const struct pf_config *cfg, struct pf_error *err)
{
	if (!cfg->report_format || strcmp(cfg->report_format, "pprof") != 0)
		return 0;
	if (cfg->smpl_outfile && !strcmp(cfg->smpl_outfile, "-"))
		return pf_error_set(err, PF_E_OPTIONS_EXCLUDE, "--smpl-outfile=-", "--report-format=pprof",
				    " (both would need standard output)");
	if (isatty(STDOUT_FILENO))
		return pf_error_set(err, PF_E_BINARY_TTY, "pprof");
	return 0;
}

/* The HTML page is one sampling report's tables by function and by line,
 * its flame graph and its annotation: other keys, a merge of ranks or a
 * sampling module's output have no place in it. */
static int check_html_report(const struct pf_config *cfg, struct pf_error *err)
{
	if (!cfg->report_format || strcmp(cfg->report_format, "html") != 0)
		return 0;
	if (cfg->report_sort && strcmp(cfg->report_sort, "function") && strcmp(cfg->report_sort, "line"))
		return pf_error_set(err, PF_E_OPTIONS_EXCLUDE, "--report-sort", "--report-format=html",
				    " (the page shows the profile by function and by line)");
	if (cfg->merge)
		return pf_error_set(err, PF_E_OPTIONS_EXCLUDE, "--merge", "--report-format=html",
				    " (the page is one file's report)");
	if (cfg->smpl_module || cfg->smpl_compact)
		return pf_error_set(err, PF_E_OPTIONS_EXCLUDE, cfg->smpl_module ? "--smpl-module" : "--smpl-compact",
				    "--report-format=html", " (the page is a profile's, not a sampling module's)");
	return 0;
}

/* A live run's sampling module options need the module: the profile has
 * no place for them (a report decides once the file is read, cmd_report.c) */
static int check_live_module(const struct pf_config *cfg, struct pf_error *err)
{
	if (cfg->report_file || host_module_wanted(cfg))
		return 0;
	if (cfg->smpl_print_counts || cfg->smpl_view_given || cfg->smpl_sort_given)
		return pf_error_set(err, PF_E_OPTION_APPLIES, cfg->smpl_print_counts ? "--smpl-print-counts"
				    : cfg->smpl_view_given ? "--smpl-*-view" : "--smpl-sort-*", MODULE_APPLIES);
	/* the profile of a system-wide run is one already (per process) */
	if (cfg->aggregate && pf_config_is_sampling(cfg))
		return pf_error_set(err, PF_E_OPTION_APPLIES, "--aggregate-results",
				    "a system-wide sampling module's output (--smpl-module=NAME) when sampling");
	return 0;
}

/* pfmon 3.x's sampling options that need or exclude others */
static int check_smpl_options(const struct pf_config *cfg, struct pf_error *err)
{
	static const char *const profile_options[] = { "report-format", "report-sort", "smpl-show-top",
						       "smpl-cum-threshold", "resolve-addresses", "smpl-per-function",
						       "demangle-java", "annotate", "stitch-lbr" };
	static const char *const module_options[] = { "smpl-module", "smpl-compact", "smpl-print-counts",
						      "print-syms" };
	const char *raw = given(cfg, "smpl-raw") ? "--smpl-raw" : "--smpl-save-raw";

	if (cfg->smpl_per_function && cfg->report_sort && strcmp(cfg->report_sort, "function"))
		return pf_error_set(err, PF_E_OPTIONS_EXCLUDE, "--smpl-per-function", "--report-sort",
				    " (it is --report-sort=function)");
	if (cfg->smpl_per_function && (cfg->smpl_module || cfg->smpl_compact))
		return pf_error_set(err, PF_E_NOT_IMPLEMENTED, "--smpl-per-function", "with a sampling module", "");
	if (cfg->demangle_java && (cfg->smpl_module || cfg->smpl_compact))
		return pf_error_set(err, PF_E_OPTION_NOT_USED, "--demangle-java", "with a sampling module",
				    " (Itanium 2 dumps have no JIT)");
	if (cfg->stitch_lbr && !cfg->report_file && !cfg->callchain_lbr)
		return pf_error_set(err, PF_E_OPTION_NEEDS, "--stitch-lbr", "--call-graph=lbr",
				    " (it stitches LBR call stacks)");
	if (cfg->callchain_lbr && cfg->smpl_branch_stack)
		return pf_error_set(err, PF_E_OPTIONS_EXCLUDE, "--call-graph=lbr", "-b/--branch-filter",
				    " (the LBR holds the call stack or the branches, not both)");
	if (cfg->smpl_raw && !cfg->smpl_outfile)
		return pf_error_set(err, PF_E_OPTION_NEEDS, raw, "--smpl-outfile",
				    " (the samples go there, instead of the profile)");
	if (cfg->smpl_raw)
		return refuse_given(cfg, raw, profile_options, ARRAY_SIZE(profile_options), " (no profile is printed)",
				    err) ||
		       refuse_given(cfg, raw, module_options, ARRAY_SIZE(module_options),
				    " (no sampling module's output is printed)", err);
	return check_live_module(cfg, err);
}

/* output options that contradict or need each other */
static int check_output(const struct pf_config *cfg, struct pf_error *err)
{
	if (check_repeat(cfg, err) || check_aggr(cfg, err) || check_perf_style(cfg, err) || check_null_run(cfg, err))
		return -1;
	if (check_spellings(cfg, err))
		return -1;
	if (given(cfg, "append") && !cfg->outfile)
		return pf_error_set(err, PF_E_OPTION_NEEDS, "--append", "--outfile", "");
	if (check_smpl_options(cfg, err))
		return -1;
	if (given(cfg, "smpl-outfile") && cfg->report_file && !pmu_model_reads_dumps(cfg->pmu))
		return pf_error_set(err, PF_E_OPTION_NEEDS, "--smpl-outfile", "--pmu=itanium2 with --report",
				    " (it saves an Itanium 2 dump as a sample file)");
	if (given(cfg, "smpl-format") && !cfg->smpl_outfile)
		return pf_error_set(err, PF_E_OPTION_NEEDS, "--smpl-format", "--smpl-outfile", "");
	/* pfmon's own sample file has its own compact encoding */
	if (given(cfg, "compression-level") && !cfg->export_perf_data &&
	    !(cfg->smpl_outfile && cfg->smpl_format && !strcmp(cfg->smpl_format, "perf")))
		return pf_error_set(err, PF_E_OPTION_NEEDS, "--compression-level",
				    "--smpl-format=perf with --smpl-outfile, or --export-perf-data",
				    " (it compresses perf.data)");
	/* before the report's file is read: a usage error comes first */
	if (given(cfg, "print-syms") && !cfg->symbol_file && !cfg->sysmap_file)
		return pf_error_set(err, PF_E_OPTION_NEEDS, "--print-syms", "--symbol-file or --sysmap-file", "");
	if (given(cfg, "export-perf-data") && (cfg->smpl_module || cfg->smpl_compact ||
					       pmu_model_reads_dumps(cfg->pmu)))
		return pf_error_set(err, PF_E_OPTION_NOT_USED, "--export-perf-data",
				    "with an Itanium 2 dump or a sampling module",
				    " (it converts a sample file or a perf.data file)");
	if (given(cfg, "metrics-file") && cfg->check && !cfg->n_metric_args)
		return pf_error_set(err, PF_E_OPTION_NOT_USED, "--metrics-file", "with --check without -M",
				    " (name the metrics to plan)");
	if (given(cfg, "metric-no-group") && !cfg->n_metric_args)
		return pf_error_set(err, PF_E_OPTION_NOT_USED, "--metric-no-group", "without -M",
				    " (it ungroups the events of the metrics asked for)");
	if (given(cfg, "demangle-cpp") && given(cfg, "no-demangle"))
		return pf_error_set(err, PF_E_OPTIONS_EXCLUDE, "--demangle-cpp", "--no-demangle", "");
	if (check_binary_report(cfg, err))
		return -1;
	if (given(cfg, "source-root") && !cfg->annotate)
		return pf_error_set(err, PF_E_OPTION_NEEDS, "--source-root", "--annotate", "");
	if (check_html_report(cfg, err))
		return -1;
	if (cfg->annotate && cfg->report_format && strcmp(cfg->report_format, "text") &&
	    strcmp(cfg->report_format, "json") && strcmp(cfg->report_format, "html"))
		return pf_error_set(err, PF_E_OPTION_NOT_USED, "--annotate", "with --report-format=",
				    cfg->report_format);
	if (given(cfg, "with-header") && cfg->output_kind == PF_OUT_JSON)
		return pf_error_set(err, PF_E_OPTION_NOT_USED, "--with-header", "with --json",
				    " (the JSON lines carry no header)");
	return 0;
}

/* a per-event list longer than its event set would have entries for no event */
static int check_list(size_t entries, size_t events, const char *name, size_t set, struct pf_error *err)
{
	if (entries <= events)
		return 0;
	return pf_error_set(err, PF_E_LIST_TOO_LONG, name, (int)entries, (int)set, (int)events, events == 1 ? "" : "s");
}

/* each randomized event has a period to randomize (its companion option),
 * and base + (random & mask) stays below 2^63 for every draw */
static int check_random_periods(const struct pf_set_config *s, size_t set, struct pf_error *err)
{
	struct record_set_opts periods = config_record_set_opts(s);
	char period[24], hex[24];

	for (size_t i = 0; i < s->n_periods_random; i++) {
		uint64_t base = plan_event_period(&periods, i), mask = s->periods_random[i].mask;

		if (mask && !base)
			return pf_error_set(err, PF_E_PERIOD_NONE, (int)(i + 1), (int)set,
					    i < s->n_events ? s->events[i] : "?");
		if (base && (mask >= PERIOD_LIMIT || base >= PERIOD_LIMIT - mask)) {
			snprintf(period, sizeof(period), "%llu", (unsigned long long)base);
			snprintf(hex, sizeof(hex), "%llx", (unsigned long long)mask);
			return pf_error_set(err, PF_E_PERIOD_OVERFLOW, (int)(i + 1), (int)set, period, hex);
		}
	}
	return 0;
}

static int check_sets(const struct pf_config *cfg, struct pf_error *err)
{
	for (size_t k = 0; k < cfg->n_sets; k++) {
		const struct pf_set_config *s = &cfg->sets[k];

		if (check_list(s->n_event_plm, s->n_events, "priv-levels", k, err) ||
		    check_list(s->n_long_periods, s->n_events, "long-smpl-periods", k, err) ||
		    check_list(s->n_short_periods, s->n_events, "short-smpl-periods", k, err) ||
		    check_list(s->n_periods_random, s->n_events, "smpl-periods-random", k, err) ||
		    check_random_periods(s, k, err))
			return -1;
	}
	return 0;
}

/* Privilege levels 1 and 2 exist on Itanium only; Linux hosts have user and kernel. */
static int check_event_levels(const struct pf_config *cfg, const struct pmu_model *m, struct pf_error *err)
{
	if (!m)
		return 0;
	for (size_t k = 0; k < cfg->n_sets; k++)
		for (size_t i = 0; i < cfg->sets[k].n_event_plm; i++)
			if (cfg->sets[k].event_plm[i] & ~m->plm_levels)
				return pf_error_set(err, PF_E_LEVELS_ITANIUM, m->title);
	return 0;
}

/* a model option's SYMBOL (--irange=main) as the address the model parses */
static int resolve_model_symbols(struct pf_config *cfg, const struct pmu_model *m, struct pf_error *err)
{
	for (size_t i = 0; i < cfg->n_model_options; i++) {
		struct pf_model_option *o = &cfg->model_options[i];
		char *resolved;

		if (!o->arg || o->resolved)
			continue;
		if (model_symbol_resolve(m->options[o->row].long_name, o->arg, cfg->command, &resolved, err))
			return -1;
		if (resolved)
			o->arg = o->resolved = resolved;
	}
	return 0;
}

/*
 * The options of the PMU models: each belongs to the chosen model and acts
 * in this mode (a dry-run model's options act with --check), then the model
 * parses them, in command-line order, into its own struct.
 */
/* A name two models share is recorded under the first (options.c): it is
 * the chosen model's own row when that model has one of the same name */
static bool route_shared_option(struct pf_model_option *o, const struct pmu_model *owner, const struct pmu_model *m)
{
	const struct pmu_option *given = &owner->options[o->row];

	for (size_t r = 0; r < m->n_options; r++)
		if (!strcmp(m->options[r].long_name, given->long_name) && m->options[r].per_set == given->per_set) {
			o->model = m->name;
			o->row = r;
			return true;
		}
	return false;
}

static int apply_model_options(struct pf_config *cfg, const struct pmu_model *m, struct pf_error *err)
{
	unsigned mode = current_mode(cfg);
	char opt[64];
	bool describing;
	void *opts = NULL;

	for (size_t i = 0; m && i < cfg->n_model_options; i++) {
		const struct pmu_model *owner = pmu_model_find(cfg->model_options[i].model);

		if (owner != m && route_shared_option(&cfg->model_options[i], owner, m))
			continue;
		if (owner != m)
			return pf_error_set(err, PF_E_OPTION_FOR_MODEL,
					    dashed(owner->options[cfg->model_options[i].row].long_name, opt, sizeof(opt)),
					    owner->title, owner->name);
	}
	if (m && resolve_model_symbols(cfg, m, err))
		return -1;
	if (m && m->options_new) {
		opts = m->options_new(cfg->n_sets);
		for (size_t i = 0; i < cfg->n_model_options; i++) {
			const struct pf_model_option *o = &cfg->model_options[i];

			if (m->options[o->row].apply(opts, o->set, o->arg, err)) {
				m->options_free(opts);
				return -1;
			}
		}
	}
	/* -I and a model's own describe request (--pmu-info) are informational: any mode */
	describing = cfg->list_pmus || (opts && m->wants_describe && m->wants_describe(opts));
	for (size_t i = 0; !describing && i < cfg->n_model_options; i++) {
		const struct pf_model_option *o = &cfg->model_options[i];
		const struct pmu_model *owner = pmu_model_find(o->model);
		unsigned modes = owner->can_run ? M_RUN | M_CHECK : M_CHECK;

		if (!(modes & mode)) {
			if (opts)
				m->options_free(opts);
			return pf_error_set(err, PF_E_OPTION_NOT_USED,
					    dashed(owner->options[o->row].long_name, opt, sizeof(opt)), mode_phrase(mode),
					    modes & M_RUN ? " (it is for counting and --check)" : " (it is for --check)");
		}
	}
	if (!opts)
		return 0;
	if (cfg->model_opts && cfg->model_opts_free)
		cfg->model_opts_free(cfg->model_opts);
	cfg->model_opts = opts;
	cfg->model_opts_owner = m;
	cfg->model_opts_free = m->options_free;
	return 0;
}

int options_apply_model(struct pf_config *cfg, const struct pmu_model *m, struct pf_error *err)
{
	return apply_model_options(cfg, m, err);
}

/* the kernel's cap on sampling frequencies; 0 if it cannot be read */
static uint64_t max_sample_rate(void)
{
	char line[32];
	uint64_t rate;

	return read_first_line(MAX_SAMPLE_RATE_PATH, line, sizeof(line)) && parse_u64(line, &rate) ? rate : 0;
}

static int check_frequency(const struct pf_config *cfg, struct pf_error *err)
{
	bool any_unperiodic = false;
	char freq[24], limit[24];
	uint64_t max;

	if (!cfg->smpl_freq)
		return 0;
	for (size_t k = 0; k < cfg->n_sets; k++) {
		struct record_set_opts periods = config_record_set_opts(&cfg->sets[k]);
		bool periodic = false;

		for (size_t i = 0; i < cfg->sets[k].n_events; i++)
			periodic |= plan_event_period(&periods, i) != 0;
		any_unperiodic |= !periodic;
	}
	/* a set with a period samples at its periods (pfmon 3.x) */
	if (!any_unperiodic)
		return pf_error_set(err, PF_E_OPTION_NOT_USED, "--smpl-freq", "when every event set has sampling periods",
				    "");
	max = max_sample_rate();
	if (max && cfg->smpl_freq > max) {
		snprintf(freq, sizeof(freq), "%llu", (unsigned long long)cfg->smpl_freq);
		snprintf(limit, sizeof(limit), "%llu", (unsigned long long)max);
		return pf_error_set(err, PF_E_FREQ_ABOVE_LIMIT, freq, limit);
	}
	return 0;
}

/* pfmon 3.x's --smpl-module=btb when sampling (the Itanium 2 BTB): the
 * host's branch stacks, as -b records them, reported as branch pairs */
static void map_btb_module(struct pf_config *cfg)
{
	size_t n;
	const struct opt_def *t;

	if (cfg->report_file || !cfg->smpl_module || strcmp(cfg->smpl_module, "btb") || !pf_config_is_sampling(cfg))
		return;
	t = options_table(&n);
	for (size_t i = 0; cfg->options_given && i < n; i++) /* it is -b now, not a report's module */
		if (!strcmp(t[i].long_name, "smpl-module"))
			cfg->options_given[i] = false;
	cfg->smpl_module = NULL;
	cfg->smpl_branch_stack = true;
	if (!cfg->branch_filter)
		cfg->branch_filter = PERF_SAMPLE_BRANCH_ANY;
	if (!cfg->report_sort)
		cfg->report_sort = "symbol_from,symbol_to";
}

int options_validate(struct pf_config *cfg, const struct pmu_model *model, struct pf_error *err)
{
	map_btb_module(cfg);
	if (check_modes(cfg, model, err) || apply_model_options(cfg, model, err) || check_output(cfg, err))
		return -1;
	if (cfg->report_file || cfg->merge || cfg->metrics_from)
		return 0;
	if (check_sets(cfg, err) || check_event_levels(cfg, model, err) || check_frequency(cfg, err))
		return -1;
	/* said once every option is known good (and -q is in force) */
	if (cfg->mmap_pages_rounded)
		fprintf(stderr, "note: -m %s: rings of %llu pages\n", cfg->mmap_pages_rounded,
			(unsigned long long)cfg->mmap_pages);
	return 0;
}
