/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <sched.h>
#include <getopt.h>
#include <math.h>
#include <regex.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "common/debug.h"
#include "common/util.h"
#include "event/event_spec.h"
#include "event/pmu_model.h"
#include "options.h"
#include "session/plan.h"
#include "session/procfs.h"
#include "report/ia64_report.h"
#include "report/profile.h"
#include "triggers.h"

struct cli_state {
	struct pf_config *cfg;
	struct pf_set_config pending; /* per-set options seen before the first -e */
};

static struct pf_set_config *current_set(struct cli_state *st)
{
	return st->cfg->n_sets ? &st->cfg->sets[st->cfg->n_sets - 1] : &st->pending;
}

static int bad_value(const struct opt_def *o, const char *arg, const char *why, struct pf_error *err)
{
	return pf_error_set(err, PF_E_BAD_OPTION_VALUE, arg ? arg : "", o->long_name, why);
}

/* A per-set option may be given once per event set (pfmon 3.x). */
static int mark_given(struct cli_state *st, const struct opt_def *o, unsigned bit, struct pf_error *err)
{
	struct pf_set_config *s = current_set(st);
	int set = st->cfg->n_sets ? (int)st->cfg->n_sets - 1 : 0;

	if (s->given & (1u << bit))
		return pf_error_set(err, PF_E_OPTION_TWICE, o->long_name, set);
	s->given |= 1u << bit;
	return 0;
}

enum per_set_bit {
	PS_PRIV,
	PS_LONG,
	PS_SHORT,
	PS_RANDOM,
};

/* ----- event sets ----- */

static int opt_events(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	struct pf_config *cfg = st->cfg;
	struct pf_set_config *s;
	size_t n;
	char **events = event_list_split(arg, &n, err);

	if (!events)
		return -1;
	cfg->sets = xrealloc(cfg->sets, (cfg->n_sets + 1) * sizeof(*cfg->sets));
	s = &cfg->sets[cfg->n_sets];
	if (cfg->n_sets == 0) {
		*s = st->pending; /* per-set options given before the first -e belong to it */
		memset(&st->pending, 0, sizeof(st->pending));
	} else {
		memset(s, 0, sizeof(*s));
	}
	cfg->n_sets++;
	s->events = events;
	s->n_events = n;
	return 0;
}

static int parse_plm_letters(const char *s, unsigned *plm)
{
	static const char letters[] = "0123uk";
	static const unsigned bits[] = { PF_PLM0, PF_PLM1, PF_PLM2, PF_PLM3, PF_PLM_USER, PF_PLM_KERNEL };

	*plm = 0;
	for (; *s; s++) {
		const char *p = strchr(letters, tolower((unsigned char)*s));

		if (!p)
			return -1;
		*plm |= bits[p - letters];
	}
	return 0;
}

static int opt_priv_levels(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	struct pf_set_config *s = current_set(st);
	size_t n;
	char **v;

	if (mark_given(st, o, PS_PRIV, err))
		return -1;
	v = str_split(arg, ',', &n);
	s->event_plm = xcalloc(n, sizeof(*s->event_plm));
	s->n_event_plm = n;
	for (size_t i = 0; i < n; i++) {
		if (parse_plm_letters(v[i], &s->event_plm[i])) {
			str_vec_free(v);
			return bad_value(o, arg, "privilege levels are letters from [0123uk], comma separated", err);
		}
	}
	str_vec_free(v);
	return 0;
}

/* The kernel refuses a period with bit 63 set (perf_event_open: EINVAL). */
#define PERIOD_LIMIT (1ull << 63)

static int parse_periods(const struct opt_def *o, const char *arg, uint64_t **out, size_t *count,
			 struct pf_error *err)
{
	size_t n;
	char **v;

	if (!*arg)
		return bad_value(o, arg, "the list is empty", err);
	v = str_split(arg, ',', &n);
	*out = xcalloc(n, sizeof(**out));
	*count = n;
	for (size_t i = 0; i < n; i++) {
		const char *why = NULL;

		/* an empty entry: that event is not a sampling event */
		if (!*v[i])
			continue;
		why = parse_u64_why(v[i], &(*out)[i]);
		if (!why && ((*out)[i] == 0 || (*out)[i] >= PERIOD_LIMIT))
			why = "periods are from 1 to 2^63-1";
		if (why) {
			char msg[160];

			snprintf(msg, sizeof(msg), "entry %zu: %s", i + 1, why);
			str_vec_free(v);
			return bad_value(o, arg, msg, err);
		}
	}
	str_vec_free(v);
	return 0;
}

static int opt_long_periods(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	struct pf_set_config *s = current_set(st);

	if (mark_given(st, o, PS_LONG, err))
		return -1;
	return parse_periods(o, arg, &s->long_periods, &s->n_long_periods, err);
}

static int opt_short_periods(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	struct pf_set_config *s = current_set(st);

	if (mark_given(st, o, PS_SHORT, err))
		return -1;
	return parse_periods(o, arg, &s->short_periods, &s->n_short_periods, err);
}

/* "MASK" or "MASK:SEED"; an empty entry leaves that event's period fixed */
static bool parse_random_entry(const char *entry, struct pf_period_random *r)
{
	const char *colon = strchr(entry, ':');
	char *mask;
	bool good;

	if (!*entry)
		return true;
	mask = colon ? xstrndup(entry, (size_t)(colon - entry)) : xstrdup(entry);
	good = parse_u64(mask, &r->mask) && r->mask != 0;
	free(mask);
	if (good && colon) {
		good = parse_u64(colon + 1, &r->seed);
		r->seeded = true;
	}
	return good;
}

static int opt_periods_random(struct cli_state *st, const struct opt_def *o, const char *arg,
			      struct pf_error *err)
{
	struct pf_set_config *s = current_set(st);
	size_t n;
	char **v;

	if (mark_given(st, o, PS_RANDOM, err))
		return -1;
	v = str_split(arg, ',', &n);
	s->periods_random = xcalloc(n, sizeof(*s->periods_random));
	s->n_periods_random = n;
	for (size_t i = 0; i < n; i++) {
		if (!parse_random_entry(v[i], &s->periods_random[i])) {
			str_vec_free(v);
			return bad_value(o, arg, "entries are MASK or MASK:SEED (MASK not 0), comma separated", err);
		}
	}
	str_vec_free(v);
	return 0;
}

/* ----- global options ----- */

