/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The session's insides, shared by its files: session.c (opening, the run,
 * counts), session_drain.c (the rings: reader thread, time-ordered merge,
 * random periods, losses), session_tasks.c (per-task results, following
 * tasks with ptrace).  Nothing outside session/ includes this.
 */
#ifndef PFMON_TARGET_SESSION_INT_H
#define PFMON_TARGET_SESSION_INT_H

#include <pthread.h>
#include <regex.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/u64set.h"
#include "kernel/ring.h"
#include "sample/perf_record.h"
#include "session.h"

/* One open counter: an event on one task (and, sampling, one CPU). */
struct session_fd {
	uint32_t evidx;
	bool leader; /* leads its group: enabled and disabled for it */
	bool member; /* a non-sampling event in a sampling event's group */
	int cpu;
	pid_t tid;
	int fd;
	uint64_t id;
	/* randomized periods: the one set at time 'since' (CLOCK_MONOTONIC,
	 * the clock of the samples) and the one before it */
	uint64_t period, prev_period, since;
	bool sampled; /* since the last drain: its random period is redrawn */
};

/* one drained record, copied out of its ring so all rings can be merged */
struct drained {
	uint64_t time;
	size_t off; /* into the arena */
};

struct drain_buf {
	unsigned char *arena;
	size_t len, cap;
	struct drained *recs;
	size_t n, rcap;
};

/* A task with counters of its own (per_task sessions). */
struct sess_task {
	pid_t pid, tid, ppid;
	size_t fd_first, fd_n; /* its counters: s->fds[fd_first .. +fd_n) */
	bool live;             /* counters open, result not taken yet */
	bool started;          /* a launched command: has made its first exec */
	int exec_no;
	char comm[16], program[256];
};

struct session {
	struct set_prog *sets;
	size_t n_sets;
	const struct record_plan *plan; /* NULL: counting */
	struct session_opts opts;

	struct counter_prog **events; /* every event, in set order */
	int *event_set;
	size_t n_events;
	int *open_errno; /* per event: why it could not be opened (0: it was) */

	struct session_fd *fds;
	size_t n_fds, cap_fds;
	struct u64set by_id; /* sample id -> index into fds */
	struct u64set tids;  /* the tasks opened on */

	int ncpu;     /* CPU numbers are below this (ring arrays) */
	int *cpus;    /* the CPUs per-CPU events are opened on */
	size_t n_cpus;
	/* counting system-wide: event k opens on the i-th CPU iff on_cpu[k * n_cpus + i]
	 * (its PMU's cpumask, one CPU a package for .per-pkg); NULL: on every one */
	bool *on_cpu;
	bool enter_pressed;
	struct perf_ring *rings; /* one per CPU */
	int *ring_fd;            /* the fd that owns each ring, -1: none yet */
	struct perf_layout layout;
	/* records copied out of the rings (see the reader thread): the
	 * reader fills one buffer while the session passes the other on */
	struct drain_buf bufs[2];
	struct drain_buf *filling;
	struct drain_buf held;   /* copied, not yet passed on: may precede what comes next */
	uint64_t last_max_time;  /* the latest time of the batch before */
	pthread_mutex_t lock; /* guards filling and the rings while the reader runs */
	pthread_t reader;
	bool reader_running;
	bool reader_stop; /* atomic: set by the main thread, read by the reader */
	int wake_fd; /* eventfd: the reader copied records */
	uint64_t lost_in_records; /* what LOST records said */

	bool at_exec; /* a launched command: counting starts at its exec */
	bool open_enabled; /* counters opened from now on count at once (followed tasks) */
	bool have_child;
	struct child child;
	int *pidfds; /* attached processes (or the command): readable when they end */
	size_t n_pidfds, cap_pidfds, cap_pid_ended;
	bool *pid_ended;
	/* mappings of attached processes, and of the command's when a trigger
	 * or a delay starts sampling (their MMAP records went by disabled) */
	struct sample_record *synth;
	size_t n_synth, n_synth_passed;
	struct u64set synth_hash; /* pid -> a hash of the mappings last synthesized */
	bool every_process;       /* system-wide */

	enum session_end end;
	uint64_t start_ns; /* when the run began (CLOCK_MONOTONIC) */

	/* per-task results (session_tasks.c) */
	struct sess_task *tasks;
	size_t n_tasks, cap_tasks;
	struct u64set task_of; /* tid -> index into tasks */
	struct session_task_result *results;
	size_t n_results, cap_results;
	/* following with ptrace */
	regex_t exec_re, exclude_re;
	bool have_exec_re, have_exclude_re;
	int chld_pipe[2]; /* SIGCHLD wakes the loop */
	struct rusage child_rusage;
	bool have_rusage;
	size_t n_let_go;       /* tasks let go: they call ptrace(2) themselves */
	char let_go_name[16];  /* the first one's */

	/* triggers (trigger.c) */
	struct trig_state *trig;  /* NULL: no code or data trigger */
	bool counting_on;         /* the counters are enabled (triggers, start delay) */
	bool start_off;           /* counting does not start at the exec or the open */
	uint64_t start_at;        /* --trigger-start-delay: when counting starts (0: not pending) */

