/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Metric formulas: a recursive-descent parser into a node array, and its evaluator. */
#include <config.h>

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "metric_expr.h"

struct parser {
	const char *text;
	size_t pos;
	int depth;
	struct metric_expr *x;
	struct mx_error *e;
};

static int fail(struct parser *p, size_t pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(struct parser *p, size_t pos, const char *fmt, ...)
{
	va_list ap;

	p->e->pos = pos;
	va_start(ap, fmt);
	vsnprintf(p->e->why, sizeof(p->e->why), fmt, ap);
	va_end(ap);
	return -1;
}

static void skip_space(struct parser *p)
{
	while (p->text[p->pos] == ' ' || p->text[p->pos] == '\t')
		p->pos++;
}

static int add_node(struct parser *p, struct mx_node n)
{
	struct metric_expr *x = p->x;

	x->nodes = xrealloc(x->nodes, (x->n_nodes + 1) * sizeof(*x->nodes));
	x->nodes[x->n_nodes] = n;
	return (int)x->n_nodes++;
}

static size_t intern_name(struct metric_expr *x, const char *s, size_t len)
{
	for (size_t i = 0; i < x->n_names; i++)
		if (strlen(x->names[i]) == len && memcmp(x->names[i], s, len) == 0)
			return i;
	x->names = xrealloc(x->names, (x->n_names + 1) * sizeof(*x->names));
	x->names[x->n_names] = xstrndup(s, len);
	return x->n_names++;
}

static bool name_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == ':';
}

/* the length of the name at s: a '-' joins it only between two letters or digits */
static size_t name_length(const char *s)
{
	size_t n = 1;

	for (;;) {
		if (name_char(s[n]))
			n++;
		else if (s[n] == '-' && isalnum((unsigned char)s[n - 1]) && isalpha((unsigned char)s[n + 1]))
			n++;
		else
			return n;
	}
}

/* digits [. digits] [e [+-] digits]: parse_real's syntax, scanned here for the
 * token's length and the position of an error */
static int parse_number(struct parser *p)
{
	const char *s = p->text + p->pos;
	size_t n = 0;
	char buf[64];
	double v;

	while (isdigit((unsigned char)s[n]))
		n++;
	if (s[n] == '.') {
		n++;
		if (!isdigit((unsigned char)s[n]))
			return fail(p, p->pos + n, "expected a digit after the decimal point");
		while (isdigit((unsigned char)s[n]))
			n++;
	}
	if (s[n] == 'e' || s[n] == 'E') {
		size_t m = n + 1;

		if (s[m] == '+' || s[m] == '-')
			m++;
		if (!isdigit((unsigned char)s[m]))
			return fail(p, p->pos + m, "expected the exponent's digits");
		while (isdigit((unsigned char)s[m]))
			m++;
		n = m;
	}
	if (name_char(s[n]))
		return fail(p, p->pos + n, "unexpected '%c' after a number", s[n]);
	if (n >= sizeof(buf))
		return fail(p, p->pos, "number too long");
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (!parse_real(buf, &v)) /* the syntax is checked above: only a value too large is left */
		return fail(p, p->pos, "number out of range");
	p->pos += n;
	return add_node(p, (struct mx_node){ .op = MX_NUM, .num = v, .a = -1, .b = -1, .c = -1 });
}

static int parse_expr(struct parser *p);

static int expect(struct parser *p, char c)
{
	skip_space(p);
	if (p->text[p->pos] != c) {
		if (!p->text[p->pos])
			return fail(p, p->pos, "expected '%c' before the end", c);
		return fail(p, p->pos, "expected '%c', found '%c'", c, p->text[p->pos]);
	}
	p->pos++;
	return 0;
}

/* min(a, b), max(a, b), if(c, a, b): after the name, at '(' */
static int parse_call(struct parser *p, enum mx_op op)
{
	int args[3] = { -1, -1, -1 };
	int n = op == MX_IF ? 3 : 2;

	if (expect(p, '('))
		return -1;
	for (int i = 0; i < n; i++) {
		if (i && expect(p, ','))
			return -1;
		if ((args[i] = parse_expr(p)) < 0)
			return -1;
	}
	if (expect(p, ')'))
		return -1;
	return add_node(p, (struct mx_node){ .op = op, .a = args[0], .b = args[1], .c = args[2] });
}

static int parse_name(struct parser *p)
{
	const char *s = p->text + p->pos;
	size_t len = name_length(s);
	size_t after = p->pos + len;

	while (p->text[after] == ' ' || p->text[after] == '\t')
		after++;
	if (p->text[after] == '(') { /* a function */
		static const struct {
			const char *name;
			enum mx_op op;
		} calls[] = { { "min", MX_MIN }, { "max", MX_MAX }, { "if", MX_IF } };

		for (size_t i = 0; i < ARRAY_SIZE(calls); i++) {
			if (strlen(calls[i].name) == len && memcmp(calls[i].name, s, len) == 0) {
				p->pos += len;
				return parse_call(p, calls[i].op);
			}
		}
		return fail(p, p->pos, "unknown function '%.*s' (there are min, max and if)", (int)(len > 40 ? 40 : len), s);
	}
	p->pos += len;
	return add_node(p, (struct mx_node){ .op = MX_NAME, .name = intern_name(p->x, s, len), .a = -1, .b = -1,
					     .c = -1 });
}

