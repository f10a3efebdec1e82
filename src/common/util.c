/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static void out_of_memory(size_t n)
{
	fprintf(stderr, "error: out of memory (allocating %zu bytes)\n", n);
	exit(1);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		out_of_memory(n);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		out_of_memory(nmemb * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		out_of_memory(n);
	return q;
}

void *xgrow(void *p, size_t *cap, size_t n, size_t size)
{
	size_t want = *cap ? *cap : 8;

	if (n < *cap)
		return p;
	while (want <= n) {
		if (want > SIZE_MAX / 2 / size)
			out_of_memory(SIZE_MAX);
		want *= 2;
	}
	p = xrealloc(p, want * size);
	*cap = want;
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return strbuf_detach(&sb);
}

static void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;

	if (need <= sb->cap)
		return;
	sb->cap = sb->cap ? sb->cap * 2 : 64;
	while (sb->cap < need)
		sb->cap *= 2;
	sb->buf = xrealloc(sb->buf, sb->cap);
}

void strbuf_add(struct strbuf *sb, const char *data, size_t n)
{
	strbuf_grow(sb, n);
	memcpy(sb->buf + sb->len, data, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, char c)
{
	strbuf_add(sb, &c, 1);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list copy;
	int n;

	va_copy(copy, ap);
	n = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	if (n < 0)
		return;
	strbuf_grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_addhex(struct strbuf *sb, const uint8_t *b, size_t n)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		strbuf_addch(sb, digits[b[i] >> 4]);
		strbuf_addch(sb, digits[b[i] & 15]);
	}
}

const char *strbuf_str(struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

char *strbuf_detach(struct strbuf *sb)
{
	char *s = sb->buf ? sb->buf : xstrdup("");

	sb->buf = NULL;
	sb->len = sb->cap = 0;
	return s;
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

char **str_split(const char *s, char sep, size_t *count)
{
	size_t n = 1, i = 0;
	const char *p;
	char **v;

	for (p = s; *p; p++)
		n += *p == sep;
	v = xcalloc(n + 1, sizeof(*v));
	for (;;) {
		const char *end = strchr(s, sep);

		if (!end) {
			v[i++] = xstrdup(s);
			break;
		}
		v[i++] = xstrndup(s, (size_t)(end - s));
		s = end + 1;
	}
	if (count)
		*count = i;
	return v;
}

static int by_strcmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

bool read_first_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, (int)size, f) != NULL;
	fclose(f);
	if (!ok) {
		errno = ENODATA;
		return false;
	}
	buf[strcspn(buf, "\n")] = '\0';
	return true;
}

char **dir_names_sorted(const char *path, size_t *count)
{
	DIR *d = opendir(path);
	struct dirent *e;
	char **v = xcalloc(1, sizeof(*v));
	size_t n = 0, cap = 0;

	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (n + 1 >= cap)
			v = xrealloc(v, (cap = cap ? cap * 2 : 16) * sizeof(*v));
		v[n++] = xstrdup(e->d_name);
	}
	if (d)
		closedir(d);
	v[n] = NULL;
	qsort(v, n, sizeof(*v), by_strcmp);
	*count = n;
	return v;
}

