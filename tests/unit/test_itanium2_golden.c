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

static unsigned btb_bit(const char *s)
{
	static const struct {
		const char *name;
		unsigned bit;
	} map[] = {
		{ "tm-tk", PF_BTB_TM_TK },		{ "tm-ntk", PF_BTB_TM_NTK },
		{ "ptm-correct", PF_BTB_PTM_CORRECT },	{ "ptm-incorrect", PF_BTB_PTM_INCORRECT },
		{ "ppm-correct", PF_BTB_PPM_CORRECT },	{ "ppm-incorrect", PF_BTB_PPM_INCORRECT },
		{ "brt-iprel", PF_BTB_BRT_IPREL },	{ "brt-ret", PF_BTB_BRT_RET },
		{ "brt-ind", PF_BTB_BRT_IND },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(map[i].name, s))
			return map[i].bit;
	return 0;
}

static void set_option(struct pf_config *cfg, struct pf_set_config *s, char *kv)
{
	char *v = strchr(kv, '=');

	if (v)
		*v++ = 0;
	else
		v = "1";
	if (!strcmp(kv, "thres"))
		s->thresholds = strdup(v);
	else if (!strcmp(kv, "opc8"))
		s->opc_match8 = strdup(v);
	else if (!strcmp(kv, "opc9"))
		s->opc_match9 = strdup(v);
	else if (!strcmp(kv, "insn"))
		s->insn_sets = strdup(v);
	else if (!strcmp(kv, "ia32"))
		s->ia32 = true;
	else if (!strcmp(kv, "ia64"))
		s->ia64 = true;
	else if (!strcmp(kv, "btb"))
		for (char *t = strtok(v, "+"); t; t = strtok(NULL, "+"))
			s->btb |= btb_bit(t);
	else if (!strcmp(kv, "irange"))
		cfg->irange = strdup(v);
	else if (!strcmp(kv, "drange"))
		cfg->drange = strdup(v);
	else if (!strcmp(kv, "checkpoint"))
		cfg->checkpoint_func = strdup(v);
	else if (!strcmp(kv, "inverse"))
		cfg->inverse_irange = true;
	else if (!strcmp(kv, "noqual"))
		cfg->no_qual_check = true;
	else if (!strcmp(kv, "sw"))
		cfg->system_wide = true;
	else if (!strcmp(kv, "k"))
		cfg->plm = PF_PLM_KERNEL;
	else if (!strcmp(kv, "plm")) {
		s->event_plm = calloc(4, sizeof(unsigned));
		s->n_event_plm = 0;
		for (char *t = strtok(v, ","); t && s->n_event_plm < 4; t = strtok(NULL, ","))
			s->event_plm[s->n_event_plm++] = (unsigned)strtoul(t, NULL, 0);
	} else
		printf("# unknown golden option '%s'\n", kv);
}

static void build(struct pf_config *cfg, struct pf_set_config *s, char *events, char *opts)
{
	pf_config_init(cfg);
	memset(s, 0, sizeof(*s));
	s->events = calloc(8, sizeof(char *));
	for (char *t = strtok(events, ","); t && s->n_events < 8; t = strtok(NULL, ","))
		s->events[s->n_events++] = strdup(t);
	if (strcmp(opts, "-")) {
		char *save, *t;

		for (t = strtok_r(opts, ";", &save); t; t = strtok_r(NULL, ";", &save))
			set_option(cfg, s, t);
	}
	cfg->sets = s;
	cfg->n_sets = 1;
}

static void release(struct pf_config *cfg)
{
	free((char *)cfg->irange);
	free((char *)cfg->drange);
	free((char *)cfg->checkpoint_func);
	pf_config_release(cfg);
}

static bool reg_value(const struct set_prog *p, const char *name, uint64_t *v)
{
	int n = atoi(name + 3);

	if (!strncmp(name, "PMC", 3) && n >= 4 && n <= 7) {
		for (size_t i = 0; i < p->n_counters; i++)
			if (p->counters[i].pmc == n)
				return *v = p->counters[i].pmc_value, true;
		return false;
	}
	for (size_t i = 0; i < p->n_regs; i++)
		if (!strcmp(p->regs[i].name, name))
			return *v = p->regs[i].value, true;
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
			snprintf(got_at + strlen(got_at), sizeof(got_at) - strlen(got_at), "%s%d", i ? "," : "",
				 p->counters[i].pmd);
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
	struct pf_config cfg;
	struct pf_set_config *s = calloc(1, sizeof(*s)); /* pf_config_release frees it */
	struct set_prog p;
	struct pf_error err = { 0 };
	char label[256], why[256];
	const char *bad = NULL;
	int rc;

	snprintf(label, sizeof(label), "line %d: %s [%s] -> %s", line, events, opts, expect);
	build(&cfg, s, events, opts);
	rc = pmu_itanium2.encode_set(&pmu_itanium2, &cfg, 0, &p, &err);
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
	} else {
		char want[64];

		snprintf(want, sizeof(want), "(rule %s)", expect);
		if (!rc || err.code != PF_E_CONSTRAINT || !strstr(err.msg, want))
			bad = rc ? err.msg : "accepted";
	}
	if (!ok(bad == NULL, "%s", label))
		printf("#   %s\n", bad);
	else if (rc)
		printf("#   error: %s\n", err.msg);
	release(&cfg);
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
