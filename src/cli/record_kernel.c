/*
 * The kernel record of a sampling session.  It goes first into the sample
 * file and first to the profile, so the report at the end of the run and a
 * later --report from the file take the same decision about kernel symbols:
 * the running kernel's kallsyms and vDSO apply only to samples it took.
 */
#include <config.h>

#include "commands.h"
#include "report/kernel_check.h"

int record_kernel_identity(struct smpl_writer *w, struct profile *p, struct pf_error *err)
{
	struct sample_record rec = { .type = SREC_KERNEL };

	kernel_record_running(&rec.kernel);
	if (w && smpl_write_record(w, &rec, err))
		return -1;
	profile_add(p, &rec);
	return 0;
}
