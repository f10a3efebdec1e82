/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel records of a sampling session (report/record_kernel.c). */
#ifndef PFMON_REPORT_RECORD_KERNEL_H
#define PFMON_REPORT_RECORD_KERNEL_H

#include "common/error.h"
#include "report/profile.h"
#include "sample/sample_out.h"

/* which kernel takes the samples: to the file (w may be NULL), then to p */
int record_kernel_identity(struct sample_out *w, struct profile *p, struct pf_error *err);
/* at the end: the kernel symbols that named samples, into the file */
int record_kernel_symbols(struct sample_out *w, struct profile *p, struct pf_error *err);

#endif
