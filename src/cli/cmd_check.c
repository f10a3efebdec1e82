/* --check and --dump-event-table. */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "report/check.h"

int cmd_check(const struct pf_config *cfg, const struct pmu_model *m, struct pf_error *err)
{
	for (size_t s = 0; s < cfg->n_sets; s++) {
		struct set_prog prog;

		if (m->encode_set(m, cfg, s, &prog, err))
			return -1;
		check_print_set(stdout, m, s, cfg->n_sets, &prog, cfg->verbose);
		set_prog_release(&prog);
	}
	return 0;
}

int cmd_dump_event_table(const struct pf_config *cfg, const struct pmu_model *m, struct pf_error *err)
{
	const struct ita2_event *e;

	/* only the Itanium 2 model has a table in this shape so far */
	if (strcmp(m->name, "itanium2"))
		return pf_error_set(err, PF_E_NOT_SUPPORTED, m->name, "this PMU model has no event table dump");
	check_print_table_header(stdout);
	for (size_t i = 0; (e = ita2_event_at(i)); i++)
		check_print_table_row(stdout, e);
	return 0;
}
