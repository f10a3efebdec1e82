/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Derived metrics: the definition syntax, resolution and evaluation. */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/util.h"
#include "metric.h"

#define DEF_MAX_LINE 8192 /* a longer line is refused */
#define DEF_MAX_FILE (4u << 20) /* a definitions file larger than this is refused */

void metric_list_release(struct metric_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		struct metric_def *d = &l->defs[i];

		free(d->name);
		free(d->formula);
		free(d->unit);
		free(d->desc);
		free(d->group);
		free(d->note);
		free(d->shown_on);
		free(d->origin);
		free(d->ref);
		metric_expr_release(&d->expr);
	}
	free(l->defs);
	memset(l, 0, sizeof(*l));
}

long metric_list_find(const struct metric_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->defs[i].name, name) == 0)
			return (long)i;
	return -1;
}

bool metric_in_group(const struct metric_def *d, const char *g)
{
	size_t len = strlen(g);

	for (const char *s = d->group; s && *s;) {
		const char *end = strchr(s, ',');
		size_t n = end ? (size_t)(end - s) : strlen(s);

		if (n == len && strncasecmp(s, g, n) == 0)
			return true;
		s = end ? end + 1 : s + n;
	}
	return false;
}

/* ----- the definition syntax ----- */

struct def_parser {
	struct metric_list *l;
	const char *origin;
	int line;
	struct metric_def *cur; /* the block being read, or NULL */
	struct pf_error *err;
};

/* the line being read is wrong */
#define def_fail(p, ...) pf_error_line((p)->err, PF_E_METRIC_DEF, (p)->origin, (p)->line, __VA_ARGS__)

