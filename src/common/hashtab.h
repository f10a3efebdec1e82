/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one hash table: open addressing, linear probing, a power-of-two
 * number of fixed-size slots, grown (doubled) before it passes a load
 * factor.  The slots are the caller's structs, stored in the table: a
 * lookup that hits reads one slot, with no pointer to follow (the
 * symbolizer's cache and the profile's keys are probed once a sample).
 *
 * What a slot holds is the caller's, described by a struct hashtab_ops:
 * whether a slot is used (a slot of zero bytes must be free), whether a
 * used one holds a key, and the hash of a used slot's key to move it when
 * the table grows.  Callers hash keys themselves (common/hash.h); the
 * table indexes by the hash's low bits.
 *
 * The lookups are inline, and every call names its ops, a static const
 * struct: the compiler then calls the caller's functions directly, and
 * inlines them, as in a table written for the one type.
 *
 * Slots move when the table grows: a slot's address is good until the
 * next insert.  The order of iteration is the slots' (the hashes'), the
 * same from run to run only when the hashes are (keys holding pointers
 * are not).
 */
#ifndef PFMON_COMMON_HASHTAB_H
#define PFMON_COMMON_HASHTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hashtab_ops {
	size_t slot_size;
	size_t min_cap;    /* the first number of slots, a power of two */
	unsigned load_pct; /* grow when an insert would pass cap * load_pct / 100 */
	/* is the slot used?  (false for a slot of zero bytes) */
	bool (*used)(const void *slot);
	/* does the used slot hold key?  (key: whatever the caller's lookups
	 * pass, so it may carry what the comparison needs) */
	bool (*match)(const void *slot, const void *key);
	/* the hash of the used slot's key, as the caller's lookups give it */
	uint64_t (*hash)(const void *slot);
};

struct hashtab {
	unsigned char *slots;
	size_t cap; /* a power of two, 0 until the first insert */
	size_t len; /* used slots */
};

#define HASHTAB_INIT { NULL, 0, 0 }

void hashtab_init(struct hashtab *t);
void hashtab_release(struct hashtab *t);
/* every slot free, the memory kept */
void hashtab_clear(struct hashtab *t, const struct hashtab_ops *ops);
/* twice the slots (min_cap the first time), the used ones moved */
void hashtab_grow(struct hashtab *t, const struct hashtab_ops *ops);
/* the next used slot at or after *i (then *i is past it), or NULL:
 * for (size_t i = 0; (s = hashtab_next(t, ops, &i));) ... */
void *hashtab_next(const struct hashtab *t, const struct hashtab_ops *ops, size_t *i);

static inline void *hashtab_slot(const struct hashtab *t, const struct hashtab_ops *ops, size_t i)
{
	return t->slots + i * ops->slot_size;
}

/* the used slot holding key, else the free slot where it goes (the table
 * has slots, and at least one free) */
static inline void *hashtab_probe(const struct hashtab *t, const struct hashtab_ops *ops, uint64_t hash,
				  const void *key)
{
	size_t mask = t->cap - 1, i = (size_t)hash & mask;
	void *s;

	while (s = hashtab_slot(t, ops, i), ops->used(s) && !ops->match(s, key))
		i = (i + 1) & mask;
	return s;
}

/* the slot holding key, or NULL */
static inline void *hashtab_find(const struct hashtab *t, const struct hashtab_ops *ops, uint64_t hash,
				 const void *key)
{
	void *s;

	if (!t->cap)
		return NULL;
	s = hashtab_probe(t, ops, hash, key);
	return ops->used(s) ? s : NULL;
}

/* The slot holding key, else (*added) a free slot counted as used, which
 * the caller fills in at once so that ops->used() says so, and with a key
 * whose ops->hash() is hash. */
static inline void *hashtab_insert(struct hashtab *t, const struct hashtab_ops *ops, uint64_t hash,
				   const void *key, bool *added)
{
	void *s;

	if ((t->len + 1) * 100 > t->cap * ops->load_pct)
		hashtab_grow(t, ops);
	s = hashtab_probe(t, ops, hash, key);
	*added = !ops->used(s);
	t->len += *added;
	return s;
}

#endif
