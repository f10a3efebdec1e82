/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal to the sampling-module printers (ia64_report.c: the Itanium 2
 * samples; ia64_host_report.c: pfmon's own sample files): the report's
 * state and the writers both use.  Not for other files.
 */
#ifndef PFMON_REPORT_IA64_REPORT_INT_H
#define PFMON_REPORT_IA64_REPORT_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/json_writer.h"
#include "common/strmap.h"
#include "common/u64set.h"
#include "report/annotate.h"
#include "report/c2c.h"
#include "report/ia64_hist.h"
#include "report/ia64_report.h"
#include "sample/ia64_ear.h"
#include "symbol/symbol.h"

struct address_names {
	uint32_t pid;     /* whose address space named it */
	char *sym, *line; /* NULL when unknown */
};

struct ia64_report {
	struct ia64_report_opts opts;
	FILE *out;
	struct sym_resolver *res;
	enum ia64_iear_mode iear;
	enum ia64_dear_mode dear;
	bool btb, btb_ds;
	uint64_t entry;
	uint32_t pid;          /* whose maps name addresses: DUMP_PID, or the host sample's */
	uint64_t period_sum;
	uint64_t invalid;      /* dear-hist: samples with no captured miss (host: no latency) */
	bool host_dear;        /* dear-hist of host samples: their latencies */
	struct ia64_hist hist; /* inst-hist, dear-hist; btb: the branch pairs */
	struct json_writer json;
	const char *sym, *line; /* the last address named: "" when unknown */
	/* each address's names, formatted once (a dump names the same few
	 * thousand addresses millions of times); emptied when a map changes */
	struct u64set code_names, data_names; /* address -> index in names */
	struct address_names *names;
	size_t n_names, cap_names;
	struct address_names uncached; /* UINT64_MAX's */
	struct sym_symfile *symfile;   /* --symbol-file / --sysmap-file, or NULL */
	struct annotate *annotate;     /* --annotate: the samples counted there instead */
	struct c2c_view *c2c;          /* the c2c module's lines */
	/* dear-hist's named views: a row's key is its name's index here, in
	 * the order names first came (so that rows of equal counts print in
	 * the same order each run) */
	struct strmap view_ids; /* name -> index + 1 */
	char **view_names;
	size_t n_view_names, cap_view_names;
};

/* dear-hist of host samples: the histogram (ia64_host_report.c) */
void ia64_host_dear_print(struct ia64_report *r);
/* " symbol" or "" */
const char *ia64_row_symbol(struct ia64_report *r, uint64_t addr, bool data);
/* "  count  %self  %cum " of one row */
void ia64_hist_counts(struct ia64_report *r, const struct ia64_hist_row *row, uint64_t *cum);
double ia64_percent(uint64_t part, uint64_t whole);

/* forget every address's names: a mapping changed */
void ia64_names_clear(struct ia64_report *r);
/* " <sym>" when the maps name addr */
void ia64_put_sym(struct ia64_report *r, uint64_t addr, bool data);
/* compact: the column legend, a field (" -" when absent), the entry number */
void ia64_compact_header(FILE *out);
void ia64_compact_field(FILE *out, bool has, uint64_t v, unsigned base);
void ia64_compact_entry(FILE *out, uint64_t entry);

/*
 * The text printers write through these rather than fprintf: a million
 * samples are some fifty million fields, and printf's format interpreter
 * was most of the time of a report (bench/ia64dump).  One thread writes
 * the stream, so the unlocked stdio calls are safe.
 */
static inline void put_str(FILE *out, const char *s)
{
	fputs_unlocked(s, out);
}

/* "0x" and 16 hex digits, as %016lx */
static inline void put_hex16(FILE *out, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char b[18];

	b[0] = '0';
	b[1] = 'x';
	for (int i = 17; i >= 2; i--, v >>= 4)
		b[i] = digits[v & 0xf];
	fwrite_unlocked(b, 1, sizeof(b), out);
}

/* v in base 10 or 16 (then with "0x"), as few digits as it takes */
static inline void put_uint(FILE *out, uint64_t v, unsigned base)
{
	static const char digits[] = "0123456789abcdef";
	char b[24];
	size_t i = sizeof(b);

	do {
		b[--i] = digits[v % base];
		v /= base;
	} while (v);
	if (base == 16) {
		b[--i] = 'x';
		b[--i] = '0';
	}
	fwrite_unlocked(b + i, 1, sizeof(b) - i, out);
}

static inline const char *yes_no(bool v)
{
	return v ? "y" : "n";
}

/* " LABEL:v", or " LABEL:-" when the input does not give it */
static inline void put_id(FILE *out, const char *label, bool has, uint64_t v, unsigned base)
{
	putc_unlocked(' ', out);
	put_str(out, label);
	putc_unlocked(':', out);
	if (has)
		put_uint(out, v, base);
	else
		putc_unlocked('-', out);
}

#endif
