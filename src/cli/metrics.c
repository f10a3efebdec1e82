/* SPDX-License-Identifier: GPL-2.0-or-later */
/* -M, --metrics-file, --show-metrics: metrics on the command line (see metrics.h). */
#include <config.h>

#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "layer_opts.h"
#include "metrics.h"
#include "pmu/host.h"
#include "pmu/metrics.h"

/*
 * The family metrics need libpfm4 to say which family this machine is: a
 * run loads them when metrics are asked for or listed, or when one of its
 * events is libpfm4's anyway (a family metric is shown on such an event's
 * line).  A count of perf's generic events never loads the library.
 */
static bool wants_family_metrics(const struct pf_config *cfg, const struct pmu_model *m)
{
	if (!m->family_metrics)
		return false;
	if (cfg->n_metric_args || cfg->show_metrics || cfg->metrics_from)
		return true;
	for (size_t s = 0; s < cfg->n_sets; s++)
		for (size_t e = 0; e < cfg->sets[s].n_events; e++)
			if (host_event_is_libpfm(cfg->sets[s].events[e]))
				return true;
	return false;
}

static int load_definitions(const struct pf_config *cfg, const struct pmu_model *m, struct metric_list *l,
			    struct pf_error *err)
{
	const char *builtin = pmu_metric_definitions(m->name);
	char origin[64];

	snprintf(origin, sizeof(origin), "built-in %s metrics", m->name);
	if (builtin && metric_list_add_text(l, builtin, origin, err))
		return -1;
	if (wants_family_metrics(cfg, m)) { /* and those of the PMU family libpfm4 detects */
		char pmu[64], family_origin[128];
		char *family = pmu_host_family_metrics(pmu, sizeof(pmu));
		int rc = 0;

		snprintf(family_origin, sizeof(family_origin), "built-in %s family metrics", pmu);
		if (family)
			rc = metric_list_add_text(l, family, family_origin, err);
		free(family);
		if (rc)
			return -1;
	}
	if (cfg->metrics_file && metric_list_add_file(l, cfg->metrics_file, err))
		return -1;
	return metric_list_resolve(l, err);
}

/* wanted: per metric, already requested (-M all of many metrics stays linear) */
static void want_add(struct metric_run *run, bool *wanted, size_t i)
{
	if (wanted[i])
		return;
	wanted[i] = true;
	if ((run->n_want & (run->n_want - 1)) == 0) /* room for a power of two */
		run->want = xrealloc(run->want, (run->n_want ? 2 * run->n_want : 1) * sizeof(*run->want));
	run->want[run->n_want++] = i;
}

/* one -M entry: a metric's name, else a group's */
static int want_name(struct metric_run *run, bool *wanted, const char *name, struct pf_error *err)
{
	long i = metric_list_find(&run->list, name);
	bool any = false;

	if (i >= 0) {
		want_add(run, wanted, (size_t)i);
		return 0;
	}
	for (size_t k = 0; k < run->list.n; k++) {
		if (strcmp(name, "all") == 0 || metric_in_group(&run->list.defs[k], name)) {
			want_add(run, wanted, k);
			any = true;
		}
	}
	return any ? 0 : pf_error_set(err, PF_E_UNKNOWN_METRIC, name);
}

static int parse_requests(const struct pf_config *cfg, struct metric_run *run, struct pf_error *err)
{
	bool *wanted = xcalloc(run->list.n + 1, sizeof(*wanted));
	int rc = 0;

	for (size_t a = 0; a < cfg->n_metric_args && !rc; a++) {
		size_t n;
		char **v = str_split(cfg->metric_args[a], ',', &n);

		for (size_t k = 0; k < n && !rc; k++)
			rc = *v[k] ? want_name(run, wanted, v[k], err)
				   : pf_error_set(err, PF_E_UNKNOWN_METRIC, "(an empty name)");
		str_vec_free(v);
	}
	free(wanted);
	return rc ? -1 : 0;
}

static bool is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
	       c == '.' || c == ':' || c == '-';
}

/* 1-based position of name as a whole token of formula, 0 if not found */
static size_t name_pos(const char *formula, const char *name)
{
	size_t len = strlen(name);

	for (const char *s = strstr(formula, name); s; s = strstr(s + 1, name))
		if ((s == formula || !is_name_char(s[-1])) && !is_name_char(s[len]))
			return (size_t)(s - formula) + 1;
	return 0;
}

struct event_check {
	const struct encode_opts *o;
	const struct pmu_model *m;
	struct pf_error *err;
};

