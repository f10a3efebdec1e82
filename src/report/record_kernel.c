/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel record of a sampling session.  It goes first into the sample
 * file and first to the profile, so the report at the end of the run and a
 * later --report from the file take the same decision about kernel symbols:
 * the running kernel's kallsyms and vDSO apply only to samples it took.
 * At the end the kernel symbols that named samples follow them, as perf
 * record keeps a copy of kallsyms: a report of the file then reads no
 * kallsyms (slow: the kernel formats 120,000 lines) and names them whatever
 * kernel runs.
 */
#include <config.h>

#include <stdlib.h>

#include "report/kernel_check.h"
#include "report/record_kernel.h"

int record_kernel_identity(struct sample_out *w, struct profile *p, struct pf_error *err)
{
	struct sample_record rec = { .type = SREC_KERNEL };

	kernel_record_running(&rec.kernel);
	if (w && sample_out_record(w, &rec, err))
		return -1;
	profile_add(p, &rec);
	/* from here on each binary mapped gets its identity in the file */
	if (w)
		profile_record_binaries(p, w);
	return 0;
}

int record_kernel_symbols(struct sample_out *w, struct profile *p, struct pf_error *err)
{
	struct sample_ksym *syms;
	size_t n = profile_kernel_symbols(p, &syms);
	int rc = 0;

	for (size_t i = 0; i < n && !rc; i++) {
		struct sample_record rec = { .type = SREC_KSYM, .ksym = syms[i] };

		rc = sample_out_record(w, &rec, err);
	}
	free(syms);
	return rc;
}
