/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "common/util.h"
#include "kernel/perf.h"
#include "session_int.h"

/*
 * --smpl-periods-random.  perfmon redrew the period in the kernel at every
 * overflow; perf_events cannot, so each randomized event wakes pfmon at
 * every sample (wakeup_events = 1) and pfmon sets the next period with
 * PERF_EVENT_IOC_PERIOD.  The kernel's own period field goes stale after
 * that ioctl for the hrtimer events (cpu-clock, task-clock keep reporting
 * the first period), so pfmon stores the period it set, choosing by the
 * sample's time between the one before and the one after each ioctl;
 * sample times are then CLOCK_MONOTONIC.
 *
 * A new random period for every (event, CPU) that took a sample.
 */
static int redraw_periods(struct session *s, struct pf_error *err)
{
	for (size_t i = 0; i < s->n_fds; i++) {
		struct session_fd *f = &s->fds[i];
		int rc;

		if (!f->sampled)
			continue;
		f->sampled = false;
		f->prev_period = f->period;
		f->period = period_random_next(&s->plan->random[f->evidx]);
		rc = kperf_set_period(f->fd, f->period);
		/* after the ioctl: a sample between it and now would need a
		 * whole new period, at least the base, to pass */
		f->since = sess_monotonic_ns();
		if (rc && rc != -ESRCH) /* ESRCH: the task has just ended */
			return pf_error_set(err, PF_E_SYSTEM, "PERF_EVENT_IOC_PERIOD", strerror(-rc));
	}
	return 0;
}

static void buf_append(struct drain_buf *b, const struct perf_event_header *h, uint64_t time)
{
	if (b->len + h->size > b->cap) {
		b->cap = (b->len + h->size) * 2;
		b->arena = xrealloc(b->arena, b->cap);
	}
	if (b->n == b->rcap) {
		b->rcap = b->rcap ? b->rcap * 2 : 1024;
		b->recs = xrealloc(b->recs, b->rcap * sizeof(*b->recs));
	}
	b->recs[b->n++] = (struct drained){ time, b->len };
	memcpy(b->arena + b->len, h, h->size);
	b->len += h->size; /* sizes are multiples of 8: records stay aligned */
}

