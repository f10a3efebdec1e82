/* Output writers: number formats, CSV quoting, JSON escaping, count layout. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "common/config.h"
#include "report/counts.h"
#include "report/format.h"
#include "report/json_writer.h"
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

static char *render(const struct count_row *rows, size_t n, struct pf_config *cfg)
{
	struct count_report rep = { .rows = rows, .n_rows = n };
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	report_counts(f, &rep, cfg);
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
	struct pf_config cfg;
	char *s;

	pf_config_init(&cfg);
	s = render(rows, 2, &cfg);
	is_str(s, "12345678 CPU_CYCLES\n    5678 IA64_INST_RETIRED\n", "pfmon layout: right-aligned counts");
	free(s);

	cfg.counter_format = PF_FMT_US;
	s = render(rows, 1, &cfg);
	is_str(s, "12,345,678 CPU_CYCLES\n", "--us-counter-format");
	free(s);
	cfg.counter_format = PF_FMT_PLAIN;

	s = render(mux, 3, &cfg);
	is_str(s, "            200 a  (50.00%)\n  <not counted> b\n<not supported> cycles\n",
	       "multiplexed counts scaled, running percentage, not counted/supported");
	free(s);

	cfg.output_kind = PF_OUT_CSV;
	s = render(mux, 3, &cfg);
	is_str(s, "200,,a,100,50.00,,\n<not counted>,,b,0,0.00,,\n<not supported>,,cycles,0,0.00,,\n",
	       "CSV has perf stat -x columns");
	free(s);
	s = render(clock, 1, &cfg);
	is_str(s, "1.23,msec,\"task,clock\",5,100.00,,\n", "CSV clock in msec, name quoted");
	free(s);

	cfg.output_kind = PF_OUT_JSON;
	s = render(clock, 1, &cfg);
	is_str(s,
	       "{\"counter-value\" : \"1.23\",\"unit\" : \"msec\",\"event\" : \"task,clock\",\"event-runtime\" : 5,"
	       "\"pcnt-running\" : 100.00}\n",
	       "JSON lines with perf stat -j keys; no metric: no metric keys (perf), never empty strings");
	free(s);
}

int main(void)
{
	test_formats();
	test_csv_field();
	test_json();
	test_count_layout();
	return tap_done();
}
