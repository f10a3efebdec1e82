/*
 * Sampling a command.  perf_events refuses to mmap a per-task event that is
 * inherited (every child would write into one buffer), so, as perf record
 * does, each sampling event is opened once per CPU on the command's pid:
 * the first event on a CPU owns that CPU's ring buffer and the others send
 * their records into it (PERF_EVENT_IOC_SET_OUTPUT); PERF_SAMPLE_IDENTIFIER
 * tells them apart.  Records are written to the sample file as they are
 * drained and fed to the profile at the same time.
 */
#include <config.h>

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "common/util.h"
#include "kernel/perf.h"
#include "kernel/ring.h"
#include "report/profile.h"
#include "sample/perf_record.h"
#include "sample/smpl_file.h"
#include "target/launch.h"

#define DEFAULT_FREQ 1000 /* Hz, when no period or frequency is given */

struct smpl_event_fd {
	uint32_t evidx;
	int cpu;
	int fd;
	uint64_t id;
};

struct drain_buf;

struct record_session {
	const struct pf_config *cfg;
	struct set_prog *sets;
	size_t n_sets;
	struct counter_prog **events; /* sampling events, file order */
	size_t n_events;
	struct smpl_event_fd *fds;
	size_t n_fds;
	struct perf_ring *rings; /* one per CPU */
	int *ring_fd;
	size_t n_rings;
	struct perf_layout layout;
	struct smpl_writer *writer;
	struct profile *profile;
	struct smpl_header header;
	uint64_t samples;
	struct drain_buf *drain;
};

static int online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

/* the period of event i of a set: short if given, else long (pfmon 3.x) */
static uint64_t event_period(const struct pf_set_config *s, size_t i)
{
	if (i < s->n_short_periods && s->short_periods[i])
		return s->short_periods[i];
	if (i < s->n_long_periods && s->long_periods[i])
		return s->long_periods[i];
	return 0;
}

static uint64_t wanted_sample_type(const struct pf_config *cfg, const struct counter_prog *c)
{
	uint64_t st = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		      PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;

	if (cfg->smpl_data_addr || c->attr.type == PERF_TYPE_BREAKPOINT)
		st |= PERF_SAMPLE_ADDR;
	if (cfg->smpl_weight)
		st |= PERF_SAMPLE_WEIGHT;
	if (cfg->smpl_data_src)
		st |= PERF_SAMPLE_DATA_SRC;
	if (cfg->smpl_branch_stack)
		st |= PERF_SAMPLE_BRANCH_STACK;
	if (cfg->callchain)
		st |= PERF_SAMPLE_CALLCHAIN;
	return st;
}

/* Every sampling event gets the same sample_type: one layout decodes all. */
static void setup_event(const struct pf_config *cfg, struct counter_prog *c, uint64_t period, uint64_t st,
			bool sideband, size_t ring_bytes)
{
	struct perf_event_attr *a = &c->attr;

	a->disabled = 1;
	a->enable_on_exec = 1;
	a->inherit = !cfg->no_inherit;
	a->sample_type = st;
	a->sample_id_all = 1;
	if (period) {
		a->sample_period = period;
	} else {
		a->freq = 1;
		a->sample_freq = cfg->smpl_freq ? cfg->smpl_freq : DEFAULT_FREQ;
	}
	if (cfg->smpl_branch_stack)
		a->branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
	a->watermark = 1;
	a->wakeup_watermark = (uint32_t)(ring_bytes / 4);
	if (sideband) {
		/* the binaries' mappings, exec names and forks, once; data
		 * mappings too when data addresses are to be symbolized */
		a->mmap = a->mmap2 = a->comm = a->comm_exec = a->task = 1;
		a->mmap_data = !!(st & PERF_SAMPLE_ADDR);
	}
}

/*
 * Pages per CPU ring: room for --smpl-entries samples (64 bytes each at
 * most with the default fields) and, in frequency mode, for a quarter of a
 * second of samples, so a drain that is late by a few scheduler ticks does
 * not lose any (50 kHz needs 12,500).
 */