/* copied as it is: decoded once, after the merge (only its time is read now) */
static int collect_record(const struct perf_event_header *h, void *arg, struct pf_error *err)
{
	struct session *s = arg;
	uint64_t time = 0; /* none: before everything else of the drain */

	(void)err;
	perf_record_peek_time(h, &s->layout, &time);
	buf_append(s->filling, h, time);
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct drained *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static struct session_fd *fd_of_id(const struct session *s, uint64_t id)
{
	uint64_t i;

	return u64set_get(&s->by_id, id, &i) ? &s->fds[i] : NULL;
}

static int pass_record(struct session *s, const struct perf_event_header *h, const struct session_sink *sink,
		       struct pf_error *err)
{
	struct sample_record rec;
	int rc = perf_record_decode(h, &s->layout, &rec, err);

	if (rc <= 0)
		return rc; /* 0: a record type pfmon does not keep */
	if (rec.type == SREC_SAMPLE) {
		struct session_fd *f = fd_of_id(s, rec.sample.id);

		rec.sample.evidx = f ? f->evidx : 0;
		if (f && s->plan->random[f->evidx].mask) {
			f->sampled = true;
			rec.sample.period = rec.sample.time < f->since ? f->prev_period : f->period;
			rec.sample.fields |= SAMPLE_F_PERIOD;
		} else if (f && !(s->layout.sample_type & PERF_SAMPLE_PERIOD)) {
			rec.sample.period = f->period; /* fixed: pfmon's own, not recorded */
			rec.sample.fields |= SAMPLE_F_PERIOD;
		}
	}
	if (rec.type == SREC_THROTTLE || rec.type == SREC_UNTHROTTLE) {
		struct session_fd *f = fd_of_id(s, rec.throttle.id);

		rec.throttle.evidx = f ? f->evidx : 0;
	}
	if (rec.type == SREC_LOST || rec.type == SREC_LOST_SAMPLES)
		s->lost_in_records += rec.lost.lost;
	return sink->record(&rec, sink->arg, err);
}

static int collect_rings(struct session *s, struct pf_error *err)
{
	for (int c = 0; c < s->ncpu; c++)
		if (s->ring_fd[c] >= 0 && ring_read(&s->rings[c], collect_record, s, err) < 0)
			return -1;
	return 0;
}

/*
 * The reader thread copies the rings out as soon as the kernel wakes it,
 * and does nothing else: passing records on can be slow (the first sample
 * in a binary loads its symbols) and a busy machine gives pfmon little
 * CPU, so if the same thread did both the kernel would wait for room and
 * drop samples (a 128-thread program sampled at 10 kHz lost a third of
 * them).  perf record keeps up the same way: it only copies.
 */
static void *reader_main(void *arg)
{
	struct session *s = arg;
	struct pollfd *pfd = xcalloc((size_t)s->ncpu + 1, sizeof(*pfd));
	size_t n = 0;
	uint64_t one = 1;

	for (int c = 0; c < s->ncpu; c++)
		if (s->ring_fd[c] >= 0)
			pfd[n++] = (struct pollfd){ .fd = s->ring_fd[c], .events = POLLIN };
	while (!__atomic_load_n(&s->reader_stop, __ATOMIC_ACQUIRE)) {
		struct pf_error err;
		size_t before;
		bool copied;

		poll(pfd, n, 50);
		pthread_mutex_lock(&s->lock);
		before = s->filling->n;
		collect_rings(s, &err); /* a malformed header drops the rest of its ring: counted there */
		/* under the lock: once it is released the drain may swap and empty the buffer */
		copied = s->filling->n != before;
		pthread_mutex_unlock(&s->lock);
		if (copied && write(s->wake_fd, &one, sizeof(one)) < 0)
			break;
	}
	free(pfd);
	return NULL;
}

int sess_start_reader(struct session *s, struct pf_error *err)
{
	s->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (s->wake_fd < 0)
		return pf_error_set(err, PF_E_SYSTEM, "eventfd", strerror(errno));
	if (pthread_create(&s->reader, NULL, reader_main, s))
		return pf_error_set(err, PF_E_SYSTEM, "pthread_create", "cannot start the ring reader");
	s->reader_running = true;
	return 0;
}

void sess_stop_reader(struct session *s)
{
	if (!s->reader_running)
		return;
	__atomic_store_n(&s->reader_stop, true, __ATOMIC_RELEASE);
	pthread_join(s->reader, NULL);
	s->reader_running = false;
}

static const struct perf_event_header *buf_record(const struct drain_buf *b, size_t i)
{
	return (const struct perf_event_header *)(b->arena + b->recs[i].off);
}

/*
 * Pass on what the reader copied, in time order: a binary's MMAP2 may sit
 * in one CPU's ring and the first samples in it in another's.  The reader
 * copies the rings one after the other, so a batch can hold a sample from
 * one ring without the earlier MMAP2 that another ring received just after
 * it was copied.  As perf's rounds do, a batch passes on only the records
 * no later than the latest time of the batch before (everything up to that
 * time was written before this batch was copied) and holds the rest for the
 * next.  The final drain, after the reader stopped, copies the rings itself
 * and passes everything on.
 */
int sess_drain(struct session *s, const struct session_sink *sink, bool final, struct pf_error *err)
{
	struct drain_buf *b;
	uint64_t wakes, horizon;

	if (s->wake_fd >= 0 && read(s->wake_fd, &wakes, sizeof(wakes)) < 0 && errno != EAGAIN)
		return pf_error_set(err, PF_E_SYSTEM, "eventfd", strerror(errno));
	if (sess_pass_synthesized(s, sink, err))
		return -1;
	pthread_mutex_lock(&s->lock);
	b = s->filling;
	s->filling = b == &s->bufs[0] ? &s->bufs[1] : &s->bufs[0];
	pthread_mutex_unlock(&s->lock);
	if (final) {
		struct drain_buf *keep = s->filling;

		s->filling = b; /* the reader has stopped: append to the batch */
		if (collect_rings(s, err))
			return -1;
		s->filling = keep;
	}
	for (size_t i = 0; i < s->held.n; i++)
		buf_append(b, buf_record(&s->held, i), s->held.recs[i].time);
	s->held.len = s->held.n = 0;
	if (b->n)
		qsort(b->recs, b->n, sizeof(*b->recs), by_time);
	horizon = s->last_max_time;
	if (b->n)
		s->last_max_time = b->recs[b->n - 1].time;
	for (size_t i = 0; i < b->n; i++) {
		if (!final && b->recs[i].time > horizon)
			buf_append(&s->held, buf_record(b, i), b->recs[i].time);
		else if (pass_record(s, buf_record(b, i), sink, err))
			return -1;
	}
	b->len = b->n = 0;
	if (redraw_periods(s, err))
		return -1;
	return sink->drained ? sink->drained(sink->arg, err) : 0;
}

/* what the mappings of attached processes say, before any ring record;
 * those of a sampling start, before the samples after it */
int sess_pass_synthesized(struct session *s, const struct session_sink *sink, struct pf_error *err)
{
	for (; s->n_synth_passed < s->n_synth; s->n_synth_passed++)
		if (sink->record(&s->synth[s->n_synth_passed], sink->arg, err))
			return -1;
	return 0;
}

/*
 * Samples the kernel dropped that no LOST record told: the kernel writes
 * one only when the ring has room again, so losses at the end of a run
 * are known only from PERF_FORMAT_LOST.  Handed on as one LOST_SAMPLES
 * record.
 */
int sess_pass_unreported_losses(struct session *s, const struct session_sink *sink, struct pf_error *err)
{
	uint64_t lost = 0;
	struct sample_record rec = { .type = SREC_LOST_SAMPLES };

	for (size_t i = 0; i < s->n_fds; i++) {
		uint64_t n;

		if (s->fds[i].member)
			continue;
		if (kperf_read_lost(s->fds[i].fd, s->events[s->fds[i].evidx]->attr.read_format, &n))
			return 0; /* cannot tell: the LOST records are all there is */
		lost += n;
	}
	if (lost <= s->lost_in_records)
		return 0;
	rec.lost.lost = lost - s->lost_in_records;
	s->lost_in_records = lost;
	return sink->record(&rec, sink->arg, err);
}
