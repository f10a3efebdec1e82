/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Alpha 21264/EV67 ProfileMe counting (seed 003: Hardware Reference Manual
 * §6.10.3.3; ../shared/spec/other-pmus.md §2).  In ProfileMe mode the two
 * counters PCTR0 and PCTR1 count an input inside the ProfileMe window of
 * the profiled instruction.  The seed documents five inputs, which counter
 * takes each, and their inaccuracies; it gives no register layout and no
 * selector encodings, so a dry run assigns counters and states the window
 * semantics, and prints no register value.  Decisions: src/pmu/EV67-NOTES.md.
 */
#include <config.h>

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/util.h"
#include "ev67.h"

#define PCTR0 1u
#define PCTR1 2u
#define PCTR_ANY (PCTR0 | PCTR1)

struct ev67_input {
	const char *name;
	const char *alias; /* the manual's heading, as one word; NULL if the name is it */
	unsigned counters; /* PCTR0 and/or PCTR1 the manual names; 0: the manual does not say */
	const char *section;
	const char *desc;
	const char *window; /* what is counted, relative to the ProfileMe window */
	const char *caveat; /* the manual's inaccuracy, or NULL */
};

static const struct ev67_input inputs[] = {
	{ .name = "CYCLES", .alias = "CYCLE_COUNTING", .counters = PCTR_ANY, .section = "6.10.3.3.1",
	  .desc = "cycles during the ProfileMe window of the profiled instruction",
	  .window = "every cycle of the profiled instruction's window", .caveat = NULL },
	{ .name = "INUM_RETIRE_DELAY", .alias = "INUM_RETIRE_DELAY_CYCLES", .counters = PCTR1,
	  .section = "6.10.3.3.2",
	  .desc = "cycles the profiled instruction delayed the advance of the retire pointer: a lower bound on its "
		  "inum retire delay",
	  .window = "cycles of the window in which the profiled instruction held back the retire pointer",
	  .caveat = "a lower bound on the inum retire delay; the largest final PCTR1 value is the window length minus "
		    "2; inums are allocated four at a time, so aborted and padding inums retire too" },
	{ .name = "RETIRED_INSTRUCTIONS", .alias = "RETIRED_INSTRUCTIONS_CYCLES", .counters = PCTR0,
	  .section = "6.10.3.3.3", .desc = "instructions retired during the ProfileMe window",
	  .window = "retirements during the window, as PCTR0 sees them after a variable delay",
	  .caveat = "plus or minus 4 instructions: the count may include instructions retired before the window and "
		    "miss some retired near its end (a variable delay between retirement and the PCTR0 increment)" },
	{ .name = "BCACHE_MISS", .alias = "LONG_LATENCY_PROBES", .counters = 0, .section = "6.10.3.3.4",
	  .desc = "Bcache misses, including those long-latency probes (data requests of other agents) cause",
	  .window = "the window phase-shifted three cycles early: events from the three cycles before its start are "
		    "counted and those of its last three cycles are not",
	  .caveat = "phase-shifted three cycles early; the manual does not say which counter takes this input: name "
		    "it with pctr=0 or pctr=1" },
	{ .name = "MBOX_REPLAY_TRAPS", .alias = "MBOX_REPLAY_TRAPS_CYCLES", .counters = PCTR1,
	  .section = "6.10.3.3.5", .desc = "Mbox replay traps during the ProfileMe window shifted one cycle later",
	  .window = "the window phase-shifted one cycle later",
	  .caveat = "the first replay trap that can be counted is in the 7th cycle after the instruction is fetched" },
};

#define N_INPUTS ARRAY_SIZE(inputs)

static int find_input(const char *name)
{
	for (size_t i = 0; i < N_INPUTS; i++)
		if (!strcasecmp(inputs[i].name, name) || (inputs[i].alias && !strcasecmp(inputs[i].alias, name)))
			return (int)i;
	return -1;
}

static void counters_text(unsigned mask, char *buf, size_t len)
{
	snprintf(buf, len, "%s", mask == PCTR_ANY ? "PCTR0 or PCTR1" : mask == PCTR0 ? "PCTR0" : mask == PCTR1 ? "PCTR1"
											    : "not stated in the manual");
}

/* ---- one set: parse, assign, explain ------------------------------------ */

struct ev67_event {
	int idx;
	unsigned allowed; /* counters this event may use */
	bool forced; /* pctr= given */
};

