/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unwinding user stacks copied with the samples (--call-graph=dwarf), with
 * elfutils' libdwfl frame API: our registers and stack copy go in through
 * its thread callbacks, the binaries' CFI is libdw's to read.
 *
 * Why libdwfl rather than libunwind's remote API (perf can use either;
 * Debian 12 ships both, elfutils 0.188 and libunwind 1.6.2): with
 * libunwind the caller finds each binary's FDE table itself, from
 * .eh_frame_hdr, and .debug_frame (in a separate debug file too) through
 * its internal dwarf_find_debug_frame, where libdwfl reads .eh_frame,
 * .debug_frame and the debug file it is given.  bench/unwind/compare
 * unwinds the same samples both ways, libunwind through accessors written
 * for it: the same frames in every sample, libunwind 15-30% faster per
 * sample (7.4 against 8.7 us on python3, 2.2 against 3.0 on the call-tree
 * fixture, CPU time, warm caches), about 1 us of a report's 14 per sample:
 * not worth a second copy of the CFI lookup.  The speed is in keeping one
 * Dwfl per process from sample to sample (perf's libdw unwinder builds one
 * per sample): a binary is opened and its CFI indexed once.
 * bench/unwind/run measures the result against perf report.
 *
 * The maps are the resolver's, as the records so far built them, so a
 * sample is unwound in the address space it was taken in; a module is
 * reported to libdwfl when a frame first falls in it, from the file the
 * resolver symbolizes (the recorded binary by build-id, never a rebuilt
 * one).  A mapping that changed under a reported module (dlclose, exec)
 * drops the process's Dwfl and the sample is unwound again.
 */
#include <config.h>

#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/u64set.h"
#include "common/util.h"
#include "symbol/sym_internal.h"
#include "symbol/sym_lib_dw.h"

/* perf's x86-64 register numbers (PERF_REG_X86_*) as DWARF's; -1: none */
#define PERF_X86_64_REGS 24
static const int8_t perf_to_dwarf[PERF_X86_64_REGS] = {
	0, 3, 2, 1, 4, 5, 6, 7,         /* ax bx cx dx si di bp sp */
	16,                              /* ip: the return address column */
	-1, -1, -1, -1, -1, -1, -1,      /* flags and segment registers */
	8, 9, 10, 11, 12, 13, 14, 15,   /* r8 .. r15 */
};
#define PERF_REG_SP 7
/* PERF_SAMPLE_REGS_ABI_64: a 32-bit process's registers (ABI_32) are
 * numbered and sized otherwise, and its binaries are i386 ones */
#define REGS_ABI_64 2
#define PERF_REG_IP 8
#define DWARF_REG_RBP 6

/* processes whose Dwfl is kept (a build runs many short ones: the least
 * recently used one goes) */
#define MAX_PROCS 32
/* a read this far above the copy is the copy being too short */
#define STACK_LIMIT (64ull << 20)

/* what libdwfl was told about a module */
struct mod_info {
	const char *map_path; /* interned by the maps: compared as a pointer */
	uint64_t map_base;    /* start - pgoff: the same for every piece of one mapping */
	char *debug_path;     /* the separate debug file the symbolizer found */
	bool has_cfi;
	struct u64set fde;    /* each pc asked about: 1 when the CFI covers it, 0 when not */
	struct mod_info *next;
};

struct proc_dwfl {
	uint32_t pid;
	Dwfl *dwfl;           /* NULL: free slot */
	struct mod_info *mods;
	uint64_t last_use;
};

struct sym_unwinder {
	struct sym_resolver *r;
	unsigned char arch_image[sizeof(Elf64_Ehdr)];
	Elf *arch;            /* an ELF header naming the machine, for libdwfl's backend */
	struct proc_dwfl procs[MAX_PROCS];
	uint64_t clock;
	/* the sample being unwound */
	const struct sym_user_state *st;
	struct proc_dwfl *cur;
	uint64_t sp;
	uint64_t *pcs;
	uint32_t max, n;
	enum sym_unwind_end end;
	const char *end_binary;
	bool ended, stale, read_past_copy;
	bool last_rbp_zero;   /* the last frame's rbp is 0 (the ABI's outermost frame) */
};