	/* pfmon's own rotation of the event sets (opts.switch_ns) */
	bool rotating;
	size_t rot_set;       /* the set counting now */
	uint64_t next_switch; /* when the next set takes over (CLOCK_MONOTONIC) */
	uint64_t n_switches;
};

struct trig_state;

uint64_t sess_monotonic_ns(void);
/* enable (on) or disable every counter, once */
int sess_set_counting(struct session *s, bool on, struct pf_error *err);
/* --trigger-start-delay: start counting if its time has come */
int sess_start_if_due(struct session *s, struct pf_error *err);
/* pfmon's rotation of the event sets (rotate.c): the first switch's time
 * set when the run begins, the next switch (0: none), the switch when it
 * is due, and the counts of one scope scaled to the whole run */
void sess_rotation_start(struct session *s);
uint64_t sess_rotation_next(const struct session *s);
int sess_rotate_if_due(struct session *s, struct pf_error *err);
void sess_rotation_scale(const struct session *s, struct session_count *counts);
/* is the command traced with ptrace (following or triggers)? */
bool sess_traced(const struct session *s);

/* session_drain.c */
int sess_start_reader(struct session *s, struct pf_error *err);
void sess_stop_reader(struct session *s);
/* pass on what the rings hold; final: everything, the reader stopped */
int sess_drain(struct session *s, const struct session_sink *sink, bool final, struct pf_error *err);
/* the synthesized records not passed on yet */
int sess_pass_synthesized(struct session *s, const struct session_sink *sink, struct pf_error *err);
int sess_pass_unreported_losses(struct session *s, const struct session_sink *sink, struct pf_error *err);

/* session.c: open the counters of the session on one more task (0, or 1
 * when the task is gone); counters opened from now on count at once */
int sess_open_counters(struct session *s, pid_t tid, struct pf_error *err);
void sess_start_enabled(struct session *s);
/* counts[] set to nothing counted yet; one fd's count added to its event's */
void sess_counts_clear(const struct session *s, struct session_count *counts);
int sess_count_fd(const struct session *s, const struct session_fd *f, struct session_count *counts,
		  struct pf_error *err);

/* The two session loops (a traced command's, everything else's) after
 * each wake-up: the end of the first interval (0 without
 * --print-interval); when to wake next (a deadline, the next interval, a
 * delayed start); then a due delayed start, the records the ring reader
 * copied and a due interval (*next_tick moved on): 0 to go on, 1 once
 * --interval-count is reached (s->end says so), -1 */
uint64_t sess_first_tick(const struct session *s, const struct session_sink *sink);
uint64_t sess_next_wake(const struct session *s, uint64_t deadline, uint64_t next_tick);
int sess_after_wake(struct session *s, const struct session_sink *sink, uint64_t *next_tick, struct pf_error *err);

/* session_tasks.c */
/* a task whose counters are s->fds[fd_first ..]: (re)started on tid */
void sess_task_add(struct session *s, pid_t tid, size_t fd_first);
/* compile the follow patterns; seize the held command (ptrace) */
int sess_follow_prepare(struct session *s, struct pf_error *err);
int sess_follow_seize(struct session *s, pid_t pid, struct pf_error *err);
/* run a followed command until every followed task has ended */
int sess_follow_run(struct session *s, const struct session_sink *sink, int *status, struct pf_error *err);
void sess_tasks_free(struct session *s);

/* trigger.c: code triggers (int3) and data triggers (debug registers) */
void sess_trig_init(struct session *s);
void sess_trig_free(struct session *s);
/* counts of execute breakpoints at code trigger addresses, corrected (switch_at) */
void sess_trig_fix_counts(const struct session *s, struct session_count *counts);
/* the command's first exec: a breakpoint at its entry point, where the
 * triggers are resolved and set (its libraries are loaded by then) */
int sess_trig_exec(struct session *s, pid_t tid, struct pf_error *err);
/* a SIGTRAP stop: 1 if it was a trigger's (the task is resumed), 0 if not */
int sess_trig_trap(struct session *s, pid_t tid, struct pf_error *err);
/* a traced task created child (fork, vfork, clone): clean or follow it */
int sess_trig_new_task(struct session *s, pid_t parent, pid_t child, bool vfork, struct pf_error *err);
/* a new task's first stop before its parent's event: held (true) */
bool sess_trig_hold_birth(struct session *s, pid_t tid);
void sess_trig_exit(struct session *s, pid_t tid);
/* how to resume tid after delivering it a signal (PTRACE_CONT, or
 * PTRACE_SINGLESTEP during a step over a breakpoint) */
int sess_trig_resume_request(const struct session *s, pid_t tid);
/* traced tasks with triggers remain besides the command */
bool sess_trig_busy(const struct session *s);
/* the processes (thread group ids) the triggers watch: n, *out allocated */
size_t sess_trig_processes(const struct session *s, pid_t **out);
void sess_note_rusage(struct session *s, const struct rusage *ru);

#endif