/* event k of d encodes alone, else the model's error naming it and where it is */
static int check_event(const struct metric_def *d, size_t k, void *arg)
{
	struct event_check *c = arg;
	char *name = d->expr.names[k];
	struct set_prog prog;
	struct pf_error e;
	char why[PF_ERROR_MSG_MAX / 2];

	if (strcmp(name, METRIC_DURATION) == 0 || plan_set_fits(c->m, c->o, &name, 1))
		return 0;
	pmu_encode_events(c->m, c->o, &name, 1, &prog, &e);
	snprintf(why, sizeof(why), "event '%.64s' at position %zu of its formula (%.64s): %.200s", name,
		 name_pos(d->formula, name), d->origin, e.msg);
	return pf_error_set(c->err, PF_E_METRIC, d->name, why);
}

/* every event of metric i, through the metrics it refers to (each once) */
static int check_events(const struct encode_opts *o, const struct pmu_model *m, const struct metric_list *l,
			size_t i, struct pf_error *err)
{
	struct event_check c = { o, m, err };

	return metric_walk(l, i, &(struct metric_walk){ .leaf = check_event, .arg = &c }) ? -1 : 0;
}

/* the plan's sets after the user's own (an empty default set is replaced) */
static void append_sets(struct pf_config *cfg, struct metric_run *run)
{
	const struct plan *p = &run->plan;
	bool reuse = cfg->n_sets == 1 && cfg->sets[0].n_events == 0;

	run->first_set = reuse ? 0 : cfg->n_sets;
	cfg->sets = xrealloc(cfg->sets, (run->first_set + p->n_sets + 1) * sizeof(*cfg->sets));
	for (size_t s = 0; s < p->n_sets; s++) {
		struct pf_set_config *c = &cfg->sets[run->first_set + s];

		if (!(reuse && s == 0))
			memset(c, 0, sizeof(*c));
		c->events = xcalloc(p->sets[s].n + 1, sizeof(char *));
		for (size_t i = 0; i < p->sets[s].n; i++)
			c->events[i] = xstrdup(p->sets[s].events[i]);
		c->n_events = p->sets[s].n;
	}
	if (p->n_sets)
		cfg->n_sets = run->first_set + p->n_sets;
}

int metrics_load(const struct pf_config *cfg, const struct pmu_model *m, struct metric_run *run,
		 struct pf_error *err)
{
	memset(run, 0, sizeof(*run));
	if (load_definitions(cfg, m, &run->list, err) || parse_requests(cfg, run, err))
		return -1;
	return 0;
}

/*
 * A run that asks for no metric (no -M, no --metrics-file) and counts no
 * libpfm4 event can show only the model's shadow metrics of its own
 * events: their definitions wait for the encoded events' names.
 */
static bool shadows_only(const struct pf_config *cfg, const struct pmu_model *m)
{
	return !cfg->n_metric_args && !cfg->metrics_file && !cfg->show_metrics && !cfg->metrics_from &&
	       !wants_family_metrics(cfg, m);
}

int metrics_prepare_deferred(struct pf_config *cfg, const struct pmu_model *m, struct metric_run *run,
			     struct pf_error *err)
{
	if (!shadows_only(cfg, m))
		return metrics_prepare(cfg, m, run, err);
	memset(run, 0, sizeof(*run));
	run->deferred = pmu_metric_definitions(m->name);
	run->deferred_model = m->name;
	return 0;
}

int metrics_add_shadows(struct metric_run *run, const struct set_prog *sets, size_t n_sets, struct pf_error *err)
{
	const char *text = run->deferred;
	char **names = NULL, origin[64];
	size_t n = 0;
	int rc;

	if (!text)
		return 0;
	run->deferred = NULL;
	for (size_t s = 0; s < n_sets; s++) {
		names = xrealloc(names, (n + sets[s].n_counters + 1) * sizeof(*names));
		for (size_t k = 0; k < sets[s].n_counters; k++)
			names[n++] = sets[s].counters[k].name;
	}
	snprintf(origin, sizeof(origin), "built-in %s metrics", run->deferred_model);
	rc = metric_list_add_text_shown(&run->list, text, origin, names, n, err);
	free(names);
	return rc ? -1 : metric_list_resolve(&run->list, err);
}

int metrics_prepare(struct pf_config *cfg, const struct pmu_model *m, struct metric_run *run,
		    struct pf_error *err)
{
	struct plan_group *groups;
	struct encode_opts o;
	int rc = 0;

	if (metrics_load(cfg, m, run, err))
		return -1;
	if (!run->n_want)
		return 0;
	config_encode_opts(cfg, m, &o);
	for (size_t w = 0; !rc && w < run->n_want; w++)
		rc = check_events(&o, m, &run->list, run->want[w], err);
	if (rc) {
		config_encode_opts_release(&o);
		return -1;
	}
	groups = xcalloc(run->n_want + 1, sizeof(*groups));
	for (size_t w = 0; w < run->n_want; w++)
		metric_events(&run->list, run->want[w], &groups[w].events, &groups[w].n);
	rc = plan_sets(m, &o, groups, run->n_want, &run->plan, err);
	if (!rc && cfg->metric_no_group)
		plan_ungroup(&run->plan, run->n_want);
	plan_groups_free(groups, run->n_want);
	config_encode_opts_release(&o);
	if (!rc)
		append_sets(cfg, run);
	return rc;
}

