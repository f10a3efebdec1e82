/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libdw loaded on first use (see sym_lib_dw.h, sym_lib.h). */
#include <config.h>

#define SYM_LIB_TABLE
#include "symbol/sym_lib_dw.h"

#include "symbol/sym_lib.h"

SYM_LIB_LOADER(libdw, "libdw", LIBDW_SONAME, SYM_LIBDW_FUNCTIONS)
