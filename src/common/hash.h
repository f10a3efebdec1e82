/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The hash functions, one of each kind:
 *
 *   hash_str(), hash_bytes()  FNV-1a 64 of text and bytes (paths, names);
 *   hash_u64()                the splitmix64 finalizer, for integers: ids
 *                             and addresses differ in few low bits, and a
 *                             table (common/hashtab.h) indexes by the low
 *                             bits, so every input bit must reach them;
 *   hash_combine()            folds one more word into a hash: a key of
 *                             several words is combined, then finished
 *                             with hash_u64();
 *   splitmix64_next()         not a hash: the generator around the same
 *                             finalizer, for reproducible pseudo-random
 *                             numbers (random periods, treap priorities).
 *
 * hash_str32() (FNV-1a 32) exists only for the flame graph's colours: a
 * name's colour is in every SVG written so far, and must not change.
 */
#ifndef PFMON_COMMON_HASH_H
#define PFMON_COMMON_HASH_H

#include <stddef.h>
#include <stdint.h>

#define HASH_FNV64_OFFSET 0xcbf29ce484222325ull
#define HASH_FNV64_PRIME 0x100000001b3ull
/* 2^64 / the golden ratio: odd, its bits without pattern */
#define HASH_GOLDEN 0x9e3779b97f4a7c15ull

/* FNV-1a 64 of n bytes, going on from h (HASH_FNV64_OFFSET to begin) */
static inline uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * HASH_FNV64_PRIME;
	return h;
}

/* FNV-1a 64 of a string (NULL hashes as "") */
uint64_t hash_str(const char *s);

/* FNV-1a 32 of a string (NULL as ""): the flame graph's colours only */
uint32_t hash_str32(const char *s);

/* the splitmix64 finalizer: a bijection, each input bit reaching all */
static inline uint64_t hash_u64(uint64_t x)
{
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* h with v folded in: one multiply, a bijection of h for each v (two keys
 * differing in one word never collide); its low bits see only the low bits
 * of the words, so finish with hash_u64() before indexing a table */
static inline uint64_t hash_combine(uint64_t h, uint64_t v)
{
	return (h ^ v) * HASH_GOLDEN;
}

/* the next number of a splitmix64 sequence: any seed, 0 included, gives
 * a sequence of full period 2^64 */
static inline uint64_t splitmix64_next(uint64_t *state)
{
	return hash_u64(*state += HASH_GOLDEN);
}

#endif
