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

#include "common/util.h"
#include "symbol/sym_internal.h"

/* perf's style: parameters, const/volatile; C++, Rust legacy and v0 */
#define DEMANGLE_STYLE (DMGL_PARAMS | DMGL_ANSI | DMGL_AUTO)

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

static uint64_t name_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static struct dm_slot *find_slot(struct dm_slot *slots, size_t cap, const char *name)
{
	size_t i = (size_t)name_hash(name) & (cap - 1);

	while (slots[i].mangled && strcmp(slots[i].mangled, name) != 0)
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static void grow(struct sym_demangler *d)
{
	size_t cap = d->cap ? d->cap * 2 : 64;
	struct dm_slot *slots = xcalloc(cap, sizeof(*slots));

	for (size_t i = 0; i < d->cap; i++)
		if (d->slots[i].mangled)
			*find_slot(slots, cap, d->slots[i].mangled) = d->slots[i];
	free(d->slots);
	d->slots = slots;
	d->cap = cap;
}

const char *sym_demangle(struct sym_demangler *d, const char *name)
{
	struct dm_slot *s;

	if (!name || !looks_mangled(name))
		return name;
	if ((d->len + 1) * 4 > d->cap * 3)
		grow(d);
	s = find_slot(d->slots, d->cap, name);
	if (!s->mangled) {
		s->mangled = name;
		s->demangled = cplus_demangle(name, DEMANGLE_STYLE);
		d->len++;
	}
	return s->demangled ? s->demangled : name;
}

void sym_demangler_release(struct sym_demangler *d)
{
	for (size_t i = 0; i < d->cap; i++)
		free(d->slots[i].demangled);
	free(d->slots);
	*d = (struct sym_demangler){ 0 };
}
