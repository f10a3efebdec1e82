/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "launch.h"

static volatile sig_atomic_t child_pid;
static volatile sig_atomic_t got_signal;

/* what pfmon received, for the command (launch_init) */
static struct {
	bool saved;
	bool ignored[NSIG];
	sigset_t mask;
	bool have_nofile;
	struct rlimit nofile;
	bool closed[3]; /* stdin, stdout, stderr */
} inherited;

/* a closed standard descriptor: held open for reading (0 for writing), so
 * that pfmon's reads and writes there fail as they would have */
static void hold_closed_fd(int fd)
{
	int nfd;

	if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
		return;
	inherited.closed[fd] = true;
	nfd = open("/dev/null", (fd == STDIN_FILENO ? O_WRONLY : O_RDONLY) | O_CLOEXEC);
	if (nfd >= 0 && nfd != fd) { /* the lowest free descriptor is fd itself */
		dup3(nfd, fd, O_CLOEXEC);
		close(nfd);
	}
}

void launch_init(void)
{
	struct sigaction sa;

	for (int fd = 0; fd < 3; fd++)
		hold_closed_fd(fd);
	for (int sig = 1; sig < NSIG; sig++)
		if (sigaction(sig, NULL, &sa) == 0)
			inherited.ignored[sig] = sa.sa_handler == SIG_IGN;
	sigprocmask(SIG_SETMASK, NULL, &inherited.mask);
	inherited.have_nofile = getrlimit(RLIMIT_NOFILE, &inherited.nofile) == 0;
	inherited.saved = true;
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	signal(SIGCHLD, SIG_DFL);
}

/* In the child, before exec: pfmon's changes undone (async-signal-safe
 * calls only).  A signal handled by pfmon reverts to the default, as
 * exec would do; one ignored when pfmon started is ignored again. */
static void restore_inherited(void)
{
	struct sigaction sa;

	if (!inherited.saved) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		return;
	}
	for (int fd = 0; fd < 3; fd++)
		if (inherited.closed[fd])
			close(fd);
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	for (int sig = 1; sig < NSIG; sig++) {
		if (sig == SIGKILL || sig == SIGSTOP)
			continue;
		sa.sa_handler = inherited.ignored[sig] ? SIG_IGN : SIG_DFL;
		sigaction(sig, &sa, NULL); /* glibc's own signals refuse: fine */
	}
	if (inherited.have_nofile)
		setrlimit(RLIMIT_NOFILE, &inherited.nofile);
	sigprocmask(SIG_SETMASK, &inherited.mask, NULL);
}

static void forward_signal(int sig)
{
	got_signal = sig;
	if (child_pid > 0)
		kill((pid_t)child_pid, sig);
}

static void install_forwarding(void)
{
	struct sigaction sa;

	static const int caught[] = { SIGINT, SIGTERM, SIGHUP };

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = forward_signal;
	sigemptyset(&sa.sa_mask);
	/* even those pfmon received ignored (a background job of a script
	 * gets SIGINT ignored): asked to stop, pfmon stops and reports; the
	 * command gets them back as they were, ignored or not */
	for (size_t i = 0; i < sizeof(caught) / sizeof(caught[0]); i++)
		sigaction(caught[i], &sa, NULL);
}

void launch_catch_signals(void)
{
	install_forwarding();
}

int launch_interrupted(void)
{
	return got_signal;
}

static void silence_output(void)
{
	int fd = open("/dev/null", O_WRONLY);

	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		close(fd);
	}
}

