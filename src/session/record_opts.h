/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a sampling session's plan (session/plan.h) needs of the command
 * line: each event's period, the sample fields, the ring size.  The CLI
 * fills it; nothing here knows the option table.
 */
#ifndef PFMON_SESSION_RECORD_OPTS_H
#define PFMON_SESSION_RECORD_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One event's --smpl-periods-random entry: each period it uses is its
 * base period plus (a pseudo-random number & mask). */
struct pf_period_random {
	uint64_t mask; /* 0: the period is fixed */
	uint64_t seed;
	bool seeded;   /* false: no seed given, pfmon picks one */
};

/* One event set's periods, per event; each array may be shorter than the
 * set (an event past its end has none). */
struct record_set_opts {
	const uint64_t *long_periods;
	size_t n_long_periods;
	const uint64_t *short_periods;
	size_t n_short_periods;
	const struct pf_period_random *periods_random;
	size_t n_periods_random;
	uint64_t default_period; /* an event's period when neither list gives one; 0 = none */
};

/* the most data pages a CPU's ring has (16 MiB of 4 KiB pages): the
 * computed size stops there, and -m and --smpl-entries ask no more */
#define RING_PAGES_MAX 4096

struct record_opts {
	const struct record_set_opts *sets; /* one per event set, in order */
	size_t n_sets;
	uint64_t smpl_entries; /* --smpl-entries: samples each ring holds at least */
	bool saturate;         /* --saturate-smpl-buffer: each ring holds smpl_entries samples, no more room */
	uint64_t smpl_freq;    /* Hz; 0 = the default */
	bool inherit;          /* the events follow the tasks the command makes */
	bool data_addr, weight, data_src, branch_stack; /* --smpl-data-addr ... */
	uint64_t branch_filter; /* perf record -j/-b: branch_sample_type; 0 = any branch at user level */
	uint64_t mmap_pages;    /* perf record -m: data pages of each CPU's ring; 0 = from the rates */
	bool callchain;        /* -g: the kernel's call chains */
	bool callchain_dwarf;  /* --call-graph=dwarf: user stacks copied */
	bool callchain_lbr;    /* --call-graph=lbr: user call stacks from the LBR */
	uint32_t stack_dump_size; /* bytes of user stack per sample */
};

#endif
