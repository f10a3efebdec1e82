/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <linux/perf_event.h>
#include <strings.h>

#include "common/util.h"
#include "perf_generic.h"

#define HW(n, a, c, l, d) { n, a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c, l, d }
#define SW(n, a, c, l, d) { n, a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##c, l, d }

static const struct perf_generic_event generic_events[] = {
	HW("cycles", "cpu-cycles", CPU_CYCLES, "PERF_COUNT_HW_CPU_CYCLES", "CPU cycles"),
	HW("instructions", NULL, INSTRUCTIONS, "PERF_COUNT_HW_INSTRUCTIONS", "instructions retired"),
	HW("cache-references", NULL, CACHE_REFERENCES, "PERF_COUNT_HW_CACHE_REFERENCES",
	   "last-level cache references"),
	HW("cache-misses", NULL, CACHE_MISSES, "PERF_COUNT_HW_CACHE_MISSES", "last-level cache misses"),
	HW("branches", "branch-instructions", BRANCH_INSTRUCTIONS, "PERF_COUNT_HW_BRANCH_INSTRUCTIONS",
	   "branch instructions retired"),
	HW("branch-misses", NULL, BRANCH_MISSES, "PERF_COUNT_HW_BRANCH_MISSES", "mispredicted branches"),
	HW("bus-cycles", NULL, BUS_CYCLES, "PERF_COUNT_HW_BUS_CYCLES", "bus cycles"),
	HW("stalled-cycles-frontend", "idle-cycles-frontend", STALLED_CYCLES_FRONTEND,
	   "PERF_COUNT_HW_STALLED_CYCLES_FRONTEND", "cycles stalled in the front end"),
	HW("stalled-cycles-backend", "idle-cycles-backend", STALLED_CYCLES_BACKEND,
	   "PERF_COUNT_HW_STALLED_CYCLES_BACKEND", "cycles stalled in the back end"),
	HW("ref-cycles", NULL, REF_CPU_CYCLES, "PERF_COUNT_HW_REF_CPU_CYCLES", "reference cycles"),
	SW("cpu-clock", NULL, CPU_CLOCK, "PERF_COUNT_SW_CPU_CLOCK", "per-CPU high-resolution timer (ns)"),
	SW("task-clock", NULL, TASK_CLOCK, "PERF_COUNT_SW_TASK_CLOCK", "time the task ran on a CPU (ns)"),
	SW("page-faults", "faults", PAGE_FAULTS, "PERF_COUNT_SW_PAGE_FAULTS", "page faults"),
	SW("context-switches", "cs", CONTEXT_SWITCHES, "PERF_COUNT_SW_CONTEXT_SWITCHES", "context switches"),
	SW("cpu-migrations", "migrations", CPU_MIGRATIONS, "PERF_COUNT_SW_CPU_MIGRATIONS",
	   "migrations of the task to another CPU"),
	SW("minor-faults", NULL, PAGE_FAULTS_MIN, "PERF_COUNT_SW_PAGE_FAULTS_MIN",
	   "page faults served without I/O"),
	SW("major-faults", NULL, PAGE_FAULTS_MAJ, "PERF_COUNT_SW_PAGE_FAULTS_MAJ", "page faults that needed I/O"),
	SW("alignment-faults", NULL, ALIGNMENT_FAULTS, NULL, "alignment faults"),
	SW("emulation-faults", NULL, EMULATION_FAULTS, NULL,
	   "instructions emulated by the kernel"),
};

const struct perf_generic_event *perf_generic_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(generic_events); i++) {
		const struct perf_generic_event *ev = &generic_events[i];

		if (strcasecmp(ev->name, name) == 0 || (ev->alias && strcasecmp(ev->alias, name) == 0))
			return ev;
	}
	return NULL;
}

const struct perf_generic_event *perf_generic_at(size_t i)
{
	return i < ARRAY_SIZE(generic_events) ? &generic_events[i] : NULL;
}

bool perf_generic_is_software(const struct perf_generic_event *ev)
{
	return ev->type == PERF_TYPE_SOFTWARE;
}
