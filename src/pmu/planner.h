/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Event-set planning: split the events that metrics need into the fewest
 * event sets the PMU can measure, keeping each metric's events in one set
 * where they fit together (a ratio of counts from one set is not skewed by
 * multiplexing).  The model is the oracle: a set is valid iff encode_set
 * accepts it, so every rule of the model (counters, L1D/L2 sets, EAR and
 * BTB exclusions, qualifiers) is honoured without being restated here.
 *
 * Planning is order-independent: groups and events are put in a canonical
 * order first.  Up to PLAN_EXACT_UNITS units the packing is exact (a
 * depth-first search over every partition, pruned by the best so far);
 * above, first-fit decreasing.
 */
#ifndef PFMON_PMU_PLANNER_H
#define PFMON_PMU_PLANNER_H

#include <stdbool.h>
#include <stddef.h>

#include "event/pmu_model.h"

#define PLAN_EXACT_UNITS 10

/* the events one metric needs */
struct plan_group {
	char **events;
	size_t n;
};

struct plan_set {
	char **events; /* sorted, distinct */
	size_t n;
};

struct plan {
	struct plan_set *sets;
	size_t n_sets;
	/* per input group: its set, or -1 when its events never fit in one set */
	int *group_set;
	bool ungrouped; /* plan_ungroup: an event a set */
};

/* Does this list of events encode as one set (o's global options apply)? */
bool plan_set_fits(const struct pmu_model *m, const struct encode_opts *o, char *const *events, size_t n);

/* 0, or -1 with err (an event that fits in no set at all, named). */
int plan_sets(const struct pmu_model *m, const struct encode_opts *o, const struct plan_group *groups,
	      size_t n_groups, struct plan *out, struct pf_error *err);
void plan_release(struct plan *p);
/* perf stat --metric-no-group: each event of the plan a set of its own
 * (the kernel multiplexes them one by one), none of the n_groups groups in
 * one set (group_set -1) */
void plan_ungroup(struct plan *p, size_t n_groups);
/* n groups whose event names were allocated (metric_events()), and g */
void plan_groups_free(struct plan_group *g, size_t n);

#endif
