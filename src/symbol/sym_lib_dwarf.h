/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libdwarf, loaded on first use (common/dynlib.h) for DWARF line tables
 * (reports by line, --annotate): a run that needs none (a count names no
 * address) does not pay its loading and relocations at start.  Include it
 * after <libdwarf.h>: each function of the library pfmon calls is a macro
 * naming its entry in the table, so callers keep the library's own names and
 * prototypes; call sym_libdwarf_load() before the first (where a handle is
 * made).
 */
#ifndef PFMON_SYMBOL_SYM_LIB_DWARF_H
#define PFMON_SYMBOL_SYM_LIB_DWARF_H

#include <libdwarf.h>

#include "common/error.h"

#define SYM_LIBDWARF_FUNCTIONS(X) \
	X(dwarf_attr) \
	X(dwarf_dealloc) \
	X(dwarf_dealloc_attribute) \
	X(dwarf_dealloc_die) \
	X(dwarf_dealloc_error) \
	X(dwarf_dealloc_rnglists_head) \
	X(dwarf_dieoffset) \
	X(dwarf_formudata) \
	X(dwarf_get_arange_info_b) \
	X(dwarf_get_aranges) \
	X(dwarf_get_ranges_b) \
	X(dwarf_get_rnglists_entry_fields_a) \
	X(dwarf_global_formref) \
	X(dwarf_highpc_b) \
	X(dwarf_line_srcfileno) \
	X(dwarf_lineaddr) \
	X(dwarf_lineendsequence) \
	X(dwarf_lineno) \
	X(dwarf_linesrc) \
	X(dwarf_lowpc) \
	X(dwarf_next_cu_header_d) \
	X(dwarf_object_finish) \
	X(dwarf_object_init_b) \
	X(dwarf_offdie_b) \
	X(dwarf_ranges_dealloc) \
	X(dwarf_rnglists_get_rle_head) \
	X(dwarf_set_de_alloc_flag) \
	X(dwarf_siblingof_b) \
	X(dwarf_srclines_b) \
	X(dwarf_srclines_dealloc_b) \
	X(dwarf_srclines_from_linecontext) \
	X(dwarf_whatform)

struct sym_libdwarf {
#define SYM_LIB_ENTRY(f) __typeof__(f) *f;
	SYM_LIBDWARF_FUNCTIONS(SYM_LIB_ENTRY)
#undef SYM_LIB_ENTRY
};

extern struct sym_libdwarf sym_libdwarf;

/* 0 once libdwarf is loaded (the first call loads it), or -1 with err naming
 * the library and why it cannot be loaded (every later call says the same) */
int sym_libdwarf_load(struct pf_error *err);

#ifndef SYM_LIB_TABLE /* the loader names the functions themselves */
#define dwarf_attr (sym_libdwarf.dwarf_attr)
#define dwarf_dealloc (sym_libdwarf.dwarf_dealloc)
#define dwarf_dealloc_attribute (sym_libdwarf.dwarf_dealloc_attribute)
#define dwarf_dealloc_die (sym_libdwarf.dwarf_dealloc_die)
#define dwarf_dealloc_error (sym_libdwarf.dwarf_dealloc_error)
#define dwarf_dealloc_rnglists_head (sym_libdwarf.dwarf_dealloc_rnglists_head)
#define dwarf_dieoffset (sym_libdwarf.dwarf_dieoffset)
#define dwarf_formudata (sym_libdwarf.dwarf_formudata)
#define dwarf_get_arange_info_b (sym_libdwarf.dwarf_get_arange_info_b)
#define dwarf_get_aranges (sym_libdwarf.dwarf_get_aranges)
#define dwarf_get_ranges_b (sym_libdwarf.dwarf_get_ranges_b)
#define dwarf_get_rnglists_entry_fields_a (sym_libdwarf.dwarf_get_rnglists_entry_fields_a)
#define dwarf_global_formref (sym_libdwarf.dwarf_global_formref)
#define dwarf_highpc_b (sym_libdwarf.dwarf_highpc_b)
#define dwarf_line_srcfileno (sym_libdwarf.dwarf_line_srcfileno)
#define dwarf_lineaddr (sym_libdwarf.dwarf_lineaddr)
#define dwarf_lineendsequence (sym_libdwarf.dwarf_lineendsequence)
#define dwarf_lineno (sym_libdwarf.dwarf_lineno)
#define dwarf_linesrc (sym_libdwarf.dwarf_linesrc)
#define dwarf_lowpc (sym_libdwarf.dwarf_lowpc)
#define dwarf_next_cu_header_d (sym_libdwarf.dwarf_next_cu_header_d)
#define dwarf_object_finish (sym_libdwarf.dwarf_object_finish)
#define dwarf_object_init_b (sym_libdwarf.dwarf_object_init_b)
#define dwarf_offdie_b (sym_libdwarf.dwarf_offdie_b)
#define dwarf_ranges_dealloc (sym_libdwarf.dwarf_ranges_dealloc)
#define dwarf_rnglists_get_rle_head (sym_libdwarf.dwarf_rnglists_get_rle_head)
#define dwarf_set_de_alloc_flag (sym_libdwarf.dwarf_set_de_alloc_flag)
#define dwarf_siblingof_b (sym_libdwarf.dwarf_siblingof_b)
#define dwarf_srclines_b (sym_libdwarf.dwarf_srclines_b)
#define dwarf_srclines_dealloc_b (sym_libdwarf.dwarf_srclines_dealloc_b)
#define dwarf_srclines_from_linecontext (sym_libdwarf.dwarf_srclines_from_linecontext)
#define dwarf_whatform (sym_libdwarf.dwarf_whatform)
#endif

#endif
