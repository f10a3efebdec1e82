/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Names of the record types, for messages and dumps.
 */
#include <config.h>

#include "common/util.h"
#include "sample/sample.h"

static const char *const rec_type_names[] = {
	[SREC_NONE] = "none",
	[SREC_SAMPLE] = "sample",
	[SREC_MMAP] = "mmap",
	[SREC_COMM] = "comm",
	[SREC_FORK] = "fork",
	[SREC_EXIT] = "exit",
	[SREC_LOST] = "lost",
	[SREC_LOST_SAMPLES] = "lost-samples",
	[SREC_THROTTLE] = "throttle",
	[SREC_UNTHROTTLE] = "unthrottle",
	[SREC_END] = "end",
	[SREC_KERNEL] = "kernel",
	[SREC_KSYM] = "kernel symbol",
	[SREC_BINARY] = "binary",
	[SREC_IA64_CONFIG] = "itanium2 configuration",
	[SREC_IA64_SAMPLE] = "itanium2 sample",
};

const char *sample_rec_type_name(enum sample_rec_type t)
{
	if ((unsigned)t < ARRAY_SIZE(rec_type_names) && rec_type_names[t])
		return rec_type_names[t];
	return "unknown";
}

void sample_totals_add(struct sample_totals *t, const struct sample_record *rec)
{
	t->records++;
	if (rec->type == SREC_SAMPLE)
		t->samples++;
	else if (rec->type == SREC_LOST || rec->type == SREC_LOST_SAMPLES)
		t->lost += rec->lost.lost;
	else if (rec->type == SREC_THROTTLE)
		t->throttled++;
}
