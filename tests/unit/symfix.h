/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the symbol-layer tests: where the generated ELF fixtures are. */
#ifndef PFMON_TESTS_SYMFIX_H
#define PFMON_TESTS_SYMFIX_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef SYMFIX_DIR
#define SYMFIX_DIR "tests/fixtures/symbol/bin"
#endif

/* dir/name; eight results stay valid at once */
static inline char *fixture_path(const char *dir, const char *name)
{
	static char buf[8][4096];
	static int n;

	n = (n + 1) % 8;
	snprintf(buf[n], sizeof(buf[n]), "%s/%s", dir, name);
	return buf[n];
}

/* the path of a generated ELF fixture */
static inline char *fix(const char *name)
{
	const char *dir = getenv("SYMFIX_DIR");

	return fixture_path(dir ? dir : SYMFIX_DIR, name);
}

static inline const char *base_name(const char *p)
{
	const char *s = p ? strrchr(p, '/') : NULL;

	return s ? s + 1 : p;
}

#endif
