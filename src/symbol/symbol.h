/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Symbolization: sample addresses to binary, function and source line.
 *
 * Three levels, each usable on its own:
 *
 *   struct sym_dso       one ELF file (plus its separate debug file): the
 *                        function symbols as a sorted array, the PT_LOAD
 *                        segments for load-bias arithmetic, and DWARF line
 *                        tables decoded lazily per compile unit.
 *   struct sym_maps      process address spaces keyed by pid, filled from
 *                        MMAP2-like records; fork copies, exec clears.
 *   struct sym_resolver  owns the maps and one sym_dso per path, and caches
 *                        every (dso, address) it has answered, so each unique
 *                        address is symbolized once however many samples hit it.
 *
 * The running kernel is a dso of its own ("[kernel]", symbols from
 * /proc/kallsyms), and so is its vDSO (pfmon's own image, read from memory).
 * Both are right only for samples the running kernel took: struct
 * sym_kernel_id says which kernel that is, and the caller decides.
 *
 * Nothing here prints.  Functions that can fail return 0 / -1 and fill a
 * struct pf_error; lookups cannot fail: what is unknown is left NULL / 0.
 */
#ifndef PFMON_SYMBOL_SYMBOL_H
#define PFMON_SYMBOL_SYMBOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

#define SYM_DEFAULT_DEBUG_ROOT "/usr/lib/debug"
/* test seam: overrides the debug root when the caller passes NULL */
#define SYM_DEBUG_ROOT_ENV "PFMON_DEBUG_ROOT"
#define SYM_DEFAULT_KALLSYMS "/proc/kallsyms"
/* test seam: a kallsyms-format file read instead of /proc/kallsyms */
#define SYM_KALLSYMS_ENV "PFMON_KALLSYMS"
#define SYM_DEFAULT_KERNEL_NOTES "/sys/kernel/notes"
/* test seam: the running kernel's ELF notes (its build-id) read from this file */
#define SYM_KERNEL_NOTES_ENV "PFMON_KERNEL_NOTES"

/* The answer for one address.  Strings belong to the dso (or resolver) that
 * produced them and live as long as it does. */
struct sym_result {
	const char *binary; /* mapped file path; NULL when no mapping covers the ip */
	uint64_t addr;      /* address in the binary's own ELF address space */
	const char *func;   /* function symbol, NULL if none covers addr */
	uint64_t offset;    /* addr - function start; addr itself when func is NULL */
	const char *file;   /* source file from DWARF, NULL if none */
	unsigned int line;  /* source line, 0 if none */
	const char *module; /* kernel addresses: the module ("ext4"), NULL for the kernel itself */
	bool wrong_file;    /* the file at binary is not the one recorded: nothing is named */
};

/* Where a dso's function symbols came from, for the report's list of
 * binaries without symbols. */
enum sym_source {
	SYM_SRC_NONE = 0,  /* no function symbols at all */
	SYM_SRC_DYNSYM,    /* only the dynamic symbol table */
	SYM_SRC_SYMTAB,    /* the file's own .symtab */
	SYM_SRC_DEBUGFILE, /* .symtab of the separate debug file */
	SYM_SRC_KALLSYMS,  /* the running kernel's /proc/kallsyms */
};

/* What a dso is: a file, or an image with no file (and no debug info) */
enum sym_dso_kind {
	SYM_DSO_FILE = 0,
	SYM_DSO_KERNEL, /* "[kernel]": kallsyms, modules included */
	SYM_DSO_MEMORY, /* an ELF image in memory: "[vdso]" */
};

struct sym_dso_info {
	const char *path;
	enum sym_dso_kind kind;
	const char *debug_path;  /* separate debug file used, or NULL */
	const char *open_error;  /* why the file could not be read, or NULL */
	enum sym_source symbols;
	const char *why_no_symbols; /* SYM_SRC_NONE for a known reason (the kernel's), or NULL */
	bool has_lines;          /* DWARF line information present */
	bool lines_read;         /* and read: a line was asked for (they are read lazily) */
	uint16_t machine;        /* e_machine */
	bool is_dyn;             /* ET_DYN (PIE or shared object) */
	size_t nr_funcs;
	const uint8_t *build_id; /* NULL if none */
	size_t build_id_len;
	uint64_t lookups;        /* unique addresses resolved in this dso */
	bool wrong_file;         /* not the binary recorded (open_error says how) */
};

/* ---- which file a binary is ---- */
#define SYM_BUILD_ID_MAX 20

/* A binary's identity: its GNU build-id (length 0 when it has none) and,
 * for files without one, device, inode, mtime and size. */
struct sym_file_id {
	uint8_t build_id[SYM_BUILD_ID_MAX];
	size_t build_id_len;
	uint64_t dev, ino, mtime_ns, size;
};

/* the identity of the file at path now: 0, or -1 (not a readable regular file) */
int sym_file_identity(const char *path, struct sym_file_id *id, struct pf_error *err);

/* ---- one ELF file ---- */
struct sym_dso;

/* Does the ELF file at path import or define a symbol called name (its
 * .dynsym or .symtab)?  false too when it cannot be read. */
bool sym_elf_names(const char *path, const char *name);

/* debug_root NULL: $PFMON_DEBUG_ROOT, else /usr/lib/debug. */
int sym_dso_open(const char *path, const char *debug_root, struct sym_dso **out,
		 struct pf_error *err);
void sym_dso_close(struct sym_dso *dso);
void sym_dso_info(const struct sym_dso *dso, struct sym_dso_info *info);
/* file offset of a mapping (pgoff + ip - start) to ELF virtual address */
uint64_t sym_dso_offset_to_addr(const struct sym_dso *dso, uint64_t file_offset);
/* addr is an ELF virtual address of this file; res->binary is the dso path */
void sym_dso_lookup(struct sym_dso *dso, uint64_t addr, struct sym_result *res);
/* the same without the source line: the line tables are never read */
void sym_dso_lookup_func(struct sym_dso *dso, uint64_t addr, struct sym_result *res);
/* add the source line to res (from sym_dso_lookup_func of the same addr);
 * the first call opens the line tables */
void sym_dso_lookup_line(struct sym_dso *dso, uint64_t addr, struct sym_result *res);
/* addr is a data address: res->func is the variable (STT_OBJECT) holding
 * it, res->offset the offset into it; no file/line */
void sym_dso_lookup_data(struct sym_dso *dso, uint64_t addr, struct sym_result *res);
/* the function symbol called name: 0 and its address/size, or -1 */
int sym_dso_find_func(const struct sym_dso *dso, const char *name, uint64_t *addr,
		      uint64_t *size);
/* the data symbol (STT_OBJECT) called name: 0 and its address/size, or -1 */
int sym_dso_find_data(struct sym_dso *dso, const char *name, uint64_t *addr, uint64_t *size);
/* Where addr (an ELF virtual address) falls among the instructions of its
 * function, by disassembly from the function's start (x86, arm64). */
enum sym_insn_place {
	SYM_INSN_UNKNOWN, /* no function, no file bytes, or bytes or a machine the disassembler does not know */
	SYM_INSN_START,   /* an instruction starts there */
	SYM_INSN_INSIDE,  /* inside the instruction at start (size bytes) */
};
struct sym_insn {
	const char *func; /* the function holding addr (the dso's string), NULL if none */
	uint64_t func_addr;
	uint64_t start, size; /* SYM_INSN_INSIDE: the instruction holding addr */
};
enum sym_insn_place sym_dso_insn_place(struct sym_dso *dso, uint64_t addr, struct sym_insn *insn);
/*
 * A whole function disassembled, for annotated reports: each instruction
 * with its source line.  x86 and arm64 through capstone; IA-64 through
 * binutils' ia64 objdump (ia64-linux-gnu-objdump, $PFMON_IA64_OBJDUMP
 * replaces the name), else as raw bundles (template and 41-bit slots).
 */
enum sym_disasm_how {
	SYM_DISASM_CAPSTONE,
	SYM_DISASM_OBJDUMP,     /* IA-64: binutils' disassembler */
	SYM_DISASM_RAW_BUNDLES, /* IA-64 without it: the bundles' bits */
};
struct sym_disasm_insn {
	uint64_t addr;      /* ELF virtual address; IA-64: bundle + slot (0..2) */
	uint32_t size;      /* bytes; IA-64: 16 on a bundle's first slot, else 0 */
	char *mnemonic, *operands;
	char *bundle;       /* IA-64, a bundle's first slot: its template ("MII"), else NULL */
	const char *file;   /* its source line (DWARF), NULL and 0 if none; the dso's string */
	unsigned int line;
};
struct sym_disasm {
	enum sym_disasm_how how;
	const char *func;   /* the function symbol (the dso's string, not demangled) */
	uint64_t addr, end; /* [addr, end) */
	struct sym_disasm_insn *insns;
	size_t n;
};
#define SYM_IA64_OBJDUMP_ENV "PFMON_IA64_OBJDUMP"
#define SYM_IA64_OBJDUMP "ia64-linux-gnu-objdump"
/* The function of dso holding addr (an ELF virtual address), disassembled
 * into d: 0, or -1 (no function there, no file bytes, a machine or bytes
 * the disassembler does not know; the message says which) */
int sym_dso_disasm(struct sym_dso *dso, uint64_t addr, struct sym_disasm *d, struct pf_error *err);
void sym_disasm_release(struct sym_disasm *d);
/* is addr (an ELF virtual address) inside a PT_LOAD segment, bss included? */
bool sym_dso_loads(const struct sym_dso *dso, uint64_t addr);
/* An ELF image in memory, copied (libelf may write into a private image,
 * and the vDSO's pages are read-only); named name in results. */
int sym_dso_open_memory(const char *name, const void *image, size_t size, struct sym_dso **out,
			struct pf_error *err);

/* ---- the running kernel ---- */

/* "[kernel]" with the symbols of kallsyms (NULL: $PFMON_KALLSYMS, else
 * /proc/kallsyms).  Never fails: a kallsyms that cannot be read, or whose
 * addresses are all zero (kernel.kptr_restrict), gives a dso without
 * symbols whose info says why.  Lookups take kernel addresses. */
struct sym_dso *sym_dso_kernel(const char *kallsyms);

/* A kernel symbol as a sample file keeps it: [addr, end), name, module
 * (NULL for vmlinux). */
struct sym_kernel_symbol {
	uint64_t addr, end;
	const char *name;
	const char *module;
};

/* "[kernel]" with the given symbols instead of kallsyms' (a sample file's) */
struct sym_dso *sym_dso_kernel_table(const struct sym_kernel_symbol *t, size_t n);
/* "[vdso]": this process's vDSO (getauxval(AT_SYSINFO_EHDR)), the same
 * image as every process of the running kernel of the same ABI */
int sym_dso_open_vdso(struct sym_dso **out, struct pf_error *err);

#define SYM_KERNEL_BUILD_ID_MAX 64
#define SYM_KERNEL_BOOT_ID_MAX 36  /* a UUID: 8-4-4-4-12 */
#define SYM_KERNEL_RELEASE_MAX 64  /* uname -r (struct utsname holds 65 bytes) */

/* Which kernel: its build-id names the build, its boot id one boot of it
 * (kernel and module addresses move at every boot: KASLR).  Empty fields
 * are unknown. */
struct sym_kernel_id {
	uint8_t build_id[SYM_KERNEL_BUILD_ID_MAX];
	size_t build_id_len;
	char boot_id[SYM_KERNEL_BOOT_ID_MAX + 1];
	char release[SYM_KERNEL_RELEASE_MAX + 1];
};

/* The running kernel: build-id from /sys/kernel/notes ($PFMON_KERNEL_NOTES),
 * boot id from /proc/sys/kernel/random/boot_id, release from uname(2).
 * What cannot be read is left empty. */
void sym_kernel_id_running(struct sym_kernel_id *id);
/* The running kernel's _text address (kallsyms: $PFMON_KALLSYMS or
 * /proc/kallsyms, read only to that line), where KASLR put it this boot;
 * 0 when hidden (kptr_restrict) or not found. */
uint64_t sym_kernel_text_address(void);
/* The same from the kallsyms file at path. */
uint64_t sym_kallsyms_text_address(const char *path);
/* The copy of kallsyms perf record keeps for the kernel of this build-id
 * ($PERF_BUILDID_DIR, else ~/.debug: [kernel.kallsyms]/BUILDID/kallsyms),
 * when it has _text at text (the boot recorded): a new string, or NULL. */
char *sym_perf_kallsyms_copy(const uint8_t *build_id, size_t len, uint64_t text);

enum sym_kernel_match {
	SYM_KERNEL_SAME,       /* kallsyms and the vDSO apply */
	SYM_KERNEL_OTHER_BUILD, /* the build-ids differ */
	SYM_KERNEL_OTHER_BOOT, /* same build, another boot: addresses moved */
	SYM_KERNEL_UNKNOWN,    /* nothing to compare */
};

/* Did the kernel then (of the samples) run now?  Different build-ids or
 * boot ids say no; one equal pair of known ones says yes. */
enum sym_kernel_match sym_kernel_id_match(const struct sym_kernel_id *then,
					  const struct sym_kernel_id *now);

/* ---- symbols given by the user (--symbol-file, --sysmap-file) ---- */
struct sym_symfile;

struct sym_symfile_entry {
	uint64_t addr, end; /* [addr, end) */
	const char *name;
	bool data;          /* a data object, else code */
};

/* an ELF file whose symbols name addresses as they are (no map, no bias) */
int sym_symfile_open_elf(const char *path, const char *debug_root, struct sym_symfile **out,
			 struct pf_error *err);
/* a System.map: "ADDRESS TYPE NAME" lines; a malformed line is an error
 * naming it; code from t/T/w/W symbols, data from d/b/r/g/s/v ones */
int sym_symfile_open_sysmap(const char *path, struct sym_symfile **out, struct pf_error *err);
void sym_symfile_free(struct sym_symfile *s);
/* res->func NULL when no symbol covers addr; res->binary always NULL */
void sym_symfile_lookup(struct sym_symfile *s, uint64_t addr, bool data, struct sym_result *res);
/* the table, code then data, each by address (--print-syms) */
size_t sym_symfile_count(struct sym_symfile *s);
void sym_symfile_get(struct sym_symfile *s, size_t i, struct sym_symfile_entry *e);

/* ---- process address spaces ---- */
struct sym_map {
	uint64_t start, end; /* [start, end) */
	uint64_t pgoff;
	const char *path;    /* interned in the sym_maps */
};

struct sym_maps;

struct sym_maps *sym_maps_new(void);
void sym_maps_free(struct sym_maps *maps);
/* An MMAP2 record: replaces whatever the range overlapped before. */
void sym_maps_add(struct sym_maps *maps, uint32_t pid, uint64_t start, uint64_t len,
		  uint64_t pgoff, const char *path);
/* child starts with a copy of the parent's mappings (fork) */
void sym_maps_fork(struct sym_maps *maps, uint32_t ppid, uint32_t pid);
/* the address space is gone or replaced (exit, exec) */
void sym_maps_clear(struct sym_maps *maps, uint32_t pid);
/* every process's mappings (the next file of a merge: another host's pids) */
void sym_maps_clear_all(struct sym_maps *maps);
const struct sym_map *sym_maps_find(const struct sym_maps *maps, uint32_t pid, uint64_t ip);
size_t sym_maps_count(const struct sym_maps *maps, uint32_t pid);

/* ---- the cached resolver ---- */
struct sym_resolver;

/* debug_root as for sym_dso_open */
struct sym_resolver *sym_resolver_new(const char *debug_root);
/* Whether function and variable names are demangled (C++, Rust; off by
 * default): set it before the first lookup.  Each distinct name is
 * demangled once. */
void sym_resolver_demangle(struct sym_resolver *r, bool demangle);
/* --demangle-java: code in anonymous mappings (a JIT's) named from
 * /tmp/perf-PID.map, as perf names it (read once a process) */
void sym_resolver_use_perf_maps(struct sym_resolver *r, bool use);
/* how many addresses were looked up in a perf map (0: none fell in anonymous code) */
uint64_t sym_resolver_perf_map_queries(const struct sym_resolver *r);
/* Whether answers carry source lines (the default): a report that shows
 * none says no before the first lookup, and no line table is ever read. */
void sym_resolver_want_lines(struct sym_resolver *r, bool lines);
void sym_resolver_free(struct sym_resolver *r);
struct sym_maps *sym_resolver_maps(struct sym_resolver *r);
/* (pid, ip) through the maps; the result lives as long as the resolver */
const struct sym_result *sym_resolve(struct sym_resolver *r, uint32_t pid, uint64_t ip);
/* A kernel address through kallsyms, read on the first call: res->binary
 * is "[kernel]", res->module the module or NULL.  Only for samples of the
 * running kernel: checking that is the caller's job (sym_kernel_id_match). */
const struct sym_result *sym_resolve_kernel(struct sym_resolver *r, uint64_t ip);
/* Whether kernel addresses can be named at all: false when kallsyms cannot
 * be read or hides its addresses (the kernel dso's info says why).  Reads
 * kallsyms if no kernel address did yet. */
bool sym_resolver_kernel_symbols(struct sym_resolver *r);
/* Whether [vdso] mappings are read from pfmon's own vDSO: right only when
 * the samples come from the running kernel.  Off by default; set it before
 * the first [vdso] address is resolved. */
void sym_resolver_use_vdso(struct sym_resolver *r, bool use);
/* Kernel symbols kept with the samples (a sample file's): kernel addresses
 * are named from these instead of kallsyms, whichever kernel is running.
 * Add them before the first kernel address is resolved; strings are copied. */
void sym_resolver_add_kernel_symbol(struct sym_resolver *r, const struct sym_kernel_symbol *s);
/* Read kernel symbols from this kallsyms file (a copy kept with the
 * samples) instead of the running kernel's; before the first kernel
 * address is resolved.  The path is copied. */
void sym_resolver_use_kallsyms(struct sym_resolver *r, const char *path);
/* Start reading kallsyms in a thread, so that the kernel's slow formatting
 * of it (tens of ms) overlaps a command's run; the first kernel lookup
 * waits for it.  Nothing when the kernel dso exists or symbols were given. */
void sym_resolver_prefetch_kernel(struct sym_resolver *r);
/* The kernel symbols that named a resolved address so far, in address
 * order: what a sample file keeps so that its report needs no kallsyms.
 * The array is the caller's to free, the strings the resolver's. */
size_t sym_resolver_kernel_symbols_used(struct sym_resolver *r, struct sym_kernel_symbol **out);
/* Whether answers need a source file and line (default true): a report
 * that shows none (by function, folded stacks) reads no line table.  Set
 * it before the first address is resolved. */
void sym_resolver_want_lines(struct sym_resolver *r, bool want);
/* the same for a data address (D-EAR, PEBS): the variable holding it */
const struct sym_result *sym_resolve_data(struct sym_resolver *r, uint32_t pid, uint64_t addr);
/* Data-type profiling (sym_dtype.c): what an access at ip to addr touched,
 * as perf report's type and typeoff keys name it: "struct foo" and
 * "struct foo +8 (field.sub)".  NULL each when DWARF cannot tell; the
 * strings are the resolver's, one pointer per name. */
struct sym_dtype {
	const char *type;
	const char *typeoff;
};
void sym_resolve_dtype(struct sym_resolver *r, uint32_t pid, uint64_t ip, uint64_t addr, struct sym_dtype *out);
/* an ELF virtual address of a file, without maps (addr2line-style) */
const struct sym_result *sym_resolve_file(struct sym_resolver *r, const char *path,
					  uint64_t addr);
/* What the file at path was when the samples were taken (a sample file's
 * record): when the resolver opens path it refuses a file that is not it
 * (rebuilt or replaced since) and looks for the recorded build-id in the
 * debug root (.build-id/xx/rest, then .debug) instead; failing that the
 * binary's addresses are answered with wrong_file set and no name.  Give
 * it before the first address in path is resolved; the first one counts. */
void sym_resolver_expect(struct sym_resolver *r, const char *path, const struct sym_file_id *id);
/* sym_dso_disasm of the binary at path (as a sym_result names it): the
 * same file the resolver symbolized its samples with */
int sym_resolver_disasm(struct sym_resolver *r, const char *path, uint64_t addr, struct sym_disasm *d,
			struct pf_error *err);
/* every binary the resolver opened, in first-use order, for the report's
 * "no symbols" / "no debug info" lists */
size_t sym_resolver_nr_dsos(const struct sym_resolver *r);
void sym_resolver_dso_info(const struct sym_resolver *r, size_t i, struct sym_dso_info *info);
uint64_t sym_resolver_unique(const struct sym_resolver *r); /* distinct addresses */
uint64_t sym_resolver_queries(const struct sym_resolver *r);

/* ---- unwinding user stacks (--call-graph=dwarf) ----
 *
 * A sample's user registers and stack copy are unwound through the call
 * frame information (.eh_frame, .debug_frame, in the separate debug file
 * too) of the binaries the resolver's maps say were mapped, with elfutils'
 * libdwfl.  The files are those the resolver symbolizes with: a binary
 * replaced since the recording is not unwound through.  One libdwfl
 * session per process is kept from sample to sample, so each binary's
 * CFI is read and indexed once. */
struct sym_unwinder;

/* what a sample's user state is: perf's registers (x86-64 numbering) */
struct sym_user_state {
	uint32_t pid, tid;
	uint32_t abi;          /* PERF_SAMPLE_REGS_ABI_*: only 64-bit registers are unwound */
	uint64_t regs_mask;    /* PERF_REG_X86_* bits */
	const uint64_t *regs;  /* popcount(regs_mask) values, lowest register first */
	const uint8_t *stack;  /* the copy from the stack pointer up */
	uint32_t stack_size;
};

/* why the frames end */
enum sym_unwind_end {
	SYM_UNWIND_COMPLETE = 0, /* the outermost frame (its return address undefined) */
	SYM_UNWIND_TRUNCATED,    /* the stack copy ends before the outermost frame */
	SYM_UNWIND_NO_BINARY,    /* a frame in no binary that can be read */
	SYM_UNWIND_NO_CFI,       /* a frame in a binary without call frame information */
	SYM_UNWIND_WRONG_FILE,   /* a frame in a binary that is not the one recorded */
	SYM_UNWIND_NO_REGS,      /* no stack pointer or ip among the registers */
	SYM_UNWIND_MAX_DEPTH,    /* more frames than asked for */
	SYM_UNWIND_FAILED,       /* bad CFI, or memory the unwinder cannot read */
	SYM_UNWIND_ABI,          /* registers of a 32-bit process (or an unknown ABI) */
};

struct sym_unwind_result {
	uint32_t n;                /* frames in pcs[], the sampled ip first */
	enum sym_unwind_end end;
	const char *binary;        /* the binary an end names (NO_CFI, WRONG_FILE), or NULL */
};

/* r's maps and files; free it before r */
struct sym_unwinder *sym_unwinder_new(struct sym_resolver *r);
void sym_unwinder_free(struct sym_unwinder *u);
/* Unwind st into pcs (at most max): the ip, then each caller's return
 * address minus one (inside the call, so its line and inline frame are
 * the call's).  Never fails: where the frames stop, and why, is in out. */
void sym_unwind(struct sym_unwinder *u, const struct sym_user_state *st, uint64_t *pcs, uint32_t max,
		struct sym_unwind_result *out);
const char *sym_unwind_end_name(enum sym_unwind_end end);

#endif
