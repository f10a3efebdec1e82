/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/hash.h"
#include "common/util.h"
#include "plan.h"

uint64_t plan_event_period(const struct record_set_opts *s, size_t i)
{
	if (i < s->n_short_periods && s->short_periods[i])
		return s->short_periods[i];
	if (i < s->n_long_periods && s->long_periods[i])
		return s->long_periods[i];
	return s->default_period;
}

uint64_t period_random_next(struct period_random *r)
{
	return r->mask ? r->base + (splitmix64_next(&r->state) & r->mask) : r->base;
}

static const struct pf_period_random *event_random(const struct record_set_opts *s, size_t i)
{
	return i < s->n_periods_random && s->periods_random[i].mask ? &s->periods_random[i] : NULL;
}

/* event i's own period term (perf's PMU/...,period=N/) wins over the set's
 * period options, as perf's terms win over -c */
static uint64_t event_period(const struct record_set_opts *s, const struct set_prog *set, size_t i)
{
	const struct perf_event_attr *a = &set->counters[i].attr;

	if (a->freq)
		return 0;
	return a->sample_period ? a->sample_period : plan_event_period(s, i);
}

static struct period_random random_state(const struct record_set_opts *s, const struct set_prog *set, size_t i,
					 uint64_t default_seed)
{
	const struct pf_period_random *pr = event_random(s, i);
	struct period_random r = { .base = event_period(s, set, i) };

	if (pr) {
		r.mask = pr->mask;
		r.state = pr->seeded ? pr->seed : default_seed + i;
	}
	return r;
}

/* the events of a set that have no period, for messages */
static size_t unperiodic(const struct record_set_opts *sc, const struct set_prog *set)
{
	size_t k = 0;

	for (size_t i = 0; i < set->n_counters; i++)
		k += event_period(sc, set, i) == 0;
	return k;
}

/*
 * pfmon 3.x: in an event set where some events have a period, the others
 * are not sampled; their counts are recorded in each sample of the set's
 * sampling events (a perf group read: PERF_SAMPLE_READ).  In a set without
 * any period every event is sampled, at the frequency.
 */
static int split_set(struct record_plan *p, const struct record_set_opts *sc, const struct set_prog *set,
		     size_t first, struct pf_error *err)
{
	struct read_list list = { 0 };
	bool any_period = false;

	for (size_t i = 0; i < set->n_counters; i++)
		any_period |= event_period(sc, set, i) != 0 || set->counters[i].attr.freq;
	for (size_t i = 0; any_period && i < set->n_counters; i++) {
		if (event_period(sc, set, i) || set->counters[i].attr.freq)
			continue;
		if (list.n == SAMPLE_MAX_READ)
			return pf_error_set(err, PF_E_TOO_MANY, (int)unperiodic(sc, set),
					    "events without a period in one event set", SAMPLE_MAX_READ,
					    "its samples can record");
		p->counting[first + i] = true;
		list.idx[list.n++] = (uint32_t)(first + i);
	}
	for (size_t i = 0; i < set->n_counters; i++)
		if (!p->counting[first + i])
			p->reads[first + i] = list;
	return 0;
}

/* counted by the kernel's software-event path, which samples every event
 * when a fixed period comes with PERF_SAMPLE_PERIOD */
static bool on_swevent_path(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_TRACEPOINT || a->type == PERF_TYPE_BREAKPOINT ||
	       (a->type == PERF_TYPE_SOFTWARE && a->config != PERF_COUNT_SW_CPU_CLOCK &&
		a->config != PERF_COUNT_SW_TASK_CLOCK);
}

/*
 * One ring layout serves every event, so a set sampled at a frequency
 * records the period for all: a fixed period of a software event beside
 * it would sample every event (wanted_sample_type).  Refused, never a
 * silently wrong number of samples.
 */
