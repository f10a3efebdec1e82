/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common/hash.h"
#include "common/u64set.h"
#include "common/util.h"
#include "kernel/perf.h"
#include "kernel/ring.h"
#include "procfs.h"
#include "session_int.h"
#include "topology.h"

/* The CPUs to open per-CPU events on (the list given, else every online
 * one); ring arrays are indexed by CPU number up to the largest. */
static void choose_cpus(struct session *s)
{
	long n;

	if (s->opts.cpus && s->opts.n_cpus) {
		s->cpus = xcalloc(s->opts.n_cpus, sizeof(*s->cpus));
		memcpy(s->cpus, s->opts.cpus, s->opts.n_cpus * sizeof(*s->cpus));
		s->n_cpus = s->opts.n_cpus;
	} else if ((n = procfs_online_cpus(&s->cpus)) > 0) {
		s->n_cpus = (size_t)n;
	} else {
		long online = sysconf(_SC_NPROCESSORS_ONLN);

		s->n_cpus = online > 0 ? (size_t)online : 1;
		s->cpus = xcalloc(s->n_cpus, sizeof(*s->cpus));
		for (size_t i = 0; i < s->n_cpus; i++)
			s->cpus[i] = (int)i;
	}
	s->ncpu = s->cpus[s->n_cpus - 1] + 1;
}

uint64_t sess_monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Counting reads the times, to scale multiplexed counts. */
static void setup_counting_attrs(struct session *s)
{
	for (size_t k = 0; k < s->n_events; k++) {
		struct perf_event_attr *a = &s->events[k]->attr;

		a->inherit = s->opts.inherit;
		a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	}
}

/*
 * Sampling events also read how many samples the kernel dropped
 * (PERF_FORMAT_LOST): a LOST record only reaches the ring when there is
 * room again, so losses at the very end would go unreported.  Every event
 * reads its times, so that its final count (session_read_counts) is
 * scaled as a counting run's is.
 */
static void setup_sampling_attrs(struct session *s)
{
	for (size_t k = 0; k < s->n_events; k++) {
		s->events[k]->attr.read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		if (!s->plan->counting[k])
			s->events[k]->attr.read_format |= PERF_FORMAT_LOST;
	}
}

/* a kernel without PERF_FORMAT_LOST: the LOST records are all there is */
static void strip_format_lost(struct session *s)
{
	for (size_t k = 0; k < s->n_events; k++)
		s->events[k]->attr.read_format &= ~(uint64_t)PERF_FORMAT_LOST;
	perf_layout_from_attr(&s->layout, &s->events[s->plan->first_sampling]->attr, 0);
}

struct session *session_new(struct set_prog *sets, size_t n_sets, const struct record_plan *plan,
			    const struct session_opts *opts)
{
	struct session *s = xcalloc(1, sizeof(*s));

	s->sets = sets;
	s->n_sets = n_sets;
	s->plan = plan;
	s->opts = *opts;
	for (size_t i = 0; i < n_sets; i++)
		s->n_events += sets[i].n_counters;
	s->events = xcalloc(s->n_events + 1, sizeof(*s->events));
	s->event_set = xcalloc(s->n_events + 1, sizeof(*s->event_set));
	s->open_errno = xcalloc(s->n_events + 1, sizeof(*s->open_errno));
	for (size_t i = 0, k = 0; i < n_sets; i++)
		for (size_t j = 0; j < sets[i].n_counters; j++, k++) {
			s->events[k] = &sets[i].counters[j];
			s->event_set[k] = (int)i;
		}
	u64set_init(&s->by_id);
	pthread_mutex_init(&s->lock, NULL);
	s->filling = &s->bufs[0];
	s->wake_fd = -1;
	u64set_init(&s->tids);
	u64set_init(&s->synth_hash);
	u64set_init(&s->task_of);
	s->chld_pipe[0] = s->chld_pipe[1] = -1;
	choose_cpus(s);
	sess_trig_init(s);
	s->start_off = opts->triggers.n[STRG_CODE_START] || opts->triggers.n[STRG_DATA_START] ||
		       opts->triggers.start_delay_ns || opts->triggers.dont_start;
	/* added to what the event asked for (an encoder may exclude it already) */
	for (size_t k = 0; opts->exclude_idle && k < s->n_events; k++)
		s->events[k]->attr.exclude_idle = 1;
	s->rotating = opts->switch_ns && !plan && n_sets > 1;
	if (plan) {
		setup_sampling_attrs(s);
		perf_layout_from_attr(&s->layout, &s->events[plan->first_sampling]->attr, 0);
		s->rings = xcalloc((size_t)s->ncpu, sizeof(*s->rings));
		s->ring_fd = xcalloc((size_t)s->ncpu, sizeof(*s->ring_fd));
		for (int c = 0; c < s->ncpu; c++)
			s->ring_fd[c] = -1;
	} else {
		setup_counting_attrs(s);
	}
	return s;
}

size_t session_n_events(const struct session *s)
{
	return s->n_events;
}

const struct counter_prog *session_event(const struct session *s, size_t i)
{
	return s->events[i];
}

int session_event_set(const struct session *s, size_t i)
{
	return s->event_set[i];
}

enum session_end session_ended_by(const struct session *s)
{
	return s->end;
}

static struct session_fd *add_fd(struct session *s, struct session_fd f)
{
	if (s->n_fds == s->cap_fds) {
		s->cap_fds = s->cap_fds ? s->cap_fds * 2 : 64;
		s->fds = xrealloc(s->fds, s->cap_fds * sizeof(*s->fds));
	}
	s->fds[s->n_fds] = f;
	return &s->fds[s->n_fds++];
}

/*
 * The target-dependent bits: a launched command starts counting at its
 * exec (every counter disabled until then); running tasks when every
 * counter is open, by enabling the group leaders, so the members of a
 * group start enabled and count with their leader.  The events read in
 * samples are such members.
 */
