/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf stat's aggregation of system-wide counts by CPU topology
 * (topology.h): each CPU placed by its sysfs ids, the places sorted as
 * perf sorts them, equal places one group.
 */
#include <config.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "session/procfs.h"
#include "session/topology.h"

/* a sysfs attribute's first line is short: ids, levels, CPU lists of a
 * node (a 4096-CPU list of ranges fits) */
#define TOPOLOGY_LINE_MAX 8192

/* where a CPU is: the ids its group is told by, in sort order */
struct cpu_place {
	int socket, die, id; /* id: the core, the cache's id or the node */
	size_t index;        /* which of the CPUs given */
};

static const char *system_dir(void)
{
	const char *dir = getenv("PFMON_TEST_SYSTEM_DIR");

	return dir && *dir ? dir : "/sys/devices/system";
}

/* an id as sysfs writes it: decimal, -1 where the kernel has none */
static bool parse_id(const char *s, int *v)
{
	uint64_t u;

	if (!strcmp(s, "-1")) {
		*v = -1;
		return true;
	}
	if (!parse_u64(s, &u) || u > INT32_MAX)
		return false;
	*v = (int)u;
	return true;
}

/* the id in file path; missing_ok: an absent file is *v = 0 (returns 1) */
static int read_id(const char *path, int *v, bool missing_ok, struct pf_error *err)
{
	char buf[TOPOLOGY_LINE_MAX];

	if (!read_first_line(path, buf, sizeof(buf))) {
		if (missing_ok && errno == ENOENT) {
			*v = 0;
			return 1;
		}
		return pf_error_set(err, PF_E_INPUT, path, strerror(errno));
	}
	if (!parse_id(buf, v))
		return pf_error_set(err, PF_E_BAD_FILE, path, "not a topology id");
	return 0;
}

static int cpu_topology_id(int cpu, const char *name, int *v, bool missing_ok, struct pf_error *err)
{
	char *path = xasprintf("%s/cpu/cpu%d/topology/%s", system_dir(), cpu, name);
	int rc = read_id(path, v, missing_ok, err);

	free(path);
	return rc < 0 ? -1 : 0;
}

int cpu_package(int cpu, int *package, struct pf_error *err)
{
	return cpu_topology_id(cpu, "physical_package_id", package, false, err);
}

/* ----- caches: cpu/cpuN/cache/indexK/{level,type,id,shared_cpu_list} ----- */

/* cache K of cpu: its level (0 for an instruction cache, which perf does
 * not aggregate by); -1 when there is no cache K */
static int cache_level(int cpu, int k)
{
	char *dir = xasprintf("%s/cpu/cpu%d/cache/index%d", system_dir(), cpu, k);
	char *level = xasprintf("%s/level", dir), *type = xasprintf("%s/type", dir);
	char buf[64];
	int lv = -1;

	if (read_first_line(level, buf, sizeof(buf)) && parse_id(buf, &lv) && read_first_line(type, buf, sizeof(buf)) &&
	    !strcmp(buf, "Instruction"))
		lv = 0;
	free(dir);
	free(level);
	free(type);
	return lv;
}

/* caches are numbered from index0 without holes; 64 is beyond any CPU's */
#define CACHE_INDEX_MAX 64

/* cpu's cache directory says no such cache: -1 with err */
static int no_cache(int cpu, const char *why, struct pf_error *err)
{
	char *dir = xasprintf("%s/cpu/cpu%d/cache", system_dir(), cpu);

	pf_error_set(err, PF_E_BAD_FILE, dir, why);
	free(dir);
	return -1;
}

static int highest_cache_level(int cpu, struct pf_error *err)
{
	int best = 0;

	for (int k = 0, lv; k < CACHE_INDEX_MAX && (lv = cache_level(cpu, k)) >= 0; k++)
		if (lv > best)
			best = lv;
	return best ? best : no_cache(cpu, "the kernel describes no data or unified cache of this CPU", err);
}

/* the id of cpu's cache of level: its id file, else (older kernels) the
 * first CPU sharing it, as perf takes it */
static int cache_id(int cpu, int level, int *id, struct pf_error *err)
{
	for (int k = 0, lv; k < CACHE_INDEX_MAX && (lv = cache_level(cpu, k)) >= 0; k++) {
		char *path, buf[TOPOLOGY_LINE_MAX], why[64];
		int *shared = NULL, rc;

		if (lv != level)
			continue;
		path = xasprintf("%s/cpu/cpu%d/cache/index%d/id", system_dir(), cpu, k);
		rc = read_id(path, id, true, err);
		free(path);
		if (rc <= 0)
			return rc;
		path = xasprintf("%s/cpu/cpu%d/cache/index%d/shared_cpu_list", system_dir(), cpu, k);
		rc = !read_first_line(path, buf, sizeof(buf)) || procfs_parse_cpu_list(buf, &shared, why, sizeof(why)) < 1
			     ? pf_error_set(err, PF_E_BAD_FILE, path, "no id and no list of the CPUs sharing the cache")
			     : 0;
		if (!rc)
			*id = shared[0];
		free(shared);
		free(path);
		return rc;
	}
	char why[64];

	snprintf(why, sizeof(why), "the kernel describes no level-%d cache of this CPU", level);
	return no_cache(cpu, why, err);
}

/* ----- NUMA nodes: node/nodeM/cpulist ----- */

