/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the kernel side of the symbol layer: kallsyms parsing and
 * lookup (fixture files in tests/fixtures/kernel, modules included, the
 * all-zero file of kernel.kptr_restrict), the lazy kernel dso of the
 * resolver, the running kernel's identity (build-id notes through
 * $PFMON_KERNEL_NOTES) and its comparison, and the vDSO read from memory.
 */
#include <config.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "common/util.h"
#include "symbol/sym_internal.h"
#include "symbol/symbol.h"
#include "tap.h"

#include "symfix.h"

#ifndef KERNFIX_DIR
#define KERNFIX_DIR "tests/fixtures/kernel"
#endif

static const char *kfix(const char *name)
{
	return fixture_path(KERNFIX_DIR, name);
}

/* a temporary file holding len bytes; the caller unlinks and frees it */
static char *tmp_file(const void *data, size_t len)
{
	char *path = xstrdup("/tmp/pfmon-kern-XXXXXX");
	int fd = mkstemp(path);

	if (fd < 0 || write(fd, data, len) != (ssize_t)len) {
		printf("# cannot write %s\n", path);
		if (fd >= 0)
			close(fd);
		return path;
	}
	close(fd);
	return path;
}

/* what the dso says at addr: "func+0xoff [module]", or "-" */
static const char *at(struct sym_dso *dso, uint64_t addr)
{
	static char buf[4][256];
	static int n;
	struct sym_result r;

	n = (n + 1) % 4;
	sym_dso_lookup(dso, addr, &r);
	if (!r.func)
		snprintf(buf[n], sizeof(buf[n]), "-");
	else if (r.module)
		snprintf(buf[n], sizeof(buf[n]), "%s+0x%llx [%s]", r.func,
			 (unsigned long long)r.offset, r.module);
	else
		snprintf(buf[n], sizeof(buf[n]), "%s+0x%llx", r.func, (unsigned long long)r.offset);
	return buf[n];
}

static void test_kallsyms_lookup(void)
{
	struct sym_dso *k = sym_dso_kernel(kfix("kallsyms"));
	struct sym_dso_info info;
	struct sym_result a, b;

	sym_dso_info(k, &info);
	ok(info.kind == SYM_DSO_KERNEL && info.symbols == SYM_SRC_KALLSYMS && !info.why_no_symbols,
	   "fixture kallsyms loads (why: %s)", info.why_no_symbols ? info.why_no_symbols : "-");
	/* 12 text lines at 9 addresses */
	ok(info.nr_funcs == 9, "text symbols only, one per address: %zu", info.nr_funcs);
	is_str(at(k, 0xffffffff81000060ull), "do_syscall_64+0x10", "a kernel function and offset");
	is_str(at(k, 0xffffffff81000000ull), "_stext+0x0",
	       "at a shared address: the last name listed, as perf (the only one it sizes)");
	is_str(at(k, 0xffffffff81000048ull), "__pfx_do_syscall_64+0x8", "padding symbol ends at the next");
	is_str(at(k, 0xffffffff81000100ull), "sys_getpid_alias+0x0", "the last name listed at one address (a W after a t)");
	is_str(at(k, 0xffffffff81000250ull), "sys_getpid_alias+0x150",
	       "data symbols (D) do not cut functions short");
	is_str(at(k, 0xffffffff81001fffull), "clear_page_erms+0x1cff",
	       "the kernel's last function runs to the end of the next page");
	is_str(at(k, 0xffffffff81002000ull), "-", "and not into the module area");
	is_str(at(k, 0xffffffff80ffffffull), "-", "below the first symbol: none");
	is_str(at(k, 0xffffffffc0001010ull), "ext4_file_write_iter+0x10 [ext4]", "a module function");
	is_str(at(k, 0xffffffffc0001090ull), "ext4_file_write_iter+0x90 [ext4]",
	       "a module's data symbol does not cut its function");
	is_str(at(k, 0xffffffffc0002fffull), "ext4_sync_file+0x1eff [ext4]",
	       "a module's last function: to the end of the next page");
	is_str(at(k, 0xffffffffc0003000ull), "-", "not into the next module's gap");
	is_str(at(k, 0xffffffffc0005004ull), "xfs_file_read_iter+0x4 [xfs]",
	       "modules listed out of address order");
	is_str(at(k, 0xffffffffc0201010ull), "ftrace_trampoline+0x10 [__builtin__ftrace]",
	       "pseudo-module of the ftrace trampolines");
	sym_dso_lookup(k, 0xffffffffc0001000ull, &a);
	sym_dso_lookup(k, 0xffffffffc0001100ull, &b);
	ok(a.module && a.module == b.module && a.binary && strcmp(a.binary, "[kernel]") == 0 &&
		   !a.file && !a.line,
	   "one module is one interned name; binary [kernel], no lines");
	sym_dso_close(k);
}

