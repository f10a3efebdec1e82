/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "u64set.h"
#include "util.h"

void u64set_init(struct u64set *s)
{
	memset(s, 0, sizeof(*s));
}

void u64set_release(struct u64set *s)
{
	free(s->slots);
	memset(s, 0, sizeof(*s));
}

static size_t slot_of(const struct u64set_slot *slots, size_t cap, uint64_t key)
{
	size_t i = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 17) & (cap - 1);

	while (slots[i].key && slots[i].key != key)
		i = (i + 1) & (cap - 1);
	return i;
}

static void grow(struct u64set *s)
{
	size_t cap = s->cap ? s->cap * 2 : 64;
	struct u64set_slot *slots = xcalloc(cap, sizeof(*slots));

	for (size_t i = 0; i < s->cap; i++)
		if (s->slots[i].key)
			slots[slot_of(slots, cap, s->slots[i].key)] = s->slots[i];
	free(s->slots);
	s->slots = slots;
	s->cap = cap;
}

/* the slot of v, added if new; NULL for UINT64_MAX */
static struct u64set_slot *insert(struct u64set *s, uint64_t v, bool *added)
{
	uint64_t key = v + 1;
	size_t i;

	*added = false;
	if (key == 0)
		return NULL; /* UINT64_MAX cannot be stored */
	if ((s->len + 1) * 2 > s->cap)
		grow(s);
	i = slot_of(s->slots, s->cap, key);
	if (!s->slots[i].key) {
		s->slots[i] = (struct u64set_slot){ key, 0 };
		s->len++;
		*added = true;
	}
	return &s->slots[i];
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
	size_t i;

	if (!s->cap || v + 1 == 0)
		return false;
	i = slot_of(s->slots, s->cap, v + 1);
	if (!s->slots[i].key)
		return false;
	*data = s->slots[i].data;
	return true;
}

bool u64set_at(const struct u64set *s, size_t i, uint64_t *v)
{
	if (i >= s->cap || !s->slots[i].key)
		return false;
	*v = s->slots[i].key - 1;
	return true;
}
