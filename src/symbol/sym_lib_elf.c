/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libelf loaded on first use (see sym_lib_elf.h). */
#include <config.h>

#define SYM_LIB_TABLE
#include "symbol/sym_lib_elf.h"

#include "common/dynlib.h"
#include "common/util.h"

struct sym_libelf sym_libelf;

#define SYM_LIB_ENTRY(f) DYNLIB_SYMBOL(struct sym_libelf, f, #f),
static const struct dynlib_symbol symbols[] = {
	SYM_LIBELF_FUNCTIONS(SYM_LIB_ENTRY)
};
#undef SYM_LIB_ENTRY

int sym_libelf_load(struct pf_error *err)
{
	static struct dynlib_once once;

	/* the soname pfmon was built against: its ABI */
	return dynlib_open_once(&once, "libelf", LIBELF_SONAME, symbols, ARRAY_SIZE(symbols), &sym_libelf, err);
}
