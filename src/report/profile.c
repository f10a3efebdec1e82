/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "flame.h"
#include "profile_internal.h"

/* the names of --report-sort and --report-format, in enum order */
/* the branch sorts as perf report -b spells its sort keys */
static const char *const sort_names[] = { "function",  "line",	 "binary", "address", "data", "symbol_from,symbol_to",
					  "srcline_from,srcline_to", "block", "mispredict" };
static const char *const format_names[] = { "text", "json", "folded", "svg", "script", "fdata" };

static int name_index(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return (int)i;
	return -1;
}

const char *prof_sort_name(enum profile_sort s)
{
	return sort_names[s];
}

bool profile_sort_from_name(const char *name, enum profile_sort *out)
{
	int i = name ? name_index(sort_names, ARRAY_SIZE(sort_names), name) : PROFILE_BY_FUNCTION;

	if (i >= 0)
		*out = (enum profile_sort)i;
	return i >= 0;
}

const char *profile_sort_name(size_t i)
{
	return i < ARRAY_SIZE(sort_names) ? sort_names[i] : NULL;
}

const char *profile_format_name(size_t i)
{
	return i < ARRAY_SIZE(format_names) ? format_names[i] : NULL;
}

bool profile_format_from_name(const char *name, enum profile_format *out)
{
	int i = name ? name_index(format_names, ARRAY_SIZE(format_names), name) : PROFILE_TEXT;

	if (i >= 0)
		*out = (enum profile_format)i;
	return i >= 0;
}

struct profile *profile_new(const struct profile_opts *opts, const struct smpl_header *h)
{
	struct profile *p = xcalloc(1, sizeof(*p));

	p->opts = *opts;
	p->res = sym_resolver_new(opts->debug_root);
	/* only the profile by line shows lines: the others never read line tables */
	sym_resolver_want_lines(p->res, opts->sort == PROFILE_BY_LINE || opts->sort == PROFILE_BY_BRANCH_LINE ||
					    opts->sort == PROFILE_BY_BLOCK);
	sym_resolver_demangle(p->res, !opts->no_demangle);
	p->n_ev = h->nr_events;
	p->ev = xcalloc(p->n_ev ? p->n_ev : 1, sizeof(*p->ev));
	for (size_t i = 0; i < p->n_ev; i++) {
		p->ev[i].name = xstrdup(h->events[i].name);
		p->ev[i].tracepoint = h->events[i].attr_type == PERF_TYPE_TRACEPOINT;
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
		strmap_init(&p->ev[i].key_index);
	}
	if (opts->format == PROFILE_SCRIPT)
		prof_script_init(p, h);
	strmap_init(&p->folded);
	strmap_init(&p->stack_index);
	strmap_init(&p->comm_ids);
	strmap_init(&p->binaries_seen);
	return p;
}

void profile_free(struct profile *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n_ev; i++) {
		free(p->ev[i].name);
		strmap_release(&p->ev[i].keys);
		strmap_release(&p->ev[i].key_index);
		free(p->ev[i].key_frames);
		free(p->ev[i].key_counts);
		free(p->ev[i].key_pids);
		for (size_t j = 0; j < SAMPLE_MAX_READ; j++)
			strmap_release(&p->ev[i].read_sums[j]);
		prof_keymap_release(&p->ev[i].counted);
		for (size_t k = 0; k < p->n_sources; k++) {
			prof_keymap_release(&p->ev[i].source_counted[k]);
			strmap_release(&p->ev[i].source_keys[k]);
		}
		free(p->ev[i].source_counted);
		free(p->ev[i].source_keys);
	}
	free(p->ev);
	prof_keymap_release(&p->stacks);
	hashtab_release(&p->streams.tab);
	u64set_release(&p->kernel_ips);
	strmap_release(&p->folded);
	strmap_release(&p->stack_index);
	for (size_t i = 0; i < p->n_stack_reps; i++)
		free(p->stack_reps[i].frames);
	free(p->stack_reps);
	flame_free(p->flame);
	prof_release_comms(p);
	strmap_release(&p->binaries_seen);
	sym_unwinder_free(p->unwinder); /* before the resolver, whose files it reads */
	prof_script_release(&p->script);
	prof_release_branches(&p->br);
	sym_resolver_free(p->res);
	free(p);
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
}

