/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libelf, loaded on first use (common/dynlib.h) for every ELF file pfmon
 * reads (symbols, build-ids, debug links): a run that needs none (a count
 * names no address) does not pay its loading and relocations at start.
 * Include it after <gelf.h>: each function of the library pfmon calls is a
 * macro naming its entry in the table, so callers keep the library's own
 * names and prototypes; call sym_libelf_load() before the first (where a
 * handle is made).
 */
#ifndef PFMON_SYMBOL_SYM_LIB_ELF_H
#define PFMON_SYMBOL_SYM_LIB_ELF_H

#include <gelf.h>

#include "common/error.h"

#define SYM_LIBELF_FUNCTIONS(X) \
	X(elf_begin) \
	X(elf_cntl) \
	X(elf_end) \
	X(elf_errmsg) \
	X(elf_getdata) \
	X(elf_getdata_rawchunk) \
	X(elf_getphdrnum) \
	X(elf_getscn) \
	X(elf_getshdrstrndx) \
	X(elf_kind) \
	X(elf_memory) \
	X(elf_nextscn) \
	X(elf_rawdata) \
	X(elf_rawfile) \
	X(elf_strptr) \
	X(elf_version) \
	X(gelf_fsize) \
	X(gelf_getchdr) \
	X(gelf_getehdr) \
	X(gelf_getnote) \
	X(gelf_getphdr) \
	X(gelf_getrel) \
	X(gelf_getrela) \
	X(gelf_getshdr) \
	X(gelf_getsym)

struct sym_libelf {
#define SYM_LIB_ENTRY(f) __typeof__(f) *f;
	SYM_LIBELF_FUNCTIONS(SYM_LIB_ENTRY)
#undef SYM_LIB_ENTRY
};

extern struct sym_libelf sym_libelf;

/* 0 once libelf is loaded (the first call loads it), or -1 with err naming
 * the library and why it cannot be loaded (every later call says the same) */
int sym_libelf_load(struct pf_error *err);

#ifndef SYM_LIB_TABLE /* the loader names the functions themselves */
#define elf_begin (sym_libelf.elf_begin)
#define elf_cntl (sym_libelf.elf_cntl)
#define elf_end (sym_libelf.elf_end)
#define elf_errmsg (sym_libelf.elf_errmsg)
#define elf_getdata (sym_libelf.elf_getdata)
#define elf_getdata_rawchunk (sym_libelf.elf_getdata_rawchunk)
#define elf_getphdrnum (sym_libelf.elf_getphdrnum)
#define elf_getscn (sym_libelf.elf_getscn)
#define elf_getshdrstrndx (sym_libelf.elf_getshdrstrndx)
#define elf_kind (sym_libelf.elf_kind)
#define elf_memory (sym_libelf.elf_memory)
#define elf_nextscn (sym_libelf.elf_nextscn)
#define elf_rawdata (sym_libelf.elf_rawdata)
#define elf_rawfile (sym_libelf.elf_rawfile)
#define elf_strptr (sym_libelf.elf_strptr)
#define elf_version (sym_libelf.elf_version)
#define gelf_fsize (sym_libelf.gelf_fsize)
#define gelf_getchdr (sym_libelf.gelf_getchdr)
#define gelf_getehdr (sym_libelf.gelf_getehdr)
#define gelf_getnote (sym_libelf.gelf_getnote)
#define gelf_getphdr (sym_libelf.gelf_getphdr)
#define gelf_getrel (sym_libelf.gelf_getrel)
#define gelf_getrela (sym_libelf.gelf_getrela)
#define gelf_getshdr (sym_libelf.gelf_getshdr)
#define gelf_getsym (sym_libelf.gelf_getsym)
#endif

#endif
