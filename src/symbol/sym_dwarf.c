/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * DWARF line tables through libdwarf, decoded lazily (elfutils libdwfl/cu.c
 * does the same): at open only the CU address ranges are read, from
 * .debug_aranges; a CU's line program is decoded the first time an address
 * falls inside the CU, turned into a compact array sorted by address, and
 * kept.  A lookup is then two binary searches.
 *
 * When .debug_aranges is missing or does not cover an address (clang emits
 * none by default), every CU DIE is visited once, and its DW_AT_low_pc /
 * DW_AT_high_pc or DW_AT_ranges (DWARF 4 .debug_ranges or DWARF 5
 * .debug_rnglists) fill in the ranges of the CUs aranges did not list.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <dwarf.h>
#include <libdwarf.h>

#include "common/util.h"
#include "symbol/sym_internal.h"
#include "symbol/sym_lib_dwarf.h"

#define LINE_END UINT32_MAX /* file index of an end_sequence row */

/* A row while decoding; the cached table splits it in two arrays. */
struct sym_line {
	uint64_t addr;
	struct sym_row {
		uint32_t line;
		uint32_t file; /* index in the CU's file table; LINE_END ends a sequence */
	} row;
};

enum cu_state { CU_NEW, CU_DECODED, CU_BROKEN };

struct sym_cu {
	Dwarf_Off die_off;
	enum cu_state state;
	struct sym_line *lines; /* while decoding only */
	size_t nr_lines;
	/* The binary search reads only addrs, 8 bytes a row, so its path
	 * through memory touches half the cache lines of 16-byte rows. */
	uint64_t *addrs;
	struct sym_row *rows;
	const char **files; /* interned names by DWARF file number */
	size_t nr_files;
};

struct cu_range {
	uint64_t start, end;
	size_t cu;
};

struct sym_dwarf {
	Dwarf_Debug dbg;
	struct sym_dwsec *sections; /* what dbg reads: see sym_dwsec.c */
	struct sym_strset *strings;
	struct sym_cu *cus;
	size_t nr_cus, cap_cus;
	struct cu_range *ranges;
	size_t nr_ranges, cap_ranges;
	bool scanned; /* every CU DIE visited */
};

/* libdwarf 20210528 sometimes returns DW_DLV_NO_ENTRY with an error
 * object allocated (dwarf_rnglists_get_rle_head on a bad index, found by
 * the elf fuzzer): free whatever it handed back, whatever the result. */
static void drop_error(Dwarf_Debug dbg, Dwarf_Error *e)
{
	if (*e) {
		dwarf_dealloc_error(dbg, *e);
		*e = NULL;
	}
}

static size_t add_cu(struct sym_dwarf *dw, Dwarf_Off off)
{
	if (dw->nr_cus == dw->cap_cus) {
		dw->cap_cus = dw->cap_cus ? dw->cap_cus * 2 : 16;
		dw->cus = xrealloc(dw->cus, dw->cap_cus * sizeof(*dw->cus));
	}
	dw->cus[dw->nr_cus] = (struct sym_cu){ .die_off = off };
	return dw->nr_cus++;
}

static void add_range(struct sym_dwarf *dw, uint64_t start, uint64_t end, size_t cu)
{
	if (end <= start)
		return;
	if (dw->nr_ranges == dw->cap_ranges) {
		dw->cap_ranges = dw->cap_ranges ? dw->cap_ranges * 2 : 64;
		dw->ranges = xrealloc(dw->ranges, dw->cap_ranges * sizeof(*dw->ranges));
	}
	dw->ranges[dw->nr_ranges++] = (struct cu_range){ start, end, cu };
}

static int range_cmp(const void *a, const void *b)
{
	const struct cu_range *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->end > y->end) - (x->end < y->end);
}

static void sort_ranges(struct sym_dwarf *dw)
{
	if (dw->nr_ranges > 1)
		qsort(dw->ranges, dw->nr_ranges, sizeof(*dw->ranges), range_cmp);
}

static int cu_off_cmp(const void *key, const void *elem)
{
	Dwarf_Off k = *(const Dwarf_Off *)key, o = ((const struct sym_cu *)elem)->die_off;

	return (k > o) - (k < o);
}

struct arange {
	Dwarf_Addr start;
	Dwarf_Unsigned len;
	Dwarf_Off off;
};

