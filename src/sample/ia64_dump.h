/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Itanium 2 PMD dump (man/pfmon-smpl.5, "ITANIUM 2 PMD DUMPS"): raw EAR
 * and BTB register values as a person with an Itanium 2 machine or a
 * simulator writes them down, one sample a line.
 *
 *   # comment
 *   pmc11=0x20008 pmc12=0x3f08          (or: events=DATA_EAR_CACHE_LAT4 btb-tm-tk=1)
 *   map=0x4000000000000000-0x4000000000010000:0:/path/prog
 *   ip=0x4000000000000a32 pid=12 tid=12 cpu=0 time=100 period=2000 pmd2=... pmd3=...
 *
 * The reader streams: it keeps nothing of a sample once its handler has
 * returned, so a dump of any size reads in constant memory.  It is a parser
 * of hostile input: every malformed line is one error naming the line and
 * the token.
 */
#ifndef PFMON_SAMPLE_IA64_DUMP_H
#define PFMON_SAMPLE_IA64_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"

#define IA64_DUMP_NR_PMDS 18 /* PMD0..PMD17 */
#define IA64_DUMP_MAX_LINE (64u << 10)

/* the configuration lines, gathered before the first sample */
struct ia64_dump_config {
	bool has_pmc10, has_pmc11, has_pmc12; /* a unit without its PMC was not in use */
	uint64_t pmc10, pmc11, pmc12;
	/* events=NAME,... with pfmon's range options (and the btb-* keys
	 * given to the handler's btb_option): the handler computes the PMCs
	 * from these (as --check does) and fills them in */
	const char *events;
	const char *irange, *drange;
	unsigned line;                /* of the last configuration line; 0 if none */
};

/* map=START-END:OFFSET:PATH: an ELF file mapped at [start, end) */
struct ia64_dump_map {
	uint64_t start, end, offset;
	const char *path;
	unsigned line;
};

#define IA64_DUMP_F_PID    (1u << 0)
#define IA64_DUMP_F_TID    (1u << 1)
#define IA64_DUMP_F_CPU    (1u << 2)
#define IA64_DUMP_F_TIME   (1u << 3)
#define IA64_DUMP_F_PERIOD (1u << 4)

struct ia64_dump_sample {
	unsigned line;
	unsigned fields;   /* IA64_DUMP_F_* given */
	uint64_t ip;
	uint32_t pid, tid, cpu;
	uint64_t time, period;
	uint32_t pmd_mask; /* bit n: pmdn= given */
	uint64_t pmd[IA64_DUMP_NR_PMDS];
};

/* what the handler says of a btb-*=0|1 key */
enum ia64_dump_key_status {
	IA64_DUMP_KEY_OK,
	IA64_DUMP_KEY_UNKNOWN, /* no such option */
	IA64_DUMP_KEY_TWICE,   /* given before */
};

/* Each callback returns 0, or -1 with err filled to stop the read. */
struct ia64_dump_handler {
	/* once, before the first map or sample (or at the end of a dump
	 * without them); may fill in the PMCs from events= */
	int (*config)(void *ctx, struct ia64_dump_config *c, struct pf_error *err);
	int (*map)(void *ctx, const struct ia64_dump_map *m, struct pf_error *err);
	int (*sample)(void *ctx, const struct ia64_dump_sample *s, struct pf_error *err);
	/* a configuration key btb-NAME=0|1 (on: given as 1): pfmon's --btb-*
	 * option of the PMU model, whose option table is the one list of
	 * their names; the parser knows none of them and formats the error.
	 * NULL: btb-* keys are unknown keys. */
	enum ia64_dump_key_status (*btb_option)(void *ctx, const char *key, bool on);
};

/*
 * Read a dump held in memory (buf need not be NUL-terminated); name is used
 * in messages.  0 at the end, -1 with err set ("'NAME' line N: ... 'TOKEN'")
 * at the first malformed line or a handler's error.  The entry point a fuzz
 * target drives.
 */
int ia64_dump_read(const char *buf, size_t len, const char *name,
		   const struct ia64_dump_handler *h, void *ctx, struct pf_error *err);
/* The same from a stream, line by line. */
int ia64_dump_read_file(FILE *f, const char *name, const struct ia64_dump_handler *h,
			void *ctx, struct pf_error *err);

/* the PMDs a sample must give for each unit its configuration uses, as a
 * pmd_mask; 0 when the configuration uses none */
uint32_t ia64_dump_required_pmds(const struct ia64_dump_config *c);

#endif
