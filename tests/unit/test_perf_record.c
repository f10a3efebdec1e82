/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Decoding raw perf records: synthetic records of every type and several
 * sample_type combinations, then the same records cut short or with counts
 * that overrun them.  Cut records are copied into buffers of exactly
 * header.size bytes, so ASan catches any read past the record.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "sample/perf_record.h"
#include "tap.h"

/* a record under construction, 8-byte aligned like the ring's */
struct rb {
	uint64_t w[512];
	size_t len; /* bytes */
};

static void rb_init(struct rb *b)
{
	memset(b, 0, sizeof(*b));
	b->len = sizeof(struct perf_event_header);
}

static void u64(struct rb *b, uint64_t v)
{
	memcpy((char *)b->w + b->len, &v, 8);
	b->len += 8;
}

static void u32x2(struct rb *b, uint32_t x, uint32_t y)
{
	memcpy((char *)b->w + b->len, &x, 4);
	memcpy((char *)b->w + b->len + 4, &y, 4);
	b->len += 8;
}

/* bytes, NUL-padded to a multiple of 8 */
static void bytes8(struct rb *b, const void *p, size_t n)
{
	memcpy((char *)b->w + b->len, p, n);
	b->len += (n + 7) & ~(size_t)7;
}

static struct perf_event_header *fin(struct rb *b, uint32_t type, uint16_t misc)
{
	struct perf_event_header *h = (struct perf_event_header *)b->w;

	h->type = type;
	h->misc = misc;
	h->size = (uint16_t)b->len;
	return h;
}

/* a copy of the first size bytes of rec, in a buffer of exactly that size */
static struct perf_event_header *cut(const struct perf_event_header *rec, size_t size)
{
	struct perf_event_header *c = xmalloc(size < sizeof(*c) ? sizeof(*c) : size);

	memcpy(c, rec, size < sizeof(*c) ? sizeof(*c) : size);
	c->size = (uint16_t)size;
	return c;
}

/* every shorter size of rec must be refused, and not read past */
static int all_cuts_refused(const struct perf_event_header *rec, const struct perf_layout *l,
			    size_t from)
{
	size_t size;
	int good = 1;

	for (size = from; size < rec->size; size++) {
		struct perf_event_header *c = cut(rec, size);
		struct sample_record out;
		struct pf_error err = { 0 };

		if (perf_record_decode(c, l, &out, &err) != -1 || !strstr(err.msg, "malformed")) {
			printf("#   size %zu accepted\n", size);
			good = 0;
		}
		free(c);
	}
	return good;
}

#define ST_BASIC (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

static void test_basic_sample(void)
{
	struct perf_layout l = { .sample_type = ST_BASIC, .evidx = 3 };
	struct sample_record out;
	struct pf_error err = { 0 };
	struct perf_event_header *h;
	struct rb b;
	int rc;

	rb_init(&b);
	u64(&b, 0x401234);
	u32x2(&b, 100, 101);
	u64(&b, 123456789);
	u32x2(&b, 2, 0);
	u64(&b, 10007);
	h = fin(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_EXACT_IP);
	rc = perf_record_decode(h, &l, &out, &err);
	ok(rc == 1 && out.type == SREC_SAMPLE, "IP|TID|TIME|CPU|PERIOD sample decodes (%u bytes) %s",
	   h->size, err.msg);
	ok(out.sample.ip == 0x401234 && out.sample.pid == 100 && out.sample.tid == 101 &&
	   out.sample.time == 123456789 && out.sample.cpu == 2 && out.sample.period == 10007,
	   "its ip, pid, tid, time, cpu, period");
	ok(out.sample.evidx == 3 && out.sample.cpumode == PERF_RECORD_MISC_USER && out.sample.exact_ip,
	   "event index from the layout, cpumode and exact-ip from misc");
	is_u64(out.sample.fields, SAMPLE_F_IP | SAMPLE_F_TID | SAMPLE_F_TIME | SAMPLE_F_CPU | SAMPLE_F_PERIOD,
	       "field mask");
	ok(all_cuts_refused(h, &l, 0), "every shorter header.size is refused");
}

