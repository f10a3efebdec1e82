/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every registered PMU model through the model interface alone: its event
 * table validates, every event of a tabled model encodes alone and is
 * described by -i, -l lists something, --check prints the programming of
 * its default events, --dump-event-table has one row per listed event, and
 * its option rows are complete.  A new model gets these checks by its
 * registry row; nothing here names a model.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "event/pmu_model.h"
#include "cli/check_print.h"
#include "tap.h"

struct walk {
	const struct pmu_model *m;
	size_t listed, encoded, ruled, described;
	char first_bad[256];
};

static void set_bad(struct walk *w, const char *name, const char *why)
{
	if (!w->first_bad[0])
		snprintf(w->first_bad, sizeof(w->first_bad), "%.80s: %.160s", name, why);
}

/* one event alone in one set, with the model's default options */
/* --check of one set of the events in name (a comma list; NULL: none) */
static int encode_alone(const struct pmu_model *m, const char *name, char *out, size_t len, struct pf_error *err)
{
	struct encode_opts o = { .live = false }; /* --check: the dry run's encoding */
	struct set_prog prog;
	char **events = NULL;
	size_t n_events = 0;
	char *text = NULL;
	size_t tlen = 0;
	FILE *f;
	int rc;

	if (name)
		events = str_split(name, ',', &n_events);
	*out = '\0';
	rc = pmu_encode_events(m, &o, events, n_events, &prog, err);
	if (rc == 0) {
		f = open_memstream(&text, &tlen);
		check_print_set(f, m, 0, 1, &prog, true);
		fclose(f);
		snprintf(out, len, "%s", text);
		free(text);
		set_prog_release(&prog);
	}
	str_vec_free(events);
	return rc;
}

static int each_event(const char *name, const char *desc, void *arg)
{
	struct walk *w = arg;
	struct pf_error err = { 0 };
	struct event_info info = { 0 };
	char out[4096];

	w->listed++;
	if (!desc || !*desc)
		set_bad(w, name, "no description");
	if (!w->m->validate_table) /* a live model's catalogue is libpfm4's, not ours */
		return 0;
	if (encode_alone(w->m, name, out, sizeof(out), &err) == 0 && strstr(out, name))
		w->encoded++;
	else if (err.code == PF_E_CONSTRAINT && *err.rule) /* alone, a rule of the model refuses it (an input whose counter the manual leaves to the user) */
		w->ruled++;
	else
		set_bad(w, name, err.msg);
	if (w->m->event_info(w->m, name, &info, &err) == 0 && info.n_lines)
		w->described++;
	else
		set_bad(w, name, "no -i");
	event_info_release(&info);
	return 0;
}

static size_t table_rows(const struct pmu_model *m)
{
	size_t n = 0;

	for (;; n++) {
		table_row row = { 0 };
		int end = m->table_row(m, n, &row);

		event_info_release(&row);
		if (end)
			return n;
	}
}

static void test_options(const struct pmu_model *m)
{
	void *opts;

	if (!m->n_options)
		return;
	ok(m->options_group && m->options_new && m->options_free, "%s: option rows have a group and a struct",
	   m->name);
	for (size_t r = 0; r < m->n_options; r++)
		ok(m->options[r].long_name && m->options[r].help && m->options[r].apply, "%s: option row %zu complete",
		   m->name, r);
	opts = m->options_new(2);
	m->options_free(opts);
}

/* a dry-run model without an event table or default events */
static bool tableless(const struct pmu_model *m)
{
	return !m->can_run && !m->validate_table && !m->table_row && !m->default_events;
}

/* --check of one empty set: the registers the model's defaults program */
static int encode_empty(const struct pmu_model *m, char *out, size_t len, struct pf_error *err)
{
	return encode_alone(m, NULL, out, len, err);
}

