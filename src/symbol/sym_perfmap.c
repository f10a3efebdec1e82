/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A JIT's perf map (pfmon 3.x's --demangle-java, perf's convention): a
 * process that generates code writes /tmp/perf-PID.map, one line per
 * function, "START SIZE NAME" with START and SIZE in hex (no 0x needed),
 * NAME the rest of the line.  Its code lives in anonymous mappings, which
 * no ELF file describes; the map names it.  The file is another process's
 * and hostile: a line is bounded, a malformed one skipped, the entries
 * bounded.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "symbol/sym_internal.h"

#define PERFMAP_LINE_MAX 4096
#define PERFMAP_ENTRIES_MAX (16u << 20)

/* "START SIZE NAME": false for anything else (an empty name, a range
 * that wraps, numbers that are not hex) */
static bool parse_line(char *line, uint64_t *start, uint64_t *size, char **name)
{
	char *end;

	line[strcspn(line, "\r\n")] = '\0';
	*start = strtoull(line, &end, 16);
	if (end == line || *end != ' ')
		return false;
	line = end + 1;
	*size = strtoull(line, &end, 16);
	if (end == line || *end != ' ' || !end[1])
		return false;
	*name = end + 1;
	return *start + *size >= *start;
}

/* an entry and its line: for equal addresses the later line wins */
struct entry {
	struct sym_func f;
	size_t line;
};

static int entry_cmp(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->f.addr != y->f.addr)
		return x->f.addr < y->f.addr ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* sorted, one entry an address (the last written: a JIT that reuses
 * memory writes the new code's line after the old one's), each ending at
 * its size or at the next entry */
static void fill_table(struct sym_table *t, struct entry *e, size_t n)
{
	size_t nr = 0;

	if (n > 1)
		qsort(e, n, sizeof(*e), entry_cmp);
	t->syms = xmalloc((n ? n : 1) * sizeof(*t->syms));
	for (size_t i = 0; i < n; i++) {
		if (nr && t->syms[nr - 1].addr == e[i].f.addr)
			nr--;
		t->syms[nr++] = e[i].f;
	}
	for (size_t i = 0; i + 1 < nr; i++)
		if (t->syms[i].end > t->syms[i + 1].addr || t->syms[i].end == t->syms[i].addr)
			t->syms[i].end = t->syms[i + 1].addr;
	t->nr = nr;
	t->addrs = xmalloc((nr + 1) * sizeof(*t->addrs));
	for (size_t i = 0; i < nr; i++)
		t->addrs[i] = t->syms[i].addr;
}

struct sym_dso *sym_dso_open_perfmap(const char *path)
{
	FILE *f = fopen(path, "r");
	struct sym_dso *dso;
	char line[PERFMAP_LINE_MAX];
	struct entry *e = NULL;
	size_t n = 0, cap = 0;

	if (!f)
		return sym_dso_stub(path, "cannot read the JIT's perf map");
	dso = sym_dso_alloc(path);
	dso->source = SYM_SRC_SYMTAB;
	while (fgets(line, sizeof(line), f) && n < PERFMAP_ENTRIES_MAX) {
		uint64_t start, size;
		char *name;

		if (!strchr(line, '\n') && !feof(f)) { /* too long: skip the rest of it */
			int c;

			while ((c = getc(f)) != EOF && c != '\n')
				;
			continue;
		}
		if (!parse_line(line, &start, &size, &name))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			e = xrealloc(e, cap * sizeof(*e));
		}
		e[n] = (struct entry){ { start, start + size, sym_strset_intern(&dso->strings, name) }, n };
		n++;
	}
	fclose(f);
	fill_table(&dso->funcs, e, n);
	free(e);
	return dso;
}