static int parse_primary(struct parser *p)
{
	char c;
	int n;

	skip_space(p);
	c = p->text[p->pos];
	if (c == '(') {
		p->pos++;
		if ((n = parse_expr(p)) < 0 || expect(p, ')'))
			return -1;
		return n;
	}
	if (isdigit((unsigned char)c) || c == '.')
		return parse_number(p);
	if (name_start(c))
		return parse_name(p);
	if (!c)
		return fail(p, p->pos, "expected a number, a name or '(' before the end");
	if (isprint((unsigned char)c))
		return fail(p, p->pos, "unexpected '%c'", c);
	return fail(p, p->pos, "unexpected byte 0x%02x", (unsigned char)c);
}

static int parse_unary(struct parser *p)
{
	int a;

	skip_space(p);
	if (p->text[p->pos] != '-')
		return parse_primary(p);
	p->pos++;
	if (++p->depth > MX_MAX_DEPTH)
		return fail(p, p->pos, "nested more than %d deep", MX_MAX_DEPTH);
	a = parse_unary(p);
	p->depth--;
	if (a < 0)
		return -1;
	return add_node(p, (struct mx_node){ .op = MX_NEG, .a = a, .b = -1, .c = -1 });
}

static int parse_binary(struct parser *p, const char ops[2], const enum mx_op codes[2], int (*next)(struct parser *))
{
	int left = next(p);

	while (left >= 0) {
		const char *hit;
		int right;

		skip_space(p);
		if (!p->text[p->pos] || !(hit = memchr(ops, p->text[p->pos], 2)))
			break;
		p->pos++;
		if ((right = next(p)) < 0)
			return -1;
		left = add_node(p, (struct mx_node){ .op = codes[hit - ops], .a = left, .b = right, .c = -1 });
	}
	return left;
}

static int parse_product(struct parser *p)
{
	static const enum mx_op codes[2] = { MX_MUL, MX_DIV };

	return parse_binary(p, "*/", codes, parse_unary);
}

static int parse_expr(struct parser *p)
{
	static const enum mx_op codes[2] = { MX_ADD, MX_SUB };
	int n;

	if (++p->depth > MX_MAX_DEPTH)
		return fail(p, p->pos, "nested more than %d deep", MX_MAX_DEPTH);
	n = parse_binary(p, "+-", codes, parse_product);
	p->depth--;
	return n;
}

void metric_expr_release(struct metric_expr *x)
{
	for (size_t i = 0; i < x->n_names; i++)
		free(x->names[i]);
	free(x->names);
	free(x->nodes);
	memset(x, 0, sizeof(*x));
}

int metric_expr_parse(const char *text, struct metric_expr *out, struct mx_error *e)
{
	struct parser p = { .text = text, .x = out, .e = e };
	size_t len = strlen(text);

	memset(out, 0, sizeof(*out));
	if (len > MX_MAX_TEXT)
		return fail(&p, MX_MAX_TEXT, "longer than %d bytes", MX_MAX_TEXT);
	out->root = parse_expr(&p);
	if (out->root >= 0) {
		skip_space(&p);
		if (text[p.pos]) {
			out->root = -1;
			fail(&p, p.pos, text[p.pos] == ')' ? "unbalanced ')'" : "unexpected '%c' after the formula",
			     text[p.pos]);
		}
	}
	if (out->root < 0) {
		metric_expr_release(out);
		return -1;
	}
	return 0;
}

static bool eval_node(const struct metric_expr *x, int i, mx_lookup lookup, void *arg, double *out)
{
	const struct mx_node *n = &x->nodes[i];
	double a, b;

	switch (n->op) {
	case MX_NUM:
		*out = n->num;
		return true;
	case MX_NAME:
		return lookup(n->name, out, arg);
	case MX_IF: /* only the branch taken: the other may divide by zero */
		if (!eval_node(x, n->a, lookup, arg, &a))
			return false;
		return eval_node(x, a != 0.0 ? n->b : n->c, lookup, arg, out);
	case MX_NEG:
		if (!eval_node(x, n->a, lookup, arg, &a))
			return false;
		*out = -a;
		return true;
	default:
		break;
	}
	if (!eval_node(x, n->a, lookup, arg, &a) || !eval_node(x, n->b, lookup, arg, &b))
		return false;
	switch (n->op) {
	case MX_ADD: *out = a + b; break;
	case MX_SUB: *out = a - b; break;
	case MX_MUL: *out = a * b; break;
	case MX_DIV:
		if (b == 0.0)
			return false;
		*out = a / b;
		break;
	case MX_MIN: *out = a < b ? a : b; break;
	case MX_MAX: *out = a > b ? a : b; break;
	default: return false;
	}
	return isfinite(*out);
}

bool metric_expr_eval(const struct metric_expr *x, mx_lookup lookup, void *arg, double *out)
{
	double v;

	if (!x->nodes || x->root < 0 || !eval_node(x, x->root, lookup, arg, &v) || !isfinite(v))
		return false;
	*out = v;
	return true;
}

const char *mx_mark(const char *text, size_t pos, char *buf, size_t size)
{
	size_t len = strlen(text);

	if (pos > len)
		pos = len;
	snprintf(buf, size, "%.*s^%s", (int)pos, text, text + pos);
	/* control bytes would break the one line of an error message */
	for (char *c = buf; *c; c++)
		if (iscntrl((unsigned char)*c))
			*c = '?';
	return buf;
}
