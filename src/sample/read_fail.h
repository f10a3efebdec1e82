/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A file reader's failure (pfmon's sample file, perf.data): the first one
 * is kept, and the reader answers every later call with it, so a hostile
 * file yields one error, never a different one per record.
 */
#ifndef PFMON_SAMPLE_READ_FAIL_H
#define PFMON_SAMPLE_READ_FAIL_H

#include <stdbool.h>

#include "common/error.h"

struct read_fail {
	bool failed;
	struct pf_error error;
};

/* Keep the error code's message (the arguments of its format follow) and
 * copy it to err (may be NULL).  Returns -1. */
int read_fail_set(struct read_fail *f, struct pf_error *err, enum pf_errcode code, ...);
/* PF_E_BAD_FILE: "'NAME': WHY", WHY formatted from fmt.  Returns -1. */
int read_fail_bad_file(struct read_fail *f, const char *name, struct pf_error *err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Keep an error already made (a library that could not be loaded).
 * Returns -1. */
int read_fail_keep(struct read_fail *f, const struct pf_error *e, struct pf_error *err);
/* true, and the kept error copied to err (may be NULL), if the reader failed */
bool read_fail_again(const struct read_fail *f, struct pf_error *err);

#endif
