/* SPDX-License-Identifier: GPL-2.0-or-later */
/* perf's generic event names (cycles, task-clock, page-faults ...), which
 * the kernel defines as ABI constants in <linux/perf_event.h>.  Looking them
 * up here costs nothing, so 'pfmon -e task-clock' never pays for libpfm4's
 * initialisation; a unit test checks every row against libpfm4's encoding. */
#ifndef PFMON_PMU_PERF_GENERIC_H
#define PFMON_PMU_PERF_GENERIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct perf_generic_event {
	const char *name; /* perf's spelling */
	const char *alias; /* perf's other spelling, or NULL */
	uint32_t type; /* PERF_TYPE_HARDWARE or PERF_TYPE_SOFTWARE */
	uint64_t config;
	const char *libpfm_name; /* libpfm4's perf:: name, for the cross-check; NULL
				  * where libpfm4 4.13 has none (the kernel header is then the
				  * only source) */
	const char *desc;
};

const struct perf_generic_event *perf_generic_find(const char *name);
const struct perf_generic_event *perf_generic_at(size_t i); /* NULL past the end */
bool perf_generic_is_software(const struct perf_generic_event *ev);

#endif
