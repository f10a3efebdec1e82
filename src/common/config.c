/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "util.h"

void pf_config_init(struct pf_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->smpl_entries = 2048;
	cfg->smpl_cum_threshold = 100;
	cfg->csv_sep = ",";
}

void pf_set_config_release(struct pf_set_config *s)
{
	for (size_t i = 0; i < s->n_events; i++)
		free(s->events[i]);
	free(s->events);
	free(s->event_plm);
	free(s->long_periods);
	free(s->short_periods);
	free(s->periods_random);
}

void pf_config_release(struct pf_config *cfg)
{
	for (size_t i = 0; i < cfg->n_sets; i++)
		pf_set_config_release(&cfg->sets[i]);
	free(cfg->sets);
	cfg->sets = NULL;
	cfg->n_sets = 0;
	free(cfg->cpu_list);
	cfg->cpu_list = NULL;
	free(cfg->attach);
	cfg->attach = NULL;
	cfg->n_attach = 0;
	free(cfg->options_given);
	cfg->options_given = NULL;
	for (size_t i = 0; i < cfg->n_abbreviations; i++)
		free(cfg->abbreviations[i].typed);
	free(cfg->abbreviations);
	cfg->abbreviations = NULL;
	cfg->n_abbreviations = 0;
	for (size_t i = 0; i < cfg->n_model_options; i++)
		free(cfg->model_options[i].resolved);
	free(cfg->model_options);
	cfg->model_options = NULL;
	cfg->n_model_options = 0;
	if (cfg->model_opts && cfg->model_opts_free)
		cfg->model_opts_free(cfg->model_opts);
	cfg->model_opts = NULL;
	free(cfg->outfile_expanded);
	cfg->outfile_expanded = NULL;
	free(cfg->smpl_outfile_expanded);
	cfg->smpl_outfile_expanded = NULL;
	free(cfg->metric_args);
	cfg->metric_args = NULL;
	cfg->n_metric_args = 0;
	for (int k = 0; k < PF_TRG_KINDS; k++) {
		str_vec_free(cfg->triggers[k]);
		cfg->triggers[k] = NULL;
		cfg->n_triggers[k] = 0;
	}
}

bool pf_config_is_sampling(const struct pf_config *cfg)
{
	if (cfg->smpl_outfile || cfg->smpl_freq || cfg->perf_count)
		return true;
	for (size_t i = 0; i < cfg->n_sets; i++)
		if (cfg->sets[i].n_long_periods || cfg->sets[i].n_short_periods || cfg->sets[i].n_periods_random)
			return true;
	return false;
}

unsigned pf_config_event_plm(const struct pf_config *cfg, size_t set, size_t ev)
{
	const struct pf_set_config *s = &cfg->sets[set];

	if (ev < s->n_event_plm && s->event_plm[ev])
		return s->event_plm[ev];
	return cfg->plm;
}
