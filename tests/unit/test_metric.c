/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Derived metrics: the formula grammar on known values and hostile input,
 * the definition syntax and its errors, the built-in lists of every model,
 * evaluation on count rows (not counted, division by zero, multiplexed,
 * across sets), and the planner against a brute-force minimum.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/util.h"
#include "pmu/itanium.h"
#include "pmu/itanium2.h"
#include "pmu/metrics.h"
#include "pmu/planner.h"
#include "results/metric.h"
#include "results/metric_expr.h"
#include "tap.h"

/* ----- formulas ----- */

struct vars {
	const char *names[8];
	double values[8];
	bool counted[8];
};

static bool var_lookup(size_t k, double *v, void *arg)
{
	const struct metric_expr *x = ((void **)arg)[0];
	const struct vars *vs = ((void **)arg)[1];

	for (int i = 0; i < 8 && vs->names[i]; i++) {
		if (strcmp(vs->names[i], x->names[k]) == 0) {
			*v = vs->values[i];
			return vs->counted[i];
		}
	}
	return false;
}

/* the value of text with the variables; NAN when not available or not parsed */
static double eval(const char *text, const struct vars *vs)
{
	struct metric_expr x;
	struct mx_error e;
	void *arg[2] = { &x, (void *)vs };
	double v;
	bool good;

	if (metric_expr_parse(text, &x, &e))
		return NAN;
	good = metric_expr_eval(&x, var_lookup, arg, &v);
	metric_expr_release(&x);
	return good ? v : NAN;
}

static void test_values(void)
{
	struct vars vs = { { "task-clock", "duration_time", "L3_READS.DATA_READ.HIT", "zero", "gone" },
			   { 500, 1000, 8, 0, 5 },
			   { true, true, true, true, false } };

	ok(eval("1 + 2 * 3", &vs) == 7, "precedence: * before +");
	ok(eval("(1 + 2) * 3", &vs) == 9, "parentheses");
	ok(eval("10 - 4 - 3", &vs) == 3, "- is left-associative");
	ok(eval("8 / 4 / 2", &vs) == 1, "/ is left-associative");
	ok(eval("-3 + 5", &vs) == 2, "unary minus");
	ok(eval("- -3", &vs) == 3, "double unary minus");
	ok(eval("1.5e3 / 1e3", &vs) == 1.5, "decimal and exponent numbers");
	ok(eval("task-clock / duration_time", &vs) == 0.5, "hyphenated event names");
	ok(eval("task-clock - duration_time", &vs) == -500, "a '-' between spaces subtracts");
	ok(eval("L3_READS.DATA_READ.HIT * 2", &vs) == 16, "dotted unit-mask names");
	ok(eval("min(task-clock, duration_time)", &vs) == 500, "min");
	ok(eval("max(task-clock, duration_time)", &vs) == 1000, "max");
	ok(eval("if(zero, task-clock / zero, 42)", &vs) == 42, "if guards a division by zero");
	ok(eval("if(task-clock, 1, 2)", &vs) == 1, "if takes the first branch when not 0");
	ok(isnan(eval("task-clock / zero", &vs)), "division by zero: not available, not infinity");
	ok(isnan(eval("gone + 1", &vs)), "an input not counted: not available, not 0");
	ok(isnan(eval("0 * gone", &vs)), "not available even when multiplied by 0");
	ok(isnan(eval("if(gone, 1, 2)", &vs)), "a condition not counted: not available");
	ok(isnan(eval("1e308 * 1e308", &vs)), "overflow to infinity: not available");
}

/* the error of a formula: "POS why" */
static const char *parse_error(const char *text, char *buf, size_t size)
{
	struct metric_expr x;
	struct mx_error e;

	if (metric_expr_parse(text, &x, &e) == 0) {
		metric_expr_release(&x);
		return "parsed";
	}
	snprintf(buf, size, "%zu %s", e.pos, e.why);
	return buf;
}

