/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf.data both ways without perf: every record pfmon writes, written by
 * the perf.data writer and read back by the reader, field by field (the
 * bats suite has perf itself read them); then the file cut at every
 * length, and bytes of its header and sections overwritten, read under
 * ASan: an error or a clean end, never a read outside the file.
 */
#include <config.h>

#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/util.h"
#include "sample/perf_data.h"
#include "sample/smpl_file.h"
#include "tap.h"

static char path[] = "/tmp/pfmon-perf-data-XXXXXX";

static const uint64_t chain[] = { (uint64_t)PERF_CONTEXT_USER, 0x401000, 0x402000 };

static struct smpl_event events[2] = {
	{ .name = "task-clock", .fields = SAMPLE_F_IP | SAMPLE_F_TID | SAMPLE_F_TIME | SAMPLE_F_CPU |
					  SAMPLE_F_PERIOD | SAMPLE_F_CALLCHAIN,
	  .attr_type = PERF_TYPE_SOFTWARE, .attr_config = PERF_COUNT_SW_TASK_CLOCK, .period = 100000 },
	{ .name = "MEM_LOADS:lat=30", .fields = SAMPLE_F_IP | SAMPLE_F_TID | SAMPLE_F_TIME | SAMPLE_F_ADDR |
						SAMPLE_F_WEIGHT | SAMPLE_F_INS_LAT | SAMPLE_F_P_STAGE_CYC | SAMPLE_F_DATA_SRC,
	  .attr_type = PERF_TYPE_RAW, .attr_config = 0x1cd, .freq = true, .period = 4000 },
};
static char *argv_[] = { "./app", "--fast", NULL };
static const struct smpl_header header = { .argc = 2, .argv = argv_, .nr_events = 2, .events = events };

static int write_file(void)
{
	struct pf_error err;
	struct perf_data_writer *w = perf_data_writer_open(path, &header, 0, &err);
	struct sample_record recs[10];
	int rc = 0;

	if (!w)
		return -1;
	memset(recs, 0, sizeof(recs));
	recs[0].type = SREC_KERNEL;
	recs[0].kernel.build_id_size = 20;
	memset(recs[0].kernel.build_id, 0x4a, 20);
	snprintf(recs[0].kernel.release, sizeof(recs[0].kernel.release), "6.1.0-test");
	recs[0].kernel.text_addr = 0xffffffff81000000ull;
	recs[1].type = SREC_COMM;
	recs[1].comm = (struct sample_comm){ .pid = 42, .tid = 42, .exec = true, .comm = "app" };
	recs[1].sid = (struct sample_id){ .fields = SAMPLE_F_TID | SAMPLE_F_TIME, .pid = 42, .tid = 42, .time = 10 };
	recs[2].type = SREC_MMAP;
	recs[2].mmap = (struct sample_mmap){ .pid = 42, .tid = 42, .start = 0x400000, .len = 0x10000,
					     .pgoff = 0, .cpumode = PERF_RECORD_MISC_USER, .has_inode = true,
					     .maj = 8, .min = 1, .ino = 1234, .filename = "/usr/bin/app" };
	recs[2].sid = (struct sample_id){ .fields = SAMPLE_F_TID | SAMPLE_F_TIME, .pid = 42, .tid = 42, .time = 11 };
	recs[3].type = SREC_BINARY;
	recs[3].binary = (struct sample_binary){ .path = "/usr/bin/app", .build_id_size = 4,
						 .build_id = { 1, 2, 3, 4 } };
	recs[4].type = SREC_SAMPLE;
	recs[4].sample = (struct sample){ .fields = events[0].fields, .evidx = 0, .cpumode = PERF_RECORD_MISC_USER,
					  .ip = 0x401234, .pid = 42, .tid = 43, .time = 20, .cpu = 1,
					  .period = 100000, .callchain_nr = 3, .callchain = chain };
	recs[5].type = SREC_SAMPLE;
	recs[5].sample = (struct sample){ .fields = events[1].fields, .evidx = 1, .cpumode = PERF_RECORD_MISC_USER,
					  .exact_ip = true, .ip = 0x401300, .pid = 42, .tid = 42, .time = 21,
					  .addr = 0x7ffd0000, .weight = 300, .ins_lat = 12, .p_stage_cyc = 5,
					  .data_src = 0x5080021 };
	recs[6].type = SREC_FORK;
	recs[6].task = (struct sample_task){ .pid = 44, .ppid = 42, .tid = 44, .ptid = 42, .time = 22 };
	recs[7].type = SREC_LOST;
	recs[7].lost = (struct sample_lost){ .id = 99, .lost = 17 };
	recs[8].type = SREC_THROTTLE;
	recs[8].throttle = (struct sample_throttle){ .time = 23, .evidx = 1 };
	recs[9].type = SREC_EXIT;
	recs[9].task = (struct sample_task){ .pid = 44, .ppid = 42, .tid = 44, .ptid = 42, .time = 24 };
	for (size_t i = 0; i < ARRAY_SIZE(recs) && !rc; i++)
		rc = perf_data_write_record(w, &recs[i], &err);
	if (perf_data_writer_close(w, &err))
		rc = -1;
	return rc;
}

