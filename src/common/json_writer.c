/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one JSON writer.  It assembles its output in a buffer of its own and
 * hands the stream whole pieces: a million-sample Itanium 2 report writes
 * some thirty million strings and numbers, and a stdio call per byte (then
 * one per string) was most of its time (bench/ia64dump).  The buffer goes
 * to the stream when it fills, at the end of each top-level value and at
 * json_newline(), so text written to the stream between values stays in
 * order.
 */
#include <config.h>

#include <math.h>
#include <string.h>

#include "json_writer.h"

static void flush(struct json_writer *w)
{
	if (w->len)
		fwrite(w->buf, 1, w->len, w->out);
	w->len = 0;
}

static inline void put_bytes(struct json_writer *w, const char *p, size_t n)
{
	if (n > sizeof(w->buf) - w->len) {
		flush(w);
		if (n > sizeof(w->buf)) {
			fwrite(p, 1, n, w->out);
			return;
		}
	}
	memcpy(w->buf + w->len, p, n);
	w->len += n;
}

static inline void put_char(struct json_writer *w, char c)
{
	if (w->len == sizeof(w->buf))
		flush(w);
	w->buf[w->len++] = c;
}

void json_init(struct json_writer *w, FILE *out, bool pretty)
{
	w->out = out;
	w->depth = 0;
	w->first[0] = true;
	w->after_key = false;
	w->pretty = pretty;
	w->len = 0;
}

static void indent(struct json_writer *w)
{
	if (!w->pretty)
		return;
	put_char(w, '\n');
	for (int i = 0; i < w->depth; i++)
		put_bytes(w, "  ", 2);
}

/* separator before a value or key at the current depth */
static void before_element(struct json_writer *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (!w->first[w->depth])
		put_char(w, ',');
	w->first[w->depth] = false;
	if (w->depth > 0)
		indent(w);
}

static void open_container(struct json_writer *w, char c)
{
	before_element(w);
	put_char(w, c);
	if (w->depth + 1 < JSON_MAX_DEPTH)
		w->depth++;
	w->first[w->depth] = true;
}

static void close_container(struct json_writer *w, char c)
{
	bool empty = w->first[w->depth];

	if (w->depth > 0)
		w->depth--;
	if (!empty)
		indent(w);
	put_char(w, c);
	if (w->depth == 0)
		flush(w); /* a whole value: the caller may write to the stream now */
}

void json_begin_object(struct json_writer *w)
{
	open_container(w, '{');
}

void json_end_object(struct json_writer *w)
{
	close_container(w, '}');
}

void json_begin_array(struct json_writer *w)
{
	open_container(w, '[');
}

void json_end_array(struct json_writer *w)
{
	close_container(w, ']');
}

/* bytes a JSON string must escape: '"', '\\', control characters, DEL */
static inline bool needs_escape(unsigned char c)
{
	return c < 0x20 || c == '"' || c == '\\' || c == 0x7f;
}

#define ONES (~(uint64_t)0 / 255)    /* 0x0101...01 */
#define HIGHS (ONES * 0x80)          /* 0x8080...80 */
/* whether a byte of x is zero, is below n (n <= 128), equals c: exact
 * for "any byte", the classic word-at-a-time tests */
#define HAS_ZERO(x) (((x) - ONES) & ~(x) & HIGHS)
#define HAS_LESS(x, n) (((x) - ONES * (n)) & ~(x) & HIGHS)
#define HAS_BYTE(x, c) HAS_ZERO((x) ^ (ONES * (c)))

static inline bool word_needs_escape(uint64_t x)
{
	return (HAS_LESS(x, 0x20) | HAS_BYTE(x, '"') | HAS_BYTE(x, '\\') | HAS_BYTE(x, 0x7f)) != 0;
}

/*
 * How many of the n bytes at p need no escape.  Eight bytes at a time,
 * the last (partial) word padded with a safe byte: a report writes the
 * same keys and symbols millions of times, and a test per byte was most
 * of its time (bench/ia64dump).  A word that holds a byte to escape is
 * walked byte by byte to find it.
 */
static size_t safe_prefix(const unsigned char *p, size_t n)
{
	size_t i = 0;
	uint64_t x;

	for (; i + 8 <= n; i += 8) {
		memcpy(&x, p + i, 8);
		if (word_needs_escape(x))
			goto find;
	}
	if (i == n)
		return n;
	memset(&x, 'a', sizeof(x));
	memcpy(&x, p + i, n - i);
	if (!word_needs_escape(x))
		return n;
find:
	while (i < n && !needs_escape(p[i]))
		i++;
	return i;
}