static int opt_plm(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	static const struct {
		const char *name;
		unsigned plm;
	} levels[] = {
		{ "user-level", PF_PLM3 },
		{ "kernel-level", PF_PLM0 },
		{ "pl1", PF_PLM1 },
		{ "pl2", PF_PLM2 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(levels); i++)
		if (strcmp(o->long_name, levels[i].name) == 0)
			st->cfg->plm |= levels[i].plm; /* the level options add up */
	return 0;
}

static int opt_counter_format(struct cli_state *st, const struct opt_def *o, const char *arg,
			      struct pf_error *err)
{
	st->cfg->counter_format = o->long_name[0] == 'u' ? PF_FMT_US
				  : o->long_name[0] == 'e' ? PF_FMT_EU
							   : PF_FMT_HEX;
	return 0;
}

static int opt_csv(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	if (arg && !*arg)
		return bad_value(o, arg, "the separator cannot be empty", err);
	/* a quote or a line break would split or merge the fields of a CSV reader */
	for (const char *p = arg; p && *p; p++)
		if (*p == '"' || iscntrl((unsigned char)*p))
			return bad_value(o, arg, "the separator cannot hold a quote or a control character", err);
	st->cfg->output_kind = PF_OUT_CSV;
	if (arg)
		st->cfg->csv_sep = arg;
	return 0;
}

/* perf stat -B (--big-num): thousands separators, as --us-counter-format;
 * --no-big-num: none */
static int opt_big_num(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	st->cfg->counter_format = o->long_name[0] == 'n' ? PF_FMT_PLAIN : PF_FMT_US;
	return 0;
}

/* perf stat -d: each -d one more level of perf's detailed events ("-dd") */
static int opt_detailed(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	if (st->cfg->detailed < 3)
		st->cfg->detailed++;
	return 0;
}

static int opt_perf_style(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	st->cfg->output_kind = PF_OUT_PERF;
	return 0;
}

static int opt_json(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	st->cfg->output_kind = PF_OUT_JSON;
	return 0;
}

static int opt_show_events(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	st->cfg->list_events = true;
	st->cfg->long_list = o->long_name[0] == 'l';
	st->cfg->list_regex = arg;
	return 0;
}

static int parse_u64_opt(const struct opt_def *o, const char *arg, uint64_t min, uint64_t max, uint64_t *out,
			 struct pf_error *err)
{
	const char *why = parse_u64_why(arg, out);
	double real;
	char msg[256];

	if (!why && *out >= min && *out <= max)
		return 0;
	/* "10.5" or "1e3" is a number, of the wrong kind ("010" keeps its own why) */
	if (why && strpbrk(arg, ".eE") && parse_real(arg, &real))
		why = "not an integer";
	snprintf(msg, sizeof(msg), "%s%sexpected an integer from %llu to %llu", why ? why : "", why ? "; " : "",
		 (unsigned long long)min, (unsigned long long)max);
	return bad_value(o, arg, msg, err);
}

/* -p/--attach-task/--pid: processes; --tid: threads (perf); comma lists */
static int opt_attach(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	struct pf_config *cfg = st->cfg;
	bool threads = strcmp(o->long_name, "tid") == 0;
	uint64_t *ids;
	const char *why;
	long n;

	if (cfg->n_attach && cfg->attach_threads != threads)
		return pf_error_set(err, PF_E_OPTIONS_EXCLUDE, "--tid", "--attach-task", " (-p, --pid)");
	n = parse_u64_list(arg, false, 1, INT32_MAX, &ids, &why);
	if (n < 0)
		return bad_value(o, arg, threads ? "expected thread ids, comma separated"
						  : "expected process ids, comma separated", err);
	cfg->attach = xrealloc(cfg->attach, (cfg->n_attach + (size_t)n) * sizeof(*cfg->attach));
	for (long i = 0; i < n; i++)
		cfg->attach[cfg->n_attach++] = (int)ids[i];
	free(ids);
	cfg->attach_threads = threads;
	return 0;
}

static int opt_cpu_list(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	char why[96];
	long n;

	free(st->cfg->cpu_list); /* the last --cpu-list counts */
	st->cfg->cpu_list = NULL;
	st->cfg->n_cpu_list = 0;
	n = procfs_parse_cpu_list(arg, &st->cfg->cpu_list, why, sizeof(why));

	if (n < 0)
		return bad_value(o, arg, why, err);
	st->cfg->n_cpu_list = (size_t)n;
	return 0;
}

/* perf stat -A and --per-core, --per-die, --per-socket, --per-node,
 * --per-cache[=LEVEL] (perf's L2, or 2): one mode; a second is refused */
static int opt_aggr(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	static const struct {
		const char *name, *option;
		enum pf_aggr aggr;
	} modes[] = {
		{ "no-aggr", "-A/--no-aggr", PF_AGGR_CPU },	 { "per-core", "--per-core", PF_AGGR_CORE },
		{ "per-die", "--per-die", PF_AGGR_DIE },	 { "per-socket", "--per-socket", PF_AGGR_SOCKET },
		{ "per-node", "--per-node", PF_AGGR_NODE },	 { "per-cache", "--per-cache", PF_AGGR_CACHE },
	};
	uint64_t level = 0;
	size_t i = 0;

	while (strcmp(o->long_name, modes[i].name))
		i++;
	if (st->cfg->aggr && st->cfg->aggr != modes[i].aggr)
		return pf_error_set(err, PF_E_OPTIONS_EXCLUDE, st->cfg->aggr_option, modes[i].option,
				    ": perf stat aggregates one way at a time");
	if (arg && !parse_u64(arg + (*arg == 'L' || *arg == 'l'), &level))
		return bad_value(o, arg, "give a cache level: L1, L2, L3 (or 1, 2, 3)", err);
	if (arg && (level < 1 || level > 9))
		return bad_value(o, arg, "cache levels go from L1 to L9", err);
	st->cfg->aggr = modes[i].aggr;
	st->cfg->aggr_option = modes[i].option;
	st->cfg->aggr_cache_level = (int)level;
	return 0;
}

/* --follow-exec[=REGEX], --follow-exec-exclude=REGEX: checked here, used by the session */
static int opt_follow_exec(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	regex_t re;
	char why[128];
	int rc;

	st->cfg->follow_exec = true;
	if (!arg)
		return 0;
	rc = regcomp(&re, arg, REG_EXTENDED | REG_NOSUB);
	if (rc) {
		regerror(rc, &re, why, sizeof(why));
		return pf_error_set(err, PF_E_BAD_REGEX, arg, why);
	}
	regfree(&re);
	if (strcmp(o->long_name, "follow-exec") == 0)
		st->cfg->follow_exec_pattern = arg;
	else
		st->cfg->follow_exec_exclude = arg;
	return 0;
}

static int opt_follow_all(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	struct pf_config *cfg = st->cfg;

	cfg->follow_fork = cfg->follow_vfork = cfg->follow_pthread = cfg->follow_exec = true;
	return 0;
}

static int opt_print_interval(struct cli_state *st, const struct opt_def *o, const char *arg,
			      struct pf_error *err)
{
	/* perf's floor: shorter intervals cost more than they show */
	return parse_u64_opt(o, arg, 10, 3600u * 1000, &st->cfg->print_interval, err);
}

static int opt_interval_count(struct cli_state *st, const struct opt_def *o, const char *arg,
			      struct pf_error *err)
{
	return parse_u64_opt(o, arg, 1, UINT32_MAX, &st->cfg->interval_count, err);
}

/* a duration in seconds, fractions too ("0.5"), kept in nanoseconds: from
 * 1 ms (the session's poll granularity) to 100 years */
#define SECONDS_MAX (100.0 * 365 * 24 * 3600)

static int parse_seconds_opt(const struct opt_def *o, const char *arg, uint64_t *ns, struct pf_error *err)
{
	const char *why;
	double secs;
	char msg[256];

	why = parse_real_why(arg, &secs);
	if (!why && secs >= 0.001 && secs <= SECONDS_MAX) {
		*ns = (uint64_t)llround(secs * 1e9);
		return 0;
	}
	snprintf(msg, sizeof(msg), "%s%sexpected seconds from 0.001 to %.0f", why ? why : "", why ? "; " : "",
		 SECONDS_MAX);
	return bad_value(o, arg, msg, err);
}

static int opt_timeout(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	return parse_seconds_opt(o, arg, &st->cfg->session_timeout_ns, err);
}

/* a duration in milliseconds (perf's --timeout, -D), kept in nanoseconds */
static int parse_ms_opt(const struct opt_def *o, const char *arg, uint64_t min, uint64_t *ns, struct pf_error *err)
{
	uint64_t ms;

	if (parse_u64_opt(o, arg, min, (uint64_t)(SECONDS_MAX * 1000), &ms, err))
		return -1;
	*ns = ms * 1000000;
	return 0;
}

static int opt_timeout_ms(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	return parse_ms_opt(o, arg, 1, &st->cfg->session_timeout_ns, err);
}

static int opt_delay_ms(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	return parse_ms_opt(o, arg, 0, &st->cfg->trigger_start_delay_ns, err);
}

/* perf stat -r: up to 100000 runs (perf's own limit is the int) */
static int opt_repeat(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	return parse_u64_opt(o, arg, 1, 100000, &st->cfg->repeat, err);
}

/* perf record -c: every event's period unless a per-event option gives one */
static int opt_count_period(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	return parse_u64_opt(o, arg, 1, PERIOD_LIMIT - 1, &st->cfg->perf_count, err);
}

/* perf record -j (--branch-filter=LIST) and -b (--branch-any): branch stacks, filtered */
static int opt_branch_filter(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	const char *why = arg ? branch_filter_parse(arg, &st->cfg->branch_filter) : NULL;

	if (why)
		return bad_value(o, arg, why, err);
	if (!arg) /* -b: any branch, at the event's own levels, as perf's */
		st->cfg->branch_filter = PERF_SAMPLE_BRANCH_ANY;
	st->cfg->smpl_branch_stack = true;
	return 0;
}

/* perf record -m PAGES or SIZE[BKMG]: each CPU ring's data pages, a power of
 * two (rounded up, as perf rounds it, with a note) */
static int opt_mmap_pages(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	static const char units[] = "BKMG";
	size_t len = strlen(arg), page = (size_t)sysconf(_SC_PAGESIZE);
	const char *unit = len ? strchr(units, toupper((unsigned char)arg[len - 1])) : NULL;
	char *digits = xstrndup(arg, unit ? len - 1 : len), too_many[48];
	uint64_t v, pages = 1;
	bool ok = parse_u64(digits, &v) && v > 0;
	int shift = unit ? 10 * (int)(unit - units) : 0;

	free(digits);
	if (!ok)
		return bad_value(o, arg, "give a number of pages or a size with B, K, M or G", err);
	snprintf(too_many, sizeof(too_many), "at most %d pages a ring", RING_PAGES_MAX);
	/* a size: compared in bytes before it is shifted, then whole pages */
	if (unit && v > ((uint64_t)RING_PAGES_MAX * page) >> shift)
		return bad_value(o, arg, too_many, err);
	if (unit)
		v = ((v << shift) + page - 1) / page;
	if (v > RING_PAGES_MAX)
		return bad_value(o, arg, too_many, err);
	while (pages < v)
		pages *= 2;
	st->cfg->mmap_pages_rounded = pages != v || unit ? arg : NULL;
	st->cfg->mmap_pages = pages;
	return 0;
}

/* perf record -s (per-thread counts in perf.data for perf report -T): not here */
static int opt_record_stat(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	return pf_error_set(err, PF_E_NOT_IMPLEMENTED, "-s/--stat", "(perf record's per-thread counts in perf.data)",
			    "; pfmon --per-thread counts each thread of a command");
}

static int opt_smpl_entries(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	/* plan.c's ring_pages() caps a ring at RING_PAGES_MAX pages: 2^18 samples of 64 bytes */
	return parse_u64_opt(o, arg, 1, 1u << 18, &st->cfg->smpl_entries, err);
}

/* perf record's -z: level 1 without a value, 1 to 22 with one */
static int opt_compression_level(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	if (!arg) {
		st->cfg->compression_level = 1;
		return 0;
	}
	return parse_u64_opt(o, arg, 1, 22, &st->cfg->compression_level, err);
}

static int opt_smpl_freq(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	return parse_u64_opt(o, arg, 1, 1000000, &st->cfg->smpl_freq, err);
}

static int opt_show_top(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	return parse_u64_opt(o, arg, 1, UINT32_MAX, &st->cfg->smpl_show_top, err);
}

static int opt_cum_threshold(struct cli_state *st, const struct opt_def *o, const char *arg,
			     struct pf_error *err)
{
	return parse_u64_opt(o, arg, 1, 100, &st->cfg->smpl_cum_threshold, err);
}

/* --annotate[=FUNCTION]: the hottest functions, or the one named */
static int opt_annotate(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	if (arg && !*arg)
		return bad_value(o, arg, "give a function name, or no value for the hottest functions", err);
	st->cfg->annotate = true;
	st->cfg->annotate_function = arg;
	return 0;
}

/* perf's default and largest user stack copy (the kernel's size is a u16,
 * and the copy must be 8-byte aligned) */
#define STACK_DUMP_DEFAULT 8192
#define STACK_DUMP_MAX 65528

/* --call-graph=fp, dwarf[,SIZE] or lbr (perf record's option); -g is fp */
static int opt_call_graph(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	struct pf_config *cfg = st->cfg;
	const char *comma = strchr(arg, ',');
	size_t mode_len = comma ? (size_t)(comma - arg) : strlen(arg);
	uint64_t size = STACK_DUMP_DEFAULT;
	const char *why;

	cfg->callchain_dwarf = cfg->callchain_lbr = false;
	if (!comma && (!strcmp(arg, "fp") || !strcmp(arg, "lbr"))) {
		cfg->callchain = true;
		cfg->callchain_lbr = arg[0] == 'l';
		return 0;
	}
	if (mode_len != 5 || strncmp(arg, "dwarf", 5))
		return bad_value(o, arg,
				 "call graph modes are fp (frame pointers, as -g), dwarf[,SIZE] and lbr (Intel LBR call stacks)",
				 err);
	if (comma) {
		why = parse_u64_why(comma + 1, &size);
		if (why || size < 8 || size > STACK_DUMP_MAX || size % 8)
			return bad_value(o, arg, "the stack size is a multiple of 8 from 8 to 65528 bytes", err);
	}
#ifndef __x86_64__
	return bad_value(o, arg, "DWARF call graphs are recorded on x86-64 only", err);
#endif
	cfg->callchain = cfg->callchain_dwarf = true;
	cfg->stack_dump_size = (uint32_t)size;
	return 0;
}

/* dear-hist's view and sort: one of each, given once */
static int opt_smpl_view(struct cli_state *st, const struct opt_def *o, const char *arg,
			 struct pf_error *err)
{
	static const char *const views[] = { "--smpl-inst-view", "--smpl-data-view", "--smpl-level-view",
					     "--smpl-object-view", "--smpl-type-view", "--smpl-line-view" };
	struct pf_config *cfg = st->cfg;

	for (size_t i = 0; i < ARRAY_SIZE(views); i++) {
		if (strcmp(o->long_name, views[i] + 2))
			continue;
		if (cfg->smpl_view_given && cfg->smpl_view != (enum pf_smpl_view)i)
			return pf_error_set(err, PF_E_OPTIONS_EXCLUDE, views[cfg->smpl_view], views[i],
					    ": give one view");
		cfg->smpl_view = (enum pf_smpl_view)i;
		cfg->smpl_view_given = true;
	}
	return 0;
}

static int opt_smpl_sort(struct cli_state *st, const struct opt_def *o, const char *arg,
			 struct pf_error *err)
{
	struct pf_config *cfg = st->cfg;
	enum pf_smpl_sort sort = strcmp(o->long_name, "smpl-sort-byvalue") ? PF_SORT_LEVEL
									  : PF_SORT_VALUE;

	if (cfg->smpl_sort_given && cfg->smpl_sort != sort)
		return pf_error_set(err, PF_E_OPTIONS_EXCLUDE, "--smpl-sort-byvalue", "--smpl-sort-bylevel",
				    ": give one order");
	cfg->smpl_sort = sort;
	cfg->smpl_sort_given = true;
	return 0;
}

/* "WHAT are a, b and c": the names a parser accepts, from its own table */
static int bad_name(const struct opt_def *o, const char *arg, const char *what,
		    const char *(*name_at)(size_t i), struct pf_error *err)
{
	struct strbuf sb = STRBUF_INIT;
	const char *name;
	int rc;

	strbuf_addf(&sb, "%s are", what);
	for (size_t i = 0; (name = name_at(i)); i++)
		strbuf_addf(&sb, "%s %s", i == 0 ? "" : name_at(i + 1) ? "," : " and", name);
	rc = bad_value(o, arg, strbuf_str(&sb), err);
	strbuf_release(&sb);
	return rc;
}

/*
 * The options whose value is one of a list of names, each list read from
 * the table its parser (or the code the value goes to) checks names
 * against: the shell completion offers what pfmon accepts, and an option
 * stored by opt_one_of() is checked against the same list.
 */
static const char *pmu_model_name_at(size_t i)
{
	const struct pmu_model *m = pmu_model_at(i);

	return m ? m->name : NULL;
}

static const char *smpl_module_name_at(size_t i)
{
	return ia64_smpl_module_name((enum ia64_smpl_module)i);
}

static const struct {
	const char *long_name;
	const char *(*name_at)(size_t i); /* NULL past the last */
	const char *what; /* opt_one_of's error: "WHAT are a, b and c" */
} option_names[] = {
	{ "report-sort", profile_sort_name, "sort keys" },
	{ "report-format", profile_format_name, "report formats" },
	{ "smpl-format", sample_out_format_name, "sample file formats" },
	{ "pmu", pmu_model_name_at, NULL },
	{ "smpl-module", smpl_module_name_at, NULL },
	{ "smpl-module-info", smpl_module_name_at, NULL },
};

/* --report-sort, --report-format, --smpl-format: one of option_names' list,
 * kept in the const char * at o->offset */
static int opt_one_of(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	for (size_t i = 0; i < ARRAY_SIZE(option_names); i++) {
		const char *name;

		if (strcmp(option_names[i].long_name, o->long_name))
			continue;
		for (size_t k = 0; (name = option_names[i].name_at(k)); k++) {
			if (!strcmp(name, arg)) {
				*(const char **)((char *)st->cfg + o->offset) = arg;
				return 0;
			}
		}
		return bad_name(o, arg, option_names[i].what, option_names[i].name_at, err);
	}
	return bad_value(o, arg, "no list of names for this option", err);
}

/* --report-sort: one key, or a list of them ("data,mem,snoop"), each
 * one of option_names' list; an unknown one named with that list */
static int opt_report_sort(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	struct profile_opts po;
	char bad[64];
	const char *why = profile_sort_parse(arg, &po, bad, sizeof(bad));

	if (why && !strcmp(why, "unknown sort key"))
		return bad_name(o, bad, "sort keys", profile_sort_name, err);
	if (why) {
		char msg[160];

		snprintf(msg, sizeof(msg), "%s: '%s'", why, bad);
		return bad_value(o, arg, msg, err);
	}
	st->cfg->report_sort = arg;
	return 0;
}

/* --demangle-cpp (pfmon 3.x; the default now, as in perf) and --no-demangle */
static int opt_demangle(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	(void)arg;
	(void)err;
	st->cfg->no_demangle = strcmp(o->long_name, "no-demangle") == 0;
	return 0;
}

/* ----- derived metrics ----- */

static int opt_metrics(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	struct pf_config *cfg = st->cfg;

	if (!*arg)
		return bad_value(o, arg, "the list of metrics is empty", err);
	cfg->metric_args = xrealloc(cfg->metric_args, (cfg->n_metric_args + 1) * sizeof(*cfg->metric_args));
	cfg->metric_args[cfg->n_metric_args++] = arg;
	return 0;
}

static int opt_show_metrics(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	regex_t re;
	char why[128];
	int rc;

	st->cfg->show_metrics = true;
	if (!arg)
		return 0;
	rc = regcomp(&re, arg, REG_EXTENDED | REG_NOSUB | REG_ICASE);
	if (rc) {
		regerror(rc, &re, why, sizeof(why));
		return pf_error_set(err, PF_E_BAD_REGEX, arg, why);
	}
	regfree(&re);
	st->cfg->show_metrics_regex = arg;
	return 0;
}

/* --trigger-{code,data}-{start,stop}-address[es]=A,B,...: each entry
 * checked here, resolved in the running program by the session */
static int opt_trigger(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	struct pf_config *cfg = st->cfg;
	int k = PF_TRG_KINDS;
	size_t n;
	char **v;

	for (int i = 0; i < PF_TRG_KINDS; i++)
		if (!strncmp(o->long_name, trigger_option_name((enum pf_trigger_kind)i),
			     strlen(trigger_option_name((enum pf_trigger_kind)i))))
			k = i;
	if (k == PF_TRG_KINDS)
		return bad_value(o, arg, "not a trigger option", err);
	v = str_split(arg, ',', &n);
	for (size_t i = 0; i < n; i++) {
		struct trigger_spec spec;
		const char *why = trigger_spec_parse(v[i], &spec);

		free(spec.symbol);
		if (why) {
			char msg[200];

			snprintf(msg, sizeof(msg), "'%s': %s", v[i], why);
			str_vec_free(v);
			return bad_value(o, arg, msg, err);
		}
	}
	/* repeated options add up, as the entries of one list */
	cfg->triggers[k] = xrealloc(cfg->triggers[k], (cfg->n_triggers[k] + n + 1) * sizeof(char *));
	memcpy(cfg->triggers[k] + cfg->n_triggers[k], v, (n + 1) * sizeof(char *));
	cfg->n_triggers[k] += n;
	free(v);
	return 0;
}

static int opt_start_delay(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	return parse_seconds_opt(o, arg, &st->cfg->trigger_start_delay_ns, err);
}

/* --debug[=LEVEL] (pfmon 3.x): 1 without a value */
static int opt_debug(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	uint64_t level = 1;

	if (arg && parse_u64_opt(o, arg, 1, PF_DEBUG_MAX, &level, err))
		return -1;
	st->cfg->debug = (unsigned)level;
	return 0;
}

/* --switch-timeout=MS: pfmon switches the event sets itself */
static int opt_switch_timeout(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	return parse_ms_opt(o, arg, 1, &st->cfg->switch_timeout_ns, err);
}

/*
 * pfmon 3.x options for what perfmon2 kernels did and Linux perf_event
 * cannot: accepted by name, so a script says why it cannot run as it did
 * (one usage error each, the reason and what comes nearest).
 */
static const struct {
	const char *long_name;
	const char *why;
} host_cannot[] = {
	{ "overflow-block", "the kernel never stops a task on a full ring, it drops the samples and counts them "
			    "(pfmon reports the losses); give a larger ring with --smpl-entries or -m" },
	{ "extra-smpl-pmds", "samples carry no register by number; the events of a set without a period are read "
			     "into each of its samples: add them to the set with -e" },
	{ "reset-non-smpl-periods", "an overflow reloads its own counter only; perfmon2's reset of the other "
				    "registers has no perf_event_attr field" },
	{ "restart-wait", "the kernel restarts sampling by itself after each overflow: there is no restart of "
			  "pfmon's to wait for (a perfmon2 debugging aid)" },
	{ "insecure", "a task cannot start or stop counters it did not open (perfmon2's user-level rum/sum; "
		      "prctl(PR_TASK_PERF_EVENTS_ENABLE) switches a task's own counters only)" },
	{ "excl-intr", "perf_event_attr cannot tell interrupt handlers from the rest of the kernel "
		       "(perfmon2's excl_intr has no counterpart); -u counts without the kernel" },
	{ "intr-only", "perf_event_attr cannot tell interrupt handlers from the rest of the kernel "
		       "(perfmon2's intr_only has no counterpart)" },
};

static int opt_host_cannot(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	char opt[64];

	snprintf(opt, sizeof(opt), "--%s", o->long_name);
	for (size_t i = 0; i < ARRAY_SIZE(host_cannot); i++)
		if (!strcmp(host_cannot[i].long_name, o->long_name))
			return pf_error_set(err, PF_E_HOST_CANNOT, opt, host_cannot[i].why);
	return bad_value(o, arg, "no reason kept for this option", err);
}

/* pfmon 2.0's options that pfmon 3.x renamed: refused with their replacement */
static int opt_obsolete(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	return pf_error_set(err, PF_E_OPTION_OBSOLETE, strcmp(o->long_name, "cpu-mask") ? "--trigger-address" : "--cpu-mask",
			    strcmp(o->long_name, "cpu-mask") ? "--trigger-code-start-address=ADDR (a symbol too)"
							     : "--cpu-list=N,N1-N2 (CPU numbers, not a bit mask)");
}

/* a pfmon 3.x option for what pfmon always does now (see RESTATES_DEFAULT
 * in tests/bats/options_walk.bats and pfmon(1)) */
static int opt_restates(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	return 0;
}

#define CALL(fn) STORE_CALL, 0, fn
#define BOOL(field) STORE_BOOL, offsetof(struct pf_config, field), NULL
#define STR(field) STORE_STR, offsetof(struct pf_config, field), NULL
#define ONE_OF(field) STORE_CALL, offsetof(struct pf_config, field), opt_one_of

static const char G_GEN[] = "Generic options";
static const char G_OUT[] = "Output options";
static const char G_SMPL[] = "Sampling options";
static const char G_TASK[] = "Attaching and session options";
/* not in --help: for programs (the shell completion), documented in pfmon(1) */
#define G_HIDDEN NULL
static const char G_MERGE[] = "Cluster runs";
static const char G_TRIG[] = "Trigger options (a launched command, x86-64)";

static const struct opt_def options[] = {
	{ "help", "h", ARG_NONE, NULL, G_GEN, BOOL(help), "print this help and exit", M_ANY },
	{ "version", "V", ARG_NONE, NULL, G_GEN, BOOL(version), "print the version and licence and exit", M_ANY },
	{ "list-opts", NULL, ARG_NONE, NULL, G_HIDDEN, BOOL(list_opts),
	  "print the options and the values they take, for the shell completion, and exit", M_ANY },
	{ "quiet", "q", ARG_NONE, NULL, G_GEN, BOOL(quiet),
	  "perf's -q: no note or warning lines on standard error (errors still are)", M_RUN },
	{ "debug", NULL, ARG_OPTIONAL, "LEVEL", G_GEN, CALL(opt_debug),
	  "debug lines on stderr: 1 counters opened and sets switched, 2 every ioctl and read, 3 libpfm4's too",
	  M_ANY },
	{ "verbose", "v", ARG_NONE, NULL, G_GEN, BOOL(verbose),
	  "counting: show each event's canonical string and perf_event_attr; with --check, decode every field", M_COUNT | M_CHECK },
	{ "events", "e", ARG_REQUIRED, "EV1,EV2,...", G_GEN, CALL(opt_events),
	  "events of a new event set (each -e is one group; the kernel multiplexes the sets)", M_RUN | M_CHECK },
	{ "user-level", "u3", ARG_NONE, NULL, G_GEN, CALL(opt_plm), "count at user level (default)", M_RUN | M_CHECK },
	{ "kernel-level", "k0", ARG_NONE, NULL, G_GEN, CALL(opt_plm),
	  "count at kernel level (adds up with -u)", M_RUN | M_CHECK },
	{ "pl1", "1", ARG_NONE, NULL, G_GEN, CALL(opt_plm), "count at privilege level 1 (Itanium)", M_CHECK },
	{ "pl2", "2", ARG_NONE, NULL, G_GEN, CALL(opt_plm), "count at privilege level 2 (Itanium)", M_CHECK },
	{ "priv-levels", NULL, ARG_REQUIRED, "L1,L2,...", G_GEN, CALL(opt_priv_levels),
	  "per-event privilege levels, letters from [0123uk]; an empty entry keeps the global setting", M_RUN | M_CHECK },
	{ "show-events", "l", ARG_OPTIONAL, "REGEX", G_GEN, CALL(opt_show_events),
	  "list the events (matching the case-insensitive REGEX) and exit", M_ANY },
	{ "long-show-events", "L", ARG_OPTIONAL, "REGEX", G_GEN, CALL(opt_show_events),
	  "like -l, also listing unit-mask variants", M_ANY },
	{ "event-info", "i", ARG_REQUIRED, "EVENT", G_GEN, STR(event_info),
	  "describe EVENT (or each event whose name matches the REGEX EVENT): unit masks, modifiers, encoding",
	  M_ANY },
	{ "pmu", NULL, ARG_REQUIRED, "NAME", G_GEN, STR(pmu),
	  "PMU model to use: host (default; also $PFMON_PMU) or a modelled PMU such as itanium2", M_ANY },
	{ "info", "I", ARG_NONE, NULL, G_GEN, BOOL(list_pmus), "print the detected and supported PMU models", M_ANY },
	{ "list-pmus", NULL, ARG_NONE, NULL, G_GEN, BOOL(list_pmus), "same as --info", M_ANY },
	{ "check", NULL, ARG_NONE, NULL, G_GEN, BOOL(check),
	  "validate the events, assign counters, print the programming and exit", M_CHECK },
	{ "check-events-only", NULL, ARG_NONE, NULL, G_GEN, BOOL(check), "same as --check (pfmon 3.x name)", M_CHECK },
	{ "no-inherit", NULL, ARG_NONE, NULL, G_GEN, BOOL(no_inherit),
	  "do not count the command's threads and child processes", M_RUN },
	{ "no-cmd-output", NULL, ARG_NONE, NULL, G_GEN, BOOL(no_cmd_output),
	  "send the command's output to /dev/null", M_RUN },
	{ "system-wide", "a", ARG_NONE, NULL, G_GEN, BOOL(system_wide),
	  "every CPU's counts, whatever runs there (Itanium 2 model: sets the pm bit)", M_RUN | M_CHECK },
	{ "cpu-list", "C", ARG_REQUIRED, "N,N1-N2", G_GEN, CALL(opt_cpu_list),
	  "system-wide: these CPUs only", M_RUN },
	{ "no-aggr", "A", ARG_NONE, NULL, G_GEN, CALL(opt_aggr),
	  "perf stat -A: system-wide counts per CPU, in one output (pfmon's default writes a file per CPU)", M_COUNT },
	{ "per-core", NULL, ARG_NONE, NULL, G_GEN, CALL(opt_aggr),
	  "perf stat --per-core: system-wide counts summed per physical core (S0-D0-C1)", M_COUNT },
	{ "per-die", NULL, ARG_NONE, NULL, G_GEN, CALL(opt_aggr),
	  "perf stat --per-die: system-wide counts summed per die (S0-D0)", M_COUNT },
	{ "per-socket", NULL, ARG_NONE, NULL, G_GEN, CALL(opt_aggr),
	  "perf stat --per-socket: system-wide counts summed per package (S0)", M_COUNT },
	{ "per-node", NULL, ARG_NONE, NULL, G_GEN, CALL(opt_aggr),
	  "perf stat --per-node: system-wide counts summed per NUMA node (N0)", M_COUNT },
	{ "per-cache", NULL, ARG_OPTIONAL, "LEVEL", G_GEN, CALL(opt_aggr),
	  "perf stat --per-cache: system-wide counts summed per cache of LEVEL (L1, L2, L3; default: the last)", M_COUNT },
	{ "pin-command", NULL, ARG_NONE, NULL, G_GEN, BOOL(pin_command),
	  "system-wide: run the command on the CPUs of --cpu-list only", M_RUN },
	{ "cpu-set-relative", NULL, ARG_NONE, NULL, G_GEN, BOOL(cpu_set_relative),
	  "system-wide: --cpu-list numbers are positions in pfmon's CPU affinity set (taskset), default the whole set",
	  M_RUN },
	{ "exclude-idle", NULL, ARG_NONE, NULL, G_GEN, BOOL(exclude_idle),
	  "system-wide: do not count or sample in the idle task (perf_event_attr.exclude_idle)", M_RUN },
	{ "excl-intr", NULL, ARG_NONE, NULL, G_GEN, CALL(opt_host_cannot),
	  "refused: perf_event cannot exclude interrupt handlers", M_RUN | M_CHECK },
	{ "intr-only", NULL, ARG_NONE, NULL, G_GEN, CALL(opt_host_cannot),
	  "refused: perf_event cannot count interrupt handlers only", M_RUN | M_CHECK },
	{ "insecure", NULL, ARG_NONE, NULL, G_GEN, CALL(opt_host_cannot),
	  "refused: a task cannot switch counters pfmon opened on it", M_RUN },
	{ "no-una-detect", NULL, ARG_NONE, NULL, G_GEN, CALL(opt_restates),
	  "pfmon 3.x: do not probe for unavailable registers (pfmon never does: the kernel schedules them)",
	  M_RUN | M_CHECK },
	{ "switch-timeout", NULL, ARG_REQUIRED, "MS", G_GEN, CALL(opt_switch_timeout),
	  "counting several -e sets: pfmon switches them every MS ms, one at a time, and scales the counts "
	  "(default: the kernel multiplexes them)", M_COUNT },
	{ "cpu-mask", NULL, ARG_REQUIRED, "MASK", G_HIDDEN, CALL(opt_obsolete),
	  "pfmon 2.0: refused, use --cpu-list", M_ANY },
	{ "trigger-address", NULL, ARG_REQUIRED, "ADDR", G_HIDDEN, CALL(opt_obsolete),
	  "pfmon 2.0: refused, use --trigger-code-start-address", M_ANY },

	{ "attach-task", "p", ARG_REQUIRED, "PID", G_TASK, CALL(opt_attach),
	  "monitor running process PID (every thread, also those it creates) instead of a command", M_RUN },
	{ "pid", NULL, ARG_REQUIRED, "PID,...", G_TASK, CALL(opt_attach), "same as --attach-task, several processes", M_RUN },
	{ "tid", NULL, ARG_REQUIRED, "TID,...", G_TASK, CALL(opt_attach),
	  "monitor running threads TID (and the threads they create)", M_RUN },
	{ "session-timeout", "t", ARG_REQUIRED, "SECS", G_TASK, CALL(opt_timeout),
	  "end the session after SECS seconds (a launched command is killed then)", M_RUN },
	{ "print-interval", NULL, ARG_REQUIRED, "MS", G_TASK, CALL(opt_print_interval),
	  "print the counts' deltas every MS milliseconds (perf stat -I MS)", M_COUNT },
	{ "interval-print", NULL, ARG_REQUIRED, "MS", G_TASK, CALL(opt_print_interval),
	  "perf stat's spelling of --print-interval", M_COUNT },
	{ "repeat", "r", ARG_REQUIRED, "N", G_TASK, CALL(opt_repeat),
	  "perf stat -r: run the command N times; each count is the runs' mean, with its variance", M_COUNT },
	{ "detailed", "d", ARG_NONE, NULL, G_TASK, CALL(opt_detailed),
	  "perf stat -d: add perf's detailed events (-dd, -ddd: more of them), each <not supported> where the machine lacks it",
	  M_COUNT },
	{ "null", "n", ARG_NONE, NULL, G_TASK, BOOL(null_run),
	  "perf stat -n: open no counter; the command's elapsed (user, sys) seconds only", M_COUNT },
	{ "timeout", NULL, ARG_REQUIRED, "MSEC", G_TASK, CALL(opt_timeout_ms),
	  "perf stat --timeout: end the session after MSEC milliseconds, as -t", M_RUN },
	{ "interval-count", NULL, ARG_REQUIRED, "N", G_TASK, CALL(opt_interval_count),
	  "with --print-interval: end the session after N intervals", M_COUNT },
	{ "follow-fork", NULL, ARG_NONE, NULL, G_TASK, BOOL(follow_fork),
	  "also measure the processes the command forks (each its own results)", M_COUNT },
	{ "follow-vfork", NULL, ARG_NONE, NULL, G_TASK, BOOL(follow_vfork),
	  "also measure the processes the command vforks", M_COUNT },
	{ "follow-pthread", NULL, ARG_NONE, NULL, G_TASK, BOOL(follow_pthread),
	  "also measure the threads the command creates", M_COUNT },
	{ "follow-exec", NULL, ARG_OPTIONAL, "REGEX", G_TASK, CALL(opt_follow_exec),
	  "keep measuring a task across exec (of programs matching REGEX)", M_COUNT },
	{ "follow-exec-exclude", NULL, ARG_REQUIRED, "REGEX", G_TASK, CALL(opt_follow_exec),
	  "keep measuring across exec, except of programs matching REGEX", M_COUNT },
	{ "follow-all", NULL, ARG_NONE, NULL, G_TASK, CALL(opt_follow_all),
	  "--follow-fork --follow-vfork --follow-pthread --follow-exec", M_COUNT },
	{ "exec-split-results", NULL, ARG_NONE, NULL, G_TASK, BOOL(exec_split),
	  "one result per program a task runs (needs --follow-exec)", M_COUNT },
	{ "aggregate-results", NULL, ARG_NONE, NULL, G_TASK, BOOL(aggregate),
	  "sum the results of every followed task (or CPU) into one; a system-wide sampling module's too", M_RUN },
	{ "per-thread", NULL, ARG_NONE, NULL, G_TASK, BOOL(per_thread),
	  "results per thread (a command: every task it creates is followed)", M_COUNT },
	{ "show-time", NULL, ARG_NONE, NULL, G_TASK, BOOL(show_time),
	  "print the command's real, user and system time before the counts", M_COUNT },

	{ "trigger-code-start-address", NULL, ARG_REQUIRED, "A,...", G_TRIG, CALL(opt_trigger),
	  "start monitoring when the code at address or SYMBOL[+OFF] A is about to execute", M_RUN },
	{ "trigger-code-start-addresses", NULL, ARG_REQUIRED, "A,...", G_TRIG, CALL(opt_trigger),
	  "same as --trigger-code-start-address (pfmon 3.x name)", M_RUN },
	{ "trigger-code-stop-address", NULL, ARG_REQUIRED, "A,...", G_TRIG, CALL(opt_trigger),
	  "stop monitoring when the code at A is about to execute (A = the start: when that call returns)", M_RUN },
	{ "trigger-code-stop-addresses", NULL, ARG_REQUIRED, "A,...", G_TRIG, CALL(opt_trigger),
	  "same as --trigger-code-stop-address (pfmon 3.x name)", M_RUN },
	{ "trigger-code-repeat", NULL, ARG_NONE, NULL, G_TRIG, BOOL(code_trigger_repeat),
	  "count every start..stop window, not only the first", M_RUN },
	{ "trigger-code-follow", NULL, ARG_NONE, NULL, G_TRIG, BOOL(code_trigger_follow),
	  "code triggers act in every task of the command (default: its first only)", M_RUN },
	{ "trigger-data-start-address", NULL, ARG_REQUIRED, "A,...", G_TRIG, CALL(opt_trigger),
	  "start monitoring after an access to data address or SYMBOL[+OFF] A (debug registers)", M_RUN },
	{ "trigger-data-start-addresses", NULL, ARG_REQUIRED, "A,...", G_TRIG, CALL(opt_trigger),
	  "same as --trigger-data-start-address (pfmon 3.x name)", M_RUN },
	{ "trigger-data-stop-address", NULL, ARG_REQUIRED, "A,...", G_TRIG, CALL(opt_trigger),
	  "stop monitoring after an access to data address A", M_RUN },
	{ "trigger-data-stop-addresses", NULL, ARG_REQUIRED, "A,...", G_TRIG, CALL(opt_trigger),
	  "same as --trigger-data-stop-address (pfmon 3.x name)", M_RUN },
	{ "trigger-data-repeat", NULL, ARG_NONE, NULL, G_TRIG, BOOL(data_trigger_repeat),
	  "data triggers: count every start..stop window, not only the first", M_RUN },
	{ "trigger-data-follow", NULL, ARG_NONE, NULL, G_TRIG, BOOL(data_trigger_follow),
	  "data triggers act in every task of the command (default: its first only)", M_RUN },
	{ "trigger-data-ro", NULL, ARG_NONE, NULL, G_TRIG, BOOL(data_trigger_ro),
	  "data triggers on reads only (refused on x86: its debug registers cannot)", M_RUN },
	{ "trigger-data-wo", NULL, ARG_NONE, NULL, G_TRIG, BOOL(data_trigger_wo),
	  "data triggers on writes only (default: reads and writes)", M_RUN },
	{ "trigger-start-delay", NULL, ARG_REQUIRED, "SECS", G_TRIG, CALL(opt_start_delay),
	  "start monitoring SECS seconds after the command's exec (or the session's start)", M_RUN },
	{ "delay", "D", ARG_REQUIRED, "MSEC", G_TRIG, CALL(opt_delay_ms),
	  "perf's -D: --trigger-start-delay in milliseconds", M_RUN },
	{ "dont-start", NULL, ARG_NONE, NULL, G_TRIG, BOOL(dont_start),
	  "pfmon does not start monitoring: a start trigger or --trigger-start-delay does", M_RUN },

	{ "outfile", NULL, ARG_REQUIRED, "FILE", G_OUT, STR(outfile),
	  "write the counts to FILE (%r rank, %s size, %h host, %p pid, %j job id, %% a %)", M_COUNT | M_MERGE | M_SAVED },
	{ "append", NULL, ARG_NONE, NULL, G_OUT, BOOL(append), "append to --outfile instead of replacing it", M_COUNT | M_SAVED },
	{ "with-header", NULL, ARG_NONE, NULL, G_OUT, BOOL(with_header),
	  "print a header: date, host, kernel, PMU, events, command", M_COUNT },
	{ "output", "o", ARG_REQUIRED, "FILE", G_OUT, STR(perf_output),
	  "perf's -o: --outfile=FILE when counting; when sampling, a perf.data (--smpl-outfile=FILE, perf format)",
	  M_COUNT | M_SAMPLE },
	{ "us-counter-format", NULL, ARG_NONE, NULL, G_OUT, CALL(opt_counter_format), "counts as 1,234,567", M_COUNT | M_SAVED },
	{ "big-num", "B", ARG_NONE, NULL, G_OUT, CALL(opt_big_num), "perf stat -B: counts as 1,234,567", M_COUNT | M_SAVED },
	{ "no-big-num", NULL, ARG_NONE, NULL, G_OUT, CALL(opt_big_num), "perf stat: counts without separators (the default)",
	  M_COUNT | M_SAVED },
	{ "eu-counter-format", NULL, ARG_NONE, NULL, G_OUT, CALL(opt_counter_format), "counts as 1.234.567", M_COUNT | M_SAVED },
	{ "hex-counter-format", NULL, ARG_NONE, NULL, G_OUT, CALL(opt_counter_format),
	  "counts as 0x000000000012d687", M_COUNT | M_SAVED },
	{ "csv", NULL, ARG_OPTIONAL, "SEP", G_OUT, CALL(opt_csv),
	  "CSV with perf stat -x columns (default separator ',')", M_COUNT | M_MERGE | M_SAVED },
	{ "field-separator", "x", ARG_REQUIRED, "SEP", G_OUT, CALL(opt_csv), "perf stat -x SEP: --csv=SEP",
	  M_COUNT | M_MERGE | M_SAVED },
	{ "json", "j", ARG_NONE, NULL, G_OUT, CALL(opt_json), "JSON lines with perf stat -j keys", M_COUNT | M_MERGE | M_SAVED },
	{ "perf-style", NULL, ARG_NONE, NULL, G_OUT, CALL(opt_perf_style),
	  "perf stat's text layout, to standard error as perf writes it (or --outfile); -a sums the CPUs", M_COUNT },

	/* derived metrics (pfmon-metrics(5)) */
	{ "metrics", "M", ARG_REQUIRED, "NAME,...", G_OUT, CALL(opt_metrics),
	  "print these metrics (names or groups) and count the events they need, in planned event sets", M_COUNT | M_CHECK | M_SAVED },
	{ "metrics-file", NULL, ARG_REQUIRED, "FILE", G_OUT, STR(metrics_file),
	  "also read metric definitions from FILE (see pfmon-metrics(5))", M_COUNT | M_CHECK | M_SAVED },
	{ "show-metrics", NULL, ARG_OPTIONAL, "REGEX", G_OUT, CALL(opt_show_metrics),
	  "list the metrics of the PMU model (matching REGEX) with formula and description, and exit", M_ANY },
	{ "metrics-from", NULL, ARG_REQUIRED, "FILE", G_OUT, STR(metrics_from),
	  "compute the metrics from counts saved earlier (pfmon text, --outfile, CSV or JSON) and exit", M_SAVED },
	{ "metric-no-group", NULL, ARG_NONE, NULL, G_OUT, BOOL(metric_no_group),
	  "perf stat --metric-no-group: each event of -M's metrics a set of its own (multiplexed one by one)",
	  M_COUNT | M_CHECK },
	{ "metric-only", NULL, ARG_NONE, NULL, G_OUT, BOOL(metric_only),
	  "print the metrics only, not the counts (perf stat --metric-only)", M_COUNT | M_SAVED },

	{ "long-smpl-periods", NULL, ARG_REQUIRED, "P1,P2,...", G_SMPL, CALL(opt_long_periods),
	  "per-event sampling period; turns sampling on", M_SAMPLE },
	{ "count", "c", ARG_REQUIRED, "N", G_SMPL, CALL(opt_count_period),
	  "perf record -c: every event's sampling period (a per-event period wins); turns sampling on", M_SAMPLE },
	{ "timestamp", "T", ARG_NONE, NULL, G_SMPL, BOOL(perf_timestamp),
	  "perf record -T: samples carry their time (pfmon's always do)", M_SAMPLE },
	{ "short-smpl-periods", NULL, ARG_REQUIRED, "P1,P2,...", G_SMPL, CALL(opt_short_periods),
	  "per-event sampling period between samples; turns sampling on", M_SAMPLE },
	{ "smpl-periods-random", NULL, ARG_REQUIRED, "MASK:SEED,...", G_SMPL, CALL(opt_periods_random),
	  "randomize each event's period by the low bits in MASK", M_SAMPLE },
	{ "smpl-freq", "F", ARG_REQUIRED, "HZ", G_SMPL, CALL(opt_smpl_freq),
	  "sample at HZ samples per second (frequency mode)", M_SAMPLE },
	{ "callchain", "g", ARG_NONE, NULL, G_SMPL, BOOL(callchain), "record call chains (frame pointers)", M_SAMPLE },
	{ "call-graph", NULL, ARG_REQUIRED, "fp|dwarf[,SIZE]|lbr", G_SMPL, CALL(opt_call_graph),
	  "call chains from frame pointers (as -g), unwound from SIZE bytes of user stack (default 8192), or "
	  "user call stacks from the LBR",
	  M_SAMPLE },
	{ "smpl-outfile", NULL, ARG_REQUIRED, "FILE", G_SMPL, STR(smpl_outfile),
	  "write the samples to FILE (see pfmon-smpl(5); the escapes of --outfile); with --report, an Itanium 2 dump's",
	  M_SAMPLE | M_REPORT },
	{ "smpl-format", NULL, ARG_REQUIRED, "FMT", G_SMPL, ONE_OF(smpl_format),
	  "--smpl-outfile's format: pfmon (default, pfmon-smpl(5)) or perf (perf.data)", M_SAMPLE },
	{ "export-perf-data", NULL, ARG_REQUIRED, "FILE", G_SMPL, STR(export_perf_data),
	  "with --report: write the samples read to FILE as perf.data, and exit", M_REPORT },
	{ "dump-aux", NULL, ARG_NONE, NULL, G_SMPL, BOOL(dump_aux),
	  "with --report of a perf.data file: print its AUX trace (Arm SPE) packet by packet, as perf report -D, and exit",
	  M_REPORT },
	{ "compression-level", "z", ARG_OPTIONAL, "N", G_SMPL, CALL(opt_compression_level),
	  "perf.data written compressed, as perf record -z: zstd level N (1 to 22, 1 without N)", M_SAMPLE | M_REPORT },
	{ "smpl-entries", NULL, ARG_REQUIRED, "N", G_SMPL, CALL(opt_smpl_entries),
	  "ring-buffer size in samples (default 2048, at most 262144)", M_SAMPLE },
	{ "resolve-addresses", NULL, ARG_NONE, NULL, G_SMPL, BOOL(resolve_addresses),
	  "symbols for addresses (pfmon 3.x): every profile has them; --report-sort=address adds symbol+offset",
	  M_PROFILE },
	{ "smpl-data-addr", NULL, ARG_NONE, NULL, G_SMPL, BOOL(smpl_data_addr), "record data addresses", M_SAMPLE },
	{ "smpl-weight", NULL, ARG_NONE, NULL, G_SMPL, BOOL(smpl_weight), "record access latencies", M_SAMPLE },
	{ "smpl-data-src", NULL, ARG_NONE, NULL, G_SMPL, BOOL(smpl_data_src), "record data sources", M_SAMPLE },
	{ "smpl-branch-stack", NULL, ARG_NONE, NULL, G_SMPL, BOOL(smpl_branch_stack),
	  "record branch stacks (LBR): any branch at user level", M_SAMPLE },
	{ "branch-filter", NULL, ARG_REQUIRED, "LIST", G_SMPL, CALL(opt_branch_filter),
	  "perf record -j: branch stacks of the branches perf's filter LIST names (any,u; call,k; ...)", M_SAMPLE },
	{ "branch-any", "b", ARG_NONE, NULL, G_SMPL, CALL(opt_branch_filter),
	  "perf record -b: branch stacks of any taken branch, at the event's levels", M_SAMPLE },
	{ "mmap-pages", "m", ARG_REQUIRED, "PAGES", G_SMPL, CALL(opt_mmap_pages),
	  "perf record -m: each CPU ring's data pages (a power of 2), or a size with B, K, M, G", M_SAMPLE },
	{ "stat", "s", ARG_NONE, NULL, G_SMPL, CALL(opt_record_stat),
	  "perf record -s: not implemented (pfmon --per-thread counts each thread)", M_SAMPLE },
	{ "smpl-per-function", NULL, ARG_NONE, NULL, G_SMPL, BOOL(smpl_per_function),
	  "histograms per function (pfmon 3.x; the default profile, --report-sort=function)", M_PROFILE | M_MERGE },
	{ "smpl-raw", NULL, ARG_NONE, NULL, G_SMPL, BOOL(smpl_raw),
	  "the samples to --smpl-outfile only, no profile printed (pfmon 3.9's binary dump)", M_SAMPLE },
	{ "smpl-save-raw", NULL, ARG_NONE, NULL, G_SMPL, BOOL(smpl_raw),
	  "dear-hist's name of --smpl-raw", M_SAMPLE },
	{ "smpl-eager-save", NULL, ARG_NONE, NULL, G_SMPL, CALL(opt_restates),
	  "pfmon 3.x: save the samples as the session goes (pfmon always writes them as they are read)", M_SAMPLE },
	{ "saturate-smpl-buffer", NULL, ARG_NONE, NULL, G_SMPL, BOOL(saturate_smpl),
	  "keep the first samples only: the rings are read at the end, what did not fit is lost (counted)", M_SAMPLE },
	{ "overflow-block", NULL, ARG_NONE, NULL, G_SMPL, CALL(opt_host_cannot),
	  "refused: the kernel never blocks a task on a full ring", M_SAMPLE },
	{ "extra-smpl-pmds", NULL, ARG_REQUIRED, "N,N1-N2", G_SMPL, CALL(opt_host_cannot),
	  "refused: samples read events, not registers (-e them)", M_SAMPLE },
	{ "reset-non-smpl-periods", NULL, ARG_OPTIONAL, "N,N1-N2", G_SMPL, CALL(opt_host_cannot),
	  "refused: an overflow reloads its own counter only", M_SAMPLE },
	{ "restart-wait", NULL, ARG_NONE, NULL, G_SMPL, CALL(opt_host_cannot),
	  "refused: the kernel restarts sampling itself", M_SAMPLE },
	{ "smpl-ignore-pids", NULL, ARG_NONE, NULL, G_SMPL, BOOL(smpl_ignore_pids),
	  "system-wide profile: all processes together (default: each pid:command apart)", M_SAMPLE },
	{ "smpl-show-top", NULL, ARG_REQUIRED, "N", G_SMPL, CALL(opt_show_top), "report only the top N entries", M_PROFILE | M_MERGE },
	{ "smpl-cum-threshold", NULL, ARG_REQUIRED, "PCT", G_SMPL, CALL(opt_cum_threshold),
	  "report entries until PCT % of the samples (default 100)", M_PROFILE | M_MERGE },
	{ "report", NULL, ARG_REQUIRED, "FILE", G_SMPL, STR(report_file), "report from a sample file and exit", M_REPORT },
	{ "report-sort", NULL, ARG_REQUIRED, "KEYS", G_SMPL, CALL(opt_report_sort),
	  "profile by function (default), line, binary, address or data address, and memory keys "
	  "(mem, snoop, tlb, lock, blocked, weight, type, typeoff, p_stage_cyc): a comma-separated list; or branch stacks alone "
	  "(perf's symbol_from,symbol_to or srcline_from,srcline_to, block, mispredict)", M_PROFILE | M_MERGE },
	{ "report-format", NULL, ARG_REQUIRED, "FMT", G_SMPL, ONE_OF(report_format),
	  "profile as text (default), json, folded stacks, svg, script, pprof or one html page; branch stacks as BOLT's fdata "
	  "or perf script -F brstack too",
	  M_PROFILE | M_MERGE },
	{ "annotate", NULL, ARG_OPTIONAL, "FUNCTION", G_SMPL, CALL(opt_annotate),
	  "annotate the hottest functions (3, or --smpl-show-top's N), or FUNCTION: source lines and instructions "
	  "with their samples, instead of the profile", M_PROFILE | M_REPORT },
	{ "source-root", NULL, ARG_REQUIRED, "DIR", G_SMPL, STR(source_root),
	  "--annotate: look for source files under DIR (a moved source tree) before their recorded paths",
	  M_PROFILE | M_REPORT },
	{ "no-demangle", NULL, ARG_NONE, NULL, G_SMPL, CALL(opt_demangle),
	  "show C++ and Rust names mangled, as in the symbol table", M_PROFILE | M_MERGE },
	{ "demangle-cpp", NULL, ARG_NONE, NULL, G_SMPL, CALL(opt_demangle),
	  "demangle C++ and Rust names (the default; pfmon 3.x name)", M_PROFILE | M_MERGE },
	{ "stitch-lbr", NULL, ARG_NONE, NULL, G_SMPL, BOOL(stitch_lbr),
	  "perf report --stitch-lbr: LBR call stacks deeper than the LBR, each thread's samples stitched to the "
	  "previous one's where their stacks overlap", M_PROFILE },
	{ "demangle-java", NULL, ARG_NONE, NULL, G_SMPL, BOOL(demangle_java),
	  "name a JIT's code from its perf map, /tmp/perf-PID.map, as perf does", M_PROFILE },
	/* pfmon 3.x's sampling modules: a live run's samples, a sample file's,
	 * Itanium 2 PMD dumps (--pmu=itanium2 --report=DUMP) */
	{ "smpl-module", NULL, ARG_REQUIRED, "NAME", G_SMPL, STR(smpl_module),
	  "pfmon 3.x's sampling module, instead of the profile: inst-hist, detailed, compact, dear-hist, btb, c2c",
	  M_PROFILE },
	{ "smpl-module-info", "S", ARG_REQUIRED, "NAME", G_SMPL, STR(smpl_module_info),
	  "describe a sampling module and its options, and exit", M_ANY },
	{ "smpl-compact", NULL, ARG_NONE, NULL, G_SMPL, BOOL(smpl_compact),
	  "inst-hist: one row per sample instead of the histogram", M_PROFILE },
	{ "smpl-print-counts", NULL, ARG_NONE, NULL, G_SMPL, BOOL(smpl_print_counts),
	  "sampling modules: also print the sample and period totals", M_PROFILE },
	{ "smpl-inst-view", NULL, ARG_NONE, NULL, G_SMPL, CALL(opt_smpl_view),
	  "dear-hist: a row per instruction address (default)", M_PROFILE },
	{ "smpl-data-view", NULL, ARG_NONE, NULL, G_SMPL, CALL(opt_smpl_view),
	  "dear-hist: a row per data address", M_PROFILE },
	{ "smpl-level-view", NULL, ARG_NONE, NULL, G_SMPL, CALL(opt_smpl_view),
	  "dear-hist: a row per latency (cycles) or TLB level", M_PROFILE },
	{ "smpl-object-view", NULL, ARG_NONE, NULL, G_SMPL, CALL(opt_smpl_view),
	  "dear-hist of host samples: a row per data object (perf's symbol_daddr)", M_PROFILE },
	{ "smpl-type-view", NULL, ARG_NONE, NULL, G_SMPL, CALL(opt_smpl_view),
	  "dear-hist of host samples: a row per data type (perf's type)", M_PROFILE },
	{ "smpl-line-view", NULL, ARG_NONE, NULL, G_SMPL, CALL(opt_smpl_view),
	  "dear-hist of host samples: a row per source line of the instruction", M_PROFILE },
	{ "smpl-sort-byvalue", NULL, ARG_NONE, NULL, G_SMPL, CALL(opt_smpl_sort),
	  "dear-hist: rows by address or level instead of by count", M_PROFILE },
	{ "smpl-sort-bylevel", NULL, ARG_NONE, NULL, G_SMPL, CALL(opt_smpl_sort),
	  "dear-hist: rows by estimated cycles lost (latency bucket times its cost)", M_PROFILE },
	{ "symbol-file", NULL, ARG_REQUIRED, "FILE", G_SMPL, STR(symbol_file),
	  "Itanium 2 samples and sampling modules: an ELF file naming the addresses no map covers", M_PROFILE },
	{ "sysmap-file", NULL, ARG_REQUIRED, "FILE", G_SMPL, STR(sysmap_file),
	  "Itanium 2 samples and sampling modules: a System.map naming the addresses no map covers", M_PROFILE },
	{ "print-syms", NULL, ARG_NONE, NULL, G_SMPL, BOOL(print_syms),
	  "print the symbols of --symbol-file or --sysmap-file before the samples", M_PROFILE },

	{ "merge", NULL, ARG_NONE, NULL, G_MERGE, BOOL(merge),
	  "merge the results files of a job's ranks (the FILES or directories after the options): "
	  "counts' total, mean, min, max, stddev, imbalance; one profile of sample files", M_MERGE },
	{ "merge-ranks", NULL, ARG_NONE, NULL, G_MERGE, BOOL(merge_ranks),
	  "with --merge: also each rank's counts, or each rank's share of the top functions", M_MERGE },

	{ "dump-event-table", NULL, ARG_NONE, NULL, G_GEN, BOOL(dump_event_table),
	  "print the model's event table as TSV and exit", M_ANY },
	/* the options of the PMU models follow, from their own rows (event/pmu_model.h) */
};

const struct opt_def *options_table(size_t *count)
{
	*count = ARRAY_SIZE(options);
	return options;
}

/*
 * The option rows of the registered PMU models come after the table's own:
 * getopt value 256 + ARRAY_SIZE(options) + k is model row k, in registry
 * order.  A name two models share (--event-thresholds: both Itanium
 * models) is one row, the first model's: the chosen model's own row
 * parses it (options_validate routes it by name).
 */
#define MAX_MODEL_ROWS 256

struct model_row {
	const struct pmu_model *model;
	const struct pmu_option *opt;
	size_t row;
};

/* whether an earlier model has a row named as model i's row r */
static bool model_row_shared(size_t i, const struct pmu_option *o)
{
	const struct pmu_model *m;

	for (size_t k = 0; k < i && (m = pmu_model_at(k)); k++)
		for (size_t r = 0; r < m->n_options; r++)
			if (!strcmp(m->options[r].long_name, o->long_name))
				return true;
	return false;
}

static size_t model_rows(struct model_row *rows)
{
	const struct pmu_model *m;
	size_t n = 0;

	for (size_t i = 0; (m = pmu_model_at(i)); i++)
		for (size_t r = 0; r < m->n_options && n < MAX_MODEL_ROWS; r++)
			if (!model_row_shared(i, &m->options[r]))
				rows[n++] = (struct model_row){ m, &m->options[r], r };
	return n;
}

/* The completion's kind of value, from the argument's name in --help */
static const char *value_kind(const char *long_name, const char *arg_name)
{
	static const struct {
		const char *arg_name;
		const char *kind;
	} kinds[] = {
		{ "FILE", "@file" },
		{ "DIR", "@file" },
		{ "EVENT", "@event" },
		{ "EV1,EV2,...", "@events" },
		{ "PID", "@pid" },
		{ "PID,...", "@pids" },
		{ "TID,...", "@pids" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(option_names); i++)
		if (!strcmp(option_names[i].long_name, long_name))
			return NULL; /* the names follow */
	for (size_t i = 0; arg_name && i < ARRAY_SIZE(kinds); i++)
		if (!strcmp(kinds[i].arg_name, arg_name))
			return kinds[i].kind;
	return "";
}

static void list_opt(FILE *out, const char *short_names, const char *long_name, enum opt_arg arg,
		     const char *arg_name)
{
	static const char *const args[] = { "none", "required", "optional" };
	const char *kind = arg == ARG_NONE ? "" : value_kind(long_name, arg_name);
	struct strbuf values = STRBUF_INIT;

	if (kind)
		strbuf_addstr(&values, kind);
	for (size_t i = 0; !kind && i < ARRAY_SIZE(option_names); i++) {
		const char *name;

		if (strcmp(option_names[i].long_name, long_name))
			continue;
		for (size_t k = 0; (name = option_names[i].name_at(k)); k++)
			strbuf_addf(&values, "%s%s", k ? " " : "", name);
	}
	/* a line per name: the short ones take their values as the long one does */
	for (const char *s = short_names; s && *s; s++)
		fprintf(out, "-%c %s%s%s\n", *s, args[arg], values.len ? " " : "", strbuf_str(&values));
	fprintf(out, "--%s %s%s%s\n", long_name, args[arg], values.len ? " " : "", strbuf_str(&values));
	strbuf_release(&values);
}

void options_list_table(FILE *out)
{
	struct model_row rows[MAX_MODEL_ROWS];
	size_t n = model_rows(rows);

	for (size_t i = 0; i < ARRAY_SIZE(options); i++)
		if (options[i].group != G_HIDDEN)
			list_opt(out, options[i].short_names, options[i].long_name, options[i].arg,
				 options[i].arg_name);
	for (size_t i = 0; i < n; i++)
		list_opt(out, NULL, rows[i].opt->long_name, rows[i].opt->arg_name ? ARG_REQUIRED : ARG_NONE,
			 rows[i].opt->arg_name);
}

bool options_names_known(const char **unknown)
{
	for (size_t i = 0; i < ARRAY_SIZE(option_names); i++) {
		bool found = false;

		for (size_t k = 0; k < ARRAY_SIZE(options) && !found; k++)
			found = !strcmp(options[k].long_name, option_names[i].long_name) &&
				options[k].arg != ARG_NONE;
		if (!found) {
			*unknown = option_names[i].long_name;
			return false;
		}
	}
	return true;
}

/* --help fits 80 columns: the help text goes in a column of its own,
 * wrapped at spaces */
#define USAGE_WIDTH 80
#define USAGE_HELP_COLUMN 31

static void usage_help(FILE *out, const char *help)
{
	const size_t room = USAGE_WIDTH - USAGE_HELP_COLUMN;
	const char *p = help;
	bool first = true;

	while (*p) {
		size_t n = strlen(p);

		if (n > room) {
			n = room;
			while (n > 0 && p[n] != ' ')
				n--;
			if (n == 0) /* one word longer than the column: it overflows */
				n = strcspn(p, " ");
		}
		fprintf(out, "%*s%.*s\n", first ? 0 : USAGE_HELP_COLUMN, "", (int)n, p);
		first = false;
		p += n;
		while (*p == ' ')
			p++;
	}
}

static void usage_line(FILE *out, const char *short_names, const char *long_name, enum opt_arg arg,
		       const char *arg_name, const char *help)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "  ");
	for (const char *s = short_names; s && *s; s++)
		strbuf_addf(&sb, "-%c, ", *s);
	strbuf_addf(&sb, "--%s", long_name);
	if (arg == ARG_REQUIRED)
		strbuf_addf(&sb, "=%s", arg_name);
	else if (arg == ARG_OPTIONAL)
		strbuf_addf(&sb, "[=%s]", arg_name);
	if (sb.len < USAGE_HELP_COLUMN - 1)
		fprintf(out, "%-*s ", USAGE_HELP_COLUMN - 1, strbuf_str(&sb));
	else
		fprintf(out, "%s\n%*s", strbuf_str(&sb), USAGE_HELP_COLUMN, "");
	usage_help(out, help);
	strbuf_release(&sb);
}

