/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-task results, and following a launched command's tasks with ptrace.
 *
 * Why ptrace: pfmon 3.x's --follow-* options name which new tasks are
 * measured (forks, vforks, threads, execs of some programs) and split
 * results per program image.  perf's side-band records (FORK/EXIT, READ
 * with inherit_stat) say when tasks come and go, but the counters are
 * inherited by every child or by none (inherit_thread narrows to threads
 * only), and nothing reads a task's counts at its exec.  With ptrace each
 * followed task is stopped once when it is created, once per exec and once
 * when it exits: pfmon opens its counters while it is stopped at its
 * birth (exact: it has not run yet), reads them at its exec or exit stop
 * (exact: it does not run meanwhile), and never traces what is not
 * followed.  The cost is a few microseconds per task event, not per
 * counted event; a run without --follow-* uses no ptrace at all.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/util.h"
#include "kernel/perf.h"
#include "procfs.h"
#include "session_int.h"

static void task_names(struct sess_task *t)
{
	char path[64], exe[PATH_MAX];
	ssize_t n;

	if (!procfs_comm(t->tid, t->comm, sizeof(t->comm)))
		snprintf(t->comm, sizeof(t->comm), "?");
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)t->tid);
	n = readlink(path, exe, sizeof(exe) - 1);
	if (n <= 0) {
		snprintf(t->program, sizeof(t->program), "%s", t->comm);
		return;
	}
	exe[n] = '\0';
	/* keep the end of a long path: it names the program */
	memcpy(t->program, (size_t)n < sizeof(t->program) ? exe : exe + n - (sizeof(t->program) - 1),
	       (size_t)n < sizeof(t->program) ? (size_t)n + 1 : sizeof(t->program));
}

static pid_t parent_of(pid_t pid)
{
	char path[64], line[256];
	FILE *f;
	int ppid = 0;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "PPid: %d", &ppid) == 1)
			break;
	fclose(f);
	return (pid_t)ppid;
}

static struct sess_task *task_of(struct session *s, pid_t tid)
{
	uint64_t i;

	return u64set_get(&s->task_of, (uint64_t)tid, &i) ? &s->tasks[i] : NULL;
}

void sess_task_add(struct session *s, pid_t tid, size_t fd_first)
{
	struct sess_task *t;
	pid_t tgid = tid;

	XGROW(s->tasks, s->cap_tasks, s->n_tasks);
	t = &s->tasks[s->n_tasks];
	memset(t, 0, sizeof(*t));
	procfs_tgid(tid, &tgid);
	t->tid = tid;
	t->pid = tgid;
	t->ppid = parent_of(tgid);
	t->fd_first = fd_first;
	t->fd_n = s->n_fds - fd_first;
	t->live = true;
	task_names(t);
	u64set_put(&s->task_of, (uint64_t)tid, s->n_tasks);
	s->n_tasks++;
}

/* the task's counts now, summed per event */
static int read_task(struct session *s, const struct sess_task *t, struct session_count *counts,
		     struct pf_error *err)
{
	sess_counts_clear(s, counts);
	for (size_t i = t->fd_first; i < t->fd_first + t->fd_n; i++)
		if (sess_count_fd(s, &s->fds[i], counts, err))
			return -1;
	return 0;
}

/* the task's counts as one more result row */
static int take_result(struct session *s, struct sess_task *t, struct pf_error *err)
{
	struct session_count *counts = xcalloc(s->n_events + 1, sizeof(*counts));
	struct session_task_result *r;

	if (read_task(s, t, counts, err)) {
		free(counts);
		return -1;
	}
	XGROW(s->results, s->cap_results, s->n_results);
	r = &s->results[s->n_results++];
	*r = (struct session_task_result){ .pid = t->pid, .tid = t->tid, .ppid = t->ppid,
					   .exec_no = t->exec_no, .counts = counts };
	memcpy(r->comm, t->comm, sizeof(r->comm));
	memcpy(r->program, t->program, sizeof(r->program));
	return 0;
}

static void close_task(struct session *s, struct sess_task *t)
{
	for (size_t i = t->fd_first; i < t->fd_first + t->fd_n; i++) {
		kperf_close(s->fds[i].fd);
		s->fds[i].fd = -1;
	}
	t->live = false;
}