static void set_start(struct session *s, bool at_exec)
{
	s->at_exec = at_exec;
	for (size_t k = 0; k < s->n_events; k++) {
		struct perf_event_attr *a = &s->events[k]->attr;
		bool member = s->plan && s->plan->counting[k];

		a->disabled = !member;
		/* counting that a trigger or a delay starts is off at the exec;
		 * rotating, the first set alone starts */
		a->enable_on_exec = at_exec && !member && !s->start_off && !(s->rotating && s->event_set[k] != 0);
	}
	s->counting_on = !s->start_off;
}

bool sess_traced(const struct session *s)
{
	return s->opts.follow.enabled || s->trig;
}

/* a counted event opened on a running task: disabled only if it leads */
static void set_counting_disabled(struct session *s, size_t k, bool leads)
{
	struct counter_prog *c = s->events[k];

	if (s->open_enabled)
		c->attr.disabled = 0;
	/* the leader is switched, its members follow it (rotating: every set
	 * but the first, which starts at the exec) */
	else if (!s->at_exec || s->start_off || (s->rotating && s->event_set[k] != 0))
		c->attr.disabled = leads;
}

void sess_start_enabled(struct session *s)
{
	if (s->open_enabled)
		return;
	s->open_enabled = true;
	for (size_t k = 0; k < s->n_events; k++) {
		s->events[k]->attr.disabled = 0;
		s->events[k]->attr.enable_on_exec = 0;
	}
}

/* a failure that leaves a counted event "<not supported>" rather than ending the run */
static bool soft_failure(int e)
{
	return e == ENOENT || e == ENODEV || e == EOPNOTSUPP || e == EINVAL || e == ENOSPC;
}

/* the task ended while pfmon was attaching to it */
static bool task_gone(int e)
{
	return e == ESRCH;
}

/* One group per set on one task (or the cpu_index-th CPU): the set's first
 * event that opens leads it. */
/* An Arm SPE event's samples are packets in an AUX buffer, a second
 * mapping of its ring that pfmon does not make: said rather than opened
 * to count or sample nothing. */
static int refuse_aux(const struct counter_prog *c, struct pf_error *err)
{
	return pf_error_set(err, PF_E_NOT_SUPPORTED, c->name,
			    "its samples are an AUX trace (Arm SPE), which pfmon does not map: record with perf "
			    "record -e arm_spe// and read the perf.data with pfmon --report");
}

static int open_counting_on(struct session *s, pid_t tid, int cpu, size_t cpu_index, bool first_task,
			    struct pf_error *err)
{
	int leader = -1, leader_set = -1;

	for (size_t k = 0; k < s->n_events; k++) {
		struct counter_prog *c = s->events[k];
		int fd;

		if (s->event_set[k] != leader_set) {
			leader = -1;
			leader_set = s->event_set[k];
		}
		if (cpu >= 0 && s->on_cpu && !s->on_cpu[k * s->n_cpus + cpu_index])
			continue; /* its PMU counts on another CPU (its cpumask, .per-pkg) */
		if (!first_task && s->open_errno[k])
			continue; /* refused on the first task already */
		if (launch_interrupted())
			return pf_error_set(err, PF_E_INTERRUPTED);
		if (c->aux_trace)
			return refuse_aux(c, err);
		set_counting_disabled(s, k, leader < 0);
		fd = kperf_open(&c->attr, c->name, tid, cpu, leader);
		if (fd < 0) {
			if (task_gone(-fd))
				return 1;
			if (!first_task || !soft_failure(-fd))
				return kperf_open_error(&c->attr, c->name, -fd, err);
			s->open_errno[k] = -fd;
			continue;
		}
		add_fd(s, (struct session_fd){ .evidx = (uint32_t)k, .leader = leader < 0, .cpu = cpu, .tid = tid,
					      .fd = fd });
		if (leader < 0)
			leader = fd;
	}
	return 0;
}

/* every event refused: nothing to count (perf stat -n asks for none) */
static int check_something_opened(struct session *s, struct pf_error *err)
{
	if (!s->n_events)
		return 0;
	for (size_t k = 0; k < s->n_events; k++)
		if (!s->open_errno[k])
			return 0;
	return kperf_open_error(&s->events[0]->attr, s->events[0]->name, s->open_errno[0], err);
}

/* Branch stacks refused: what is missing, the machine's branch-stack PMU
 * (no hardware PMU at all, as in most VMs) or the event's (a software
 * event has no branch stack, whatever the machine) */
static int branch_stack_error(const struct counter_prog *c, struct pf_error *err)
{
	uint32_t t = c->attr.type;

	if ((c->attr.branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK) && !kperf_hw_counting_works())
		return pf_error_set(err, PF_E_CANNOT_SAMPLE, c->name,
				    "--call-graph=lbr needs LBR call stacks (Intel, Haswell or later), and this "
				    "machine has no hardware PMU (as in most VMs)");
	if (!kperf_hw_counting_works())
		return pf_error_set(err, PF_E_CANNOT_SAMPLE, c->name,
				    "branch stacks need a branch-stack PMU (Intel LBR, AMD LBR v2, Arm BRBE), and "
				    "this machine has no hardware PMU (as in most VMs)");
	if (t == PERF_TYPE_SOFTWARE || t == PERF_TYPE_TRACEPOINT || t == PERF_TYPE_BREAKPOINT)
		return pf_error_set(err, PF_E_CANNOT_SAMPLE, c->name,
				    "a software event has no branch stack: sample a hardware event (-e cycles) for one");
	if (c->attr.branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK)
		return pf_error_set(err, PF_E_CANNOT_SAMPLE, c->name,
				    "this machine's PMU records no LBR call stacks (Intel, Haswell or later; "
				    "use --call-graph=fp or dwarf)");
	return pf_error_set(err, PF_E_CANNOT_SAMPLE, c->name,
			    "this machine's PMU records no branch stacks for it (no Intel LBR, AMD LBR v2 or Arm "
			    "BRBE, or not with this branch filter)");
}

