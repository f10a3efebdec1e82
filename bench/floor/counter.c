/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The start-up floor of bench/startup: task-clock counted on a command, as
 * 'pfmon -e task-clock' and 'perf stat -e task-clock' do, with nothing
 * else.  counter COMMAND [ARG...]
 */
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	struct perf_event_attr a;
	int go[2], fd, st;
	uint64_t v;
	pid_t pid;
	if (argc < 2 || pipe(go))
		return 2;
	pid = fork();
	if (pid == 0) {
		char c;
		close(go[1]);
		if (read(go[0], &c, 1) != 0)
			_exit(127);
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.inherit = 1;
	a.enable_on_exec = 1;
	a.disabled = 1;
	fd = syscall(SYS_perf_event_open, &a, pid, -1, -1, 0);
	close(go[1]);
	waitpid(pid, &st, 0);
	if (fd < 0 || read(fd, &v, sizeof(v)) != sizeof(v))
		return 1;
	fprintf(stderr, "%llu task-clock\n", (unsigned long long)v);
	return 0;
}