void metrics_release(struct metric_run *run)
{
	metric_list_release(&run->list);
	plan_release(&run->plan);
	free(run->want);
	memset(run, 0, sizeof(*run));
}

/* the sets of the plan holding events of metric w, as "set2,set3" */
static void sets_of(const struct metric_run *run, size_t w, char *buf, size_t size)
{
	char **names = NULL;
	size_t n = 0, len = 0;

	buf[0] = '\0';
	metric_events(&run->list, run->want[w], &names, &n);
	for (size_t s = 0; s < run->plan.n_sets; s++) {
		bool here = false;

		for (size_t k = 0; k < n && !here; k++)
			for (size_t i = 0; i < run->plan.sets[s].n && !here; i++)
				here = strcmp(run->plan.sets[s].events[i], names[k]) == 0;
		if (here && len < size)
			len += (size_t)snprintf(buf + len, size - len, "%sset%zu", len ? "," : "", run->first_set + s);
	}
	for (size_t k = 0; k < n; k++)
		free(names[k]);
	free(names);
}

void metrics_print_plan(FILE *out, const struct metric_run *run)
{
	const struct plan *p = &run->plan;
	char buf[256];

	fprintf(out, "# metric plan: %zu metric%s in %zu event set%s\n", run->n_want, run->n_want == 1 ? "" : "s",
		p->n_sets, p->n_sets == 1 ? "" : "s");
	for (size_t s = 0; s < p->n_sets; s++) {
		fprintf(out, "#   set%zu:", run->first_set + s);
		for (size_t i = 0; i < p->sets[s].n; i++)
			fprintf(out, " %s", p->sets[s].events[i]);
		fputc('\n', out);
	}
	for (size_t w = 0; w < run->n_want; w++) {
		const struct metric_def *d = &run->list.defs[run->want[w]];

		sets_of(run, w, buf, sizeof(buf));
		fprintf(out, "#   %s = %s: %s%s\n", d->name, d->formula, *buf ? buf : "no event",
			p->ungrouped && *buf	   ? " (ungrouped: --metric-no-group)"
			: p->group_set[w] < 0 && *buf ? " (across sets: its events never fit in one)"
						     : "");
	}
}

static void show_one(FILE *out, const struct metric_def *d)
{
	fprintf(out, "%s\n\tformula: %s\n", d->name, d->formula);
	if (d->unit)
		fprintf(out, "\tunit:    %s%s\n", d->unit, d->rate ? " (K, M, G prefixes)" : "");
	if (d->scale != 1.0)
		fprintf(out, "\tscale:   %g\n", d->scale);
	if (d->group)
		fprintf(out, "\tgroup:   %s\n", d->group);
	if (d->shown_on)
		fprintf(out, "\tshown on: %s\n", d->shown_on);
	if (d->identity)
		fprintf(out, "\tidentity: the value is a residual, 0 when the identity holds\n");
	if (d->desc)
		fprintf(out, "\tdesc:    %s\n", d->desc);
	if (d->note)
		fprintf(out, "\tnote:    %s\n", d->note);
}

int cmd_show_metrics(const struct pf_config *cfg, const struct pmu_model *m, struct pf_error *err)
{
	struct metric_list l = { 0 };
	regex_t re;
	size_t shown = 0;
	int rc = load_definitions(cfg, m, &l, err);

	if (!rc && cfg->show_metrics_regex &&
	    regcomp(&re, cfg->show_metrics_regex, REG_EXTENDED | REG_NOSUB | REG_ICASE))
		rc = pf_error_set(err, PF_E_BAD_REGEX, cfg->show_metrics_regex, "cannot compile");
	for (size_t i = 0; !rc && i < l.n; i++) {
		const struct metric_def *d = &l.defs[i];

		if (cfg->show_metrics_regex && regexec(&re, d->name, 0, NULL, 0) &&
		    (!d->group || regexec(&re, d->group, 0, NULL, 0)))
			continue;
		show_one(stdout, d);
		shown++;
	}
	if (cfg->show_metrics_regex && !rc)
		regfree(&re);
	if (!rc && !shown)
		rc = pf_error_set(err, PF_E_NO_MATCH, cfg->show_metrics_regex ? cfg->show_metrics_regex : "");
	metric_list_release(&l);
	return rc;
}
