/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Itanium 2 PMD dump reader: a streaming, line-by-line parser. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "sample/ia64_dump.h"
#include "sample/ia64_ear.h"

/* what a key is: the kind of line it belongs on */
enum key_kind { KEY_SAMPLE, KEY_MAP, KEY_CONFIG };

struct parser {
	const char *name;
	const struct ia64_dump_handler *h;
	void *ctx;
	struct pf_error *err;
	unsigned lineno;
	struct ia64_dump_config cfg;
	char *events, *irange, *drange; /* owned copies behind cfg's pointers */
	bool config_done;
	uint32_t required;
	char line[IA64_DUMP_MAX_LINE + 1];
	char scratch[IA64_DUMP_MAX_LINE + 1]; /* a map token taken apart */
};

/* One error for a line: what is wrong, then the token, cut short so a
 * hostile dump cannot flood the terminal (pf_error_set escapes it). */
static int line_error(struct parser *p, const char *what, const char *token)
{
	char shown[65];

	snprintf(shown, sizeof(shown), "%.64s", token);
	return pf_error_set(p->err, PF_E_DUMP_LINE, p->name, (int)p->lineno, what, shown);
}

/* btb-NAME: one of pfmon's --btb-* options, named by the handler's model */
static bool is_btb_key(const char *key)
{
	return !strncmp(key, "btb-", 4);
}

/* the kind of a key that is not a sample key (sample_key() is asked first) */
static int key_kind(const struct parser *p, const char *key)
{
	static const char *const config_keys[] = { "pmc10", "pmc11", "pmc12", "events", "irange",
						   "drange" };

	if (!strcmp(key, "map"))
		return KEY_MAP;
	for (size_t i = 0; i < ARRAY_SIZE(config_keys); i++)
		if (!strcmp(key, config_keys[i]))
			return KEY_CONFIG;
	if (is_btb_key(key) && p->h->btb_option)
		return KEY_CONFIG;
	return -1;
}

uint32_t ia64_dump_required_pmds(const struct ia64_dump_config *c)
{
	uint32_t need = 0;

	if (c->has_pmc10) {
		enum ia64_iear_mode m = ia64_iear_mode_of(c->pmc10);

		/* PMD1 holds nothing in TLB mode */
		if (m == IA64_IEAR_CACHE)
			need |= 1u << 0 | 1u << 1;
		else if (m == IA64_IEAR_TLB)
			need |= 1u << 0;
	}
	if (c->has_pmc11) {
		/* PMD2 is undefined in ALAT mode */
		need |= 1u << 3 | 1u << 17;
		if (ia64_dear_mode_of(c->pmc11) != IA64_DEAR_ALAT)
			need |= 1u << 2;
	}
	if (c->has_pmc12)
		need |= 0x1ffu << 8; /* PMD8-15 and PMD16 */
	return need;
}

static int finish_config(struct parser *p)
{
	if (p->config_done)
		return 0;
	p->config_done = true;
	if (p->h->config && p->h->config(p->ctx, &p->cfg, p->err))
		return -1;
	p->required = ia64_dump_required_pmds(&p->cfg);
	return 0;
}

static int config_pmc(struct parser *p, const char *key, const char *val, const char *tok)
{
	bool *has = !strcmp(key, "pmc10") ? &p->cfg.has_pmc10 :
		    !strcmp(key, "pmc11") ? &p->cfg.has_pmc11 : &p->cfg.has_pmc12;
	uint64_t *v = !strcmp(key, "pmc10") ? &p->cfg.pmc10 :
		      !strcmp(key, "pmc11") ? &p->cfg.pmc11 : &p->cfg.pmc12;

	if (*has)
		return line_error(p, "register given twice:", tok);
	if (p->cfg.events)
		return line_error(p, "PMC values and events= exclude each other:", tok);
	if (!parse_u64(val, v))
		return line_error(p, "invalid number in", tok);
	*has = true;
	return 0;
}