/*
 * pid 0 is the idle task: it runs no user code, maps nothing, never execs.
 * A file recorded inside a pid namespace has every task outside it at pid
 * 0 and tid 0 too (ids as the recorder's namespace sees them): their
 * mappings and names, all under one id, cannot be told apart, so none is
 * kept and their user frames are left unknown, as perf leaves them.  True
 * for a record of such tasks, which must reach neither the address spaces
 * nor the names.
 */
static bool pid0_record(struct profile *p, const struct sample_record *rec)
{
	bool hidden = (rec->type == SREC_MMAP && rec->mmap.pid == 0) ||
		      (rec->type == SREC_COMM && (rec->comm.pid == 0 || rec->comm.tid == 0)) ||
		      (rec->type == SREC_FORK && (rec->task.pid == 0 || rec->task.tid == 0));

	p->pid0_shared = p->pid0_shared || hidden;
	return hidden;
}

/* count samples like s (sample_fold_equal()) */
static void add_sample(struct profile *p, const struct sample *s, uint64_t count)
{
	struct event_hist *h = s->evidx < p->n_ev ? &p->ev[s->evidx] : NULL;
	struct prof_frame key[2];
	struct prof_entry *e;
	uint32_t n = p->opts.by_process ? 2 : 1;

	if (!h)
		return;
	h->samples += count;
	if ((s->fields & SAMPLE_F_TID) && s->pid == 0 && prof_frame_kind(s->cpumode) == FRAME_USER) {
		/* not the idle task's: a task of another pid namespace (pid0_record()) */
		p->pid0_shared = true;
		p->pid0_user_samples += count;
	}
	note_kernel_ips(p, s);
	if (s->fields & SAMPLE_F_PERIOD) {
		h->min_period = s->period < h->min_period ? s->period : h->min_period;
		h->max_period = s->period > h->max_period ? s->period : h->max_period;
	}
	if (p->opts.format == PROFILE_SCRIPT) {
		prof_add_script(p, s);
		return;
	}
	if (profile_branch_view(&p->opts)) {
		prof_add_branches(p, s, count);
		return;
	}
	if (p->opts.format == PROFILE_FOLDED || p->opts.format == PROFILE_SVG) {
		prof_add_stack(p, s, count);
		return;
	}
	/* JSON: the call chains too, when recorded */
	if (p->opts.format == PROFILE_JSON && (s->fields & SAMPLE_F_CALLCHAIN))
		prof_add_stack(p, s, count);
	/* by process: the process first, the frame second */
	key[0] = (struct prof_frame){ FRAME_PID, NULL, s->pid };
	key[1] = prof_sample_frame(p, s);
	e = prof_keymap_add(&h->counted, &key[2 - n], n, count);
	if (p->n_sources)
		prof_keymap_add(&h->source_counted[p->source], &key[2 - n], n, count);
	/* counts read in samples are credited per key as samples come */
	if (h->n_reads && (s->fields & SAMPLE_F_READ))
		prof_add_reads(p, h, s, e);
}

void profile_record_binaries(struct profile *p, struct sample_out *w)
{
	p->binaries_to = w;
}

/* Recording: the identity of a binary mapped for the first time, written
 * right after its mapping, before any sample in it.  A write error stays
 * in the writer, which reports it at its next write or at its close. */
static void record_binary(struct profile *p, const struct sample_mmap *m)
{
	struct sample_record rec = { .type = SREC_BINARY };
	struct sym_file_id id;

	if (!p->binaries_to || m->data || m->filename[0] != '/' || strmap_get(&p->binaries_seen, m->filename))
		return;
	strmap_add(&p->binaries_seen, m->filename, 1);
	if (sym_file_identity(m->filename, &id, NULL) != 0)
		return; /* gone already, or not a file: nothing to compare with later */
	if (m->has_build_id && m->build_id_size && m->build_id_size <= sizeof(id.build_id)) {
		/* the kernel's, from the mapped pages themselves (MMAP2 with build-id) */
		memcpy(id.build_id, m->build_id, m->build_id_size);
		id.build_id_len = m->build_id_size;
	}
	rec.binary = (struct sample_binary){ .path = m->filename, .build_id_size = (uint8_t)id.build_id_len,
					     .dev = id.dev, .ino = id.ino, .mtime_ns = id.mtime_ns,
					     .size = id.size };
	memcpy(rec.binary.build_id, id.build_id, id.build_id_len);
	sample_out_record(p->binaries_to, &rec, NULL);
}

