/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internals shared by the files of the symbol layer; not for other layers. */
#ifndef PFMON_SYMBOL_SYM_INTERNAL_H
#define PFMON_SYMBOL_SYM_INTERNAL_H

#include <gelf.h>
#include <stddef.h>
#include <libelf.h>
#include <sys/stat.h>

#include "common/hashtab.h"
#include "symbol/sym_lib_elf.h"
#include "symbol/symbol.h"

/* A set of strings, each stored once; pointers stay valid until freed.
 * Source file names repeat in every CU's line header: intern them. */
struct sym_strset {
	struct hashtab tab; /* of char *, each string once */
};
const char *sym_strset_intern(struct sym_strset *set, const char *s);
void sym_strset_free(struct sym_strset *set);

/* One function symbol; 16 bytes plus the name pointer into the mapped
 * string table, so a 100k-symbol binary costs ~2.4 MB. */
struct sym_func {
	uint64_t addr;
	uint64_t end;      /* exclusive; size-0 symbols end at the next one */
	const char *name;
};

/* Symbols sorted by address; the binary search reads only addrs. */
struct sym_table {
	struct sym_func *syms;
	uint64_t *addrs;
	size_t nr;
	size_t nr_plt; /* of them, PLT entries (FUNC@plt): no symbols of the binary's own */
};

struct sym_seg {
	uint64_t vaddr, offset, filesz, memsz;
};

/* An open ELF file (or image in memory): fd, libelf handle and a few
 * header facts. */
struct sym_elf {
	int fd;             /* only while opening: libelf keeps the file mapped, no descriptor */
	void *mem;          /* the copy elf_memory reads, or NULL for a file */
	Elf *elf;
	uint16_t machine;
	uint16_t type;
	unsigned char data; /* ELFDATA2LSB / ELFDATA2MSB */
};

/*
 * Every file the symbol layer reads is opened here: binaries and mapping
 * paths named by sample files, debug files, kallsyms, kernel notes.  A
 * FIFO or a device there would block open() or read() forever (or without
 * end: /dev/zero), so the file is opened without blocking and anything but
 * a regular file is refused before a byte is read.  0 and *fd (and *st
 * when not NULL), or -1.
 */
int sym_open_regular(const char *path, int *fd, struct stat *st, struct pf_error *err);
int sym_elf_open(const char *path, struct sym_elf *e, struct pf_error *err);
/* an image in memory, copied first; name is for messages */
int sym_elf_memory(const char *name, const void *image, size_t size, struct sym_elf *e,
		   struct pf_error *err);
void sym_elf_close(struct sym_elf *e);
Elf_Scn *sym_elf_section(Elf *elf, uint32_t type, const char *name);
bool sym_elf_has_progbits(Elf *elf, const char *name);

/* Separate debug file (sym_debuglink.c). */
size_t sym_build_id(Elf *elf, uint8_t *buf, size_t bufsz);
/* 0 and *out (xmalloc'd path) when found, -1 otherwise */
int sym_find_debug_file(const char *path, struct sym_elf *e, const char *debug_root,
			const uint8_t *build_id, size_t build_id_len, char **out);
uint32_t sym_crc32_file(int fd, bool *ok);

/* The sections libdwarf reads, inflated when compressed (sym_dwsec.c). */
struct sym_dwsec;
struct Dwarf_Obj_Access_Interface_s;
/* NULL for a relocatable object (its DWARF needs relocations) */
struct sym_dwsec *sym_dwsec_new(Elf *elf);
/* for dwarf_object_init_b; valid until sym_dwsec_free */
struct Dwarf_Obj_Access_Interface_s *sym_dwsec_access(struct sym_dwsec *d);
/* after dwarf_object_finish: frees the inflated sections */
void sym_dwsec_free(struct sym_dwsec *d);

/* DWARF line tables (sym_dwarf.c). */
struct sym_dwarf;
/* NULL when the file has no usable line information */
struct sym_dwarf *sym_dwarf_open(Elf *elf, struct sym_strset *strings);
void sym_dwarf_close(struct sym_dwarf *dw);
/* 0 and file/line, or -1 when no line row covers addr */
int sym_dwarf_line(struct sym_dwarf *dw, uint64_t addr, const char **file, unsigned int *line);

/* Kernel symbols (sym_kallsyms.c): kallsyms gives no sizes, so each ends
 * where the next begins (or, last of the kernel or of a module, within
 * two pages). */
struct sym_ksym {
	uint64_t addr, end;
	const char *name;   /* into the kallsyms text */
	const char *module; /* interned, so one module is one pointer; NULL: vmlinux */
};

struct sym_kallsyms {
	char *text;          /* the names kept, each NUL-terminated */
	struct sym_ksym *syms;
	uint64_t *addrs;     /* the search reads only these */
	bool *used;          /* named a looked-up address: kept in sample files */
	size_t nr;
	struct sym_strset modules;
	/* A table from the kallsyms cache (sym_kcache.c): addrs are its
	 * index, syms are filled (their names read) as lookups reach them,
	 * their zeroed pages costing no memory until then, and it covers only
	 * the kernel image: an address it misses needs the whole kallsyms. */
	struct sym_kcache_map *cached;
};

