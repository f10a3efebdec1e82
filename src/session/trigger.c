/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Triggers: counting switched on and off at given code addresses (each
 * execution) and data addresses (each access) of the launched program.
 *
 * Why ptrace, int3 and debug registers: only pfmon can enable or disable
 * the counters it opened (an ioctl on their fds), and it must do so while
 * the program is stopped at the address, or the count would include what
 * runs until pfmon gets there.  pfmon 3.x stopped the task at a
 * debug-register breakpoint; perf's breakpoint events cannot stop a task
 * (their signals go to the task itself).  So the command is traced:
 *
 *   code  an int3 byte replaces the first byte of the instruction at each
 *         address.  The trap stops the task after the int3, before the
 *         instruction: pfmon switches the counters, puts the byte back,
 *         rewinds the ip and, to keep a repeating trigger, single-steps
 *         that one instruction and writes the int3 again.  Unlike the four
 *         debug registers, there is no limit on the number of addresses,
 *         and it works where the hypervisor drops debug exceptions.
 *   data  a debug register (DR0-DR3, through PTRACE_POKEUSER) watches the
 *         address; x86 data breakpoints are traps: the task stops after
 *         the instruction that made the access.
 *
 * The program's addresses are known after its exec, and its libraries'
 * after the dynamic loader has run: a first breakpoint at the program's
 * entry point (AT_ENTRY) is where the triggers are resolved and set.
 *
 * pfmon 3.x's dynamic stop: a code start and stop at the same address (a
 * function) stops counting when that call returns: at the start hit the
 * return address on the stack gets a one-shot breakpoint, which acts when
 * the stack is back at the caller's frame (a recursive call's return does
 * not).
 *
 * Only the command's first task acts on triggers unless --trigger-*-follow;
 * the other tasks step over the int3s transparently.  A process it forks
 * gets a copy of the text with the int3s: unless followed, they are
 * removed from the copy and pfmon lets it go.
 */
#include <config.h>

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>
#if defined(__x86_64__)
#include <elf.h>
#include <sys/user.h>
#include <linux/kcmp.h>
#include <asm/processor-flags.h>
#endif

#include "common/util.h"
#include "kernel/perf.h"
#include "procfs.h"
#include "session_int.h"

#define NO_BP ((size_t)-1)

enum bp_role {
	BP_ENTRY,  /* the program's entry point: the triggers are set there */
	BP_START,
	BP_STOP,
	BP_RETURN, /* the return address of a start that is also its stop */
};

struct trig_bp {
	uint64_t addr;
	uint8_t orig;      /* the byte the int3 replaces */
	enum bp_role role;
	bool repeat;       /* stays armed after it acts */
	bool to_return;    /* a start whose stop is the call's return */
	size_t trig, stop_trig; /* the trigger options it stands for (index in its kind; NO_BP: none) */
};

/* one address space (a process, with its threads and vfork children) */
struct trig_space {
	pid_t tgid;
	bool *armed;          /* per breakpoint: its int3 is in this text */
	size_t ret_bp;        /* the BP_RETURN breakpoint armed, or NO_BP */
	uint64_t ret_sp;      /* the stack pointer after that return */
};

struct trig_thread {
	pid_t tid;
	size_t space;
	bool acts;            /* its hits switch the counters */
	size_t stepping;      /* the breakpoint it is single-stepping over, or NO_BP */
	uint64_t dr7;         /* its debug-register triggers (0: none) */
	uint64_t ret_sp;      /* DR_RETURN: the stack pointer after that return */
	uint64_t ret_addr;    /* DR_RETURN: the address its debug register holds */
	bool in_call;         /* DR_RETURN: a window waits for that return */
};

/* what a debug register does */
enum dr_role {
	DR_CODE_START,
	DR_CODE_STOP,
	DR_RETURN,   /* the return of a code start that is also its stop */
	DR_DATA_START,
	DR_DATA_STOP,
};

#define DR_SLOTS SESSION_MAX_DATA_TRIGGERS

struct dr_slot {
	enum dr_role role;
	bool to_return;  /* DR_CODE_START: its stop is the call's return */
	uint64_t ctl;    /* its RW and LEN bits in DR7 */
	size_t trig, stop_trig; /* as in struct trig_bp */
};

struct trig_state {
	struct trig_bp *bps;
	size_t n_bps;
	struct trig_space *spaces;
	size_t n_spaces;
	struct trig_thread *threads;
	size_t n_threads, cap_threads;
	pid_t *born;          /* new tasks stopped before their parent's event */
	size_t n_born, cap_born;
	bool resolved;        /* the entry point was reached */
	pid_t command;
	/* data triggers: slot i of the debug registers */
	/* the debug registers: data triggers, and code triggers when they fit */
	struct dr_slot slot[DR_SLOTS];
	uint64_t dr_addr[DR_SLOTS];
	size_t n_dr;
	uint64_t dr7;         /* as set at the entry point (a followed task starts with it) */
	bool code_in_dr;      /* code triggers are debug registers, not int3s */
	bool *reached[STRG_KINDS]; /* per trigger option: its address was executed or accessed */
	/* per event: what an execute breakpoint counted at a code trigger's
	 * own address is corrected by (see switch_at) */
	int64_t *bp_fix;
};