static void model_usage(FILE *out)
{
	const struct pmu_model *m;

	for (size_t i = 0; (m = pmu_model_at(i)); i++) {
		if (m->n_options)
			fprintf(out, "\n%s:\n", m->options_group);
		for (size_t r = 0; r < m->n_options; r++) {
			const struct pmu_option *o = &m->options[r];

			if (model_row_shared(i, o)) /* said under the first model */
				continue;
			usage_line(out, NULL, o->long_name, o->arg_name ? ARG_REQUIRED : ARG_NONE, o->arg_name,
				   o->help);
		}
	}
}

void options_usage(FILE *out)
{
	const char *group = NULL;

	fputs("usage: pfmon [OPTIONS]... [--] COMMAND [ARGS]\n"
	      "       pfmon --pmu=MODEL -e EV1,EV2 --check\n"
	      "       pfmon -l[REGEX] | -i EVENT | -I\n"
	      "       pfmon --merge [--merge-ranks] [--csv|--json] FILE|DIR...\n",
	      out);
	for (size_t i = 0; i < ARRAY_SIZE(options); i++) {
		if (options[i].group == G_HIDDEN)
			continue;
		if (options[i].group != group) {
			group = options[i].group;
			fprintf(out, "\n%s:\n", group);
		}
		usage_line(out, options[i].short_names, options[i].long_name, options[i].arg, options[i].arg_name,
			   options[i].help);
	}
	model_usage(out);
}

