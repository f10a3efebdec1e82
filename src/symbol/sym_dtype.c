// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Data-type profiling: the type, and the field of it, that a sampled access
 * touched, named only as far as the binaries' DWARF tells.
 *
 *  - a data address inside a variable of static storage (a global, a
 *    static local) that DWARF places with DW_OP_addr: its type, and the
 *    field at (address - variable's start);
 *  - else the sampled instruction's memory operand (capstone): a variable
 *    or parameter in scope at the pc whose location there (location lists
 *    included, libdw) is the operand's base register, of pointer type: the
 *    pointed-to type, and the field at the operand's displacement.
 *
 * Anything else is unknown, never a guess.  libdw is the one the unwinder
 * loads (sym_lib_dw.h); it opens the file itself (dwarf_begin on a
 * descriptor).  libdwarf, which reads the line tables and exports functions
 * of the same names (dwarf_tag, dwarf_child...), is loaded RTLD_LOCAL too,
 * so neither library's calls can bind to the other's.
 */
#include <config.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/u64set.h"
#include "common/util.h"
#include "sym_internal.h"
#include "sym_lib_dw.h"

/* a variable of static storage: where it is, how big, its type's DIE */
struct dt_global {
	uint64_t addr, size;
	Dwarf_Off type;
};

struct sym_dtype_dwarf {
	Dwarf *dw; /* with its own libelf handle of the file (dwarf_begin) */
	Dwarf_CFI *eh_cfi; /* .eh_frame's (ours to end), for the frame base of stack slots */
	bool cfi_tried;
	struct dt_global *globals; /* sorted by addr, read on the first data lookup */
	size_t nr_globals;
	bool globals_read;
	/* answers by pc (register accesses) and by data address (globals):
	 * the index + 1 in answers; 0 for unknown */
	struct u64set by_pc, by_addr;
	struct sym_dtype *answers;
	size_t nr_answers;
};

void sym_dtype_dwarf_free(struct sym_dtype_dwarf *d)
{
	if (!d)
		return;
	if (d->eh_cfi)
		dwarf_cfi_end(d->eh_cfi);
	if (d->dw)
		dwarf_end(d->dw);
	u64set_release(&d->by_pc);
	u64set_release(&d->by_addr);
	free(d->globals);
	free(d->answers);
	free(d);
}

/* the dso's DWARF (its debug file's when separate), opened once; NULL without */
static struct sym_dtype_dwarf *dso_dwarf(struct sym_dso *dso)
{
	const char *path = dso->debug_path ? dso->debug_path : dso->file_path ? dso->file_path : dso->path;
	struct sym_dtype_dwarf *d;
	int fd;

	if (dso->dtype)
		return dso->dtype->dw ? dso->dtype : NULL;
	d = dso->dtype = xcalloc(1, sizeof(*d));
	if (dso->kind != SYM_DSO_FILE || dso->wrong_file || dso->open_error || sym_libdw_load(NULL) != 0 ||
	    sym_open_regular(path, &fd, NULL, NULL) < 0)
		return NULL;
	d->dw = dwarf_begin(fd, DWARF_C_READ);
	/* libelf mapped the file: no descriptor is kept (sym_elf_open's way) */
	if (d->dw)
		elf_cntl(dwarf_getelf(d->dw), ELF_C_FDREAD);
	close(fd);
	return d->dw ? d : NULL;
}

/* ---- names ---- */

static bool die_type(Dwarf_Die *die, Dwarf_Die *type)
{
	Dwarf_Attribute a;

	return dwarf_attr_integrate(die, DW_AT_type, &a) && dwarf_formref_die(&a, type);
}

static uint64_t die_size(Dwarf_Die *type)
{
	Dwarf_Word size = 0;

	return dwarf_aggregate_size(type, &size) == 0 ? size : 0;
}

/* a type as C spells it: "struct foo", "int", "char *"; qualifiers dropped */
static void type_name(Dwarf_Die *t, struct strbuf *sb, int depth)
{
	const char *name = dwarf_diename(t);
	Dwarf_Die target;
	bool has_target = die_type(t, &target);
	int tag = dwarf_tag(t);

	if (depth > 8) { /* a cycle in hostile DWARF */
		strbuf_addstr(sb, "?");
		return;
	}
	switch (tag) {
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_class_type:
	case DW_TAG_enumeration_type:
		strbuf_addstr(sb, tag == DW_TAG_structure_type ? "struct "
				  : tag == DW_TAG_union_type   ? "union "
				  : tag == DW_TAG_class_type   ? "class "
							       : "enum ");
		strbuf_addstr(sb, name ? name : "(anon)");
		return;
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
		if (has_target)
			type_name(&target, sb, depth + 1);
		else
			strbuf_addstr(sb, "void");
		strbuf_addstr(sb, tag == DW_TAG_pointer_type ? " *" : " &");
		return;
	case DW_TAG_array_type:
		if (has_target)
			type_name(&target, sb, depth + 1);
		strbuf_addstr(sb, " []");
		return;
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
	case DW_TAG_restrict_type:
	case DW_TAG_atomic_type:
		if (has_target)
			type_name(&target, sb, depth + 1);
		else
			strbuf_addstr(sb, "void");
		return;
	default: /* base types, typedefs: their name */
		strbuf_addstr(sb, name ? name : "(anon)");
	}
}

/* a member's offset in its struct (constant DW_AT_data_member_location, or
 * the byte of DW_AT_data_bit_offset); union members and C++ bases at 0 */
static uint64_t member_offset(Dwarf_Die *m)
{
	Dwarf_Attribute a;
	Dwarf_Word v = 0;

	if (dwarf_attr(m, DW_AT_data_member_location, &a))
		return dwarf_formudata(&a, &v) == 0 ? v : UINT64_MAX;
	if (dwarf_attr(m, DW_AT_data_bit_offset, &a))
		return dwarf_formudata(&a, &v) == 0 ? v / 8 : UINT64_MAX;
	return 0;
}

/* the member of the aggregate t covering off: into *m, its offset into *moff */
static bool member_at(Dwarf_Die *t, uint64_t off, Dwarf_Die *m, uint64_t *moff)
{
	Dwarf_Die mt;

	if (dwarf_child(t, m) != 0)
		return false;
	do {
		uint64_t at, size;

		if (dwarf_tag(m) != DW_TAG_member && dwarf_tag(m) != DW_TAG_inheritance)
			continue;
		at = member_offset(m);
		size = die_type(m, &mt) ? die_size(&mt) : 0;
		if (at != UINT64_MAX && off >= at && off - at < size) {
			*moff = at;
			return true;
		}
	} while (dwarf_siblingof(m, m) == 0);
	return false;
}

/* the path of the field at off in type t: "a.b", "arr[3].x"; empty when
 * off is in no field (padding, or t is no aggregate) */
static void field_path(Dwarf_Die *t, uint64_t off, struct strbuf *path, int depth)
{
	Dwarf_Die real, m, elem;
	uint64_t moff, esize;
	const char *name;

	if (depth > 16 || dwarf_peel_type(t, &real) != 0)
		return;
	switch (dwarf_tag(&real)) {
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_class_type:
		if (!member_at(&real, off, &m, &moff) || !die_type(&m, &elem))
			return;
		/* an anonymous struct or union member adds no name */
		if ((name = dwarf_diename(&m)) && dwarf_tag(&m) == DW_TAG_member)
			strbuf_addf(path, "%s%s", strbuf_str(path)[0] ? "." : "", name);
		field_path(&elem, off - moff, path, depth + 1);
		return;
	case DW_TAG_array_type:
		if (!die_type(&real, &elem) || !(esize = die_size(&elem)))
			return;
		strbuf_addf(path, "[%llu]", (unsigned long long)(off / esize));
		field_path(&elem, off % esize, path, depth + 1);
		return;
	default:
		return;
	}
}

/* perf's spelling: type "struct foo", typeoff "struct foo +8 (field)",
 * "(no field)" for a scalar or padding; off past the type: unknown field */
static struct sym_dtype name_access(Dwarf_Die *t, uint64_t off, bool off_known, struct sym_strset *names)
{
	struct strbuf sb = STRBUF_INIT, path = STRBUF_INIT;
	struct sym_dtype out = { NULL, NULL };
	uint64_t size = die_size(t);

	type_name(t, &sb, 0);
	out.type = sym_strset_intern(names, strbuf_str(&sb));
	if (off_known && off < size && off <= INT32_MAX) {
		field_path(t, off, &path, 0);
		strbuf_addf(&sb, " +%llu (%s)", (unsigned long long)off,
			    strbuf_str(&path)[0] ? strbuf_str(&path) : "no field");
		out.typeoff = sym_strset_intern(names, strbuf_str(&sb));
	}
	strbuf_release(&sb);
	strbuf_release(&path);
	return out;
}

/* ---- the cache ---- */

static void remember(struct sym_dtype_dwarf *d, struct u64set *by, uint64_t key, const struct sym_dtype *a)
{
	if (!a->type) {
		u64set_put(by, key, 0);
		return;
	}
	if ((d->nr_answers & (d->nr_answers - 1)) == 0) /* 0, 1, 2, 4...: double */
		d->answers = xrealloc(d->answers, (d->nr_answers ? 2 * d->nr_answers : 1) * sizeof(*d->answers));
	d->answers[d->nr_answers++] = *a;
	u64set_put(by, key, d->nr_answers);
}

static bool recall(const struct sym_dtype_dwarf *d, const struct u64set *by, uint64_t key, struct sym_dtype *out)
{
	uint64_t i;

	if (!u64set_get(by, key, &i))
		return false;
	*out = i ? d->answers[i - 1] : (struct sym_dtype){ NULL, NULL };
	return true;
}

/* ---- variables of static storage ---- */

/* a DIE's DW_OP_addr location, the whole expression: a variable's address */
static bool static_address(Dwarf_Die *die, uint64_t *addr)
{
	Dwarf_Attribute a, at;
	Dwarf_Addr v;
	Dwarf_Op *expr;
	size_t len;

	if (!dwarf_attr(die, DW_AT_location, &a) || dwarf_getlocation(&a, &expr, &len) != 0)
		return false;
	if (len != 1)
		return false;
	if (expr[0].atom == DW_OP_addr) {
		*addr = expr[0].number;
		return true;
	}
	/* DWARF 5 (clang's default): an index into .debug_addr */
	if (expr[0].atom != DW_OP_addrx && expr[0].atom != DW_OP_GNU_addr_index)
		return false;
	return dwarf_getlocation_attr(&a, expr, &at) == 0 && dwarf_formaddr(&at, &v) == 0 && (*addr = v, true);
}

static void add_global(struct sym_dtype_dwarf *d, Dwarf_Die *var, size_t *cap)
{
	Dwarf_Die type;
	uint64_t addr, size;

	if (!static_address(var, &addr) || !die_type(var, &type) || !(size = die_size(&type)))
		return;
	if (d->nr_globals == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		d->globals = xrealloc(d->globals, *cap * sizeof(*d->globals));
	}
	d->globals[d->nr_globals++] = (struct dt_global){ addr, size, dwarf_dieoffset(&type) };
}

/* the variables under die: at the top, in functions and their blocks
 * (static locals), in namespaces; types are not descended into */
static void scan_globals(struct sym_dtype_dwarf *d, Dwarf_Die *die, size_t *cap, int depth)
{
	Dwarf_Die c;

	if (depth > 32 || dwarf_child(die, &c) != 0)
		return;
	do {
		switch (dwarf_tag(&c)) {
		case DW_TAG_variable:
			add_global(d, &c, cap);
			break;
		case DW_TAG_subprogram:
		case DW_TAG_lexical_block:
		case DW_TAG_namespace:
		case DW_TAG_inlined_subroutine:
			scan_globals(d, &c, cap, depth + 1);
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
}

static int cmp_global(const void *a, const void *b)
{
	const struct dt_global *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

static void read_globals(struct sym_dtype_dwarf *d)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie;
	size_t cap = 0;

	d->globals_read = true;
	while (dwarf_get_units(d->dw, cu, &cu, NULL, NULL, &cudie, NULL) == 0)
		scan_globals(d, &cudie, &cap, 0);
	if (d->nr_globals)
		qsort(d->globals, d->nr_globals, sizeof(*d->globals), cmp_global);
}

/* the variable holding addr: the last starting at or below it, if it reaches it */
static const struct dt_global *find_global(const struct sym_dtype_dwarf *d, uint64_t addr)
{
	size_t lo = SYM_UPPER_BOUND(d->globals, d->nr_globals, addr, addr);

	if (lo && addr - d->globals[lo - 1].addr < d->globals[lo - 1].size)
		return &d->globals[lo - 1];
	return NULL;
}

static struct sym_dtype global_access(struct sym_dtype_dwarf *d, uint64_t addr, struct sym_strset *names)
{
	const struct dt_global *g;
	Dwarf_Die type;

	if (!d->globals_read)
		read_globals(d);
	if (!(g = find_global(d, addr)) || !dwarf_offdie(d->dw, g->type, &type))
		return (struct sym_dtype){ NULL, NULL };
	return name_access(&type, addr - g->addr, true, names);
}

/* ---- accesses through a register ---- */

/* the value of a location expression, as base register + *k; false when
 * it is anything else (in memory, composed of pieces, computed) */
static bool in_register(const Dwarf_Op *e, size_t len, int reg, int64_t *k)
{
	*k = 0;
	if (len == 1)
		return (reg < 32 && e[0].atom == DW_OP_reg0 + reg) || (e[0].atom == DW_OP_regx && e[0].number == (Dwarf_Word)reg);
	if (len != 2 || e[1].atom != DW_OP_stack_value)
		return false;
	if (reg < 32 && e[0].atom == DW_OP_breg0 + reg) {
		*k = (int64_t)e[0].number;
		return true;
	}
	if (e[0].atom == DW_OP_bregx && e[0].number == (Dwarf_Word)reg) {
		*k = (int64_t)e[0].number2;
		return true;
	}
	return false;
}

/* a variable or parameter whose location at pc is reg (+ *k) */
static bool var_in_register(Dwarf_Die *var, uint64_t pc, int reg, int64_t *k)
{
	Dwarf_Attribute a;
	Dwarf_Op *exprs[4];
	size_t lens[4];
	int n;

	if (!dwarf_attr(var, DW_AT_location, &a))
		return false;
	n = dwarf_getlocation_addr(&a, pc, exprs, lens, 4);
	for (int i = 0; i < n; i++)
		if (in_register(exprs[i], lens[i], reg, k))
			return true;
	return false;
}

/* the unit holding pc: through .debug_aranges, else (clang writes none)
 * each unit's ranges */
static bool unit_at(struct sym_dtype_dwarf *d, uint64_t pc, Dwarf_Die *cu)
{
	Dwarf_CU *u = NULL;

	if (dwarf_addrdie(d->dw, pc, cu))
		return true;
	while (dwarf_get_units(d->dw, u, &u, NULL, NULL, cu, NULL) == 0)
		if (dwarf_haspc(cu, pc) > 0)
			return true;
	return false;
}

/* the scopes at pc, innermost first (the unit last): the count, or 0 */
static int scopes_at(struct sym_dtype_dwarf *d, uint64_t pc, Dwarf_Die **scopes)
{
	Dwarf_Die cu;
	int n;

	*scopes = NULL;
	if (!unit_at(d, pc, &cu) || (n = dwarf_getscopes(&cu, pc, scopes)) <= 0)
		return 0;
	return n;
}

/* the innermost variable or parameter of the scopes for which is(var) */
static bool find_var(Dwarf_Die *scopes, int n, bool (*is)(Dwarf_Die *var, const void *arg), const void *arg,
		     Dwarf_Die *var)
{
	for (int i = 0; i < n; i++) {
		if (dwarf_child(&scopes[i], var) != 0)
			continue;
		do {
			int tag = dwarf_tag(var);

			if ((tag == DW_TAG_variable || tag == DW_TAG_formal_parameter) && is(var, arg))
				return true;
		} while (dwarf_siblingof(var, var) == 0);
	}
	return false;
}

/* what a lookup of a variable by its location at pc compares with */
struct var_query {
	uint64_t pc;
	int reg;
	int64_t k;      /* out: in_register's constant */
	int64_t offset; /* stack slots: the operand's displacement from reg's value at pc */
	int64_t fb_off; /* and the frame base's (reg + fb_off), when fb_known */
	bool fb_known;
	uint64_t size;  /* out: the slot's variable's size */
};

static bool holds_register(Dwarf_Die *var, const void *arg)
{
	struct var_query *q = (struct var_query *)arg;

	return var_in_register(var, q->pc, q->reg, &q->k);
}

/* ---- stack slots ---- */

/* the CFA at pc as register + offset (the CFI's rule), or false */
static bool cfa_at(struct sym_dtype_dwarf *d, uint64_t pc, int *reg, int64_t *off)
{
	Dwarf_CFI *cfi = NULL;
	Dwarf_Frame *frame = NULL;
	Dwarf_Op *ops;
	size_t nops;
	bool ok = false;

	if (!d->cfi_tried) {
		d->cfi_tried = true;
		d->eh_cfi = dwarf_getcfi_elf(dwarf_getelf(d->dw));
	}
	/* .eh_frame, else .debug_frame */
	if (d->eh_cfi && dwarf_cfi_addrframe(d->eh_cfi, pc, &frame) == 0)
		cfi = d->eh_cfi;
	else if ((cfi = dwarf_getcfi(d->dw)) && dwarf_cfi_addrframe(cfi, pc, &frame) != 0)
		return false;
	/* libdw gives a register rule as DW_OP_bregx reg, offset */
	if (cfi && dwarf_frame_cfa(frame, &ops, &nops) == 0 && nops == 1 && ops[0].atom == DW_OP_bregx &&
	    ops[0].number < 128) {
		*reg = (int)ops[0].number;
		*off = (int64_t)ops[0].number2;
		ok = true;
	}
	free(frame);
	return ok;
}

/* the frame base at pc (the function's DW_AT_frame_base) as register + offset */
static bool frame_base(struct sym_dtype_dwarf *d, Dwarf_Die *scopes, int n, uint64_t pc, int *reg, int64_t *off)
{
	Dwarf_Attribute a;
	Dwarf_Op *e[1];
	size_t len[1];
	int i = 0;

	while (i < n && dwarf_tag(&scopes[i]) != DW_TAG_subprogram) /* inlined code: its caller's frame */
		i++;
	if (i == n || !dwarf_attr(&scopes[i], DW_AT_frame_base, &a) ||
	    dwarf_getlocation_addr(&a, pc, e, len, 1) != 1 || len[0] != 1)
		return false;
	if (e[0][0].atom == DW_OP_call_frame_cfa)
		return cfa_at(d, pc, reg, off);
	*off = 0;
	if (e[0][0].atom >= DW_OP_reg0 && e[0][0].atom <= DW_OP_reg31)
		*reg = e[0][0].atom - DW_OP_reg0;
	else if (e[0][0].atom >= DW_OP_breg0 && e[0][0].atom <= DW_OP_breg31)
		*reg = e[0][0].atom - DW_OP_breg0, *off = (int64_t)e[0][0].number;
	else
		return false;
	return true;
}

/* a variable in memory at reg + k at pc (DW_OP_fbreg, or DW_OP_bregN of
 * reg), the operand's displacement inside it */
static bool holds_slot(Dwarf_Die *var, const void *arg)
{
	struct var_query *q = (struct var_query *)arg;
	Dwarf_Attribute a;
	Dwarf_Op *e[1];
	size_t len[1];
	Dwarf_Die type;
	int64_t at;

	if (!dwarf_attr(var, DW_AT_location, &a) || dwarf_getlocation_addr(&a, q->pc, e, len, 1) != 1 ||
	    len[0] != 1)
		return false;
	if (e[0][0].atom == DW_OP_fbreg && q->fb_known)
		at = q->fb_off + (int64_t)e[0][0].number;
	else if (q->reg < 32 && e[0][0].atom == DW_OP_breg0 + q->reg)
		at = (int64_t)e[0][0].number;
	else
		return false;
	if (!die_type(var, &type) || !(q->size = die_size(&type)))
		return false;
	q->k = at;
	return q->offset >= at && (uint64_t)(q->offset - at) < q->size;
}

/* a stack slot: the variable the frame holds at the operand's address */
static struct sym_dtype stack_access(struct sym_dtype_dwarf *d, Dwarf_Die *scopes, int n, uint64_t pc,
				     const struct sym_mem_operand *op, struct sym_strset *names)
{
	struct var_query q = { .pc = pc, .reg = op->base, .offset = op->disp };
	Dwarf_Die var, type;
	int fb_reg;

	q.fb_known = frame_base(d, scopes, n, pc, &fb_reg, &q.fb_off) && fb_reg == op->base;
	if (!find_var(scopes, n, holds_slot, &q, &var) || !die_type(&var, &type))
		return (struct sym_dtype){ NULL, NULL };
	return name_access(&type, (uint64_t)(op->disp - q.k), true, names);
}

static struct sym_dtype register_access(struct sym_dso *dso, struct sym_dtype_dwarf *d, uint64_t pc,
					struct sym_strset *names)
{
	struct sym_mem_operand op;
	Dwarf_Die var, ptr, target, *scopes;
	struct var_query q;
	struct sym_dtype a;
	int64_t off;
	uint64_t size;
	bool found;
	int n;

	if (sym_dso_mem_operand(dso, pc, &op) < 0)
		return (struct sym_dtype){ NULL, NULL };
	/* rip-relative (x86-64): a variable of the binary, at an address the
	 * instruction alone gives (.bss past the file is an anonymous
	 * mapping: the data address names no binary) */
	if (dso->machine == EM_X86_64 && op.base == 16 && op.index < 0)
		return global_access(d, pc + op.size + (uint64_t)op.disp, names);
	/* an absolute address: only where the binary runs as linked */
	if (op.base < 0 && op.index < 0 && !dso->is_dyn)
		return global_access(d, (uint64_t)op.disp, names);
	if (op.base < 0 || !(n = scopes_at(d, pc, &scopes)))
		return (struct sym_dtype){ NULL, NULL };
	q = (struct var_query){ .pc = pc, .reg = op.base };
	found = find_var(scopes, n, holds_register, &q, &var);
	if (!found && op.index < 0) {
		a = stack_access(d, scopes, n, pc, &op, names);
		free(scopes);
		return a;
	}
	free(scopes);
	if (!found || !die_type(&var, &ptr) || dwarf_peel_type(&ptr, &ptr) != 0 ||
	    dwarf_tag(&ptr) != DW_TAG_pointer_type || !die_type(&ptr, &target) ||
	    dwarf_peel_type(&target, &target) != 0)
		return (struct sym_dtype){ NULL, NULL };
	off = op.disp - q.k;
	size = die_size(&target);
	/* p[i].f: the index steps over whole elements, the displacement is in one */
	if (op.index >= 0 && (uint64_t)op.scale != size)
		return name_access(&target, 0, false, names);
	/* p[1].f written p->f + sizeof(*p): an element of the array p points into */
	if (off >= 0 && size && (uint64_t)off >= size)
		off = (int64_t)((uint64_t)off % size);
	return name_access(&target, (uint64_t)off, off >= 0, names);
}

void sym_dso_dtype(struct sym_dso *dso, uint64_t pc, struct sym_dso *data_dso, uint64_t data,
		   struct sym_strset *names, struct sym_dtype *out)
{
	struct sym_dtype_dwarf *d;

	*out = (struct sym_dtype){ NULL, NULL };
	if (data_dso && (d = dso_dwarf(data_dso))) {
		if (!recall(d, &d->by_addr, data, out)) {
			*out = global_access(d, data, names);
			remember(d, &d->by_addr, data, out);
		}
		if (out->type)
			return;
	}
	if (dso && (d = dso_dwarf(dso)) && !recall(d, &d->by_pc, pc, out)) {
		*out = register_access(dso, d, pc, names);
		remember(d, &d->by_pc, pc, out);
	}
}
