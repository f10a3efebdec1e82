/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the symbol layer against the fixtures mkfixtures.sh builds
 * (tests/fixtures/symbol): ELF symbols, DWARF lines, load bias through
 * mappings, separate debug files, the cache, and IA-64 ELF.
 */
#include <config.h>

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gelf.h>

#include "common/util.h"
#include "symbol/symbol.h"
#include "tap.h"

#include "symfix.h"


static struct sym_dso *open_fix(const char *name, const char *root)
{
	struct pf_error err = { 0 };
	struct sym_dso *dso = NULL;

	if (sym_dso_open(fix(name), root, &dso, &err) != 0)
		printf("# open %s: %s\n", name, err.msg);
	return dso;
}

/* Lines a function's addresses map to: a bitmap of lines 0..63. */
static uint64_t func_lines(struct sym_dso *dso, const char *func, bool *all_named)
{
	uint64_t addr, size, seen = 0;
	struct sym_result res;

	*all_named = true;
	if (sym_dso_find_func(dso, func, &addr, &size) != 0)
		return 0;
	for (uint64_t a = addr; a < addr + size; a++) {
		sym_dso_lookup(dso, a, &res);
		if (!res.func || strcmp(res.func, func) != 0 || res.offset != a - addr)
			*all_named = false;
		if (res.file && strcmp(base_name(res.file), "prog.c") == 0 && res.line < 64)
			seen |= 1ull << res.line;
	}
	return seen;
}

/* symfix_leaf: entry on 10 or 11, body on 12 and 13, ends on 14 */
static void check_leaf(struct sym_dso *dso, const char *what)
{
	bool named;
	uint64_t lines = dso ? func_lines(dso, "symfix_leaf", &named) : 0;

	ok(dso && named, "%s: every byte of symfix_leaf names it with its offset", what);
	ok((lines & (1ull << 12)) && (lines & (1ull << 13)),
	   "%s: symfix_leaf covers prog.c lines 12 and 13", what);
	ok(lines && !(lines & ~0x7c00ull), "%s: and no line outside 10..14", what);
}

static void test_exe(void)
{
	struct sym_dso *dso = open_fix("exe", NULL);
	struct sym_dso_info info;
	struct sym_result res;
	uint64_t addr = 0, size = 0;

	ok(dso != NULL, "exe: opens");
	if (!dso)
		return;
	sym_dso_info(dso, &info);
	ok(info.symbols == SYM_SRC_SYMTAB && info.has_lines && !info.is_dyn &&
		   info.machine == EM_X86_64 && !info.debug_path,
	   "exe: .symtab, lines, ET_EXEC, x86-64, no debug file");
	check_leaf(dso, "exe");
	ok(sym_dso_find_func(dso, "symfix_static", &addr, &size) == 0 && size > 0,
	   "exe: static function found");
	sym_dso_lookup(dso, addr + size - 1, &res);
	is_str(res.func, "symfix_static", "exe: last byte of symfix_static");
	ok(res.line >= 16 && res.line <= 23, "exe: its line (%u) is in symfix_static", res.line);
	sym_dso_lookup(dso, 0x10, &res);
	ok(!res.func && !res.file && res.offset == 0x10 && res.line == 0,
	   "exe: address outside everything is binary+offset");
	is_str(base_name(res.binary), "exe", "exe: result names the binary");
	sym_dso_close(dso);
}

