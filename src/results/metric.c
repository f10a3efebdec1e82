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

#include "common/u64set.h"
#include "common/userfile.h"
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
	strmap_release(&l->index);
	memset(l, 0, sizeof(*l));
}

/* a hash lookup: resolving n metrics is linear, not n^2 string compares */
long metric_list_find(const struct metric_list *l, const char *name)
{
	return (long)strmap_get(&l->index, name) - 1;
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

/* "ORIGIN line N", without printf: one per definition, and the built-in
 * list's are made at every count's start (vfprintf was a sixth of it) */
static char *def_origin(const char *origin, int line)
{
	char digits[12], *out;
	size_t n = 0, len = strlen(origin);
	unsigned v = line > 0 ? (unsigned)line : 0;

	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) && n < sizeof(digits));
	out = xmalloc(len + sizeof(" line ") + n);
	memcpy(out, origin, len);
	memcpy(out + len, " line ", sizeof(" line ") - 1);
	len += sizeof(" line ") - 1;
	while (n)
		out[len++] = digits[--n];
	out[len] = '\0';
	return out;
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
	if (l->n == l->cap) { /* doubling: a copy per definition would be n^2 */
		l->cap = l->cap ? 2 * l->cap : 64;
		l->defs = xrealloc(l->defs, l->cap * sizeof(*l->defs));
	}
	d = &l->defs[l->n++];
	strmap_add(&l->index, name, l->n);
	memset(d, 0, sizeof(*d));
	d->name = xstrdup(name);
	d->scale = 1.0;
	d->origin = def_origin(p->origin, p->line);
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

/* the lines from s up to end (or its NUL), p->line counting them; the
 * block still open is left to finish_block */
static int def_lines(struct def_parser *p, const char *s, const char *end)
{
	/* one buffer for every line: a copy each was a malloc and a free per
	 * line of the built-in list, read at every count's start */
	char *line = xmalloc(DEF_MAX_LINE + 1);
	int rc = 0;

	while (!rc && *s && s < end) {
		size_t len = strcspn(s, "\n");

		p->line++;
		if (len > DEF_MAX_LINE) {
			rc = def_fail(p, "line longer than %d bytes", DEF_MAX_LINE);
			break;
		}
		memcpy(line, s, len);
		line[len] = '\0';
		if (len && line[len - 1] == '\r')
			line[len - 1] = '\0';
		rc = def_line(p, line);
		s += len + (s[len] == '\n');
	}
	free(line);
	return rc ? -1 : 0;
}

int metric_list_add_text(struct metric_list *l, const char *text, const char *origin, struct pf_error *err)
{
	struct def_parser p = { .l = l, .origin = origin, .err = err };

	return def_lines(&p, text, text + strlen(text)) ? -1 : finish_block(&p);
}

/* ----- the definitions a count's events show ----- */

/* one "metric NAME" block of a text, found without parsing it */
struct def_block {
	const char *start, *end; /* its lines */
	int line; /* of its "metric NAME" line */
	const char *name, *shown_on; /* spans in the text (shown_on NULL if none) */
	size_t name_len, shown_on_len;
	bool keep, parsed;
};

static const char *next_line(const char *s)
{
	s += strcspn(s, "\n");
	return *s ? s + 1 : s;
}

/* a line's value after its key: blanks skipped, trailing blanks and CR dropped */
static const char *key_value(const char *s, size_t *len)
{
	const char *v = s + strspn(s, " \t");
	size_t n = strcspn(v, "\n");

	while (n && (v[n - 1] == ' ' || v[n - 1] == '\t' || v[n - 1] == '\r'))
		n--;
	*len = n;
	return v;
}

/* text's blocks, each with its name and shown-on value: a scan of the lines' first words */
static struct def_block *def_blocks(const char *text, size_t *n)
{
	struct def_block *v = NULL;
	size_t cap = 0;
	int line = 0;

