/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sub-commands main() dispatches to.  Each returns the exit status, or
 * -1 with err filled; main() prints err and maps it to a status. */
#ifndef PFMON_CLI_COMMANDS_H
#define PFMON_CLI_COMMANDS_H

#include <stdio.h>

#include "cli/layer_opts.h"
#include "common/config.h"
#include "common/error.h"
#include "event/pmu_model.h"

struct metric_run;
/* counting; run: the metrics to print (requested, and the model's shadow metrics, parsed
 * here for the encoded events when metrics_prepare_deferred left them waiting) */
int cmd_count(const struct pf_config *cfg, const struct pmu_model *m, struct metric_run *run,
	      struct pf_error *err);
/* --metrics-from: the metrics of counts saved earlier */
int cmd_metrics_from(const struct pf_config *cfg, const struct pmu_model *m, struct pf_error *err);
int cmd_list_events(const struct pf_config *cfg, const struct pmu_model *m, struct pf_error *err);
int cmd_event_info(const struct pf_config *cfg, const struct pmu_model *m, struct pf_error *err);
/* -I: the host, every model (live here or dry run), modules, versions;
 * with m (--pmu=NAME), also m's own description */
int cmd_list_pmus(const struct pf_config *cfg, const struct pmu_model *m, struct pf_error *err);
/* a model's own describe request (--pmu-info): its description only */
int cmd_describe_pmu(const struct pf_config *cfg, const struct pmu_model *m, struct pf_error *err);

/* --check: validate every event set with the model, assign counters and
 * print the programming (one line per event, then the other registers). */
int cmd_check(const struct pf_config *cfg, const struct pmu_model *m, struct pf_error *err);
/* --dump-event-table: the model's event table as TSV */
int cmd_dump_event_table(const struct pf_config *cfg, const struct pmu_model *m, struct pf_error *err);

/* sampling: record to a file and report; report later from a file */
/* run: the shadow metrics of --smpl-print-counts' counts (those that wait
 * for the encoded events, metrics_prepare_deferred, are added here) */
int cmd_record(const struct pf_config *cfg, const struct pmu_model *m, struct metric_run *run,
	       struct pf_error *err);
int cmd_report(const struct pf_config *cfg, struct pf_error *err);

/* --merge FILE|DIR...: the ranks' count results or sample files into one view */
int cmd_merge(struct pf_config *cfg, struct pf_error *err);

#endif
