/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One ELF file: function symbols, load segments, and the way to its line
 * tables.  The symbol table is read once into a sorted array; lookups are a
 * binary search.  Names point into libelf's mapping of the string table, so
 * the file stays open (and mapped) as long as the dso lives.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "symbol/sym_internal.h"

static bool wanted(const GElf_Sym *s, bool data)
{
	int t = GELF_ST_TYPE(s->st_info);

	if (s->st_shndx == SHN_UNDEF || s->st_shndx >= SHN_LORESERVE)
		return false;
	if (!data)
		return t == STT_FUNC || t == STT_GNU_IFUNC || t == STT_NOTYPE;
	return t == STT_OBJECT;
}

/* a NOTYPE label (hand-written assembly: ld.so's _start) in code; like
 * perf, a label names code no function covers, never a piece of one
 * (load_table drops the labels inside a sized function) */
static bool code_label(Elf *elf, const GElf_Sym *s, const char *name)
{
	GElf_Shdr sh;

	if (GELF_ST_TYPE(s->st_info) != STT_NOTYPE)
		return false;
	/* mapping symbols ($x, $d) and assembler locals name no code */
	if (name[0] == '$' || !strncmp(name, ".L", 2))
		return false;
	return gelf_getshdr(elf_getscn(elf, s->st_shndx), &sh) && (sh.sh_flags & SHF_EXECINSTR);
}

/*
 * Among symbols at one address, the one perf names, so that the two tools'
 * reports agree (__mmap and mmap64, both local in ld.so, are mmap64 in
 * both): a function before a label, a sized symbol before a size-0 one,
 * not weak before weak, global before local, fewer leading underscores,
 * the longer name, then the first in the table.
 */
struct raw_func {
	struct sym_func f;
	uint64_t size;
	bool label;
	unsigned char bind;
	size_t index;
};

static size_t leading_underscores(const char *name)
{
	return strspn(name, "_");
}

static int preference(const struct raw_func *x, const struct raw_func *y)
{
	size_t ux, uy, nx, ny;

	if (x->label != y->label)
		return x->label ? 1 : -1;
	if (!x->size != !y->size)
		return x->size ? -1 : 1;
	if ((x->bind == STB_WEAK) != (y->bind == STB_WEAK))
		return x->bind == STB_WEAK ? 1 : -1;
	if ((x->bind == STB_GLOBAL) != (y->bind == STB_GLOBAL))
		return x->bind == STB_GLOBAL ? -1 : 1;
	ux = leading_underscores(x->f.name);
	uy = leading_underscores(y->f.name);
	if (ux != uy)
		return ux < uy ? -1 : 1;
	nx = strlen(x->f.name);
	ny = strlen(y->f.name);
	if (nx != ny)
		return nx > ny ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static int raw_cmp(const void *a, const void *b)
{
	const struct raw_func *x = a, *y = b;

	if (x->f.addr != y->f.addr)
		return x->f.addr < y->f.addr ? -1 : 1;
	return preference(x, y); /* best first */
}

static size_t read_symtab(Elf *elf, Elf_Scn *scn, bool data, struct raw_func **out)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	GElf_Shdr sh;
	struct raw_func *v;
	size_t n, nr = 0;

	*out = NULL;
	if (!d || !gelf_getshdr(scn, &sh) || sh.sh_entsize == 0)
		return 0;
	n = sh.sh_size / sh.sh_entsize;
	v = xmalloc((n ? n : 1) * sizeof(*v));
	for (size_t i = 0; i < n; i++) {
		GElf_Sym s;
		const char *name;

		if (!gelf_getsym(d, (int)i, &s) || !wanted(&s, data))
			continue;
		name = elf_strptr(elf, sh.sh_link, s.st_name);
		if (!name || !*name)
			continue;
		if (GELF_ST_TYPE(s.st_info) == STT_NOTYPE && !code_label(elf, &s, name))
			continue;
		v[nr].f.addr = s.st_value;
		v[nr].f.name = name;
		v[nr].size = s.st_size;
		v[nr].label = GELF_ST_TYPE(s.st_info) == STT_NOTYPE;
		v[nr].bind = GELF_ST_BIND(s.st_info);
		v[nr].index = i;
		nr++;
	}
	*out = v;
	return nr;
}