void str_vec_free(char **v)
{
	if (!v)
		return;
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* digits of base 10 or 16, all of s, without wrapping */
static const char *parse_digits(const char *s, unsigned base, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return base == 16 ? "'0x' needs hexadecimal digits" : "not a number";
	for (; *s; s++) {
		int d = hex_digit(*s);

		if (d < 0 || (unsigned)d >= base)
			return isspace((unsigned char)*s) ? "blanks are not allowed" : "not a number";
		if (v > (UINT64_MAX - (unsigned)d) / base)
			return "too large (more than 64 bits)";
		v = v * base + (unsigned)d;
	}
	*out = v;
	return NULL;
}

/* what both number parsers refuse before the digits, or NULL */
static const char *number_start_why(const char *s)
{
	if (!s || !*s)
		return "empty";
	if (*s == '-' || *s == '+')
		return "a sign is not allowed";
	if (isspace((unsigned char)*s))
		return "blanks are not allowed";
	return NULL;
}

const char *parse_u64_why(const char *s, uint64_t *out)
{
	const char *why = number_start_why(s);

	if (why)
		return why;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return parse_digits(s + 2, 16, out);
	if (s[0] == '0' && s[1])
		return isdigit((unsigned char)s[1]) ? "a leading 0 is refused (pfmon 3.x read it as octal): "
						      "write decimal or 0x hexadecimal"
						    : "not a number";
	return parse_digits(s, 10, out);
}

bool parse_u64(const char *s, uint64_t *out)
{
	return parse_u64_why(s, out) == NULL;
}

/* the length of the digits at s */
static size_t digits_at(const char *s)
{
	size_t n = 0;

	while (isdigit((unsigned char)s[n]))
		n++;
	return n;
}

/* why s, whole, is not a real number in parse_real_why's syntax, or NULL */
static const char *real_syntax(const char *s)
{
	size_t whole = digits_at(s), n = whole;

	if (s[n] == '.') {
		size_t frac = digits_at(s + n + 1);

		if (!frac)
			return "expected a digit after the decimal point";
		n += 1 + frac;
	}
	if (!n)
		return "not a number";
	if (s[n] == 'e' || s[n] == 'E') {
		size_t sign = s[n + 1] == '+' || s[n + 1] == '-';
		size_t exp = digits_at(s + n + 1 + sign);

		if (!exp)
			return "expected the exponent's digits";
		n += 1 + sign + exp;
	}
	if (s[n])
		return isspace((unsigned char)s[n]) ? "blanks are not allowed" : "not a number";
	return NULL;
}

const char *parse_real_why(const char *s, double *out)
{
	const char *why = number_start_why(s);
	double v;

	if (!why)
		why = real_syntax(s);
	if (why)
		return why;
	v = strtod(s, NULL);
	/* ERANGE is also an underflow to 0 or a denormal: only infinity is refused */
	if (!isfinite(v))
		return "too large";
	*out = v;
	return NULL;
}

bool parse_real(const char *s, double *out)
{
	return parse_real_why(s, out) == NULL;
}

/* parse_u64_list's ranges expand to at most this many numbers in all */
#define LIST_MAX (1u << 20)

/* one entry of parse_u64_list: N, or N1-N2 if ranges, into [*lo, *hi] */
static const char *parse_list_entry(const char *e, bool ranges, uint64_t min, uint64_t max, uint64_t *lo,
				    uint64_t *hi)
{
	const char *dash = ranges ? strchr(e, '-') : NULL;
	const char *why;

	if (dash) {
		char *first = xstrndup(e, (size_t)(dash - e));

		why = parse_u64_why(first, lo);
		free(first);
		if (!why)
			why = parse_u64_why(dash + 1, hi);
		if (!why && *hi < *lo)
			why = "a range ends before it starts";
	} else {
		why = parse_u64_why(e, lo);
		*hi = *lo;
	}
	if (!why && (*lo < min || *hi > max))
		why = "out of range";
	return why;
}

long parse_u64_list(const char *s, bool ranges, uint64_t min, uint64_t max, uint64_t **out, const char **why)
{
	size_t n_entries, n = 0;
	char **v = str_split(s, ',', &n_entries);
	uint64_t *nums = NULL;

	*why = NULL;
	for (size_t i = 0; i < n_entries; i++) {
		uint64_t lo, hi;

		*why = parse_list_entry(v[i], ranges, min, max, &lo, &hi);
		if (!*why && hi - lo >= LIST_MAX - n)
			*why = "too many numbers";
		if (*why)
			break;
		nums = xrealloc(nums, (n + (size_t)(hi - lo) + 1) * sizeof(*nums));
		for (uint64_t k = lo;; k++) {
			nums[n++] = k;
			if (k == hi)
				break;
		}
	}
	str_vec_free(v);
	if (*why) {
		free(nums);
		return -1;
	}
	*out = nums;
	return (long)n;
}

static const char *escape_of(unsigned char c)
{
	switch (c) {
	case '\n':
		return "\\n";
	case '\t':
		return "\\t";
	case '\r':
		return "\\r";
	case '\\':
		return "\\\\";
	default:
		return NULL;
	}
}

static bool byte_needs_escape(unsigned char c)
{
	return c < 0x20 || c == 0x7f || c == '\\';
}

bool str_needs_escape(const char *s)
{
	for (; s && *s; s++)
		if (byte_needs_escape((unsigned char)*s))
			return true;
	return false;
}

void strbuf_add_escaped(struct strbuf *sb, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (!byte_needs_escape(c))
			strbuf_addch(sb, *s);
		else if (escape_of(c))
			strbuf_addstr(sb, escape_of(c));
		else
			strbuf_addf(sb, "\\x%02x", c);
	}
}

void format_escaped(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	for (const char *f = fmt; *f; f++) {
		if (*f != '%' || !f[1]) {
			strbuf_addch(&sb, *f);
			continue;
		}
		f++;
		if (*f == 's')
			strbuf_add_escaped(&sb, va_arg(ap, const char *));
		else if (*f == 'd')
			strbuf_addf(&sb, "%d", va_arg(ap, int));
		else
			strbuf_addch(&sb, *f); /* "%%" */
	}
	snprintf(buf, size, "%s", strbuf_str(&sb));
	strbuf_release(&sb);
}

void fput_escaped(FILE *out, const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	if (!str_needs_escape(s)) {
		fputs(s ? s : "", out);
		return;
	}
	strbuf_add_escaped(&sb, s);
	fputs(strbuf_str(&sb), out);
	strbuf_release(&sb);
}

size_t edit_distance_ci(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *row = xcalloc(lb + 1, sizeof(*row));
	size_t result;

	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
			size_t best = diag + cost;

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	result = row[lb];
	free(row);
	return result;
}