static void test_model(const struct pmu_model *m)
{
	struct walk w = { .m = m };
	struct pf_error err = { 0 };
	char msg[256] = "", out[4096];

	ok(m->name && m->title && m->desc && m->detect && m->list_events && m->event_info && m->encode_set,
	   "%s: descriptor complete", m->name);
	if (m->validate_table)
		ok(m->validate_table(m, msg, sizeof(msg)) == 0, "%s: table validates %s", m->name, msg);
	int rc = m->list_events(m, false, each_event, &w, &err);

	if (tableless(m)) { /* a modelled PMU whose manual has no event table: -l says so, --check works */
		ok(rc != 0 && w.listed == 0 && *err.msg, "%s: -l says the model has no events: %s", m->name, err.msg);
		ok(encode_empty(m, out, sizeof(out), &err) == 0 && *out, "%s: --check without events programs its "
		   "registers: %s", m->name, err.msg);
		test_options(m);
		return;
	}
	ok(rc == 0 && w.listed > 0, "%s: -l lists %zu events", m->name, w.listed);
	if (m->validate_table) {
		ok(w.encoded + w.ruled == w.listed && w.encoded > 0, "%s: every event encodes alone or is refused "
		   "alone by a rule (%zu and %zu of %zu) %s", m->name, w.encoded, w.ruled, w.listed, w.first_bad);
		ok(w.described == w.listed, "%s: every event has -i", m->name);
	}
	if (m->table_row)
		ok(table_rows(m) == w.listed, "%s: --dump-event-table has a row per event", m->name);
	if (m->default_events && (m->validate_table || getenv("PFMON_TEST_HOST_EVENTS")))
		ok(encode_alone(m, m->default_events, out, sizeof(out), &err) == 0, "%s: --check of the default events: %s",
		   m->name, err.msg);
	test_options(m);
}

/* ---- golden rows: tests/golden/MODEL.tsv files in the models format ---- */

static const char *const code_names[] = {
#define PF_ERR_NAME(code, status, fmt) #code,
	PF_ERRORS(PF_ERR_NAME)
#undef PF_ERR_NAME
};

/* "-", or ';'-separated NAME=VALUE of the model's option rows, u, k, sw */
static int golden_options(const struct pmu_model *m, struct encode_opts *o, void *opts, const char *text,
			  struct pf_error *err)
{
	size_t n;
	char **v = str_split(text, ';', &n);
	int rc = 0;

	o->model_opts = opts;
	for (size_t i = 0; i < n && !rc && strcmp(text, "-"); i++) {
		char *eq = strchr(v[i], '=');
		bool found = false;

		if (!strcmp(v[i], "u") || !strcmp(v[i], "k")) {
			o->plm = v[i][0] == 'u' ? PF_PLM_USER : PF_PLM_KERNEL;
			continue;
		}
		if (!strcmp(v[i], "sw")) {
			o->system_wide = true;
			continue;
		}
		if (eq)
			*eq++ = '\0';
		for (size_t r = 0; r < m->n_options && !found; r++)
			if (!strcmp(m->options[r].long_name, v[i])) {
				found = true;
				rc = m->options[r].apply(opts, 0, eq, err);
			}
		if (!found) {
			printf("# unknown option '%s' of the %s model\n", v[i], m->name);
			rc = -1;
		}
	}
	str_vec_free(v);
	return rc;
}

/* the checks after "ok": REG=VALUE, nregs=N; NULL when all hold, else what failed */
static const char *golden_checks(const struct pmu_model *m, const struct set_prog *p, char **tok, size_t n,
				 const char *note, char *why, size_t len)
{
	for (size_t i = 1; i < n; i++) {
		char *eq = strchr(tok[i], '=');
		uint64_t want;
		bool found = false;

		if (!eq || !parse_u64(eq + 1, &want))
			return snprintf(why, len, "bad check '%s'", tok[i]), why;
		if (!strncmp(tok[i], "nregs=", 6)) {
			if (p->n_regs != want)
				return snprintf(why, len, "%zu registers written, not %s", p->n_regs, eq + 1), why;
			continue;
		}
		/* the other registers, then the counters' own (PMC4=...: placement and value) */
		for (size_t r = 0; r < p->n_regs + p->n_counters && !found; r++) {
			const struct reg_value *reg = r < p->n_regs ? &p->regs[r] : &p->counters[r - p->n_regs].ctl;
			char name[32];

			pmu_reg_name(m, reg, name, sizeof(name));
			if ((size_t)(eq - tok[i]) == strlen(name) && !strncmp(name, tok[i], strlen(name))) {
				found = true;
				if (reg->value != want)
					return snprintf(why, len, "%s = 0x%" PRIx64 ", not %s", name, reg->value,
							eq + 1), why;
			}
		}
		if (!found)
			return snprintf(why, len, "no register %.*s", (int)(eq - tok[i]), tok[i]), why;
	}
	for (size_t i = 0; note && p->notes && p->notes[i]; i++)
		if (strstr(p->notes[i], note))
			return NULL;
	return note ? snprintf(why, len, "no note contains '%s'", note), why : NULL;
}

