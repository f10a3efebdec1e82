// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Instruction boundaries: is an address of a binary where one of its
 * instructions starts?  And a whole function disassembled, for annotated
 * reports (sym_dso_disasm; IA-64's in sym_ia64_disasm.c).  A code trigger (an int3 byte or a debug register)
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
#include <stdlib.h>
#include <string.h>

#include "common/dynlib.h"
#include "common/util.h"
#include "sym_internal.h"

/* A function is walked from its start at most this far: a trigger beyond
 * it is not checked (no compiler emits functions this large). */
#define INSN_WALK_MAX (16u << 20)

const uint8_t *sym_dso_file_bytes(const struct sym_dso *dso, uint64_t addr, uint64_t *avail)
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
	__typeof__(cs_option) *option;
};

#define ENTRY(field) DYNLIB_SYMBOL(struct capstone, field, "cs_" #field)
static const struct dynlib_symbol capstone_symbols[] = {
	ENTRY(open), ENTRY(malloc), ENTRY(disasm_iter), ENTRY(free), ENTRY(close), ENTRY(option),
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
	code = sym_dso_file_bytes(dso, f->addr, &avail);
	if (!code || avail <= addr - f->addr)
		return SYM_INSN_UNKNOWN;
	/* the instruction holding addr is at most 15 bytes from its start */
	if (avail > addr - f->addr + 16)
		avail = addr - f->addr + 16;
	return walk(dso, code, avail, f->addr, addr, insn);
}

void sym_disasm_release(struct sym_disasm *d)
{
	for (size_t i = 0; d->insns && i < d->n; i++) {
		free(d->insns[i].mnemonic);
		free(d->insns[i].operands);
		free(d->insns[i].bundle);
	}
	free(d->insns);
	memset(d, 0, sizeof(*d));
}

struct sym_disasm_insn *sym_disasm_push(struct sym_disasm *d, uint64_t addr, uint32_t size, const char *mnemonic,
					const char *operands)
{
	struct sym_disasm_insn *in;

	if ((d->n & (d->n - 1)) == 0) /* 0, 1, 2, 4...: double */
		d->insns = xrealloc(d->insns, (d->n ? 2 * d->n : 1) * sizeof(*d->insns));
	in = &d->insns[d->n++];
	*in = (struct sym_disasm_insn){ .addr = addr, .size = size, .mnemonic = xstrdup(mnemonic),
					.operands = xstrdup(operands) };
	return in;
}

/* each instruction's source line, from the line table */
static void add_lines(struct sym_dso *dso, struct sym_disasm *d)
{
	for (size_t i = 0; i < d->n; i++) {
		struct sym_result r = { 0 };

		sym_dso_lookup_line(dso, d->insns[i].addr, &r);
		d->insns[i].file = r.file;
		d->insns[i].line = r.line;
	}
}

/* capstone from the function's start to its end; bytes it does not know end it early */
static int capstone_function(const struct sym_dso *dso, const uint8_t *code, size_t left, struct sym_disasm *d,
			     struct pf_error *err)
{
	const struct capstone *cs = capstone();
	uint64_t at = d->addr;
	cs_insn *ci;
	cs_arch arch;
	cs_mode mode;
	csh h;

	if (!cs)
		return pf_error_set(err, PF_E_SYMBOL, dso->path, "capstone cannot be loaded: no disassembly");
	if (!capstone_mode(dso->machine, &arch, &mode))
		return pf_error_set(err, PF_E_SYMBOL, dso->path, "no disassembler for its machine");
	if (cs->open(arch, mode, &h) != CS_ERR_OK)
		return pf_error_set(err, PF_E_SYMBOL, dso->path, "capstone refuses its machine");
	ci = cs->malloc(h);
	while (ci && cs->disasm_iter(h, &code, &left, &at, ci))
		sym_disasm_push(d, ci->address, ci->size, ci->mnemonic, ci->op_str);
	if (ci)
		cs->free(ci, 1);
	cs->close(&h);
	if (at < d->end)
		d->end = at; /* bytes capstone does not know: what came before */
	d->how = SYM_DISASM_CAPSTONE;
	return 0;
}

int sym_dso_disasm(struct sym_dso *dso, uint64_t addr, struct sym_disasm *d, struct pf_error *err)
{
	const struct sym_func *f = NULL;
	const uint8_t *code = NULL;
	uint64_t avail = 0;
	int rc;

	memset(d, 0, sizeof(*d));
	/* a file, or an image in memory ([vdso]): the bytes are libelf's */
	if (dso->kind != SYM_DSO_KERNEL && !dso->wrong_file)
		f = sym_find_func(&dso->funcs, sym_dso_func_addr(dso, addr));
	if (!f)
		return pf_error_set(err, PF_E_SYMBOL, dso->path, "no function symbol to disassemble there");
	d->func = f->name;
	d->addr = f->addr;
	d->end = f->end - f->addr > INSN_WALK_MAX ? f->addr + INSN_WALK_MAX : f->end;
	code = sym_dso_file_bytes(dso, f->addr, &avail);
	if (!code)
		return pf_error_set(err, PF_E_SYMBOL, dso->path, "the function's bytes are not in the file");
	if (avail < d->end - d->addr)
		d->end = d->addr + avail;
	if (dso->machine == EM_IA_64)
		rc = sym_ia64_disasm(dso, code, d);
	else
		rc = capstone_function(dso, code, d->end - d->addr, d, err);
	if (rc == 0)
		add_lines(dso, d);
	else
		sym_disasm_release(d);
	return rc;
}

