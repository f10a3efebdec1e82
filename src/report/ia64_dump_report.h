/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reports of Itanium 2 samples: a PMD dump (pfmon-smpl(5)), or the sample
 * file made of one (report/ia64_dump_report.c). */
#ifndef PFMON_REPORT_IA64_DUMP_REPORT_H
#define PFMON_REPORT_IA64_DUMP_REPORT_H

#include "common/error.h"
#include "report/ia64_report.h"
#include "report/profile.h"
#include "sample/smpl_file.h"

struct ia64_dump_report_opts {
	struct ia64_report_opts report; /* the sampling module and its views */
	const char *path;               /* the file read ("-": stdin, for a dump) */
	const char *smpl_outfile;       /* a dump: saved as a sample file too (NULL: not) */
	/* a branch report (a branch sort or fdata) of the BTB's pairs instead
	 * of the sampling module: the host's branch stacks' report */
	bool branches;
	struct profile_opts profile;
};

/* a dump, each sample printed as it is decoded */
int ia64_dump_report(const struct ia64_dump_report_opts *o, struct pf_error *err);
/* the sample file of a dump (its first record, the Itanium 2 configuration,
 * already read from rd): the same report as of the dump */
int ia64_dump_report_file(const struct ia64_dump_report_opts *o, struct smpl_reader *rd,
			  const struct sample_record *first, struct pf_error *err);

#endif
