/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench/intel_arch: every ordered pair of intel_arch events, each with
 * every modifier combination (levels u, k, u:k or the default; e; i; c=1),
 * encoded through the model interface on a modelled Core 2 Duo (2
 * general-purpose counters, 3 fixed).  Prints the pair count, accepted
 * and refused counts per rule, and the time.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/util.h"
#include "event/pmu_model.h"
#include "pmu/intel_arch.h"

#define CORE2_CPUID "0x07280202:0:0:0x503"
#define MAX_RULES 8

static const char *const plms[] = { "", ":u", ":k", ":u:k" };
static const char *const edges[] = { "", ":e" };
static const char *const invs[] = { "", ":i" };
static const char *const cmasks[] = { "", ":c=1" };

/* every event with every modifier combination */
static char **all_strings(size_t *n)
{
	size_t per = ARRAY_SIZE(plms) * ARRAY_SIZE(edges) * ARRAY_SIZE(invs) * ARRAY_SIZE(cmasks);
	char **v = xcalloc(IA_N_EVENTS * per, sizeof(*v));

	*n = 0;
	for (unsigned e = 0; ia_event_at(e); e++)
		for (size_t k = 0; k < per; k++) {
			char buf[96];

			snprintf(buf, sizeof(buf), "%s%s%s%s%s", ia_event_at(e)->name, plms[k % 4], edges[k / 4 % 2],
				 invs[k / 8 % 2], cmasks[k / 16 % 2]);
			v[(*n)++] = xstrdup(buf);
		}
	return v;
}

int main(void)
{
	const struct pmu_model *m = &pmu_intel_arch;
	void *opts = m->options_new(1);
	char *events[2];
	struct encode_opts o = { .live = true, .model_opts = opts };
	struct pf_error err;
	char rules[MAX_RULES][16] = { { 0 } };
	unsigned long per_rule[MAX_RULES] = { 0 }, accepted = 0, total = 0;
	size_t n, n_rules = 0;
	char **strings = all_strings(&n);
	struct timespec a, b;

	if (m->options[0].apply(opts, 0, CORE2_CPUID, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			struct set_prog prog;
			size_t r;

			events[0] = strings[i];
			events[1] = strings[j];
			total++;
			if (pmu_encode_events(m, &o, events, 2, &prog, &err) == 0) {
				accepted++;
				set_prog_release(&prog);
				continue;
			}
			for (r = 0; r < n_rules && strcmp(rules[r], err.rule); r++)
				;
			if (r == n_rules && n_rules < MAX_RULES)
				snprintf(rules[n_rules++], sizeof(rules[0]), "%s", err.rule[0] ? err.rule : "other");
			if (r < MAX_RULES)
				per_rule[r]++;
		}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("intel_arch: %lu pairs of %zu event strings, %lu accepted\n", total, n, accepted);
	for (size_t r = 0; r < n_rules; r++)
		printf("  refused %-10s %lu\n", rules[r], per_rule[r]);
	printf("time: %.3f s (%.2f us per pair)\n", (double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9,
	       ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / 1e3 / (double)total);
	m->options_free(opts);
	for (size_t i = 0; i < n; i++)
		free(strings[i]);
	free(strings);
	return 0;
}