/* ---- the memory operand of one instruction (data-type profiling) ---- */

/* capstone's x86 register as DWARF numbers it (the x86-64 psABI), -1 for none */
static int x86_dwarf_reg(unsigned reg)
{
	static const struct {
		unsigned cs;
		int dwarf;
	} map[] = {
		{ X86_REG_RAX, 0 }, { X86_REG_RDX, 1 },	 { X86_REG_RCX, 2 },   { X86_REG_RBX, 3 },
		{ X86_REG_RSI, 4 }, { X86_REG_RDI, 5 },	 { X86_REG_RBP, 6 },   { X86_REG_RSP, 7 },
		{ X86_REG_R8, 8 },  { X86_REG_R9, 9 },	 { X86_REG_R10, 10 }, { X86_REG_R11, 11 },
		{ X86_REG_R12, 12 }, { X86_REG_R13, 13 }, { X86_REG_R14, 14 }, { X86_REG_R15, 15 },
		{ X86_REG_RIP, 16 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(map); i++)
		if (map[i].cs == reg)
			return map[i].dwarf;
	return -1;
}

/* capstone's arm64 register as DWARF numbers it (x0..x30 0..30, sp 31), -1 for none */
static int arm64_dwarf_reg(unsigned reg)
{
	if (reg >= ARM64_REG_X0 && reg <= ARM64_REG_X28)
		return (int)(reg - ARM64_REG_X0);
	if (reg == ARM64_REG_X29 || reg == ARM64_REG_X30)
		return reg == ARM64_REG_X29 ? 29 : 30;
	return reg == ARM64_REG_SP ? 31 : -1;
}

/* the first memory operand of a decoded instruction, or false */
static bool mem_operand(uint16_t machine, const cs_insn *ci, struct sym_mem_operand *op)
{
	if (machine == EM_X86_64) {
		const cs_x86 *x = &ci->detail->x86;

		for (uint8_t i = 0; i < x->op_count; i++) {
			const x86_op_mem *m = &x->operands[i].mem;

			if (x->operands[i].type != X86_OP_MEM || m->segment != X86_REG_INVALID)
				continue; /* fs:/gs: (TLS) are another address space */
			*op = (struct sym_mem_operand){ x86_dwarf_reg(m->base), x86_dwarf_reg(m->index), m->scale,
							 m->disp, 0 };
			/* a base or index capstone names that DWARF does not (a 32-bit one): unknown */
			return (m->base == X86_REG_INVALID || op->base >= 0) &&
			       (m->index == X86_REG_INVALID || op->index >= 0);
		}
		return false;
	}
	if (machine == EM_AARCH64) {
		const cs_arm64 *a = &ci->detail->arm64;

		for (uint8_t i = 0; i < a->op_count; i++) {
			const arm64_op_mem *m = &a->operands[i].mem;

			if (a->operands[i].type != ARM64_OP_MEM)
				continue;
			*op = (struct sym_mem_operand){ arm64_dwarf_reg(m->base), arm64_dwarf_reg(m->index), 1, m->disp, 0 };
			return op->base >= 0 && (m->index == ARM64_REG_INVALID || op->index >= 0);
		}
	}
	return false;
}

int sym_dso_mem_operand(const struct sym_dso *dso, uint64_t addr, struct sym_mem_operand *op)
{
	const struct capstone *cs = capstone();
	const uint8_t *code;
	uint64_t avail = 0, at = addr;
	size_t left;
	bool found = false;
	cs_arch arch;
	cs_mode mode;
	cs_insn *ci;
	csh h;

	if (dso->kind != SYM_DSO_FILE || dso->wrong_file || !cs || (dso->machine != EM_X86_64 && dso->machine != EM_AARCH64))
		return -1;
	if (!(code = sym_dso_file_bytes(dso, addr, &avail)) || !capstone_mode(dso->machine, &arch, &mode) ||
	    cs->open(arch, mode, &h) != CS_ERR_OK)
		return -1;
	left = avail < 16 ? (size_t)avail : 16; /* one instruction: 15 bytes at most on x86 */
	cs->option(h, CS_OPT_DETAIL, CS_OPT_ON);
	ci = cs->malloc(h);
	if (ci && cs->disasm_iter(h, &code, &left, &at, ci))
		found = mem_operand(dso->machine, ci, op);
	if (found)
		op->size = ci->size;
	if (ci)
		cs->free(ci, 1);
	cs->close(&h);
	return found ? 0 : -1;
}