static bool valid_metric_name(const char *s)
{
	if (!(*s == '_' || (*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z')))
		return false;
	for (; *s; s++)
		if (!(*s == '_' || *s == '.' || (*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
		      (*s >= '0' && *s <= '9')))
			return false;
	return true;
}

/* the block just read: a formula, and it must parse */
static int finish_block(struct def_parser *p)
{
	struct metric_def *d = p->cur;
	struct mx_error e;
	char marked[256];

	p->cur = NULL;
	if (!d)
		return 0;
	if (!d->formula)
		return def_fail(p, "metric '%s' has no formula", d->name);
	if (metric_expr_parse(d->formula, &d->expr, &e)) {
		mx_mark(d->formula, e.pos, marked, sizeof(marked));
		return def_fail(p, "metric '%s': formula position %zu: %s: %s", d->name, e.pos + 1, e.why,
				marked);
	}
	d->ref = xcalloc(d->expr.n_names + 1, sizeof(*d->ref));
	return 0;
}

static int start_block(struct def_parser *p, const char *name)
{
	struct metric_list *l = p->l;
	struct metric_def *d;

	if (finish_block(p))
		return -1;
	if (!valid_metric_name(name))
		return def_fail(p, "invalid metric name '%.64s' (letters, digits, '_' and '.', not first a digit)",
				name);
	if (strcmp(name, METRIC_DURATION) == 0 || strcmp(name, "min") == 0 || strcmp(name, "max") == 0 ||
	    strcmp(name, "if") == 0)
		return def_fail(p, "'%s' is a reserved name", name);
	if (metric_list_find(l, name) >= 0)
		return def_fail(p, "metric '%s' is defined twice (first at %s)", name,
				l->defs[metric_list_find(l, name)].origin);
	l->defs = xrealloc(l->defs, (l->n + 1) * sizeof(*l->defs));
	d = &l->defs[l->n++];
	memset(d, 0, sizeof(*d));
	d->name = xstrdup(name);
	d->scale = 1.0;
	d->origin = xasprintf("%s line %d", p->origin, p->line);
	p->cur = d;
	return 0;
}

static int set_scale(struct def_parser *p, const char *v)
{
	double s;

	if (!parse_real(v, &s) || s == 0.0)
		return def_fail(p, "invalid scale '%.64s' (a decimal number without a sign, not 0)", v);
	p->cur->scale = s;
	return 0;
}

static int set_text(struct def_parser *p, char **field, const char *key, const char *v)
{
	if (*field)
		return def_fail(p, "key '%s' given twice for metric '%s'", key, p->cur->name);
	*field = xstrdup(v);
	return 0;
}

static int key_line(struct def_parser *p, const char *key, const char *v)
{
	struct metric_def *d = p->cur;
	static const struct {
		const char *key;
		size_t field;
	} texts[] = {
		{ "formula", offsetof(struct metric_def, formula) }, { "unit", offsetof(struct metric_def, unit) },
		{ "desc", offsetof(struct metric_def, desc) }, { "group", offsetof(struct metric_def, group) },
		{ "note", offsetof(struct metric_def, note) }, { "shown-on", offsetof(struct metric_def, shown_on) },
	};

	if (!d)
		return def_fail(p, "'%.32s' before the first 'metric NAME' line", key);
	if (strcmp(key, "identity") == 0 || strcmp(key, "rate") == 0) {
		if (*v)
			return def_fail(p, "key '%s' takes no value", key);
		*(key[0] == 'i' ? &d->identity : &d->rate) = true;
		return 0;
	}
	if (!*v)
		return def_fail(p, "key '%.32s' needs a value", key);
	if (strcmp(key, "scale") == 0)
		return set_scale(p, v);
	for (size_t i = 0; i < ARRAY_SIZE(texts); i++)
		if (strcmp(key, texts[i].key) == 0)
			return set_text(p, (char **)((char *)d + texts[i].field), key, v);
	return def_fail(p, "unknown key '%.32s' (formula, unit, scale, rate, desc, group, note, shown-on, identity)",
			key);
}

/* one line, without its newline: blank, comment, "metric NAME" or an indented "key value" */
static int def_line(struct def_parser *p, char *s)
{
	bool indented = *s == ' ' || *s == '\t';
	char *key, *v;

	for (char *c = s; *c; c++)
		if ((unsigned char)*c < 0x20 && *c != '\t')
			return def_fail(p, "control character 0x%02x", (unsigned char)*c);
	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s || *s == '#')
		return 0;
	key = s;
	s += strcspn(s, " \t");
	v = s;
	if (*s)
		*s++ = '\0', v = s;
	while (*v == ' ' || *v == '\t')
		v++;
	for (char *e = v + strlen(v); e > v && (e[-1] == ' ' || e[-1] == '\t');)
		*--e = '\0';
	if (!indented) {
		if (strcmp(key, "metric") != 0)
			return def_fail(p, "expected 'metric NAME', found '%.32s' (keys are indented)", key);
		if (strpbrk(v, " \t") || !*v)
			return def_fail(p, "expected 'metric NAME' (one name)");
		return start_block(p, v);
	}
	return key_line(p, key, v);
}

int metric_list_add_text(struct metric_list *l, const char *text, const char *origin, struct pf_error *err)
{
	struct def_parser p = { .l = l, .origin = origin, .err = err };
	const char *s = text;

	while (*s) {
		size_t len = strcspn(s, "\n");
		char *line;
		int rc;

		p.line++;
		if (len > DEF_MAX_LINE)
			return def_fail(&p, "line longer than %d bytes", DEF_MAX_LINE);
		line = xstrndup(s, len);
		if (len && line[len - 1] == '\r')
			line[len - 1] = '\0';
		rc = def_line(&p, line);
		free(line);
		if (rc)
			return -1;
		s += len + (s[len] == '\n');
	}
	return finish_block(&p);
}

int metric_list_add_file(struct metric_list *l, const char *path, struct pf_error *err)
{
	FILE *f = fopen(path, "r");
	char *text;
	size_t n;
	int rc;

	if (!f)
		return pf_error_set(err, PF_E_INPUT, path, strerror(errno));
	text = xmalloc(DEF_MAX_FILE + 1);
	n = fread(text, 1, DEF_MAX_FILE + 1, f);
	if (ferror(f)) {
		rc = pf_error_set(err, PF_E_INPUT, path, strerror(errno ? errno : EIO));
	} else if (n > DEF_MAX_FILE) {
		rc = pf_error_set(err, PF_E_BAD_FILE, path, "larger than 4 MiB: not a metrics file");
	} else if (memchr(text, '\0', n)) {
		rc = pf_error_set(err, PF_E_BAD_FILE, path, "holds a NUL byte: not a metrics file");
	} else {
		text[n] = '\0';
		rc = metric_list_add_text(l, text, path, err);
	}
	free(text);
	fclose(f);
	return rc;
}

/* ----- resolution ----- */

enum { WHITE, GREY, BLACK };

/* depth-first: a GREY metric met again closes a cycle */
static int visit(struct metric_list *l, size_t i, unsigned char *color, struct pf_error *err)
{
	struct metric_def *d = &l->defs[i];

	if (color[i] == BLACK)
		return 0;
	if (color[i] == GREY)
		return pf_error_set(err, PF_E_METRIC, d->name, "its formula refers back to itself through "
				    "other metrics (a cycle)");
	color[i] = GREY;
	for (size_t k = 0; k < d->expr.n_names; k++) {
		long r = metric_list_find(l, d->expr.names[k]);

		d->ref[k] = r;
		if (r == (long)i)
			return pf_error_set(err, PF_E_METRIC, d->name, "its formula refers to itself");
		if (r >= 0 && visit(l, (size_t)r, color, err))
			return -1;
	}
	color[i] = BLACK;
	return 0;
}

int metric_list_resolve(struct metric_list *l, struct pf_error *err)
{
	unsigned char *color = xcalloc(l->n + 1, 1);
	int rc = 0;

	for (size_t i = 0; i < l->n && !rc; i++)
		rc = visit(l, i, color, err);
	free(color);
	return rc;
}

static void add_unique(char ***names, size_t *n, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*names)[i], s) == 0)
			return;
	*names = xrealloc(*names, (*n + 1) * sizeof(**names));
	(*names)[(*n)++] = xstrdup(s);
}

