/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pfmon sample file: round trip of every record type, truncation at every
 * byte offset, corruption of every byte, hand-made malformed chunks, writer
 * errors, and the bytes-per-sample figure against perf.data.
 */
#include <config.h>

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/util.h"
#include "sample/smpl_codec.h"
#include "sample/smpl_file.h"
#include "sample/smpl_format.h"
#include "tap.h"

#define F_BASIC (SAMPLE_F_IP | SAMPLE_F_TID | SAMPLE_F_TIME | SAMPLE_F_CPU | SAMPLE_F_PERIOD)

static char tmpdir[] = "/tmp/pfmon-smpl-XXXXXX";

static char *tmp_path(const char *name)
{
	return xasprintf("%s/%s", tmpdir, name);
}

static char *argv0[] = { "pfmon", "--smpl-outfile", "s.pfs", "--", "ls", "-l" };
static struct smpl_event events0[] = {
	{ .name = "cpu-clock", .fields = F_BASIC, .attr_type = 1, .attr_config = 0,
	  .sample_type = 0x187, .period = 1000000, .random_mask = 0xffff },
	{ .name = "MEM_LOAD_RETIRED.L3_MISS", .fields = SAMPLE_F_ALL, .attr_type = 4,
	  .attr_config = 0x1d3, .sample_type = 0x1f7ff, .branch_sample_type = 0x2c801, .freq = true, .period = 4000,
	  .n_reads = 2, .reads = { 0, 2 } },
	{ .name = "page-faults", .attr_type = 1, .attr_config = 2, .counting = true },
};

static void test_header(struct smpl_header *h)
{
	memset(h, 0, sizeof(*h));
	h->created_ns = 1700000000123456789ull;
	h->clock_ns = 987654321;
	h->clockid = -1;
	h->argc = ARRAY_SIZE(argv0);
	h->argv = argv0;
	h->nr_events = ARRAY_SIZE(events0);
	h->events = events0;
	h->has_job = true; /* minor version 4 */
	h->rank = 5;
	h->size = 64;
	h->host = (char *)"node017";
	h->job_id = (char *)"424242";
	h->launcher = (char *)"slurm";
	h->max_branches = 32; /* minor version 6 */
}

/* --- the records of the round trip --- */

static const uint64_t chain[] = {
	(uint64_t)-128, 0xffffffff81001234ull, 0xffffffff81000100ull, (uint64_t)-512,
	0x401234, 0x401000, 0x7f0012345678ull, 0,
};
static const struct sample_branch branches[] = {
	{ .from = 0x401100, .to = 0x401200, .flags = SAMPLE_BR_MISPRED | (12ull << SAMPLE_BR_CYCLES_SHIFT) },
	{ .from = 0x401050, .to = 0x401090, .flags = SAMPLE_BR_PREDICTED },
	{ .from = 0x7f0000001000ull, .to = 0x401000, .flags = 0 },
};

static struct sample_record recs[32];
static size_t nrecs;

static struct sample_record *add(enum sample_rec_type t)
{
	struct sample_record *r = &recs[nrecs++];

	memset(r, 0, sizeof(*r));
	r->type = t;
	return r;
}

static void basic_sample(uint64_t ip, uint32_t pid, uint32_t tid, uint64_t time, uint32_t cpu,
			 uint64_t period, uint8_t mode)
{
	struct sample *s = &add(SREC_SAMPLE)->sample;

	s->fields = F_BASIC;
	s->evidx = 0;
	s->cpumode = mode;
	s->ip = ip;
	s->pid = pid;
	s->tid = tid;
	s->time = time;
	s->cpu = cpu;
	s->period = period;
}

/* a user context (--call-graph=dwarf): x86-64 registers, sp the 8th, and a
 * stack whose outer part stays the same from sample to sample (stored as a
 * run copied from the thread's previous stack) while its top changes */
static const uint64_t user_regs[17] = {
	0, (uint64_t)-1, 42, 0x7ffd00001000ull, 0x55550000abcdull, 7, 0x7ffd00000f80ull, 0x7ffd00000f00ull,
	0x401234, 1, 2, 3, 0x7ffd00000f10ull, 0x8000000000000000ull, 0x7fffffffffffffffull, 0x55550000aaaaull, 9,
};
static uint8_t user_stack[2][512];

static void user_context(struct sample *s, uint32_t nchain)
{
	uint8_t *st = user_stack[!nchain];

	for (size_t i = 0; i < sizeof(user_stack[0]); i++)
		st[i] = (uint8_t)(i < 64 ? i * nchain : i * 7);
	s->regs_abi = 2; /* PERF_SAMPLE_REGS_ABI_64 */
	s->regs_mask = SAMPLE_USER_REGS_X86_64;
	s->regs = user_regs;
	s->stack = st;
	s->stack_size = (uint32_t)sizeof(user_stack[0]) - !nchain * 8;
}

static void full_sample(uint32_t nchain, uint32_t nbr)
{
	struct sample *s = &add(SREC_SAMPLE)->sample;

	s->fields = SAMPLE_F_ALL;
	s->evidx = 1;
	s->cpumode = 2;
	s->exact_ip = true;
	s->ip = 0x401234;
	s->pid = 4242;
	s->tid = 4250;
	s->time = 5000000123ull;
	s->cpu = 3;
	s->period = 100003;
	s->id = 77;
	s->stream_id = 78;
	s->addr = 0x7ffd12345678ull;
	s->weight = 245;
	s->ins_lat = 17;
	s->p_stage_cyc = 9;
	s->data_src = 0x68100142ull;
	s->phys_addr = 0x12345000ull;
	s->read_nr = 2;
	s->read[0] = 123456789012ull;
	s->read[1] = nchain;
	s->callchain_nr = nchain;
	s->callchain = nchain ? chain : NULL;
	s->branch_nr = nbr;
	s->branches = nbr ? branches : NULL;
	s->branch_hw_idx = nbr ? 29 : UINT64_MAX;
	user_context(s, nchain);
}

