/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel symbols from /proc/kallsyms, one line per symbol:
 *
 *   ffffffff81a2b3c0 T clear_page_erms
 *   ffffffffc0a01230 t ext4_file_write_iter	[ext4]
 *
 * Only text symbols (t, T, w, W) name code.  kallsyms gives no sizes, so a
 * symbol ends where the next one starts.  The file is read once, on the
 * first kernel address (it is ~120,000 lines: tens of milliseconds), in
 * chunks, and only the names of the symbols kept are: they go into one
 * buffer, as a file's names are in its string table.  Read whole, the
 * text, its lines parsed and the table held three copies at once (19 MB,
 * most of what a recording held).
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"
#include "symbol/sym_internal.h"

/* The last symbol of the kernel or of a module has no successor of its
 * own to end at (the next symbol is another module's, far away): it gets
 * the rest of its page and the next, which covers a typical function
 * without swallowing the gap between modules. */
#define KSYM_TAIL 4096u

/* A kernel with every module loaded lists a few hundred thousand symbols,
 * some 20 MB: a file beyond this is not a kallsyms.  A line is an address,
 * a type, a name (KSYM_NAME_LEN is 512) and a module name. */
#define KALLSYMS_MAX (256u << 20)
#define KALLSYMS_LINE_MAX 1024u
#define KALLSYMS_CHUNK (64u << 10)

static bool is_text_type(char t)
{
	return t == 't' || t == 'T' || t == 'w' || t == 'W';
}

