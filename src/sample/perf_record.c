/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Decoding raw perf_event records.
 *
 * The layouts are those of include/uapi/linux/perf_event.h ("enum
 * perf_event_type"); a record is in the host's byte order since it comes
 * straight from the kernel.  All access goes through a cursor bounded by
 * header.size, so a record whose fields do not fit is reported, not read
 * past.  Records from the ring are 8-byte aligned and every field group
 * keeps that alignment, so callchains and branch stacks are handed out in
 * place, without copying.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/util.h"
#include "sample/perf_record.h"

/* types from here up are synthesized by tools (perf's util/event.h), not the
 * kernel; they carry no sample_id trailer */
#define PERF_RECORD_USER_TYPE_START 64

struct cursor {
	const unsigned char *p;
	const unsigned char *end;
};

static size_t cur_left(const struct cursor *c)
{
	return (size_t)(c->end - c->p);
}

static int cur_u64(struct cursor *c, uint64_t *v)
{
	if (cur_left(c) < 8)
		return -1;
	memcpy(v, c->p, 8);
	c->p += 8;
	return 0;
}

/* two u32 in one u64 slot: pid/tid, cpu/res, maj/min, prot/flags */
static int cur_u32x2(struct cursor *c, uint32_t *a, uint32_t *b)
{
	if (cur_left(c) < 8)
		return -1;
	memcpy(a, c->p, 4);
	memcpy(b, c->p + 4, 4);
	c->p += 8;
	return 0;
}

/* skip n u64 words, n coming from the record itself */
static int cur_skip_u64s(struct cursor *c, uint64_t n)
{
	if (n > cur_left(c) / 8)
		return -1;
	c->p += n * 8;
	return 0;
}

static int cur_skip_bytes(struct cursor *c, uint64_t n)
{
	if (n > cur_left(c))
		return -1;
	c->p += n;
	return 0;
}

static const char *const type_names[] = {
	[PERF_RECORD_MMAP] = "PERF_RECORD_MMAP",
	[PERF_RECORD_LOST] = "PERF_RECORD_LOST",
	[PERF_RECORD_COMM] = "PERF_RECORD_COMM",
	[PERF_RECORD_EXIT] = "PERF_RECORD_EXIT",
	[PERF_RECORD_THROTTLE] = "PERF_RECORD_THROTTLE",
	[PERF_RECORD_UNTHROTTLE] = "PERF_RECORD_UNTHROTTLE",
	[PERF_RECORD_FORK] = "PERF_RECORD_FORK",
	[PERF_RECORD_READ] = "PERF_RECORD_READ",
	[PERF_RECORD_SAMPLE] = "PERF_RECORD_SAMPLE",
	[PERF_RECORD_MMAP2] = "PERF_RECORD_MMAP2",
	[PERF_RECORD_AUX] = "PERF_RECORD_AUX",
	[PERF_RECORD_ITRACE_START] = "PERF_RECORD_ITRACE_START",
	[PERF_RECORD_LOST_SAMPLES] = "PERF_RECORD_LOST_SAMPLES",
	[PERF_RECORD_SWITCH] = "PERF_RECORD_SWITCH",
	[PERF_RECORD_SWITCH_CPU_WIDE] = "PERF_RECORD_SWITCH_CPU_WIDE",
	[PERF_RECORD_NAMESPACES] = "PERF_RECORD_NAMESPACES",
};

const char *perf_record_type_name(uint32_t type)
{
	if (type < ARRAY_SIZE(type_names) && type_names[type])
		return type_names[type];
	return "perf record";
}

static int malformed(struct pf_error *err, const struct perf_event_header *rec, const char *why)
{
	char msg[200];

	snprintf(msg, sizeof(msg), "%s (type %" PRIu32 ") of %u bytes: %s",
		 perf_record_type_name(rec->type), rec->type, rec->size, why);
	return pf_error_set(err, PF_E_SYSTEM, "malformed perf record", msg);
}

void perf_layout_from_attr(struct perf_layout *l, const struct perf_event_attr *attr,
			   uint32_t evidx)
{
	memset(l, 0, sizeof(*l));
	l->sample_type = attr->sample_type;
	l->read_format = attr->read_format;
	l->branch_sample_type = attr->branch_sample_type;
	l->sample_regs_user = attr->sample_regs_user;
	l->sample_regs_intr = attr->sample_regs_intr;
	l->sample_id_all = attr->sample_id_all;
	l->evidx = evidx;
}

uint32_t perf_sample_fields(uint64_t st)
{
	static const struct {
		uint64_t perf;
		uint32_t field;
	} map[] = {
		{ PERF_SAMPLE_IP, SAMPLE_F_IP },
		{ PERF_SAMPLE_TID, SAMPLE_F_TID },
		{ PERF_SAMPLE_TIME, SAMPLE_F_TIME },
		{ PERF_SAMPLE_CPU, SAMPLE_F_CPU },
		{ PERF_SAMPLE_PERIOD, SAMPLE_F_PERIOD },
		{ PERF_SAMPLE_ADDR, SAMPLE_F_ADDR },
		{ PERF_SAMPLE_WEIGHT, SAMPLE_F_WEIGHT },
		{ PERF_SAMPLE_WEIGHT_STRUCT, SAMPLE_F_WEIGHT | SAMPLE_F_INS_LAT | SAMPLE_F_P_STAGE_CYC },
		{ PERF_SAMPLE_DATA_SRC, SAMPLE_F_DATA_SRC },
		{ PERF_SAMPLE_CALLCHAIN, SAMPLE_F_CALLCHAIN },
		{ PERF_SAMPLE_BRANCH_STACK, SAMPLE_F_BRANCH },
		{ PERF_SAMPLE_ID, SAMPLE_F_ID },
		{ PERF_SAMPLE_IDENTIFIER, SAMPLE_F_ID },
		{ PERF_SAMPLE_STREAM_ID, SAMPLE_F_STREAM_ID },
		{ PERF_SAMPLE_PHYS_ADDR, SAMPLE_F_PHYS_ADDR },
		{ PERF_SAMPLE_READ, SAMPLE_F_READ },
	};
	uint32_t f = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(map); i++)
		if (st & map[i].perf)
			f |= map[i].field;
	/* an unwinder needs both the registers and the stack */
	if ((st & (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER)) ==
	    (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER))
		f |= SAMPLE_F_USER_STACK;
	return f;
}

