/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --annotate: each hot function's source lines with their samples, and
 * under each hot line its instructions with theirs (perf annotate's view
 * of a hot loop).  Samples are counted per resolver answer, which is one
 * per (binary, address), so a profile of millions of samples keeps a few
 * thousand counts; only the functions shown are disassembled and their
 * sources read.  Every count is of samples, percentages of the function's.
 */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "common/json_writer.h"
#include "common/u64set.h"
#include "common/util.h"

/* a source file larger than this is not a source file: instructions only */
#define SOURCE_MAX (64u << 20)
#define TAB_WIDTH 8
/* lines of the function's file shown: those of its instructions, and the
 * lines between two of them at most this far apart; farther ones (inlined
 * code from elsewhere in the file) are separate blocks */
#define LINE_GAP 4
/* a function's lines span at most this many (a hostile line table could
 * claim lines 1 and 4e9): lines past it are listed as other lines */
#define LINE_SPAN_MAX (1u << 20)

struct annotate {
	struct annotate_opts o;
	struct sym_resolver *r;
	size_t n_ev;
	struct u64set *counts; /* per event: answer pointer -> samples */
	uint64_t *totals;      /* per event: every sample */
};

/* one sampled address of a function */
struct ann_addr {
	const struct sym_result *res;
	uint64_t count;
};

/* a function's sampled addresses: addrs[from, from + n) */
struct ann_func {
	const struct sym_result *first;
	size_t from, n;
	uint64_t samples;
};

struct source {
	char *path; /* the file read */
	char *text;
	char **lines; /* lines[i] is line i + 1 */
	size_t n;
};

/* the function as a whole, ready to print */
struct ann_view {
	const struct annotate *a;
	const char *event;
	uint64_t event_total;
	const struct ann_func *f;
	struct sym_disasm d;
	bool disasm_ok;
	char disasm_error[PF_ERROR_MSG_MAX];
	uint64_t *insn_counts;  /* per instruction */
	uint64_t unattributed;  /* samples past the instructions (bytes capstone stopped at) */
	const char *file;       /* the function's source file (its first line's) */
	unsigned lo, hi;        /* its lines there */
	uint64_t *line_counts;  /* lines lo..hi */
	bool *line_shown;       /* lines lo..hi */
	struct source src;
	bool have_src;
};

struct annotate *annotate_new(const struct annotate_opts *o, struct sym_resolver *r, size_t n_events)
{
	struct annotate *a = xcalloc(1, sizeof(*a));

	a->o = *o;
	if (!a->o.top)
		a->o.top = ANNOTATE_DEFAULT_TOP;
	a->r = r;
	a->n_ev = n_events;
	a->counts = xcalloc(n_events ? n_events : 1, sizeof(*a->counts));
	a->totals = xcalloc(n_events ? n_events : 1, sizeof(*a->totals));
	for (size_t i = 0; i < n_events; i++)
		u64set_init(&a->counts[i]);
	return a;
}

void annotate_free(struct annotate *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->n_ev; i++)
		u64set_release(&a->counts[i]);
	free(a->counts);
	free(a->totals);
	free(a);
}

void annotate_add(struct annotate *a, size_t ev, const struct sym_result *res, uint64_t count)
{
	uint64_t n = 0;

	if (ev >= a->n_ev)
		return;
	a->totals[ev] += count;
	/* only code of a file, named by a symbol, can be disassembled */
	if (!res || !res->binary || !res->func || res->wrong_file || res->module)
		return;
	u64set_get(&a->counts[ev], (uint64_t)(uintptr_t)res, &n);
	u64set_put(&a->counts[ev], (uint64_t)(uintptr_t)res, n + count);
}

static uint64_t func_start(const struct sym_result *r)
{
	return r->addr - r->offset;
}

