/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The profile as text, JSON (perf-like keys), folded stacks and a flame graph. */
#include <config.h>

#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "common/json_writer.h"
#include "flame.h"
#include "profile_internal.h"

/* the key column's title: each key's, "function | mem | snoop" */
static void keys_title(const struct profile *p, struct strbuf *sb)
{
	static const char *const titles[] = { "function", "source line", "binary", "address", "data",
					      "branch", "branch source line", "block", "mispredicted branch" };

	for (uint32_t i = 0; i < p->opts.n_keys; i++) {
		enum profile_sort k = p->opts.keys[i];

		strbuf_addf(sb, "%s%s", i ? " | " : "", prof_is_code_key(k) ? titles[k] : prof_sort_name(k));
	}
}

/* how many sorted entries to show: --smpl-show-top and --smpl-cum-threshold */
size_t prof_shown_entries(const struct profile *p, const struct strmap_entry *v, size_t n, uint64_t total)
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

static void print_event_text(const struct profile *p, const struct event_hist *h, const char *title, FILE *out)
{
	struct strmap_entry *v = strmap_sorted(&h->keys);
	size_t n = prof_shown_entries(p, v, strmap_len(&h->keys), h->samples);
	uint64_t cum = 0;

	/* names and paths come from the sample file: escaped, one line stays one line */
	fputs("# event ", out);
	fput_escaped(out, h->name);
	fprintf(out, ": %llu samples (%s %llu", (unsigned long long)h->samples,
		h->freq ? "frequency" : "period", (unsigned long long)h->period);
	if (h->random_mask && h->samples && h->max_period)
		fprintf(out, " + random & 0x%llx: %llu to %llu", (unsigned long long)h->random_mask,
			(unsigned long long)h->min_period, (unsigned long long)h->max_period);
	else if (h->random_mask)
		fprintf(out, " + random & 0x%llx", (unsigned long long)h->random_mask);
	fputs(")\n", out);
	if (h->n_reads) {
		fputs("# counted in each sample:", out);
		for (uint32_t j = 0; j < h->n_reads; j++) {
			fputc(' ', out);
			fput_escaped(out, p->ev[h->reads[j]].name);
		}
		fputc('\n', out);
	}
	if (!h->samples) {
		free(v);
		return;
	}
	fprintf(out, "# %8s %7s %7s", "samples", "%self", "%cum");
	for (uint32_t j = 0; j < h->n_reads; j++)
		fprintf(out, " %*s", read_width(p, h, j), p->ev[h->reads[j]].name);
	fprintf(out, "  %s", p->opts.by_process ? "pid:command " : "");
	fput_escaped(out, title);
	fputc('\n', out);
	for (size_t i = 0; i < n; i++) {
		double self = 100.0 * (double)v[i].value / (double)h->samples;

		cum += v[i].value;
		fprintf(out, "%10llu %6.2f%% %6.2f%%", (unsigned long long)v[i].value, self,
			100.0 * (double)cum / (double)h->samples);
		for (uint32_t j = 0; j < h->n_reads; j++)
			fprintf(out, " %*llu", read_width(p, h, j),
				(unsigned long long)strmap_get(&h->read_sums[j], v[i].key));
		fputs("  ", out);
		fput_escaped(out, v[i].key);
		fputc('\n', out);
	}
	free(v);
}

/* The binaries the symbolizer opened that had no symbols or no line table,
 * a line each after prefix: the text report's "# " lines, the other
 * formats' "note: " lines on stderr, in the same words (without the files
 * not recorded, wrong_file, which have a warning of their own there). */
void prof_print_missing(const struct profile *p, FILE *out, const char *prefix, bool wrong_files)
{
	size_t n = sym_resolver_nr_dsos(p->res);

	for (size_t i = 0; i < n; i++) {
		struct sym_dso_info info;
		const char *what;

		sym_resolver_dso_info(p->res, i, &info);
		if (info.wrong_file && !wrong_files)
			continue;
		if (info.open_error)
			what = "cannot read ";
		else if (info.symbols == SYM_SRC_NONE)
			what = "no symbols: ";
		else if (!info.has_lines && info.kind == SYM_DSO_FILE)
			/* the kernel and the vDSO never have any: not worth a line */
			what = "no debug info: ";
		else
			continue;
		fprintf(out, "%s%s", prefix, what);
		fput_escaped(out, info.path);
		if (info.open_error || (info.symbols == SYM_SRC_NONE && info.why_no_symbols))
			fprintf(out, ": %s", info.open_error ? info.open_error : info.why_no_symbols);
		fputc('\n', out);
	}
}

