/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Output writers: number formats, CSV quoting, JSON escaping, count layout. */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/json_writer.h"
#include "results/counts.h"
#include "results/format.h"
#include "tap.h"

static void test_formats(void)
{
	char b[64];

	is_str(format_count(0, PF_FMT_PLAIN, b, sizeof(b)), "0", "plain zero");
	is_str(format_count(2292689, PF_FMT_US, b, sizeof(b)), "2,292,689", "US thousands");
	is_str(format_count(1703898, PF_FMT_EU, b, sizeof(b)), "1.703.898", "EU thousands");
	is_str(format_count(999, PF_FMT_US, b, sizeof(b)), "999", "no separator under 1000");
	is_str(format_count(1000, PF_FMT_US, b, sizeof(b)), "1,000", "separator at 1000");
	is_str(format_count(0x19c164, PF_FMT_HEX, b, sizeof(b)), "0x000000000019c164", "hex as pfmon");
	is_str(format_count(UINT64_MAX, PF_FMT_US, b, sizeof(b)), "18,446,744,073,709,551,615", "max u64");
}

static void test_csv_field(void)
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	csv_field(f, "plain", ",");
	fputc('|', f);
	csv_field(f, "a,b", ",");
	fputc('|', f);
	csv_field(f, "say \"hi\"", ",");
	fputc('|', f);
	csv_field(f, "a;b", ";");
	fputc('|', f);
	csv_field(f, "line\nbreak", ",");
	fclose(f);
	is_str(buf, "plain|\"a,b\"|\"say \"\"hi\"\"\"|\"a;b\"|\"line\nbreak\"", "CSV quoting (RFC 4180)");
	free(buf);
}

static void test_json(void)
{
	struct json_writer w;
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	json_init(&w, f, false);
	json_begin_object(&w);
	json_key(&w, "s");
	json_string(&w, "q\"b\\s\n\x01\x1f'");
	json_key(&w, "a");
	json_begin_array(&w);
	json_uint(&w, 1);
	json_int(&w, -2);
	json_double(&w, 1.5, 2);
	json_bool(&w, true);
	json_null(&w);
	json_end_array(&w);
	json_key(&w, "e");
	json_begin_object(&w);
	json_end_object(&w);
	json_key(&w, "nan");
	json_double(&w, 0.0 / 0.0, 2);
	json_end_object(&w);
	json_newline(&w);
	fclose(f);
	is_str(buf,
	       "{\"s\" : \"q\\\"b\\\\s\\n\\u0001\\u001f'\",\"a\" : [1,-2,1.50,true,null],\"e\" : {},"
	       "\"nan\" : null}\n",
	       "JSON escaping, nesting and commas");
	free(buf);
}

/* escape s through json_escape into a string (the caller frees it) */
static char *escaped(const char *s)
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	json_escape(f, s);
	fclose(f);
	return buf;
}

static void is_escaped(const char *in, const char *want, const char *what)
{
	char *got = escaped(in);

	is_str(got, want, what);
	free(got);
}

/* the runs written in one call: where each stops, and what is between them */
static void test_json_runs(void)
{
	char long_safe[5000], *long_mixed, *want;

	ok(json_safe_run("") == 0, "run: empty string");
	ok(json_safe_run("abc") == 3, "run: all safe");
	ok(json_safe_run("\"abc") == 0, "run: escape first");
	ok(json_safe_run("ab\\c") == 2, "run: stops at a backslash");
	ok(json_safe_run("ab\x7f") == 2, "run: stops at DEL");
	ok(json_safe_run("ab\x1f") == 2, "run: stops at a control character");
	ok(json_safe_run("\xc3\xa9t\xc3\xa9") == 5, "run: UTF-8 bytes pass");
	ok(json_safe_run(" '/") == 3, "run: quote, slash and blank need no escape");
	/* the word-at-a-time scan: each byte to escape at each position of
	 * strings of 0 to 24 bytes, so every word and partial word is tried */
	{
		static const char specials[] = { '"', '\\', '\x01', '\x1f', '\x7f', '\n' };
		bool all_ok = true;
		char buf[32];

		for (size_t len = 0; len <= 24; len++) {
			memset(buf, 'x', len);
			buf[len] = '\0';
			all_ok &= json_safe_run(buf) == len;
			for (size_t at = 0; at < len; at++)
				for (size_t k = 0; k < sizeof(specials); k++) {
					buf[at] = specials[k];
					all_ok &= json_safe_run(buf) == at;
					buf[at] = (char)(0x20 + (at * 7 + k) % 0x5f); /* a safe byte, varied */
					all_ok &= buf[at] == '"' || buf[at] == '\\' || json_safe_run(buf) == len;
					buf[at] = 'x';
				}
		}
		ok(all_ok, "run: every byte to escape found at every position, lengths 0 to 24");
	}
	is_escaped("", "", "escape: empty");
	is_escaped("plain", "plain", "escape: one run");
	is_escaped("\"", "\\\"", "escape: only an escape");
	is_escaped("a\"b\\c", "a\\\"b\\\\c", "escape: runs between escapes");
	is_escaped("\n\t\r\x01\x7f", "\\n\\t\\r\\u0001\\u007f", "escape: escapes in a row");
	is_escaped("end\n", "end\\n", "escape: escape last");
	is_escaped("\x1f" "start", "\\u001fstart", "escape: escape first");
	/* a run longer than any stdio buffer, then one with escapes every 7 bytes */
	memset(long_safe, 'x', sizeof(long_safe) - 1);
	long_safe[sizeof(long_safe) - 1] = '\0';
	is_escaped(long_safe, long_safe, "escape: a 4999-byte run");
	long_mixed = malloc(7001);
	want = malloc(9001);
	for (size_t i = 0, j = 0; i < 7000; i++) {
		long_mixed[i] = i % 7 == 6 ? '"' : (char)('a' + i % 7);
		if (long_mixed[i] == '"')
			want[j++] = '\\';
		want[j++] = long_mixed[i];
		want[j] = '\0';
	}
	long_mixed[7000] = '\0';
	is_escaped(long_mixed, want, "escape: 1000 runs and escapes");
	free(long_mixed);
	free(want);
}