	*n = 0;
	for (const char *s = text; *s; s = next_line(s)) {
		const char *w = s + strspn(s, " \t");

		line++;
		if (w == s && strncmp(s, "metric", 6) == 0 && (s[6] == ' ' || s[6] == '\t')) {
			XGROW(v, cap, *n);
			if (*n)
				v[*n - 1].end = s;
			v[*n] = (struct def_block){ .start = s, .line = line }; /* end NULL: the text's */
			v[*n].name = key_value(s + 6, &v[*n].name_len);
			++*n;
		} else if (*n && w != s && strncmp(w, "shown-on", 8) == 0 && (w[8] == ' ' || w[8] == '\t')) {
			v[*n - 1].shown_on = key_value(w + 8, &v[*n - 1].shown_on_len);
		}
	}
	return v;
}

static bool span_is(const char *s, size_t len, const char *name, bool nocase)
{
	return (nocase ? strncasecmp(s, name, len) : strncmp(s, name, len)) == 0 && name[len] == '\0';
}

/* block b into l; the blocks its formula names become kept */
static int parse_block(struct def_parser *p, struct def_block *blocks, size_t n_blocks, size_t b)
{
	const struct metric_def *d;

	blocks[b].parsed = true;
	p->line = blocks[b].line - 1;
	if (def_lines(p, blocks[b].start, blocks[b].end ? blocks[b].end : blocks[b].start + strlen(blocks[b].start)) ||
	    finish_block(p))
		return -1;
	d = &p->l->defs[p->l->n - 1];
	for (size_t k = 0; k < d->expr.n_names; k++)
		for (size_t j = 0; j < n_blocks; j++)
			if (span_is(blocks[j].name, blocks[j].name_len, d->expr.names[k], false))
				blocks[j].keep = true;
	return 0;
}

int metric_list_add_text_shown(struct metric_list *l, const char *text, const char *origin,
			       char *const *events, size_t n_events, struct pf_error *err)
{
	struct def_parser p = { .l = l, .origin = origin, .err = err };
	size_t n;
	struct def_block *blocks = def_blocks(text, &n);
	bool more = true;
	int rc = 0;

	for (size_t b = 0; b < n; b++)
		for (size_t e = 0; blocks[b].shown_on && e < n_events && !blocks[b].keep; e++)
			blocks[b].keep = span_is(blocks[b].shown_on, blocks[b].shown_on_len, events[e], true);
	while (more && !rc) { /* until the metrics they refer to are in too */
		more = false;
		for (size_t b = 0; b < n && !rc; b++) {
			if (blocks[b].keep && !blocks[b].parsed) {
				rc = parse_block(&p, blocks, n, b);
				more = true;
			}
		}
	}
	free(blocks);
	return rc;
}

int metric_list_add_file(struct metric_list *l, const char *path, struct pf_error *err)
{
	char *text;
	size_t n;
	int rc;

	if (user_file_read(path, DEF_MAX_FILE, "metrics file", &text, &n, err))
		return -1;
	if (memchr(text, '\0', n))
		rc = pf_error_set(err, PF_E_BAD_FILE, path, "holds a NUL byte: not a metrics file");
	else
		rc = metric_list_add_text(l, text, path, err);
	free(text);
	return rc;
}

/* ----- resolution ----- */

struct walk_frame {
	size_t m; /* a metric */
	size_t k; /* its next name */
};

struct walk_stack {
	struct walk_frame *v;
	size_t n, cap;
};

static void walk_push(struct walk_stack *s, size_t m)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->v = xrealloc(s->v, s->cap * sizeof(*s->v));
	}
	s->v[s->n++] = (struct walk_frame){ .m = m };
}

enum { WHITE, GREY, BLACK };

