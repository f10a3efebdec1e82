/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The sampling floor of bench/sampling: cpu-clock at a frequency on a
 * command, its ring drained into a file with no decoding and no naming,
 * the least any sampler does, on the rings pfmon opens (one per CPU, 128
 * pages, woken at a quarter full).  sampler FREQ OUT COMMAND [ARG...]
 */
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define DATA_PAGES 128

static void drain(struct perf_event_mmap_page *meta, const char *data, size_t size, int out)
{
	uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE), tail = meta->data_tail;

	while (tail < head) {
		size_t at = tail % size, n = head - tail < size - at ? head - tail : size - at;

		if (write(out, data + at, n) != (ssize_t)n)
			exit(1);
		tail += n;
	}
	__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
}

int main(int argc, char **argv)
{
	size_t page = sysconf(_SC_PAGESIZE), size = DATA_PAGES * page;
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	struct pollfd p[n];
	void *ring[n];
	struct perf_event_attr a;
	int go[2], out, st;
	pid_t pid;

	if (argc < 4 || pipe(go))
		return 2;
	pid = fork();
	if (pid == 0) {
		char c;

		close(go[1]);
		if (read(go[0], &c, 1) != 0)
			_exit(127);
		execvp(argv[3], argv + 3);
		_exit(127);
	}
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.freq = 1;
	a.sample_freq = strtoul(argv[1], NULL, 0);
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	a.inherit = 1;
	a.enable_on_exec = 1;
	a.disabled = 1;
	a.mmap = 1;
	a.comm = 1;
	a.task = 1;
	a.watermark = 1; /* woken at a quarter of the ring, as pfmon is */
	a.wakeup_watermark = size / 4;
	/* an inherited event is per CPU (the kernel maps no per-task inherited
	 * ring), as perf record's are: a ring per CPU */
	for (long cpu = 0; cpu < n; cpu++) {
		p[cpu].fd = syscall(SYS_perf_event_open, &a, pid, (int)cpu, -1, PERF_FLAG_FD_CLOEXEC);
		p[cpu].events = POLLIN;
		ring[cpu] = p[cpu].fd < 0 ? MAP_FAILED
					  : mmap(NULL, size + page, PROT_READ | PROT_WRITE, MAP_SHARED, p[cpu].fd, 0);
		if (ring[cpu] == MAP_FAILED)
			return 1;
	}
	out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	close(go[1]);
	if (out < 0)
		return 1;
	while (waitpid(pid, &st, WNOHANG) == 0) {
		poll(p, n, 100);
		for (long cpu = 0; cpu < n; cpu++)
			drain(ring[cpu], (char *)ring[cpu] + page, size, out);
	}
	for (long cpu = 0; cpu < n; cpu++)
		drain(ring[cpu], (char *)ring[cpu] + page, size, out);
	return close(out) ? 1 : 0;
}