static void test_dso_kinds(void)
{
	struct sym_dso *dso;
	struct sym_dso_info info;
	struct sym_result res;
	uint64_t addr = 0, size = 0;

	dso = open_fix("pie", NULL);
	ok(dso != NULL, "pie: opens");
	if (dso) {
		sym_dso_info(dso, &info);
		ok(info.is_dyn && info.symbols == SYM_SRC_SYMTAB, "pie: ET_DYN with .symtab");
		check_leaf(dso, "pie");
		sym_dso_close(dso);
	}
	dso = open_fix("libsymfix.so", NULL);
	ok(dso && sym_dso_find_func(dso, "symfix_lib_entry", &addr, &size) == 0,
	   "shared library: symfix_lib_entry found");
	if (dso) {
		bool line11 = false;

		for (uint64_t a = addr; a < addr + size; a++) {
			sym_dso_lookup(dso, a, &res);
			if (res.line == 11 && strcmp(base_name(res.file), "lib.c") == 0)
				line11 = true;
		}
		ok(line11, "shared library: lib.c:11 inside symfix_lib_entry");
		sym_dso_close(dso);
	}
	dso = open_fix("nodebug", NULL);
	ok(dso && sym_dso_find_func(dso, "symfix_leaf", &addr, &size) == 0,
	   "no -g: symbols still there");
	if (dso) {
		sym_dso_info(dso, &info);
		sym_dso_lookup(dso, addr + 1, &res);
		ok(!info.has_lines && res.func && !res.file && res.line == 0,
		   "no -g: function without file:line");
		sym_dso_close(dso);
	}
	dso = open_fix("nosyms", NULL);
	ok(dso != NULL, "stripped binary opens");
	if (dso) {
		sym_dso_info(dso, &info);
		ok(info.symbols == SYM_SRC_NONE && !info.has_lines && info.nr_funcs == 0,
		   "stripped: no symbols, no lines");
		sym_dso_lookup(dso, 0x1139, &res);
		ok(!res.func && res.offset == 0x1139, "stripped: binary+offset");
		sym_dso_close(dso);
	}
}

static void test_dwarf_variants(void)
{
	static const char *const names[] = { "gz", "dw4ranges", "opt" };
	struct sym_dso *dso;
	bool named;

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		dso = open_fix(names[i], NULL);
		uint64_t lines = dso ? func_lines(dso, "symfix_leaf", &named) : 0;

		ok((lines & (1ull << 12)) || (lines & (1ull << 13)),
		   "%s: symfix_leaf has its lines", names[i]);
		sym_dso_close(dso);
	}
	if (access(fix("clang5"), F_OK) != 0) {
		ok(1, "# SKIP clang not installed: no DWARF 5 rnglists fixture");
		return;
	}
	dso = open_fix("clang5", NULL);
	uint64_t lines = dso ? func_lines(dso, "symfix_leaf", &named) : 0;
	ok((lines & (1ull << 12)) || (lines & (1ull << 13)),
	   "clang DWARF 5 without aranges: symfix_leaf has its lines");
	sym_dso_close(dso);
}

static void check_debugfile(const char *name, const char *root, const char *want_suffix)
{
	struct sym_dso *dso = open_fix(name, root);
	struct sym_dso_info info;
	size_t n = strlen(want_suffix), m;

	if (!dso) {
		ok(0, "%s: opens", name);
		return;
	}
	sym_dso_info(dso, &info);
	m = info.debug_path ? strlen(info.debug_path) : 0;
	ok(m >= n && strcmp(info.debug_path + m - n, want_suffix) == 0,
	   "%s: debug file %s", name, info.debug_path ? info.debug_path : "(none)");
	ok(info.symbols == SYM_SRC_DEBUGFILE && info.has_lines,
	   "%s: symbols and lines from the debug file", name);
	sym_dso_close(dso);
}

