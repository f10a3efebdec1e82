/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a sample is counted under: its key, by --report-sort. */
#include <config.h>

#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "common/hash.h"
#include "profile_internal.h"
#include "sample/data_src.h"

const char *prof_base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* a frame's name: function, else binary+offset, else the raw address */
static void prof_frame_name(struct strbuf *sb, const struct sym_result *r, uint64_t ip)
{
	if (r && r->wrong_file) /* rebuilt or replaced since: its offsets mean nothing now */
		strbuf_addf(sb, "[unknown] (%s)", prof_base_name(r->binary));
	else if (r && r->func)
		strbuf_addstr(sb, r->func);
	else if (r && r->binary)
		strbuf_addf(sb, "%s+0x%llx", prof_base_name(r->binary), (unsigned long long)r->addr);
	else
		strbuf_addf(sb, "[unknown 0x%llx]", (unsigned long long)ip);
}

enum frame_kind prof_frame_kind(uint8_t cpumode)
{
	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL:
		return FRAME_KERNEL;
	case PERF_RECORD_MISC_GUEST_KERNEL:
		return FRAME_GUEST_KERNEL;
	default:
		return FRAME_USER;
	}
}

/* a kernel frame: "function [module]", or its address when no symbol covers it */
void prof_kernel_frame_name(struct strbuf *sb, const struct sym_result *r, uint64_t ip)
{
	if (!r->func) {
		strbuf_addf(sb, "[kernel] 0x%llx", (unsigned long long)ip);
		return;
	}
	strbuf_addstr(sb, r->func);
	if (r->module)
		strbuf_addf(sb, " [%s]", r->module);
}

/*
 * Kernel keys all start with "[kernel]", so kernel time greps together:
 * by binary "[kernel]" or "[kernel] [ext4]", by address the address and
 * "[kernel] func+0x1c [ext4]", by function (and by line: there is no kernel
 * DWARF) "[kernel] func [ext4]".
 */
static void prof_kernel_key(struct profile *p, enum profile_sort sort, uint64_t ip, struct strbuf *key)
{
	const struct sym_result *r = sym_resolve_kernel(p->res, ip);

	switch (sort) {
	case PROFILE_BY_BINARY:
		strbuf_addstr(key, "[kernel]");
		if (r->module)
			strbuf_addf(key, " [%s]", r->module);
		return;
	case PROFILE_BY_ADDRESS:
		strbuf_addf(key, "0x%016llx [kernel]", (unsigned long long)ip);
		if (r->func)
			strbuf_addf(key, " %s+0x%llx", r->func, (unsigned long long)r->offset);
		if (r->module)
			strbuf_addf(key, " [%s]", r->module);
		return;
	default:
		if (r->func)
			strbuf_addstr(key, "[kernel] ");
		prof_kernel_frame_name(key, r, ip);
	}
}

/* a data address: the variable that holds it, else binary+offset */
static void name_data(const struct sym_result *r, uint64_t addr, struct strbuf *key)
{
	if (r && r->func) {
		strbuf_addstr(key, r->func);
		if (r->offset)
			strbuf_addf(key, "+0x%llx", (unsigned long long)r->offset);
		strbuf_addf(key, " (%s)", prof_base_name(r->binary));
	} else if (r && r->binary) {
		strbuf_addf(key, "%s+0x%llx", prof_base_name(r->binary), (unsigned long long)r->addr);
	} else {
		strbuf_addf(key, "0x%016llx", (unsigned long long)addr);
	}
}

/* A user-space code address's key: r is its answer, NULL without one. */
static void prof_code_key(enum profile_sort sort, const struct sym_result *r, uint64_t ip,
		     struct strbuf *key)
{
	switch (sort) {
	case PROFILE_BY_BINARY:
		strbuf_addstr(key, r && r->binary ? r->binary : "[unknown]");
		return;
	case PROFILE_BY_ADDRESS:
		strbuf_addf(key, "0x%016llx ", (unsigned long long)ip);
		prof_frame_name(key, r, ip);
		if (r && r->func)
			strbuf_addf(key, "+0x%llx", (unsigned long long)r->offset);
		return;
	case PROFILE_BY_LINE:
		if (r && r->file && r->line) {
			strbuf_addf(key, "%s:%u", r->file, r->line);
			return;
		}
		/* no line information: fall back to the function */
		/* fall through */
	case PROFILE_BY_FUNCTION:
	default:
		prof_frame_name(key, r, ip);
		if (r && r->func && r->binary)
			strbuf_addf(key, " (%s)", prof_base_name(r->binary));
	}
}

