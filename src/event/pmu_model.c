/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/util.h"
#include "pmu_model.h"

void counter_prog_release(struct counter_prog *c)
{
	free(c->name);
	free(c->given);
	free(c->alias);
	free(c->fstr);
	free(c->unit);
	free(c->cpus);
	memset(c, 0, sizeof(*c));
}

void set_prog_release(struct set_prog *prog)
{
	for (size_t i = 0; i < prog->n_counters; i++)
		counter_prog_release(&prog->counters[i]);
	free(prog->counters);
	free(prog->regs);
	str_vec_free(prog->notes);
	memset(prog, 0, sizeof(*prog));
}

void set_prog_note(struct set_prog *prog, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	while (prog->notes && prog->notes[n])
		n++;
	prog->notes = xrealloc(prog->notes, (n + 2) * sizeof(*prog->notes));
	prog->notes[n] = strbuf_detach(&sb);
	prog->notes[n + 1] = NULL;
}

void set_prog_reg(struct set_prog *prog, enum reg_file file, unsigned num, uint64_t value)
{
	prog->regs = xrealloc(prog->regs, (prog->n_regs + 1) * sizeof(*prog->regs));
	prog->regs[prog->n_regs++] = (struct reg_value){ file, num, value };
}

void pmu_reg_name(const struct pmu_model *m, const struct reg_value *r, char *buf, size_t len)
{
	static const char *const prefix[REG_FILE_COUNT] = {
		[REG_PMC] = "PMC", [REG_PMD] = "PMD", [REG_IBR] = "IBR", [REG_DBR] = "DBR", [REG_MSR] = "MSR",
	};

	if (m && m->reg_name) {
		m->reg_name(m, r, buf, len);
		return;
	}
	if (r->file == REG_MSR)
		snprintf(buf, len, "MSR 0x%x", r->num);
	else
		snprintf(buf, len, "%s%u", r->file < REG_FILE_COUNT ? prefix[r->file] : "?", r->num);
}

bool pmu_model_live_here(const struct pmu_model *m)
{
	return m->can_run && (!m->detect || m->detect(m));
}

int pmu_encode_set(const struct pmu_model *m, const struct encode_opts *o, size_t set, struct set_prog *out,
		   struct pf_error *err)
{
	const struct encode_set_opts *s;
	struct event_spec *specs;
	unsigned *plm;
	size_t parsed = 0;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (set >= o->n_sets)
		return pf_error_set(err, PF_E_NO_SUCH_SET, (int)set, (int)o->n_sets);
	s = &o->sets[set];
	specs = xcalloc(s->n_events ? s->n_events : 1, sizeof(*specs));
	plm = xcalloc(s->n_events ? s->n_events : 1, sizeof(*plm));
	for (; parsed < s->n_events; parsed++) {
		if (event_spec_parse(s->events[parsed], &specs[parsed], err))
			goto out;
		plm[parsed] = parsed < s->n_event_plm ? s->event_plm[parsed] : 0;
	}
	struct pmu_set_request req = {
		.set = set,
		.events = specs,
		.n_events = s->n_events,
		.plm = plm,
		.default_plm = o->plm,
		.system_wide = o->system_wide,
		.live = o->live,
		.opts = o->model_opts,
	};
	rc = m->encode_set(m, &req, out, err);
out:
	for (size_t i = 0; i < s->n_events; i++)
		event_spec_release(&specs[i]); /* also a half-parsed one */
	free(specs);
	free(plm);
	return rc;
}

int pmu_encode_events(const struct pmu_model *m, const struct encode_opts *o, char *const *events, size_t n,
		      struct set_prog *out, struct pf_error *err)
{
	struct encode_set_opts set = { .events = events, .n_events = n };
	struct encode_opts one = *o;

	one.sets = &set;
	one.n_sets = 1;
	return pmu_encode_set(m, &one, 0, out, err);
}

int pmu_encode_config(const struct pmu_model *m, const struct encode_opts *o, struct set_prog **sets,
		      size_t *n_sets, struct pf_error *err)
{
	*sets = xcalloc(o->n_sets, sizeof(**sets));
	*n_sets = 0;
	for (size_t s = 0; s < o->n_sets; s++) {
		if (pmu_encode_set(m, o, s, &(*sets)[s], err))
			return -1;
		(*n_sets)++;
	}
	return 0;
}

void event_info_add(struct event_info *info, const char *key, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	info->lines = xrealloc(info->lines, (info->n_lines + 1) * sizeof(*info->lines));
	info->lines[info->n_lines].key = xstrdup(key);
	info->lines[info->n_lines].value = strbuf_detach(&sb);
	info->n_lines++;
}

void event_info_release(struct event_info *info)
{
	for (size_t i = 0; i < info->n_lines; i++) {
		free(info->lines[i].key);
		free(info->lines[i].value);
	}
	free(info->lines);
	info->lines = NULL;
	info->n_lines = 0;
}
