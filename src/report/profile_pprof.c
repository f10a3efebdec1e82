/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --report-format=pprof: the profile as pprof's profile.proto (the message
 * of src/report/profile.proto, encoded by protobuf-c), gzip-compressed by
 * zlib as it is packed, so the encoded profile is never whole in memory.
 *
 * The stacks are those of the folded format, event by event: each typed
 * stack is a Sample whose values are, per sampled event, its samples and
 * the events they stand for (the sum of their periods: nanoseconds for
 * task-clock and cpu-clock).  Frames are named as folded stacks name them,
 * unknown and lumped kernel frames included, so `pprof -traces` shows the
 * folded stacks; the process (the folded root) is the sample's "comm" label.
 * A Location is one answer of the symbolizer (a binary and an address in
 * it), so the processes of one binary share them; a Mapping is a binary,
 * with its build-id; a Function a name and its source file.
 */
#include <config.h>

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "protobuf_lib.h" /* before profile.pb-c.h: see there */
#include "profile.pb-c.h"
#include "profile_internal.h"

typedef Perftools__Profiles__Profile pb_profile;
typedef Perftools__Profiles__ValueType pb_value_type;
typedef Perftools__Profiles__Sample pb_sample;
typedef Perftools__Profiles__Label pb_label;
typedef Perftools__Profiles__Mapping pb_mapping;
typedef Perftools__Profiles__Location pb_location;
typedef Perftools__Profiles__Line pb_line;
typedef Perftools__Profiles__Function pb_function;

/* ---- what the header says, kept as samples come ---- */

static char *join_words(char **argv, uint32_t argc)
{
	struct strbuf sb = STRBUF_INIT;

	if (!argc || !argv)
		return NULL;
	for (uint32_t i = 0; i < argc; i++) {
		if (i)
			strbuf_addch(&sb, ' ');
		strbuf_addstr(&sb, argv[i] ? argv[i] : "");
	}
	return strbuf_detach(&sb);
}

void prof_pprof_init(struct profile *p, const struct smpl_header *h)
{
	struct pf_error err;

	if (protobuf_lib_load(&err)) { /* before any sample is read: the profile could not be written */
		fprintf(stderr, "error: %s\n", err.msg);
		exit(pf_error_exit_status(err.code));
	}
	p->pprof.command = join_words(h->argv, h->argc);
	p->pprof.recorder = join_words(h->recorder_argv, h->recorder_argc);
	p->pprof.created_ns = h->created_ns;
	p->pprof.first_time = UINT64_MAX;
}

void prof_pprof_release(struct prof_pprof_info *pi)
{
	free(pi->command);
	free(pi->recorder);
}

void prof_add_pprof(struct profile *p, struct event_hist *h, const struct sample *s, uint64_t count)
{
	/* without a period in the sample, each stands for the event's fixed one */
	uint64_t period = ((s->fields & SAMPLE_F_PERIOD) ? s->period : h->period) * count;
	struct prof_entry *e = prof_add_stack(p, &h->stacks, s, count);

	e->period += period;
	h->period_sum += period;
	if (s->fields & SAMPLE_F_TIME) {
		p->pprof.first_time = s->time < p->pprof.first_time ? s->time : p->pprof.first_time;
		p->pprof.last_time = s->time > p->pprof.last_time ? s->time : p->pprof.last_time;
	}
}

/* ---- the tables, built from the typed stacks ---- */

/* a growing array of n elements of size sz */
static void *grow(void *v, size_t n, size_t *cap, size_t sz)
{
	if (n < *cap)
		return v;
	*cap = *cap ? 2 * *cap : 64;
	return xrealloc(v, *cap * sz);
}