/* Reporting a file: what the binary at a path was when recorded. */
static void expect_binary(struct profile *p, const struct sample_binary *b)
{
	struct sym_file_id id = { .build_id_len = b->build_id_size, .dev = b->dev, .ino = b->ino,
				  .mtime_ns = b->mtime_ns, .size = b->size };

	memcpy(id.build_id, b->build_id, b->build_id_size);
	sym_resolver_expect(p->res, b->path, &id);
}

void profile_print_warnings(const struct profile *p, FILE *err)
{
	size_t n = sym_resolver_nr_dsos(p->res);

	for (size_t i = 0; i < n; i++) {
		struct sym_dso_info info;

		sym_resolver_dso_info(p->res, i, &info);
		if (info.wrong_file)
			fprintf(err, "warning: '%s' is %s: its samples are shown as [unknown]\n", info.path,
				info.open_error);
	}
	if (p->pid0_user_samples)
		fprintf(err, "warning: %llu samples of pid 0 ran in user mode: tasks outside the recording's "
			"pid namespace, which it cannot tell apart (%s); their frames are left unknown\n",
			(unsigned long long)p->pid0_user_samples, PROF_PID0_SHARED);
}

void profile_print_notes(const struct profile *p, FILE *err)
{
	if (p->script.trace_error)
		fprintf(err, "note: tracepoint payloads are not shown: %s\n", p->script.trace_error);
	prof_print_branch_note(p, err);
	/* the text report lists them itself; the others have no room for a note */
	if (p->opts.format != PROFILE_TEXT)
		prof_print_missing(p, err, "note: ", false);
}

/* perf.data: perf record keeps a copy of kallsyms in its build-id cache;
 * the copy of that kernel and that boot (_text where the file's kernel
 * mapping says) names the kernel frames whatever kernel runs now, and
 * spares the kernel's slow formatting of /proc/kallsyms */
static void use_perf_kallsyms(struct profile *p, const struct sample_kernel *k)
{
	char *path;

	if (!k->text_addr || k->boot_id[0])
		return;
	path = sym_perf_kallsyms_copy(k->build_id, k->build_id_size, k->text_addr);
	if (!path)
		return;
	sym_resolver_use_kallsyms(p->res, path);
	p->kernel_recorded = true;
	free(path);
}

void profile_add(struct profile *p, const struct sample_record *rec)
{
	profile_add_n(p, rec, 1);
}

