/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --report-format=script: each sample on its own, in the default layout of
 * perf script, which FlameGraph's stackcollapse-perf.pl, speedscope and
 * the Firefox Profiler import:
 *
 *   comm   tid [cpu] secs.usecs:     period event:
 *   \t    ip symbol+0xoff (binary)         one line per frame, leaf first
 *   (blank line)
 *
 * and, for a sample without a call chain, its one frame on the first line
 * after the event (perf's "%16s" comm then).  User frames are resolved as
 * the sample comes (in the address space of that moment), kernel frames at
 * the end, once the kernel's symbols are known, as for the other formats.
 * A --call-graph=dwarf sample's frames are the ones its folded stack has,
 * unwound by the same code (profile_unwind.c), its marker included.
 * Event names are right-aligned to the longest, as perf aligns them.  A
 * tracepoint's sample, when the file has the tracepoints' formats, is
 * perf's "comm tid [cpu] secs.usecs: event: payload", its payload printed
 * by the event's print format (trace_format.h).  A PERF_TYPE_RAW event's
 * sample (a PEBS load-latency or IBS event, as perf record -e cpu/.../
 * writes it) shows the memory fields it has, as perf 6.1 shows them by
 * default for that type alone: after the event, the data address, the
 * data source (its hex and its parts, padded to the widest one printed
 * yet), the weight and the instruction latency, each "%16"; after the
 * frames the physical address.
 */
#include <config.h>

#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "profile_internal.h"
#include "sample/data_src.h"

static struct prof_frame *new_frames(struct prof_script *sc, size_t n)
{
	while (sc->n_frames + n > sc->cap_frames) {
		sc->cap_frames = sc->cap_frames ? sc->cap_frames * 2 : 4096;
		sc->frames = xrealloc(sc->frames, sc->cap_frames * sizeof(*sc->frames));
	}
	sc->n_frames += n;
	return &sc->frames[sc->n_frames - n];
}

/* the mappings perf maps to themselves (its map__new(): anonymous memory
 * and memory of no file), whose pgoff is no place in a file: the
 * kernel's page number of the address for [stack] */
static bool shown_as_is(const char *path)
{
	return !strcmp(path, "//anon") || !strncmp(path, "/dev/zero", 9) ||
	       !strncmp(path, "/anon_hugepage", 14) || !strncmp(path, "[stack", 6) ||
	       !strncmp(path, "/SYSV", 5) || !strcmp(path, "[heap]");
}

/* perf script shows a call chain's user frame at its place in the mapped
 * file (ip - start + pgoff: 1ab70 in ld.so), a kernel frame and a
 * sample's own ip as they are; a frame no mapping holds, or one in the
 * stack, the heap or anonymous memory, as it is too */
static void show_in_file(struct profile *p, uint32_t pid, struct prof_frame *f)
{
	const struct sym_map *m;

	if (f->kind != FRAME_USER)
		return;
	m = sym_maps_find(sym_resolver_maps(p->res), pid, f->addr);
	if (m && !(m->path && shown_as_is(m->path)))
		f->addr = f->addr - m->start + m->pgoff;
}

static void add_frame(struct profile *p, uint8_t cpumode, uint32_t pid, uint64_t ip, bool chain)
{
	enum frame_kind kind = prof_frame_kind(cpumode);
	struct prof_frame *f = new_frames(&p->script, 1);

	*f = kind == FRAME_USER ? prof_user_frame(p, pid, ip, true) : (struct prof_frame){ kind, NULL, ip };
	if (chain)
		show_in_file(p, pid, f);
}

/* --call-graph=dwarf: the frames the folded stacks have, unwound from the
 * sample's stack copy, each with its ip */
static void add_unwound(struct profile *p, const struct sample *s)
{
	struct prof_frame f[PERF_MAX_STACK_DEPTH + 1];
	size_t n = prof_unwound_frames(p, s, true, f, ARRAY_SIZE(f));

	for (size_t i = 0; i < n; i++)
		show_in_file(p, s->pid, &f[i]);
	memcpy(new_frames(&p->script, n), f, n * sizeof(*f));
}

void prof_script_init(struct profile *p, const struct smpl_header *h)
{
	struct prof_script *sc = &p->script;
	bool tracepoints = false;

	for (size_t i = 0; i < p->n_ev; i++) {
		int len = (int)strlen(p->ev[i].name);

		sc->name_width = len > sc->name_width ? len : sc->name_width;
		tracepoints = tracepoints || p->ev[i].tracepoint;
	}
	if (tracepoints && h->tracing_size) {
		struct pf_error why;

		sc->trace = trace_format_new(h->tracing_data, h->tracing_size, &why);
		if (!sc->trace)
			sc->trace_error = xstrdup(why.msg);
	}
}

/* a tracepoint's raw record, kept to be printed at the end, when the
 * kernel's symbols are known (%pS in print formats); 8-byte aligned, as
 * in its sample */
static void add_payload(struct prof_script *sc, const struct sample *s, struct prof_script_sample *e)
{
	static const char zeros[8];

	if (!trace_format_knows(sc->trace, s->raw, s->raw_size))
		return;
	strbuf_add(&sc->text, zeros, (8 - sc->text.len % 8) % 8);
	e->payload = true;
	e->payload_at = sc->text.len;
	e->payload_len = s->raw_size;
	strbuf_add(&sc->text, s->raw, s->raw_size);
}

/* %pS in a print format: the kernel's symbols, when they name this
 * recording's kernel */
static const char *kernel_name(void *arg, uint64_t addr, uint64_t *start, const char **module)
{
	struct profile *p = arg;
	const struct sym_result *r = p->kernel_named ? sym_resolve_kernel(p->res, addr) : NULL;

	if (!r || !r->func)
		return NULL;
	*start = addr - r->offset;
	*module = r->module;
	return r->func;
}

/* perf script prints the attribute's period when the samples carry none
 * (a fixed period: perf record -c, pfmon's --long-smpl-periods) */
static uint64_t sample_period(const struct profile *p, const struct sample *s)
{
	if (s->fields & SAMPLE_F_PERIOD)
		return s->period;
	if (s->evidx < p->n_ev && !p->ev[s->evidx].freq && p->ev[s->evidx].period)
		return p->ev[s->evidx].period;
	return 1;
}

void prof_add_script(struct profile *p, const struct sample *s)
{
	struct prof_script *sc = &p->script;
	struct prof_script_sample *e;
	uint8_t cpumode = s->cpumode;
	uint64_t comm;

	if (sc->n == sc->cap) {
		sc->cap = sc->cap ? sc->cap * 2 : 1024;
		sc->samples = xrealloc(sc->samples, sc->cap * sizeof(*sc->samples));
	}
	e = &sc->samples[sc->n++];
	/* the thread's name when the sample was taken (profile_stacks.c keeps
	 * them from COMM and FORK records) */
	if (s->pid == 0 && (s->fields & SAMPLE_F_TID))
		comm = UINT32_MAX; /* named at the end: the idle task's or not */
	else
		comm = u64set_get(&p->task_comm, s->tid, &comm) ? comm + 1 : 0;
	*e = (struct prof_script_sample){ .fields = s->fields, .evidx = s->evidx, .tid = s->tid,
					  .cpu = s->cpu, .time = s->time, .period = sample_period(p, s),
					  .comm = (uint32_t)comm, .first = sc->n_frames,
					  .chain = (s->fields & (SAMPLE_F_CALLCHAIN | SAMPLE_F_USER_STACK)) != 0 };
	if (s->evidx < p->n_ev && p->ev[s->evidx].raw) {
		e->addr = s->addr;
		e->data_src = s->data_src;
		e->weight = s->weight;
		e->ins_lat = s->ins_lat;
		e->phys_addr = s->phys_addr;
	}
	if (sc->trace && s->raw_size && s->evidx < p->n_ev && p->ev[s->evidx].tracepoint)
		add_payload(sc, s, e);
	if (s->fields & SAMPLE_F_USER_STACK) {
		add_unwound(p, s);
		e->n = (uint32_t)(sc->n_frames - e->first);
		return;
	}
	for (uint32_t i = 0; e->chain && i < s->callchain_nr; i++) {
		uint64_t ip = s->callchain[i];

		if (ip >= (uint64_t)PERF_CONTEXT_MAX)
			cpumode = prof_context_cpumode(ip);
		else
			add_frame(p, cpumode, s->pid, ip, true);
	}
	if (sc->n_frames == e->first)
		add_frame(p, s->cpumode, s->pid, s->ip, e->chain);
	e->n = (uint32_t)(sc->n_frames - e->first);
}

/* "symbol+0xoff (binary)", perf's "[unknown] (binary)" without a symbol */
static void frame_text(struct profile *p, const struct prof_frame *f, struct strbuf *sb)
{
	const struct sym_result *r = f->res;

	if (f->kind == FRAME_UNWIND_END) { /* as folded stacks name it, a frame for stackcollapse */
		strbuf_addf(sb, "[unwind: %s] ([unknown])", sym_unwind_end_name((enum sym_unwind_end)f->addr));
		return;
	}
	if (f->kind == FRAME_KERNEL) {
		r = p->kernel_named ? sym_resolve_kernel(p->res, f->addr) : NULL;
		if (r && r->func)
			strbuf_addf(sb, "%s+0x%llx", r->func, (unsigned long long)r->offset);
		else
			strbuf_addstr(sb, "[unknown]");
		strbuf_addstr(sb, r && r->module ? " ([" : " ([kernel.kallsyms]");
		if (r && r->module)
			strbuf_addf(sb, "%s]", r->module);
		strbuf_addch(sb, ')');
		return;
	}
	if (f->kind != FRAME_USER) {
		strbuf_addstr(sb, "[unknown] ([guest.kernel.kallsyms])");
		return;
	}
	if (r && r->func && !r->wrong_file)
		strbuf_addf(sb, "%s+0x%llx", r->func, (unsigned long long)r->offset);
	else
		strbuf_addstr(sb, "[unknown]");
	strbuf_addf(sb, " (%s)", r && r->binary ? r->binary : "[unknown]");
}

static void print_start(const struct profile *p, const struct prof_script_sample *e, FILE *out)
{
	const char *comm = e->comm && e->comm <= p->n_comms ? p->comms[e->comm - 1] : NULL;

	if (e->comm == UINT32_MAX)
		comm = prof_pid0_name(p);
	char unknown[16];

	if (!comm) {
		snprintf(unknown, sizeof(unknown), ":%u", e->tid);
		comm = unknown;
	}
	/* perf pads the name only when the frames follow on one line */
	fprintf(out, e->chain ? "%s " : "%16s ", comm);
	fprintf(out, "%5u ", e->tid);
	if (e->fields & SAMPLE_F_CPU)
		fprintf(out, "[%03u] ", e->cpu);
	if (e->fields & SAMPLE_F_TIME)
		fprintf(out, "%5llu.%06llu: ", (unsigned long long)(e->time / 1000000000ull),
			(unsigned long long)(e->time % 1000000000ull / 1000));
	if (!e->payload)
		fprintf(out, "%10llu ", (unsigned long long)e->period);
	fprintf(out, "%*s: ", p->script.name_width, e->evidx < p->n_ev ? p->ev[e->evidx].name : "?");
}

/* perf's "%16llx |OP ...|LVL ...|SNP ...|TLB ...|LCK ...|BLK  ...", in
 * its buffer of 100 bytes (cut at 99), padded to the widest yet: perf
 * keeps that width from sample to sample */
static void print_data_src(struct prof_script *sc, uint64_t v, FILE *out)
{
	static const struct {
		const char *label;
		enum data_src_part part;
	} parts[] = {
		{ "|OP ", DATA_SRC_PART_OP },    { "|LVL ", DATA_SRC_PART_MEM },	{ "|SNP ", DATA_SRC_PART_SNOOP },
		{ "|TLB ", DATA_SRC_PART_TLB },  { "|LCK ", DATA_SRC_PART_LOCK }, { "|BLK  ", DATA_SRC_PART_BLOCKED },
	};
	struct strbuf sb = STRBUF_INIT;
	int len;

	strbuf_addf(&sb, "%16llx ", (unsigned long long)v);
	for (size_t i = 0; i < ARRAY_SIZE(parts); i++) {
		strbuf_addstr(&sb, parts[i].label);
		data_src_name(&sb, v, parts[i].part);
	}
	len = sb.len > 99 ? 99 : (int)sb.len;
	sc->data_src_width = len > sc->data_src_width ? len : sc->data_src_width;
	fprintf(out, "%-*.*s", sc->data_src_width, len, strbuf_str(&sb));
	strbuf_release(&sb);
}

/* a PERF_TYPE_RAW event's fields before its frames, as perf script's
 * defaults for that type print them */
static void print_memory(struct prof_script *sc, const struct prof_script_sample *e, FILE *out)
{
	if (e->fields & SAMPLE_F_ADDR)
		fprintf(out, "%16llx", (unsigned long long)e->addr);
	if (e->fields & SAMPLE_F_DATA_SRC)
		print_data_src(sc, e->data_src, out);
	if (e->fields & SAMPLE_F_WEIGHT)
		fprintf(out, "%16llu", (unsigned long long)e->weight);
	if (e->fields & SAMPLE_F_INS_LAT)
		fprintf(out, "%16u", (unsigned)(uint16_t)e->ins_lat);
}

void prof_print_script(struct profile *p, FILE *out)
{
	struct strbuf sb = STRBUF_INIT;

	if (p->script.trace)
		trace_format_kernel_names(p->script.trace, kernel_name, p);
	for (size_t i = 0; i < p->script.n; i++) {
		const struct prof_script_sample *e = &p->script.samples[i];

		bool raw = e->evidx < p->n_ev && p->ev[e->evidx].raw;

		print_start(p, e, out);
		if (raw)
			print_memory(&p->script, e, out);
		if (e->payload) {
			/* perf script's tracepoint line: the payload, then the
			 * frames only of a call chain */
			strbuf_reset(&sb);
			trace_format_payload(p->script.trace, p->script.text.buf + e->payload_at,
					     (uint32_t)e->payload_len, e->cpu, &sb);
			fprintf(out, "%s\n", strbuf_str(&sb));
			if (!e->chain)
				continue;
		} else if (e->chain) {
			fputc('\n', out);
		}
		for (uint32_t j = 0; j < e->n; j++) {
			const struct prof_frame *f = &p->script.frames[e->first + j];
			/* a marker has no ip: why the unwinding ended is in its addr */
			uint64_t ip = f->kind == FRAME_UNWIND_END ? 0 : f->addr;

			strbuf_reset(&sb);
			frame_text(p, f, &sb);
			fprintf(out, e->chain ? "\t%16llx %s\n" : " %16llx %s", (unsigned long long)ip,
				strbuf_str(&sb));
		}
		if (raw && (e->fields & SAMPLE_F_PHYS_ADDR))
			fprintf(out, "%16llx", (unsigned long long)e->phys_addr);
		fputc('\n', out); /* the blank line after a call chain */
	}
	strbuf_release(&sb);
}

void prof_script_release(struct prof_script *sc)
{
	free(sc->samples);
	free(sc->frames);
	strbuf_release(&sc->text);
	trace_format_free(sc->trace);
	free(sc->trace_error);
}