/* node_of[i]: the node of cpus[i] */
static int cpu_nodes(const int *cpus, size_t n, int *node_of, struct pf_error *err)
{
	char *dir = xasprintf("%s/node", system_dir());
	size_t n_names;
	char **names = dir_names_sorted(dir, &n_names);
	int rc = 0;

	for (size_t i = 0; i < n; i++)
		node_of[i] = -1;
	for (size_t j = 0; j < n_names && !rc; j++) {
		char *path, buf[TOPOLOGY_LINE_MAX], why[64];
		int node, *list = NULL;
		long nl;

		if (strncmp(names[j], "node", 4) || !parse_id(names[j] + 4, &node) || node < 0)
			continue;
		path = xasprintf("%s/%s/cpulist", dir, names[j]);
		if (!read_first_line(path, buf, sizeof(buf)))
			rc = pf_error_set(err, PF_E_INPUT, path, strerror(errno));
		else if (*buf && (nl = procfs_parse_cpu_list(buf, &list, why, sizeof(why))) < 0)
			rc = pf_error_set(err, PF_E_BAD_FILE, path, why);
		else
			for (long c = 0; *buf && c < nl; c++)
				for (size_t i = 0; i < n; i++)
					if (cpus[i] == list[c])
						node_of[i] = node;
		free(list);
		free(path);
	}
	for (size_t i = 0; i < n && !rc; i++)
		if (node_of[i] < 0) {
			char why[96];

			snprintf(why, sizeof(why), "no node lists CPU %d (a kernel without NUMA has no nodes)", cpus[i]);
			rc = pf_error_set(err, PF_E_BAD_FILE, dir, why);
		}
	str_vec_free(names);
	free(dir);
	return rc;
}

/* ----- the groups ----- */

static int place_cpu(int cpu, const struct cpu_aggr_opts *o, int node, struct cpu_place *p, struct pf_error *err)
{
	*p = (struct cpu_place){ 0 };
	if (o->mode == CPU_AGGR_NODE) {
		p->id = node;
		return 0;
	}
	if (cpu_topology_id(cpu, "physical_package_id", &p->socket, false, err))
		return -1;
	if (o->mode != CPU_AGGR_SOCKET && cpu_topology_id(cpu, "die_id", &p->die, true, err))
		return -1;
	if (o->mode == CPU_AGGR_CORE)
		return cpu_topology_id(cpu, "core_id", &p->id, false, err);
	if (o->mode == CPU_AGGR_CACHE)
		return cache_id(cpu, o->cache_level, &p->id, err);
	return 0;
}

static int by_place(const void *a, const void *b)
{
	const struct cpu_place *x = a, *y = b;

	if (x->socket != y->socket)
		return x->socket < y->socket ? -1 : 1;
	if (x->die != y->die)
		return x->die < y->die ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static bool same_place(const struct cpu_place *x, const struct cpu_place *y)
{
	return x->socket == y->socket && x->die == y->die && x->id == y->id;
}

static void name_group(const struct cpu_place *p, const struct cpu_aggr_opts *o, int level, struct cpu_group *g)
{
	switch (o->mode) {
	case CPU_AGGR_CORE:
		snprintf(g->label, sizeof(g->label), "S%d-D%d-C%d", p->socket, p->die, p->id);
		break;
	case CPU_AGGR_DIE:
		snprintf(g->label, sizeof(g->label), "S%d-D%d", p->socket, p->die);
		break;
	case CPU_AGGR_SOCKET:
		snprintf(g->label, sizeof(g->label), "S%d", p->socket);
		break;
	case CPU_AGGR_NODE:
		snprintf(g->label, sizeof(g->label), "N%d", p->id);
		break;
	case CPU_AGGR_CACHE:
		snprintf(g->label, sizeof(g->label), "S%d-D%d-L%d-ID%d", p->socket, p->die, level, p->id);
		break;
	}
}

static const char *const aggr_keys[] = {
	[CPU_AGGR_CORE] = "core", [CPU_AGGR_DIE] = "die", [CPU_AGGR_SOCKET] = "socket",
	[CPU_AGGR_NODE] = "node", [CPU_AGGR_CACHE] = "cache",
};

/* places sorted: equal neighbours one group each */
static void groups_from_places(const struct cpu_place *places, size_t n, const struct cpu_aggr_opts *o, int level,
			       struct cpu_groups *g)
{
	for (size_t i = 0; i < n; i++) {
		if (!i || !same_place(&places[i], &places[i - 1]))
			name_group(&places[i], o, level, &g->groups[g->n++]);
		g->groups[g->n - 1].nr++;
		g->group_of[places[i].index] = g->n - 1;
	}
}

int cpu_groups_make(const int *cpus, size_t n, const struct cpu_aggr_opts *o, struct cpu_groups *g,
		    struct pf_error *err)
{
	struct cpu_place *places = xcalloc(n + 1, sizeof(*places));
	int *node_of = xcalloc(n + 1, sizeof(*node_of));
	struct cpu_aggr_opts opts = *o;
	int rc = 0;

	*g = (struct cpu_groups){ .key = aggr_keys[o->mode], .groups = xcalloc(n + 1, sizeof(*g->groups)),
				  .group_of = xcalloc(n + 1, sizeof(*g->group_of)) };
	if (o->mode == CPU_AGGR_NODE)
		rc = cpu_nodes(cpus, n, node_of, err);
	if (!rc && n && o->mode == CPU_AGGR_CACHE && !opts.cache_level)
		rc = (opts.cache_level = highest_cache_level(cpus[0], err)) < 0 ? -1 : 0;
	for (size_t i = 0; i < n && !rc; i++) {
		rc = place_cpu(cpus[i], &opts, node_of[i], &places[i], err);
		places[i].index = i;
	}
	if (!rc) {
		qsort(places, n, sizeof(*places), by_place);
		groups_from_places(places, n, &opts, opts.cache_level, g);
	}
	free(places);
	free(node_of);
	if (rc)
		cpu_groups_release(g);
	return rc;
}

void cpu_groups_release(struct cpu_groups *g)
{
	free(g->groups);
	free(g->group_of);
	*g = (struct cpu_groups){ 0 };
}