void profile_add_n(struct profile *p, const struct sample_record *rec, uint64_t count)
{
	struct sym_maps *maps = sym_resolver_maps(p->res);

	if (pid0_record(p, rec))
		return;
	switch (rec->type) {
	case SREC_SAMPLE:
		add_sample(p, &rec->sample, count);
		break;
	case SREC_MMAP:
		if (rec->mmap.filename) {
			sym_maps_add(maps, rec->mmap.pid, rec->mmap.start, rec->mmap.len, rec->mmap.pgoff,
				     rec->mmap.filename);
			record_binary(p, &rec->mmap);
		}
		break;
	case SREC_BINARY:
		expect_binary(p, &rec->binary);
		break;
	case SREC_FORK:
		if (rec->task.pid != rec->task.ppid)
			sym_maps_fork(maps, rec->task.ppid, rec->task.pid);
		prof_fork_comm(p, rec->task.ptid, rec->task.tid);
		break;
	case SREC_COMM:
		if (rec->comm.exec)
			sym_maps_clear(maps, rec->comm.pid); /* the new image's MMAP2s follow */
		prof_set_comm(p, rec->comm.tid, rec->comm.comm);
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
		use_perf_kallsyms(p, &rec->kernel);
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

void profile_print_lost(const struct profile *p, FILE *err)
{
	if (p->lost)
		fprintf(err, "warning: %llu samples lost (the ring buffer was full): raise --smpl-entries "
			     "or lower the sampling rate\n", (unsigned long long)p->lost);
	if (p->throttled)
		fprintf(err, "warning: the kernel throttled sampling %llu times (rate above "
			     "kernel.perf_event_max_sample_rate)\n", (unsigned long long)p->throttled);
}

void profile_prefetch_kernel(struct profile *p)
{
	if (u64set_len(&p->kernel_ips) && !p->kernel_recorded && !p->finished && kernel_check_same(&p->kernel))
		sym_resolver_prefetch_kernel(p->res);
}

void profile_finish(struct profile *p)
{
	if (p->finished)
		return;
	p->finished = true;
	/* a file's own kernel symbols, else the running kernel's if it took the samples */
	p->kernel_named = u64set_len(&p->kernel_ips) && (p->kernel_recorded || kernel_check_same(&p->kernel));
	p->kernel_named = p->kernel_named && sym_resolver_kernel_symbols(p->res);
	/* every kernel address is named once here, so the file can keep its symbol */
	if (p->kernel_named) {
		uint64_t ip;

		for (size_t i = 0; u64set_next(&p->kernel_ips, &i, &ip);)
			sym_resolve_kernel(p->res, ip);
	}
	for (size_t i = 0; i < p->n_ev; i++) {
		for (size_t k = 0; k < p->n_sources; k++)
			prof_name_keymap(p, &p->ev[i].source_counted[k], &p->ev[i].source_keys[k]);
		prof_name_keys(p, &p->ev[i]);
	}
	prof_name_stacks(p);
	if (profile_branch_view(&p->opts))
		prof_name_branches(p);
}

void profile_set_sources(struct profile *p, size_t n)
{
	p->n_sources = n;
	for (size_t i = 0; i < p->n_ev; i++) {
		p->ev[i].source_counted = xcalloc(n + 1, sizeof(*p->ev[i].source_counted));
		p->ev[i].source_keys = xcalloc(n + 1, sizeof(*p->ev[i].source_keys));
		for (size_t k = 0; k < n; k++)
			strmap_init(&p->ev[i].source_keys[k]);
	}
}

void profile_begin_source(struct profile *p, size_t i)
{
	p->source = i < p->n_sources ? i : 0; /* no sources kept: counted in the whole only */
	sym_maps_clear_all(sym_resolver_maps(p->res));
}

uint64_t profile_source_count(const struct profile *p, size_t ev, size_t i, const char *key)
{
	if (ev >= p->n_ev || i >= p->n_sources)
		return 0;
	return strmap_get(&p->ev[ev].source_keys[i], key);
}

size_t profile_top_keys(const struct profile *p, size_t ev, size_t max, const char **keys, uint64_t *counts)
{
	struct strmap_entry *v;
	size_t n = 0;

	if (ev >= p->n_ev)
		return 0;
	v = strmap_sorted(&p->ev[ev].keys);
	for (; n < max && n < strmap_len(&p->ev[ev].keys); n++) {
		/* the names live in the map: find this key's own copy there */
		keys[n] = v[n].key;
		counts[n] = v[n].value;
	}
	free(v);
	return n;
}

size_t profile_nr_events(const struct profile *p)
{
	return p->n_ev;
}

const char *profile_event_name(const struct profile *p, size_t ev)
{
	return ev < p->n_ev ? p->ev[ev].name : "";
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

static void print_branches(struct profile *p, FILE *out)
{
	switch (p->opts.format) {
	case PROFILE_JSON:
		prof_print_branches_json(p, out);
		return;
	case PROFILE_FOLDED:
		prof_print_branches_folded(p, out);
		return;
	case PROFILE_SVG:
		prof_print_branches_svg(p, out);
		return;
	case PROFILE_FDATA:
		prof_print_fdata(p, out);
		return;
	default:
		prof_print_branches_text(p, out);
	}
}

void profile_print(struct profile *p, FILE *out)
{
	profile_finish(p);
	if (profile_branch_view(&p->opts)) {
		print_branches(p, out);
		return;
	}
	switch (p->opts.format) {
	case PROFILE_JSON:
		prof_print_json(p, out);
		return;
	case PROFILE_FOLDED:
		prof_print_folded(p, out);
		return;
	case PROFILE_SVG:
		prof_print_svg(p, out);
		return;
	case PROFILE_SCRIPT:
		prof_print_script(p, out);
		return;
	case PROFILE_TEXT:
	default:
		prof_print_text(p, out);
	}
}
