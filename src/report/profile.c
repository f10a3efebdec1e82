/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "flame.h"
#include "profile_internal.h"

/* the names of --report-sort, perf's where perf has the key (symbol_daddr
 * is perf's name of data) */
static const struct {
	const char *name;
	enum profile_sort sort;
} sort_names[] = {
	{ "function", PROFILE_BY_FUNCTION }, { "line", PROFILE_BY_LINE },
	{ "binary", PROFILE_BY_BINARY },     { "address", PROFILE_BY_ADDRESS },
	{ "data", PROFILE_BY_DATA },         { "symbol_daddr", PROFILE_BY_DATA },
	{ "mem", PROFILE_BY_MEM },           { "snoop", PROFILE_BY_SNOOP },
	{ "tlb", PROFILE_BY_TLB },           { "lock", PROFILE_BY_LOCK },
	{ "blocked", PROFILE_BY_BLOCKED },   { "weight", PROFILE_BY_WEIGHT },
	{ "type", PROFILE_BY_TYPE },         { "typeoff", PROFILE_BY_TYPEOFF },
	/* WEIGHT_STRUCT's var3_w per sample: perf 6.1's p_stage_cyc (its
	 * local_p_stage_cyc too; newer perf calls the field retire_lat) */
	{ "p_stage_cyc", PROFILE_BY_P_STAGE_CYC }, { "local_p_stage_cyc", PROFILE_BY_P_STAGE_CYC },
	/* the branch sorts as perf report -b spells its keys, each alone */
	{ "symbol_from,symbol_to", PROFILE_BY_BRANCH }, { "srcline_from,srcline_to", PROFILE_BY_BRANCH_LINE },
	{ "block", PROFILE_BY_BLOCK },                  { "mispredict", PROFILE_BY_MISPREDICT },
};
/* and of --report-format, in enum order */
static const char *const format_names[] = { "text", "json", "folded", "svg", "script", "pprof", "fdata", "html",
							    "brstack" };

static int name_index(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return (int)i;
	return -1;
}

const char *prof_sort_name(enum profile_sort s)
{
	for (size_t i = 0; i < ARRAY_SIZE(sort_names); i++)
		if (sort_names[i].sort == s)
			return sort_names[i].name;
	return "?";
}

bool prof_is_code_key(enum profile_sort s)
{
	return s <= PROFILE_BY_DATA;
}

bool profile_sort_from_name(const char *name, enum profile_sort *out)
{
	if (!name) {
		*out = PROFILE_BY_FUNCTION;
		return true;
	}
	for (size_t i = 0; i < ARRAY_SIZE(sort_names); i++) {
		if (!strcmp(sort_names[i].name, name)) {
			*out = sort_names[i].sort;
			return true;
		}
	}
	return false;
}

const char *profile_sort_name(size_t i)
{
	return i < ARRAY_SIZE(sort_names) ? sort_names[i].name : NULL;
}

/* one key of a list into o: its culprit in bad when it does not go */
static const char *add_key(const char *name, size_t len, struct profile_opts *o, bool *code, char *bad,
			   size_t bad_size)
{
	char one[32];
	enum profile_sort k;

	snprintf(bad, bad_size, "%.*s", (int)len, name);
	if (len >= sizeof(one) || (memcpy(one, name, len), one[len] = 0, !profile_sort_from_name(one, &k)))
		return "unknown sort key";
	if (profile_sort_branches(k))
		return "a branch sort key goes alone";
	for (uint32_t i = 0; i < o->n_keys; i++)
		if (o->keys[i] == k)
			return "sort key given twice";
	if (prof_is_code_key(k) && *code)
		return "a second key of code or data (one of function, line, binary, address, data goes with memory keys)";
	if (o->n_keys == PROFILE_MAX_KEYS)
		return "too many sort keys";
	if (prof_is_code_key(k)) {
		*code = true;
		o->sort = k;
	}
	o->keys[o->n_keys++] = k;
	return NULL;
}