#define ST_FULL (PERF_SAMPLE_IDENTIFIER | ST_BASIC | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | \
		 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW | \
		 PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER | \
		 PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION | \
		 PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP | \
		 PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_AUX)

static const struct perf_layout full_layout = {
	.sample_type = ST_FULL,
	.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED |
		       PERF_FORMAT_TOTAL_TIME_RUNNING,
	.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX,
	.sample_regs_user = 0x7,
	.sample_regs_intr = 0xff,
	.evidx = 1,
};

/* every field the kernel can write, in its order */
static struct perf_event_header *full_sample(struct rb *b)
{
	rb_init(b);
	u64(b, 77);                 /* IDENTIFIER */
	u64(b, 0xffffffff81001234ull);
	u32x2(b, 4242, 4243);
	u64(b, 999999);
	u64(b, 0x7ffd00001000ull);  /* ADDR */
	u64(b, 77);                 /* ID */
	u64(b, 78);                 /* STREAM_ID */
	u32x2(b, 5, 0);
	u64(b, 20011);              /* PERIOD */
	u64(b, 2);                  /* READ: nr */
	u64(b, 1000);               /* time enabled */
	u64(b, 900);                /* time running */
	u64(b, 11); u64(b, 77);     /* value, id */
	u64(b, 12); u64(b, 79);
	u64(b, 3);                  /* CALLCHAIN */
	u64(b, (uint64_t)-128);
	u64(b, 0xffffffff81001234ull);
	u64(b, 0xffffffff81000010ull);
	{                           /* RAW: u32 size 5, 5 bytes, padded to 16 */
		unsigned char raw[16] = { 5, 0, 0, 0, 'h', 'e', 'l', 'l', 'o' };

		bytes8(b, raw, 12);
	}
	u64(b, 2);                  /* BRANCH_STACK: nr */
	u64(b, 7);                  /* hw_idx */
	u64(b, 0x401100); u64(b, 0x401200); u64(b, 1);
	u64(b, 0x401050); u64(b, 0x401090); u64(b, 2);
	u64(b, 2);                  /* REGS_USER: abi 64-bit */
	u64(b, 1); u64(b, 2); u64(b, 3);
	u64(b, 16);                 /* STACK_USER: size */
	u64(b, 0xaaaa); u64(b, 0xbbbb);
	u64(b, 16);                 /* dyn_size */
	u64(b, 245 | (uint64_t)17 << 32 | (uint64_t)9 << 48); /* WEIGHT_STRUCT */
	u64(b, 0x68100142);         /* DATA_SRC */
	u64(b, 0);                  /* TRANSACTION */
	u64(b, 0);                  /* REGS_INTR: abi none, no registers */
	u64(b, 0x12345000);         /* PHYS_ADDR */
	u64(b, 1);                  /* CGROUP */
	u64(b, 4096);               /* DATA_PAGE_SIZE */
	u64(b, 2097152);            /* CODE_PAGE_SIZE */
	u64(b, 8);                  /* AUX: size */
	u64(b, 0xcccc);
	return fin(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL);
}

