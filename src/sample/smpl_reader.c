/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading pfmon's sample file (format: man/pfmon-smpl.5).
 *
 * A chunk is read whole and its CRC checked before any of its records is
 * handed out, so a corrupted file yields one error and never garbage
 * samples.  The one exception is the last chunk of a truncated file (the
 * writer was killed, the disk filled): its records cannot be checked, and
 * are returned up to the last complete one, with status.truncated set.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "sample/lbr_stack.h"
#include "sample/perf_data.h"
#include "sample/read_fail.h"
#include "sample/smpl_codec.h"
#include "sample/smpl_file.h"
#include "sample/smpl_format.h"

struct smpl_reader {
	char *name;
	FILE *f;
	struct smpl_header h;
	uint64_t off;           /* file offset of the next byte to read */
	uint64_t tell;          /* file offset just past the last record returned */
	uint64_t rec_at;        /* file offset of the last record decoded */
	struct obuf chunk;      /* payload of the current chunk */
	size_t pos;             /* next record in it */
	uint64_t chunk_off;     /* file offset of the payload */
	bool partial;           /* the chunk is cut short by the end of the file */
	bool eof;               /* no chunk after this one */
	uint64_t seq;           /* the number the next chunk must have (1.2) */
	bool returned_any;      /* a record was returned: no Itanium 2 configuration now */
	bool ia64;              /* the first record was an Itanium 2 configuration (1.3) */
	struct read_fail fail; /* the first failure, answered to every later call */
	struct smpl_delta d;
	struct smpl_status st;
	/* a perf.data file: everything is its reader's */
	struct perf_data_reader *perf;
	struct lbr_stacks *lbr; /* the LBR call stacks of either kind of file */
	unsigned char perf_head[SMPL_FIXED_HEADER_SIZE];
	size_t perf_head_len;
	/* storage behind the pointers of the last record */
	uint64_t *ips;
	size_t ips_cap;
	struct sample_branch *br;
	size_t br_cap;
	char *str;
	size_t str_cap;
};

/* the reader's shorthand for read_fail_bad_file() */
#define bad(r, err, ...) read_fail_bad_file(&(r)->fail, (r)->name, (err), __VA_ARGS__)

/* fread until n bytes or end of file; a read error is reported */
static int read_full(struct smpl_reader *r, void *buf, size_t n, size_t *got,
		     struct pf_error *err)
{
	*got = fread(buf, 1, n, r->f);
	if (*got < n && ferror(r->f))
		return read_fail_set(&r->fail, err, PF_E_INPUT, r->name, strerror(errno ? errno : EIO));
	r->off += *got;
	return 0;
}

static char *copy_str(const char *s, size_t n)
{
	char *c = xmalloc(n + 1);

	memcpy(c, s, n);
	c[n] = 0;
	return c;
}

static int parse_events(struct smpl_reader *r, struct ibuf *ib, struct pf_error *err)
{
	uint32_t i;

	r->h.events = xcalloc(r->h.nr_events + 1, sizeof(*r->h.events));
	for (i = 0; i < r->h.nr_events; i++) {
		struct smpl_event *e = &r->h.events[i];
		const char *s;
		size_t n;
		uint64_t flags;

		if (ib_str(ib, &s, &n))
			return bad(r, err, "corrupted header: bad name of event %" PRIu32, i);
		e->name = copy_str(s, n);
		if (ib_varint32(ib, &e->fields) || ib_varint32(ib, &e->attr_type) ||
		    ib_varint(ib, &e->attr_config) || ib_varint(ib, &e->sample_type) ||
		    ib_varint(ib, &flags) || ib_varint(ib, &e->period))
			return bad(r, err, "corrupted header: event '%s' overruns the header", e->name);
		if (e->fields & ~SAMPLE_F_ALL)
			return bad(r, err, "event '%s' has unknown sample fields 0x%" PRIx32
				   " (written by a newer pfmon?)", e->name, e->fields & ~SAMPLE_F_ALL);
		e->freq = flags & SMPL_EVENT_F_FREQ;
		e->counting = flags & SMPL_EVENT_F_COUNTING;
	}
	return 0;
}

/* the events whose counts each sample of e records */
static int parse_read_list(struct smpl_reader *r, struct ibuf *ib, struct smpl_event *e, struct pf_error *err)
{
	if (ib_varint32(ib, &e->n_reads) || e->n_reads > SAMPLE_MAX_READ)
		return bad(r, err, "corrupted header: bad read list of event '%s'", e->name);
	if (!!e->n_reads != !!(e->fields & SAMPLE_F_READ))
		return bad(r, err, "corrupted header: read list of event '%s' does not match its fields", e->name);
	for (uint32_t j = 0; j < e->n_reads; j++)
		if (ib_varint32(ib, &e->reads[j]) || e->reads[j] >= r->h.nr_events)
			return bad(r, err, "corrupted header: event '%s' reads an unknown event", e->name);
	return 0;
}