static int arange_off_cmp(const void *a, const void *b)
{
	const struct arange *x = a, *y = b;

	return (x->off > y->off) - (x->off < y->off);
}

/* .debug_aranges → one CU per distinct DIE offset, sorted by offset */
static void load_aranges(struct sym_dwarf *dw)
{
	Dwarf_Arange *ar = NULL;
	Dwarf_Signed n = 0;
	Dwarf_Error e = NULL;
	int res = dwarf_get_aranges(dw->dbg, &ar, &n, &e);
	struct arange *v;
	size_t nr = 0;

	if (res != DW_DLV_OK) {
		drop_error(dw->dbg, &e);
		return;
	}
	v = xmalloc(((size_t)n + 1) * sizeof(*v));
	for (Dwarf_Signed i = 0; i < n; i++) {
		Dwarf_Unsigned seg, segsz;

		res = dwarf_get_arange_info_b(ar[i], &seg, &segsz, &v[nr].start, &v[nr].len,
					      &v[nr].off, &e);
		if (res == DW_DLV_OK)
			nr++;
		drop_error(dw->dbg, &e);
		dwarf_dealloc(dw->dbg, ar[i], DW_DLA_ARANGE);
	}
	dwarf_dealloc(dw->dbg, ar, DW_DLA_LIST);
	qsort(v, nr, sizeof(*v), arange_off_cmp);
	for (size_t i = 0; i < nr; i++) {
		if (i == 0 || v[i].off != v[i - 1].off)
			add_cu(dw, v[i].off);
		add_range(dw, v[i].start, v[i].start + v[i].len, dw->nr_cus - 1);
	}
	free(v);
}

/* DWARF 5 DW_AT_ranges: .debug_rnglists; libdwarf "cooks" each entry into
 * absolute start/end addresses. */
static void rnglists(struct sym_dwarf *dw, Dwarf_Attribute attr, Dwarf_Half form,
		     Dwarf_Unsigned val, size_t cu)
{
	Dwarf_Rnglists_Head head = NULL;
	Dwarf_Unsigned count = 0, goff;
	Dwarf_Error e = NULL;
	int res = dwarf_rnglists_get_rle_head(attr, form, val, &head, &count, &goff, &e);

	if (res != DW_DLV_OK) {
		drop_error(dw->dbg, &e);
		return;
	}
	for (Dwarf_Unsigned i = 0; i < count; i++) {
		unsigned int len, code;
		Dwarf_Unsigned raw1, raw2, start, end;
		Dwarf_Bool unavailable = 0;

		res = dwarf_get_rnglists_entry_fields_a(head, i, &len, &code, &raw1, &raw2,
							&unavailable, &start, &end, &e);
		if (res != DW_DLV_OK) {
			drop_error(dw->dbg, &e);
			break;
		}
		if (!unavailable && code != DW_RLE_end_of_list && code != DW_RLE_base_address &&
		    code != DW_RLE_base_addressx)
			add_range(dw, start, end, cu);
	}
	dwarf_dealloc_rnglists_head(head);
}

/* DWARF 2-4 DW_AT_ranges: .debug_ranges, offsets from the CU base address */
static void debug_ranges(struct sym_dwarf *dw, Dwarf_Die die, Dwarf_Off off,
			 Dwarf_Addr base, size_t cu)
{
	Dwarf_Ranges *r = NULL;
	Dwarf_Signed n = 0;
	Dwarf_Unsigned bytes;
	Dwarf_Off real;
	Dwarf_Error e = NULL;
	int res = dwarf_get_ranges_b(dw->dbg, off, die, &real, &r, &n, &bytes, &e);

	if (res != DW_DLV_OK) {
		drop_error(dw->dbg, &e);
		return;
	}
	for (Dwarf_Signed i = 0; i < n; i++) {
		if (r[i].dwr_type == DW_RANGES_ENTRY)
			add_range(dw, base + r[i].dwr_addr1, base + r[i].dwr_addr2, cu);
		else if (r[i].dwr_type == DW_RANGES_ADDRESS_SELECTION)
			base = r[i].dwr_addr2;
		else
			break;
	}
	dwarf_ranges_dealloc(dw->dbg, r, n);
}