static int sampling_open_error(const struct counter_prog *c, int e, struct pf_error *err)
{
	if ((c->attr.sample_type & PERF_SAMPLE_BRANCH_STACK) && (e == EOPNOTSUPP || e == EINVAL || e == ENOENT))
		return branch_stack_error(c, err);
	if ((c->attr.sample_type & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC)) &&
	    (e == EOPNOTSUPP || e == EINVAL || e == ENOENT))
		return pf_error_set(err, PF_E_CANNOT_SAMPLE, c->name,
				    "latencies and data sources need a hardware PMU that records them (PEBS, IBS, "
				    "SPE), which this event or machine lacks");
	if (e == EINVAL && (c->attr.sample_type & PERF_SAMPLE_READ) && c->attr.inherit)
		return pf_error_set(err, PF_E_CANNOT_SAMPLE, c->name,
				    "recording the counts of events without a period in the samples of "
				    "inherited events needs Linux 6.12 or later (or --no-inherit)");
	return kperf_open_error(&c->attr, c->name, e, err);
}

/*
 * A ring per CPU, owned by the first sampling fd opened there.  Its size
 * is the plan's; when the locked-memory limit refuses it (an unprivileged
 * user), smaller ones are tried down to 8 pages, as perf does.
 */
static int attach_ring(struct session *s, struct session_fd *f, const char *name, struct pf_error *err)
{
	int cpu = f->cpu;

	if (s->ring_fd[cpu] >= 0) {
		if (kperf_set_output(f->fd, s->ring_fd[cpu]))
			return pf_error_set(err, PF_E_OPEN, name, "cannot share the CPU's ring buffer");
		return 0;
	}
	for (size_t pages = s->plan->ring_pages;; pages /= 2) {
		if (!ring_map(f->fd, pages, &s->rings[cpu], err))
			break;
		if (pages <= 8)
			return -1;
	}
	s->ring_fd[cpu] = f->fd;
	return 0;
}

/* the non-sampling events of sampling event e, in its group on one CPU */
static int open_members(struct session *s, size_t e, pid_t tid, int cpu, int leader, struct pf_error *err)
{
	for (uint32_t j = 0; j < s->plan->reads[e].n; j++) {
		uint32_t m = s->plan->reads[e].idx[j];
		struct counter_prog *c = s->events[m];
		int fd = kperf_open(&c->attr, c->name, tid, cpu, leader);

		if (fd < 0)
			return task_gone(-fd) ? 1 : sampling_open_error(c, -fd, err);
		add_fd(s, (struct session_fd){ .evidx = m, .member = true, .cpu = cpu, .tid = tid, .fd = fd });
	}
	return 0;
}

/* a sampling event on one task and CPU, with its group */
static int open_sampling_event(struct session *s, size_t e, pid_t tid, int cpu, struct pf_error *err)
{
	struct counter_prog *c = s->events[e];
	struct session_fd *f;
	int fd;

	if (c->aux_trace)
		return refuse_aux(c, err);
	fd = kperf_open(&c->attr, c->name, tid, cpu, -1);

	if (fd == -EINVAL && !s->n_fds && (c->attr.read_format & PERF_FORMAT_LOST)) {
		strip_format_lost(s); /* before Linux 6.0 */
		fd = kperf_open(&c->attr, c->name, tid, cpu, -1);
	}
	if (fd < 0)
		return task_gone(-fd) ? 1 : sampling_open_error(c, -fd, err);
	f = add_fd(s, (struct session_fd){ .evidx = (uint32_t)e, .leader = true, .cpu = cpu, .tid = tid, .fd = fd,
					   .period = c->attr.sample_period, .prev_period = c->attr.sample_period });
	if (kperf_id(fd, &f->id))
		return pf_error_set(err, PF_E_OPEN, c->name, "cannot read its id");
	u64set_put(&s->by_id, f->id, s->n_fds - 1);
	if (attach_ring(s, f, c->name, err))
		return -1;
	return open_members(s, e, tid, cpu, fd, err);
}

/* Every sampling event, with its group of non-sampling ones, on every CPU. */
static int open_sampling_task(struct session *s, pid_t tid, struct pf_error *err)
{
	for (size_t i = 0; i < s->n_cpus; i++)
		for (size_t e = 0; e < s->n_events; e++) {
			int cpu = s->cpus[i];
			int rc;

			if (s->plan->counting[e])
				continue;
			if (launch_interrupted())
				return pf_error_set(err, PF_E_INTERRUPTED);
			rc = open_sampling_event(s, e, tid, cpu, err);
			if (rc)
				return rc;
		}
	return 0;
}

/*
 * The kernel lets a user monitor a task only if it may ptrace it (same
 * user, or CAP_SYS_PTRACE) and perf_event_paranoid allows it: say which
 * one stands in the way.
 */
static int attach_perm_error(pid_t tid, struct pf_error *err)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d", (int)tid);
	if (stat(path, &st) == 0 && st.st_uid != geteuid() && geteuid() != 0)
		return pf_error_set(err, PF_E_TASK_PERM, (int)tid,
				    "it belongs to another user: run pfmon as that user, or as root");
	return pf_error_set(err, PF_E_TASK_PERM, (int)tid,
			    "kernel.perf_event_paranoid or kernel.yama.ptrace_scope forbids it: monitor "
			    "user level only (-u), run as root, or grant CAP_PERFMON and CAP_SYS_PTRACE");
}

