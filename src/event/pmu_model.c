#include <config.h>

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/util.h"
#include "pmu_model.h"

void counter_prog_release(struct counter_prog *c)
{
	free(c->name);
	free(c->given);
	free(c->fstr);
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

int pmu_encode_config(const struct pmu_model *m, const struct pf_config *cfg, struct set_prog **sets,
		      size_t *n_sets, struct pf_error *err)
{
	*sets = xcalloc(cfg->n_sets, sizeof(**sets));
	*n_sets = 0;
	for (size_t s = 0; s < cfg->n_sets; s++) {
		if (m->encode_set(m, cfg, s, &(*sets)[s], err))
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
