/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Is the kernel that took the samples the running one?  Only then do the
 * running kernel's symbols (/proc/kallsyms) and its vDSO image apply to
 * them.  A sampling session describes its kernel in a kernel record, first
 * in the sample file and first to the profile; a file without one (written
 * by pfmon 1.0) gets no kernel symbols.
 */
#ifndef PFMON_REPORT_KERNEL_CHECK_H
#define PFMON_REPORT_KERNEL_CHECK_H

#include <stdbool.h>

#include "common/util.h"
#include "sample/sample.h"
#include "symbol/symbol.h"

struct kernel_check {
	bool recorded;               /* a kernel record was seen */
	enum sym_kernel_match match; /* of then against now, when recorded */
	struct sym_kernel_id then, now;
};

/* the running kernel, as the kernel record of a sampling session */
void kernel_record_running(struct sample_kernel *out);
/* compare a kernel record with the running kernel */
void kernel_check_record(struct kernel_check *kc, const struct sample_kernel *k);
/* the samples' kernel is the running one, in this boot */
bool kernel_check_same(const struct kernel_check *kc);
/* why not, in one line for the report; false when it is the same */
bool kernel_check_why_not(const struct kernel_check *kc, struct strbuf *sb);

#endif