const char *profile_sort_parse(const char *list, struct profile_opts *o, char *bad, size_t bad_size)
{
	bool code = false;
	const char *why;

	o->sort = PROFILE_BY_FUNCTION;
	o->n_keys = 0;
	/* a branch sort is one key, though perf spells two of them with a comma */
	if (list && profile_sort_from_name(list, &o->sort) && profile_sort_branches(o->sort)) {
		o->keys[o->n_keys++] = o->sort;
		return NULL;
	}
	o->sort = PROFILE_BY_FUNCTION;
	for (const char *s = list ? list : "function";; s++) {
		size_t len = strcspn(s, ",");

		if ((why = add_key(s, len, o, &code, bad, bad_size)))
			return why;
		s += len;
		if (!*s)
			return NULL;
	}
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

/* --symbol-file / --sysmap-file: the kernel "[kernel]" from its code
 * symbols, as pfmon 3.x named every address from them */
static void add_given_kernel_symbols(struct sym_resolver *res, struct sym_symfile *given)
{
	size_t n = sym_symfile_count(given);

	for (size_t i = 0; i < n; i++) {
		struct sym_symfile_entry e;

		sym_symfile_get(given, i, &e);
		if (!e.data)
			sym_resolver_add_kernel_symbol(res, &(struct sym_kernel_symbol){ e.addr, e.end, e.name, NULL });
	}
}

static struct profile *new_profile(const struct profile_opts *given, const struct smpl_header *h,
				   struct sym_resolver *shared)
{
	struct profile *p = xcalloc(1, sizeof(*p));
	struct profile_opts html;
	const struct profile_opts *opts = given;

	if (given->format == PROFILE_HTML) {
		/* the page's own rows are by function; its parts do the rest */
		html = *given;
		html.sort = PROFILE_BY_FUNCTION;
		html.keys[0] = PROFILE_BY_FUNCTION;
		html.n_keys = 1;
		html.annotate = false;
		opts = &html;
	}
	p->opts = *opts;
	if (!p->opts.n_keys) /* the code key alone */
		p->opts.keys[p->opts.n_keys++] = opts->sort;
	if (shared) {
		p->res = shared;
		p->res_shared = true;
	} else {
		p->res = sym_resolver_new(opts->debug_root);
		/* the profiles that show lines read line tables, the others
		 * never; an HTML page's parts include one by line */
		sym_resolver_want_lines(p->res, opts->sort == PROFILE_BY_LINE || opts->format == PROFILE_PPROF ||
						    opts->sort == PROFILE_BY_BRANCH_LINE ||
						    opts->sort == PROFILE_BY_BLOCK || given->format == PROFILE_HTML);
		sym_resolver_demangle(p->res, !opts->no_demangle);
		sym_resolver_use_perf_maps(p->res, opts->perf_maps);
		if (opts->kernel_symbols)
			add_given_kernel_symbols(p->res, opts->kernel_symbols);
	}
	/* the user's kernel symbols name kernel addresses, whichever kernel ran */
	p->kernel_given = p->kernel_recorded = opts->kernel_symbols != NULL;
	p->n_ev = h->nr_events;
	p->ev = xcalloc(p->n_ev ? p->n_ev : 1, sizeof(*p->ev));
	for (size_t i = 0; i < p->n_ev; i++) {
		p->ev[i].name = xstrdup(h->events[i].name);
		p->ev[i].tracepoint = h->events[i].attr_type == PERF_TYPE_TRACEPOINT;
		p->ev[i].raw = h->events[i].attr_type == PERF_TYPE_RAW;
		p->ev[i].clock = h->events[i].attr_type == PERF_TYPE_SOFTWARE &&
				 (h->events[i].attr_config == PERF_COUNT_SW_TASK_CLOCK ||
				  h->events[i].attr_config == PERF_COUNT_SW_CPU_CLOCK);
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
	if (opts->format == PROFILE_PPROF)
		prof_pprof_init(p, h);
	if (opts->annotate) {
		struct annotate_opts ao = { opts->annotate_function, opts->top, opts->source_root,
					    opts->format == PROFILE_JSON };

		p->annotate = annotate_new(&ao, p->res, p->n_ev);
	}
	strmap_init(&p->folded);
	strmap_init(&p->stack_index);
	strmap_init(&p->comm_ids);
	strmap_init(&p->binaries_seen);
	if (given->format == PROFILE_HTML)
		prof_html_init(p, given, h);
	return p;
}



struct profile *profile_new(const struct profile_opts *opts, const struct smpl_header *h)
{
	return new_profile(opts, h, NULL);
}

struct profile *prof_new_part(const struct profile_opts *opts, const struct smpl_header *h,
			      struct sym_resolver *res)
{
	return new_profile(opts, h, res);
}

void profile_free(struct profile *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n_ev; i++) {
		free(p->ev[i].name);
		strmap_release(&p->ev[i].keys);
		strmap_release(&p->ev[i].key_index);
		free(p->ev[i].key_fields);
		for (size_t j = 0; j < SAMPLE_MAX_READ; j++)
			strmap_release(&p->ev[i].read_sums[j]);
		prof_keymap_release(&p->ev[i].counted);
		prof_keymap_release(&p->ev[i].stacks);
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
	prof_pprof_release(&p->pprof);
	annotate_free(p->annotate);
	prof_html_release(p);
	prof_release_branches(&p->br);
	if (!p->res_shared)
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
	struct prof_frame key[1 + PROFILE_MAX_KEYS];
	struct prof_entry *e;
	uint32_t n, first = p->opts.by_process ? 0 : 1;

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
	if (p->annotate) {
		bool user = prof_frame_kind(s->cpumode) == FRAME_USER;

		annotate_add(p->annotate, s->evidx, user ? sym_resolve(p->res, s->pid, s->ip) : NULL, count);
		return;
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
		prof_add_stack(p, &p->stacks, s, count);
		return;
	}
	if (p->opts.format == PROFILE_PPROF) {
		prof_add_pprof(p, h, s, count);
		return;
	}
	/* JSON: the call chains too, when recorded */
	if (p->opts.format == PROFILE_JSON && (s->fields & SAMPLE_F_CALLCHAIN))
		prof_add_stack(p, &p->stacks, s, count);
	/* by process: the process first, the frame second */
	key[0] = (struct prof_frame){ FRAME_PID, NULL, s->pid };
	n = 1 + prof_sample_key(p, s, &key[1]) - first;
	e = prof_keymap_add(&h->counted, &key[first], n, count);
	if (p->n_sources)
		prof_keymap_add(&h->source_counted[p->source], &key[first], n, count);
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
	if (!p->res_shared)
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
	/* the text report lists them itself; the others have no room for a note;
	 * an annotation is of a few functions, whose own notes it prints */
	if (p->opts.format != PROFILE_TEXT && !p->annotate)
		prof_print_missing(p, err, "note: ", false);
	/* asked for JIT names and found no JIT: said, not silently nothing */
	if (p->opts.perf_maps && !sym_resolver_perf_map_queries(p->res))
		fprintf(err, "note: no sample fell in anonymous code: no JIT perf map (/tmp/perf-PID.map) was read\n");
}

/* perf.data: perf record keeps a copy of kallsyms in its build-id cache;
 * the copy of that kernel and that boot (_text where the file's kernel
 * mapping says) names the kernel frames whatever kernel runs now, and
 * spares the kernel's slow formatting of /proc/kallsyms */
static void use_perf_kallsyms(struct profile *p, const struct sample_kernel *k)
{
	char *path;

	if (!k->text_addr || k->boot_id[0] || p->kernel_given)
		return;
	path = sym_perf_kallsyms_copy(k->build_id, k->build_id_size, k->text_addr);
	if (!path)
		return;
	if (!p->res_shared)
		sym_resolver_use_kallsyms(p->res, path);
	p->kernel_recorded = true;
	free(path);
}

void profile_add(struct profile *p, const struct sample_record *rec)
{
	profile_add_n(p, rec, 1);
}

/* a record into the profile, and into its resolver unless that is an HTML
 * page's, fed by the page */
static void add_record(struct profile *p, const struct sample_record *rec, uint64_t count)
{
	struct sym_maps *maps = p->res_shared ? NULL : sym_resolver_maps(p->res);

	if (pid0_record(p, rec))
		return;
	switch (rec->type) {
	case SREC_SAMPLE:
		add_sample(p, &rec->sample, count);
		break;
	case SREC_MMAP:
		if (rec->mmap.filename && maps)
			sym_maps_add(maps, rec->mmap.pid, rec->mmap.start, rec->mmap.len, rec->mmap.pgoff,
				     rec->mmap.filename);
		if (rec->mmap.filename)
			record_binary(p, &rec->mmap);
		break;
	case SREC_BINARY:
		expect_binary(p, &rec->binary);
		break;
	case SREC_FORK:
		if (rec->task.pid != rec->task.ppid && maps)
			sym_maps_fork(maps, rec->task.ppid, rec->task.pid);
		prof_fork_comm(p, rec->task.ptid, rec->task.tid);
		break;
	case SREC_COMM:
		if (rec->comm.exec && maps)
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
		if (!p->res_shared)
			sym_resolver_use_vdso(p->res, kernel_check_same(&p->kernel));
		use_perf_kallsyms(p, &rec->kernel);
		break;
	case SREC_KSYM: {
		struct sym_kernel_symbol ks = { rec->ksym.addr, rec->ksym.end, rec->ksym.name, rec->ksym.module };

		if (p->kernel_given)
			break;
		if (!p->res_shared)
			sym_resolver_add_kernel_symbol(p->res, &ks);
		p->kernel_recorded = true;
		break;
	}
	default:
		break;
	}
}

void profile_add_n(struct profile *p, const struct sample_record *rec, uint64_t count)
{
	add_record(p, rec, count);
	/* the parts after the page, so that the mappings a sample is in are
	 * in the resolver they share before they count it */
	for (size_t i = 0; i < PROF_HTML_PARTS; i++)
		if (p->html_parts[i])
			profile_add_n(p->html_parts[i], rec, count);
}

void profile_set_status(struct profile *p, const struct smpl_status *st)
{
	p->status = *st;
	p->have_status = true;
	for (size_t i = 0; i < PROF_HTML_PARTS; i++)
		if (p->html_parts[i])
			profile_set_status(p->html_parts[i], st);
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
	for (size_t i = 0; i < PROF_HTML_PARTS; i++)
		if (p->html_parts[i])
			profile_prefetch_kernel(p->html_parts[i]);
	if (u64set_len(&p->kernel_ips) && !p->kernel_recorded && !p->finished && kernel_check_same(&p->kernel) &&
	    !p->res_shared)
		sym_resolver_prefetch_kernel(p->res);
}

void profile_finish(struct profile *p)
{
	if (p->finished)
		return;
	p->finished = true;
	for (size_t i = 0; i < PROF_HTML_PARTS; i++)
		if (p->html_parts[i])
			profile_finish(p->html_parts[i]);
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

/* --annotate: each sampled event's hottest functions */
static void print_annotated(struct profile *p, FILE *out)
{
	const char **names = xcalloc(p->n_ev + 1, sizeof(*names));

	for (size_t i = 0; i < p->n_ev; i++)
		names[i] = p->ev[i].counting ? NULL : p->ev[i].name;
	p->annotate_failed = annotate_print(p->annotate, names, out, stderr, &p->annotate_err) != 0;
	free(names);
}

int profile_print_status(const struct profile *p, struct pf_error *err)
{
	/* the page's annotation: --annotate=NAME named no sampled function */
	if (p->html_parts[PROF_HTML_ANNOTATE])
		return profile_print_status(p->html_parts[PROF_HTML_ANNOTATE], err);
	if (p->annotate_failed && err)
		*err = p->annotate_err;
	return p->annotate_failed ? -1 : 0;
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
	case PROFILE_BRSTACK:
		fputs(strbuf_str((struct strbuf *)&p->br.brstack), out);
		return;
	default:
		prof_print_branches_text(p, out);
	}
}

void profile_print(struct profile *p, FILE *out)
{
	profile_finish(p);
	if (p->annotate) {
		print_annotated(p, out);
		return;
	}
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
	case PROFILE_PPROF:
		prof_print_pprof(p, out);
		return;
	case PROFILE_HTML:
		prof_print_html(p, out);
		return;
	case PROFILE_TEXT:
	default:
		prof_print_text(p, out);
	}
}