/* a kallsyms file of this text gives no symbols, and says why */
static void refused_kallsyms(const char *text, const char *why, const char *what)
{
	char *path = tmp_file(text, strlen(text));
	struct sym_dso *k = sym_dso_kernel(path);
	struct sym_dso_info info;

	sym_dso_info(k, &info);
	ok(info.why_no_symbols && strstr(info.why_no_symbols, why), "%s: %s", what,
	   info.why_no_symbols ? info.why_no_symbols : "(none)");
	sym_dso_close(k);
	unlink(path);
	free(path);
}

/* a line past the bound, alone or across the reader's chunks */
static void test_kallsyms_long_lines(void)
{
	struct strbuf t = STRBUF_INIT;

	strbuf_addstr(&t, "ffffffff81000000 T ok_one\nffffffff81000010 T ");
	for (int i = 0; i < 2000; i++)
		strbuf_addch(&t, 'x');
	strbuf_addstr(&t, "\n");
	refused_kallsyms(strbuf_str(&t), "line 2: longer than 1024 bytes", "a 2,000-byte line");
	for (int i = 0; i < 100000; i++)
		strbuf_addch(&t, 'y');
	refused_kallsyms(strbuf_str(&t) + 26, "line 1: longer than 1024 bytes", "a line longer than a chunk");
	strbuf_release(&t);
}

/* lines across the reader's 64 KiB chunks, the last with no newline */
static void test_kallsyms_chunks(void)
{
	struct strbuf t = STRBUF_INIT;
	struct sym_result r;
	struct sym_dso *k;
	char *path;
	int named = 0;

	for (int i = 0; i < 20000; i++)
		strbuf_addf(&t, "%s%llx T chunk_fn_%d", i ? "\n" : "", 0xffffffff81000000ull + 16ull * (unsigned)i, i);
	path = tmp_file(strbuf_str(&t), t.len);
	k = sym_dso_kernel(path);
	for (int i = 0; i < 20000; i += 7) {
		char want[32];

		snprintf(want, sizeof(want), "chunk_fn_%d", i);
		sym_dso_lookup(k, 0xffffffff81000000ull + 16ull * (unsigned)i + 3, &r);
		named += r.func && !strcmp(r.func, want) && r.offset == 3;
	}
	sym_dso_lookup(k, 0xffffffff81000000ull + 16ull * 19999, &r);
	ok(named == 2858 && r.func && !strcmp(r.func, "chunk_fn_19999"),
	   "20,000 lines over %zu bytes: %d of 2858 named, the last line (no newline) too", t.len, named);
	sym_dso_close(k);
	unlink(path);
	free(path);
	strbuf_release(&t);
}

