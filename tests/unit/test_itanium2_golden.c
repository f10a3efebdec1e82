/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Golden table for the Itanium 2 model: tests/golden/itanium2.tsv, one row
 * per event list with its options and the expected outcome.
 *
 *   events <TAB> options <TAB> expect
 *
 * events:  comma-separated, as after -e
 * options: '-' or ';'-separated key=value: thres, opc8, opc9, btb (+-joined
 *          option names without --btb-), irange, drange, checkpoint,
 *          inverse, noqual, ia32, ia64, insn, plm (per event, ','), k, sw
 * expect:  'ok' then space-separated checks: 'at=5,4' (PMD per event),
 *          'PMCn=0x..' (counter value as listed, or any other register),
 *          'IBRn=..' / 'DBRn=..', 'note~text'; or a rule id (C-L1D-1), or
 *          'error:CODE' for a non-rule error (UNKNOWN_EVENT ...)
 *
 * Every row is one TAP test; a failure prints what differed.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event/pmu_model.h"
#include "pmu/itanium2.h"
#include "tap.h"

extern const struct pmu_model pmu_itanium2;

/* the model's option row 'name' applied to set 0, as the CLI does */
static int model_option(void *opts, const char *name, const char *arg, struct pf_error *err)
{
	for (size_t r = 0; r < pmu_itanium2.n_options; r++)
		if (!strcmp(pmu_itanium2.options[r].long_name, name))
			return pmu_itanium2.options[r].apply(opts, 0, arg, err);
	printf("# unknown model option '%s'\n", name);
	return -1;
}

/* one row's encoding options and what they point to */
struct row {
	char *events[8];
	unsigned plm[4];
	struct encode_set_opts set;
	struct encode_opts o;
	void *opts;
};

static int set_option(struct row *r, char *kv, struct pf_error *err)
{
	static const struct {
		const char *key, *option;
	} rows[] = {
		{ "thres", "event-thresholds" }, { "opc8", "opc-match8" }, { "opc9", "opc-match9" },
		{ "insn", "insn-sets" }, { "irange", "irange" }, { "drange", "drange" },
		{ "checkpoint", "checkpoint-func" },
	}, flags[] = {
		{ "ia32", "ia32" }, { "ia64", "ia64" }, { "inverse", "inverse-irange" }, { "noqual", "no-qual-check" },
	};
	char *v = strchr(kv, '=');
	char name[64];

	if (v)
		*v++ = 0;
	else
		v = "1";
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (!strcmp(kv, rows[i].key))
			return model_option(r->opts, rows[i].option, v, err);
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (!strcmp(kv, flags[i].key))
			return model_option(r->opts, flags[i].option, NULL, err);
	if (!strcmp(kv, "btb")) {
		for (char *t = strtok(v, "+"); t; t = strtok(NULL, "+")) {
			snprintf(name, sizeof(name), "btb-%s", t);
			if (model_option(r->opts, name, NULL, err))
				return -1;
		}
	} else if (!strcmp(kv, "sw")) {
		r->o.system_wide = true;
	} else if (!strcmp(kv, "k")) {
		r->o.plm = PF_PLM_KERNEL;
	} else if (!strcmp(kv, "plm")) {
		r->set.event_plm = r->plm;
		r->set.n_event_plm = 0;
		for (char *t = strtok(v, ","); t && r->set.n_event_plm < 4; t = strtok(NULL, ","))
			r->plm[r->set.n_event_plm++] = (unsigned)strtoul(t, NULL, 0);
	} else {
		printf("# unknown golden option '%s'\n", kv);
		return -1;
	}
	return 0;
}

/* the configuration of one row; -1 with err if an option value is refused */
static int build(struct row *r, char *events, char *opts, struct pf_error *err)
{
	memset(r, 0, sizeof(*r));
	for (char *t = strtok(events, ","); t && r->set.n_events < 8; t = strtok(NULL, ","))
		r->events[r->set.n_events++] = strdup(t);
	r->set.events = r->events;
	r->opts = pmu_itanium2.options_new(1);
	r->o = (struct encode_opts){ .sets = &r->set, .n_sets = 1, .live = true, .model_opts = r->opts };
	if (strcmp(opts, "-")) {
		char *save, *t;

		for (t = strtok_r(opts, ";", &save); t; t = strtok_r(NULL, ";", &save))
			if (set_option(r, t, err))
				return -1;
	}
	return 0;
}

static void row_release(struct row *r)
{
	for (size_t i = 0; i < r->set.n_events; i++)
		free(r->events[i]);
	pmu_itanium2.options_free(r->opts);
}