static void build_records(void)
{
	struct sample_record *r;

	nrecs = 0;
	r = add(SREC_KERNEL);
	r->kernel = (struct sample_kernel){ .build_id_size = 20, .release = "6.1.102-1.182.amzn2023.x86_64",
					    .boot_id = "fdf43622-59df-48d2-aee8-da76da170b07" };
	memcpy(r->kernel.build_id, "\x48\xdc\x54\x0c\x8b\x76\x39\x38\x04\xca\x80\x88\xdb\xfa\x7d\x42\x91\x1a\x94\x44", 20);
	r = add(SREC_COMM);
	r->sid = (struct sample_id){ .fields = SAMPLE_F_TID | SAMPLE_F_TIME | SAMPLE_F_CPU,
				     .pid = 4242, .tid = 4242, .time = 4999999000ull, .cpu = 1 };
	r->comm = (struct sample_comm){ .pid = 4242, .tid = 4242, .exec = true, .comm = "ls" };
	r = add(SREC_MMAP);
	r->sid = (struct sample_id){ .fields = SAMPLE_F_TIME, .time = 4999999100ull };
	r->mmap = (struct sample_mmap){ .pid = 4242, .tid = 4242, .start = 0x400000, .len = 0x21000,
					.pgoff = 0, .cpumode = 2, .has_inode = true, .maj = 8, .min = 1,
					.ino = 1234567, .ino_generation = 3, .prot = 5, .flags = 2,
					.filename = "/usr/bin/ls" };
	r = add(SREC_MMAP);
	r->mmap = (struct sample_mmap){ .pid = UINT32_MAX, .tid = UINT32_MAX, .start = 0xffffffff81000000ull,
					.len = 0x1000000, .pgoff = 0xffffffff81000000ull, .cpumode = 1,
					.data = true, .has_build_id = true, .build_id_size = 20,
					.filename = "[kernel.kallsyms]_text" };
	memcpy(r->mmap.build_id, "\x01\x23\x45\x67\x89\xab\xcd\xef\xfe\xdc\xba\x98\x76\x54\x32\x10\x00\xff\x11\x22", 20);
	r = add(SREC_FORK);
	r->task = (struct sample_task){ .pid = 4242, .ppid = 4241, .tid = 4250, .ptid = 4242, .time = 5000000000ull };
	basic_sample(0x401234, 4242, 4242, 5000001000ull, 0, 1000000, 2);
	basic_sample(0x401290, 4242, 4250, 5000000500ull, 1, 1000000, 2); /* time goes back */
	basic_sample(0xffffffff81001234ull, 1, 0, 5000002000ull, 3, 999, 1);
	full_sample(ARRAY_SIZE(chain), ARRAY_SIZE(branches));
	full_sample(0, 0);
	r = add(SREC_LOST);
	r->sid = (struct sample_id){ .fields = SAMPLE_F_ID | SAMPLE_F_STREAM_ID, .id = 77, .stream_id = 78 };
	r->lost = (struct sample_lost){ .id = 77, .lost = 12345 };
	r = add(SREC_LOST_SAMPLES);
	r->lost = (struct sample_lost){ .lost = 3 };
	r = add(SREC_THROTTLE);
	r->throttle = (struct sample_throttle){ .time = 5000003000ull, .id = 77, .stream_id = 78, .evidx = 1 };
	r = add(SREC_UNTHROTTLE);
	r->throttle = (struct sample_throttle){ .time = 5000004000ull, .id = 77, .evidx = UINT32_MAX };
	basic_sample(UINT64_MAX, UINT32_MAX, 0, 0, UINT32_MAX, UINT64_MAX, 7);
	basic_sample(0, 0, UINT32_MAX, UINT64_MAX, 0, 0, 0);
	r = add(SREC_KSYM);
	r->ksym = (struct sample_ksym){ 0xffffffff81a2b3c0ull, 0xffffffff81a2b400ull, "clear_page_erms", NULL };
	r = add(SREC_KSYM);
	r->ksym = (struct sample_ksym){ 0xffffffffc0a01230ull, 0xffffffffc0a01230ull, "ext4_file_write_iter", "ext4" };
	r = add(SREC_EXIT);
	r->sid = (struct sample_id){ .fields = SAMPLE_ID_FIELDS, .pid = 1, .tid = 2, .time = 3,
				     .cpu = 4, .id = 5, .stream_id = 6 };
	r->task = (struct sample_task){ .pid = 4242, .ppid = 4241, .tid = 4242, .ptid = 4241, .time = 5000009000ull };
}

/* --- comparing --- */

static int verbose_diff = 1;

static int diff(const char *what)
{
	if (verbose_diff)
		printf("#   differs: %s\n", what);
	return 0;
}

#define SAME(f) if (g->f != w->f) return diff(#f)

static int same_sample(const struct sample *g, const struct sample *w)
{
	SAME(fields); SAME(evidx); SAME(cpumode); SAME(exact_ip); SAME(ip); SAME(pid); SAME(tid);
	SAME(time); SAME(cpu); SAME(period); SAME(id); SAME(stream_id); SAME(addr);
	SAME(weight); SAME(ins_lat); SAME(p_stage_cyc); SAME(data_src); SAME(phys_addr);
	SAME(callchain_nr); SAME(branch_nr); SAME(branch_hw_idx); SAME(read_nr);
	if (memcmp(g->read, w->read, g->read_nr * 8))
		return diff("read counts");
	if (g->callchain_nr && memcmp(g->callchain, w->callchain, g->callchain_nr * 8))
		return diff("callchain");
	if (g->branch_nr && memcmp(g->branches, w->branches, g->branch_nr * sizeof(*g->branches)))
		return diff("branches");
	SAME(regs_abi); SAME(regs_mask); SAME(stack_size);
	if (g->regs_abi && memcmp(g->regs, w->regs, (size_t)__builtin_popcountll(g->regs_mask) * 8))
		return diff("user registers");
	if (g->stack_size && memcmp(g->stack, w->stack, g->stack_size))
		return diff("user stack");
	return 1;
}

static int same_mmap(const struct sample_mmap *g, const struct sample_mmap *w)
{
	SAME(pid); SAME(tid); SAME(start); SAME(len); SAME(pgoff); SAME(cpumode); SAME(data);
	SAME(has_build_id); SAME(has_inode); SAME(maj); SAME(min); SAME(ino);
	SAME(ino_generation); SAME(build_id_size); SAME(prot); SAME(flags);
	if (memcmp(g->build_id, w->build_id, g->build_id_size))
		return diff("build_id");
	if (strcmp(g->filename, w->filename))
		return diff("filename");
	return 1;
}