static void test_syntax_errors(void)
{
	char b[160], *deep, *lng;

	is_str(parse_error("a + * b", b, sizeof(b)), "4 unexpected '*'", "operator without operand");
	is_str(parse_error("a +", b, sizeof(b)), "3 expected a number, a name or '(' before the end", "ends early");
	is_str(parse_error("", b, sizeof(b)), "0 expected a number, a name or '(' before the end", "empty");
	is_str(parse_error("(a + b", b, sizeof(b)), "6 expected ')' before the end", "unclosed parenthesis");
	is_str(parse_error("a + b)", b, sizeof(b)), "5 unbalanced ')'", "extra ')'");
	is_str(parse_error("a b", b, sizeof(b)), "2 unexpected 'b' after the formula", "two names");
	is_str(parse_error("1e + 2", b, sizeof(b)), "2 expected the exponent's digits", "bad exponent");
	is_str(parse_error("1.x", b, sizeof(b)), "2 expected a digit after the decimal point", "bad decimal");
	is_str(parse_error("0x10", b, sizeof(b)), "1 unexpected 'x' after a number", "no hex");
	is_str(parse_error("sqrt(a)", b, sizeof(b)), "0 unknown function 'sqrt' (there are min, max and if)",
	       "unknown function");
	is_str(parse_error("min(a)", b, sizeof(b)), "5 expected ',', found ')'", "min needs two arguments");
	is_str(parse_error("if(a, b)", b, sizeof(b)), "7 expected ',', found ')'", "if needs three");
	is_str(parse_error("a $ b", b, sizeof(b)), "2 unexpected '$' after the formula", "stray character");
	is_str(parse_error("a + \x01", b, sizeof(b)), "4 unexpected byte 0x01", "control byte");
	deep = xcalloc(4000, 1);
	memset(deep, '(', 3000);
	is_str(parse_error(deep, b, sizeof(b)), "64 nested more than 64 deep", "deep nesting refused, no crash");
	memset(deep, '-', 3000);
	is_str(parse_error(deep, b, sizeof(b)), "64 nested more than 64 deep", "a chain of minus signs refused");
	free(deep);
	lng = xcalloc(MX_MAX_TEXT + 10, 1);
	memset(lng, 'a', MX_MAX_TEXT + 5);
	is_str(parse_error(lng, b, sizeof(b)), "4096 longer than 4096 bytes", "overlong formula refused");
	free(lng);
	is_str(mx_mark("a + * b", 4, b, sizeof(b)), "a + ^* b", "the caret marks the position");
}

/* ----- definitions ----- */

static const char *def_error(const char *text, char *buf, size_t size)
{
	struct metric_list l = { 0 };
	struct pf_error err;
	int rc = metric_list_add_text(&l, text, "t.def", &err);

	if (!rc)
		rc = metric_list_resolve(&l, &err);
	metric_list_release(&l);
	if (!rc)
		return "ok";
	snprintf(buf, size, "%d %s", pf_error_exit_status(err.code), err.msg);
	return buf;
}

static void test_definitions(void)
{
	char b[PF_ERROR_MSG_MAX + 16];

	is_str(def_error("# c\nmetric A\n\tformula x / y\n\tunit u\n\tgroup g1,g2\n", b, sizeof(b)), "ok",
	       "a well-formed block");
	is_str(def_error("metric A\n\tformula x +* y\n", b, sizeof(b)),
	       "1 t.def line 2: metric 'A': formula position 4: unexpected '*': x +^* y",
	       "formula error: line, metric, position and caret");
	is_str(def_error("metric A\n\tunit u\n", b, sizeof(b)), "1 t.def line 2: metric 'A' has no formula",
	       "no formula");
	is_str(def_error("metric A\n\tformula x\n\tcolour red\n", b, sizeof(b)),
	       "1 t.def line 3: unknown key 'colour' (formula, unit, scale, rate, desc, group, note, shown-on, identity)",
	       "unknown key");
	is_str(def_error("\tformula x\n", b, sizeof(b)),
	       "1 t.def line 1: 'formula' before the first 'metric NAME' line", "key before a block");
	is_str(def_error("metric A\n\tformula x\nmetric A\n\tformula y\n", b, sizeof(b)),
	       "1 t.def line 3: metric 'A' is defined twice (first at t.def line 1)", "duplicate name");
	is_str(def_error("metric 9a\n", b, sizeof(b)),
	       "1 t.def line 1: invalid metric name '9a' (letters, digits, '_' and '.', not first a digit)",
	       "bad name");
	is_str(def_error("metric A\n\tformula B + 1\nmetric B\n\tformula A * 2\n", b, sizeof(b)),
	       "1 metric 'A': its formula refers back to itself through other metrics (a cycle)", "a cycle");
	is_str(def_error("metric A\n\tformula A + 1\n", b, sizeof(b)), "1 metric 'A': its formula refers to itself",
	       "self reference");
	is_str(def_error("metric A\n\tformula x\n\tscale 0x10\n", b, sizeof(b)),
	       "1 t.def line 3: invalid scale '0x10' (a decimal number without a sign, not 0)", "bad scale");
	is_str(def_error("metric A\n\tformula x\n\tscale -2\n", b, sizeof(b)),
	       "1 t.def line 3: invalid scale '-2' (a decimal number without a sign, not 0)",
	       "a signed scale: refused, as every number pfmon reads (negate in the formula)");
	is_str(def_error("metric A\n\tformula x\n\tformula y\n", b, sizeof(b)),
	       "1 t.def line 3: key 'formula' given twice for metric 'A'", "key twice");
	is_str(def_error("metric A\n\tformula x\x7f\x01\n", b, sizeof(b)), "1 t.def line 2: control character 0x01",
	       "control characters refused");
	is_str(def_error("metric duration_time\n\tformula 1\n", b, sizeof(b)),
	       "1 t.def line 1: 'duration_time' is a reserved name", "reserved name");
	is_str(def_error("metric A\n\tformula x\n\trate 2\n", b, sizeof(b)), "1 t.def line 3: key 'rate' takes no value",
	       "flag with a value");
}