static size_t ring_pages(const struct pf_config *cfg)
{
	uint64_t entries = cfg->smpl_entries, per_quarter = (cfg->smpl_freq ? cfg->smpl_freq : DEFAULT_FREQ) / 4;
	size_t bytes, pages = 1, page = (size_t)sysconf(_SC_PAGESIZE);

	if (per_quarter > entries)
		entries = per_quarter;
	bytes = (size_t)entries * 64;

	while (pages * page < bytes && pages < 4096)
		pages *= 2;
	return pages;
}

static int collect_events(struct record_session *rs, struct pf_error *err)
{
	const struct pf_config *cfg = rs->cfg;
	size_t bytes = ring_pages(cfg) * (size_t)sysconf(_SC_PAGESIZE);
	uint64_t st = 0;

	for (size_t s = 0; s < rs->n_sets; s++)
		rs->n_events += rs->sets[s].n_counters;
	rs->events = xcalloc(rs->n_events, sizeof(*rs->events));
	rs->n_events = 0;
	for (size_t s = 0; s < rs->n_sets; s++)
		for (size_t i = 0; i < rs->sets[s].n_counters; i++) {
			rs->events[rs->n_events++] = &rs->sets[s].counters[i];
			st |= wanted_sample_type(cfg, &rs->sets[s].counters[i]);
		}
	for (size_t s = 0, k = 0; s < rs->n_sets; s++)
		for (size_t i = 0; i < rs->sets[s].n_counters; i++, k++)
			setup_event(cfg, rs->events[k], event_period(&cfg->sets[s], i), st, k == 0, bytes);
	perf_layout_from_attr(&rs->layout, &rs->events[0]->attr, 0);
	return 0;
}

/* the fields only a hardware PMU records (PEBS, IBS, SPE, LBR) */
static bool wants_hw_fields(const struct pf_config *cfg)
{
	return cfg->smpl_branch_stack || cfg->smpl_weight || cfg->smpl_data_src;
}

static int open_error(const struct pf_config *cfg, const struct counter_prog *c, int e, struct pf_error *err)
{
	if (wants_hw_fields(cfg) && (e == EOPNOTSUPP || e == EINVAL || e == ENOENT))
		return pf_error_set(err, PF_E_CANNOT_SAMPLE, c->name,
				    "branch stacks, latencies and data sources need a hardware PMU that records "
				    "them (LBR, PEBS, IBS, SPE), which this event or machine lacks");
	return kperf_open_error(&c->attr, c->name, e, err);
}

/* Open every event on every CPU; the first on a CPU owns its ring. */
static int open_events(pid_t pid, void *arg, struct pf_error *err)
{
	struct record_session *rs = arg;
	int ncpu = online_cpus();
	size_t pages = ring_pages(rs->cfg);

	rs->fds = xcalloc((size_t)ncpu * rs->n_events, sizeof(*rs->fds));
	rs->rings = xcalloc((size_t)ncpu, sizeof(*rs->rings));
	rs->ring_fd = xcalloc((size_t)ncpu, sizeof(*rs->ring_fd));
	for (int cpu = 0; cpu < ncpu; cpu++) {
		for (size_t e = 0; e < rs->n_events; e++) {
			struct counter_prog *c = rs->events[e];
			struct smpl_event_fd *f = &rs->fds[rs->n_fds];
			int fd = kperf_open(&c->attr, c->name, pid, cpu, -1);

			if (fd < 0)
				return open_error(rs->cfg, c, -fd, err);
			*f = (struct smpl_event_fd){ (uint32_t)e, cpu, fd, 0 };
			rs->n_fds++;
			if (kperf_id(fd, &f->id))
				return pf_error_set(err, PF_E_OPEN, c->name, "cannot read its id");
			if (e == 0) {
				if (ring_map(fd, pages, &rs->rings[rs->n_rings], err))
					return -1;
				rs->ring_fd[rs->n_rings++] = fd;
			} else if (kperf_set_output(fd, rs->ring_fd[rs->n_rings - 1])) {
				return pf_error_set(err, PF_E_OPEN, c->name, "cannot share the CPU's ring buffer");
			}
		}
	}
	return 0;
}

static uint32_t evidx_of(const struct record_session *rs, uint64_t id)
{
	for (size_t i = 0; i < rs->n_fds; i++)
		if (rs->fds[i].id == id)
			return rs->fds[i].evidx;
	return 0;
}

