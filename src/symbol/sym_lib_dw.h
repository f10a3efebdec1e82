/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libdw, loaded on first use (common/dynlib.h) for libdwfl, the unwinder of
 * --call-graph=dwarf stacks, and for data-type profiling (sym_dtype.c): a
 * run that needs neither (a count names no address) does not pay its
 * loading and relocations at start.  Include it after
 * <elfutils/libdwfl.h>: each function of the library pfmon calls is a macro
 * naming its entry in the table, so callers keep the library's own names and
 * prototypes; call sym_libdw_load() before the first (where a handle is
 * made).
 */
#ifndef PFMON_SYMBOL_SYM_LIB_DW_H
#define PFMON_SYMBOL_SYM_LIB_DW_H

#include <elfutils/libdwfl.h>

#include "common/error.h"

#define SYM_LIBDW_FUNCTIONS(X) \
	X(dwarf_addrdie) \
	X(dwarf_aggregate_size) \
	X(dwarf_attr) \
	X(dwarf_attr_integrate) \
	X(dwarf_begin) \
	X(dwarf_cfi_addrframe) \
	X(dwarf_cfi_end) \
	X(dwarf_child) \
	X(dwarf_diename) \
	X(dwarf_dieoffset) \
	X(dwarf_end) \
	X(dwarf_formaddr) \
	X(dwarf_formref_die) \
	X(dwarf_formudata) \
	X(dwarf_frame_cfa) \
	X(dwarf_get_units) \
	X(dwarf_getcfi) \
	X(dwarf_getcfi_elf) \
	X(dwarf_getelf) \
	X(dwarf_getlocation) \
	X(dwarf_getlocation_addr) \
	X(dwarf_getlocation_attr) \
	X(dwarf_getscopes) \
	X(dwarf_haspc) \
	X(dwarf_offdie) \
	X(dwarf_peel_type) \
	X(dwarf_siblingof) \
	X(dwarf_tag) \
	X(dwfl_addrmodule) \
	X(dwfl_attach_state) \
	X(dwfl_begin) \
	X(dwfl_end) \
	X(dwfl_frame_pc) \
	X(dwfl_frame_reg) \
	X(dwfl_getthread_frames) \
	X(dwfl_module_addrinfo) \
	X(dwfl_module_dwarf_cfi) \
	X(dwfl_module_eh_cfi) \
	X(dwfl_module_getelf) \
	X(dwfl_module_info) \
	X(dwfl_report_begin_add) \
	X(dwfl_report_elf) \
	X(dwfl_report_end) \
	X(dwfl_thread_state_registers)

struct sym_libdw {
#define SYM_LIB_ENTRY(f) __typeof__(f) *f;
	SYM_LIBDW_FUNCTIONS(SYM_LIB_ENTRY)
#undef SYM_LIB_ENTRY
};

extern struct sym_libdw sym_libdw;

/* 0 once libdw is loaded (the first call loads it), or -1 with err naming
 * the library and why it cannot be loaded (every later call says the same) */
int sym_libdw_load(struct pf_error *err);

#ifndef SYM_LIB_TABLE /* the loader names the functions themselves */
#define dwarf_addrdie (sym_libdw.dwarf_addrdie)
#define dwarf_aggregate_size (sym_libdw.dwarf_aggregate_size)
#define dwarf_attr (sym_libdw.dwarf_attr)
#define dwarf_attr_integrate (sym_libdw.dwarf_attr_integrate)
#define dwarf_begin (sym_libdw.dwarf_begin)
#define dwarf_cfi_addrframe (sym_libdw.dwarf_cfi_addrframe)
#define dwarf_cfi_end (sym_libdw.dwarf_cfi_end)
#define dwarf_child (sym_libdw.dwarf_child)
#define dwarf_diename (sym_libdw.dwarf_diename)
#define dwarf_dieoffset (sym_libdw.dwarf_dieoffset)
#define dwarf_end (sym_libdw.dwarf_end)
#define dwarf_formaddr (sym_libdw.dwarf_formaddr)
#define dwarf_formref_die (sym_libdw.dwarf_formref_die)
#define dwarf_formudata (sym_libdw.dwarf_formudata)
#define dwarf_frame_cfa (sym_libdw.dwarf_frame_cfa)
#define dwarf_get_units (sym_libdw.dwarf_get_units)
#define dwarf_getcfi (sym_libdw.dwarf_getcfi)
#define dwarf_getcfi_elf (sym_libdw.dwarf_getcfi_elf)
#define dwarf_getelf (sym_libdw.dwarf_getelf)
#define dwarf_getlocation (sym_libdw.dwarf_getlocation)
#define dwarf_getlocation_addr (sym_libdw.dwarf_getlocation_addr)
#define dwarf_getlocation_attr (sym_libdw.dwarf_getlocation_attr)
#define dwarf_getscopes (sym_libdw.dwarf_getscopes)
#define dwarf_haspc (sym_libdw.dwarf_haspc)
#define dwarf_offdie (sym_libdw.dwarf_offdie)
#define dwarf_peel_type (sym_libdw.dwarf_peel_type)
#define dwarf_siblingof (sym_libdw.dwarf_siblingof)
#define dwarf_tag (sym_libdw.dwarf_tag)
#define dwfl_addrmodule (sym_libdw.dwfl_addrmodule)
#define dwfl_attach_state (sym_libdw.dwfl_attach_state)
#define dwfl_begin (sym_libdw.dwfl_begin)
#define dwfl_end (sym_libdw.dwfl_end)
#define dwfl_frame_pc (sym_libdw.dwfl_frame_pc)
#define dwfl_frame_reg (sym_libdw.dwfl_frame_reg)
#define dwfl_getthread_frames (sym_libdw.dwfl_getthread_frames)
#define dwfl_module_addrinfo (sym_libdw.dwfl_module_addrinfo)
#define dwfl_module_dwarf_cfi (sym_libdw.dwfl_module_dwarf_cfi)
#define dwfl_module_eh_cfi (sym_libdw.dwfl_module_eh_cfi)
#define dwfl_module_getelf (sym_libdw.dwfl_module_getelf)
#define dwfl_module_info (sym_libdw.dwfl_module_info)
#define dwfl_report_begin_add (sym_libdw.dwfl_report_begin_add)
#define dwfl_report_elf (sym_libdw.dwfl_report_elf)
#define dwfl_report_end (sym_libdw.dwfl_report_end)
#define dwfl_thread_state_registers (sym_libdw.dwfl_thread_state_registers)
#endif

#endif