static void load_text(struct metric_list *l, const char *text, const char *origin)
{
	struct pf_error err;

	if (metric_list_add_text(l, text, origin, &err) || metric_list_resolve(l, &err))
		ok(0, "%s definitions: %s", origin, err.msg);
}

static void test_builtin_lists(void)
{
	static const char *const models[] = { "host", "itanium2" };

	for (size_t i = 0; i < ARRAY_SIZE(models); i++) {
		struct metric_list l = { 0 };
		struct pf_error err = { 0 };
		int rc = metric_list_add_text(&l, pmu_metric_definitions(models[i]), models[i], &err);

		if (!rc)
			rc = metric_list_resolve(&l, &err);
		ok(rc == 0 && l.n > 10, "the built-in %s list parses and resolves (%zu metrics) %s", models[i], l.n,
		   rc ? err.msg : "");
		for (size_t k = 0; k < l.n; k++)
			if (!l.defs[k].desc || !l.defs[k].unit || (!l.defs[k].group && strcmp(models[i], "host")))
				ok(0, "%s: metric %s has a description, a unit and a group", models[i], l.defs[k].name);
		metric_list_release(&l);
	}
}

/* d and e: the same definition, read from the same line */
static bool same_def(const struct metric_def *d, const struct metric_def *e)
{
	return strcmp(d->name, e->name) == 0 && strcmp(d->formula, e->formula) == 0 &&
	       strcmp(d->origin, e->origin) == 0 && !d->unit == !e->unit && (!d->unit || !strcmp(d->unit, e->unit)) &&
	       d->scale == e->scale && d->rate == e->rate && d->expr.n_names == e->expr.n_names;
}

/* the shadows of one event: each model's list, per shown-on event, against the whole list */
static void test_shown_subset(void)
{
	static const char *const models[] = { "host", "itanium2" };

	for (size_t i = 0; i < ARRAY_SIZE(models); i++) {
		const char *text = pmu_metric_definitions(models[i]);
		struct metric_list all = { 0 };
		struct pf_error err = { 0 };
		size_t checked = 0, wrong = 0;

		load_text(&all, text, models[i]);
		for (size_t k = 0; k < all.n; k++) {
			char *ev = all.defs[k].shown_on;
			struct metric_list some = { 0 };
			size_t shown = 0;

			if (!ev)
				continue;
			checked++;
			if (metric_list_add_text_shown(&some, text, models[i], &ev, 1, &err) ||
			    metric_list_resolve(&some, &err)) {
				ok(0, "%s: the definitions shown on %s: %s", models[i], ev, err.msg);
				continue;
			}
			for (size_t j = 0; j < all.n; j++)
				shown += all.defs[j].shown_on && strcasecmp(all.defs[j].shown_on, ev) == 0;
			for (size_t j = 0; j < some.n; j++) {
				long a = metric_list_find(&all, some.defs[j].name);

				wrong += a < 0 || !same_def(&all.defs[a], &some.defs[j]);
			}
			/* every metric shown on ev, each as the whole list has it, and
			 * nothing else but the metrics they refer to */
			for (size_t j = 0; j < all.n; j++)
				if (all.defs[j].shown_on && strcasecmp(all.defs[j].shown_on, ev) == 0)
					wrong += metric_list_find(&some, all.defs[j].name) < 0;
			wrong += some.n < shown;
			metric_list_release(&some);
		}
		if (checked == 0 && all.n) { /* a list without shown-on keys: none is a shadow */
			struct metric_list some = { 0 };

			ok(metric_list_add_text_shown(&some, text, models[i], all.defs[0].expr.names, 1, &err) == 0 &&
				   some.n == 0,
			   "%s: no metric shown on a count line, none parsed for its events", models[i]);
			metric_list_release(&some);
		} else {
			ok(wrong == 0, "%s: each shown-on event's definitions, as the whole list reads them (%zu events)",
			   models[i], checked);
		}
		metric_list_release(&all);
	}
}

