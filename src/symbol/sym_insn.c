// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Instruction boundaries: is an address of a binary where one of its
 * instructions starts?  A code trigger (an int3 byte or a debug register)
 * placed inside an instruction never fires, or corrupts the instruction;
 * only a disassembly from the function's start can tell, on x86 where
 * instructions are 1 to 15 bytes long.  Capstone decodes; this file walks
 * the function's bytes, read from the file's loaded segments.  Capstone is
 * loaded when a trigger needs it (common/dynlib.h): its 77,000 relocations
 * would cost every run of pfmon.
 */
#include <config.h>

#include <capstone/capstone.h>
#include <gelf.h>
#include <string.h>

#include "common/dynlib.h"
#include "common/util.h"
#include "sym_internal.h"

/* A function is walked from its start at most this far: a trigger beyond
 * it is not checked (no compiler emits functions this large). */
#define INSN_WALK_MAX (16u << 20)

/* the file's bytes from addr to the end of its segment's file bytes (*avail), or NULL */
static const uint8_t *file_bytes(const struct sym_dso *dso, uint64_t addr, uint64_t *avail)
{
	size_t size = 0;
	const char *raw = dso->main.elf ? elf_rawfile(dso->main.elf, &size) : NULL;

	for (size_t i = 0; raw && i < dso->nr_segs; i++) {
		const struct sym_seg *s = &dso->segs[i];
		uint64_t off = s->offset + (addr - s->vaddr);

		if (addr >= s->vaddr && addr - s->vaddr < s->filesz && off < size) {
			*avail = s->filesz - (addr - s->vaddr);
			if (*avail > size - off)
				*avail = size - off; /* a truncated file */
			return (const uint8_t *)raw + off;
		}
	}
	return NULL;
}

struct capstone {
	__typeof__(cs_open) *open;
	__typeof__(cs_malloc) *malloc;
	__typeof__(cs_disasm_iter) *disasm_iter;
	__typeof__(cs_free) *free;
	__typeof__(cs_close) *close;
};

#define ENTRY(field) DYNLIB_SYMBOL(struct capstone, field, "cs_" #field)
static const struct dynlib_symbol capstone_symbols[] = {
	ENTRY(open), ENTRY(malloc), ENTRY(disasm_iter), ENTRY(free), ENTRY(close),
};
#undef ENTRY

/* capstone, loaded on first use; NULL when it cannot be (the place is unknown) */
static const struct capstone *capstone(void)
{
	static struct capstone cs;
	static struct dynlib_once once;

	return dynlib_open_once(&once, "capstone", CAPSTONE_SONAME, capstone_symbols, ARRAY_SIZE(capstone_symbols),
				&cs, NULL) ? NULL : &cs;
}

static bool capstone_mode(uint16_t machine, cs_arch *arch, cs_mode *mode)
{
	switch (machine) {
	case EM_X86_64:
		*arch = CS_ARCH_X86, *mode = CS_MODE_64;
		return true;
	case EM_386:
		*arch = CS_ARCH_X86, *mode = CS_MODE_32;
		return true;
	case EM_AARCH64:
		*arch = CS_ARCH_ARM64, *mode = CS_MODE_LITTLE_ENDIAN;
		return true;
	default:
		return false;
	}
}

/* walk [start, addr] of one function: where the instruction holding addr starts */
static enum sym_insn_place walk(const struct sym_dso *dso, const uint8_t *code, size_t left, uint64_t start,
				uint64_t addr, struct sym_insn *insn)
{
	const struct capstone *cs = capstone();
	uint64_t at = start;
	enum sym_insn_place place = SYM_INSN_UNKNOWN;
	cs_arch arch;
	cs_mode mode;
	cs_insn *ci;
	csh h;

	if (!cs || !capstone_mode(dso->machine, &arch, &mode) || cs->open(arch, mode, &h) != CS_ERR_OK)
		return SYM_INSN_UNKNOWN;
	ci = cs->malloc(h);
	while (ci && place == SYM_INSN_UNKNOWN && cs->disasm_iter(h, &code, &left, &at, ci)) {
		if (ci->address == addr)
			place = SYM_INSN_START;
		else if (addr < ci->address + ci->size) {
			insn->start = ci->address;
			insn->size = ci->size;
			place = SYM_INSN_INSIDE;
		}
	}
	/* bytes the disassembler does not know end the walk: unknown */
	if (ci)
		cs->free(ci, 1);
	cs->close(&h);
	return place;
}

enum sym_insn_place sym_dso_insn_place(struct sym_dso *dso, uint64_t addr, struct sym_insn *insn)
{
	const struct sym_func *f;
	const uint8_t *code;
	uint64_t avail;

	memset(insn, 0, sizeof(*insn));
	if (dso->kind != SYM_DSO_FILE || dso->wrong_file)
		return SYM_INSN_UNKNOWN;
	f = sym_find_func(&dso->funcs, addr);
	if (!f || addr - f->addr > INSN_WALK_MAX)
		return SYM_INSN_UNKNOWN;
	insn->func = f->name;
	insn->func_addr = f->addr;
	if (addr == f->addr)
		return SYM_INSN_START;
	code = file_bytes(dso, f->addr, &avail);
	if (!code || avail <= addr - f->addr)
		return SYM_INSN_UNKNOWN;
	/* the instruction holding addr is at most 15 bytes from its start */
	if (avail > addr - f->addr + 16)
		avail = addr - f->addr + 16;
	return walk(dso, code, avail, f->addr, addr, insn);
}
