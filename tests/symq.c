/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * symq — query the symbol layer like addr2line, for tests and the benchmark.
 *
 *   symq [-a] [-d DEBUG_ROOT] FILE [ADDR...]
 *
 * Each ADDR (hex, 0x optional; read one per line from stdin when none are
 * given) is an address in FILE's own ELF address space.  The output is
 * "func+0xoff file:line" per address, or with -a exactly what
 * "addr2line -f -e FILE" prints (function line, then file:line), so the two
 * can be diffed.
 */
#include <config.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"
#include "symbol/symbol.h"

/* Output goes through one buffer with hand-rolled formatting: with 100,000
 * addresses printf's parsing shows in the benchmark, and the benchmark is
 * meant to measure the symbol layer. */
struct out {
	char buf[1 << 16];
	size_t len;
	bool failed;
};

static void out_flush(struct out *o)
{
	if (o->len && fwrite(o->buf, 1, o->len, stdout) != o->len)
		o->failed = true;
	o->len = 0;
}

static void out_str(struct out *o, const char *s)
{
	size_t n = strlen(s);

	if (o->len + n > sizeof(o->buf)) {
		out_flush(o);
		if (n > sizeof(o->buf)) {
			if (fwrite(s, 1, n, stdout) != n)
				o->failed = true;
			return;
		}
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

static void out_num(struct out *o, unsigned long long v, unsigned int base, const char *prefix)
{
	char tmp[32];
	size_t i = sizeof(tmp);

	tmp[--i] = '\0';
	do {
		tmp[--i] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	out_str(o, prefix);
	out_str(o, tmp + i);
}

static void print_native(struct out *o, const struct sym_result *res)
{
	out_str(o, res->func ? res->func : res->binary ? res->binary : "??");
	out_num(o, res->func ? res->offset : res->addr, 16, "+0x");
	out_str(o, " ");
	out_str(o, res->file ? res->file : "??");
	out_num(o, res->file ? res->line : 0, 10, ":");
	out_str(o, "\n");
}

/* binutils addr2line.c: "??:0" when nothing at all is known, "??" for a
 * missing file and "?" for a missing line when something is */
static void print_addr2line(struct out *o, const struct sym_result *res)
{
	out_str(o, res->func ? res->func : "??");
	out_str(o, "\n");
	if (!res->func && !res->file) {
		out_str(o, "??:0\n");
		return;
	}
	out_str(o, res->file ? res->file : "??");
	if (res->line)
		out_num(o, res->line, 10, ":");
	else
		out_str(o, ":?");
	out_str(o, "\n");
}

/* hex with optional 0x, like addr2line; trailing newline allowed */
static bool parse_hex(const char *s, unsigned long long *out)
{
	unsigned long long v = 0;
	const char *p = s;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	if (!*p || *p == '\n')
		return false;
	for (; *p && *p != '\n'; p++) {
		int d;

		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'f')
			d = (*p | 0x20) - 'a' + 10;
		else
			return false;
		if (v >> 60)
			return false;
		v = v << 4 | (unsigned int)d;
	}
	*out = v;
	return true;
}

static int query(struct sym_resolver *r, struct out *o, const char *file, const char *s,
		 bool a2l)
{
	const struct sym_result *res;
	unsigned long long addr;

	if (!parse_hex(s, &addr)) {
		fprintf(stderr, "symq: bad address '%s'\n", s);
		return -1;
	}
	res = sym_resolve_file(r, file, addr);
	if (a2l)
		print_addr2line(o, res);
	else
		print_native(o, res);
	return 0;
}

/* one address per line, read as it comes (as addr2line does): the input
 * is never held whole, so memory does not grow with the number of lines */
static int query_stdin(struct sym_resolver *r, struct out *o, const char *file, bool a2l)
{
	char line[256];
	int status = 0;

	while (fgets(line, sizeof(line), stdin)) {
		size_t n = strlen(line);

		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		else if (!feof(stdin)) { /* longer than any address: skip the rest */
			int c;

			while ((c = getchar()) != EOF && c != '\n')
				;
			fprintf(stderr, "symq: bad address '%.32s...'\n", line);
			status = -1;
			continue;
		}
		if (*line && query(r, o, file, line, a2l) != 0)
			status = -1;
	}
	return status;
}

int main(int argc, char **argv)
{
	static struct out out;
	const char *debug_root = NULL;
	struct sym_resolver *r;
	struct sym_dso_info info;
	bool a2l = false;
	int opt, status = 0;

	while ((opt = getopt(argc, argv, "ad:")) != -1) {
		if (opt == 'a') {
			a2l = true;
		} else if (opt == 'd') {
			debug_root = optarg;
		} else {
			fprintf(stderr, "usage: symq [-a] [-d DEBUG_ROOT] FILE [ADDR...]\n");
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: symq [-a] [-d DEBUG_ROOT] FILE [ADDR...]\n");
		return 2;
	}
	r = sym_resolver_new(debug_root);
	if (optind + 1 < argc) {
		for (int i = optind + 1; i < argc; i++)
			if (query(r, &out, argv[optind], argv[i], a2l) != 0)
				status = 1;
	} else if (query_stdin(r, &out, argv[optind], a2l) != 0) {
		status = 1;
	}
	if (sym_resolver_nr_dsos(r) > 0) {
		sym_resolver_dso_info(r, 0, &info);
		if (info.open_error) {
			fprintf(stderr, "symq: %s\n", info.open_error);
			status = 1;
		}
	}
	sym_resolver_free(r);
	out_flush(&out);
	if (out.failed || fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "symq: write error: %s\n", strerror(errno));
		status = 1;
	}
	return status;
}
