/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A shared library opened on first use (dlopen): libpfm4 and capstone carry
 * 41,000 and 77,000 relocations, which a linked pfmon paid at every start,
 * counting task-clock or not.  A caller keeps a table of function pointers
 * typed with the library's own prototypes (__typeof__), so a call through
 * it is checked as a direct call would be, and names each entry here.
 */
#ifndef PFMON_COMMON_DYNLIB_H
#define PFMON_COMMON_DYNLIB_H

#include <stddef.h>

#include "error.h"

/* an entry of a caller's table: the symbol and the entry's offset */
struct dynlib_symbol {
	const char *name;
	size_t offset;
};
#define DYNLIB_SYMBOL(type, field, symbol) { symbol, offsetof(type, field) }

/*
 * Open soname (the ABI pfmon was built against) and fill table's entries.
 * 0, or -1 with err (when not NULL) saying which library (what, e.g.
 * "libpfm4") could not be loaded and why.
 */
int dynlib_open(const char *what, const char *soname, const struct dynlib_symbol *syms, size_t n, void *table,
		struct pf_error *err);

/* A library opened at most once: the first call tries, every later one
 * answers the same (the error too) without trying again. */
struct dynlib_once {
	int state; /* 0: not tried, 1: loaded, -1: cannot be */
	struct pf_error failure;
};

/* dynlib_open() through once: 0, or -1 with the first try's error in err
 * (when not NULL) */
int dynlib_open_once(struct dynlib_once *once, const char *what, const char *soname, const struct dynlib_symbol *syms,
		     size_t n, void *table, struct pf_error *err);

#endif