static void ranges_attr(struct sym_dwarf *dw, Dwarf_Die die, Dwarf_Attribute attr,
			Dwarf_Half version, Dwarf_Addr base, size_t cu)
{
	Dwarf_Error e = NULL;
	Dwarf_Half form = 0;
	Dwarf_Unsigned val = 0;
	Dwarf_Off off = 0;
	int res = dwarf_whatform(attr, &form, &e);

	if (res == DW_DLV_OK) {
		if (form == DW_FORM_rnglistx) {
			res = dwarf_formudata(attr, &val, &e);
		} else {
			res = dwarf_global_formref(attr, &off, &e);
			val = off;
		}
	}
	if (res != DW_DLV_OK) {
		drop_error(dw->dbg, &e);
		return;
	}
	if (version >= 5)
		rnglists(dw, attr, form, val, cu);
	else
		debug_ranges(dw, die, (Dwarf_Off)val, base, cu);
}

/* A CU DIE's own ranges, for CUs .debug_aranges does not list. */
static void die_ranges(struct sym_dwarf *dw, Dwarf_Die die, Dwarf_Half version, size_t cu)
{
	Dwarf_Error e = NULL;
	Dwarf_Attribute attr = NULL;
	Dwarf_Addr low = 0, high = 0;
	Dwarf_Half form;
	enum Dwarf_Form_Class cls;
	bool has_low;
	int res;

	res = dwarf_lowpc(die, &low, &e);
	has_low = res == DW_DLV_OK;
	drop_error(dw->dbg, &e);
	res = dwarf_attr(die, DW_AT_ranges, &attr, &e);
	if (res == DW_DLV_OK) {
		ranges_attr(dw, die, attr, version, has_low ? low : 0, cu);
		dwarf_dealloc_attribute(attr);
		return;
	}
	drop_error(dw->dbg, &e);
	if (!has_low)
		return;
	res = dwarf_highpc_b(die, &high, &form, &cls, &e);
	if (res == DW_DLV_OK)
		add_range(dw, low, cls == DW_FORM_CLASS_CONSTANT ? low + high : high, cu);
	drop_error(dw->dbg, &e);
}

/* Visit every CU header once; CUs aranges listed are left alone. */
static void scan_cus(struct sym_dwarf *dw)
{
	size_t known = dw->nr_cus; /* sorted by offset: from load_aranges */
	Dwarf_Error e = NULL;

	dw->scanned = true;
	for (;;) {
		Dwarf_Unsigned hlen, typeoff, next;
		Dwarf_Half ver, asz, lsz, esz, cutype;
		Dwarf_Off abbr, off;
		Dwarf_Sig8 sig;
		Dwarf_Die die = NULL;
		int res;

		res = dwarf_next_cu_header_d(dw->dbg, 1, &hlen, &ver, &abbr, &asz, &lsz, &esz,
					     &sig, &typeoff, &next, &cutype, &e);
		if (res != DW_DLV_OK) {
			drop_error(dw->dbg, &e);
			break;
		}
		res = dwarf_siblingof_b(dw->dbg, NULL, 1, &die, &e);
		if (res != DW_DLV_OK) {
			drop_error(dw->dbg, &e);
			continue;
		}
		res = dwarf_dieoffset(die, &off, &e);
		if (res == DW_DLV_OK &&
		    (!known || !bsearch(&off, dw->cus, known, sizeof(*dw->cus), cu_off_cmp)))
			die_ranges(dw, die, ver, add_cu(dw, off));
		drop_error(dw->dbg, &e);
		dwarf_dealloc_die(die);
	}
	sort_ranges(dw);
}

/* The file table entry of a line row, named through libdwarf once per
 * file number (dwarf_linesrc joins directory and comp_dir for DWARF 2-5). */
static uint32_t row_file(struct sym_dwarf *dw, struct sym_cu *cu, Dwarf_Line l,
			 Dwarf_Unsigned fno)
{
	Dwarf_Error e = NULL;
	char *name = NULL;
	int res;

	if (fno >= LINE_END)
		return 0;
	if (fno >= cu->nr_files) {
		size_t n = fno + 8;

		cu->files = xrealloc(cu->files, n * sizeof(*cu->files));
		memset(cu->files + cu->nr_files, 0, (n - cu->nr_files) * sizeof(*cu->files));
		cu->nr_files = n;
	}
	if (!cu->files[fno]) {
		res = dwarf_linesrc(l, &name, &e);
		if (res == DW_DLV_OK) {
			cu->files[fno] = sym_strset_intern(dw->strings, name);
			dwarf_dealloc(dw->dbg, name, DW_DLA_STRING);
		}
		drop_error(dw->dbg, &e);
	}
	return (uint32_t)fno;
}