static void test_shown_references(void)
{
	static const char text[] = "# refers back and forth\n"
				   "metric BASE\n\tformula a / b\n"
				   "metric SHOWN\n\tformula BASE * LATER\n\tshown-on Task-Clock\n"
				   "metric OTHER\n\tformula c\n\tshown-on cycles\n"
				   "metric LATER\n\tformula 2 * DEEP\n"
				   "metric DEEP\n\tformula d\n";
	char *ev[] = { "task-clock", "page-faults" }, *none[] = { "page-faults" };
	struct metric_list l = { 0 };
	struct pf_error err = { 0 };
	int rc = metric_list_add_text_shown(&l, text, "t.def", ev, 2, &err);

	if (!rc)
		rc = metric_list_resolve(&l, &err);
	ok(rc == 0 && l.n == 4 && metric_list_find(&l, "OTHER") < 0 && metric_list_find(&l, "BASE") >= 0 &&
		   metric_list_find(&l, "LATER") >= 0 && metric_list_find(&l, "DEEP") >= 0,
	   "shown on task-clock (any case): the metric and those it refers to, earlier, later and through another (%zu) %s",
	   l.n, rc ? err.msg : "");
	ok(l.n && strcmp(l.defs[0].name, "SHOWN") == 0 && strcmp(l.defs[0].origin, "t.def line 4") == 0,
	   "its origin names its line in the whole text");
	metric_list_release(&l);
	memset(&l, 0, sizeof(l));
	ok(metric_list_add_text_shown(&l, text, "t.def", none, 1, &err) == 0 && l.n == 0,
	   "no metric shown on the events: none parsed");
	metric_list_release(&l);
}

/* ----- evaluation on rows ----- */

static void load(struct metric_list *l, const char *text)
{
	struct pf_error err;

	if (metric_list_add_text(l, text, "test", &err) || metric_list_resolve(l, &err))
		ok(0, "test definitions: %s", err.msg);
}

static void test_evaluate(void)
{
	struct metric_list l = { 0 };
	struct count_row rows[] = {
		{ .name = "task-clock", .set = 0, .state = COUNT_OK, .raw = 500000000, .enabled = 10, .running = 10 },
		{ .name = "page-faults", .set = 0, .state = COUNT_OK, .raw = 2500, .enabled = 10, .running = 10 },
		{ .name = "cycles", .set = 1, .state = COUNT_NOT_SUPPORTED },
		{ .name = "A", .set = 2, .state = COUNT_OK, .raw = 100, .enabled = 10, .running = 5 },
		{ .name = "B", .set = 2, .state = COUNT_OK, .raw = 50, .enabled = 10, .running = 5 },
		{ .name = "A", .set = 3, .state = COUNT_OK, .raw = 30, .enabled = 10, .running = 10 },
		{ .name = "C", .set = 4, .state = COUNT_OK, .raw = 0, .enabled = 10, .running = 10 },
	};
	struct metric_value v[64];
	size_t want[4], n;

	load(&l, pmu_host_metrics);
	load(&l, "metric AB\n\tformula A / B\n"
		 "metric AC\n\tformula A / C\n"
		 "metric DOUBLE_AB\n\tformula 2 * AB\n"
		 "metric CROSS\n\tformula A + page-faults\n");
	n = metric_evaluate(&l, NULL, 0, true, rows, 2, 2000000000, v);
	ok(n == 2, "shadow metrics of the two software events");
	ok(n == 2 && v[0].row == 0 && fabs(v[0].value - 0.25) < 1e-12 && strcmp(v[0].unit, "CPUs utilized") == 0,
	   "CPUs utilized = task-clock / duration_time");
	ok(n == 2 && v[1].row == 1 && fabs(v[1].value - 5.0) < 1e-12 && strcmp(v[1].unit, "K/sec") == 0,
	   "page faults per second of task-clock, in K/sec");

	want[0] = (size_t)metric_list_find(&l, "insn_per_cycle");
	n = metric_evaluate(&l, want, 1, false, rows, ARRAY_SIZE(rows), 1, v);
	ok(n == 1 && !v[0].ok && strcmp(v[0].missing, "instructions") == 0,
	   "a hardware metric on a machine without: not available, naming the input");
	want[0] = (size_t)metric_list_find(&l, "AB");
	want[1] = (size_t)metric_list_find(&l, "AC");
	want[2] = (size_t)metric_list_find(&l, "DOUBLE_AB");
	want[3] = (size_t)metric_list_find(&l, "CROSS");
	n = metric_evaluate(&l, want, 4, false, rows, ARRAY_SIZE(rows), 1, v);
	ok(n == 4 && v[0].ok && v[0].value == 2.0 && !v[0].cross_set && v[0].multiplexed,
	   "A / B from the one set holding both, scaled, marked multiplexed");
	ok(n == 4 && !v[1].ok && !*v[1].missing, "A / C with C = 0: not available (division by zero)");
	ok(n == 4 && v[2].ok && v[2].value == 4.0, "a metric of a metric");
	ok(n == 4 && v[3].ok && v[3].cross_set && v[3].value == 200 + 2500,
	   "inputs in no common set: computed across sets and marked");
	metric_list_release(&l);
}

