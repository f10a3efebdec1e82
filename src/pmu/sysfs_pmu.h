/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every PMU the kernel describes in sysfs, in perf's syntax:
 *
 *     PMU/TERM[=VALUE],.../[[:]MODIFIERS]      msr/tsc/, cpu/event=0x3c,umask=0/u
 *
 * Each directory under /sys/bus/event_source/devices is a PMU: its "type"
 * file is perf_event_attr.type, format/NAME says which bits of config,
 * config1 or config2 the term NAME sets ("config:0-7,32-35"), and
 * events/NAME names an event by its terms ("event=0x3c,umask=0x00"), with
 * NAME.scale and NAME.unit when its count means something else (RAPL's
 * energy-pkg counts units of 2^-32 joules).  Besides the formats, a PMU
 * takes perf's own terms: config, config1, config2 (raw bits),
 * period, freq and name.
 */
#ifndef PFMON_PMU_SYSFS_PMU_H
#define PFMON_PMU_SYSFS_PMU_H

#include <linux/perf_event.h>
#include <stdbool.h>

#include "common/error.h"
#include "event/pmu_model.h"

struct sysfs_pmu_event {
	struct perf_event_attr attr; /* type, config..config2, period or freq, exclude_* */
	char *pmu; /* the PMU's directory name */
	char *name; /* the name= term, or NULL */
	double scale; /* one count is scale units (1 unless the event's .scale says) */
	char *unit; /* the event's .unit, or NULL */
	char *cpus; /* the PMU's cpumask (or cpus) file: the CPUs it counts on, or NULL for all */
	bool per_pkg;  /* the event's .per-pkg: one count a package, whichever CPU reads it */
	bool snapshot; /* the event's .snapshot: a reading is a value, not a running count */
	bool aux_trace; /* an Arm SPE PMU (arm_spe_N): it writes an AUX trace, counts nothing */
	bool levels_given; /* modifiers chose the levels (attr's exclude_* bits) */
	unsigned plm; /* the levels modifiers chose (PF_PLM_*), 0 if none */
};

/* the directory PMUs are read from: /sys/bus/event_source/devices, or a
 * copy of it named by PFMON_TEST_SYSFS_PMUS (tests of PMUs the machine lacks) */
const char *sysfs_pmu_root(void);

/* text's attr (type, config bits, period, levels), name, scale and unit;
 * -1 and err naming the first wrong part */
int sysfs_pmu_encode(const char *text, struct sysfs_pmu_event *ev, struct pf_error *err);
void sysfs_pmu_event_release(struct sysfs_pmu_event *ev);

/* each PMU's named events as PMU/EVENT/ (with long_names also each format
 * term as PMU/TERM=N/), PMUs and events in name order; non-zero from cb stops */
int sysfs_pmu_list(bool long_names, event_name_cb cb, void *arg);

/* the LBR's depth, the cpu PMU's caps/branches (cpu_core's on a hybrid
 * machine), as perf record writes it to CPU_PMU_CAPS; 0: none (no LBR) */
unsigned sysfs_pmu_lbr_depth(void);

/* the lines -i prints for a PMU/EVENT/ name: its PMU, type, terms, scale, unit */
int sysfs_pmu_info(const char *text, struct event_info *out, struct pf_error *err);

#endif
