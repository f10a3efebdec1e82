#include <config.h>

#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "common/strmap.h"
#include "common/u64set.h"
#include "common/util.h"
#include "json_writer.h"
#include "kernel_check.h"
#include "profile.h"
#include "symbol/symbol.h"

/*
 * Samples counted per symbolizer answer: by function, line or binary the key
 * is a function of the answer alone, and the resolver hands out one pointer
 * per answer, so a sample costs a pointer-hash probe instead of formatting
 * and hashing its key.  Each answer becomes its key once, at print time.
 */
struct res_count {
	const struct sym_result *res; /* NULL: empty slot */
	uint64_t count;
};

struct res_counts {
	struct res_count *slots;
	size_t cap, len; /* cap: a power of two */
};

struct event_hist {
	char *name;
	uint64_t period;
	bool freq;
	uint64_t random_mask;         /* --smpl-periods-random */
	uint64_t min_period, max_period; /* of the samples, to show randomization at work */
	uint64_t samples;
	struct strmap keys;
	bool counting;           /* not sampled: read in other events' samples */
	uint32_t n_reads;        /* events whose counts each sample records */
	uint32_t reads[SAMPLE_MAX_READ];
	struct strmap read_sums[SAMPLE_MAX_READ]; /* per key: the counts' increases */
	struct res_counts by_res; /* folded into keys before printing */
};

/*
 * The counts of a sample's non-sampling events are running totals of one
 * counter: with inherited per-CPU events, that of the sampled thread on the
 * sample's CPU.  Their increase since that counter's previous sample is what
 * happened in the interval the sample ends, and is credited to its key.
 */
struct read_stream {
	uint32_t evidx, tid, cpu;
	bool used;
	uint64_t last[SAMPLE_MAX_READ];
};

struct read_streams {
	struct read_stream *slots;
	size_t cap, len; /* cap: a power of two */
};

struct profile {
	struct profile_opts opts;
	struct sym_resolver *res;
	struct event_hist *ev;
	size_t n_ev;
	struct strmap folded;
	struct read_streams streams;
	uint64_t lost, throttled;
	struct smpl_status status;
	bool have_status;
	struct kernel_check kernel; /* may the running kernel's symbols be used? */
	bool kernel_seen;           /* a host kernel address was sampled */
	struct u64set kernel_ips;   /* every kernel address sampled, call chains too */
	bool kernel_recorded;       /* the file keeps the kernel symbols (SREC_KSYM) */
	bool kernel_named;          /* finished: kernel frames have names, not a lump */
	bool finished;
};

/*
 * Kernel frames are named at the end, not as samples come: a sample file
 * keeps the kernel symbols its samples used after them, and without those
 * only the running kernel's kallsyms may name them (same kernel, same boot),
 * which is slow to read.  Until then a kernel frame is this token: a byte no
 * symbol name holds, then the address in 16 hex digits.
 */
#define KTOKEN '\x01'
#define KTOKEN_LEN 17

/* the names of --report-sort and --report-format, in enum order */
static const char *const sort_names[] = { "function", "line", "binary", "address", "data" };
static const char *const format_names[] = { "text", "json", "folded" };

static int name_index(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return (int)i;
	return -1;
}

bool profile_sort_from_name(const char *name, enum profile_sort *out)
{
	int i = name ? name_index(sort_names, ARRAY_SIZE(sort_names), name) : PROFILE_BY_FUNCTION;

	if (i >= 0)
		*out = (enum profile_sort)i;
	return i >= 0;
}

bool profile_format_from_name(const char *name, enum profile_format *out)
{
	int i = name ? name_index(format_names, ARRAY_SIZE(format_names), name) : PROFILE_TEXT;

	if (i >= 0)
		*out = (enum profile_format)i;
	return i >= 0;
}

static const char *sort_title(enum profile_sort s)
{
	static const char *const titles[] = { "function", "source line", "binary", "address", "data" };

	return titles[s];
}

struct profile *profile_new(const struct profile_opts *opts, const struct smpl_header *h)
{
	struct profile *p = xcalloc(1, sizeof(*p));