static int same_rest(const struct sample_record *gr, const struct sample_record *wr)
{
	switch (wr->type) {
	case SREC_COMM: {
		const struct sample_comm *g = &gr->comm, *w = &wr->comm;

		SAME(pid); SAME(tid); SAME(exec);
		return strcmp(g->comm, w->comm) ? diff("comm") : 1;
	}
	case SREC_FORK:
	case SREC_EXIT: {
		const struct sample_task *g = &gr->task, *w = &wr->task;

		SAME(pid); SAME(ppid); SAME(tid); SAME(ptid); SAME(time);
		return 1;
	}
	case SREC_LOST:
	case SREC_LOST_SAMPLES: {
		const struct sample_lost *g = &gr->lost, *w = &wr->lost;

		SAME(id); SAME(lost);
		return 1;
	}
	case SREC_THROTTLE:
	case SREC_UNTHROTTLE: {
		const struct sample_throttle *g = &gr->throttle, *w = &wr->throttle;

		SAME(time); SAME(id); SAME(stream_id); SAME(evidx);
		return 1;
	}
	case SREC_KSYM: {
		const struct sample_ksym *g = &gr->ksym, *w = &wr->ksym;

		SAME(addr); SAME(end);
		if (strcmp(g->name, w->name) || !g->module != !w->module || (g->module && strcmp(g->module, w->module)))
			return diff("kernel symbol name or module");
		return 1;
	}
	case SREC_KERNEL: {
		const struct sample_kernel *g = &gr->kernel, *w = &wr->kernel;

		SAME(build_id_size);
		if (memcmp(g->build_id, w->build_id, g->build_id_size))
			return diff("build_id");
		return strcmp(g->boot_id, w->boot_id) || strcmp(g->release, w->release) ?
			       diff("boot_id or release") : 1;
	}
	default:
		return diff("unexpected type");
	}
}

static int same_record(const struct sample_record *gr, const struct sample_record *wr)
{
	if (gr->type != wr->type)
		return diff("type");
	if (wr->type == SREC_SAMPLE)
		return same_sample(&gr->sample, &wr->sample);
	{
		const struct sample_id *g = &gr->sid, *w = &wr->sid;

		SAME(fields); SAME(pid); SAME(tid); SAME(time); SAME(cpu); SAME(id); SAME(stream_id);
	}
	if (wr->type == SREC_MMAP)
		return same_mmap(&gr->mmap, &wr->mmap);
	return same_rest(gr, wr);
}

/* --- writing and reading files --- */

/* write recs, flushing a chunk every flush_every records (0: never) */
static int write_recs(const char *path, size_t flush_every, struct pf_error *err)
{
	struct smpl_header h;
	struct smpl_writer *w;
	size_t i;

	test_header(&h);
	w = smpl_writer_open(path, &h, err);
	if (!w)
		return -1;
	for (i = 0; i < nrecs; i++) {
		if (smpl_write_record(w, &recs[i], err))
			goto fail;
		if (flush_every && (i + 1) % flush_every == 0 && smpl_writer_flush(w, err))
			goto fail;
	}
	return smpl_writer_close(w, err);
fail:
	smpl_writer_close(w, NULL);
	return -1;
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *b;
	struct stat st;

	if (!f || fstat(fileno(f), &st))
		return NULL;
	b = xmalloc((size_t)st.st_size + 1);
	*len = fread(b, 1, (size_t)st.st_size, f);
	fclose(f);
	return b;
}

/* a reader over the first len bytes of buf (fmemopen refuses 0 bytes) */
static struct smpl_reader *open_mem(const unsigned char *buf, size_t len, struct pf_error *err)
{
	FILE *f = len ? fmemopen((void *)buf, len, "r") : fopen("/dev/null", "r");

	if (!f) {
		pf_error_set(err, PF_E_SYSTEM, "fmemopen", strerror(errno));
		return NULL;
	}
	return smpl_reader_fopen(f, "mem.pfs", err);
}

/*
 * Read everything; every record must equal recs[i] (no garbage before an
 * error).  Returns the final smpl_reader_next() result (or -1 when open
 * failed), the record count in *n, and the reader in *rp (caller closes).
 */
static int read_back(struct smpl_reader *r, size_t *n, int *all_same, uint64_t *ends,
		     struct pf_error *err)
{
	struct sample_record out;
	int rc;

	*n = 0;
	*all_same = 1;
	while ((rc = smpl_reader_next(r, &out, err)) == 1) {
		if (out.type == SREC_END)
			continue;
		if (*n >= nrecs || !same_record(&out, &recs[*n]))
			*all_same = 0;
		if (ends && *n < nrecs)
			ends[*n] = smpl_reader_tell(r);
		(*n)++;
	}
	return rc;
}

static void test_codec(void)
{
	struct obuf o = { 0 };
	struct ibuf ib;
	static const uint64_t u[] = { 0, 1, 127, 128, 16383, 16384, UINT32_MAX, 1ull << 63, UINT64_MAX };
	static const int64_t sv[] = { 0, -1, 1, -64, 64, INT64_MIN, INT64_MAX };
	static const unsigned char overlong[11] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f };
	size_t i;
	int good = 1;
	uint64_t v;
	int64_t s;

	is_u64(crc32_buf("123456789", 9), 0xcbf43926, "crc32 check value");
	for (i = 0; i < ARRAY_SIZE(u); i++)
		ob_varint(&o, u[i]);
	for (i = 0; i < ARRAY_SIZE(sv); i++)
		ob_svarint(&o, sv[i]);
	ib.p = o.b;
	ib.end = o.b + o.len;
	for (i = 0; i < ARRAY_SIZE(u); i++)
		good &= !ib_varint(&ib, &v) && v == u[i];
	for (i = 0; i < ARRAY_SIZE(sv); i++)
		good &= !ib_svarint(&ib, &s) && s == sv[i];
	ok(good && ib_left(&ib) == 0, "varint and zigzag round trip at the edges");
	ib.p = overlong;
	ib.end = overlong + 10;
	ok(ib_varint(&ib, &v) == -1, "a 10-byte varint above 2^64 is refused");
	ib.p = overlong;
	ib.end = overlong + 3;
	ok(ib_varint(&ib, &v) == -1 && ib.p == overlong, "a varint cut short is refused, cursor kept");
	ob_free(&o);
}