/* the last result of a task that ends (or stops being followed) */
static int end_task(struct session *s, struct sess_task *t, struct pf_error *err)
{
	if (!t || !t->live)
		return 0;
	if (take_result(s, t, err))
		return -1;
	close_task(s, t);
	return 0;
}

int session_task_results(struct session *s, const struct session_task_result **out, size_t *n,
			 struct pf_error *err)
{
	/* live tasks are read now, each once: later calls find them taken */
	for (size_t i = 0; i < s->n_tasks; i++)
		if (s->tasks[i].live) {
			if (take_result(s, &s->tasks[i], err))
				return -1;
			s->tasks[i].live = false;
		}
	*out = s->results;
	*n = s->n_results;
	return 0;
}

const struct rusage *session_command_rusage(const struct session *s)
{
	return s->have_rusage ? &s->child_rusage : NULL;
}

void sess_note_rusage(struct session *s, const struct rusage *ru)
{
	s->child_rusage = *ru;
	s->have_rusage = true;
}

/* ----- following with ptrace ----- */

static int compile(regex_t *re, bool *have, const char *pattern, struct pf_error *err)
{
	char why[128];
	int rc;

	if (!pattern)
		return 0;
	rc = regcomp(re, pattern, REG_EXTENDED | REG_NOSUB);
	if (rc) {
		regerror(rc, re, why, sizeof(why));
		return pf_error_set(err, PF_E_BAD_REGEX, pattern, why);
	}
	*have = true;
	return 0;
}

static int chld_pipe_wr = -1;

static void on_sigchld(int sig)
{
	int saved = errno;

	(void)sig;
	if (write(chld_pipe_wr, "c", 1) < 0) {
		/* full: the loop will look anyway */
	}
	errno = saved;
}

int sess_follow_prepare(struct session *s, struct pf_error *err)
{
	const struct session_follow *f = &s->opts.follow;
	struct sigaction sa;

	if (compile(&s->exec_re, &s->have_exec_re, f->exec_pattern, err) ||
	    compile(&s->exclude_re, &s->have_exclude_re, f->exec_exclude, err))
		return -1;
	if (pipe2(s->chld_pipe, O_CLOEXEC | O_NONBLOCK))
		return pf_error_set(err, PF_E_SYSTEM, "pipe", strerror(errno));
	chld_pipe_wr = s->chld_pipe[1];
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigchld;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_NOCLDSTOP: the ptrace stops are what the loop waits for */
	sigaction(SIGCHLD, &sa, NULL);
	return 0;
}

static long trace_options(const struct session_follow *f, bool triggers)
{
	/* exits and execs of every followed task: its results are read there */
	long o = PTRACE_O_TRACEEXIT | PTRACE_O_TRACEEXEC;

	/* a new task of a command with triggers has their int3s in its text:
	 * pfmon steps it over them, or removes them from a forked copy */
	if (triggers)
		o |= PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE;

	if (f->fork)
		o |= PTRACE_O_TRACEFORK;
	if (f->vfork)
		o |= PTRACE_O_TRACEVFORK;
	if (f->pthread)
		o |= PTRACE_O_TRACECLONE;
	return o;
}

int sess_follow_seize(struct session *s, pid_t pid, struct pf_error *err)
{
	if (ptrace(PTRACE_SEIZE, pid, 0, trace_options(&s->opts.follow, s->trig != NULL)))
		return pf_error_set(err, PF_E_SYSTEM, "ptrace(PTRACE_SEIZE)",
				    errno == EPERM ? "not permitted (kernel.yama.ptrace_scope?)" : strerror(errno));
	return 0;
}

static bool matches(const regex_t *re, const char *path)
{
	const char *base = strrchr(path, '/');

	return !regexec(re, path, 0, NULL, 0) || (base && !regexec(re, base + 1, 0, NULL, 0));
}

/* is the program a task has just exec'ed one to follow? */
static bool exec_followed(struct session *s, const char *program)
{
	if (!s->opts.follow.exec)
		return false;
	if (s->have_exec_re && !matches(&s->exec_re, program))
		return false;
	return !(s->have_exclude_re && matches(&s->exclude_re, program));
}