/* a register the set writes, by its printed name (the counters' PMCs too) */
static bool reg_value(const struct set_prog *p, const char *name, uint64_t *v)
{
	char got[32];

	for (size_t i = 0; i < p->n_counters; i++) {
		pmu_reg_name(&pmu_itanium2, &p->counters[i].ctl, got, sizeof(got));
		if (!strcmp(got, name))
			return *v = p->counters[i].ctl.value, true;
	}
	for (size_t i = 0; i < p->n_regs; i++) {
		pmu_reg_name(&pmu_itanium2, &p->regs[i], got, sizeof(got));
		if (!strcmp(got, name))
			return *v = p->regs[i].value, true;
	}
	return false;
}

static bool has_note(const struct set_prog *p, const char *text)
{
	for (size_t i = 0; p->notes && p->notes[i]; i++)
		if (strstr(p->notes[i], text))
			return true;
	return false;
}

/* one 'ok ...' check word; returns a complaint or NULL */
static const char *check_word(const struct set_prog *p, char *w, char *why, size_t len)
{
	char *eq = strchr(w, '=');
	uint64_t got;

	if (!strncmp(w, "note~", 5)) {
		if (!has_note(p, w + 5))
			return snprintf(why, len, "no note containing '%s'", w + 5), why;
		return NULL;
	}
	if (!strncmp(w, "at=", 3)) {
		char got_at[64] = "";

		for (size_t i = 0; i < p->n_counters; i++)
			snprintf(got_at + strlen(got_at), sizeof(got_at) - strlen(got_at), "%s%u", i ? "," : "",
				 p->counters[i].ctr.num);
		if (strcmp(got_at, w + 3))
			return snprintf(why, len, "assignment %s, want %s", got_at, w + 3), why;
		return NULL;
	}
	if (!eq)
		return snprintf(why, len, "bad check '%s'", w), why;
	*eq = 0;
	if (!reg_value(p, w, &got))
		return snprintf(why, len, "%s not written", w), why;
	if (got != strtoull(eq + 1, NULL, 0))
		return snprintf(why, len, "%s = 0x%llx, want %s", w, (unsigned long long)got, eq + 1), why;
	return NULL;
}

static void run_row(int line, char *events, char *opts, char *expect)
{
	struct row r;
	struct set_prog p;
	struct pf_error err = { 0 };
	char label[256], why[256];
	const char *bad = NULL;
	int rc;

	snprintf(label, sizeof(label), "line %d: %s [%s] -> %s", line, events, opts, expect);
	rc = build(&r, events, opts, &err);
	if (!rc)
		rc = pmu_encode_set(&pmu_itanium2, &r.o, 0, &p, &err);
	if (!strncmp(expect, "ok", 2)) {
		if (rc)
			bad = err.msg;
		for (char *w = strtok(expect + 2, " "); !rc && !bad && w; w = strtok(NULL, " "))
			bad = check_word(&p, w, why, sizeof(why));
		if (!rc)
			set_prog_release(&p);
	} else if (!strncmp(expect, "error:", 6)) {
		if (!rc || strcmp(pf_error_name(err.code), expect + 6))
			bad = rc ? err.msg : "accepted";
	} else if (!rc || err.code != PF_E_CONSTRAINT || strcmp(err.rule, expect)) {
		bad = rc ? err.msg : "accepted"; /* the rule is a field of the error */
	}
	if (!ok(bad == NULL, "%s", label))
		printf("#   %s\n", bad);
	else if (rc)
		printf("#   error: %s\n", err.msg);
	row_release(&r);
}

int main(int argc, char **argv)
{
	const char *srcdir = getenv("TESTS_SRCDIR");
	char path[1024], buf[2048];
	FILE *f;
	int line = 0;

	snprintf(path, sizeof(path), "%s/golden/itanium2.tsv", argc > 1 ? argv[1] : srcdir ? srcdir : "tests");
	f = fopen(path, "r");
	if (!ok(f != NULL, "open %s", path))
		return tap_done();
	while (fgets(buf, sizeof(buf), f)) {
		char *ev, *opts, *expect;

		line++;
		buf[strcspn(buf, "\n")] = 0;
		if (!buf[0] || buf[0] == '#')
			continue;
		ev = strtok(buf, "\t");
		opts = strtok(NULL, "\t");
		expect = strtok(NULL, "\t");
		if (!ok(ev && opts && expect, "line %d is well formed", line))
			continue;
		run_row(line, ev, opts, expect);
	}
	fclose(f);
	return tap_done();
}
