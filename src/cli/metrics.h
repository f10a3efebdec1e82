/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Derived metrics on the command line: the definitions of the model (and
 * --metrics-file), -M resolved to metrics, the events they need planned
 * into event sets appended to the configuration, --show-metrics, and the
 * plan as --check prints it.
 */
#ifndef PFMON_CLI_METRICS_H
#define PFMON_CLI_METRICS_H

#include <stdio.h>

#include "common/config.h"
#include "common/error.h"
#include "event/pmu_model.h"
#include "pmu/planner.h"
#include "results/metric.h"

struct metric_run {
	struct metric_list list;
	size_t *want; /* the requested metrics, indexes in list */
	size_t n_want;
	size_t first_set; /* the configuration's set of the plan's set 0 */
	struct plan plan; /* one group per requested metric */
};

/* Load the definitions; with -M, plan their events and append the sets to
 * cfg (the first one replaces an empty default set).  0, or -1 with err. */
int metrics_prepare(struct pf_config *cfg, const struct pmu_model *m, struct metric_run *run,
		    struct pf_error *err);
void metrics_release(struct metric_run *run);
/* the definitions and the -M requests alone: nothing planned (--metrics-from) */
int metrics_load(const struct pf_config *cfg, const struct pmu_model *m, struct metric_run *run,
		 struct pf_error *err);
/* the plan: set by set its events, then which metric reads which set */
void metrics_print_plan(FILE *out, const struct metric_run *run);
/* --show-metrics[=REGEX] */
int cmd_show_metrics(const struct pf_config *cfg, const struct pmu_model *m, struct pf_error *err);

#endif
