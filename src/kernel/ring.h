/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The mmap'ed perf_event ring buffer of one event fd.
 *
 * The kernel writes records at data_head; we consume them up to data_head and
 * hand the space back by publishing data_tail.  The walker only needs the
 * control page and the data area, so it also runs on a plain memory buffer
 * (ring_attach): that is how the wrap-around and bounce-buffer paths are
 * tested without a kernel.
 *
 * This file and kernel/perf.c are the only code that touches counter fds.
 */
#ifndef PFMON_KERNEL_RING_H
#define PFMON_KERNEL_RING_H

#include <stddef.h>
#include <stdint.h>

#include <linux/perf_event.h>

#include "common/error.h"

/* header.size is a u16, so no record is larger than this */
#define RING_RECORD_MAX 65536

struct perf_ring {
	struct perf_event_mmap_page *meta; /* control page: data_head, data_tail */
	unsigned char *data;               /* data area, size bytes */
	uint64_t size;                     /* power of two */
	void *map;                         /* mmap base, NULL for an attached buffer */
	size_t map_len;
	/* a record that wraps the end of the data area is copied here whole,
	 * so the callback always sees one contiguous, 8-byte aligned record */
	uint64_t *bounce;
	/* statistics, for the report and the tests */
	uint64_t records;  /* records handed to the callback */
	uint64_t bytes;    /* bytes consumed */
	uint64_t wrapped;  /* records that went through the bounce buffer */
};

/*
 * Called once per record.  rec stays valid only during the call.  Return 0
 * to go on, a negative value to stop (ring_read then returns -1; err should
 * have been filled by the callback).  The record is consumed either way.
 */
typedef int (*ring_record_fn)(const struct perf_event_header *rec, void *arg,
			      struct pf_error *err);

/* mmap 1 + data_pages pages of fd (data_pages a power of two, >= 1) */
int ring_map(int fd, size_t data_pages, struct perf_ring *r, struct pf_error *err);
void ring_unmap(struct perf_ring *r);

/* Use an existing control page and data area (size a power of two): no mmap,
 * ring_unmap only frees the bounce buffer. */
int ring_attach(struct perf_ring *r, struct perf_event_mmap_page *meta, void *data,
		uint64_t size, struct pf_error *err);

/* Bytes written by the kernel and not yet consumed. */
uint64_t ring_pending(const struct perf_ring *r);

/*
 * Walk every complete record between data_tail and data_head, then publish
 * the new data_tail.  Returns the number of records read, or -1 on error: a
 * callback failure, or a record header the kernel cannot have written (size
 * smaller than the header or larger than the unread data).  On a malformed
 * header the rest of the unread data is dropped, since no record boundary
 * can be trusted after it.
 */
long ring_read(struct perf_ring *r, ring_record_fn fn, void *arg, struct pf_error *err);

#endif
