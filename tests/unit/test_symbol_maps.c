/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the symbol layer's address spaces and cache: mappings from
 * MMAP2-like records, load bias of PIE and shared objects, fork/exec, the
 * once-per-address cache, the per-binary statistics, and IA-64 ELF files
 * (bundle + slot addresses, foreign machine).
 */
#include <config.h>

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <gelf.h>

#include "symbol/sym_internal.h"
#include "symbol/symbol.h"
#include "common/util.h"
#include "tap.h"

#include "symfix.h"

#define PAGE 0x1000ull


/* Map every PT_LOAD of path the way ld.so does, at base (0 for ET_EXEC):
 * one MMAP2 record per segment, page-aligned, pgoff in bytes. */
static int map_like_ldso(struct sym_maps *maps, uint32_t pid, const char *path, uint64_t base,
			 uint64_t page)
{
	int fd = open(path, O_RDONLY), n = 0;
	Elf *elf;
	size_t phnum;

	if (fd < 0)
		return 0;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf && elf_getphdrnum(elf, &phnum) == 0) {
		for (size_t i = 0; i < phnum; i++) {
			GElf_Phdr ph;
			uint64_t start, end;

			if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
				continue;
			start = (base + ph.p_vaddr) & ~(page - 1);
			end = (base + ph.p_vaddr + ph.p_memsz + page - 1) & ~(page - 1);
			sym_maps_add(maps, pid, start, end - start, ph.p_offset & ~(page - 1), path);
			n++;
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return n;
}

/* address of func in path, through a dso of its own */
static uint64_t func_addr(const char *path, const char *func)
{
	struct sym_dso *dso;
	uint64_t addr = 0, size;

	if (sym_dso_open(path, NULL, &dso, NULL) != 0)
		return 0;
	if (sym_dso_find_func(dso, func, &addr, &size) != 0)
		addr = 0;
	sym_dso_close(dso);
	return addr;
}

/* address of a data object, read from .symtab directly: the layer has
 * no by-name query for data */
static uint64_t data_addr(const char *path, const char *name)
{
	Elf *elf;
	Elf_Scn *scn = NULL;
	uint64_t addr = 0;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return 0;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	while (elf && (scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !(d = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *n;

			if (gelf_getsym(d, (int)i, &sym) && (n = elf_strptr(elf, sh.sh_link, sym.st_name)) &&
			    strcmp(n, name) == 0)
				addr = sym.st_value;
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return addr;
}

static void test_maps(void)
{
	struct sym_maps *maps = sym_maps_new();
	const struct sym_map *m;

	sym_maps_add(maps, 7, 0x10000, 0x40000, 0, "/a");
	sym_maps_add(maps, 7, 0x20000, 0x10000, 0x5000, "/b");
	ok(sym_maps_count(maps, 7) == 3, "an mmap inside another splits it in three");
	m = sym_maps_find(maps, 7, 0x38000);
	ok(m && strcmp(m->path, "/a") == 0 && m->start == 0x30000 && m->pgoff == 0x20000,
	   "the right piece keeps its file offset");
	m = sym_maps_find(maps, 7, 0x2ffff);
	ok(m && strcmp(m->path, "/b") == 0 && m->pgoff == 0x5000, "the new mapping is found");
	m = sym_maps_find(maps, 7, 0x1ffff);
	ok(m && strcmp(m->path, "/a") == 0 && m->end == 0x20000, "the left piece ends where it starts");
	ok(!sym_maps_find(maps, 7, 0x50000) && !sym_maps_find(maps, 8, 0x20000),
	   "nothing past the end, nothing in another pid");
	sym_maps_add(maps, 7, 0x0, 0x100000, 0, "/c");
	ok(sym_maps_count(maps, 7) == 1, "a covering mmap replaces all");
	sym_maps_fork(maps, 7, 9);
	m = sym_maps_find(maps, 9, 0x1234);
	ok(m && strcmp(m->path, "/c") == 0, "a forked child inherits the mappings");
	sym_maps_add(maps, 9, 0x0, 0x1000, 0, "/d");
	m = sym_maps_find(maps, 7, 0x10);
	ok(m && strcmp(m->path, "/c") == 0, "and changing the child leaves the parent alone");
	sym_maps_clear(maps, 9);
	ok(sym_maps_count(maps, 9) == 0 && sym_maps_count(maps, 7) == 1, "exec clears one pid");
	sym_maps_free(maps);
}

/*
 * Random mappings against a model with one cell per address of a small
 * space: each cell remembers which mapping covers it and at what file
 * offset.  Every lookup, and the number of pieces, must agree with it,
 * through splits, covers, forks and exits.
 */
#define MODEL_SPACE 512

struct model_cell {
	unsigned id; /* 0: unmapped */
	uint64_t off;
};

static int model_agrees(const struct sym_maps *maps, uint32_t pid, const struct model_cell *cells)
{
	size_t runs = 0;

	for (uint64_t a = 0; a < MODEL_SPACE; a++) {
		const struct sym_map *m = sym_maps_find(maps, pid, a);
		char want[16];

		if (cells[a].id && (a == 0 || cells[a - 1].id != cells[a].id))
			runs++;
		if (!cells[a].id) {
			if (m)
				return 0;
			continue;
		}
		snprintf(want, sizeof(want), "/m%u", cells[a].id);
		if (!m || strcmp(m->path, want) || m->pgoff + (a - m->start) != cells[a].off)
			return 0;
	}
	return runs == sym_maps_count(maps, pid);
}

static void test_maps_model(void)
{
	static struct model_cell cells[2][MODEL_SPACE];
	struct sym_maps *maps = sym_maps_new();
	unsigned seed = 2026, id = 0;
	int good = 1, step;

	for (step = 0; step < 4000 && good; step++) {
		unsigned r = (unsigned)rand_r(&seed);
		uint64_t start = r % MODEL_SPACE, len = 1 + (unsigned)rand_r(&seed) % 64;
		uint64_t pgoff = (unsigned)rand_r(&seed) % 10000;
		int who = (r >> 16) & 1;
		char path[16];

		len = start + len > MODEL_SPACE ? MODEL_SPACE - start : len; /* all of it in the model */
		if (r % 97 == 0) { /* fork: 1 becomes a copy of 0 */
			sym_maps_fork(maps, 100, 101);
			memcpy(cells[1], cells[0], sizeof(cells[0]));
		} else if (r % 89 == 0) { /* exec or exit */
			sym_maps_clear(maps, 100 + (uint32_t)who);
			memset(cells[who], 0, sizeof(cells[who]));
		} else {
			snprintf(path, sizeof(path), "/m%u", ++id);
			sym_maps_add(maps, 100 + (uint32_t)who, start, len, pgoff, path);
			for (uint64_t a = start; a < start + len && a < MODEL_SPACE; a++)
				cells[who][a] = (struct model_cell){ id, pgoff + (a - start) };
		}
		good = model_agrees(maps, 100, cells[0]) && model_agrees(maps, 101, cells[1]);
	}
	ok(good, "4000 random mmaps, forks and exits agree with a per-address model (stopped at %d)",
	   step);
	sym_maps_free(maps);
}

/* Many records in one address space cost n log n: 200,000 top-down
 * mappings, with lookups between them, in well under the time a list
 * rebuilt per record takes (tens of seconds). */
static void test_maps_many(void)
{
	struct sym_maps *maps = sym_maps_new();
	const uint64_t top = 0x7f0000000000ull, n = 200000;
	struct timespec t0, t1;
	int good = 1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (uint64_t i = 0; i < n; i++) {
		sym_maps_add(maps, 1, top - i * 0x3000, 0x2000, i, "/lib");
		if (i % 100 == 99) {
			const struct sym_map *m = sym_maps_find(maps, 1, top - (i / 2) * 0x3000 + 0x10);

			good &= m && m->pgoff == i / 2;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ok(good && sym_maps_count(maps, 1) == n, "200,000 mappings in one address space, found");
	ok(t1.tv_sec - t0.tv_sec < 5, "and added in %.2f s",
	   (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	sym_maps_free(maps);
}

static void check_resolved(const struct sym_result *res, const char *bin, const char *func,
			   uint64_t off, const char *what)
{
	ok(res && res->binary && strcmp(base_name(res->binary), bin) == 0 && res->func &&
		   strcmp(res->func, func) == 0 && res->offset == off,
	   "%s: %s+0x%llx in %s (got %s+0x%llx in %s)", what, func, (unsigned long long)off, bin,
	   res && res->func ? res->func : "??", res ? (unsigned long long)res->offset : 0,
	   res && res->binary ? res->binary : "??");
}

static void test_resolver(void)
{
	struct sym_resolver *r = sym_resolver_new(fix("debugroot"));
	struct sym_maps *maps = sym_resolver_maps(r);
	const uint64_t pie_base = 0x555555554000ull, lib_base = 0x7f1234560000ull;
	uint64_t leaf = func_addr(fix("pie"), "symfix_leaf");
	uint64_t lib = func_addr(fix("libsymfix.so"), "symfix_lib_entry");
	uint64_t exe = func_addr(fix("exe"), "symfix_middle");
	uint64_t table = data_addr(fix("pie"), "symfix_table");
	const struct sym_result *a, *b;
	struct sym_dso_info info;
	bool nosyms_listed = false;

	ok(map_like_ldso(maps, 100, fix("pie"), pie_base, PAGE) >= 2 &&
		   map_like_ldso(maps, 100, fix("libsymfix.so"), lib_base, PAGE) >= 2,
	   "PIE and shared library mapped from their PT_LOADs");
	sym_maps_add(maps, 100, 0x7ffff7fc1000ull, 0x2000, 0, "[vdso]");
	a = sym_resolve(r, 100, pie_base + leaf + 5);
	check_resolved(a, "pie", "symfix_leaf", 5, "PIE load bias");
	ok(a->line >= 10 && a->line <= 14 && strcmp(base_name(a->file), "prog.c") == 0,
	   "PIE: prog.c line %u", a->line);
	b = sym_resolve(r, 100, pie_base + leaf + 5);
	ok(a == b && sym_resolver_unique(r) == 1 && sym_resolver_queries(r) == 2,
	   "the second query of an address is the cached answer");
	check_resolved(sym_resolve(r, 100, lib_base + lib + 2), "libsymfix.so", "symfix_lib_entry",
		       2, "shared library load bias");
	a = sym_resolve_data(r, 100, pie_base + table + 8);
	ok(a->func && strcmp(a->func, "symfix_table") == 0 && a->offset == 8 && !a->file,
	   "data address: the variable and the offset into it (%s+0x%llx)",
	   a->func ? a->func : "??", (unsigned long long)a->offset);
	b = sym_resolve(r, 100, pie_base + table + 8);
	ok(b != a && !b->func, "and the code lookup of the same address is another answer");
	a = sym_resolve(r, 100, 0x7ffff7fc1010ull);
	ok(a->binary && strcmp(a->binary, "[vdso]") == 0 && !a->func && a->offset == 0x10,
	   "[vdso]: binary+offset");
	a = sym_resolve(r, 100, 0x10);
	ok(!a->binary && !a->func && a->addr == 0x10, "no mapping: address alone");

	sym_maps_fork(maps, 100, 101);
	check_resolved(sym_resolve(r, 101, pie_base + leaf), "pie", "symfix_leaf", 0,
		       "forked child resolves through inherited maps");
	sym_maps_clear(maps, 101);
	/* after exec: a non-PIE executable at its link address, a stripped one */
	ok(map_like_ldso(maps, 101, fix("exe"), 0, PAGE) >= 2, "exec'd ET_EXEC mapped");
	check_resolved(sym_resolve(r, 101, exe + 3), "exe", "symfix_middle", 3,
		       "ET_EXEC needs no bias");
	map_like_ldso(maps, 101, fix("nosyms"), 0x560000000000ull, PAGE);
	a = sym_resolve(r, 101, 0x560000000000ull + 0x1130);
	ok(a->binary && !a->func && a->offset == 0x1130, "stripped binary: binary+offset");
	for (size_t i = 0; i < sym_resolver_nr_dsos(r); i++) {
		sym_resolver_dso_info(r, i, &info);
		if (strcmp(base_name(info.path), "nosyms") == 0 && info.symbols == SYM_SRC_NONE &&
		    !info.has_lines && info.lookups == 1)
			nosyms_listed = true;
	}
	ok(sym_resolver_nr_dsos(r) == 5 && nosyms_listed,
	   "statistics list 5 binaries, the stripped one without symbols or lines");
	sym_resolver_free(r);
}

static void test_ia64_file(const char *name, uint64_t base, enum sym_source want_src)
{
	struct sym_resolver *r = sym_resolver_new(NULL);
	const char *symbols = want_src == SYM_SRC_SYMTAB ? name : "ia64be.full";
	uint64_t start = func_addr(fix(symbols), "ia64_start");
	uint64_t leaf = func_addr(fix(symbols), "ia64_leaf");
	static const struct {
		uint64_t off;
		unsigned int line;
		const char *func;
	} rows[] = {
		{ 0x00, 10, "ia64_start" }, { 0x01, 11, "ia64_start" },
		{ 0x02, 12, "ia64_start" }, { 0x10, 12, "ia64_start" },
		{ 0x12, 13, "ia64_start" }, { 0x20, 20, "ia64_leaf" },
		{ 0x21, 20, "ia64_leaf" },  { 0x22, 21, "ia64_leaf" },
	};
	struct sym_dso_info info;
	bool all = true;

	if (base)
		map_like_ldso(sym_resolver_maps(r), 1, fix(name), base, 0x10000);
	else
		map_like_ldso(sym_resolver_maps(r), 1, fix(name), 0, 0x10000);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint64_t ip = base + start + rows[i].off;
		const struct sym_result *res = sym_resolve(r, 1, ip);
		uint64_t want_off = rows[i].off - (rows[i].off >= 0x20 ? leaf - start : 0);

		if (!res->func || strcmp(res->func, rows[i].func) != 0 || res->offset != want_off ||
		    res->line != rows[i].line || !res->file ||
		    strcmp(base_name(res->file), "ia64fix.c") != 0) {
			printf("# ip 0x%llx: %s+0x%llx %s:%u\n", (unsigned long long)ip,
			       res->func ? res->func : "??", (unsigned long long)res->offset,
			       res->file ? res->file : "??", res->line);
			all = false;
		}
	}
	ok(start && leaf == start + 0x20 && all,
	   "IA-64 %s: bundle+slot ips give function, slot offset and slot line", name);
	sym_resolver_dso_info(r, 0, &info);
	ok(info.machine == EM_IA_64 && info.symbols == want_src && info.has_lines &&
		   info.is_dyn == (base != 0),
	   "IA-64 %s: EM_IA_64 ELF with symbols (%s) and lines", name,
	   want_src == SYM_SRC_SYMTAB ? ".symtab" : "debug file");
	sym_resolver_free(r);
}

static void test_ia64(void)
{
	if (access(fix("ia64"), F_OK) != 0) {
		for (int i = 0; i < 6; i++)
			ok(1, "# SKIP ia64-linux-gnu binutils not installed: no IA-64 fixture");
		return;
	}
	test_ia64_file("ia64", 0, SYM_SRC_SYMTAB);
	test_ia64_file("ia64.so", 0x2000000000000000ull, SYM_SRC_SYMTAB);
	test_ia64_file("ia64be", 0, SYM_SRC_DEBUGFILE);
}

/* the branch-free search every lookup goes through */
static void test_upper_bound(void)
{
	static const uint64_t a[] = { 10, 20, 20, 20, 30 };
	bool good = true;

	for (uint64_t key = 0; key < 40; key++) {
		size_t want = 0;

		while (want < ARRAY_SIZE(a) && a[want] <= key)
			want++;
		for (size_t n = 0; n <= ARRAY_SIZE(a); n++) {
			size_t w = want < n ? want : n;

			if (sym_upper_bound(a, n, key) != w) {
				printf("# key %llu n %zu: got %zu want %zu\n", (unsigned long long)key,
				       n, sym_upper_bound(a, n, key), w);
				good = false;
			}
		}
	}
	ok(good, "upper bound: every key and prefix length, duplicates counted");
}

/* the same search over records keyed by a member that is not their first
 * (the CU ranges of sym_dwarf.c, the globals of sym_dtype.c) */
static void test_upper_bound_field(void)
{
	static const struct rec {
		uint32_t pad;
		uint64_t start, end;
	} r[] = { { 1, 10, 15 }, { 2, 20, 21 }, { 3, 20, 25 }, { 4, 20, 22 }, { 5, 30, 40 } };
	bool good = true;

	for (uint64_t key = 0; key < 40; key++) {
		size_t want = 0;

		while (want < ARRAY_SIZE(r) && r[want].start <= key)
			want++;
		for (size_t n = 0; n <= ARRAY_SIZE(r); n++) {
			size_t w = want < n ? want : n, got = SYM_UPPER_BOUND(r, n, start, key);

			if (got != w) {
				printf("# key %llu n %zu: got %zu want %zu\n", (unsigned long long)key, n, got, w);
				good = false;
			}
		}
	}
	ok(good, "upper bound by a struct member: every key and prefix length, duplicates counted");
}

/* a report that shows no lines never reads a line table, and says so */
static void test_resolver_no_lines(void)
{
	const uint64_t pie_base = 0x555555554000ull;
	uint64_t leaf = func_addr(fix("pie"), "symfix_leaf");

	for (int want = 0; want <= 1; want++) {
		struct sym_resolver *r = sym_resolver_new(fix("debugroot"));
		const struct sym_result *a;
		struct sym_dso_info info;

		sym_resolver_want_lines(r, want);
		map_like_ldso(sym_resolver_maps(r), 100, fix("pie"), pie_base, PAGE);
		a = sym_resolve(r, 100, pie_base + leaf + 5);
		check_resolved(a, "pie", "symfix_leaf", 5, want ? "with lines" : "without lines");
		sym_resolver_dso_info(r, 0, &info);
		if (want)
			ok(a->file && a->line && info.has_lines && info.lines_read,
			   "lines wanted: prog.c:%u, the line table read", a->line);
		else
			ok(!a->file && !a->line && info.has_lines && !info.lines_read,
			   "no lines wanted: none given, the line table present but never read");
		sym_resolver_free(r);
	}
}

int main(void)
{
	test_upper_bound();
	test_upper_bound_field();
	test_maps();
	test_maps_model();
	test_maps_many();
	test_resolver();
	test_resolver_no_lines();
	test_ia64();
	return tap_done();
}