void metric_events(const struct metric_list *l, size_t i, char ***names, size_t *n)
{
	const struct metric_def *d = &l->defs[i];

	for (size_t k = 0; k < d->expr.n_names; k++) {
		if (d->ref[k] >= 0)
			metric_events(l, (size_t)d->ref[k], names, n);
		else if (strcmp(d->expr.names[k], METRIC_DURATION) != 0)
			add_unique(names, n, d->expr.names[k]);
	}
}

/* ----- evaluation ----- */

struct eval_ctx {
	const struct metric_list *l;
	const struct metric_def *d;
	const struct count_row *rows;
	size_t n_rows;
	int set; /* the event set inputs come from, -1: any */
	uint64_t duration_ns;
	bool multiplexed, cross_set;
	const char *missing;
};

static bool row_is(const struct count_row *r, const char *name)
{
	return strcasecmp(r->name, name) == 0;
}

/* the row of event name: in ctx->set if there is one, else the first counted */
static const struct count_row *find_row(const struct eval_ctx *c, const char *name)
{
	const struct count_row *any = NULL;

	for (size_t i = 0; i < c->n_rows; i++) {
		const struct count_row *r = &c->rows[i];

		if (!row_is(r, name))
			continue;
		if (c->set < 0 || r->set == c->set)
			return r;
		if (!any || (any->state != COUNT_OK && r->state == COUNT_OK))
			any = r;
	}
	return any;
}

static bool eval_in(struct eval_ctx *c, const struct metric_def *d, double *out);

static bool lookup(size_t k, double *v, void *arg)
{
	struct eval_ctx *c = arg;
	const struct metric_def *d = c->d;
	const char *name = d->expr.names[k];
	const struct count_row *r;

	if (d->ref[k] >= 0) {
		bool ok = eval_in(c, &c->l->defs[d->ref[k]], v);

		c->d = d;
		return ok;
	}
	if (strcmp(name, METRIC_DURATION) == 0) {
		*v = (double)c->duration_ns;
		if (!c->duration_ns && !c->missing) /* saved counts without one */
			c->missing = name;
		return c->duration_ns != 0;
	}
	r = find_row(c, name);
	if (!r || r->state != COUNT_OK) {
		if (!c->missing)
			c->missing = name;
		return false;
	}
	if (c->set >= 0 && r->set != c->set)
		c->cross_set = true;
	c->multiplexed |= r->running < r->enabled;
	*v = (double)count_scaled(r);
	return true;
}

static bool eval_in(struct eval_ctx *c, const struct metric_def *d, double *out)
{
	c->d = d;
	return metric_expr_eval(&d->expr, lookup, c, out);
}

