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

static size_t slot_of(const uint64_t *slots, size_t cap, uint64_t key)
{
	size_t i = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 17) & (cap - 1);

	while (slots[i] && slots[i] != key)
		i = (i + 1) & (cap - 1);
	return i;
}

static void grow(struct u64set *s)
{
	size_t cap = s->cap ? s->cap * 2 : 64;
	uint64_t *slots = xcalloc(cap, sizeof(*slots));

	for (size_t i = 0; i < s->cap; i++)
		if (s->slots[i])
			slots[slot_of(slots, cap, s->slots[i])] = s->slots[i];
	free(s->slots);
	s->slots = slots;
	s->cap = cap;
}

bool u64set_add(struct u64set *s, uint64_t v)
{
	uint64_t key = v + 1;
	size_t i;

	if (key == 0)
		return false; /* UINT64_MAX cannot be stored */
	if ((s->len + 1) * 2 > s->cap)
		grow(s);
	i = slot_of(s->slots, s->cap, key);
	if (s->slots[i])
		return false;
	s->slots[i] = key;
	s->len++;
	return true;
}

bool u64set_at(const struct u64set *s, size_t i, uint64_t *v)
{
	if (i >= s->cap || !s->slots[i])
		return false;
	*v = s->slots[i] - 1;
	return true;
}
