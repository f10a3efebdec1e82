/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Itanium 2 PMD dump reader: a good dump, and one exact error per malformed line. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "common/config.h"
#include "sample/ia64_dump.h"
#include "tap.h"

struct seen {
	int configs, maps, samples;
	struct ia64_dump_config cfg;
	struct ia64_dump_map map;
	char map_path[64];
	char events[64];
	char btb[128]; /* the btb-* keys given, as "KEY=0|1," */
	struct ia64_dump_sample last;
};

static int on_config(void *ctx, struct ia64_dump_config *c, struct pf_error *err)
{
	struct seen *s = ctx;

	s->configs++;
	s->cfg = *c;
	snprintf(s->events, sizeof(s->events), "%s", c->events ? c->events : "");
	return 0;
}

static int on_map(void *ctx, const struct ia64_dump_map *m, struct pf_error *err)
{
	struct seen *s = ctx;

	s->maps++;
	s->map = *m;
	snprintf(s->map_path, sizeof(s->map_path), "%s", m->path);
	return 0;
}

static int on_sample(void *ctx, const struct ia64_dump_sample *smp, struct pf_error *err)
{
	struct seen *s = ctx;

	s->samples++;
	s->last = *smp;
	return 0;
}

/* the model's part, as cmd_report_dump plays it: two known flags, each once */
static enum ia64_dump_key_status on_btb_option(void *ctx, const char *key, bool on)
{
	struct seen *s = ctx;
	size_t n = strlen(s->btb);

	if (strcmp(key, "btb-tm-tk") && strcmp(key, "btb-ppm-correct"))
		return IA64_DUMP_KEY_UNKNOWN;
	if (strstr(s->btb, key))
		return IA64_DUMP_KEY_TWICE;
	snprintf(s->btb + n, sizeof(s->btb) - n, "%s=%d,", key, on);
	return IA64_DUMP_KEY_OK;
}

static const struct ia64_dump_handler handler = { on_config, on_map, on_sample, on_btb_option };

static int read_str(const char *text, struct seen *s, struct pf_error *err)
{
	memset(s, 0, sizeof(*s));
	return ia64_dump_read(text, strlen(text), "d.txt", &handler, s, err);
}

static void test_good(void)
{
	static const char dump[] =
		"# a D-EAR and BTB dump\n"
		"\n"
		"   # indented comment\n"
		"pmc11=0x20008 pmc12=0x3f08\r\n"
		"map=0x4000000000000000-0x4000000000010000:0x0:/tmp/a:b\n"
		"ip=0x4000000000000a32 pid=12 tid=13 cpu=1 time=100 period=2000 pmd2=0x6000000000000010 "
		"pmd3=0x4010 pmd17=0x4000000000000a39 pmd8=1 pmd9=2 pmd10=3 pmd11=4 pmd12=5 pmd13=6 "
		"pmd14=7 pmd15=8 pmd16=0\n"
		"ip=1 pmd2=0 pmd3=0 pmd17=0 pmd8=0 pmd9=0 pmd10=0 pmd11=0 pmd12=0 pmd13=0 pmd14=0 "
		"pmd15=0 pmd16=0"; /* no final newline */
	struct pf_error err = { 0 };
	struct seen s;

	ok(read_str(dump, &s, &err) == 0, "good dump reads: %s", err.msg);
	ok(s.configs == 1 && s.maps == 1 && s.samples == 2, "one config, one map, two samples");
	ok(s.cfg.has_pmc11 && s.cfg.has_pmc12 && !s.cfg.has_pmc10, "pmc11 and pmc12 given");
	is_u64(s.cfg.pmc11, 0x20008, "pmc11 value");
	ok(s.cfg.line == 4, "config line number");
	is_u64(s.map.start, 0x4000000000000000ull, "map start");
	is_u64(s.map.end, 0x4000000000010000ull, "map end");
	is_str(s.map_path, "/tmp/a:b", "map path keeps ':'");
	ok(s.last.line == 7 && s.last.ip == 1 && s.last.fields == 0, "last sample, no optional fields");

	static const char one[] = "pmc11=0x20008\nip=0x10 pid=12 tid=13 cpu=1 time=100 period=2000 "
				  "pmd2=0x6000 pmd3=0x4010 pmd17=0xa39 pmd5=7\n";
	ok(read_str(one, &s, &err) == 0, "sample with every field: %s", err.msg);
	ok(s.last.pid == 12 && s.last.tid == 13 && s.last.cpu == 1 && s.last.time == 100 &&
	   s.last.period == 2000 && s.last.fields == 0x1f, "pid tid cpu time period");
	ok(s.last.pmd_mask == (1u << 2 | 1u << 3 | 1u << 17 | 1u << 5), "pmd mask");
	is_u64(s.last.pmd[17], 0xa39, "pmd17");

	ok(read_str("events=DATA_EAR_CACHE_LAT4,BRANCH_EVENT btb-tm-tk=1 btb-ppm-correct=0 "
		    "irange=0x10-0x20\n", &s, &err) == 0, "events= line: %s", err.msg);
	is_str(s.events, "DATA_EAR_CACHE_LAT4,BRANCH_EVENT", "events list");
	is_str(s.btb, "btb-tm-tk=1,btb-ppm-correct=0,", "btb keys handed to the handler");
	ok(read_str("", &s, &err) == 0 && s.configs == 1, "empty dump: config still delivered");
}

