/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What each event of a sampling session does, decided from the options
 * before anything is opened: its period (fixed or randomized), whether it
 * is sampled or only counted in other events' samples (pfmon 3.x), and
 * which events its samples read.  Pure: unit-tested without a kernel.
 */
#ifndef PFMON_TARGET_PLAN_H
#define PFMON_TARGET_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "event/pmu_model.h"
#include "sample/sample.h"
#include "session/record_opts.h"

/*
 * perf record -j's branch filter: a comma list of perf's names (u, k, hv,
 * any, any_call, any_ret, ind_call, ind_jmp, call, cond, abort_tx, in_tx,
 * no_tx, stack, no_flags, no_cycles, save_type, hw_index, priv) into the
 * kernel's branch_sample_type; a list of privilege levels alone samples
 * any branch at the event's levels, as perf's.  NULL and *mask, or why it is no filter.
 */
const char *branch_filter_parse(const char *list, uint64_t *mask);

/* --smpl-periods-random: period = base + (next number & mask) */
struct period_random {
	uint64_t base, mask; /* base 0: no period (frequency mode or counting) */
	uint64_t state;      /* splitmix64: any seed, 0 included, gives a full-period sequence */
};

/* the non-sampling events a sampling event records in each sample */
struct read_list {
	uint32_t n;
	uint32_t idx[SAMPLE_MAX_READ]; /* event indices */
};

struct record_plan {
	size_t n_events;              /* every event of every set, in file order */
	struct counter_prog **events; /* each event's programming, in file order */
	struct period_random *random; /* per event; mask 0 = fixed */
	bool *counting;               /* per event: not sampled, read in samples */
	struct read_list *reads;      /* per event */
	size_t first_sampling;        /* owns the ring buffer on each CPU */
	bool randomized;              /* any event's period is */
	size_t ring_pages;            /* data pages of each CPU's ring */
};

/* the period of event i of a set: short if given, else long (pfmon 3.x),
 * else the set's default (perf's -c); 0: none */
uint64_t plan_event_period(const struct record_set_opts *s, size_t i);

/* Decide for every event of sets[] (o->sets[s] holds the periods of
 * sets[s]); seed is for randomized events given no seed.  -1 with err set
 * for options that do not fit the events. */
int record_plan_build(struct record_plan *p, const struct record_opts *o, const struct set_prog *sets,
		      size_t n_sets, uint64_t seed, struct pf_error *err);
void record_plan_release(struct record_plan *p);

/*
 * Give every event the sampling fields of the plan: each sampling event
 * the same sample_type (one layout decodes all records), its period or
 * frequency and its wakeup; side-band records (mmaps, comms, forks) on
 * the first sampling event.  The target-dependent bits (disabled,
 * enable_on_exec) are the session's.
 */
void record_plan_apply(struct record_plan *p, const struct record_opts *o);

/* the next period of an event: base + random bits under the mask */
uint64_t period_random_next(struct period_random *r);

#endif