/* minor version 4: which rank of which job wrote the file */
static int parse_job(struct smpl_reader *r, struct ibuf *ib, struct pf_error *err)
{
	uint64_t has, rank, size;
	const char *s[3];
	size_t n[3];

	if (ib_varint(ib, &has) || has > 1)
		return bad(r, err, "corrupted header: bad job flag");
	r->h.has_job = has;
	if (!has)
		return 0;
	if (ib_varint(ib, &rank) || ib_varint(ib, &size) || rank >= size || size > INT32_MAX)
		return bad(r, err, "corrupted header: bad rank or job size");
	for (int i = 0; i < 3; i++)
		if (ib_str(ib, &s[i], &n[i]))
			return bad(r, err, "corrupted header: bad job strings");
	r->h.rank = (uint32_t)rank;
	r->h.size = (uint32_t)size;
	r->h.host = copy_str(s[0], n[0]);
	r->h.job_id = copy_str(s[1], n[1]);
	r->h.launcher = copy_str(s[2], n[2]);
	return 0;
}

/* the variable part of the header: command line, then the events */
static int parse_header_vars(struct smpl_reader *r, const unsigned char *b, size_t size,
			     struct pf_error *err)
{
	struct ibuf ib = { b + SMPL_FIXED_HEADER_SIZE, b + size - 4 };
	uint64_t argc;
	uint32_t i;

	if (ib_varint(&ib, &argc) || argc > ib_left(&ib))
		return bad(r, err, "corrupted header: bad command line");
	r->h.argc = (uint32_t)argc;
	r->h.argv = xcalloc(r->h.argc + 1, sizeof(char *));
	for (i = 0; i < r->h.argc; i++) {
		const char *s;
		size_t n;

		if (ib_str(&ib, &s, &n))
			return bad(r, err, "corrupted header: bad command line");
		r->h.argv[i] = copy_str(s, n);
	}
	if (r->h.nr_events > SMPL_MAX_EVENTS || r->h.nr_events > ib_left(&ib))
		return bad(r, err, "corrupted header: %" PRIu32 " events", r->h.nr_events);
	if (parse_events(r, &ib, err))
		return -1;
	/* minor version 1: each event's random period mask, then its read list */
	for (i = 0; r->h.version_minor >= 1 && i < r->h.nr_events; i++)
		if (ib_varint(&ib, &r->h.events[i].random_mask))
			return bad(r, err, "corrupted header: random period masks overrun the header");
	for (i = 0; r->h.version_minor >= 1 && i < r->h.nr_events; i++)
		if (parse_read_list(r, &ib, &r->h.events[i], err))
			return -1;
	if (r->h.version_minor >= 4 && parse_job(r, &ib, err))
		return -1;
	/* minor version 6: each event's branch_sample_type, the branch stack's depth */
	for (i = 0; r->h.version_minor >= 6 && i < r->h.nr_events; i++)
		if (ib_varint(&ib, &r->h.events[i].branch_sample_type))
			return bad(r, err, "corrupted header: branch sample types overrun the header");
	if (r->h.version_minor >= 6 && ib_varint32(&ib, &r->h.max_branches))
		return bad(r, err, "corrupted header: bad branch stack depth");
	/* bytes after these are a later minor version's: skipped */
	return 0;
}

/*
 * Does a stored checksum match?  A fuzzing build (tests/fuzz/) accepts any,
 * so that mutated files reach the decoders behind the checks: a checksum
 * catches accidents, not someone who crafts a file, so what lies behind it
 * must be safe on its own.
 */
static bool checksum_ok(const void *buf, size_t len, uint32_t stored)
{
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
	(void)buf;
	(void)len;
	(void)stored;
	return true;
#else
	return crc32_buf(buf, len) == stored;
#endif
}

static int read_header(struct smpl_reader *r, struct pf_error *err)
{
	unsigned char fixed[SMPL_FIXED_HEADER_SIZE], *b;
	size_t got;
	uint32_t size;
	int rc;

	if (read_full(r, fixed, sizeof(fixed), &got, err))
		return -1;
	if (got == 0)
		return bad(r, err, "empty file, not a pfmon sample file");
	if (perf_data_magic(fixed, got)) {
		/* perf record's file: its reader takes over from here */
		memcpy(r->perf_head, fixed, got);
		r->perf_head_len = got;
		return 1;
	}
	if (memcmp(fixed, SMPL_MAGIC, got < 8 ? got : 8))
		return bad(r, err, "not a pfmon sample file (bad magic)");
	if (got < sizeof(fixed))
		return bad(r, err, "truncated header (%zu of %d bytes)", got, SMPL_FIXED_HEADER_SIZE);
	if (get_le32(fixed + 12) != SMPL_BOM)
		return bad(r, err, "bad byte order marker %02x %02x %02x %02x (want 04 03 02 01)",
			   fixed[12], fixed[13], fixed[14], fixed[15]);
	r->h.version_major = get_le16(fixed + 8);
	r->h.version_minor = get_le16(fixed + 10);
	if (r->h.version_major != SMPL_VERSION_MAJOR)
		return bad(r, err, "unsupported format version %u.%u (this pfmon reads %d.x)",
			   r->h.version_major, r->h.version_minor, SMPL_VERSION_MAJOR);
	size = get_le32(fixed + 16);
	if (size < SMPL_FIXED_HEADER_SIZE + 4 || size > SMPL_HEADER_MAX)
		return bad(r, err, "corrupted header: impossible header size %" PRIu32, size);
	b = xmalloc(size);
	memcpy(b, fixed, sizeof(fixed));
	rc = read_full(r, b + sizeof(fixed), size - sizeof(fixed), &got, err);
	if (!rc && got < size - sizeof(fixed))
		rc = bad(r, err, "truncated header (%zu of %" PRIu32 " bytes)",
			 got + sizeof(fixed), size);
	if (!rc && !checksum_ok(b, size - 4, get_le32(b + size - 4)))
		rc = bad(r, err, "corrupted header (checksum mismatch)");
	if (!rc) {
		r->h.created_ns = get_le64(b + 24);
		r->h.clock_ns = get_le64(b + 32);
		r->h.clockid = (int32_t)get_le32(b + 40);
		r->h.nr_events = get_le32(b + 44);
		rc = parse_header_vars(r, b, size, err);
	}
	free(b);
	return rc;
}