static const char *const end_names[] = {
	[SYM_UNWIND_COMPLETE] = "complete",
	[SYM_UNWIND_TRUNCATED] = "stack copy ends",
	[SYM_UNWIND_NO_BINARY] = "no binary",
	[SYM_UNWIND_NO_CFI] = "no CFI",
	[SYM_UNWIND_WRONG_FILE] = "binary replaced",
	[SYM_UNWIND_NO_REGS] = "no user registers",
	[SYM_UNWIND_MAX_DEPTH] = "too deep",
	[SYM_UNWIND_FAILED] = "unwinding failed",
	[SYM_UNWIND_ABI] = "not 64-bit registers",
};

const char *sym_unwind_end_name(enum sym_unwind_end end)
{
	return (size_t)end < ARRAY_SIZE(end_names) ? end_names[end] : "?";
}

/* ---- libdwfl's callbacks ---- */

/* modules are reported from our files: libdwfl never looks for one */
static int find_no_elf(Dwfl_Module *mod, void **userdata, const char *name, Dwarf_Addr base, char **file_name,
		       Elf **elfp)
{
	(void)mod, (void)userdata, (void)name, (void)base, (void)file_name;
	*elfp = NULL;
	return -1;
}

/* .debug_frame of a binary without it: the debug file the symbolizer found */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *name, Dwarf_Addr base,
			  const char *file_name, const char *debuglink, GElf_Word crc, char **debuginfo_file_name)
{
	const struct mod_info *mi = *userdata;
	int fd;

	(void)mod, (void)name, (void)base, (void)file_name, (void)debuglink, (void)crc;
	if (!mi || !mi->debug_path)
		return -1;
	fd = open(mi->debug_path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		*debuginfo_file_name = strdup(mi->debug_path);
	return fd;
}

static const Dwfl_Callbacks dwfl_callbacks = {
	.find_elf = find_no_elf,
	.find_debuginfo = find_debuginfo,
};

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	(void)dwfl, (void)arg, (void)thread_argp;
	return 0; /* threads are asked for by id, one sample at a time */
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	(void)dwfl, (void)tid;
	*thread_argp = arg;
	return true;
}

/* Memory is the stack copy, and nothing else: CFI rules read saved
 * registers from the stack.  A read past its end says the copy was too
 * short for this stack. */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct sym_unwinder *u = arg;
	uint64_t size = u->st->stack_size, off = addr - u->sp;

	(void)dwfl;
	if (addr >= u->sp && off <= size && size - off >= sizeof(*result)) {
		memcpy(result, u->st->stack + off, sizeof(*result));
		return true;
	}
	if (addr >= u->sp && off < STACK_LIMIT)
		u->read_past_copy = true;
	return false;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	const struct sym_user_state *st = ((struct sym_unwinder *)arg)->st;
	uint32_t k = 0;

	for (unsigned bit = 0; bit < 64; bit++) {
		Dwarf_Word v;

		if (!((st->regs_mask >> bit) & 1))
			continue;
		v = st->regs[k++];
		if (bit < PERF_X86_64_REGS && perf_to_dwarf[bit] >= 0 &&
		    !dwfl_thread_state_registers(thread, perf_to_dwarf[bit], 1, &v))
			return false;
	}
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/* ---- one Dwfl per process ---- */

static void proc_drop(struct proc_dwfl *p)
{
	if (p->dwfl)
		dwfl_end(p->dwfl);
	while (p->mods) {
		struct mod_info *next = p->mods->next;

		free(p->mods->debug_path);
		u64set_release(&p->mods->fde);
		free(p->mods);
		p->mods = next;
	}
	*p = (struct proc_dwfl){ 0 };
}

static struct proc_dwfl *proc_get(struct sym_unwinder *u, uint32_t pid)
{
	struct proc_dwfl *p = NULL, *oldest = &u->procs[0];