/* getopt_long tables generated from the option table and the models' rows:
 * val = 256 + row */
static void build_getopt(struct option *longs, char *shorts, const struct model_row *rows, size_t n_rows)
{
	size_t s = 0;

	shorts[s++] = '+'; /* stop at the command */
	shorts[s++] = ':'; /* report a missing argument distinctly */
	for (size_t i = 0; i < ARRAY_SIZE(options); i++) {
		const struct opt_def *o = &options[i];

		longs[i].name = o->long_name;
		longs[i].has_arg = o->arg == ARG_NONE ? no_argument
				   : o->arg == ARG_REQUIRED ? required_argument
							    : optional_argument;
		longs[i].flag = NULL;
		longs[i].val = 256 + (int)i;
		for (const char *c = o->short_names; c && *c; c++) {
			shorts[s++] = *c;
			if (o->arg != ARG_NONE)
				shorts[s++] = ':';
			if (o->arg == ARG_OPTIONAL)
				shorts[s++] = ':';
		}
	}
	for (size_t k = 0; k < n_rows; k++) {
		struct option *l = &longs[ARRAY_SIZE(options) + k];

		l->name = rows[k].opt->long_name;
		l->has_arg = rows[k].opt->arg_name ? required_argument : no_argument;
		l->flag = NULL;
		l->val = 256 + (int)(ARRAY_SIZE(options) + k);
	}
	memset(&longs[ARRAY_SIZE(options) + n_rows], 0, sizeof(*longs));
	shorts[s] = '\0';
}