static void check_header(const struct smpl_header *h)
{
	ok(h->nr_events == 2, "two events");
	is_str(h->events[0].name, "task-clock", "event 0's name from event_desc");
	is_str(h->events[1].name, "MEM_LOADS:lat=30", "event 1's name");
	ok(h->events[0].period == 100000 && !h->events[0].freq, "event 0: period 100000");
	ok(h->events[1].freq && h->events[1].period == 4000, "event 1: 4000 Hz");
	ok(h->events[1].attr_type == PERF_TYPE_RAW && h->events[1].attr_config == 0x1cd, "event 1's type, config");
	ok((h->events[0].fields & ~SAMPLE_F_ID) == events[0].fields, "event 0's fields");
	ok(h->argc == 2 && !strcmp(h->argv[0], "./app") && !strcmp(h->argv[1], "--fast"), "cmdline");
}

static void check_records(struct smpl_reader *r)
{
	struct sample_record rec;
	struct pf_error err;
	int n = 0, seen = 0;

	while (smpl_reader_next(r, &rec, &err) > 0) {
		n++;
		switch (rec.type) {
		case SREC_KERNEL:
			seen |= 1;
			ok(rec.kernel.build_id_size == 20 && rec.kernel.build_id[19] == 0x4a &&
				   !strcmp(rec.kernel.release, "6.1.0-test") &&
				   rec.kernel.text_addr == 0xffffffff81000000ull,
			   "kernel: build-id, release, _text");
			break;
		case SREC_BINARY:
			seen |= 2;
			ok(!strcmp(rec.binary.path, "/usr/bin/app") && rec.binary.build_id_size == 4 &&
				   rec.binary.build_id[3] == 4,
			   "binary: its build-id");
			break;
		case SREC_COMM:
			seen |= 4;
			ok(rec.comm.pid == 42 && rec.comm.exec && !strcmp(rec.comm.comm, "app") && rec.sid.time == 10,
			   "comm: exec, name, time");
			break;
		case SREC_MMAP:
			if (rec.mmap.pid == UINT32_MAX) {
				seen |= 8;
				ok(rec.mmap.pgoff == 0xffffffff81000000ull &&
					   !strcmp(rec.mmap.filename, "[kernel.kallsyms]_text"),
				   "the kernel's mapping");
				break;
			}
			seen |= 16;
			ok(rec.mmap.start == 0x400000 && rec.mmap.len == 0x10000 && rec.mmap.ino == 1234 &&
				   rec.mmap.maj == 8 && !strcmp(rec.mmap.filename, "/usr/bin/app") &&
				   (rec.mmap.prot & PROT_EXEC),
			   "mmap2: range, inode, name, executable");
			break;
		case SREC_SAMPLE:
			if (rec.sample.evidx == 0) {
				seen |= 32;
				ok(rec.sample.ip == 0x401234 && rec.sample.pid == 42 && rec.sample.tid == 43 &&
					   rec.sample.cpu == 1 && rec.sample.time == 20 && rec.sample.period == 100000 &&
					   rec.sample.callchain_nr == 3 && rec.sample.callchain[2] == 0x402000,
				   "sample of event 0: ip, tid, cpu, time, period, call chain");
			} else {
				seen |= 64;
				ok(rec.sample.evidx == 1 && rec.sample.exact_ip && rec.sample.addr == 0x7ffd0000 &&
					   rec.sample.weight == 300 && rec.sample.ins_lat == 12 && rec.sample.p_stage_cyc == 5 &&
					   rec.sample.data_src == 0x5080021,
				   "sample of event 1: exact ip, address, weight, latency, data source");
			}
			break;
		case SREC_FORK:
			seen |= 128;
			ok(rec.task.pid == 44 && rec.task.ppid == 42 && rec.task.time == 22, "fork");
			break;
		case SREC_LOST:
			seen |= 256;
			ok(rec.lost.lost == 17, "lost: 17");
			break;
		case SREC_THROTTLE:
			seen |= 512;
			ok(rec.throttle.time == 23 && rec.throttle.evidx == 1, "throttle of event 1");
			break;
		case SREC_EXIT:
			seen |= 1024;
			ok(rec.task.pid == 44 && rec.task.time == 24, "exit");
			break;
		default:
			ok(0, "unexpected record type %d", (int)rec.type);
		}
	}
	ok(seen == 2047, "every record read back (%#x, %d records)", seen, n);
	ok(smpl_reader_status(r)->complete && !smpl_reader_status(r)->truncated, "complete, not truncated");
	ok(smpl_reader_status(r)->counted.samples == 2 && smpl_reader_status(r)->counted.lost == 17,
	   "totals: 2 samples, 17 lost");
}