static void test_kallsyms_unusable(void)
{
	static const char bad[] = "ffffffff81000000 T ok_one\nzzzz T broken\n";
	static const char badmod[] = "ffffffffc0001000 t f\t[ext4\n";
	struct sym_dso *k = sym_dso_kernel(kfix("kallsyms-hidden"));
	struct sym_dso_info info;
	struct sym_result r;

	sym_dso_info(k, &info);
	sym_dso_lookup(k, 0xffffffff81000060ull, &r);
	ok(info.symbols == SYM_SRC_NONE && info.why_no_symbols &&
		   strstr(info.why_no_symbols, "kallsyms-hidden") &&
		   strstr(info.why_no_symbols, "kptr_restrict"),
	   "all-zero addresses: no symbols, and why: %s",
	   info.why_no_symbols ? info.why_no_symbols : "(none)");
	ok(!r.func && r.binary && strcmp(r.binary, "[kernel]") == 0,
	   "and a lookup answers [kernel] without a function");
	sym_dso_close(k);

	k = sym_dso_kernel("/nonexistent/kallsyms");
	sym_dso_info(k, &info);
	ok(info.symbols == SYM_SRC_NONE && info.why_no_symbols &&
		   strstr(info.why_no_symbols, "No such file"),
	   "unreadable kallsyms: %s", info.why_no_symbols ? info.why_no_symbols : "(none)");
	sym_dso_close(k);

	/* a device never ends and a FIFO may never begin: refused unread */
	alarm(20);
	k = sym_dso_kernel("/dev/zero");
	sym_dso_info(k, &info);
	ok(info.symbols == SYM_SRC_NONE && info.why_no_symbols &&
		   strstr(info.why_no_symbols, "not a regular file"),
	   "kallsyms from /dev/zero: %s", info.why_no_symbols ? info.why_no_symbols : "(none)");
	sym_dso_close(k);
	alarm(0);

	refused_kallsyms(bad, "line 2: bad address", "malformed line named");
	refused_kallsyms(badmod, "line 1: bad module", "unclosed module bracket");
	test_kallsyms_long_lines();
}

static void test_resolver_kernel(void)
{
	struct sym_resolver *r = sym_resolver_new(NULL);
	const struct sym_result *a, *b;
	struct sym_dso_info info;

	setenv(SYM_KALLSYMS_ENV, kfix("kallsyms"), 1);
	ok(sym_resolver_nr_dsos(r) == 0, "no kernel address yet: kallsyms not read");
	a = sym_resolve_kernel(r, 0xffffffff81000310ull);
	b = sym_resolve_kernel(r, 0xffffffff81000310ull);
	ok(a == b && a->func && strcmp(a->func, "clear_page_erms") == 0 && a->offset == 0x10 &&
		   !a->module,
	   "$PFMON_KALLSYMS read once, and the answer cached");
	b = sym_resolve_kernel(r, 0xffffffffc0005000ull);
	ok(b->func && strcmp(b->func, "xfs_file_read_iter") == 0 && b->module &&
		   strcmp(b->module, "xfs") == 0,
	   "module symbol through the resolver");
	sym_resolver_dso_info(r, 0, &info);
	ok(sym_resolver_nr_dsos(r) == 1 && strcmp(info.path, "[kernel]") == 0 && info.lookups == 2,
	   "the kernel is one listed dso, two unique lookups");
	unsetenv(SYM_KALLSYMS_ENV);
	sym_resolver_free(r);

	r = sym_resolver_new(NULL);
	setenv(SYM_KALLSYMS_ENV, kfix("kallsyms-hidden"), 1);
	a = sym_resolve_kernel(r, 0xffffffff81000310ull);
	sym_resolver_dso_info(r, 0, &info);
	ok(!a->func && info.symbols == SYM_SRC_NONE && info.why_no_symbols,
	   "hidden addresses through the resolver: listed without symbols");
	unsetenv(SYM_KALLSYMS_ENV);
	sym_resolver_free(r);
}

/* The symbols lookups used, handed to another resolver, name the same
 * addresses there without kallsyms: what a sample file does. */
static void test_kept_symbols(void)
{
	struct sym_resolver *r = sym_resolver_new(NULL), *q;
	struct sym_kernel_symbol *used;
	const struct sym_result *a;
	size_t n;

	setenv(SYM_KALLSYMS_ENV, kfix("kallsyms"), 1);
	sym_resolve_kernel(r, 0xffffffff81000310ull);
	sym_resolve_kernel(r, 0xffffffff81000318ull);
	sym_resolve_kernel(r, 0xffffffffc0001104ull);
	sym_resolve_kernel(r, 0xffffffff80000000ull); /* no symbol */
	n = sym_resolver_kernel_symbols_used(r, &used);
	ok(n == 2 && used[0].addr == 0xffffffff81000300ull && !strcmp(used[0].name, "clear_page_erms") &&
		   !used[0].module && used[1].addr == 0xffffffffc0001100ull &&
		   !strcmp(used[1].name, "ext4_sync_file") && !strcmp(used[1].module, "ext4") &&
		   used[1].end > used[1].addr,
	   "the two symbols that named addresses, in address order, with their ends and modules");
	setenv(SYM_KALLSYMS_ENV, "/nonexistent/kallsyms", 1);
	q = sym_resolver_new(NULL);
	for (size_t i = n; i-- > 0;)
		sym_resolver_add_kernel_symbol(q, &used[i]);
	free(used);
	sym_resolver_free(r); /* the strings were copied */
	a = sym_resolve_kernel(q, 0xffffffff81000318ull);
	ok(sym_resolver_kernel_symbols(q) && a->func && !strcmp(a->func, "clear_page_erms") && a->offset == 0x18,
	   "kept symbols name an address without kallsyms");
	a = sym_resolve_kernel(q, 0xffffffffc0001108ull);
	ok(a->func && !strcmp(a->func, "ext4_sync_file") && a->module && !strcmp(a->module, "ext4"),
	   "a kept module symbol, given in any order");
	a = sym_resolve_kernel(q, 0xffffffff81000050ull);
	ok(!a->func, "an address no kept symbol covers stays unnamed");
	unsetenv(SYM_KALLSYMS_ENV);
	sym_resolver_free(q);
}