	p->opts = *opts;
	p->res = sym_resolver_new(opts->debug_root);
	p->n_ev = h->nr_events;
	p->ev = xcalloc(p->n_ev ? p->n_ev : 1, sizeof(*p->ev));
	for (size_t i = 0; i < p->n_ev; i++) {
		p->ev[i].name = xstrdup(h->events[i].name);
		p->ev[i].period = h->events[i].period;
		p->ev[i].freq = h->events[i].freq;
		p->ev[i].random_mask = h->events[i].random_mask;
		p->ev[i].min_period = UINT64_MAX;
		p->ev[i].counting = h->events[i].counting;
		p->ev[i].n_reads = h->events[i].n_reads;
		memcpy(p->ev[i].reads, h->events[i].reads, sizeof(p->ev[i].reads));
		for (size_t j = 0; j < SAMPLE_MAX_READ; j++)
			strmap_init(&p->ev[i].read_sums[j]);
		strmap_init(&p->ev[i].keys);
	}
	strmap_init(&p->folded);
	return p;
}

void profile_free(struct profile *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n_ev; i++) {
		free(p->ev[i].name);
		strmap_release(&p->ev[i].keys);
		for (size_t j = 0; j < SAMPLE_MAX_READ; j++)
			strmap_release(&p->ev[i].read_sums[j]);
		free(p->ev[i].by_res.slots);
	}
	free(p->ev);
	free(p->streams.slots);
	u64set_release(&p->kernel_ips);
	strmap_release(&p->folded);
	sym_resolver_free(p->res);
	free(p);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* a frame's name: function, else binary+offset, else the raw address */
static void frame_name(struct strbuf *sb, const struct sym_result *r, uint64_t ip)
{
	if (r && r->func)
		strbuf_addstr(sb, r->func);
	else if (r && r->binary)
		strbuf_addf(sb, "%s+0x%llx", base_name(r->binary), (unsigned long long)r->addr);
	else
		strbuf_addf(sb, "[unknown 0x%llx]", (unsigned long long)ip);
}

/*
 * Where a frame ran, for naming it.  Host kernel addresses are named
 * through kallsyms only when the samples come from the running kernel and
 * kallsyms shows addresses; otherwise, like guest kernel addresses, they
 * are one lump per kind.
 */
enum frame_kind {
	FRAME_USER,
	FRAME_KERNEL,        /* symbolized through kallsyms */
	FRAME_KERNEL_LUMP,   /* "[kernel]" */
	FRAME_GUEST_KERNEL,  /* "[guest kernel]": not this kernel's addresses */
};

/* (and remembers that a kernel address came, for the end) */
static enum frame_kind frame_kind(struct profile *p, uint8_t cpumode)
{
	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL:
		p->kernel_seen = true;
		return FRAME_KERNEL; /* a token, named or lumped at the end */
	case PERF_RECORD_MISC_GUEST_KERNEL:
		return FRAME_GUEST_KERNEL;
	default:
		return FRAME_USER;
	}
}

static const char *lump_name(enum frame_kind k)
{
	return k == FRAME_GUEST_KERNEL ? "[guest kernel]" : "[kernel]";
}

/* a kernel frame: "function [module]", or its address when no symbol covers it */
static void kernel_frame_name(struct strbuf *sb, const struct sym_result *r, uint64_t ip)
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
static void kernel_key(struct profile *p, uint64_t ip, struct strbuf *key)
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
		kernel_frame_name(key, r, ip);
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
		strbuf_addf(key, " (%s)", base_name(r->binary));
	} else if (r && r->binary) {
		strbuf_addf(key, "%s+0x%llx", base_name(r->binary), (unsigned long long)r->addr);
	} else {
		strbuf_addf(key, "0x%016llx", (unsigned long long)s->addr);
	}
}

/* A user-space code address's key: r is its answer, NULL without one. */
static void code_key(enum profile_sort sort, const struct sym_result *r, uint64_t ip,
		     struct strbuf *key)
{
	switch (sort) {
	case PROFILE_BY_BINARY:
		strbuf_addstr(key, r && r->binary ? r->binary : "[unknown]");
		return;
	case PROFILE_BY_ADDRESS:
		strbuf_addf(key, "0x%016llx ", (unsigned long long)ip);
		frame_name(key, r, ip);
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
		frame_name(key, r, ip);
		if (r && r->func && r->binary)
			strbuf_addf(key, " (%s)", base_name(r->binary));
	}
}