static void reader_free(struct smpl_reader *r)
{
	uint32_t i;

	if (r->f && r->f != stdin)
		fclose(r->f);
	perf_data_reader_close(r->perf);
	lbr_stacks_free(r->lbr);
	for (i = 0; r->h.argv && i < r->h.argc; i++)
		free(r->h.argv[i]);
	free(r->h.argv);
	for (i = 0; r->h.events && i < r->h.nr_events; i++)
		free(r->h.events[i].name);
	free(r->h.events);
	free(r->h.host);
	free(r->h.job_id);
	free(r->h.launcher);
	smpl_stacks_free(r->d.stacks);
	ob_free(&r->chunk);
	free(r->d.period);
	free(r->ips);
	free(r->br);
	free(r->str);
	free(r->name);
	free(r);
}

struct smpl_reader *smpl_reader_fopen(FILE *f, const char *name, struct pf_error *err)
{
	struct smpl_reader *r = xcalloc(1, sizeof(*r));

	int rc;

	r->f = f;
	r->name = xstrdup(name);
	rc = read_header(r, err);
	if (rc == 1) {
		r->f = NULL;
		r->perf = perf_data_reader_fopen(f, r->perf_head, r->perf_head_len, name, err);
		rc = r->perf ? 0 : -1;
	}
	if (rc) {
		reader_free(r);
		return NULL;
	}
	r->tell = r->off;
	r->d.nr_events = r->h.nr_events;
	r->d.period = xcalloc(r->h.nr_events + 1, sizeof(*r->d.period));
	r->d.stacks = smpl_stacks_new();
	return r;
}

void smpl_reader_set_opts(struct smpl_reader *r, const struct smpl_read_opts *o)
{
	lbr_stacks_free(r->lbr);
	r->lbr = o->lbr_call_stacks ? lbr_stacks_new(smpl_reader_header(r), o->stitch_lbr) : NULL;
}

struct smpl_reader *smpl_reader_open(const char *path, struct pf_error *err)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rbe") : stdin;

	if (!f) {
		pf_error_set(err, PF_E_INPUT, path, strerror(errno));
		return NULL;
	}
	return smpl_reader_fopen(f, path, err);
}

const struct smpl_header *smpl_reader_header(const struct smpl_reader *r)
{
	return r->perf ? perf_data_reader_header(r->perf) : &r->h;
}

bool smpl_reader_is_perf_data(const struct smpl_reader *r)
{
	return r->perf != NULL;
}

int smpl_reader_dump_aux(struct smpl_reader *r, FILE *out, struct pf_error *err)
{
	if (!r->perf)
		return pf_error_set(err, PF_E_OPTION_APPLIES, "--dump-aux", "perf.data files");
	return perf_data_reader_dump_aux(r->perf, out, err);
}

uint64_t smpl_reader_tell(const struct smpl_reader *r)
{
	return r->perf ? perf_data_reader_tell(r->perf) : r->tell;
}

const struct smpl_status *smpl_reader_status(const struct smpl_reader *r)
{
	return r->perf ? perf_data_reader_status(r->perf) : &r->st;
}

void smpl_reader_close(struct smpl_reader *r)
{
	if (r)
		reader_free(r);
}

static void mark_truncated(struct smpl_reader *r, uint64_t at)
{
	r->st.truncated = true;
	r->st.truncated_at = at;
	r->eof = true;
}

/*
 * Since 1.2 each chunk starts with its sequence number (the record is then
 * skipped as an optional one): every chunk checks out on its own, so only
 * the numbers show one missing, repeated or moved.  1 when it is the next
 * one; 0 when the file ends inside it; -1 otherwise.
 */
static int check_sequence(struct smpl_reader *r, uint64_t at, struct pf_error *err)
{
	struct ibuf ib = { r->chunk.b, r->chunk.b + r->chunk.len };
	struct ibuf body;
	uint64_t len, seq;
	uint8_t code;

	if (r->h.version_minor < 2)
		return 1;
	if (ib_u8(&ib, &code) || ib_varint(&ib, &len) || len > ib_left(&ib)) {
		if (r->partial)
			return 1; /* cut in its first record: the reader reports the truncation */
		return bad(r, err, "the chunk at offset %" PRIu64 " has no sequence number", at);
	}
	body = (struct ibuf){ ib.p, ib.p + len };
	if (code != SMPL_REC_CHUNK || ib_varint(&body, &seq))
		return bad(r, err, "the chunk at offset %" PRIu64 " has no sequence number", at);
	if (seq != r->seq)
		return bad(r, err, "chunk %" PRIu64 " at offset %" PRIu64 " where chunk %" PRIu64
			   " belongs: chunks are missing, repeated or out of order", seq, at, r->seq);
	r->seq++;
	return 1;
}