/*
 * struct read_format of PERF_SAMPLE_READ.  A group read lists the leader
 * (the sampling event) first, then its siblings in the order they were
 * opened: the siblings' counts are kept, the leader's dropped.  A read of
 * a single event carries only its own count: nothing kept.
 */
static int decode_read_format(struct cursor *c, uint64_t rf, struct sample *s)
{
	uint64_t per_value = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	uint64_t times = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			 !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	uint64_t nr;

	if (!(rf & PERF_FORMAT_GROUP))
		return cur_skip_u64s(c, per_value + times);
	if (cur_u64(c, &nr) || cur_skip_u64s(c, times))
		return -1;
	if (nr > cur_left(c) / 8 / per_value || nr > SAMPLE_MAX_READ + 1)
		return -1;
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t v;

		if (cur_u64(c, &v) || cur_skip_u64s(c, per_value - 1))
			return -1;
		if (i)
			s->read[s->read_nr++] = v;
	}
	return 0;
}

/* { u64 abi; u64 regs[weight(mask)]; } */
static int skip_regs(struct cursor *c, uint64_t mask)
{
	uint64_t abi;

	if (cur_u64(c, &abi))
		return -1;
	return abi ? cur_skip_u64s(c, (uint64_t)__builtin_popcountll(mask)) : 0;
}