/* the set holding every input of metric i, the first such; -1 if none */
static int common_set(const struct metric_list *l, size_t i, const struct count_row *rows, size_t n_rows,
		      int prefer)
{
	char **names = NULL;
	size_t n = 0;
	int found = -1;

	metric_events(l, i, &names, &n);
	for (size_t r = 0; r < n_rows && found < 0; r++) {
		int set = prefer >= 0 ? prefer : rows[r].set;
		bool all = true;

		for (size_t k = 0; k < n && all; k++) {
			bool here = false;

			for (size_t q = 0; q < n_rows && !here; q++)
				here = rows[q].set == set && row_is(&rows[q], names[k]);
			all = here;
		}
		if (all)
			found = set;
		if (prefer >= 0)
			break;
	}
	for (size_t k = 0; k < n; k++)
		free(names[k]);
	free(names);
	return found;
}

static void rate_unit(struct metric_value *v, const char *unit)
{
	static const struct {
		double at;
		char prefix;
	} prefixes[] = { { 1e9, 'G' }, { 1e6, 'M' }, { 1e3, 'K' } };

	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++) {
		if (fabs(v->value) >= prefixes[i].at) {
			v->value /= prefixes[i].at;
			snprintf(v->unit, sizeof(v->unit), "%c%s", prefixes[i].prefix, unit);
			return;
		}
	}
	snprintf(v->unit, sizeof(v->unit), "%s", unit);
}

static void compute(const struct metric_list *l, size_t i, int row, const struct count_row *rows, size_t n_rows,
		    uint64_t duration_ns, struct metric_value *v)
{
	const struct metric_def *d = &l->defs[i];
	int prefer = row >= 0 ? rows[row].set : -1;
	struct eval_ctx c = { .l = l, .rows = rows, .n_rows = n_rows, .duration_ns = duration_ns };

	memset(v, 0, sizeof(*v));
	v->def = i;
	v->row = row;
	c.set = common_set(l, i, rows, n_rows, prefer);
	if (c.set < 0 && prefer >= 0)
		c.set = common_set(l, i, rows, n_rows, -1);
	v->ok = eval_in(&c, d, &v->value);
	v->cross_set = v->ok && (c.set < 0 || c.cross_set); /* not available: no inputs to mark */
	v->multiplexed = c.multiplexed;
	if (c.missing)
		snprintf(v->missing, sizeof(v->missing), "%s", c.missing);
	v->value *= d->scale;
	if (d->rate && v->ok)
		rate_unit(v, d->unit ? d->unit : "/sec");
	else
		snprintf(v->unit, sizeof(v->unit), "%s", d->unit ? d->unit : "");
}

static int shown_row(const struct metric_def *d, const struct count_row *rows, size_t n_rows, size_t from)
{
	for (size_t r = from; d->shown_on && r < n_rows; r++)
		if (row_is(&rows[r], d->shown_on))
			return (int)r;
	return -1;
}

size_t metric_evaluate(const struct metric_list *l, const size_t *want, size_t n_want, bool shadows,
		       const struct count_row *rows, size_t n_rows, uint64_t duration_ns, struct metric_value *out)
{
	size_t n = 0;

	for (size_t r = 0; shadows && r < n_rows; r++) {
		for (size_t i = 0; i < l->n; i++) {
			bool wanted = false;

			for (size_t w = 0; w < n_want; w++)
				wanted |= want[w] == i;
			if (wanted || shown_row(&l->defs[i], rows, n_rows, r) != (int)r)
				continue;
			compute(l, i, (int)r, rows, n_rows, duration_ns, &out[n]);
			if (out[n].ok) /* a shadow metric appears when its inputs were counted */
				n++;
		}
	}
	for (size_t w = 0; w < n_want; w++) {
		const struct metric_def *d = &l->defs[want[w]];
		int row = shown_row(d, rows, n_rows, 0);

		compute(l, want[w], row, rows, n_rows, duration_ns, &out[n++]);
		/* a requested metric also on every later line of its event (one per set) */
		for (int r = row; r >= 0 && (r = shown_row(d, rows, n_rows, (size_t)r + 1)) >= 0;)
			compute(l, want[w], r, rows, n_rows, duration_ns, &out[n++]);
	}
	return n;
}