bool session_triggers_any(const struct session_triggers *t)
{
	for (int k = 0; k < STRG_KINDS; k++)
		if (t->n[k])
			return true;
	return false;
}

void sess_trig_init(struct session *s)
{
	if (!session_triggers_any(&s->opts.triggers))
		return;
	s->trig = xcalloc(1, sizeof(*s->trig));
	for (int k = 0; k < STRG_KINDS; k++)
		s->trig->reached[k] = xcalloc(s->opts.triggers.n[k] + 1, sizeof(bool));
	s->trig->bp_fix = xcalloc(s->n_events + 1, sizeof(*s->trig->bp_fix));
}

void sess_trig_fix_counts(const struct session *s, struct session_count *counts)
{
	for (size_t e = 0; s->trig && e < s->n_events; e++)
		if (counts[e].opened)
			counts[e].value = s->trig->bp_fix[e] < 0 && counts[e].value < (uint64_t)-s->trig->bp_fix[e]
						  ? 0
						  : counts[e].value + (uint64_t)s->trig->bp_fix[e];
}

bool session_trigger_reached(const struct session *s, enum session_trigger_kind kind, size_t i)
{
	/* not set (the command ended before its entry point): nothing to say */
	return !s->trig || !s->trig->resolved || s->trig->reached[kind][i];
}

/* the trigger options trig (and stop_trig, when it is a start that is also its stop) were reached */
static inline void note_reached(struct trig_state *t, bool start, size_t trig, size_t stop_trig, bool code)
{
	if (trig != NO_BP)
		t->reached[code ? (start ? STRG_CODE_START : STRG_CODE_STOP) : (start ? STRG_DATA_START : STRG_DATA_STOP)]
			  [trig] = true;
	if (stop_trig != NO_BP)
		t->reached[STRG_CODE_STOP][stop_trig] = true;
}

void sess_trig_free(struct session *s)
{
	struct trig_state *t = s->trig;

	if (!t)
		return;
	for (size_t i = 0; i < t->n_spaces; i++)
		free(t->spaces[i].armed);
	free(t->spaces);
	free(t->threads);
	free(t->bps);
	free(t->born);
	for (int k = 0; k < STRG_KINDS; k++)
		free(t->reached[k]);
	free(t->bp_fix);
	free(t);
	s->trig = NULL;
}

size_t sess_trig_processes(const struct session *s, pid_t **out)
{
	const struct trig_state *t = s->trig;

	*out = xcalloc(t->n_spaces + 1, sizeof(**out));
	for (size_t i = 0; i < t->n_spaces; i++)
		(*out)[i] = t->spaces[i].tgid;
	return t->n_spaces;
}

#if defined(__x86_64__)

bool session_triggers_supported(void)
{
	return true;
}

static int ptrace_error(const char *what, struct pf_error *err)
{
	return pf_error_set(err, PF_E_SYSTEM, what, strerror(errno));
}

/* ----- registry of spaces and threads ----- */

static struct trig_thread *thread_of(struct trig_state *t, pid_t tid)
{
	for (size_t i = 0; i < t->n_threads; i++)
		if (t->threads[i].tid == tid)
			return &t->threads[i];
	return NULL;
}

static size_t add_space(struct trig_state *t, pid_t tgid, const bool *armed_from)
{
	struct trig_space *sp;

	t->spaces = xrealloc(t->spaces, (t->n_spaces + 1) * sizeof(*t->spaces));
	sp = &t->spaces[t->n_spaces];
	sp->tgid = tgid;
	sp->armed = xcalloc(t->n_bps + 1, sizeof(*sp->armed));
	if (armed_from)
		memcpy(sp->armed, armed_from, t->n_bps * sizeof(*sp->armed));
	sp->ret_bp = NO_BP;
	sp->ret_sp = 0;
	return t->n_spaces++;
}

static struct trig_thread *add_thread(struct trig_state *t, pid_t tid, size_t space, bool acts)
{
	struct trig_thread *th;

	XGROW(t->threads, t->cap_threads, t->n_threads);
	th = &t->threads[t->n_threads++];
	*th = (struct trig_thread){ .tid = tid, .space = space, .acts = acts, .stepping = NO_BP };
	return th;
}

/* a breakpoint more (every space's armed[] grows with it) */
static size_t add_bp(struct trig_state *t, uint64_t addr, enum bp_role role, bool repeat)
{
	t->bps = xrealloc(t->bps, (t->n_bps + 1) * sizeof(*t->bps));
	t->bps[t->n_bps] = (struct trig_bp){ .addr = addr, .role = role, .repeat = repeat, .trig = NO_BP,
					     .stop_trig = NO_BP };
	for (size_t i = 0; i < t->n_spaces; i++) {
		t->spaces[i].armed = xrealloc(t->spaces[i].armed, (t->n_bps + 2) * sizeof(bool));
		t->spaces[i].armed[t->n_bps] = false;
	}
	return t->n_bps++;
}