/* the user registers: kept in place (the record is 8-byte aligned) */
static int decode_regs_user(struct cursor *c, uint64_t mask, struct sample *s)
{
	uint64_t abi, n = (uint64_t)__builtin_popcountll(mask);

	if (cur_u64(c, &abi))
		return -1;
	if (!abi)
		return 0; /* PERF_SAMPLE_REGS_ABI_NONE: a kernel thread */
	if (abi > UINT32_MAX || n > cur_left(c) / 8)
		return -1;
	s->regs_abi = (uint32_t)abi;
	s->regs_mask = mask;
	s->regs = (const uint64_t *)(const void *)c->p;
	c->p += n * 8;
	return 0;
}

/* { u64 size; char data[size]; u64 dyn_size if size; }: dyn_size bytes
 * were copied (the rest of the stack was not mapped) */
static int decode_stack_user(struct cursor *c, struct sample *s)
{
	uint64_t size, dyn;
	const uint8_t *data;

	if (cur_u64(c, &size))
		return -1;
	if (!size)
		return 0;
	data = c->p;
	if (cur_skip_bytes(c, size) || cur_u64(c, &dyn))
		return -1;
	if (dyn > size)
		dyn = size;
	s->stack = data;
	s->stack_size = (uint32_t)(dyn < SAMPLE_MAX_STACK ? dyn : SAMPLE_MAX_STACK);
	return 0;
}

static int decode_callchain(struct cursor *c, struct sample *s)
{
	uint64_t nr;

	if (cur_u64(c, &nr) || nr > cur_left(c) / 8)
		return -1;
	s->callchain_nr = (uint32_t)nr;
	s->callchain = (const uint64_t *)(const void *)c->p;
	c->p += nr * 8;
	return 0;
}

uint32_t perf_attr_fields(const struct perf_event_attr *attr)
{
	uint32_t f = perf_sample_fields(attr->sample_type);

	if ((f & SAMPLE_F_BRANCH) && (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX))
		f |= SAMPLE_F_BRANCH_HW_IDX;
	return f;
}

static int decode_branch_stack(struct cursor *c, const struct perf_layout *l, struct sample *s)
{
	uint64_t nr, hw_idx;

	if (cur_u64(c, &nr))
		return -1;
	if ((l->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) && cur_u64(c, &hw_idx))
		return -1;
	if (l->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) {
		s->fields |= SAMPLE_F_BRANCH_HW_IDX;
		s->branch_hw_idx = hw_idx;
	}
	if (nr > cur_left(c) / sizeof(struct sample_branch))
		return -1;
	s->branch_nr = (uint32_t)nr;
	s->branches = (const struct sample_branch *)(const void *)c->p;
	c->p += nr * sizeof(struct sample_branch);
	if (l->branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS)
		return cur_skip_u64s(c, nr);
	return 0;
}

/* { u32 size; char data[size]; } padded so the whole is a multiple of 8 */
static int decode_raw(struct cursor *c, struct sample *s)
{
	uint32_t size;

	if (cur_left(c) < 4)
		return -1;
	memcpy(&size, c->p, 4);
	if (size > cur_left(c) - 4)
		return -1;
	s->raw_size = size;
	s->raw = c->p + 4;
	return cur_skip_bytes(c, ((uint64_t)size + 4 + 7) & ~(uint64_t)7);
}

/* IDENTIFIER .. PERIOD: the fixed fields at the start of a sample */
static int decode_sample_head(struct cursor *c, uint64_t st, struct sample *s)
{
	uint32_t res;

	if ((st & PERF_SAMPLE_IDENTIFIER) && cur_u64(c, &s->id))
		return -1;
	if ((st & PERF_SAMPLE_IP) && cur_u64(c, &s->ip))
		return -1;
	if ((st & PERF_SAMPLE_TID) && cur_u32x2(c, &s->pid, &s->tid))
		return -1;
	if ((st & PERF_SAMPLE_TIME) && cur_u64(c, &s->time))
		return -1;
	if ((st & PERF_SAMPLE_ADDR) && cur_u64(c, &s->addr))
		return -1;
	if ((st & PERF_SAMPLE_ID) && cur_u64(c, &s->id))
		return -1;
	if ((st & PERF_SAMPLE_STREAM_ID) && cur_u64(c, &s->stream_id))
		return -1;
	if ((st & PERF_SAMPLE_CPU) && cur_u32x2(c, &s->cpu, &res))
		return -1;
	if ((st & PERF_SAMPLE_PERIOD) && cur_u64(c, &s->period))
		return -1;
	return 0;
}