/* Sorts whose key is a function of the answer alone, when a mapping
 * covered the ip (the address sort shows the ip itself, and ips of several
 * processes can share one answer). */
static bool keyed_by_answer(enum profile_sort sort)
{
	return sort == PROFILE_BY_FUNCTION || sort == PROFILE_BY_LINE || sort == PROFILE_BY_BINARY;
}

/* a user ip's frame: the answer, and the ip only where the key shows it */
struct prof_frame prof_user_frame(struct profile *p, uint32_t pid, uint64_t ip, bool show_ip)
{
	const struct sym_result *r = sym_resolve(p->res, pid, ip);

	return (struct prof_frame){ FRAME_USER, r, show_ip || !r->binary ? ip : 0 };
}

struct prof_frame prof_sample_frame(struct profile *p, const struct sample *s)
{
	enum frame_kind k;

	if (p->opts.sort == PROFILE_BY_DATA) {
		if (!(s->fields & SAMPLE_F_ADDR))
			return (struct prof_frame){ FRAME_NO_DATA, NULL, 0 };
		return (struct prof_frame){ FRAME_DATA, sym_resolve_data(p->res, s->pid, s->addr), s->addr };
	}
	if (p->opts.sort == PROFILE_BY_ADDRESS && !p->opts.resolve) /* pfmon's instruction histogram */
		return (struct prof_frame){ FRAME_RAW, NULL, s->ip };
	k = prof_frame_kind(s->cpumode);
	if (k == FRAME_KERNEL)
		return (struct prof_frame){ FRAME_KERNEL, NULL, s->ip };
	if (k != FRAME_USER)
		return (struct prof_frame){ k, NULL, 0 };
	return prof_user_frame(p, s->pid, s->ip, !keyed_by_answer(p->opts.sort));
}

/* ---- the memory keys ---- */

/* each memory key: its frame, and the part of the data source it names */
static const struct {
	enum profile_sort sort;
	enum frame_kind kind;
	enum data_src_part part;
} mem_keys[] = {
	{ PROFILE_BY_MEM, FRAME_MEM, DATA_SRC_PART_MEM },
	{ PROFILE_BY_SNOOP, FRAME_SNOOP, DATA_SRC_PART_SNOOP },
	{ PROFILE_BY_TLB, FRAME_TLB, DATA_SRC_PART_TLB },
	{ PROFILE_BY_LOCK, FRAME_LOCK, DATA_SRC_PART_LOCK },
	{ PROFILE_BY_BLOCKED, FRAME_BLOCKED, DATA_SRC_PART_BLOCKED },
	{ PROFILE_BY_WEIGHT, FRAME_WEIGHT, DATA_SRC_PART_OP /* unused */ },
	{ PROFILE_BY_TYPE, FRAME_TYPE, DATA_SRC_PART_OP /* unused */ },
	{ PROFILE_BY_TYPEOFF, FRAME_TYPEOFF, DATA_SRC_PART_OP /* unused */ },
	{ PROFILE_BY_P_STAGE_CYC, FRAME_P_STAGE_CYC, DATA_SRC_PART_OP /* unused */ },
};

bool prof_is_mem_frame(enum frame_kind k)
{
	return k >= FRAME_MEM && k <= FRAME_P_STAGE_CYC;
}

const char *prof_mem_frame_key(enum frame_kind k)
{
	for (size_t i = 0; i < ARRAY_SIZE(mem_keys); i++)
		if (mem_keys[i].kind == k)
			return prof_sort_name(mem_keys[i].sort);
	return "?";
}

/* the type (or type+offset) a user-space access with a data address
 * touched, as the symbol layer names it; 0 when it cannot */
