/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: the results files of a job's ranks, read back and
 * merged by pfmon --merge (src/results/results.c, merge.c).  The input is
 * one or two files, separated by a form feed (0x0c): each is read as a
 * results file (text, CSV or JSON lines with their header); those read are
 * merged, with a metric over the software events, and printed in text,
 * CSV and JSON (with --merge-ranks) to /dev/null.
 */
#include <config.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/merge.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char defs[] = "metric PF_PER_MS\n\tformula page-faults / (task-clock / 1e6)\n\tshown-on page-faults\n"
			   "metric TWICE\n\tformula PF_PER_MS * 2 + duration_time * 0\n";

static void print_all(const struct merge_counts *m)
{
	static const enum pf_output_kind kinds[] = { PF_OUT_TEXT, PF_OUT_CSV, PF_OUT_JSON };
	FILE *out = fopen("/dev/null", "w");

	if (!out)
		return;
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		struct count_format_opts fo = COUNT_FORMAT_OPTS_INIT;

		fo.kind = kinds[k];
		fo.merge_ranks = true;
		merge_counts_print(out, m, &fo);
	}
	fclose(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	const char *ff = memchr(text, '\f', size);
	size_t len[2] = { ff ? (size_t)(ff - text) : size, ff ? size - (size_t)(ff - text) - 1 : 0 };
	const char *part[2] = { text, ff ? ff + 1 : NULL };
	struct results_file *files = calloc(3, sizeof(*files));
	struct metric_list l = { 0 };
	struct pf_error err = { .code = PF_E_OK };
	struct merge_counts m;
	size_t n = 0;

	for (size_t i = 0; i < 2; i++) {
		if (!part[i] || results_parse(part[i], len[i], i ? "rank.1" : "rank.0", &files[n], &err))
			continue;
		if (!files[n].n_values || files[n].rank >= files[n].size)
			abort(); /* what check_complete promises */
		n++;
	}
	if (!n) {
		free(files);
		return 0;
	}
	if (metric_list_add_text(&l, defs, "fuzz", &err) || metric_list_resolve(&l, &err))
		abort();
	memset(&m, 0, sizeof(m));
	if (!merge_counts_compute(&m, files, n, &l, &err))
		print_all(&m);
	merge_counts_release(&m);
	metric_list_release(&l);
	return 0;
}