static size_t find_bp(const struct trig_state *t, const struct trig_space *sp, uint64_t addr)
{
	for (size_t i = 0; i < t->n_bps; i++)
		if (t->bps[i].addr == addr && sp->armed[i])
			return i;
	return NO_BP;
}

/* ----- the text: int3 in, original byte back ----- */

static int poke_byte(pid_t tid, uint64_t addr, uint8_t byte, uint8_t *old, struct pf_error *err)
{
	uint64_t base = addr & ~(uint64_t)7;
	unsigned shift = (unsigned)(addr - base) * 8;
	long word;

	errno = 0;
	word = ptrace(PTRACE_PEEKTEXT, tid, (void *)base, 0);
	if (errno)
		return ptrace_error("ptrace(PTRACE_PEEKTEXT)", err);
	if (old)
		*old = (uint8_t)((unsigned long)word >> shift);
	word = (long)(((unsigned long)word & ~(0xfful << shift)) | ((unsigned long)byte << shift));
	if (ptrace(PTRACE_POKETEXT, tid, (void *)base, (void *)word))
		return ptrace_error("ptrace(PTRACE_POKETEXT)", err);
	return 0;
}

static int arm(struct trig_state *t, struct trig_space *sp, pid_t tid, size_t i, struct pf_error *err)
{
	uint8_t old;

	if (sp->armed[i])
		return 0;
	/* two breakpoints at one address share the int3: the original byte
	 * is the one under the first */
	for (size_t j = 0; j < t->n_bps; j++)
		if (j != i && sp->armed[j] && t->bps[j].addr == t->bps[i].addr) {
			t->bps[i].orig = t->bps[j].orig;
			sp->armed[i] = true;
			return 0;
		}
	if (poke_byte(tid, t->bps[i].addr, 0xcc, &old, err))
		return -1;
	t->bps[i].orig = old;
	sp->armed[i] = true;
	return 0;
}

/* the byte back unless another armed breakpoint shares the address */
static int disarm(struct trig_state *t, struct trig_space *sp, pid_t tid, size_t i, struct pf_error *err)
{
	if (!sp->armed[i])
		return 0;
	sp->armed[i] = false;
	for (size_t j = 0; j < t->n_bps; j++)
		if (sp->armed[j] && t->bps[j].addr == t->bps[i].addr)
			return 0;
	return poke_byte(tid, t->bps[i].addr, t->bps[i].orig, NULL, err);
}

/* the original byte under the int3 at addr, for stepping over it */
static int uncover(struct trig_state *t, pid_t tid, size_t i, struct pf_error *err)
{
	return poke_byte(tid, t->bps[i].addr, t->bps[i].orig, NULL, err);
}

/* ----- debug registers ----- */

#define DR_OFFSET(n) (offsetof(struct user, u_debugreg) + (n) * sizeof(long))
#define DR7_ENABLE(slot) (1ul << (2 * (slot)))
#define DR6_HITS 0xful

static uint64_t dr_len_bits(uint64_t size)
{
	switch (size) {
	case 2:
		return 1;
	case 4:
		return 3;
	case 8:
		return 2;
	default:
		return 0;
	}
}

static int set_debugregs(struct trig_state *t, pid_t tid, uint64_t dr7, const uint64_t *addrs,
			 struct pf_error *err)
{
	for (size_t i = 0; addrs && i < t->n_dr; i++)
		if (ptrace(PTRACE_POKEUSER, tid, (void *)DR_OFFSET(i), (void *)addrs[i]))
			return ptrace_error("ptrace(PTRACE_POKEUSER) of a debug register", err);
	if (ptrace(PTRACE_POKEUSER, tid, (void *)DR_OFFSET(7), (void *)dr7))
		return ptrace_error("ptrace(PTRACE_POKEUSER) of DR7", err);
	return 0;
}

/* ----- switching ----- */

static int resolve_one(struct session *s, pid_t pid, enum session_trigger_kind k, size_t i,
		       struct session_trigger_addr *a, struct pf_error *err)
{
	const struct session_triggers *o = &s->opts.triggers;

	memset(a, 0, sizeof(*a));
	return o->resolve(o->arg, pid, k, i, a, err);
}

/* a code trigger's address, resolved */
struct code_addr {
	uint64_t addr;
	bool start;
	bool to_return; /* a start whose stop is the call's return */
	size_t trig, stop_trig; /* its index among the starts (stops); the stop's when to_return */
};

#define DR7_RW_SHIFT(slot) (16 + 4 * (slot))
#define DR7_LEN_SHIFT(slot) (18 + 4 * (slot))

static size_t add_slot(struct trig_state *t, enum dr_role role, uint64_t addr, uint64_t ctl)
{
	size_t i = t->n_dr++;

	t->slot[i] = (struct dr_slot){ .role = role, .ctl = ctl, .trig = NO_BP, .stop_trig = NO_BP };
	t->dr_addr[i] = addr;
	return i;
}

