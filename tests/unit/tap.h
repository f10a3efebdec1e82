/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A tiny TAP producer for the C unit tests (automake's tap-driver counts
 * every "ok"/"not ok" line, so each check is one test in the summary).
 *
 *   int main(void) { ...; ok(x == 1, "x is one"); ...; return tap_done(); }
 */
#ifndef PFMON_TESTS_TAP_H
#define PFMON_TESTS_TAP_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_count, tap_failed;

__attribute__((format(printf, 2, 3), unused)) static int ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return cond;
}

#define is_str(got, want, ...)                                                           \
	do {                                                                             \
		const char *g_ = (got), *w_ = (want);                                    \
		if (!ok(g_ && w_ ? strcmp(g_, w_) == 0 : g_ == w_, __VA_ARGS__))          \
			printf("#   got:  '%s'\n#   want: '%s'\n", g_ ? g_ : "(null)",      \
			       w_ ? w_ : "(null)");                                      \
	} while (0)

#define is_u64(got, want, ...)                                                           \
	do {                                                                             \
		uint64_t g_ = (got), w_ = (want);                                        \
		if (!ok(g_ == w_, __VA_ARGS__))                                          \
			printf("#   got:  0x%" PRIx64 "\n#   want: 0x%" PRIx64 "\n", g_, w_); \
	} while (0)

__attribute__((unused)) static int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

#endif