static void sample_key(struct profile *p, const struct sample *s, struct strbuf *key)
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
	k = frame_kind(p, s->cpumode);
	if (k == FRAME_KERNEL)
		strbuf_addf(key, "%c%016llx", KTOKEN, (unsigned long long)s->ip);
	else if (k != FRAME_USER)
		strbuf_addstr(key, lump_name(k));
	else
		code_key(p->opts.sort, sym_resolve(p->res, s->pid, s->ip), s->ip, key);
}

/* Sorts whose key is a function of the answer alone, when a mapping
 * covered the ip (the address sort shows the ip itself, and ips of several
 * processes can share one answer). */
static bool keyed_by_answer(enum profile_sort sort)
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

static void res_count_add(struct res_counts *c, const struct sym_result *r)
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
static void fold_answers(struct profile *p, struct event_hist *h)
{
	struct strbuf key = STRBUF_INIT;

	for (size_t i = 0; i < h->by_res.cap; i++) {
		const struct res_count *e = &h->by_res.slots[i];

		if (!e->res)
			continue;
		strbuf_reset(&key);
		/* the ip only shows in keys of answers without a binary */
		code_key(p->opts.sort, e->res, 0, &key);
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
static size_t sample_frames(struct profile *p, const struct sample *s, uint64_t *ips,
			    enum frame_kind *kinds, size_t max)
{
	enum frame_kind kind = frame_kind(p, s->cpumode);
	size_t n = 0;

	for (uint32_t i = 0; (s->fields & SAMPLE_F_CALLCHAIN) && i < s->callchain_nr && n < max; i++) {
		uint64_t ip = s->callchain[i];

		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			kind = frame_kind(p, context_cpumode(ip));
			continue;
		}
		if (kind != FRAME_USER && kind != FRAME_KERNEL && n && kinds[n - 1] == kind)
			continue;
		ips[n] = ip;
		kinds[n++] = kind;
	}
	if (n == 0) {
		ips[0] = s->ip;
		kinds[n++] = frame_kind(p, s->cpumode);
	}
	return n;
}

/* root first, frames joined by ';' (the folded format of flame-graph tools) */
static void add_folded(struct profile *p, const struct sample *s)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t ips[PERF_MAX_STACK_DEPTH];
	enum frame_kind kinds[PERF_MAX_STACK_DEPTH];
	size_t n = sample_frames(p, s, ips, kinds, PERF_MAX_STACK_DEPTH);

	for (size_t i = n; i-- > 0;) {
		if (kinds[i] == FRAME_KERNEL)
			strbuf_addf(&sb, "%c%016llx", KTOKEN, (unsigned long long)ips[i]);
		else if (kinds[i] != FRAME_USER)
			strbuf_addstr(&sb, lump_name(kinds[i]));
		else
			frame_name(&sb, sym_resolve(p->res, s->pid, ips[i]), ips[i]);
		if (i)
			strbuf_addch(&sb, ';');
	}
	strmap_add(&p->folded, strbuf_str(&sb), 1);
	strbuf_release(&sb);
}

static size_t stream_slot(const struct read_streams *t, uint32_t evidx, uint32_t tid, uint32_t cpu)
{
	size_t i = (size_t)(((uint64_t)evidx << 48 ^ (uint64_t)cpu << 32 ^ tid) * 0x9e3779b97f4a7c15ull >> 20);

	for (i &= t->cap - 1;; i = (i + 1) & (t->cap - 1)) {
		const struct read_stream *r = &t->slots[i];

		if (!r->used || (r->evidx == evidx && r->tid == tid && r->cpu == cpu))
			return i;
	}
}

static void streams_grow(struct read_streams *t)
{
	struct read_streams n = { xcalloc(t->cap ? t->cap * 2 : 64, sizeof(struct read_stream)),
				  t->cap ? t->cap * 2 : 64, t->len };

	for (size_t i = 0; i < t->cap; i++)
		if (t->slots[i].used)
			n.slots[stream_slot(&n, t->slots[i].evidx, t->slots[i].tid, t->slots[i].cpu)] = t->slots[i];
	free(t->slots);
	*t = n;
}

/* the counter stream of this sample, created with zero counts */
static struct read_stream *stream_of(struct read_streams *t, const struct sample *s)
{
	struct read_stream *r;

