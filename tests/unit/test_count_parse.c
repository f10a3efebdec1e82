/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The values of saved counts: one parser per kind, shared by --merge and --metrics-from. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "results/count_parse.h"
#include "tap.h"

static void test_text_counts(void)
{
	static const struct {
		const char *s;
		bool eu, good;
		uint64_t v;
	} rows[] = {
		{ "1234567", false, true, 1234567 },
		{ "1,234,567", false, true, 1234567 },
		{ "12,345", false, true, 12345 },
		{ "0x1f", false, true, 31 },
		{ "1.234.567", true, true, 1234567 },
		{ "1.234.567", false, false, 0 }, /* '.' groups only when said */
		{ "1,23", false, false, 0 },      /* every later group has three digits */
		{ "1234,567", false, false, 0 },  /* the first group has one to three */
		{ ",123", false, false, 0 },
		{ "1,234,", false, false, 0 },
		{ "1.5", false, false, 0 },       /* a metric's value */
		{ "-1", false, false, 0 },
		{ "", false, false, 0 },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint64_t v = 0;
		bool good = count_parse_text(rows[i].s, rows[i].eu, &v);

		ok(good == rows[i].good && (!good || v == rows[i].v), "text count '%s'%s", rows[i].s,
		   rows[i].eu ? " (eu)" : "");
	}
}

static void test_perf_values(void)
{
	uint64_t v = 0;
	double d;

	ok(count_parse_perf("351", &v) && v == 351, "perf count 351");
	ok(count_parse_perf("78.000000", &v) && v == 78, "perf -j count 78.000000");
	ok(!count_parse_perf("78.5", &v), "a count with a fraction refused");
	ok(!count_parse_perf(".0", &v) && !count_parse_perf("1.", &v), "no digits on one side refused");
	ok(count_parse_msec("1.50", &v) && v == 1500000, "1.50 msec is 1.5 ms in ns");
	ok(count_parse_msec("0.01", &v) && v == 10000, "perf's resolution, 10 us");
	ok(!count_parse_msec("-1", &v) && !count_parse_msec("inf", &v) && !count_parse_msec("0x10", &v),
	   "negative, infinite and hex clocks refused");
	ok(!count_parse_msec("1e13", &v), "a clock above 10^12 ms refused");
	ok(parse_real("12.5", &d) && d == 12.5, "real 12.5");
	ok(!parse_real("nan", &d) && !parse_real("+1", &d) && !parse_real("", &d),
	   "nan, a sign, empty refused");
}

static void test_csv(void)
{
	size_t n;
	char **f = count_csv_split("1,\"a,\"\"b\"\",c\",,x", ",", &n);

	ok(f && n == 4, "four fields");
	if (f && n == 4) {
		is_str(f[0], "1", "plain field");
		is_str(f[1], "a,\"b\",c", "quoted field with the separator and a doubled quote");
		is_str(f[2], "", "empty field");
		is_str(f[3], "x", "last field");
	}
	str_vec_free(f);
	f = count_csv_split("1;;msec;;task-clock", ";;", &n);
	ok(f && n == 3 && !strcmp(f[2], "task-clock"), "a separator of two characters");
	str_vec_free(f);
	ok(!count_csv_split("1,\"open", ",", &n), "an unterminated quote refused");
}

/* a count in its event's own unit: its digits and the scale of one */
static void test_unit_values(void)
{
	uint64_t raw;
	double scale;

	ok(count_parse_unit_value("0.09", &raw, &scale) && raw == 9 && scale == 1e-2, "0.09: 9 hundredths");
	ok(count_parse_unit_value("12.345678", &raw, &scale) && raw == 12345678 && fabs(scale - 1e-6) < 1e-18,
	   "JSON's %%f: six decimals");
	ok(count_parse_unit_value("42", &raw, &scale) && raw == 42 && scale == 1, "no decimals: scale 1");
	ok(count_parse_unit_value("0.000", &raw, &scale) && raw == 0, "zero with decimals");
	ok(!count_parse_unit_value("1e3", &raw, &scale) && !count_parse_unit_value("-1.5", &raw, &scale) &&
	   !count_parse_unit_value("1.0123456789", &raw, &scale) && !count_parse_unit_value("", &raw, &scale),
	   "exponents, signs, more than 9 decimals, nothing: refused");
	ok(!count_parse_unit_value("99999999999999999999.9", &raw, &scale), "past 2^64 digits refused");
}

int main(void)
{
	test_unit_values();
	test_text_counts();
	test_perf_values();
	test_csv();
	return tap_done();
}
