/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>

#include "debug.h"

static unsigned debug_level;

void pf_debug_set(unsigned level)
{
	debug_level = level;
}

void pf_debug(unsigned level, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	if (level > debug_level)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* one write a line: the lines of a command sharing stderr do not cut it */
	fprintf(stderr, "debug: %s\n", line);
}
