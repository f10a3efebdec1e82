/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: saved counts read back for --metrics-from
 * (src/results/counts_read.c).  The input is a whole file: pfmon text,
 * perf stat CSV or JSON lines; it is read with and without the EU
 * grouping, and its blocks are checked for what the reader promises
 * (names present, blocks non-empty).
 */
#include <config.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "results/counts_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool no_metric(const char *name, void *arg)
{
	return strcmp(name, "IPC") == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	for (int eu = 0; eu < 2; eu++) {
		struct saved_read_opts o = { .csv_sep = eu ? ";" : NULL, .eu_counts = eu, .is_metric = no_metric };
		struct saved_counts sc;
		struct pf_error err = { .code = PF_E_OK };

		if (saved_counts_parse((const char *)data, size, "fuzz", &o, &sc, &err))
			continue;
		for (size_t b = 0; b < sc.n_blocks; b++) {
			if (!sc.blocks[b].n_rows)
				abort();
			for (size_t i = 0; i < sc.blocks[b].n_rows; i++)
				if (!sc.blocks[b].rows[i].name[0] || !sc.blocks[b].rows[i].prescaled)
					abort();
		}
		saved_counts_release(&sc);
	}
	return 0;
}
