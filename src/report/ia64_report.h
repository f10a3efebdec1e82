/*
 * pfmon 3.x's sampling outputs for Itanium 2 EAR/BTB samples: each sample's
 * PMDs decoded (src/sample/ia64_ear.h) and its addresses named through the
 * dump's maps (src/symbol/).  The printer is fed one sample at a time and
 * keeps nothing of it, so its memory does not grow with the dump.
 */
#ifndef PFMON_REPORT_IA64_REPORT_H
#define PFMON_REPORT_IA64_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "sample/ia64_dump.h"

/* --smpl-module names, in pfmon 3.x's order */
enum ia64_smpl_module {
	IA64_MOD_DETAILED,
	IA64_MOD_COUNT_, /* the modules implemented so far */
};

bool ia64_smpl_module_from_name(const char *name, enum ia64_smpl_module *out);

struct ia64_report_opts {
	enum ia64_smpl_module module;
	bool json;              /* --report-format=json: one object per sample per line */
	const char *debug_root; /* NULL: the default */
};

struct ia64_report;

struct ia64_report *ia64_report_new(const struct ia64_report_opts *opts, FILE *out);
/* which units the samples hold, before the first sample */
void ia64_report_config(struct ia64_report *r, const struct ia64_dump_config *c);
/* an ELF file mapped for every process of the dump */
void ia64_report_map(struct ia64_report *r, const struct ia64_dump_map *m);
void ia64_report_sample(struct ia64_report *r, const struct ia64_dump_sample *s);
void ia64_report_free(struct ia64_report *r);

#endif
