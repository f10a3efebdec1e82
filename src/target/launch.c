#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "launch.h"

static volatile sig_atomic_t child_pid;
static volatile sig_atomic_t got_signal;

static void forward_signal(int sig)
{
	got_signal = sig;
	if (child_pid > 0)
		kill((pid_t)child_pid, sig);
}

static void install_forwarding(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = forward_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
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

/* In the child: wait for the go byte, then exec; report errno on failure. */
static void child_run(char *const argv[], const struct launch_opts *opts, int go_rd, int err_wr)
{
	char go;
	int e;

	if (read(go_rd, &go, 1) != 1)
		_exit(127); /* parent gave up on us */
	close(go_rd);
	if (opts && opts->no_output)
		silence_output();
	execvp(argv[0], argv);
	e = errno;
	if (write(err_wr, &e, sizeof(e)) != (ssize_t)sizeof(e))
		_exit(127);
	_exit(127);
}

int child_fork(char *const argv[], const struct launch_opts *opts, struct child *c, struct pf_error *err)
{
	int go[2], ex[2];

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
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		child_run(argv, opts, go[0], ex[1]);
	}
	close(go[0]);
	close(ex[1]);
	c->go_fd = go[1];
	c->exec_err_fd = ex[0];
	child_pid = c->pid;
	install_forwarding();
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
	if (n == (ssize_t)sizeof(e)) {
		waitpid(c->pid, NULL, 0);
		child_pid = 0;
		return pf_error_set(err, PF_E_COMMAND_NOT_FOUND, cmd,
				    e == ENOENT ? "command not found" : strerror(e));
	}
	return 0;
}

int child_start(char *const argv[], const struct launch_opts *opts, child_attach_fn attach, void *arg,
		struct child *c, struct pf_error *err)
{
	if (child_fork(argv, opts, c, err))
		return -1;
	if (attach(c->pid, arg, err)) {
		child_abort(c);
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
