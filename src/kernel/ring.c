/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading the perf_event mmap ring buffer.
 *
 * Protocol (include/uapi/linux/perf_event.h, "struct perf_event_mmap_page"):
 * the kernel writes records, then stores data_head; we load data_head with
 * acquire ordering so the record bytes it covers are visible, read them, and
 * store data_tail with release ordering so the kernel does not overwrite the
 * records before we are done with them.  head and tail are free-running
 * 64-bit byte counters; the offset in the data area is counter & (size - 1).
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/util.h"
#include "kernel/ring.h"

static bool is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

int ring_attach(struct perf_ring *r, struct perf_event_mmap_page *meta, void *data,
		uint64_t size, struct pf_error *err)
{
	memset(r, 0, sizeof(*r));
	if (!meta || !data || !is_pow2(size))
		return pf_error_set(err, PF_E_SYSTEM, "perf ring buffer",
				    "data area size must be a power of two");
	r->meta = meta;
	r->data = data;
	r->size = size;
	return 0;
}

int ring_map(int fd, size_t data_pages, struct perf_ring *r, struct pf_error *err)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len;
	void *base;
	struct perf_event_mmap_page *meta;
	uint64_t off, size;

	memset(r, 0, sizeof(*r));
	if (page <= 0 || !is_pow2(data_pages) || data_pages > (SIZE_MAX / (size_t)page) - 1)
		return pf_error_set(err, PF_E_SYSTEM, "perf ring buffer",
				    "the number of data pages must be a power of two");
	len = (data_pages + 1) * (size_t)page;
	base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED) {
		int e = errno;
		char what[128];

		snprintf(what, sizeof(what), "cannot map a perf ring buffer of %zu pages", data_pages);
		if (e == EPERM)
			return pf_error_set(err, PF_E_SYSTEM, what,
					    "locked-memory limit reached (kernel.perf_event_mlock_kb); "
					    "use fewer pages or run as root");
		return pf_error_set(err, PF_E_SYSTEM, what, strerror(e));
	}
	meta = base;
	/* Since Linux 4.1 the kernel says where the data area is; before, it
	 * always started one page in and filled the rest of the mapping. */
	off = meta->data_offset ? meta->data_offset : (uint64_t)page;
	size = meta->data_size ? meta->data_size : (uint64_t)data_pages * (uint64_t)page;
	if (!is_pow2(size) || off + size > len) {
		munmap(base, len);
		return pf_error_set(err, PF_E_SYSTEM, "perf ring buffer",
				    "the kernel reports an unexpected data area layout");
	}
	r->map = base;
	r->map_len = len;
	r->meta = meta;
	r->data = (unsigned char *)base + off;
	r->size = size;
	return 0;
}

void ring_unmap(struct perf_ring *r)
{
	if (r->map)
		munmap(r->map, r->map_len);
	free(r->bounce);
	memset(r, 0, sizeof(*r));
}

uint64_t ring_pending(const struct perf_ring *r)
{
	uint64_t head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = __atomic_load_n(&r->meta->data_tail, __ATOMIC_RELAXED);

	return head - tail;
}

/* copy n bytes starting at ring position pos, across the end if need be */
static void ring_copy(const struct perf_ring *r, uint64_t pos, void *dst, size_t n)
{
	uint64_t off = pos & (r->size - 1);
	size_t first = n;

	if (off + n > r->size)
		first = (size_t)(r->size - off);
	memcpy(dst, r->data + off, first);
	if (first < n)
		memcpy((unsigned char *)dst + first, r->data, n - first);
}

/*
 * Return a contiguous view of the record at pos: in place when it does not
 * cross the end of the data area, else copied to the bounce buffer.
 */
static const struct perf_event_header *ring_record_at(struct perf_ring *r, uint64_t pos,
						      size_t size)
{
	uint64_t off = pos & (r->size - 1);

	if (off + size <= r->size && !(off & 7))
		return (const struct perf_event_header *)(const void *)(r->data + off);
	if (!r->bounce)
		r->bounce = xmalloc(RING_RECORD_MAX);
	ring_copy(r, pos, r->bounce, size);
	r->wrapped++;
	return (const struct perf_event_header *)r->bounce;
}

static void ring_publish(struct perf_ring *r, uint64_t tail)
{
	__atomic_store_n(&r->meta->data_tail, tail, __ATOMIC_RELEASE);
}

long ring_read(struct perf_ring *r, ring_record_fn fn, void *arg, struct pf_error *err)
{
	uint64_t head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->meta->data_tail; /* only we write it */
	long n = 0;

	if (head - tail > r->size) {
		/* the kernel never gets more than one buffer ahead of us */
		ring_publish(r, head);
		return pf_error_set(err, PF_E_SYSTEM, "perf ring buffer",
				    "data_head is more than one buffer ahead of data_tail");
	}
	while (tail != head) {
		struct perf_event_header h;
		const struct perf_event_header *rec;
		uint64_t avail = head - tail;
		int rc;

		if (avail < sizeof(h))
			goto corrupt;
		ring_copy(r, tail, &h, sizeof(h));
		if (h.size < sizeof(h) || h.size > avail)
			goto corrupt;
		rec = ring_record_at(r, tail, h.size);
		rc = fn(rec, arg, err);
		tail += h.size;
		r->records++;
		r->bytes += h.size;
		n++;
		if (rc < 0) {
			ring_publish(r, tail);
			return -1;
		}
	}
	ring_publish(r, tail);
	return n;

corrupt:
	{
		char why[160];

		snprintf(why, sizeof(why),
			 "corrupt record header at position %" PRIu64 " with %" PRIu64
			 " bytes unread; dropping them", tail, head - tail);
		ring_publish(r, head);
		return pf_error_set(err, PF_E_SYSTEM, "perf ring buffer", why);
	}
}
