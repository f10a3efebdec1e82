/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef PFMON_SESSION_LEVELS_H
#define PFMON_SESSION_LEVELS_H

#include <stdbool.h>
#include <stddef.h>

#include "event/pmu_model.h"

/* were the levels of event ev of set 'set' chosen by the user (-u, -k,
 * --priv-levels, per event or for all)?  arg: the caller's */
typedef bool (*levels_chosen_fn)(const void *arg, size_t set, size_t ev);

/* an unprivileged user at perf_event_paranoid >= 2: events whose levels
 * were left to pfmon count at user level; note gets the one line saying so
 * (empty if none), for stderr once the counters are open */
void session_lower_default_levels(struct set_prog *sets, size_t n_sets, levels_chosen_fn chosen, const void *arg,
				  char *note, size_t size);

#endif
