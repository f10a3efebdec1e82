/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Annotated functions (--annotate), perf annotate's output in spirit: the
 * hottest functions' source lines with their samples, and under each hot
 * line its instructions with theirs.  Samples come as the symbol layer's
 * answers (one per distinct address); the instructions are the symbol
 * layer's disassembly of the function (capstone, or IA-64 bundles), each
 * with its DWARF line; the source is read from the line table's path, or
 * under --source-root.
 */
#ifndef PFMON_REPORT_ANNOTATE_H
#define PFMON_REPORT_ANNOTATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "symbol/symbol.h"

/* the hottest functions annotated when none is named and no --smpl-show-top */
#define ANNOTATE_DEFAULT_TOP 3

struct annotate_opts {
	const char *function;    /* NULL: the hottest; else every function of that name */
	uint64_t top;            /* how many of the hottest (0: ANNOTATE_DEFAULT_TOP) */
	const char *source_root; /* NULL: the line table's paths only */
	bool json;
};

struct annotate;

/* n_events sampled events; r names the samples and is the caller's */
struct annotate *annotate_new(const struct annotate_opts *o, struct sym_resolver *r, size_t n_events);
void annotate_free(struct annotate *a);
/* count samples of event ev at an address the resolver answered (res
 * NULL: a sample no function can hold, a kernel one: counted in the
 * event's total only) */
void annotate_add(struct annotate *a, size_t ev, const struct sym_result *res, uint64_t count);
/* Print every event's annotated functions (names[ev]; NULL skips an
 * event); notes go to err (JSON) or into the text.  -1 when a function
 * was named and has no samples. */
int annotate_print(struct annotate *a, const char *const *names, FILE *out, FILE *err, struct pf_error *e);

#endif
