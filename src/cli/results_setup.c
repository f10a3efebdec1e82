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

/* "KEY : VALUE" of /proc/cpuinfo's first processor, into its row of keys */
static void cpuinfo_first(const char *const *keys, char (*values)[96], size_t n)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];

	while (f && fgets(line, sizeof(line), f) && line[0] != '\n') {
		char *colon = strchr(line, ':');
		size_t klen;

		if (!colon)
			continue;
		klen = strcspn(line, "\t:");
		line[strcspn(line, "\n")] = '\0';
		for (size_t i = 0; i < n; i++)
			if (strlen(keys[i]) == klen && !strncmp(line, keys[i], klen))
				snprintf(values[i], sizeof(values[i]), "%s", colon + 1 + (colon[1] == ' '));
	}
	if (f)
		fclose(f);
}

/* pfmon 3.x's CPU description: the model, its family, its clock and cache */
static void cpu_description(char *buf, size_t size)
{
	static const char *const keys[] = { "model name", "vendor_id", "cpu family", "model", "stepping",
					    "cpu MHz", "cache size" };
	char v[ARRAY_SIZE(keys)][96] = { { 0 } };
	size_t len;

	cpuinfo_first(keys, v, ARRAY_SIZE(keys));
	len = (size_t)snprintf(buf, size, "%s", v[0]);
	if (v[1][0] && len < size)
		len += (size_t)snprintf(buf + len, size - len, "%s(%s family %s model %s stepping %s)", len ? " " : "",
					v[1], v[2], v[3], v[4]);
	if (v[5][0] && len < size)
		len += (size_t)snprintf(buf + len, size - len, ", %.0f MHz", atof(v[5]));
	if (v[6][0] && len < size)
		snprintf(buf + len, size - len, ", cache %s", v[6]);
}

/* the caches of CPU 0 as sysfs lists them: "L1d 32K, L1i 32K, L2 1024K" */
static void cpu_caches(char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < 16 && len < size; i++) {
		char path[96], level[16], type[32], csize[32];
		const char *base = "/sys/devices/system/cpu/cpu0/cache/index";

		snprintf(path, sizeof(path), "%s%d/level", base, i);
		if (!read_first_line(path, level, sizeof(level)))
			break;
		snprintf(path, sizeof(path), "%s%d/type", base, i);
		if (!read_first_line(path, type, sizeof(type)))
			type[0] = '\0';
		snprintf(path, sizeof(path), "%s%d/size", base, i);
		if (!read_first_line(path, csize, sizeof(csize)))
			snprintf(csize, sizeof(csize), "?");
		len += (size_t)snprintf(buf + len, size - len, "%sL%s%s %s", len ? ", " : "", level,
					!strcmp(type, "Data") ? "d" : !strcmp(type, "Instruction") ? "i" : "", csize);
	}
}

void results_host_facts(struct results_host *h)
{
	long pages;

	struct utsname u;

	memset(h, 0, sizeof(*h));
	if (uname(&u) == 0)
		snprintf(h->kernel, sizeof(h->kernel), "%s %s %s", u.sysname, u.release, u.machine);
	h->page_size = sysconf(_SC_PAGESIZE);
	h->cpus_configured = sysconf(_SC_NPROCESSORS_CONF);
	h->cpus_online = sysconf(_SC_NPROCESSORS_ONLN);
	h->clk_tck = sysconf(_SC_CLK_TCK);
	pages = sysconf(_SC_PHYS_PAGES);
	if (pages > 0 && h->page_size > 0)
		h->mem_kb = (unsigned long long)pages * (unsigned long long)h->page_size / 1024;
	cpu_description(h->cpu, sizeof(h->cpu));
	cpu_caches(h->caches, sizeof(h->caches));
}

struct count_print_opts count_print_opts_from_config(const struct pf_config *cfg)
{
	return (struct count_print_opts){
		.fo = count_format_opts_from_config(cfg),
		.files = { .path = cfg->outfile, .append = cfg->append, .per_exec = cfg->exec_split,
			   .job = cfg->outfile_escaped ? &cfg->job : NULL, .open_rank = results_open_rank },
	};
}
