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
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "common/util.h"
#include "kernel/perf.h"
#include "kernel/ring.h"
#include "record_plan.h"
#include "report/profile.h"
#include "sample/perf_record.h"
#include "sample/smpl_file.h"
#include "target/launch.h"

#define DEFAULT_FREQ 1000 /* Hz, when no period or frequency is given */

struct smpl_event_fd {
	uint32_t evidx;
	bool member; /* a non-sampling event in a sampling event's group */
	int cpu;
	int fd;
	uint64_t id;
	/* randomized periods: the one set at time 'since' (CLOCK_MONOTONIC,
	 * the clock of the samples) and the one before it */
	uint64_t period, prev_period, since;
	bool sampled; /* since the last drain: its random period is redrawn */
};

struct drain_buf;

struct record_session {
	const struct pf_config *cfg;
	struct set_prog *sets;
	size_t n_sets;
	struct counter_prog **events; /* every event, in file order */
	size_t n_events;
	struct smpl_event_fd *fds;
	size_t n_fds;
	struct record_plan plan;
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

/* A non-sampling event: a member of its sampling events' groups, which
 * turn it on and off with them. */
static void setup_counting_event(const struct pf_config *cfg, struct counter_prog *c)
{
	c->attr.inherit = !cfg->no_inherit;
}

/* Every sampling event gets the same sample_type: one layout decodes all. */
static void setup_event(const struct pf_config *cfg, struct counter_prog *c, struct period_random *r,
			bool randomized, uint64_t st, bool sideband, size_t ring_bytes)
{
	struct perf_event_attr *a = &c->attr;

	a->disabled = 1;
	a->enable_on_exec = 1;
	a->inherit = !cfg->no_inherit;
	a->sample_type = st;
	if (st & PERF_SAMPLE_READ)
		a->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	a->sample_id_all = 1;
	if (randomized) {
		a->use_clockid = 1;
		a->clockid = CLOCK_MONOTONIC;
	}
	if (r->base) {
		a->sample_period = period_random_next(r);
	} else {
		a->freq = 1;
		a->sample_freq = cfg->smpl_freq ? cfg->smpl_freq : DEFAULT_FREQ;
	}
	if (cfg->smpl_branch_stack)
		a->branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
	if (r->mask) {
		a->wakeup_events = 1; /* pfmon draws the next period after each sample */
	} else {
		a->watermark = 1;
		a->wakeup_watermark = (uint32_t)(ring_bytes / 4);
	}
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
	uint64_t st = 0, seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	struct record_plan *p = &rs->plan;

	if (record_plan_build(p, cfg, rs->sets, rs->n_sets, seed, err))
		return -1;
	rs->events = xcalloc(p->n_events + 1, sizeof(*rs->events));
	for (size_t s = 0; s < rs->n_sets; s++)
		for (size_t i = 0; i < rs->sets[s].n_counters; i++) {
			rs->events[rs->n_events++] = &rs->sets[s].counters[i];
			st |= wanted_sample_type(cfg, &rs->sets[s].counters[i]);
		}
	for (size_t k = 0; k < rs->n_events; k++)
		st |= p->reads[k].n ? PERF_SAMPLE_READ : 0;
	for (size_t k = 0; k < rs->n_events; k++)
		if (p->counting[k])
			setup_counting_event(cfg, rs->events[k]);
		else
			setup_event(cfg, rs->events[k], &p->random[k], p->randomized, st, k == p->first_sampling,
				    bytes);
	perf_layout_from_attr(&rs->layout, &rs->events[p->first_sampling]->attr, 0);
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
	if (e == EINVAL && (c->attr.sample_type & PERF_SAMPLE_READ) && c->attr.inherit)
		return pf_error_set(err, PF_E_CANNOT_SAMPLE, c->name,
				    "recording the counts of events without a period in the samples of "
				    "inherited events needs Linux 6.12 or later (or --no-inherit)");
	return kperf_open_error(&c->attr, c->name, e, err);
}

/* the non-sampling events of sampling event e, in its group on one CPU */
static int open_members(struct record_session *rs, size_t e, pid_t pid, int cpu, int leader, struct pf_error *err)
{
	for (uint32_t j = 0; j < rs->plan.reads[e].n; j++) {
		uint32_t m = rs->plan.reads[e].idx[j];
		struct counter_prog *c = rs->events[m];
		int fd = kperf_open(&c->attr, c->name, pid, cpu, leader);

		if (fd < 0)
			return open_error(rs->cfg, c, -fd, err);
		rs->fds[rs->n_fds++] = (struct smpl_event_fd){ .evidx = m, .member = true, .cpu = cpu, .fd = fd };
	}
	return 0;
}

/* a sampling event on one CPU; the first on a CPU owns the CPU's ring */
static int open_sampling_event(struct record_session *rs, size_t e, pid_t pid, int cpu, struct pf_error *err)
{
	struct counter_prog *c = rs->events[e];
	struct smpl_event_fd *f = &rs->fds[rs->n_fds];
	int fd = kperf_open(&c->attr, c->name, pid, cpu, -1);

	if (fd < 0)
		return open_error(rs->cfg, c, -fd, err);
	*f = (struct smpl_event_fd){ .evidx = (uint32_t)e, .cpu = cpu, .fd = fd, .period = c->attr.sample_period,
				     .prev_period = c->attr.sample_period };
	rs->n_fds++;
	if (kperf_id(fd, &f->id))
		return pf_error_set(err, PF_E_OPEN, c->name, "cannot read its id");
	if (e == rs->plan.first_sampling) {
		if (ring_map(fd, ring_pages(rs->cfg), &rs->rings[rs->n_rings], err))
			return -1;
		rs->ring_fd[rs->n_rings++] = fd;
	} else if (kperf_set_output(fd, rs->ring_fd[rs->n_rings - 1])) {
		return pf_error_set(err, PF_E_OPEN, c->name, "cannot share the CPU's ring buffer");
	}
	return open_members(rs, e, pid, cpu, fd, err);
}

/* Open every sampling event, with its group of non-sampling ones, on every CPU. */
static int open_events(pid_t pid, void *arg, struct pf_error *err)
{
	struct record_session *rs = arg;
	int ncpu = online_cpus();
	size_t per_cpu = 0;

	for (size_t e = 0; e < rs->n_events; e++)
		per_cpu += rs->plan.counting[e] ? 0 : 1 + rs->plan.reads[e].n;
	rs->fds = xcalloc((size_t)ncpu * per_cpu, sizeof(*rs->fds));
	rs->rings = xcalloc((size_t)ncpu, sizeof(*rs->rings));
	rs->ring_fd = xcalloc((size_t)ncpu, sizeof(*rs->ring_fd));
	for (int cpu = 0; cpu < ncpu; cpu++)
		for (size_t e = 0; e < rs->n_events; e++)
			if (!rs->plan.counting[e] && open_sampling_event(rs, e, pid, cpu, err))
				return -1;
	return 0;
}

static struct smpl_event_fd *fd_of(const struct record_session *rs, uint64_t id)
{
	for (size_t i = 0; i < rs->n_fds; i++)
		if (!rs->fds[i].member && rs->fds[i].id == id)
			return &rs->fds[i];
	return NULL;
}

static uint32_t evidx_of(const struct record_session *rs, uint64_t id)
{
	const struct smpl_event_fd *f = fd_of(rs, id);

	return f ? f->evidx : 0;
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

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
static int redraw_periods(struct record_session *rs, struct pf_error *err)
{
	for (size_t i = 0; i < rs->n_fds; i++) {
		struct smpl_event_fd *f = &rs->fds[i];
		int rc;

		if (!f->sampled)
			continue;
		f->sampled = false;
		f->prev_period = f->period;
		f->period = period_random_next(&rs->plan.random[f->evidx]);
		rc = kperf_set_period(f->fd, f->period);
		/* after the ioctl: a sample between it and now would need a
		 * whole new period, at least the base, to pass */
		f->since = monotonic_ns();
		if (rc && rc != -ESRCH) /* ESRCH: the command has just ended */
			return pf_error_set(err, PF_E_SYSTEM, "PERF_EVENT_IOC_PERIOD", strerror(-rc));
	}
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

/* copied as it is: decoded once, after the merge (only its time is read now) */
static int collect_record(const struct perf_event_header *h, void *arg, struct pf_error *err)
{
	struct record_session *rs = arg;
	struct drain_buf *b = rs->drain;
	uint64_t time = 0; /* none: before everything else of the drain */

	(void)err;
	perf_record_peek_time(h, &rs->layout, &time);
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
	int rc = perf_record_decode(h, &rs->layout, &rec, err);

	if (rc <= 0)
		return rc; /* 0: a record type pfmon does not keep */
	if (rec.type == SREC_SAMPLE) {
		struct smpl_event_fd *f = fd_of(rs, rec.sample.id);

		rec.sample.evidx = f ? f->evidx : 0;
		if (f && rs->plan.random[f->evidx].mask) {
			f->sampled = true;
			rec.sample.period = rec.sample.time < f->since ? f->prev_period : f->period;
		}
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
	if (redraw_periods(rs, err))
		return -1;
	profile_prefetch_kernel(rs->profile);
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
	h->clockid = rs->plan.randomized ? CLOCK_MONOTONIC : -1;
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
			/* the base period, not the first random one */
			.period = a->freq ? a->sample_freq : rs->plan.random[i].base,
			.random_mask = rs->plan.random[i].mask,
			.counting = rs->plan.counting[i],
			.n_reads = rs->plan.reads[i].n,
		};
		memcpy(h->events[i].reads, rs->plan.reads[i].idx, sizeof(rs->plan.reads[i].idx));
		if (!rs->plan.reads[i].n)
			h->events[i].fields &= ~SAMPLE_F_READ;
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
	record_plan_release(&rs->plan);
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
		.resolve = cfg->resolve_addresses,
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
	if (!rc)
		profile_finish(rs.profile);
	if (!rc && rs.writer)
		rc = record_kernel_symbols(rs.writer, rs.profile, err);
	if (rs.writer && smpl_writer_close(rs.writer, rc ? NULL : err))
		rc = -1;
	if (!rc) {
		profile_print(rs.profile, stdout);
		warn_lost(profile_lost(rs.profile), profile_throttled(rs.profile));
	}
	session_release(&rs);
	return rc ? -1 : status;
}