/* data objects of a System.map: initialized, read-only, small and bss data */
static bool is_data_type(char t)
{
	return strchr("dDbBrRgGsSvV", t) && t;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* the address field: 1 to 16 hex digits, then a space */
static char *parse_addr(char *p, uint64_t *addr)
{
	int d, n = 0;

	*addr = 0;
	while ((d = hexval(*p)) >= 0 && n < 16) {
		*addr = *addr << 4 | (uint64_t)d;
		p++;
		n++;
	}
	return n && *p == ' ' ? p + 1 : NULL;
}

/* a line's fields, its name and module still in the line */
struct raw_line {
	uint64_t addr;
	const char *name;
	const char *module; /* interned */
};

/*
 * One line, NUL-terminated and cut in place.  1: a text symbol in *out;
 * 0: another kind of symbol; -1: not kallsyms syntax (*why says what).
 */
static int parse_line(char *line, struct sym_strset *modules, bool data, struct raw_line *out,
		      const char **why)
{
	char *p = parse_addr(line, &out->addr), *mod, *close;
	char type;

	if (!p) {
		*why = "bad address";
		return -1;
	}
	type = p[0];
	if (!type || p[1] != ' ' || !p[2] || p[2] == '\t') {
		*why = "no type and name after the address";
		return -1;
	}
	out->name = p + 2;
	out->module = NULL;
	mod = strchr(p + 2, '\t');
	if (mod) {
		*mod++ = '\0';
		close = strchr(mod, ']');
		if (mod[0] != '[' || !close || close[1] || close == mod + 1) {
			*why = "bad module name (want \"\\t[module]\")";
			return -1;
		}
		*close = '\0';
		out->module = sym_strset_intern(modules, mod + 1);
	}
	if (data ? !is_data_type(type) : !is_text_type(type))
		return 0;
	return 1;
}

/*
 * While the table is built each symbol's end holds its line number: of
 * several names at one address perf names it by the last in the file (it
 * ends each name at the next one's address, so only the last has a size,
 * and a sized name wins: __pi___x86_indirect_thunk_rax and
 * __x86_indirect_thunk_rax, _text and srso_alias_untrain_ret).
 */
static int ksym_cmp(const void *a, const void *b)
{
	const struct sym_ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->end != y->end ? (x->end > y->end ? -1 : 1) : 0;
}

/* what the reading of a kallsyms file has gathered so far */
struct ksym_reading {
	struct sym_kallsyms *ks;
	bool data;
	size_t cap, lineno, nonzero;
	size_t names_len, names_cap; /* the names, in ks->text */
	const char *path;
};

/* a name into the names buffer: its offset (the buffer moves as it grows) */
static size_t keep_name(struct ksym_reading *rd, const char *name)
{
	size_t len = strlen(name) + 1, at = rd->names_len;

	if (rd->names_len + len > rd->names_cap) {
		rd->names_cap = rd->names_cap ? rd->names_cap * 2 : 1u << 20;
		if (rd->names_cap < rd->names_len + len)
			rd->names_cap = rd->names_len + len;
		rd->ks->text = xrealloc(rd->ks->text, rd->names_cap);
	}
	memcpy(rd->ks->text + at, name, len);
	rd->names_len += len;
	return at;
}

/* one line, NUL-terminated: a symbol kept, another skipped, or an error */
static int take_line(struct ksym_reading *rd, char *line, struct pf_error *err)
{
	struct sym_kallsyms *ks = rd->ks;
	struct raw_line parsed;
	const char *why = NULL;
	int rc;

	rd->lineno++;
	if (!*line)
		return 0;
	rc = parse_line(line, &ks->modules, rd->data, &parsed, &why);
	if (rc < 0) {
		char where[96];

		snprintf(where, sizeof(where), "line %zu: %s", rd->lineno, why);
		return pf_error_set(err, PF_E_BAD_FILE, rd->path, where);
	}
	if (rc == 0)
		return 0;
	if (ks->nr == rd->cap) {
		rd->cap = rd->cap ? rd->cap * 2 : 4096;
		ks->syms = xrealloc(ks->syms, rd->cap * sizeof(*ks->syms));
	}
	/* the name's offset until the buffer stops moving */
	ks->syms[ks->nr++] = (struct sym_ksym){ parsed.addr, rd->lineno,
						(const char *)(uintptr_t)keep_name(rd, parsed.name), parsed.module };
	if (parsed.addr)
		rd->nonzero++;
	return 0;
}

static int line_too_long(const struct ksym_reading *rd, size_t lineno, struct pf_error *err)
{
	char where[96];

	snprintf(where, sizeof(where), "line %zu: longer than %u bytes", lineno, KALLSYMS_LINE_MAX);
	return pf_error_set(err, PF_E_BAD_FILE, rd->path, where);
}

/* the complete lines of buf[0, n): what is left over is the start of one */
static int take_lines(struct ksym_reading *rd, char *buf, size_t n, size_t *used,
		      struct pf_error *err)
{
	char *line = buf, *end = buf + n, *nl;

	while ((nl = memchr(line, '\n', (size_t)(end - line)))) {
		*nl = '\0';
		if ((size_t)(nl - line) > KALLSYMS_LINE_MAX)
			return line_too_long(rd, rd->lineno + 1, err);
		if (take_line(rd, line, err))
			return -1;
		line = nl + 1;
	}
	*used = (size_t)(line - buf);
	return 0;
}

/*
 * Every line of the file, read in chunks: the symbols kept in ks (unsorted,
 * their names offsets into ks->text).  /proc files have no size: a bound on
 * the whole and on a line instead.  Only regular files (which /proc/kallsyms
 * is): a device such as /dev/zero never ends, a FIFO may never begin.
 */
static int read_symbols(struct ksym_reading *rd, struct pf_error *err)
{
	char *buf = xmalloc(KALLSYMS_CHUNK + 1);
	size_t have = 0, total = 0, used = 0;
	int fd, rc = -1;

	if (sym_open_regular(rd->path, &fd, NULL, err) != 0) {
		free(buf);
		return -1;
	}
	for (;;) {
		ssize_t k = read(fd, buf + have, KALLSYMS_CHUNK - have);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			pf_error_set(err, PF_E_INPUT, rd->path, strerror(errno));
			break;
		}
		total += (size_t)k;
		if (total > KALLSYMS_MAX) {
			pf_error_set(err, PF_E_SYMBOL, rd->path, "larger than 256 MiB: not a kallsyms file");
			break;
		}
		if (k == 0) { /* the last line may lack its newline */
			buf[have] = '\0';
			rc = take_line(rd, buf, err);
			break;
		}
		have += (size_t)k;
		if (take_lines(rd, buf, have, &used, err))
			break;
		if (have - used > KALLSYMS_LINE_MAX) {
			line_too_long(rd, rd->lineno + 1, err);
			break;
		}
		memmove(buf, buf + used, have - used);
		have -= used;
	}
	close(fd);
	free(buf);
	if (rd->names_len) /* the doubling's spare room back: the names stay */
		rd->ks->text = xrealloc(rd->ks->text, rd->names_len);
	for (size_t i = 0; i < rd->ks->nr; i++)
		rd->ks->syms[i].name = rd->ks->text + (uintptr_t)rd->ks->syms[i].name;
	return rc;
}

/* Where a symbol stops: at the next one, unless that one belongs to
 * another module (or to the kernel), whose code is elsewhere. */