/* Data triggers watch reads and writes (RW 11) or writes (01) of 1-8
 * aligned bytes; code triggers fault before the instruction (RW 00, LEN
 * 00), and the kernel resumes with RF set so it runs without a new fault. */
static int set_dr_triggers(struct session *s, pid_t tid, const struct code_addr *code, size_t n_code,
			   struct pf_error *err)
{
	const struct session_triggers *o = &s->opts.triggers;
	struct trig_state *t = s->trig;
	uint64_t rw = o->data_write_only ? 1 : 3;
	static const enum session_trigger_kind kinds[] = { STRG_DATA_START, STRG_DATA_STOP };
	bool returns = false;

	for (size_t i = 0; i < n_code; i++) {
		size_t k = add_slot(t, code[i].start ? DR_CODE_START : DR_CODE_STOP, code[i].addr, 0);

		t->slot[k].to_return = code[i].to_return;
		t->slot[k].trig = code[i].trig;
		t->slot[k].stop_trig = code[i].stop_trig;
		returns |= code[i].to_return;
		t->dr7 |= DR7_ENABLE(k);
	}
	if (returns)
		add_slot(t, DR_RETURN, 0, 0); /* armed at each start */
	for (size_t k = 0; k < 2; k++)
		for (size_t i = 0; i < o->n[kinds[k]]; i++) {
			struct session_trigger_addr a;
			size_t slot;

			if (t->n_dr >= DR_SLOTS) /* code triggers and a return watch take slots too */
				return pf_error_set(err, PF_E_TOO_MANY, (int)(n_code + returns + o->n[STRG_DATA_START] +
									 o->n[STRG_DATA_STOP]),
						    "debug register watches", DR_SLOTS, "debug registers of x86");
			if (resolve_one(s, tid, kinds[k], i, &a, err))
				return -1;
			slot = add_slot(t, kinds[k] == STRG_DATA_START ? DR_DATA_START : DR_DATA_STOP, a.addr,
					(rw << DR7_RW_SHIFT(t->n_dr)) | (dr_len_bits(a.size) << DR7_LEN_SHIFT(t->n_dr)));
			t->slot[slot].trig = i;
			t->dr7 |= DR7_ENABLE(slot);
		}
	for (size_t i = 0; i < t->n_dr; i++)
		t->dr7 |= t->slot[i].ctl;
	if (!t->n_dr)
		return 0;
	if (set_debugregs(t, tid, t->dr7, t->dr_addr, err))
		return -1;
	thread_of(t, tid)->dr7 = t->dr7;
	return 0;
}

/* is event e an execute breakpoint (mem:ADDR:x) at addr? */
static bool exec_breakpoint_at(const struct session *s, size_t e, uint64_t addr)
{
	const struct perf_event_attr *a = &s->events[e]->attr;

	return a->type == PERF_TYPE_BREAKPOINT && (a->bp_type & HW_BREAKPOINT_X) && a->bp_addr == addr;
}

/* an execute breakpoint sampled at a code trigger's address: its samples
 * there are taken under the counters' state before the switch, and a
 * sample cannot be corrected as a count is (switch_at) */
static int check_exec_breakpoints(const struct session *s, const struct code_addr *code, size_t n_code,
				  struct pf_error *err)
{
	for (size_t e = 0; s->plan && e < s->n_events; e++)
		for (size_t i = 0; i < n_code; i++)
			if (exec_breakpoint_at(s, e, code[i].addr))
				return pf_error_set(err, PF_E_TRIGGER_BP_SAMPLED, s->events[e]->name);
	return 0;
}

/*
 * The code addresses: a start and a stop at one address is a start whose
 * stop is the call's return (pfmon 3.x).  Into the debug registers when
 * they fire here and the code triggers fit beside the data ones (one more
 * for a return), as pfmon 3.x did: one stop per hit, nothing written into
 * the text.  Else int3s.
 */
static int set_triggers(struct session *s, pid_t tid, struct pf_error *err)
{
	const struct session_triggers *o = &s->opts.triggers;
	struct trig_state *t = s->trig;
	size_t n_start = o->n[STRG_CODE_START], n = n_start + o->n[STRG_CODE_STOP], n_code = 0, n_slots;
	struct code_addr *code = xcalloc(n + 1, sizeof(*code));
	bool returns = false;
	int rc = 0;

	for (size_t i = 0; i < n && !rc; i++) {
		struct session_trigger_addr a;
		bool start = i < n_start;

		rc = resolve_one(s, tid, start ? STRG_CODE_START : STRG_CODE_STOP, start ? i : i - n_start, &a, err);
		code[n_code] = (struct code_addr){ .addr = a.addr, .start = start, .trig = start ? i : i - n_start,
						   .stop_trig = NO_BP };
		for (size_t j = 0; !start && j < n_start; j++)
			if (code[j].addr == a.addr && !code[j].to_return) {
				code[j].to_return = true; /* dynamic: at each start */
				code[j].stop_trig = i - n_start;
				returns = true;
				n_code--;
				break;
			}
		n_code++;
	}
	if (!rc)
		rc = check_exec_breakpoints(s, code, n_code, err);
	n_slots = n_code + returns + o->n[STRG_DATA_START] + o->n[STRG_DATA_STOP];
	t->code_in_dr = n_code && n_slots <= DR_SLOTS && kperf_breakpoints_fire() == KPERF_BP_FIRE;
	if (!rc)
		rc = set_dr_triggers(s, tid, code, t->code_in_dr ? n_code : 0, err);
	for (size_t i = 0; i < n_code && !rc && !t->code_in_dr; i++) {
		size_t b = add_bp(t, code[i].addr, code[i].start ? BP_START : BP_STOP, o->code_repeat);

		t->bps[b].to_return = code[i].to_return;
		t->bps[b].trig = code[i].trig;
		t->bps[b].stop_trig = code[i].stop_trig;
		rc = arm(t, &t->spaces[0], tid, b, err);
	}
	free(code);
	return rc;
}