	for (size_t i = 0; i < MAX_PROCS && !p; i++) {
		if (u->procs[i].dwfl && u->procs[i].pid == pid)
			p = &u->procs[i];
		else if (!u->procs[i].dwfl || (oldest->dwfl && u->procs[i].last_use < oldest->last_use))
			oldest = &u->procs[i];
	}
	if (!p) {
		p = oldest;
		proc_drop(p);
		p->pid = pid;
		/* without libdw (or libelf) no stack is unwound: unknown */
		if (!u->arch || sym_libdw_load(NULL) != 0)
			return NULL;
		p->dwfl = dwfl_begin(&dwfl_callbacks);
		if (p->dwfl && !dwfl_attach_state(p->dwfl, u->arch, (pid_t)pid, &thread_callbacks, u)) {
			dwfl_end(p->dwfl);
			p->dwfl = NULL;
		}
		if (!p->dwfl)
			return NULL;
	}
	p->last_use = ++u->clock;
	return p;
}

static void stop(struct sym_unwinder *u, enum sym_unwind_end end, const char *binary)
{
	u->end = end;
	u->end_binary = binary;
	u->ended = true;
}

/* The vDSO has no file: libdwfl reads its image (the symbolizer's, the
 * running kernel's) from an anonymous one. */
static int image_fd(const struct sym_dso *dso)
{
	size_t size;
	const char *image = dso->main.elf ? elf_rawfile(dso->main.elf, &size) : NULL;
	int fd = image ? memfd_create("pfmon-vdso", MFD_CLOEXEC) : -1;

	if (fd >= 0 && (write(fd, image, size) != (ssize_t)size || lseek(fd, 0, SEEK_SET) != 0)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* Tell libdwfl about the binary of a mapping: 0, or -1 having said why not. */
static int report_module(struct sym_unwinder *u, const struct sym_map *m)
{
	struct sym_dso *dso = sym_resolver_map_dso(u->r, m->path);
	struct mod_info *mi;
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	void **ud;
	int fd;

	if (dso->wrong_file) {
		stop(u, SYM_UNWIND_WRONG_FILE, m->path);
		return -1;
	}
	if (dso->open_error || (!dso->file_path && dso->kind != SYM_DSO_MEMORY)) {
		stop(u, SYM_UNWIND_NO_BINARY, m->path);
		return -1;
	}
	bias = m->start - sym_dso_offset_to_addr(dso, m->pgoff);
	fd = dso->file_path ? -1 : image_fd(dso);
	dwfl_report_begin_add(u->cur->dwfl);
	mod = dwfl_report_elf(u->cur->dwfl, m->path, dso->file_path ? dso->file_path : m->path, fd, bias, true);
	dwfl_report_end(u->cur->dwfl, NULL, NULL);
	if (!mod && fd >= 0)
		close(fd); /* libdwfl keeps it only on success */
	if (!mod) {
		stop(u, SYM_UNWIND_NO_BINARY, m->path);
		return -1;
	}
	mi = xcalloc(1, sizeof(*mi));
	*mi = (struct mod_info){ .map_path = m->path, .map_base = m->start - m->pgoff, .next = u->cur->mods,
				 .debug_path = dso->debug_path ? xstrdup(dso->debug_path) : NULL };
	u->cur->mods = mi;
	dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL);
	*ud = mi;
	mi->has_cfi = dwfl_module_eh_cfi(mod, &bias) || dwfl_module_dwarf_cfi(mod, &bias);
	return 0;
}

/* Whether the module's CFI covers pc: asked once per (binary, pc), as a
 * profile's samples come back to the same few thousand places. */
static bool has_fde(Dwfl_Module *mod, struct mod_info *mi, uint64_t pc)
{
	Dwarf_CFI *cfi[2] = { NULL, NULL };
	Dwarf_Addr bias[2] = { 0, 0 };
	uint64_t known;

	if (u64set_get(&mi->fde, pc, &known))
		return known;
	cfi[0] = dwfl_module_eh_cfi(mod, &bias[0]);
	known = 0;
	for (int i = 0; i < 2 && !known; i++) {
		Dwarf_Frame *frame;

		if (i == 1) /* .debug_frame, maybe in the debug file: only when needed */
			cfi[1] = dwfl_module_dwarf_cfi(mod, &bias[1]);
		if (cfi[i] && dwarf_cfi_addrframe(cfi[i], pc - bias[i], &frame) == 0) {
			free(frame);
			known = 1;
		}
	}
	u64set_put(&mi->fde, pc, known);
	return known;
}

/* Is pc in the function its binary starts at (e_entry)?  The dynamic
 * loader's _start, where a process runs its first instruction, has no CFI:
 * a stack that reaches it is whole. */
static bool in_entry_function(Dwfl_Module *mod, uint64_t pc)
{
	GElf_Addr bias;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	GElf_Ehdr eh;
	GElf_Sym at, entry;
	GElf_Off off;

	if (!elf || !gelf_getehdr(elf, &eh) || !eh.e_entry)
		return false;
	return dwfl_module_addrinfo(mod, pc, &off, &at, NULL, NULL, NULL) &&
	       dwfl_module_addrinfo(mod, eh.e_entry + bias, &off, &entry, NULL, NULL, NULL) &&
	       at.st_value == entry.st_value;
}

/* Can the unwinder step from a frame at pc?  It needs the binary mapped
 * there, reported, with CFI; a module libdwfl has for another mapping is
 * stale (u->stale: the process's Dwfl is rebuilt). */
static bool can_step(struct sym_unwinder *u, uint64_t pc)
{
	const struct sym_map *m = sym_maps_find(sym_resolver_maps(u->r), u->cur->pid, pc);
	Dwfl_Module *mod = dwfl_addrmodule(u->cur->dwfl, pc);
	const struct mod_info *mi = NULL;

	if (!m || (m->path[0] != '/' && strcmp(m->path, "[vdso]"))) {
		stop(u, SYM_UNWIND_NO_BINARY, m ? m->path : NULL);
		return false;
	}
	if (mod) {
		void **ud;

		dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL);
		mi = *ud;
		if (!mi || mi->map_path != m->path || mi->map_base != m->start - m->pgoff) {
			u->stale = true;
			return false;
		}
	} else if (report_module(u, m)) {
		return false;
	} else {
		mi = u->cur->mods;
		mod = dwfl_addrmodule(u->cur->dwfl, pc);
	}
	if (mod && mi->has_cfi && has_fde(mod, (struct mod_info *)mi, pc))
		return true;
	/* No CFI here: libdwfl would guess from rbp, a general register in
	 * code built without frame pointers.  The x86-64 ABI's outermost frame
	 * (rbp 0: the dynamic loader's _start has no CFI) ends the stack, and
	 * so does the binary's entry function itself, even as the sample's
	 * own frame (a sample at a process's first instructions). */
	if ((u->last_rbp_zero && u->n > 1) || (mod && in_entry_function(mod, pc)))
		stop(u, SYM_UNWIND_COMPLETE, NULL);
	else
		stop(u, SYM_UNWIND_NO_CFI, m->path);
	return false;
}

