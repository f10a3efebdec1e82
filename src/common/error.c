/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <stdio.h>

#include "error.h"
#include "util.h"

struct error_row {
	const char *name;
	int exit_status;
	const char *format;
};

#define PF_ERR_ROW(code, status, fmt) [PF_E_##code] = { #code, status, fmt },
static const struct error_row error_rows[PF_E_COUNT] = { PF_ERRORS(PF_ERR_ROW) };
#undef PF_ERR_ROW

const char *pf_error_format(enum pf_errcode code)
{
	return error_rows[code].format;
}

int pf_error_exit_status(enum pf_errcode code)
{
	return error_rows[code].exit_status;
}

const char *pf_error_name(enum pf_errcode code)
{
	return error_rows[code].name;
}

/* The string arguments are escaped (util.h): an option value, a path or an
 * event name holding a newline cannot split the one error line or forge a
 * second one. */
int pf_error_vset(struct pf_error *err, enum pf_errcode code, va_list ap)
{
	if (!err)
		return -1;
	err->code = code;
	err->rule[0] = '\0';
	err->n_events = 0;
	format_escaped(err->msg, sizeof(err->msg), error_rows[code].format, ap);
	return -1;
}

int pf_error_set(struct pf_error *err, enum pf_errcode code, ...)
{
	va_list ap;

	va_start(ap, code);
	pf_error_vset(err, code, ap);
	va_end(ap);
	return -1;
}

int pf_error_line(struct pf_error *err, enum pf_errcode code, const char *origin, int line, const char *fmt, ...)
{
	char why[PF_ERROR_MSG_MAX / 2];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return pf_error_set(err, code, origin, line, why);
}

int pf_error_constraint(struct pf_error *err, const char *rule, unsigned event_mask, const char *what)
{
	if (!err)
		return -1;
	pf_error_set(err, PF_E_CONSTRAINT, what, rule);
	snprintf(err->rule, sizeof(err->rule), "%s", rule);
	for (unsigned i = 0; i < 32 && err->n_events < PF_ERROR_MAX_EVENTS; i++)
		if (event_mask & (1u << i))
			err->events[err->n_events++] = i;
	return -1;
}
