/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Flat profiles of samples: by function, source line, binary or address;
 * text, JSON, folded stacks or a flame graph.  Records are fed in file order, so each
 * sample is symbolized against the address space it was taken in (MMAP2,
 * FORK, COMM-exec, EXIT records); the resolver symbolizes each unique
 * address once.
 */
#ifndef PFMON_REPORT_PROFILE_H
#define PFMON_REPORT_PROFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "common/error.h"
#include "sample/branch.h"
#include "sample/sample.h"
#include "sample/sample_out.h"
#include "sample/smpl_file.h"

enum profile_sort {
	PROFILE_BY_FUNCTION,
	PROFILE_BY_LINE,
	PROFILE_BY_BINARY,
	PROFILE_BY_ADDRESS,
	PROFILE_BY_DATA, /* the sampled data address (breakpoints, PEBS/IBS/SPE) */
	/* the memory keys (perf report --mem-mode's): where a sampled access
	 * found its data (PERF_SAMPLE_DATA_SRC), its latency (WEIGHT) */
	PROFILE_BY_MEM,     /* the memory level: "L1 hit", "L3 miss" */
	PROFILE_BY_SNOOP,   /* "HitM" */
	PROFILE_BY_TLB,     /* "L1 or L2 hit" */
	PROFILE_BY_LOCK,    /* locked instruction: "Yes", "No" */
	PROFILE_BY_BLOCKED, /* "Data", "Addr" */
	PROFILE_BY_WEIGHT,  /* the sample's weight (perf's local_weight): its latency */
	/* data-type profiling (perf's type, typeoff): what the access touched */
	PROFILE_BY_TYPE,    /* "struct foo" */
	PROFILE_BY_TYPEOFF, /* "struct foo +8 (field)" */
	/* WEIGHT_STRUCT's third field (var3_w), as perf 6.1 names it */
	PROFILE_BY_P_STAGE_CYC,
	/* samples' branch stacks (LBR, BRBE, AMD LBR; IA-64 BTB dumps): */
	PROFILE_BY_BRANCH,      /* taken branches by function: perf's symbol_from,symbol_to */
	PROFILE_BY_BRANCH_LINE, /* by source line: srcline_from,srcline_to */
	PROFILE_BY_BLOCK,       /* hot paths: the blocks run between two taken branches */
	PROFILE_BY_MISPREDICT,  /* mispredicted branches by cost */
};

/* at most this many keys in one --report-sort list */
#define PROFILE_MAX_KEYS 8

/* the sorts of branch stacks: each goes alone */
static inline bool profile_sort_branches(enum profile_sort s)
{
	return s >= PROFILE_BY_BRANCH;
}

enum profile_format {
	PROFILE_TEXT,
	PROFILE_JSON,
	PROFILE_FOLDED,
	PROFILE_SVG,    /* a flame graph of the folded stacks */
	PROFILE_SCRIPT, /* each sample, as perf script prints it */
	PROFILE_PPROF,  /* pprof's profile.proto, gzip-compressed: binary */
	PROFILE_FDATA,  /* the taken branches as BOLT's fdata (perf2bolt's output) */
	PROFILE_HTML,   /* one self-contained page: summary, tables, flame graph, annotation */
	PROFILE_BRSTACK, /* each sample's branch stack, as perf script -F brstack prints it */
};

struct profile_opts {
	/* the key of code or data (function .. data): the one of keys[], or
	 * function when keys[] has none */
	enum profile_sort sort;
	/* what samples are counted under, in order (n_keys 0: sort alone) */
	enum profile_sort keys[PROFILE_MAX_KEYS];
	uint32_t n_keys;
	enum profile_format format;
	uint64_t top; /* 0: all */
	uint64_t cum_threshold; /* percent, 1..100 */
	const char *debug_root; /* NULL: default */
	bool resolve; /* by address: add the symbol (pfmon's --resolve-addresses) */
	bool by_process; /* each process's samples apart: system-wide, as pfmon 3.x */
	bool no_demangle; /* C++ and Rust names as in the symbol table */
	/* --annotate: the hottest functions annotated (report/annotate.h)
	 * instead of the profile, as text or JSON */
	bool annotate;
	const char *annotate_function; /* NULL: the top ones (top, else 3) */
	const char *source_root;       /* --source-root */
	bool perf_maps;   /* a JIT's code named from /tmp/perf-PID.map (--demangle-java) */
	/* --symbol-file / --sysmap-file (the caller's, loaded): kernel
	 * addresses named from its code symbols, instead of kallsyms or the
	 * symbols a sample file keeps, whichever kernel took the samples */
	struct sym_symfile *kernel_symbols;
};

