/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/hw_breakpoint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common/debug.h"
#include "common/util.h"

#include "perf.h"

/* the most events a group read returns: a sampling event and the events
 * read in its samples (sample/sample.h: SAMPLE_MAX_READ) */
#define SAMPLE_READ_MAX 16

static void dump_attr(const struct perf_event_attr *a, const char *name, pid_t pid, int cpu, int group_fd)
{
	const char *path = getenv("PFMON_DUMP_ATTR");
	FILE *f;

	if (!path || !*path)
		return;
	f = fopen(path, "a");
	if (!f)
		return;
	fprintf(f,
		"event=%s pid=%d cpu=%d group_fd=%d type=%u config=%#llx config1=%#llx config2=%#llx "
		"sample_period=%llu freq=%u sample_type=%#llx read_format=%#llx disabled=%u inherit=%u "
		"enable_on_exec=%u exclude_user=%u exclude_kernel=%u exclude_hv=%u exclude_idle=%u "
		"precise_ip=%u mmap=%u mmap2=%u comm=%u task=%u sample_id_all=%u bp_type=%u bp_addr=%#llx "
		"bp_len=%llu branch_sample_type=%#llx watermark=%u wakeup=%u\n",
		name, (int)pid, cpu, group_fd, a->type, (unsigned long long)a->config,
		(unsigned long long)a->config1, (unsigned long long)a->config2,
		(unsigned long long)a->sample_period, a->freq, (unsigned long long)a->sample_type,
		(unsigned long long)a->read_format, a->disabled, a->inherit, a->enable_on_exec, a->exclude_user,
		a->exclude_kernel, a->exclude_hv, a->exclude_idle, a->precise_ip, a->mmap, a->mmap2, a->comm,
		a->task, a->sample_id_all, a->bp_type, (unsigned long long)a->bp_addr,
		(unsigned long long)a->bp_len, (unsigned long long)a->branch_sample_type, a->watermark,
		a->watermark ? a->wakeup_watermark : a->wakeup_events);
	fclose(f);
}

void kperf_test_pause(const char *var)
{
	const char *v = getenv(var);
	uint64_t ms;

	if (v && parse_u64(v, &ms) && ms && ms <= 60000)
		nanosleep(&(struct timespec){ (time_t)(ms / 1000), (long)(ms % 1000) * 1000000 }, NULL);
}

/* the probe breakpoint's target: an instruction pfmon itself executes */
__attribute__((noinline)) static void breakpoint_probe_target(void)
{
	__asm__ volatile("" ::: "memory");
}

/*
 * Some hypervisors accept breakpoint events but never deliver the debug
 * exception, so every count is 0 (perf stat prints 0 too).  One execute
 * breakpoint on breakpoint_probe_target, hit once, tells: fires, does not,
 * or cannot say (it did not open: the real open will report why).
 */
enum kperf_bp_state kperf_breakpoints_fire(void)
{
	static enum kperf_bp_state state = KPERF_BP_UNKNOWN;
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = PERF_TYPE_BREAKPOINT,
		.bp_type = HW_BREAKPOINT_X,
		.bp_addr = (uintptr_t)breakpoint_probe_target,
		.bp_len = sizeof(long),
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	struct kperf_count c;
	long fd;

	if (state != KPERF_BP_UNKNOWN)
		return state;
	/* test seam: the refusals of a machine whose breakpoints do not fire */
	if (getenv("PFMON_TEST_BREAKPOINTS_SILENT"))
		return state = KPERF_BP_SILENT;
	fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return KPERF_BP_UNKNOWN;
	breakpoint_probe_target();
	if (read((int)fd, &c.value, sizeof(c.value)) == (ssize_t)sizeof(c.value))
		state = c.value ? KPERF_BP_FIRE : KPERF_BP_SILENT;
	close((int)fd);
	return state;
}

