/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command line translated for the layers below the CLI.  struct
 * pf_config stays in src/cli/: each layer takes a small struct of its own,
 * filled here and nowhere else, so a layer sees only the options it uses.
 */
#ifndef PFMON_CLI_LAYER_OPTS_H
#define PFMON_CLI_LAYER_OPTS_H

#include "common/config.h"
#include "event/pmu_model.h"
#include "session/record_opts.h"

/* the options m parsed from cfg (cfg->model_opts when m made them), or NULL */
const void *config_model_opts(const struct pf_config *cfg, const struct pmu_model *m);

/* What encoding cfg's event sets with m needs.  The strings and masks are
 * borrowed from cfg; config_encode_opts_release frees the set array. */
void config_encode_opts(const struct pf_config *cfg, const struct pmu_model *m, struct encode_opts *o);
void config_encode_opts_release(struct encode_opts *o);
/* pmu_encode_config of cfg's event sets with m */
int config_encode_sets(const struct pf_config *cfg, const struct pmu_model *m, struct set_prog **sets,
		       size_t *n_sets, struct pf_error *err);

/* the periods of one event set (borrowed from s) */
struct record_set_opts config_record_set_opts(const struct pf_set_config *s);
/* What a sampling session's plan needs of cfg (the periods borrowed);
 * config_record_opts_release frees the set array. */
void config_record_opts(const struct pf_config *cfg, struct record_opts *o);
void config_record_opts_release(struct record_opts *o);

#endif
