/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The counts' options of the command line, shared by counting, --merge and
 * --metrics-from: results/ takes its own small struct, filled here from
 * struct pf_config, so it never sees the command line.  Translation only
 * (and the machine's facts for the results header, system calls that
 * results/ does not make): results/ prints.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cli/results_setup.h"
#include "common/util.h"

struct count_format_opts count_format_opts_from_config(const struct pf_config *cfg)
{
	return (struct count_format_opts){
		.kind = cfg->output_kind,
		.csv_sep = cfg->csv_sep,
		.counter_format = cfg->counter_format,
		.verbose = cfg->verbose,
		.metric_only = cfg->metric_only,
		.merge_ranks = cfg->merge_ranks,
	};
}

void results_header_given(const struct pf_config *cfg, struct results_header *h)
{
	size_t n = 0, k = 0;
	struct results_given_event *given;

	for (size_t s = 0; s < cfg->n_sets; s++)
		n += cfg->sets[s].n_events;
	given = xcalloc(n + 1, sizeof(*given));
	for (size_t s = 0; s < cfg->n_sets; s++)
		for (size_t e = 0; e < cfg->sets[s].n_events; e++) {
			unsigned plm = pf_config_event_plm(cfg, s, e);

			given[k++] = (struct results_given_event){ .event = cfg->sets[s].events[e], .set = s,
								   .user = plm & PF_PLM_USER,
								   .kernel = plm & PF_PLM_KERNEL };
		}
	h->given = given;
	h->n_given = n;
	h->command = cfg->command;
	h->system_wide = cfg->system_wide;
	h->aggregate = cfg->aggregate;
	h->cpu_grouping = cfg->aggr_option && cfg->aggr != PF_AGGR_CPU ? cfg->aggr_option + 2 : NULL;
	h->follow_children = !cfg->no_inherit;
}

void results_header_given_release(struct results_header *h)
{
	free((void *)h->given);
	h->given = NULL;
	h->n_given = 0;
}

void results_host_facts(struct results_host *h)
{
	struct utsname u;

	memset(h, 0, sizeof(*h));
	if (uname(&u) == 0)
		snprintf(h->kernel, sizeof(h->kernel), "%s %s %s", u.sysname, u.release, u.machine);
	h->page_size = sysconf(_SC_PAGESIZE);
	h->cpus_configured = sysconf(_SC_NPROCESSORS_CONF);
	h->cpus_online = sysconf(_SC_NPROCESSORS_ONLN);
}

struct count_print_opts count_print_opts_from_config(const struct pf_config *cfg)
{
	return (struct count_print_opts){
		.fo = count_format_opts_from_config(cfg),
		.files = { .path = cfg->outfile, .append = cfg->append, .per_exec = cfg->exec_split,
			   .job = cfg->outfile_escaped ? &cfg->job : NULL, .open_rank = results_open_rank },
	};
}