/* kallsyms read in a thread gives the same answers; an unused one is freed */
static void test_prefetch(void)
{
	struct sym_resolver *r = sym_resolver_new(NULL);
	const struct sym_result *a;

	setenv(SYM_KALLSYMS_ENV, kfix("kallsyms"), 1);
	sym_resolver_prefetch_kernel(r);
	sym_resolver_prefetch_kernel(r); /* once is enough */
	a = sym_resolve_kernel(r, 0xffffffffc0005004ull);
	ok(a->func && !strcmp(a->func, "xfs_file_read_iter") && a->offset == 4 && !strcmp(a->module, "xfs"),
	   "a kernel address named from kallsyms read in the background");
	ok(sym_resolver_nr_dsos(r) == 1, "one kernel dso");
	sym_resolver_free(r);

	/* never used: joined and freed by sym_resolver_free (under
	 * --enable-sanitizers a leak here fails this test) */
	r = sym_resolver_new(NULL);
	sym_resolver_prefetch_kernel(r);
	sym_resolver_free(r);

	setenv(SYM_KALLSYMS_ENV, kfix("kallsyms-hidden"), 1);
	r = sym_resolver_new(NULL);
	sym_resolver_prefetch_kernel(r);
	ok(!sym_resolver_kernel_symbols(r), "hidden addresses read in the background: no symbols either");
	unsetenv(SYM_KALLSYMS_ENV);
	sym_resolver_free(r);
}

/* a GNU build-id note after two others, as /sys/kernel/notes has them */
static size_t make_notes(unsigned char *b, const uint8_t *id, size_t idlen)
{
	size_t n = 0;
	uint32_t h[3];

	h[0] = 6, h[1] = 4, h[2] = 0x100; /* "Linux": 6 bytes padded to 8 */
	memcpy(b + n, h, 12), n += 12;
	memcpy(b + n, "Linux\0\0\0", 8), n += 8;
	memcpy(b + n, "\1\2\3\4", 4), n += 4;
	h[0] = 4, h[1] = 3, h[2] = 5; /* a GNU note of another type */
	memcpy(b + n, h, 12), n += 12;
	memcpy(b + n, "GNU\0", 4), n += 4;
	memcpy(b + n, "abc\0", 4), n += 4;
	h[0] = 4, h[1] = (uint32_t)idlen, h[2] = NT_GNU_BUILD_ID;
	memcpy(b + n, h, 12), n += 12;
	memcpy(b + n, "GNU\0", 4), n += 4;
	memcpy(b + n, id, idlen), n += (idlen + 3) & ~(size_t)3;
	return n;
}