static void test_round_trip(void)
{
	char *path = tmp_path("round.pfs");
	struct pf_error err = { 0 };
	struct smpl_reader *r;
	const struct smpl_header *h;
	const struct smpl_status *st;
	struct sample_record out;
	size_t i, n = 0;
	int rc;

	build_records();
	ok(write_recs(path, 4, &err) == 0, "write every record type (%zu records) %s", nrecs, err.msg);
	r = smpl_reader_open(path, &err);
	ok(r != NULL, "reopen %s", err.msg);
	if (!r) {
		free(path);
		return;
	}
	h = smpl_reader_header(r);
	ok(h->version_major == SMPL_VERSION_MAJOR && h->version_minor == SMPL_VERSION_MINOR,
	   "header version %u.%u", h->version_major, h->version_minor);
	is_u64(h->created_ns, 1700000000123456789ull, "header creation time");
	ok(h->clock_ns == 987654321 && h->clockid == -1, "header clock and clockid");
	ok(h->argc == ARRAY_SIZE(argv0) && !strcmp(h->argv[0], "pfmon") && !strcmp(h->argv[5], "-l"),
	   "header command line");
	ok(h->nr_events == 3 && !strcmp(h->events[1].name, events0[1].name), "header event names");
	ok(h->events[0].fields == F_BASIC && h->events[1].fields == SAMPLE_F_ALL &&
	   h->events[1].sample_type == 0x1f7ff && h->events[1].freq && h->events[1].period == 4000 &&
	   h->events[1].attr_type == 4 && h->events[1].attr_config == 0x1d3 && !h->events[0].freq,
	   "header event fields, sample_type, attr, period/freq");
	ok(h->events[0].random_mask == 0xffff && h->events[1].random_mask == 0,
	   "header random period masks (minor version 1)");
	ok(h->events[1].n_reads == 2 && h->events[1].reads[0] == 0 && h->events[1].reads[2 - 1] == 2 &&
		   h->events[0].n_reads == 0 && h->events[2].counting && !h->events[1].counting,
	   "header read lists and counting events (minor version 1)");
	ok(h->has_job && h->rank == 5 && h->size == 64 && !strcmp(h->host, "node017") &&
	   !strcmp(h->job_id, "424242") && !strcmp(h->launcher, "slurm"),
	   "header job: rank, size, host, job id, launcher (minor version 4)");
	ok(h->events[1].branch_sample_type == 0x2c801 && h->events[0].branch_sample_type == 0 && h->max_branches == 32,
	   "header branch sample types and branch stack depth (minor version 6)");
	while ((rc = smpl_reader_next(r, &out, &err)) == 1 && out.type != SREC_END) {
		ok(n < nrecs && same_record(&out, &recs[n]), "record %zu (type %d) round trip", n, (int)out.type);
		n++;
	}
	ok(rc == 1 && out.type == SREC_END && out.end.end_ns > 1700000000000000000ull, "end record read, with the end time (minor version 4)");
	is_u64(n, nrecs, "every record read back");
	st = smpl_reader_status(r);
	ok(st->complete && !st->truncated, "status: complete, not truncated");
	/* the optional kernel and kernel symbol records are not counted */
	ok(st->end.samples == 7 && st->end.lost == 12348 && st->end.throttled == 1 &&
	   st->end.records == nrecs - 3, "end totals: samples 7, lost 12348, throttled 1, records %zu",
	   nrecs - 3);
	ok(smpl_reader_next(r, &out, &err) == 0 && smpl_reader_next(r, &out, &err) == 0,
	   "clean end after the end record, twice");
	smpl_reader_close(r);
	for (i = 0; i < 2; i++) {
		/* one big chunk, and one chunk per record */
		size_t every = i ? 1 : 0;
		int same;

		write_recs(path, every, &err);
		r = smpl_reader_open(path, &err);
		rc = r ? read_back(r, &n, &same, NULL, &err) : -1;
		ok(rc == 0 && n == nrecs && same && smpl_reader_status(r)->complete,
		   "round trip with a flush every %zu records", every);
		smpl_reader_close(r);
	}
	unlink(path);
	free(path);
}

/* offsets where chunks start (and the file end), from the chunk headers */
static size_t chunk_bounds(const unsigned char *b, size_t len, size_t hdr, size_t *out, size_t max)
{
	size_t n = 0, off = hdr;

	while (off + SMPL_CHUNK_HEADER_SIZE <= len && n < max) {
		out[n++] = off;
		off += SMPL_CHUNK_HEADER_SIZE + get_le32(b + off);
	}
	if (n < max)
		out[n++] = off;
	return n;
}

static int is_bound(const size_t *bounds, size_t nb, size_t off)
{
	size_t i;

	for (i = 0; i < nb; i++)
		if (bounds[i] == off)
			return 1;
	return 0;
}

static void test_truncation(void)
{
	char *path = tmp_path("trunc.pfs");
	struct pf_error err = { 0 };
	unsigned char *b;
	size_t len, cut, hdr, nb, bounds[64];
	uint64_t ends[32];
	struct smpl_reader *r;
	size_t n;
	int same;

	build_records();
	write_recs(path, 3, &err);
	b = slurp(path, &len);
	r = open_mem(b, len, &err);
	hdr = (size_t)smpl_reader_tell(r);
	read_back(r, &n, &same, ends, &err);
	smpl_reader_close(r);
	nb = chunk_bounds(b, len, hdr, bounds, ARRAY_SIZE(bounds));
	printf("# truncating a %zu-byte file (header %zu bytes, %zu chunks) at every offset\n",
	       len, hdr, nb - 1);
	for (cut = 0; cut < len; cut++) {
		size_t want = 0, i;
		int rc;

		memset(&err, 0, sizeof(err));
		r = open_mem(b, cut, &err);
		if (cut < hdr) {
			ok(!r && err.code == PF_E_BAD_FILE && strstr(err.msg, "mem.pfs") &&
			   (strstr(err.msg, "truncated header") || strstr(err.msg, "empty file")),
			   "cut at %zu (in the header): %s", cut, err.msg);
			smpl_reader_close(r);
			continue;
		}
		for (i = 0; i < nrecs; i++)
			if (ends[i] <= cut)
				want = i + 1;
		rc = r ? read_back(r, &n, &same, NULL, &err) : -1;
		ok(rc == 0 && n == want && same && !smpl_reader_status(r)->complete &&
		   smpl_reader_status(r)->truncated == !is_bound(bounds, nb, cut),
		   "cut at %zu: %zu complete records read, %struncated", cut, n,
		   r && smpl_reader_status(r)->truncated ? "" : "not ");
		smpl_reader_close(r);
	}
	free(b);
	unlink(path);
	free(path);
}

/* flip bytes everywhere: one error naming the file, never a wrong record */
static void test_corruption(void)
{
	char *path = tmp_path("corrupt.pfs");
	struct pf_error err = { 0 };
	static const unsigned char masks[] = { 0x01, 0x80, 0xff };
	unsigned char *b, *c;
	size_t len, i, m, n;
	int same;

	build_records();
	write_recs(path, 3, &err);
	b = slurp(path, &len);
	c = xmalloc(len);
	printf("# flipping bits of every byte of a %zu-byte file\n", len);
	for (i = 0; i < len; i++) {
		int good = 1;
		char first[PF_ERROR_MSG_MAX] = "";

		for (m = 0; m < ARRAY_SIZE(masks); m++) {
			struct smpl_reader *r;
			struct sample_record out;
			int rc;

			memcpy(c, b, len);
			c[i] ^= masks[m];
			memset(&err, 0, sizeof(err));
			r = open_mem(c, len, &err);
			rc = r ? read_back(r, &n, &same, NULL, &err) : -1;
			good &= rc == -1 && err.code == PF_E_BAD_FILE && !!strstr(err.msg, "'mem.pfs'");
			if (r) {
				struct pf_error again = { 0 };

				good &= same;
				good &= smpl_reader_next(r, &out, &again) == -1 && !strcmp(again.msg, err.msg);
			}
			if (!m)
				snprintf(first, sizeof(first), "%s", err.msg);
			smpl_reader_close(r);
		}
		ok(good, "flip byte %zu: %s", i, first);
	}
	free(b);
	free(c);
	unlink(path);
	free(path);
}

