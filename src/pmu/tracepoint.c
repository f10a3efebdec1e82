/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/util.h"
#include "tracepoint.h"

/* /proc/mounts writes a blank, a tab, a newline and a backslash of a path as \ooo */
static void unescape_octal(char *s)
{
	char *out = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' && s[3] >= '0' &&
		    s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

static bool has_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* dir has an events directory, or one this user may not look into (tracefs
 * is 0700 root's: the tracepoint is then known to be there, not readable) */
static bool has_events(const char *dir)
{
	char *events = xasprintf("%s/events", dir);
	bool yes;

	errno = 0;
	yes = has_dir(events) || errno == EACCES;

	free(events);
	return yes;
}

/* the first mount of fstype (tracefs, or debugfs + "/tracing") with events */
static bool find_kind(FILE *f, const char *fstype, const char *suffix, char *dir, size_t size)
{
	char line[4096];

	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		char *save = NULL, *point, *type;

		if (!strtok_r(line, " \n", &save) || !(point = strtok_r(NULL, " \n", &save)) ||
		    !(type = strtok_r(NULL, " \n", &save)) || strcmp(type, fstype) != 0)
			continue;
		unescape_octal(point);
		if ((size_t)snprintf(dir, size, "%s%s", point, suffix) < size && has_events(dir))
			return true;
	}
	return false;
}

bool tracefs_find(const char *mounts_path, char *dir, size_t size)
{
	FILE *f = fopen(mounts_path, "r");
	bool found;

	if (!f)
		return false;
	found = find_kind(f, "tracefs", "", dir, size) || find_kind(f, "debugfs", "/tracing", dir, size);
	fclose(f);
	return found;
}

const char *tracefs_dir(void)
{
	static char dir[4096];
	static int state; /* 0 = not looked up, 1 = found, -1 = none */

	if (!state)
		state = tracefs_find("/proc/mounts", dir, sizeof(dir)) ? 1 : -1;
	return state > 0 ? dir : NULL;
}

/* a tracepoint's subsystem and event names: no '/' or '.' can climb out of events/ */
static bool tracepoint_name(const char *s)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";

	return *s && strspn(s, chars) == strlen(s);
}

bool tracepoint_id(const char *dir, const char *subsystem, const char *event, uint64_t *id)
{
	char *path, line[32];
	bool ok;

	if (!dir || !tracepoint_name(subsystem) || !tracepoint_name(event))
		return false;
	path = xasprintf("%s/events/%s/%s/id", dir, subsystem, event);
	ok = read_first_line(path, line, sizeof(line)) && parse_u64(line, id);
	free(path);
	return ok;
}

bool tracepoint_subsystem(const char *dir, const char *name)
{
	char *path;
	bool yes;

	if (!dir || !tracepoint_name(name))
		return false;
	path = xasprintf("%s/events/%s", dir, name);
	yes = has_dir(path);
	free(path);
	return yes;
}

bool tracefs_readable(const char *dir)
{
	char *events = xasprintf("%s/events", dir);
	bool yes = access(events, R_OK | X_OK) == 0;

	free(events);
	return yes;
}

char *tracepoint_fields(const char *dir, const char *subsystem, const char *event)
{
	struct strbuf sb = STRBUF_INIT;
	char *path, line[1024];
	FILE *f;

	if (!dir || !tracepoint_name(subsystem) || !tracepoint_name(event))
		return strbuf_detach(&sb);
	path = xasprintf("%s/events/%s/%s/format", dir, subsystem, event);
	f = fopen(path, "r");
	free(path);
	while (f && fgets(line, sizeof(line), f)) {
		char *field = strstr(line, "field:"), *end = field ? strchr(field, ';') : NULL, *name;

		if (!end)
			continue;
		*end = '\0';
		name = strrchr(field, ' ');
		name = name ? name + 1 : field + 6;
		name[strcspn(name, "[")] = '\0'; /* char prev_comm[16] */
		if (strncmp(name, "common_", 7) != 0)
			strbuf_addf(&sb, "%s%s", sb.len ? " " : "", name);
	}
	if (f)
		fclose(f);
	return strbuf_detach(&sb);
}

/* "Tracepoint event", and with fields the event's own fields after it */
static char *tracepoint_desc(const char *dir, const char *sub, const char *event, bool fields)
{
	char *names = fields ? tracepoint_fields(dir, sub, event) : NULL, *desc;

	desc = xasprintf("Tracepoint event%s%s", names && *names ? ": " : "", names ? names : "");
	free(names);
	return desc;
}

int tracepoint_list(const char *dir, bool fields, int (*cb)(const char *name, const char *desc, void *arg),
		    void *arg)
{
	char *path = xasprintf("%s/events", dir);
	size_t n_sub;
	char **subs = dir_names_sorted(path, &n_sub);
	int stop = 0;

	free(path);
	for (size_t i = 0; i < n_sub && !stop; i++) {
		size_t n_ev;
		char **events;

		path = xasprintf("%s/events/%s", dir, subs[i]);
		events = tracepoint_name(subs[i]) && has_dir(path) ? dir_names_sorted(path, &n_ev)
								   : xcalloc(1, sizeof(*events));
		free(path);
		for (size_t j = 0; events[j] && !stop; j++) {
			char *name, *desc;
			bool is_event;

			path = xasprintf("%s/events/%s/%s", dir, subs[i], events[j]);
			is_event = tracepoint_name(events[j]) && has_dir(path); /* not enable, filter */
			free(path);
			if (!is_event)
				continue;
			name = xasprintf("%s:%s", subs[i], events[j]);
			desc = tracepoint_desc(dir, subs[i], events[j], fields);
			stop = cb(name, desc, arg);
			free(name);
			free(desc);
		}
		str_vec_free(events);
	}
	str_vec_free(subs);
	return stop;
}