/* 0: opened; 1: the task is gone; -1: error */
static int open_task(struct session *s, pid_t tid, struct pf_error *err)
{
	bool first = u64set_len(&s->tids) == 0;
	size_t first_fd = s->n_fds;
	int rc;

	if (!u64set_add(&s->tids, (uint64_t)tid))
		return 0; /* already */
	rc = s->plan ? open_sampling_task(s, tid, err) : open_counting_on(s, tid, -1, 0, first, err);
	if (rc == 0 && first && !s->plan)
		rc = check_something_opened(s, err);
	if (rc == 0 && s->opts.per_task)
		sess_task_add(s, tid, first_fd);
	if (rc < 0 && !s->at_exec && err && err->code == PF_E_PERM)
		return attach_perm_error(tid, err);
	return rc;
}

int sess_open_counters(struct session *s, pid_t tid, struct pf_error *err)
{
	return open_task(s, tid, err);
}

static int open_on_child(pid_t pid, void *arg, struct pf_error *err)
{
	struct session *s = arg;
	int rc = sess_traced(s) ? sess_follow_seize(s, pid, err) : 0;

	if (!rc)
		rc = open_task(s, pid, err);

	/* the held child cannot have gone: it waits for us */
	return rc > 0 ? pf_error_set(err, PF_E_FORK, "command", strerror(ESRCH)) : rc;
}

static int pidfd_of(pid_t pid)
{
	return (int)syscall(SYS_pidfd_open, pid, 0);
}

/* A pidfd turns readable when its process ends; one that is already
 * gone is watched as ended.  (Before Linux 5.3 there are no pidfds: the
 * session then ends on the timeout, a signal or its command.) */
static void watch_process(struct session *s, pid_t pid)
{
	int fd = pidfd_of(pid);

	if (fd < 0 && errno != ESRCH)
		return;
	XGROW(s->pidfds, s->cap_pidfds, s->n_pidfds);
	XGROW(s->pid_ended, s->cap_pid_ended, s->n_pidfds);
	s->pid_ended[s->n_pidfds] = fd < 0;
	s->pidfds[s->n_pidfds++] = fd;
}

int session_open_command(struct session *s, char *const argv[], struct pf_error *err)
{
	set_start(s, true);
	if (sess_traced(s) && sess_follow_prepare(s, err))
		return -1;
	if (child_start(argv, &s->opts.launch, open_on_child, s, &s->child, err))
		return -1;
	s->have_child = true;
	watch_process(s, s->child.pid);
	return 0;
}

/*
 * Every thread listed was gone when its counters opened: a process that
 * has exited, whose parent has not reaped it yet (a zombie keeps its
 * /proc/PID/task entry), or one that exited while pfmon attached.  Either
 * way nothing of it can be counted: an error, not a run of empty counts.
 */
static int no_thread_opened(pid_t pid, struct pf_error *err)
{
	if (procfs_state(pid) == 'Z')
		return pf_error_set(err, PF_E_NO_SUCH_TASK, (int)pid,
				    "the process has exited (a zombie its parent has not reaped)");
	return pf_error_set(err, PF_E_NO_SUCH_TASK, (int)pid, "the process exited while pfmon attached to it");
}

/*
 * Every thread of a running process: list /proc/PID/task, open on each,
 * and list again until a listing shows no thread that is not open.  A
 * thread created by an opened thread inherits its counters; one created
 * by a thread not yet opened shows in the next listing; so when a listing
 * adds nothing, no thread is missed.
 */
static int open_process(struct session *s, pid_t pid, struct pf_error *err)
{
	size_t fds_before = s->n_fds;

	for (int round = 0;; round++) {
		pid_t *tids;
		long n = procfs_tasks(pid, &tids);
		size_t before = u64set_len(&s->tids);
		int rc = 0;

		if (n <= 0) {
			if (round == 0)
				return pf_error_set(err, PF_E_NO_SUCH_TASK, (int)pid, "no such process");
			if (s->n_fds == fds_before)
				return pf_error_set(err, PF_E_NO_SUCH_TASK, (int)pid,
						    "the process exited while pfmon attached to it");
			return 0; /* it ended after some threads were opened: their counts are kept */
		}
		for (long i = 0; i < n && rc >= 0; i++)
			rc = open_task(s, tids[i], err);
		free(tids);
		if (rc < 0)
			return -1;
		if (u64set_len(&s->tids) == before)
			return s->n_fds > fds_before ? 0 : no_thread_opened(pid, err);
	}
}

static int open_thread(struct session *s, pid_t tid, struct pf_error *err)
{
	int rc = open_task(s, tid, err);

	if (rc > 0)
		return pf_error_set(err, PF_E_NO_SUCH_TASK, (int)tid, "no such thread");
	return rc;
}

/* the name and mappings of an attached process, as the kernel would have
 * sent them (the name roots its call stacks) */
static uint64_t maps_hash(const struct sample_record *recs, long n)
{
	uint64_t h = (uint64_t)n;

	for (long i = 0; i < n; i++) {
		const struct sample_mmap *m = &recs[i].mmap;

		h = hash_combine(hash_combine(hash_combine(h, m->start), m->len), m->pgoff);
		h = hash_combine(h, hash_str(m->filename));
	}
	return h;
}

/* The mappings of pid as MMAP records (and its name), once more only if
 * they changed since the last time: a trigger that starts sampling at
 * every call of a function reads them each time, and keeps them once. */