static unsigned char *slurp(size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *b = xmalloc(1 << 16);

	*len = fread(b, 1, 1 << 16, f);
	fclose(f);
	return b;
}

/* read b (len bytes) through smpl_reader, from memory (the pipe path) */
static int read_all(const unsigned char *b, size_t len)
{
	unsigned char *copy = xmalloc(len ? len : 1);
	struct sample_record rec;
	struct pf_error err;
	struct smpl_reader *r;
	FILE *f;
	int rc, n = 0;

	memcpy(copy, b, len);
	f = fmemopen(copy, len, "rb");
	r = f ? smpl_reader_fopen(f, "mem.data", &err) : NULL;
	if (!r) {
		free(copy);
		return -1;
	}
	while ((rc = smpl_reader_next(r, &rec, &err)) > 0)
		n++;
	smpl_reader_close(r);
	free(copy);
	return rc < 0 ? -1 : n;
}

static void damaged(void)
{
	size_t len, opened = 0, failed = 0;
	unsigned char *b = slurp(&len);
	bool sane = true;

	/* every cut: an error or fewer records, never a crash */
	for (size_t cut = 8; cut < len; cut++) {
		int n = read_all(b, cut);

		opened += n >= 0;
		sane = sane && n <= 12;
	}
	ok(sane && opened > 0, "the file cut at every length: %zu read, the others refused", opened);
	/* every byte of the first 2 KiB (header, attributes, early records)
	 * and of the feature sections at the end, set to 0xff then 0x00 */
	for (size_t i = 0; i < len; i++) {
		unsigned char keep = b[i];

		if (i >= 2048 && i + 2048 < len)
			continue;
		b[i] = 0xff;
		failed += read_all(b, len) < 0;
		b[i] = 0;
		failed += read_all(b, len) < 0;
		b[i] = keep;
	}
	ok(1, "every byte of the header and the sections overwritten: %zu refused, no crash", failed);
	free(b);
}

int main(void)
{
	struct pf_error err;
	struct smpl_reader *r;
	int fd = mkstemp(path);

	if (fd < 0) {
		printf("Bail out! mkstemp\n");
		return 1;
	}
	close(fd);
	ok(write_file() == 0, "written");
	r = smpl_reader_open(path, &err);
	ok(r != NULL, "read back through smpl_reader_open");
	if (r) {
		check_header(smpl_reader_header(r));
		check_records(r);
		smpl_reader_close(r);
	}
	damaged();
	ok(perf_data_writer_open("-", &header, 0, &err) == NULL && strstr(err.msg, "standard output"),
	   "stdout refused: %s", err.msg);
	unlink(path);
	return tap_done();
}
