/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Not a command: a sampling run's module output (--smpl-module,
 * --smpl-compact).  One module, fed every record as it is drained; or, in
 * a system-wide run without --aggregate-results, one a CPU as pfmon 3.x
 * had (a CPU's samples to its module, the mappings and tasks to all), each
 * CPU's output kept in a temporary file and printed in CPU order at the end.
 */
#ifndef PFMON_CLI_RECORD_MODULES_H
#define PFMON_CLI_RECORD_MODULES_H

#include <stdbool.h>
#include <stdio.h>

#include "common/config.h"
#include "common/error.h"
#include "sample/sample.h"
#include "sample/smpl_file.h"
#include "session/session.h"

struct record_modules;

/*
 * The module(s) cfg asks for, printing into out; per CPU of s when cfg
 * asks for a system-wide run's sections.  --symbol-file and
 * --sysmap-file are read now and --print-syms' table printed into out.
 * *out_m is NULL when no module is wanted; -1 with err.
 */
int record_modules_open(const struct pf_config *cfg, const struct session *s, FILE *out,
			struct record_modules **out_m, struct pf_error *err);
int record_modules_record(struct record_modules *m, const struct smpl_header *h, const struct sample_record *rec,
			  struct pf_error *err);
/* every module's output after the last record, in CPU order */
int record_modules_finish(struct record_modules *m, struct pf_error *err);
void record_modules_free(struct record_modules *m);

#endif
