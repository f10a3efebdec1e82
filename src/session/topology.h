/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The CPUs of a system-wide session grouped as perf stat's aggregation
 * modes group them (--per-core, --per-die, --per-socket, --per-node,
 * --per-cache), by what the kernel says of each CPU in
 * /sys/devices/system: cpu/cpuN/topology (package, die, core ids),
 * cpu/cpuN/cache/indexK (level, type, id) and node/nodeM/cpulist.  Each
 * group is named as perf names it ("S0-D0-C1", "N0", "S0-D0-L3-ID8") and
 * the groups come in perf's order: by socket, then die, then the core,
 * cache or node id.
 */
#ifndef PFMON_SESSION_TOPOLOGY_H
#define PFMON_SESSION_TOPOLOGY_H

#include <stddef.h>

#include "common/error.h"

enum cpu_aggr_mode {
	CPU_AGGR_CORE,   /* a physical core: its hardware threads together */
	CPU_AGGR_DIE,    /* a die of a package */
	CPU_AGGR_SOCKET, /* a package */
	CPU_AGGR_NODE,   /* a NUMA node */
	CPU_AGGR_CACHE,  /* the CPUs sharing one cache of a level */
};

struct cpu_aggr_opts {
	enum cpu_aggr_mode mode;
	int cache_level; /* CPU_AGGR_CACHE: 1, 2, 3...; 0: the highest level the first CPU has */
};

struct cpu_group {
	char label[48]; /* perf's: S<socket>[-D<die>[-C<core>|-L<level>-ID<id>]], N<node> */
	int nr;         /* how many of the session's CPUs it holds (perf's aggregate-number) */
};

struct cpu_groups {
	const char *key;          /* perf's JSON key: "core", "die", "socket", "node", "cache" */
	struct cpu_group *groups; /* in perf's order */
	size_t n;
	size_t *group_of;         /* the i-th CPU given: the index of its group */
};

/*
 * The groups of cpus[0..n-1] under o.  A CPU whose topology the kernel
 * does not describe is an error naming the file (a die id it does not
 * give is die 0, as on kernels before dies); 0, or -1 with err.  The
 * directory read is /sys/devices/system, or PFMON_TEST_SYSTEM_DIR's copy
 * of it (tests of topologies the machine does not have).
 */
int cpu_groups_make(const int *cpus, size_t n, const struct cpu_aggr_opts *o, struct cpu_groups *g,
		    struct pf_error *err);
void cpu_groups_release(struct cpu_groups *g);

/* the package (socket) of cpu, as its topology says; 0, or -1 with err */
int cpu_package(int cpu, int *package, struct pf_error *err);

#endif