/* a report of branch stacks rather than of samples: a branch sort, or fdata */
static inline bool profile_branch_view(const struct profile_opts *o)
{
	return profile_sort_branches(o->sort) || o->format == PROFILE_FDATA || o->format == PROFILE_BRSTACK;
}

/* perf script's formats print each sample in file order: no reader may
 * fold identical samples into one count */
static inline bool profile_format_each_sample(enum profile_format f)
{
	return f == PROFILE_SCRIPT || f == PROFILE_BRSTACK;
}

struct profile;

struct profile *profile_new(const struct profile_opts *opts, const struct smpl_header *h);
void profile_free(struct profile *p);
void profile_add(struct profile *p, const struct sample_record *rec);
/* a sample count times (samples folded into one, sample_fold_equal());
 * any other record as profile_add() */
void profile_add_n(struct profile *p, const struct sample_record *rec, uint64_t count);
/* A branch stack that came in no sample record (an Itanium 2 BTB's pairs),
 * newest first, taken in process pid: into the branch reports (a branch
 * sort or fdata) as a sample's. */
void profile_add_branches(struct profile *p, uint32_t pid, const struct branch *v, size_t n, uint64_t count);
/* the reader's status: a truncated or unfinished file is reported */
void profile_set_status(struct profile *p, const struct smpl_status *st);
/* While samples still come from a running command: once a kernel address
 * was sampled by the running kernel, start reading its kallsyms in the
 * background, so the end does not wait for it.  Cheap to call often. */
void profile_prefetch_kernel(struct profile *p);
/* Name what was left for the end (kernel frames, per-answer counts); the
 * first print does it too.  After it nothing may be added. */
void profile_finish(struct profile *p);
void profile_print(struct profile *p, FILE *out);
/* After printing: -1 when the report could not be what was asked
 * (--annotate=NAME and no sampled function of that name), else 0. */
int profile_print_status(const struct profile *p, struct pf_error *err);
/* The kernel symbols that named samples (after profile_finish): a sample
 * file keeps them (SREC_KSYM) so that its report needs no kallsyms.  The
 * array is the caller's to free. */
size_t profile_kernel_symbols(struct profile *p, struct sample_ksym **out);
/* While recording: each binary mapped, the first time it is, gets a record
 * of its identity (build-id, inode, mtime, size) in w after its mapping,
 * so that a later report can tell a rebuilt binary from the one recorded. */
void profile_record_binaries(struct profile *p, struct sample_out *w);
/* One warning line per binary that was not the one recorded (after printing). */
void profile_print_warnings(const struct profile *p, FILE *err);
/* After a report printed whole, in the formats other than text: one note
 * line per binary sampled without symbols or debug information, or
 * unreadable, in the words the text report lists them with. */
void profile_print_notes(const struct profile *p, FILE *err);
/* lost and throttled samples, said loudly: one warning line each */
void profile_print_lost(const struct profile *p, FILE *err);

/*
 * A merge of several sample files (the ranks of a job): n sources, each
 * one's counts kept apart as well.  profile_begin_source() before the
 * records of source i: the address spaces of the previous file are
 * dropped (its pids are another host's), the binaries and symbols stay.
 */
void profile_set_sources(struct profile *p, size_t n);
void profile_begin_source(struct profile *p, size_t i);
/* after printing: source i's samples of event ev under the key named key */
uint64_t profile_source_count(const struct profile *p, size_t ev, size_t i, const char *key);
/* after printing: event ev's keys by count (descending), at most max; the
 * names point into p; returns how many */
size_t profile_top_keys(const struct profile *p, size_t ev, size_t max, const char **keys, uint64_t *counts);
size_t profile_nr_events(const struct profile *p);
const char *profile_event_name(const struct profile *p, size_t ev);

/* NULL is the default (function, text); false for an unknown name */
bool profile_sort_from_name(const char *name, enum profile_sort *out);
/* --report-sort's list of keys, comma-separated (NULL: function) into
 * o->keys and o->sort; else why not, a static message naming the culprit
 * in *bad (at most one key of code or data, each key once) */
const char *profile_sort_parse(const char *list, struct profile_opts *o, char *bad, size_t bad_size);
bool profile_format_from_name(const char *name, enum profile_format *out);
/* the i-th name those accept, NULL past the last: for messages and the
 * shell completion */
const char *profile_sort_name(size_t i);
const char *profile_format_name(size_t i);

#endif
