/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report options of the command line (cli/report_setup.c). */
#ifndef PFMON_CLI_REPORT_SETUP_H
#define PFMON_CLI_REPORT_SETUP_H

#include "common/config.h"
#include "common/error.h"
#include "report/ia64_dump_report.h"
#include "report/ia64_report.h"
#include "report/profile.h"

/* a profile's options: recording, reporting and merging */
struct profile_opts profile_opts_from_config(const struct pf_config *cfg);
/* --smpl-module and its options into the report's options; -1 with err
 * when they do not go together */
int smpl_module_options(const struct pf_config *cfg, struct ia64_report_opts *ro, struct pf_error *err);
/* an Itanium 2 dump's report (--pmu=itanium2 --report=DUMP) or its sample
 * file's: the format, the module's options, the files */
int dump_report_opts(const struct pf_config *cfg, struct ia64_dump_report_opts *o, struct pf_error *err);

#endif
