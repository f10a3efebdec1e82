/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * src/pmu/tracepoint.c: where tracefs is found (read from a mounts file,
 * nothing mounted) and how a tracepoint's id is read, on a directory tree
 * made here in the shape of the kernel's.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/util.h"
#include "pmu/tracepoint.h"
#include "tap.h"

static char root[] = "/tmp/pfmon-tracefs-XXXXXX";

static void make_dir(const char *rel)
{
	char *p = xasprintf("%s/%s", root, rel);

	mkdir(p, 0755);
	free(p);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	fputs(text, f);
	fclose(f);
}

/* a mounts file of these lines (%s: the root); returns its path */
static char *mounts_of(const char *lines)
{
	char *path = xasprintf("%s/mounts", root);
	struct strbuf sb = STRBUF_INIT;

	for (const char *p = lines; *p; p++) {
		if (p[0] == '%' && p[1] == 's') {
			strbuf_addstr(&sb, root);
			p++;
		} else {
			strbuf_addch(&sb, *p);
		}
	}
	write_file(path, strbuf_str(&sb));
	strbuf_release(&sb);
	return path;
}

static void finds(const char *lines, const char *want_rel, const char *what)
{
	char *mounts = mounts_of(lines), dir[512] = "", *want = want_rel ? xasprintf("%s/%s", root, want_rel) : NULL;
	bool found = tracefs_find(mounts, dir, sizeof(dir));

	ok(want ? found && !strcmp(dir, want) : !found, "%s: %s", what, found ? dir : "none");
	free(want);
	free(mounts);
}

/* the tree made above, deepest first */
static void remove_tree(void)
{
	static const char *const made[] = { "mounts", "trace dir/events/sched/sched_switch", "trace dir/events/sched",
					    "trace dir/events", "trace dir", "empty", "debug/tracing/events",
					    "debug/tracing", "debug", "" };

	for (size_t i = 0; i < ARRAY_SIZE(made); i++) {
		char *p = xasprintf("%s/%s", root, made[i]);

		if (remove(p))
			perror(p);
		free(p);
	}
}

int main(void)
{
	char *id_path;
	uint64_t id = 0;

	if (!mkdtemp(root))
		return perror("mkdtemp"), 1;
	/* a tracefs with events, one without, a debugfs whose tracing has events */
	make_dir("trace dir");
	make_dir("trace dir/events");
	make_dir("trace dir/events/sched");
	make_dir("trace dir/events/sched/sched_switch");
	make_dir("empty");
	make_dir("debug");
	make_dir("debug/tracing");
	make_dir("debug/tracing/events");
	id_path = xasprintf("%s/trace dir/events/sched/sched_switch/id", root);
	write_file(id_path, "372\n");

	finds("none %s/empty tracefs rw 0 0\nnone %s/trace\\040dir tracefs rw,relatime 0 0\n", "trace dir",
	      "the first tracefs with events, its blank unescaped");
	finds("debugfs %s/debug debugfs rw 0 0\nnone %s/trace\\040dir tracefs rw 0 0\n", "trace dir",
	      "tracefs before debugfs, whatever the order");
	finds("proc /proc proc rw 0 0\ndebugfs %s/debug debugfs rw 0 0\n", "debug/tracing",
	      "debugfs/tracing when no tracefs is mounted");
	finds("proc /proc proc rw 0 0\nnone %s/empty tracefs rw 0 0\n", NULL, "no tracing directory: none");
	finds("", NULL, "an empty mounts file: none");
	ok(!tracefs_find("/nonexistent/mounts", (char[8]){ 0 }, 8), "no mounts file: none");

	{
		char *dir = xasprintf("%s/trace dir", root);

		bool read = tracepoint_id(dir, "sched", "sched_switch", &id);

		ok(read && id == 372, "the id file read: %llu", (unsigned long long)id);
		ok(!tracepoint_id(dir, "sched", "sched_nosuch", &id), "no such event");
		ok(!tracepoint_id(dir, "..", "sched", &id) && !tracepoint_id(dir, "sched/..", "sched", &id) &&
			   !tracepoint_id(dir, "", "x", &id),
		   "a name that could climb out of events/ is no tracepoint name");
		ok(tracepoint_subsystem(dir, "sched") && !tracepoint_subsystem(dir, "irq"), "subsystems");
		ok(!tracepoint_id(NULL, "sched", "sched_switch", &id), "no tracefs: no tracepoint");
		free(dir);
	}
	unlink(id_path);
	free(id_path);
	remove_tree();
	return tap_done();
}
