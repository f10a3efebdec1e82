/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The privilege levels pfmon chose for an event, lowered to what this
 * user may count (kernel.perf_event_paranoid), before a session opens. */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel/perf.h"
#include "session/levels.h"

/* the levels of an event were left to pfmon: not chosen on the command
 * line (chosen), no modifier in its name */
static bool levels_defaulted(const struct counter_prog *c, bool chosen)
{
	return c->is_live && !chosen && !c->levels_given;
}

/* the event counts at user level only from now on */
static void drop_kernel_level(struct counter_prog *c)
{
	char *k = c->fstr ? strstr(c->fstr, ":k=1") : NULL;

	c->attr.exclude_kernel = 1;
	c->attr.exclude_hv = 1;
	c->plm &= ~PF_PLM_KERNEL;
	if (k)
		k[3] = '0';
}

/* "'a', 'b'..." of at most 8 names, into names */
static void add_name(char *names, size_t size, size_t n, const char *name)
{
	size_t len = strlen(names);

	if (n < 8)
		snprintf(names + len, size - len, "%s'%s'", n ? ", " : "", name);
	else if (n == 8)
		snprintf(names + len, size - len, "...");
}

/* can this user count c at kernel level?  (false: at user level only) */
static bool must_drop_kernel(struct counter_prog *c)
{
	struct counter_prog user;
	int rc = kperf_probe(&c->attr);

	if (rc != -EACCES && rc != -EPERM)
		return false;
	user = *c;
	user.attr.exclude_kernel = user.attr.exclude_hv = 1;
	return kperf_probe(&user.attr) == 0; /* else not even at user level: the open says why */
}

/*
 * An event that fires in the kernel only (a tracepoint) counts 0 at user
 * level: one note says so, and why it is counted there, rather than a
 * silent 0 (perf prints none).
 */
static void kernel_only_note(const struct set_prog *sets, size_t n_sets, int lowered_at, char *note, size_t size)
{
	char names[256] = "";
	size_t n = 0, len = strlen(note);

	for (size_t i = 0; i < n_sets; i++)
		for (size_t j = 0; j < sets[i].n_counters; j++)
			if (sets[i].counters[j].kernel_only && sets[i].counters[j].attr.exclude_kernel)
				add_name(names, sizeof(names), n++, sets[i].counters[j].name);
	if (!n)
		return;
	if (lowered_at)
		snprintf(note + len, size - len, "note: %s fire%s in the kernel only: counted at user level only "
			 "(kernel.perf_event_paranoid = %d for this user), %s 0\n", names, n > 1 ? "" : "s",
			 lowered_at, n > 1 ? "they count" : "it counts");
	else
		snprintf(note + len, size - len, "note: %s fire%s in the kernel only: counted at user level only, "
			 "%s 0 (count at kernel level: -k, or ':k' on the event)\n", names, n > 1 ? "" : "s",
			 n > 1 ? "they count" : "it counts");
}

/*
 * At kernel.perf_event_paranoid >= 2 an unprivileged user counts at user
 * level only.  Events whose levels were left to pfmon (software events and
 * tracepoints count at every level by default) then fall back to user
 * level, as perf does, said once on one line; an event whose levels were
 * chosen keeps them, and its open fails with the advice to use -u.  The
 * test opens a counter on pfmon itself: kernel-level permission does not
 * depend on the task measured.  The note is printed once the counters are
 * open: before an error about something else it would only mislead.
 * Kernel-only events at user level get their own note (kernel_only_note).
 */
void session_lower_default_levels(struct set_prog *sets, size_t n_sets, levels_chosen_fn chosen, const void *arg,
				  char *note, size_t size)
{
	char names[256] = "";
	size_t n = 0;
	int paranoid = kperf_paranoid(), lowered_at = 0;

	*note = 0;
	for (size_t i = 0; paranoid >= 2 && i < n_sets; i++)
		for (size_t j = 0; j < sets[i].n_counters; j++) {
			struct counter_prog *c = &sets[i].counters[j];

			if (c->attr.exclude_kernel || !levels_defaulted(c, chosen(arg, i, j)) || !must_drop_kernel(c))
				continue;
			drop_kernel_level(c);
			if (c->kernel_only)
				lowered_at = paranoid; /* said by kernel_only_note */
			else
				add_name(names, sizeof(names), n++, c->name);
		}
	if (n)
		snprintf(note, size, "note: kernel.perf_event_paranoid = %d lets this user count at user level "
			 "only: %s exclude%s the kernel (-u or ':u' says so and drops this note)\n",
			 paranoid, names, n > 1 ? "" : "s");
	kernel_only_note(sets, n_sets, lowered_at, note, size);
}
