/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The session: one engine for every run.  It is built from the encoded
 * event sets and a few run options, opened on a target (a launched
 * command, or the threads of running processes), and then run: it owns
 * every counter fd, the per-CPU ring buffers, the time-ordered merge of
 * their records and the redraw of random periods.  The CLI only encodes,
 * runs a session and reports what it returns.
 *
 * Two shapes, chosen by the plan:
 *   counting  one group per event set on each task (cpu -1), inherited
 *             by the threads and children it creates;
 *   sampling  each sampling event once per CPU on each task (perf refuses
 *             to mmap an inherited per-task event), the first event on a
 *             CPU owning that CPU's ring and the others writing into it;
 *             the set's events without a period join its groups and are
 *             read in each sample (pfmon 3.x).
 */
#ifndef PFMON_TARGET_SESSION_H
#define PFMON_TARGET_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "common/error.h"
#include "event/pmu_model.h"
#include "sample/sample.h"
#include "session/launch.h"
#include "session/plan.h"

struct session;

/*
 * Following tasks (pfmon 3.x's --follow-*): a launched command's tasks are
 * tracked with ptrace, each followed task gets counters of its own (not
 * inherited), and its counts become a result row when it exits (or, with
 * split_exec, when it execs).  Only what is named is followed.
 */
struct session_follow {
	bool enabled;
	bool fork, vfork, pthread;  /* new tasks created by fork, vfork, pthread_create */
	bool exec;                  /* keep counting a task across exec ... */
	const char *exec_pattern;   /* ... of programs matching this (POSIX ERE), NULL: any */
	const char *exec_exclude;   /* ... but not of these */
	bool split_exec;            /* one result per program image */
	/* does the program at path call ptrace(2)?  A task pfmon traces can
	 * neither trace nor be traced (EPERM): a followed task that execs
	 * such a program is let go there (NULL: none is) */
	bool (*calls_ptrace)(const char *path);
};

/*
 * Triggers (pfmon 3.x): counting switched on and off when the launched
 * program executes given addresses (code) or accesses them (data).  The
 * command is traced with ptrace: code triggers are int3 breakpoints
 * written into its text, data triggers x86 debug registers; at each hit
 * the task is stopped while pfmon enables or disables every counter
 * (opened disabled), then resumes it.  The addresses are known only once
 * the program is loaded: at its entry point the session asks resolve()
 * for each (kind, i), the CLI's symbol lookup.
 */
enum session_trigger_kind {
	STRG_CODE_START,
	STRG_CODE_STOP,
	STRG_DATA_START,
	STRG_DATA_STOP,
	STRG_KINDS,
};

/* x86's debug registers: at most this many data triggers */
#define SESSION_MAX_DATA_TRIGGERS 4

struct session_trigger_addr {
	uint64_t addr; /* in the running program */
	uint64_t size; /* data: bytes watched from addr (1, 2, 4 or 8, aligned) */
};

/* 0 and *out, or -1 with err (unknown symbol, an address outside the text) */
typedef int (*session_trigger_resolve_fn)(void *arg, pid_t pid, enum session_trigger_kind kind, size_t i,
					  struct session_trigger_addr *out, struct pf_error *err);

struct session_triggers {
	size_t n[STRG_KINDS];       /* addresses of each kind (0: none) */
	session_trigger_resolve_fn resolve;
	void *arg;
	bool code_repeat, data_repeat; /* every start..stop window counts, not only the first */
	bool code_follow, data_follow; /* hits in the command's other tasks act too */
	bool data_write_only;       /* data triggers on writes only (else reads and writes) */
	uint64_t start_delay_ns;    /* counting starts this long after the exec (or the open) */
	bool dont_start;            /* pfmon does not start counting: a trigger or the delay does */
};

/* can this build and machine apply triggers at all (x86-64 only)? */
bool session_triggers_supported(void);
/* any trigger address given? */
bool session_triggers_any(const struct session_triggers *t);

struct session_opts {
	bool inherit;               /* threads and children count with their parent */
	bool per_task;              /* keep each task's counts apart (session_task_results) */
	struct session_follow follow;
	struct launch_opts launch;  /* how a launched command runs */
	const int *cpus;            /* per-CPU events on these (NULL: every online CPU) */
	size_t n_cpus;
	bool stop_on_enter;         /* a line on stdin (a terminal) ends the session */
	uint64_t interval_ns;       /* --print-interval: the sink's tick, every so often */
	uint64_t timeout_ns;        /* -t: end the session after this long; 0: never */
	struct session_triggers triggers;
	bool pin_command;           /* the launched command runs on cpus[] only */
	bool exclude_idle;          /* per-CPU counters stop in the idle task */
	/* counting several sets: pfmon enables one set at a time, the next
	 * every switch_ns (pfmon 3.x's --switch-timeout), and each count's
	 * enabled time becomes the sets' total, so it reads as scaled; 0: the
	 * sets are all enabled and the kernel multiplexes them */
	uint64_t switch_ns;
	/* sampling: the rings are read once, at the end, so they keep the
	 * first samples that fit and the kernel drops (and counts) the rest
	 * (pfmon 3.x's --saturate-smpl-buffer) */
	bool saturate;
};

