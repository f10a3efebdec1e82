/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Call stacks (-g) for folded stacks and the flame graph.  A stack is typed
 * as its sample comes, leaf first, and ends with the process it ran in: the
 * root frame, perf's habit, so a flame graph has one base per program.  It
 * is named when the profile is finished; a frame without a symbol is named
 * after its binary alone, "[unknown] (libfoo.so)", so that unknown frames of
 * one binary add up instead of each address being a frame of its own.
 */
#include <config.h>

#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "flame.h"
#include "profile_internal.h"

/* frames of a sample: the kernel's deepest chain and the process's name */
#define STACK_MAX (PERF_MAX_STACK_DEPTH + 1)

/* ---- process names: the comm of each thread, as records say ---- */

static uint32_t comm_index(struct profile *p, const char *name)
{
	uint64_t id = strmap_get(&p->comm_ids, name);

	if (id)
		return (uint32_t)(id - 1);
	XGROW(p->comms, p->cap_comms, p->n_comms);
	p->comms[p->n_comms++] = xstrdup(name);
	strmap_add(&p->comm_ids, name, p->n_comms); /* index + 1: 0 is absent */
	return (uint32_t)(p->n_comms - 1);
}

void prof_set_comm(struct profile *p, uint32_t tid, const char *comm)
{
	u64set_put(&p->task_comm, tid, comm_index(p, comm ? comm : ""));
}

/* a new task is named as the one that created it until it says otherwise */
void prof_fork_comm(struct profile *p, uint32_t ptid, uint32_t tid)
{
	uint64_t idx;

	if (u64set_get(&p->task_comm, ptid, &idx))
		u64set_put(&p->task_comm, tid, idx);
}

const char *prof_pid0_name(const struct profile *p)
{
	return p->pid0_shared ? PROF_PID0_SHARED : "swapper";
}

const char *prof_comm_of(const struct profile *p, uint32_t pid)
{
	uint64_t idx;

	if (pid == 0) /* no record names it (profile.c, pid0_record()) */
		return prof_pid0_name(p);
	return u64set_get(&p->task_comm, pid, &idx) ? p->comms[idx] : NULL;
}

/* The root frame: the thread's name, else its process's; a task whose
 * name no record gave is ":PID", as perf shows it.  A profile by process
 * roots each process apart: "command-PID" (stackcollapse-perf.pl --pid),
 * ":PID-PID" for an unnamed one, never a bare "-PID". */
static struct prof_frame process_frame(struct profile *p, const struct sample *s)
{
	uint64_t idx;
	char name[64], unnamed[16];
	bool named = u64set_get(&p->task_comm, s->tid, &idx) || u64set_get(&p->task_comm, s->pid, &idx);

	if (s->pid == 0) /* named at the end, when it is known whom pid 0 stands for */
		return (struct prof_frame){ FRAME_COMM, NULL, PROF_COMM_PID0 };
	snprintf(unnamed, sizeof(unnamed), ":%u", s->pid);
	if (p->opts.by_process) {
		/* the name is copied before comm_index() can move the names */
		snprintf(name, sizeof(name), "%s-%u", named ? p->comms[idx] : unnamed, s->pid);
		idx = comm_index(p, name);
	} else if (!named) {
		idx = comm_index(p, unnamed);
	}
	return (struct prof_frame){ FRAME_COMM, NULL, idx };
}

void prof_release_comms(struct profile *p)
{
	for (size_t i = 0; i < p->n_comms; i++)
		free(p->comms[i]);
	free(p->comms);
	strmap_release(&p->comm_ids);
	u64set_release(&p->task_comm);
}

/* ---- typed stacks, as samples come ---- */

uint8_t prof_context_cpumode(uint64_t marker)
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

/* Frames of a sample, leaf first, each with where it ran; guest kernel
 * frames in a row are one. */
