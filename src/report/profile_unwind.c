/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Call stacks of --call-graph=dwarf samples: the kernel's call chain gives
 * the kernel frames (it was asked for those only: exclude_callchain_user),
 * the symbol layer's unwinder the user frames from the registers and stack
 * copied with the sample.  Unwinding happens here, as records come in
 * order, so each sample is unwound in the address space it was taken in.
 */
#include <config.h>

#include <linux/perf_event.h>

#include "profile_internal.h"

/* the kernel part of a call chain, leaf first; guest kernel frames in a row are one */
static size_t kernel_frames(const struct sample *s, struct prof_frame *f, size_t max)
{
	enum frame_kind kind = prof_frame_kind(s->cpumode);
	size_t n = 0;

	for (uint32_t i = 0; (s->fields & SAMPLE_F_CALLCHAIN) && i < s->callchain_nr && n < max; i++) {
		uint64_t ip = s->callchain[i];

		if (ip >= (uint64_t)PERF_CONTEXT_MAX)
			kind = prof_frame_kind(prof_context_cpumode(ip));
		else if (kind == FRAME_KERNEL)
			f[n++] = (struct prof_frame){ FRAME_KERNEL, NULL, ip };
		else if (kind == FRAME_GUEST_KERNEL && (!n || f[n - 1].kind != kind))
			f[n++] = (struct prof_frame){ kind, NULL, 0 };
	}
	if (!n && prof_frame_kind(s->cpumode) == FRAME_KERNEL)
		f[n++] = (struct prof_frame){ FRAME_KERNEL, NULL, s->ip };
	return n;
}

size_t prof_unwound_frames(struct profile *p, const struct sample *s, bool show_ip, struct prof_frame *f,
			   size_t max)
{
	uint64_t pcs[PERF_MAX_STACK_DEPTH];
	struct sym_user_state st = { .pid = s->pid, .tid = s->tid, .abi = s->regs_abi,
				     .regs_mask = s->regs_mask, .regs = s->regs,
				     .stack = s->stack, .stack_size = s->stack_size };
	struct sym_unwind_result res;
	size_t n = kernel_frames(s, f, max);
	uint32_t room;

	if (!s->regs_abi || n + 2 > max) /* no user context (a kernel thread), or no room */
		goto done;
	if (!p->unwinder)
		p->unwinder = sym_unwinder_new(p->res);
	room = (uint32_t)(max - n - 1); /* one left for the marker */
	if (room > PERF_MAX_STACK_DEPTH)
		room = PERF_MAX_STACK_DEPTH;
	sym_unwind(p->unwinder, &st, pcs, room, &res);
	if (!res.n && prof_frame_kind(s->cpumode) == FRAME_USER)
		f[n++] = prof_user_frame(p, s->pid, s->ip, show_ip); /* where it stopped at once */
	for (uint32_t i = 0; i < res.n; i++)
		f[n++] = prof_user_frame(p, s->pid, pcs[i], show_ip);
	if (res.end != SYM_UNWIND_COMPLETE)
		f[n++] = (struct prof_frame){ FRAME_UNWIND_END, NULL, res.end };
done:
	if (!n) /* nothing unwound: the sampled ip on its own */
		f[n++] = prof_frame_kind(s->cpumode) == FRAME_USER
				 ? prof_user_frame(p, s->pid, s->ip, show_ip)
				 : (struct prof_frame){ prof_frame_kind(s->cpumode), NULL, 0 };
	return n;
}