static bool read_row(struct sym_dwarf *dw, struct sym_cu *cu, Dwarf_Line l, struct sym_line *row)
{
	Dwarf_Error e = NULL;
	Dwarf_Addr addr;
	Dwarf_Unsigned lineno, fno;
	Dwarf_Bool end;
	int res;

	if ((res = dwarf_lineaddr(l, &addr, &e)) != DW_DLV_OK ||
	    (res = dwarf_lineendsequence(l, &end, &e)) != DW_DLV_OK ||
	    (res = dwarf_lineno(l, &lineno, &e)) != DW_DLV_OK ||
	    (res = dwarf_line_srcfileno(l, &fno, &e)) != DW_DLV_OK) {
		drop_error(dw->dbg, &e);
		return false;
	}
	row->addr = addr;
	row->row.line = end ? 0 : (uint32_t)lineno;
	row->row.file = end ? LINE_END : row_file(dw, cu, l, fno);
	return true;
}

/*
 * Append a row, keeping only what a lookup can return: of rows at one
 * address the last wins (as in binutils), and a row repeating the previous
 * row's file and line adds nothing.  gcc's -O2 tables, full of is_stmt and
 * view rows, shrink by about half, and so does every binary search.
 */
static void push_row(struct sym_cu *cu, const struct sym_line *row)
{
	struct sym_line *prev = cu->nr_lines ? &cu->lines[cu->nr_lines - 1] : NULL;

	if (prev && prev->row.file != LINE_END && row->row.file != LINE_END) {
		if (prev->addr == row->addr) {
			*prev = *row;
			return;
		}
		if (prev->row.file == row->row.file && prev->row.line == row->row.line)
			return;
	}
	cu->lines[cu->nr_lines++] = *row;
}

struct seq {
	size_t first, n;
	uint64_t start, end;
};

static int seq_cmp(const void *a, const void *b)
{
	const struct seq *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->end > y->end) - (x->end < y->end);
}

/*
 * Rows are sorted within a sequence; sequences may come in any order.  Sort
 * whole sequences by start address, so that where one sequence ends at the
 * address where the next starts, its end row comes first and the lookup
 * (last row at or below the address) finds the start row.
 */
static void sort_sequences(struct sym_cu *cu)
{
	struct seq *s = xmalloc((cu->nr_lines + 1) * sizeof(*s));
	struct sym_line *out;
	size_t ns = 0, first = 0, pos = 0;
	bool sorted = true;

	for (size_t i = 0; i < cu->nr_lines; i++) {
		if (cu->lines[i].row.file != LINE_END && i + 1 < cu->nr_lines)
			continue;
		s[ns] = (struct seq){ first, i + 1 - first, cu->lines[first].addr, cu->lines[i].addr };
		if (ns > 0 && seq_cmp(&s[ns - 1], &s[ns]) > 0)
			sorted = false;
		ns++;
		first = i + 1;
	}
	if (!sorted) {
		qsort(s, ns, sizeof(*s), seq_cmp);
		out = xmalloc(cu->nr_lines * sizeof(*out));
		for (size_t i = 0; i < ns; i++) {
			memcpy(out + pos, cu->lines + s[i].first, s[i].n * sizeof(*out));
			pos += s[i].n;
		}
		free(cu->lines);
		cu->lines = out;
	}
	free(s);
}

static void split_rows(struct sym_cu *cu)
{
	cu->addrs = xmalloc((cu->nr_lines + 1) * sizeof(*cu->addrs));
	cu->rows = xmalloc((cu->nr_lines + 1) * sizeof(*cu->rows));
	for (size_t i = 0; i < cu->nr_lines; i++) {
		cu->addrs[i] = cu->lines[i].addr;
		cu->rows[i] = cu->lines[i].row;
	}
	free(cu->lines);
	cu->lines = NULL;
}