static uint64_t ksym_end(const struct sym_ksym *s, const struct sym_ksym *next)
{
	uint64_t tail = (s->addr & ~(uint64_t)(KSYM_TAIL - 1)) + 2 * KSYM_TAIL;

	if (!next)
		return tail;
	if (next->module != s->module && tail < next->addr)
		return tail;
	return next->addr;
}

/*
 * kallsyms comes sorted by address (the kernel's own table, then the
 * modules'), only symbols of one address in no particular order: an
 * insertion sort puts those few in place in one pass.  It gives up after
 * n moves (a file in another order) and leaves the rest to qsort.
 */
static void sort_syms(struct sym_ksym *syms, size_t n)
{
	size_t moves = 0;

	for (size_t i = 1; i < n && moves <= n; i++) {
		struct sym_ksym x = syms[i];
		size_t j = i;

		while (j > 0 && ksym_cmp(&syms[j - 1], &x) > 0 && moves++ <= n) {
			syms[j] = syms[j - 1];
			j--;
		}
		syms[j] = x;
	}
	if (moves > n)
		qsort(syms, n, sizeof(*syms), ksym_cmp);
}

/* Sort, keep the best name per address, give each symbol its end. */
static void build_table(struct sym_kallsyms *ks)
{
	size_t nr = 0, n = ks->nr;

	sort_syms(ks->syms, n);
	for (size_t i = 0; i < n; i++)
		if (i == 0 || ks->syms[i].addr != ks->syms[i - 1].addr)
			ks->syms[nr++] = ks->syms[i];
	ks->syms = xrealloc(ks->syms, (nr ? nr : 1) * sizeof(*ks->syms));
	ks->addrs = xmalloc((nr ? nr : 1) * sizeof(*ks->addrs));
	ks->used = xcalloc(nr ? nr : 1, sizeof(*ks->used));
	for (size_t i = 0; i < nr; i++) {
		ks->syms[i].end = ksym_end(&ks->syms[i], i + 1 < nr ? &ks->syms[i + 1] : NULL);
		ks->addrs[i] = ks->syms[i].addr;
	}
	ks->nr = nr;
}

static int by_addr(const void *a, const void *b)
{
	const struct sym_ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The names go into one text buffer, as kallsyms' do, so freeing is the same. */
struct sym_kallsyms *sym_kallsyms_from_table(const struct sym_kernel_symbol *t, size_t n)
{
	struct sym_kallsyms *ks = xcalloc(1, sizeof(*ks));
	size_t len = 0, at = 0;

	for (size_t i = 0; i < n; i++)
		len += strlen(t[i].name) + 1;
	ks->text = xmalloc(len ? len : 1);
	ks->syms = xmalloc((n ? n : 1) * sizeof(*ks->syms));
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(t[i].name) + 1;

		memcpy(ks->text + at, t[i].name, l);
		ks->syms[i] = (struct sym_ksym){ t[i].addr, t[i].end, ks->text + at,
						 t[i].module ? sym_strset_intern(&ks->modules, t[i].module) : NULL };
		at += l;
	}
	qsort(ks->syms, n, sizeof(*ks->syms), by_addr);
	ks->addrs = xmalloc((n ? n : 1) * sizeof(*ks->addrs));
	ks->used = xcalloc(n ? n : 1, sizeof(*ks->used));
	for (size_t i = 0; i < n; i++)
		ks->addrs[i] = ks->syms[i].addr;
	ks->nr = n;
	return ks;
}

int sym_kallsyms_load(const char *path, struct sym_kallsyms **out, struct pf_error *err)
{
	return sym_kallsyms_load_kind(path, false, out, err);
}

int sym_kallsyms_load_kind(const char *path, bool data, struct sym_kallsyms **out,
			   struct pf_error *err)
{
	struct sym_kallsyms *ks = xcalloc(1, sizeof(*ks));
	struct ksym_reading rd = { .ks = ks, .data = data, .path = path };
	int rc = -1;

	*out = NULL;
	if (read_symbols(&rd, err) == 0) {
		if (ks->nr == 0 && data)
			rc = 0; /* a System.map may list no data object */
		else if (ks->nr == 0)
			pf_error_set(err, PF_E_BAD_FILE, path, "no kernel function symbols");
		else if (rd.nonzero == 0)
			pf_error_set(err, PF_E_KSYMS_HIDDEN, path);
		else
			rc = 0;
	}
	if (rc == 0) {
		build_table(ks);
		*out = ks;
	} else {
		sym_kallsyms_free(ks);
	}
	return rc;
}

