/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libdw, loaded on first use (common/dynlib.h) for libdwfl, the unwinder of
 * --call-graph=dwarf stacks: a run that needs none (a count names no address)
 * does not pay its loading and relocations at start.  Include it after
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
	X(dwarf_cfi_addrframe) \
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
#define dwarf_cfi_addrframe (sym_libdw.dwarf_cfi_addrframe)
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
