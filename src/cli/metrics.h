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
	/* metrics_prepare_deferred: the model's definitions, not parsed until
	 * metrics_add_shadows knows the events (NULL: nothing waits) */
	const char *deferred, *deferred_model;
};

/* Load the definitions; with -M, plan their events and append the sets to
 * cfg (the first one replaces an empty default set).  0, or -1 with err. */
int metrics_prepare(struct pf_config *cfg, const struct pmu_model *m, struct metric_run *run,
		    struct pf_error *err);
/* As metrics_prepare, for a count: when it asks for no metric, nothing is
 * parsed yet (its shadows wait for metrics_add_shadows). */
int metrics_prepare_deferred(struct pf_config *cfg, const struct pmu_model *m, struct metric_run *run,
			     struct pf_error *err);
/* The definitions of the shadow metrics these encoded sets' events show
 * (count rows bear their names), when metrics_prepare_deferred left them
 * waiting; else nothing.  0, or -1 with err. */
int metrics_add_shadows(struct metric_run *run, const struct set_prog *sets, size_t n_sets, struct pf_error *err);
void metrics_release(struct metric_run *run);
/* the definitions and the -M requests alone: nothing planned (--metrics-from) */
int metrics_load(const struct pf_config *cfg, const struct pmu_model *m, struct metric_run *run,
		 struct pf_error *err);
/* the plan: set by set its events, then which metric reads which set */
void metrics_print_plan(FILE *out, const struct metric_run *run);
/* --show-metrics[=REGEX] */
int cmd_show_metrics(const struct pf_config *cfg, const struct pmu_model *m, struct pf_error *err);

#endif