static void test_full_sample(void)
{
	struct sample_record out;
	struct pf_error err = { 0 };
	struct perf_event_header *h;
	struct rb b;
	const struct sample *s = &out.sample;
	int rc;

	h = full_sample(&b);
	rc = perf_record_decode(h, &full_layout, &out, &err);
	ok(rc == 1, "a sample with every sample_type bit decodes (%u bytes) %s", h->size, err.msg);
	ok(s->id == 77 && s->stream_id == 78 && s->addr == 0x7ffd00001000ull && s->cpu == 5 &&
	   s->period == 20011 && s->cpumode == PERF_RECORD_MISC_KERNEL,
	   "id, stream id, data address, cpu, period, cpumode");
	ok(s->callchain_nr == 3 && s->callchain[0] == (uint64_t)-128 &&
	   s->callchain[2] == 0xffffffff81000010ull, "callchain after group read values");
	ok(s->branch_nr == 2 && s->branches[0].from == 0x401100 && s->branches[1].to == 0x401090 &&
	   s->branches[1].flags == 2, "branch stack after raw data and hw_idx");
	ok(s->weight == 245 && s->ins_lat == 17 && s->p_stage_cyc == 9,
	   "weight struct: latency 245, instruction latency 17, var3_w (p_stage_cyc) 9");
	ok(s->data_src == 0x68100142 && s->phys_addr == 0x12345000,
	   "data source and physical address after user registers and stack");
	ok(s->fields == (SAMPLE_F_IP | SAMPLE_F_TID | SAMPLE_F_TIME | SAMPLE_F_CPU | SAMPLE_F_PERIOD |
			 SAMPLE_F_ADDR | SAMPLE_F_ID | SAMPLE_F_STREAM_ID | SAMPLE_F_CALLCHAIN |
			 SAMPLE_F_BRANCH | SAMPLE_F_WEIGHT | SAMPLE_F_INS_LAT | SAMPLE_F_P_STAGE_CYC | SAMPLE_F_DATA_SRC |
			 SAMPLE_F_PHYS_ADDR | SAMPLE_F_READ | SAMPLE_F_USER_STACK | SAMPLE_F_BRANCH_HW_IDX),
	   "field mask of the full sample");
	ok(s->regs_abi == 2 && s->regs_mask == 0x7 && s->regs[0] == 1 && s->regs[2] == 3,
	   "user registers kept: abi, mask, values");
	ok(s->stack_size == 16 && s->stack[0] == 0xaa && s->stack[8] == 0xbb, "user stack kept: dyn_size bytes");
	ok(s->read_nr == 1 && s->read[0] == 12, "group read: the sibling's count kept, the leader's dropped");
	ok(all_cuts_refused(h, &full_layout, 0), "every shorter header.size of the full sample is refused");
	{
		uint64_t t = 0;

		ok(perf_record_peek_time(h, &full_layout, &t) == 0 && t == 999999,
		   "peek the time of a sample: after identifier, ip and tid");
	}
	{
		uint64_t id = 0;

		ok(perf_record_peek_id(h, false, &id) == 0 && id == 77, "peek the identifier of a sample");
	}
	{
		struct perf_event_header *m = (struct perf_event_header *)((char *)b.w + 4);

		memmove(m, b.w, 64);
		m->size = 64;
		ok(perf_record_decode(m, &full_layout, &out, &err) == -1 && strstr(err.msg, "aligned"),
		   "a misaligned record is refused: %s", err.msg);
	}
}

/* patch the u64 at byte offset off and expect a refusal naming why */
static void overrun(const char *what, size_t off, uint64_t v, const char *want)
{
	struct rb b;
	struct perf_event_header *h = full_sample(&b);
	struct sample_record out;
	struct pf_error err = { 0 };
	struct perf_event_header *c;

	memcpy((char *)b.w + off, &v, 8);
	c = cut(h, h->size);
	ok(perf_record_decode(c, &full_layout, &out, &err) == -1 && strstr(err.msg, want),
	   "%s: %s", what, err.msg);
	free(c);
}

static void test_overruns(void)
{
	/* offsets in full_sample(): header 8, then u64 slots */
	overrun("read group nr 2^61", 8 + 9 * 8, 1ull << 61, "read values overrun");
	overrun("callchain nr 2^60", 8 + 16 * 8, 1ull << 60, "callchain overruns");
	overrun("callchain nr one too many", 8 + 16 * 8, 32, "callchain overruns");
	overrun("raw size 0xffffffff", 8 + 20 * 8, 0xffffffffull, "raw data overruns");
	overrun("branch nr 2^59", 8 + 22 * 8, 1ull << 59, "branch stack overruns");
	overrun("user stack size 2^63", 8 + 34 * 8, 1ull << 63, "user stack overruns");
	overrun("aux size 2^62", 8 + 46 * 8, 1ull << 62, "too short");
}