/* a PLT's layout: its header's size and each entry's (perf's, by machine) */
static bool plt_layout(uint16_t machine, uint64_t *header, uint64_t *entry)
{
	switch (machine) {
	case EM_X86_64:
	case EM_386:
		*header = 16;
		*entry = 16;
		return true;
	case EM_AARCH64:
		*header = 32;
		*entry = 16;
		return true;
	default:
		return false;
	}
}

/* the i-th relocation's symbol name, "" for none (an IRELATIVE one) */
static const char *plt_symbol(Elf *elf, Elf_Data *rels, bool rela, size_t i, Elf_Data *dynsym,
			      size_t strtab)
{
	GElf_Rela ra;
	GElf_Rel r;
	GElf_Sym sym;
	uint64_t info;
	const char *name;

	if (rela ? !gelf_getrela(rels, (int)i, &ra) : !gelf_getrel(rels, (int)i, &r))
		return "";
	info = rela ? ra.r_info : r.r_info;
	if (!GELF_R_SYM(info) || !dynsym || !gelf_getsym(dynsym, (int)GELF_R_SYM(info), &sym))
		return "";
	name = elf_strptr(elf, strtab, sym.st_name);
	return name ? name : "";
}

/*
 * The PLT's entries, as perf names them: "FUNC@plt" for the i-th
 * relocation of .rela.plt (.rel.plt), "@plt" for one without a symbol (an
 * IRELATIVE), entry i at .plt + header + i * entry size.  Into *v; their
 * number.
 */
static size_t read_plt(struct sym_dso *dso, struct sym_func **v)
{
	size_t n = 0;
	Elf *elf = dso->main.elf;
	Elf_Scn *plt, *rels, *dynsym;
	GElf_Shdr plt_sh, rel_sh, dyn_sh;
	Elf_Data *rel_data, *dyn_data = NULL;
	uint64_t header, entry, nr;
	bool rela = true;

	*v = NULL;
	if (!elf || !plt_layout(dso->machine, &header, &entry))
		return 0;
	plt = sym_elf_section(elf, SHT_PROGBITS, ".plt");
	rels = sym_elf_section(elf, SHT_RELA, ".rela.plt");
	if (!rels) {
		rels = sym_elf_section(elf, SHT_REL, ".rel.plt");
		rela = false;
	}
	if (!plt || !rels || !gelf_getshdr(plt, &plt_sh) || !gelf_getshdr(rels, &rel_sh) || !rel_sh.sh_entsize ||
	    !(rel_data = elf_getdata(rels, NULL)) || plt_sh.sh_size < header)
		return 0;
	dynsym = elf_getscn(elf, rel_sh.sh_link);
	if (dynsym && gelf_getshdr(dynsym, &dyn_sh))
		dyn_data = elf_getdata(dynsym, NULL);
	nr = rel_sh.sh_size / rel_sh.sh_entsize;
	/* no entry past the section: a hostile count names nothing more */
	if (nr > (plt_sh.sh_size - header) / entry)
		nr = (plt_sh.sh_size - header) / entry;
	*v = xmalloc((nr + 1) * sizeof(**v));
	for (size_t i = 0; i < nr; i++) {
		char *name = xasprintf("%s@plt", plt_symbol(elf, rel_data, rela, i, dyn_data,
							   dyn_data ? dyn_sh.sh_link : 0));
		uint64_t at = plt_sh.sh_addr + header + i * entry;

		(*v)[n++] = (struct sym_func){ at, at + entry, sym_strset_intern(&dso->strings, name) };
		free(name);
	}
	return n;
}

