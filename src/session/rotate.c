/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pfmon's own rotation of counting event sets (pfmon 3.x's
 * --switch-timeout).  Every set is opened, one group per set as always,
 * but only one set's leaders are enabled at a time; every switch_ns the
 * session disables them and enables the next set's (an ioctl on a leader
 * acts on its inherited copies too).  Each set then counts for its share
 * of the run, and the kernel's time_enabled of an event is that share:
 * the counts are scaled to the whole run by giving every event the sets'
 * total enabled time, so a count reads as scaled (enabled > running) by
 * exactly what pfmon 3.x scaled it by.  Without switch_ns every set is
 * enabled and the kernel multiplexes them itself.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/debug.h"
#include "common/util.h"
#include "kernel/perf.h"
#include "session_int.h"

/* enable (on) or disable the leaders of one set */
static int switch_set(struct session *s, size_t set, bool on, struct pf_error *err)
{
	for (size_t i = 0; i < s->n_fds; i++) {
		const struct session_fd *f = &s->fds[i];
		int rc;

		if (!f->leader || f->fd < 0 || (size_t)s->event_set[f->evidx] != set)
			continue;
		rc = on ? kperf_enable(f->fd) : kperf_disable(f->fd);
		if (rc && rc != -ESRCH)
			return pf_error_set(err, PF_E_SYSTEM, on ? "PERF_EVENT_IOC_ENABLE" : "PERF_EVENT_IOC_DISABLE",
					    strerror(-rc));
	}
	return 0;
}

void sess_rotation_start(struct session *s)
{
	if (s->rotating)
		s->next_switch = s->start_ns + s->opts.switch_ns;
}

uint64_t sess_rotation_next(const struct session *s)
{
	return s->rotating ? s->next_switch : 0;
}

/* the next set takes over, when its time has come: the one counting is
 * disabled first, so that no two sets count at once */
int sess_rotate_if_due(struct session *s, struct pf_error *err)
{
	uint64_t now;
	size_t next;

	if (!s->rotating || (now = sess_monotonic_ns()) < s->next_switch)
		return 0;
	while (s->next_switch <= now) /* a late wake-up: one switch, not a burst */
		s->next_switch += s->opts.switch_ns;
	next = (s->rot_set + 1) % s->n_sets;
	if (switch_set(s, s->rot_set, false, err) || switch_set(s, next, true, err))
		return -1;
	s->n_switches++;
	pf_debug(1, "switch %llu: event set %zu to %zu", (unsigned long long)s->n_switches, s->rot_set, next);
	s->rot_set = next;
	return 0;
}

/*
 * counts (one per event, read from one scope: the whole run or a CPU):
 * each set's enabled time is its leader's, the largest of its events';
 * every event gets the sets' total, the time the run counted
 */
void sess_rotation_scale(const struct session *s, struct session_count *counts)
{
	uint64_t total = 0, *set_time;

	if (!s->rotating)
		return;
	set_time = xcalloc(s->n_sets, sizeof(*set_time));
	for (size_t k = 0; k < s->n_events; k++)
		if (counts[k].enabled > set_time[s->event_set[k]])
			set_time[s->event_set[k]] = counts[k].enabled;
	for (size_t i = 0; i < s->n_sets; i++)
		total += set_time[i];
	for (size_t k = 0; k < s->n_events; k++)
		if (counts[k].opened)
			counts[k].enabled = total;
	free(set_time);
}
