/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Event-set planning with the model's encoder as the oracle (see planner.h). */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "planner.h"

/* a group, or a part of a group whose events never fit in one set */
struct unit {
	char **ev; /* sorted, distinct; borrowed from the groups */
	size_t n;
};

struct packing {
	struct plan_set *sets; /* events borrowed */
	size_t n_sets;
	size_t *unit_set;
};

struct planner {
	const struct pmu_model *m;
	const struct encode_opts *o;
	struct unit *units;
	size_t n_units;
	struct packing best, cur;
	bool have_best;
};

bool plan_set_fits(const struct pmu_model *m, const struct encode_opts *o, char *const *events, size_t n)
{
	struct set_prog prog;
	struct pf_error e;

	if (pmu_encode_events(m, o, events, n, &prog, &e))
		return false;
	set_prog_release(&prog);
	return true;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* sort and drop duplicates in place; returns the new count */
static size_t sort_unique(char **v, size_t n)
{
	size_t k = 0;

	qsort(v, n, sizeof(*v), cmp_str);
	for (size_t i = 0; i < n; i++)
		if (!k || strcmp(v[k - 1], v[i]))
			v[k++] = v[i];
	return k;
}

/* the sorted union of a and b, in a new array (strings borrowed) */
static char **merge(char *const *a, size_t na, char *const *b, size_t nb, size_t *n)
{
	char **v = xcalloc(na + nb + 1, sizeof(*v));
	size_t i = 0, j = 0, k = 0;

	while (i < na || j < nb) {
		int c = i == na ? 1 : j == nb ? -1 : strcmp(a[i], b[j]);

		v[k++] = c <= 0 ? a[i] : b[j];
		i += c <= 0;
		j += c >= 0;
	}
	*n = k;
	return v;
}

static int cmp_unit(const void *pa, const void *pb)
{
	const struct unit *a = pa, *b = pb;

	if (a->n != b->n)
		return a->n > b->n ? -1 : 1;
	for (size_t i = 0; i < a->n; i++) {
		int c = strcmp(a->ev[i], b->ev[i]);

		if (c)
			return c;
	}
	return 0;
}

static void add_unit(struct planner *p, char **ev, size_t n)
{
	if ((p->n_units & (p->n_units - 1)) == 0) /* room for a power of two: a copy per unit would be n^2 */
		p->units = xrealloc(p->units, (p->n_units ? 2 * p->n_units : 1) * sizeof(*p->units));
	p->units[p->n_units++] = (struct unit){ .ev = ev, .n = n };
}

/* a group too big for one set: its events first-fit into parts */
static int split_group(struct planner *p, char **ev, size_t n, struct pf_error *err)
{
	struct plan_set *parts = NULL;
	size_t n_parts = 0;

	for (size_t i = 0; i < n; i++) {
		size_t k;

		for (k = 0; k < n_parts; k++) {
			size_t nm;
			char **m = merge(parts[k].events, parts[k].n, &ev[i], 1, &nm);

			if (plan_set_fits(p->m, p->o, m, nm)) {
				free(parts[k].events);
				parts[k] = (struct plan_set){ m, nm };
				break;
			}
			free(m);
		}
		if (k < n_parts)
			continue;
		if (!plan_set_fits(p->m, p->o, &ev[i], 1)) {
			struct set_prog prog;

			pmu_encode_events(p->m, p->o, &ev[i], 1, &prog, err); /* the model's own words */
			for (k = 0; k < n_parts; k++)
				free(parts[k].events);
			free(parts);
			return -1;
		}
		parts = xrealloc(parts, (n_parts + 1) * sizeof(*parts));
		parts[n_parts].events = xcalloc(2, sizeof(char *));
		parts[n_parts].events[0] = ev[i];
		parts[n_parts++].n = 1;
	}
	for (size_t k = 0; k < n_parts; k++)
		add_unit(p, parts[k].events, parts[k].n); /* the part's array is freed with the units */
	free(parts);
	return 0;
}

static void packing_release(struct packing *k)
{
	for (size_t s = 0; s < k->n_sets; s++)
		free(k->sets[s].events);
	free(k->sets);
	free(k->unit_set);
	memset(k, 0, sizeof(*k));
}

static void packing_copy(struct packing *dst, const struct packing *src, size_t n_units)
{
	packing_release(dst);
	dst->sets = xcalloc(src->n_sets + 1, sizeof(*dst->sets));
	for (size_t s = 0; s < src->n_sets; s++) {
		dst->sets[s].n = src->sets[s].n;
		dst->sets[s].events = xcalloc(src->sets[s].n + 1, sizeof(char *));
		memcpy(dst->sets[s].events, src->sets[s].events, src->sets[s].n * sizeof(char *));
	}
	dst->n_sets = src->n_sets;
	dst->unit_set = xcalloc(n_units + 1, sizeof(*dst->unit_set));
	memcpy(dst->unit_set, src->unit_set, n_units * sizeof(*dst->unit_set));
}

/* put unit u in set s of cur if the union encodes (s == n_sets: a new set) */
static bool place(struct planner *p, size_t u, size_t s)
{
	struct packing *k = &p->cur;
	const struct unit *un = &p->units[u];
	size_t n;
	char **m;

	if (s == k->n_sets) {
		k->sets = xrealloc(k->sets, (k->n_sets + 1) * sizeof(*k->sets));
		m = merge(un->ev, un->n, NULL, 0, &n);
		k->sets[k->n_sets++] = (struct plan_set){ m, n };
		k->unit_set[u] = s;
		return true;
	}
	m = merge(k->sets[s].events, k->sets[s].n, un->ev, un->n, &n);
	if (n > k->sets[s].n && !plan_set_fits(p->m, p->o, m, n)) {
		free(m);
		return false;
	}
	free(k->sets[s].events);
	k->sets[s] = (struct plan_set){ m, n };
	k->unit_set[u] = s;
	return true;
}

static void first_fit(struct planner *p)
{
	for (size_t u = 0; u < p->n_units; u++) {
		size_t s = 0;

		while (!place(p, u, s))
			s++;
	}
	packing_copy(&p->best, &p->cur, p->n_units);
	p->have_best = true;
}

/* exact: every way to put units u.. into the sets so far or a new one */
static void search(struct planner *p, size_t u)
{
	struct packing *k = &p->cur;
	const struct unit *un;

	if (p->have_best && k->n_sets >= p->best.n_sets)
		return; /* cannot beat the best any more */
	if (u == p->n_units) {
		packing_copy(&p->best, k, p->n_units);
		return;
	}
	un = &p->units[u];
	for (size_t s = 0; s < k->n_sets; s++) {
		struct plan_set saved = k->sets[s];
		size_t n;
		char **m = merge(saved.events, saved.n, un->ev, un->n, &n);

		if (n > saved.n && !plan_set_fits(p->m, p->o, m, n)) {
			free(m);
			continue;
		}
		k->sets[s] = (struct plan_set){ m, n };
		k->unit_set[u] = s;
		search(p, u + 1);
		free(k->sets[s].events);
		k->sets[s] = saved;
	}
	if (k->n_sets + 1 < p->best.n_sets) {
		place(p, u, k->n_sets);
		search(p, u + 1);
		free(k->sets[--k->n_sets].events);
	}
}

/* each group's events sorted; a group that fits is one unit, else its parts */
static int make_units(struct planner *p, const struct plan_group *groups, size_t n_groups, int *group_set,
		      struct pf_error *err)
{
	for (size_t g = 0; g < n_groups; g++) {
		char **ev = xcalloc(groups[g].n + 1, sizeof(*ev));
		size_t n;

		if (groups[g].n) /* a metric of constants and duration_time reads no event */
			memcpy(ev, groups[g].events, groups[g].n * sizeof(*ev));
		n = sort_unique(ev, groups[g].n);
		if (n && plan_set_fits(p->m, p->o, ev, n)) {
			add_unit(p, ev, n);
			continue;
		}
		group_set[g] = -1;
		if (split_group(p, ev, n, err)) {
			free(ev);
			return -1;
		}
		free(ev);
	}
	if (p->n_units)
		qsort(p->units, p->n_units, sizeof(*p->units), cmp_unit);
	/* identical units (metrics with the same events) are planned once */
	size_t k = 0;
	for (size_t u = 0; u < p->n_units; u++) {
		if (k && cmp_unit(&p->units[k - 1], &p->units[u]) == 0)
			free(p->units[u].ev);
		else
			p->units[k++] = p->units[u];
	}
	p->n_units = k;
	return 0;
}

/* is every event of ev in the (sorted) set? */
static bool contains(const struct plan_set *set, char *const *ev, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!bsearch(&ev[i], set->events, set->n, sizeof(char *), cmp_str))
			return false;
	return true;
}