static void test_debug_files(void)
{
	const char *root = fix("debugroot");
	struct sym_dso *dso;
	struct sym_dso_info info;
	char *saved;

	check_debugfile("bid", root, ".debug");
	dso = open_fix("bid", root);
	if (dso) {
		sym_dso_info(dso, &info);
		ok(info.build_id_len == 20 && strstr(info.debug_path, "/.build-id/") != NULL,
		   "bid: found through the 20-byte build-id");
		check_leaf(dso, "bid");
		sym_dso_close(dso);
	}
	check_debugfile("dlink", root, "/.debug/dlink.debug");
	check_debugfile("dlroot.so", root, "/dlroot.debug");
	/* the environment seam, when the caller passes no root */
	saved = getenv(SYM_DEBUG_ROOT_ENV) ? strdup(getenv(SYM_DEBUG_ROOT_ENV)) : NULL;
	setenv(SYM_DEBUG_ROOT_ENV, root, 1);
	check_debugfile("bid", NULL, ".debug");
	if (saved)
		setenv(SYM_DEBUG_ROOT_ENV, saved, 1);
	else
		unsetenv(SYM_DEBUG_ROOT_ENV);
	free(saved);

	dso = open_fix("badcrc", root);
	if (dso) {
		sym_dso_info(dso, &info);
		ok(!info.debug_path && !info.has_lines && info.symbols == SYM_SRC_NONE,
		   "badcrc: a debug link with the wrong CRC is ignored");
		sym_dso_close(dso);
	}
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* Every byte of the named functions of orig gets the same function, file
 * and line from copy; the bytes compared are counted in *n. */
static bool same_answers(struct sym_dso *copy, struct sym_dso *orig, size_t *n)
{
	static const char *const funcs[] = { "symfix_leaf", "symfix_middle", "main",
					     "symfix_lib_entry" };
	bool same = true;

	*n = 0;
	for (size_t i = 0; i < ARRAY_SIZE(funcs); i++) {
		uint64_t addr, size;

		if (sym_dso_find_func(orig, funcs[i], &addr, &size) != 0)
			continue;
		for (uint64_t a = addr; a < addr + size; a++, (*n)++) {
			struct sym_result x, y;

			sym_dso_lookup(copy, a, &x);
			sym_dso_lookup(orig, a, &y);
			if (!same_str(x.func, y.func) || !same_str(x.file, y.file) || x.line != y.line)
				same = false;
		}
	}
	return same;
}

/* Compressed debug sections (inflated for libdwarf by sym_dwsec.c) must
 * give exactly what the uncompressed ones give. */
static void test_compressed(void)
{
	static const char *const copies[][2] = {
		{ "optz", "opt" }, { "optzgnu", "opt" }, { "bidz", "bidz.full" },
	};
	const char *root = fix("debugroot");

	for (size_t i = 0; i < ARRAY_SIZE(copies); i++) {
		struct sym_dso *copy = open_fix(copies[i][0], root);
		struct sym_dso *orig = open_fix(copies[i][1], root);
		struct sym_dso_info info = { 0 };
		size_t n = 0;
		bool same = copy && orig && same_answers(copy, orig, &n);

		if (copy)
			sym_dso_info(copy, &info);
		ok(same && info.has_lines && n > 50,
		   "%s: the same function, file and line as %s on %zu addresses", copies[i][0],
		   copies[i][1], n);
		sym_dso_close(copy);
		sym_dso_close(orig);
	}
	check_debugfile("bidz", root, ".debug");
}

/* A relocatable object's DWARF holds unrelocated offsets; we apply no
 * relocations, so it gets symbols and no lines rather than wrong lines. */
static void test_relocatable(void)
{
	struct sym_dso *dso = open_fix("prog.o", NULL);
	struct sym_dso_info info;
	uint64_t addr, size;

	ok(dso != NULL, "prog.o: opens");
	if (!dso)
		return;
	sym_dso_info(dso, &info);
	ok(sym_dso_find_func(dso, "symfix_leaf", &addr, &size) == 0 && !info.has_lines,
	   "prog.o: symbols, no line table (ET_REL would need relocations)");
	sym_dso_close(dso);
}

static void test_errors(void)
{
	struct pf_error err = { 0 };
	struct sym_dso *dso = NULL;

	ok(sym_dso_open(fix("no-such-file"), NULL, &dso, &err) == -1 && !dso &&
		   err.code == PF_E_INPUT && strstr(err.msg, "no-such-file"),
	   "missing file: PF_E_INPUT naming it (%s)", err.msg);
	ok(sym_dso_open(fix("debugroot"), NULL, &dso, &err) == -1 && err.code != PF_E_OK,
	   "a directory is refused (%s)", err.msg);
	ok(sym_dso_open(fix("../stamp"), NULL, &dso, &err) == -1 &&
		   err.code == PF_E_SYMBOL && strstr(err.msg, "not an ELF file"),
	   "non-ELF file: PF_E_SYMBOL (%s)", err.msg);
}

/* A FIFO blocks open() until a writer comes and a device may never end:
 * both are refused at once, before a byte is read. */
static void test_not_regular(void)
{
	char dir[] = "/tmp/pfmon-symfifo-XXXXXX", *fifo;
	struct pf_error err = { 0 };
	struct sym_dso *dso = NULL;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return;
	}
	fifo = xasprintf("%s/fifo", dir);
	if (mkfifo(fifo, 0600) != 0) {
		ok(0, "mkfifo %s", fifo);
		free(fifo);
		return;
	}
	alarm(20); /* a regression hangs: fail instead */
	ok(sym_dso_open(fifo, NULL, &dso, &err) == -1 && !dso && strstr(err.msg, "not a regular file") &&
		   strstr(err.msg, fifo),
	   "a FIFO is refused without waiting for a writer (%s)", err.msg);
	ok(sym_dso_open("/dev/zero", NULL, &dso, &err) == -1 && strstr(err.msg, "not a regular file"),
	   "a device is refused (%s)", err.msg);
	alarm(0);
	unlink(fifo);
	rmdir(dir);
	free(fifo);
}

