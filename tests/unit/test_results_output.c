/* SPDX-License-Identifier: GPL-2.0-or-later */
/* src/results/output.c alone: where results go, and the one error line
 * when they did not get there. */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/output.h"
#include "tap.h"

static char *slurp(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

	if (f)
		fclose(f);
	buf[n] = 0;
	return buf;
}

static void to_a_file(const char *path)
{
	struct pf_error err = { .code = PF_E_OK };
	struct output_opts o = { .path = path };
	FILE *f = results_open(&o, &err);

	ok(f && f != stdout, "a path is a file of its own");
	fputs("one\n", f);
	ok(results_close(f, path, &err) == 0, "written and closed");
	o.append = true;
	f = results_open(&o, &err);
	fputs("two\n", f);
	results_close(f, path, &err);
	is_str(slurp(path), "one\ntwo\n", "append adds to the file");
	o.append = false;
	f = results_open(&o, &err);
	fputs("three\n", f);
	results_close(f, path, &err);
	is_str(slurp(path), "three\n", "without append the file is replaced");
}

static void errors(void)
{
	struct pf_error err = { .code = PF_E_OK };
	struct output_opts none = { 0 }, bad = { .path = "/nonexistent-dir/out" }, full = { .path = "/dev/full" };
	FILE *f;

	ok(results_open(&none, &err) == stdout, "no path: standard output");
	ok(!results_open(&bad, &err) && err.code == PF_E_OUTPUT, "a path that cannot be created is refused");
	is_str(err.msg, "cannot write '/nonexistent-dir/out': No such file or directory", "the error names it");
	f = results_open(&full, &err);
	if (!f) {
		ok(1, "# SKIP no /dev/full");
		return;
	}
	fputs("lost\n", f);
	ok(results_close(f, full.path, &err) == -1, "a full disk is an error at the close");
	is_str(err.msg, "cannot write '/dev/full': No space left on device", "one line, the file named");
}

int main(void)
{
	char path[] = "/tmp/pfmon-output-XXXXXX";
	int fd = mkstemp(path);

	if (fd < 0)
		return 99;
	close(fd);
	to_a_file(path);
	unlink(path);
	errors();
	return tap_done();
}