static const struct opt_def *find_short(int c)
{
	for (size_t i = 0; i < ARRAY_SIZE(options); i++)
		if (options[i].short_names && strchr(options[i].short_names, c))
			return &options[i];
	return NULL;
}

static int apply_option(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err)
{
	char *base = (char *)st->cfg;

	switch (o->store) {
	case STORE_BOOL:
		*(bool *)(base + o->offset) = true;
		return 0;
	case STORE_STR:
		if (o->arg == ARG_REQUIRED && !*arg)
			return bad_value(o, arg, "the value cannot be empty", err);
		*(const char **)(base + o->offset) = arg;
		return 0;
	case STORE_CALL:
	default:
		return o->apply(st, o, arg, err);
	}
}

static int getopt_error(int c, char **argv, struct pf_error *err)
{
	const char *opt = argv[optind - 1];
	char short_opt[3] = { '-', (char)optopt, '\0' };

	if (c == ':')
		return pf_error_set(err, PF_E_OPTION_NEEDS, opt, "a value", " (see 'pfmon --help')");
	if (optopt && optopt < 256)
		return pf_error_set(err, PF_E_UNKNOWN_OPTION, short_opt);
	return pf_error_set(err, PF_E_AMBIGUOUS_OPTION, opt);
}

/* A model's option is recorded as given; the chosen model parses it
 * (options_apply_model).  A per-set row is given once per event set. */
