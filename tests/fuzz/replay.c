/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fuzz targets in the normal build: a main() that runs a target's
 * LLVMFuzzerTestOneInput on every file of its corpus
 * (tests/fuzz/corpus/<target>/), so that 'make check' (gcc, ASan/UBSan
 * with --enable-sanitizers) replays each seed and each input that once
 * crashed a target.  The inputs named regress-* are the regression tests
 * of fixed defects: one TAP point each; the seeds count as one point.
 * A crash or sanitizer report ends the program before its plan, which the
 * TAP driver counts as a failure.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/tap.h"

#ifndef CORPUS_DIR
#error "CORPUS_DIR: the target's corpus directory"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the corpus file names, sorted, so the TAP output is stable */
static char **corpus_files(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **v = NULL;

	*n = 0;
	if (!d) {
		printf("Bail out! cannot open corpus '%s': %s\n", dir, strerror(errno));
		exit(1);
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		v = realloc(v, (*n + 1) * sizeof(*v));
		v[(*n)++] = strdup(de->d_name);
	}
	closedir(d);
	qsort(v, *n, sizeof(*v), by_name);
	return v;
}

static int replay(const char *dir, const char *name)
{
	char path[4096];
	unsigned char *buf = NULL;
	size_t size = 0, got;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	if (!f)
		return -1;
	do {
		buf = realloc(buf, size + 65536);
		got = fread(buf + size, 1, 65536, f);
		size += got;
	} while (got == 65536);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, size);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	size_t n, seeds = 0, seeds_ok = 0;
	char **files = corpus_files(CORPUS_DIR, &n);

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (size_t i = 0; i < n; i++) {
		bool regress = strncmp(files[i], "regress-", 8) == 0;
		int rc = replay(CORPUS_DIR, files[i]);

		if (regress)
			ok(rc == 0, "%s", files[i]);
		else {
			seeds++;
			seeds_ok += rc == 0;
		}
	}
	ok(seeds && seeds_ok == seeds, "%zu of %zu seeds of %s replayed", seeds_ok, seeds, CORPUS_DIR);
	for (size_t i = 0; i < n; i++)
		free(files[i]);
	free(files);
	return tap_done();
}
