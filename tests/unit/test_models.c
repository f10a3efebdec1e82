/*
 * Every registered PMU model through the model interface alone: its event
 * table validates, every event of a tabled model encodes alone and is
 * described by -i, -l lists something, --check prints the programming of
 * its default events, --dump-event-table has one row per listed event, and
 * its option rows are complete.  A new model gets these checks by its
 * registry row; nothing here names a model.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/config.h"
#include "common/util.h"
#include "event/pmu_model.h"
#include "report/check.h"
#include "tap.h"

struct walk {
	const struct pmu_model *m;
	size_t listed, encoded, described;
	char first_bad[256];
};

static void set_bad(struct walk *w, const char *name, const char *why)
{
	if (!w->first_bad[0])
		snprintf(w->first_bad, sizeof(w->first_bad), "%s: %s", name, why);
}

/* one event alone in one set, with the model's default options */
static int encode_alone(const struct pmu_model *m, const char *name, char *out, size_t len, struct pf_error *err)
{
	struct pf_config cfg;
	struct set_prog prog;
	char *text = NULL;
	size_t tlen = 0;
	FILE *f;
	int rc;

	pf_config_init(&cfg);
	cfg.sets = xcalloc(1, sizeof(*cfg.sets));
	cfg.n_sets = 1;
	cfg.sets[0].events = str_split(name, ',', &cfg.sets[0].n_events);
	rc = pmu_encode_set(m, &cfg, 0, &prog, err);
	if (rc == 0) {
		f = open_memstream(&text, &tlen);
		check_print_set(f, m, 0, 1, &prog, true);
		fclose(f);
		snprintf(out, len, "%s", text);
		free(text);
		set_prog_release(&prog);
	}
	pf_config_release(&cfg);
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
	struct pf_config cfg;
	struct set_prog prog;
	char *text = NULL;
	size_t tlen = 0;
	FILE *f;
	int rc;

	pf_config_init(&cfg);
	cfg.sets = xcalloc(1, sizeof(*cfg.sets));
	cfg.n_sets = 1;
	*out = '\0';
	rc = pmu_encode_set(m, &cfg, 0, &prog, err);
	if (rc == 0) {
		f = open_memstream(&text, &tlen);
		check_print_set(f, m, 0, 1, &prog, true);
		fclose(f);
		snprintf(out, len, "%s", text);
		free(text);
		set_prog_release(&prog);
	}
	pf_config_release(&cfg);
	return rc;
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
		ok(w.encoded == w.listed, "%s: every event encodes alone (%zu of %zu) %s", m->name, w.encoded,
		   w.listed, w.first_bad);
		ok(w.described == w.listed, "%s: every event has -i", m->name);
	}
	if (m->table_row)
		ok(table_rows(m) == w.listed, "%s: --dump-event-table has a row per event", m->name);
	if (m->default_events && (m->validate_table || getenv("PFMON_TEST_HOST_EVENTS")))
		ok(encode_alone(m, m->default_events, out, sizeof(out), &err) == 0, "%s: --check of the default events: %s",
		   m->name, err.msg);
	test_options(m);
}

int main(void)
{
	const struct pmu_model *m;
	size_t n = 0;

	for (size_t i = 0; (m = pmu_model_at(i)); i++, n++)
		test_model(m);
	ok(n >= 2, "%zu models registered", n);
	ok(pmu_model_find("host") == pmu_model_at(0), "host first");
	return tap_done();
}
