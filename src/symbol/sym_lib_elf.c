/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libelf loaded on first use (see sym_lib_elf.h, sym_lib.h). */
#include <config.h>

#define SYM_LIB_TABLE
#include "symbol/sym_lib_elf.h"

#include "symbol/sym_lib.h"

SYM_LIB_LOADER(libelf, "libelf", LIBELF_SONAME, SYM_LIBELF_FUNCTIONS)
