/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench/metrics_plan: the event-set planner on the Itanium 2 model.
 *   1. every derived monitor of the manual at once (pfmon --pmu=itanium2
 *      --check -M all plans the same): target < 100 ms;
 *   2. every ordered pair of metrics (a, b), a != b, each planned alone:
 *      target < 10 s for the whole sweep.
 * Prints the number of metrics, sets and pairs, the largest pair plan, and
 * the times (the best of three runs of step 1).  Usage: bench/metrics_plan
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "common/util.h"
#include "event/pmu_model.h"
#include "pmu/metrics.h"
#include "pmu/planner.h"
#include "results/metric.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void fail(const char *what, const struct pf_error *e)
{
	fprintf(stderr, "bench/metrics_plan: %s: %s\n", what, e->msg);
	exit(1);
}

/* the events each metric reads, one planner group per metric */
static struct plan_group *metric_groups(const struct metric_list *l)
{
	struct plan_group *g = xcalloc(l->n + 1, sizeof(*g));

	for (size_t i = 0; i < l->n; i++)
		metric_events(l, i, &g[i].events, &g[i].n);
	return g;
}

static size_t plan_count(const struct pmu_model *m, const struct encode_opts *o, const struct plan_group *g,
			 size_t n)
{
	struct plan p;
	struct pf_error e;
	size_t sets;

	if (plan_sets(m, o, g, n, &p, &e))
		fail("plan", &e);
	sets = p.n_sets;
	plan_release(&p);
	return sets;
}

int main(void)
{
	const struct pmu_model *m = pmu_model_find("itanium2");
	struct metric_list l = { 0 };
	struct encode_opts o = { .live = true };
	struct pf_error e;
	struct plan_group *g, pair[2];
	double best = 1e9, t0;
	size_t all_sets = 0, pairs = 0, max_pair = 0;

	if (!m)
		return fprintf(stderr, "bench/metrics_plan: no itanium2 model\n"), 1;
	if (metric_list_add_text(&l, pmu_metric_definitions("itanium2"), "built-in itanium2 metrics", &e) ||
	    metric_list_resolve(&l, &e))
		fail("definitions", &e);
	g = metric_groups(&l);
	for (int run = 0; run < 3; run++) {
		t0 = now_s();
		all_sets = plan_count(m, &o, g, l.n);
		if (now_s() - t0 < best)
			best = now_s() - t0;
	}
	printf("all %zu Itanium 2 metrics at once: %zu event sets in %.1f ms (target < 100 ms)\n", l.n, all_sets,
	       best * 1e3);
	t0 = now_s();
	for (size_t a = 0; a < l.n; a++)
		for (size_t b = 0; b < l.n; b++) {
			size_t sets;

			if (a == b)
				continue;
			pair[0] = g[a];
			pair[1] = g[b];
			sets = plan_count(m, &o, pair, 2);
			if (sets > max_pair)
				max_pair = sets;
			pairs++;
		}
	printf("every ordered pair: %zu pairs (at most %zu sets each) in %.2f s (target < 10 s)\n", pairs, max_pair,
	       now_s() - t0);
	plan_groups_free(g, l.n);
	metric_list_release(&l);
	return 0;
}