static uint64_t dtype_name(struct profile *p, enum profile_sort k, const struct sample *s)
{
	struct sym_dtype t = { NULL, NULL };

	if ((s->fields & SAMPLE_F_ADDR) && prof_frame_kind(s->cpumode) == FRAME_USER)
		sym_resolve_dtype(p->res, s->pid, s->ip, s->addr, &t);
	return (uint64_t)(uintptr_t)(k == PROFILE_BY_TYPE ? t.type : t.typeoff);
}

/* A sample without a data source is one whose every part is "not
 * available", as perf takes it; one without a weight weighs 0. */
static struct prof_frame mem_frame(struct profile *p, enum profile_sort k, const struct sample *s)
{
	uint64_t v = s->fields & SAMPLE_F_DATA_SRC ? s->data_src : DATA_SRC_NONE;

	for (size_t i = 0; i < ARRAY_SIZE(mem_keys); i++) {
		if (mem_keys[i].sort != k)
			continue;
		if (k == PROFILE_BY_TYPE || k == PROFILE_BY_TYPEOFF)
			return (struct prof_frame){ mem_keys[i].kind, NULL, dtype_name(p, k, s) };
		if (k == PROFILE_BY_WEIGHT)
			return (struct prof_frame){ FRAME_WEIGHT, NULL, s->fields & SAMPLE_F_WEIGHT ? s->weight : 0 };
		if (k == PROFILE_BY_P_STAGE_CYC) /* none is 0, as perf takes it */
			return (struct prof_frame){ FRAME_P_STAGE_CYC, NULL,
						    s->fields & SAMPLE_F_P_STAGE_CYC ? s->p_stage_cyc : 0 };
		return (struct prof_frame){ mem_keys[i].kind, NULL, data_src_part(v, mem_keys[i].part) };
	}
	return (struct prof_frame){ FRAME_NO_DATA, NULL, 0 };
}

void prof_mem_frame_name(const struct prof_frame *f, struct strbuf *sb)
{
	if (f->kind == FRAME_WEIGHT || f->kind == FRAME_P_STAGE_CYC) {
		strbuf_addf(sb, "%llu", (unsigned long long)f->addr);
		return;
	}
	if (f->kind == FRAME_TYPE || f->kind == FRAME_TYPEOFF) {
		strbuf_addstr(sb, f->addr ? (const char *)(uintptr_t)f->addr : "[unknown]");
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(mem_keys); i++)
		if (mem_keys[i].kind == f->kind)
			data_src_name(sb, f->addr, mem_keys[i].part);
}

uint32_t prof_sample_key(struct profile *p, const struct sample *s, struct prof_frame *key)
{
	for (uint32_t i = 0; i < p->opts.n_keys; i++)
		key[i] = prof_is_code_key(p->opts.keys[i]) ? prof_sample_frame(p, s) : mem_frame(p, p->opts.keys[i], s);
	return p->opts.n_keys;
}

uint32_t prof_mem_frames(struct profile *p, const struct sample *s, struct prof_frame *f)
{
	uint32_t n = 0;

	for (uint32_t i = p->opts.n_keys; i-- > 0;)
		if (!prof_is_code_key(p->opts.keys[i]))
			f[n++] = mem_frame(p, p->opts.keys[i], s);
	return n;
}

/* ---- the map of typed keys ---- */

static uint64_t frames_hash(const struct prof_frame *f, uint32_t n)
{
	uint64_t h = n;

	for (uint32_t i = 0; i < n; i++) {
		h = hash_combine(h, (uint64_t)f[i].kind);
		h = hash_combine(h, (uint64_t)(uintptr_t)f[i].res);
		h = hash_combine(h, f[i].addr);
	}
	return hash_u64(h);
}

/* answers are unique per (binary, address): one pointer is one answer */
static bool same_frames(const struct prof_frame *a, const struct prof_frame *b, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (a[i].kind != b[i].kind || a[i].res != b[i].res || a[i].addr != b[i].addr)
			return false;
	return true;
}

struct frames_key {
	const struct prof_frame *f;
	uint32_t n;
};

static bool entry_used(const void *slot)
{
	return ((const struct prof_entry *)slot)->frames != NULL;
}

