/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The built-in metric definitions of each PMU model, as text in the syntax
 * of pfmon-metrics(5): one list per model, readable as it stands, parsed by
 * results/metric.c exactly as a --metrics-file.
 */
#ifndef PFMON_PMU_METRICS_H
#define PFMON_PMU_METRICS_H

#include <stddef.h>

/* the definitions of model (its --pmu name), or NULL when it has none */
const char *pmu_metric_definitions(const char *model);

extern const char pmu_host_metrics[];

/* Host metrics of a PMU family libpfm4 knows: a list of definitions that
 * applies when one of its libpfm4 PMUs is detected (NULL-terminated). */
struct pmu_family_metrics {
	const char *const *pmus;
	const char *text;
};
extern const struct pmu_family_metrics pmu_family_metrics[]; /* ends with { NULL, NULL } */

/* the family lists of the PMUs libpfm4 detects here (LIBPFM_FORCE_PMU
 * forces one), concatenated and allocated; NULL when none applies.
 * pmu_name gets the libpfm4 PMU they belong to. */
char *pmu_host_family_metrics(char *pmu_name, size_t size);
extern const char pmu_itanium2_metrics[];

#endif