/* the symbol at index i (a cached table's filled on the first use; NULL
 * if its file is damaged there) */
const struct sym_ksym *sym_kallsyms_at(const struct sym_kallsyms *ks, size_t i);

/* 0 and *out, or -1: unreadable, malformed, or every address zero */
int sym_kallsyms_load(const char *path, struct sym_kallsyms **out, struct pf_error *err);
/* the same for the data objects (d, b, r, g, s, v types) when data: a
 * System.map (--sysmap-file) is kallsyms' format */
int sym_kallsyms_load_kind(const char *path, bool data, struct sym_kallsyms **out,
			   struct pf_error *err);
void sym_kallsyms_free(struct sym_kallsyms *ks);
/* the symbol covering addr, or NULL */
const struct sym_ksym *sym_kallsyms_find(const struct sym_kallsyms *ks, uint64_t addr);
/* path NULL: $PFMON_KALLSYMS, else the kallsyms cache of the running
 * kernel if there is one (a table of the kernel image only: ks->cached),
 * else /proc/kallsyms */
int sym_kallsyms_load_default(const char *path, struct sym_kallsyms **out, struct pf_error *err);
/* the whole of $PFMON_KALLSYMS, else /proc/kallsyms (the cache written) */
int sym_kallsyms_load_whole(struct sym_kallsyms **out, struct pf_error *err);
/* "[kernel]" owning ks, or without symbols (ks NULL) for the reason why_not */
struct sym_dso *sym_dso_kernel_loaded(struct sym_kallsyms *ks, const char *why_not);
/* a table of symbols kept with samples (a sample file's), in any order */
struct sym_kallsyms *sym_kallsyms_from_table(const struct sym_kernel_symbol *t, size_t n);

/*
 * The kallsyms cache: the kernel image's text symbols of the running
 * kernel, by build-id and boot, under $XDG_CACHE_HOME/pfmon (else
 * ~/.cache/pfmon), read instead of the ~120,000 lines of
 * /proc/kallsyms.  sym_kcache_load: 0 and *out (a table with cached set),
 * or -1: no cache for this kernel, or /proc/kallsyms hides addresses now.
 * sym_kcache_store: the image's part of a full table read from
 * /proc/kallsyms, written whole or not at all (best effort, silent).
 */
int sym_kcache_load(struct sym_kallsyms **out);
void sym_kcache_store(const struct sym_kallsyms *full);
/* symbol i of a cached table, filled on its first use (NULL: the file is
 * damaged there); and the cache's file, index and names released */
const struct sym_ksym *sym_kcache_fill(const struct sym_kallsyms *ks, size_t i);
void sym_kcache_close(struct sym_kcache_map *m);

struct sym_dso {
	char *path;
	char *file_path;       /* the file main was read from (path, or the recorded one by build-id) */
	enum sym_dso_kind kind;
	char *debug_path;
	char *open_error;
	char *why_no_symbols;  /* the kernel's: kallsyms unreadable or hidden */
	struct sym_kallsyms *kallsyms; /* SYM_DSO_KERNEL with symbols */
	/* the cached table kallsyms replaced on its first miss: names it gave
	 * out point into it until the dso is freed */
	struct sym_kallsyms *kallsyms_retired;
	struct sym_elf main;   /* the file itself (fd -1 for a stub) */
	struct sym_elf debug;  /* the separate debug file, fd -1 if none */
	uint16_t machine;
	bool is_dyn;
	enum sym_source source;
	struct sym_table funcs; /* STT_FUNC, loaded at open */
	struct sym_table data;  /* STT_OBJECT, loaded on the first data lookup */
	bool data_loaded;
	Elf *sym_elf;           /* where the symbols come from */
	Elf_Scn *sym_scn;
	struct sym_seg *segs;
	size_t nr_segs;
	uint8_t build_id[64];
	size_t build_id_len;
	struct sym_strset strings;
	/* Line tables are opened on the first line lookup: inflating the
	 * compressed debug sections of a libc costs tens of ms, which a
	 * report that shows no lines must not pay. */
	struct sym_elf *lines_from; /* main or debug: the file with .debug_line, or NULL */
	bool lines_tried;           /* sym_dwarf_open was called (dwarf NULL: it failed) */
	struct sym_dwarf *dwarf;
	struct sym_dtype_dwarf *dtype; /* libdw's view, opened on the first type lookup */
	uint64_t lookups;
	bool wrong_file;       /* a stub for a file that is not the one recorded */
	uint32_t id;           /* the resolver's number for it, from 1 */
};

/* sym_ident.c: whether dso (opened from its path) is the file id says;
 * when not, *why says how it differs (xmalloc'd) */
