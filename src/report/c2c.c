/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The false-sharing view (c2c.h).  Samples are counted per access row:
 * (process, cache line, offset in it, thread, instruction), each row in
 * one table keyed by all five; the rows are named when they first come
 * (the address space is the one of that moment: a later exec or unmapping
 * does not rename them).  At the end the rows are sorted by line, each
 * line's totals and threads computed, and the lines worth showing printed,
 * most HITM first.
 */
#include <config.h>

#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "common/hash.h"
#include "common/hashtab.h"
#include "common/json_writer.h"
#include "common/util.h"
#include "report/c2c.h"
#include "sample/data_src.h"

/* the data source's bits the view reads (include/uapi/linux/perf_event.h) */
#define OP_LOAD 0x02u
#define OP_STORE 0x04u
#define SNOOP_HITM 0x10u
#define LVL_REM_CCE1 0x400u
#define LVL_REM_CCE2 0x800u

/* what one access row counted */
struct c2c_counts {
	uint64_t samples, loads, stores, other; /* other: no data source, or neither op */
	uint64_t lcl_hitm, rmt_hitm;
};

struct c2c_row {
	uint64_t line, ip;
	uint32_t pid, tid;
	uint32_t offset;
	struct c2c_counts n;
	/* names, the resolver's (NULL: unknown) */
	const char *function, *file, *field, *type;
	unsigned src_line;
};

/* the table's slot: the row's index + 1 (0: free) and its key */
struct row_slot {
	uint64_t line, ip;
	uint32_t pid, tid, offset;
	uint32_t idx1;
};

struct tid_comm {
	uint32_t tid;
	bool used;
	char *comm;
};

struct c2c_view {
	struct sym_resolver *res;
	bool json;
	uint64_t top;
	struct c2c_row *rows;
	size_t n_rows, cap_rows;
	struct hashtab index;   /* struct row_slot */
	struct hashtab comms;   /* struct tid_comm */
	struct c2c_counts total;
	uint64_t samples, no_addr;
};

static bool row_used(const void *s)
{
	return ((const struct row_slot *)s)->idx1 != 0;
}

static bool row_match(const void *s, const void *k)
{
	const struct row_slot *a = s, *b = k;

	return a->line == b->line && a->ip == b->ip && a->pid == b->pid && a->tid == b->tid &&
	       a->offset == b->offset;
}

static uint64_t row_key_hash(const struct row_slot *k)
{
	uint64_t h = hash_combine(k->line, k->ip);

	h = hash_combine(h, (uint64_t)k->pid << 32 | k->tid);
	return hash_u64(hash_combine(h, k->offset));
}

static uint64_t row_hash(const void *s)
{
	return row_key_hash(s);
}

static const struct hashtab_ops row_ops = { sizeof(struct row_slot), 64, 70, row_used, row_match, row_hash };

static bool comm_used(const void *s)
{
	return ((const struct tid_comm *)s)->used;
}

static bool comm_match(const void *s, const void *k)
{
	return ((const struct tid_comm *)s)->tid == *(const uint32_t *)k;
}

static uint64_t comm_hash(const void *s)
{
	return hash_u64(((const struct tid_comm *)s)->tid);
}

static const struct hashtab_ops comm_ops = { sizeof(struct tid_comm), 16, 70, comm_used, comm_match, comm_hash };

struct c2c_view *c2c_new(struct sym_resolver *res, bool json, uint64_t top)
{
	struct c2c_view *v = xcalloc(1, sizeof(*v));

	v->res = res;
	v->json = json;
	v->top = top;
	hashtab_init(&v->index);
	hashtab_init(&v->comms);
	return v;
}

void c2c_free(struct c2c_view *v)
{
	struct tid_comm *c;

	if (!v)
		return;
	for (size_t i = 0; (c = hashtab_next(&v->comms, &comm_ops, &i));)
		free(c->comm);
	hashtab_release(&v->index);
	hashtab_release(&v->comms);
	free(v->rows);
	free(v);
}