void sym_kallsyms_free(struct sym_kallsyms *ks)
{
	if (!ks)
		return;
	free(ks->text);
	if (ks->cached) { /* addresses, symbols and marks are the cache's */
		sym_kcache_close(ks->cached);
	} else {
		free(ks->syms);
		free(ks->addrs);
		free(ks->used);
	}
	sym_strset_free(&ks->modules);
	free(ks);
}

const struct sym_ksym *sym_kallsyms_find(const struct sym_kallsyms *ks, uint64_t addr)
{
	size_t i = sym_upper_bound(ks->addrs, ks->nr, addr);
	const struct sym_ksym *k = i ? sym_kallsyms_at(ks, i - 1) : NULL;

	return k && addr < k->end ? k : NULL;
}

const struct sym_ksym *sym_kallsyms_at(const struct sym_kallsyms *ks, size_t i)
{
	return ks->cached ? sym_kcache_fill(ks, i) : &ks->syms[i];
}

static const char *kallsyms_path(const char *path)
{
	const char *env;

	if (path)
		return path;
	env = getenv(SYM_KALLSYMS_ENV);
	return env && *env ? env : SYM_DEFAULT_KALLSYMS;
}

/* _text is among the first lines (kallsyms is sorted by address, after
 * the few absolute and per-CPU symbols): at most this many are read */
#define TEXT_LINE_MAX 100000

uint64_t sym_kernel_text_address(void)
{
	return sym_kallsyms_text_address(kallsyms_path(NULL));
}

char *sym_perf_kallsyms_copy(const uint8_t *build_id, size_t len, uint64_t text)
{
	const char *dir = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME");
	struct strbuf sb = STRBUF_INIT;

	if (!len || !text || ((!dir || !*dir) && (!home || !*home)))
		return NULL;
	if (dir && *dir)
		strbuf_addstr(&sb, dir);
	else
		strbuf_addf(&sb, "%s/.debug", home);
	strbuf_addstr(&sb, "/[kernel.kallsyms]/");
	strbuf_addhex(&sb, build_id, len);
	strbuf_addstr(&sb, "/kallsyms");
	if (sym_kallsyms_text_address(strbuf_str(&sb)) != text) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}

uint64_t sym_kallsyms_text_address(const char *path)
{
	char line[512];
	uint64_t addr = 0;
	FILE *f = NULL;
	int fd;

	/* a device or a FIFO is refused unread, as for the whole kallsyms */
	if (sym_open_regular(path, &fd, NULL, NULL) != 0)
		return 0;
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return 0;
	}

	for (int n = 0; f && n < TEXT_LINE_MAX && fgets(line, sizeof(line), f); n++) {
		uint64_t a;
		char *p = parse_addr(line, &a);

		if (p && (!strcmp(p, "T _text\n") || !strcmp(p, "T _text"))) {
			addr = a;
			break;
		}
	}
	if (f)
		fclose(f);
	return addr;
}

struct sym_dso *sym_dso_kernel_table(const struct sym_kernel_symbol *t, size_t n)
{
	struct sym_dso *dso = sym_dso_alloc("[kernel]");

	dso->kind = SYM_DSO_KERNEL;
	dso->kallsyms = sym_kallsyms_from_table(t, n);
	dso->source = SYM_SRC_KALLSYMS;
	return dso;
}

struct sym_dso *sym_dso_kernel_loaded(struct sym_kallsyms *ks, const char *why_not)
{
	struct sym_dso *dso = sym_dso_alloc("[kernel]");

	dso->kind = SYM_DSO_KERNEL;
	dso->kallsyms = ks;
	if (ks)
		dso->source = SYM_SRC_KALLSYMS;
	else
		dso->why_no_symbols = xstrdup(why_not);
	return dso;
}

int sym_kallsyms_load_whole(struct sym_kallsyms **out, struct pf_error *err)
{
	int rc = sym_kallsyms_load(kallsyms_path(NULL), out, err);

	if (rc == 0)
		sym_kcache_store(*out);
	return rc;
}

int sym_kallsyms_load_default(const char *path, struct sym_kallsyms **out, struct pf_error *err)
{
	if (path)
		return sym_kallsyms_load(path, out, err);
	if (sym_kcache_load(out) == 0)
		return 0;
	return sym_kallsyms_load_whole(out, err);
}

struct sym_dso *sym_dso_kernel(const char *kallsyms)
{
	struct sym_kallsyms *ks = NULL;
	struct pf_error err;

	if (sym_kallsyms_load_default(kallsyms, &ks, &err))
		return sym_dso_kernel_loaded(NULL, err.msg);
	return sym_dso_kernel_loaded(ks, NULL);
}
