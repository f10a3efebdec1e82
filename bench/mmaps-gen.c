/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench/mmaps-gen OUT N: a sample file of one process with N mmap records
 * (top-down addresses, as mmap places them, every tenth one remapping part
 * of an earlier range) and a sample after every hundredth, so lookups
 * interleave with the additions.  The paths do not exist: the report
 * answers binary+offset and the time is that of the address spaces.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>

#include "common/util.h"
#include "sample/smpl_file.h"

#define TOP 0x7f0000000000ull
#define STEP 0x3000ull

int main(int argc, char **argv)
{
	static char name[] = "cpu-clock";
	struct smpl_event ev = { .name = name,
				 .fields = SAMPLE_F_IP | SAMPLE_F_TID | SAMPLE_F_TIME | SAMPLE_F_PERIOD,
				 .period = 100000 };
	struct smpl_header h = { .clockid = -1, .nr_events = 1, .events = &ev };
	struct pf_error err;
	struct smpl_writer *w;
	unsigned long n;
	char path[64];

	if (argc != 3 || (n = strtoul(argv[2], NULL, 10)) == 0) {
		fprintf(stderr, "usage: mmaps-gen OUT N\n");
		return 2;
	}
	w = smpl_writer_open(argv[1], &h, &err);
	if (!w) {
		fprintf(stderr, "error: %s\n", err.msg);
		return 1;
	}
	for (unsigned long i = 0; i < n; i++) {
		struct sample_mmap m = { .pid = 1000, .tid = 1000, .start = TOP - i * STEP, .len = 0x2000,
					 .cpumode = 2, .filename = path };
		struct sample s = { .fields = ev.fields, .ip = TOP - (i / 2) * STEP + 0x10, .pid = 1000,
				    .tid = 1000, .time = i, .period = 100000 };

		if (i % 10 == 9) { /* an mprotect-like remap inside an earlier mapping */
			m.start = TOP - (i / 2) * STEP + 0x1000;
			m.len = 0x800;
		}
		snprintf(path, sizeof(path), "/nonexistent/lib%lu.so", i % 1000);
		if (smpl_write_mmap(w, &m, NULL, &err) ||
		    (i % 100 == 99 && smpl_write_sample(w, &s, &err)))
			break;
	}
	if (smpl_writer_close(w, &err)) {
		fprintf(stderr, "error: %s\n", err.msg);
		return 1;
	}
	return 0;
}
