/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libdwarf loaded on first use (see sym_lib_dwarf.h). */
#include <config.h>

#define SYM_LIB_TABLE
#include "symbol/sym_lib_dwarf.h"

#include "common/dynlib.h"
#include "common/util.h"

struct sym_libdwarf sym_libdwarf;

#define SYM_LIB_ENTRY(f) DYNLIB_SYMBOL(struct sym_libdwarf, f, #f),
static const struct dynlib_symbol symbols[] = {
	SYM_LIBDWARF_FUNCTIONS(SYM_LIB_ENTRY)
};
#undef SYM_LIB_ENTRY

int sym_libdwarf_load(struct pf_error *err)
{
	static struct dynlib_once once;

	/* the soname pfmon was built against: its ABI */
	return dynlib_open_once(&once, "libdwarf", LIBDWARF_SONAME, symbols, ARRAY_SIZE(symbols), &sym_libdwarf, err);
}