static void decode_cu(struct sym_dwarf *dw, struct sym_cu *cu)
{
	Dwarf_Error e = NULL;
	Dwarf_Die die = NULL;
	Dwarf_Line_Context ctx = NULL;
	Dwarf_Line *lines = NULL;
	Dwarf_Signed n = 0;
	Dwarf_Unsigned version;
	Dwarf_Small tables;
	int res;

	cu->state = CU_BROKEN;
	res = dwarf_offdie_b(dw->dbg, cu->die_off, 1, &die, &e);
	if (res != DW_DLV_OK)
		goto out;
	res = dwarf_srclines_b(die, &version, &tables, &ctx, &e);
	if (res != DW_DLV_OK)
		goto out;
	res = dwarf_srclines_from_linecontext(ctx, &lines, &n, &e);
	if (res != DW_DLV_OK)
		goto out;
	cu->lines = xmalloc(((size_t)n + 1) * sizeof(*cu->lines));
	for (Dwarf_Signed i = 0; i < n; i++) {
		struct sym_line row;

		if (read_row(dw, cu, lines[i], &row))
			push_row(cu, &row);
	}
	sort_sequences(cu);
	split_rows(cu);
	cu->state = CU_DECODED;
out:
	drop_error(dw->dbg, &e);
	if (ctx)
		dwarf_srclines_dealloc_b(ctx);
	if (die)
		dwarf_dealloc_die(die);
}

static const struct cu_range *find_range(const struct sym_dwarf *dw, uint64_t addr)
{
	size_t lo = SYM_UPPER_BOUND(dw->ranges, dw->nr_ranges, start, addr);

	for (size_t i = lo, steps = 0; i > 0 && steps < 8; i--, steps++)
		if (addr < dw->ranges[i - 1].end)
			return &dw->ranges[i - 1];
	return NULL;
}

int sym_dwarf_line(struct sym_dwarf *dw, uint64_t addr, const char **file, unsigned int *line)
{
	const struct cu_range *r = find_range(dw, addr);
	struct sym_cu *cu;
	size_t lo;

	if (!r && !dw->scanned) {
		scan_cus(dw);
		r = find_range(dw, addr);
	}
	if (!r)
		return -1;
	cu = &dw->cus[r->cu];
	if (cu->state == CU_NEW)
		decode_cu(dw, cu);
	if (cu->state != CU_DECODED)
		return -1;
	/* the last row at or below addr: of equal rows the last wins */
	lo = sym_upper_bound(cu->addrs, cu->nr_lines, addr);
	if (lo == 0 || cu->rows[lo - 1].file == LINE_END)
		return -1;
	*file = cu->files[cu->rows[lo - 1].file];
	*line = cu->rows[lo - 1].line;
	return 0;
}

struct sym_dwarf *sym_dwarf_open(Elf *elf, struct sym_strset *strings)
{
	struct sym_dwsec *sections = sym_dwsec_new(elf);
	Dwarf_Debug dbg = NULL;
	Dwarf_Error e = NULL;
	struct sym_dwarf *dw;
	int res;

	if (!sections)
		return NULL;
	if (sym_libdwarf_load(NULL) != 0) { /* no lines, as without DWARF */
		sym_dwsec_free(sections);
		return NULL;
	}
	/* libdwarf by default records every allocation in a search tree so
	 * dwarf_finish can free what callers forget; we free everything we
	 * are given, and the tree costs a third of line-table decoding. */
	dwarf_set_de_alloc_flag(0);
	/* our object access, not dwarf_elf_init_b: plain sections are the
	 * file mapping, compressed ones are inflated by libdeflate, and only
	 * what line lookups read is listed */
	res = dwarf_object_init_b(sym_dwsec_access(sections), NULL, NULL, DW_GROUPNUMBER_ANY,
				  &dbg, &e);
	if (res != DW_DLV_OK) {
		drop_error(dbg, &e);
		sym_dwsec_free(sections);
		return NULL;
	}
	dw = xcalloc(1, sizeof(*dw));
	dw->dbg = dbg;
	dw->sections = sections;
	dw->strings = strings;
	load_aranges(dw);
	sort_ranges(dw);
	return dw;
}

void sym_dwarf_close(struct sym_dwarf *dw)
{
	Dwarf_Error e = NULL;

	if (!dw)
		return;
	for (size_t i = 0; i < dw->nr_cus; i++) {
		free(dw->cus[i].lines);
		free(dw->cus[i].addrs);
		free(dw->cus[i].rows);
		free(dw->cus[i].files);
	}
	free(dw->cus);
	free(dw->ranges);
	dwarf_object_finish(dw->dbg, &e);
	sym_dwsec_free(dw->sections);
	free(dw);
}
