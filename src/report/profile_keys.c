/* What a sample is counted under: its key, by --report-sort. */
#include <config.h>

#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "profile_internal.h"

static const char *prof_base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* a frame's name: function, else binary+offset, else the raw address */
static void prof_frame_name(struct strbuf *sb, const struct sym_result *r, uint64_t ip)
{
	if (r && r->func)
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
static void prof_kernel_frame_name(struct strbuf *sb, const struct sym_result *r, uint64_t ip)
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
static void prof_kernel_key(struct profile *p, uint64_t ip, struct strbuf *key)
{
	const struct sym_result *r = sym_resolve_kernel(p->res, ip);

	switch (p->opts.sort) {
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
static void data_key(struct profile *p, const struct sample *s, struct strbuf *key)
{
	const struct sym_result *r;

	if (!(s->fields & SAMPLE_F_ADDR)) {
		strbuf_addstr(key, "[no data address]");
		return;
	}
	r = sym_resolve_data(p->res, s->pid, s->addr);
	if (r && r->func) {
		strbuf_addstr(key, r->func);
		if (r->offset)
			strbuf_addf(key, "+0x%llx", (unsigned long long)r->offset);
		strbuf_addf(key, " (%s)", prof_base_name(r->binary));
	} else if (r && r->binary) {
		strbuf_addf(key, "%s+0x%llx", prof_base_name(r->binary), (unsigned long long)r->addr);
	} else {
		strbuf_addf(key, "0x%016llx", (unsigned long long)s->addr);
	}
}

/* A user-space code address's key: r is its answer, NULL without one. */
void prof_code_key(enum profile_sort sort, const struct sym_result *r, uint64_t ip,
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

void prof_sample_key(struct profile *p, const struct sample *s, struct strbuf *key)
{
	enum frame_kind k;

	if (p->opts.sort == PROFILE_BY_DATA) {
		data_key(p, s, key);
		return;
	}
	if (p->opts.sort == PROFILE_BY_ADDRESS && !p->opts.resolve) {
		/* pfmon's instruction histogram: raw addresses, nothing opened */
		strbuf_addf(key, "0x%016llx", (unsigned long long)s->ip);
		return;
	}
	k = prof_frame_kind(s->cpumode);
	if (k == FRAME_KERNEL)
		strbuf_addf(key, "%c%016llx", KTOKEN, (unsigned long long)s->ip);
	else if (k != FRAME_USER)
		strbuf_addstr(key, "[guest kernel]");
	else
		prof_code_key(p->opts.sort, sym_resolve(p->res, s->pid, s->ip), s->ip, key);
}

/* Sorts whose key is a function of the answer alone, when a mapping
 * covered the ip (the address sort shows the ip itself, and ips of several
 * processes can share one answer). */
bool prof_keyed_by_answer(enum profile_sort sort)
{
	return sort == PROFILE_BY_FUNCTION || sort == PROFILE_BY_LINE || sort == PROFILE_BY_BINARY;
}

static size_t res_hash(const struct sym_result *r)
{
	uint64_t h = (uint64_t)(uintptr_t)r * 0x9e3779b97f4a7c15ull;

	return (size_t)(h ^ (h >> 29));
}

static struct res_count *res_slot(struct res_count *slots, size_t cap, const struct sym_result *r)
{
	size_t i = res_hash(r) & (cap - 1);

	while (slots[i].res && slots[i].res != r)
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

void prof_res_count_add(struct res_counts *c, const struct sym_result *r)
{
	struct res_count *e;

	if ((c->len + 1) * 4 > c->cap * 3) {
		size_t cap = c->cap ? c->cap * 2 : 256;
		struct res_count *slots = xcalloc(cap, sizeof(*slots));

		for (size_t i = 0; i < c->cap; i++)
			if (c->slots[i].res)
				*res_slot(slots, cap, c->slots[i].res) = c->slots[i];
		free(c->slots);
		c->slots = slots;
		c->cap = cap;
	}
	e = res_slot(c->slots, c->cap, r);
	if (!e->res) {
		e->res = r;
		c->len++;
	}
	e->count++;
}

/* Each answer's count goes to its key; answers sharing a key (two
 * addresses on one line) add up there. */
void prof_fold_answers(struct profile *p, struct event_hist *h)
{
	struct strbuf key = STRBUF_INIT;

	for (size_t i = 0; i < h->by_res.cap; i++) {
		const struct res_count *e = &h->by_res.slots[i];

		if (!e->res)
			continue;
		strbuf_reset(&key);
		/* the ip only shows in keys of answers without a binary */
		prof_code_key(p->opts.sort, e->res, 0, &key);
		strmap_add(&h->keys, strbuf_str(&key), e->count);
	}
	strbuf_release(&key);
	free(h->by_res.slots);
	h->by_res = (struct res_counts){ 0 };
}

/* the cpumode of the frames after a callchain context marker */
static uint8_t context_cpumode(uint64_t marker)
{
	switch (marker) {
	case (uint64_t)PERF_CONTEXT_KERNEL:
		return PERF_RECORD_MISC_KERNEL;
	case (uint64_t)PERF_CONTEXT_GUEST_KERNEL:
		return PERF_RECORD_MISC_GUEST_KERNEL;
	default:
		return PERF_RECORD_MISC_USER;
	}
}

/* Frames of a sample, leaf first, each with where it ran; a run of kernel
 * frames that cannot be named collapses into one lump. */
static size_t sample_frames(const struct sample *s, uint64_t *ips, enum frame_kind *kinds, size_t max)
{
	enum frame_kind kind = prof_frame_kind(s->cpumode);
	size_t n = 0;

	for (uint32_t i = 0; (s->fields & SAMPLE_F_CALLCHAIN) && i < s->callchain_nr && n < max; i++) {
		uint64_t ip = s->callchain[i];

		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			kind = prof_frame_kind(context_cpumode(ip));
			continue;
		}
		if (kind != FRAME_USER && kind != FRAME_KERNEL && n && kinds[n - 1] == kind)
			continue;
		ips[n] = ip;
		kinds[n++] = kind;
	}
	if (n == 0) {
		ips[0] = s->ip;
		kinds[n++] = prof_frame_kind(s->cpumode);
	}
	return n;
}

/* root first, frames joined by ';' (the folded format of flame-graph tools) */
void prof_add_folded(struct profile *p, const struct sample *s)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t ips[PERF_MAX_STACK_DEPTH];
	enum frame_kind kinds[PERF_MAX_STACK_DEPTH];
	size_t n = sample_frames(s, ips, kinds, PERF_MAX_STACK_DEPTH);

	for (size_t i = n; i-- > 0;) {
		if (kinds[i] == FRAME_KERNEL)
			strbuf_addf(&sb, "%c%016llx", KTOKEN, (unsigned long long)ips[i]);
		else if (kinds[i] != FRAME_USER)
			strbuf_addstr(&sb, "[guest kernel]");
		else
			prof_frame_name(&sb, sym_resolve(p->res, s->pid, ips[i]), ips[i]);
		if (i)
			strbuf_addch(&sb, ';');
	}
	strmap_add(&p->folded, strbuf_str(&sb), 1);
	strbuf_release(&sb);
}

static uint64_t token_ip(const char *t)
{
	char hex[KTOKEN_LEN];

	memcpy(hex, t + 1, KTOKEN_LEN - 1);
	hex[KTOKEN_LEN - 1] = '\0';
	return strtoull(hex, NULL, 16);
}

/* A key with kernel tokens, named: a sample's key is one token; a folded
 * stack has one per kernel frame, and unnamed ones in a row are one lump. */
static void name_tokens(struct profile *p, const char *key, bool stack, struct strbuf *out)
{
	bool lumped = false;

	if (!stack) {
		if (p->kernel_named)
			prof_kernel_key(p, token_ip(key), out);
		else
			strbuf_addstr(out, "[kernel]");
		return;
	}
	for (const char *c = key; *c;) {
		if (*c != KTOKEN) {
			lumped = lumped && *c == ';';
			strbuf_addch(out, *c++);
			continue;
		}
		if (p->kernel_named)
			prof_kernel_frame_name(out, sym_resolve_kernel(p->res, token_ip(c)), token_ip(c));
		else if (lumped)
			out->buf[--out->len] = '\0'; /* drop the ';' before: one lump */
		else
			strbuf_addstr(out, "[kernel]");
		lumped = !p->kernel_named;
		c += KTOKEN_LEN;
	}
}

/* the map with its kernel tokens named; keys that become one add up */
void prof_name_kernel_keys(struct profile *p, struct strmap *m, bool stacks)
{
	struct strmap named;
	struct strbuf key = STRBUF_INIT;

	strmap_init(&named);
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->slots[i].key)
			continue;
		strbuf_reset(&key);
		if (strchr(m->slots[i].key, KTOKEN))
			name_tokens(p, m->slots[i].key, stacks, &key);
		else
			strbuf_addstr(&key, m->slots[i].key);
		strmap_add(&named, strbuf_str(&key), m->slots[i].value);
	}
	strbuf_release(&key);
	strmap_release(m);
	*m = named;
}
