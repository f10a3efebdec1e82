/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One lock guards the queues: a batch holds up to 256 records, so
 * the lock is taken once per 256 records, not per record.  A worker
 * waits when its file's queue is full or when it would run too far ahead
 * of the consumer; the consumer waits for the file it is at.  The file
 * the consumer waits for always has a worker that can go on, so nothing
 * waits forever.
 */
#include <config.h>

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "common/util.h"
#include "sample/smpl_batch.h"
#include "sample/smpl_readahead.h"

#define BATCH_RECORDS 256 /* some 80 KiB: still in cache when the consumer reads them */
#define BATCH_BYTES (1u << 20) /* pointed-to bytes: user stacks can be 64 KiB a sample */
#define BATCH_SAMPLES 65536    /* folded ones too: the consumer is not kept waiting long */
#define QUEUE_DEPTH 4          /* batches queued per file */

struct file_slot {
	struct smpl_batch *queue[QUEUE_DEPTH];
	size_t head, len;
	bool done; /* the worker has read it all: rc, st, err are final */
	int rc;
	struct smpl_status st;
	struct pf_error err;
};

struct smpl_readahead {
	const char *const *paths;
	size_t n;
	struct file_slot *files;
	size_t next_file; /* the next file a worker takes */
	size_t consuming; /* the file the consumer is at */
	size_t ahead;     /* workers take files before consuming + ahead */
	bool stop;
	bool fold; /* the workers' batches fold samples */
	struct smpl_read_opts opts; /* each reader's */
	pthread_mutex_t lock;
	pthread_cond_t workers_wake, consumer_wake;
	pthread_t *threads;
	unsigned nr_threads;
	struct smpl_batch **spare; /* emptied batches, for reuse */
	size_t nr_spare;
	struct smpl_batch *cur; /* the consumer's batch, and its next record */
	size_t pos;
};

/* called locked */
static struct smpl_batch *take_batch(struct smpl_readahead *ra)
{
	struct smpl_batch *b;

	if (ra->nr_spare)
		return ra->spare[--ra->nr_spare];
	b = xmalloc(sizeof(*b));
	smpl_batch_init(b, ra->fold);
	return b;
}

/* called locked; spare can hold every batch there can be */
static void give_back(struct smpl_readahead *ra, struct smpl_batch *b)
{
	smpl_batch_reset(b);
	ra->spare[ra->nr_spare++] = b;
}

/* queue a full batch of file i; false when stopped (b is given back) */
static bool queue_batch(struct smpl_readahead *ra, size_t i, struct smpl_batch *b)
{
	struct file_slot *f = &ra->files[i];
	bool ok;

	pthread_mutex_lock(&ra->lock);
	while (f->len == QUEUE_DEPTH && !ra->stop)
		pthread_cond_wait(&ra->workers_wake, &ra->lock);
	ok = !ra->stop;
	if (ok) {
		f->queue[(f->head + f->len++) % QUEUE_DEPTH] = b;
		pthread_cond_signal(&ra->consumer_wake);
	} else {
		give_back(ra, b);
	}
	pthread_mutex_unlock(&ra->lock);
	return ok;
}

static struct smpl_batch *new_batch(struct smpl_readahead *ra)
{
	struct smpl_batch *b;

	pthread_mutex_lock(&ra->lock);
	b = take_batch(ra);
	pthread_mutex_unlock(&ra->lock);
	return b;
}

static void finish_file(struct smpl_readahead *ra, size_t i, int rc, struct smpl_reader *r,
			const struct pf_error *err)
{
	struct file_slot *f = &ra->files[i];

	pthread_mutex_lock(&ra->lock);
	f->rc = rc;
	if (r)
		f->st = *smpl_reader_status(r);
	if (rc < 0)
		f->err = *err;
	f->done = true;
	pthread_cond_signal(&ra->consumer_wake);
	pthread_mutex_unlock(&ra->lock);
}

static void read_file(struct smpl_readahead *ra, size_t i)
{
	struct pf_error err = { 0 };
	struct smpl_reader *r = smpl_reader_open(ra->paths[i], &err);
	struct smpl_batch *b;
	int rc;

	if (!r) {
		finish_file(ra, i, -1, NULL, &err);
		return;
	}
	smpl_reader_set_opts(r, &ra->opts);
	b = new_batch(ra);
	while ((rc = smpl_reader_next(r, smpl_batch_slot(b), &err)) > 0) {
		smpl_batch_commit(b);
		if (b->n < BATCH_RECORDS && b->bytes < BATCH_BYTES && b->samples < BATCH_SAMPLES)
			continue;
		if (!queue_batch(ra, i, b)) {
			smpl_reader_close(r);
			return;
		}
		b = new_batch(ra);
	}
	/* once queued, b is the consumer's: not to be looked at again */
	if (!b->n) {
		pthread_mutex_lock(&ra->lock);
		give_back(ra, b);
		pthread_mutex_unlock(&ra->lock);
	} else if (!queue_batch(ra, i, b)) {
		smpl_reader_close(r);
		return;
	}
	finish_file(ra, i, rc < 0 ? -1 : 0, r, &err);
	smpl_reader_close(r);
}

