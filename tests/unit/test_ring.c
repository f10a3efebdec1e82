/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The perf ring reader: first on a ring made in memory (every wrap and
 * bounce-buffer path, deterministically, including 64-bit counter wrap and
 * malformed headers), then live: a cpu-clock sampling event on this very
 * process, read through ring_map() and decoded with perf_record_decode().
 * And kperf_read_format: a counter's own count out of every read_format
 * layout, from reads written into a pipe the way the kernel lays them out.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common/util.h"
#include "kernel/perf.h"
#include "kernel/ring.h"
#include "sample/perf_record.h"
#include "tap.h"

/* --- a ring in memory, written the way the kernel writes it --- */

#define FAKE_SIZE 256

static struct perf_event_mmap_page meta;
static uint64_t fake_data[FAKE_SIZE / 8];

/* write a record of size bytes (a multiple of 8) holding seq at head */
static void produce(uint64_t seq, uint16_t size)
{
	unsigned char rec[RING_RECORD_MAX];
	struct perf_event_header h = { .type = 1000, .misc = 0, .size = size };
	uint64_t head = meta.data_head, i;

	memcpy(rec, &h, sizeof(h));
	for (i = 8; i < size; i += 8) {
		uint64_t v = seq * 1000 + i;

		memcpy(rec + i, &v, 8);
	}
	for (i = 0; i < size; i++)
		((unsigned char *)fake_data)[(head + i) & (FAKE_SIZE - 1)] = rec[i];
	__atomic_store_n(&meta.data_head, head + size, __ATOMIC_RELEASE);
}

struct seen {
	uint64_t next_seq;
	uint64_t bad;
	int stop_at; /* fail the callback at this record (-1: never) */
	int calls;
};

static int check_rec(const struct perf_event_header *rec, void *arg, struct pf_error *err)
{
	struct seen *s = arg;
	const uint64_t *w = (const uint64_t *)(const void *)rec;
	uint64_t i;

	if ((uintptr_t)rec & 7)
		s->bad++;
	for (i = 1; i < rec->size / 8u; i++)
		if (w[i] != s->next_seq * 1000 + i * 8)
			s->bad++;
	s->next_seq++;
	if (s->calls++ == s->stop_at)
		return pf_error_set(err, PF_E_SYSTEM, "test", "callback stops");
	return 0;
}

static void fake_reset(struct perf_ring *r, uint64_t start)
{
	struct pf_error err;

	memset(&meta, 0, sizeof(meta));
	meta.data_head = meta.data_tail = start;
	ring_attach(r, &meta, fake_data, FAKE_SIZE, &err);
}

static void test_fake_basic(void)
{
	struct perf_ring r;
	struct pf_error err = { 0 };
	struct seen s = { .stop_at = -1 };
	long n;

	ok(ring_attach(&r, &meta, fake_data, 100, &err) == -1 && strstr(err.msg, "power of two"),
	   "a 100-byte data area is refused: %s", err.msg);
	fake_reset(&r, 0);
	produce(0, 16);
	produce(1, 64);
	produce(2, 8);
	ok(ring_pending(&r) == 88, "88 bytes pending");
	n = ring_read(&r, check_rec, &s, &err);
	ok(n == 3 && s.bad == 0 && r.wrapped == 0, "three records read in place");
	ok(meta.data_tail == 88 && ring_pending(&r) == 0, "data_tail published");
	ok(ring_read(&r, check_rec, &s, &err) == 0, "an empty ring reads nothing");

	/* a record straddling the end of the data area goes through the bounce buffer */
	fake_reset(&r, 240);
	s = (struct seen){ .next_seq = 7, .stop_at = -1 };
	produce(7, 48);
	n = ring_read(&r, check_rec, &s, &err);
	ok(n == 1 && s.bad == 0 && r.wrapped == 1, "a record across the end is reassembled whole");
	ring_unmap(&r);
}

/* many random sizes, in and out of step with the ring size */
static void test_fake_stream(uint64_t start, const char *what)
{
	struct perf_ring r;
	struct pf_error err = { 0 };
	struct seen s = { .stop_at = -1 };
	unsigned seed = 7;
	uint64_t produced = 0, total = 0;
	int round;

	fake_reset(&r, start);
	for (round = 0; round < 5000; round++) {
		/* fill what the reader has freed, then drain */
		for (;;) {
			uint16_t size = (uint16_t)(8 * (1 + rand_r(&seed) % 16));

			if (meta.data_head - meta.data_tail + size > FAKE_SIZE)
				break;
			produce(produced++, size);
		}
		total += (uint64_t)ring_read(&r, check_rec, &s, &err);
	}
	ok(total == produced && s.bad == 0 && r.wrapped > 100,
	   "%s: %" PRIu64 " records through the ring, %" PRIu64 " via the bounce buffer, contents intact",
	   what, total, r.wrapped);
	ring_unmap(&r);
}

