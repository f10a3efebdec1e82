/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <string.h>

#include "results/output.h"

FILE *results_open(const struct output_opts *o, struct pf_error *err)
{
	FILE *f;

	if (!o->path)
		return stdout;
	f = fopen(o->path, o->append ? "a" : "w");
	if (!f)
		pf_error_set(err, PF_E_OUTPUT, o->path, strerror(errno));
	return f;
}

int results_close(FILE *out, const char *path, struct pf_error *err)
{
	const char *name = path ? path : "standard output";
	int failed = fflush(out) != 0 || ferror(out);
	int e = errno;

	if (out != stdout && fclose(out) != 0 && !failed) {
		failed = 1;
		e = errno;
	}
	if (failed)
		return pf_error_set(err, PF_E_OUTPUT, name, strerror(e ? e : EIO));
	return 0;
}