static int config_string(struct parser *p, char **slot, const char *val, const char *tok)
{
	if (*slot)
		return line_error(p, "key given twice:", tok);
	if (!*val)
		return line_error(p, "empty value in", tok);
	*slot = xstrdup(val);
	return 0;
}

static int config_btb(struct parser *p, const char *key, const char *val, const char *tok)
{
	if (strcmp(val, "0") && strcmp(val, "1"))
		return line_error(p, "expected 0 or 1 in", tok);
	switch (p->h->btb_option(p->ctx, key, val[0] == '1')) {
	case IA64_DUMP_KEY_OK:
		return 0;
	case IA64_DUMP_KEY_TWICE:
		return line_error(p, "key given twice:", tok);
	default:
		return line_error(p, "unknown key", key);
	}
}

static int config_token(struct parser *p, const char *key, const char *val, const char *tok)
{
	if (p->config_done)
		return line_error(p, "configuration after the first map or sample:", tok);
	if (!strncmp(key, "pmc", 3))
		return config_pmc(p, key, val, tok);
	if (!strcmp(key, "events")) {
		if (p->cfg.has_pmc10 || p->cfg.has_pmc11 || p->cfg.has_pmc12)
			return line_error(p, "PMC values and events= exclude each other:", tok);
		if (config_string(p, &p->events, val, tok))
			return -1;
		p->cfg.events = p->events;
		return 0;
	}
	if (!strcmp(key, "irange") || !strcmp(key, "drange")) {
		char **slot = key[0] == 'i' ? &p->irange : &p->drange;

		if (config_string(p, slot, val, tok))
			return -1;
		*(key[0] == 'i' ? &p->cfg.irange : &p->cfg.drange) = *slot;
		return 0;
	}
	return config_btb(p, key, val, tok);
}

/* map=START-END:OFFSET:PATH (PATH may hold ':' but no blank) */
static int map_token(struct parser *p, const char *text, const char *tok)
{
	struct ia64_dump_map m = { .line = p->lineno };
	char *val = p->scratch;
	char *dash;

	snprintf(val, sizeof(p->scratch), "%s", text);
	dash = strchr(val, '-');
	char *colon1 = dash ? strchr(dash + 1, ':') : NULL;
	char *colon2 = colon1 ? strchr(colon1 + 1, ':') : NULL;

	if (!colon2)
		return line_error(p, "expected map=START-END:OFFSET:PATH in", tok);
	*dash = *colon1 = *colon2 = '\0';
	if (!parse_u64(val, &m.start) || !parse_u64(dash + 1, &m.end) ||
	    !parse_u64(colon1 + 1, &m.offset))
		return line_error(p, "invalid number in", tok);
	if (m.start >= m.end)
		return line_error(p, "empty address range in", tok);
	if (!colon2[1])
		return line_error(p, "no path in", tok);
	m.path = colon2 + 1;
	if (finish_config(p))
		return -1;
	return p->h->map ? p->h->map(p->ctx, &m, p->err) : 0;
}

/* the keys of a sample line, numbered: PMD0..17, then these */
enum sample_key {
	SK_IP = IA64_DUMP_NR_PMDS,
	SK_PID,
	SK_TID,
	SK_CPU,
	SK_TIME,
	SK_PERIOD,
};

/* The key of a sample line token (klen bytes at k), or -1: compared by
 * length and bytes, as a million-line dump has twenty million of them. */