/* a new task: counters of its own, opened before it runs, counting at once */
static int new_task(struct session *s, pid_t tid, struct pf_error *err)
{
	struct sess_task *t;
	int rc;

	if (task_of(s, tid))
		return 0;
	sess_start_enabled(s);
	rc = sess_open_counters(s, tid, err);
	if (rc < 0)
		return -1;
	t = task_of(s, tid);
	if (t)
		t->started = true; /* born of a followed task: it already runs a program */
	return 0;
}

static int reset_task(struct session *s, struct sess_task *t)
{
	for (size_t i = t->fd_first; i < t->fd_first + t->fd_n; i++)
		if (s->fds[i].fd >= 0 && kperf_reset(s->fds[i].fd))
			return -1;
	return 0;
}

/*
 * A task pfmon traces cannot be traced by another tracer, nor call
 * PTRACE_TRACEME: its own ptrace(2) fails with EPERM, and a program that
 * waits for its child to stop for it waits forever.  The only moment
 * pfmon can see that coming without stopping at every system call is the
 * exec: a program whose symbol tables name ptrace is let go there, before
 * its first instruction.  Its counters are its own (not inherited) and go
 * on counting until it exits; what it starts is not followed.
 */
static int let_go_if_tracer(struct session *s, struct sess_task *t)
{
	char exe[64];

	if (!s->opts.follow.calls_ptrace)
		return 0;
	snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)t->tid);
	if (!s->opts.follow.calls_ptrace(exe))
		return 0;
	if (!s->n_let_go++)
		memcpy(s->let_go_name, t->comm, sizeof(s->let_go_name));
	ptrace(PTRACE_DETACH, t->tid, 0, 0);
	return 1; /* detached */
}

size_t session_let_go(const struct session *s, const char **name)
{
	*name = s->let_go_name;
	return s->n_let_go;
}

/*
 * A followed task made an exec.  Its first one (the launched command's)
 * starts the measurement; after that, an exec of a program that is not
 * followed ends the task's results and pfmon lets it go; a followed one
 * goes on counting, or with split_exec starts a new result row (1: the
 * task was let go).
 */
static int on_exec(struct session *s, pid_t tid, struct pf_error *err)
{
	struct sess_task *t = task_of(s, tid), before;

	if (!t || !t->live)
		return 0;
	if (!t->started) {
		t->started = true;
		task_names(t);
		return let_go_if_tracer(s, t);
	}
	before = *t; /* the names of the image that ends here */
	task_names(t);
	if (!exec_followed(s, t->program)) {
		*t = before; /* the results are the old image's */
		if (end_task(s, t, err))
			return -1;
		ptrace(PTRACE_DETACH, tid, 0, 0);
		return 1; /* detached */
	}
	if (s->opts.follow.split_exec) {
		if (take_result(s, &before, err))
			return -1;
		t->exec_no++;
		if (reset_task(s, t))
			return pf_error_set(err, PF_E_SYSTEM, "PERF_EVENT_IOC_RESET", strerror(errno));
	}
	return let_go_if_tracer(s, t);
}