static void synthesize_maps(struct session *s, pid_t pid)
{
	struct sample_record *recs;
	long n = procfs_maps(pid, !!(s->layout.sample_type & PERF_SAMPLE_ADDR), &recs);
	uint64_t h, last;

	if (n < 0)
		return;
	h = maps_hash(recs, n);
	if (u64set_get(&s->synth_hash, (uint64_t)pid, &last) && last == h) {
		procfs_maps_free(recs, (size_t)n);
		return;
	}
	u64set_put(&s->synth_hash, (uint64_t)pid, h);
	s->synth = xrealloc(s->synth, (s->n_synth + (size_t)n + 1) * sizeof(*s->synth));
	if (procfs_comm_record(pid, &s->synth[s->n_synth]))
		s->n_synth++;
	memcpy(s->synth + s->n_synth, recs, (size_t)n * sizeof(*recs));
	s->n_synth += (size_t)n;
	free(recs); /* the filenames now belong to s->synth */
}

static int enable_all(struct session *s, struct pf_error *err)
{
	for (size_t i = 0; i < s->n_fds; i++) {
		int rc;

		if (!s->fds[i].leader || (s->rotating && (size_t)s->event_set[s->fds[i].evidx] != s->rot_set))
			continue;
		rc = kperf_enable(s->fds[i].fd);
		if (rc && rc != -ESRCH)
			return pf_error_set(err, PF_E_SYSTEM, "PERF_EVENT_IOC_ENABLE", strerror(-rc));
	}
	return 0;
}

int session_open_tasks(struct session *s, const pid_t *pids, size_t n, bool whole_process, struct pf_error *err)
{
	set_start(s, false);
	launch_catch_signals();
	for (size_t i = 0; i < n; i++) {
		pid_t tgid = pids[i];

		if (launch_interrupted())
			return pf_error_set(err, PF_E_INTERRUPTED);
		if (whole_process ? open_process(s, pids[i], err) : open_thread(s, pids[i], err))
			return -1;
		if (!whole_process && !procfs_tgid(pids[i], &tgid))
			tgid = pids[i];
		watch_process(s, tgid);
		if (s->plan)
			synthesize_maps(s, tgid);
	}
	if (launch_interrupted())
		return pf_error_set(err, PF_E_INTERRUPTED);
	return s->start_off ? 0 : enable_all(s, err);
}

/* the mappings and names of every process, for samples of all of them */
static void synthesize_all(struct session *s)
{
	DIR *d = opendir("/proc");
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		pid_t pid;

		/* pfmon's own process too: it runs, and is sampled, like the others */
		if (!procfs_task_id(de->d_name, &pid))
			continue;
		synthesize_maps(s, pid);
	}
	closedir(d);
}

/* event k's CPUs among the session's: those its PMU counts on (cpumask) */
static int mask_cpus(struct session *s, size_t k, struct pf_error *err)
{
	const struct counter_prog *c = s->events[k];
	char why[96];
	int *mask = NULL;
	long n = procfs_parse_cpu_list(c->cpus, &mask, why, sizeof(why));
	bool any = false;

	if (n < 0) {
		snprintf(why + strlen(why), sizeof(why) - strlen(why), " in its PMU's cpumask '%.20s'", c->cpus);
		return pf_error_set(err, PF_E_NOT_SUPPORTED, c->name, why);
	}
	for (size_t i = 0; i < s->n_cpus; i++) {
		bool in = false;

		for (long j = 0; j < n && !in; j++)
			in = mask[j] == s->cpus[i];
		s->on_cpu[k * s->n_cpus + i] = in;
		any |= in;
	}
	free(mask);
	if (!any) {
		char msg[160];

		snprintf(msg, sizeof(msg), "its PMU counts on CPUs %.40s only (its cpumask), none of the session's",
			 c->cpus);
		return pf_error_set(err, PF_E_NOT_SUPPORTED, c->name, msg);
	}
	return 0;
}

/* a .per-pkg event: on the first of its CPUs in each package only */
static int one_cpu_a_package(struct session *s, size_t k, struct pf_error *err)
{
	int *seen = xcalloc(s->n_cpus + 1, sizeof(*seen));
	size_t n_seen = 0;
	int rc = 0;

	for (size_t i = 0; i < s->n_cpus && !rc; i++) {
		int pkg;
		bool again = false;

		if (!s->on_cpu[k * s->n_cpus + i])
			continue;
		rc = cpu_package(s->cpus[i], &pkg, err);
		for (size_t j = 0; j < n_seen && !again; j++)
			again = seen[j] == pkg;
		if (again)
			s->on_cpu[k * s->n_cpus + i] = false;
		else
			seen[n_seen++] = pkg;
	}
	free(seen);
	return rc;
}

/*
 * Counting system-wide, perf's way with PMUs that count for more than one
 * CPU: an uncore or RAPL event opens on the CPUs of its PMU's cpumask
 * only, a .per-pkg event on one CPU of each package, so no package's
 * count is added twice.
 */
static int events_cpus(struct session *s, struct pf_error *err)
{
	for (size_t k = 0; k < s->n_events; k++) {
		if (!s->events[k]->cpus && !s->events[k]->per_pkg)
			continue;
		if (!s->on_cpu) {
			s->on_cpu = xcalloc(s->n_events * s->n_cpus + 1, sizeof(*s->on_cpu));
			for (size_t i = 0; i < s->n_events * s->n_cpus; i++)
				s->on_cpu[i] = true;
		}
		if ((s->events[k]->cpus && mask_cpus(s, k, err)) || (s->events[k]->per_pkg && one_cpu_a_package(s, k, err)))
			return -1;
	}
	return 0;
}

