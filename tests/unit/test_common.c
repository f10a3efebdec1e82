/* SPDX-License-Identifier: GPL-2.0-or-later */
/* src/common/: the one number parser, the one real-number parser (and, below, the one string escaper). */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/util.h"
#include "tap.h"

static void accepts(const char *s, uint64_t want)
{
	uint64_t v = 0;
	const char *why = parse_u64_why(s, &v);

	ok(!why && v == want, "'%s' is %llu%s%s", s, (unsigned long long)want, why ? ": " : "", why ? why : "");
}

static void refuses(const char *s, const char *want)
{
	uint64_t v = 42;
	const char *why = parse_u64_why(s, &v);

	ok(why && strstr(why, want) && v == 42 && !parse_u64(s, &v), "'%s' refused: %s", s ? s : "(null)",
	   why ? why : "(accepted)");
}

static void numbers(void)
{
	accepts("0", 0);
	accepts("7", 7);
	accepts("10", 10);
	accepts("0x10", 16);
	accepts("0X1f", 31);
	accepts("0xABCDEF", 0xabcdef);
	accepts("18446744073709551615", UINT64_MAX);
	accepts("0xffffffffffffffff", UINT64_MAX);
	accepts("0x0000000000000000ff", 0xff); /* leading zeros after 0x are not ambiguous */

	refuses(NULL, "empty");
	refuses("", "empty");
	refuses("-1", "sign");
	refuses("+1", "sign");
	refuses("-0x20e0", "sign");
	refuses(" 1", "blank");
	refuses("1 ", "blank");
	refuses("\t1", "blank");
	refuses("010", "octal");
	refuses("00", "octal");
	refuses("08", "octal");
	refuses("18446744073709551616", "too large");
	refuses("99999999999999999999999", "too large");
	refuses("0x10000000000000000", "too large");
	refuses("0x", "hexadecimal digits");
	refuses("0xg", "not a number");
	refuses("12k", "not a number");
	refuses("1e3", "not a number");
	refuses("0b101", "not a number");
	refuses("0o7", "not a number");
	refuses("1,000", "not a number");
}

static void real_is(const char *s, double want)
{
	double v = -1;
	const char *why = parse_real_why(s, &v);

	ok(!why && v == want, "real '%s' is %g%s%s", s, want, why ? ": " : "", why ? why : "");
}

static void real_refused(const char *s, const char *want)
{
	double v = 42;
	const char *why = parse_real_why(s, &v);

	ok(why && strstr(why, want) && v == 42 && !parse_real(s, &v), "real '%s' refused: %s", s ? s : "(null)",
	   why ? why : "(accepted)");
}

/* the one real-number parser: the integer parser's rules on signs and blanks */
static void reals(void)
{
	real_is("0", 0);
	real_is("0.5", 0.5);
	real_is(".5", 0.5);
	real_is("10.25", 10.25);
	real_is("010", 10); /* a real is never octal */
	real_is("2e3", 2000);
	real_is("2.5E-1", 0.25);
	real_is("1e+2", 100);

	real_refused(NULL, "empty");
	real_refused("", "empty");
	real_refused("-1", "sign");
	real_refused("+0.5", "sign");
	real_refused(" 1", "blank");
	real_refused("1.5 ", "blank");
	real_refused("5.", "digit after the decimal point");
	real_refused(".", "digit after the decimal point");
	real_refused("1e", "exponent");
	real_refused("1e+", "exponent");
	real_refused("0x10", "not a number");
	real_refused("inf", "not a number");
	real_refused("nan", "not a number");
	real_refused("1,5", "not a number");
	real_refused("1.2.3", "not a number");
	real_refused("1e999", "too large");
}

/* parse_u64_list gives want (n numbers, -1: refused with a why holding why) */
static void list_is(const char *s, bool ranges, uint64_t min, uint64_t max, long want_n, const uint64_t *want,
		    const char *why_want)
{
	uint64_t *v = NULL;
	const char *why = NULL;
	long n = parse_u64_list(s, ranges, min, max, &v, &why);
	bool good = n == want_n;

	for (long i = 0; good && i < n; i++)
		good = v[i] == want[i];
	if (want_n < 0)
		good = good && why && strstr(why, why_want);
	ok(good, "list '%s'%s: %ld numbers%s%s", s, ranges ? " (ranges)" : "", n, why ? ", " : "", why ? why : "");
	if (n >= 0)
		free(v);
}

static void lists(void)
{
	static const uint64_t cpus[] = { 0, 2, 3, 7 };
	static const uint64_t pids[] = { 12, 0x20, 5 };

	list_is("0,2-3,7", true, 0, 999999, 4, cpus, NULL);
	list_is("7", true, 0, 999999, 1, cpus + 3, NULL);
	list_is("12,0x20,5", false, 1, INT32_MAX, 3, pids, NULL); /* list order kept */
	list_is("", true, 0, 10, -1, NULL, "empty");
	list_is("1,", true, 0, 10, -1, NULL, "empty");
	list_is(",1", false, 0, 10, -1, NULL, "empty");
	list_is("1,,2", false, 0, 10, -1, NULL, "empty");
	list_is("3-1", true, 0, 10, -1, NULL, "range");
	list_is("1-", true, 0, 10, -1, NULL, "empty");
	list_is("-1", true, 0, 10, -1, NULL, "empty");
	list_is("1-2-3", true, 0, 10, -1, NULL, "not a number");
	list_is("1-2", false, 0, 10, -1, NULL, "not a number"); /* no ranges: a dash is not a number */
	list_is("0", false, 1, 10, -1, NULL, "out of range");
	list_is("5-11", true, 0, 10, -1, NULL, "out of range");
	list_is("01", true, 0, 10, -1, NULL, "leading 0");
	list_is("0-0xffffffffffffffff", true, 0, UINT64_MAX, -1, NULL, "too many");
	list_is("0xffffffffffffffff-0xffffffffffffffff", true, 0, UINT64_MAX, 1, (const uint64_t[]){ UINT64_MAX },
		NULL);
}

static void escaping(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct pf_error err;

	strbuf_add_escaped(&sb, "a\nb\tc\rd\\e\x01" "f\x7f\xc3\xa9");
	is_str(strbuf_str(&sb), "a\\nb\\tc\\rd\\\\e\\x01f\\x7f\xc3\xa9", "control bytes and backslash escaped, UTF-8 kept");
	strbuf_release(&sb);
	pf_error_set(&err, PF_E_BAD_OPTION_VALUE, "x\nerror: forged", "csv", "why");
	ok(!strchr(err.msg, '\n'), "an error message is one line: %s", err.msg);
	is_str(err.msg, "invalid value 'x\\nerror: forged' for option '--csv': why", "string arguments escaped");
	pf_error_set(&err, PF_E_OPTION_TWICE, "long-smpl-periods", 3);
	is_str(err.msg, "option '--long-smpl-periods' given twice for event set 3", "%%d arguments");
	/* format_escaped knows %s, %d and %% only */
	for (int c = 0; c < PF_E_COUNT; c++) {
		const char *f = pf_error_format((enum pf_errcode)c);
		bool good = true;

		for (const char *p = strchr(f, '%'); p; p = strchr(p + 2, '%'))
			good &= p[1] == 's' || p[1] == 'd' || p[1] == '%';
		ok(good, "error %s: its format takes only %%s and %%d", pf_error_name((enum pf_errcode)c));
	}
}

int main(void)
{
	numbers();
	reals();
	lists();
	escaping();
	return tap_done();
}
