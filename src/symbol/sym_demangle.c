/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Demangled function and variable names, as perf shows them: C++ (the
 * Itanium ABI's _Z names) and Rust (legacy _ZN...17h<hash>E and v0 _R
 * names) through libiberty's cplus_demangle, the demangler of binutils and
 * perf; none of our own.  Each distinct name is demangled once: a profile
 * asks for the same few functions at many addresses.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>
#undef ARRAY_SIZE /* libiberty.h's: common/util.h defines the same */

#include "common/hash.h"
#include "common/util.h"
#include "symbol/sym_internal.h"

/* perf's default style (perf shows parameters only with -v): names and
 * template arguments, no parameter list; C++, Rust legacy and v0.
 * Overloads of one name are then one entry, as in perf. */
#define DEMANGLE_STYLE (DMGL_ANSI | DMGL_AUTO)

struct dm_slot {
	const char *mangled; /* the symbol table's string; NULL: empty slot */
	char *demangled;     /* NULL: not a mangled name, shown as it is */
};

/* mangled names start _Z (C++, Rust legacy) or _R (Rust v0); on some
 * targets an extra underscore precedes them */
static bool looks_mangled(const char *s)
{
	if (s[0] == '_' && s[1] == '_')
		s++;
	return s[0] == '_' && (s[1] == 'Z' || s[1] == 'R');
}

static bool dm_used(const void *slot)
{
	return ((const struct dm_slot *)slot)->mangled != NULL;
}

static bool dm_match(const void *slot, const void *key)
{
	return strcmp(((const struct dm_slot *)slot)->mangled, key) == 0;
}

static uint64_t dm_hash(const void *slot)
{
	return hash_str(((const struct dm_slot *)slot)->mangled);
}

static const struct hashtab_ops dm_ops = {
	.slot_size = sizeof(struct dm_slot),
	.min_cap = 64,
	.load_pct = 75,
	.used = dm_used,
	.match = dm_match,
	.hash = dm_hash,
};

const char *sym_demangle(struct sym_demangler *d, const char *name)
{
	struct dm_slot *s;
	bool added;

	if (!name || !looks_mangled(name))
		return name;
	s = hashtab_insert(&d->tab, &dm_ops, hash_str(name), name, &added);
	if (added) {
		s->mangled = name;
		s->demangled = cplus_demangle(name, DEMANGLE_STYLE);
	}
	return s->demangled ? s->demangled : name;
}

void sym_demangler_release(struct sym_demangler *d)
{
	struct dm_slot *s;

	for (size_t i = 0; (s = hashtab_next(&d->tab, &dm_ops, &i));)
		free(s->demangled);
	hashtab_release(&d->tab);
	*d = (struct sym_demangler){ 0 };
}