int session_open_cpus(struct session *s, char *const argv[], struct pf_error *err)
{
	set_start(s, false);
	if (!s->plan && events_cpus(s, err))
		return -1;
	for (size_t k = 0; k < s->n_events; k++)
		s->events[k]->attr.inherit = 0; /* per-CPU events see every task already */
	if (argv) {
		struct launch_opts lo = s->opts.launch;

		if (s->opts.pin_command) {
			lo.pin_cpus = s->cpus;
			lo.n_pin_cpus = s->n_cpus;
		}
		if (child_fork(argv, &lo, &s->child, err))
			return -1;
		s->have_child = true;
	} else {
		launch_catch_signals();
	}
	for (size_t i = 0; i < s->n_cpus; i++) {
		int rc;

		if (launch_interrupted())
			return pf_error_set(err, PF_E_INTERRUPTED);
		rc = s->plan ? open_sampling_task(s, -1, err) : open_counting_on(s, -1, s->cpus[i], i, i == 0, err);
		if (rc == 0 && i == 0 && !s->plan)
			rc = check_something_opened(s, err);
		if (rc && err && err->code == PF_E_PERM)
			return pf_error_set(err, PF_E_CPU_PERM, kperf_paranoid());
		if (rc)
			return -1;
		if (s->plan)
			break; /* open_sampling_task opened every CPU */
	}
	s->every_process = true;
	if (!s->start_off && enable_all(s, err))
		return -1;
	if (s->plan)
		synthesize_all(s); /* after the enable: see sess_set_counting */
	if (argv) {
		watch_process(s, s->child.pid);
		return child_release(&s->child, argv[0], err);
	}
	return 0;
}

void sess_counts_clear(const struct session *s, struct session_count *counts)
{
	for (size_t k = 0; k < s->n_events; k++)
		counts[k] = (struct session_count){ .open_errno = s->open_errno[k] };
}

/* one fd's count; 1 when it is closed (its task's result was taken) */
static int read_fd(const struct session *s, const struct session_fd *f, struct kperf_count *kc,
		   struct pf_error *err)
{
	int rc;

	if (f->fd < 0)
		return 1;
	rc = kperf_read_format(f->fd, s->events[f->evidx]->attr.read_format, f->id, kc);
	if (rc)
		return pf_error_set(err, PF_E_READ, s->events[f->evidx]->name, strerror(-rc));
	return 0;
}

int sess_count_fd(const struct session *s, const struct session_fd *f, struct session_count *counts,
		  struct pf_error *err)
{
	struct session_count *c = &counts[f->evidx];
	struct kperf_count kc;
	int rc = read_fd(s, f, &kc, err);

	if (rc)
		return rc < 0 ? -1 : 0;
	c->opened = true;
	c->value += kc.value;
	c->enabled += kc.enabled;
	c->running += kc.running;
	return 0;
}

size_t session_tasks_exited(const struct session *s)
{
	struct u64set seen;
	size_t n = 0;

	u64set_init(&seen);
	for (size_t i = 0; i < s->n_fds; i++) {
		const struct session_fd *f = &s->fds[i];
		char path[64];

		if (f->tid <= 0 || !u64set_add(&seen, (uint64_t)f->tid))
			continue;
		/* (a counting fd cannot tell: without a ring it always polls POLLHUP) */
		snprintf(path, sizeof(path), "/proc/%d", (int)f->tid);
		if (access(path, F_OK) != 0)
			n++;
	}
	u64set_release(&seen);
	return n;
}

size_t session_n_cpus(const struct session *s)
{
	return s->n_cpus;
}

const int *session_cpus(const struct session *s)
{
	return s->cpus;
}

int session_cpu_counts(const struct session *s, size_t i, int *cpu, struct session_count *counts,
		       struct pf_error *err)
{
	*cpu = s->cpus[i];
	sess_counts_clear(s, counts);
	for (size_t j = 0; j < s->n_fds; j++)
		if (s->fds[j].cpu == *cpu && sess_count_fd(s, &s->fds[j], counts, err))
			return -1;
	sess_rotation_scale(s, counts);
	return 0;
}

static bool all_watched_ended(struct session *s)
{
	for (size_t i = 0; i < s->n_pidfds; i++)
		if (!s->pid_ended[i])
			return false;
	return s->n_pidfds > 0;
}

/* poll the rings and the processes; up to 100 ms, so signals and the
 * timeout are seen promptly even without any event */
static int wait_for_activity(struct session *s, uint64_t deadline, struct pf_error *err)
{
	struct pollfd *pfd = xcalloc((size_t)s->ncpu + s->n_pidfds + 2, sizeof(*pfd));
	size_t n = 0;
	int timeout = 100, rc;

	if (s->reader_running)
		pfd[n++] = (struct pollfd){ .fd = s->wake_fd, .events = POLLIN };
	for (size_t i = 0; i < s->n_pidfds; i++)
		pfd[n + i] = (struct pollfd){ .fd = s->pid_ended[i] ? -1 : s->pidfds[i], .events = POLLIN };
	/* pfmon 3.x: <press ENTER to stop session> */
	pfd[n + s->n_pidfds] = (struct pollfd){ .fd = s->opts.stop_on_enter ? STDIN_FILENO : -1, .events = POLLIN };
	if (deadline) {
		uint64_t now = sess_monotonic_ns();

		timeout = now >= deadline ? 0 : (int)((deadline - now + 999999) / 1000000);
		if (timeout > 100)
			timeout = 100;
	}
	rc = poll(pfd, n + s->n_pidfds + 1, timeout);
	if (rc < 0 && errno != EINTR) {
		free(pfd);
		return pf_error_set(err, PF_E_SYSTEM, "poll", strerror(errno));
	}
	for (size_t i = 0; rc > 0 && i < s->n_pidfds; i++)
		if (pfd[n + i].revents)
			s->pid_ended[i] = true;
	if (rc > 0 && pfd[n + s->n_pidfds].revents)
		s->enter_pressed = true;
	free(pfd);
	return 0;
}

