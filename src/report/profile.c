#include <config.h>

#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "common/strmap.h"
#include "common/util.h"
#include "json_writer.h"
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
	uint64_t samples;
	struct strmap keys;
	struct res_counts by_res; /* folded into keys before printing */
};

struct profile {
	struct profile_opts opts;
	struct sym_resolver *res;
	struct event_hist *ev;
	size_t n_ev;
	struct strmap folded;
	uint64_t lost, throttled;
	struct smpl_status status;
	bool have_status;
};

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
		free(p->ev[i].by_res.slots);
	}
	free(p->ev);
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

static bool is_kernel(uint8_t cpumode)
{
	return cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
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
	if (p->opts.sort == PROFILE_BY_DATA) {
		data_key(p, s, key);
		return;
	}
	if (is_kernel(s->cpumode)) {
		strbuf_addstr(key, "[kernel]");
		return;
	}
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

/* Frames of a sample, leaf first; kernel frames collapse to one "[kernel]". */
static size_t sample_frames(const struct sample *s, uint64_t *ips, bool *kernel, size_t max)
{
	bool in_kernel = is_kernel(s->cpumode);
	size_t n = 0;

	for (uint32_t i = 0; (s->fields & SAMPLE_F_CALLCHAIN) && i < s->callchain_nr && n < max; i++) {
		uint64_t ip = s->callchain[i];

		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			in_kernel = ip == (uint64_t)PERF_CONTEXT_KERNEL;
			continue;
		}
		if (in_kernel && n && kernel[n - 1])
			continue;
		ips[n] = ip;
		kernel[n++] = in_kernel;
	}
	if (n == 0) {
		ips[0] = s->ip;
		kernel[n++] = is_kernel(s->cpumode);
	}
	return n;
}

/* root first, frames joined by ';' (the folded format of flame-graph tools) */
static void add_folded(struct profile *p, const struct sample *s)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t ips[PERF_MAX_STACK_DEPTH];
	bool kernel[PERF_MAX_STACK_DEPTH];
	size_t n = sample_frames(s, ips, kernel, PERF_MAX_STACK_DEPTH);

	for (size_t i = n; i-- > 0;) {
		if (kernel[i])
			strbuf_addstr(&sb, "[kernel]");
		else
			frame_name(&sb, sym_resolve(p->res, s->pid, ips[i]), ips[i]);
		if (i)
			strbuf_addch(&sb, ';');
	}
	strmap_add(&p->folded, strbuf_str(&sb), 1);
	strbuf_release(&sb);
}

static void add_sample(struct profile *p, const struct sample *s)
{
	struct event_hist *h = s->evidx < p->n_ev ? &p->ev[s->evidx] : NULL;
	struct strbuf key = STRBUF_INIT;
	const struct sym_result *r;

	if (!h)
		return;
	h->samples++;
	if (p->opts.format == PROFILE_FOLDED) {
		add_folded(p, s);
		return;
	}
	if (keyed_by_answer(p->opts.sort) && !is_kernel(s->cpumode)) {
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

static void print_event_text(const struct profile *p, const struct event_hist *h, FILE *out)
{
	struct strmap_entry *v = strmap_sorted(&h->keys);
	size_t n = shown_entries(p, v, h->keys.len, h->samples);
	uint64_t cum = 0;

	fprintf(out, "# event %s: %llu samples (%s %llu)\n", h->name, (unsigned long long)h->samples,
		h->freq ? "frequency" : "period", (unsigned long long)h->period);
	if (!h->samples) {
		free(v);
		return;
	}
	fprintf(out, "# %8s %7s %7s  %s\n", "samples", "%self", "%cum", sort_title(p->opts.sort));
	for (size_t i = 0; i < n; i++) {
		double self = 100.0 * (double)v[i].value / (double)h->samples;

		cum += v[i].value;
		fprintf(out, "%10llu %6.2f%% %6.2f%%  %s\n", (unsigned long long)v[i].value, self,
			100.0 * (double)cum / (double)h->samples, v[i].key);
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
		else if (info.symbols == SYM_SRC_NONE)
			fprintf(out, "# no symbols: %s\n", info.path);
		else if (!info.has_lines)
			fprintf(out, "# no debug info: %s\n", info.path);
	}
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

static void json_event(const struct profile *p, const struct event_hist *h, struct json_writer *w)
{
	struct strmap_entry *v = strmap_sorted(&h->keys);
	size_t n = shown_entries(p, v, h->keys.len, h->samples);

	json_begin_object(w);
	json_key(w, "event");
	json_string(w, h->name);
	json_key(w, h->freq ? "frequency" : "period");
	json_uint(w, h->period);
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
		json_event(p, &p->ev[i], &w);
	json_end_array(&w);
	json_key(&w, "lost");
	json_uint(&w, p->lost);
	json_key(&w, "throttled");
	json_uint(&w, p->throttled);
	json_key(&w, "truncated");
	json_bool(&w, p->have_status && p->status.truncated);
	json_missing(p, &w);
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

void profile_print(struct profile *p, FILE *out)
{
	for (size_t i = 0; i < p->n_ev; i++)
		fold_answers(p, &p->ev[i]);
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
			print_event_text(p, &p->ev[i], out);
		print_status_text(p, out);
		print_missing_text(p, out);
	}
}