int plan_sets(const struct pmu_model *m, const struct encode_opts *o, const struct plan_group *groups,
	      size_t n_groups, struct plan *out, struct pf_error *err)
{
	struct planner p = { .m = m, .o = o };
	int rc;

	memset(out, 0, sizeof(*out));
	out->group_set = xcalloc(n_groups + 1, sizeof(*out->group_set));
	rc = make_units(&p, groups, n_groups, out->group_set, err);
	if (!rc && p.n_units) {
		p.cur.unit_set = xcalloc(p.n_units + 1, sizeof(*p.cur.unit_set));
		first_fit(&p);
		packing_release(&p.cur);
		if (p.n_units <= PLAN_EXACT_UNITS && p.best.n_sets > 1) {
			p.cur.unit_set = xcalloc(p.n_units + 1, sizeof(*p.cur.unit_set));
			search(&p, 0);
		}
		out->n_sets = p.best.n_sets;
		out->sets = xcalloc(out->n_sets + 1, sizeof(*out->sets));
		for (size_t s = 0; s < out->n_sets; s++) {
			out->sets[s].n = p.best.sets[s].n;
			out->sets[s].events = xcalloc(out->sets[s].n + 1, sizeof(char *));
			for (size_t i = 0; i < out->sets[s].n; i++)
				out->sets[s].events[i] = xstrdup(p.best.sets[s].events[i]);
		}
	}
	for (size_t g = 0; !rc && g < n_groups; g++) {
		if (out->group_set[g] < 0)
			continue;
		out->group_set[g] = -1;
		for (size_t s = 0; s < out->n_sets && out->group_set[g] < 0; s++)
			if (contains(&out->sets[s], groups[g].events, groups[g].n))
				out->group_set[g] = (int)s;
	}
	packing_release(&p.cur);
	packing_release(&p.best);
	for (size_t u = 0; u < p.n_units; u++)
		free(p.units[u].ev);
	free(p.units);
	if (rc)
		plan_release(out);
	return rc;
}

