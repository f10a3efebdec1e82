/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "strmap.h"
#include "util.h"

static bool entry_used(const void *slot)
{
	return ((const struct strmap_entry *)slot)->key != NULL;
}

static bool entry_match(const void *slot, const void *key)
{
	return strcmp(((const struct strmap_entry *)slot)->key, key) == 0;
}

static uint64_t entry_hash(const void *slot)
{
	return hash_str(((const struct strmap_entry *)slot)->key);
}

static const struct hashtab_ops entry_ops = {
	.slot_size = sizeof(struct strmap_entry),
	.min_cap = 64,
	.load_pct = 75,
	.used = entry_used,
	.match = entry_match,
	.hash = entry_hash,
};

void strmap_init(struct strmap *m)
{
	hashtab_init(&m->tab);
}

void strmap_release(struct strmap *m)
{
	struct strmap_entry *e;

	for (size_t i = 0; (e = hashtab_next(&m->tab, &entry_ops, &i));)
		free(e->key);
	hashtab_release(&m->tab);
}

void strmap_add(struct strmap *m, const char *key, uint64_t delta)
{
	bool added;
	struct strmap_entry *e = hashtab_insert(&m->tab, &entry_ops, hash_str(key), key, &added);

	if (added)
		e->key = xstrdup(key);
	e->value += delta;
}

uint64_t strmap_get(const struct strmap *m, const char *key)
{
	const struct strmap_entry *e = hashtab_find(&m->tab, &entry_ops, hash_str(key), key);

	return e ? e->value : 0;
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
	struct strmap_entry *v = xcalloc(m->tab.len ? m->tab.len : 1, sizeof(*v)), *e;
	size_t n = 0;

	for (size_t i = 0; (e = hashtab_next(&m->tab, &entry_ops, &i));)
		v[n++] = *e;
	qsort(v, n, sizeof(*v), by_value_desc);
	return v;
}