	if ((t->len + 1) * 2 > t->cap)
		streams_grow(t);
	r = &t->slots[stream_slot(t, s->evidx, s->tid, s->cpu)];
	if (!r->used) {
		*r = (struct read_stream){ .evidx = s->evidx, .tid = s->tid, .cpu = s->cpu, .used = true };
		t->len++;
	}
	return r;
}

static void add_reads(struct profile *p, struct event_hist *h, const struct sample *s, const char *key)
{
	struct read_stream *r = stream_of(&p->streams, s);

	for (uint32_t j = 0; j < h->n_reads && j < s->read_nr; j++) {
		/* below the last count: a new counter with the same ids */
		uint64_t delta = s->read[j] >= r->last[j] ? s->read[j] - r->last[j] : s->read[j];

		r->last[j] = s->read[j];
		strmap_add(&h->read_sums[j], key, delta);
	}
}

/* The host kernel addresses of a sample, its call chain's included, whatever
 * the report shows: a sample file keeps the symbols of all of them. */
static void note_kernel_ips(struct profile *p, const struct sample *s)
{
	bool kernel = s->cpumode == PERF_RECORD_MISC_KERNEL;

	if (kernel)
		u64set_add(&p->kernel_ips, s->ip);
	for (uint32_t i = 0; (s->fields & SAMPLE_F_CALLCHAIN) && i < s->callchain_nr; i++) {
		uint64_t ip = s->callchain[i];

		if (ip >= (uint64_t)PERF_CONTEXT_MAX)
			kernel = ip == (uint64_t)PERF_CONTEXT_KERNEL;
		else if (kernel)
			u64set_add(&p->kernel_ips, ip);
	}
	p->kernel_seen |= p->kernel_ips.len > 0;
}

static void add_sample(struct profile *p, const struct sample *s)
{
	struct event_hist *h = s->evidx < p->n_ev ? &p->ev[s->evidx] : NULL;
	struct strbuf key = STRBUF_INIT;
	const struct sym_result *r;

	if (!h)
		return;
	h->samples++;
	note_kernel_ips(p, s);
	if (s->fields & SAMPLE_F_PERIOD) {
		h->min_period = s->period < h->min_period ? s->period : h->min_period;
		h->max_period = s->period > h->max_period ? s->period : h->max_period;
	}
	if (p->opts.format == PROFILE_FOLDED) {
		add_folded(p, s);
		return;
	}
	/* counts read in samples are credited per key as samples come */
	if (keyed_by_answer(p->opts.sort) && !h->n_reads && frame_kind(p, s->cpumode) == FRAME_USER) {
		r = sym_resolve(p->res, s->pid, s->ip);
		if (r && r->binary) {
			res_count_add(&h->by_res, r);
			return;
		}
		code_key(p->opts.sort, r, s->ip, &key); /* no mapping: the key shows the ip */
	} else {
		sample_key(p, s, &key);
	}
	strmap_add(&h->keys, strbuf_str(&key), 1);
	if (h->n_reads && (s->fields & SAMPLE_F_READ))
		add_reads(p, h, s, strbuf_str(&key));
	strbuf_release(&key);
}

void profile_add(struct profile *p, const struct sample_record *rec)
{
	struct sym_maps *maps = sym_resolver_maps(p->res);

	switch (rec->type) {
	case SREC_SAMPLE:
		add_sample(p, &rec->sample);
		break;
	case SREC_MMAP:
		if (rec->mmap.filename)
			sym_maps_add(maps, rec->mmap.pid, rec->mmap.start, rec->mmap.len, rec->mmap.pgoff,
				     rec->mmap.filename);
		break;
	case SREC_FORK:
		if (rec->task.pid != rec->task.ppid)
			sym_maps_fork(maps, rec->task.ppid, rec->task.pid);
		break;
	case SREC_COMM:
		if (rec->comm.exec)
			sym_maps_clear(maps, rec->comm.pid); /* the new image's MMAP2s follow */
		break;
	case SREC_LOST:
	case SREC_LOST_SAMPLES:
		p->lost += rec->lost.lost;
		break;
	case SREC_THROTTLE:
		p->throttled++;
		break;
	case SREC_KERNEL:
		/* first in a session: decides before any kernel or [vdso] address */
		kernel_check_record(&p->kernel, &rec->kernel);
		sym_resolver_use_vdso(p->res, kernel_check_same(&p->kernel));
		break;
	case SREC_KSYM: {
		struct sym_kernel_symbol ks = { rec->ksym.addr, rec->ksym.end, rec->ksym.name, rec->ksym.module };

		sym_resolver_add_kernel_symbol(p->res, &ks);
		p->kernel_recorded = true;
		break;
	}
	default:
		break;
	}
}