/* WEIGHT .. AUX: the fields after the register and stack dumps */
static int decode_sample_tail(struct cursor *c, const struct perf_layout *l, struct sample *s)
{
	uint64_t st = l->sample_type, v;

	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		if (cur_u64(c, &v))
			return -1;
		if (st & PERF_SAMPLE_WEIGHT_STRUCT) {
			/* var1_dw: latency; var2_w: instruction latency;
			 * var3_w: perf 6.1's p_stage_cyc */
			s->weight = v & 0xffffffffu;
			s->ins_lat = (uint32_t)((v >> 32) & 0xffffu);
			s->p_stage_cyc = (uint16_t)(v >> 48);
		} else {
			s->weight = v;
		}
	}
	if ((st & PERF_SAMPLE_DATA_SRC) && cur_u64(c, &s->data_src))
		return -1;
	if ((st & PERF_SAMPLE_TRANSACTION) && cur_u64(c, &v))
		return -1;
	if ((st & PERF_SAMPLE_REGS_INTR) && skip_regs(c, l->sample_regs_intr))
		return -1;
	if ((st & PERF_SAMPLE_PHYS_ADDR) && cur_u64(c, &s->phys_addr))
		return -1;
	if ((st & PERF_SAMPLE_CGROUP) && cur_u64(c, &v))
		return -1;
	if ((st & PERF_SAMPLE_DATA_PAGE_SIZE) && cur_u64(c, &v))
		return -1;
	if ((st & PERF_SAMPLE_CODE_PAGE_SIZE) && cur_u64(c, &v))
		return -1;
	if ((st & PERF_SAMPLE_AUX) && (cur_u64(c, &v) || cur_skip_bytes(c, v)))
		return -1;
	return 0;
}

static int decode_sample(struct cursor *c, const struct perf_event_header *rec,
			 const struct perf_layout *l, struct sample *s, struct pf_error *err)
{
	uint64_t st = l->sample_type;

	memset(s, 0, sizeof(*s));
	s->evidx = l->evidx;
	s->fields = perf_sample_fields(st);
	s->cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	s->exact_ip = !!(rec->misc & PERF_RECORD_MISC_EXACT_IP);
	if (decode_sample_head(c, st, s))
		return malformed(err, rec, "too short for its sample_type");
	if ((st & PERF_SAMPLE_READ) && decode_read_format(c, l->read_format, s))
		return malformed(err, rec, "read values overrun the record, or more than 16 of them");
	if ((st & PERF_SAMPLE_CALLCHAIN) && decode_callchain(c, s))
		return malformed(err, rec, "callchain overruns the record");
	if ((st & PERF_SAMPLE_RAW) && decode_raw(c, s))
		return malformed(err, rec, "raw data overruns the record");
	if ((st & PERF_SAMPLE_BRANCH_STACK) && decode_branch_stack(c, l, s))
		return malformed(err, rec, "branch stack overruns the record");
	if ((st & PERF_SAMPLE_REGS_USER) && decode_regs_user(c, l->sample_regs_user, s))
		return malformed(err, rec, "user registers overrun the record");
	if ((st & PERF_SAMPLE_STACK_USER) && decode_stack_user(c, s))
		return malformed(err, rec, "user stack overruns the record");
	if (decode_sample_tail(c, l, s))
		return malformed(err, rec, "too short for its sample_type");
	return 1;
}

/* bytes of the sample_id trailer of side-band records */
static size_t sample_id_size(const struct perf_layout *l)
{
	uint64_t st = l->sample_type;

	if (!l->sample_id_all)
		return 0;
	return 8 * (size_t)(!!(st & PERF_SAMPLE_TID) + !!(st & PERF_SAMPLE_TIME) +
			    !!(st & PERF_SAMPLE_ID) + !!(st & PERF_SAMPLE_STREAM_ID) +
			    !!(st & PERF_SAMPLE_CPU) + !!(st & PERF_SAMPLE_IDENTIFIER));
}

