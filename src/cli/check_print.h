/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --check output: the programming of one event set, and --dump-event-table
 * rows.  Formatting only; the model computed everything.  It lives in cli/:
 * it names registers and walks tables through the model interface (event/),
 * which report/ does not call (DESIGN.md, layers). */
#ifndef PFMON_CLI_CHECK_PRINT_H
#define PFMON_CLI_CHECK_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "event/pmu_model.h"

/* One line per counter in list order, then the other registers, then the
 * model's notes; verbose adds the decoded fields of every register. */
void check_print_set(FILE *out, const struct pmu_model *m, size_t set, size_t n_sets,
		     const struct set_prog *prog, bool verbose);

/* --dump-event-table: the model's rows as TSV under a header of their keys;
 * 0, or -1 with err if the model has no table */
int check_print_table(FILE *out, const struct pmu_model *m, struct pf_error *err);

#endif
