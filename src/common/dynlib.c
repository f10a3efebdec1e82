/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared libraries opened on first use (see dynlib.h). */
#include <config.h>

#include <dlfcn.h>

#include "dynlib.h"

static int open_lib(const char *what, const char *soname, const struct dynlib_symbol *syms, size_t n,
		    void *table, struct pf_error *err)
{
	void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);

	if (!handle)
		return pf_error_set(err, PF_E_LIBRARY, what, dlerror());
	for (size_t i = 0; i < n; i++) {
		void *fn = dlsym(handle, syms[i].name);

		if (!fn) {
			pf_error_set(err, PF_E_LIBRARY, what, dlerror());
			dlclose(handle);
			return -1;
		}
		*(void **)((char *)table + syms[i].offset) = fn;
	}
	return 0; /* the library stays: its functions are in the table */
}

int dynlib_open(const char *what, const char *soname, const struct dynlib_symbol *syms, size_t n, void *table,
		struct pf_error *err)
{
	return open_lib(what, soname, syms, n, table, err);
}

int dynlib_open_once(struct dynlib_once *once, const char *what, const char *soname, const struct dynlib_symbol *syms,
		     size_t n, void *table, struct pf_error *err)
{
	if (!once->state)
		once->state = open_lib(what, soname, syms, n, table, &once->failure) ? -1 : 1;
	if (once->state > 0)
		return 0;
	if (err)
		*err = once->failure;
	return -1;
}
