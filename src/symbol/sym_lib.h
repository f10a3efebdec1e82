/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one loader of sym_lib_elf.h, sym_lib_dw.h and sym_lib_dwarf.h: each
 * sym_lib_*.c is a single SYM_LIB_LOADER() line.  They stay three files
 * because libdw's and libdwarf's headers declare functions of the same
 * names with different prototypes: a table's entries take their types
 * from its own library's header, so each table is compiled alone.
 */
#ifndef PFMON_SYMBOL_SYM_LIB_H
#define PFMON_SYMBOL_SYM_LIB_H

#include "common/dynlib.h"
#include "common/util.h"

#define SYM_LIB_SYMBOL(f) DYNLIB_SYMBOL(sym_lib_table, f, #f),

/*
 * Defines struct sym_LIB sym_LIB (the table) and sym_LIB_load(err), which
 * opens soname (the ABI pfmon was built against) once and fills the table
 * with FUNCTIONS (the header's X-macro list); what names the library in
 * errors.
 */
#define SYM_LIB_LOADER(lib, what, soname, FUNCTIONS)                                            \
	typedef struct sym_##lib sym_lib_table;                                                  \
	struct sym_##lib sym_##lib;                                                              \
	static const struct dynlib_symbol sym_lib_symbols[] = { FUNCTIONS(SYM_LIB_SYMBOL) };     \
	int sym_##lib##_load(struct pf_error *err)                                               \
	{                                                                                        \
		static struct dynlib_once once;                                                  \
                                                                                                 \
		return dynlib_open_once(&once, what, soname, sym_lib_symbols,                    \
					ARRAY_SIZE(sym_lib_symbols), &sym_##lib, err);           \
	}

#endif
