/* SPDX-License-Identifier: GPL-2.0-or-later */
/* src/results/output.c alone: where results go, and the one error line
 * when they did not get there. */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"
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

/* per-task and per-CPU files: pfmon 3.x's names after the --outfile */
static void per_task_and_cpu(const char *dir)
{
	struct pf_error err = { .code = PF_E_OK };
	char *base = xasprintf("%s/r", dir), *path = NULL, *name;
	struct output_opts o = { .path = base }, split = { .path = base, .per_exec = true };
	FILE *f;

	name = results_task_path(&o, 12, 13, 2);
	is_str(strrchr(name, '/'), "/r.12.13", "a task's file: .<pid>.<tid>");
	free(name);
	name = results_task_path(&split, 12, 13, 2);
	is_str(strrchr(name, '/'), "/r.12.13.2", "one per exec: .<pid>.<tid>.<exec#>");
	free(name);
	name = results_cpu_path(&o, 3);
	is_str(strrchr(name, '/'), "/r.cpu3", "a CPU's file: .cpu<n>");
	free(name);
	f = results_open_cpu(&o, 1, &path, &err);
	ok(f && f != stdout && strstr(path, "/r.cpu1"), "a CPU's file is opened under its name");
	fputs("cpu\n", f);
	results_close(f, path, &err);
	is_str(slurp(path), "cpu\n", "and written");
	unlink(path);
	free(path);
	o.path = "/nonexistent-dir/r";
	ok(!results_open_task(&o, 1, 2, 0, &path, &err) && err.code == PF_E_OUTPUT, "a task's file that cannot be created");
	is_str(err.msg, "cannot write '/nonexistent-dir/r.1.2': No such file or directory", "the error names the task's file");
	free(path);
	free(base);
}

int main(void)
{
	char path[] = "/tmp/pfmon-output-XXXXXX", dir[] = "/tmp/pfmon-outdir-XXXXXX";
	int fd = mkstemp(path);

	if (fd < 0)
		return 99;
	close(fd);
	to_a_file(path);
	unlink(path);
	errors();
	if (mkdtemp(dir)) {
		per_task_and_cpu(dir);
		rmdir(dir);
	}
	return tap_done();
}