static bool entry_match(const void *slot, const void *key)
{
	const struct prof_entry *e = slot;
	const struct frames_key *k = key;

	return e->n == k->n && same_frames(e->frames, k->f, k->n);
}

static uint64_t entry_hash(const void *slot)
{
	const struct prof_entry *e = slot;

	return frames_hash(e->frames, e->n);
}

static const struct hashtab_ops entry_ops = {
	.slot_size = sizeof(struct prof_entry),
	.min_cap = 256,
	.load_pct = 75,
	.used = entry_used,
	.match = entry_match,
	.hash = entry_hash,
};

struct prof_entry *prof_keymap_add(struct prof_keymap *m, const struct prof_frame *key, uint32_t n, uint64_t count)
{
	struct frames_key k = { key, n };
	bool added;
	struct prof_entry *e = hashtab_insert(&m->tab, &entry_ops, frames_hash(key, n), &k, &added);

	if (added) {
		e->frames = xmalloc((n ? n : 1) * sizeof(*key));
		memcpy(e->frames, key, n * sizeof(*key));
		e->n = n;
	}
	e->count += count;
	return e;
}

struct prof_entry *prof_keymap_next(const struct prof_keymap *m, size_t *i)
{
	return hashtab_next(&m->tab, &entry_ops, i);
}

void prof_keymap_release(struct prof_keymap *m)
{
	struct prof_entry *e;

	for (size_t i = 0; (e = prof_keymap_next(m, &i));)
		free(e->frames);
	hashtab_release(&m->tab);
}

/* ---- naming, once the kernel's symbols are known ---- */

void prof_name_frame(struct profile *p, const struct prof_frame *f, enum profile_sort sort, struct strbuf *out)
{
	switch (f->kind) {
	case FRAME_USER:
		prof_code_key(sort, f->res, f->addr, out);
		return;
	case FRAME_KERNEL:
		if (p->kernel_named)
			prof_kernel_key(p, sort, f->addr, out);
		else
			strbuf_addstr(out, "[kernel]");
		return;
	case FRAME_GUEST_KERNEL:
		strbuf_addstr(out, "[guest kernel]");
		return;
	case FRAME_RAW:
		strbuf_addf(out, "0x%016llx", (unsigned long long)f->addr);
		return;
	case FRAME_DATA:
		name_data(f->res, f->addr, out);
		return;
	case FRAME_PID: { /* perf report --sort pid's pid:command */
		const char *comm = prof_comm_of(p, (uint32_t)f->addr);

		strbuf_addf(out, "%llu:%s", (unsigned long long)f->addr, comm ? comm : "?");
		return;
	}
	case FRAME_MEM:
	case FRAME_SNOOP:
	case FRAME_TLB:
	case FRAME_LOCK:
	case FRAME_BLOCKED:
	case FRAME_WEIGHT:
	case FRAME_TYPE:
	case FRAME_TYPEOFF:
	case FRAME_P_STAGE_CYC:
		prof_mem_frame_name(f, out);
		return;
	case FRAME_NO_DATA:
	default:
		strbuf_addstr(out, "[no data address]");
	}
}

static void name_key(struct profile *p, const struct prof_frame *f, struct strbuf *out)
{
	prof_name_frame(p, f, p->opts.sort, out);
}

/* by process: "pid:command function"; keys apart: "function | L1 hit" */
static void name_entry(struct profile *p, const struct prof_entry *e, struct strbuf *key)
{
	strbuf_reset(key);
	for (uint32_t j = 0; j < e->n; j++) {
		if (j)
			strbuf_addstr(key, e->frames[j - 1].kind == FRAME_PID ? " " : " | ");
		name_key(p, &e->frames[j], key);
	}
}

void prof_name_keymap(struct profile *p, struct prof_keymap *m, struct strmap *out)
{
	struct strbuf key = STRBUF_INIT;
	const struct prof_entry *e;

	for (size_t i = 0; (e = prof_keymap_next(m, &i));) {
		name_entry(p, e, &key);
		strmap_add(out, strbuf_str(&key), e->count);
	}
	strbuf_release(&key);
	prof_keymap_release(m);
}

static int cmp_str(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) : (a != NULL) - (b != NULL);
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return (a > b) - (a < b);
}

