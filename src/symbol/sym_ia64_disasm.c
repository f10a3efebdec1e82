// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * IA-64 functions disassembled for annotated reports.  Capstone has no
 * IA-64; binutils does (ia64-linux-gnu-objdump, Debian's
 * binutils-ia64-linux-gnu), so its output for the function's address range
 * is read back, one row per slot.  Without it each bundle is shown as it
 * is: its template and the three 41-bit slots in hex.  An instruction's
 * address is bundle + slot, as IA-64 samples and line rows give it.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/util.h"
#include "sym_internal.h"

extern char **environ;

/* objdump's output for one function is a few KB; more is not objdump's */
#define OBJDUMP_OUTPUT_MAX (16u << 20)

/* the units of the 32 templates; a stop inside the bundle is '_', one at
 * its end (the odd templates) is shown after slot 2 as ";;" */
static const char *const templates[32] = {
	"MII", "MII", "MI_I", "MI_I", "MLX", "MLX", NULL, NULL,
	"MMI", "MMI", "M_MI", "M_MI", "MFI", "MFI", "MMF", "MMF",
	"MIB", "MIB", "MBB", "MBB", NULL, NULL, "BBB", "BBB",
	"MMB", "MMB", NULL, NULL, "MFB", "MFB", NULL, NULL,
};

/* bits [lo, lo + 41) of a bundle (16 bytes, little-endian in either data byte order) */
static uint64_t slot_bits(const uint8_t *b, unsigned lo)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < 41; i++)
		v |= (uint64_t)((b[(lo + i) / 8] >> ((lo + i) % 8)) & 1) << i;
	return v;
}

static void raw_bundles(const uint8_t *code, struct sym_disasm *d)
{
	for (uint64_t at = d->addr; at + 16 <= d->end; at += 16, code += 16) {
		unsigned t = code[0] & 0x1f;
		char name[16], bits[32];

		for (unsigned s = 0; s < 3; s++) {
			snprintf(bits, sizeof(bits), "0x%011" PRIx64 "%s", slot_bits(code, 5 + 41 * s),
				 s == 2 && (t & 1) ? " ;;" : "");
			struct sym_disasm_insn *in = sym_disasm_push(d, at + s, s ? 0 : 16, "slot", bits);

			if (s == 0) {
				snprintf(name, sizeof(name), "%s", templates[t] ? templates[t] : "reserved");
				in->bundle = xstrdup(name);
			}
		}
	}
	d->how = SYM_DISASM_RAW_BUNDLES;
}

/* objdump's stdout, at most OBJDUMP_OUTPUT_MAX bytes: NULL when it cannot run or fails */
static char *run_objdump(const char *tool, const char *path, uint64_t start, uint64_t stop)
{
	char a_start[40], a_stop[40];
	char *argv[] = { (char *)tool, "-d", "--no-show-raw-insn", a_start, a_stop, "--", (char *)path, NULL };
	posix_spawn_file_actions_t fa;
	struct strbuf out = { 0 };
	int pipefd[2], status = 0;
	bool ok = false;
	pid_t pid;

	snprintf(a_start, sizeof(a_start), "--start-address=0x%" PRIx64, start);
	snprintf(a_stop, sizeof(a_stop), "--stop-address=0x%" PRIx64, stop);
	if (pipe2(pipefd, O_CLOEXEC))
		return NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	if (posix_spawnp(&pid, tool, &fa, NULL, argv, environ) == 0) {
		char buf[8192];
		ssize_t n;

		close(pipefd[1]);
		pipefd[1] = -1;
		while ((n = read(pipefd[0], buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
			if (n > 0 && out.len < OBJDUMP_OUTPUT_MAX)
				strbuf_add(&out, buf, (size_t)n);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	}
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[0]);
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	if (!ok) {
		strbuf_release(&out);
		return NULL;
	}
	return strbuf_detach(&out);
}

/* "ADDR:\t[MII]       mnemonic operands" and "ADDR:\t            mnemonic operands" */
static void parse_line(char *line, struct sym_disasm *d)
{
	char *p = line, *tmpl = NULL, *ops;
	uint64_t addr;
	struct sym_disasm_insn *in;

	while (*p == ' ')
		p++;
	addr = strtoull(p, &p, 16);
	if (p[0] != ':' || p[1] != '\t' || addr < d->addr || addr >= d->end || (addr & 0xf) % 6 != 0)
		return;
	p += 2;
	if (*p == '[' && (ops = strchr(p, ']'))) {
		tmpl = p + 1;
		*ops = '\0';
		p = ops + 1;
	}
	p += strspn(p, " \t");
	if (!*p)
		return;
	ops = p + strcspn(p, " \t");
	if (*ops)
		*ops++ = '\0';
	ops += strspn(ops, " \t");
	for (size_t n = strlen(ops); n && (ops[n - 1] == ' ' || ops[n - 1] == '\t'); n--)
		ops[n - 1] = '\0';
	/* objdump prints slots at bundle + 0, 6 and 12 */
	in = sym_disasm_push(d, (addr & ~(uint64_t)0xf) + (addr & 0xf) / 6, (addr & 0xf) ? 0 : 16, p, ops);
	if (tmpl)
		in->bundle = xstrdup(tmpl);
}

static bool objdump_function(const struct sym_dso *dso, struct sym_disasm *d)
{
	const char *tool = getenv(SYM_IA64_OBJDUMP_ENV);
	char *text = run_objdump(tool && *tool ? tool : SYM_IA64_OBJDUMP, dso->file_path ? dso->file_path : dso->path,
				 d->addr, d->end);
	char *save = NULL;

	if (!text)
		return false;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		parse_line(line, d);
	free(text);
	d->how = SYM_DISASM_OBJDUMP;
	return d->n > 0;
}

int sym_ia64_disasm(const struct sym_dso *dso, const uint8_t *code, struct sym_disasm *d)
{
	d->end = d->addr + ((d->end - d->addr) & ~(uint64_t)0xf); /* whole bundles */
	if (!objdump_function(dso, d)) {
		struct sym_disasm keep = *d;

		keep.insns = NULL;
		keep.n = 0;
		sym_disasm_release(d); /* what objdump gave, if anything */
		*d = keep;
		raw_bundles(code, d);
	}
	return 0;
}