/* the largest values parse, in both bases */
static void test_number_edges(void)
{
	static const char dump[] = "ip=18446744073709551615 time=0xFFFFFFFFFFFFFFFF period=0 "
				   "pid=4294967295 cpu=0X1f pmd5=0x0000000000000001\n";
	struct seen s = { 0 };
	struct pf_error err = { 0 };

	ok(read_str(dump, &s, &err) == 0, "edge numbers: %s", err.msg);
	is_u64(s.last.ip, UINT64_MAX, "decimal UINT64_MAX");
	is_u64(s.last.time, UINT64_MAX, "hex UINT64_MAX, upper case digits");
	ok(s.last.pid == UINT32_MAX && s.last.cpu == 31 && s.last.period == 0, "pid, 0X, 0");
	is_u64(s.last.pmd[5], 1, "hex with leading zeros");
}

static void test_bad(void)
{
	static const struct {
		const char *dump, *msg;
	} rows[] = {
		{ "ip=0x10 pid\n", "'d.txt' line 1: expected key=value, got 'pid'" },
		{ "\n\nip=0x1g\n", "'d.txt' line 3: invalid number in 'ip=0x1g'" },
		{ "ip=010\n", "'d.txt' line 1: invalid number in 'ip=010'" },
		{ "ip=-1\n", "'d.txt' line 1: invalid number in 'ip=-1'" },
		{ "ip=0x10000000000000000\n", "'d.txt' line 1: invalid number in 'ip=0x10000000000000000'" },
		{ "ip=1 pid=4294967296\n", "'d.txt' line 1: invalid 32-bit number in 'pid=4294967296'" },
		/* the dump's own number parser (no strtoull): its edges */
		{ "ip=0x\n", "'d.txt' line 1: invalid number in 'ip=0x'" },
		{ "ip=00\n", "'d.txt' line 1: invalid number in 'ip=00'" },
		{ "ip=1x\n", "'d.txt' line 1: invalid number in 'ip=1x'" },
		{ "ip=+1\n", "'d.txt' line 1: invalid number in 'ip=+1'" },
		{ "ip=\n", "'d.txt' line 1: invalid number in 'ip='" },
		{ "ip=0x1 2\n", "'d.txt' line 1: expected key=value, got '2'" },
		{ "ip=18446744073709551616\n", "'d.txt' line 1: invalid number in 'ip=18446744073709551616'" },
		{ "ip=1 time=99999999999999999999\n",
		  "'d.txt' line 1: invalid number in 'time=99999999999999999999'" },
		{ "ip=1 pmd=1\n", "'d.txt' line 1: unknown key 'pmd'" },
		{ "ip=1 pmd100=1\n", "'d.txt' line 1: unknown key 'pmd100'" },
		{ "ip=1 ipx=1\n", "'d.txt' line 1: unknown key 'ipx'" },
		{ "ip=1 pid=1 pid=2\n", "'d.txt' line 1: key given twice: 'pid=2'" },
		{ "ip=1 period=1 period=2\n", "'d.txt' line 1: key given twice: 'period=2'" },
		{ "ip=1 pmd18=1\n", "'d.txt' line 1: unknown key 'pmd18'" },
		{ "ip=1 pmd03=1\n", "'d.txt' line 1: unknown key 'pmd03'" },
		{ "ip=1 foo=1\n", "'d.txt' line 1: unknown key 'foo'" },
		{ "=1\n", "'d.txt' line 1: expected key=value, got '=1'" },
		{ "ip=1 ip=2\n", "'d.txt' line 1: key given twice: 'ip=2'" },
		{ "ip=1 pmd3=1 pmd3=2\n", "'d.txt' line 1: register given twice: 'pmd3=2'" },
		{ "pid=1\n", "'d.txt' line 1: sample without ip=, starting with 'pid=1'" },
		{ "ip=1 pmc11=0\n", "'d.txt' line 1: token does not belong on this kind of line: 'pmc11=0'" },
		{ "pmc11=0 ip=1\n", "'d.txt' line 1: token does not belong on this kind of line: 'ip=1'" },
		{ "ip=1\npmc11=0\n", "'d.txt' line 2: configuration after the first map or sample: 'pmc11=0'" },
		{ "pmc11=0\npmc11=1\n", "'d.txt' line 2: register given twice: 'pmc11=1'" },
		{ "pmc11=0 events=X\n", "'d.txt' line 1: PMC values and events= exclude each other: 'events=X'" },
		{ "events=X pmc12=0\n", "'d.txt' line 1: PMC values and events= exclude each other: 'pmc12=0'" },
		{ "events=\n", "'d.txt' line 1: empty value in 'events='" },
		{ "btb-tm-tk=yes\n", "'d.txt' line 1: expected 0 or 1 in 'btb-tm-tk=yes'" },
		{ "btb-tm-bogus=1\n", "'d.txt' line 1: unknown key 'btb-tm-bogus'" },
		{ "btb-tm-tk=1\nbtb-tm-tk=0\n", "'d.txt' line 2: key given twice: 'btb-tm-tk=0'" },
		{ "ip=1 btb-tm-tk=1\n", "'d.txt' line 1: token does not belong on this kind of line: 'btb-tm-tk=1'" },
		{ "map=1-2:0:/a map=3-4:0:/b\n", "'d.txt' line 1: map= belongs on a line of its own: 'map=3-4:0:/b'" },
		{ "map=1-2:0\n", "'d.txt' line 1: expected map=START-END:OFFSET:PATH in 'map=1-2:0'" },
		{ "map=2-1:0:/a\n", "'d.txt' line 1: empty address range in 'map=2-1:0:/a'" },
		{ "map=1-2:0:\n", "'d.txt' line 1: no path in 'map=1-2:0:'" },
		{ "map=1-x:0:/a\n", "'d.txt' line 1: invalid number in 'map=1-x:0:/a'" },
		{ "pmc11=0x20008\nip=1 pmd2=1 pmd17=1\n",
		  "'d.txt' line 2: the configured EAR/BTB needs a register this sample lacks: 'pmd3'" },
		{ "pmc12=0\nip=1 pmd8=1 pmd9=1 pmd10=1 pmd11=1 pmd12=1 pmd13=1 pmd14=1 pmd15=1\n",
		  "'d.txt' line 2: the configured EAR/BTB needs a register this sample lacks: 'pmd16'" },
		{ "pmc10=0x2000\nip=1 pmd0=1\n",
		  "'d.txt' line 2: the configured EAR/BTB needs a register this sample lacks: 'pmd1'" },
		{ "ip=1 p\001d=2\n", "'d.txt' line 1: unknown key 'p\\x01d'" },
	};
	struct pf_error err;
	struct seen s;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		memset(&err, 0, sizeof(err));
		ok(read_str(rows[i].dump, &s, &err) == -1 && err.code == PF_E_DUMP_LINE,
		   "bad dump %zu refused", i);
		is_str(err.msg, rows[i].msg, "bad dump %zu: message", i);
	}

	/* the TLB-mode I-EAR needs no PMD1, the ALAT D-EAR no PMD2 */
	ok(read_str("pmc10=0\nip=1 pmd0=1\n", &s, &err) == 0, "I-EAR TLB: PMD0 is enough");
	ok(read_str("pmc11=0x100\nip=1 pmd3=1 pmd17=1\n", &s, &err) == 0, "D-EAR ALAT: no PMD2");

	/* a NUL byte, and a line over 64 KiB */
	static const char nul[] = "ip=1\0pid=2\n";
	memset(&s, 0, sizeof(s));
	ok(ia64_dump_read(nul, sizeof(nul) - 1, "d.txt", &handler, &s, &err) == -1, "NUL refused");
	is_str(err.msg, "'d.txt' line 1: NUL byte in line, after 'ip=1'", "NUL message");
	size_t big = (64u << 10) + 10;
	char *long_line = malloc(big + 1);
	memset(long_line, 'a', big);
	long_line[big] = '\0';
	ok(read_str(long_line, &s, &err) == -1 && strstr(err.msg, "line longer than 64 KiB"),
	   "over-long line refused: %s", err.msg);
	free(long_line);

	/* the same through a stream, with the error on the last line */
	FILE *f = tmpfile();
	fputs("# c\npmc11=0x20008\nip=1 pmd2=1 pmd3=1 pmd17=1\nip=1 pmd2=1 pmd3=1 pmd17=x", f);
	rewind(f);
	memset(&s, 0, sizeof(s));
	ok(ia64_dump_read_file(f, "d.txt", &handler, &s, &err) == -1 && s.samples == 1,
	   "stream: one good sample, then the error");
	is_str(err.msg, "'d.txt' line 4: invalid number in 'pmd17=x'", "stream: message");
	fclose(f);
}

int main(void)
{
	test_good();
	test_number_edges();
	test_bad();
	return tap_done();
}