static int sample_key(const char *k, size_t klen)
{
	static const struct {
		const char *name;
		size_t len;
		int id;
	} keys[] = { { "ip", 2, SK_IP },     { "pid", 3, SK_PID },   { "tid", 3, SK_TID },
		     { "cpu", 3, SK_CPU },   { "time", 4, SK_TIME }, { "period", 6, SK_PERIOD } };

	if (klen >= 4 && klen <= 5 && !memcmp(k, "pmd", 3)) {
		int n = 0;

		if (k[3] == '0' && klen == 5)
			return -1;
		for (size_t i = 3; i < klen; i++) {
			if (k[i] < '0' || k[i] > '9')
				return -1;
			n = n * 10 + (k[i] - '0');
		}
		return n < IA64_DUMP_NR_PMDS ? n : -1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (klen == keys[i].len && !memcmp(k, keys[i].name, klen))
			return keys[i].id;
	return -1;
}

static int sample_token(struct parser *p, struct ia64_dump_sample *s, int key, const char *val,
			const char *tok)
{
	static const unsigned flags[] = {
		[SK_PID - SK_PID] = IA64_DUMP_F_PID,   [SK_TID - SK_PID] = IA64_DUMP_F_TID,
		[SK_CPU - SK_PID] = IA64_DUMP_F_CPU,   [SK_TIME - SK_PID] = IA64_DUMP_F_TIME,
		[SK_PERIOD - SK_PID] = IA64_DUMP_F_PERIOD,
	};
	uint64_t v;
	unsigned flag;

	if (key < IA64_DUMP_NR_PMDS) {
		if (s->pmd_mask & (1u << key))
			return line_error(p, "register given twice:", tok);
		s->pmd_mask |= 1u << key;
		return parse_u64(val, &s->pmd[key]) ? 0 : line_error(p, "invalid number in", tok);
	}
	if (key == SK_IP) {
		if (s->line == p->lineno)
			return line_error(p, "key given twice:", tok);
		s->line = p->lineno;
		return parse_u64(val, &s->ip) ? 0 : line_error(p, "invalid number in", tok);
	}
	flag = flags[key - SK_PID];
	if (s->fields & flag)
		return line_error(p, "key given twice:", tok);
	s->fields |= flag;
	if (!parse_u64(val, &v))
		return line_error(p, "invalid number in", tok);
	if (key == SK_TIME || key == SK_PERIOD) {
		*(key == SK_TIME ? &s->time : &s->period) = v;
		return 0;
	}
	if (v > UINT32_MAX)
		return line_error(p, "invalid 32-bit number in", tok);
	*(key == SK_PID ? &s->pid : key == SK_TID ? &s->tid : &s->cpu) = (uint32_t)v;
	return 0;
}

static int sample_done(struct parser *p, struct ia64_dump_sample *s, const char *first_tok)
{
	uint32_t missing;

	if (!s->line)
		return line_error(p, "sample without ip=, starting with", first_tok);
	if (finish_config(p))
		return -1;
	missing = p->required & ~s->pmd_mask;
	if (missing) {
		char key[8];

		snprintf(key, sizeof(key), "pmd%d", __builtin_ctz(missing));
		return line_error(p, "the configured EAR/BTB needs a register this sample lacks:", key);
	}
	return p->h->sample ? p->h->sample(p->ctx, s, p->err) : 0;
}

static char *next_token(char **cursor)
{
	char *s = *cursor, *start;

	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	if (!*s)
		return NULL;
	start = s;
	while (*s && *s != ' ' && *s != '\t' && *s != '\r')
		s++;
	if (*s)
		*s++ = '\0';
	*cursor = s;
	return start;
}

/* one NUL-terminated line of p->line */
static int parse_line(struct parser *p)
{
	struct ia64_dump_sample s;
	char *cursor = p->line, *tok, *first = NULL;
	int kind = -1;

	memset(&s, 0, sizeof(s));
	while ((tok = next_token(&cursor))) {
		char *eq = strchr(tok, '='), key[24];
		const char *val;
		size_t klen;
		int k, sk;

		if (!first && tok[0] == '#')
			return 0;
		if (!first)
			first = tok;
		if (!eq || eq == tok)
			return line_error(p, "expected key=value, got", tok);
		klen = (size_t)(eq - tok);
		val = eq + 1;
		sk = sample_key(tok, klen);
		if (sk >= 0) {
			if (kind >= 0 && kind != KEY_SAMPLE)
				return line_error(p, "token does not belong on this kind of line:", tok);
			kind = KEY_SAMPLE;
			if (sample_token(p, &s, sk, val, tok))
				return -1;
			continue;
		}
		snprintf(key, sizeof(key), "%.*s", (int)klen, tok);
		k = klen < sizeof(key) ? key_kind(p, key) : -1;
		if (k < 0) {
			*eq = '\0';
			return line_error(p, "unknown key", tok);
		}
		if (kind < 0)
			kind = k;
		else if (k != kind || k == KEY_MAP)
			return line_error(p, k == KEY_MAP ? "map= belongs on a line of its own:" :
					     "token does not belong on this kind of line:", tok);
		if (k == KEY_CONFIG && config_token(p, key, val, tok))
			return -1;
		if (k == KEY_MAP && map_token(p, val, tok))
			return -1;
	}
	if (kind == KEY_SAMPLE)
		return sample_done(p, &s, first);
	if (kind == KEY_CONFIG)
		p->cfg.line = p->lineno;
	return 0;
}

static struct parser *parser_new(const char *name, const struct ia64_dump_handler *h, void *ctx,
				 struct pf_error *err)
{
	struct parser *p = xcalloc(1, sizeof(*p));

	p->name = name;
	p->h = h;
	p->ctx = ctx;
	p->err = err;
	return p;
}

static int parser_finish(struct parser *p, int rc)
{
	if (rc == 0)
		rc = finish_config(p);
	free(p->events);
	free(p->irange);
	free(p->drange);
	free(p);
	return rc;
}

static int take_line(struct parser *p, const char *data, size_t n)
{
	p->lineno++;
	if (n > IA64_DUMP_MAX_LINE) {
		char head[33];

		snprintf(head, sizeof(head), "%.*s", (int)(n < 32 ? n : 32), data);
		return line_error(p, "line longer than 64 KiB, starting", head);
	}
	if (memchr(data, '\0', n)) {
		char head[33];

		snprintf(head, sizeof(head), "%.*s", (int)(n < 32 ? n : 32), data); /* up to the NUL */
		return line_error(p, "NUL byte in line, after", head);
	}
	memcpy(p->line, data, n);
	p->line[n] = '\0';
	return parse_line(p);
}

int ia64_dump_read(const char *buf, size_t len, const char *name,
		   const struct ia64_dump_handler *h, void *ctx, struct pf_error *err)
{
	struct parser *p = parser_new(name, h, ctx, err);
	size_t pos = 0;
	int rc = 0;

	while (pos < len && rc == 0) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (buf + pos)) : len - pos;

		rc = take_line(p, buf + pos, n);
		pos += n + 1;
	}
	return parser_finish(p, rc);
}