static int record_model_option(struct cli_state *st, const struct model_row *r, const char *arg,
			       struct pf_error *err)
{
	struct pf_config *cfg = st->cfg;
	size_t set = cfg->n_sets ? cfg->n_sets - 1 : 0;

	for (size_t i = 0; r->opt->per_set && !r->opt->may_repeat && i < cfg->n_model_options; i++) {
		const struct pf_model_option *o = &cfg->model_options[i];

		if (!strcmp(o->model, r->model->name) && o->row == r->row && o->set == set)
			return pf_error_set(err, PF_E_OPTION_TWICE, r->opt->long_name, (int)set);
	}
	cfg->model_options = xrealloc(cfg->model_options, (cfg->n_model_options + 1) * sizeof(*cfg->model_options));
	cfg->model_options[cfg->n_model_options++] =
		(struct pf_model_option){ .model = r->model->name, .row = r->row, .set = set, .arg = arg };
	return 0;
}

/*
 * getopt_long takes any unique prefix of a long option, as pfmon 3.x and
 * perf do: "--smpl-period" is --smpl-periods-random.  The prefix is kept,
 * so that an error about the option says what it was taken as
 * (options_explain_abbreviation).
 */
static void note_abbreviation(struct pf_config *cfg, const char *arg, const char *name)
{
	size_t len;

	if (strncmp(arg, "--", 2))
		return;
	arg += 2;
	len = strcspn(arg, "=");
	if (len >= strlen(name) || strncmp(arg, name, len))
		return; /* the whole name, or not this element (defensive) */
	cfg->abbreviations = xrealloc(cfg->abbreviations, (cfg->n_abbreviations + 1) * sizeof(*cfg->abbreviations));
	cfg->abbreviations[cfg->n_abbreviations++] = (struct pf_abbreviation){ xstrndup(arg, len), name };
}

