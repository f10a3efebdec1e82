/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Metric formulas: one grammar, one parser, one evaluator.
 *
 *   expr    := sum
 *   sum     := product (('+' | '-') product)*
 *   product := unary (('*' | '/') unary)*
 *   unary   := '-' unary | primary
 *   primary := NUMBER | NAME | '(' expr ')'
 *            | ('min' | 'max') '(' expr ',' expr ')'
 *            | 'if' '(' expr ',' expr ',' expr ')'
 *
 * NAME is an event or another metric: a letter or '_', then letters,
 * digits, '_', '.', ':'; a '-' between two letters or digits belongs to the
 * name (task-clock, L1-dcache-load-misses), so a subtraction of two names
 * is written with spaces around the '-'.  if(c, a, b) is a when c is not 0,
 * else b, and evaluates only the branch it takes: if(x, y / x, 0) guards a
 * division.  Pure computation: no I/O, errors carry the byte position.
 */
#ifndef PFMON_RESULTS_METRIC_EXPR_H
#define PFMON_RESULTS_METRIC_EXPR_H

#include <stdbool.h>
#include <stddef.h>

#define MX_MAX_TEXT 4096 /* formulas longer than this are refused */
#define MX_MAX_DEPTH 64 /* nesting deeper than this is refused */

enum mx_op {
	MX_NUM,
	MX_NAME,
	MX_NEG,
	MX_ADD,
	MX_SUB,
	MX_MUL,
	MX_DIV,
	MX_MIN,
	MX_MAX,
	MX_IF,
};

struct mx_node {
	enum mx_op op;
	double num; /* MX_NUM */
	size_t name; /* MX_NAME: index into metric_expr.names */
	int a, b, c; /* operands: node indexes, -1 if unused */
};

struct metric_expr {
	struct mx_node *nodes;
	size_t n_nodes;
	int root;
	char **names; /* distinct names, in order of first use */
	size_t n_names;
};

struct mx_error {
	size_t pos; /* byte offset of the offending token */
	char why[96];
};

/* 0, or -1 with e (and nothing to release in out). */
int metric_expr_parse(const char *text, struct metric_expr *out, struct mx_error *e);
void metric_expr_release(struct metric_expr *x);

/* The value of names[i]: false when it is not available (not counted). */
typedef bool (*mx_lookup)(size_t name, double *value, void *arg);

/* The formula's value; false when not available: an input not available,
 * a division by zero or a result that is not a finite number. */
bool metric_expr_eval(const struct metric_expr *x, mx_lookup lookup, void *arg, double *out);

/* "a + ^* b": the text with a caret before byte pos, in buf */
const char *mx_mark(const char *text, size_t pos, char *buf, size_t size);

#endif
