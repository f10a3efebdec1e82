/*
 * Process address spaces built from MMAP2-like records.  Each pid has a
 * sorted array of non-overlapping mappings: a new mapping cuts away what it
 * covers of older ones, as mmap(MAP_FIXED) does in the kernel.  Paths are
 * interned, so a library mapped by a thousand processes is stored once.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "symbol/sym_internal.h"

struct sym_proc {
	uint32_t pid;
	struct sym_map *maps;
	size_t nr, cap;
};

struct sym_maps {
	struct sym_proc *procs; /* sorted by pid */
	size_t nr, cap;
	struct sym_strset paths;
};

struct sym_maps *sym_maps_new(void)
{
	return xcalloc(1, sizeof(struct sym_maps));
}

void sym_maps_free(struct sym_maps *maps)
{
	if (!maps)
		return;
	for (size_t i = 0; i < maps->nr; i++)
		free(maps->procs[i].maps);
	free(maps->procs);
	sym_strset_free(&maps->paths);
	free(maps);
}

/* index of pid, or where it would go */
static size_t proc_pos(const struct sym_maps *maps, uint32_t pid)
{
	size_t lo = 0, hi = maps->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (maps->procs[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct sym_proc *find_proc(const struct sym_maps *maps, uint32_t pid)
{
	size_t i = proc_pos(maps, pid);

	return i < maps->nr && maps->procs[i].pid == pid ? &maps->procs[i] : NULL;
}

static struct sym_proc *get_proc(struct sym_maps *maps, uint32_t pid)
{
	size_t i = proc_pos(maps, pid);

	if (i < maps->nr && maps->procs[i].pid == pid)
		return &maps->procs[i];
	if (maps->nr == maps->cap) {
		maps->cap = maps->cap ? maps->cap * 2 : 8;
		maps->procs = xrealloc(maps->procs, maps->cap * sizeof(*maps->procs));
	}
	memmove(&maps->procs[i + 1], &maps->procs[i], (maps->nr - i) * sizeof(*maps->procs));
	maps->procs[i] = (struct sym_proc){ .pid = pid };
	maps->nr++;
	return &maps->procs[i];
}

static void push_map(struct sym_map **v, size_t *nr, size_t *cap, const struct sym_map *m)
{
	if (m->end <= m->start)
		return;
	if (*nr == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		*v = xrealloc(*v, *cap * sizeof(**v));
	}
	(*v)[(*nr)++] = *m;
}

void sym_maps_add(struct sym_maps *maps, uint32_t pid, uint64_t start, uint64_t len,
		  uint64_t pgoff, const char *path)
{
	struct sym_proc *p = get_proc(maps, pid);
	struct sym_map nm = {
		.start = start,
		.end = start + len < start ? UINT64_MAX : start + len,
		.pgoff = pgoff,
		.path = sym_strset_intern(&maps->paths, path ? path : ""),
	};
	struct sym_map *v = NULL;
	size_t nr = 0, cap = 0;
	bool placed = false;

	/* rebuild the list: old pieces left and right of the new mapping */
	for (size_t i = 0; i < p->nr; i++) {
		struct sym_map m = p->maps[i], left = m, right = m;

		if (!placed && m.start >= nm.start) {
			push_map(&v, &nr, &cap, &nm);
			placed = true;
		}
		if (m.end <= nm.start || m.start >= nm.end) {
			push_map(&v, &nr, &cap, &m);
			continue;
		}
		left.end = nm.start;
		push_map(&v, &nr, &cap, &left);
		if (!placed) {
			push_map(&v, &nr, &cap, &nm);
			placed = true;
		}
		right.start = nm.end;
		right.pgoff = m.pgoff + (nm.end - m.start);
		push_map(&v, &nr, &cap, &right);
	}
	if (!placed)
		push_map(&v, &nr, &cap, &nm);
	free(p->maps);
	p->maps = v;
	p->nr = nr;
	p->cap = cap;
}

void sym_maps_fork(struct sym_maps *maps, uint32_t ppid, uint32_t pid)
{
	struct sym_proc *child, *parent;

	if (ppid == pid)
		return;
	sym_maps_clear(maps, pid);
	if (!find_proc(maps, ppid))
		return;
	child = get_proc(maps, pid); /* may move the array: look the parent up after */
	parent = find_proc(maps, ppid);
	child->maps = xmalloc((parent->nr ? parent->nr : 1) * sizeof(*child->maps));
	memcpy(child->maps, parent->maps, parent->nr * sizeof(*child->maps));
	child->nr = child->cap = parent->nr;
}

void sym_maps_clear(struct sym_maps *maps, uint32_t pid)
{
	size_t i = proc_pos(maps, pid);

	if (i >= maps->nr || maps->procs[i].pid != pid)
		return;
	free(maps->procs[i].maps);
	memmove(&maps->procs[i], &maps->procs[i + 1], (maps->nr - i - 1) * sizeof(*maps->procs));
	maps->nr--;
}

const struct sym_map *sym_maps_find(const struct sym_maps *maps, uint32_t pid, uint64_t ip)
{
	const struct sym_proc *p = find_proc(maps, pid);
	size_t lo = 0, hi;

	if (!p)
		return NULL;
	hi = p->nr;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->maps[mid].start <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && ip < p->maps[lo - 1].end ? &p->maps[lo - 1] : NULL;
}

size_t sym_maps_count(const struct sym_maps *maps, uint32_t pid)
{
	const struct sym_proc *p = find_proc(maps, pid);

	return p ? p->nr : 0;
}