/* The test header's bytes, written once: every crafted file starts with
 * them, and writing a file per crafted case cost an fsync each. */
static const unsigned char *crafted_header(size_t *hlen)
{
	static unsigned char *hdr;
	static size_t len;

	if (!hdr) {
		struct smpl_header h;
		struct smpl_writer *w;
		char *path = tmp_path("craft.pfs");
		struct pf_error err;
		struct smpl_reader *r;

		test_header(&h);
		w = smpl_writer_open(path, &h, &err);
		smpl_writer_close(w, &err);
		hdr = slurp(path, &len);
		/* keep only the header: drop the writer's end chunk */
		r = open_mem(hdr, len, &err);
		len = (size_t)smpl_reader_tell(r);
		smpl_reader_close(r);
		unlink(path);
		free(path);
	}
	*hlen = len;
	return hdr;
}

/* A chunk of raw records at out (NULL: only its size): its sequence
 * record first, unless seq < 0.  Returns its size. */
static size_t put_chunk(unsigned char *out, const unsigned char *payload, size_t plen, int seq)
{
	unsigned char ch[SMPL_CHUNK_HEADER_SIZE], sr[3] = { 0x42, 0x01, (unsigned char)seq };
	size_t slen = seq >= 0 ? sizeof(sr) : 0;
	uint32_t crc = crc32_update(crc32_update(0, sr, slen), payload, plen);

	if (!out)
		return sizeof(ch) + slen + plen;
	put_le32(ch, (uint32_t)(slen + plen));
	put_le32(ch + 4, crc);
	put_le32(ch + 8, crc32_buf(ch, 8));
	memcpy(out, ch, sizeof(ch));
	memcpy(out + sizeof(ch), sr, slen);
	memcpy(out + sizeof(ch) + slen, payload, plen);
	return sizeof(ch) + slen + plen;
}

/* a file made by hand: the test header, then one chunk (number 0) of raw records */
static unsigned char *craft(const unsigned char *payload, size_t plen, size_t *len)
{
	size_t hlen;
	const unsigned char *hdr = crafted_header(&hlen);
	unsigned char *out = xmalloc(hlen + put_chunk(NULL, payload, plen, 0));

	memcpy(out, hdr, hlen);
	*len = hlen + put_chunk(out + hlen, payload, plen, 0);
	return out;
}

static int read_crafted(const unsigned char *payload, size_t plen, size_t *n,
			struct pf_error *err)
{
	size_t len;
	unsigned char *f = craft(payload, plen, &len);
	struct smpl_reader *r = open_mem(f, len, err);
	struct sample_record out;
	int rc = -1;

	*n = 0;
	if (r) {
		while ((rc = smpl_reader_next(r, &out, err)) == 1)
			(*n)++;
		smpl_reader_close(r);
	}
	free(f);
	return rc;
}

/* An Itanium 2 dump's records through the writer and back, across a
 * chunk boundary (delta bases reset): every field as written. */
static void test_ia64_round_trip(void)
{
	char *path = tmp_path("ia64.pfs");
	struct smpl_header h = { .clockid = -1 };
	struct pf_error err = { 0 };
	struct smpl_writer *w = smpl_writer_open(path, &h, &err);
	struct sample_record rec = { .type = SREC_IA64_CONFIG }, out;
	struct ia64_dump_sample want[4];
	struct sample_mmap mm = { .pid = SMPL_IA64_ALL_PIDS, .tid = SMPL_IA64_ALL_PIDS,
				  .start = 0x4000000000000000ull, .len = 0x10000, .pgoff = 0x20,
				  .filename = "/bin/ia64" };
	struct smpl_reader *r;
	int same = 1, n = 0, rc;

	rec.ia64_config = (struct ia64_dump_config){ .has_pmc11 = true, .pmc11 = 0x20008,
						     .has_pmc12 = true, .pmc12 = UINT64_MAX };
	ok(w && !smpl_write_record(w, &rec, &err) && !smpl_write_mmap(w, &mm, NULL, &err),
	   "ia64: configuration and mapping written %s", err.msg);
	memset(want, 0, sizeof(want));
	for (unsigned i = 0; i < 4; i++) {
		struct ia64_dump_sample *s = &want[i];

		s->ip = 0x4000000000000a32ull + i * 0x10 - (i == 3 ? 0x4000000000000000ull : 0);
		s->fields = i == 1 ? 0 : (i == 2 ? IA64_DUMP_F_CPU | IA64_DUMP_F_TIME : 0x1f);
		s->pid = UINT32_MAX - i;
		s->tid = 7;
		s->cpu = 3;
		s->time = i == 2 ? 5 : 1000000 - i; /* time goes backwards too */
		s->period = UINT64_MAX;
		s->pmd_mask = i == 1 ? 0 : (i == 2 ? 0x3ffff : 0x2010c);
		for (unsigned k = 0; k < IA64_DUMP_NR_PMDS; k++)
			s->pmd[k] = (s->pmd_mask & (1u << k)) ? (k * 0x1111111111111111ull) ^ i : 0;
		if (!s->fields) /* the writer stores only what the fields say */
			s->pid = s->tid = s->cpu = 0, s->time = s->period = 0;
		if (s->fields == (IA64_DUMP_F_CPU | IA64_DUMP_F_TIME))
			s->pid = s->tid = 0, s->period = 0;
		rec.type = SREC_IA64_SAMPLE;
		rec.ia64_sample = *s;
		ok(!smpl_write_record(w, &rec, &err) && (i != 1 || !smpl_writer_flush(w, &err)),
		   "ia64: sample %u written %s", i, err.msg);
	}
	ok(!smpl_writer_close(w, &err), "ia64: file closed %s", err.msg);
	r = smpl_reader_open(path, &err);
	ok(r && smpl_reader_header(r)->version_minor >= 3, "ia64: format 1.3 or later");
	rc = smpl_reader_next(r, &out, &err);
	ok(rc == 1 && out.type == SREC_IA64_CONFIG && out.ia64_config.has_pmc11 && !out.ia64_config.has_pmc10 &&
	   out.ia64_config.pmc11 == 0x20008 && out.ia64_config.pmc12 == UINT64_MAX,
	   "ia64: the configuration read back");
	rc = smpl_reader_next(r, &out, &err);
	ok(rc == 1 && out.type == SREC_MMAP && out.mmap.pid == SMPL_IA64_ALL_PIDS && out.mmap.pgoff == 0x20 &&
	   !strcmp(out.mmap.filename, "/bin/ia64"), "ia64: the mapping read back");
	while ((rc = smpl_reader_next(r, &out, &err)) == 1 && out.type == SREC_IA64_SAMPLE) {
		const struct ia64_dump_sample *g = &out.ia64_sample, *s = &want[n];

		same &= n < 4 && g->ip == s->ip && g->fields == s->fields && g->pid == s->pid &&
			g->tid == s->tid && g->cpu == s->cpu && g->time == s->time && g->period == s->period &&
			g->pmd_mask == s->pmd_mask && !memcmp(g->pmd, s->pmd, sizeof(g->pmd));
		n++;
	}
	ok(rc == 1 && out.type == SREC_END && out.end.samples == 0 && same && n == 4,
	   "ia64: the 4 samples read back, the end record counts none (optional records)");
	ok(smpl_reader_next(r, &out, &err) == 0 && smpl_reader_status(r)->complete, "ia64: complete");
	smpl_reader_close(r);
	unlink(path);
	free(path);
}

