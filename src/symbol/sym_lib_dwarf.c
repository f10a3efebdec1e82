/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libdwarf loaded on first use (see sym_lib_dwarf.h, sym_lib.h). */
#include <config.h>

#define SYM_LIB_TABLE
#include "symbol/sym_lib_dwarf.h"

#include "symbol/sym_lib.h"

SYM_LIB_LOADER(libdwarf, "libdwarf", LIBDWARF_SONAME, SYM_LIBDWARF_FUNCTIONS)
