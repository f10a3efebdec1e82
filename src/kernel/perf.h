/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel interface: the only code that calls perf_event_open(2) and the
 * ioctl/read calls on counter fds (the ring buffer's mmap is in ring.c).
 *
 * Test seam: with PFMON_DUMP_ATTR=FILE every perf_event_attr is appended to
 * FILE, one line of key=value pairs, before the syscall is made, so the
 * encodings of a forced libpfm4 model can be checked on a machine whose
 * kernel could never open them.
 */
#ifndef PFMON_KERNEL_PERF_H
#define PFMON_KERNEL_PERF_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/error.h"

struct kperf_count {
	uint64_t value;
	uint64_t enabled; /* ns the event was enabled */
	uint64_t running; /* ns it was on a counter (< enabled: multiplexed) */
};

/* Returns the fd, or -errno. */
int kperf_open(const struct perf_event_attr *attr, const char *name, pid_t pid, int cpu, int group_fd);
/*
 * fd's own count whatever read_format (the event's) holds: in a group read
 * (PERF_FORMAT_GROUP) the entry whose id is id, else the leader's; the
 * times are 0 when read_format lacks them
 */
int kperf_read_format(int fd, uint64_t read_format, uint64_t id, struct kperf_count *out);
/*
 * The samples the kernel could not write for fd's event (PERF_FORMAT_LOST,
 * Linux 6.0), inherited children's included: read_format is the event's;
 * -EINVAL when it lacks PERF_FORMAT_LOST.
 */
int kperf_read_lost(int fd, uint64_t read_format, uint64_t *lost);
int kperf_enable(int fd);
/* zero the count (not the times) */
int kperf_reset(int fd);
int kperf_disable(int fd);
void kperf_close(int fd);
/* send fd's records into target's ring buffer (same CPU) */
int kperf_set_output(int fd, int target);
/* the id the kernel gives fd's records (PERF_SAMPLE_IDENTIFIER) */
int kperf_id(int fd, uint64_t *id);
/* change a sampling event's period while it runs */
int kperf_set_period(int fd, uint64_t period);

/* kernel.perf_event_paranoid, or 2 (the default) if unreadable */
int kperf_paranoid(void);
/* does the kernel expose a core hardware PMU to count cycles? (one probe) */
bool kperf_hw_counting_works(void);
/* do hardware breakpoints (debug registers) fire here?  one probe, kept;
 * kperf_open refuses breakpoint events with -ENODEV when they do not */
enum kperf_bp_state { KPERF_BP_UNKNOWN, KPERF_BP_FIRE, KPERF_BP_SILENT };
enum kperf_bp_state kperf_breakpoints_fire(void);
/* 0 if an event of attr's type, config and levels opens on pfmon itself
 * (a counter, not sampling; not for breakpoints), else -errno */
int kperf_probe(const struct perf_event_attr *attr);

/* test seams (pfmon(1), ENVIRONMENT): when the variable var holds a number
 * of milliseconds (60000 at most), pause that long, so a test can signal
 * pfmon in a given phase: PFMON_TEST_OPEN_DELAY before each counter opens,
 * PFMON_TEST_REPORT_DELAY before the results are printed */
void kperf_test_pause(const char *var);
/* turn a failed open into advice: no PMU in a VM, paranoid level, ... */
int kperf_open_error(const struct perf_event_attr *attr, const char *name, int errnum, struct pf_error *err);

#endif
