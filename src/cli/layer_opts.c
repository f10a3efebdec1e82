/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pf_config into each layer's options (see layer_opts.h). */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "layer_opts.h"

const void *config_model_opts(const struct pf_config *cfg, const struct pmu_model *m)
{
	return cfg->model_opts_owner == m ? cfg->model_opts : NULL;
}

void config_encode_opts(const struct pf_config *cfg, const struct pmu_model *m, struct encode_opts *o)
{
	struct encode_set_opts *sets = xcalloc(cfg->n_sets + 1, sizeof(*sets));

	for (size_t s = 0; s < cfg->n_sets; s++)
		sets[s] = (struct encode_set_opts){
			.events = cfg->sets[s].events,
			.n_events = cfg->sets[s].n_events,
			.event_plm = cfg->sets[s].event_plm,
			.n_event_plm = cfg->sets[s].n_event_plm,
		};
	*o = (struct encode_opts){
		.sets = sets,
		.n_sets = cfg->n_sets,
		.plm = cfg->plm,
		.system_wide = cfg->system_wide,
		.live = !cfg->check,
		.model_opts = config_model_opts(cfg, m),
	};
}

void config_encode_opts_release(struct encode_opts *o)
{
	free((void *)o->sets);
	memset(o, 0, sizeof(*o));
}

int config_encode_sets(const struct pf_config *cfg, const struct pmu_model *m, struct set_prog **sets,
		       size_t *n_sets, struct pf_error *err)
{
	struct encode_opts o;
	int rc;

	config_encode_opts(cfg, m, &o);
	rc = pmu_encode_config(m, &o, sets, n_sets, err);
	config_encode_opts_release(&o);
	return rc;
}

struct record_set_opts config_record_set_opts(const struct pf_set_config *s)
{
	return (struct record_set_opts){
		.long_periods = s->long_periods,
		.n_long_periods = s->n_long_periods,
		.short_periods = s->short_periods,
		.n_short_periods = s->n_short_periods,
		.periods_random = s->periods_random,
		.n_periods_random = s->n_periods_random,
		.default_period = s->default_period,
	};
}

void config_record_opts(const struct pf_config *cfg, struct record_opts *o)
{
	struct record_set_opts *sets = xcalloc(cfg->n_sets + 1, sizeof(*sets));

	for (size_t s = 0; s < cfg->n_sets; s++)
		sets[s] = config_record_set_opts(&cfg->sets[s]);
	*o = (struct record_opts){
		.sets = sets,
		.n_sets = cfg->n_sets,
		.smpl_entries = cfg->smpl_entries,
		.saturate = cfg->saturate_smpl,
		.smpl_freq = cfg->smpl_freq,
		.inherit = !cfg->no_inherit,
		.data_addr = cfg->smpl_data_addr,
		.weight = cfg->smpl_weight,
		.data_src = cfg->smpl_data_src,
		.branch_stack = cfg->smpl_branch_stack,
		.branch_filter = cfg->branch_filter,
		.mmap_pages = cfg->mmap_pages,
		.callchain = cfg->callchain,
		.callchain_dwarf = cfg->callchain_dwarf,
		.callchain_lbr = cfg->callchain_lbr,
		.stack_dump_size = cfg->stack_dump_size,
	};
}

void config_record_opts_release(struct record_opts *o)
{
	free((void *)o->sets);
	memset(o, 0, sizeof(*o));
}