static void *worker(void *arg)
{
	struct smpl_readahead *ra = arg;

	pthread_mutex_lock(&ra->lock);
	for (;;) {
		size_t i;

		while (!ra->stop && ra->next_file < ra->n && ra->next_file >= ra->consuming + ra->ahead)
			pthread_cond_wait(&ra->workers_wake, &ra->lock);
		if (ra->stop || ra->next_file >= ra->n)
			break;
		i = ra->next_file++;
		pthread_mutex_unlock(&ra->lock);
		read_file(ra, i);
		pthread_mutex_lock(&ra->lock);
	}
	pthread_mutex_unlock(&ra->lock);
	return NULL;
}

struct smpl_readahead *smpl_readahead_start(const char *const *paths, size_t n, unsigned workers, bool fold,
					    const struct smpl_read_opts *opts)
{
	struct smpl_readahead *ra = xcalloc(1, sizeof(*ra));

	ra->fold = fold;
	ra->opts = *opts;
	ra->paths = paths;
	ra->n = n;
	ra->files = xcalloc(n + 1, sizeof(*ra->files));
	ra->ahead = (size_t)workers + 1;
	/* every batch: QUEUE_DEPTH queued and one being filled per file in
	 * reach, and the consumer's */
	ra->spare = xcalloc(ra->ahead * (QUEUE_DEPTH + 1) + 2, sizeof(*ra->spare));
	pthread_mutex_init(&ra->lock, NULL);
	pthread_cond_init(&ra->workers_wake, NULL);
	pthread_cond_init(&ra->consumer_wake, NULL);
	ra->threads = xcalloc(workers, sizeof(*ra->threads));
	for (unsigned t = 0; t < workers && t < n; t++) {
		if (pthread_create(&ra->threads[t], NULL, worker, ra))
			break; /* fewer workers: the ones there read every file */
		ra->nr_threads++;
	}
	if (!ra->nr_threads) {
		smpl_readahead_stop(ra);
		return NULL;
	}
	return ra;
}

int smpl_readahead_next(struct smpl_readahead *ra, size_t i, const struct sample_record **out, uint64_t *count,
			struct smpl_status *st, struct pf_error *err)
{
	struct file_slot *f = &ra->files[i];
	int rc;

	if (ra->cur && ra->pos < ra->cur->n) {
		*count = ra->cur->counts[ra->pos];
		*out = &ra->cur->recs[ra->pos++];
		return 1;
	}
	pthread_mutex_lock(&ra->lock);
	if (ra->cur)
		give_back(ra, ra->cur);
	ra->cur = NULL;
	if (ra->consuming != i) {
		ra->consuming = i;
		pthread_cond_broadcast(&ra->workers_wake);
	}
	while (!f->len && !f->done)
		pthread_cond_wait(&ra->consumer_wake, &ra->lock);
	if (f->len) {
		ra->cur = f->queue[f->head];
		f->head = (f->head + 1) % QUEUE_DEPTH;
		f->len--;
		ra->pos = 0;
		pthread_cond_broadcast(&ra->workers_wake);
		pthread_mutex_unlock(&ra->lock);
		*count = ra->cur->counts[ra->pos];
		*out = &ra->cur->recs[ra->pos++];
		return 1;
	}
	rc = f->rc;
	*st = f->st;
	if (rc < 0)
		*err = f->err;
	pthread_mutex_unlock(&ra->lock);
	return rc;
}

void smpl_readahead_stop(struct smpl_readahead *ra)
{
	pthread_mutex_lock(&ra->lock);
	ra->stop = true;
	pthread_cond_broadcast(&ra->workers_wake);
	pthread_mutex_unlock(&ra->lock);
	for (unsigned t = 0; t < ra->nr_threads; t++)
		pthread_join(ra->threads[t], NULL);
	if (ra->cur)
		give_back(ra, ra->cur);
	for (size_t i = 0; i < ra->n; i++)
		for (size_t k = 0; k < ra->files[i].len; k++)
			give_back(ra, ra->files[i].queue[(ra->files[i].head + k) % QUEUE_DEPTH]);
	for (size_t k = 0; k < ra->nr_spare; k++) {
		smpl_batch_release(ra->spare[k]);
		free(ra->spare[k]);
	}
	free(ra->spare);
	free(ra->threads);
	free(ra->files);
	pthread_cond_destroy(&ra->workers_wake);
	pthread_cond_destroy(&ra->consumer_wake);
	pthread_mutex_destroy(&ra->lock);
	free(ra);
}
