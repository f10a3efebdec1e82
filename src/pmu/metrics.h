/*
 * The built-in metric definitions of each PMU model, as text in the syntax
 * of pfmon-metrics(5): one list per model, readable as it stands, parsed by
 * report/metric.c exactly as a --metrics-file.
 */
#ifndef PFMON_PMU_METRICS_H
#define PFMON_PMU_METRICS_H

/* the definitions of model (its --pmu name), or NULL when it has none */
const char *pmu_metric_definitions(const char *model);

extern const char pmu_host_metrics[];
extern const char pmu_itanium2_metrics[];

#endif
