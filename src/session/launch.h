/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Starting the measured command.  The child is forked and held before
 * execvp() until the caller has attached its counters to the child's pid
 * (they use enable_on_exec, so counting starts exactly at the exec).  An
 * exec failure is reported back through a close-on-exec pipe.
 */
#ifndef PFMON_TARGET_LAUNCH_H
#define PFMON_TARGET_LAUNCH_H

#include <stdbool.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "common/error.h"

struct child {
	pid_t pid;
	struct rusage usage; /* once reaped by child_wait or child_poll */
	int go_fd; /* write end: release the child */
	int exec_err_fd; /* read end: errno of a failed exec, or EOF */
};

struct launch_opts {
	bool no_output; /* --no-cmd-output: stdout/stderr to /dev/null */
	bool stdout_to_stderr; /* pfmon's stdout carries the sample file: the command's goes to stderr */
	const int *pin_cpus; /* --pin-command: the command runs on these CPUs only */
	size_t n_pin_cpus;
};

/*
 * Called first in main().  Records what the command must get back as pfmon
 * received it: each signal ignored or not, the signal mask, the
 * RLIMIT_NOFILE soft limit, which of the descriptors 0-2 were closed.  Then
 * sets pfmon's own: SIGPIPE and SIGXFSZ ignored (a closed pipe or a
 * file-size limit becomes a write error pfmon reports, never a silent death
 * that orphans the command), SIGCHLD default (an ignored SIGCHLD would reap
 * the command before pfmon reads its status), and a closed descriptor 0-2
 * held by /dev/null opened the wrong way round, so no file pfmon opens takes
 * its place and writing there still fails.
 */
void launch_init(void);

int child_fork(char *const argv[], const struct launch_opts *opts, struct child *c, struct pf_error *err);
/* Let the child exec.  Fails (PF_E_COMMAND_NOT_FOUND) if the exec failed,
 * PF_E_FORK if the command could not be pinned on its CPUs. */
int child_release(struct child *c, const char *cmd, struct pf_error *err);
/*
 * The usual sequence in one call: fork the command held, attach(pid) (open
 * the counters on it), then let it exec.  On any failure the child is
 * reaped and err says why.
 */
typedef int (*child_attach_fn)(pid_t pid, void *arg, struct pf_error *err);
int child_start(char *const argv[], const struct launch_opts *opts, child_attach_fn attach, void *arg,
		struct child *c, struct pf_error *err);

/* Kill a child that will not be released. */
void child_abort(struct child *c);
/*
 * Wait for the child.  SIGINT, SIGTERM and SIGHUP sent to pfmon are passed
 * on to the child, and waiting goes on until it ends, so the counts are
 * never lost.  Returns the command's exit status: its own, or 128+N when
 * killed by signal N.
 */
int child_wait(struct child *c);

/* Non-blocking: 1 and *status (as child_wait) if the child has ended, else 0 */
int child_poll(struct child *c, int *status);
/* End a running child (SIGKILL) and reap it, after a fatal error */
void child_kill(struct child *c);

/* Catch SIGINT, SIGTERM and SIGHUP before there is a child to pass them
 * to: launch_interrupted() then says one came.  A child held before its
 * exec only notes them. */
void launch_catch_signals(void);

/* The signal that interrupted pfmon, or 0 */
int launch_interrupted(void);

#endif
