/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>

#include "sample/read_fail.h"

static int keep(struct read_fail *f, struct pf_error *err)
{
	f->failed = true;
	if (err)
		*err = f->error;
	return -1;
}

int read_fail_set(struct read_fail *f, struct pf_error *err, enum pf_errcode code, ...)
{
	va_list ap;

	va_start(ap, code);
	pf_error_vset(&f->error, code, ap);
	va_end(ap);
	return keep(f, err);
}

int read_fail_bad_file(struct read_fail *f, const char *name, struct pf_error *err, const char *fmt, ...)
{
	char why[PF_ERROR_MSG_MAX / 2];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	pf_error_set(&f->error, PF_E_BAD_FILE, name, why);
	return keep(f, err);
}

int read_fail_keep(struct read_fail *f, const struct pf_error *e, struct pf_error *err)
{
	f->error = *e;
	return keep(f, err);
}

bool read_fail_again(const struct read_fail *f, struct pf_error *err)
{
	if (f->failed && err)
		*err = f->error;
	return f->failed;
}