/* has the session reached its end?  (sets s->end) */
static bool session_over(struct session *s, uint64_t deadline, int *status)
{
	if (s->have_child && child_poll(&s->child, status)) {
		sess_note_rusage(s, &s->child.usage);
		s->end = SESSION_END_COMMAND;
		s->have_child = false;
		return true;
	}
	if (!s->have_child && all_watched_ended(s)) {
		s->end = SESSION_END_TARGETS;
		return true;
	}
	if (deadline && sess_monotonic_ns() >= deadline) {
		s->end = SESSION_END_TIMEOUT;
		return true;
	}
	if (s->enter_pressed) {
		s->end = SESSION_END_SIGNAL;
		return true;
	}
	/* a launched command gets the signal and ends by itself */
	if (!s->have_child && launch_interrupted()) {
		s->end = SESSION_END_SIGNAL;
		return true;
	}
	return false;
}

static void disable_all(struct session *s)
{
	for (size_t i = 0; i < s->n_fds; i++)
		if (s->fds[i].leader)
			kperf_disable(s->fds[i].fd);
}

/*
 * Sampling started late (a trigger, a delay): the kernel wrote no MMAP or
 * COMM record while the events were disabled, the exec's included, so the
 * processes' mappings are read now (sess_drain passes them on before the
 * samples the rings took meanwhile): every process system-wide; else those
 * of the tasks opened on (the command, the attached ones) and those the
 * triggers follow.
 */
static void synthesize_started(struct session *s)
{
	pid_t *pids = NULL;
	uint64_t tid;
	size_t n;

	if (s->every_process) {
		synthesize_all(s);
		return;
	}
	for (size_t i = 0; u64set_next(&s->tids, &i, &tid);) {
		pid_t tgid;

		if (procfs_tgid((pid_t)tid, &tgid))
			synthesize_maps(s, tgid);
	}
	n = s->trig ? sess_trig_processes(s, &pids) : 0;
	for (size_t i = 0; i < n; i++)
		synthesize_maps(s, pids[i]);
	free(pids);
}

/*
 * Every group leader (the members count with them).  With the command
 * stopped by ptrace, nothing of it runs between the switch and the
 * address that asked for it.  Inherited counters switch with their
 * children: the ioctl acts on the children of an event too.
 */
int sess_set_counting(struct session *s, bool on, struct pf_error *err)
{
	if (s->counting_on == on)
		return 0;
	s->counting_on = on;
	if (on) {
		/* enabled first: a process that execs during the scan of /proc
		 * then has the kernel's MMAP records; scanned first, its old
		 * mappings would name its new program's samples */
		if (enable_all(s, err))
			return -1;
		if (s->plan)
			synthesize_started(s);
		return 0;
	}
	for (size_t i = 0; i < s->n_fds; i++) {
		int rc;

		if (!s->fds[i].leader || s->fds[i].fd < 0)
			continue;
		rc = kperf_disable(s->fds[i].fd);
		if (rc && rc != -ESRCH)
			return pf_error_set(err, PF_E_SYSTEM, "PERF_EVENT_IOC_DISABLE", strerror(-rc));
	}
	return 0;
}

int sess_start_if_due(struct session *s, struct pf_error *err)
{
	if (!s->start_at || sess_monotonic_ns() < s->start_at)
		return 0;
	s->start_at = 0;
	return sess_set_counting(s, true, err);
}

static uint64_t earliest(uint64_t a, uint64_t b)
{
	return !a ? b : !b ? a : a < b ? a : b;
}

/* --print-interval: the sink reads and prints each interval's counts */
static int tick_if_due(struct session *s, const struct session_sink *sink, uint64_t *next, struct pf_error *err)
{
	uint64_t now = sess_monotonic_ns();

	if (!*next || now < *next)
		return 0;
	while (*next <= now) /* a late wake-up skips no interval's end, it merges them */
		*next += s->opts.interval_ns;
	return sink->tick(sink->arg, now - s->start_ns, err);
}

uint64_t sess_first_tick(const struct session *s, const struct session_sink *sink)
{
	return s->opts.interval_ns && sink && sink->tick ? s->start_ns + s->opts.interval_ns : 0;
}

uint64_t sess_next_wake(const struct session *s, uint64_t deadline, uint64_t next_tick)
{
	return earliest(earliest(earliest(deadline, next_tick), s->start_at), sess_rotation_next(s));
}

int sess_after_wake(struct session *s, const struct session_sink *sink, uint64_t *next_tick, struct pf_error *err)
{
	if (sess_start_if_due(s, err) || sess_rotate_if_due(s, err))
		return -1;
	if (s->plan && sess_drain(s, sink, false, err))
		return -1;
	switch (tick_if_due(s, sink, next_tick, err)) {
	case 0:
		return 0;
	case 1: /* --interval-count reached */
		s->end = SESSION_END_INTERVALS;
		return 1;
	default:
		return -1;
	}
}

static int run_loop(struct session *s, const struct session_sink *sink, int *status, struct pf_error *err)
{
	uint64_t deadline = s->opts.timeout_ns ? s->start_ns + s->opts.timeout_ns : 0;
	uint64_t next_tick = sess_first_tick(s, sink);

	while (!session_over(s, deadline, status)) {
		int rc;

		if (wait_for_activity(s, sess_next_wake(s, deadline, next_tick), err))
			return -1;
		rc = sess_after_wake(s, sink, &next_tick, err);
		if (rc)
			return rc < 0 ? -1 : 0;
	}
	return 0;
}

