/* SPDX-License-Identifier: GPL-2.0-or-later */
/* src/common/: the one hash table (hashtab.h) and the hash functions (hash.h). */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/hash.h"
#include "common/hashtab.h"
#include "common/strmap.h"
#include "common/u64set.h"
#include "tap.h"

/* a slot of the tests' table: key + 1 (0: free), and a payload */
struct slot {
	uint64_t key1;
	uint64_t value;
};

/* every key to one hash when set: collisions all the way */
static int all_collide;

static uint64_t key_hash(uint64_t key)
{
	return all_collide ? 42 : hash_u64(key);
}

static bool slot_used(const void *s)
{
	return ((const struct slot *)s)->key1 != 0;
}

static bool slot_match(const void *s, const void *key)
{
	return ((const struct slot *)s)->key1 == *(const uint64_t *)key + 1;
}

static uint64_t slot_hash(const void *s)
{
	return key_hash(((const struct slot *)s)->key1 - 1);
}

static const struct hashtab_ops ops = {
	.slot_size = sizeof(struct slot),
	.min_cap = 8,
	.load_pct = 75,
	.used = slot_used,
	.match = slot_match,
	.hash = slot_hash,
};

static struct slot *put(struct hashtab *t, uint64_t key, uint64_t value, bool *added)
{
	struct slot *s = hashtab_insert(t, &ops, key_hash(key), &key, added);

	if (*added)
		s->key1 = key + 1;
	s->value = value;
	return s;
}

static const struct slot *get(const struct hashtab *t, uint64_t key)
{
	return hashtab_find(t, &ops, key_hash(key), &key);
}

static void basics(void)
{
	struct hashtab t = HASHTAB_INIT;
	bool added;
	uint64_t k = 5;

	ok(!hashtab_find(&t, &ops, key_hash(5), &k), "an empty table (no slots yet) finds nothing");
	put(&t, 5, 50, &added);
	ok(added && t.len == 1 && t.cap == 8, "the first insert adds, in min_cap slots (len %zu cap %zu)", t.len,
	   t.cap);
	put(&t, 5, 51, &added);
	ok(!added && t.len == 1, "inserting a key again finds its slot");
	ok(get(&t, 5) && get(&t, 5)->value == 51, "find gives the slot's payload");
	ok(!get(&t, 6), "a key never inserted is not found");
	hashtab_release(&t);
	ok(!t.slots && !t.cap && !t.len, "release empties the table");
}

/* n keys in, each found with its payload, the absent ones not; the table
 * grows at 3/4 and stays a power of two */
static void many(size_t n, const char *what)
{
	struct hashtab t = HASHTAB_INIT;
	size_t found = 0, absent = 0, grew_right = 1;
	bool added;

	for (uint64_t k = 0; k < n; k++) {
		put(&t, k * 7919, k, &added);
		grew_right &= added && t.len * 100 <= t.cap * 75 && !(t.cap & (t.cap - 1));
	}
	for (uint64_t k = 0; k < n; k++) {
		const struct slot *s = get(&t, k * 7919);

		found += s && s->value == k;
		absent += !get(&t, k * 7919 + 1);
	}
	ok(t.len == n && grew_right, "%s: %zu keys added, load <= 3/4, cap %zu a power of two", what, n, t.cap);
	ok(found == n, "%s: every key found with its payload (%zu of %zu)", what, found, n);
	ok(absent == n, "%s: no absent key found (%zu of %zu absent)", what, absent, n);
	hashtab_release(&t);
}

static void iteration_and_clear(void)
{
	struct hashtab t = HASHTAB_INIT;
	uint64_t sum = 0, seen = 0;
	const struct slot *s;
	bool added;

	for (uint64_t k = 1; k <= 100; k++)
		put(&t, k, k * 2, &added);
	for (size_t i = 0; (s = hashtab_next(&t, &ops, &i));) {
		sum += s->key1 - 1;
		seen++;
	}
	ok(seen == 100 && sum == 5050, "iteration meets each used slot once (%llu slots, key sum %llu)",
	   (unsigned long long)seen, (unsigned long long)sum);
	size_t cap = t.cap;

	hashtab_clear(&t, &ops);
	ok(t.len == 0 && t.cap == cap && !get(&t, 1), "clear frees every slot and keeps the memory");
	put(&t, 1, 3, &added);
	ok(added && get(&t, 1)->value == 3, "a cleared table takes keys again");
	hashtab_release(&t);
}