/* Whole lines from a buffer that may end in a partial one: the bytes used. */
static size_t take_lines(struct parser *p, const char *buf, size_t len, int *rc)
{
	size_t pos = 0;

	while (*rc == 0) {
		const char *nl = memchr(buf + pos, '\n', len - pos);

		if (!nl)
			break;
		*rc = take_line(p, buf + pos, (size_t)(nl - (buf + pos)));
		pos = (size_t)(nl - buf) + 1;
	}
	return pos;
}

#define READ_CHUNK (1u << 20)

int ia64_dump_read_file(FILE *f, const char *name, const struct ia64_dump_handler *h,
			void *ctx, struct pf_error *err)
{
	struct parser *p = parser_new(name, h, ctx, err);
	/* a chunk plus the longest line allowed, carried over between reads */
	size_t cap = READ_CHUNK + IA64_DUMP_MAX_LINE + 1, have = 0;
	char *buf = xmalloc(cap);
	int rc = 0;

	while (rc == 0) {
		size_t n = fread(buf + have, 1, cap - have, f), used;

		have += n;
		used = take_lines(p, buf, have, &rc);
		memmove(buf, buf + used, have - used);
		have -= used;
		if (rc == 0 && have > IA64_DUMP_MAX_LINE)
			rc = take_line(p, buf, have); /* reports the over-long line */
		if (n == 0)
			break;
	}
	if (rc == 0 && ferror(f))
		rc = pf_error_set(err, PF_E_INPUT, name, "read error");
	if (rc == 0 && have)
		rc = take_line(p, buf, have); /* a last line without a newline */
	free(buf);
	return parser_finish(p, rc);
}