int perf_record_peek_time(const struct perf_event_header *rec, const struct perf_layout *l, uint64_t *time)
{
	uint64_t st = l->sample_type;
	size_t at;

	if (!(st & PERF_SAMPLE_TIME) || rec->type >= PERF_RECORD_USER_TYPE_START)
		return -1;
	if (rec->type == PERF_RECORD_SAMPLE) {
		at = sizeof(*rec) + 8 * (size_t)(!!(st & PERF_SAMPLE_IDENTIFIER) + !!(st & PERF_SAMPLE_IP) +
						 !!(st & PERF_SAMPLE_TID));
	} else {
		size_t sid = sample_id_size(l);

		if (!sid || sid + sizeof(*rec) > rec->size)
			return -1;
		at = rec->size - sid + 8 * (size_t)!!(st & PERF_SAMPLE_TID);
	}
	if (at + 8 > rec->size)
		return -1;
	memcpy(time, (const unsigned char *)rec + at, 8);
	return 0;
}

/* the trailer is exactly sample_id_size() bytes; cannot fail once sized */
static void decode_sample_id(struct cursor *c, uint64_t st, struct sample_id *sid)
{
	uint32_t res;
	uint64_t ident;

	memset(sid, 0, sizeof(*sid));
	if ((st & PERF_SAMPLE_TID) && !cur_u32x2(c, &sid->pid, &sid->tid))
		sid->fields |= SAMPLE_F_TID;
	if ((st & PERF_SAMPLE_TIME) && !cur_u64(c, &sid->time))
		sid->fields |= SAMPLE_F_TIME;
	if ((st & PERF_SAMPLE_ID) && !cur_u64(c, &sid->id))
		sid->fields |= SAMPLE_F_ID;
	if ((st & PERF_SAMPLE_STREAM_ID) && !cur_u64(c, &sid->stream_id))
		sid->fields |= SAMPLE_F_STREAM_ID;
	if ((st & PERF_SAMPLE_CPU) && !cur_u32x2(c, &sid->cpu, &res))
		sid->fields |= SAMPLE_F_CPU;
	if ((st & PERF_SAMPLE_IDENTIFIER) && !cur_u64(c, &ident)) {
		sid->id = ident;
		sid->fields |= SAMPLE_F_ID;
	}
}

/* a NUL-terminated string filling the rest of the body (NUL-padded to 8) */
static const char *cur_string(struct cursor *c)
{
	const char *s = (const char *)c->p;

	if (!cur_left(c) || !memchr(c->p, 0, cur_left(c)))
		return NULL;
	c->p = c->end;
	return s;
}

static int decode_mmap(struct cursor *c, const struct perf_event_header *rec,
		       struct sample_mmap *m)
{
	memset(m, 0, sizeof(*m));
	m->cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	m->data = !!(rec->misc & PERF_RECORD_MISC_MMAP_DATA);
	if (cur_u32x2(c, &m->pid, &m->tid) || cur_u64(c, &m->start) || cur_u64(c, &m->len) ||
	    cur_u64(c, &m->pgoff))
		return -1;
	if (rec->type == PERF_RECORD_MMAP2) {
		if (cur_left(c) < 24)
			return -1;
		if (rec->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			/* u8 size, u8 reserved, u16 reserved, u8 build_id[20] */
			m->has_build_id = true;
			m->build_id_size = c->p[0];
			if (m->build_id_size > sizeof(m->build_id))
				return -1;
			memcpy(m->build_id, c->p + 4, m->build_id_size);
			c->p += 24;
		} else {
			m->has_inode = true;
			if (cur_u32x2(c, &m->maj, &m->min))
				return -1;
			cur_u64(c, &m->ino);
			cur_u64(c, &m->ino_generation);
		}
		if (cur_u32x2(c, &m->prot, &m->flags))
			return -1;
	}
	m->filename = cur_string(c);
	return m->filename ? 0 : -1;
}

