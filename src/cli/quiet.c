/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf's -q: standard error becomes a stream that sees whole lines (a
 * warning is often written in pieces) and passes on all but the notes and
 * warnings, so no message site needs to know about the option.
 */
#define _GNU_SOURCE
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"
#include "quiet.h"

struct quiet_filter {
	int fd;
	struct strbuf line;
};

static bool dropped(const char *line)
{
	return !strncmp(line, "note: ", 6) || !strncmp(line, "warning: ", 9);
}

static void write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return; /* standard error gone: nothing to tell it */
		p += w;
		n -= (size_t)w;
	}
}

/* the complete lines buffered: each passed on or dropped */
static void pass_lines(struct quiet_filter *q, bool all)
{
	const char *start = strbuf_str(&q->line), *nl;
	size_t done = 0;

	while ((nl = memchr(start + done, '\n', q->line.len - done)) || (all && done < q->line.len)) {
		size_t end = nl ? (size_t)(nl - start) + 1 : q->line.len;
		char *one = xstrndup(start + done, end - done);

		if (!dropped(one))
			write_all(q->fd, one, end - done);
		free(one);
		done = end;
	}
	if (!done)
		return;
	memmove(q->line.buf, start + done, q->line.len - done);
	q->line.len -= done;
	q->line.buf[q->line.len] = '\0';
}

static ssize_t quiet_write(void *cookie, const char *buf, size_t n)
{
	struct quiet_filter *q = cookie;

	strbuf_add(&q->line, buf, n);
	pass_lines(q, false);
	return (ssize_t)n;
}

static int quiet_close(void *cookie)
{
	struct quiet_filter *q = cookie;

	pass_lines(q, true);
	strbuf_release(&q->line);
	free(q);
	return 0;
}

static FILE *real_stderr, *filtered;

/* at exit: the last partial line passed on, the filter gone, stderr itself again */
static void quiet_end(void)
{
	stderr = real_stderr;
	fclose(filtered);
}

void quiet_stderr(void)
{
	struct quiet_filter *q = xcalloc(1, sizeof(*q));

	fflush(stderr);
	q->fd = fileno(stderr);
	filtered = fopencookie(q, "w", (cookie_io_functions_t){ .write = quiet_write, .close = quiet_close });
	if (!filtered) {
		free(q);
		return;
	}
	setvbuf(filtered, NULL, _IOLBF, 0);
	real_stderr = stderr;
	stderr = filtered;
	atexit(quiet_end);
}