/* 1: a chunk is loaded; 0: end of the file; -1: error */
static int load_chunk(struct smpl_reader *r, struct pf_error *err)
{
	unsigned char hb[SMPL_CHUNK_HEADER_SIZE];
	uint64_t at = r->off;
	uint32_t len;
	size_t got;

	if (read_full(r, hb, sizeof(hb), &got, err))
		return -1;
	if (got < sizeof(hb)) {
		if (got)
			mark_truncated(r, at);
		r->eof = true;
		return 0;
	}
	if (!checksum_ok(hb, 8, get_le32(hb + 8)))
		return bad(r, err, "corrupted chunk header at offset %" PRIu64, at);
	len = get_le32(hb);
	if (!len || len > SMPL_CHUNK_MAX)
		return bad(r, err, "impossible chunk length %" PRIu32 " at offset %" PRIu64, len, at);
	r->chunk.len = 0;
	ob_reserve(&r->chunk, len);
	if (read_full(r, r->chunk.b, len, &got, err))
		return -1;
	r->chunk.len = got;
	r->chunk_off = at + sizeof(hb);
	r->pos = 0;
	r->partial = got < len;
	if (!r->partial && !checksum_ok(r->chunk.b, len, get_le32(hb + 4)))
		return bad(r, err, "checksum mismatch in the chunk at offset %" PRIu64
			   " (%" PRIu32 " bytes): the file is corrupted", at, len);
	smpl_delta_reset(&r->d);
	return check_sequence(r, at, err);
}

/* decoding record bodies: each returns NULL or why the record is corrupted */
#define SKIP_RECORD ((const char *)1)

static void *grow(void *p, size_t *cap, size_t n, size_t elem)
{
	if (n <= *cap)
		return p;
	*cap = n < 64 ? 64 : n;
	return xrealloc(p, *cap * elem);
}

static const char *decode_chain(struct smpl_reader *r, struct ibuf *ib, struct sample *s)
{
	uint64_t nr, prev = s->ip;
	uint32_t i;

	/* every entry takes at least one byte: nr cannot exceed what is left */
	if (ib_varint(ib, &nr) || nr > ib_left(ib))
		return "bad callchain length";
	r->ips = grow(r->ips, &r->ips_cap, (size_t)nr, sizeof(*r->ips));
	for (i = 0; i < nr; i++) {
		int64_t d;

		if (ib_svarint(ib, &d))
			return "callchain overruns the record";
		r->ips[i] = prev + (uint64_t)d;
		if (r->ips[i] < SMPL_CONTEXT_MIN)
			prev = r->ips[i];
	}
	s->callchain_nr = (uint32_t)nr;
	s->callchain = r->ips;
	return NULL;
}

static const char *decode_branches(struct smpl_reader *r, struct ibuf *ib, struct sample *s)
{
	uint64_t nr, prev = s->ip;
	uint32_t i;

	if (ib_varint(ib, &nr) || nr > ib_left(ib) / 3)
		return "bad branch stack length";
	r->br = grow(r->br, &r->br_cap, (size_t)nr, sizeof(*r->br));
	for (i = 0; i < nr; i++) {
		struct sample_branch *b = &r->br[i];
		int64_t dto, dfrom;

		if (ib_svarint(ib, &dto) || ib_svarint(ib, &dfrom) || ib_varint(ib, &b->flags))
			return "branch stack overruns the record";
		b->to = prev + (uint64_t)dto;
		b->from = b->to + (uint64_t)dfrom;
		prev = b->from;
	}
	s->branch_nr = (uint32_t)nr;
	s->branches = r->br;
	return NULL;
}