/* One event's count, summed over every task and CPU it was opened on. */
struct session_count {
	bool opened;       /* false: the kernel refused it (open_errno says why) */
	int open_errno;
	uint64_t value, enabled, running;
};

/* How a session ended. */
enum session_end {
	SESSION_END_COMMAND,   /* the launched command ended */
	SESSION_END_TARGETS,   /* every attached process ended */
	SESSION_END_TIMEOUT,   /* -t expired */
	SESSION_END_SIGNAL,    /* SIGINT/SIGTERM/SIGHUP while attached, or ENTER */
	SESSION_END_INTERVALS, /* --interval-count intervals were printed */
};

/*
 * A record drained from the rings, in time order, decoded, with its
 * event index resolved (and, for random periods, the period pfmon set).
 */
typedef int (*session_record_fn)(const struct sample_record *rec, void *arg, struct pf_error *err);

/* where a sampling session's records go: record() for each, drained()
 * (may be NULL) after each drain of the rings, with arg */
struct session_sink {
	session_record_fn record;
	int (*drained)(void *arg, struct pf_error *err);
	void *arg;
	/* --print-interval: at the end of each interval (and of the last,
	 * partial one), elapsed_ns since the run began; returns 1 to end the
	 * session (--interval-count), -1 on error; may be NULL */
	int (*tick)(void *arg, uint64_t elapsed_ns, struct pf_error *err);
};

/*
 * sets (n_sets of them) stay owned by the caller and must outlive the
 * session; plan is NULL for counting, else the sampling plan already
 * applied to the sets' attrs (record_plan_apply).
 */
struct session *session_new(struct set_prog *sets, size_t n_sets, const struct record_plan *plan,
			    const struct session_opts *opts);
void session_free(struct session *s);

/*
 * System-wide: every counter on each CPU (pid -1), whatever runs there.
 * With a command (argv not NULL) the session lasts as long as it runs;
 * without one, until the timeout, a signal, or ENTER (stop_on_enter).
 * Sampling records the mappings of every running process first.
 */
int session_open_cpus(struct session *s, char *const argv[], struct pf_error *err);
size_t session_n_cpus(const struct session *s);
/* the session's CPUs, ascending (session_n_cpus of them) */
const int *session_cpus(const struct session *s);
/* the counts on the i-th CPU of the session (its number in *cpu) */
int session_cpu_counts(const struct session *s, size_t i, int *cpu, struct session_count *counts,
		       struct pf_error *err);

/* Fork the command held before exec, open every counter on it, let it
 * exec (counting starts at the exec: enable_on_exec). */
int session_open_command(struct session *s, char *const argv[], struct pf_error *err);

/*
 * Open on running tasks: each of pids[] is a whole process (every thread,
 * also threads created while pfmon attaches) when whole_process, else a
 * single thread.  Counting starts when every counter is open.
 */
int session_open_tasks(struct session *s, const pid_t *pids, size_t n, bool whole_process,
		       struct pf_error *err);

/*
 * Run until the command ends (its status in *status), every attached
 * process has ended, the timeout expires, or (attached) a signal asks to
 * stop.  Sampling sessions hand every record to the sink as the rings
 * fill, and the rest at the end (sink may be NULL when counting).  Counting stops before it returns.
 */
int session_run(struct session *s, const struct session_sink *sink, int *status, struct pf_error *err);
enum session_end session_ended_by(const struct session *s);
/* was the address of the i-th trigger of this kind executed (code) or
 * accessed (data) by a task that acts on triggers?  true too when the
 * triggers were never set (the command ended before its entry point) */
bool session_trigger_reached(const struct session *s, enum session_trigger_kind kind, size_t i);
/* how many of the tasks opened on have exited (their counts are kept) */
size_t session_tasks_exited(const struct session *s);

/* One task's counts (per_task sessions): a thread of an attached process,
 * or a followed task, or one program image of it (split_exec). */
struct session_task_result {
	int pid, tid, ppid;
	char comm[16];     /* the kernel's name of the task */
	char program[256]; /* the program it ran (split_exec: this image's) */
	int exec_no;       /* 0 for the image it started with */
	const struct session_count *counts; /* one per event */
};

/* Every task's result, in the order they ended, live tasks last (read
 * now).  The array belongs to the session. */
int session_task_results(struct session *s, const struct session_task_result **out, size_t *n,
			 struct pf_error *err);

/* followed tasks let go at the exec of a program that calls ptrace(2):
 * how many, and the name of the first (*name, the session's) */
size_t session_let_go(const struct session *s, const char **name);

/* the launched command's resource use when it was reaped (for --show-time) */
const struct rusage *session_command_rusage(const struct session *s);

/* counts[] has one entry per event of every set, in set order */
int session_read_counts(struct session *s, struct session_count *counts, struct pf_error *err);
size_t session_n_events(const struct session *s);

/* the perf_event_attr of every counter as opened, for -v and the tests */
const struct counter_prog *session_event(const struct session *s, size_t i);
int session_event_set(const struct session *s, size_t i);

#endif
