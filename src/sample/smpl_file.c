/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Writing pfmon's sample file (format: man/pfmon-smpl.5).
 *
 * Records are encoded into an in-memory chunk; a chunk goes to the file in
 * one write() when it reaches SMPL_CHUNK_TARGET bytes or when the caller
 * flushes.  The header is written at open, so even a pfmon killed before
 * its first flush leaves a file that reads cleanly (with no records).
 * A write error is sticky: every later call fails with the first error.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/util.h"
#include "sample/smpl_codec.h"
#include "sample/smpl_file.h"
#include "sample/smpl_format.h"

struct smpl_writer {
	char *path;
	int fd;
	bool own_fd;
	struct obuf chunk;  /* SMPL_CHUNK_HEADER_SIZE reserved bytes, then records */
	struct obuf rec;    /* body of the record being encoded */
	struct smpl_delta d;
	uint32_t *fields;   /* per event */
	uint32_t *n_reads;  /* per event: counts in each sample (SAMPLE_F_READ) */
	struct sample_totals totals;
	uint64_t seq;       /* of the chunk being filled: 0, 1, 2... */
	bool failed;
	struct pf_error failure;
};

static int write_all(struct smpl_writer *w, const unsigned char *p, size_t n, struct pf_error *err)
{
	while (n) {
		ssize_t k = write(w->fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			w->failed = true;
			pf_error_set(&w->failure, PF_E_OUTPUT, w->path,
				     k < 0 ? strerror(errno) : "short write");
			if (err)
				*err = w->failure;
			return -1;
		}
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

static void writer_free(struct smpl_writer *w)
{
	ob_free(&w->chunk);
	ob_free(&w->rec);
	free(w->d.period);
	smpl_stacks_free(w->d.stacks);
	free(w->fields);
	free(w->n_reads);
	free(w->path);
	free(w);
}

static void encode_header(struct obuf *o, const struct smpl_header *h)
{
	struct timespec now;
	uint64_t created = h->created_ns;
	uint32_t i;
	size_t size_at;

	if (!created && !clock_gettime(CLOCK_REALTIME, &now))
		created = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
	ob_bytes(o, SMPL_MAGIC, 8);
	ob_u16(o, SMPL_VERSION_MAJOR);
	ob_u16(o, SMPL_VERSION_MINOR);
	ob_u32(o, SMPL_BOM);
	size_at = o->len;
	ob_u32(o, 0);          /* header size, patched below */
	ob_u32(o, 0);          /* flags: none defined */
	ob_u64(o, created);
	ob_u64(o, h->clock_ns);
	ob_u32(o, (uint32_t)h->clockid);
	ob_u32(o, h->nr_events);
	ob_varint(o, h->argc);
	for (i = 0; i < h->argc; i++)
		ob_str(o, h->argv[i]);
	for (i = 0; i < h->nr_events; i++) {
		const struct smpl_event *e = &h->events[i];

		ob_str(o, e->name);
		ob_varint(o, e->fields);
		ob_varint(o, e->attr_type);
		ob_varint(o, e->attr_config);
		ob_varint(o, e->sample_type);
		ob_varint(o, (e->freq ? SMPL_EVENT_F_FREQ : 0) | (e->counting ? SMPL_EVENT_F_COUNTING : 0));
		ob_varint(o, e->period);
	}
	/* minor version 1 */
	for (i = 0; i < h->nr_events; i++)
		ob_varint(o, h->events[i].random_mask);
	for (i = 0; i < h->nr_events; i++) {
		ob_varint(o, h->events[i].n_reads);
		for (uint32_t j = 0; j < h->events[i].n_reads; j++)
			ob_varint(o, h->events[i].reads[j]);
	}
	/* minor version 4: the job */
	ob_varint(o, h->has_job);
	if (h->has_job) {
		ob_varint(o, h->rank);
		ob_varint(o, h->size);
		ob_str(o, h->host ? h->host : "");
		ob_str(o, h->job_id ? h->job_id : "");
		ob_str(o, h->launcher ? h->launcher : "");
	}
	/* minor version 6: the branch stacks' */
	for (i = 0; i < h->nr_events; i++)
		ob_varint(o, h->events[i].branch_sample_type);
	ob_varint(o, h->max_branches);
	put_le32(o->b + size_at, (uint32_t)(o->len + 4));
	ob_u32(o, crc32_buf(o->b, o->len));
}

static int check_header(const char *path, const struct smpl_header *h, struct pf_error *err)
{
	uint32_t i;

	if (h->nr_events > SMPL_MAX_EVENTS)
		return pf_error_set(err, PF_E_OUTPUT, path, "too many events for a sample file");
	for (i = 0; i < h->nr_events; i++) {
		const struct smpl_event *e = &h->events[i];

		if (e->fields & ~SAMPLE_F_ALL)
			return pf_error_set(err, PF_E_OUTPUT, path, "unknown sample field requested");
		if (e->n_reads > SAMPLE_MAX_READ || !!e->n_reads != !!(e->fields & SAMPLE_F_READ))
			return pf_error_set(err, PF_E_OUTPUT, path, "read list does not match the read field");
		for (uint32_t j = 0; j < e->n_reads; j++)
			if (e->reads[j] >= h->nr_events)
				return pf_error_set(err, PF_E_OUTPUT, path, "read list names an unknown event");
	}
	return 0;
}

struct smpl_writer *smpl_writer_open(const char *path, const struct smpl_header *h,
				     struct pf_error *err)
{
	struct smpl_writer *w;
	struct obuf hb = { 0 };
	uint32_t i;
	int rc;

	if (check_header(path, h, err))
		return NULL;
	w = xcalloc(1, sizeof(*w));
	w->path = xstrdup(path);
	if (!strcmp(path, "-")) {
		w->fd = STDOUT_FILENO;
	} else {
		w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (w->fd < 0) {
			pf_error_set(err, PF_E_OUTPUT, path, strerror(errno));
			free(w->path);
			free(w);
			return NULL;
		}
		w->own_fd = true;
	}
	w->d.nr_events = h->nr_events;
	w->d.period = xcalloc(h->nr_events + 1, sizeof(*w->d.period));
	w->d.stacks = smpl_stacks_new();
	w->fields = xcalloc(h->nr_events + 1, sizeof(*w->fields));
	w->n_reads = xcalloc(h->nr_events + 1, sizeof(*w->n_reads));
	for (i = 0; i < h->nr_events; i++) {
		w->fields[i] = h->events[i].fields;
		w->n_reads[i] = h->events[i].n_reads;
	}
	ob_reserve(&w->chunk, SMPL_CHUNK_TARGET + SMPL_CHUNK_HEADER_SIZE);
	w->chunk.len = SMPL_CHUNK_HEADER_SIZE;

	encode_header(&hb, h);
	rc = write_all(w, hb.b, hb.len, err);
	ob_free(&hb);
	if (rc) {
		if (w->own_fd)
			close(w->fd);
		writer_free(w);
		return NULL;
	}
	return w;
}

/* Write the buffered records as one chunk and start a new one. */
int smpl_writer_flush(struct smpl_writer *w, struct pf_error *err)
{
	size_t payload = w->chunk.len - SMPL_CHUNK_HEADER_SIZE;
	unsigned char *b = w->chunk.b;

	if (w->failed) {
		if (err)
			*err = w->failure;
		return -1;
	}
	if (!payload)
		return 0;
	put_le32(b, (uint32_t)payload);
	put_le32(b + 4, crc32_buf(b + SMPL_CHUNK_HEADER_SIZE, payload));
	put_le32(b + 8, crc32_buf(b, 8));
	if (write_all(w, b, w->chunk.len, err))
		return -1;
	w->seq++;
	w->chunk.len = SMPL_CHUNK_HEADER_SIZE;
	smpl_delta_reset(&w->d);
	return 0;
}

static int check_size(struct smpl_writer *w, struct pf_error *err)
{
	if (w->rec.len > SMPL_RECORD_MAX)
		return pf_error_set(err, PF_E_OUTPUT, w->path, "record too large for a sample file");
	return 0;
}

static uint64_t varint_size(uint64_t v)
{
	uint64_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* append the record encoded in w->rec (of checked size) to the chunk */
static int emit(struct smpl_writer *w, enum smpl_code code, struct pf_error *err)
{
	if (w->chunk.len == SMPL_CHUNK_HEADER_SIZE) {
		/* each chunk starts with its number: a reader sees a chunk
		 * missing, repeated or moved, which the checksums cannot show */
		ob_u8(&w->chunk, SMPL_REC_CHUNK);
		ob_varint(&w->chunk, varint_size(w->seq));
		ob_varint(&w->chunk, w->seq);
	}
	ob_u8(&w->chunk, code);
	ob_varint(&w->chunk, w->rec.len);
	ob_bytes(&w->chunk, w->rec.b, w->rec.len);
	if (w->chunk.len - SMPL_CHUNK_HEADER_SIZE >= SMPL_CHUNK_TARGET)
		return smpl_writer_flush(w, err);
	return 0;
}

static void encode_chain(struct obuf *o, const struct sample *s)
{
	uint64_t prev = s->ip;
	uint32_t i;

	ob_varint(o, s->callchain_nr);
	for (i = 0; i < s->callchain_nr; i++) {
		uint64_t v = s->callchain[i];

		ob_svarint(o, (int64_t)(v - prev));
		if (v < SMPL_CONTEXT_MIN)
			prev = v;
	}
}

/*
 * Most recent branch first.  A branch's target lies shortly before the
 * source of the next more recent branch (or the sampled ip), and a source
 * lies near its own target: both deltas stay small.
 */
static void encode_branches(struct obuf *o, const struct sample *s)
{
	uint64_t prev = s->ip;
	uint32_t i;

	ob_varint(o, s->branch_nr);
	for (i = 0; i < s->branch_nr; i++) {
		const struct sample_branch *b = &s->branches[i];

		ob_svarint(o, (int64_t)(b->to - prev));
		ob_svarint(o, (int64_t)(b->from - b->to));
		ob_varint(o, b->flags);
		prev = b->from;
	}
}

static void encode_sample(struct smpl_writer *w, const struct sample *s, uint32_t f)
{
	struct obuf *o = &w->rec;
	struct smpl_delta *d = &w->d;

	ob_varint(o, (uint64_t)s->evidx << SMPL_HEAD_EVIDX_SHIFT |
			     (s->exact_ip ? SMPL_HEAD_EXACT : 0) | (s->cpumode & SMPL_HEAD_CPUMODE_MASK));
	if (f & SAMPLE_F_IP) {
		ob_svarint(o, (int64_t)(s->ip - d->ip));
		d->ip = s->ip;
	}
	if (f & SAMPLE_F_TID) {
		ob_svarint(o, (int64_t)s->pid - (int64_t)d->pid);
		ob_svarint(o, (int64_t)s->tid - (int64_t)s->pid);
		d->pid = s->pid;
	}
	if (f & SAMPLE_F_TIME) {
		ob_svarint(o, (int64_t)(s->time - d->time));
		d->time = s->time;
	}
	if (f & SAMPLE_F_CPU)
		ob_varint(o, s->cpu);
	if (f & SAMPLE_F_PERIOD) {
		ob_svarint(o, (int64_t)(s->period - d->period[s->evidx]));
		d->period[s->evidx] = s->period;
	}
	if (f & SAMPLE_F_ADDR) {
		ob_svarint(o, (int64_t)(s->addr - d->addr));
		d->addr = s->addr;
	}
	if (f & SAMPLE_F_WEIGHT)
		ob_varint(o, s->weight);
	if (f & SAMPLE_F_DATA_SRC)
		ob_varint(o, s->data_src);
	if (f & SAMPLE_F_CALLCHAIN)
		encode_chain(o, s);
	if (f & SAMPLE_F_BRANCH)
		encode_branches(o, s);
	if (f & SAMPLE_F_ID)
		ob_varint(o, s->id);
	if (f & SAMPLE_F_STREAM_ID)
		ob_varint(o, s->stream_id);
	if (f & SAMPLE_F_INS_LAT)
		ob_varint(o, s->ins_lat);
	if (f & SAMPLE_F_PHYS_ADDR)
		ob_varint(o, s->phys_addr);
	if (f & SAMPLE_F_READ)
		for (uint32_t i = 0; i < w->n_reads[s->evidx]; i++)
			ob_varint(o, s->read[i]);
	if (f & SAMPLE_F_USER_STACK)
		smpl_encode_user_stack(o, d->stacks, s);
	if (f & SAMPLE_F_BRANCH_HW_IDX)
		ob_varint(o, s->branch_hw_idx);
	if (f & SAMPLE_F_P_STAGE_CYC)
		ob_varint(o, s->p_stage_cyc);
}

int smpl_write_sample(struct smpl_writer *w, const struct sample *s, struct pf_error *err)
{
	uint32_t f;

	if (w->failed) {
		if (err)
			*err = w->failure;
		return -1;
	}
	if (s->evidx >= w->d.nr_events)
		return pf_error_set(err, PF_E_OUTPUT, w->path, "sample of an event not in the header");
	f = w->fields[s->evidx];
	if (((f & SAMPLE_F_CALLCHAIN) && s->callchain_nr && !s->callchain) ||
	    ((f & SAMPLE_F_BRANCH) && s->branch_nr && !s->branches))
		return pf_error_set(err, PF_E_OUTPUT, w->path, "sample without its callchain or branch data");
	if ((f & SAMPLE_F_USER_STACK) && s->regs_abi &&
	    ((__builtin_popcountll(s->regs_mask) && !s->regs) || (s->stack_size && !s->stack) ||
	     s->stack_size > SAMPLE_MAX_STACK))
		return pf_error_set(err, PF_E_OUTPUT, w->path, "sample without its user registers or stack");
	if ((f & SAMPLE_F_READ) && s->read_nr != w->n_reads[s->evidx])
		return pf_error_set(err, PF_E_OUTPUT, w->path, "sample without the counts of its read list");
	w->rec.len = 0;
	encode_sample(w, s, f);
	if (check_size(w, err))
		return -1;
	w->totals.samples++;
	w->totals.records++;
	return emit(w, SMPL_REC_SAMPLE, err);
}

/* the sample_id prefix of every side-band record */
static void encode_sid(struct smpl_writer *w, const struct sample_id *sid)
{
	struct obuf *o = &w->rec;
	uint32_t f = sid ? sid->fields & SAMPLE_ID_FIELDS : 0;

	ob_varint(o, f);
	if (f & SAMPLE_F_TID) {
		ob_varint(o, sid->pid);
		ob_varint(o, sid->tid);
	}
	if (f & SAMPLE_F_TIME) {
		ob_svarint(o, (int64_t)(sid->time - w->d.time));
		w->d.time = sid->time;
	}
	if (f & SAMPLE_F_CPU)
		ob_varint(o, sid->cpu);
	if (f & SAMPLE_F_ID)
		ob_varint(o, sid->id);
	if (f & SAMPLE_F_STREAM_ID)
		ob_varint(o, sid->stream_id);
}

static void encode_mmap(struct obuf *o, const struct sample_mmap *m)
{
	uint32_t fl = (m->has_build_id ? SMPL_MMAP_F_BUILD_ID : 0) |
		      (m->has_inode ? SMPL_MMAP_F_INODE : 0) | (m->data ? SMPL_MMAP_F_DATA : 0);
	uint8_t bsz = m->build_id_size > sizeof(m->build_id) ? sizeof(m->build_id) : m->build_id_size;

	ob_varint(o, fl);
	ob_varint(o, m->cpumode);
	ob_varint(o, m->pid);
	ob_varint(o, m->tid);
	ob_varint(o, m->start);
	ob_varint(o, m->len);
	ob_varint(o, m->pgoff);
	if (m->has_inode) {
		ob_varint(o, m->maj);
		ob_varint(o, m->min);
		ob_varint(o, m->ino);
		ob_varint(o, m->ino_generation);
	}
	if (m->has_build_id) {
		ob_u8(o, bsz);
		ob_bytes(o, m->build_id, bsz);
	}
	ob_varint(o, m->prot);
	ob_varint(o, m->flags);
	ob_str(o, m->filename);
}

/* a record's time, shared with the samples' delta base */
static void encode_time(struct smpl_writer *w, uint64_t t)
{
	ob_svarint(&w->rec, (int64_t)(t - w->d.time));
	w->d.time = t;
}

static enum smpl_code encode_side_band(struct smpl_writer *w, const struct sample_record *r)
{
	struct obuf *o = &w->rec;

	encode_sid(w, &r->sid);
	switch (r->type) {
	case SREC_MMAP:
		encode_mmap(o, &r->mmap);
		return SMPL_REC_MMAP;
	case SREC_COMM:
		ob_varint(o, r->comm.exec ? SMPL_COMM_F_EXEC : 0);
		ob_varint(o, r->comm.pid);
		ob_varint(o, r->comm.tid);
		ob_str(o, r->comm.comm);
		return SMPL_REC_COMM;
	case SREC_FORK:
	case SREC_EXIT:
		ob_varint(o, r->task.pid);
		ob_varint(o, r->task.ppid);
		ob_varint(o, r->task.tid);
		ob_varint(o, r->task.ptid);
		encode_time(w, r->task.time);
		return r->type == SREC_FORK ? SMPL_REC_FORK : SMPL_REC_EXIT;
	case SREC_LOST:
		ob_varint(o, r->lost.id);
		ob_varint(o, r->lost.lost);
		return SMPL_REC_LOST;
	case SREC_LOST_SAMPLES:
		ob_varint(o, r->lost.lost);
		return SMPL_REC_LOST_SAMPLES;
	case SREC_THROTTLE:
	case SREC_UNTHROTTLE:
		encode_time(w, r->throttle.time);
		ob_varint(o, r->throttle.evidx);
		ob_varint(o, r->throttle.id);
		ob_varint(o, r->throttle.stream_id);
		return r->type == SREC_THROTTLE ? SMPL_REC_THROTTLE : SMPL_REC_UNTHROTTLE;
	default:
		return 0;
	}
}

/* no sample_id: the record is pfmon's, not the kernel's */
static void encode_kernel(struct obuf *o, const struct sample_kernel *k)
{
	uint8_t bsz = k->build_id_size > sizeof(k->build_id) ? sizeof(k->build_id) : k->build_id_size;

	ob_u8(o, bsz);
	ob_bytes(o, k->build_id, bsz);
	ob_varint(o, strnlen(k->boot_id, sizeof(k->boot_id) - 1));
	ob_bytes(o, k->boot_id, strnlen(k->boot_id, sizeof(k->boot_id) - 1));
	ob_varint(o, strnlen(k->release, sizeof(k->release) - 1));
	ob_bytes(o, k->release, strnlen(k->release, sizeof(k->release) - 1));
}

static void encode_ksym(struct obuf *o, const struct sample_ksym *k)
{
	ob_varint(o, k->addr);
	ob_varint(o, k->end - k->addr);
	ob_str(o, k->name);
	ob_str(o, k->module ? k->module : "");
}

static void encode_binary(struct obuf *o, const struct sample_binary *b)
{
	uint8_t bsz = b->build_id_size > sizeof(b->build_id) ? sizeof(b->build_id) : b->build_id_size;

	ob_str(o, b->path);
	ob_u8(o, bsz);
	ob_bytes(o, b->build_id, bsz);
	ob_varint(o, b->dev);
	ob_varint(o, b->ino);
	ob_varint(o, b->mtime_ns);
	ob_varint(o, b->size);
}

static void encode_ia64_config(struct obuf *o, const struct ia64_dump_config *c)
{
	ob_varint(o, (c->has_pmc10 ? SMPL_IA64_HAS_PMC10 : 0) | (c->has_pmc11 ? SMPL_IA64_HAS_PMC11 : 0) |
			     (c->has_pmc12 ? SMPL_IA64_HAS_PMC12 : 0));
	if (c->has_pmc10)
		ob_varint(o, c->pmc10);
	if (c->has_pmc11)
		ob_varint(o, c->pmc11);
	if (c->has_pmc12)
		ob_varint(o, c->pmc12);
}

/* ip, time and each PMD as the difference from the chunk's last one:
 * consecutive samples hit nearby code and data */
static void encode_ia64_sample(struct smpl_writer *w, const struct ia64_dump_sample *s)
{
	struct obuf *o = &w->rec;
	struct smpl_delta *d = &w->d;

	ob_varint(o, s->fields & SMPL_IA64_FIELDS_ALL);
	ob_varint(o, s->pmd_mask & SMPL_IA64_PMDS_ALL);
	ob_svarint(o, (int64_t)(s->ip - d->ip));
	d->ip = s->ip;
	if (s->fields & IA64_DUMP_F_PID)
		ob_varint(o, s->pid);
	if (s->fields & IA64_DUMP_F_TID)
		ob_varint(o, s->tid);
	if (s->fields & IA64_DUMP_F_CPU)
		ob_varint(o, s->cpu);
	if (s->fields & IA64_DUMP_F_TIME) {
		ob_svarint(o, (int64_t)(s->time - d->time));
		d->time = s->time;
	}
	if (s->fields & IA64_DUMP_F_PERIOD)
		ob_varint(o, s->period);
	for (unsigned n = 0; n < IA64_DUMP_NR_PMDS; n++)
		if (s->pmd_mask & (1u << n)) {
			ob_svarint(o, (int64_t)(s->pmd[n] - d->pmd[n]));
			d->pmd[n] = s->pmd[n];
		}
}

int smpl_write_record(struct smpl_writer *w, const struct sample_record *rec,
		      struct pf_error *err)
{
	enum smpl_code code;

	if (rec->type == SREC_SAMPLE)
		return smpl_write_sample(w, &rec->sample, err);
	if (w->failed) {
		if (err)
			*err = w->failure;
		return -1;
	}
	if (rec->type == SREC_NONE)
		return 0;
	w->rec.len = 0;
	if (rec->type == SREC_KERNEL) {
		/* optional: left out of the totals (see SMPL_REC_OPTIONAL_MIN) */
		encode_kernel(&w->rec, &rec->kernel);
		return emit(w, SMPL_REC_KERNEL, err);
	}
	if (rec->type == SREC_KSYM) {
		if (!rec->ksym.name || rec->ksym.end < rec->ksym.addr)
			return pf_error_set(err, PF_E_OUTPUT, w->path, "kernel symbol without a name or a size");
		encode_ksym(&w->rec, &rec->ksym);
		if (check_size(w, err))
			return -1;
		return emit(w, SMPL_REC_KSYM, err);
	}
	/* optional, as the kernel record: a 1.2 reader skips them */
	if (rec->type == SREC_IA64_CONFIG) {
		encode_ia64_config(&w->rec, &rec->ia64_config);
		return emit(w, SMPL_REC_IA64_CONFIG, err);
	}
	if (rec->type == SREC_IA64_SAMPLE) {
		encode_ia64_sample(w, &rec->ia64_sample);
		return emit(w, SMPL_REC_IA64_SAMPLE, err);
	}
	if (rec->type == SREC_BINARY) {
		if (!rec->binary.path || !rec->binary.path[0])
			return pf_error_set(err, PF_E_OUTPUT, w->path, "binary record without a path");
		encode_binary(&w->rec, &rec->binary);
		if (check_size(w, err))
			return -1;
		return emit(w, SMPL_REC_BINARY, err);
	}
	code = encode_side_band(w, rec);
	if (!code)
		return pf_error_set(err, PF_E_OUTPUT, w->path, "record type not stored in sample files");
	if (check_size(w, err))
		return -1;
	sample_totals_add(&w->totals, rec);
	return emit(w, code, err);
}

static int write_one(struct smpl_writer *w, enum sample_rec_type type, const void *body,
		     size_t size, const struct sample_id *sid, struct pf_error *err)
{
	struct sample_record r;

	memset(&r, 0, sizeof(r));
	r.type = type;
	if (sid)
		r.sid = *sid;
	memcpy(&r.sample, body, size); /* every union member starts at the same place */
	return smpl_write_record(w, &r, err);
}

int smpl_write_mmap(struct smpl_writer *w, const struct sample_mmap *m,
		    const struct sample_id *sid, struct pf_error *err)
{
	return write_one(w, SREC_MMAP, m, sizeof(*m), sid, err);
}

/* end record, last chunk, fsync: only a file that got here is "complete" */
static int finish(struct smpl_writer *w, struct pf_error *err)
{
	struct timespec now;

	w->rec.len = 0;
	ob_varint(&w->rec, w->totals.samples);
	ob_varint(&w->rec, w->totals.lost);
	ob_varint(&w->rec, w->totals.throttled);
	ob_varint(&w->rec, w->totals.records);
	/* minor version 4: when the run ended */
	ob_varint(&w->rec, clock_gettime(CLOCK_REALTIME, &now) ? 0
			   : (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec);
	if (emit(w, SMPL_REC_END, err) || smpl_writer_flush(w, err))
		return -1;
	/* a pipe or a terminal cannot be synced, and need not be */
	if (fsync(w->fd) && errno != EINVAL && errno != EROFS && errno != ENOTSUP)
		return pf_error_set(err, PF_E_OUTPUT, w->path, strerror(errno));
	return 0;
}

int smpl_writer_close(struct smpl_writer *w, struct pf_error *err)
{
	int rc = 0;

	if (!w)
		return 0;
	if (w->failed) {
		if (err)
			*err = w->failure;
		rc = -1;
	} else {
		rc = finish(w, err);
	}
	if (w->own_fd && close(w->fd) && !rc)
		rc = pf_error_set(err, PF_E_OUTPUT, w->path, strerror(errno));
	writer_free(w);
	return rc;
}