/* ----- planning ----- */

/* a run's defaults: live, no levels given, the model's default options */
static struct encode_opts config(void)
{
	return (struct encode_opts){ .live = true };
}

/* the fewest sets for events, by trying every partition (small n only) */
static size_t brute_min(const struct encode_opts *cfg, char **ev, size_t n)
{
	size_t best = n, assign[8] = { 0 };

	for (;;) {
		size_t sets = 0;
		bool good = true;

		for (size_t i = 0; i < n; i++)
			sets = assign[i] + 1 > sets ? assign[i] + 1 : sets;
		for (size_t s = 0; s < sets && good && sets < best; s++) {
			char *part[8];
			size_t k = 0;

			for (size_t i = 0; i < n; i++)
				if (assign[i] == s)
					part[k++] = ev[i];
			good = k && plan_set_fits(&pmu_itanium2, cfg, part, k);
		}
		if (good && sets < best)
			best = sets;
		/* next assignment in restricted-growth order */
		size_t i = n;
		while (i-- > 1) {
			size_t top = 0;

			for (size_t j = 0; j < i; j++)
				top = assign[j] > top ? assign[j] : top;
			if (assign[i] <= top) {
				assign[i]++;
				for (size_t j = i + 1; j < n; j++)
					assign[j] = 0;
				break;
			}
		}
		if (i == 0 || i == (size_t)-1)
			return best;
	}
}

static size_t plan_count(const struct encode_opts *cfg, char **ev, size_t n, struct plan *p)
{
	struct plan_group g[8];
	struct pf_error err;

	for (size_t i = 0; i < n; i++)
		g[i] = (struct plan_group){ &ev[i], 1 };
	if (plan_sets(&pmu_itanium2, cfg, g, n, p, &err)) {
		ok(0, "planning failed: %s", err.msg);
		return 0;
	}
	return p->n_sets;
}

static void test_plan_minimum(void)
{
	static const char *pool[] = {
		"CPU_CYCLES", "IA64_INST_RETIRED", "L2_REFERENCES", "L2_MISSES", "L3_MISSES", "L1D_READS_SET0",
		"L1D_READS_SET1", "LOADS_RETIRED", "L2_OZQ_CANCELS0.ANY", "L2_FORCE_RECIRC.ANY", "DATA_EAR_EVENTS",
		"BUS_MEMORY.ALL.SELF", "L2_BYPASS.L2_DATA1", "STORES_RETIRED",
	};
	struct encode_opts cfg = config();
	unsigned seed = 12345;
	int mismatches = 0, order = 0;

	for (int trial = 0; trial < 60; trial++) {
		char *ev[8], *rev[8];
		size_t n = 3 + (size_t)(trial % 5), pick[8];
		struct plan p1, p2;

		for (size_t i = 0; i < n; i++) {
			bool again;

			do {
				seed = seed * 1103515245u + 12345u;
				pick[i] = (seed >> 16) % ARRAY_SIZE(pool);
				again = false;
				for (size_t j = 0; j < i; j++)
					again |= pick[j] == pick[i];
			} while (again);
			ev[i] = (char *)pool[pick[i]];
			rev[n - 1 - i] = ev[i];
		}
		if (plan_count(&cfg, ev, n, &p1) != brute_min(&cfg, ev, n))
			mismatches++;
		if (plan_count(&cfg, rev, n, &p2) != p1.n_sets)
			order++;
		for (size_t s = 0; s < p1.n_sets && s < p2.n_sets; s++)
			for (size_t i = 0; i < p1.sets[s].n && i < p2.sets[s].n; i++)
				order += strcmp(p1.sets[s].events[i], p2.sets[s].events[i]) != 0;
		plan_release(&p1);
		plan_release(&p2);
	}
	ok(mismatches == 0, "60 random requests: the plan has the brute-force minimum of sets (%d differ)", mismatches);
	ok(order == 0, "planning is order-independent (%d differences when reversed)", order);
}