static int check_period_mix(const struct record_plan *p, struct pf_error *err)
{
	const char *fixed_sw = NULL;
	bool freq = false;

	for (size_t k = 0; k < p->n_events; k++) {
		if (p->counting[k])
			continue;
		freq |= !p->random[k].base;
		if (p->random[k].base && on_swevent_path(&p->events[k]->attr) && !fixed_sw)
			fixed_sw = p->events[k]->name;
	}
	if (!freq || !fixed_sw)
		return 0;
	return pf_error_set(err, PF_E_CANNOT_SAMPLE, fixed_sw,
			    "a software event's fixed period cannot be recorded beside an event set sampled at a "
			    "frequency: give every set a period");
}

int record_plan_build(struct record_plan *p, const struct record_opts *o, const struct set_prog *sets,
		      size_t n_sets, uint64_t seed, struct pf_error *err)
{
	size_t k = 0;

	memset(p, 0, sizeof(*p));
	for (size_t s = 0; s < n_sets; s++)
		p->n_events += sets[s].n_counters;
	p->random = xcalloc(p->n_events + 1, sizeof(*p->random));
	p->counting = xcalloc(p->n_events + 1, sizeof(*p->counting));
	p->reads = xcalloc(p->n_events + 1, sizeof(*p->reads));
	for (size_t s = 0; s < n_sets; k += sets[s++].n_counters) {
		/* options_validate() saw that each randomized event has a period */
		if (split_set(p, &o->sets[s], &sets[s], k, err))
			return -1;
		for (size_t i = 0; i < sets[s].n_counters; i++) {
			p->random[k + i] = random_state(&o->sets[s], &sets[s], i, seed);
			p->randomized |= p->random[k + i].mask != 0;
		}
	}
	p->events = xcalloc(p->n_events + 1, sizeof(*p->events));
	for (size_t s = 0, e = 0; s < n_sets; s++)
		for (size_t i = 0; i < sets[s].n_counters; i++)
			p->events[e++] = &sets[s].counters[i];
	while (p->first_sampling < p->n_events && p->counting[p->first_sampling])
		p->first_sampling++; /* a set with periods has a sampling event */
	return check_period_mix(p, err);
}

void record_plan_release(struct record_plan *p)
{
	free(p->random);
	free(p->counting);
	free(p->reads);
	free(p->events);
	memset(p, 0, sizeof(*p));
}

#define DEFAULT_FREQ 1000 /* Hz, when no period or frequency is given */

/*
 * The period is recorded only in frequency mode, where the kernel alone
 * knows it; a fixed or randomized period is pfmon's own and the drain puts
 * it in each sample.  Asking for it with a fixed period would be wrong, not
 * just wasteful: the kernel's software-event path (page faults, context
 * switches, tracepoints, breakpoints) then samples every event, each with
 * a period of 1, whatever the period asked for (perf record -c does not ask
 * for it either).
 */
static uint64_t wanted_sample_type(const struct record_opts *o, const struct counter_prog *c,
				   const struct period_random *r)
{
	uint64_t st = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		      PERF_SAMPLE_CPU;

	if (!r->base)
		st |= PERF_SAMPLE_PERIOD;

	if (o->data_addr || c->attr.type == PERF_TYPE_BREAKPOINT)
		st |= PERF_SAMPLE_ADDR;
	if (o->weight)
		st |= PERF_SAMPLE_WEIGHT;
	if (o->data_src)
		st |= PERF_SAMPLE_DATA_SRC;
	if (o->branch_stack || o->callchain_lbr)
		st |= PERF_SAMPLE_BRANCH_STACK;
	if (o->callchain)
		st |= PERF_SAMPLE_CALLCHAIN;
	if (o->callchain_dwarf)
		st |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	return st;
}