static bool is_stop_signal(int sig)
{
	return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

/* one ptrace stop: handle it and let the task go on */
static int on_stop(struct session *s, pid_t tid, int status, struct pf_error *err)
{
	int event = (status >> 16) & 0xff, sig = WSTOPSIG(status);
	unsigned long msg = 0;
	int rc = 0;

	switch (event) {
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
	case PTRACE_EVENT_CLONE:
		ptrace(PTRACE_GETEVENTMSG, tid, 0, &msg);
		rc = s->opts.follow.enabled ? new_task(s, (pid_t)msg, err) : 0;
		if (!rc)
			rc = sess_trig_new_task(s, tid, (pid_t)msg, event == PTRACE_EVENT_VFORK, err);
		break;
	case PTRACE_EVENT_EXEC:
		rc = s->opts.follow.enabled ? on_exec(s, tid, err) : 0;
		if (rc == 1)
			return 0; /* let go */
		if (!rc)
			rc = sess_trig_exec(s, tid, err);
		break;
	case PTRACE_EVENT_EXIT:
		if (task_of(s, tid))
			task_names(task_of(s, tid)); /* its final name */
		rc = end_task(s, task_of(s, tid), err);
		sess_trig_exit(s, tid);
		break;
	case PTRACE_EVENT_STOP:
		if (is_stop_signal(sig)) {
			ptrace(PTRACE_LISTEN, tid, 0, 0); /* a group stop: stay stopped, as without pfmon */
			return 0;
		}
		/* a new task's first stop: it may come before its parent's event */
		if (sess_trig_hold_birth(s, tid))
			return 0; /* stays stopped until its parent's event says what it is */
		rc = s->opts.follow.enabled ? new_task(s, tid, err) : 0;
		break;
	default:
		if (sig == SIGTRAP && s->trig) {
			rc = sess_trig_trap(s, tid, err);
			if (rc)
				return rc < 0 ? -1 : 0; /* a trigger's: the task was resumed */
			/* the program's own SIGTRAP (an int3 of its own, a debugger stub): its to handle */
			ptrace(sess_trig_resume_request(s, tid), tid, 0, (void *)(long)sig);
			return 0;
		}
		/* a signal for the task: deliver it */
		ptrace(s->trig ? sess_trig_resume_request(s, tid) : PTRACE_CONT, tid, 0,
		       (void *)(long)(sig == SIGTRAP ? 0 : sig));
		return 0;
	}
	ptrace(PTRACE_CONT, tid, 0, 0);
	return rc;
}

/* a traced task's state change, or (sampling) records the ring reader copied */
static void wait_for_sigchld(struct session *s, uint64_t deadline)
{
	struct pollfd p[2] = { { .fd = s->chld_pipe[0], .events = POLLIN },
			       { .fd = s->reader_running ? s->wake_fd : -1, .events = POLLIN } };
	char buf[64];
	int timeout = 100;

	if (deadline) {
		uint64_t now = sess_monotonic_ns();

		timeout = now >= deadline ? 0 : (int)((deadline - now + 999999) / 1000000);
		if (timeout > 100)
			timeout = 100;
	}
	if (poll(p, 2, timeout) > 0 && p[0].revents)
		while (read(s->chld_pipe[0], buf, sizeof(buf)) > 0)
			;
}

static bool any_live(const struct session *s)
{
	for (size_t i = 0; i < s->n_tasks; i++)
		if (s->tasks[i].live)
			return true;
	return false;
}

/*
 * Until the command has ended and no followed task is left: every state
 * change of a traced task is one waitpid away (SIGCHLD wakes the loop).
 */
int sess_follow_run(struct session *s, const struct session_sink *sink, int *status, struct pf_error *err)
{
	uint64_t deadline = s->opts.timeout_ns ? sess_monotonic_ns() + s->opts.timeout_ns : 0;
	uint64_t next_tick = sess_first_tick(s, sink);
	bool command_ended = false;

	s->end = SESSION_END_COMMAND;
	while (!command_ended || any_live(s) || sess_trig_busy(s)) {
		struct rusage ru;
		int st, rc;
		pid_t tid;

		while ((tid = wait4(-1, &st, __WALL | WNOHANG, &ru)) > 0) {
			if (WIFSTOPPED(st)) {
				if (on_stop(s, tid, st, err))
					return -1;
				continue;
			}
			/* gone: its exit stop has taken its results (or SIGKILL skipped it) */
			if (end_task(s, task_of(s, tid), err))
				return -1;
			sess_trig_exit(s, tid);
			if (tid == s->child.pid) {
				*status = WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st);
				s->child_rusage = ru;
				s->have_rusage = true;
				s->have_child = false;
				command_ended = true;
			}
		}
		if (tid < 0 && errno == ECHILD)
			break; /* nothing traced is left */
		if (deadline && sess_monotonic_ns() >= deadline) {
			s->end = SESSION_END_TIMEOUT;
			break;
		}
		rc = sess_after_wake(s, sink, &next_tick, err);
		if (rc)
			return rc < 0 ? -1 : 0;
		wait_for_sigchld(s, sess_next_wake(s, deadline, next_tick));
	}
	return 0;
}

void sess_tasks_free(struct session *s)
{
	for (size_t i = 0; i < s->n_results; i++)
		free((void *)s->results[i].counts);
	free(s->results);
	free(s->tasks);
	u64set_release(&s->task_of);
	if (s->have_exec_re)
		regfree(&s->exec_re);
	if (s->have_exclude_re)
		regfree(&s->exclude_re);
	if (s->chld_pipe[0] >= 0) {
		close(s->chld_pipe[0]);
		close(s->chld_pipe[1]);
		signal(SIGCHLD, SIG_DFL);
	}
}
