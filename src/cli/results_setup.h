/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The counts' options of the command line (cli/results_setup.c). */
#ifndef PFMON_CLI_RESULTS_SETUP_H
#define PFMON_CLI_RESULTS_SETUP_H

#include "common/config.h"
#include "results/count_print.h"
#include "results/format.h"
#include "results/results.h"

/* how the count writers write: kind, separator, number format, -v,
 * --metric-only, --merge-ranks */
struct count_format_opts count_format_opts_from_config(const struct pf_config *cfg);
/* the results header's pfmon 3.x fields (the events as given, the command,
 * the monitoring mode) from cfg; results_header_given_release frees them */
void results_header_given(const struct pf_config *cfg, struct results_header *h);
void results_header_given_release(struct results_header *h);
/* the machine, for the header's pfmon 3.x lines (uname, sysconf) */
void results_host_facts(struct results_host *h);
/* how a counting run's results are printed: the count writers' options,
 * and the files of per-task and per-CPU results (--outfile, --append,
 * --exec-split-results) */
struct count_print_opts count_print_opts_from_config(const struct pf_config *cfg);

#endif