static const struct {
	const char *name;
	uint64_t bit;
} branch_filters[] = {
	{ "u", PERF_SAMPLE_BRANCH_USER },
	{ "k", PERF_SAMPLE_BRANCH_KERNEL },
	{ "hv", PERF_SAMPLE_BRANCH_HV },
	{ "any", PERF_SAMPLE_BRANCH_ANY },
	{ "any_call", PERF_SAMPLE_BRANCH_ANY_CALL },
	{ "any_ret", PERF_SAMPLE_BRANCH_ANY_RETURN },
	{ "ind_call", PERF_SAMPLE_BRANCH_IND_CALL },
	{ "abort_tx", PERF_SAMPLE_BRANCH_ABORT_TX },
	{ "in_tx", PERF_SAMPLE_BRANCH_IN_TX },
	{ "no_tx", PERF_SAMPLE_BRANCH_NO_TX },
	{ "cond", PERF_SAMPLE_BRANCH_COND },
	{ "stack", PERF_SAMPLE_BRANCH_CALL_STACK },
	{ "ind_jmp", PERF_SAMPLE_BRANCH_IND_JUMP },
	{ "call", PERF_SAMPLE_BRANCH_CALL },
	{ "no_flags", PERF_SAMPLE_BRANCH_NO_FLAGS },
	{ "no_cycles", PERF_SAMPLE_BRANCH_NO_CYCLES },
	{ "save_type", PERF_SAMPLE_BRANCH_TYPE_SAVE },
	{ "hw_index", PERF_SAMPLE_BRANCH_HW_INDEX },
	{ "priv", PERF_SAMPLE_BRANCH_PRIV_SAVE },
};

/* perf 6.1's --call-graph lbr: the user call stack, without the flags and
 * cycles a call stack does not need, and the LBR's index of its newest
 * entry (for --stitch-lbr) */
#define PERF_SAMPLE_BRANCH_LBR_CALL_STACK                                                            \
	(PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK | PERF_SAMPLE_BRANCH_NO_FLAGS |     \
	 PERF_SAMPLE_BRANCH_NO_CYCLES | PERF_SAMPLE_BRANCH_HW_INDEX)

#define BRANCH_PLM (PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_HV)

const char *branch_filter_parse(const char *list, uint64_t *mask)
{
	size_t n;
	char **names = str_split(list, ',', &n);
	const char *why = NULL;

	*mask = 0;
	for (size_t i = 0; i < n && !why; i++) {
		size_t k = 0;

		while (k < ARRAY_SIZE(branch_filters) && strcmp(names[i], branch_filters[k].name))
			k++;
		if (k == ARRAY_SIZE(branch_filters))
			why = "perf's branch filters are u, k, hv, any, any_call, any_ret, ind_call, ind_jmp, call, "
			      "cond, abort_tx, in_tx, no_tx, stack, no_flags, no_cycles, save_type, hw_index, priv";
		else
			*mask |= branch_filters[k].bit;
	}
	str_vec_free(names);
	if (!why && !(*mask & ~(uint64_t)BRANCH_PLM)) /* perf's: levels alone are any branch, at the event's levels */
		*mask = PERF_SAMPLE_BRANCH_ANY;
	return why;
}

/*
 * Pages per CPU ring: at least perf record's default of 512 KiB (a
 * 128-thread program sampled at 10 kHz overflows anything much smaller
 * between two drains), room for --smpl-entries samples (64 bytes each at
 * most with the default fields) and, in frequency mode, for a quarter of a
 * second of samples, so a drain that is late by a few scheduler ticks does
 * not lose any (50 kHz needs 12,500).
 */
static size_t ring_pages(const struct record_opts *o)
{
	uint64_t entries = o->smpl_entries, per_quarter = (o->smpl_freq ? o->smpl_freq : DEFAULT_FREQ) / 4;
	size_t bytes, pages = 1, page = (size_t)sysconf(_SC_PAGESIZE);
	/* a DWARF call graph's sample holds its stack copy and registers */
	size_t per_sample = 64 + (o->callchain_dwarf ? o->stack_dump_size + 8 * SAMPLE_MAX_REGS : 0);

	if (o->mmap_pages) /* perf record -m */
		return o->mmap_pages;
	/* a ring read once, at the end, holds the entries asked for: what is
	 * sampled once it is full is dropped (pfmon 3.x's saturation) */
	if (per_quarter > entries && !o->saturate)
		entries = per_quarter;
	bytes = (size_t)entries * per_sample;
	if (bytes < 512 * 1024 && !o->saturate)
		bytes = 512 * 1024;
	while (pages * page < bytes && pages < RING_PAGES_MAX)
		pages *= 2;
	return pages;
}