/* the triggers set in the command, stopped at its entry point */
static int resolve_and_set(struct session *s, pid_t tid, struct pf_error *err)
{
	struct trig_state *t = s->trig;

	t->resolved = true;
	return set_triggers(s, tid, err);
}

static int get_regs(pid_t tid, struct user_regs_struct *r, struct pf_error *err)
{
	if (ptrace(PTRACE_GETREGS, tid, 0, r))
		return ptrace_error("ptrace(PTRACE_GETREGS)", err);
	return 0;
}

/* a return breakpoint armed in no space, to use again (one per call
 * would grow the table with every window) */
static size_t free_return_bp(const struct trig_state *t)
{
	for (size_t i = 0; i < t->n_bps; i++) {
		bool armed = false;

		for (size_t j = 0; j < t->n_spaces && !armed; j++)
			armed = t->spaces[j].armed[i];
		if (t->bps[i].role == BP_RETURN && !armed)
			return i;
	}
	return NO_BP;
}

/* a start whose stop is the return: a one-shot breakpoint there */
static int arm_return(struct session *s, struct trig_space *sp, pid_t tid, const struct user_regs_struct *r,
		      struct pf_error *err)
{
	struct trig_state *t = s->trig;
	uint64_t ret;
	size_t b;

	errno = 0;
	ret = (uint64_t)ptrace(PTRACE_PEEKDATA, tid, (void *)r->rsp, 0);
	if (errno)
		return ptrace_error("ptrace(PTRACE_PEEKDATA) of the return address", err);
	if (sp->ret_bp != NO_BP)
		return 0; /* an outer call's return is armed already */
	b = free_return_bp(t);
	if (b == NO_BP)
		b = add_bp(t, ret, BP_RETURN, false);
	t->bps[b].addr = ret;
	sp->ret_bp = b;
	sp->ret_sp = r->rsp + 8;
	return arm(t, sp, tid, b, err);
}


/*
 * Switch counting at a code address.  An execute breakpoint counted at that
 * very address (mem:ADDR:x) sees the instruction once, in the debug
 * exception taken before it runs: a debug register's trigger is the same
 * exception, and an int3's fetch raises it too, the rewind then resuming
 * with RF (the resume flag) so the instruction does not raise it again.
 * Either way the kernel counted it under the counters' state before the
 * switch: the start's instruction missing from its window, the stop's in
 * it.  The count is corrected by one each switching hit, so the window is
 * [start, stop) for every event.  (Samples cannot be corrected: such a
 * breakpoint is not sampled, see check_exec_breakpoints.)
 */
static int switch_at(struct session *s, uint64_t addr, bool on, struct pf_error *err)
{
	for (size_t e = 0; s->counting_on != on && e < s->n_events; e++)
		if (exec_breakpoint_at(s, e, addr))
			s->trig->bp_fix[e] += on ? 1 : -1;
	return sess_set_counting(s, on, err);
}

/* what a breakpoint does when a task that acts on triggers reaches it */
static int act(struct session *s, struct trig_space *sp, pid_t tid, size_t b, const struct user_regs_struct *r,
	       bool *keep, struct pf_error *err)
{
	struct trig_state *t = s->trig;
	struct trig_bp *bp = &t->bps[b];
	uint64_t addr = bp->addr; /* arm_return may move the array bp is in */

	*keep = bp->repeat;
	if (bp->role == BP_START || bp->role == BP_STOP)
		note_reached(t, bp->role == BP_START, bp->trig, bp->stop_trig, true);
	switch (bp->role) {
	case BP_ENTRY:
		*keep = false;
		if (disarm(t, sp, tid, b, err))
			return -1;
		return resolve_and_set(s, tid, err);
	case BP_START:
		if (bp->to_return && arm_return(s, sp, tid, r, err))
			return -1;
		return switch_at(s, addr, true, err);
	case BP_STOP:
		if (!s->counting_on) {
			*keep = true; /* a stop before any start: the first window is still to come */
			return 0;
		}
		return switch_at(s, addr, false, err);
	case BP_RETURN:
		if (r->rsp != sp->ret_sp) {
			*keep = true; /* the return of a deeper (recursive) call */
			return 0;
		}
		sp->ret_bp = NO_BP;
		return switch_at(s, addr, false, err);
	}
	return 0;
}