void profile_set_status(struct profile *p, const struct smpl_status *st)
{
	p->status = *st;
	p->have_status = true;
}

uint64_t profile_lost(const struct profile *p)
{
	return p->lost;
}

uint64_t profile_throttled(const struct profile *p)
{
	return p->throttled;
}

/* how many sorted entries to show: --smpl-show-top and --smpl-cum-threshold */
static size_t shown_entries(const struct profile *p, const struct strmap_entry *v, size_t n, uint64_t total)
{
	uint64_t cum = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (p->opts.top && i >= p->opts.top)
			break;
		if (total && cum * 100 >= p->opts.cum_threshold * total)
			break;
		cum += v[i].value;
	}
	return i;
}

/* a count column: as wide as its event's name, 12 at least */
static int read_width(const struct profile *p, const struct event_hist *h, uint32_t j)
{
	size_t len = strlen(p->ev[h->reads[j]].name);

	return len > 12 ? (int)len : 12;
}

static void print_event_text(const struct profile *p, const struct event_hist *h, FILE *out)
{
	struct strmap_entry *v = strmap_sorted(&h->keys);
	size_t n = shown_entries(p, v, h->keys.len, h->samples);
	uint64_t cum = 0;

	fprintf(out, "# event %s: %llu samples (%s %llu", h->name, (unsigned long long)h->samples,
		h->freq ? "frequency" : "period", (unsigned long long)h->period);
	if (h->random_mask && h->samples && h->max_period)
		fprintf(out, " + random & 0x%llx: %llu to %llu", (unsigned long long)h->random_mask,
			(unsigned long long)h->min_period, (unsigned long long)h->max_period);
	else if (h->random_mask)
		fprintf(out, " + random & 0x%llx", (unsigned long long)h->random_mask);
	fputs(")\n", out);
	if (h->n_reads) {
		fputs("# counted in each sample:", out);
		for (uint32_t j = 0; j < h->n_reads; j++)
			fprintf(out, " %s", p->ev[h->reads[j]].name);
		fputc('\n', out);
	}
	if (!h->samples) {
		free(v);
		return;
	}
	fprintf(out, "# %8s %7s %7s", "samples", "%self", "%cum");
	for (uint32_t j = 0; j < h->n_reads; j++)
		fprintf(out, " %*s", read_width(p, h, j), p->ev[h->reads[j]].name);
	fprintf(out, "  %s\n", sort_title(p->opts.sort));
	for (size_t i = 0; i < n; i++) {
		double self = 100.0 * (double)v[i].value / (double)h->samples;

		cum += v[i].value;
		fprintf(out, "%10llu %6.2f%% %6.2f%%", (unsigned long long)v[i].value, self,
			100.0 * (double)cum / (double)h->samples);
		for (uint32_t j = 0; j < h->n_reads; j++)
			fprintf(out, " %*llu", read_width(p, h, j),
				(unsigned long long)strmap_get(&h->read_sums[j], v[i].key));
		fprintf(out, "  %s\n", v[i].key);
	}
	free(v);
}

/* the binaries the symbolizer opened that had no symbols or no line table */
static void print_missing_text(const struct profile *p, FILE *out)
{
	size_t n = sym_resolver_nr_dsos(p->res);

	for (size_t i = 0; i < n; i++) {
		struct sym_dso_info info;

		sym_resolver_dso_info(p->res, i, &info);
		if (info.open_error)
			fprintf(out, "# cannot read %s: %s\n", info.path, info.open_error);
		else if (info.symbols == SYM_SRC_NONE && info.why_no_symbols)
			fprintf(out, "# no symbols: %s: %s\n", info.path, info.why_no_symbols);
		else if (info.symbols == SYM_SRC_NONE)
			fprintf(out, "# no symbols: %s\n", info.path);
		else if (!info.has_lines && info.kind == SYM_DSO_FILE)
			/* the kernel and the vDSO never have any: not worth a line */
			fprintf(out, "# no debug info: %s\n", info.path);
	}
}

