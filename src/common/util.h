/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small helpers shared by every layer: allocation, growing strings, number parsing. */
#ifndef PFMON_COMMON_UTIL_H
#define PFMON_COMMON_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Allocation failure is not recoverable in a measurement tool that has
 * already started a command: these print one line and exit(1). */
void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
/* An array p of *cap elements of size bytes, with room made for element
 * n: the capacity doubles, so n appends cost O(n) copies in all where
 * growing by one element each time costs O(n^2) (the sanitizer's realloc
 * always copies).  XGROW(arr, cap, n) assigns the result to arr. */
void *xgrow(void *p, size_t *cap, size_t n, size_t size);
#define XGROW(arr, cap, n) ((arr) = xgrow((arr), &(cap), (n), sizeof(*(arr))))
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* growing NUL-terminated string */
struct strbuf {
	char *buf;
	size_t len;
	size_t cap;
};
#define STRBUF_INIT { NULL, 0, 0 }
void strbuf_add(struct strbuf *sb, const char *data, size_t n);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* n bytes as lower-case hex, two digits each (build-ids) */
void strbuf_addhex(struct strbuf *sb, const uint8_t *b, size_t n);
const char *strbuf_str(struct strbuf *sb); /* never NULL */
char *strbuf_detach(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);

/* A NULL-terminated vector of strings split from s at sep; empty fields are
 * kept (pfmon's per-event lists use them for "the default"). */
char **str_split(const char *s, char sep, size_t *count);
void str_vec_free(char **v);

/* The first line of a small file (a /proc or sysfs attribute) into buf,
 * without its newline; false with errno set when it cannot be opened or is
 * empty (ENODATA). */
bool read_first_line(const char *path, char *buf, size_t size);

/* The names in directory path but "." and "..", sorted (strcmp), as a
 * NULL-terminated vector (str_vec_free); empty if it cannot be read. */
char **dir_names_sorted(const char *path, size_t *count);

/*
 * The one number parser of pfmon: an unsigned 64-bit integer written in
 * decimal or in hexadecimal after 0x/0X, the whole string, nothing else.
 * Refused: an empty string, a sign, blanks anywhere, a value above
 * UINT64_MAX, and a decimal number with a leading zero ("010": pfmon 3.x
 * and strtoul read it as octal 8, which nobody means; "0" itself is fine).
 * Returns NULL and sets *out, or returns why the text is not a number,
 * in words fit for an error message.
 */
const char *parse_u64_why(const char *s, uint64_t *out);
/* the same, true when s is a number */
bool parse_u64(const char *s, uint64_t *out);
/*
 * The one real-number parser of pfmon, with the number parser's rules: a
 * finite decimal number, the whole string: digits, a decimal point with
 * digits after it, an exponent e[+-]N ("1.5", ".5", "2e-3").  Refused: an
 * empty string, a sign, blanks, hexadecimal, inf and nan (strtod takes
 * them all), and a value too large for a double.  Returns NULL and sets
 * *out, or returns why the text is not a number.
 */
const char *parse_real_why(const char *s, double *out);
/* the same, true when s is a number */
bool parse_real(const char *s, double *out);

/*
 * A comma-separated list of such numbers, each from min to max; with
 * ranges, also N1-N2 (N1 <= N2), expanded: "0,2-3" is 0, 2, 3.  Returns
 * the count and *out (allocated, in list order), or -1 and why: an empty
 * list or entry, a bad number, a number out of range, a reversed range,
 * more than 2^20 numbers in all.
 */
long parse_u64_list(const char *s, bool ranges, uint64_t min, uint64_t max, uint64_t **out, const char **why);

/*
 * The one escaper for user strings (option values, command names, event
 * names, paths read from sample files) in messages and text reports: a
 * control character becomes \n, \t, \r or \xHH and a backslash \\, so no
 * input can split a line or forge one.  Other bytes (UTF-8) pass unchanged.
 */
void strbuf_add_escaped(struct strbuf *sb, const char *s);
/* vsnprintf for formats of %s, %d and %% only, each %s argument escaped
 * (the formats of error.h; tests/unit/test_common checks they need no more) */
void format_escaped(char *buf, size_t size, const char *fmt, va_list ap);
/* fputs(s) escaped */
void fput_escaped(FILE *out, const char *s);
/* does s need escaping? */
bool str_needs_escape(const char *s);


/* Levenshtein distance, for "did you mean" suggestions */
size_t edit_distance_ci(const char *a, const char *b);

#endif
