/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: pfmon's sample file reader (src/sample/smpl_reader.c)
 * and the report made from it (src/report/profile*.c), as 'pfmon --report'
 * runs them: every record into a profile, the reader's status, the
 * profile printed (to /dev/null).  The input is a whole sample file.
 *
 * The file's size picks the report's sort key, format and --resolve-addresses
 * so that one corpus exercises them all without changing the file layout.
 * Kernel symbols come from the fixture kallsyms, and debug files are not
 * looked for, so a run reads nothing of the host but the binaries the
 * file's mappings name.
 *
 * Built with FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION, the reader accepts
 * wrong checksums, so mutations reach the record decoder (a checksum
 * stops nobody who crafts a file on purpose).
 */
#include <config.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/profile.h"
#include "sample/smpl_file.h"

#ifndef FUZZ_KALLSYMS
#error "FUZZ_KALLSYMS: the fixture kallsyms, defined by tests/fuzz/fuzz.mk"
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	setenv("PFMON_KALLSYMS", FUZZ_KALLSYMS, 1);
	setenv("PFMON_DEBUG_ROOT", "/nonexistent-debug-root", 1);
	devnull = fopen("/dev/null", "w");
	return 0;
}

static struct profile_opts opts_for_size(size_t size)
{
	static const enum profile_sort sorts[] = {
		PROFILE_BY_FUNCTION, PROFILE_BY_LINE, PROFILE_BY_BINARY,
		PROFILE_BY_ADDRESS, PROFILE_BY_DATA,
	};
	static const enum profile_format formats[] = { PROFILE_TEXT, PROFILE_JSON, PROFILE_FOLDED, PROFILE_SVG };
	const size_t n_sorts = sizeof(sorts) / sizeof(sorts[0]);
	const size_t n_formats = sizeof(formats) / sizeof(formats[0]);
	struct profile_opts po = {
		.sort = sorts[size % n_sorts],
		.format = formats[size / n_sorts % n_formats],
		.resolve = size / (n_sorts * n_formats) % 2,
		.top = size % 7 == 0 ? 3 : 0,
		.cum_threshold = size % 11 == 0 ? 50 : 0,
	};
	return po;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pf_error err = { .code = PF_E_OK };
	struct profile_opts po = opts_for_size(size);
	struct sample_ksym *ksyms = NULL;
	struct sample_record rec;
	struct smpl_reader *r;
	struct profile *p;
	void *copy;
	FILE *f;

	if (!size)
		return 0;
	copy = malloc(size);
	memcpy(copy, data, size);
	f = fmemopen(copy, size, "rb");
	r = f ? smpl_reader_fopen(f, "fuzz.smpl", &err) : NULL;
	if (r) {
		p = profile_new(&po, smpl_reader_header(r));
		while (smpl_reader_next(r, &rec, &err) > 0)
			profile_add(p, &rec);
		profile_set_status(p, smpl_reader_status(r));
		profile_print(p, devnull);
		profile_print_lost(p, devnull);
		/* what a recording run keeps in the file at its end */
		profile_kernel_symbols(p, &ksyms);
		free(ksyms);
		profile_free(p);
		smpl_reader_close(r);
	}
	free(copy);
	return 0;
}
