/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "strmap.h"
#include "util.h"

void strmap_init(struct strmap *m)
{
	memset(m, 0, sizeof(*m));
}

void strmap_release(struct strmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->slots[i].key);
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ull;
	}
	return h;
}

static struct strmap_entry *slot_for(struct strmap_entry *slots, size_t cap, const char *key)
{
	size_t i = (size_t)hash_str(key) & (cap - 1);

	while (slots[i].key && strcmp(slots[i].key, key) != 0)
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static void grow(struct strmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	struct strmap_entry *slots = xcalloc(cap, sizeof(*slots));

	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].key)
			*slot_for(slots, cap, m->slots[i].key) = m->slots[i];
	free(m->slots);
	m->slots = slots;
	m->cap = cap;
}

void strmap_add(struct strmap *m, const char *key, uint64_t delta)
{
	struct strmap_entry *e;

	if ((m->len + 1) * 4 > m->cap * 3)
		grow(m);
	e = slot_for(m->slots, m->cap, key);
	if (!e->key) {
		e->key = xstrdup(key);
		m->len++;
	}
	e->value += delta;
}

uint64_t strmap_get(const struct strmap *m, const char *key)
{
	return m->cap ? slot_for(m->slots, m->cap, key)->value : 0;
}

static int by_value_desc(const void *a, const void *b)
{
	const struct strmap_entry *x = a, *y = b;

	if (x->value != y->value)
		return x->value > y->value ? -1 : 1;
	return strcmp(x->key, y->key);
}

struct strmap_entry *strmap_sorted(const struct strmap *m)
{
	struct strmap_entry *v = xcalloc(m->len ? m->len : 1, sizeof(*v));
	size_t n = 0;

	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].key)
			v[n++] = m->slots[i];
	qsort(v, n, sizeof(*v), by_value_desc);
	return v;
}