static int decode_side_band(struct cursor *c, const struct perf_event_header *rec,
			    struct sample_record *out)
{
	uint32_t t = rec->type;

	switch (t) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		out->type = SREC_MMAP;
		return decode_mmap(c, rec, &out->mmap);
	case PERF_RECORD_COMM:
		out->type = SREC_COMM;
		out->comm.exec = !!(rec->misc & PERF_RECORD_MISC_COMM_EXEC);
		if (cur_u32x2(c, &out->comm.pid, &out->comm.tid))
			return -1;
		out->comm.comm = cur_string(c);
		return out->comm.comm ? 0 : -1;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		out->type = t == PERF_RECORD_FORK ? SREC_FORK : SREC_EXIT;
		if (cur_u32x2(c, &out->task.pid, &out->task.ppid) ||
		    cur_u32x2(c, &out->task.tid, &out->task.ptid))
			return -1;
		return cur_u64(c, &out->task.time);
	case PERF_RECORD_LOST:
		out->type = SREC_LOST;
		return cur_u64(c, &out->lost.id) || cur_u64(c, &out->lost.lost) ? -1 : 0;
	case PERF_RECORD_LOST_SAMPLES:
		out->type = SREC_LOST_SAMPLES;
		return cur_u64(c, &out->lost.lost);
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		out->type = t == PERF_RECORD_THROTTLE ? SREC_THROTTLE : SREC_UNTHROTTLE;
		out->throttle.evidx = UINT32_MAX;
		if (cur_u64(c, &out->throttle.time) || cur_u64(c, &out->throttle.id))
			return -1;
		return cur_u64(c, &out->throttle.stream_id);
	default:
		out->type = SREC_NONE;
		return 0;
	}
}

int perf_record_decode(const struct perf_event_header *rec, const struct perf_layout *l,
		       struct sample_record *out, struct pf_error *err)
{
	struct cursor c;
	size_t sid_size;

	memset(out, 0, sizeof(*out));
	if (rec->size < sizeof(*rec))
		return malformed(err, rec, "size smaller than the record header");
	if ((uintptr_t)rec & 7)
		return malformed(err, rec, "record not 8-byte aligned");
	/* the kernel pads every record to 8 bytes; anything else is not its */
	if (rec->size & 7)
		return malformed(err, rec, "size not a multiple of 8");
	c.p = (const unsigned char *)(rec + 1);
	c.end = (const unsigned char *)rec + rec->size;
	if (rec->type == PERF_RECORD_SAMPLE) {
		out->type = SREC_SAMPLE;
		return decode_sample(&c, rec, l, &out->sample, err);
	}
	if (rec->type >= PERF_RECORD_USER_TYPE_START) {
		out->type = SREC_NONE;
		return 0;
	}
	/* the sample_id trailer sits at the very end, after any string */
	sid_size = sample_id_size(l);
	if (sid_size > cur_left(&c))
		return malformed(err, rec, "too short for its sample_id trailer");
	c.end -= sid_size;
	if (decode_side_band(&c, rec, out))
		return malformed(err, rec, "too short for its type, or a string is unterminated");
	if (out->type == SREC_NONE)
		return 0;
	if (sid_size) {
		struct cursor t = { c.end, c.end + sid_size };

		decode_sample_id(&t, l->sample_type, &out->sid);
	}
	return 1;
}

int perf_record_peek_id(const struct perf_event_header *rec, bool sample_id_all, uint64_t *id)
{
	const unsigned char *b = (const unsigned char *)rec;

	if (rec->size < sizeof(*rec) + 8)
		return -1;
	if (rec->type == PERF_RECORD_SAMPLE) {
		memcpy(id, b + sizeof(*rec), 8);
		return 0;
	}
	if (!sample_id_all || rec->type >= PERF_RECORD_USER_TYPE_START)
		return -1;
	memcpy(id, b + rec->size - 8, 8);
	return 0;
}