/* does msg speak of option --name (and not of a longer one)? */
static bool mentions_option(const char *msg, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = strstr(msg, "--"); p; p = strstr(p + 2, "--")) {
		char next = p[2 + len];

		if (!strncmp(p + 2, name, len) && !(next == '-' || isalnum((unsigned char)next)))
			return true;
	}
	return false;
}

void options_explain_abbreviation(const struct pf_config *cfg, struct pf_error *err)
{
	for (size_t i = 0; i < cfg->n_abbreviations; i++) {
		const struct pf_abbreviation *a = &cfg->abbreviations[i];
		struct strbuf sb = STRBUF_INIT;

		if (!mentions_option(err->msg, a->taken))
			continue;
		strbuf_addstr(&sb, "'--");
		strbuf_add_escaped(&sb, a->typed);
		strbuf_addf(&sb, "' was taken as --%s: %s", a->taken, err->msg);
		snprintf(err->msg, sizeof(err->msg), "%s", strbuf_str(&sb));
		strbuf_release(&sb);
		return;
	}
}

/*
 * perf's short options that mean something else in pfmon (3.x had them
 * first).  A value only perf's meaning can take -- all digits, after the
 * option or attached to it -- is refused with pfmon's spelling: "-I 500"
 * would otherwise print --info and run a command named 500.
 */