static void test_kernel_id(void)
{
	static const uint8_t id[20] = { 0x48, 0xdc, 0x54, 0x0c, 0x8b, 0x76, 0x39, 0x38, 0x04, 0xca,
					0x80, 0x88, 0xdb, 0xfa, 0x7d, 0x42, 0x91, 0x1a, 0x94, 0x44 };
	unsigned char notes[256];
	size_t n = make_notes(notes, id, sizeof(id));
	char *path = tmp_file(notes, n), *cut;
	struct sym_kernel_id k;

	setenv(SYM_KERNEL_NOTES_ENV, path, 1);
	sym_kernel_id_running(&k);
	ok(k.build_id_len == 20 && memcmp(k.build_id, id, 20) == 0,
	   "$PFMON_KERNEL_NOTES: the GNU build-id note, past other notes");
	ok(k.release[0] != '\0', "release from uname: %s", k.release);
	cut = tmp_file(notes, n - 8);
	setenv(SYM_KERNEL_NOTES_ENV, cut, 1);
	sym_kernel_id_running(&k);
	ok(k.build_id_len == 0, "a note cut short is no build-id");
	setenv(SYM_KERNEL_NOTES_ENV, "/nonexistent/notes", 1);
	sym_kernel_id_running(&k);
	ok(k.build_id_len == 0, "no notes file: no build-id");
	unsetenv(SYM_KERNEL_NOTES_ENV);
	unlink(path);
	unlink(cut);
	free(path);
	free(cut);

	sym_kernel_id_running(&k);
	if (access(SYM_DEFAULT_KERNEL_NOTES, R_OK) == 0)
		ok(k.build_id_len >= 16, "the running kernel's build-id: %zu bytes", k.build_id_len);
	else
		ok(1, "# SKIP no %s", SYM_DEFAULT_KERNEL_NOTES);
	ok(strlen(k.boot_id) == 36, "the running boot id: %s", k.boot_id);
}

static void test_kernel_match(void)
{
	struct sym_kernel_id a = { .build_id = { 1, 2, 3 }, .build_id_len = 3,
				   .boot_id = "11111111-2222-3333-4444-555555555555" };
	struct sym_kernel_id b = a;

	ok(sym_kernel_id_match(&a, &b) == SYM_KERNEL_SAME, "same build, same boot");
	b.build_id[2] = 4;
	ok(sym_kernel_id_match(&a, &b) == SYM_KERNEL_OTHER_BUILD, "another build-id");
	b.build_id_len = 2, b.build_id[2] = 3;
	ok(sym_kernel_id_match(&a, &b) == SYM_KERNEL_OTHER_BUILD, "a build-id of another length");
	b = a;
	b.boot_id[0] = '9';
	ok(sym_kernel_id_match(&a, &b) == SYM_KERNEL_OTHER_BOOT,
	   "same build, another boot: addresses moved (KASLR)");
	b.boot_id[0] = '\0';
	ok(sym_kernel_id_match(&a, &b) == SYM_KERNEL_SAME, "same build, boot unknown: the build-id decides");
	b = a;
	a.build_id_len = 0;
	ok(sym_kernel_id_match(&a, &b) == SYM_KERNEL_SAME, "no build-id then, same boot: same kernel");
	a.boot_id[0] = '\0';
	ok(sym_kernel_id_match(&a, &b) == SYM_KERNEL_UNKNOWN, "nothing known then: unknown");
}

/* the vDSO function behind clock_gettime: its name differs per architecture */
static const char *vdso_gettime(struct sym_dso *dso, uint64_t *addr)
{
	static const char *const names[] = { "__vdso_clock_gettime", "__kernel_clock_gettime" };
	uint64_t size;

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (sym_dso_find_func(dso, names[i], addr, &size) == 0)
			return names[i];
	return NULL;
}

static void test_vdso(void)
{
	struct pf_error err = { 0 };
	struct sym_dso *dso = NULL;
	struct sym_dso_info info;
	struct sym_resolver *r;
	struct sym_result res;
	const struct sym_result *a;
	const char *fn = NULL;
	uint64_t addr = 0;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	if (!getauxval(AT_SYSINFO_EHDR)) {
		ok(1, "# SKIP this process has no vDSO");
		return;
	}
	ok(sym_dso_open_vdso(&dso, &err) == 0, "the vDSO opens from memory %s", err.msg);
	if (!dso)
		return;
	sym_dso_info(dso, &info);
	fn = vdso_gettime(dso, &addr);
	ok(fn && info.kind == SYM_DSO_MEMORY && info.symbols == SYM_SRC_DYNSYM && info.is_dyn,
	   "its .dynsym names %s", fn ? fn : "(no clock_gettime)");
	sym_dso_lookup(dso, addr + 3, &res);
	ok(fn && res.func && strcmp(res.func, fn) == 0 && res.offset == 3 &&
		   strcmp(res.binary, "[vdso]") == 0,
	   "a lookup inside it names the global symbol, not the weak alias");
	sym_dso_close(dso);

	r = sym_resolver_new(NULL);
	sym_maps_add(sym_resolver_maps(r), 7, 0x7fff00000000ull, 2 * page, 0, "[vdso]");
	sym_resolver_use_vdso(r, true);
	a = sym_resolve(r, 7, 0x7fff00000000ull + addr + 3);
	ok(fn && a->func && strcmp(a->func, fn) == 0 && a->offset == 3,
	   "[vdso] mapping resolved through the own image");
	sym_resolver_free(r);

	r = sym_resolver_new(NULL);
	sym_maps_add(sym_resolver_maps(r), 7, 0x7fff00000000ull, 2 * page, 0, "[vdso]");
	a = sym_resolve(r, 7, 0x7fff00000000ull + addr + 3);
	sym_resolver_dso_info(r, 0, &info);
	ok(!a->func && info.open_error && strstr(info.open_error, "running kernel"),
	   "without sym_resolver_use_vdso: a stub saying why (%s)",
	   info.open_error ? info.open_error : "-");
	sym_resolver_free(r);
}