/* a u32 given as a signed delta from base */
static int get_delta32(struct ibuf *ib, uint32_t base, uint32_t *v)
{
	int64_t d, x;

	if (ib_svarint(ib, &d) || d > (int64_t)UINT32_MAX || d < -(int64_t)UINT32_MAX)
		return -1;
	x = (int64_t)base + d;
	if (x < 0 || x > (int64_t)UINT32_MAX)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

/* a u64 given as a wrapping signed delta from *base, which it then replaces */
static int get_delta64(struct ibuf *ib, uint64_t *base, uint64_t *v)
{
	int64_t d;

	if (ib_svarint(ib, &d))
		return -1;
	*v = *base + (uint64_t)d;
	*base = *v;
	return 0;
}

static const char *decode_sample_fields(struct smpl_reader *r, struct ibuf *ib,
					struct sample *s, uint32_t f)
{
	struct smpl_delta *d = &r->d;

	if ((f & SAMPLE_F_IP) && get_delta64(ib, &d->ip, &s->ip))
		return "bad ip";
	if (f & SAMPLE_F_TID) {
		if (get_delta32(ib, d->pid, &s->pid) || get_delta32(ib, s->pid, &s->tid))
			return "bad pid or tid";
		d->pid = s->pid;
	}
	if ((f & SAMPLE_F_TIME) && get_delta64(ib, &d->time, &s->time))
		return "bad time";
	if ((f & SAMPLE_F_CPU) && ib_varint32(ib, &s->cpu))
		return "bad cpu";
	if ((f & SAMPLE_F_PERIOD) && get_delta64(ib, &d->period[s->evidx], &s->period))
		return "bad period";
	if ((f & SAMPLE_F_ADDR) && get_delta64(ib, &d->addr, &s->addr))
		return "bad data address";
	if ((f & SAMPLE_F_WEIGHT) && ib_varint(ib, &s->weight))
		return "bad weight";
	if ((f & SAMPLE_F_DATA_SRC) && ib_varint(ib, &s->data_src))
		return "bad data source";
	return NULL;
}

static const char *decode_sample(struct smpl_reader *r, struct ibuf *ib, struct sample *s)
{
	uint64_t head;
	uint32_t f;
	const char *why;

	if (ib_varint(ib, &head))
		return "bad sample head";
	if ((head >> SMPL_HEAD_EVIDX_SHIFT) >= r->h.nr_events)
		return "sample of an event not in the header";
	s->evidx = (uint32_t)(head >> SMPL_HEAD_EVIDX_SHIFT);
	s->cpumode = head & SMPL_HEAD_CPUMODE_MASK;
	s->exact_ip = !!(head & SMPL_HEAD_EXACT);
	f = s->fields = r->h.events[s->evidx].fields;
	why = decode_sample_fields(r, ib, s, f);
	if (!why && (f & SAMPLE_F_CALLCHAIN))
		why = decode_chain(r, ib, s);
	if (!why && (f & SAMPLE_F_BRANCH))
		why = decode_branches(r, ib, s);
	if (why)
		return why;
	if ((f & SAMPLE_F_ID) && ib_varint(ib, &s->id))
		return "bad id";
	if ((f & SAMPLE_F_STREAM_ID) && ib_varint(ib, &s->stream_id))
		return "bad stream id";
	if ((f & SAMPLE_F_INS_LAT) && ib_varint32(ib, &s->ins_lat))
		return "bad instruction latency";
	if ((f & SAMPLE_F_PHYS_ADDR) && ib_varint(ib, &s->phys_addr))
		return "bad physical address";
	if (f & SAMPLE_F_READ) {
		s->read_nr = r->h.events[s->evidx].n_reads;
		for (uint32_t i = 0; i < s->read_nr; i++)
			if (ib_varint(ib, &s->read[i]))
				return "bad read count";
	}
	if ((f & SAMPLE_F_USER_STACK) && (why = smpl_decode_user_stack(ib, r->d.stacks, s)))
		return why;
	if ((f & SAMPLE_F_BRANCH_HW_IDX) && ib_varint(ib, &s->branch_hw_idx))
		return "bad branch hw_idx";
	if (f & SAMPLE_F_P_STAGE_CYC) {
		uint32_t v;

		if (ib_varint32(ib, &v) || v > UINT16_MAX)
			return "bad pipeline stage cycles (p_stage_cyc)";
		s->p_stage_cyc = (uint16_t)v;
	}
	return NULL;
}

static const char *decode_sid(struct smpl_reader *r, struct ibuf *ib, struct sample_id *sid)
{
	if (ib_varint32(ib, &sid->fields) || (sid->fields & ~SAMPLE_ID_FIELDS))
		return "bad sample_id field mask";
	if ((sid->fields & SAMPLE_F_TID) &&
	    (ib_varint32(ib, &sid->pid) || ib_varint32(ib, &sid->tid)))
		return "bad sample_id pid or tid";
	if ((sid->fields & SAMPLE_F_TIME) && get_delta64(ib, &r->d.time, &sid->time))
		return "bad sample_id time";
	if ((sid->fields & SAMPLE_F_CPU) && ib_varint32(ib, &sid->cpu))
		return "bad sample_id cpu";
	if ((sid->fields & SAMPLE_F_ID) && ib_varint(ib, &sid->id))
		return "bad sample_id id";
	if ((sid->fields & SAMPLE_F_STREAM_ID) && ib_varint(ib, &sid->stream_id))
		return "bad sample_id stream id";
	return NULL;
}

/* a string of the record, NUL-terminated in the reader's storage */
static const char *get_str(struct smpl_reader *r, struct ibuf *ib)
{
	const char *s;
	size_t n;

	if (ib_str(ib, &s, &n))
		return NULL;
	r->str = grow(r->str, &r->str_cap, n + 1, 1);
	memcpy(r->str, s, n);
	r->str[n] = 0;
	return r->str;
}

static const char *decode_mmap(struct smpl_reader *r, struct ibuf *ib, struct sample_mmap *m)
{
	uint32_t fl, mode;

	if (ib_varint32(ib, &fl) || (fl & ~SMPL_MMAP_F_ALL) || ib_varint32(ib, &mode) ||
	    mode > SAMPLE_CPUMODE_MASK)
		return "bad mmap flags";
	m->has_build_id = fl & SMPL_MMAP_F_BUILD_ID;
	m->has_inode = fl & SMPL_MMAP_F_INODE;
	m->data = fl & SMPL_MMAP_F_DATA;
	m->cpumode = (uint8_t)mode;
	if (ib_varint32(ib, &m->pid) || ib_varint32(ib, &m->tid) || ib_varint(ib, &m->start) ||
	    ib_varint(ib, &m->len) || ib_varint(ib, &m->pgoff))
		return "bad mmap range";
	if (m->has_inode && (ib_varint32(ib, &m->maj) || ib_varint32(ib, &m->min) ||
			     ib_varint(ib, &m->ino) || ib_varint(ib, &m->ino_generation)))
		return "bad mmap inode";
	if (m->has_build_id) {
		if (ib_u8(ib, &m->build_id_size) || m->build_id_size > sizeof(m->build_id) ||
		    ib_left(ib) < m->build_id_size)
			return "bad mmap build id";
		memcpy(m->build_id, ib->p, m->build_id_size);
		ib->p += m->build_id_size;
	}
	if (ib_varint32(ib, &m->prot) || ib_varint32(ib, &m->flags))
		return "bad mmap protection";
	m->filename = get_str(r, ib);
	return m->filename ? NULL : "bad mmap file name";
}

static const char *decode_task(struct smpl_reader *r, struct ibuf *ib, struct sample_task *t)
{
	if (ib_varint32(ib, &t->pid) || ib_varint32(ib, &t->ppid) || ib_varint32(ib, &t->tid) ||
	    ib_varint32(ib, &t->ptid) || get_delta64(ib, &r->d.time, &t->time))
		return "bad fork or exit record";
	return NULL;
}

static const char *decode_side_band(struct smpl_reader *r, uint8_t code, struct ibuf *ib,
				    struct sample_record *out)
{
	struct sample_throttle *t = &out->throttle;
	uint32_t fl;
	const char *why = decode_sid(r, ib, &out->sid);

	if (why)
		return why;
	switch (code) {
	case SMPL_REC_MMAP:
		out->type = SREC_MMAP;
		return decode_mmap(r, ib, &out->mmap);
	case SMPL_REC_COMM:
		out->type = SREC_COMM;
		if (ib_varint32(ib, &fl) || (fl & ~SMPL_COMM_F_EXEC) ||
		    ib_varint32(ib, &out->comm.pid) || ib_varint32(ib, &out->comm.tid) ||
		    !(out->comm.comm = get_str(r, ib)))
			return "bad comm record";
		out->comm.exec = fl & SMPL_COMM_F_EXEC;
		return NULL;
	case SMPL_REC_FORK:
	case SMPL_REC_EXIT:
		out->type = code == SMPL_REC_FORK ? SREC_FORK : SREC_EXIT;
		return decode_task(r, ib, &out->task);
	case SMPL_REC_LOST:
		out->type = SREC_LOST;
		if (ib_varint(ib, &out->lost.id) || ib_varint(ib, &out->lost.lost))
			return "bad lost record";
		return NULL;
	case SMPL_REC_LOST_SAMPLES:
		out->type = SREC_LOST_SAMPLES;
		return ib_varint(ib, &out->lost.lost) ? "bad lost record" : NULL;
	default: /* SMPL_REC_THROTTLE, SMPL_REC_UNTHROTTLE */
		out->type = code == SMPL_REC_THROTTLE ? SREC_THROTTLE : SREC_UNTHROTTLE;
		if (get_delta64(ib, &r->d.time, &t->time) || ib_varint32(ib, &t->evidx) ||
		    ib_varint(ib, &t->id) || ib_varint(ib, &t->stream_id))
			return "bad throttle record";
		return NULL;
	}
}

/* a string of the record into a fixed array of size bytes (NUL included) */
static int get_fixed_str(struct ibuf *ib, char *out, size_t size)
{
	const char *s;
	size_t n;

	if (ib_str(ib, &s, &n) || n >= size)
		return -1;
	memcpy(out, s, n);
	out[n] = '\0';
	return 0;
}

static const char *decode_kernel(struct ibuf *ib, struct sample_kernel *k)
{
	if (ib_u8(ib, &k->build_id_size) || k->build_id_size > sizeof(k->build_id) ||
	    ib_left(ib) < k->build_id_size)
		return "bad kernel build id";
	memcpy(k->build_id, ib->p, k->build_id_size);
	ib->p += k->build_id_size;
	if (get_fixed_str(ib, k->boot_id, sizeof(k->boot_id)))
		return "bad kernel boot id";
	if (get_fixed_str(ib, k->release, sizeof(k->release)))
		return "bad kernel release";
	return NULL;
}

/* two strings of the record, one after the other in the reader's storage */
static const char *decode_ksym(struct smpl_reader *r, struct ibuf *ib, struct sample_ksym *k)
{
	const char *name, *module;
	size_t nn, nm;
	uint64_t size;

	if (ib_varint(ib, &k->addr) || ib_varint(ib, &size) || size > UINT64_MAX - k->addr)
		return "bad kernel symbol address or size";
	k->end = k->addr + size;
	if (ib_str(ib, &name, &nn) || !nn || ib_str(ib, &module, &nm))
		return "bad kernel symbol name or module";
	r->str = grow(r->str, &r->str_cap, nn + nm + 2, 1);
	memcpy(r->str, name, nn);
	r->str[nn] = 0;
	memcpy(r->str + nn + 1, module, nm);
	r->str[nn + 1 + nm] = 0;
	k->name = r->str;
	k->module = nm ? r->str + nn + 1 : NULL;
	return NULL;
}

static const char *decode_binary(struct smpl_reader *r, struct ibuf *ib, struct sample_binary *b)
{
	const char *path;
	size_t n;

	if (ib_str(ib, &path, &n) || !n || memchr(path, 0, n))
		return "bad binary path";
	if (ib_u8(ib, &b->build_id_size) || b->build_id_size > sizeof(b->build_id) ||
	    ib_left(ib) < b->build_id_size)
		return "bad binary build id";
	memcpy(b->build_id, ib->p, b->build_id_size);
	ib->p += b->build_id_size;
	if (ib_varint(ib, &b->dev) || ib_varint(ib, &b->ino) || ib_varint(ib, &b->mtime_ns) ||
	    ib_varint(ib, &b->size))
		return "bad binary identity";
	r->str = grow(r->str, &r->str_cap, n + 1, 1);
	memcpy(r->str, path, n);
	r->str[n] = 0;
	b->path = r->str;
	return NULL;
}

static const char *decode_ia64_config(struct ibuf *ib, struct ia64_dump_config *c)
{
	uint64_t has;

	if (ib_varint(ib, &has) || (has & ~(uint64_t)SMPL_IA64_HAS_ALL))
		return "bad Itanium 2 register set";
	c->has_pmc10 = has & SMPL_IA64_HAS_PMC10;
	c->has_pmc11 = has & SMPL_IA64_HAS_PMC11;
	c->has_pmc12 = has & SMPL_IA64_HAS_PMC12;
	if ((c->has_pmc10 && ib_varint(ib, &c->pmc10)) || (c->has_pmc11 && ib_varint(ib, &c->pmc11)) ||
	    (c->has_pmc12 && ib_varint(ib, &c->pmc12)))
		return "bad Itanium 2 PMC value";
	return NULL;
}

static const char *decode_ia64_sample(struct smpl_reader *r, struct ibuf *ib,
				      struct ia64_dump_sample *s)
{
	struct smpl_delta *d = &r->d;
	uint64_t fields, mask;

	if (ib_varint(ib, &fields) || (fields & ~(uint64_t)SMPL_IA64_FIELDS_ALL))
		return "bad Itanium 2 sample fields";
	if (ib_varint(ib, &mask) || (mask & ~(uint64_t)SMPL_IA64_PMDS_ALL))
		return "bad Itanium 2 PMD set";
	s->fields = (unsigned)fields;
	s->pmd_mask = (uint32_t)mask;
	if (get_delta64(ib, &d->ip, &s->ip))
		return "bad ip";
	if (((fields & IA64_DUMP_F_PID) && ib_varint32(ib, &s->pid)) ||
	    ((fields & IA64_DUMP_F_TID) && ib_varint32(ib, &s->tid)) ||
	    ((fields & IA64_DUMP_F_CPU) && ib_varint32(ib, &s->cpu)))
		return "bad pid, tid or cpu";
	if ((fields & IA64_DUMP_F_TIME) && get_delta64(ib, &d->time, &s->time))
		return "bad time";
	if ((fields & IA64_DUMP_F_PERIOD) && ib_varint(ib, &s->period))
		return "bad period";
	for (unsigned n = 0; n < IA64_DUMP_NR_PMDS; n++)
		if ((mask & (1u << n)) && get_delta64(ib, &d->pmd[n], &s->pmd[n]))
			return "bad PMD value";
	return NULL;
}

static const char *decode_body(struct smpl_reader *r, uint8_t code, struct ibuf *ib,
			       struct sample_record *out)
{
	struct sample_totals *e = &out->end;

	switch (code) {
	case SMPL_REC_SAMPLE:
		out->type = SREC_SAMPLE;
		return decode_sample(r, ib, &out->sample);
	case SMPL_REC_MMAP:
	case SMPL_REC_COMM:
	case SMPL_REC_FORK:
	case SMPL_REC_EXIT:
	case SMPL_REC_LOST:
	case SMPL_REC_LOST_SAMPLES:
	case SMPL_REC_THROTTLE:
	case SMPL_REC_UNTHROTTLE:
		return decode_side_band(r, code, ib, out);
	case SMPL_REC_END:
		out->type = SREC_END;
		if (ib_varint(ib, &e->samples) || ib_varint(ib, &e->lost) ||
		    ib_varint(ib, &e->throttled) || ib_varint(ib, &e->records))
			return "bad end record";
		e->end_ns = 0;
		if (r->h.version_minor >= 4 && ib_left(ib) && ib_varint(ib, &e->end_ns))
			return "bad end record";
		return NULL;
	case SMPL_REC_KERNEL:
		out->type = SREC_KERNEL;
		return decode_kernel(ib, &out->kernel);
	case SMPL_REC_KSYM:
		out->type = SREC_KSYM;
		return decode_ksym(r, ib, &out->ksym);
	case SMPL_REC_BINARY:
		out->type = SREC_BINARY;
		return decode_binary(r, ib, &out->binary);
	case SMPL_REC_IA64_CONFIG:
		out->type = SREC_IA64_CONFIG;
		return decode_ia64_config(ib, &out->ia64_config);
	case SMPL_REC_IA64_SAMPLE:
		out->type = SREC_IA64_SAMPLE;
		return decode_ia64_sample(r, ib, &out->ia64_sample);
	default:
		if (code >= SMPL_REC_OPTIONAL_MIN && code <= SMPL_REC_OPTIONAL_MAX)
			return SKIP_RECORD;
		return "unknown record type";
	}
}

/* 1: a record; 2: a skipped optional record; 0: truncated; -1: corrupted */
static int decode_record(struct smpl_reader *r, struct sample_record *out, struct pf_error *err)
{
	struct ibuf ib = { r->chunk.b + r->pos, r->chunk.b + r->chunk.len };
	uint64_t at = r->chunk_off + r->pos;
	struct ibuf body;
	uint8_t code;
	uint64_t len;
	const char *why;

	r->rec_at = at;
	if (ib_u8(&ib, &code) || ib_varint(&ib, &len) || len > ib_left(&ib)) {
		if (r->partial) {
			/* the writer never got to finish this record */
			mark_truncated(r, at);
			r->pos = r->chunk.len;
			return 0;
		}
		return bad(r, err, "corrupted record at offset %" PRIu64 ": it overruns its chunk", at);
	}
	body.p = ib.p;
	body.end = ib.p + len;
	r->pos = (size_t)(body.end - r->chunk.b);
	memset(out, 0, sizeof(*out));
	why = decode_body(r, code, &body, out);
	if (why == SKIP_RECORD)
		return 2;
	if (why)
		return bad(r, err, "corrupted record (type 0x%02x) at offset %" PRIu64 ": %s",
			   code, at, why);
	/* bytes left in the body belong to fields of a later minor version */
	return 1;
}

/* After the end record: nothing may follow, and its totals must match. */
static int check_end(struct smpl_reader *r, const struct sample_totals *e, uint64_t at,
		     struct pf_error *err)
{
	unsigned char c;
	size_t got;

	if (r->pos != r->chunk.len)
		return bad(r, err, "data after the end record at offset %" PRIu64,
			   r->chunk_off + r->pos);
	if (read_full(r, &c, 1, &got, err))
		return -1;
	if (got)
		return bad(r, err, "data after the end record at offset %" PRIu64, r->off - 1);
	if (e->samples != r->st.counted.samples || e->records != r->st.counted.records)
		return bad(r, err, "the end record at offset %" PRIu64 " counts %" PRIu64
			   " samples in %" PRIu64 " records but the file holds %" PRIu64 " in %" PRIu64
			   ": records are missing", at, e->samples, e->records,
			   r->st.counted.samples, r->st.counted.records);
	r->st.complete = true;
	r->st.end = *e;
	r->eof = true;
	return 0;
}

static void count(struct smpl_reader *r, const struct sample_record *out)
{
	/* the totals leave out the end record and the optional ones */
	if (out->type == SREC_END || out->type == SREC_KERNEL || out->type == SREC_KSYM ||
	    out->type == SREC_BINARY || out->type == SREC_IA64_CONFIG || out->type == SREC_IA64_SAMPLE)
		return;
	sample_totals_add(&r->st.counted, out);
}

/* An Itanium 2 dump's file (1.3) starts with its configuration and holds
 * its samples only; pfmon's other files hold none of them. */
static int check_ia64_order(struct smpl_reader *r, const struct sample_record *out,
			    struct pf_error *err)
{
	bool first = !r->returned_any;

	r->returned_any = true;
	if (out->type == SREC_IA64_CONFIG) {
		if (!first)
			return bad(r, err, "Itanium 2 configuration record at offset %" PRIu64
				   " is not the file's first record", r->rec_at);
		r->ia64 = true;
	} else if (out->type == SREC_IA64_SAMPLE && !r->ia64) {
		return bad(r, err, "Itanium 2 sample record at offset %" PRIu64
			   " in a file without an Itanium 2 configuration", r->rec_at);
	} else if (out->type == SREC_SAMPLE && r->ia64) {
		return bad(r, err, "sample record at offset %" PRIu64 " in an Itanium 2 dump's file",
			   r->rec_at);
	}
	return 0;
}

static int next_decoded(struct smpl_reader *r, struct sample_record *out, struct pf_error *err);

int smpl_reader_next(struct smpl_reader *r, struct sample_record *out, struct pf_error *err)
{
	int rc = r->perf ? perf_data_reader_next(r->perf, out, err) : next_decoded(r, out, err);

	if (rc > 0 && r->lbr)
		lbr_stacks_apply(r->lbr, out);
	return rc;
}

/* the next record of pfmon's own file */
static int next_decoded(struct smpl_reader *r, struct sample_record *out, struct pf_error *err)
{
	for (;;) {
		int rc;

		if (read_fail_again(&r->fail, err))
			return -1;
		if (r->pos >= r->chunk.len) {
			if (r->partial && !r->st.truncated)
				mark_truncated(r, r->chunk_off + r->chunk.len);
			if (r->eof || r->partial)
				return 0;
			rc = load_chunk(r, err);
			if (rc <= 0)
				return rc;
			continue;
		}
		rc = decode_record(r, out, err);
		if (rc == 2)
			continue; /* an optional record this reader does not know */
		if (rc == 1 && check_ia64_order(r, out, err))
			return -1;
		if (rc == 1) {
			r->tell = r->chunk_off + r->pos;
			count(r, out);
			if (out->type == SREC_END && check_end(r, &out->end, r->rec_at, err))
				return -1;
		}
		return rc;
	}
}
