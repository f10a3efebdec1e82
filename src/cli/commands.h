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
#include "report/profile.h"
#include "sample/smpl_file.h"
#include "session/session.h"

struct metric_run;
/* counting; run: the metrics to print (requested, and the model's shadow metrics) */
int cmd_count(const struct pf_config *cfg, const struct pmu_model *m, const struct metric_run *run,
	      struct pf_error *err);
/* the counts' output: --outfile (--append) or stdout; closing it checks
 * for write errors (path: the file's name in the error, NULL for stdout) */
FILE *results_open(const struct pf_config *cfg, struct pf_error *err);
int results_close(FILE *out, const char *path, struct pf_error *err);
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
int cmd_record(const struct pf_config *cfg, const struct pmu_model *m, struct pf_error *err);
int cmd_report(const struct pf_config *cfg, struct pf_error *err);
/* --pmu=itanium2 --report=DUMP: an Itanium 2 PMD dump (pfmon-smpl(5)) */
int cmd_report_dump(const struct pf_config *cfg, struct pf_error *err);
struct smpl_reader;
struct sample_record;
/* the sample file of a dump (its first record, the Itanium 2 configuration,
 * already read): the same report as of the dump */
int cmd_report_dump_file(const struct pf_config *cfg, struct smpl_reader *rd,
			 const struct sample_record *first, struct pf_error *err);
struct ia64_report_opts;
/* --smpl-module and its options into the report's options; -1 with err
 * when they do not go together */
int smpl_module_options(const struct pf_config *cfg, struct ia64_report_opts *ro,
			struct pf_error *err);

/* --merge FILE|DIR...: the ranks' count results or sample files into one view */
int cmd_merge(struct pf_config *cfg, struct pf_error *err);
/* sample files: one profile of every rank, per-rank shares with --merge-ranks */
int merge_samples(const struct pf_config *cfg, const char *const *paths, size_t n, struct pf_error *err);

/* the run options of a session, from the command line */
struct session_opts session_opts_from_config(const struct pf_config *cfg);
/* the options of following, attaching and per-task results that do not fit together */
int check_task_options(const struct pf_config *cfg, struct pf_error *err);
/* open s on what the command line names: the command, or running tasks */
int session_open_target(struct session *s, const struct pf_config *cfg, struct pf_error *err);
/* an unprivileged user at perf_event_paranoid >= 2: events whose levels
 * were left to pfmon count at user level; note gets the one line saying so
 * (empty if none), for stderr once the counters are open */
void lower_default_levels(const struct pf_config *cfg, struct set_prog *sets, size_t n_sets, char *note,
			  size_t size);
/* one note on stderr when the session did not end with its command */
void session_note_end(const struct session *s, const struct pf_config *cfg);

/* shared by recording and reporting */
struct profile_opts profile_opts_from_config(const struct pf_config *cfg);
/* lost and throttled samples are reported loudly, on stderr */
void warn_lost(uint64_t lost, uint64_t throttled);
/* which kernel takes the samples: to the file (w may be NULL), then to p */
int record_kernel_identity(struct sample_out *w, struct profile *p, struct pf_error *err);
/* at the end: the kernel symbols that named samples, into the file */
int record_kernel_symbols(struct sample_out *w, struct profile *p, struct pf_error *err);

#endif