static void hashes(void)
{
	/* FNV-1a's published test vectors */
	is_u64(hash_str(""), 0xcbf29ce484222325ull, "FNV-1a 64 of \"\" is its offset basis");
	is_u64(hash_str("a"), 0xaf63dc4c8601ec8cull, "FNV-1a 64 of \"a\"");
	is_u64(hash_str("foobar"), 0x85944171f73967e8ull, "FNV-1a 64 of \"foobar\"");
	is_u64(hash_bytes(HASH_FNV64_OFFSET, "foobar", 6), hash_str("foobar"), "hash_bytes is hash_str on bytes");
	is_u64(hash_str32("a"), 0xe40c292cu, "FNV-1a 32 of \"a\" (the flame graph's colours)");
	is_u64(hash_str32("foobar"), 0xbf9cf968u, "FNV-1a 32 of \"foobar\"");
	/* splitmix64's first outputs from seed 0 (the reference generator) */
	uint64_t st = 0;

	is_u64(splitmix64_next(&st), 0xe220a8397b1dcdafull, "splitmix64 from 0: first number");
	is_u64(splitmix64_next(&st), 0x6e789e6aa1b965f4ull, "splitmix64 from 0: second number");
	is_u64(hash_u64(0), 0, "the finalizer maps 0 to 0 (a bijection)");
	ok((hash_u64(1) & 0xffff) != (hash_u64(1ull << 40) & 0xffff), "a high input bit reaches the low bits");
	ok(hash_combine(hash_combine(0, 1), 2) != hash_combine(hash_combine(0, 2), 1),
	   "combining depends on the order of the words");
}

static void maps(void)
{
	struct strmap m;
	struct u64set s;
	struct strmap_entry *v;
	uint64_t x, sum = 0;
	char key[32];

	strmap_init(&m);
	for (int i = 0; i < 1000; i++) {
		snprintf(key, sizeof(key), "key%d", i % 250);
		strmap_add(&m, key, 1);
	}
	v = strmap_sorted(&m);
	ok(strmap_len(&m) == 250 && strmap_get(&m, "key7") == 4 && strmap_get(&m, "nope") == 0,
	   "strmap: 250 keys counted 4 times each");
	ok(!strcmp(v[0].key, "key0") && !strcmp(v[1].key, "key1") && !strcmp(v[2].key, "key10"),
	   "strmap: sorted by count, then key");
	free(v);
	strmap_release(&m);

	u64set_init(&s);
	ok(u64set_add(&s, 0) && !u64set_add(&s, 0) && u64set_add(&s, UINT64_MAX - 1) && !u64set_add(&s, UINT64_MAX),
	   "u64set: 0 and UINT64_MAX - 1 fit, UINT64_MAX does not");
	for (uint64_t i = 1; i <= 1000; i++)
		u64set_put(&s, i << 32, i);
	ok(u64set_len(&s) == 1002 && u64set_get(&s, 500ull << 32, &x) && x == 500 && !u64set_get(&s, 5, &x),
	   "u64set: 1,000 payloads kept");
	for (size_t i = 0; u64set_next(&s, &i, &x);)
		sum += x >> 32;
	ok(sum == 500500 + ((UINT64_MAX - 1) >> 32), "u64set: iteration meets every value");
	u64set_release(&s);
}

int main(void)
{
	basics();
	many(1000, "distinct hashes");
	many(100000, "100,000 keys");
	all_collide = 1;
	many(300, "every key one hash");
	all_collide = 0;
	iteration_and_clear();
	hashes();
	maps();
	return tap_done();
}
