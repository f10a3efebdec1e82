/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report options of the command line (cli/report_setup.c). */
#ifndef PFMON_CLI_REPORT_SETUP_H
#define PFMON_CLI_REPORT_SETUP_H

#include "common/config.h"
#include "common/error.h"
#include "report/ia64_dump_report.h"
#include "report/ia64_report.h"
#include "report/profile.h"

/* what --smpl-print-counts and the dear-hist views name in their
 * refusals: live runs and reports refuse them alike */
#define MODULE_APPLIES "a sampling module (--smpl-module=NAME)"

/* a profile's options: recording, reporting and merging */
struct profile_opts profile_opts_from_config(const struct pf_config *cfg);
/* --symbol-file / --sysmap-file for a profile (its kernel addresses):
 * loaded into *syms (NULL when neither is given, else the caller frees
 * it with sym_symfile_free after the profile), the table printed into out
 * with --print-syms; -1 with err when the file is bad */
int profile_symbol_file(const struct pf_config *cfg, FILE *out, struct sym_symfile **syms,
			   struct pf_error *err);
/* --smpl-module and its options into the report's options; -1 with err
 * when they do not go together */
int smpl_module_options(const struct pf_config *cfg, struct ia64_report_opts *ro, struct pf_error *err);
/* a sampling module's options for host samples, a live run's or a sample
 * file's: smpl_module_options, and the profile's keys and formats refused
 * (the module prints its own rows) */
int host_module_options(const struct pf_config *cfg, struct ia64_report_opts *ro, struct pf_error *err);
/* whether a sampling module prints host samples instead of the profile */
bool host_module_wanted(const struct pf_config *cfg);
/* an Itanium 2 dump's report (--pmu=itanium2 --report=DUMP) or its sample
 * file's: the format, the module's options, the files */
int dump_report_opts(const struct pf_config *cfg, struct ia64_dump_report_opts *o, struct pf_error *err);

#endif