struct pprof_build {
	struct profile *p;
	char **strings;          /* the string table: index 0 is "" */
	size_t n_strings, cap_strings;
	struct strmap string_ids; /* string -> index + 1 */
	pb_mapping *maps;
	size_t n_maps, cap_maps;
	struct strmap map_ids;   /* a binary's path -> its mapping's id */
	struct strmap dso_index; /* a binary's path -> its index among the resolver's + 1 */
	pb_location *locs;
	pb_line *lines;          /* one per location, parallel to locs */
	size_t n_locs, cap_locs, cap_lines;
	/* a frame's location id: user frames by their answer, unmapped ones
	 * by their ip, kernel frames by address (0: the lump), the others by
	 * kind and address */
	struct u64set user_locs, unmapped_locs, kernel_locs, other_locs;
	pb_function *funcs;
	size_t n_funcs, cap_funcs;
	struct u64set func_ids;  /* (name index << 32 | file index) -> id */
	struct strbuf name;
};

static int64_t str_id(struct pprof_build *b, const char *s)
{
	uint64_t id;

	if (!s || !*s)
		return 0;
	id = strmap_get(&b->string_ids, s);
	if (id)
		return (int64_t)(id - 1);
	b->strings = grow(b->strings, b->n_strings, &b->cap_strings, sizeof(*b->strings));
	b->strings[b->n_strings] = xstrdup(s);
	strmap_add(&b->string_ids, s, b->n_strings + 1);
	return (int64_t)b->n_strings++;
}

static pb_mapping *mapping_of(struct pprof_build *b, const char *path);

/* pprof takes the first mapping for the program: the first binary read
 * that is neither a shared library nor an image of the kernel's */
static void main_binary_first(struct pprof_build *b)
{
	for (size_t i = 0; i < sym_resolver_nr_dsos(b->p->res); i++) {
		struct sym_dso_info info;

		sym_resolver_dso_info(b->p->res, i, &info);
		if (info.kind == SYM_DSO_FILE && !info.open_error && !strstr(prof_base_name(info.path), ".so")) {
			mapping_of(b, info.path);
			return;
		}
	}
}

static void build_init(struct pprof_build *b, struct profile *p)
{
	memset(b, 0, sizeof(*b));
	b->p = p;
	strmap_init(&b->string_ids);
	strmap_init(&b->map_ids);
	strmap_init(&b->dso_index);
	u64set_init(&b->user_locs);
	u64set_init(&b->unmapped_locs);
	u64set_init(&b->kernel_locs);
	u64set_init(&b->other_locs);
	u64set_init(&b->func_ids);
	b->strings = grow(NULL, 0, &b->cap_strings, sizeof(*b->strings));
	b->strings[b->n_strings++] = xstrdup("");
	for (size_t i = 0; i < sym_resolver_nr_dsos(p->res); i++) {
		struct sym_dso_info info;

		sym_resolver_dso_info(p->res, i, &info);
		if (!strmap_get(&b->dso_index, info.path))
			strmap_add(&b->dso_index, info.path, i + 1);
	}
	main_binary_first(b);
}

static void build_release(struct pprof_build *b)
{
	for (size_t i = 0; i < b->n_strings; i++)
		free(b->strings[i]);
	free(b->strings);
	strmap_release(&b->string_ids);
	strmap_release(&b->map_ids);
	strmap_release(&b->dso_index);
	free(b->maps);
	free(b->locs);
	free(b->lines);
	u64set_release(&b->user_locs);
	u64set_release(&b->unmapped_locs);
	u64set_release(&b->kernel_locs);
	u64set_release(&b->other_locs);
	free(b->funcs);
	u64set_release(&b->func_ids);
	strbuf_release(&b->name);
}