bool sym_dso_is(const struct sym_dso *dso, const struct sym_file_id *id, char **why);
/* the binary with this build-id in the debug root, opened, or NULL */
struct sym_dso *sym_dso_by_build_id(const char *debug_root, const struct sym_file_id *id);

/* Demangling (sym_demangle.c): a cache of each distinct name's answer.
 * The mangled strings must outlive the cache (the dsos' tables do). */
struct sym_demangler {
	struct hashtab tab; /* of struct dm_slot, by mangled name */
};
/* the demangled name, or name itself when it is not mangled */
const char *sym_demangle(struct sym_demangler *d, const char *name);
void sym_demangler_release(struct sym_demangler *d);

/* sym_resolver.c: the dso a mapping's path names, opened on first use
 * (the unwinder reads the same files the symbolizer does) */
struct sym_dso *sym_resolver_map_dso(struct sym_resolver *r, const char *path);

/* An empty dso: no file, no symbols (the base of stubs and the kernel). */
struct sym_dso *sym_dso_alloc(const char *path);
/* A dso that could not be read: lookups answer binary+offset. */
struct sym_dso *sym_dso_stub(const char *path, const char *reason);
/* A JIT's perf map (/tmp/perf-PID.map) as a dso of absolute addresses; a
 * stub when it cannot be read (sym_perfmap.c) */
struct sym_dso *sym_dso_open_perfmap(const char *path);
/* IA-64 packs the slot (0..2) into the ip's low bits; symbols start on
 * 16-byte bundles. */
uint64_t sym_dso_func_addr(const struct sym_dso *dso, uint64_t addr);

/* the file's bytes from addr to the end of its segment's file bytes (*avail), or NULL */
const uint8_t *sym_dso_file_bytes(const struct sym_dso *dso, uint64_t addr, uint64_t *avail);
/* sym_insn.c: one more instruction at the end of d (strings copied) */
struct sym_disasm_insn *sym_disasm_push(struct sym_disasm *d, uint64_t addr, uint32_t size, const char *mnemonic,
					const char *operands);
/* sym_insn.c: the first memory operand of the instruction at addr (x86-64,
 * arm64), registers as DWARF numbers them (-1: none; x86's rip is 16) */
struct sym_mem_operand {
	int base, index, scale;
	int64_t disp;
	uint32_t size; /* of the instruction: rip-relative is from its end */
};
/* 0, or -1: no memory operand, or not decoded */
int sym_dso_mem_operand(const struct sym_dso *dso, uint64_t addr, struct sym_mem_operand *op);

/* sym_dtype.c: a dso's DWARF as libdw reads it, for the types of accesses */
struct sym_dtype_dwarf;
/* the type and type+offset of the access at pc to data (its address in
 * data_dso's ELF space, data_dso NULL when no file maps it), names
 * interned in names; NULL each when unknown */
void sym_dso_dtype(struct sym_dso *dso, uint64_t pc, struct sym_dso *data_dso, uint64_t data,
		   struct sym_strset *names, struct sym_dtype *out);
void sym_dtype_dwarf_free(struct sym_dtype_dwarf *d);

/* sym_ia64_disasm.c: d->addr..d->end of dso (code: its bytes), through
 * binutils' ia64 objdump, else as raw bundles; never fails */
int sym_ia64_disasm(const struct sym_dso *dso, const uint8_t *code, struct sym_disasm *d);

const char *sym_debug_root(const char *debug_root);
/* the function symbol of t holding addr, or NULL */
const struct sym_func *sym_find_func(const struct sym_table *t, uint64_t addr);

/*
 * How many of n sorted records are <= key, comparing the uint64_t at byte
 * offset field of each size-byte record; the last record at or below key
 * is then record result - 1.  Branch-free (the compare feeds an add, which
 * compiles to cmov): with random addresses every branch of a classic binary
 * search is a coin toss, and mispredictions cost more than the loads.
 */
static inline size_t sym_upper_bound_field(const void *base, size_t n, size_t size, size_t field,
					   uint64_t key)
{
	const char *p;
	size_t lo = 0;

	if (n == 0) /* base may be NULL then: no offset from it */
		return 0;
	p = (const char *)base + field;
	while (n > 1) {
		size_t half = n / 2;

		lo += (size_t)(*(const uint64_t *)(p + (lo + half) * size) <= key) * half;
		n -= half;
	}
	return lo + (*(const uint64_t *)(p + lo * size) <= key);
}

/* sym_upper_bound_field over a plain sorted array of addresses */
static inline size_t sym_upper_bound(const uint64_t *a, size_t n, uint64_t key)
{
	return sym_upper_bound_field(a, n, sizeof(*a), 0, key);
}

/* the same over an array of structs sorted by their uint64_t member */
#define SYM_UPPER_BOUND(arr, n, member, key) \
	sym_upper_bound_field((arr), (n), sizeof(*(arr)), offsetof(__typeof__(*(arr)), member), (key))

#endif
