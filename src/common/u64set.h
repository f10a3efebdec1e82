/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A set of 64-bit values (common/hashtab.h), e.g. distinct addresses; the
 * same table as a map, each value carrying a 64-bit payload (an index). */
#ifndef PFMON_COMMON_U64SET_H
#define PFMON_COMMON_U64SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hashtab.h"

struct u64set_slot {
	uint64_t key;  /* value + 1; 0: empty, so every value fits but UINT64_MAX */
	uint64_t data; /* the payload, for the map functions */
};

struct u64set {
	struct hashtab tab; /* of struct u64set_slot */
};

void u64set_init(struct u64set *s);
void u64set_release(struct u64set *s);
/* true when v was not in the set yet (false for UINT64_MAX, never stored) */
bool u64set_add(struct u64set *s, uint64_t v);
/* the next value at or after slot *i, in no order: false after the last;
 * for (size_t i = 0; u64set_next(s, &i, &v);) ... */
bool u64set_next(const struct u64set *s, size_t *i, uint64_t *v);

/* as a map: set v's payload (adding v); false for UINT64_MAX */
bool u64set_put(struct u64set *s, uint64_t v, uint64_t data);
/* v's payload, if v is in the set */
bool u64set_get(const struct u64set *s, uint64_t v, uint64_t *data);

static inline size_t u64set_len(const struct u64set *s)
{
	return s->tab.len;
}

#endif
