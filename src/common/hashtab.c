/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "hashtab.h"
#include "util.h"

void hashtab_init(struct hashtab *t)
{
	*t = (struct hashtab)HASHTAB_INIT;
}

void hashtab_release(struct hashtab *t)
{
	free(t->slots);
	hashtab_init(t);
}

void hashtab_clear(struct hashtab *t, const struct hashtab_ops *ops)
{
	if (t->len)
		memset(t->slots, 0, t->cap * ops->slot_size);
	t->len = 0;
}

void hashtab_grow(struct hashtab *t, const struct hashtab_ops *ops)
{
	struct hashtab n = { NULL, t->cap ? t->cap * 2 : ops->min_cap, t->len };
	size_t mask = n.cap - 1;

	n.slots = xcalloc(n.cap, ops->slot_size);
	for (size_t i = 0; i < t->cap; i++) {
		const void *s = hashtab_slot(t, ops, i);
		size_t j;

		if (!ops->used(s))
			continue;
		for (j = (size_t)ops->hash(s) & mask; ops->used(hashtab_slot(&n, ops, j)); j = (j + 1) & mask)
			;
		memcpy(hashtab_slot(&n, ops, j), s, ops->slot_size);
	}
	free(t->slots);
	*t = n;
}

void *hashtab_next(const struct hashtab *t, const struct hashtab_ops *ops, size_t *i)
{
	for (; *i < t->cap; ++*i) {
		void *s = hashtab_slot(t, ops, *i);

		if (ops->used(s)) {
			++*i;
			return s;
		}
	}
	return NULL;
}