static void test_crafted(void)
{
	static const struct {
		const char *what;
		unsigned char p[24];
		size_t len;
		const char *want; /* NULL: reads cleanly */
	} rows[] = {
		{ "record type 0", { 0x00, 0x00 }, 2, "unknown record type" },
		{ "unknown record type 0x20", { 0x20, 0x00 }, 2, "unknown record type" },
		{ "unknown optional record 0x7f is skipped", { 0x7f, 0x02, 0xaa, 0xbb, 0x0f, 0x04, 0, 0, 0, 0 }, 10, NULL },
		{ "kernel record, not counted in the totals", { 0x40, 0x07, 0x01, 0xab, 0x00, 0x03, '6', '.', '1', 0x0f, 0x04, 0, 0, 0, 0 }, 15, NULL },
		{ "kernel record with a 65-byte build id", { 0x40, 0x03, 0x41, 0x00, 0x00 }, 5, "bad kernel build id" },
		{ "kernel boot id overruns its record", { 0x40, 0x03, 0x00, 0x25, 0x00 }, 5, "bad kernel boot id" },
		{ "kernel release cut short", { 0x40, 0x04, 0x00, 0x00, 0x05, '6' }, 6, "bad kernel release" },
		{ "kernel symbol, not counted in the totals", { 0x41, 0x05, 0x10, 0x04, 0x01, 'a', 0x00, 0x0f, 0x04, 0, 0, 0, 0 }, 13, NULL },
		{ "kernel symbol without a name", { 0x41, 0x03, 0x10, 0x04, 0x00 }, 5, "bad kernel symbol name" },
		{ "kernel symbol ending past 2^64", { 0x41, 0x0c, 0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x00 }, 14, "bad kernel symbol address or size" },
		{ "binary identity, not counted in the totals", { 0x43, 0x08, 0x02, '/', 'a', 0x00, 0x00, 0x00, 0x00, 0x00, 0x0f, 0x04, 0, 0, 0, 0 }, 16, NULL },
		{ "binary identity without a path", { 0x43, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 }, 8, "bad binary path" },
		{ "binary identity with a 21-byte build-id", { 0x43, 0x04, 0x01, '/', 0x15, 0x00 }, 6, "bad binary build id" },
		{ "Itanium 2 configuration and sample, not counted in the totals", { 0x44, 0x02, 0x02, 0x08, 0x45, 0x03, 0x00, 0x00, 0x20, 0x0f, 0x04, 0, 0, 0, 0 }, 15, NULL },
		{ "Itanium 2 sample without a configuration", { 0x45, 0x03, 0x00, 0x00, 0x20 }, 5, "without an Itanium 2 configuration" },
		{ "Itanium 2 configuration twice", { 0x44, 0x01, 0x00, 0x44, 0x01, 0x00 }, 6, "is not the file's first record" },
		{ "Itanium 2 configuration with PMC13", { 0x44, 0x01, 0x08 }, 3, "bad Itanium 2 register set" },
		{ "Itanium 2 PMC value cut short", { 0x44, 0x01, 0x01 }, 3, "bad Itanium 2 PMC value" },
		{ "Itanium 2 sample with PMD18", { 0x44, 0x01, 0x00, 0x45, 0x06, 0x00, 0x80, 0x80, 0x10, 0x00, 0x00 }, 11, "bad Itanium 2 PMD set" },
		{ "Itanium 2 sample with an unknown field", { 0x44, 0x01, 0x00, 0x45, 0x03, 0x20, 0x00, 0x00 }, 8, "bad Itanium 2 sample fields" },
		{ "Itanium 2 sample without its PMD0", { 0x44, 0x01, 0x00, 0x45, 0x03, 0x00, 0x01, 0x00 }, 8, "bad PMD value" },
		{ "Itanium 2 sample with a pid past 2^32", { 0x44, 0x01, 0x00, 0x45, 0x08, 0x01, 0x00, 0x00, 0x80, 0x80, 0x80, 0x80, 0x10 }, 13, "bad pid, tid or cpu" },
		{ "host sample in an Itanium 2 dump's file", { 0x44, 0x01, 0x00, 0x01, 0x0a, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0 }, 15, "in an Itanium 2 dump's file" },
		{ "record longer than its chunk", { 0x01, 0x7f, 0x00 }, 3, "overruns its chunk" },
		{ "overlong length varint", { 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f }, 11, "overruns its chunk" },
		{ "sample of event 9", { 0x01, 0x02, 0x90, 0x01 }, 4, "event not in the header" },
		{ "sample body cut short", { 0x01, 0x02, 0x00, 0x02 }, 4, "bad pid or tid" },
		{ "pid delta below zero", { 0x01, 0x03, 0x00, 0x00, 0x01 }, 5, "bad pid or tid" },
		{ "callchain length beyond the record", { 0x01, 0x0b, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x7f }, 13, "bad callchain length" },
		{ "unknown sample_id bits", { 0x06, 0x03, 0x80, 0x01, 0x00 }, 5, "sample_id field mask" },
		{ "mmap file name with a NUL", { 0x02, 0x0e, 0x00, 0x00, 0x02, 0, 0, 0, 0, 0, 0, 0, 0x02, 'a', 0, 0 }, 16, "bad mmap file name" },
		{ "end record with wrong totals", { 0x0f, 0x04, 0x05, 0x00, 0x00, 0x05 }, 6, "records are missing" },
		{ "data after the end record", { 0x0f, 0x04, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00 }, 8, "data after the end record" },
	};
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct pf_error err = { 0 };
		int rc = read_crafted(rows[i].p, rows[i].len, &n, &err);

		if (rows[i].want)
			ok(rc == -1 && strstr(err.msg, rows[i].want) && strstr(err.msg, "offset"),
			   "crafted: %s -> %s", rows[i].what, err.msg);
		else
			ok(rc == 0, "crafted: %s (%zu records) %s", rows[i].what, n, err.msg);
	}
}