/*
 * The binary at address a reported to libdwfl, if it can be.  A failure is
 * not said here: can_step() meets it again and says it.
 */
static void report_early(struct sym_unwinder *u, uint64_t a)
{
	const struct sym_map *m = sym_maps_find(sym_resolver_maps(u->r), u->cur->pid, a);

	if (!m || dwfl_addrmodule(u->cur->dwfl, a) || (m->path[0] != '/' && strcmp(m->path, "[vdso]")))
		return;
	if (report_module(u, m))
		u->ended = false;
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct sym_unwinder *u = arg;
	Dwarf_Addr pc;
	Dwarf_Word rbp;
	bool activation;

	/* Asked whether a frame is an activation, libdwfl unwinds it (is its
	 * caller a signal frame?).  Its binary must be known by then: with no
	 * module at its pc libdwfl guesses the caller from rbp, a general
	 * register in code built without frame pointers, and the walk goes
	 * astray.  Its pc is a return address or the sample's own: report the
	 * binaries at pc and at pc - 1 (a call can end a mapping). */
	if (!dwfl_frame_pc(state, &pc, NULL) || pc == 0) {
		stop(u, SYM_UNWIND_FAILED, NULL);
		return DWARF_CB_ABORT;
	}
	report_early(u, pc);
	report_early(u, pc - 1);
	if (!dwfl_frame_pc(state, &pc, &activation)) {
		stop(u, SYM_UNWIND_FAILED, NULL);
		return DWARF_CB_ABORT;
	}
	if (!activation && --pc == 0) { /* a return address: the call is the instruction before */
		stop(u, SYM_UNWIND_FAILED, NULL);
		return DWARF_CB_ABORT;
	}
	if (u->n == u->max) {
		stop(u, SYM_UNWIND_MAX_DEPTH, NULL);
		return DWARF_CB_ABORT;
	}
	u->pcs[u->n++] = pc;
	u->last_rbp_zero = dwfl_frame_reg(state, DWARF_REG_RBP, &rbp) == 0 && rbp == 0;
	if (can_step(u, pc))
		return DWARF_CB_OK;
	if (u->stale)
		u->n--;
	return DWARF_CB_ABORT;
}