/* why kernel samples are lumps, when some were sampled: one line */
static bool kernel_note(const struct profile *p, struct strbuf *sb)
{
	return p->kernel_seen && !p->kernel_recorded && kernel_check_why_not(&p->kernel, sb);
}

static void print_notes_text(const struct profile *p, FILE *out)
{
	struct strbuf sb = STRBUF_INIT;

	if (kernel_note(p, &sb))
		fprintf(out, "# %s\n", strbuf_str(&sb));
	strbuf_release(&sb);
}

static void print_status_text(const struct profile *p, FILE *out)
{
	fprintf(out, "# lost samples: %llu, throttled: %llu\n", (unsigned long long)p->lost,
		(unsigned long long)p->throttled);
	if (p->have_status && p->status.truncated)
		fprintf(out, "# the sample file is truncated at offset %llu: later samples are missing\n",
			(unsigned long long)p->status.truncated_at);
	else if (p->have_status && !p->status.complete)
		fprintf(out, "# the sample file has no end record: its writer did not finish\n");
}

static void json_missing(const struct profile *p, struct json_writer *w)
{
	size_t n = sym_resolver_nr_dsos(p->res);

	json_key(w, "binaries");
	json_begin_array(w);
	for (size_t i = 0; i < n; i++) {
		struct sym_dso_info info;

		sym_resolver_dso_info(p->res, i, &info);
		json_begin_object(w);
		json_key(w, "path");
		json_string(w, info.path);
		json_key(w, "symbols");
		json_bool(w, !info.open_error && info.symbols != SYM_SRC_NONE);
		json_key(w, "debug_info");
		json_bool(w, !info.open_error && info.has_lines);
		json_end_object(w);
	}
	json_end_array(w);
}

/* "counts": {event: increase over the entry's samples} */
static void json_reads(const struct profile *p, const struct event_hist *h, const char *key,
		       struct json_writer *w)
{
	if (!h->n_reads)
		return;
	json_key(w, "counts");
	json_begin_object(w);
	for (uint32_t j = 0; j < h->n_reads; j++) {
		json_key(w, p->ev[h->reads[j]].name);
		json_uint(w, strmap_get(&h->read_sums[j], key));
	}
	json_end_object(w);
}

static void json_notes(const struct profile *p, struct json_writer *w)
{
	struct strbuf sb = STRBUF_INIT;

	json_key(w, "notes");
	json_begin_array(w);
	if (kernel_note(p, &sb))
		json_string(w, strbuf_str(&sb));
	json_end_array(w);
	strbuf_release(&sb);
}

static void json_event(const struct profile *p, const struct event_hist *h, struct json_writer *w)
{
	struct strmap_entry *v = strmap_sorted(&h->keys);
	size_t n = shown_entries(p, v, h->keys.len, h->samples);

	json_begin_object(w);
	json_key(w, "event");
	json_string(w, h->name);
	json_key(w, h->freq ? "frequency" : "period");
	json_uint(w, h->period);
	if (h->random_mask) {
		json_key(w, "random_mask");
		json_uint(w, h->random_mask);
	}
	if (h->max_period) {
		json_key(w, "min_period");
		json_uint(w, h->min_period);
		json_key(w, "max_period");
		json_uint(w, h->max_period);
	}
	json_key(w, "samples");
	json_uint(w, h->samples);
	json_key(w, "entries");
	json_begin_array(w);
	for (size_t i = 0; i < n; i++) {
		json_begin_object(w);
		json_key(w, sort_title(p->opts.sort));
		json_string(w, v[i].key);
		json_key(w, "samples");
		json_uint(w, v[i].value);
		json_key(w, "percent");
		json_double(w, h->samples ? 100.0 * (double)v[i].value / (double)h->samples : 0.0, 2);
		json_reads(p, h, v[i].key, w);
		json_end_object(w);
	}
	json_end_array(w);
	json_end_object(w);
	free(v);
}