static int resume(pid_t tid, int request, struct pf_error *err)
{
	if (ptrace(request, tid, 0, 0) && errno != ESRCH)
		return ptrace_error(request == PTRACE_SINGLESTEP ? "ptrace(PTRACE_SINGLESTEP)" : "ptrace(PTRACE_CONT)",
				    err);
	return 0;
}

/* stopped after the int3 of breakpoint b: act, step over it, go on */
static int on_breakpoint(struct session *s, struct trig_thread *th, size_t b, struct user_regs_struct *r,
			 struct pf_error *err)
{
	struct trig_state *t = s->trig;
	struct trig_space *sp = &t->spaces[th->space];
	pid_t tid = th->tid;
	uint64_t addr = t->bps[b].addr;

	r->rip = addr;
	/* the fetch of the int3 raised an execute breakpoint counted there
	 * (mem:ADDR:x): RF keeps the instruction from raising it twice */
	r->eflags |= X86_EFLAGS_RF;
	if (ptrace(PTRACE_SETREGS, tid, 0, r))
		return ptrace_error("ptrace(PTRACE_SETREGS)", err);
	/* every armed breakpoint at this address acts (a start that is also a return) */
	for (size_t i = 0; i < t->n_bps; i++) {
		bool k = true;

		if (t->bps[i].addr != addr || !sp->armed[i])
			continue;
		if (th->acts && act(s, sp, tid, i, r, &k, err))
			return -1;
		sp = &t->spaces[th->space]; /* act may add a breakpoint and move the spaces' arrays */
		if (!k && t->bps[i].role != BP_ENTRY && disarm(t, sp, tid, i, err))
			return -1;
	}
	if (find_bp(t, sp, addr) == NO_BP)
		return resume(tid, PTRACE_CONT, err); /* nothing left here: the original byte is back */
	if (uncover(t, tid, find_bp(t, sp, addr), err))
		return -1;
	th->stepping = find_bp(t, sp, addr);
	return resume(tid, PTRACE_SINGLESTEP, err);
}

/* the single step over a breakpoint is done: its int3 goes back */
static int after_step(struct session *s, struct trig_thread *th, struct pf_error *err)
{
	struct trig_state *t = s->trig;
	struct trig_space *sp = &t->spaces[th->space];
	size_t b = th->stepping;

	th->stepping = NO_BP;
	if (sp->armed[b] && poke_byte(th->tid, t->bps[b].addr, 0xcc, NULL, err))
		return -1;
	return resume(th->tid, PTRACE_CONT, err);
}

/* a start whose stop is its call's return: the return slot on the return
 * address (rewritten only when it changed) */
static int arm_return_slot(struct trig_thread *th, size_t ret, struct pf_error *err)
{
	struct user_regs_struct r;
	uint64_t addr;

	if (get_regs(th->tid, &r, err))
		return -1;
	errno = 0;
	addr = (uint64_t)ptrace(PTRACE_PEEKDATA, th->tid, (void *)r.rsp, 0);
	if (errno)
		return ptrace_error("ptrace(PTRACE_PEEKDATA) of the return address", err);
	if (!(th->dr7 & DR7_ENABLE(ret)) || th->ret_addr != addr) {
		if (ptrace(PTRACE_POKEUSER, th->tid, (void *)DR_OFFSET(ret), (void *)addr))
			return ptrace_error("ptrace(PTRACE_POKEUSER) of a debug register", err);
		th->ret_addr = addr;
		th->dr7 |= DR7_ENABLE(ret);
	}
	th->ret_sp = r.rsp + 8;
	th->in_call = true;
	return 0;
}

/* one debug register that fired: switch; false in *keep to disarm it */
static int act_slot(struct session *s, struct trig_thread *th, size_t k, bool *keep, struct pf_error *err)
{
	struct trig_state *t = s->trig;
	const struct session_triggers *o = &s->opts.triggers;
	const struct dr_slot *sl = &t->slot[k];
	struct user_regs_struct r;
	bool code = sl->role == DR_CODE_START || sl->role == DR_CODE_STOP || sl->role == DR_RETURN;

	*keep = code ? o->code_repeat : o->data_repeat;
	if (sl->role != DR_RETURN)
		note_reached(t, sl->role == DR_CODE_START || sl->role == DR_DATA_START, sl->trig, sl->stop_trig, code);
	switch (sl->role) {
	case DR_CODE_START:
	case DR_DATA_START:
		if (sl->to_return) {
			size_t ret = t->n_dr - 1; /* the return slot follows the code ones */

			while (t->slot[ret].role != DR_RETURN)
				ret--;
			if (!th->in_call && arm_return_slot(th, ret, err))
				return -1;
		}
		return code ? switch_at(s, t->dr_addr[k], true, err) : sess_set_counting(s, true, err);
	case DR_CODE_STOP:
	case DR_DATA_STOP:
		if (!s->counting_on) {
			*keep = true; /* a stop before any start: it waits for its window */
			return 0;
		}
		return code ? switch_at(s, t->dr_addr[k], false, err) : sess_set_counting(s, false, err);
	case DR_RETURN:
		/* it stays armed: the next window's return is most often the same
		 * address, and rewriting a debug register costs more than a stop */
		*keep = true;
		if (get_regs(th->tid, &r, err))
			return -1;
		if (!th->in_call || r.rsp != th->ret_sp)
			return 0; /* a deeper (recursive) call's return, or no window open */
		th->in_call = false;
		return switch_at(s, th->ret_addr, false, err);
	}
	return 0;
}

