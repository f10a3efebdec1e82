/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Counts saved by an earlier run, read back for --metrics-from: pfmon's
 * text layout (the count lines of pfmon 3.x as well, per CPU and per task,
 * intervals, --us/--eu/--hex-counter-format, an --outfile file with its
 * --with-header block), CSV with perf stat -x columns and JSON lines with
 * perf stat -j keys.  A saved file is hostile input: every line is checked
 * and a line that is none of these is refused, naming its number.  pfmon
 * --merge reads a rank's results file with this reader too (results.c):
 * the results header through a hook, the counts as they are read.
 */
#ifndef PFMON_RESULTS_COUNTS_READ_H
#define PFMON_RESULTS_COUNTS_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "counts.h"

enum saved_format {
	SAVED_TEXT,
	SAVED_CSV,
	SAVED_JSON,
};

/* The results of one block: the whole run, one CPU, one task, one interval. */
struct saved_block {
	bool per_cpu;
	int cpu;
	/* perf stat --per-core, ...: the group's key ("core"), name and CPUs; NULL key: none */
	const char *aggr_key;
	char aggr_label[48];
	int aggr_nr;
	bool has_task;
	struct count_task task; /* task.name owned by the block */
	bool interval;
	double interval_s;
	unsigned round; /* text: which interval heading it follows (0: none, CSV, JSON) */
	struct count_row *rows; /* names owned by the block; raw is scaled (prescaled) */
	size_t n_rows;
	uint64_t duration_ns; /* the block's duration_time count (perf), 0 if none */
};

struct saved_counts {
	enum saved_format format;
	struct saved_block *blocks; /* in file order */
	size_t n_blocks;
	bool sets_from_header; /* the event sets came from a --with-header block */
	int clock_decimals; /* the fewest decimals of a clock's msec value, -1: none */
};

/* does a line name a printed metric (skipped: its value is computed again)? */
typedef bool (*saved_is_metric_fn)(const char *name, void *arg);

/*
 * A reader of more than counts (pfmon --merge's results header, results.c):
 * header gets each '#' line and each JSON line {"pfmon-header": {...}},
 * count each count as it is read, with the block it went to.  -1 (err
 * set, naming the file and line) stops the reading.  With hooks a file of
 * no counts is no error: what it lacks is theirs to say.
 */
struct saved_hooks {
	int (*header)(void *arg, const char *line, int line_no);
	int (*count)(void *arg, const struct saved_block *b, const struct count_row *row, int line_no);
};

struct saved_read_opts {
	const char *csv_sep; /* the CSV separator (--csv=SEP); "," if NULL */
	/* counts grouped with '.' (1.234.567, --eu-counter-format) are read
	 * only when said: "1.234" is also how a metric's value prints */
	bool eu_counts;
	saved_is_metric_fn is_metric; /* NULL: no line is a metric's */
	const struct saved_hooks *hooks; /* NULL: none */
	void *arg; /* of is_metric and the hooks */
};

/*
 * Read path into out.  The options are read again at each line (a hook may
 * set the separator or the counter format a header says).  Rows of one block belong to the event sets of the
 * --with-header block when it lists them, else the n-th line of an event
 * is its n-th set.  0, or -1 with err (one line: the file, the line
 * number, what is wrong).
 */
int saved_counts_read(const char *path, const struct saved_read_opts *o, struct saved_counts *out,
		      struct pf_error *err);
void saved_counts_release(struct saved_counts *s);

/* the same from text in memory (the fuzz and unit tests); origin names it in errors */
int saved_counts_parse(const char *text, size_t len, const char *origin, const struct saved_read_opts *o,
		       struct saved_counts *out, struct pf_error *err);

#endif
