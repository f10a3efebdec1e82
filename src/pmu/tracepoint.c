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
	char *path, line[32] = "";
	FILE *f;

	if (!dir || !tracepoint_name(subsystem) || !tracepoint_name(event))
		return false;
	path = xasprintf("%s/events/%s/%s/id", dir, subsystem, event);
	f = fopen(path, "r");
	free(path);
	if (!f)
		return false;
	if (fgets(line, sizeof(line), f))
		line[strcspn(line, "\n")] = '\0';
	fclose(f);
	return parse_u64(line, id);
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