/* by binary, function, address: a function's addresses in a row */
static int by_function(const void *x, const void *y)
{
	const struct sym_result *a = ((const struct ann_addr *)x)->res, *b = ((const struct ann_addr *)y)->res;
	int c = strcmp(a->binary, b->binary);

	if (c)
		return c;
	if (func_start(a) != func_start(b))
		return func_start(a) < func_start(b) ? -1 : 1;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* most samples first; of equals, by name then address, so runs agree */
static int by_samples(const void *x, const void *y)
{
	const struct ann_func *a = x, *b = y;
	int c;

	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	c = strcmp(a->first->func, b->first->func);
	if (c)
		return c;
	return by_function(&(struct ann_addr){ a->first, 0 }, &(struct ann_addr){ b->first, 0 });
}

/* the event's sampled addresses, grouped by function (*funcs, *nf) */
static struct ann_addr *collect(const struct annotate *a, size_t ev, size_t *n, struct ann_func **funcs, size_t *nf)
{
	struct ann_addr *v = xcalloc(u64set_len(&a->counts[ev]) + 1, sizeof(*v));
	uint64_t key;

	*n = 0;
	for (size_t i = 0; u64set_next(&a->counts[ev], &i, &key);) {
		v[*n].res = (const struct sym_result *)(uintptr_t)key;
		u64set_get(&a->counts[ev], key, &v[*n].count);
		(*n)++;
	}
	qsort(v, *n, sizeof(*v), by_function);
	*funcs = xcalloc(*n + 1, sizeof(**funcs));
	*nf = 0;
	for (size_t i = 0; i < *n; i++) {
		struct ann_func *f = *nf ? &(*funcs)[*nf - 1] : NULL;

		if (!f || strcmp(f->first->binary, v[i].res->binary) || func_start(f->first) != func_start(v[i].res)) {
			f = &(*funcs)[(*nf)++];
			*f = (struct ann_func){ v[i].res, i, 0, 0 };
		}
		f->n++;
		f->samples += v[i].count;
	}
	return v;
}

/* ---- sources ---- */

static bool source_read(const char *path, struct source *s)
{
	FILE *f = fopen(path, "r");
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	size_t got, cap = 0;

	if (!f)
		return false;
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0 && sb.len <= SOURCE_MAX)
		strbuf_add(&sb, buf, got);
	if (ferror(f) || sb.len > SOURCE_MAX) {
		fclose(f);
		strbuf_release(&sb);
		return false;
	}
	fclose(f);
	s->path = xstrdup(path);
	s->text = strbuf_detach(&sb);
	if (!s->text)
		s->text = xstrdup("");
	s->n = 0;
	for (char *p = s->text; *p;) {
		char *nl = strchr(p, '\n');

		if (s->n == cap) {
			cap = cap ? 2 * cap : 256;
			s->lines = xrealloc(s->lines, cap * sizeof(*s->lines));
		}
		s->lines[s->n++] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	return true;
}

static void source_release(struct source *s)
{
	free(s->path);
	free(s->text);
	free(s->lines);
	memset(s, 0, sizeof(*s));
}

/*
 * The file of a line table's path: with --source-root=DIR, DIR/PATH, then
 * DIR with PATH's leading directories dropped one by one (a tree moved
 * from /build/x to DIR is found as DIR/src/f.c or DIR/f.c); then PATH.
 */
static bool source_find(const struct annotate *a, const char *path, struct source *s)
{
	for (const char *p = path; a->o.source_root && p;) {
		char *cand;
		bool ok;

		p += strspn(p, "/");
		cand = xasprintf("%s/%s", a->o.source_root, p);
		ok = source_read(cand, s);
		free(cand);
		if (ok)
			return true;
		p = strchr(p, '/');
	}
	return source_read(path, s);
}

/* a source line for the terminal: tabs expanded, control bytes escaped */
static void put_source_text(FILE *out, const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	size_t col = 0;

	for (const char *p = text; *p; p++) {
		if (*p == '\t') {
			do
				strbuf_addch(&sb, ' ');
			while (++col % TAB_WIDTH);
		} else if (*p != '\r') {
			strbuf_addch(&sb, *p);
			col++;
		}
	}
	fput_escaped(out, strbuf_str(&sb));
	strbuf_release(&sb);
}

/* ---- one function ---- */

/* the instruction holding addr: the last starting at or below it, or -1 */
static long insn_at(const struct sym_disasm *d, uint64_t addr)
{
	size_t lo = 0, hi = d->n;

	if (!d->n || addr < d->insns[0].addr || addr >= d->end)
		return -1;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->insns[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return (long)lo;
}

static void view_build(struct ann_view *v, const struct ann_addr *addrs)
{
	const struct sym_disasm *d = &v->d;
	struct pf_error err;

	v->disasm_ok = sym_resolver_disasm(v->a->r, v->f->first->binary, v->f->first->addr,
					   &v->d, &err) == 0;
	if (!v->disasm_ok) {
		snprintf(v->disasm_error, sizeof(v->disasm_error), "%s", err.msg);
		return;
	}
	v->insn_counts = xcalloc(d->n + 1, sizeof(*v->insn_counts));
	for (size_t i = 0; i < v->f->n; i++) {
		long k = insn_at(d, addrs[v->f->from + i].res->addr);

		if (k < 0)
			v->unattributed += addrs[v->f->from + i].count;
		else
			v->insn_counts[k] += addrs[v->f->from + i].count;
	}
	for (size_t i = 0; i < d->n && !v->file; i++)
		if (d->insns[i].file && d->insns[i].line)
			v->file = d->insns[i].file;
	if (!v->file)
		return;
	v->lo = UINT32_MAX;
	for (size_t i = 0; i < d->n; i++)
		if (d->insns[i].file == v->file && d->insns[i].line) {
			v->lo = d->insns[i].line < v->lo ? d->insns[i].line : v->lo;
			v->hi = d->insns[i].line > v->hi ? d->insns[i].line : v->hi;
		}
	if (v->hi - v->lo >= LINE_SPAN_MAX)
		v->hi = v->lo + LINE_SPAN_MAX - 1;
	v->line_counts = xcalloc(v->hi - v->lo + 1, sizeof(*v->line_counts));
	v->line_shown = xcalloc(v->hi - v->lo + 1, sizeof(*v->line_shown));
	for (size_t i = 0; i < d->n; i++)
		if (d->insns[i].file == v->file && d->insns[i].line && d->insns[i].line <= v->hi) {
			v->line_counts[d->insns[i].line - v->lo] += v->insn_counts[i];
			v->line_shown[d->insns[i].line - v->lo] = true;
		}
	for (uint64_t l = v->lo, prev = v->lo; l <= v->hi; l++)
		if (v->line_shown[l - v->lo]) {
			for (uint64_t k = prev; l - prev <= LINE_GAP && k < l; k++)
				v->line_shown[k - v->lo] = true;
			prev = l;
		}
	v->have_src = source_find(v->a, v->file, &v->src);
}

static void view_release(struct ann_view *v)
{
	sym_disasm_release(&v->d);
	free(v->insn_counts);
	free(v->line_counts);
	free(v->line_shown);
	source_release(&v->src);
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static const char *how_name(enum sym_disasm_how h)
{
	switch (h) {
	case SYM_DISASM_OBJDUMP:
		return "objdump";
	case SYM_DISASM_RAW_BUNDLES:
		return "raw-bundles";
	default:
		return "capstone";
	}
}

/* an instruction under its line: samples, percent, address, [template] text */
static void text_insn(const struct ann_view *v, size_t i, FILE *out)
{
	const struct sym_disasm_insn *in = &v->d.insns[i];
	bool ia64 = v->d.how != SYM_DISASM_CAPSTONE;

	fprintf(out, "%9" PRIu64 " %7.2f%%          0x%" PRIx64 "  ", v->insn_counts[i],
		pct(v->insn_counts[i], v->f->samples), in->addr);
	if (ia64) {
		char tmpl[16] = "";

		if (in->bundle)
			snprintf(tmpl, sizeof(tmpl), "[%.8s]", in->bundle);
		fprintf(out, "%-8s", tmpl);
	}
	fput_escaped(out, in->mnemonic);
	if (in->operands[0]) {
		fputc(' ', out);
		fput_escaped(out, in->operands);
	}
	fputc('\n', out);
}

static bool in_source(const struct ann_view *v, const struct sym_disasm_insn *in)
{
	return v->have_src && in->file == v->file && in->line >= v->lo && in->line <= v->hi;
}

/* an instruction's line, to sort instructions by */
struct insn_line {
	const char *file;
	unsigned line;
	size_t i; /* the instruction */
};

/* by line (file, then number), in address order within one */
static int by_line(const void *x, const void *y)
{
	const struct insn_line *a = x, *b = y;

	if (a->file != b->file)
		return (uintptr_t)a->file < (uintptr_t)b->file ? -1 : 1;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

/* a line's instructions: idx[from, from + n), the first of them idx[from] */
struct line_group {
	size_t from, n, first;
	uint64_t samples;
};

static int by_first_insn(const void *x, const void *y)
{
	const struct line_group *a = x, *b = y;

	return a->first < b->first ? -1 : a->first > b->first;
}

/* The instructions whose lines the source does not show (another file:
 * inlined code; no line; or every one when the source is missing), under
 * a "file:line" row per line (with samples, when the source is shown), the
 * lines in the order of their first instruction.  Sorted, not searched: a
 * 10,000-instruction function without its source has thousands of lines. */
static void text_other_lines(const struct ann_view *v, FILE *out)
{
	const struct sym_disasm *d = &v->d;
	struct insn_line *idx = xcalloc(d->n + 1, sizeof(*idx));
	struct line_group *g = xcalloc(d->n + 1, sizeof(*g));
	size_t n = 0, ng = 0;

	for (size_t i = 0; i < d->n; i++)
		if (!in_source(v, &d->insns[i]))
			idx[n++] = (struct insn_line){ d->insns[i].file, d->insns[i].line, i };
	qsort(idx, n, sizeof(*idx), by_line);
	for (size_t k = 0; k < n; k++) {
		const struct insn_line *prev = ng ? &idx[g[ng - 1].from] : NULL;

		if (!prev || prev->file != idx[k].file || prev->line != idx[k].line)
			g[ng++] = (struct line_group){ k, 0, idx[k].i, 0 };
		g[ng - 1].n++;
		g[ng - 1].samples += v->insn_counts[idx[k].i];
	}
	qsort(g, ng, sizeof(*g), by_first_insn);
	for (size_t k = 0, shown = 0; k < ng; k++) {
		size_t from = g[k].from;
		const struct sym_disasm_insn *in = &d->insns[g[k].first];

		if (v->have_src && !g[k].samples)
			continue;
		if (!shown++ && v->have_src)
			fputs("## lines of other files, or of none, with samples\n", out);
		fprintf(out, "%9" PRIu64 " %7.2f%%  ", g[k].samples, pct(g[k].samples, v->f->samples));
		if (in->file && in->line) {
			fput_escaped(out, in->file);
			fprintf(out, ":%u\n", in->line);
		} else {
			fputs("(no line)\n", out);
		}
		for (size_t j = from; j < from + g[k].n; j++)
			text_insn(v, idx[j].i, out);
	}
	free(idx);
	free(g);
}

static void text_function(const struct ann_view *v, FILE *out)
{
	const struct ann_func *f = v->f;

	fputs("## ", out);
	fput_escaped(out, f->first->func);
	fputs(" [", out);
	fput_escaped(out, f->first->binary);
	fprintf(out, "]: %" PRIu64 " samples, %.2f%% of %s\n", f->samples, pct(f->samples, v->event_total), v->event);
	if (!v->disasm_ok) {
		fputs("# note: no instructions: ", out);
		fput_escaped(out, v->disasm_error);
		fputc('\n', out);
		return;
	}
	if (v->have_src) {
		fputs("## source ", out);
		fput_escaped(out, v->src.path);
		fprintf(out, ", instructions by %s\n", how_name(v->d.how));
	} else if (v->file) {
		fputs("# note: source file ", out);
		fput_escaped(out, v->file);
		fprintf(out, " not found (--source-root=DIR looks under DIR): instructions only, by %s\n",
			how_name(v->d.how));
	} else {
		fprintf(out, "# note: no line information: instructions only, by %s\n", how_name(v->d.how));
	}
	fputs("  samples  percent    line  source / instruction\n", out);
	for (uint64_t l = v->lo; v->have_src && l <= v->hi; l++) {
		uint64_t n = v->line_counts[l - v->lo];

		if (!v->line_shown[l - v->lo])
			continue;
		if (l > v->lo && !v->line_shown[l - 1 - v->lo])
			fputs("                          ...\n", out);
		fprintf(out, "%9" PRIu64 " %7.2f%% %7" PRIu64 "  ", n, pct(n, f->samples), l);
		if (l <= v->src.n)
			put_source_text(out, v->src.lines[l - 1]);
		fputc('\n', out);
		for (size_t i = 0; n && i < v->d.n; i++)
			if (v->d.insns[i].file == v->file && v->d.insns[i].line == l)
				text_insn(v, i, out);
	}
	text_other_lines(v, out);
	if (v->unattributed)
		fprintf(out, "%9" PRIu64 " %7.2f%%  past the instructions disassembled\n", v->unattributed,
			pct(v->unattributed, f->samples));
}

static void json_function(const struct ann_view *v, struct json_writer *w, FILE *err)
{
	const struct ann_func *f = v->f;

	json_begin_object(w);
	json_key_string(w, "function", f->first->func);
	json_key_string(w, "binary", f->first->binary);
	json_key(w, "address");
	json_hex(w, func_start(f->first));
	json_key_uint(w, "samples", f->samples);
	json_key(w, "percent");
	json_double(w, pct(f->samples, v->event_total), 2);
	if (!v->disasm_ok) {
		json_key_string(w, "error", v->disasm_error);
		json_end_object(w);
		fprintf(err, "note: %s: no instructions: %s\n", f->first->func, v->disasm_error);
		return;
	}
	json_key(w, "end");
	json_hex(w, v->d.end);
	json_key_string(w, "disassembler", how_name(v->d.how));
	json_key(w, "source_file");
	if (v->file)
		json_string(w, v->file);
	else
		json_null(w);
	json_key(w, "source_read");
	if (v->have_src)
		json_string(w, v->src.path);
	else
		json_null(w);
	if (v->file && !v->have_src) {
		fputs("note: source file ", err);
		fput_escaped(err, v->file);
		fputs(" not found (--source-root=DIR looks under DIR): instructions only\n", err);
	}
	json_key(w, "lines");
	json_begin_array(w);
	for (uint64_t l = v->lo; v->file && l <= v->hi; l++) {
		uint64_t n = v->line_counts[l - v->lo];

		if (!v->line_shown[l - v->lo])
			continue;
		json_begin_object(w);
		json_key_uint(w, "line", l);
		json_key_uint(w, "samples", n);
		json_key(w, "percent");
		json_double(w, pct(n, f->samples), 2);
		json_key(w, "text");
		if (v->have_src && l <= v->src.n)
			json_string(w, v->src.lines[l - 1]);
		else
			json_null(w);
		json_end_object(w);
	}
	json_end_array(w);
	json_key(w, "instructions");
	json_begin_array(w);
	for (size_t i = 0; i < v->d.n; i++) {
		const struct sym_disasm_insn *in = &v->d.insns[i];

		json_begin_object(w);
		json_key(w, "address");
		json_hex(w, in->addr);
		json_key_uint(w, "size", in->size);
		if (in->bundle)
			json_key_string(w, "bundle", in->bundle);
		json_key_string(w, "mnemonic", in->mnemonic);
		json_key_string(w, "operands", in->operands);
		json_key(w, "file");
		if (in->file)
			json_string(w, in->file);
		else
			json_null(w);
		json_key_uint(w, "line", in->line);
		json_key_uint(w, "samples", v->insn_counts[i]);
		json_key(w, "percent");
		json_double(w, pct(v->insn_counts[i], f->samples), 2);
		json_end_object(w);
	}
	json_end_array(w);
	json_key_uint(w, "unattributed", v->unattributed);
	json_end_object(w);
}

/* which functions: the named ones, else the top ones; *n of them, in order */
static size_t choose(const struct annotate *a, struct ann_func *funcs, size_t nf)
{
	size_t n = 0;

	qsort(funcs, nf, sizeof(*funcs), by_samples);
	if (!a->o.function)
		return nf < a->o.top ? nf : (size_t)a->o.top;
	for (size_t i = 0; i < nf; i++)
		if (!strcmp(funcs[i].first->func, a->o.function))
			funcs[n++] = funcs[i];
	return n;
}

static size_t print_event(struct annotate *a, size_t ev, const char *name, FILE *out, struct json_writer *w,
			  FILE *err)
{
	struct ann_func *funcs;
	size_t n, nf, shown;
	struct ann_addr *addrs = collect(a, ev, &n, &funcs, &nf);

	shown = choose(a, funcs, nf);
	if (w) {
		json_begin_object(w);
		json_key_string(w, "event", name);
		json_key_uint(w, "samples", a->totals[ev]);
		json_key(w, "functions");
		json_begin_array(w);
	} else {
		fputs("# pfmon annotate: ", out);
		fput_escaped(out, name);
		fprintf(out, ", %" PRIu64 " samples; ", a->totals[ev]);
		if (a->o.function) {
			fputs("function ", out);
			fput_escaped(out, a->o.function);
		} else {
			fprintf(out, "the %zu hottest function%s", shown, shown == 1 ? "" : "s");
		}
		fputc('\n', out);
	}
	for (size_t i = 0; i < shown; i++) {
		struct ann_view v = { .a = a, .event = name, .event_total = a->totals[ev], .f = &funcs[i] };

		view_build(&v, addrs);
		if (w)
			json_function(&v, w, err);
		else
			text_function(&v, out);
		view_release(&v);
	}
	if (w) {
		json_end_array(w);
		json_end_object(w);
	}
	free(addrs);
	free(funcs);
	return shown;
}

/* The schema is pfmon(1)'s ANNOTATED FUNCTIONS; its version changes when
 * a key changes meaning or goes away. */
#define ANNOTATE_JSON_VERSION 1

int annotate_print(struct annotate *a, const char *const *names, FILE *out, FILE *err, struct pf_error *e)
{
	struct json_writer w;
	size_t shown = 0;

	if (a->o.json) {
		json_init(&w, out, true);
		json_begin_object(&w);
		json_key_string(&w, "format", "pfmon-annotate");
		json_key_uint(&w, "version", ANNOTATE_JSON_VERSION);
		json_key(&w, "events");
		json_begin_array(&w);
	}
	for (size_t ev = 0; ev < a->n_ev; ev++)
		if (names[ev])
			shown += print_event(a, ev, names[ev], out, a->o.json ? &w : NULL, err);
	if (a->o.json) {
		json_end_array(&w);
		json_end_object(&w);
		json_newline(&w);
	}
	if (a->o.function && !shown)
		return pf_error_set(e, PF_E_ANNOTATE_NONE, a->o.function,
				    " (names as the report by function shows them)");
	return 0;
}
