/* A set of 64-bit values (open addressing), e.g. distinct addresses. */
#ifndef PFMON_COMMON_U64SET_H
#define PFMON_COMMON_U64SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct u64set {
	uint64_t *slots; /* value + 1; 0: empty, so every value fits but UINT64_MAX */
	size_t cap;      /* a power of two */
	size_t len;
};

void u64set_init(struct u64set *s);
void u64set_release(struct u64set *s);
/* true when v was not in the set yet (false for UINT64_MAX, never stored) */
bool u64set_add(struct u64set *s, uint64_t v);
/* the values, in no order, by index i < cap: false for an empty slot */
bool u64set_at(const struct u64set *s, size_t i, uint64_t *v);

#endif