static int parse_event(const struct event_spec *spec, struct ev67_event *e, struct pf_error *err)
{
	uint64_t v;

	e->idx = spec->breakpoint || spec->dot_umask || (spec->pmu && strcasecmp(spec->pmu, "ev67"))
			 ? -1
			 : find_input(spec->name);
	if (e->idx < 0)
		return pf_error_set(err, PF_E_UNKNOWN_EVENT, spec->text,
				    " (the ev67 model has the five ProfileMe counting inputs: see pfmon --pmu=ev67 -l)");
	e->allowed = inputs[e->idx].counters;
	e->forced = false;
	for (size_t q = 0; q < spec->n_quals; q++) {
		const struct event_qual *qual = &spec->quals[q];

		if (strcmp(qual->key, "pctr") || !qual->value || !parse_u64(qual->value, &v) || v > 1)
			return pf_error_set(err, PF_E_BAD_MODIFIER, spec->text,
					    "the ProfileMe inputs take one modifier, pctr=0 or pctr=1 (the counter); "
					    "privilege levels are not documented for ProfileMe counting");
		if (e->allowed && !(e->allowed & (1u << v)))
			return -2 - (int)v; /* the manual's counter is another: a rule, said by the caller */
		e->allowed = 1u << v;
		e->forced = true;
	}
	return 0;
}

static int rule(struct pf_error *err, const char *id, unsigned events, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int rule(struct pf_error *err, const char *id, unsigned events, const char *fmt, ...)
{
	char what[PF_ERROR_MSG_MAX / 2];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return pf_error_constraint(err, id, events, what);
}

static int parse_all(const struct pmu_set_request *r, struct ev67_event *ev, struct pf_error *err)
{
	char which[32];

	if (r->n_events > 2)
		return rule(err, "EV67-TWO", (1u << r->n_events) - 1, "%zu inputs given: ProfileMe counting has two "
			    "counters, PCTR0 and PCTR1", r->n_events);
	for (size_t i = 0; i < r->n_events; i++) {
		int rc = parse_event(&r->events[i], &ev[i], err);

		if (rc == -1)
			return -1;
		if (rc < -1) {
			counters_text(inputs[ev[i].idx].counters, which, sizeof(which));
			return rule(err, "EV67-PCTR", 1u << i, "%s counts on %s only (§%s), not on PCTR%d",
				    inputs[ev[i].idx].name, which, inputs[ev[i].idx].section, -2 - rc);
		}
		if (!ev[i].allowed)
			return rule(err, "EV67-UNSTATED", 1u << i, "the manual does not say which counter takes %s (§%s): "
				    "name it, %s:pctr=0 or %s:pctr=1", inputs[ev[i].idx].name, inputs[ev[i].idx].section,
				    inputs[ev[i].idx].name, inputs[ev[i].idx].name);
	}
	return 0;
}

/* the first assignment in counter order; -1 when none */
static int assign(const struct ev67_event *ev, size_t n, unsigned *ctr)
{
	for (unsigned first = 0; first < 2; first++) {
		if (!n || !(ev[0].allowed & (1u << first)))
			continue;
		ctr[0] = first;
		if (n == 1 || ev[1].allowed & (1u << (1 - first))) {
			if (n == 2)
				ctr[1] = 1 - first;
			return 0;
		}
	}
	return n ? -1 : 0;
}

static void explain(const struct pmu_set_request *r, const struct ev67_event *ev, const unsigned *ctr,
		    struct set_prog *out)
{
	for (size_t i = 0; i < r->n_events; i++) {
		const struct ev67_input *in = &inputs[ev[i].idx];

		set_prog_note(out, "%s: PCTR%u counts %s (§%s)%s", in->name, ctr[i], in->window, in->section,
			      ev[i].forced && !in->counters ? "; PCTR as named: the manual does not say which counter takes it"
							    : "");
		if (in->caveat)
			set_prog_note(out, "%s: %s", in->name, in->caveat);
	}
	set_prog_note(out, "the seed gives no counter-control layout and no input selector encodings: the dry run assigns "
		      "the counters and prints no register value");
}

static int ev67_encode_set(const struct pmu_model *m, const struct pmu_set_request *r, struct set_prog *out,
			   struct pf_error *err)
{
	struct ev67_event ev[2];
	unsigned ctr[2] = { 0, 0 };

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < r->n_events; i++)
		if (r->default_plm || (r->plm && r->plm[i]))
			return pf_error_set(err, PF_E_OPTION_NOT_USED, "-u, -k, --priv-levels", "with the ev67 model",
					    " (privilege levels are not documented for ProfileMe counting, seed 003)");
	if (parse_all(r, ev, err))
		return -1;
	if (assign(ev, r->n_events, ctr))
		return rule(err, "EV67-COUNTER", 3u, "%s and %s both need %s", inputs[ev[0].idx].name,
			    inputs[ev[1].idx].name, ev[0].allowed == ev[1].allowed && ev[0].allowed != PCTR_ANY
							    ? (ev[0].allowed == PCTR0 ? "PCTR0" : "PCTR1")
							    : "the same counter");
	explain(r, ev, ctr, out);
	return 0;
}