void c2c_comm(struct c2c_view *v, uint32_t tid, const char *comm)
{
	bool added;
	struct tid_comm *c = hashtab_insert(&v->comms, &comm_ops, hash_u64(tid), &tid, &added);

	if (added) {
		c->tid = tid;
		c->used = true;
	} else {
		free(c->comm);
	}
	c->comm = xstrdup(comm ? comm : "");
	/* a name is the program's to choose: no control byte reaches a report */
	for (char *p = c->comm; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
}

/* a thread's last name (as perf names it at the end), else its
 * process's (a thread that never renamed itself has the name it was
 * cloned with), else NULL */
static const char *comm_of(const struct c2c_view *v, uint32_t tid, uint32_t pid)
{
	struct tid_comm *c = hashtab_find(&v->comms, &comm_ops, hash_u64(tid), &tid);

	if (!c)
		c = hashtab_find(&v->comms, &comm_ops, hash_u64(pid), &pid);
	return c ? c->comm : NULL;
}

/* A sample's kind of access as perf c2c counts it: a load found the line
 * modified in another core's cache (HITM), remote when the data source
 * says another node's cache held it */
static void count_access(struct c2c_counts *n, const struct sample *s)
{
	struct data_src d;

	n->samples++;
	if (!(s->fields & SAMPLE_F_DATA_SRC)) {
		n->other++;
		return;
	}
	d = data_src_decode(s->data_src);
	if (d.op & OP_STORE) {
		n->stores++;
	} else if (d.op & OP_LOAD) {
		n->loads++;
		if (d.snoop & SNOOP_HITM) {
			if (d.remote || (d.lvl & (LVL_REM_CCE1 | LVL_REM_CCE2)))
				n->rmt_hitm++;
			else
				n->lcl_hitm++;
		}
	} else {
		n->other++;
	}
}

static void add_counts(struct c2c_counts *to, const struct c2c_counts *n)
{
	to->samples += n->samples;
	to->loads += n->loads;
	to->stores += n->stores;
	to->other += n->other;
	to->lcl_hitm += n->lcl_hitm;
	to->rmt_hitm += n->rmt_hitm;
}

/* a new row's names: the instruction's function and source line, and
 * the field its access touched (user space only: a kernel address is
 * named by the kernel's symbols, which a file of another boot may not be) */
static void name_row(struct c2c_view *v, struct c2c_row *r, uint8_t cpumode)
{
	struct sym_dtype t = { NULL, NULL };
	const struct sym_result *res;

	if ((cpumode & SAMPLE_CPUMODE_MASK) != PERF_RECORD_MISC_USER)
		return;
	res = sym_resolve(v->res, r->pid, r->ip);
	if (res) {
		r->function = res->func;
		r->file = res->file;
		r->src_line = res->line;
	}
	sym_resolve_dtype(v->res, r->pid, r->ip, r->line + r->offset, &t);
	r->field = t.typeoff;
	r->type = t.type;
}

void c2c_sample(struct c2c_view *v, const struct sample *s)
{
	struct row_slot key = { 0 }, *slot;
	struct c2c_row *r;
	bool added;

	v->samples++;
	if (!(s->fields & SAMPLE_F_ADDR)) {
		v->no_addr++;
		return;
	}
	key.line = s->addr & ~(uint64_t)(C2C_LINE_SIZE - 1);
	key.offset = (uint32_t)(s->addr & (C2C_LINE_SIZE - 1));
	key.ip = s->ip;
	key.pid = s->pid;
	key.tid = s->tid;
	slot = hashtab_insert(&v->index, &row_ops, row_key_hash(&key), &key, &added);
	if (added) {
		XGROW(v->rows, v->cap_rows, v->n_rows);
		key.idx1 = (uint32_t)++v->n_rows;
		*slot = key;
		r = &v->rows[v->n_rows - 1];
		memset(r, 0, sizeof(*r));
		r->line = key.line;
		r->ip = key.ip;
		r->pid = key.pid;
		r->tid = key.tid;
		r->offset = key.offset;
		name_row(v, r, s->cpumode);
	}
	r = &v->rows[slot->idx1 - 1];
	count_access(&r->n, s);
	count_access(&v->total, s);
}

/* ---- the lines, at the end ---- */

struct c2c_line {
	uint64_t line;
	uint32_t pid;
	size_t first, n; /* its rows in the sorted order */
	struct c2c_counts n_acc;
	uint32_t threads;
};

static int cmp_rows(const void *a, const void *b)
{
	const struct c2c_row *x = a, *y = b;

#define CMP(f) \
	if (x->f != y->f) \
		return x->f < y->f ? -1 : 1
	CMP(pid);
	CMP(line);
	CMP(offset);
	CMP(tid);
	CMP(ip);
#undef CMP
	return 0;
}

static uint64_t hitm(const struct c2c_counts *n)
{
	return n->lcl_hitm + n->rmt_hitm;
}

/* most HITM first, then most stores, then most samples; then by address */
static int cmp_lines(const void *a, const void *b)
{
	const struct c2c_line *x = a, *y = b;

	if (hitm(&x->n_acc) != hitm(&y->n_acc))
		return hitm(&x->n_acc) > hitm(&y->n_acc) ? -1 : 1;
	if (x->n_acc.stores != y->n_acc.stores)
		return x->n_acc.stores > y->n_acc.stores ? -1 : 1;
	if (x->n_acc.samples != y->n_acc.samples)
		return x->n_acc.samples > y->n_acc.samples ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* A line is shared badly when loads found it modified elsewhere, or when
 * several threads touched it and one wrote it (or did what its sample does
 * not say: a page fault may be a write) */
static bool line_shown(const struct c2c_line *l)
{
	return hitm(&l->n_acc) || (l->threads > 1 && (l->n_acc.stores || l->n_acc.other));
}

/* the rows sorted, cut into lines: the lines shown, most HITM first */
static struct c2c_line *make_lines(struct c2c_view *v, size_t *n_lines, size_t *n_all)
{
	struct c2c_line *lines = xcalloc(v->n_rows ? v->n_rows : 1, sizeof(*lines));
	size_t n = 0, shown = 0;

	qsort(v->rows, v->n_rows, sizeof(*v->rows), cmp_rows);
	for (size_t i = 0; i < v->n_rows; i++) {
		const struct c2c_row *r = &v->rows[i];
		struct c2c_line *l = &lines[n ? n - 1 : 0];

		if (!n || l->line != r->line || l->pid != r->pid) {
			l = &lines[n++];
			*l = (struct c2c_line){ r->line, r->pid, i, 0, { 0 }, 0 };
		}
		l->n++;
		add_counts(&l->n_acc, &r->n);
	}
	for (size_t i = 0; i < n; i++) {
		/* rows of a line are by offset, then tid: count the distinct tids */
		uint32_t *tids = xcalloc(lines[i].n, sizeof(*tids));
		size_t nt = 0;

		for (size_t j = 0; j < lines[i].n; j++) {
			uint32_t tid = v->rows[lines[i].first + j].tid;
			size_t k = 0;

			while (k < nt && tids[k] != tid)
				k++;
			if (k == nt)
				tids[nt++] = tid;
		}
		free(tids);
		lines[i].threads = (uint32_t)nt;
		if (line_shown(&lines[i]))
			lines[shown++] = lines[i];
	}
	qsort(lines, shown, sizeof(*lines), cmp_lines);
	*n_all = n;
	*n_lines = v->top && v->top < shown ? v->top : shown;
	return lines;
}

static const char *base_name(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;

	return s ? s + 1 : path;
}

/* "file.c:42", or "[unknown]" */
static void source_of(const struct c2c_row *r, struct strbuf *sb, bool full)
{
	if (!r->file)
		strbuf_addstr(sb, "[unknown]");
	else
		strbuf_addf(sb, "%s:%u", full ? r->file : base_name(r->file), r->src_line);
}

/* the line's distinct fields, in offset order, ", "-separated (the
 * resolver interns names: one pointer each; rows are by offset, so the
 * rows of one field follow each other) */
static void fields_of(const struct c2c_view *v, const struct c2c_line *l, struct strbuf *sb)
{
	const char *last = NULL;

	for (size_t j = 0; j < l->n; j++) {
		const char *f = v->rows[l->first + j].field;

		if (!f || f == last)
			continue;
		strbuf_addf(sb, "%s%s", last ? ", " : "", f);
		last = f;
	}
	if (!last)
		strbuf_addstr(sb, "[unknown]");
}

static void print_text_line(struct c2c_view *v, const struct c2c_line *l, size_t idx, FILE *out)
{
	struct strbuf sb = STRBUF_INIT;

	fields_of(v, l, &sb);
	fprintf(out,
		"\n# line %zu: 0x%016" PRIx64 " pid %" PRIu32 ": HITM %" PRIu64 " (local %" PRIu64 ", remote %" PRIu64
		"), loads %" PRIu64 ", stores %" PRIu64 ", unknown %" PRIu64 ", threads %" PRIu32 "\n",
		idx, l->line, l->pid, hitm(&l->n_acc), l->n_acc.lcl_hitm, l->n_acc.rmt_hitm, l->n_acc.loads,
		l->n_acc.stores, l->n_acc.other, l->threads);
	fprintf(out, "#   fields: %s\n", strbuf_str(&sb));
	fprintf(out, "#   offset  samples  lclHITM  rmtHITM    loads   stores  unknown  %-20s %-18s %-24s %-24s %s\n",
		"thread", "code address", "function", "source", "field");
	for (size_t j = 0; j < l->n; j++) {
		const struct c2c_row *r = &v->rows[l->first + j];
		const char *comm = comm_of(v, r->tid, r->pid);
		char thread[48], offset[16];

		snprintf(thread, sizeof(thread), "%" PRIu32 ":%s", r->tid, comm ? comm : "?");
		snprintf(offset, sizeof(offset), "0x%" PRIx32, r->offset);
		strbuf_reset(&sb);
		source_of(r, &sb, false);
		fprintf(out, "    %6s %8" PRIu64 " %8" PRIu64 " %8" PRIu64 " %8" PRIu64 " %8" PRIu64 " %8" PRIu64
			     "  %-20s 0x%016" PRIx64 " %-24s %-24s %s\n",
			offset, r->n.samples, r->n.lcl_hitm, r->n.rmt_hitm, r->n.loads, r->n.stores, r->n.other, thread,
			r->ip, r->function ? r->function : "[unknown]", strbuf_str(&sb), r->field ? r->field : "[unknown]");
	}
	strbuf_release(&sb);
}

static void print_text(struct c2c_view *v, const struct c2c_line *lines, size_t n, size_t n_all, FILE *out)
{
	const struct c2c_counts *t = &v->total;

	fprintf(out,
		"# false sharing: %u-byte cache lines loaded with HITM, or touched by several threads and written\n"
		"# samples %" PRIu64 ", without a data address (not counted) %" PRIu64 "\n"
		"# loads %" PRIu64 " (HITM %" PRIu64 ": local %" PRIu64 ", remote %" PRIu64 "), stores %" PRIu64
		", unknown (no data source) %" PRIu64 "\n"
		"# lines %zu, shown %zu\n",
		C2C_LINE_SIZE, v->samples, v->no_addr, t->loads, hitm(t), t->lcl_hitm, t->rmt_hitm, t->stores, t->other,
		n_all, n);
	for (size_t i = 0; i < n; i++)
		print_text_line(v, &lines[i], i, out);
}

static void json_counts(struct json_writer *w, const struct c2c_counts *n)
{
	json_key_uint(w, "samples", n->samples);
	json_key_uint(w, "hitm", hitm(n));
	json_key_uint(w, "local_hitm", n->lcl_hitm);
	json_key_uint(w, "remote_hitm", n->rmt_hitm);
	json_key_uint(w, "loads", n->loads);
	json_key_uint(w, "stores", n->stores);
	json_key_uint(w, "unknown", n->other);
}

static void json_opt_string(struct json_writer *w, const char *key, const char *s)
{
	json_key(w, key);
	if (s)
		json_string(w, s);
	else
		json_null(w);
}

static void print_json_row(const struct c2c_view *v, struct json_writer *w, const struct c2c_row *r)
{
	json_begin_object(w);
	json_key_uint(w, "offset", r->offset);
	json_key_uint(w, "tid", r->tid);
	json_opt_string(w, "comm", comm_of(v, r->tid, r->pid));
	json_key(w, "ip");
	json_hex(w, r->ip);
	json_opt_string(w, "function", r->function);
	json_opt_string(w, "file", r->file);
	json_key_uint(w, "line", r->src_line);
	json_opt_string(w, "type", r->type);
	json_opt_string(w, "field", r->field);
	json_counts(w, &r->n);
	json_end_object(w);
}

static void print_json(struct c2c_view *v, const struct c2c_line *lines, size_t n, size_t n_all, FILE *out)
{
	struct json_writer w;

	json_init(&w, out, false);
	json_begin_object(&w);
	json_key_uint(&w, "cache_line_size", C2C_LINE_SIZE);
	json_key_uint(&w, "samples_without_address", v->no_addr);
	json_counts(&w, &v->total);
	json_key_uint(&w, "lines_touched", n_all);
	json_key(&w, "lines");
	json_begin_array(&w);
	for (size_t i = 0; i < n; i++) {
		const struct c2c_line *l = &lines[i];

		json_begin_object(&w);
		json_key(&w, "address");
		json_hex(&w, l->line);
		json_key_uint(&w, "pid", l->pid);
		json_key_uint(&w, "threads", l->threads);
		json_counts(&w, &l->n_acc);
		json_key(&w, "accesses");
		json_begin_array(&w);
		for (size_t j = 0; j < l->n; j++)
			print_json_row(v, &w, &v->rows[l->first + j]);
		json_end_array(&w);
		json_end_object(&w);
	}
	json_end_array(&w);
	json_end_object(&w);
	json_newline(&w);
}

void c2c_print(struct c2c_view *v, FILE *out)
{
	size_t n, n_all;
	struct c2c_line *lines = make_lines(v, &n, &n_all);

	if (v->json)
		print_json(v, lines, n, n_all, out);
	else
		print_text(v, lines, n, n_all, out);
	free(lines);
}
