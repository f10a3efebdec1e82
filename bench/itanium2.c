/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench/itanium2: validate and assign every ordered pair of Itanium 2 table
 * entries (the whole table squared), timing the encoder.  Target: < 1 s.
 * Prints the pair count, accepted/rejected counts per rule and the time.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "common/config.h"
#include "pmu/itanium2.h"

#define MAX_RULES 32

struct tally {
	char rule[MAX_RULES][16];
	unsigned long count[MAX_RULES];
	size_t n;
};

static void count_rule(struct tally *t, const char *msg)
{
	const char *r = strstr(msg, "(rule ");
	char id[16] = "other";

	if (r)
		sscanf(r + 6, "%15[^)]", id);
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->rule[i], id)) {
			t->count[i]++;
			return;
		}
	if (t->n < MAX_RULES) {
		snprintf(t->rule[t->n], sizeof(t->rule[0]), "%s", id);
		t->count[t->n++] = 1;
	}
}

int main(void)
{
	size_t n = ita2_event_count();
	struct ita2_request req;
	struct ita2_result res;
	struct set_prog prog = { 0 };
	struct pf_error err;
	struct tally t = { .n = 0 };
	unsigned long okc = 0, total = 0;
	struct timespec a, b;

	memset(&req, 0, sizeof(req));
	req.n = 2;
	req.default_plm = req.plm[0] = req.plm[1] = PF_PLM_USER;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < n; j++) {
			req.ev[0] = (int)i;
			req.ev[1] = (int)j;
			total++;
			if (ita2_encode(&req, &res, &prog, &err) == 0)
				okc++;
			else
				count_rule(&t, err.msg);
			set_prog_release(&prog);
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("itanium2: %zu entries, %lu ordered pairs, %lu valid, %lu rejected\n", n, total, okc,
	       total - okc);
	for (size_t i = 0; i < t.n; i++)
		printf("  %-10s %lu\n", t.rule[i], t.count[i]);
	printf("time: %.3f s (%.2f us per pair)\n",
	       (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9,
	       ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / 1e3 / (double)total);
	return 0;
}
