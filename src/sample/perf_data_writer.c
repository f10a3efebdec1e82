/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Writing perf.data: the records of a session (or of a pfmon sample file)
 * in the file layout of perf record, for perf report, perf script and
 * hotspot.
 *
 * Layout: the file header, each event's id, the events' attributes, the
 * data section (records buffered and written as they come), then at close
 * the header features (build-ids, host, kernel release, perf's version
 * slot, architecture, CPUs, command line, event names) and the final
 * header.  The header written at open already points at the attributes and
 * the data, with a data size of 0: the file of a pfmon that was killed is
 * read to its end by perf report (with its warning) and by pfmon.
 *
 * Each event gets one id (its index + 1) and PERF_SAMPLE_IDENTIFIER, so
 * records of several events need no other rule to be told apart; side-band
 * records carry the first event's sample_id trailer (sample_id_all).  A
 * sample's fields are those pfmon keeps (man/pfmon-smpl.5), the user
 * registers and stack of --call-graph=dwarf included: branch stacks
 * and the counts read in samples (pfmon's non-sampling events) have no
 * place in what perf report reads back without the events' group, and are
 * left out.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "common/util.h"
#include "sample/perf_data.h"
#include "sample/perf_data_format.h"
#include "sample/perf_record.h"
#include "sample/zstd_stream.h"
#include "sample/smpl_codec.h"

#ifndef PERF_RECORD_MISC_MMAP_BUILD_ID
#define PERF_RECORD_MISC_MMAP_BUILD_ID (1 << 14)
#endif

_Static_assert(sizeof(struct perf_event_attr) >= PD_ATTR_SIZE_WRITTEN,
	       "perf_event_attr of the uapi header older than PERF_ATTR_SIZE_VER5");

#define PD_FLUSH_AT (64u << 10)
/* a record's size is a u16 */
#define PD_RECORD_MAX 65528u

struct pd_build_id {
	char *path;
	bool kernel;
	uint8_t len;
	uint8_t id[SAMPLE_BUILD_ID_MAX];
};

struct pd_event {
	char *name;
	uint64_t sample_type;
	struct perf_event_attr attr;
};

struct perf_data_writer {
	char *path;
	int fd;
	uint32_t nr_events;
	struct pd_event *ev;
	uint64_t ids_off, attrs_off, data_off, data_size;
	struct obuf buf;            /* records not written yet */
	struct pd_build_id *bids;
	size_t n_bids;
	char release[SAMPLE_KERNEL_RELEASE_MAX + 1];
	char **argv;
	uint32_t max_branches; /* the LBR's depth: CPU_PMU_CAPS branches=, 0: not written */
	uint32_t argc;
	/* perf record -z's compression: each flush's records as one flushed
	 * piece of a zstd stream, in COMPRESSED records */
	struct zstd_writer *zstd;
	int zstd_level;
	struct zstd_out zbuf;
	uint64_t bytes_in, bytes_out, max_chunk;
	bool failed;
	struct pf_error failure;
};

/* the PERF_SAMPLE_* bits of pfmon's sample fields, those perf.data keeps */
static uint64_t sample_type_of(uint32_t fields)
{
	static const struct {
		uint32_t field;
		uint64_t bit;
	} map[] = {
		{ SAMPLE_F_IP, PERF_SAMPLE_IP },       { SAMPLE_F_TID, PERF_SAMPLE_TID },
		{ SAMPLE_F_TIME, PERF_SAMPLE_TIME },   { SAMPLE_F_CPU, PERF_SAMPLE_CPU },
		{ SAMPLE_F_PERIOD, PERF_SAMPLE_PERIOD }, { SAMPLE_F_ADDR, PERF_SAMPLE_ADDR },
		{ SAMPLE_F_CALLCHAIN, PERF_SAMPLE_CALLCHAIN }, { SAMPLE_F_DATA_SRC, PERF_SAMPLE_DATA_SRC },
		{ SAMPLE_F_PHYS_ADDR, PERF_SAMPLE_PHYS_ADDR }, { SAMPLE_F_BRANCH, PERF_SAMPLE_BRANCH_STACK },
	};
	uint64_t t = PERF_SAMPLE_IDENTIFIER;

	for (size_t i = 0; i < ARRAY_SIZE(map); i++)
		if (fields & map[i].field)
			t |= map[i].bit;
	if (fields & SAMPLE_F_USER_STACK)
		t |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	if (fields & (SAMPLE_F_INS_LAT | SAMPLE_F_P_STAGE_CYC))
		t |= PERF_SAMPLE_WEIGHT_STRUCT;
	else if (fields & SAMPLE_F_WEIGHT)
		t |= PERF_SAMPLE_WEIGHT;
	return t;
}

/* the first failure is kept and answered to every later call */
static int fail_why(struct perf_data_writer *w, struct pf_error *err, const char *why)
{
	if (!w->failed) {
		w->failed = true;
		pf_error_set(&w->failure, PF_E_OUTPUT, w->path, why);
	}
	if (err)
		*err = w->failure;
	return -1;
}

static int fail(struct perf_data_writer *w, struct pf_error *err, int e)
{
	return fail_why(w, err, strerror(e));
}

static int write_at(struct perf_data_writer *w, const void *p, size_t n, uint64_t off,
		    struct pf_error *err)
{
	const unsigned char *b = p;

	while (n) {
		ssize_t got = pwrite(w->fd, b, n, (off_t)off);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return fail(w, err, got < 0 ? errno : ENOSPC);
		b += got;
		n -= (size_t)got;
		off += (uint64_t)got;
	}
	return 0;
}

/* ----- header parts ----- */

static void put_section(unsigned char *p, uint64_t off, uint64_t size)
{
	memcpy(p, &off, 8);
	memcpy(p + 8, &size, 8);
}

static void file_header(const struct perf_data_writer *w, unsigned char *h, const uint64_t *features,
			uint64_t data_size)
{
	uint64_t v;

	memset(h, 0, PD_HEADER_SIZE);
	memcpy(h + PD_OFF_MAGIC, PERF_DATA_MAGIC, 8);
	v = PD_HEADER_SIZE;
	memcpy(h + PD_OFF_SIZE, &v, 8);
	v = PD_ATTR_SIZE_WRITTEN + PD_SECTION_SIZE;
	memcpy(h + PD_OFF_ATTR_SIZE, &v, 8);
	put_section(h + PD_OFF_ATTRS, w->attrs_off, (uint64_t)w->nr_events * v);
	put_section(h + PD_OFF_DATA, w->data_off, data_size);
	if (features)
		memcpy(h + PD_OFF_FEATURES, features, PD_FEAT_BITS / 8);
}

static void fill_attr(struct pd_event *e, const struct smpl_event *se, bool first)
{
	struct perf_event_attr *a = &e->attr;

	memset(a, 0, sizeof(*a));
	a->type = se->attr_type;
	a->size = PD_ATTR_SIZE_WRITTEN;
	a->config = se->attr_config;
	a->sample_type = e->sample_type;
	a->freq = se->freq;
	a->sample_period = se->period; /* sample_freq when freq: a union */
	/* the recording's branch filter (no branch counters: not kept), with
	 * hw_idx exactly when the samples have one; a file that did not keep
	 * its filter (before 1.6) had any branch */
	if (e->sample_type & PERF_SAMPLE_BRANCH_STACK) {
		a->branch_sample_type = se->branch_sample_type ? se->branch_sample_type : PERF_SAMPLE_BRANCH_ANY;
		a->branch_sample_type &= ~(uint64_t)(PERF_SAMPLE_BRANCH_COUNTERS | PERF_SAMPLE_BRANCH_HW_INDEX);
		if (se->fields & SAMPLE_F_BRANCH_HW_IDX)
			a->branch_sample_type |= PERF_SAMPLE_BRANCH_HW_INDEX;
	}
	a->sample_id_all = 1;
	if (e->sample_type & PERF_SAMPLE_REGS_USER) {
		/* the registers pfmon records; the stack size is the largest a
		 * sample may hold (each sample says its own) */
		a->sample_regs_user = SAMPLE_USER_REGS_X86_64;
		a->sample_stack_user = SAMPLE_MAX_STACK;
	}
	/* the side-band records are the first event's, as perf's */
	a->mmap = a->mmap2 = a->comm = a->comm_exec = a->task = first;
}

static int write_attrs(struct perf_data_writer *w, struct pf_error *err)
{
	size_t entry = PD_ATTR_SIZE_WRITTEN + PD_SECTION_SIZE;
	size_t n = (size_t)w->nr_events * (8 + entry);
	unsigned char *b = xcalloc(1, n), *attrs = b + (size_t)w->nr_events * 8;
	int rc;

	for (uint32_t i = 0; i < w->nr_events; i++) {
		uint64_t id = i + 1;

		memcpy(b + (size_t)i * 8, &id, 8);
		memcpy(attrs + i * entry, &w->ev[i].attr, PD_ATTR_SIZE_WRITTEN);
		put_section(attrs + i * entry + PD_ATTR_SIZE_WRITTEN, w->ids_off + (uint64_t)i * 8, 8);
	}
	rc = write_at(w, b, n, w->ids_off, err);
	free(b);
	return rc;
}

static int not_regular(const char *path, struct pf_error *err)
{
	return pf_error_set(err, PF_E_OUTPUT, path, "perf.data must be a regular file (its header is completed "
			    "at the end)");
}

/* A regular file only, checked before open(): opening a FIFO for writing
 * waits for a reader, and O_TRUNC must not touch a device.  O_NONBLOCK
 * keeps a FIFO put there meanwhile from blocking (ENXIO); fstat checks what
 * was opened.  The descriptor, or -1 with err. */
static int open_regular(const char *path, struct pf_error *err)
{
	struct stat st;
	int fd;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return not_regular(path, err);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK, 0666);
	if (fd < 0)
		return pf_error_set(err, PF_E_OUTPUT, path, strerror(errno));
	if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) {
		close(fd);
		return not_regular(path, err);
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

struct perf_data_writer *perf_data_writer_open(const char *path, const struct smpl_header *h, int zstd_level,
					       struct pf_error *err)
{
	struct perf_data_writer *w;
	struct zstd_writer *zstd = NULL;
	unsigned char hdr[PD_HEADER_SIZE];
	int fd;

	if (!strcmp(path, "-"))
		return pf_error_set(err, PF_E_PERF_DATA_STDOUT), NULL;
	if (h->nr_events == 0 || h->nr_events > SMPL_MAX_EVENTS)
		return pf_error_set(err, PF_E_OUTPUT, path, "no events to write"), NULL;
	if (zstd_level) {
		zstd = zstd_writer_new(zstd_level, err);
		if (!zstd)
			return NULL;
	}
	fd = open_regular(path, err);
	if (fd < 0) {
		zstd_writer_free(zstd);
		return NULL;
	}
	w = xcalloc(1, sizeof(*w));
	w->zstd = zstd;
	w->zstd_level = zstd_level;
	w->zbuf.max = SIZE_MAX;
	w->path = xstrdup(path);
	w->fd = fd;
	w->nr_events = h->nr_events;
	w->ev = xcalloc(h->nr_events, sizeof(*w->ev));
	for (uint32_t i = 0; i < h->nr_events; i++) {
		w->ev[i].name = xstrdup(h->events[i].name ? h->events[i].name : "");
		w->ev[i].sample_type = sample_type_of(h->events[i].fields);
		fill_attr(&w->ev[i], &h->events[i], i == 0);
	}
	/* HEADER_CMDLINE: who recorded, as perf record writes its own */
	w->max_branches = h->max_branches;
	w->argc = h->recorder_argc ? h->recorder_argc : h->argc;
	w->argv = xcalloc(w->argc + 1, sizeof(*w->argv));
	for (uint32_t i = 0; i < w->argc; i++) {
		const char *a = h->recorder_argc ? h->recorder_argv[i] : h->argv[i];

		w->argv[i] = xstrdup(a ? a : "");
	}
	w->ids_off = PD_HEADER_SIZE;
	w->attrs_off = w->ids_off + (uint64_t)h->nr_events * 8;
	w->data_off = w->attrs_off + (uint64_t)h->nr_events * (PD_ATTR_SIZE_WRITTEN + PD_SECTION_SIZE);
	file_header(w, hdr, NULL, 0);
	if (write_at(w, hdr, sizeof(hdr), 0, err) || write_attrs(w, err)) {
		perf_data_writer_close(w, NULL);
		return NULL;
	}
	return w;
}

/* ----- records ----- */

/* start a record; its size is set by end_record() */
static size_t begin_record(struct obuf *o, uint32_t type, uint16_t misc)
{
	size_t at = o->len;

	ob_u32(o, type);
	ob_u16(o, misc);
	ob_u16(o, 0);
	return at;
}

static void pad8(struct obuf *o)
{
	while (o->len & 7)
		ob_u8(o, 0);
}

/* a NUL-terminated string padded to 8 bytes, as the kernel writes names */
static void put_name(struct obuf *o, const char *s)
{
	ob_bytes(o, s, strlen(s) + 1);
	pad8(o);
}

static int end_record(struct perf_data_writer *w, size_t at, struct pf_error *err)
{
	size_t size;
	uint16_t s16;

	pad8(&w->buf);
	size = w->buf.len - at;
	if (size > PD_RECORD_MAX) {
		w->buf.len = at;
		return fail(w, err, EMSGSIZE);
	}
	s16 = (uint16_t)size;
	memcpy(w->buf.b + at + 6, &s16, 2);
	if (w->buf.len >= PD_FLUSH_AT)
		return perf_data_writer_flush(w, err);
	return 0;
}

/* the sample_id trailer, in the first event's layout */
static void put_sample_id(struct perf_data_writer *w, const struct sample_id *sid, uint32_t pid,
			  uint32_t tid)
{
	uint64_t t = w->ev[0].sample_type;
	struct sample_id none = { .pid = pid, .tid = tid, .fields = SAMPLE_F_TID };

	if (!sid || !(sid->fields & SAMPLE_F_TID)) {
		none.time = sid && (sid->fields & SAMPLE_F_TIME) ? sid->time : 0;
		none.cpu = sid && (sid->fields & SAMPLE_F_CPU) ? sid->cpu : 0;
		sid = &none;
	}
	if (t & PERF_SAMPLE_TID) {
		ob_u32(&w->buf, sid->pid);
		ob_u32(&w->buf, sid->tid);
	}
	if (t & PERF_SAMPLE_TIME)
		ob_u64(&w->buf, sid->time);
	if (t & PERF_SAMPLE_CPU) {
		ob_u32(&w->buf, sid->cpu);
		ob_u32(&w->buf, 0);
	}
	ob_u64(&w->buf, 1); /* PERF_SAMPLE_IDENTIFIER: the first event's id */
}

/* PERF_SAMPLE_REGS_USER: the ABI, then the attr's registers in order
 * (those the sample lacks as 0); a sample without registers says ABI 0 */
static void put_regs_user(struct obuf *o, const struct sample *s)
{
	size_t have = 0;

	if (!(s->fields & SAMPLE_F_USER_STACK) || !s->regs_abi || !s->regs) {
		ob_u64(o, PERF_SAMPLE_REGS_ABI_NONE);
		return;
	}
	ob_u64(o, s->regs_abi);
	for (unsigned r = 0; r < 64; r++) {
		bool in_sample = s->regs_mask >> r & 1;

		if (SAMPLE_USER_REGS_X86_64 >> r & 1)
			ob_u64(o, in_sample ? s->regs[have] : 0);
		have += in_sample;
	}
}

/* PERF_SAMPLE_STACK_USER: size, the bytes (the used part pfmon keeps,
 * padded to 8), dyn_size; at most room bytes, so the record fits (the
 * outer frames of a cut copy end in the unwinder's marker) */
static void put_stack_user(struct obuf *o, const struct sample *s, size_t room)
{
	size_t used = (s->fields & SAMPLE_F_USER_STACK) && s->stack ? s->stack_size : 0;
	size_t size;
	static const uint8_t zeros[8];

	if (used > room)
		used = room & ~(size_t)7;
	size = (used + 7) & ~(size_t)7;
	ob_u64(o, size);
	if (!size)
		return;
	ob_bytes(o, s->stack, used);
	ob_bytes(o, zeros, size - used);
	ob_u64(o, used);
}

/* the branch stack: nr, hw_idx when the attr says so, the entries (at most
 * room of them, the newest) */
static void put_branch_stack(struct obuf *o, const struct pd_event *e, const struct sample *s, size_t room)
{
	uint64_t nr = (s->fields & SAMPLE_F_BRANCH) && s->branches ? s->branch_nr : 0;

	if (nr > room / sizeof(struct sample_branch))
		nr = room / sizeof(struct sample_branch);
	ob_u64(o, nr);
	if (e->attr.branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
		ob_u64(o, (s->fields & SAMPLE_F_BRANCH_HW_IDX) ? s->branch_hw_idx : UINT64_MAX);
	for (uint64_t i = 0; i < nr; i++) {
		ob_u64(o, s->branches[i].from);
		ob_u64(o, s->branches[i].to);
		ob_u64(o, s->branches[i].flags);
	}
}

static int write_sample(struct perf_data_writer *w, const struct sample *s, struct pf_error *err)
{
	uint64_t t;
	uint16_t misc = s->cpumode & PERF_RECORD_MISC_CPUMODE_MASK;
	uint32_t nr = (s->fields & SAMPLE_F_CALLCHAIN) ? s->callchain_nr : 0;
	size_t at;

	if (s->evidx >= w->nr_events)
		return 0; /* not an event of the header: nothing names it */
	t = w->ev[s->evidx].sample_type;
	if (s->exact_ip)
		misc |= PERF_RECORD_MISC_EXACT_IP;
	/* a call chain longer than a record can hold keeps its leaf end */
	if (nr > (PD_RECORD_MAX - 256) / 8)
		nr = (PD_RECORD_MAX - 256) / 8;
	at = begin_record(&w->buf, PERF_RECORD_SAMPLE, misc);
	ob_u64(&w->buf, s->evidx + 1);
	if (t & PERF_SAMPLE_IP)
		ob_u64(&w->buf, s->ip);
	if (t & PERF_SAMPLE_TID) {
		ob_u32(&w->buf, s->pid);
		ob_u32(&w->buf, s->tid);
	}
	if (t & PERF_SAMPLE_TIME)
		ob_u64(&w->buf, s->time);
	if (t & PERF_SAMPLE_ADDR)
		ob_u64(&w->buf, s->addr);
	if (t & PERF_SAMPLE_CPU) {
		ob_u32(&w->buf, s->cpu);
		ob_u32(&w->buf, 0);
	}
	if (t & PERF_SAMPLE_PERIOD)
		ob_u64(&w->buf, s->period);
	if (t & PERF_SAMPLE_CALLCHAIN) {
		ob_u64(&w->buf, nr);
		ob_bytes(&w->buf, s->callchain, (size_t)nr * 8);
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		/* room for the fields after it but the stack copy, cut to fit */
		size_t taken = w->buf.len - at + 16 + 8 * SAMPLE_MAX_REGS + 64;

		put_branch_stack(&w->buf, &w->ev[s->evidx], s, taken < PD_RECORD_MAX ? PD_RECORD_MAX - taken : 0);
	}
	if (t & PERF_SAMPLE_REGS_USER)
		put_regs_user(&w->buf, s);
	if (t & PERF_SAMPLE_STACK_USER) {
		/* what the record holds so far, the stack's size and dyn_size,
		 * and the fields after it (weight, data source, address) */
		size_t taken = w->buf.len - at + 16 + 32;

		put_stack_user(&w->buf, s, taken < PD_RECORD_MAX ? PD_RECORD_MAX - taken : 0);
	}
	if (t & PERF_SAMPLE_WEIGHT)
		ob_u64(&w->buf, s->weight);
	if (t & PERF_SAMPLE_WEIGHT_STRUCT) {
		ob_u32(&w->buf, (uint32_t)s->weight);
		ob_u16(&w->buf, (uint16_t)s->ins_lat);
		ob_u16(&w->buf, s->p_stage_cyc);
	}
	if (t & PERF_SAMPLE_DATA_SRC)
		ob_u64(&w->buf, s->data_src);
	if (t & PERF_SAMPLE_PHYS_ADDR)
		ob_u64(&w->buf, s->phys_addr);
	return end_record(w, at, err);
}

static int write_mmap(struct perf_data_writer *w, const struct sample_mmap *m, const struct sample_id *sid,
		      struct pf_error *err)
{
	uint16_t misc = m->cpumode & PERF_RECORD_MISC_CPUMODE_MASK;
	bool build_id = m->has_build_id && !m->has_inode && m->build_id_size <= SAMPLE_BUILD_ID_MAX;
	uint8_t id[SAMPLE_BUILD_ID_MAX] = { 0 };
	size_t at;

	if (!misc)
		misc = PERF_RECORD_MISC_USER;
	if (m->data)
		misc |= PERF_RECORD_MISC_MMAP_DATA;
	if (build_id)
		misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
	at = begin_record(&w->buf, PERF_RECORD_MMAP2, misc);
	ob_u32(&w->buf, m->pid);
	ob_u32(&w->buf, m->tid);
	ob_u64(&w->buf, m->start);
	ob_u64(&w->buf, m->len);
	ob_u64(&w->buf, m->pgoff);
	if (build_id) {
		memcpy(id, m->build_id, m->build_id_size);
		ob_u8(&w->buf, m->build_id_size);
		ob_u8(&w->buf, 0);
		ob_u16(&w->buf, 0);
		ob_bytes(&w->buf, id, sizeof(id));
	} else {
		ob_u32(&w->buf, m->maj);
		ob_u32(&w->buf, m->min);
		ob_u64(&w->buf, m->ino);
		ob_u64(&w->buf, m->ino_generation);
	}
	/* a mapping from a plain MMAP record or /proc says no protection:
	 * code mappings are read and execute, as perf assumes then */
	ob_u32(&w->buf, m->prot ? m->prot : m->data ? PROT_READ : PROT_READ | PROT_EXEC);
	ob_u32(&w->buf, m->flags ? m->flags : MAP_PRIVATE);
	put_name(&w->buf, m->filename ? m->filename : "");
	put_sample_id(w, sid, m->pid, m->tid);
	return end_record(w, at, err);
}

/* perf record's mapping of the kernel: perf report relocates kallsyms by
 * it (the "ref_reloc_sym" _text), and names no kernel frame without it */
static int write_kernel_map(struct perf_data_writer *w, uint64_t text, struct pf_error *err)
{
	struct sample_id sid = { .fields = SAMPLE_F_TID, .pid = UINT32_MAX };
	size_t at = begin_record(&w->buf, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL);

	ob_u32(&w->buf, UINT32_MAX); /* pid -1: every process */
	ob_u32(&w->buf, 0);
	ob_u64(&w->buf, text);
	ob_u64(&w->buf, UINT64_MAX - text);
	ob_u64(&w->buf, text);
	put_name(&w->buf, "[kernel.kallsyms]_text");
	put_sample_id(w, &sid, UINT32_MAX, 0);
	return end_record(w, at, err);
}

static int write_side_band(struct perf_data_writer *w, const struct sample_record *rec, struct pf_error *err)
{
	struct sample_id sid = rec->sid;
	uint32_t pid = 0, tid = 0;
	size_t at;

	/* a record with a time of its own and none in its trailer: perf
	 * orders records by the trailer's */
	if (!(sid.fields & SAMPLE_F_TIME) && (rec->type == SREC_FORK || rec->type == SREC_EXIT)) {
		sid.fields |= SAMPLE_F_TIME;
		sid.time = rec->task.time;
	} else if (!(sid.fields & SAMPLE_F_TIME) &&
		   (rec->type == SREC_THROTTLE || rec->type == SREC_UNTHROTTLE)) {
		sid.fields |= SAMPLE_F_TIME;
		sid.time = rec->throttle.time;
	}

	switch (rec->type) {
	case SREC_COMM:
		at = begin_record(&w->buf, PERF_RECORD_COMM, rec->comm.exec ? PERF_RECORD_MISC_COMM_EXEC : 0);
		ob_u32(&w->buf, pid = rec->comm.pid);
		ob_u32(&w->buf, tid = rec->comm.tid);
		put_name(&w->buf, rec->comm.comm ? rec->comm.comm : "");
		break;
	case SREC_FORK:
	case SREC_EXIT:
		at = begin_record(&w->buf, rec->type == SREC_FORK ? PERF_RECORD_FORK : PERF_RECORD_EXIT, 0);
		ob_u32(&w->buf, pid = rec->task.pid);
		ob_u32(&w->buf, rec->task.ppid);
		ob_u32(&w->buf, tid = rec->task.tid);
		ob_u32(&w->buf, rec->task.ptid);
		ob_u64(&w->buf, rec->task.time);
		break;
	case SREC_LOST:
		at = begin_record(&w->buf, PERF_RECORD_LOST, 0);
		ob_u64(&w->buf, 1);
		ob_u64(&w->buf, rec->lost.lost);
		break;
	case SREC_LOST_SAMPLES:
		at = begin_record(&w->buf, PERF_RECORD_LOST_SAMPLES, 0);
		ob_u64(&w->buf, rec->lost.lost);
		break;
	case SREC_THROTTLE:
	case SREC_UNTHROTTLE:
		at = begin_record(&w->buf, rec->type == SREC_THROTTLE ? PERF_RECORD_THROTTLE
								      : PERF_RECORD_UNTHROTTLE, 0);
		ob_u64(&w->buf, rec->throttle.time);
		ob_u64(&w->buf, (uint64_t)(rec->throttle.evidx < w->nr_events ? rec->throttle.evidx : 0) + 1);
		ob_u64(&w->buf, rec->throttle.stream_id);
		break;
	default:
		return 0;
	}
	put_sample_id(w, &sid, pid, tid);
	return end_record(w, at, err);
}

static void keep_build_id(struct perf_data_writer *w, const char *path, bool kernel,
			  const uint8_t *id, size_t len)
{
	if (!len || len > SAMPLE_BUILD_ID_MAX)
		return;
	for (size_t i = 0; i < w->n_bids; i++)
		if (w->bids[i].kernel == kernel && !strcmp(w->bids[i].path, path))
			return;
	w->bids = xrealloc(w->bids, (w->n_bids + 1) * sizeof(*w->bids));
	w->bids[w->n_bids] = (struct pd_build_id){ .path = xstrdup(path), .kernel = kernel, .len = (uint8_t)len };
	memcpy(w->bids[w->n_bids].id, id, len);
	w->n_bids++;
}

int perf_data_write_record(struct perf_data_writer *w, const struct sample_record *rec,
			   struct pf_error *err)
{
	if (w->failed) {
		if (err)
			*err = w->failure;
		return -1;
	}
	switch (rec->type) {
	case SREC_SAMPLE:
		return write_sample(w, &rec->sample, err);
	case SREC_MMAP:
		return write_mmap(w, &rec->mmap, &rec->sid, err);
	case SREC_KERNEL:
		snprintf(w->release, sizeof(w->release), "%s", rec->kernel.release);
		if (rec->kernel.build_id_size <= SAMPLE_BUILD_ID_MAX)
			keep_build_id(w, "[kernel.kallsyms]", true, rec->kernel.build_id,
				      rec->kernel.build_id_size);
		return rec->kernel.text_addr ? write_kernel_map(w, rec->kernel.text_addr, err) : 0;
	case SREC_BINARY:
		keep_build_id(w, rec->binary.path, false, rec->binary.build_id, rec->binary.build_id_size);
		return 0;
	default:
		return write_side_band(w, rec, err);
	}
}

/*
 * The chunk's records, compressed and flushed, in COMPRESSED records of at
 * most PD_RECORD_MAX bytes (header.size is a u16; perf writes these
 * unpadded).  perf's reader decodes each into a buffer of the file's
 * comp_mmap_len: every chunk, the largest a record can decode to, fits.
 */
static int write_compressed(struct perf_data_writer *w, struct pf_error *err)
{
	const char *why;
	size_t at = 0;

	w->zbuf.len = 0;
	why = zstd_writer_flush(w->zstd, w->buf.b, w->buf.len, &w->zbuf);
	if (why)
		return fail_why(w, err, why);
	w->bytes_in += w->buf.len;
	w->max_chunk = w->buf.len > w->max_chunk ? w->buf.len : w->max_chunk;
	w->buf.len = 0;
	while (at < w->zbuf.len) {
		size_t piece = w->zbuf.len - at < PD_RECORD_MAX - 8 ? w->zbuf.len - at : PD_RECORD_MAX - 8;
		unsigned char hdr[8];
		uint32_t type = PD_RECORD_COMPRESSED;
		uint16_t misc = 0, size = (uint16_t)(piece + 8);

		memcpy(hdr, &type, 4);
		memcpy(hdr + 4, &misc, 2);
		memcpy(hdr + 6, &size, 2);
		if (write_at(w, hdr, 8, w->data_off + w->data_size, err) ||
		    write_at(w, w->zbuf.buf + at, piece, w->data_off + w->data_size + 8, err))
			return -1;
		w->data_size += piece + 8;
		w->bytes_out += piece + 8;
		at += piece;
	}
	return 0;
}

int perf_data_writer_flush(struct perf_data_writer *w, struct pf_error *err)
{
	if (w->failed) {
		if (err)
			*err = w->failure;
		return -1;
	}
	if (!w->buf.len)
		return 0;
	/* the records come in time order (the session merges its rings by
	 * time): each flush ends a round, so that perf report and hotspot sort
	 * and let go of the records so far instead of keeping them all */
	ob_u32(&w->buf, PD_RECORD_FINISHED_ROUND);
	ob_u16(&w->buf, 0);
	ob_u16(&w->buf, 8);
	if (w->zstd)
		return write_compressed(w, err);
	if (write_at(w, w->buf.b, w->buf.len, w->data_off + w->data_size, err))
		return -1;
	w->data_size += w->buf.len;
	w->buf.len = 0;
	return 0;
}

/* ----- header features ----- */

static void put_string(struct obuf *o, const char *s)
{
	size_t n = strlen(s) + 1, len = (n + PD_NAME_ALIGN - 1) / PD_NAME_ALIGN * PD_NAME_ALIGN;

	ob_u32(o, (uint32_t)len);
	ob_bytes(o, s, n);
	while (n++ < len)
		ob_u8(o, 0);
}

static void feat_build_ids(const struct perf_data_writer *w, struct obuf *o)
{
	for (size_t i = 0; i < w->n_bids; i++) {
		const struct pd_build_id *b = &w->bids[i];
		size_t n = strlen(b->path) + 1, len = (n + PD_NAME_ALIGN - 1) / PD_NAME_ALIGN * PD_NAME_ALIGN;
		uint8_t id[24] = { 0 };

		if (PD_BUILD_ID_REC_FIXED + len > PD_RECORD_MAX)
			continue;
		memcpy(id, b->id, b->len);
		id[SAMPLE_BUILD_ID_MAX] = b->len;
		ob_u32(o, 0);
		ob_u16(o, (uint16_t)((b->kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER) |
				     PD_MISC_BUILD_ID_SIZE));
		ob_u16(o, (uint16_t)(PD_BUILD_ID_REC_FIXED + len));
		ob_u32(o, (uint32_t)-1); /* the host machine's pid, as perf's */
		ob_bytes(o, id, sizeof(id));
		ob_bytes(o, b->path, n);
		while (n++ < len)
			ob_u8(o, 0);
	}
}

static void feat_event_desc(const struct perf_data_writer *w, struct obuf *o)
{
	ob_u32(o, w->nr_events);
	ob_u32(o, PD_ATTR_SIZE_WRITTEN);
	for (uint32_t i = 0; i < w->nr_events; i++) {
		ob_bytes(o, &w->ev[i].attr, PD_ATTR_SIZE_WRITTEN);
		ob_u32(o, 1);
		put_string(o, w->ev[i].name);
		ob_u64(o, (uint64_t)i + 1);
	}
}

static void write_feature(const struct perf_data_writer *w, unsigned feat, struct obuf *o,
			  const struct utsname *u)
{
	long conf = sysconf(_SC_NPROCESSORS_CONF), onln = sysconf(_SC_NPROCESSORS_ONLN);

	switch (feat) {
	case PD_FEAT_BUILD_ID:
		feat_build_ids(w, o);
		break;
	case PD_FEAT_HOSTNAME:
		put_string(o, u->nodename);
		break;
	case PD_FEAT_OSRELEASE:
		put_string(o, w->release[0] ? w->release : u->release);
		break;
	case PD_FEAT_VERSION:
		put_string(o, "pfmon " PACKAGE_VERSION);
		break;
	case PD_FEAT_ARCH:
		put_string(o, u->machine);
		break;
	case PD_FEAT_NRCPUS:
		ob_u32(o, conf > 0 ? (uint32_t)conf : 1);
		ob_u32(o, onln > 0 ? (uint32_t)onln : 1);
		break;
	case PD_FEAT_CMDLINE:
		ob_u32(o, w->argc);
		for (uint32_t i = 0; i < w->argc; i++)
			put_string(o, w->argv[i]);
		break;
	case PD_FEAT_EVENT_DESC:
		feat_event_desc(w, o);
		break;
	case PD_FEAT_CPU_PMU_CAPS: {
		/* perf 6.1 reads the LBR's depth (for --stitch-lbr) from here:
		 * u32 count, then a name and a value string each */
		char depth[16];

		snprintf(depth, sizeof(depth), "%" PRIu32, w->max_branches);
		ob_u32(o, 1);
		put_string(o, "branches");
		put_string(o, depth);
		break;
	}
	case PD_FEAT_COMPRESSED: {
		/* version, zstd, the level, the ratio, the decoding buffer's size
		 * (a multiple of 4 KiB that holds the largest chunk) */
		uint64_t ratio = w->bytes_out ? (w->bytes_in + w->bytes_out / 2) / w->bytes_out : 0;

		ob_u32(o, 1);
		ob_u32(o, 1);
		ob_u32(o, (uint32_t)w->zstd_level);
		ob_u32(o, ratio > UINT32_MAX ? UINT32_MAX : (uint32_t)ratio);
		ob_u32(o, (uint32_t)((w->max_chunk + 4096) / 4096 * 4096));
		break;
	}
	}
}

/* the feature table (one section per feature, in bit order), then their
 * contents, right after the data */
static int write_features(struct perf_data_writer *w, uint64_t *bitmap, struct pf_error *err)
{
	unsigned feats[] = { PD_FEAT_BUILD_ID, PD_FEAT_HOSTNAME, PD_FEAT_OSRELEASE, PD_FEAT_VERSION,
			     PD_FEAT_ARCH,     PD_FEAT_NRCPUS,   PD_FEAT_CMDLINE,   PD_FEAT_EVENT_DESC,
			     0,                0 };
	size_t n = 8;
	uint64_t base = w->data_off + w->data_size;
	struct obuf o = { 0 };
	struct utsname u;
	int rc;

	/* in bit order: the compression feature only in a compressed file,
	 * the LBR's depth when known */
	if (w->zstd)
		feats[n++] = PD_FEAT_COMPRESSED;
	if (w->max_branches)
		feats[n++] = PD_FEAT_CPU_PMU_CAPS;
	if (uname(&u))
		memset(&u, 0, sizeof(u));
	ob_reserve(&o, n * PD_SECTION_SIZE);
	o.len = n * PD_SECTION_SIZE;
	for (size_t i = 0; i < n; i++) {
		size_t start = o.len;

		write_feature(w, feats[i], &o, &u);
		put_section(o.b + i * PD_SECTION_SIZE, base + start, o.len - start);
		bitmap[feats[i] / 64] |= 1ull << (feats[i] % 64);
	}
	rc = write_at(w, o.b, o.len, base, err);
	ob_free(&o);
	return rc;
}

static void writer_free(struct perf_data_writer *w)
{
	if (w->fd >= 0)
		close(w->fd);
	for (uint32_t i = 0; i < w->nr_events; i++)
		free(w->ev[i].name);
	free(w->ev);
	str_vec_free(w->argv);
	for (size_t i = 0; i < w->n_bids; i++)
		free(w->bids[i].path);
	free(w->bids);
	ob_free(&w->buf);
	zstd_writer_free(w->zstd);
	free(w->zbuf.buf);
	free(w->path);
	free(w);
}

int perf_data_writer_close(struct perf_data_writer *w, struct pf_error *err)
{
	uint64_t bitmap[PD_FEAT_BITS / 64] = { 0 };
	unsigned char hdr[PD_HEADER_SIZE];
	int rc;

	if (!w)
		return 0;
	rc = perf_data_writer_flush(w, err);
	if (!rc)
		rc = write_features(w, bitmap, err);
	if (!rc) {
		file_header(w, hdr, bitmap, w->data_size);
		rc = write_at(w, hdr, sizeof(hdr), 0, err);
	}
	if (!rc && fsync(w->fd) && errno != EINVAL && errno != EROFS)
		rc = fail(w, err, errno);
	if (close(w->fd) && !rc)
		rc = fail(w, err, errno);
	w->fd = -1;
	writer_free(w);
	return rc;
}
