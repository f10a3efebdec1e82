/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: metric definitions as --metrics-file gives them
 * (src/results/metric.c, metric_expr.c).  The input is a whole file: it is
 * parsed, resolved (references, cycles), and each metric's events are
 * listed and its value computed from a fixed set of counts in two event
 * sets, shadows included, checking what the functions promise: events
 * listed once, never duration_time, values only for defined metrics.
 */
#include <config.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "results/metric.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct count_row rows[] = {
	{ .name = "task-clock", .set = 0, .state = COUNT_OK, .is_clock = true, .raw = 2000000, .enabled = 10,
	  .running = 10 },
	{ .name = "cycles", .set = 0, .state = COUNT_OK, .raw = 5000000, .enabled = 10, .running = 5 },
	{ .name = "instructions", .set = 1, .state = COUNT_OK, .raw = 7000000, .enabled = 10, .running = 5 },
	{ .name = "page-faults", .set = 1, .state = COUNT_NOT_COUNTED },
	{ .name = "cycles", .set = 1, .state = COUNT_OK, .raw = 4000000, .enabled = 10, .running = 5 },
	{ .name = "a", .set = 0, .state = COUNT_OK, .raw = 0, .enabled = 10, .running = 10 },
};

static void check_events(const struct metric_list *l, size_t i)
{
	char **names = NULL;
	size_t n = 0;

	metric_events(l, i, &names, &n);
	for (size_t k = 0; k < n; k++) {
		if (!strcmp(names[k], METRIC_DURATION))
			abort();
		for (size_t j = 0; j < k; j++)
			if (!strcmp(names[j], names[k]))
				abort();
	}
	for (size_t k = 0; k < n; k++)
		free(names[k]);
	free(names);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstring(data, size);
	struct metric_list l = { 0 };
	struct pf_error err = { .code = PF_E_OK };
	size_t n_rows = sizeof(rows) / sizeof(rows[0]);

	if (!metric_list_add_text(&l, text, "fuzz", &err) && !metric_list_resolve(&l, &err)) {
		size_t n_want = l.n < 64 ? l.n : 64;
		size_t *want = calloc(n_want + 1, sizeof(*want));
		struct metric_value *v = calloc(n_want + n_rows * l.n + 1, sizeof(*v));
		size_t n;

		for (size_t i = 0; i < n_want; i++) {
			want[i] = l.n - 1 - i; /* the last ones: they refer to the earlier */
			check_events(&l, want[i]);
			if (metric_list_find(&l, l.defs[want[i]].name) != (long)want[i])
				abort();
		}
		n = metric_evaluate(&l, want, n_want, true, rows, n_rows, 1000000000, v);
		for (size_t i = 0; i < n; i++)
			if (v[i].def >= l.n)
				abort();
		free(v);
		free(want);
	}
	metric_list_release(&l);
	free(text);
	return 0;
}