/* numbers without printf: the extremes */
static void test_json_numbers(void)
{
	struct json_writer w;
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	json_init(&w, f, false);
	json_begin_array(&w);
	json_uint(&w, 0);
	json_uint(&w, UINT64_MAX);
	json_int(&w, INT64_MIN);
	json_int(&w, INT64_MAX);
	json_int(&w, 0);
	json_hex(&w, 0);
	json_hex(&w, UINT64_MAX);
	json_hex(&w, 0x4000000000000a32ull);
	json_end_array(&w);
	json_begin_object(&w);
	json_key_suffix(&w, "ip", "_symbol");
	json_string(&w, "f\"+0x10");
	json_end_object(&w);
	fclose(f);
	is_str(buf,
	       "[0,18446744073709551615,-9223372036854775808,9223372036854775807,0,\"0x0\","
	       "\"0xffffffffffffffff\",\"0x4000000000000a32\"],{\"ip_symbol\" : \"f\\\"+0x10\"}",
	       "JSON numbers, hex strings and suffixed keys");
	free(buf);
}

static char *render(const struct count_row *rows, size_t n, const struct count_format_opts *fo)
{
	struct count_report rep = { .rows = rows, .n_rows = n };
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	report_counts(f, &rep, fo);
	fclose(f);
	return buf;
}

static void test_count_layout(void)
{
	struct count_row rows[] = {
		{ .name = "CPU_CYCLES", .state = COUNT_OK, .raw = 12345678, .enabled = 10, .running = 10 },
		{ .name = "IA64_INST_RETIRED", .state = COUNT_OK, .raw = 5678, .enabled = 10, .running = 10 },
	};
	struct count_row mux[] = {
		{ .name = "a", .state = COUNT_OK, .raw = 100, .enabled = 200, .running = 100 },
		{ .name = "b", .state = COUNT_NOT_COUNTED, .enabled = 200 },
		{ .name = "cycles", .state = COUNT_NOT_SUPPORTED },
	};
	struct count_row clock[] = {
		{ .name = "task,clock", .state = COUNT_OK, .is_clock = true, .raw = 1234567, .enabled = 5, .running = 5 },
	};
	struct count_format_opts fo = COUNT_FORMAT_OPTS_INIT;
	char *s;

	s = render(rows, 2, &fo);
	is_str(s, "12345678 CPU_CYCLES\n    5678 IA64_INST_RETIRED\n", "pfmon layout: right-aligned counts");
	free(s);

	fo.counter_format = PF_FMT_US;
	s = render(rows, 1, &fo);
	is_str(s, "12,345,678 CPU_CYCLES\n", "--us-counter-format");
	free(s);
	fo.counter_format = PF_FMT_PLAIN;

	s = render(mux, 3, &fo);
	is_str(s, "            200 a  (50.00%)\n  <not counted> b\n<not supported> cycles\n",
	       "multiplexed counts scaled, running percentage, not counted/supported");
	free(s);

	fo.kind = PF_OUT_CSV;
	s = render(mux, 3, &fo);
	/* perf: <not supported> ran 0 ns of 0, shown as 100.00 %; <not counted> 0 of some */
	is_str(s, "200,,a,100,50.00,,\n<not counted>,,b,0,0.00,,\n<not supported>,,cycles,0,100.00,,\n",
	       "CSV has perf stat -x columns");
	free(s);
	s = render(clock, 1, &fo);
	is_str(s, "1.23,msec,\"task,clock\",5,100.00,,\n", "CSV clock in msec, name quoted");
	free(s);

	fo.kind = PF_OUT_JSON;
	s = render(clock, 1, &fo);
	is_str(s,
	       "{\"counter-value\" : \"1.234567\",\"unit\" : \"msec\",\"event\" : \"task,clock\",\"event-runtime\" : 5,"
	       "\"pcnt-running\" : 100.00}\n",
	       "JSON lines with perf stat -j keys and precision (%%f); no metric: no metric keys (perf), "
	       "never empty strings");
	free(s);
}

int main(void)
{
	test_formats();
	test_csv_field();
	test_json();
	test_json_runs();
	test_json_numbers();
	test_count_layout();
	return tap_done();
}