static int func_cmp(const void *a, const void *b)
{
	const struct sym_func *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The PLT's entries where no symbol of the table is: perf adds them after
 * the table's symbols got their ends, and a size-0 symbol before the PLT
 * (an executable's _init) keeps the entries it covers. */
static void add_plt(struct sym_dso *dso, struct sym_table *t)
{
	struct sym_func *plt;
	size_t n = read_plt(dso, &plt), added = 0;

	if (!n)
		return;
	t->syms = xrealloc(t->syms, (t->nr + n) * sizeof(*t->syms));
	for (size_t i = 0; i < n; i++)
		if (!sym_find_func(t, plt[i].addr))
			t->syms[t->nr + added++] = plt[i];
	free(plt);
	if (!added)
		return;
	t->nr += added;
	t->nr_plt = added;
	qsort(t->syms, t->nr, sizeof(*t->syms), func_cmp);
	t->addrs = xrealloc(t->addrs, (t->nr + 1) * sizeof(*t->addrs));
	for (size_t i = 0; i < t->nr; i++)
		t->addrs[i] = t->syms[i].addr;
}

/* End of the load segment holding addr: where a size-0 symbol must stop. */
static uint64_t seg_end(const struct sym_dso *dso, uint64_t addr)
{
	for (size_t i = 0; i < dso->nr_segs; i++) {
		const struct sym_seg *s = &dso->segs[i];

		if (addr >= s->vaddr && addr < s->vaddr + s->memsz)
			return s->vaddr + s->memsz;
	}
	return addr + 1;
}

/* Sort, drop duplicate addresses, give size-0 symbols an end. */
static void load_table(struct sym_dso *dso, Elf *elf, Elf_Scn *scn, bool data,
		       struct sym_table *t)
{
	struct raw_func *raw;
	size_t n = read_symtab(elf, scn, data, &raw), nr = 0;
	uint64_t covered = 0; /* the end of the sized functions so far */

	if (n > 1)
		qsort(raw, n, sizeof(*raw), raw_cmp);
	t->syms = xmalloc((n ? n : 1) * sizeof(*t->syms));
	for (size_t i = 0; i < n; i++) {
		struct sym_func *f = &t->syms[nr];
		size_t j;

		if (i > 0 && raw[i].f.addr == raw[i - 1].f.addr)
			continue;
		if (raw[i].label && raw[i].f.addr < covered)
			continue;
		if (raw[i].size && raw[i].f.addr + raw[i].size > covered)
			covered = raw[i].f.addr + raw[i].size;
		*f = raw[i].f;
		if (raw[i].size) {
			f->end = f->addr + raw[i].size;
		} else {
			for (j = i + 1; j < n && raw[j].f.addr == f->addr; j++)
				;
			f->end = j < n ? raw[j].f.addr : seg_end(dso, f->addr);
		}
		nr++;
	}
	free(raw);
	t->nr = nr;
	t->addrs = xmalloc((nr + 1) * sizeof(*t->addrs));
	for (size_t i = 0; i < nr; i++)
		t->addrs[i] = t->syms[i].addr;
	if (!data)
		add_plt(dso, t);
}

static void free_table(struct sym_table *t)
{
	free(t->syms);
	free(t->addrs);
}

static void load_segments(struct sym_dso *dso, Elf *elf)
{
	size_t phnum;

	if (elf_getphdrnum(elf, &phnum) != 0 || phnum == 0)
		return;
	dso->segs = xcalloc(phnum, sizeof(*dso->segs));
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		dso->segs[dso->nr_segs++] = (struct sym_seg){
			.vaddr = ph.p_vaddr, .offset = ph.p_offset,
			.filesz = ph.p_filesz, .memsz = ph.p_memsz,
		};
	}
}

static bool has_dwarf_lines(Elf *elf)
{
	return sym_elf_has_progbits(elf, ".debug_line") ||
	       sym_elf_has_progbits(elf, ".zdebug_line");
}

/* Symbols: own .symtab, else the debug file's, else .dynsym. */
static void choose_symbols(struct sym_dso *dso)
{
	Elf_Scn *scn = sym_elf_section(dso->main.elf, SHT_SYMTAB, NULL);

	Elf *elf = dso->main.elf;

	if (scn) {
		dso->source = SYM_SRC_SYMTAB;
	} else if (dso->debug.elf &&
		   (scn = sym_elf_section(dso->debug.elf, SHT_SYMTAB, NULL)) != NULL) {
		elf = dso->debug.elf;
		dso->source = SYM_SRC_DEBUGFILE;
	} else if ((scn = sym_elf_section(dso->main.elf, SHT_DYNSYM, NULL)) != NULL) {
		dso->source = SYM_SRC_DYNSYM;
	}
	if (scn)
		load_table(dso, elf, scn, false, &dso->funcs);
	/* data objects wait for the first data address */
	dso->sym_elf = elf;
	dso->sym_scn = scn;
	if (dso->funcs.nr == dso->funcs.nr_plt)
		dso->source = SYM_SRC_NONE; /* PLT entries alone name none of its code */
}

static void open_debug_file(struct sym_dso *dso, const char *debug_root)
{
	char *dpath;

	if (sym_find_debug_file(dso->path, &dso->main, debug_root, dso->build_id,
				dso->build_id_len, &dpath) != 0)
		return;
	if (sym_elf_open(dpath, &dso->debug, NULL) != 0) {
		free(dpath);
		return;
	}
	dso->debug_path = dpath;
}

struct sym_dso *sym_dso_alloc(const char *path)
{
	struct sym_dso *dso = xcalloc(1, sizeof(*dso));

	dso->path = xstrdup(path);
	dso->main.fd = dso->debug.fd = -1;
	return dso;
}

/* Everything after the main ELF handle is open: segments, build-id, the
 * debug file (when find_debug), symbols and lines. */
static void dso_load(struct sym_dso *dso, const char *debug_root, bool find_debug)
{
	struct sym_elf *lines_from = NULL;

	dso->machine = dso->main.machine;
	dso->is_dyn = dso->main.type == ET_DYN;
	load_segments(dso, dso->main.elf);
	dso->build_id_len = sym_build_id(dso->main.elf, dso->build_id, sizeof(dso->build_id));
	/* a relocatable object's DWARF needs relocations: no lines (sym_dwsec.c) */
	if (dso->main.type != ET_REL && has_dwarf_lines(dso->main.elf))
		lines_from = &dso->main;
	/* Only a binary missing symbols or lines is worth a debug-file hunt. */
	if (find_debug && (!lines_from || !sym_elf_section(dso->main.elf, SHT_SYMTAB, NULL))) {
		open_debug_file(dso, debug_root);
		if (!lines_from && dso->debug.elf && has_dwarf_lines(dso->debug.elf))
			lines_from = &dso->debug;
	}
	choose_symbols(dso);
	dso->lines_from = lines_from; /* opened by the first line lookup */
}

/* the line tables, opened on first use; NULL when there are none */
static struct sym_dwarf *dso_dwarf(struct sym_dso *dso)
{
	if (!dso->lines_tried && dso->lines_from)
		dso->dwarf = sym_dwarf_open(dso->lines_from->elf, &dso->strings);
	dso->lines_tried = true;
	return dso->dwarf;
}

int sym_dso_open(const char *path, const char *debug_root, struct sym_dso **out,
		 struct pf_error *err)
{
	struct sym_dso *dso = sym_dso_alloc(path);

	*out = NULL;
	if (sym_elf_open(path, &dso->main, err) != 0) {
		sym_dso_close(dso);
		return -1;
	}
	dso->file_path = xstrdup(path);
	dso_load(dso, debug_root, true);
	*out = dso;
	return 0;
}

/* No debug-file hunt: an image has no path to derive one from. */
int sym_dso_open_memory(const char *name, const void *image, size_t size, struct sym_dso **out,
			struct pf_error *err)
{
	struct sym_dso *dso = sym_dso_alloc(name);

	*out = NULL;
	dso->kind = SYM_DSO_MEMORY;
	if (sym_elf_memory(name, image, size, &dso->main, err) != 0) {
		sym_dso_close(dso);
		return -1;
	}
	dso_load(dso, NULL, false);
	*out = dso;
	return 0;
}

struct sym_dso *sym_dso_stub(const char *path, const char *reason)
{
	struct sym_dso *dso = sym_dso_alloc(path);

	dso->open_error = xstrdup(reason);
	return dso;
}

void sym_dso_close(struct sym_dso *dso)
{
	if (!dso)
		return;
	sym_dwarf_close(dso->dwarf);
	sym_dtype_dwarf_free(dso->dtype);
	sym_elf_close(&dso->debug);
	sym_elf_close(&dso->main);
	sym_strset_free(&dso->strings);
	free_table(&dso->funcs);
	free_table(&dso->data);
	sym_kallsyms_free(dso->kallsyms_retired);
	sym_kallsyms_free(dso->kallsyms);
	free(dso->segs);
	free(dso->why_no_symbols);
	free(dso->open_error);
	free(dso->debug_path);
	free(dso->file_path);
	free(dso->path);
	free(dso);
}

void sym_dso_info(const struct sym_dso *dso, struct sym_dso_info *info)
{
	*info = (struct sym_dso_info){
		.path = dso->path,
		.kind = dso->kind,
		.debug_path = dso->debug_path,
		.open_error = dso->open_error,
		.symbols = dso->source,
		.why_no_symbols = dso->why_no_symbols,
		/* present in the file, and usable if they were opened */
		.has_lines = dso->lines_from && (!dso->lines_tried || dso->dwarf),
		.lines_read = dso->dwarf != NULL,
		.machine = dso->machine,
		.is_dyn = dso->is_dyn,
		.nr_funcs = dso->kallsyms ? dso->kallsyms->nr : dso->funcs.nr - dso->funcs.nr_plt,
		.build_id = dso->build_id_len ? dso->build_id : NULL,
		.build_id_len = dso->build_id_len,
		.lookups = dso->lookups,
		.wrong_file = dso->wrong_file,
	};
}

/*
 * A mapping shows file offset pgoff at its start; the ELF address of a file
 * offset comes from the PT_LOAD segment holding it (p_vaddr - p_offset is the
 * segment's own bias, which differs between segments of one file).
 */
uint64_t sym_dso_offset_to_addr(const struct sym_dso *dso, uint64_t off)
{
	const struct sym_seg *best = NULL;

	for (size_t i = 0; i < dso->nr_segs; i++) {
		const struct sym_seg *s = &dso->segs[i];

		if (off >= s->offset && off < s->offset + s->filesz)
			return off - s->offset + s->vaddr;
		/* past the file bytes (bss) or between segments: the nearest
		 * segment starting before the offset */
		if (off >= s->offset && (!best || s->offset >= best->offset))
			best = s;
	}
	return best ? off - best->offset + best->vaddr : off;
}

uint64_t sym_dso_func_addr(const struct sym_dso *dso, uint64_t addr)
{
	return dso->machine == EM_IA_64 ? addr & ~(uint64_t)0xf : addr;
}

const struct sym_func *sym_find_func(const struct sym_table *t, uint64_t addr)
{
	size_t lo = sym_upper_bound(t->addrs, t->nr, addr);

	/* a few steps back cover a symbol nested inside a larger one */
	for (size_t i = lo, steps = 0; i > 0 && steps < 8; i--, steps++)
		if (addr < t->syms[i - 1].end)
			return &t->syms[i - 1];
	return NULL;
}

/* the whole kallsyms in place of a cached table (the kernel image's)
 * that missed: once; the addresses named so far stay marked */
static void kernel_load_whole(struct sym_dso *dso)
{
	struct sym_kallsyms *cached = dso->kallsyms, *whole;
	struct pf_error err;

	if (!cached || !cached->cached || dso->kallsyms_retired)
		return;
	dso->kallsyms_retired = cached; /* tried once, and its names stay valid */
	if (sym_kallsyms_load_whole(&whole, &err)) {
		dso->kallsyms = NULL; /* as the prefetch would have found it */
		dso->source = SYM_SRC_NONE;
		dso->why_no_symbols = xstrdup(err.msg);
		return;
	}
	for (size_t i = 0; i < cached->nr; i++) {
		const struct sym_ksym *k = cached->used[i] ? sym_kallsyms_find(whole, cached->addrs[i]) : NULL;

		if (k)
			whole->used[k - whole->syms] = true;
	}
	dso->kallsyms = whole;
}

/* The kernel: a kallsyms symbol and its module; no lines (no vmlinux). */
static void kernel_lookup(struct sym_dso *dso, uint64_t addr, struct sym_result *res)
{
	const struct sym_ksym *k = dso->kallsyms ? sym_kallsyms_find(dso->kallsyms, addr) : NULL;

	if (!k && dso->kallsyms && dso->kallsyms->cached) {
		kernel_load_whole(dso);
		k = dso->kallsyms ? sym_kallsyms_find(dso->kallsyms, addr) : NULL;
	}
	if (k) {
		dso->kallsyms->used[k - dso->kallsyms->syms] = true;
		res->func = k->name;
		res->offset = addr - k->addr;
		res->module = k->module;
	}
}

void sym_dso_lookup_func(struct sym_dso *dso, uint64_t addr, struct sym_result *res)
{
	const struct sym_func *f;

	*res = (struct sym_result){ .binary = dso->path, .addr = addr, .offset = addr,
				    .wrong_file = dso->wrong_file };
	dso->lookups++;
	if (dso->kind == SYM_DSO_KERNEL) {
		kernel_lookup(dso, addr, res);
		return;
	}
	f = sym_find_func(&dso->funcs, sym_dso_func_addr(dso, addr));
	if (f) {
		res->func = f->name;
		/* on IA-64 the offset keeps the slot: 0x22 is bundle 0x20, slot 2 */
		res->offset = addr - f->addr;
	}
}

void sym_dso_lookup_line(struct sym_dso *dso, uint64_t addr, struct sym_result *res)
{
	struct sym_dwarf *dw = dso->kind == SYM_DSO_KERNEL ? NULL : dso_dwarf(dso);

	/* IA-64 line rows carry the slot (bundle + 0..2): search with it */
	if (dw)
		sym_dwarf_line(dw, addr, &res->file, &res->line);
}

void sym_dso_lookup(struct sym_dso *dso, uint64_t addr, struct sym_result *res)
{
	sym_dso_lookup_func(dso, addr, res);
	sym_dso_lookup_line(dso, addr, res);
}

/* by name in the whole table: the sorted one keeps one name per address
 * (malloc and __libc_malloc are one function) */
static int find_raw(const struct sym_dso *dso, bool data, const char *name, uint64_t *addr, uint64_t *size)
{
	struct raw_func *raw = NULL;
	size_t n = dso->sym_scn ? read_symtab(dso->sym_elf, dso->sym_scn, data, &raw) : 0;
	int rc = -1;

	for (size_t i = 0; i < n && rc; i++)
		if (strcmp(raw[i].f.name, name) == 0) {
			*addr = raw[i].f.addr;
			*size = raw[i].size;
			rc = 0;
		}
	free(raw);
	return rc;
}

int sym_dso_find_func(const struct sym_dso *dso, const char *name, uint64_t *addr,
		      uint64_t *size)
{
	for (size_t i = 0; dso->kallsyms && i < dso->kallsyms->nr; i++) {
		const struct sym_ksym *k = sym_kallsyms_at(dso->kallsyms, i);

		if (k && strcmp(k->name, name) == 0) {
			*addr = k->addr;
			*size = k->end - k->addr;
			return 0;
		}
	}
	for (size_t i = 0; i < dso->funcs.nr; i++) {
		if (strcmp(dso->funcs.syms[i].name, name) == 0) {
			*addr = dso->funcs.syms[i].addr;
			*size = dso->funcs.syms[i].end - dso->funcs.syms[i].addr;
			return 0;
		}
	}
	return find_raw(dso, false, name, addr, size);
}

static void load_data(struct sym_dso *dso)
{
	if (!dso->data_loaded && dso->sym_scn)
		load_table(dso, dso->sym_elf, dso->sym_scn, true, &dso->data);
	dso->data_loaded = true;
}

int sym_dso_find_data(struct sym_dso *dso, const char *name, uint64_t *addr, uint64_t *size)
{
	load_data(dso);
	for (size_t i = 0; i < dso->data.nr; i++) {
		if (strcmp(dso->data.syms[i].name, name) == 0) {
			*addr = dso->data.syms[i].addr;
			*size = dso->data.syms[i].end - dso->data.syms[i].addr;
			return 0;
		}
	}
	return find_raw(dso, true, name, addr, size);
}

bool sym_dso_loads(const struct sym_dso *dso, uint64_t addr)
{
	for (size_t i = 0; i < dso->nr_segs; i++)
		if (addr >= dso->segs[i].vaddr && addr - dso->segs[i].vaddr < dso->segs[i].memsz)
			return true;
	return false;
}

/* A data address: the variable (STT_OBJECT) holding it, no line. */
void sym_dso_lookup_data(struct sym_dso *dso, uint64_t addr, struct sym_result *res)
{
	const struct sym_func *v;

	load_data(dso);
	v = sym_find_func(&dso->data, addr);
	*res = (struct sym_result){ .binary = dso->path, .addr = addr, .offset = addr,
				    .wrong_file = dso->wrong_file };
	if (v) {
		res->func = v->name;
		res->offset = addr - v->addr;
	}
	dso->lookups++;
}