static void golden_row(const struct pmu_model *m, char **col, size_t n_cols, int line)
{
	struct encode_opts o = { .live = false }; /* --check: the dry run's encoding */
	void *opts = m->options_new ? m->options_new(1) : NULL;
	struct pf_error err = { 0 };
	struct set_prog p;
	size_t n, n_events = 0;
	char **tok = str_split(col[2], ' ', &n), **events = NULL;
	char why[256] = "";
	int rc;

	if (strcmp(col[1], "-"))
		events = str_split(col[1], ',', &n_events);
	rc = golden_options(m, &o, opts, col[0], &err);
	if (!rc)
		rc = pmu_encode_events(m, &o, events, n_events, &p, &err);
	if (!strcmp(tok[0], "ok")) {
		const char *bad = rc ? err.msg : golden_checks(m, &p, tok, n, n_cols > 3 ? col[3] : NULL, why, sizeof(why));

		ok(!bad, "%s line %d: %s %s: ok%s%s", m->name, line, col[0], col[1], bad ? ": " : "", bad ? bad : "");
	} else {
		const char *want = tok[0] + strlen("error:");

		ok(rc && (!strcmp(err.rule, want) || !strcmp(code_names[err.code], want)),
		   "%s line %d: %s %s: refused with %s%s%s", m->name, line, col[0], col[1], want, rc ? ": " : " (accepted)",
		   rc ? err.msg : "");
	}
	if (!rc)
		set_prog_release(&p);
	str_vec_free(tok);
	str_vec_free(events);
	if (opts)
		m->options_free(opts);
}

static void golden_file(const struct pmu_model *m, const char *dir)
{
	char path[512], line[2048];
	FILE *f;
	int no = 0;

	snprintf(path, sizeof(path), "%s/golden/%s.tsv", dir, m->name);
	f = fopen(path, "r");
	if (!f || !fgets(line, sizeof(line), f) || strncmp(line, "# format: models", 16)) {
		if (f)
			fclose(f);
		return; /* none, or a model's own format (its own test reads it) */
	}
	no = 1;
	while (fgets(line, sizeof(line), f)) {
		size_t n;
		char **col;

		no++;
		line[strcspn(line, "\n")] = '\0';
		if (!*line || *line == '#')
			continue;
		col = str_split(line, '\t', &n);
		if (ok(n == 3 || n == 4, "%s line %d has 3 or 4 columns", m->name, no))
			golden_row(m, col, n, no);
		str_vec_free(col);
	}
	fclose(f);
}

/* the helpers every modelled PMU fills its programming with */
static void test_set_prog_helpers(void)
{
	struct set_prog p = { 0 };

	set_prog_note(&p, "first %d", 1);
	set_prog_note(&p, "%s", "second");
	set_prog_reg(&p, REG_PMC, 12, 0x3f08);
	set_prog_reg(&p, REG_IBR, 1, 7);
	ok(p.notes && !strcmp(p.notes[0], "first 1") && !strcmp(p.notes[1], "second") && !p.notes[2],
	   "notes in order, NULL-terminated");
	ok(p.n_regs == 2 && p.regs[0].file == REG_PMC && p.regs[0].num == 12 && p.regs[0].value == 0x3f08 &&
	   p.regs[1].file == REG_IBR && p.regs[1].num == 1 && p.regs[1].value == 7, "registers in write order");
	set_prog_release(&p);
}

int main(int argc, char **argv)
{
	const char *srcdir = getenv("TESTS_SRCDIR");
	const struct pmu_model *m;
	size_t n = 0;

	for (size_t i = 0; (m = pmu_model_at(i)); i++, n++)
		test_model(m);
	for (size_t i = 0; (m = pmu_model_at(i)); i++)
		golden_file(m, argc > 1 ? argv[1] : srcdir ? srcdir : "tests");
	ok(n >= 2, "%zu models registered", n);
	ok(pmu_model_find("host") == pmu_model_at(0), "host first");
	test_set_prog_helpers();
	return tap_done();
}
