/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sampling plan: periods, random periods, counted events (pfmon 3.x). */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "cli/layer_opts.h"
#include "optparse.h"
#include "session/plan.h"
#include "tap.h"

/* one set_prog per -e, its counters named after the events given */
static struct set_prog *progs_of(const struct pf_config *cfg)
{
	struct set_prog *sets = calloc(cfg->n_sets, sizeof(*sets));

	for (size_t s = 0; s < cfg->n_sets; s++) {
		sets[s].n_counters = cfg->sets[s].n_events;
		sets[s].counters = calloc(sets[s].n_counters, sizeof(*sets[s].counters));
		for (size_t i = 0; i < sets[s].n_counters; i++)
			sets[s].counters[i].name = cfg->sets[s].events[i];
	}
	return sets;
}

static void free_progs(struct set_prog *sets, size_t n)
{
	for (size_t s = 0; s < n; s++)
		free(sets[s].counters);
	free(sets);
}

/* build the plan of a command line; 0 or -1 as record_plan_build */
static int plan_of(struct record_plan *p, struct pf_error *err, const char *const *args)
{
	struct pf_config cfg;
	struct record_opts o;
	struct set_prog *sets;
	int rc;

	if (parse(&cfg, err, args[0], args[1], args[2], args[3], args[4], args[5], args[6], NULL))
		return -2;
	sets = progs_of(&cfg);
	config_record_opts(&cfg, &o); /* the CLI's translation, as pfmon does it */
	rc = record_plan_build(p, &o, sets, cfg.n_sets, 42, err);
	config_record_opts_release(&o);
	free_progs(sets, cfg.n_sets);
	pf_config_release(&cfg);
	return rc;
}

static void test_counting_events(void)
{
	static const char *const args[] = { "-e", "a,b,c", "--long-smpl-periods=,100,", "-e", "d,e", "x", NULL };
	struct record_plan p;
	struct pf_error err = { 0 };

	ok(plan_of(&p, &err, args) == 0, "plan of two sets %s", err.msg);
	ok(p.n_events == 5, "five events");
	ok(p.counting[0] && !p.counting[1] && p.counting[2], "set 0: the events without a period are counted");
	ok(p.reads[1].n == 2 && p.reads[1].idx[0] == 0 && p.reads[1].idx[1] == 2,
	   "the sampling event reads both, in command-line order");
	ok(!p.counting[3] && !p.counting[4] && p.reads[3].n == 0,
	   "set 1 has no period: every event sampled, nothing read");
	ok(p.first_sampling == 1, "the first sampling event owns the rings");
	ok(p.random[1].base == 100 && p.random[3].base == 0, "periods: 100, and none (frequency mode)");
	ok(!p.randomized, "nothing randomized");
	record_plan_release(&p);
}

static void test_random_periods(void)
{
	static const char *const args[] = { "-e", "a,b", "--long-smpl-periods=100000,5000",
					    "--smpl-periods-random=0xff:5", "x", NULL, NULL };
	struct record_plan p, q;
	struct pf_error err = { 0 };
	uint64_t lo = UINT64_MAX, hi = 0, seen_all_bits = 0;
	bool same = true;

	ok(plan_of(&p, &err, args) == 0 && plan_of(&q, &err, args) == 0, "plan with a random period %s",
	   err.msg);
	ok(p.randomized && p.random[0].mask == 0xff && p.random[1].mask == 0,
	   "only the first event is randomized");
	for (int i = 0; i < 10000; i++) {
		uint64_t v = period_random_next(&p.random[0]);

		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
		seen_all_bits |= v - 100000;
		same &= v == period_random_next(&q.random[0]);
	}
	ok(lo == 100000 && hi == 100255, "10000 periods from 100000 to 100255 (pfmon's example): %llu..%llu",
	   (unsigned long long)lo, (unsigned long long)hi);
	ok(seen_all_bits == 0xff, "every bit under the mask varies");
	ok(same, "the same seed gives the same periods");
	ok(period_random_next(&p.random[1]) == 5000, "a fixed period stays");
	record_plan_release(&p);
	record_plan_release(&q);
}

int main(void)
{
	test_counting_events();
	test_random_periods();
	return tap_done();
}
