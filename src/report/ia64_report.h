/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pfmon 3.x's sampling outputs for Itanium 2 EAR/BTB samples: each sample's
 * PMDs decoded (src/sample/ia64_ear.h) and its addresses named through the
 * dump's maps (src/symbol/).  The printer is fed one sample at a time and
 * keeps nothing of it, so its memory does not grow with the dump.
 */
#ifndef PFMON_REPORT_IA64_REPORT_H
#define PFMON_REPORT_IA64_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sample/ia64_dump.h"
#include "sample/smpl_file.h"

#include "common/error.h"

/* --smpl-module names, in pfmon 3.x's order, then pfmon's own */
enum ia64_smpl_module {
	IA64_MOD_INST_HIST,
	IA64_MOD_DETAILED,
	IA64_MOD_COMPACT,
	IA64_MOD_DEAR_HIST,
	IA64_MOD_BTB,
	IA64_MOD_C2C, /* the false-sharing view of host samples (perf c2c report's) */
	IA64_MOD_COUNT_,
};

bool ia64_smpl_module_from_name(const char *name, enum ia64_smpl_module *out);
/* the module's name, NULL past the last */
const char *ia64_smpl_module_name(enum ia64_smpl_module m);
/* ia64_smpl_module_from_name, or an error naming the modules */
int ia64_smpl_module_lookup(const char *name, enum ia64_smpl_module *out, struct pf_error *err);
/* whether the module also reads pfmon's own sample files (live host samples) */
bool ia64_smpl_module_for_host(enum ia64_smpl_module m);
/* -S NAME: name, description, PMU models and options, as pfmon 3.x; -1 if unknown */
int ia64_smpl_module_describe(const char *name, FILE *out, struct pf_error *err);

/* dear-hist: what a row is (--smpl-inst-view, --smpl-data-view, --smpl-level-view;
 * host samples also --smpl-object-view, --smpl-type-view, --smpl-line-view) */
enum pf_smpl_view {
	PF_VIEW_INST = 0,
	PF_VIEW_DATA,
	PF_VIEW_LEVEL,
	PF_VIEW_OBJECT, /* the data object (perf's symbol_daddr): the variable */
	PF_VIEW_TYPE,   /* the data type (perf's type) */
	PF_VIEW_LINE,   /* the source line of the instruction */
};

/* a view whose rows are names, not numbers: host samples only */
static inline bool pf_smpl_view_named(enum pf_smpl_view v)
{
	return v >= PF_VIEW_OBJECT;
}

/* dear-hist: row order (by count; --smpl-sort-byvalue; --smpl-sort-bylevel) */
enum pf_smpl_sort {
	PF_SORT_COUNT = 0,
	PF_SORT_VALUE,
	PF_SORT_LEVEL,
};

struct ia64_report_opts {
	enum ia64_smpl_module module;
	bool json;              /* --report-format=json: one object per sample per line (c2c: one object) */
	const char *debug_root; /* NULL: the default */
	enum pf_smpl_view view; /* dear-hist */
	enum pf_smpl_sort sort; /* dear-hist */
	uint64_t top;           /* histograms: rows shown, 0 = all (c2c: cache lines) */
	uint64_t cum_threshold; /* histograms: stop before the row crossing it (percent) */
	bool print_counts;      /* --smpl-print-counts: the totals after the output */
	const char *symbol_file; /* --symbol-file: an ELF naming addresses no map covers */
	const char *sysmap_file; /* --sysmap-file: a System.map doing the same */
	bool print_syms;        /* --print-syms: the table of those first */
	bool per_cpu;           /* host samples of one CPU of a system-wide run: cpu's section */
	int cpu;
	bool no_demangle;       /* C++ names as in the symbol table */
	bool annotate;          /* --annotate: the samples' functions annotated instead */
	const char *annotate_function, *source_root;
};

struct ia64_report;

struct ia64_report *ia64_report_new(const struct ia64_report_opts *opts, FILE *out);
/* --symbol-file / --sysmap-file read, and with --print-syms printed: -1
 * with err when a file cannot be read or a System.map line is malformed */
int ia64_report_load_symbols(struct ia64_report *r, struct pf_error *err);
/* --print-syms' table of the symbols loaded (nothing without them) */
void ia64_report_print_syms(const struct ia64_report *r, FILE *out);
/* the same table of symbols read from path (a profile's, report_setup.c) */
struct sym_symfile;
void report_print_symfile(FILE *out, struct sym_symfile *s, const char *path);
/* which units the samples hold, before the first sample; -1 when the
 * module needs a unit the configuration does not use */
int ia64_report_config(struct ia64_report *r, const struct ia64_dump_config *c,
		       struct pf_error *err);
/* an ELF file mapped for every process of the dump */
void ia64_report_map(struct ia64_report *r, const struct ia64_dump_map *m);
void ia64_report_sample(struct ia64_report *r, const struct ia64_dump_sample *s);
/* The module for host samples (a live run's or a sample file's, the same
 * code for both): its checks, then ia64_report_new and, with --symbol-file
 * or --sysmap-file, the symbols loaded (printed with --print-syms); NULL
 * with err when the module needs an Itanium 2 dump or a file is bad.  A
 * CPU's section (per_cpu) starts with "# results for CPUn" */
struct ia64_report *ia64_report_host_new(const struct ia64_report_opts *opts, FILE *out, struct pf_error *err);
/* A record of pfmon's own sample file (live host samples): detailed,
 * compact and inst-hist only; -1 with err for the other modules */
struct smpl_header;
struct sample_record;
int ia64_report_host_record(struct ia64_report *r, const struct smpl_header *h,
			    const struct sample_record *rec, struct pf_error *err);
/* the histograms and totals, after the last sample */
/* -1 only with --annotate=NAME when no sampled function has that name */
int ia64_report_finish(struct ia64_report *r, struct pf_error *err);
void ia64_report_free(struct ia64_report *r);

#endif
