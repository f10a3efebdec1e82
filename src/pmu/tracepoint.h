/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's tracepoints (perf's SUBSYSTEM:EVENT), read from tracefs
 * where it is mounted.  libpfm4 4.13 looks under debugfs only, so on a
 * system that mounts tracefs alone (as most do now) it knows none of them.
 */
#ifndef PFMON_PMU_TRACEPOINT_H
#define PFMON_PMU_TRACEPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The tracing directory named by a mounts file (/proc/mounts' format): a
 * tracefs mount point (/sys/kernel/tracing), else a debugfs one with a
 * tracing directory (/sys/kernel/debug/tracing), the first of each kind in
 * the file's order that has an events directory (or one this user may not
 * read: tracefs_readable() tells).  Nothing is mounted.
 * false if there is none.
 */
bool tracefs_find(const char *mounts_path, char *dir, size_t size);

/* tracefs_find() of /proc/mounts, looked up once; NULL if not mounted */
const char *tracefs_dir(void);

/* The id of tracepoint SUBSYSTEM:EVENT (perf_event_attr.config of
 * PERF_TYPE_TRACEPOINT) from dir; false if dir has no such tracepoint or
 * a name is not a tracepoint name (letters, digits, '_' and '-'). */
bool tracepoint_id(const char *dir, const char *subsystem, const char *event, uint64_t *id);

/* may this user read dir's tracepoints?  (tracefs is root's, mode 0700) */
bool tracefs_readable(const char *dir);

/* does dir hold tracepoint subsystem name (events/NAME)? */
bool tracepoint_subsystem(const char *dir, const char *name);

/* the fields of tracepoint SUBSYSTEM:EVENT of dir, space-separated (its
 * format file's "field:TYPE NAME;" lines but the common_ ones every event
 * has): "prev_comm prev_pid ..."; "" if none or unreadable */
char *tracepoint_fields(const char *dir, const char *subsystem, const char *event);

/* Each tracepoint of dir (kprobes and uprobes defined there too) as
 * SUBSYSTEM:EVENT, in name order, "Tracepoint event" its description;
 * with fields, its format's own fields ("prev_comm prev_pid ...") after it.
 * Non-zero from cb stops the walk. */
int tracepoint_list(const char *dir, bool fields, int (*cb)(const char *name, const char *desc, void *arg),
		    void *arg);

#endif