static void test_other_samples(void)
{
	struct perf_layout l = { .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_READ | PERF_SAMPLE_WEIGHT |
						PERF_SAMPLE_BRANCH_STACK,
				 .read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST |
						PERF_FORMAT_TOTAL_TIME_RUNNING,
				 .branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_COUNTERS };
	struct sample_record out;
	struct pf_error err = { 0 };
	struct perf_event_header *h;
	struct rb b;
	int rc;

	rb_init(&b);
	u64(&b, 0x1000);
	u64(&b, 5); u64(&b, 6); u64(&b, 7); u64(&b, 8); /* value, running, id, lost */
	u64(&b, 1);                                      /* one branch */
	u64(&b, 0x10); u64(&b, 0x20); u64(&b, 0);
	u64(&b, 42);                                     /* its counters */
	u64(&b, 300);                                    /* plain weight */
	h = fin(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	rc = perf_record_decode(h, &l, &out, &err);
	ok(rc == 1 && out.sample.ip == 0x1000 && out.sample.branch_nr == 1 &&
	   out.sample.branches[0].to == 0x20 && out.sample.weight == 300 && out.sample.ins_lat == 0,
	   "single read value with id and lost, branch counters, plain weight %s", err.msg);
	ok(all_cuts_refused(h, &l, 0), "every shorter size refused");

	l.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_ADDR | PERF_SAMPLE_REGS_USER;
	rb_init(&b);
	u32x2(&b, 1, 2);
	u64(&b, 0xdead000);
	u64(&b, 0); /* REGS_USER abi none: no registers follow (kernel thread) */
	h = fin(&b, PERF_RECORD_SAMPLE, 0);
	rc = perf_record_decode(h, &l, &out, &err);
	ok(rc == 1 && out.sample.addr == 0xdead000 && out.sample.fields == (SAMPLE_F_TID | SAMPLE_F_ADDR),
	   "page-fault style sample: tid and data address, user regs absent %s", err.msg);

	l.sample_type = 0;
	rb_init(&b);
	u64(&b, 1); /* extra bytes after the known fields are tolerated */
	h = fin(&b, PERF_RECORD_SAMPLE, 0);
	ok(perf_record_decode(h, &l, &out, &err) == 1 && out.sample.fields == 0,
	   "empty sample_type decodes to an empty sample");
	h->size = 4;
	ok(perf_record_decode(h, &l, &out, &err) == -1 && strstr(err.msg, "smaller than the record header"),
	   "header.size 4: %s", err.msg);
}

/* side-band records, with and without the sample_id trailer */
#define ST_SID (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

static void sid(struct rb *b, int on)
{
	if (!on)
		return;
	u32x2(b, 9, 10);   /* TID */
	u64(b, 5555);      /* TIME */
	u32x2(b, 3, 0);    /* CPU */
	u64(b, 88);        /* IDENTIFIER */
}

static int check_sid(const struct sample_record *o, int on)
{
	if (!on)
		return o->sid.fields == 0;
	return o->sid.fields == (SAMPLE_F_TID | SAMPLE_F_TIME | SAMPLE_F_CPU | SAMPLE_F_ID) &&
	       o->sid.pid == 9 && o->sid.tid == 10 && o->sid.time == 5555 && o->sid.cpu == 3 &&
	       o->sid.id == 88;
}

static void decode_ok(struct perf_event_header *h, int with_sid, struct sample_record *out,
		      const char *what)
{
	struct perf_layout l = { .sample_type = ST_SID, .sample_id_all = with_sid };
	struct pf_error err = { 0 };
	int rc = perf_record_decode(h, &l, out, &err);

	ok(rc == 1 && check_sid(out, with_sid), "%s%s decodes %s", what,
	   with_sid ? " with sample_id" : "", err.msg);
	ok(all_cuts_refused(h, &l, 0), "%s%s: every shorter size refused", what,
	   with_sid ? " with sample_id" : "");
}

static void test_side_band(int s)
{
	struct sample_record o;
	struct rb b;
	static const char path[] = "/usr/lib/x86_64-linux-gnu/libc.so.6";
	unsigned char bid[24] = { 20, 0, 0, 0, 0xde, 0xad, 0xbe, 0xef };
	uint64_t id;

	rb_init(&b);
	u32x2(&b, 100, 101); u64(&b, 0x7f0000000000ull); u64(&b, 0x1000); u64(&b, 0x2000);
	u32x2(&b, 8, 1); u64(&b, 4711); u64(&b, 2);
	u32x2(&b, 5, 2);
	bytes8(&b, path, sizeof(path));
	sid(&b, s);
	decode_ok(fin(&b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER), s, &o, "MMAP2 with inode");
	ok(o.type == SREC_MMAP && o.mmap.start == 0x7f0000000000ull && o.mmap.len == 0x1000 &&
	   o.mmap.pgoff == 0x2000 && o.mmap.has_inode && o.mmap.maj == 8 && o.mmap.min == 1 &&
	   o.mmap.ino == 4711 && o.mmap.ino_generation == 2 && o.mmap.prot == 5 &&
	   o.mmap.flags == 2 && !strcmp(o.mmap.filename, path) && !o.mmap.has_build_id,
	   "MMAP2 fields and file name");
	if (s)
		ok(perf_record_peek_id((struct perf_event_header *)b.w, true, &id) == 0 && id == 88,
		   "peek the identifier of a side-band record");
	{
		struct perf_layout l = { .sample_type = ST_SID, .sample_id_all = s };
		uint64_t t = 0;
		int rc = perf_record_peek_time((struct perf_event_header *)b.w, &l, &t);

		ok(s ? rc == 0 && t == 5555 : rc == -1, "peek the time of a side-band record%s",
		   s ? " in its sample_id" : ": none without sample_id");
	}

	rb_init(&b);
	u32x2(&b, 100, 101); u64(&b, 0x400000); u64(&b, 0x1000); u64(&b, 0);
	bytes8(&b, bid, sizeof(bid));
	u32x2(&b, 5, 2);
	bytes8(&b, "/bin/true", 10);
	sid(&b, s);
	decode_ok(fin(&b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID),
		  s, &o, "MMAP2 with build id");
	ok(o.mmap.has_build_id && o.mmap.build_id_size == 20 && o.mmap.build_id[0] == 0xde &&
	   o.mmap.build_id[3] == 0xef && !o.mmap.has_inode, "build id read");

	rb_init(&b);
	u32x2(&b, 1, 1); u64(&b, 0xffffffff81000000ull); u64(&b, 0x1000000); u64(&b, 0);
	bytes8(&b, "[kernel.kallsyms]_text", 23);
	sid(&b, s);
	decode_ok(fin(&b, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL), s, &o, "MMAP");
	ok(o.mmap.cpumode == PERF_RECORD_MISC_KERNEL && !strcmp(o.mmap.filename, "[kernel.kallsyms]_text") &&
	   o.mmap.prot == 0, "MMAP of the kernel");

	rb_init(&b);
	u32x2(&b, 200, 201);
	bytes8(&b, "stress-ng", 10);
	sid(&b, s);
	decode_ok(fin(&b, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC), s, &o, "COMM");
	ok(o.type == SREC_COMM && o.comm.exec && o.comm.pid == 200 && !strcmp(o.comm.comm, "stress-ng"),
	   "COMM after exec");

	rb_init(&b);
	u32x2(&b, 300, 200); u32x2(&b, 301, 201); u64(&b, 123);
	sid(&b, s);
	decode_ok(fin(&b, PERF_RECORD_FORK, 0), s, &o, "FORK");
	ok(o.type == SREC_FORK && o.task.pid == 300 && o.task.ppid == 200 && o.task.tid == 301 &&
	   o.task.ptid == 201 && o.task.time == 123, "FORK fields");
	decode_ok(fin(&b, PERF_RECORD_EXIT, 0), s, &o, "EXIT");
	ok(o.type == SREC_EXIT, "EXIT type");

	rb_init(&b);
	u64(&b, 88); u64(&b, 1234);
	sid(&b, s);
	decode_ok(fin(&b, PERF_RECORD_LOST, 0), s, &o, "LOST");
	ok(o.type == SREC_LOST && o.lost.id == 88 && o.lost.lost == 1234, "LOST count");

	rb_init(&b);
	u64(&b, 17);
	sid(&b, s);
	decode_ok(fin(&b, PERF_RECORD_LOST_SAMPLES, 0), s, &o, "LOST_SAMPLES");
	ok(o.type == SREC_LOST_SAMPLES && o.lost.lost == 17, "LOST_SAMPLES count");

	rb_init(&b);
	u64(&b, 999); u64(&b, 88); u64(&b, 89);
	sid(&b, s);
	decode_ok(fin(&b, PERF_RECORD_THROTTLE, 0), s, &o, "THROTTLE");
	ok(o.type == SREC_THROTTLE && o.throttle.time == 999 && o.throttle.id == 88 &&
	   o.throttle.stream_id == 89, "THROTTLE fields");
	decode_ok(fin(&b, PERF_RECORD_UNTHROTTLE, 0), s, &o, "UNTHROTTLE");
	ok(o.type == SREC_UNTHROTTLE, "UNTHROTTLE type");
}

static void test_malformed_side_band(void)
{
	struct perf_layout l = { .sample_type = ST_SID, .sample_id_all = true };
	struct sample_record o;
	struct pf_error err = { 0 };
	struct rb b;
	unsigned char bid[24] = { 21 };

	rb_init(&b);
	u32x2(&b, 1, 1); u64(&b, 0); u64(&b, 0); u64(&b, 0);
	u64(&b, 0x6161616161616161ull); /* "aaaaaaaa", no NUL before the trailer */
	sid(&b, 1);
	ok(perf_record_decode(fin(&b, PERF_RECORD_MMAP, 0), &l, &o, &err) == -1 &&
	   strstr(err.msg, "PERF_RECORD_MMAP") && strstr(err.msg, "unterminated"),
	   "unterminated file name: %s", err.msg);

	rb_init(&b);
	u32x2(&b, 1, 1); u64(&b, 0); u64(&b, 0); u64(&b, 0);
	bytes8(&b, bid, sizeof(bid));
	u32x2(&b, 0, 0);
	bytes8(&b, "x", 2);
	sid(&b, 1);
	ok(perf_record_decode(fin(&b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_MMAP_BUILD_ID), &l, &o,
			      &err) == -1, "build id of 21 bytes refused: %s", err.msg);

	rb_init(&b);
	u64(&b, 1);
	ok(perf_record_decode(fin(&b, PERF_RECORD_LOST, 0), &l, &o, &err) == -1 &&
	   strstr(err.msg, "sample_id"), "LOST too short for its trailer: %s", err.msg);
}

static void test_ignored(void)
{
	struct perf_layout l = { .sample_type = ST_SID, .sample_id_all = true };
	struct sample_record o;
	struct pf_error err = { 0 };
	struct rb b;
	uint64_t id;

	rb_init(&b);
	sid(&b, 1);
	ok(perf_record_decode(fin(&b, PERF_RECORD_SWITCH, 0), &l, &o, &err) == 0 && o.type == SREC_NONE,
	   "PERF_RECORD_SWITCH is not used: 0, SREC_NONE");
	rb_init(&b);
	u64(&b, 1);
	ok(perf_record_decode(fin(&b, 70, 0), &l, &o, &err) == 0, "a tool-synthesized type (70) is skipped");
	ok(perf_record_peek_id((struct perf_event_header *)b.w, true, &id) == -1,
	   "and has no identifier to peek");
	ok(perf_sample_fields(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_WEIGHT_STRUCT) ==
	   (SAMPLE_F_ID | SAMPLE_F_WEIGHT | SAMPLE_F_INS_LAT | SAMPLE_F_P_STAGE_CYC), "perf_sample_fields mapping");
	is_str(perf_record_type_name(PERF_RECORD_MMAP2), "PERF_RECORD_MMAP2", "type names");
}

static void test_layout_from_attr(void)
{
	struct perf_event_attr a;
	struct perf_layout l;

	memset(&a, 0, sizeof(a));
	a.sample_type = ST_BASIC;
	a.read_format = PERF_FORMAT_ID;
	a.sample_id_all = 1;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	perf_layout_from_attr(&l, &a, 6);
	ok(l.sample_type == ST_BASIC && l.read_format == PERF_FORMAT_ID && l.sample_id_all &&
	   l.branch_sample_type == PERF_SAMPLE_BRANCH_ANY && l.evidx == 6, "layout from a perf_event_attr");
}

int main(void)
{
	test_basic_sample();
	test_full_sample();
	test_overruns();
	test_other_samples();
	test_side_band(0);
	test_side_band(1);
	test_malformed_side_band();
	test_ignored();
	test_layout_from_attr();
	return tap_done();
}