/* ---- the table: -l, -i, --dump-event-table ---------------------------------- */

static int ev67_list_events(const struct pmu_model *m, bool long_names, event_name_cb cb, void *arg,
			    struct pf_error *err)
{
	for (size_t i = 0; i < N_INPUTS; i++)
		if (cb(inputs[i].name, inputs[i].desc, arg))
			break;
	return 0;
}

static int ev67_event_info(const struct pmu_model *m, const char *name, struct event_info *out, struct pf_error *err)
{
	int i = find_input(name);
	char which[32];

	if (i < 0)
		return pf_error_set(err, PF_E_UNKNOWN_EVENT, name, " (the ev67 model has the five ProfileMe counting "
							    "inputs: see -l)");
	counters_text(inputs[i].counters, which, sizeof(which));
	event_info_add(out, "Name", "%s", inputs[i].name);
	event_info_add(out, "Alias", "%s (the manual's heading)", inputs[i].alias);
	event_info_add(out, "Counters", "%s", which);
	event_info_add(out, "Manual", "Alpha 21264/EV67 Hardware Reference Manual §%s", inputs[i].section);
	event_info_add(out, "Desc", "%s", inputs[i].desc);
	event_info_add(out, "Window", "%s", inputs[i].window);
	event_info_add(out, "Caveat", "%s", inputs[i].caveat ? inputs[i].caveat : "none stated");
	event_info_add(out, "Modifiers", "pctr=0|1 (the counter)");
	event_info_add(out, "Encoding", "not in the seed (no counter-control layout, no selector values)");
	return 0;
}

static int ev67_table_row(const struct pmu_model *m, size_t i, table_row *out)
{
	char which[32];

	if (i >= N_INPUTS)
		return 1;
	counters_text(inputs[i].counters, which, sizeof(which));
	event_info_add(out, "name", "%s", inputs[i].name);
	event_info_add(out, "counters", "%s", which);
	event_info_add(out, "section", "%s", inputs[i].section);
	event_info_add(out, "caveat", "%s", inputs[i].caveat ? inputs[i].caveat : "-");
	return 0;
}

static int ev67_validate_table(const struct pmu_model *m, char *msg, size_t len)
{
	for (size_t i = 0; i < N_INPUTS; i++) {
		if (!inputs[i].name || !inputs[i].desc || !inputs[i].window || !inputs[i].section) {
			snprintf(msg, len, "row %zu is incomplete", i);
			return -1;
		}
		if (!inputs[i].counters && !inputs[i].caveat) {
			snprintf(msg, len, "%s: no counter and no caveat saying so", inputs[i].name);
			return -1;
		}
		/* the first row of a name is found: a later one with the same name or alias is not */
		if (find_input(inputs[i].name) != (int)i || (inputs[i].alias && find_input(inputs[i].alias) != (int)i)) {
			snprintf(msg, len, "%s: a name or alias twice", inputs[i].name);
			return -1;
		}
	}
	return 0;
}

static int ev67_describe(const struct pmu_model *m, const void *opts, struct event_info *out, struct pf_error *err)
{
	event_info_add(out, "PMU", "Alpha 21264/EV67 in ProfileMe mode (Hardware Reference Manual §6.10.3.3, seed 003)");
	event_info_add(out, "counters", "PCTR0 and PCTR1, counting inside the ProfileMe window of the profiled "
					"instruction");
	event_info_add(out, "inputs", "CYCLES (either counter), INUM_RETIRE_DELAY (PCTR1), RETIRED_INSTRUCTIONS "
				      "(PCTR0), BCACHE_MISS (counter not stated), MBOX_REPLAY_TRAPS (PCTR1)");
	event_info_add(out, "not in the seed", "the counter-control layout, the selector encodings, the window's "
					       "start and end, the other counting modes");
	return 0;
}

static bool ev67_detect(const struct pmu_model *m)
{
	return false; /* not an Alpha build */
}

const struct pmu_model pmu_ev67 = {
	.name = "ev67",
	.title = "Alpha 21264/EV67 ProfileMe",
	.desc = "Alpha 21264/EV67 ProfileMe counting: the inputs of PCTR0 and PCTR1 and their caveats (modelled)",
	.max_counters = 2,
	.can_run = false,
	.plm_levels = 0, /* ProfileMe counting documents no privilege levels */
	.default_events = "CYCLES,RETIRED_INSTRUCTIONS",
	.detect = ev67_detect,
	.validate_table = ev67_validate_table,
	.list_events = ev67_list_events,
	.event_info = ev67_event_info,
	.table_row = ev67_table_row,
	.encode_set = ev67_encode_set,
	.describe = ev67_describe,
};
