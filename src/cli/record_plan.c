#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "record_plan.h"

uint64_t plan_event_period(const struct pf_set_config *s, size_t i)
{
	if (i < s->n_short_periods && s->short_periods[i])
		return s->short_periods[i];
	if (i < s->n_long_periods && s->long_periods[i])
		return s->long_periods[i];
	return 0;
}

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t period_random_next(struct period_random *r)
{
	return r->mask ? r->base + (splitmix64(&r->state) & r->mask) : r->base;
}

static const struct pf_period_random *event_random(const struct pf_set_config *s, size_t i)
{
	return i < s->n_periods_random && s->periods_random[i].mask ? &s->periods_random[i] : NULL;
}

/* Each entry of --smpl-periods-random needs an event, with a period. */
static int check_random(const struct pf_set_config *sc, const struct set_prog *set, struct pf_error *err)
{
	if (sc->n_periods_random > set->n_counters)
		return pf_error_set(err, PF_E_USAGE, "--smpl-periods-random has more entries than its event "
				    "set has events");
	for (size_t i = 0; i < set->n_counters; i++) {
		if (!event_random(sc, i) || plan_event_period(sc, i))
			continue;
		return pf_error_set(err, PF_E_CANNOT_SAMPLE, set->counters[i].name,
				    "--smpl-periods-random needs a period for it (--long-smpl-periods or "
				    "--short-smpl-periods)");
	}
	return 0;
}

static struct period_random random_state(const struct pf_set_config *s, size_t i, uint64_t default_seed)
{
	const struct pf_period_random *pr = event_random(s, i);
	struct period_random r = { .base = plan_event_period(s, i) };

	if (pr) {
		r.mask = pr->mask;
		r.state = pr->seeded ? pr->seed : default_seed + i;
	}
	return r;
}

/*
 * pfmon 3.x: in an event set where some events have a period, the others
 * are not sampled; their counts are recorded in each sample of the set's
 * sampling events (a perf group read: PERF_SAMPLE_READ).  In a set without
 * any period every event is sampled, at the frequency.
 */
static int split_set(struct record_plan *p, const struct pf_set_config *sc, const struct set_prog *set,
		     size_t first, struct pf_error *err)
{
	struct read_list list = { 0 };
	bool any_period = false;

	for (size_t i = 0; i < set->n_counters; i++)
		any_period |= plan_event_period(sc, i) != 0;
	for (size_t i = 0; any_period && i < set->n_counters; i++) {
		if (plan_event_period(sc, i))
			continue;
		if (list.n == SAMPLE_MAX_READ)
			return pf_error_set(err, PF_E_USAGE, "at most 16 events without a period can be "
					    "recorded in the samples of one event set");
		p->counting[first + i] = true;
		list.idx[list.n++] = (uint32_t)(first + i);
	}
	for (size_t i = 0; i < set->n_counters; i++)
		if (!p->counting[first + i])
			p->reads[first + i] = list;
	return 0;
}

int record_plan_build(struct record_plan *p, const struct pf_config *cfg, const struct set_prog *sets,
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
		if (check_random(&cfg->sets[s], &sets[s], err) || split_set(p, &cfg->sets[s], &sets[s], k, err))
			return -1;
		for (size_t i = 0; i < sets[s].n_counters; i++) {
			p->random[k + i] = random_state(&cfg->sets[s], i, seed);
			p->randomized |= p->random[k + i].mask != 0;
		}
	}
	while (p->first_sampling < p->n_events && p->counting[p->first_sampling])
		p->first_sampling++; /* a set with periods has a sampling event */
	return 0;
}

void record_plan_release(struct record_plan *p)
{
	free(p->random);
	free(p->counting);
	free(p->reads);
	memset(p, 0, sizeof(*p));
}
