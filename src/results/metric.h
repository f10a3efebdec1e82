/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Derived metrics: definitions (one text syntax for the built-in lists of
 * src/pmu/ and for --metrics-file), their resolution (references between
 * metrics, cycles), and their values from the counts of one run.
 *
 * The definition syntax (pfmon-metrics(5)):
 *
 *   # a comment
 *   metric IA64_IPC
 *     formula  IA64_INST_RETIRED / CPU_CYCLES
 *     unit     insn per cycle
 *     group    ipc,basic
 *     desc     Itanium instructions retired per cycle
 *
 * Keys: formula (required), unit, scale, rate, desc, group, note,
 * shown-on EVENT (printed on that event's count line, as perf's shadow
 * metrics), identity (the formula is a residual that should be 0).
 */
#ifndef PFMON_RESULTS_METRIC_H
#define PFMON_RESULTS_METRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/strmap.h"
#include "counts.h"
#include "metric_expr.h"

/* the run's wall-clock time in ns, as perf's duration_time */
#define METRIC_DURATION "duration_time"

struct metric_def {
	char *name, *formula, *unit, *desc, *group, *note, *shown_on;
	double scale; /* the formula's value times scale (default 1) */
	bool rate; /* unit "/sec": K, M, G prefixes as perf prints rates */
	bool identity; /* a check: the value is a residual, 0 when the identity holds */
	char *origin; /* file (or built-in list) and line, for messages */
	struct metric_expr expr;
	/* resolution, per name of expr: another metric's index, or -1 (an event) */
	long *ref;
};

struct metric_list {
	struct metric_def *defs;
	size_t n, cap;
	struct strmap index; /* name -> index + 1 */
};

/* Parse definitions in text (from origin, "FILE" or "built-in itanium2")
 * and add them to l; a name defined twice is refused.  0, or -1 with err. */
int metric_list_add_text(struct metric_list *l, const char *text, const char *origin, struct pf_error *err);
int metric_list_add_file(struct metric_list *l, const char *path, struct pf_error *err);
/* Of text (a built-in list), only the definitions shown on one of events
 * (names as count rows spell them, case-insensitive) and those they refer
 * to: the shadows a count of these events can print, the others unparsed
 * (a count's start parsed every definition).  Their relative order is
 * text's.  0, or -1 with err. */
int metric_list_add_text_shown(struct metric_list *l, const char *text, const char *origin,
			       char *const *events, size_t n_events, struct pf_error *err);
/* Link references between metrics, refuse cycles.  0, or -1 with err. */
int metric_list_resolve(struct metric_list *l, struct pf_error *err);
void metric_list_release(struct metric_list *l);
long metric_list_find(const struct metric_list *l, const char *name);
/* is group (comma-separated list) of d naming g? */
bool metric_in_group(const struct metric_def *d, const char *g);

/*
 * Depth first from metric i through the metrics it refers to (resolved),
 * each metric once, its names in formula order: leaf(d, k, arg) for each
 * name k of d that is not a metric, done(j, arg) once the metrics j refers
 * to were walked (so in an order where a metric follows those it uses).
 * An explicit stack: the depth of a chain of references costs heap, not
 * the C stack.  A callback's nonzero return ends the walk and is returned.
 */
struct metric_walk {
	int (*leaf)(const struct metric_def *d, size_t k, void *arg);
	int (*done)(size_t j, void *arg);
	void *arg;
};
int metric_walk(const struct metric_list *l, size_t i, const struct metric_walk *w);

/* The events metric i reads, through the metrics it refers to: distinct,
 * in order of first use, without duration_time.  Adds to *names (n). */
void metric_events(const struct metric_list *l, size_t i, char ***names, size_t *n);

/* One computed metric. */
struct metric_value {
	size_t def; /* index in the list */
	int row; /* the count line it is printed on, -1 for the metric block */
	bool ok; /* false: not available (an input not counted, a division by 0) */
	double value; /* scaled */
	char unit[48]; /* with the rate prefix */
	bool multiplexed; /* an input was scaled for multiplexing */
	bool cross_set; /* the inputs come from different event sets */
	char missing[64]; /* !ok: the first input not counted, if one was */
};

/*
 * Values of the requested metrics (want, n_want; indexes in l) and, when
 * shadows, of every metric shown on a count line whose inputs were counted.
 * Inputs come from one event set when possible.  Returns the number of
 * values written to out (room for n_want + n_rows * l->n).
 */
size_t metric_evaluate(const struct metric_list *l, const size_t *want, size_t n_want, bool shadows,
		       const struct count_row *rows, size_t n_rows, uint64_t duration_ns, struct metric_value *out);

#endif