void plan_ungroup(struct plan *p, size_t n_groups)
{
	struct plan_set *sets;
	size_t n = 0, k = 0;

	for (size_t s = 0; s < p->n_sets; s++)
		n += p->sets[s].n;
	sets = xcalloc(n + 1, sizeof(*sets));
	for (size_t s = 0; s < p->n_sets; s++) {
		for (size_t i = 0; i < p->sets[s].n; i++) {
			sets[k].events = xcalloc(2, sizeof(char *));
			sets[k].events[0] = p->sets[s].events[i];
			sets[k++].n = 1;
		}
		free(p->sets[s].events);
	}
	free(p->sets);
	p->sets = sets;
	p->n_sets = n;
	p->ungrouped = true;
	for (size_t g = 0; g < n_groups; g++)
		p->group_set[g] = -1;
}

void plan_groups_free(struct plan_group *g, size_t n)
{
	for (size_t i = 0; g && i < n; i++) {
		for (size_t k = 0; k < g[i].n; k++)
			free(g[i].events[k]);
		free(g[i].events);
	}
	free(g);
}

void plan_release(struct plan *pl)
{
	for (size_t s = 0; s < pl->n_sets; s++) {
		for (size_t i = 0; i < pl->sets[s].n; i++)
			free(pl->sets[s].events[i]);
		free(pl->sets[s].events);
	}
	free(pl->sets);
	free(pl->group_set);
	memset(pl, 0, sizeof(*pl));
}
