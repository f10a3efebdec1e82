/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --check and --dump-event-table. */
#include <config.h>

#include <stdio.h>

#include "commands.h"
#include "cli/check_print.h"

int cmd_check(const struct pf_config *cfg, const struct pmu_model *m, struct pf_error *err)
{
	struct encode_opts o;
	int rc = 0;

	config_encode_opts(cfg, m, &o);
	for (size_t s = 0; !rc && s < cfg->n_sets; s++) {
		struct set_prog prog;

		rc = pmu_encode_set(m, &o, s, &prog, err);
		if (rc)
			break;
		check_print_set(stdout, m, s, cfg->n_sets, &prog, cfg->verbose);
		set_prog_release(&prog);
	}
	config_encode_opts_release(&o);
	return rc;
}

int cmd_dump_event_table(const struct pf_config *cfg, const struct pmu_model *m, struct pf_error *err)
{
	return check_print_table(stdout, m, err);
}