/* every Itanium 2 metric: its events exist, the plan encodes, a metric that fits is in one set */
static void test_plan_itanium2_metrics(void)
{
	struct metric_list l = { 0 };
	struct encode_opts cfg = config();
	struct plan_group *g;
	struct plan p;
	struct pf_error err;
	int bad = 0, split = 0, lone_fits = 0;

	load(&l, pmu_itanium2_metrics);
	g = xcalloc(l.n, sizeof(*g));
	for (size_t i = 0; i < l.n; i++) {
		metric_events(&l, i, &g[i].events, &g[i].n);
		for (size_t k = 0; k < g[i].n; k++)
			if (!plan_set_fits(&pmu_itanium2, &cfg, &g[i].events[k], 1))
				ok(0, "metric %s: event %s is in the model", l.defs[i].name, g[i].events[k]);
	}
	ok(plan_sets(&pmu_itanium2, &cfg, g, l.n, &p, &err) == 0, "every Itanium 2 metric at once is planned");
	for (size_t s = 0; s < p.n_sets; s++)
		bad += !plan_set_fits(&pmu_itanium2, &cfg, p.sets[s].events, p.sets[s].n);
	for (size_t i = 0; i < l.n; i++) {
		split += p.group_set[i] < 0;
		if (p.group_set[i] < 0 && plan_set_fits(&pmu_itanium2, &cfg, g[i].events, g[i].n))
			lone_fits++;
	}
	ok(bad == 0, "every planned set encodes (%zu sets)", p.n_sets);
	ok(lone_fits == 0, "no metric whose events fit one set is split");
	ok(split == 6, "the metrics planned across sets are the six the manual's rules force (%d)", split);
	plan_release(&p);
	plan_groups_free(g, l.n);
	metric_list_release(&l);
}

/* the first-generation Itanium: the planner keeps PMC4-5-only events at two a set */
static void test_plan_itanium(void)
{
	char *three[] = { "IA64_INST_RETIRED", "NOPS_RETIRED", "INST_DISPERSED" };
	char *fits[] = { "IA64_INST_RETIRED", "CPU_CYCLES", "NOPS_RETIRED", "L2_MISSES" };
	char *all[] = { "IA64_INST_RETIRED", "NOPS_RETIRED", "INST_DISPERSED", "CPU_CYCLES" };
	struct encode_opts cfg = config();
	struct plan_group g[4];
	struct plan p;
	struct pf_error err;
	bool split = true;

	ok(!plan_set_fits(&pmu_itanium, &cfg, three, 3), "itanium: three PMC4-5 events do not fit one set");
	ok(plan_set_fits(&pmu_itanium, &cfg, fits, 4), "itanium: two PMC4-5 events and two others fit");
	for (size_t i = 0; i < 4; i++)
		g[i] = (struct plan_group){ &all[i], 1 };
	if (plan_sets(&pmu_itanium, &cfg, g, 4, &p, &err)) {
		ok(0, "itanium planning failed: %s", err.msg);
		return;
	}
	for (size_t s = 0; s < p.n_sets; s++) {
		size_t restricted = 0;

		for (size_t k = 0; k < p.sets[s].n; k++)
			restricted += ita_event_at((size_t)ita_find_event(p.sets[s].events[k]))->counters == ITA_PMC4_5;
		split &= restricted <= 2;
	}
	ok(p.n_sets == 2 && split, "itanium: 2 sets, at most two PMC4-5 events in each (%zu sets)", p.n_sets);
	plan_release(&p);
}

int main(void)
{
	test_values();
	test_syntax_errors();
	test_definitions();
	test_builtin_lists();
	test_shown_subset();
	test_shown_references();
	test_evaluate();
	test_plan_minimum();
	test_plan_itanium2_metrics();
	test_plan_itanium();
	return tap_done();
}
