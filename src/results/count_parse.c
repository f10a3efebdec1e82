/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The values of saved counts (see count_parse.h). */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "count_parse.h"

bool count_parse_text(const char *s, bool eu, uint64_t *v)
{
	char digits[32];
	size_t n = 0, group = 0;
	bool grouped = false;
	char sep = strchr(s, ',') ? ',' : eu && strchr(s, '.') ? '.' : 0;

	if (!sep || s[0] == '0')
		return parse_u64(s, v);
	for (const char *p = s; *p; p++) {
		if (*p == sep) {
			/* the first group has 1 to 3 digits, every later one 3 */
			if (group == 0 || group > 3 || (grouped && group != 3))
				return false;
			grouped = true;
			group = 0;
			continue;
		}
		if (*p < '0' || *p > '9' || n + 1 >= sizeof(digits))
			return false;
		digits[n++] = *p;
		group++;
	}
	digits[n] = '\0';
	return group == 3 && parse_u64(digits, v);
}

/* perf stat -j writes counts as "78.000000" */
static bool integral_real(const char *s, uint64_t *v)
{
	const char *dot = strchr(s, '.');
	char digits[32];

	if (!dot || dot == s || (size_t)(dot - s) >= sizeof(digits) || dot[1] == '\0' ||
	    strspn(dot + 1, "0") != strlen(dot + 1))
		return false;
	snprintf(digits, sizeof(digits), "%.*s", (int)(dot - s), s);
	return parse_u64(digits, v);
}

bool count_parse_perf(const char *s, uint64_t *v)
{
	return parse_u64(s, v) || integral_real(s, v);
}

bool count_parse_unit_value(const char *s, uint64_t *raw, double *scale)
{
	const char *dot = strchr(s, '.');
	size_t decimals = dot ? strlen(dot + 1) : 0;
	char digits[24], *first;
	double check;

	if (!parse_real(s, &check) || strchr(s, 'e') || strchr(s, 'E') || decimals > 9 || strlen(s) > 20)
		return false;
	snprintf(digits, sizeof(digits), "%.*s%s", dot ? (int)(dot - s) : (int)strlen(s), s, dot ? dot + 1 : "");
	first = digits + strspn(digits, "0"); /* "0.09": 9 (the one parser refuses leading zeros) */
	if (!*first)
		first--; /* all zeros: "0" */
	if (!parse_u64(first, raw))
		return false;
	*scale = pow(10.0, -(double)decimals);
	return true;
}

bool count_parse_msec(const char *s, uint64_t *ns)
{
	double ms;

	if (!parse_real(s, &ms) || ms > 1e12)
		return false;
	*ns = (uint64_t)llround(ms * 1e6);
	return true;
}

static void free_fields(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

char **count_csv_split(const char *s, const char *sep, size_t *n)
{
	size_t seplen = strlen(sep);
	char **v = NULL;

	*n = 0;
	if (!seplen) /* it would split at every byte, never advancing */
		return NULL;
	for (;;) {
		struct strbuf f = STRBUF_INIT;

		if (*s == '"') {
			for (s++;; s++) {
				if (!*s) {
					strbuf_release(&f);
					free_fields(v, *n);
					return NULL;
				}
				if (*s == '"' && s[1] == '"')
					strbuf_addch(&f, *s++);
				else if (*s == '"')
					break;
				else
					strbuf_addch(&f, *s);
			}
			s++;
		}
		while (*s && strncmp(s, sep, seplen) != 0)
			strbuf_addch(&f, *s++);
		v = xrealloc(v, (*n + 2) * sizeof(*v));
		v[(*n)++] = xstrdup(strbuf_str(&f));
		v[*n] = NULL;
		strbuf_release(&f);
		if (!*s)
			return v;
		s += seplen;
	}
}