static void test_fake_errors(void)
{
	struct perf_ring r;
	struct pf_error err = { 0 };
	struct seen s = { .stop_at = 1 };
	struct perf_event_header bad = { .type = 1, .size = 0 };
	long n;

	fake_reset(&r, 0);
	produce(0, 16);
	produce(1, 16);
	produce(2, 16);
	n = ring_read(&r, check_rec, &s, &err);
	ok(n == -1 && strstr(err.msg, "callback stops") && meta.data_tail == 32,
	   "a failing callback stops the walk after its record");
	s.stop_at = -1;
	ok(ring_read(&r, check_rec, &s, &err) == 1 && s.bad == 0, "the next read resumes after it");

	memcpy((unsigned char *)fake_data + (meta.data_head & (FAKE_SIZE - 1)), &bad, sizeof(bad));
	meta.data_head += 24;
	n = ring_read(&r, check_rec, &s, &err);
	ok(n == -1 && strstr(err.msg, "corrupt record header") && ring_pending(&r) == 0,
	   "a zero-size header is an error, the rest dropped: %s", err.msg);

	bad.size = 200;
	memcpy((unsigned char *)fake_data + (meta.data_head & (FAKE_SIZE - 1)), &bad, sizeof(bad));
	meta.data_head += 64;
	ok(ring_read(&r, check_rec, &s, &err) == -1 && ring_pending(&r) == 0,
	   "a size beyond the unread data is an error");
	meta.data_head += FAKE_SIZE + 8;
	ok(ring_read(&r, check_rec, &s, &err) == -1 && strstr(err.msg, "more than one buffer"),
	   "a head more than one buffer ahead is an error: %s", err.msg);
	ring_unmap(&r);
}

/* --- live --- */

static long perf_open(struct perf_event_attr *a)
{
	return syscall(SYS_perf_event_open, a, 0, -1, -1, 0);
}

static void burn(long ms)
{
	struct timespec t0, t;
	volatile uint64_t x = 1;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		int i;

		for (i = 0; i < 10000; i++)
			x = x * 6364136223846793005ull + 1;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

struct live {
	struct perf_layout l;
	long samples, mmaps, lost, other, bad_pid, zero_ip, backwards, bad_period;
	uint64_t last_time;
	int saw_exe;
	char exe[256];
};

static int live_rec(const struct perf_event_header *rec, void *arg, struct pf_error *err)
{
	struct live *lv = arg;
	struct sample_record o;
	int rc = perf_record_decode(rec, &lv->l, &o, err);

	if (rc < 0)
		return -1;
	switch (o.type) {
	case SREC_SAMPLE:
		lv->samples++;
		lv->bad_pid += o.sample.pid != (uint32_t)getpid() || o.sample.tid != (uint32_t)gettid();
		lv->zero_ip += o.sample.ip == 0;
		lv->backwards += o.sample.time < lv->last_time;
		lv->bad_period += o.sample.period != 1000000;
		lv->last_time = o.sample.time;
		break;
	case SREC_MMAP:
		lv->mmaps++;
		lv->saw_exe |= !strcmp(o.mmap.filename, lv->exe) && o.sid.time != 0;
		break;
	case SREC_LOST:
		lv->lost += (long)o.lost.lost;
		break;
	default:
		lv->other++;
	}
	return 0;
}

static int live_open(struct perf_event_attr *a, struct live *lv)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_CPU_CLOCK;
	a->sample_period = 1000000; /* 1 ms of CPU */
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			 PERF_SAMPLE_PERIOD;
	a->disabled = 1;
	a->exclude_kernel = 1; /* allowed at perf_event_paranoid 2 */
	a->exclude_hv = 1;
	a->mmap = 1;
	a->mmap2 = 1;
	a->comm = 1;
	a->task = 1;
	a->sample_id_all = 1;
	memset(lv, 0, sizeof(*lv));
	perf_layout_from_attr(&lv->l, a, 0);
	return (int)perf_open(a);
}

static void test_live(void)
{
	struct perf_event_attr a;
	struct live lv;
	struct perf_ring r;
	struct pf_error err = { 0 };
	int fd = live_open(&a, &lv), efd;
	ssize_t n;
	void *m;
	long rc;

	if (fd < 0) {
		ok(1, "live ring # SKIP perf_event_open(cpu-clock): %s", strerror(errno));
		return;
	}
	ok(ring_map(fd, 3, &r, &err) == -1 && strstr(err.msg, "power of two"),
	   "3 data pages refused: %s", err.msg);
	memset(&err, 0, sizeof(err));
	ok(ring_map(fd, 8, &r, &err) == 0, "ring_map 8 pages %s", err.msg);
	n = readlink("/proc/self/exe", lv.exe, sizeof(lv.exe) - 1);
	lv.exe[n > 0 ? n : 0] = 0;
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	/* a new executable mapping during the run gives an MMAP2 record */
	efd = open(lv.exe, O_RDONLY | O_CLOEXEC);
	m = efd >= 0 ? mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, efd, 0) : MAP_FAILED;
	burn(100);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	rc = ring_read(&r, live_rec, &lv, &err);
	ok(rc > 0, "ring_read: %ld records (%ld samples, %ld mmaps, %ld other) %s", rc, lv.samples,
	   lv.mmaps, lv.other, err.msg);
	ok(lv.samples >= 20, "at least 20 samples in 100 ms of CPU at 1 kHz (%ld)", lv.samples);
	ok(lv.bad_pid == 0 && lv.zero_ip == 0, "every sample: pid == getpid(), tid == gettid(), ip != 0");
	ok(lv.backwards == 0 && lv.last_time > 0, "sample times never go backwards");
	ok(lv.bad_period == 0, "every period is the 1 ms asked for");
	ok(lv.saw_exe, "an MMAP2 record with a time names our executable %s", lv.exe);
	ok(ring_pending(&r) == 0, "ring drained");
	if (m != MAP_FAILED)
		munmap(m, 4096);
	if (efd >= 0)
		close(efd);
	ring_unmap(&r);
	close(fd);
}