/* one drained record, copied out of its ring so all rings can be merged */
struct drained {
	uint64_t time;
	size_t off; /* into the arena */
};

struct drain_buf {
	unsigned char *arena;
	size_t len, cap;
	struct drained *recs;
	size_t n, rcap;
};

static uint64_t record_time(const struct sample_record *rec)
{
	if (rec->type == SREC_SAMPLE)
		return rec->sample.time;
	/* side-band records carry the time in their sample_id (sample_id_all) */
	return (rec->sid.fields & SAMPLE_F_TIME) ? rec->sid.time : 0;
}

static int collect_record(const struct perf_event_header *h, void *arg, struct pf_error *err)
{
	struct record_session *rs = arg;
	struct drain_buf *b = rs->drain;
	struct sample_record rec;
	int rc = perf_record_decode(h, &rs->layout, &rec, err);

	if (rc <= 0)
		return rc; /* 0: a record type pfmon does not keep */
	if (b->len + h->size > b->cap) {
		b->cap = (b->len + h->size) * 2;
		b->arena = xrealloc(b->arena, b->cap);
	}
	if (b->n == b->rcap) {
		b->rcap = b->rcap ? b->rcap * 2 : 1024;
		b->recs = xrealloc(b->recs, b->rcap * sizeof(*b->recs));
	}
	b->recs[b->n++] = (struct drained){ record_time(&rec), b->len };
	memcpy(b->arena + b->len, h, h->size);
	b->len += h->size; /* sizes are multiples of 8: records stay aligned */
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct drained *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static int process_record(struct record_session *rs, const struct perf_event_header *h, struct pf_error *err)
{
	struct sample_record rec;

	if (perf_record_decode(h, &rs->layout, &rec, err) <= 0)
		return -1; /* decoded once already: cannot fail now */
	if (rec.type == SREC_SAMPLE) {
		rec.sample.evidx = evidx_of(rs, rec.sample.id);
		rs->samples++;
	}
	if (rec.type == SREC_THROTTLE || rec.type == SREC_UNTHROTTLE)
		rec.throttle.evidx = evidx_of(rs, rec.throttle.id);
	if (rs->writer && smpl_write_record(rs->writer, &rec, err))
		return -1;
	profile_add(rs->profile, &rec);
	return 0;
}

/*
 * Read every ring, then handle the records in time order: a binary's MMAP2
 * may sit in one CPU's ring and the first samples in it in another's.
 */
static int drain(struct record_session *rs, struct pf_error *err)
{
	struct drain_buf *b = rs->drain;

	b->len = b->n = 0;
	for (size_t r = 0; r < rs->n_rings; r++)
		if (ring_read(&rs->rings[r], collect_record, rs, err) < 0)
			return -1;
	qsort(b->recs, b->n, sizeof(*b->recs), by_time);
	for (size_t i = 0; i < b->n; i++)
		if (process_record(rs, (const struct perf_event_header *)(b->arena + b->recs[i].off), err))
			return -1;
	return rs->writer ? smpl_writer_flush(rs->writer, err) : 0;
}

/* Drain as the rings fill (or every 100 ms) until the command ends. */
static int record_loop(struct record_session *rs, struct child *child, int *status, struct pf_error *err)
{
	struct pollfd *pfd = xcalloc(rs->n_rings, sizeof(*pfd));
	int rc = 0;

	for (size_t r = 0; r < rs->n_rings; r++)
		pfd[r] = (struct pollfd){ .fd = rs->ring_fd[r], .events = POLLIN };
	while (!child_poll(child, status)) {
		if (poll(pfd, rs->n_rings, 100) < 0 && errno != EINTR) {
			rc = pf_error_set(err, PF_E_SYSTEM, "poll", strerror(errno));
			break;
		}
		if (drain(rs, err)) {
			rc = -1;
			break;
		}
	}
	free(pfd);
	if (rc) {
		child_kill(child);
		return rc;
	}
	return drain(rs, err); /* what the command wrote before it ended */
}

static void fill_header(struct record_session *rs, int argc, char **argv)
{
	struct smpl_header *h = &rs->header;

	memset(h, 0, sizeof(*h));
	h->clockid = -1;
	h->argc = (uint32_t)argc;
	h->argv = argv;
	h->nr_events = (uint32_t)rs->n_events;
	h->events = xcalloc(rs->n_events, sizeof(*h->events));
	for (size_t i = 0; i < rs->n_events; i++) {
		const struct perf_event_attr *a = &rs->events[i]->attr;

		h->events[i] = (struct smpl_event){
			.name = rs->events[i]->name,
			.fields = perf_sample_fields(a->sample_type),
			.attr_type = a->type,
			.attr_config = a->config,
			.sample_type = a->sample_type,
			.freq = a->freq,
			.period = a->sample_period, /* sample_freq shares the field */
		};
	}
}

static void session_release(struct record_session *rs)
{
	for (size_t r = 0; r < rs->n_rings; r++)
		ring_unmap(&rs->rings[r]);
	for (size_t i = 0; i < rs->n_fds; i++)
		kperf_close(rs->fds[i].fd);
	free(rs->rings);
	free(rs->ring_fd);
	free(rs->fds);
	free(rs->events);
	free(rs->header.events);
	if (rs->drain) {
		free(rs->drain->arena);
		free(rs->drain->recs);
		free(rs->drain);
	}
	for (size_t s = 0; s < rs->n_sets; s++)
		set_prog_release(&rs->sets[s]);
	free(rs->sets);
	profile_free(rs->profile);
}

static int encode_sets(struct record_session *rs, const struct pmu_model *m, struct pf_error *err)
{
	if (pmu_encode_config(m, rs->cfg, &rs->sets, &rs->n_sets, err))
		return -1;
	return collect_events(rs, err);
}

struct profile_opts profile_opts_from_config(const struct pf_config *cfg)
{
	struct profile_opts po = {
		.top = cfg->smpl_show_top,
		.cum_threshold = cfg->smpl_cum_threshold,
	};

	/* the names were checked when the options were parsed */
	profile_sort_from_name(cfg->report_sort, &po.sort);
	profile_format_from_name(cfg->report_format, &po.format);
	return po;
}

void warn_lost(uint64_t lost, uint64_t throttled)
{
	if (lost)
		fprintf(stderr, "warning: %llu samples lost (the ring buffer was full): raise --smpl-entries "
				"or lower the sampling rate\n", (unsigned long long)lost);
	if (throttled)
		fprintf(stderr, "warning: the kernel throttled sampling %llu times (rate above "
				"kernel.perf_event_max_sample_rate)\n", (unsigned long long)throttled);
}

static int run_session(struct record_session *rs, int *status, struct pf_error *err)
{
	const struct pf_config *cfg = rs->cfg;
	struct launch_opts lo = { .no_output = cfg->no_cmd_output };
	struct child child;

	if (child_start(cfg->command, &lo, open_events, rs, &child, err))
		return -1;
	return record_loop(rs, &child, status, err);
}

int cmd_record(const struct pf_config *cfg, const struct pmu_model *m, struct pf_error *err)
{
	struct record_session rs = { .cfg = cfg, .drain = xcalloc(1, sizeof(struct drain_buf)) };
	struct profile_opts po = profile_opts_from_config(cfg);
	int status = 0, rc, argc = 0;

	while (cfg->command[argc])
		argc++;
	for (size_t i = 0; i < cfg->n_sets; i++)
		if (cfg->sets[i].periods_random)
			return pf_error_set(err, PF_E_BAD_OPTION_VALUE, cfg->sets[i].periods_random,
					    "smpl-periods-random", "period randomization is not implemented yet");
	rc = encode_sets(&rs, m, err);
	if (!rc) {
		fill_header(&rs, argc, cfg->command);
		rs.profile = profile_new(&po, &rs.header);
		if (cfg->smpl_outfile) {
			rs.writer = smpl_writer_open(cfg->smpl_outfile, &rs.header, err);
			rc = rs.writer ? 0 : -1;
		}
		if (!rc)
			rc = record_kernel_identity(rs.writer, rs.profile, err);
	}
	if (!rc)
		rc = run_session(&rs, &status, err);
	if (rs.writer && smpl_writer_close(rs.writer, rc ? NULL : err))
		rc = -1;
	if (!rc) {
		profile_print(rs.profile, stdout);
		warn_lost(profile_lost(rs.profile), profile_throttled(rs.profile));
	}
	session_release(&rs);
	return rc ? -1 : status;
}
