/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The false-sharing view (--smpl-module=c2c; what perf c2c report gives):
 * memory samples grouped by the 64-byte cache line their data address is
 * in, per process.  A line is shown when loads found it modified in
 * another core's cache (HITM, from the data source), or when two threads
 * or more touched it and one of them wrote it or did what its sample does
 * not say (a page fault's access: no data source).  For each line: the
 * fields of the struct(s) sharing it (the symbol layer's typeoff), and
 * each (offset, thread, instruction) touching it with its counts and
 * source line.  Text or JSON.
 */
#ifndef PFMON_REPORT_C2C_H
#define PFMON_REPORT_C2C_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sample/sample.h"
#include "symbol/symbol.h"

/* the line size the view groups by: x86's, and most Arm cores' */
#define C2C_LINE_SIZE 64u

struct c2c_view;

/* names come from res (the caller's; it must see the records' mappings);
 * top: the lines shown, 0 all */
struct c2c_view *c2c_new(struct sym_resolver *res, bool json, uint64_t top);
void c2c_free(struct c2c_view *v);
/* a thread's name (COMM record): the rows of its later samples show it */
void c2c_comm(struct c2c_view *v, uint32_t tid, const char *comm);
void c2c_sample(struct c2c_view *v, const struct sample *s);
void c2c_print(struct c2c_view *v, FILE *out);

#endif