/* one data page, read in slices: the kernel wraps around it several times */
static void test_live_wrap(void)
{
	struct perf_event_attr a;
	struct live lv;
	struct perf_ring r;
	struct pf_error err = { 0 };
	int fd = live_open(&a, &lv), i, failed = 0;

	if (fd < 0) {
		ok(1, "live wrap # SKIP perf_event_open(cpu-clock): %s", strerror(errno));
		return;
	}
	if (ring_map(fd, 1, &r, &err)) {
		ok(0, "ring_map 1 page: %s", err.msg);
		close(fd);
		return;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < 40; i++) {
		burn(10);
		failed |= ring_read(&r, live_rec, &lv, &err) < 0;
	}
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	failed |= ring_read(&r, live_rec, &lv, &err) < 0;
	ok(!failed && r.bytes > 2 * r.size,
	   "a %" PRIu64 "-byte ring went round %" PRIu64 " times, %" PRIu64
	   " records through the bounce buffer %s", r.size, r.bytes / r.size, r.wrapped, err.msg);
	ok(lv.samples >= 100 && lv.bad_pid == 0 && lv.zero_ip == 0 && lv.backwards == 0,
	   "%ld samples decoded across the wraps, %ld lost", lv.samples, lv.lost);
	ring_unmap(&r);
	close(fd);
}


/* --- kperf_read_format: the layouts of read(2) on a counter --- */

/* what read() of a counter returns, from a pipe */
static int read_layout(const uint64_t *v, size_t n, uint64_t rf, uint64_t id, struct kperf_count *c)
{
	int p[2], rc;

	if (pipe(p))
		return -errno;
	if (write(p[1], v, n * sizeof(*v)) != (ssize_t)(n * sizeof(*v)))
		rc = -EIO;
	else
		rc = kperf_read_format(p[0], rf, id, c);
	close(p[0]);
	close(p[1]);
	return rc;
}

static void test_read_format(void)
{
	const uint64_t times = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	/* a group: nr, enabled, running, then {value, id, lost} of each */
	const uint64_t group[] = { 3, 1000, 500, 11, 71, 0, 22, 72, 1, 33, 73, 2 };
	/* one event: value, enabled, running, id, lost */
	const uint64_t single[] = { 44, 900, 300, 74, 5 };
	struct kperf_count c = { 0 };

	int rc = read_layout(group, 12, PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST | times, 72, &c);

	ok(rc == 0 && c.value == 22 && c.enabled == 1000 && c.running == 500,
	   "a group read: the entry of the fd's id, the group's times (%llu %llu %llu)", (unsigned long long)c.value,
	   (unsigned long long)c.enabled, (unsigned long long)c.running);
	ok(read_layout(group, 12, PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST | times, 99, &c) == 0 &&
		   c.value == 11,
	   "an id not in the group: the leader's value");
	ok(read_layout(single, 5, PERF_FORMAT_ID | PERF_FORMAT_LOST | times, 0, &c) == 0 && c.value == 44 &&
		   c.enabled == 900 && c.running == 300,
	   "one event: its value and times before its id and lost");
	ok(read_layout(single, 1, 0, 0, &c) == 0 && c.value == 44 && c.enabled == 0 && c.running == 0,
	   "no times asked for: 0");
	ok(read_layout(group, 2, PERF_FORMAT_GROUP | PERF_FORMAT_ID | times, 72, &c) == -EIO,
	   "a group read cut before its first entry: -EIO");
	ok(read_layout((const uint64_t[]){ 0, 1, 1 }, 3, PERF_FORMAT_GROUP | times, 0, &c) == -EIO,
	   "a group of no event: -EIO");
}

int main(void)
{
	test_read_format();
	test_fake_basic();
	test_fake_stream(0, "counters from 0");
	test_fake_stream((uint64_t)-4096, "counters wrapping 2^64");
	test_fake_errors();
	test_live();
	test_live_wrap();
	return tap_done();
}