/* ---- the interface ---- */

struct sym_unwinder *sym_unwinder_new(struct sym_resolver *r)
{
	struct sym_unwinder *u = xcalloc(1, sizeof(*u));
	Elf64_Ehdr eh = {
		.e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64, ELFDATA2LSB, EV_CURRENT },
		.e_type = ET_EXEC,
		.e_machine = EM_X86_64,
		.e_version = EV_CURRENT,
		.e_ehsize = sizeof(Elf64_Ehdr),
	};

	u->r = r;
	memcpy(u->arch_image, &eh, sizeof(eh));
	if (sym_libelf_load(NULL) != 0)
		return u; /* no arch: nothing is unwound */
	elf_version(EV_CURRENT);
	u->arch = elf_memory((char *)u->arch_image, sizeof(u->arch_image));
	return u;
}

void sym_unwinder_free(struct sym_unwinder *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < MAX_PROCS; i++)
		proc_drop(&u->procs[i]);
	if (u->arch)
		elf_end(u->arch);
	free(u);
}

static uint64_t user_reg(const struct sym_user_state *st, unsigned bit, bool *have)
{
	uint64_t below = st->regs_mask & ((1ull << bit) - 1);

	*have = (st->regs_mask >> bit) & 1;
	return *have ? st->regs[__builtin_popcountll(below)] : 0;
}

/* libdwfl could not step from the last frame */
static enum sym_unwind_end failure_kind(struct sym_unwinder *u)
{
	return u->read_past_copy ? SYM_UNWIND_TRUNCATED : SYM_UNWIND_FAILED;
}

/* one try: false when the process's Dwfl was stale (dropped: try again) */
static bool unwind_once(struct sym_unwinder *u, const struct sym_user_state *st)
{
	int rc;

	u->cur = proc_get(u, st->pid);
	u->n = 0;
	u->ended = u->stale = u->read_past_copy = false;
	if (!u->cur) {
		stop(u, SYM_UNWIND_FAILED, NULL);
		return true;
	}
	rc = dwfl_getthread_frames(u->cur->dwfl, (pid_t)(st->tid ? st->tid : st->pid), frame_cb, u);
	if (u->stale) {
		proc_drop(u->cur);
		return false;
	}
	/* a read past the copy ends the frames: libdwfl may take the return
	 * address it could not read for an undefined one, the outermost frame */
	if (!u->ended && rc == 0 && !u->read_past_copy)
		stop(u, SYM_UNWIND_COMPLETE, NULL);
	else if (!u->ended)
		stop(u, failure_kind(u), NULL);
	return true;
}

void sym_unwind(struct sym_unwinder *u, const struct sym_user_state *st, uint64_t *pcs, uint32_t max,
		struct sym_unwind_result *out)
{
	bool have_sp, have_ip;

	u->st = st;
	u->pcs = pcs;
	u->max = max;
	u->sp = user_reg(st, PERF_REG_SP, &have_sp);
	user_reg(st, PERF_REG_IP, &have_ip);
	if (st->abi != REGS_ABI_64) {
		*out = (struct sym_unwind_result){ 0, SYM_UNWIND_ABI, NULL };
		return;
	}
	if (!have_sp || !have_ip || !u->arch || !max) {
		*out = (struct sym_unwind_result){ 0, have_sp && have_ip ? SYM_UNWIND_FAILED : SYM_UNWIND_NO_REGS,
						   NULL };
		return;
	}
	if (!unwind_once(u, st))
		unwind_once(u, st); /* with a new Dwfl, which cannot be stale */
	*out = (struct sym_unwind_result){ u->n, u->end, u->end_binary };
}
