/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A string -> counter map (common/hashtab.h), for profiles. */
#ifndef PFMON_COMMON_STRMAP_H
#define PFMON_COMMON_STRMAP_H

#include <stddef.h>
#include <stdint.h>

#include "hashtab.h"

struct strmap_entry {
	char *key; /* NULL: empty slot */
	uint64_t value;
};

struct strmap {
	struct hashtab tab; /* of struct strmap_entry */
};

void strmap_init(struct strmap *m);
void strmap_release(struct strmap *m);
/* add delta to key's counter, creating it at 0 */
void strmap_add(struct strmap *m, const char *key, uint64_t delta);
/* key's counter, 0 when absent */
uint64_t strmap_get(const struct strmap *m, const char *key);
/* the entries, sorted by value (descending), then key; caller frees the array */
struct strmap_entry *strmap_sorted(const struct strmap *m);

static inline size_t strmap_len(const struct strmap *m)
{
	return m->tab.len;
}

#endif
