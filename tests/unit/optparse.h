/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the tests of the option table: parse a command line given as
 * NULL-terminated arguments, "pfmon" prepended. */
#ifndef PFMON_TESTS_OPTPARSE_H
#define PFMON_TESTS_OPTPARSE_H

#include <stdarg.h>

#include "cli/options.h"

static int parse(struct pf_config *cfg, struct pf_error *err, ...)
{
	static char *argv[32]; /* cfg->command points into it */
	int argc = 0;
	va_list ap;
	char *a;

	argv[argc++] = "pfmon";
	va_start(ap, err);
	while ((a = va_arg(ap, char *)) && argc < 31)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	pf_config_init(cfg);
	return options_parse(argc, argv, cfg, err);
}

#endif
