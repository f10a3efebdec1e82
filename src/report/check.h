/* --check output: the programming of one event set, and --dump-event-table
 * rows.  Formatting only; the model computed everything. */
#ifndef PFMON_REPORT_CHECK_H
#define PFMON_REPORT_CHECK_H

#include <stdbool.h>
#include <stdio.h>

#include "event/pmu_model.h"
#include "pmu/itanium2.h"

/* One line per counter in list order, then the other registers, then the
 * model's notes; verbose adds the decoded fields of every register. */
void check_print_set(FILE *out, const struct pmu_model *m, size_t set, size_t n_sets,
		     const struct set_prog *prog, bool verbose);

/* --dump-event-table for the Itanium 2 table */
void check_print_table_header(FILE *out);
void check_print_table_row(FILE *out, const struct ita2_event *e);

#endif