/* any ELF file read into memory works the same as from its file */
static void test_memory_image(void)
{
	struct pf_error err = { 0 };
	struct sym_dso *dso = NULL;
	uint64_t addr = 0, size = 0;
	char buf[1 << 16];
	ssize_t n = 0;
	int fd = open(fix("libsymfix.so"), O_RDONLY);

	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf));
		close(fd);
	}
	ok(n > 0 && n < (ssize_t)sizeof(buf) &&
		   sym_dso_open_memory("[image]", buf, (size_t)n, &dso, &err) == 0,
	   "a shared library opens from memory %s", err.msg);
	memset(buf, 0, sizeof(buf)); /* the dso keeps its own copy */
	ok(dso && sym_dso_find_func(dso, "symfix_lib_entry", &addr, &size) == 0 && size > 0,
	   "its symbols survive the caller's buffer");
	sym_dso_close(dso);
	ok(sym_dso_open_memory("[junk]", "not elf", 7, &dso, &err) == -1 && !dso &&
		   strstr(err.msg, "[junk]"),
	   "not ELF: %s", err.msg);
}

/* the cache file written in dir/pfmon (one per kernel and boot), or NULL */
static char *cache_file(const char *dir)
{
	char *sub = xasprintf("%s/pfmon", dir), *path = NULL;
	DIR *d = opendir(sub);
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, "kallsyms-", 9))
			path = xasprintf("%s/%s", sub, e->d_name);
	if (d)
		closedir(d);
	free(sub);
	return path;
}

/* addresses of the kernel image named from the cache as from the whole
 * kallsyms: each symbol's start, middle and last byte */
static size_t cache_mismatches(const struct sym_kallsyms *whole, const struct sym_kallsyms *cached,
			       size_t *checked)
{
	size_t bad = 0;

	*checked = 0;
	for (size_t i = 0; i + 1 < whole->nr && !whole->syms[i + 1].module; i++) {
		const struct sym_ksym *s = &whole->syms[i];
		uint64_t probe[3] = { s->addr, s->addr + (s->end - s->addr) / 2, s->end - 1 };

		for (int j = 0; j < 3; j++) {
			const struct sym_ksym *w = sym_kallsyms_find(whole, probe[j]);
			const struct sym_ksym *c = sym_kallsyms_find(cached, probe[j]);

			(*checked)++;
			if (!w || !c || w->addr != c->addr || w->end != c->end || strcmp(w->name, c->name) ||
			    c->module)
				bad++;
		}
	}
	return bad;
}

/* the first address past the kernel image's symbols the whole table
 * names (a module's, BPF's, a trampoline's), else one below the image */
static uint64_t past_image(const struct sym_kallsyms *whole)
{
	for (size_t i = 0; i < whole->nr; i++)
		if (whole->syms[i].module)
			return whole->syms[i].addr;
	return whole->syms[0].addr - 1;
}

/* a copy of the cache file with one change: bytes at off, or cut at len */
static void damage(const char *path, size_t off, const void *bytes, size_t n, off_t len)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || (n && pwrite(fd, bytes, n, (off_t)off) != (ssize_t)n) || (len >= 0 && ftruncate(fd, len)))
		printf("# cannot damage %s\n", path);
	if (fd >= 0)
		close(fd);
}