static size_t open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	size_t n = 0;

	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	return n;
}

/*
 * A report of many binaries under a low descriptor limit: each binary used
 * to keep its descriptor, so past the limit the rest lost their symbols.
 * Now none is kept once its tables are read.
 */
static void test_many_binaries(void)
{
	char dir[] = "/tmp/pfmon-symmany-XXXXXX";
	struct sym_dso *dso = open_fix("exe", NULL);
	struct rlimit old, low;
	struct sym_resolver *r;
	uint64_t addr = 0, size = 0;
	size_t fds, named = 0;
	const size_t n = 300;

	if (!dso || sym_dso_find_func(dso, "symfix_leaf", &addr, &size) != 0 || !mkdtemp(dir)) {
		ok(0, "many binaries: setup");
		return;
	}
	sym_dso_close(dso);
	getrlimit(RLIMIT_NOFILE, &old);
	low = old;
	low.rlim_cur = 64;
	setrlimit(RLIMIT_NOFILE, &low);
	fds = open_fds();
	r = sym_resolver_new(NULL);
	for (size_t i = 0; i < n; i++) {
		char *link = xasprintf("%s/bin%zu", dir, i);
		const struct sym_result *res;

		if (symlink(fix("exe"), link) == 0) {
			res = sym_resolve_file(r, link, addr);
			named += res->func && !strcmp(res->func, "symfix_leaf");
		}
		free(link);
	}
	ok(named == n, "%zu binaries under 'ulimit -n 64': %zu named", n, named);
	ok(open_fds() <= fds + 2, "no descriptor kept per binary (%zu open, %zu before)", open_fds(),
	   fds);
	sym_resolver_free(r);
	setrlimit(RLIMIT_NOFILE, &old);
	for (size_t i = 0; i < n; i++) {
		char *link = xasprintf("%s/bin%zu", dir, i);

		unlink(link);
		free(link);
	}
	rmdir(dir);
}

/* Instruction boundaries of symfix_leaf by disassembly: every byte is an
 * instruction's start or inside an instruction that starts at a boundary
 * and covers it, and the instructions tile the function. */
static void test_insn_place(void)
{
	struct sym_dso *dso = open_fix("exe", NULL);
	struct sym_dso *ia64 = open_fix("ia64", NULL);
	uint64_t addr = 0, size = 0;
	size_t n_long = 0;
	bool consistent = true;
	struct sym_insn in;

	ok(dso && sym_dso_find_func(dso, "symfix_leaf", &addr, &size) == 0 && size > 0,
	   "insn: symfix_leaf found");
	for (uint64_t a = addr, b; dso && a < addr + size && consistent; a = b) {
		uint64_t len = 1;

		consistent = sym_dso_insn_place(dso, a, &in) == SYM_INSN_START;
		for (b = a + 1; b < addr + size && sym_dso_insn_place(dso, b, &in) == SYM_INSN_INSIDE; b++) {
			consistent &= in.start == a && in.func && !strcmp(in.func, "symfix_leaf");
			len = in.size;
		}
		consistent &= b - a == len;
		n_long += len > 1;
	}
	ok(consistent, "insn: symfix_leaf is a tiling of instructions: each starts where the one before ends, "
	   "its other bytes are inside it (%zu longer than a byte)", n_long);
	ok(n_long > 0, "insn: and some are longer than a byte");
	ok(dso && sym_dso_insn_place(dso, 0, &in) == SYM_INSN_UNKNOWN && !in.func,
	   "insn: an address no function holds: unknown");
	ok(ia64 && sym_dso_find_func(ia64, "ia64_start", &addr, &size) == 0 &&
		   sym_dso_insn_place(ia64, addr + 1, &in) == SYM_INSN_UNKNOWN,
	   "insn: a machine the disassembler is not asked about (IA-64): unknown");
	if (dso)
		sym_dso_close(dso);
	if (ia64)
		sym_dso_close(ia64);
}

int main(void)
{
	test_exe();
	test_dso_kinds();
	test_dwarf_variants();
	test_debug_files();
	test_compressed();
	test_relocatable();
	test_errors();
	test_not_regular();
	test_many_binaries();
	test_insn_place();
	return tap_done();
}