/* random payloads with a valid CRC: the decoder alone must hold */
static void test_fuzz(void)
{
	unsigned char p[96];
	unsigned seed = 12345;
	int i, clean = 0, errors = 0, bad = 0;

	for (i = 0; i < 3000; i++) {
		struct pf_error err = { 0 };
		size_t n, len = 1 + (size_t)(rand_r(&seed) % (int)sizeof(p)), j;
		int rc;

		for (j = 0; j < len; j++)
			p[j] = (unsigned char)rand_r(&seed);
		/* mostly valid record codes, to get past the first check */
		p[0] = (unsigned char)(1 + rand_r(&seed) % 9);
		rc = read_crafted(p, len, &n, &err);
		if (rc == 0)
			clean++;
		else if (rc == -1 && err.msg[0])
			errors++;
		else
			bad++;
	}
	ok(bad == 0, "3000 random chunks with valid CRCs: %d read, %d clear errors, no crash", clean,
	   errors);
}

static void test_magic_version(void)
{
	char *path = tmp_path("mv.pfs");
	struct pf_error err = { 0 };
	unsigned char *b;
	size_t len;
	struct smpl_reader *r;

	build_records();
	write_recs(path, 0, &err);
	b = slurp(path, &len);
	b[8] = 2; /* major version 2: refused before the checksum is looked at */
	r = open_mem(b, len, &err);
	ok(!r && strstr(err.msg, "unsupported format version 2."), "newer major version: %s", err.msg);
	b[8] = 1;
	/* a minor version 0 reader's view: the masks are bytes it skips */
	b[10] = 0;
	put_le32(b + get_le32(b + 16) - 4, crc32_buf(b, get_le32(b + 16) - 4));
	r = open_mem(b, len, &err);
	ok(r && smpl_reader_header(r)->version_minor == 0 && smpl_reader_header(r)->events[0].random_mask == 0 &&
		   smpl_reader_header(r)->events[0].period == 1000000,
	   "a minor version 0 file reads, without random masks %s", err.msg);
	if (r)
		smpl_reader_close(r);
	b[12] = 1;
	b[15] = 4;
	r = open_mem(b, len, &err);
	ok(!r && strstr(err.msg, "byte order"), "byte-swapped marker: %s", err.msg);
	memcpy(b, "PERFILE2", 8);
	r = open_mem(b, len, &err);
	/* handed to the perf.data reader, which finds no perf.data header */
	ok(!r && strstr(err.msg, "the event attributes lie outside the file"), "perf.data magic: %s",
	   err.msg);
	r = smpl_reader_open("/nonexistent/x.pfs", &err);
	ok(!r && err.code == PF_E_INPUT && strstr(err.msg, "/nonexistent/x.pfs"), "missing file: %s",
	   err.msg);
	free(b);
	unlink(path);
	free(path);
}

/* remove the middle chunk: each chunk decodes alone, the end record notices */
static void test_missing_chunk(void)
{
	char *path = tmp_path("gap.pfs");
	struct pf_error err = { 0 };
	unsigned char *b;
	size_t len, hdr, nb, bounds[64], n;
	struct smpl_reader *r;
	int rc, same;

	build_records();
	write_recs(path, 4, &err);
	b = slurp(path, &len);
	r = open_mem(b, len, &err);
	hdr = (size_t)smpl_reader_tell(r);
	smpl_reader_close(r);
	nb = chunk_bounds(b, len, hdr, bounds, ARRAY_SIZE(bounds));
	verbose_diff = 0; /* the records after the gap differ, as they should */
	memmove(b + bounds[1], b + bounds[2], len - bounds[2]);
	len -= bounds[2] - bounds[1];
	r = open_mem(b, len, &err);
	rc = read_back(r, &n, &same, NULL, &err);
	ok(nb > 3 && rc == -1 && strstr(err.msg, "chunk 2 at offset") &&
		   strstr(err.msg, "where chunk 1 belongs"),
	   "a dropped chunk: %s", err.msg);
	verbose_diff = 1;
	smpl_reader_close(r);
	free(b);
	unlink(path);
	free(path);
}

/* the error reading a file made of the test file's chunks in this order */
static void read_reordered(const unsigned char *b, const size_t *bounds, const size_t *order, size_t n,
			   struct pf_error *err)
{
	size_t len = bounds[0], got;
	unsigned char *c = xmalloc(bounds[0] + (bounds[n] - bounds[0]) * 2);
	struct smpl_reader *r;
	int same_flag;

	memcpy(c, b, bounds[0]);
	for (size_t i = 0; i < n; i++) {
		size_t k = order[i];

		memcpy(c + len, b + bounds[k], bounds[k + 1] - bounds[k]);
		len += bounds[k + 1] - bounds[k];
	}
	memset(err, 0, sizeof(*err));
	r = open_mem(c, len, err);
	if (r)
		read_back(r, &got, &same_flag, NULL, err);
	smpl_reader_close(r);
	free(c);
}

