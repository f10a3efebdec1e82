/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "format.h"

static char *group_thousands(uint64_t v, char sep, char *buf, size_t size)
{
	char digits[32];
	int n = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)v);
	size_t o = 0;

	for (int i = 0; i < n && o + 2 < size; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			buf[o++] = sep;
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

char *format_count(uint64_t v, enum pf_counter_format fmt, char *buf, size_t size)
{
	switch (fmt) {
	case PF_FMT_US:
		return group_thousands(v, ',', buf, size);
	case PF_FMT_EU:
		return group_thousands(v, '.', buf, size);
	case PF_FMT_HEX:
		snprintf(buf, size, "0x%016llx", (unsigned long long)v);
		return buf;
	case PF_FMT_PLAIN:
	default:
		snprintf(buf, size, "%llu", (unsigned long long)v);
		return buf;
	}
}

void csv_field(FILE *out, const char *s, const char *sep)
{
	if (!strstr(s, sep) && !strpbrk(s, "\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}
