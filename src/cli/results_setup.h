/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The counts' options of the command line (cli/results_setup.c). */
#ifndef PFMON_CLI_RESULTS_SETUP_H
#define PFMON_CLI_RESULTS_SETUP_H

#include "common/config.h"
#include "results/format.h"
#include "results/results.h"

/* how the count writers write: kind, separator, number format, -v,
 * --metric-only, --merge-ranks */
struct count_format_opts count_format_opts_from_config(const struct pf_config *cfg);
/* the results header's pfmon 3.x fields (the events as given, the command,
 * the monitoring mode) from cfg; results_header_given_release frees them */
void results_header_given(const struct pf_config *cfg, struct results_header *h);
void results_header_given_release(struct results_header *h);

#endif
