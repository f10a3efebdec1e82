/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the libFuzzer targets: turning the fuzz input into C values. */
#ifndef PFMON_TESTS_FUZZ_UTIL_H
#define PFMON_TESTS_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_MAX_ARGS 64

/* The input as a C string (what follows a NUL byte is dropped). */
static inline char *fuzz_cstring(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/*
 * A command line from the input: arguments separated by NUL bytes, after
 * the fixed arguments 'pre' (argv[0] first).  argv points into *buf; free
 * both.  Returns argc; at most FUZZ_MAX_ARGS arguments, as a shell would
 * pass a bounded command line.
 */
static inline int fuzz_argv(const uint8_t *data, size_t size, const char *const *pre, size_t n_pre,
			    char ***argv_out, char **buf)
{
	char **argv = calloc(FUZZ_MAX_ARGS + 1, sizeof(*argv));
	int argc = 0;
	char *p, *end;

	*buf = malloc(size + 1);
	memcpy(*buf, data, size);
	(*buf)[size] = '\0';
	for (size_t i = 0; i < n_pre; i++)
		argv[argc++] = (char *)pre[i];
	p = *buf;
	end = *buf + size;
	while (p < end && argc < FUZZ_MAX_ARGS) {
		argv[argc++] = p;
		p += strlen(p) + 1;
	}
	argv[argc] = NULL;
	*argv_out = argv;
	return argc;
}

#endif