/* depth-first from metric i, iteratively: a GREY metric met again closes a cycle */
static int visit(struct metric_list *l, size_t i, unsigned char *color, struct walk_stack *s,
		 struct pf_error *err)
{
	s->n = 0;
	color[i] = GREY;
	walk_push(s, i);
	while (s->n) {
		struct walk_frame *f = &s->v[s->n - 1];
		struct metric_def *d = &l->defs[f->m];
		long r;

		if (f->k == d->expr.n_names) {
			color[f->m] = BLACK;
			s->n--;
			continue;
		}
		r = metric_list_find(l, d->expr.names[f->k]);
		d->ref[f->k++] = r;
		if (r == (long)f->m)
			return pf_error_set(err, PF_E_METRIC, d->name, "its formula refers to itself");
		if (r < 0 || color[r] == BLACK)
			continue;
		if (color[r] == GREY)
			return pf_error_set(err, PF_E_METRIC, l->defs[r].name, "its formula refers back to itself "
					    "through other metrics (a cycle)");
		color[r] = GREY;
		walk_push(s, (size_t)r);
	}
	return 0;
}

int metric_list_resolve(struct metric_list *l, struct pf_error *err)
{
	unsigned char *color = xcalloc(l->n + 1, 1);
	struct walk_stack s = { 0 };
	int rc = 0;

	for (size_t i = 0; i < l->n && !rc; i++)
		if (color[i] == WHITE)
			rc = visit(l, i, color, &s, err);
	free(s.v);
	free(color);
	return rc;
}

int metric_walk(const struct metric_list *l, size_t i, const struct metric_walk *w)
{
	struct walk_stack s = { 0 };
	struct u64set seen;
	int rc = 0;

	u64set_init(&seen);
	u64set_add(&seen, i);
	walk_push(&s, i);
	while (s.n && !rc) {
		struct walk_frame *f = &s.v[s.n - 1];
		const struct metric_def *d = &l->defs[f->m];
		size_t k = f->k++;

		if (k == d->expr.n_names) {
			s.n--;
			rc = w->done ? w->done(f->m, w->arg) : 0;
		} else if (d->ref[k] < 0) {
			rc = w->leaf ? w->leaf(d, k, w->arg) : 0;
		} else if (u64set_add(&seen, (uint64_t)d->ref[k])) { /* a metric reached twice adds nothing */
			walk_push(&s, (size_t)d->ref[k]);
		}
	}
	free(s.v);
	u64set_release(&seen);
	return rc;
}

struct event_names {
	char ***names;
	size_t *n;
};

static int add_event(const struct metric_def *d, size_t k, void *arg)
{
	struct event_names *e = arg;
	const char *s = d->expr.names[k];

	if (strcmp(s, METRIC_DURATION) == 0)
		return 0;
	for (size_t i = 0; i < *e->n; i++)
		if (strcmp((*e->names)[i], s) == 0)
			return 0;
	*e->names = xrealloc(*e->names, (*e->n + 1) * sizeof(**e->names));
	(*e->names)[(*e->n)++] = xstrdup(s);
	return 0;
}

void metric_events(const struct metric_list *l, size_t i, char ***names, size_t *n)
{
	struct event_names e = { names, n };

	metric_walk(l, i, &(struct metric_walk){ .leaf = add_event, .arg = &e });
}

/* ----- evaluation ----- */

/* one metric's value in one computation, and what its inputs were */
struct metric_memo {
	double value;
	bool ok, multiplexed, cross_set;
	const char *missing; /* the first input not available */
};

