/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: the perf.data reader (src/sample/perf_data_reader.c)
 * as 'pfmon --report=perf.data' runs it (through smpl_reader_fopen(), which
 * hands a perf.data file to it by its magic): every record into a profile,
 * printed to /dev/null; then what was read written back as perf.data
 * (src/sample/perf_data_writer.c), as --export-perf-data does, and that
 * file read again.  The input is a whole perf.data file.
 *
 * The file's size picks the report's sort key and format (script
 * included).  Kernel symbols come from the fixture kallsyms, debug files
 * are not looked for.
 */
#include <config.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/profile.h"
#include "sample/perf_data.h"
#include "sample/smpl_file.h"

#ifndef FUZZ_KALLSYMS
#error "FUZZ_KALLSYMS: the fixture kallsyms, defined by tests/fuzz/fuzz.mk"
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;
static char out_path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	setenv("PFMON_KALLSYMS", FUZZ_KALLSYMS, 1);
	setenv("PFMON_DEBUG_ROOT", "/nonexistent-debug-root", 1);
	devnull = fopen("/dev/null", "w");
	snprintf(out_path, sizeof(out_path), "/tmp/fuzz-perf-data.%d", (int)getpid());
	return 0;
}

static struct profile_opts opts_for_size(size_t size)
{
	static const enum profile_sort sorts[] = {
		PROFILE_BY_FUNCTION, PROFILE_BY_LINE, PROFILE_BY_BINARY,
		PROFILE_BY_ADDRESS, PROFILE_BY_DATA,
	};
	static const enum profile_format formats[] = { PROFILE_TEXT, PROFILE_JSON, PROFILE_FOLDED,
						       PROFILE_SCRIPT };
	const size_t n_sorts = sizeof(sorts) / sizeof(sorts[0]);
	const size_t n_formats = sizeof(formats) / sizeof(formats[0]);
	struct profile_opts po = {
		.sort = sorts[size % n_sorts],
		.format = formats[size / n_sorts % n_formats],
	};
	return po;
}

/* read a file (pfmon's or perf.data) into a profile, and into w if given */
static int report(FILE *f, size_t size, struct perf_data_writer **w, const char *wpath)
{
	struct pf_error err = { .code = PF_E_OK };
	struct profile_opts po = opts_for_size(size);
	struct smpl_reader *r = f ? smpl_reader_fopen(f, "fuzz.data", &err) : NULL;
	struct sample_record rec;
	struct profile *p;

	if (!r)
		return -1;
	if (w)
		*w = perf_data_writer_open(wpath, smpl_reader_header(r), 0, &err);
	p = profile_new(&po, smpl_reader_header(r));
	while (smpl_reader_next(r, &rec, &err) > 0) {
		profile_add(p, &rec);
		if (w && *w)
			perf_data_write_record(*w, &rec, &err);
	}
	profile_set_status(p, smpl_reader_status(r));
	profile_print(p, devnull);
	profile_free(p);
	smpl_reader_close(r);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_data_writer *w = NULL;
	void *copy;

	if (size < 8 || !perf_data_magic(data, size))
		return 0;
	copy = malloc(size);
	memcpy(copy, data, size);
	if (report(fmemopen(copy, size, "rb"), size, &w, out_path) == 0 && w &&
	    perf_data_writer_close(w, NULL) == 0)
		report(fopen(out_path, "rb"), size, NULL, NULL);
	unlink(out_path);
	free(copy);
	return 0;
}