int session_run(struct session *s, const struct session_sink *sink, int *status, struct pf_error *err)
{
	bool traced;
	int rc;

	*status = 0;
	if (s->plan && sess_pass_synthesized(s, sink, err))
		return -1;
	if (s->opts.triggers.start_delay_ns)
		s->start_at = sess_monotonic_ns() + s->opts.triggers.start_delay_ns;
	s->start_ns = sess_monotonic_ns();
	sess_rotation_start(s);
	/* a traced command (followed, or with triggers): its stops run the loop */
	traced = sess_traced(s) && s->have_child;
	/* a counted command without a timeout: nothing to do but wait */
	if (!traced && !s->plan && s->have_child && !s->opts.timeout_ns && !s->opts.interval_ns && !s->start_at &&
	    !s->rotating) {
		*status = child_wait(&s->child);
		sess_note_rusage(s, &s->child.usage);
		s->have_child = false;
		s->end = SESSION_END_COMMAND;
		return 0;
	}
	rc = s->plan && !s->opts.saturate ? sess_start_reader(s, err) : 0;
	if (!rc)
		rc = traced ? sess_follow_run(s, sink, status, err) : run_loop(s, sink, status, err);
	disable_all(s); /* attached tasks run on: the counts end here */
	/* the last, partial interval */
	if (!rc && s->opts.interval_ns && sink && sink->tick && s->end != SESSION_END_INTERVALS)
		rc = sink->tick(sink->arg, sess_monotonic_ns() - s->start_ns, err) < 0 ? -1 : 0;
	sess_stop_reader(s);
	if (s->have_child) {
		/* a fatal error or the timeout: pfmon 3.x ends the command it started */
		child_kill(&s->child);
		s->have_child = false;
	}
	if (rc)
		return -1;
	if (s->plan) {
		if (sess_drain(s, sink, true, err)) /* what the tasks wrote before they ended */
			return -1;
		return sess_pass_unreported_losses(s, sink, err);
	}
	return 0;
}

/* per-task sessions: the sum of the tasks' results */
static int sum_task_results(struct session *s, struct session_count *counts, struct pf_error *err)
{
	const struct session_task_result *r;
	size_t n;

	if (session_task_results(s, &r, &n, err))
		return -1;
	sess_counts_clear(s, counts);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < s->n_events; k++) {
			counts[k].opened |= r[i].counts[k].opened;
			counts[k].value += r[i].counts[k].value;
			counts[k].enabled += r[i].counts[k].enabled;
			counts[k].running += r[i].counts[k].running;
		}
	return 0;
}

/*
 * A sampling session opens each event on a task once per CPU: the task's
 * counters are enabled together, each for the task's whole time, but each
 * runs only while the task is on its CPU.  The event's count on a task is
 * the sum of its CPUs' values and running times over that time, enabled
 * once (the longest of its CPUs', which differ by how apart they were
 * enabled); counters of CPUs (system-wide) are each their own.
 */
static int read_sampling_counts(struct session *s, struct session_count *counts, struct pf_error *err)
{
	struct u64set slot_of; /* (task, event) -> its slot in longest */
	uint64_t *longest = xcalloc(s->n_fds + 1, sizeof(*longest));
	uint32_t *event_of = xcalloc(s->n_fds + 1, sizeof(*event_of));
	size_t n_slots = 0;
	int rc = 0;

	u64set_init(&slot_of);
	for (size_t i = 0; i < s->n_fds && rc >= 0; i++) {
		const struct session_fd *f = &s->fds[i];
		uint64_t key = ((uint64_t)(uint32_t)f->tid << 32) | f->evidx, slot;
		struct kperf_count kc;

		if (f->tid <= 0) { /* a CPU's counter */
			rc = sess_count_fd(s, f, counts, err);
			continue;
		}
		if ((rc = read_fd(s, f, &kc, err)))
			continue;
		counts[f->evidx].opened = true;
		counts[f->evidx].value += kc.value;
		counts[f->evidx].running += kc.running;
		if (!u64set_get(&slot_of, key, &slot)) {
			slot = n_slots++;
			u64set_put(&slot_of, key, slot);
			event_of[slot] = f->evidx;
		}
		if (kc.enabled > longest[slot])
			longest[slot] = kc.enabled;
	}
	for (size_t k = 0; k < n_slots; k++)
		counts[event_of[k]].enabled += longest[k];
	u64set_release(&slot_of);
	free(longest);
	free(event_of);
	return rc < 0 ? -1 : 0;
}

int session_read_counts(struct session *s, struct session_count *counts, struct pf_error *err)
{
	if (s->opts.per_task && !s->plan)
		return sum_task_results(s, counts, err);
	sess_counts_clear(s, counts);
	if (s->plan) {
		if (read_sampling_counts(s, counts, err))
			return -1;
	} else {
		for (size_t i = 0; i < s->n_fds; i++)
			if (sess_count_fd(s, &s->fds[i], counts, err))
				return -1;
	}
	sess_trig_fix_counts(s, counts);
	sess_rotation_scale(s, counts);
	return 0;
}

void session_free(struct session *s)
{
	if (!s)
		return;
	sess_stop_reader(s);
	if (s->have_child)
		child_kill(&s->child);
	if (s->wake_fd >= 0)
		close(s->wake_fd);
	pthread_mutex_destroy(&s->lock);
	for (int c = 0; s->rings && c < s->ncpu; c++)
		if (s->ring_fd[c] >= 0)
			ring_unmap(&s->rings[c]);
	for (size_t i = 0; i < s->n_fds; i++)
		kperf_close(s->fds[i].fd);
	for (size_t i = 0; i < s->n_pidfds; i++)
		if (s->pidfds[i] >= 0)
			close(s->pidfds[i]);
	procfs_maps_free(s->synth, s->n_synth);
	sess_tasks_free(s);
	sess_trig_free(s);
	free(s->pidfds);
	free(s->pid_ended);
	free(s->fds);
	free(s->rings);
	free(s->ring_fd);
	free(s->events);
	free(s->event_set);
	free(s->open_errno);
	free(s->cpus);
	free(s->on_cpu);
	for (int i = 0; i < 2; i++) {
		free(s->bufs[i].arena);
		free(s->bufs[i].recs);
	}
	free(s->held.arena);
	free(s->held.recs);
	u64set_release(&s->by_id);
	u64set_release(&s->tids);
	u64set_release(&s->synth_hash);
	free(s);
}