static void redirect_output(const struct launch_opts *opts)
{
	if (!opts)
		return;
	if (opts->no_output)
		silence_output();
	else if (opts->stdout_to_stderr && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
		close(STDOUT_FILENO); /* no stderr: the sample stream must not get the output */
}

/* what the child reports through the exec pipe: errno, with this bit
 * when pinning failed rather than the exec */
#define PIN_FAILED (1 << 30)

/* --pin-command: the command and what it starts run on these CPUs only */
static int pin(const struct launch_opts *opts)
{
	cpu_set_t set;

	if (!opts || !opts->n_pin_cpus)
		return 0;
	CPU_ZERO(&set);
	for (size_t i = 0; i < opts->n_pin_cpus; i++)
		if (opts->pin_cpus[i] >= 0 && opts->pin_cpus[i] < CPU_SETSIZE)
			CPU_SET(opts->pin_cpus[i], &set);
	return sched_setaffinity(0, sizeof(set), &set) ? errno | PIN_FAILED : 0;
}

/* In the child: wait for the go byte, then exec; report errno on failure. */
static void child_run(char *const argv[], const struct launch_opts *opts, int go_rd, int err_wr)
{
	char go;
	ssize_t n;
	int e;

	do /* a signal while held is pfmon's to act on */
		n = read(go_rd, &go, 1);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		_exit(127); /* parent gave up on us */
	close(go_rd);
	restore_inherited();
	redirect_output(opts);
	e = pin(opts);
	if (!e) {
		execvp(argv[0], argv);
		e = errno;
	}
	if (write(err_wr, &e, sizeof(e)) != (ssize_t)sizeof(e))
		_exit(127);
	_exit(127);
}

int child_fork(char *const argv[], const struct launch_opts *opts, struct child *c, struct pf_error *err)
{
	int go[2], ex[2];

	install_forwarding(); /* before the fork: the held child only notes a signal */
	if (pipe2(go, O_CLOEXEC))
		return pf_error_set(err, PF_E_FORK, argv[0], strerror(errno));
	if (pipe2(ex, O_CLOEXEC)) {
		close(go[0]);
		close(go[1]);
		return pf_error_set(err, PF_E_FORK, argv[0], strerror(errno));
	}
	fflush(NULL);
	c->pid = fork();
	if (c->pid < 0) {
		int e = errno;

		close(go[0]);
		close(go[1]);
		close(ex[0]);
		close(ex[1]);
		return pf_error_set(err, PF_E_FORK, argv[0], strerror(e));
	}
	if (c->pid == 0) {
		close(go[1]);
		close(ex[0]);
		child_run(argv, opts, go[0], ex[1]);
	}
	close(go[0]);
	close(ex[1]);
	c->go_fd = go[1];
	c->exec_err_fd = ex[0];
	child_pid = c->pid;
	return 0;
}

int child_release(struct child *c, const char *cmd, struct pf_error *err)
{
	int e = 0;
	ssize_t n;

	if (write(c->go_fd, "g", 1) != 1) {
		close(c->go_fd);
		return pf_error_set(err, PF_E_FORK, cmd, strerror(errno));
	}
	close(c->go_fd);
	c->go_fd = -1;
	do
		n = read(c->exec_err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(c->exec_err_fd);
	c->exec_err_fd = -1;
	if (n == (ssize_t)sizeof(e) && (e & PIN_FAILED)) {
		char why[160];

		waitpid(c->pid, NULL, 0);
		child_pid = 0;
		snprintf(why, sizeof(why), "cannot pin it on the CPUs of --cpu-list: %s", strerror(e & ~PIN_FAILED));
		return pf_error_set(err, PF_E_FORK, cmd, why);
	}
	if (n == (ssize_t)sizeof(e)) {
		waitpid(c->pid, NULL, 0);
		child_pid = 0;
		return pf_error_set(err, PF_E_COMMAND_NOT_FOUND, cmd,
				    e == ENOENT ? "command not found" : strerror(e));
	}
	if (got_signal) /* it came after the last look, while the command was held */
		kill(c->pid, got_signal);
	return 0;
}

int child_start(char *const argv[], const struct launch_opts *opts, child_attach_fn attach, void *arg,
		struct child *c, struct pf_error *err)
{
	int rc;

	if (child_fork(argv, opts, c, err))
		return -1;
	rc = attach(c->pid, arg, err);
	if (got_signal) /* whatever the opening said after it: Ctrl-C came first */
		rc = pf_error_set(err, PF_E_INTERRUPTED);
	if (rc) {
		child_abort(c); /* the command never starts */
		return -1;
	}
	return child_release(c, argv[0], err);
}

void child_abort(struct child *c)
{
	if (c->go_fd >= 0)
		close(c->go_fd); /* the child reads EOF and exits */
	if (c->exec_err_fd >= 0)
		close(c->exec_err_fd);
	c->go_fd = c->exec_err_fd = -1;
	waitpid(c->pid, NULL, 0);
	child_pid = 0;
}

static int exit_status(int status)
{
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

int child_wait(struct child *c)
{
	int status;
	pid_t r;

	do
		r = wait4(c->pid, &status, 0, &c->usage);
	while (r < 0 && errno == EINTR);
	child_pid = 0;
	return r < 0 ? 1 : exit_status(status);
}

int child_poll(struct child *c, int *status)
{
	int st;
	pid_t r = wait4(c->pid, &st, WNOHANG, &c->usage);

	if (r == 0 || (r < 0 && errno == EINTR))
		return 0;
	child_pid = 0;
	*status = r < 0 ? 1 : exit_status(st);
	return 1;
}

void child_kill(struct child *c)
{
	kill(c->pid, SIGKILL);
	waitpid(c->pid, NULL, 0);
	child_pid = 0;
}
