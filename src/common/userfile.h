/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The files a user names for pfmon to read whole (metric definitions,
 * saved counts, a job's results files): bounded, and only regular files.
 * A character device (/dev/zero, a terminal), a FIFO, a socket or a
 * directory is refused by name before it is read: reading it may never end,
 * or block (opening a FIFO waits for a writer).
 */
#ifndef PFMON_COMMON_USERFILE_H
#define PFMON_COMMON_USERFILE_H

#include <stddef.h>

#include "error.h"

/* path is a regular file (stat, not opened), else err naming it and what it is */
int user_file_check(const char *path, struct pf_error *err);

/* The whole of the regular file path, NUL-terminated in *text (the caller
 * frees it), *len bytes.  A file larger than max bytes is refused as
 * "larger than N MiB: not a <kind>".  0, or -1 with err naming the file. */
int user_file_read(const char *path, size_t max, const char *kind, char **text, size_t *len,
		   struct pf_error *err);

#endif