static void print_json(const struct profile *p, FILE *out)
{
	struct json_writer w;

	json_init(&w, out, true);
	json_begin_object(&w);
	json_key(&w, "sort");
	json_string(&w, sort_title(p->opts.sort));
	json_key(&w, "events");
	json_begin_array(&w);
	for (size_t i = 0; i < p->n_ev; i++)
		if (!p->ev[i].counting)
			json_event(p, &p->ev[i], &w);
	json_end_array(&w);
	json_key(&w, "lost");
	json_uint(&w, p->lost);
	json_key(&w, "throttled");
	json_uint(&w, p->throttled);
	json_key(&w, "truncated");
	json_bool(&w, p->have_status && p->status.truncated);
	json_missing(p, &w);
	json_notes(p, &w);
	json_end_object(&w);
	json_newline(&w);
}

static void print_folded(const struct profile *p, FILE *out)
{
	struct strmap_entry *v = strmap_sorted(&p->folded);

	for (size_t i = 0; i < p->folded.len; i++)
		fprintf(out, "%s %llu\n", v[i].key, (unsigned long long)v[i].value);
	free(v);
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
			kernel_key(p, token_ip(key), out);
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
			kernel_frame_name(out, sym_resolve_kernel(p->res, token_ip(c)), token_ip(c));
		else if (lumped)
			out->buf[--out->len] = '\0'; /* drop the ';' before: one lump */
		else
			strbuf_addstr(out, "[kernel]");
		lumped = !p->kernel_named;
		c += KTOKEN_LEN;
	}
}

/* the map with its kernel tokens named; keys that become one add up */
static void name_kernel_keys(struct profile *p, struct strmap *m, bool stacks)
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

void profile_prefetch_kernel(struct profile *p)
{
	if (p->kernel_seen && !p->kernel_recorded && !p->finished && kernel_check_same(&p->kernel))
		sym_resolver_prefetch_kernel(p->res);
}

void profile_finish(struct profile *p)
{
	if (p->finished)
		return;
	p->finished = true;
	for (size_t i = 0; i < p->n_ev; i++)
		fold_answers(p, &p->ev[i]);
	if (!p->kernel_seen)
		return;
	/* a file's own kernel symbols, else the running kernel's if it took the samples */
	p->kernel_named = p->kernel_recorded || kernel_check_same(&p->kernel);
	p->kernel_named = p->kernel_named && sym_resolver_kernel_symbols(p->res);
	/* every kernel address is named once here, so the file can keep its symbol */
	for (size_t i = 0; p->kernel_named && i < p->kernel_ips.cap; i++) {
		uint64_t ip;

		if (u64set_at(&p->kernel_ips, i, &ip))
			sym_resolve_kernel(p->res, ip);
	}
	for (size_t i = 0; i < p->n_ev; i++) {
		name_kernel_keys(p, &p->ev[i].keys, false);
		for (uint32_t j = 0; j < p->ev[i].n_reads; j++)
			name_kernel_keys(p, &p->ev[i].read_sums[j], false);
	}
	name_kernel_keys(p, &p->folded, true);
}

size_t profile_kernel_symbols(struct profile *p, struct sample_ksym **out)
{
	struct sym_kernel_symbol *used;
	size_t n;

	*out = NULL;
	if (!p->kernel_named)
		return 0;
	n = sym_resolver_kernel_symbols_used(p->res, &used);
	if (n)
		*out = xmalloc(n * sizeof(**out));
	for (size_t i = 0; i < n; i++)
		(*out)[i] = (struct sample_ksym){ used[i].addr, used[i].end, used[i].name, used[i].module };
	free(used);
	return n;
}

void profile_print(struct profile *p, FILE *out)
{
	profile_finish(p);
	switch (p->opts.format) {
	case PROFILE_JSON:
		print_json(p, out);
		return;
	case PROFILE_FOLDED:
		print_folded(p, out);
		return;
	case PROFILE_TEXT:
	default:
		fprintf(out, "# pfmon profile by %s\n", sort_title(p->opts.sort));
		for (size_t i = 0; i < p->n_ev; i++)
			if (!p->ev[i].counting)
				print_event_text(p, &p->ev[i], out);
		print_status_text(p, out);
		print_notes_text(p, out);
		print_missing_text(p, out);
	}
}