static bool all_digits(const char *s)
{
	return s && *s && strspn(s, "0123456789") == strlen(s);
}

/* perf report -i FILE: a file there, or a name of perf's (perf.data, x.data) */
static bool is_input_file(const char *s)
{
	struct stat st;
	size_t n = s ? strlen(s) : 0;

	return n && ((!stat(s, &st) && S_ISREG(st.st_mode)) || (n >= 5 && !strcmp(s + n - 5, ".data")));
}

static bool is_branch_filter(const char *s)
{
	uint64_t mask;

	return s && *s && !branch_filter_parse(s, &mask);
}

static const struct {
	char short_name;
	const char *pfmon_meaning;
	const char *perf_meaning;
	const char *pfmon_option;            /* pfmon's spelling, the value appended */
	bool (*perf_value)(const char *arg); /* a value only perf's meaning takes */
} perf_spellings[] = {
	{ 'I', "--info, which takes no value", "print interval", "--print-interval=", all_digits },
	{ 'j', "--json (perf stat -j), which takes no value", "perf record's branch filter", "--branch-filter=",
	  is_branch_filter },
	{ 'i', "--event-info, which takes an event", "perf report's input file", "--report=", is_input_file },
};

/* short option c was just read from argv[at]: refuse a perf spelling of it */
static int check_perf_spelling(int c, int argc, char **argv, int at, struct pf_error *err)
{
	for (size_t i = 0; i < ARRAY_SIZE(perf_spellings); i++) {
		const char *value;
		char opt[3] = { '-', (char)c, '\0' }, digits[161];

		if (perf_spellings[i].short_name != c)
			continue;
		/* an option's own value (-i FILE); else what follows the option:
		 * getopt stays on an element until its cluster of options is read */
		if (optarg)
			value = optarg;
		else if (optind == at)
			value = strchr(argv[at] + 1, c) + 1;
		else
			value = optind < argc ? argv[optind] : NULL;
		if (!perf_spellings[i].perf_value(value))
			return 0;
		snprintf(digits, sizeof(digits), "%s", value);
		return pf_error_set(err, PF_E_PERF_SPELLING, opt, digits, opt, perf_spellings[i].pfmon_meaning, opt,
				    digits, perf_spellings[i].perf_meaning, perf_spellings[i].pfmon_option, digits);
	}
	return 0;
}

static int parse_loop(int argc, char **argv, struct cli_state *st, struct pf_error *err)
{
	struct model_row rows[MAX_MODEL_ROWS];
	size_t n_rows = model_rows(rows);
	struct option longs[ARRAY_SIZE(options) + MAX_MODEL_ROWS + 1];
	char shorts[3 * ARRAY_SIZE(options) + 4];
	int c;

	build_getopt(longs, shorts, rows, n_rows);
	optind = 0; /* full re-initialisation (GNU): parse may run more than once */
	opterr = 0;
	for (;;) {
		int at = optind ? optind : 1; /* a long option is this element whole */
		const struct opt_def *o;

		c = getopt_long(argc, argv, shorts, longs, NULL);
		if (c == -1)
			break;
		if (c == '?' || c == ':')
			return getopt_error(c, argv, err);
		if (c >= 256)
			note_abbreviation(st->cfg, argv[at], longs[c - 256].name);
		if (c >= 256 + (int)ARRAY_SIZE(options)) {
			if (record_model_option(st, &rows[c - 256 - ARRAY_SIZE(options)], optarg, err))
				return -1;
			continue;
		}
		o = c >= 256 ? &options[c - 256] : find_short(c);
		if (!o)
			return getopt_error('?', argv, err);
		if (c < 256 && check_perf_spelling(c, argc, argv, at, err))
			return -1;
		st->cfg->options_given[o - options] = true;
		if (apply_option(st, o, optarg, err))
			return -1;
	}
	return 0;
}

/*
 * perf's -o and -c once every option is read: -o is --outfile when
 * counting and, as perf record's, a perf.data when sampling (unless
 * --smpl-format says otherwise); -c is the default period of every event
 * of every set.
 */
static int resolve_perf_spellings(struct pf_config *cfg, struct pf_error *err)
{
	for (size_t i = 0; i < cfg->n_sets; i++)
		cfg->sets[i].default_period = cfg->perf_count;
	if (!cfg->perf_output)
		return 0;
	if (pf_config_is_sampling(cfg)) {
		if (cfg->smpl_outfile)
			return pf_error_set(err, PF_E_OPTIONS_EXCLUDE, "-o", "--smpl-outfile", " (both name the sample file)");
		cfg->smpl_outfile = cfg->perf_output;
		if (!cfg->smpl_format)
			cfg->smpl_format = "perf";
		return 0;
	}
	if (cfg->outfile)
		return pf_error_set(err, PF_E_OPTIONS_EXCLUDE, "-o", "--outfile", " (both name the results file)");
	cfg->outfile = cfg->perf_output;
	return 0;
}

/*
 * --cpu-set-relative (pfmon 3.x): --cpu-list's numbers are positions in
 * pfmon's CPU affinity set (taskset -c 4-7 pfmon --cpu-list=0 is CPU 4);
 * without --cpu-list the session takes the whole set.
 */
static int resolve_cpu_set_relative(struct pf_config *cfg, struct pf_error *err)
{
	cpu_set_t set;
	int *cpus, n = 0;
	char why[96], pos[16];

	if (!cfg->cpu_set_relative)
		return 0;
	if (sched_getaffinity(0, sizeof(set), &set))
		return pf_error_set(err, PF_E_SYSTEM, "sched_getaffinity", strerror(errno));
	cpus = xcalloc(CPU_SETSIZE, sizeof(*cpus));
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	for (size_t i = 0; cfg->cpu_list && i < cfg->n_cpu_list; i++) {
		if (cfg->cpu_list[i] >= n) {
			snprintf(pos, sizeof(pos), "%d", cfg->cpu_list[i]);
			snprintf(why, sizeof(why), "with --cpu-set-relative, positions go from 0 to %d (pfmon's affinity set)",
				 n - 1);
			free(cpus);
			return pf_error_set(err, PF_E_BAD_OPTION_VALUE, pos, "cpu-list", why);
		}
		cfg->cpu_list[i] = cpus[cfg->cpu_list[i]]; /* ascending positions stay ascending */
	}
	if (!cfg->cpu_list) {
		cfg->cpu_list = cpus;
		cfg->n_cpu_list = (size_t)n;
		return 0;
	}
	free(cpus);
	return 0;
}

int options_parse(int argc, char **argv, struct pf_config *cfg, struct pf_error *err)
{
	struct cli_state st = { .cfg = cfg };
	int rc;

	free(cfg->options_given);
	cfg->options_given = xcalloc(ARRAY_SIZE(options), sizeof(*cfg->options_given));
	for (size_t i = 0; i < cfg->n_abbreviations; i++)
		free(cfg->abbreviations[i].typed);
	cfg->n_abbreviations = 0;
	rc = parse_loop(argc, argv, &st, err);

	if (rc == 0 && cfg->n_sets == 0) {
		/* no -e: one set of default events, chosen by the command */
		cfg->sets = xcalloc(1, sizeof(*cfg->sets));
		cfg->sets[0] = st.pending;
		cfg->n_sets = 1;
		memset(&st.pending, 0, sizeof(st.pending));
	}
	if (rc == 0)
		rc = resolve_perf_spellings(cfg, err);
	if (rc == 0)
		rc = resolve_cpu_set_relative(cfg, err);
	if (rc == 0 && optind < argc)
		cfg->command = &argv[optind];
	cfg->own_argv = argv;
	cfg->own_argc = argc;
	pf_set_config_release(&st.pending); /* non-empty only on error */
	return rc;
}
