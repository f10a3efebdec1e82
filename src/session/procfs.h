/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What /proc says of a running process: its threads, its name and its
 * mappings, for attaching to it.  The mappings become the MMAP2 records
 * the kernel would have written had pfmon been there from the start, as
 * perf synthesizes them.
 */
#ifndef PFMON_TARGET_PROCFS_H
#define PFMON_TARGET_PROCFS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "common/error.h"
#include "sample/sample.h"

/* The thread ids of process pid, sorted ascending (*tids allocated).
 * Returns the count, or -1 with errno set (ESRCH: no such process). */
long procfs_tasks(pid_t pid, pid_t **tids);

/* Is tid a thread of some process (its own tgid in *tgid)? */
bool procfs_tgid(pid_t tid, pid_t *tgid);

/* The process's executable mappings (and data ones when data), as
 * SREC_MMAP records with pid, tid and filename (strings allocated, freed
 * by procfs_maps_free).  Returns the count, or -1 with errno set. */
long procfs_maps(pid_t pid, bool data, struct sample_record **out);
/* The process's name as the COMM record the kernel would have sent (the
 * name allocated); false when it is gone. */
bool procfs_comm_record(pid_t pid, struct sample_record *out);
/* free records of procfs_maps and procfs_comm_record, and the array */
void procfs_maps_free(struct sample_record *recs, size_t n);

/* The online CPUs (/sys/devices/system/cpu/online), ascending, allocated;
 * the count, or -1 when unreadable. */
long procfs_online_cpus(int **cpus);

/* A /proc directory entry that is a task id (decimal, 1 to INT32_MAX). */
bool procfs_task_id(const char *name, pid_t *tid);

/* Parse a CPU list "N,N1-N2,..." (the kernel's and pfmon 3.x's syntax):
 * ascending and without duplicates into *cpus (allocated); the count, or
 * -1 with why set ("duplicated CPU 3", ...). */
long procfs_parse_cpu_list(const char *list, int **cpus, char *why, size_t why_size);

/* The task's state letter in /proc/PID/stat ('R', 'S', 'Z' for a zombie,
 * ...), 0 when it is gone. */
char procfs_state(pid_t pid);

/* The process's name as the kernel keeps it (comm), into buf. */
bool procfs_comm(pid_t pid, char *buf, size_t size);

#endif