int kperf_open(const struct perf_event_attr *attr, const char *name, pid_t pid, int cpu, int group_fd)
{
	long fd;

	dump_attr(attr, name, pid, cpu, group_fd);
	/* a test can signal pfmon while its counters open (after the dump:
	 * PFMON_DUMP_ATTR's file tells it when) */
	kperf_test_pause("PFMON_TEST_OPEN_DELAY");
	/* a breakpoint that can never fire would count a silent 0 */
	if (attr->type == PERF_TYPE_BREAKPOINT && kperf_breakpoints_fire() == KPERF_BP_SILENT)
		return -ENODEV;
	fd = syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		pf_debug(1, "perf_event_open %s type=%u config=%#llx pid=%d cpu=%d group_fd=%d: %s", name, attr->type,
			 (unsigned long long)attr->config, (int)pid, cpu, group_fd, strerror(e));
		return -e;
	}
	pf_debug(1, "perf_event_open %s type=%u config=%#llx pid=%d cpu=%d group_fd=%d disabled=%u: fd %ld", name,
		 attr->type, (unsigned long long)attr->config, (int)pid, cpu, group_fd, attr->disabled, fd);
	return (int)fd;
}

/* where fd's own value is in a group read (nr, the times, then {value,
 * [id], [lost]} per event from first): the entry whose id is id, else the
 * leader's, the first; 0 when the read holds no entry */
static size_t group_entry(const uint64_t *buf, size_t n, size_t first, uint64_t rf, uint64_t id)
{
	size_t per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	uint64_t nr = buf[0];

	if (nr == 0 || nr > (n - first) / per)
		return 0;
	for (uint64_t i = 0; (rf & PERF_FORMAT_ID) && i < nr; i++)
		if (buf[first + i * per + 1] == id)
			return first + i * per;
	return first;
}

int kperf_read_format(int fd, uint64_t rf, uint64_t id, struct kperf_count *out)
{
	uint64_t buf[3 + 3 * (SAMPLE_READ_MAX + 1)];
	size_t n, times, value = 0, at = 1; /* the times follow nr, or the value */
	ssize_t got = read(fd, buf, sizeof(buf));

	if (got < 0)
		return -errno;
	n = (size_t)got / sizeof(uint64_t);
	times = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) + !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	if (n < 1 + times + !!(rf & PERF_FORMAT_GROUP))
		return -EIO;
	if ((rf & PERF_FORMAT_GROUP) && !(value = group_entry(buf, n, 1 + times, rf, id)))
		return -EIO;
	*out = (struct kperf_count){ .value = buf[value] };
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		out->enabled = buf[at++];
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		out->running = buf[at];
	pf_debug(2, "read fd %d: value=%llu enabled=%llu running=%llu", fd, (unsigned long long)out->value,
		 (unsigned long long)out->enabled, (unsigned long long)out->running);
	return 0;
}

int kperf_read_lost(int fd, uint64_t rf, uint64_t *lost)
{
	uint64_t buf[3 + 3 * (SAMPLE_READ_MAX + 1)];
	size_t at;
	ssize_t n;

	if (!(rf & PERF_FORMAT_LOST))
		return -EINVAL;
	n = read(fd, buf, sizeof(buf));
	if (n < 0)
		return -errno;
	/* a group read: nr, the times, then {value, [id], lost} of the leader
	 * first; else value, the times, [id], lost */
	at = (rf & PERF_FORMAT_GROUP) ? 1 : 0;
	at += !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) + !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	at += 1 + !!(rf & PERF_FORMAT_ID); /* the (leader's) value and id */
	if ((size_t)n < (at + 1) * sizeof(uint64_t))
		return -EIO;
	*lost = buf[at];
	return 0;
}

int kperf_enable(int fd)
{
	pf_debug(2, "ioctl fd %d PERF_EVENT_IOC_ENABLE", fd);
	return ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) ? -errno : 0;
}

int kperf_reset(int fd)
{
	return ioctl(fd, PERF_EVENT_IOC_RESET, 0) ? -errno : 0;
}

int kperf_disable(int fd)
{
	pf_debug(2, "ioctl fd %d PERF_EVENT_IOC_DISABLE", fd);
	return ioctl(fd, PERF_EVENT_IOC_DISABLE, 0) ? -errno : 0;
}