/* a build-id as pprof shows them: lowercase hex */
static int64_t build_id_str(struct pprof_build *b, const uint8_t *id, size_t len)
{
	char hex[2 * SYM_KERNEL_BUILD_ID_MAX + 1];

	if (!id || !len)
		return 0;
	len = len > SYM_KERNEL_BUILD_ID_MAX ? SYM_KERNEL_BUILD_ID_MAX : len;
	for (size_t i = 0; i < len; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	return str_id(b, hex);
}

/* The binary's mapping: what the resolver read of it.  pfmon named every
 * location already, so pprof is told not to symbolize again. */
static pb_mapping *mapping_of(struct pprof_build *b, const char *path)
{
	uint64_t id = strmap_get(&b->map_ids, path), at;
	struct sym_dso_info info = { 0 };
	pb_mapping *m;

	if (id)
		return &b->maps[id - 1];
	b->maps = grow(b->maps, b->n_maps, &b->cap_maps, sizeof(*b->maps));
	m = &b->maps[b->n_maps++];
	*m = (pb_mapping)PERFTOOLS__PROFILES__MAPPING__INIT;
	m->id = b->n_maps;
	m->memory_start = UINT64_MAX;
	m->filename = str_id(b, path);
	at = strmap_get(&b->dso_index, path);
	if (at)
		sym_resolver_dso_info(b->p->res, at - 1, &info);
	m->build_id = build_id_str(b, info.build_id, info.build_id_len);
	/* the kernel's, from the record of the kernel that took the samples */
	if (!info.build_id && !strcmp(path, "[kernel]") && b->p->kernel.recorded)
		m->build_id = build_id_str(b, b->p->kernel.then.build_id, b->p->kernel.then.build_id_len);
	m->has_functions = true;
	m->has_filenames = m->has_line_numbers = info.has_lines && !info.open_error;
	strmap_add(&b->map_ids, path, m->id);
	return m;
}

/* a source line of a binary's address, through the resolver's cache */
static unsigned int start_line(struct pprof_build *b, const struct sym_result *r)
{
	if (!r || !r->func || r->wrong_file || !r->binary || r->binary[0] != '/')
		return 0;
	return sym_resolve_file(b->p->res, r->binary, r->addr - r->offset)->line;
}

/* the function named name (in file), its start line that of its first instruction */
static uint64_t function_id(struct pprof_build *b, const char *name, const struct sym_result *r)
{
	const char *file = r && r->func && !r->wrong_file && r->line ? r->file : NULL;
	int64_t name_id = str_id(b, name), file_id = str_id(b, file);
	uint64_t key = (uint64_t)name_id << 32 | (uint64_t)file_id, id;
	pb_function *fn;

	if (u64set_get(&b->func_ids, key, &id))
		return id;
	b->funcs = grow(b->funcs, b->n_funcs, &b->cap_funcs, sizeof(*b->funcs));
	fn = &b->funcs[b->n_funcs++];
	*fn = (pb_function)PERFTOOLS__PROFILES__FUNCTION__INIT;
	fn->id = b->n_funcs;
	fn->name = fn->system_name = name_id;
	fn->filename = file_id;
	fn->start_line = file ? start_line(b, r) : 0;
	u64set_put(&b->func_ids, key, fn->id);
	return fn->id;
}

/* which table and key a frame's location is found under */
static struct u64set *location_key(struct pprof_build *b, const struct prof_frame *f, uint64_t *key)
{
	switch (f->kind) {
	case FRAME_USER:
		if (f->res && f->res->binary) {
			*key = (uint64_t)(uintptr_t)f->res;
			return &b->user_locs;
		}
		*key = f->addr;
		return &b->unmapped_locs;
	case FRAME_KERNEL:
		*key = b->p->kernel_named ? f->addr : 0;
		return &b->kernel_locs;
	default:
		*key = (uint64_t)f->kind << 56 | (f->addr & ((1ull << 56) - 1));
		return &b->other_locs;
	}
}

/* where a frame ran: its binary and the address in it, when known */
static const struct sym_result *frame_place(struct pprof_build *b, const struct prof_frame *f,
					    const char **binary, uint64_t *addr)
{
	const struct sym_result *r = NULL;

	*binary = NULL;
	*addr = 0;
	if (f->kind == FRAME_USER) {
		r = f->res;
		*binary = r ? r->binary : NULL;
		*addr = *binary ? r->addr : f->addr;
	} else if (f->kind == FRAME_KERNEL) {
		r = b->p->kernel_named ? sym_resolve_kernel(b->p->res, f->addr) : NULL;
		*binary = r && r->binary ? r->binary : "[kernel]";
		*addr = b->p->kernel_named ? f->addr : 0;
	}
	return r;
}

static uint64_t new_location(struct pprof_build *b, const struct prof_frame *f)
{
	const char *binary;
	uint64_t addr;
	const struct sym_result *r = frame_place(b, f, &binary, &addr);
	pb_location *loc;
	pb_line *line;

	b->locs = grow(b->locs, b->n_locs, &b->cap_locs, sizeof(*b->locs));
	b->lines = grow(b->lines, b->n_locs, &b->cap_lines, sizeof(*b->lines));
	loc = &b->locs[b->n_locs];
	line = &b->lines[b->n_locs++];
	*loc = (pb_location)PERFTOOLS__PROFILES__LOCATION__INIT;
	*line = (pb_line)PERFTOOLS__PROFILES__LINE__INIT;
	loc->id = b->n_locs;
	loc->address = addr;
	if (binary) {
		pb_mapping *m = mapping_of(b, binary);

		loc->mapping_id = m->id;
		m->memory_start = addr < m->memory_start ? addr : m->memory_start;
		m->memory_limit = addr >= m->memory_limit ? addr + 1 : m->memory_limit;
	}
	strbuf_reset(&b->name);
	prof_stack_frame_name(b->p, f, &b->name);
	line->function_id = function_id(b, strbuf_str(&b->name), r);
	line->line = r && r->func && !r->wrong_file ? r->line : 0;
	return loc->id;
}

static uint64_t location_id(struct pprof_build *b, const struct prof_frame *f)
{
	uint64_t key, id;
	struct u64set *set = location_key(b, f, &key);

	if (u64set_get(set, key, &id))
		return id;
	id = new_location(b, f);
	u64set_put(set, key, id);
	return id;
}

/* ---- the samples ---- */

struct pprof_samples {
	pb_sample *v;
	pb_sample **ptrs;
	pb_label *labels;
	pb_label **label_ptrs;
	int64_t *values;  /* n_types per sample */
	size_t n, n_types;
};

/* the process a stack ran in (its root frame), as the record named it */
static int64_t comm_str(struct pprof_build *b, const struct prof_frame *root)
{
	const struct profile *p = b->p;

	if (root->kind != FRAME_COMM)
		return 0;
	if (root->addr == PROF_COMM_PID0)
		return str_id(b, prof_pid0_name(p));
	return root->addr < p->n_comms ? str_id(b, p->comms[root->addr]) : 0;
}

/* a typed stack's sample: its locations leaf first, kernel frames that
 * cannot be named one lump, as in folded stacks */
static void add_stack_sample(struct pprof_build *b, struct pprof_samples *ss, const struct prof_entry *e,
		       size_t type, int64_t comm_key)
{
	pb_sample *s = &ss->v[ss->n];
	uint32_t n = e->n && e->frames[e->n - 1].kind == FRAME_COMM ? e->n - 1 : e->n;
	bool lumped = false;

	*s = (pb_sample)PERFTOOLS__PROFILES__SAMPLE__INIT;
	s->location_id = xmalloc((n ? n : 1) * sizeof(*s->location_id));
	for (uint32_t i = 0; i < n; i++) {
		bool lump = e->frames[i].kind == FRAME_KERNEL && !b->p->kernel_named;

		if (!(lump && lumped))
			s->location_id[s->n_location_id++] = location_id(b, &e->frames[i]);
		lumped = lump;
	}
	s->n_value = ss->n_types;
	s->value = &ss->values[ss->n * ss->n_types];
	s->value[2 * type] = (int64_t)e->count;
	s->value[2 * type + 1] = (int64_t)e->period;
	ss->labels[ss->n] = (pb_label)PERFTOOLS__PROFILES__LABEL__INIT;
	ss->labels[ss->n].key = comm_key;
	ss->labels[ss->n].str = n < e->n ? comm_str(b, &e->frames[n]) : 0;
	ss->label_ptrs[ss->n] = &ss->labels[ss->n];
	s->n_label = ss->labels[ss->n].str ? 1 : 0;
	s->label = &ss->label_ptrs[ss->n];
	ss->ptrs[ss->n] = s;
	ss->n++;
}

/* A frame by what stays from run to run (never a pointer): its kind, binary
 * and address in it, or its process name's index (records come in order). */
static int frame_cmp(const struct prof_frame *a, const struct prof_frame *b)
{
	const char *ba = a->kind == FRAME_USER && a->res ? a->res->binary : NULL;
	const char *bb = b->kind == FRAME_USER && b->res ? b->res->binary : NULL;
	uint64_t xa = ba ? a->res->addr : a->addr, xb = bb ? b->res->addr : b->addr;
	int c;

	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if ((ba || bb) && (c = strcmp(ba ? ba : "", bb ? bb : "")) != 0)
		return c;
	return xa < xb ? -1 : xa > xb;
}

/* the heaviest samples first, then by their frames, leaf first: the same
 * profile gives the same file, whatever a hash table's order */
static int entry_cmp(const void *pa, const void *pb)
{
	const struct prof_entry *a = *(const struct prof_entry *const *)pa, *b = *(const struct prof_entry *const *)pb;
	int c;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	for (uint32_t i = 0; i < a->n && i < b->n; i++)
		if ((c = frame_cmp(&a->frames[i], &b->frames[i])) != 0)
			return c;
	return a->n < b->n ? -1 : a->n > b->n;
}

static void build_samples(struct pprof_build *b, struct pprof_samples *ss, size_t n_types)
{
	struct profile *p = b->p;
	int64_t comm_key = str_id(b, "comm");
	size_t total = 0, type = 0;
	struct prof_entry **order, *e;

	for (size_t i = 0; i < p->n_ev; i++)
		total += p->ev[i].stacks.tab.len;
	ss->v = xcalloc(total, sizeof(*ss->v));
	ss->ptrs = xcalloc(total, sizeof(*ss->ptrs));
	ss->labels = xcalloc(total, sizeof(*ss->labels));
	ss->label_ptrs = xcalloc(total, sizeof(*ss->label_ptrs));
	ss->values = xcalloc(total * n_types, sizeof(*ss->values));
	ss->n_types = n_types;
	order = xcalloc(total, sizeof(*order));
	for (size_t i = 0; i < p->n_ev; i++) {
		size_t n = 0;

		if (p->ev[i].counting)
			continue;
		for (size_t k = 0; (e = prof_keymap_next(&p->ev[i].stacks, &k));)
			order[n++] = e;
		qsort(order, n, sizeof(*order), entry_cmp);
		for (size_t k = 0; k < n; k++)
			add_stack_sample(b, ss, order[k], type, comm_key);
		type++;
	}
	free(order);
}

static void samples_release(struct pprof_samples *ss)
{
	for (size_t i = 0; i < ss->n; i++)
		free(ss->v[i].location_id);
	free(ss->v);
	free(ss->ptrs);
	free(ss->labels);
	free(ss->label_ptrs);
	free(ss->values);
}

/* ---- the profile's description ---- */

static size_t nr_sampled(const struct profile *p)
{
	size_t n = 0;

	for (size_t i = 0; i < p->n_ev; i++)
		n += !p->ev[i].counting;
	return n;
}

/* Per sampled event two values: its samples ("samples", or
 * "samples:EVENT" when there are several events), and the events they
 * stand for, in nanoseconds for the clocks. */
static void sample_types(struct pprof_build *b, pb_value_type *t, size_t n_sampled)
{
	struct strbuf sb = STRBUF_INIT;
	size_t k = 0;

	for (size_t i = 0; i < b->p->n_ev; i++) {
		const struct event_hist *h = &b->p->ev[i];

		if (h->counting)
			continue;
		strbuf_reset(&sb);
		strbuf_addstr(&sb, "samples");
		if (n_sampled > 1)
			strbuf_addf(&sb, ":%s", h->name);
		t[k] = (pb_value_type)PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
		t[k].type = str_id(b, strbuf_str(&sb));
		t[k].unit = str_id(b, "count");
		t[k + 1] = (pb_value_type)PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
		t[k + 1].type = str_id(b, h->name);
		t[k + 1].unit = str_id(b, h->clock ? "nanoseconds" : "count");
		k += 2;
	}
	strbuf_release(&sb);
}

struct pprof_comments {
	int64_t *v;
	size_t n, cap;
};

static void __attribute__((format(printf, 3, 4))) comment(struct pprof_build *b, struct pprof_comments *c,
							  const char *fmt, ...)
{
	va_list ap;

	strbuf_reset(&b->name);
	va_start(ap, fmt);
	strbuf_vaddf(&b->name, fmt, ap);
	va_end(ap);
	c->v = grow(c->v, c->n, &c->cap, sizeof(*c->v));
	c->v[c->n++] = str_id(b, strbuf_str(&b->name));
}

/* free text pprof -comments shows: the run, the events, what is missing */
static void comments(struct pprof_build *b, struct pprof_comments *c)
{
	struct profile *p = b->p;
	struct strbuf why = STRBUF_INIT;

	if (p->pprof.command)
		comment(b, c, "command line: %s", p->pprof.command);
	if (p->pprof.recorder)
		comment(b, c, "recorded with: %s", p->pprof.recorder);
	for (size_t i = 0; i < p->n_ev; i++)
		if (!p->ev[i].counting)
			comment(b, c, "event %s: %llu samples (%s %llu)", p->ev[i].name,
				(unsigned long long)p->ev[i].samples, p->ev[i].freq ? "frequency" : "period",
				(unsigned long long)p->ev[i].period);
	if (p->lost || p->throttled)
		comment(b, c, "lost samples: %llu, throttled: %llu", (unsigned long long)p->lost,
			(unsigned long long)p->throttled);
	if (p->have_status && p->status.truncated)
		comment(b, c, "the sample file is truncated at offset %llu: later samples are missing",
			(unsigned long long)p->status.truncated_at);
	if (u64set_len(&p->kernel_ips) && !p->kernel_recorded && kernel_check_why_not(&p->kernel, &why))
		comment(b, c, "%s", strbuf_str(&why));
	strbuf_release(&why);
}

/* the period of the first sampled event: fixed, else the mean of its samples' */
static void period(const struct profile *p, pb_profile *pr, const pb_value_type *types)
{
	for (size_t i = 0; i < p->n_ev; i++) {
		const struct event_hist *h = &p->ev[i];

		if (h->counting)
			continue;
		pr->period_type = (pb_value_type *)&types[1];
		pr->period = (int64_t)(h->freq ? (h->samples ? h->period_sum / h->samples : 0) : h->period);
		return;
	}
}

/* when the run started and how long it took, where the file says */
static void times(const struct profile *p, pb_profile *pr)
{
	const struct prof_pprof_info *pi = &p->pprof;

	pr->time_nanos = (int64_t)pi->created_ns;
	if (pi->created_ns && p->have_status && p->status.complete && p->status.end.end_ns > pi->created_ns)
		pr->duration_nanos = (int64_t)(p->status.end.end_ns - pi->created_ns);
	else if (pi->first_time != UINT64_MAX && pi->last_time > pi->first_time)
		pr->duration_nanos = (int64_t)(pi->last_time - pi->first_time);
}

/* ---- gzip as protobuf-c packs ---- */

struct gz_buffer {
	ProtobufCBuffer base;
	z_stream z;
	FILE *out;
	unsigned char chunk[1 << 16];
};

static void gz_drain(struct gz_buffer *g, int flush)
{
	do {
		g->z.next_out = g->chunk;
		g->z.avail_out = sizeof(g->chunk);
		deflate(&g->z, flush); /* never fails on a stream set up right */
		fwrite(g->chunk, 1, sizeof(g->chunk) - g->z.avail_out, g->out);
	} while (g->z.avail_out == 0);
}

static void gz_append(ProtobufCBuffer *buf, size_t len, const uint8_t *data)
{
	struct gz_buffer *g = (struct gz_buffer *)buf;

	/* avail_in is an unsigned int: a larger piece goes in several */
	while (len) {
		size_t piece = len > (1u << 30) ? (1u << 30) : len;

		g->z.next_in = (unsigned char *)data;
		g->z.avail_in = (unsigned int)piece;
		gz_drain(g, Z_NO_FLUSH);
		data += piece;
		len -= piece;
	}
}

/* Write errors stay in out, for its caller's check (a closed pipe, a full disk). */
static void write_gzip(const pb_profile *pr, FILE *out)
{
	struct gz_buffer *g = xcalloc(1, sizeof(*g));

	g->base.append = gz_append;
	g->out = out;
	/* 15 + 16: a gzip header and trailer around the deflate stream */
	if (deflateInit2(&g->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		fprintf(stderr, "error: out of memory (zlib)\n");
		exit(1);
	}
	perftools__profiles__profile__pack_to_buffer(pr, &g->base);
	g->z.avail_in = 0;
	gz_drain(g, Z_FINISH);
	deflateEnd(&g->z);
	free(g);
}

/* protobuf-c's repeated messages are arrays of pointers */
#define POINTERS(out, arr, n)                                   \
	do {                                                    \
		(out) = xcalloc((n), sizeof(*(out)));           \
		for (size_t i_ = 0; i_ < (n); i_++)             \
			(out)[i_] = &(arr)[i_];                 \
	} while (0)

void prof_print_pprof(struct profile *p, FILE *out)
{
	pb_profile pr = PERFTOOLS__PROFILES__PROFILE__INIT;
	size_t n_sampled = nr_sampled(p);
	pb_value_type *types = xcalloc(2 * n_sampled, sizeof(*types));
	struct pprof_comments c = { 0 };
	struct pprof_samples ss = { 0 };
	pb_line **line_ptrs;
	struct pprof_build b;

	build_init(&b, p);
	sample_types(&b, types, n_sampled);
	build_samples(&b, &ss, 2 * n_sampled);
	comments(&b, &c);
	pr.n_comment = c.n;
	pr.comment = c.v;
	period(p, &pr, types);
	times(p, &pr);
	pr.default_sample_type = n_sampled ? types[0].type : 0;
	for (size_t i = 0; i < b.n_maps; i++)
		if (b.maps[i].memory_start == UINT64_MAX)
			b.maps[i].memory_start = 0;
	POINTERS(line_ptrs, b.lines, b.n_locs);
	for (size_t i = 0; i < b.n_locs; i++) {
		b.locs[i].n_line = 1;
		b.locs[i].line = &line_ptrs[i];
	}
	pr.n_sample_type = 2 * n_sampled;
	POINTERS(pr.sample_type, types, pr.n_sample_type);
	pr.n_sample = ss.n;
	pr.sample = ss.ptrs;
	pr.n_mapping = b.n_maps;
	POINTERS(pr.mapping, b.maps, b.n_maps);
	pr.n_location = b.n_locs;
	POINTERS(pr.location, b.locs, b.n_locs);
	pr.n_function = b.n_funcs;
	POINTERS(pr.function, b.funcs, b.n_funcs);
	pr.n_string_table = b.n_strings;
	pr.string_table = b.strings;
	write_gzip(&pr, out);
	free(line_ptrs);
	free(pr.sample_type);
	free(pr.mapping);
	free(pr.location);
	free(pr.function);
	free(c.v);
	free(types);
	samples_release(&ss);
	build_release(&b);
}