size_t json_safe_run(const char *s)
{
	return safe_prefix((const unsigned char *)s, strlen(s));
}

/* the escape of one byte that needs one, into b: its length */
static size_t escape_of(unsigned char c, char b[6])
{
	static const char hex[] = "0123456789abcdef";
	char short_form = c == '"' ? '"' : c == '\\' ? '\\' : c == '\n' ? 'n' : c == '\t' ? 't' :
			  c == '\r' ? 'r' : 0;

	b[0] = '\\';
	if (short_form) {
		b[1] = short_form;
		return 2;
	}
	b[1] = 'u';
	b[2] = b[3] = '0';
	b[4] = hex[c >> 4];
	b[5] = hex[c & 0xf];
	return 6;
}

/* s escaped: each run of bytes that need no escape copied in one piece */
static void put_escaped(struct json_writer *w, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t left = strlen(s);

	for (;;) {
		size_t n = safe_prefix(p, left);
		char e[6];

		put_bytes(w, (const char *)p, n);
		if (n == left)
			return;
		put_bytes(w, e, escape_of(p[n], e));
		p += n + 1;
		left -= n + 1;
	}
}

void json_escape(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t left = strlen(s);

	for (;;) {
		size_t n = safe_prefix(p, left);
		char e[6];

		fwrite(p, 1, n, out);
		if (n == left)
			return;
		fwrite(e, 1, escape_of(p[n], e), out);
		p += n + 1;
		left -= n + 1;
	}
}

/* v in decimal, without printf's format interpreter */
static void put_decimal(struct json_writer *w, uint64_t v, bool negative)
{
	char b[24];
	size_t i = sizeof(b);

	do {
		b[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (negative)
		b[--i] = '-';
	put_bytes(w, b + i, sizeof(b) - i);
}

void json_key(struct json_writer *w, const char *key)
{
	json_key_suffix(w, key, "");
}

void json_key_suffix(struct json_writer *w, const char *key, const char *suffix)
{
	before_element(w);
	put_char(w, '"');
	put_escaped(w, key);
	if (suffix[0])
		put_escaped(w, suffix);
	if (w->pretty)
		put_bytes(w, "\": ", 3);
	else
		put_bytes(w, "\" : ", 4);
	w->after_key = true;
}

void json_string(struct json_writer *w, const char *s)
{
	before_element(w);
	put_char(w, '"');
	put_escaped(w, s ? s : "");
	put_char(w, '"');
}

void json_hex(struct json_writer *w, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char b[20];
	size_t i = sizeof(b);

	before_element(w);
	b[--i] = '"';
	do {
		b[--i] = digits[v & 0xf];
		v >>= 4;
	} while (v);
	b[--i] = 'x';
	b[--i] = '0';
	b[--i] = '"';
	put_bytes(w, b + i, sizeof(b) - i);
}

void json_uint(struct json_writer *w, uint64_t v)
{
	before_element(w);
	put_decimal(w, v, false);
}

void json_key_string(struct json_writer *w, const char *key, const char *s)
{
	json_key(w, key);
	json_string(w, s);
}

void json_key_uint(struct json_writer *w, const char *key, uint64_t v)
{
	json_key(w, key);
	json_uint(w, v);
}

void json_int(struct json_writer *w, int64_t v)
{
	before_element(w);
	/* the magnitude as unsigned: -INT64_MIN does not fit an int64_t */
	put_decimal(w, v < 0 ? -(uint64_t)v : (uint64_t)v, v < 0);
}

void json_double(struct json_writer *w, double v, int decimals)
{
	char b[512]; /* %.*f of DBL_MAX is 309 digits and the decimals */
	int n;

	before_element(w);
	if (!isfinite(v)) {
		put_bytes(w, "null", 4); /* JSON has no NaN or infinity */
		return;
	}
	decimals = decimals < 0 ? 0 : decimals > 100 ? 100 : decimals;
	n = snprintf(b, sizeof(b), "%.*f", decimals, v);
	put_bytes(w, b, n > 0 && (size_t)n < sizeof(b) ? (size_t)n : 0);
}

void json_bool(struct json_writer *w, bool v)
{
	before_element(w);
	if (v)
		put_bytes(w, "true", 4);
	else
		put_bytes(w, "false", 5);
}

void json_null(struct json_writer *w)
{
	before_element(w);
	put_bytes(w, "null", 4);
}

void json_newline(struct json_writer *w)
{
	put_char(w, '\n');
	flush(w);
	w->first[0] = true;
}