static size_t sample_frames(struct profile *p, const struct sample *s, struct prof_frame *f, size_t max)
{
	enum frame_kind kind = prof_frame_kind(s->cpumode);
	size_t n = 0;

	for (uint32_t i = 0; (s->fields & SAMPLE_F_CALLCHAIN) && i < s->callchain_nr && n < max; i++) {
		uint64_t ip = s->callchain[i];

		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			kind = prof_frame_kind(prof_context_cpumode(ip));
			continue;
		}
		if (kind == FRAME_USER)
			f[n++] = prof_user_frame(p, s->pid, ip, false);
		else if (kind == FRAME_KERNEL)
			f[n++] = (struct prof_frame){ FRAME_KERNEL, NULL, ip };
		else if (!n || f[n - 1].kind != kind)
			f[n++] = (struct prof_frame){ kind, NULL, 0 };
	}
	if (n == 0) {
		kind = prof_frame_kind(s->cpumode);
		if (kind == FRAME_USER)
			f[n++] = prof_user_frame(p, s->pid, s->ip, false);
		else
			f[n++] = (struct prof_frame){ kind, NULL, kind == FRAME_KERNEL ? s->ip : 0 };
	}
	return n;
}

/* The memory keys asked for are the stack's leaves: "prog;main;load;L3 miss" */
struct prof_entry *prof_add_stack(struct profile *p, struct prof_keymap *m, const struct sample *s, uint64_t count)
{
	struct prof_frame f[PROFILE_MAX_KEYS + STACK_MAX + 1];
	size_t n = prof_mem_frames(p, s, f);

	/* --call-graph=dwarf: the user frames are unwound from the stack copy */
	n += s->fields & SAMPLE_F_USER_STACK ? prof_unwound_frames(p, s, false, f + n, STACK_MAX)
					     : sample_frames(p, s, f + n, STACK_MAX);

	f[n++] = process_frame(p, s);
	return prof_keymap_add(m, f, (uint32_t)n, count);
}

/* ---- naming, once the kernel's symbols are known ---- */

/* a stack named root first: the names one after the other, each ended by a NUL */
struct named_stack {
	struct strbuf text;
	size_t start[PROFILE_MAX_KEYS + STACK_MAX + 1];
	struct flame_frame f[PROFILE_MAX_KEYS + STACK_MAX + 1];
	size_t n;
};

/* Where an unknown frame ran: a file's base name, or a mapping's own name
 * when it is not a file ("[vdso]", "//anon"). */
static const char *binary_name(const char *path)
{
	if (path[0] != '/' || path[1] == '/')
		return path;
	return prof_base_name(path);
}

/* A name made one folded frame: ';' separates frames, so a name's own
 * (a crafted comm, say) becomes ':'; a process name's blanks become '_',
 * as perf's stackcollapse has them. */
static void add_frame_text(struct strbuf *sb, const char *s, bool process)
{
	for (; *s; s++)
		strbuf_addch(sb, *s == ';' ? ':' : (process && *s == ' ') ? '_' : *s);
}

/* One frame's name into out, and what it is (for the flame graph's
 * colours): the binary's or module's name where it has one. */
static enum flame_kind name_frame(const struct profile *p, const struct prof_frame *f, struct strbuf *out,
				  const char **binary)
{
	const struct sym_result *r = f->res;

	*binary = NULL;
	switch (f->kind) {
	case FRAME_COMM:
		if (f->addr != PROF_COMM_PID0)
			add_frame_text(out, p->comms[f->addr], true);
		else
			add_frame_text(out, prof_pid0_name(p), true);
		if (f->addr == PROF_COMM_PID0 && p->opts.by_process)
			strbuf_addstr(out, "-0");
		return FLAME_PROCESS;
	case FRAME_USER:
		if (!r || !r->binary) {
			strbuf_addstr(out, "[unknown]");
			return FLAME_UNKNOWN;
		}
		if (r->wrong_file || !r->func) {
			*binary = binary_name(r->binary);
			strbuf_addstr(out, "[unknown] (");
			add_frame_text(out, *binary, false);
			strbuf_addch(out, ')');
			return FLAME_UNKNOWN;
		}
		*binary = prof_base_name(r->binary);
		add_frame_text(out, r->func, false);
		return FLAME_USER;
	case FRAME_KERNEL:
		if (!p->kernel_named) {
			strbuf_addstr(out, "[kernel]");
			return FLAME_KERNEL;
		}
		r = sym_resolve_kernel(p->res, f->addr);
		*binary = r->module ? r->module : "[kernel]";
		if (!r->func) {
			strbuf_addstr(out, "[unknown] ([kernel])");
			return FLAME_UNKNOWN;
		}
		add_frame_text(out, r->func, false);
		if (r->module) {
			strbuf_addstr(out, " [");
			add_frame_text(out, r->module, false);
			strbuf_addch(out, ']');
		}
		return FLAME_KERNEL;
	case FRAME_MEM:
	case FRAME_SNOOP:
	case FRAME_TLB:
	case FRAME_LOCK:
	case FRAME_BLOCKED:
	case FRAME_WEIGHT:
	case FRAME_TYPE:
	case FRAME_TYPEOFF:
	case FRAME_P_STAGE_CYC: {
		struct strbuf name = STRBUF_INIT;

		prof_mem_frame_name(f, &name);
		add_frame_text(out, strbuf_str(&name), false);
		strbuf_release(&name);
		return FLAME_USER;
	}
	case FRAME_UNWIND_END: /* why an unwound stack ends before its outermost frame */
		strbuf_addf(out, "[unwind: %s]", sym_unwind_end_name((enum sym_unwind_end)f->addr));
		return FLAME_UNKNOWN;
	default:
		strbuf_addstr(out, "[guest kernel]");
		return FLAME_KERNEL;
	}
}

