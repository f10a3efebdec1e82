/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libdw loaded on first use (see sym_lib_dw.h). */
#include <config.h>

#define SYM_LIB_TABLE
#include "symbol/sym_lib_dw.h"

#include "common/dynlib.h"
#include "common/util.h"

struct sym_libdw sym_libdw;

#define SYM_LIB_ENTRY(f) DYNLIB_SYMBOL(struct sym_libdw, f, #f),
static const struct dynlib_symbol symbols[] = {
	SYM_LIBDW_FUNCTIONS(SYM_LIB_ENTRY)
};
#undef SYM_LIB_ENTRY

int sym_libdw_load(struct pf_error *err)
{
	static struct dynlib_once once;

	/* the soname pfmon was built against: its ABI */
	return dynlib_open_once(&once, "libdw", LIBDW_SONAME, symbols, ARRAY_SIZE(symbols), &sym_libdw, err);
}