/* why kernel samples are lumps, when some were sampled: one line */
static bool kernel_note(const struct profile *p, struct strbuf *sb)
{
	return u64set_len(&p->kernel_ips) && !p->kernel_recorded && kernel_check_why_not(&p->kernel, sb);
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

/* a memory key's field: "mem": "L1 hit", "weight": 40 */
static void json_mem_field(const struct prof_frame *f, struct json_writer *w)
{
	struct strbuf sb = STRBUF_INIT;

	if (!prof_is_mem_frame(f->kind))
		return;
	json_key(w, prof_mem_frame_key(f->kind));
	if (f->kind == FRAME_WEIGHT || f->kind == FRAME_P_STAGE_CYC) {
		json_uint(w, f->addr);
		return;
	}
	prof_mem_frame_name(f, &sb);
	json_string(w, strbuf_str(&sb));
	strbuf_release(&sb);
}

/*
 * A frame's fields (pfmon(1), JSON PROFILES): symbol, binary, file, line
 * apart, each present only when known; the address where the key shows it.
 */
static void json_frame_fields(const struct profile *p, const struct prof_frame *f, bool in_chain,
			      struct json_writer *w)
{
	const struct sym_result *r = f->res;
	bool with_offset = !in_chain && (p->opts.sort == PROFILE_BY_ADDRESS || p->opts.sort == PROFILE_BY_DATA);

	if (prof_is_mem_frame(f->kind) || f->kind == FRAME_NO_DATA) {
		json_mem_field(f, w);
		return;
	}
	if (f->kind == FRAME_KERNEL) {
		r = p->kernel_named ? sym_resolve_kernel(p->res, f->addr) : NULL;
		json_key(w, "kernel");
		json_bool(w, true);
		with_offset = with_offset && r && r->func;
	} else if (f->kind == FRAME_GUEST_KERNEL) {
		json_key(w, "binary");
		json_string(w, "[guest kernel]");
		return;
	}
	/* by binary the key is the binary alone: its first function would mislead */
	if (r && r->func && !r->wrong_file && (in_chain || p->opts.sort != PROFILE_BY_BINARY)) {
		json_key(w, "symbol");
		json_string(w, r->func);
		if (with_offset) {
			json_key(w, "offset");
			json_uint(w, r->offset);
		}
	}
	if (f->kind == FRAME_KERNEL) {
		json_key(w, "binary");
		json_string(w, "[kernel]");
		if (r && r->module) {
			json_key(w, "module");
			json_string(w, r->module);
		}
	} else if (r && r->binary) {
		json_key(w, "binary");
		json_string(w, r->binary);
	}
	if (r && r->file && r->line) {
		json_key(w, "file");
		json_string(w, r->file);
		json_key(w, "line");
		json_uint(w, r->line);
	}
	/* the ip where the key is the address, the data address by data */
	if (f->addr && (f->kind != FRAME_KERNEL || p->opts.sort == PROFILE_BY_ADDRESS) &&
	    (!in_chain || f->kind != FRAME_KERNEL)) {
		json_key(w, f->kind == FRAME_DATA ? "data_address" : "address");
		json_hex(w, f->addr);
	}
}

/* by process: the row's process, as separate fields (its name: absent if unknown) */
static void json_process_fields(const struct profile *p, uint32_t pid, struct json_writer *w)
{
	const char *comm = prof_comm_of(p, pid);

	json_key(w, "pid");
	json_uint(w, pid);
	if (comm) {
		json_key(w, "comm");
		json_string(w, comm);
	}
}

static void json_entry(const struct profile *p, const struct event_hist *h, const struct strmap_entry *v,
		       struct json_writer *w)
{
	uint64_t idx = strmap_get(&h->key_index, v->key);
	const struct prof_key_fields *f = idx ? &h->key_fields[idx - 1] : NULL;

	json_begin_object(w);
	json_key(w, "name");
	json_string(w, v->key);
	json_key(w, "samples");
	json_uint(w, v->value);
	json_key(w, "percent");
	json_double(w, h->samples ? 100.0 * (double)v->value / (double)h->samples : 0.0, 2);
	if (f && p->opts.by_process)
		json_process_fields(p, f->pid, w);
	if (f)
		json_frame_fields(p, &f->code, false, w);
	for (uint32_t k = 0; f && k < PROFILE_MAX_KEYS; k++)
		json_mem_field(&f->mem[k], w);
	json_reads(p, h, v->key, w);
	json_end_object(w);
}

static void json_event(const struct profile *p, const struct event_hist *h, struct json_writer *w)
{
	struct strmap_entry *v = strmap_sorted(&h->keys);
	size_t n = prof_shown_entries(p, v, strmap_len(&h->keys), h->samples);

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
	for (size_t i = 0; i < n; i++)
		json_entry(p, h, &v[i], w);
	json_end_array(w);
	json_end_object(w);
	free(v);
}

/* "callchains": each distinct stack (as folded stacks name them), its
 * samples, its frames leaf first; only when the samples recorded chains */
static void json_callchains(const struct profile *p, struct json_writer *w)
{
	struct strmap_entry *v;
	struct strbuf name = STRBUF_INIT;

	if (!strmap_len(&p->folded))
		return;
	v = strmap_sorted(&p->folded);
	json_key(w, "callchains");
	json_begin_array(w);
	for (size_t i = 0; i < strmap_len(&p->folded); i++) {
		uint64_t idx = strmap_get(&p->stack_index, v[i].key);
		const struct prof_stack *st = idx ? &p->stack_reps[idx - 1] : NULL;

		/* the root of a stack is its process: a key of its own, not a frame */
		bool comm = st && st->n && st->frames[st->n - 1].kind == FRAME_COMM;

		json_begin_object(w);
		json_key(w, "samples");
		json_uint(w, v[i].value);
		if (comm) {
			strbuf_reset(&name);
			prof_stack_frame_name(p, &st->frames[st->n - 1], &name);
			json_key(w, "comm");
			json_string(w, strbuf_str(&name));
		}
		json_key(w, "frames");
		json_begin_array(w);
		for (uint32_t j = 0; st && j < st->n - comm; j++) {
			strbuf_reset(&name);
			prof_stack_frame_name(p, &st->frames[j], &name);
			json_begin_object(w);
			json_key(w, "name");
			json_string(w, strbuf_str(&name));
			json_frame_fields(p, &st->frames[j], true, w);
			json_end_object(w);
		}
		json_end_array(w);
		json_end_object(w);
	}
	json_end_array(w);
	strbuf_release(&name);
	free(v);
}

/* the keys, as --report-sort names them: "function" or "data,mem,snoop" */
static void json_sort(const struct profile *p, struct json_writer *w)
{
	struct strbuf sb = STRBUF_INIT;

	for (uint32_t i = 0; i < p->opts.n_keys; i++)
		strbuf_addf(&sb, "%s%s", i ? "," : "", prof_sort_name(p->opts.keys[i]));
	json_string(w, strbuf_str(&sb));
	strbuf_release(&sb);
}

/* The schema is pfmon(1)'s JSON PROFILES; its version changes when a key
 * changes meaning or goes away (new keys do not change it). */
#define PROFILE_JSON_VERSION 1

void prof_print_json(const struct profile *p, FILE *out)
{
	struct json_writer w;

	json_init(&w, out, true);
	json_begin_object(&w);
	json_key(&w, "format");
	json_string(&w, "pfmon-profile");
	json_key(&w, "version");
	json_uint(&w, PROFILE_JSON_VERSION);
	json_key(&w, "sort");
	json_sort(p, &w);
	json_key(&w, "events");
	json_begin_array(&w);
	for (size_t i = 0; i < p->n_ev; i++)
		if (!p->ev[i].counting)
			json_event(p, &p->ev[i], &w);
	json_end_array(&w);
	json_callchains(p, &w);
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

void prof_print_folded(const struct profile *p, FILE *out)
{
	struct strmap_entry *v = strmap_sorted(&p->folded);

	for (size_t i = 0; i < strmap_len(&p->folded); i++) {
		fput_escaped(out, v[i].key);
		fprintf(out, " %llu\n", (unsigned long long)v[i].value);
	}
	free(v);
}

/* what the graph is of: each sampled event, and what is missing from it */
static void svg_subtitle(const struct profile *p, struct strbuf *sb)
{
	for (size_t i = 0; i < p->n_ev; i++) {
		const struct event_hist *h = &p->ev[i];

		if (h->counting)
			continue;
		strbuf_addf(sb, "%s%s: %llu samples (%s %llu)", sb->len ? ", " : "", h->name,
			    (unsigned long long)h->samples, h->freq ? "frequency" : "period",
			    (unsigned long long)h->period);
	}
	if (p->lost || p->throttled)
		strbuf_addf(sb, "; lost samples: %llu, throttled: %llu", (unsigned long long)p->lost,
			    (unsigned long long)p->throttled);
	if (p->have_status && p->status.truncated)
		strbuf_addstr(sb, "; the sample file is truncated: later samples are missing");
}

void prof_print_svg(const struct profile *p, FILE *out)
{
	struct strbuf sub = STRBUF_INIT;
	struct flame_svg_opts o = { .title = "Flame Graph" };

	svg_subtitle(p, &sub);
	o.subtitle = strbuf_str(&sub);
	flame_write_svg(p->flame, &o, out);
	strbuf_release(&sub);
}

void prof_print_text(const struct profile *p, FILE *out)
{
	struct strbuf title = STRBUF_INIT;

	keys_title(p, &title);
	fprintf(out, "# pfmon profile by %s\n", strbuf_str(&title));
	for (size_t i = 0; i < p->n_ev; i++)
		if (!p->ev[i].counting)
			print_event_text(p, &p->ev[i], strbuf_str(&title), out);
	strbuf_release(&title);
	print_status_text(p, out);
	print_notes_text(p, out);
	prof_print_missing(p, out, "# ", true);
}
