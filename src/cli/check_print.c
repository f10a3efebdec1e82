/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --check output.  A modelled PMU lists, per event in command-line order,
 *
 *     EVENT                              PMC4/PMD4  0x001228
 *
 * then every other register it writes (PMC8-15, IBRs, DBRs) with its value,
 * then the model's notes (range over-coverage, warnings).  A live PMU lists
 * the perf_event_attr type, config and privilege levels instead.  -v adds one
 * line of decoded fields under each register (for a live PMU: the rest of
 * the attr that the event string decides, and libpfm4's canonical string).
 */
#include <config.h>

#include <inttypes.h>
#include <string.h>

#include "cli/check_print.h"

#define NAME_WIDTH 40
#define MAX_FIELDS 16

static void print_fields(FILE *out, const struct pmu_model *m, const struct reg_value *r)
{
	struct reg_field f[MAX_FIELDS];
	size_t n;

	if (!m->decode_reg)
		return;
	n = m->decode_reg(m, r, f, MAX_FIELDS);
	if (!n)
		return;
	fprintf(out, "    ");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%s=0x%" PRIx64, i ? " " : "", f[i].name, f[i].value);
	fprintf(out, "\n");
}

static void print_counter(FILE *out, const struct pmu_model *m, const struct counter_prog *c, bool verbose)
{
	char ctl[32], ctr[32];

	if (c->is_live) {
		fprintf(out, "%-*s type=0x%x config=0x%llx levels=%s%s\n", NAME_WIDTH, c->name, (unsigned)c->attr.type,
			(unsigned long long)c->attr.config, c->attr.exclude_user ? "" : "u",
			c->attr.exclude_kernel ? "" : "k");
		if (verbose)
			fprintf(out, "    config1=0x%llx config2=0x%llx exclude_hv=%u precise_ip=%u%s%s\n",
				(unsigned long long)c->attr.config1, (unsigned long long)c->attr.config2,
				c->attr.exclude_hv, c->attr.precise_ip, c->fstr ? " canonical=" : "",
				c->fstr ? c->fstr : "");
		return;
	}
	pmu_reg_name(m, &c->ctl, ctl, sizeof(ctl));
	pmu_reg_name(m, &c->ctr, ctr, sizeof(ctr));
	fprintf(out, "%-*s %s/%s  0x%06" PRIx64 "\n", NAME_WIDTH, c->alias ? c->alias : c->name, ctl, ctr,
		c->ctl.value);
	if (verbose)
		print_fields(out, m, &c->ctl);
}

void check_print_set(FILE *out, const struct pmu_model *m, size_t set, size_t n_sets,
		     const struct set_prog *prog, bool verbose)
{
	char name[32];

	if (n_sets > 1)
		fprintf(out, "set %zu:\n", set);
	for (size_t i = 0; i < prog->n_counters; i++)
		print_counter(out, m, &prog->counters[i], verbose);
	for (size_t i = 0; i < prog->n_regs; i++) {
		pmu_reg_name(m, &prog->regs[i], name, sizeof(name));
		fprintf(out, "%-*s 0x%016" PRIx64 "\n", NAME_WIDTH, name, prog->regs[i].value);
		if (verbose)
			print_fields(out, m, &prog->regs[i]);
	}
	for (size_t i = 0; prog->notes && prog->notes[i]; i++)
		fprintf(out, "note: %s\n", prog->notes[i]);
}

static void print_row(FILE *out, const table_row *row, bool keys)
{
	for (size_t i = 0; i < row->n_lines; i++)
		fprintf(out, "%s%s", i ? "\t" : "", keys ? row->lines[i].key : row->lines[i].value);
	fprintf(out, "\n");
}

int check_print_table(FILE *out, const struct pmu_model *m, struct pf_error *err)
{
	if (!m->table_row) /* a listing request: nothing to count, so no "cannot count" */
		return pf_error_set(err, PF_E_NO_EVENT_TABLE, m->title, m->name);
	for (size_t i = 0;; i++) {
		table_row row = { 0 };

		if (m->table_row(m, i, &row)) {
			event_info_release(&row);
			return 0;
		}
		if (i == 0)
			print_row(out, &row, true);
		print_row(out, &row, false);
		event_info_release(&row);
	}
}