/* debug registers that fired (DR6's B0-B3): switch, disarm the one-shot ones */
static int on_dr_hit(struct session *s, struct trig_thread *th, unsigned long dr6, struct pf_error *err)
{
	struct trig_state *t = s->trig;
	uint64_t dr7 = th->dr7;

	for (size_t k = 0; k < t->n_dr; k++) {
		bool keep = true;

		if (!(dr6 & (1ul << k)) || !th->acts || !(th->dr7 & DR7_ENABLE(k)))
			continue;
		if (act_slot(s, th, k, &keep, err))
			return -1;
		if (!keep)
			th->dr7 &= ~DR7_ENABLE(k);
	}
	if (th->dr7 != dr7 && set_debugregs(t, th->tid, th->dr7, NULL, err))
		return -1;
	if (ptrace(PTRACE_POKEUSER, th->tid, (void *)DR_OFFSET(6), 0))
		return ptrace_error("ptrace(PTRACE_POKEUSER) of DR6", err);
	return 0;
}

/* a debug exception: a data trigger, the end of a single step, or both
 * (the stepped instruction touched a watched address) */
static int on_debug_trap(struct session *s, struct trig_thread *th, struct pf_error *err)
{
	unsigned long dr6 = 0;
	bool data = false;

	if (th->dr7) {
		errno = 0;
		dr6 = (unsigned long)ptrace(PTRACE_PEEKUSER, th->tid, (void *)DR_OFFSET(6), 0);
		data = !errno && (dr6 & DR6_HITS);
	}
	if (data && on_dr_hit(s, th, dr6, err))
		return -1;
	if (th->stepping != NO_BP)
		return after_step(s, th, err) ? -1 : 1;
	if (!data)
		return 0;
	return resume(th->tid, PTRACE_CONT, err) ? -1 : 1;
}

int sess_trig_trap(struct session *s, pid_t tid, struct pf_error *err)
{
	struct trig_state *t = s->trig;
	struct trig_thread *th = t ? thread_of(t, tid) : NULL;
	struct user_regs_struct r;
	siginfo_t si;
	size_t b;

	if (!th || ptrace(PTRACE_GETSIGINFO, tid, 0, &si))
		return 0;
	if (si.si_code != SI_KERNEL)
		return on_debug_trap(s, th, err);
	if (get_regs(tid, &r, err))
		return -1;
	b = find_bp(t, &t->spaces[th->space], r.rip - 1);
	if (b == NO_BP)
		return 0; /* the program's own int3 */
	return on_breakpoint(s, th, b, &r, err) ? -1 : 1;
}

int sess_trig_resume_request(const struct session *s, pid_t tid)
{
	struct trig_thread *th = s->trig ? thread_of(s->trig, tid) : NULL;

	/* a signal came during a step over a breakpoint: the step goes on
	 * (into the handler), so the int3 is written back */
	return th && th->stepping != NO_BP ? PTRACE_SINGLESTEP : PTRACE_CONT;
}

/* AT_ENTRY of the process, from its auxiliary vector */
static int entry_point(pid_t pid, uint64_t *entry, struct pf_error *err)
{
	char path[64];
	Elf64_auxv_t av;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/auxv", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return pf_error_set(err, PF_E_INPUT, path, strerror(errno));
	*entry = 0;
	while (fread(&av, sizeof(av), 1, f) == 1 && av.a_type != AT_NULL)
		if (av.a_type == AT_ENTRY)
			*entry = av.a_un.a_val;
	fclose(f);
	if (!*entry)
		return pf_error_set(err, PF_E_INPUT, path, "no AT_ENTRY: cannot find the program's entry point");
	return 0;
}

int sess_trig_exec(struct session *s, pid_t tid, struct pf_error *err)
{
	struct trig_state *t = s->trig;
	struct trig_thread *th;
	uint64_t entry;

	if (!t)
		return 0;
	th = thread_of(t, tid);
	if (t->resolved || (th && t->command)) {
		/* a later exec: a new text without the int3s (a vfork child
		 * leaves its parent's), debug registers cleared: the task has
		 * no triggers any more, pfmon lets it go */
		if (th) {
			sess_trig_exit(s, tid);
			if (ptrace(PTRACE_DETACH, tid, 0, 0) && errno != ESRCH)
				return ptrace_error("ptrace(PTRACE_DETACH)", err);
		}
		return 0;
	}
	if (entry_point(tid, &entry, err))
		return -1;
	t->command = tid;
	add_space(t, tid, NULL);
	add_thread(t, tid, 0, true);
	return arm(t, &t->spaces[0], tid, add_bp(t, entry, BP_ENTRY, false), err);
}

