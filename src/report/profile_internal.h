/*
 * Inside the profile (report/profile*.c): the histograms, the counter
 * streams of read counts, and the functions the files share.
 *
 *   profile.c        options' names, adding records, finishing, printing's dispatch
 *   profile_keys.c   what a sample is counted under: its key, by sort; kernel
 *                    frames as tokens named at the end; counts per answer
 *   profile_reads.c  the increases of counts recorded in samples
 *   profile_print.c  text, JSON and folded output
 */
#ifndef PFMON_REPORT_PROFILE_INTERNAL_H
#define PFMON_REPORT_PROFILE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/strmap.h"
#include "common/u64set.h"
#include "common/util.h"
#include "kernel_check.h"
#include "profile.h"
#include "symbol/symbol.h"

/*
 * Samples counted per symbolizer answer: by function, line or binary the key
 * is a function of the answer alone, and the resolver hands out one pointer
 * per answer, so a sample costs a pointer-hash probe instead of formatting
 * and hashing its key.  Each answer becomes its key once, at print time.
 */
struct res_count {
	const struct sym_result *res; /* NULL: empty slot */
	uint64_t count;
};

struct res_counts {
	struct res_count *slots;
	size_t cap, len; /* cap: a power of two */
};

struct event_hist {
	char *name;
	uint64_t period;
	bool freq;
	uint64_t random_mask;         /* --smpl-periods-random */
	uint64_t min_period, max_period; /* of the samples, to show randomization at work */
	uint64_t samples;
	struct strmap keys;
	bool counting;           /* not sampled: read in other events' samples */
	uint32_t n_reads;        /* events whose counts each sample records */
	uint32_t reads[SAMPLE_MAX_READ];
	struct strmap read_sums[SAMPLE_MAX_READ]; /* per key: the counts' increases */
	struct res_counts by_res; /* folded into keys before printing */
};

/*
 * The counts of a sample's non-sampling events are running totals of one
 * counter: with inherited per-CPU events, that of the sampled thread on the
 * sample's CPU.  Their increase since that counter's previous sample is what
 * happened in the interval the sample ends, and is credited to its key.
 */
struct read_stream {
	uint32_t evidx, tid, cpu;
	bool used;
	uint64_t last[SAMPLE_MAX_READ];
};

struct read_streams {
	struct read_stream *slots;
	size_t cap, len; /* cap: a power of two */
};

struct profile {
	struct profile_opts opts;
	struct sym_resolver *res;
	struct event_hist *ev;
	size_t n_ev;
	struct strmap folded;
	struct read_streams streams;
	uint64_t lost, throttled;
	struct smpl_status status;
	bool have_status;
	struct kernel_check kernel; /* may the running kernel's symbols be used? */
	struct u64set kernel_ips;   /* every host kernel address sampled, call chains too */
	bool kernel_recorded;       /* the file keeps the kernel symbols (SREC_KSYM) */
	bool kernel_named;          /* finished: kernel frames have names, not a lump */
	bool finished;
};

/*
 * Kernel frames are named at the end, not as samples come: a sample file
 * keeps the kernel symbols its samples used after them, and without those
 * only the running kernel's kallsyms may name them (same kernel, same boot),
 * which is slow to read.  Until then a kernel frame is this token: a byte no
 * symbol name holds, then the address in 16 hex digits.
 */
#define KTOKEN '\x01'
#define KTOKEN_LEN 17

/*
 * Where a frame ran, for naming it.  Host kernel frames are tokens until
 * the end (KTOKEN), then named, or one "[kernel]" lump when no symbols
 * apply; guest kernel addresses are never this kernel's: one lump.
 */
enum frame_kind {
	FRAME_USER,
	FRAME_KERNEL,        /* a token, named or lumped at the end */
	FRAME_GUEST_KERNEL,  /* "[guest kernel]" */
};

/* profile_keys.c */
enum frame_kind prof_frame_kind(uint8_t cpumode);
void prof_code_key(enum profile_sort sort, const struct sym_result *r, uint64_t ip,
		     struct strbuf *key);
void prof_sample_key(struct profile *p, const struct sample *s, struct strbuf *key);
bool prof_keyed_by_answer(enum profile_sort sort);
void prof_res_count_add(struct res_counts *c, const struct sym_result *r);
void prof_fold_answers(struct profile *p, struct event_hist *h);
void prof_add_folded(struct profile *p, const struct sample *s);
void prof_name_kernel_keys(struct profile *p, struct strmap *m, bool stacks);

/* profile_reads.c */
void prof_add_reads(struct profile *p, struct event_hist *h, const struct sample *s, const char *key);

/* profile_print.c */
void prof_print_json(const struct profile *p, FILE *out);
void prof_print_folded(const struct profile *p, FILE *out);
void prof_print_text(const struct profile *p, FILE *out);

#endif
