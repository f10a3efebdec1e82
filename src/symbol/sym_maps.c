/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Process address spaces built from MMAP2-like records.  Each pid has its
 * non-overlapping mappings in a treap ordered by start address: a new
 * mapping cuts away what it covers of older ones, as mmap(MAP_FIXED) does
 * in the kernel, in O(log n) plus the pieces it removes.  (A sorted array
 * rebuilt per record made a file of 200,000 mmap records quadratic.)
 * Paths are interned, so a library mapped by a thousand processes is
 * stored once.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "common/hash.h"
#include "common/util.h"
#include "symbol/sym_internal.h"

struct map_node {
	struct sym_map m;
	uint64_t prio;   /* heap order: random, so the expected depth is O(log n) */
	struct map_node *left, *right;
};

struct sym_proc {
	uint32_t pid;
	struct map_node *root;
	size_t nr;
};

struct sym_maps {
	struct sym_proc *procs; /* sorted by pid */
	size_t nr, cap;
	struct sym_strset paths;
	uint64_t seed;          /* of the node priorities */
};

static struct map_node *new_node(struct sym_maps *maps, const struct sym_map *m)
{
	struct map_node *n = xmalloc(sizeof(*n));

	/* splitmix64: reproducible runs, well-spread priorities */
	*n = (struct map_node){ .m = *m, .prio = splitmix64_next(&maps->seed) };
	return n;
}

static void free_nodes(struct map_node *t)
{
	while (t) {
		struct map_node *right = t->right;

		free_nodes(t->left);
		free(t);
		t = right;
	}
}

/* how many nodes: for the count of the pieces a new mapping removed */
static size_t count_nodes(const struct map_node *t)
{
	size_t n = 0;

	for (; t; t = t->right)
		n += 1 + count_nodes(t->left);
	return n;
}

/* t into the nodes starting below key (*l) and the others (*r) */
static void split(struct map_node *t, uint64_t key, struct map_node **l, struct map_node **r)
{
	if (!t) {
		*l = *r = NULL;
	} else if (t->m.start < key) {
		split(t->right, key, &t->right, r);
		*l = t;
	} else {
		split(t->left, key, l, &t->left);
		*r = t;
	}
}

/* every start in l below every start in r */
static struct map_node *merge(struct map_node *l, struct map_node *r)
{
	if (!l || !r)
		return l ? l : r;
	if (l->prio > r->prio) {
		l->right = merge(l->right, r);
		return l;
	}
	r->left = merge(l, r->left);
	return r;
}

static struct map_node *rightmost(struct map_node *t)
{
	while (t && t->right)
		t = t->right;
	return t;
}

static struct map_node *clone_nodes(const struct map_node *t)
{
	struct map_node *n;

	if (!t)
		return NULL;
	n = xmalloc(sizeof(*n));
	*n = *t;
	n->left = clone_nodes(t->left);
	n->right = clone_nodes(t->right);
	return n;
}

struct sym_maps *sym_maps_new(void)
{
	return xcalloc(1, sizeof(struct sym_maps));
}

void sym_maps_free(struct sym_maps *maps)
{
	if (!maps)
		return;
	for (size_t i = 0; i < maps->nr; i++)
		free_nodes(maps->procs[i].root);
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

/* The piece of m from at on: what is left right of a new mapping ending at at */
static struct sym_map tail_of(const struct sym_map *m, uint64_t at)
{
	struct sym_map t = *m;

	t.start = at;
	t.pgoff = m->pgoff + (at - m->start);
	return t;
}

void sym_maps_add(struct sym_maps *maps, uint32_t pid, uint64_t start, uint64_t len,
		  uint64_t pgoff, const char *path)
{
	struct sym_proc *p;
	struct sym_map nm = {
		.start = start,
		.end = start + len < start ? UINT64_MAX : start + len,
		.pgoff = pgoff,
	};
	struct map_node *left, *mid, *right, *last, *tail = NULL;
	struct sym_map piece;

	if (nm.end <= nm.start)
		return; /* empty: covers nothing, replaces nothing */
	p = get_proc(maps, pid);
	nm.path = sym_strset_intern(&maps->paths, path ? path : "");
	/* left: starts below the new mapping; the last of them may reach into it */
	split(p->root, nm.start, &left, &right);
	last = rightmost(left);
	if (last && last->m.end > nm.start) {
		if (last->m.end > nm.end) {
			piece = tail_of(&last->m, nm.end);
			tail = new_node(maps, &piece);
		}
		last->m.end = nm.start;
	}
	/* mid: starts inside it, so covered, except what the last one has past its end */
	split(right, nm.end, &mid, &right);
	last = rightmost(mid);
	if (last && last->m.end > nm.end) {
		piece = tail_of(&last->m, nm.end);
		tail = new_node(maps, &piece);
	}
	p->nr -= count_nodes(mid);
	free_nodes(mid);
	p->nr += 1 + (tail != NULL);
	p->root = merge(merge(left, new_node(maps, &nm)), merge(tail, right));
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
	child->root = clone_nodes(parent->root);
	child->nr = parent->nr;
}

void sym_maps_clear(struct sym_maps *maps, uint32_t pid)
{
	size_t i = proc_pos(maps, pid);

	if (i >= maps->nr || maps->procs[i].pid != pid)
		return;
	free_nodes(maps->procs[i].root);
	memmove(&maps->procs[i], &maps->procs[i + 1], (maps->nr - i - 1) * sizeof(*maps->procs));
	maps->nr--;
}

void sym_maps_clear_all(struct sym_maps *maps)
{
	for (size_t i = 0; i < maps->nr; i++)
		free_nodes(maps->procs[i].root);
	maps->nr = 0;
}

const struct sym_map *sym_maps_find(const struct sym_maps *maps, uint32_t pid, uint64_t ip)
{
	const struct sym_proc *p = find_proc(maps, pid);
	const struct map_node *t = p ? p->root : NULL, *below = NULL;

	/* the last mapping starting at or below ip */
	while (t) {
		if (t->m.start <= ip) {
			below = t;
			t = t->right;
		} else {
			t = t->left;
		}
	}
	return below && ip < below->m.end ? &below->m : NULL;
}

size_t sym_maps_count(const struct sym_maps *maps, uint32_t pid)
{
	const struct sym_proc *p = find_proc(maps, pid);

	return p ? p->nr : 0;
}
