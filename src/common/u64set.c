/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include "hash.h"
#include "u64set.h"

static bool slot_used(const void *slot)
{
	return ((const struct u64set_slot *)slot)->key != 0;
}

static bool slot_match(const void *slot, const void *key)
{
	return ((const struct u64set_slot *)slot)->key == *(const uint64_t *)key;
}

static uint64_t slot_hash(const void *slot)
{
	return hash_u64(((const struct u64set_slot *)slot)->key);
}

static const struct hashtab_ops slot_ops = {
	.slot_size = sizeof(struct u64set_slot),
	.min_cap = 64,
	.load_pct = 50,
	.used = slot_used,
	.match = slot_match,
	.hash = slot_hash,
};

void u64set_init(struct u64set *s)
{
	hashtab_init(&s->tab);
}

void u64set_release(struct u64set *s)
{
	hashtab_release(&s->tab);
}

/* the slot of v, added if new; NULL for UINT64_MAX */
static struct u64set_slot *insert(struct u64set *s, uint64_t v, bool *added)
{
	uint64_t key = v + 1;
	struct u64set_slot *slot;

	*added = false;
	if (key == 0)
		return NULL; /* UINT64_MAX cannot be stored */
	slot = hashtab_insert(&s->tab, &slot_ops, hash_u64(key), &key, added);
	if (*added)
		*slot = (struct u64set_slot){ key, 0 };
	return slot;
}

bool u64set_add(struct u64set *s, uint64_t v)
{
	bool added;

	insert(s, v, &added);
	return added;
}

bool u64set_put(struct u64set *s, uint64_t v, uint64_t data)
{
	bool added;
	struct u64set_slot *slot = insert(s, v, &added);

	if (!slot)
		return false;
	slot->data = data;
	return true;
}

bool u64set_get(const struct u64set *s, uint64_t v, uint64_t *data)
{
	uint64_t key = v + 1;
	const struct u64set_slot *slot;

	if (key == 0)
		return false;
	slot = hashtab_find(&s->tab, &slot_ops, hash_u64(key), &key);
	if (!slot)
		return false;
	*data = slot->data;
	return true;
}

bool u64set_next(const struct u64set *s, size_t *i, uint64_t *v)
{
	const struct u64set_slot *slot = hashtab_next(&s->tab, &slot_ops, i);

	if (!slot)
		return false;
	*v = slot->key - 1;
	return true;
}