/* chunks swapped or repeated: each checks out alone, the numbers do not */
static void test_chunk_order(void)
{
	char *path = tmp_path("order.pfs");
	struct pf_error err = { 0 };
	unsigned char *b;
	size_t len, hdr, nb, bounds[64];
	struct smpl_reader *r;
	static const size_t swapped[] = { 0, 2, 1, 3 }, repeated[] = { 0, 1, 1, 2 };
	/* a kernel symbol record: valid, and not the sequence record */
	static const unsigned char sample0[] = { 0x41, 0x05, 0x10, 0x04, 0x01, 'a', 0x00 };
	unsigned char *f;

	build_records();
	write_recs(path, 4, &err);
	b = slurp(path, &len);
	r = open_mem(b, len, &err);
	hdr = (size_t)smpl_reader_tell(r);
	smpl_reader_close(r);
	nb = chunk_bounds(b, len, hdr, bounds, ARRAY_SIZE(bounds));
	verbose_diff = 0;
	read_reordered(b, bounds, swapped, ARRAY_SIZE(swapped), &err);
	ok(nb > 4 && strstr(err.msg, "'mem.pfs'") && strstr(err.msg, "chunk 2 at offset") &&
		   strstr(err.msg, "where chunk 1 belongs: chunks are missing, repeated or out of order"),
	   "two chunks swapped: %s", err.msg);
	read_reordered(b, bounds, repeated, ARRAY_SIZE(repeated), &err);
	ok(strstr(err.msg, "chunk 1 at offset") && strstr(err.msg, "where chunk 2 belongs"),
	   "a chunk repeated: %s", err.msg);
	verbose_diff = 1;
	free(b);
	unlink(path);
	free(path);

	/* a 1.2 chunk without its number */
	{
		size_t hlen, n;
		const unsigned char *h = crafted_header(&hlen);

		f = xmalloc(hlen + put_chunk(NULL, sample0, sizeof(sample0), -1));
		memcpy(f, h, hlen);
		len = hlen + put_chunk(f + hlen, sample0, sizeof(sample0), -1);
		memset(&err, 0, sizeof(err));
		r = open_mem(f, len, &err);
		ok(r && read_back(r, &n, &(int){ 0 }, NULL, &err) == -1 &&
			   strstr(err.msg, "has no sequence number"),
		   "a chunk without a sequence number: %s", err.msg);
		smpl_reader_close(r);

		/* the same chunk in a 1.1 file: numbers did not exist, it reads */
		f[10] = 1; /* minor version 1 (little-endian u16) */
		f[11] = 0;
		put_le32(f + hlen - 4, crc32_buf(f, hlen - 4));
		memset(&err, 0, sizeof(err));
		r = open_mem(f, len, &err);
		ok(r && read_back(r, &n, &(int){ 0 }, NULL, &err) == 0 && n == 1 &&
			   smpl_reader_header(r)->version_minor == 1,
		   "a 1.1 file without sequence numbers still reads (%zu record) %s", n, err.msg);
		smpl_reader_close(r);
		free(f);
	}
}

static void test_writer_errors(void)
{
	struct smpl_header h;
	struct smpl_writer *w;
	struct pf_error err = { 0 };
	struct sample s = { .evidx = 5 };
	int i, rc = 0;

	test_header(&h);
	w = smpl_writer_open("/nonexistent/dir/s.pfs", &h, &err);
	ok(!w && err.code == PF_E_OUTPUT && strstr(err.msg, "/nonexistent/dir/s.pfs"),
	   "open in a missing directory: %s", err.msg);
	w = smpl_writer_open("/dev/full", &h, &err);
	ok(w == NULL && strstr(err.msg, "No space left"), "header to a full disk: %s", err.msg);
	/* /dev/full takes no bytes: a chunk write fails and stays failed */
	w = smpl_writer_open("/dev/null", &h, &err);
	ok(w && smpl_write_sample(w, &s, &err) == -1 && strstr(err.msg, "not in the header"),
	   "sample of an unknown event: %s", err.msg);
	memset(&err, 0, sizeof(err));
	ok(smpl_writer_close(w, &err) == 0, "close of /dev/null %s", err.msg);
	/* a write error after the header: a pipe whose reader went away */
	{
		int fds[2];
		char *path;

		if (pipe(fds) == 0) {
			signal(SIGPIPE, SIG_IGN);
			path = xasprintf("/proc/self/fd/%d", fds[1]);
			w = smpl_writer_open(path, &h, &err);
			close(fds[0]);
			s.evidx = 0;
			for (i = 0; w && i < 20000 && !rc; i++)
				rc = smpl_write_sample(w, &s, &err);
			ok(w && rc == -1 && strstr(err.msg, "Broken pipe"), "write to a closed pipe: %s",
			   err.msg);
			memset(&err, 0, sizeof(err));
			ok(w && smpl_write_sample(w, &s, &err) == -1 && strstr(err.msg, "Broken pipe"),
			   "the error is sticky");
			ok(smpl_writer_close(w, &err) == -1, "close reports it: %s", err.msg);
			close(fds[1]);
			free(path);
		}
	}
}

/* --- bytes per sample --- */

static double bytes_per_sample(const char *name, int pathological)
{
	static struct smpl_event ev = { .name = "cpu-clock", .fields = F_BASIC, .period = 100000 };
	struct smpl_header h;
	char *path = tmp_path("bps.pfs");
	struct pf_error err;
	struct smpl_writer *w;
	struct stat st0, st1;
	unsigned seed = 42;
	struct sample s = { .fields = F_BASIC, .cpumode = 2, .pid = 31337, .tid = 31337,
			    .time = 123456789012345ull, .period = 100000, .ip = 0x5555555551000ull };
	const int n = 100000;
	int i;

	memset(&h, 0, sizeof(h));
	h.nr_events = 1;
	h.events = &ev;
	w = smpl_writer_open(path, &h, &err);
	smpl_writer_close(w, &err);
	stat(path, &st0);
	w = smpl_writer_open(path, &h, &err);
	for (i = 0; i < n; i++) {
		if (pathological) {
			/* every field as far from the last as the kernel allows */
			s.ip = (uint64_t)rand_r(&seed) << 40 ^ (uint64_t)rand_r(&seed) << 20 ^ (uint64_t)rand_r(&seed);
			s.ip = i & 1 ? ~s.ip : s.ip;
			s.time = i & 1 ? (uint64_t)rand_r(&seed) << 33 : 1;
			s.pid = i & 1 ? 4194303 : 0; /* PID_MAX_LIMIT - 1 */
			s.tid = i & 1 ? 0 : 4194303;
			s.cpu = 8191;
			s.period = i & 1 ? UINT64_MAX : 1;
		} else {
			/* a 4-thread program sampled at 10 kHz: ips in a 1 MB
			 * text, ~100 us apart with jitter, 4 CPUs, fixed period */
			s.ip = 0x555555550000ull + (uint64_t)(rand_r(&seed) % (1 << 20));
			s.time += 100000 + (uint64_t)(rand_r(&seed) % 2000);
			s.tid = 31337 + (uint32_t)(rand_r(&seed) % 4);
			s.cpu = (uint32_t)(rand_r(&seed) % 4);
		}
		smpl_write_sample(w, &s, &err);
	}
	smpl_writer_close(w, &err);
	stat(path, &st1);
	unlink(path);
	free(path);
	printf("# %s: %.2f bytes per sample (IP TID TIME CPU PERIOD), perf.data: 48\n", name,
	       (double)(st1.st_size - st0.st_size) / n);
	return (double)(st1.st_size - st0.st_size) / n;
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	test_codec();
	test_round_trip();
	test_magic_version();
	test_crafted();
	test_ia64_round_trip();
	test_fuzz();
	test_missing_chunk();
	test_chunk_order();
	test_writer_errors();
	ok(bytes_per_sample("typical", 0) <= 48.0, "typical samples fit in perf.data's 48 bytes");
	ok(bytes_per_sample("pathological", 1) <= 48.0, "pathological samples fit in 48 bytes");
	test_truncation();
	test_corruption();
	rmdir(tmpdir);
	return tap_done();
}
