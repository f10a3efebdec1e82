/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include "hash.h"

uint64_t hash_str(const char *s)
{
	uint64_t h = HASH_FNV64_OFFSET;

	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * HASH_FNV64_PRIME;
	return h;
}

uint32_t hash_str32(const char *s)
{
	uint32_t h = 2166136261u;

	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}