/*
 * The kallsyms cache ($XDG_CACHE_HOME/pfmon) of the running kernel: what
 * it names is what the whole /proc/kallsyms names; an address past the
 * kernel image reads the whole file (the names used so far kept); a
 * damaged file is not used.
 */
static void test_kallsyms_cache(void)
{
	char dir[] = "/tmp/pfmon-kcache-XXXXXX", *file;
	struct sym_kallsyms *whole = NULL, *cached = NULL;
	struct sym_kernel_symbol *used = NULL;
	struct sym_kernel_id id;
	struct sym_resolver *r;
	const struct sym_result *a, *b;
	const struct sym_ksym *w;
	struct pf_error err = { 0 };
	size_t checked, n;
	uint64_t image_addr, outside;

	unsetenv(SYM_KALLSYMS_ENV);
	sym_kernel_id_running(&id);
	if (!id.build_id_len || !id.boot_id[0] || !sym_kernel_text_address() ||
	    sym_kallsyms_load(SYM_DEFAULT_KALLSYMS, &whole, &err) || !mkdtemp(dir)) {
		ok(1, "# SKIP the running kernel's build-id, boot id or kallsyms addresses are not readable");
		sym_kallsyms_free(whole);
		return;
	}
	setenv("XDG_CACHE_HOME", dir, 1);
	ok(sym_kcache_load(&cached) == -1 && !cached, "no cache before a whole kallsyms was read");
	sym_kallsyms_free(whole);
	ok(sym_kallsyms_load_whole(&whole, &err) == 0 && (file = cache_file(dir)) != NULL,
	   "reading the whole kallsyms writes the cache %s", err.msg);
	ok(sym_kcache_load(&cached) == 0 && cached && cached->cached, "the cache is used by the next run");
	is_u64(cache_mismatches(whole, cached, &checked), 0, "%zu addresses of the kernel image named alike", checked);
	ok(checked > 1000, "the image has its symbols (%zu addresses)", checked);
	outside = past_image(whole);
	ok(!sym_kallsyms_find(cached, outside), "past the image the cache misses (0x%llx)",
	   (unsigned long long)outside);

	/* through the resolver: the cache, then the whole file for the miss */
	w = sym_kallsyms_find(whole, outside);
	image_addr = whole->syms[1].addr + 1;
	r = sym_resolver_new(NULL);
	a = sym_resolve_kernel(r, image_addr);
	ok(a->func && !strcmp(a->func, whole->syms[1].name) && a->offset == 1, "an image address from the cache: %s",
	   a->func ? a->func : "-");
	b = sym_resolve_kernel(r, outside);
	ok(w ? b->func && !strcmp(b->func, w->name) && b->module && !strcmp(b->module, w->module) : !b->func,
	   "past the image named from the whole kallsyms: %s [%s]", b->func ? b->func : "-",
	   b->module ? b->module : "");
	ok(a->func && !strcmp(a->func, whole->syms[1].name), "the name from the cache outlives the switch");
	n = sym_resolver_kernel_symbols_used(r, &used);
	ok(n == (w ? 2u : 1u) && used[0].addr == whole->syms[1].addr, "the symbols used, both tables' (%zu)", n);
	free(used);
	sym_resolver_free(r);
	sym_kallsyms_free(cached);
	sym_kallsyms_free(whole);

	damage(file, 0, "X", 1, -1);
	ok(sym_kcache_load(&cached) == -1, "a cache of another format is not used");
	damage(file, 0, "P", 1, 100);
	ok(sym_kcache_load(&cached) == -1, "a cut cache is not used");
	unlink(file);
	free(file);
	file = xasprintf("%s/pfmon", dir);
	rmdir(file);
	free(file);
	rmdir(dir);
	unsetenv("XDG_CACHE_HOME");
}

int main(void)
{
	test_kallsyms_lookup();
	test_kallsyms_unusable();
	test_kallsyms_chunks();
	test_resolver_kernel();
	test_kept_symbols();
	test_prefetch();
	test_kallsyms_cache();
	test_kernel_id();
	test_kernel_match();
	test_vdso();
	test_memory_image();
	return tap_done();
}