int kperf_set_output(int fd, int target)
{
	return ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, target) ? -errno : 0;
}

int kperf_id(int fd, uint64_t *id)
{
	return ioctl(fd, PERF_EVENT_IOC_ID, id) ? -errno : 0;
}

int kperf_set_period(int fd, uint64_t period)
{
	return ioctl(fd, PERF_EVENT_IOC_PERIOD, &period) ? -errno : 0;
}

void kperf_close(int fd)
{
	if (fd >= 0)
		close(fd);
}

int kperf_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int level = 2;

	if (f) {
		if (fscanf(f, "%d", &level) != 1)
			level = 2;
		fclose(f);
	}
	return level;
}

bool kperf_hw_counting_works(void)
{
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.disabled = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	long fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0)
		return false;
	close((int)fd);
	return true;
}

static bool is_hardware_attr(const struct perf_event_attr *attr)
{
	return attr->type != PERF_TYPE_SOFTWARE && attr->type != PERF_TYPE_TRACEPOINT &&
	       attr->type != PERF_TYPE_BREAKPOINT;
}

/*
 * What lets the user open it, least intrusive first: at paranoid >= 2 an
 * unprivileged user counts user level only, so dropping the kernel level
 * (-u, :u) comes before weakening a system-wide setting.
 */
static const char *perm_advice(const struct perf_event_attr *attr, int paranoid, char *buf, size_t size)
{
	bool user_level_helps = !attr->exclude_kernel && paranoid == 2;
	int lower_to = paranoid > 2 && attr->exclude_kernel ? 2 : paranoid > 1 ? 1 : -1;

	snprintf(buf, size, "%srun as root, grant CAP_PERFMON, or lower it with 'sysctl kernel.perf_event_paranoid=%d'",
		 user_level_helps ? "count user level only (-u, or ':u' on the event), " : "", lower_to);
	return buf;
}

int kperf_probe(const struct perf_event_attr *attr)
{
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = attr->type,
		.config = attr->config,
		.config1 = attr->config1,
		.config2 = attr->config2,
		.exclude_user = attr->exclude_user,
		.exclude_kernel = attr->exclude_kernel,
		.exclude_hv = attr->exclude_hv,
		.disabled = 1,
	};
	long fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0)
		return -errno;
	close((int)fd);
	return 0;
}

int kperf_open_error(const struct perf_event_attr *attr, const char *name, int errnum, struct pf_error *err)
{
	char advice[256];
	int paranoid;

	switch (errnum) {
	case EACCES:
	case EPERM:
		paranoid = kperf_paranoid();
		return pf_error_set(err, PF_E_PERM, name, paranoid, perm_advice(attr, paranoid, advice, sizeof(advice)));
	case ENOENT:
	case ENODEV:
	case EOPNOTSUPP:
		if (attr->type == PERF_TYPE_BREAKPOINT && kperf_breakpoints_fire() == KPERF_BP_SILENT)
			return pf_error_set(err, PF_E_BREAKPOINTS_SILENT, name);
		if (is_hardware_attr(attr) && !kperf_hw_counting_works())
			return pf_error_set(err, PF_E_NO_HW_PMU, name);
		return pf_error_set(err, PF_E_NOT_SUPPORTED, name,
				    errnum == EOPNOTSUPP ? "this PMU does not support the requested feature"
							 : "the kernel does not know this event on this machine");
	case EINVAL:
		if (attr->type == PERF_TYPE_BREAKPOINT)
			return pf_error_set(err, PF_E_NOT_SUPPORTED, name,
					    "invalid breakpoint (address must be aligned to its length)");
		return pf_error_set(err, PF_E_NOT_SUPPORTED, name, "the kernel rejected its encoding (EINVAL)");
	case EMFILE:
		return pf_error_set(err, PF_E_OPEN, name, "too many open files (raise 'ulimit -n')");
	case ENOSPC:
		return pf_error_set(err, PF_E_NOT_SUPPORTED, name, "no free debug register for the breakpoint");
	default:
		return pf_error_set(err, PF_E_OPEN, name, strerror(errnum));
	}
}