/*
 * A total order of frames by what they are, not by where they were met:
 * two frames with one name (_start of a program and of ld.so, whose key
 * shows no address) are told apart by their binary, their address in it
 * and its source line, so a merge read by any number of threads (which
 * meets them in another order) picks the same one.
 */
static int cmp_frame(const struct prof_frame *a, const struct prof_frame *b)
{
	const struct sym_result *x = a->res, *y = b->res;
	int c = cmp_u64(a->addr, b->addr);

	if (c || (c = cmp_u64(a->kind, b->kind)) || !x || !y)
		return c ? c : (x != NULL) - (y != NULL);
	if ((c = cmp_str(x->binary, y->binary)) || (c = cmp_u64(x->addr, y->addr)) ||
	    (c = cmp_str(x->func, y->func)) || (c = cmp_str(x->module, y->module)) ||
	    (c = cmp_str(x->file, y->file)))
		return c;
	return cmp_u64(x->line, y->line);
}

bool prof_stands_first(const struct prof_frame *a, uint32_t na, uint64_t ca, const struct prof_frame *b, uint32_t nb,
		       uint64_t cb)
{
	if (ca != cb)
		return ca > cb;
	for (uint32_t i = 0; i < na && i < nb; i++) {
		int c = cmp_frame(&a[i], &b[i]);

		if (c)
			return c < 0;
	}
	return na < nb;
}

/* the frame of code or data of a key (NULL: it has none), and its memory
 * frames in order into mem (PROFILE_MAX_KEYS, the rest FRAME_NO_DATA) */
static const struct prof_frame *key_parts(const struct prof_entry *e, struct prof_frame *mem)
{
	const struct prof_frame *code = NULL;
	uint32_t m = 0;

	for (uint32_t j = 0; j < e->n; j++) {
		if (prof_is_mem_frame(e->frames[j].kind) && m < PROFILE_MAX_KEYS)
			mem[m++] = e->frames[j];
		else if (e->frames[j].kind != FRAME_PID)
			code = &e->frames[j];
	}
	while (m < PROFILE_MAX_KEYS)
		mem[m++] = (struct prof_frame){ FRAME_NO_DATA, NULL, 0 };
	return code;
}

/* JSON: the frames a named key's separate fields are from */
static void keep_key_frame(struct event_hist *h, const char *name, const struct prof_entry *e)
{
	struct prof_frame mem[PROFILE_MAX_KEYS];
	const struct prof_frame *code = key_parts(e, mem);
	struct prof_frame none = { FRAME_NO_DATA, NULL, 0 };
	/* by process the first frame is the process's */
	uint32_t pid = e->n > 1 && e->frames[0].kind == FRAME_PID ? (uint32_t)e->frames[0].addr : 0;
	size_t at = strmap_get(&h->key_index, name);
	struct prof_key_fields *k;

	if (!code) /* memory keys alone */
		code = &none;
	if (!at) {
		XGROW(h->key_fields, h->cap_key_fields, h->n_key_fields);
		at = ++h->n_key_fields;
		strmap_add(&h->key_index, name, at);
	} else if (!prof_stands_first(code, 1, e->count, &h->key_fields[at - 1].code, 1,
				      h->key_fields[at - 1].count)) {
		return;
	}
	k = &h->key_fields[at - 1];
	k->code = *code;
	k->count = e->count;
	k->pid = pid;
	memcpy(k->mem, mem, sizeof(mem));
}

void prof_name_keys(struct profile *p, struct event_hist *h)
{
	struct strbuf key = STRBUF_INIT;
	const struct prof_entry *e;

	for (size_t i = 0; (e = prof_keymap_next(&h->counted, &i));) {
		name_entry(p, e, &key);
		strmap_add(&h->keys, strbuf_str(&key), e->count);
		if (p->opts.format == PROFILE_JSON)
			keep_key_frame(h, strbuf_str(&key), e);
		for (uint32_t j = 0; j < h->n_reads; j++)
			strmap_add(&h->read_sums[j], strbuf_str(&key), e->reads[j]);
	}
	strbuf_release(&key);
	prof_keymap_release(&h->counted);
}