bool sess_trig_hold_birth(struct session *s, pid_t tid)
{
	struct trig_state *t = s->trig;

	if (!t || thread_of(t, tid))
		return false;
	XGROW(t->born, t->cap_born, t->n_born);
	t->born[t->n_born++] = tid;
	return true;
}

/* wait for the new task's first stop, unless it came already */
static int wait_birth(struct trig_state *t, pid_t child)
{
	int st;

	for (size_t i = 0; i < t->n_born; i++)
		if (t->born[i] == child) {
			t->born[i] = t->born[--t->n_born];
			return 0;
		}
	while (waitpid(child, &st, __WALL) < 0)
		if (errno != EINTR)
			return -1;
	return WIFSTOPPED(st) ? 0 : -1;
}

/* do the tasks share one address space?  kcmp(2) says; a kernel without
 * it: a thread of the same process, or a vfork child */
static bool same_memory(pid_t a, pid_t b, bool vfork)
{
	long r = syscall(SYS_kcmp, a, b, KCMP_VM, 0, 0);
	pid_t ta = a, tb = b;

	if (r >= 0)
		return r == 0;
	return vfork || (procfs_tgid(a, &ta) && procfs_tgid(b, &tb) && ta == tb);
}

int sess_trig_new_task(struct session *s, pid_t parent, pid_t child, bool vfork, struct pf_error *err)
{
	struct trig_state *t = s->trig;
	const struct session_triggers *o = &s->opts.triggers;
	struct trig_thread *pt = t ? thread_of(t, parent) : NULL;
	bool follow_code = o->code_follow, follow_data = o->data_follow;
	struct trig_thread *th;
	size_t space;

	if (!pt)
		return 0;
	if (wait_birth(t, child))
		return 0; /* gone already */
	if (same_memory(parent, child, vfork)) {
		/* a thread (or vfork child): the int3s are in its text too */
		space = pt->space;
	} else if (follow_code || follow_data) {
		space = add_space(t, child, t->spaces[pt->space].armed);
	} else {
		/* a forked process not followed: its copy of the text loses the
		 * int3s and pfmon lets it go */
		const struct trig_space *sp = &t->spaces[pt->space];

		for (size_t i = 0; i < t->n_bps; i++)
			if (sp->armed[i] && poke_byte(child, t->bps[i].addr, t->bps[i].orig, NULL, err))
				return -1;
		if (ptrace(PTRACE_DETACH, child, 0, 0) && errno != ESRCH)
			return ptrace_error("ptrace(PTRACE_DETACH)", err);
		return 0;
	}
	th = add_thread(t, child, space, follow_code || follow_data);
	if (t->dr7 && (follow_data || (follow_code && t->code_in_dr))) {
		/* the triggers it follows, as they were set at the entry point (no return armed) */
		th->dr7 = t->dr7;
		for (size_t k = 0; k < t->n_dr; k++) {
			bool code = t->slot[k].role != DR_DATA_START && t->slot[k].role != DR_DATA_STOP;

			if (t->slot[k].role == DR_RETURN || (code ? !follow_code : !follow_data))
				th->dr7 &= ~DR7_ENABLE(k);
		}
		if (set_debugregs(t, child, th->dr7, t->dr_addr, err))
			return -1;
	}
	return resume(child, PTRACE_CONT, err);
}

void sess_trig_exit(struct session *s, pid_t tid)
{
	struct trig_state *t = s->trig;
	struct trig_thread *th = t ? thread_of(t, tid) : NULL;

	if (th)
		*th = t->threads[--t->n_threads];
}

bool sess_trig_busy(const struct session *s)
{
	const struct trig_state *t = s->trig;

	for (size_t i = 0; t && i < t->n_threads; i++)
		if (t->threads[i].tid != t->command)
			return true;
	return false;
}

#else /* not x86-64 */

bool session_triggers_supported(void)
{
	return false;
}

int sess_trig_exec(struct session *s, pid_t tid, struct pf_error *err)
{
	(void)tid;
	return s->trig ? pf_error_set(err, PF_E_NOT_IMPLEMENTED, "--trigger-*", "on this architecture",
				      " (code and data triggers are x86-64 only)") : 0;
}

int sess_trig_trap(struct session *s, pid_t tid, struct pf_error *err)
{
	(void)s, (void)tid, (void)err;
	return 0;
}

int sess_trig_new_task(struct session *s, pid_t parent, pid_t child, bool vfork, struct pf_error *err)
{
	(void)s, (void)parent, (void)child, (void)vfork, (void)err;
	return 0;
}

bool sess_trig_hold_birth(struct session *s, pid_t tid)
{
	(void)s, (void)tid;
	return false;
}

void sess_trig_exit(struct session *s, pid_t tid)
{
	(void)s, (void)tid;
}

bool sess_trig_busy(const struct session *s)
{
	(void)s;
	return false;
}

int sess_trig_resume_request(const struct session *s, pid_t tid)
{
	(void)s, (void)tid;
	return PTRACE_CONT;
}

#endif