struct eval_ctx {
	const struct metric_list *l;
	const struct metric_def *d;
	const struct count_row *rows;
	size_t n_rows;
	int set; /* the event set inputs come from, -1: any */
	uint64_t duration_ns;
	struct metric_memo *memo; /* per metric; those d refers to are computed */
	struct metric_memo cur; /* d's, being computed */
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

/* a metric's inputs count as if read here: if(c, a, b) reads those of its branch */
static void take_inputs(struct metric_memo *to, const struct metric_memo *from)
{
	to->multiplexed |= from->multiplexed;
	to->cross_set |= from->cross_set;
	if (!to->missing)
		to->missing = from->missing;
}

static bool lookup(size_t k, double *v, void *arg)
{
	struct eval_ctx *c = arg;
	const struct metric_def *d = c->d;
	const char *name = d->expr.names[k];
	const struct count_row *r;

	if (d->ref[k] >= 0) {
		const struct metric_memo *m = &c->memo[d->ref[k]];

		take_inputs(&c->cur, m);
		*v = m->value;
		return m->ok;
	}
	if (strcmp(name, METRIC_DURATION) == 0) {
		*v = (double)c->duration_ns;
		if (!c->duration_ns && !c->cur.missing) /* saved counts without one */
			c->cur.missing = name;
		return c->duration_ns != 0;
	}
	r = find_row(c, name);
	if (!r || r->state != COUNT_OK) {
		if (!c->cur.missing)
			c->cur.missing = name;
		return false;
	}
	if (c->set >= 0 && r->set != c->set)
		c->cur.cross_set = true;
	c->cur.multiplexed |= r->running < r->enabled;
	/* an event with a unit (.scale: RAPL's Joules) in that unit, as perf's metrics take it */
	*v = (double)count_scaled(r) * (r->scale != 0 ? r->scale : 1.0);
	return true;
}

/* metric j, once those it refers to are (metric_walk's done) */
static int eval_one(size_t j, void *arg)
{
	struct eval_ctx *c = arg;

	c->d = &c->l->defs[j];
	memset(&c->cur, 0, sizeof(c->cur));
	c->cur.ok = metric_expr_eval(&c->d->expr, lookup, c, &c->cur.value);
	c->memo[j] = c->cur;
	return 0;
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
		    uint64_t duration_ns, struct metric_memo *memo, struct metric_value *v)
{
	const struct metric_def *d = &l->defs[i];
	int prefer = row >= 0 ? rows[row].set : -1;
	struct eval_ctx c = { .l = l, .rows = rows, .n_rows = n_rows, .duration_ns = duration_ns, .memo = memo };

	memset(v, 0, sizeof(*v));
	v->def = i;
	v->row = row;
	c.set = common_set(l, i, rows, n_rows, prefer);
	if (c.set < 0 && prefer >= 0)
		c.set = common_set(l, i, rows, n_rows, -1);
	/* the metrics i refers to first, each once: no recursion, and a metric
	 * reached by two paths is not computed twice */
	metric_walk(l, i, &(struct metric_walk){ .done = eval_one, .arg = &c });
	v->ok = memo[i].ok;
	v->value = memo[i].value;
	v->cross_set = v->ok && (c.set < 0 || memo[i].cross_set); /* not available: no inputs to mark */
	v->multiplexed = memo[i].multiplexed;
	if (memo[i].missing)
		snprintf(v->missing, sizeof(v->missing), "%s", memo[i].missing);
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
	struct metric_memo *memo = xcalloc(l->n + 1, sizeof(*memo));
	bool *wanted = xcalloc(l->n + 1, sizeof(*wanted));
	size_t n = 0;

	for (size_t w = 0; w < n_want; w++)
		wanted[want[w]] = true;
	for (size_t r = 0; shadows && r < n_rows; r++) {
		for (size_t i = 0; i < l->n; i++) {
			if (wanted[i] || shown_row(&l->defs[i], rows, n_rows, r) != (int)r)
				continue;
			compute(l, i, (int)r, rows, n_rows, duration_ns, memo, &out[n]);
			if (out[n].ok) /* a shadow metric appears when its inputs were counted */
				n++;
		}
	}
	for (size_t w = 0; w < n_want; w++) {
		const struct metric_def *d = &l->defs[want[w]];
		int row = shown_row(d, rows, n_rows, 0);

		compute(l, want[w], row, rows, n_rows, duration_ns, memo, &out[n++]);
		/* a requested metric also on every later line of its event (one per set) */
		for (int r = row; r >= 0 && (r = shown_row(d, rows, n_rows, (size_t)r + 1)) >= 0;)
			compute(l, want[w], r, rows, n_rows, duration_ns, memo, &out[n++]);
	}
	free(wanted);
	free(memo);
	return n;
}
