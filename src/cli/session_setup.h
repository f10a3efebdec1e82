/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The session as the command line asks for it: shared by counting and
 * sampling (cli/session_setup.c). */
#ifndef PFMON_CLI_SESSION_SETUP_H
#define PFMON_CLI_SESSION_SETUP_H

#include <stddef.h>

#include "common/config.h"
#include "common/error.h"
#include "event/pmu_model.h"
#include "session/session.h"
#include "session/topology.h"

/* the run options of a session, from the command line */
struct session_opts session_opts_from_config(const struct pf_config *cfg);
/* the options of following, attaching and per-task results that do not fit together */
int check_task_options(const struct pf_config *cfg, struct pf_error *err);
/* open s on what the command line names: the command, running tasks or CPUs */
int session_open_target(struct session *s, const struct pf_config *cfg, struct pf_error *err);
/* an unprivileged user at perf_event_paranoid >= 2: events whose levels
 * were left to pfmon count at user level; note gets the one line saying so
 * (empty if none), for stderr once the counters are open */
void lower_default_levels(const struct pf_config *cfg, struct set_prog *sets, size_t n_sets, char *note,
			  size_t size);
/* perf stat --per-core, ...: the open system-wide session's CPUs grouped
 * as the command line asks; 1 with g filled (cpu_groups_release), 0 when
 * the counts are not grouped, -1 with err */
int session_cpu_groups(const struct session *s, const struct pf_config *cfg, struct cpu_groups *g,
		       struct pf_error *err);
/* one note on stderr when the session did not end with its command */
void session_note_end(const struct session *s, const struct pf_config *cfg);

#endif