void prof_stack_frame_name(const struct profile *p, const struct prof_frame *f, struct strbuf *out)
{
	const char *binary;

	name_frame(p, f, out, &binary);
}

/* Root first; kernel frames that cannot be named are one [kernel] lump. */
static void name_stack(const struct profile *p, const struct prof_entry *e, struct named_stack *ns)
{
	bool lumped = false;

	strbuf_reset(&ns->text);
	ns->n = 0;
	for (uint32_t i = e->n; i-- > 0;) {
		const struct prof_frame *f = &e->frames[i];
		bool lump = f->kind == FRAME_KERNEL && !p->kernel_named;

		if (lump && lumped)
			continue;
		lumped = lump;
		ns->start[ns->n] = ns->text.len;
		ns->f[ns->n].kind = name_frame(p, f, &ns->text, &ns->f[ns->n].binary);
		strbuf_add(&ns->text, "", 1); /* the NUL that ends this name */
		ns->n++;
	}
	for (size_t i = 0; i < ns->n; i++)
		ns->f[i].name = ns->text.buf + ns->start[i];
}

/* the folded line's stack: the names joined by ';' */
static void fold(const struct named_stack *ns, struct strbuf *out)
{
	strbuf_reset(out);
	for (size_t i = 0; i < ns->n; i++) {
		if (i)
			strbuf_addch(out, ';');
		strbuf_addstr(out, ns->f[i].name);
	}
}

/* JSON shows each named stack's frames: one typed stack stands for it */
static void keep_stack_rep(struct profile *p, const char *name, struct prof_entry *e)
{
	size_t at = strmap_get(&p->stack_index, name);
	struct prof_stack *rep;

	if (!at) {
		XGROW(p->stack_reps, p->cap_stack_reps, p->n_stack_reps);
		at = ++p->n_stack_reps;
		strmap_add(&p->stack_index, name, at);
		p->stack_reps[at - 1] = (struct prof_stack){ 0 };
	} else if (!prof_stands_first(e->frames, e->n, e->count, p->stack_reps[at - 1].frames,
				      p->stack_reps[at - 1].n, p->stack_reps[at - 1].count)) {
		return;
	}
	rep = &p->stack_reps[at - 1];
	free(rep->frames);
	*rep = (struct prof_stack){ e->frames, e->n, e->count };
	e->frames = NULL; /* now the stack_reps' */
}

void prof_name_stacks(struct profile *p)
{
	struct named_stack *ns = xcalloc(1, sizeof(*ns));
	struct strbuf key = STRBUF_INIT;
	struct prof_entry *e;

	if (p->opts.format == PROFILE_SVG)
		p->flame = flame_new();
	for (size_t i = 0; (e = prof_keymap_next(&p->stacks, &i));) {
		name_stack(p, e, ns);
		if (p->flame) {
			flame_add(p->flame, ns->f, ns->n, e->count);
			continue;
		}
		fold(ns, &key);
		strmap_add(&p->folded, strbuf_str(&key), e->count);
		if (p->opts.format == PROFILE_JSON)
			keep_stack_rep(p, strbuf_str(&key), e);
	}
	strbuf_release(&ns->text);
	free(ns);
	strbuf_release(&key);
	prof_keymap_release(&p->stacks);
}