/* A non-sampling event: a member of its sampling events' groups, which
 * turn it on and off with them. */
static void setup_counting_event(const struct record_opts *o, struct counter_prog *c)
{
	c->attr.inherit = o->inherit;
}

static void setup_sampling_event(const struct record_plan *p, const struct record_opts *o, size_t k,
				 uint64_t st, size_t ring_bytes)
{
	struct perf_event_attr *a = &p->events[k]->attr;
	struct period_random *r = &p->random[k];

	a->inherit = o->inherit;
	a->sample_type = st;
	if (st & PERF_SAMPLE_READ)
		a->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	a->sample_id_all = 1;
	if (p->randomized) {
		a->use_clockid = 1;
		a->clockid = CLOCK_MONOTONIC;
	}
	if (r->base) {
		a->sample_period = period_random_next(r);
	} else if (!a->freq || !a->sample_freq) { /* else the event's own freq term */
		a->freq = 1;
		a->sample_freq = o->smpl_freq ? o->smpl_freq : DEFAULT_FREQ;
	}
	if (o->branch_stack) /* perf's -j/-b filter, else any branch at user level */
		a->branch_sample_type = o->branch_filter ? o->branch_filter
							 : PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
	/* perf record --call-graph lbr's attr (perf 6.1, evsel.c); an event
	 * without user level has frame pointers' kernel chains, as perf's */
	if (o->callchain_lbr && !a->exclude_user)
		a->branch_sample_type = PERF_SAMPLE_BRANCH_LBR_CALL_STACK;
	else if (o->callchain_lbr)
		a->sample_type &= ~(uint64_t)PERF_SAMPLE_BRANCH_STACK;
	if (st & PERF_SAMPLE_STACK_USER) {
		/* user frames come from unwinding the stack copy; the kernel's
		 * call chain gives the kernel frames only (as perf record) */
		a->sample_regs_user = SAMPLE_USER_REGS_X86_64;
		a->sample_stack_user = o->stack_dump_size;
		a->exclude_callchain_user = 1;
	}
	if (r->mask) {
		a->wakeup_events = 1; /* pfmon draws the next period after each sample */
	} else {
		a->watermark = 1;
		a->wakeup_watermark = (uint32_t)(ring_bytes / 4);
	}
	if (k == p->first_sampling) {
		/* the binaries' mappings, exec names and forks, once; data
		 * mappings too when data addresses are to be symbolized, and
		 * with user stacks (as perf record): a perf.data reader's
		 * unwinder reads .eh_frame_hdr through the read-only mapping
		 * that holds it */
		a->mmap = a->mmap2 = a->comm = a->comm_exec = a->task = 1;
		a->mmap_data = !!(st & (PERF_SAMPLE_ADDR | PERF_SAMPLE_STACK_USER));
	}
}

void record_plan_apply(struct record_plan *p, const struct record_opts *o)
{
	uint64_t st = 0;
	size_t ring_bytes;

	p->ring_pages = ring_pages(o);
	ring_bytes = p->ring_pages * (size_t)sysconf(_SC_PAGESIZE);
	for (size_t k = 0; k < p->n_events; k++)
		if (!p->counting[k])
			st |= wanted_sample_type(o, p->events[k], &p->random[k]) |
			      (p->reads[k].n ? PERF_SAMPLE_READ : 0);
	for (size_t k = 0; k < p->n_events; k++)
		if (p->counting[k])
			setup_counting_event(o, p->events[k]);
		else
			setup_sampling_event(p, o, k, st, ring_bytes);
}
