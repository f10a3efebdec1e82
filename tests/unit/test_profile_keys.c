/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Profile keys are typed, so no byte of data can be taken for a marker:
 * a crafted sample file whose mapping names hold 0x01 (once the profile's
 * in-band kernel-frame marker: a heap overflow, and user samples credited
 * to [kernel]) and other control bytes, written and read back through the
 * sample file, then reported by every sort and as folded stacks.  And the
 * binary identity records the profile writes while recording.
 */
#include <config.h>

#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"
#include "report/profile.h"
#include "sample/smpl_file.h"
#include "tap.h"

#define F_IP_TID (SAMPLE_F_IP | SAMPLE_F_TID | SAMPLE_F_CALLCHAIN)

static char evname[] = "cpu-clock";
static struct smpl_event ev = { .name = evname, .fields = F_IP_TID, .period = 1000 };

/* names of mappings: the old marker alone, with what once followed it, and other control bytes */
static const char *const names[] = {
	"\x01",
	"/tmp/\x01" "ffffffff81000060",
	"/tmp/\x01\x02\x1b[31mred\x7f",
	"/tmp/a\x01;b\x01",
};

static void write_file(const char *path)
{
	struct smpl_header h = { .clockid = -1, .nr_events = 1, .events = &ev };
	/* leaf first: the kernel, then mapping 1, then mapping 0 */
	static const uint64_t chain[] = { (uint64_t)PERF_CONTEXT_KERNEL, 0xffffffff81000060ull,
					  (uint64_t)PERF_CONTEXT_USER, 0x200010, 0x100010 };
	struct pf_error err;
	struct smpl_writer *w = smpl_writer_open(path, &h, &err);

	if (w) { /* the process's name: a blank and a ';', which folded stacks cannot show as they are */
		struct sample_record c = { .type = SREC_COMM,
					   .comm = { .pid = 7, .tid = 7, .exec = true, .comm = "my prog;x" } };

		smpl_write_record(w, &c, &err);
	}
	for (size_t i = 0; w && i < ARRAY_SIZE(names); i++) {
		struct sample_mmap m = { .pid = 7, .tid = 7, .start = 0x100000 * (i + 1), .len = 0x1000,
					 .cpumode = PERF_RECORD_MISC_USER, .filename = names[i] };

		smpl_write_mmap(w, &m, NULL, &err);
	}
	for (size_t i = 0; w && i < ARRAY_SIZE(names); i++) {
		/* i + 1 user samples in mapping i, one with a call chain */
		for (size_t j = 0; j <= i; j++) {
			struct sample s = { .fields = F_IP_TID & ~SAMPLE_F_CALLCHAIN, .cpumode = PERF_RECORD_MISC_USER,
					    .pid = 7, .tid = 7, .ip = 0x100000 * (i + 1) + 0x10 };

			if (i == 1 && j == 0) {
				s.fields |= SAMPLE_F_CALLCHAIN;
				s.callchain = chain + 2;
				s.callchain_nr = 3;
			}
			smpl_write_sample(w, &s, &err);
		}
	}
	if (w) { /* and 5 kernel samples */
		struct sample s = { .fields = F_IP_TID, .cpumode = PERF_RECORD_MISC_KERNEL, .pid = 7,
				    .tid = 7, .ip = 0xffffffff81000060ull, .callchain = chain,
				    .callchain_nr = ARRAY_SIZE(chain) };

		for (int i = 0; i < 5; i++)
			smpl_write_sample(w, &s, &err);
	}
	if (!w || smpl_writer_close(w, &err))
		printf("Bail out! cannot write %s\n", path);
}

static char *report(const char *path, enum profile_sort sort, enum profile_format fmt)
{
	struct profile_opts o = { .sort = sort, .format = fmt, .cum_threshold = 100, .resolve = true };
	struct pf_error err;
	struct smpl_reader *r = smpl_reader_open(path, &err);
	struct sample_record rec;
	struct profile *p;
	char *buf = NULL;
	size_t len;
	FILE *f;

	if (!r) {
		printf("# %s\n", err.msg);
		return xstrdup("");
	}
	p = profile_new(&o, smpl_reader_header(r));
	while (smpl_reader_next(r, &rec, &err) > 0)
		profile_add(p, &rec);
	f = open_memstream(&buf, &len);
	profile_print(p, f);
	fclose(f);
	profile_free(p);
	smpl_reader_close(r);
	return buf;
}

/* a text row: n samples, two spaces, the key, end of line */
static bool has_row(const char *out, unsigned n, const char *key)
{
	char *want = xasprintf("  %s\n", key);
	bool found = false;

	for (const char *s = strstr(out, want); s && !found; s = strstr(s + 1, want)) {
		const char *line = s;

		while (line > out && line[-1] != '\n')
			line--;
		found = line[0] != '#' && strtoul(line, NULL, 10) == n;
	}
	free(want);
	return found;
}

/* as the text report prints a name: control bytes escaped */
static const char *base(const char *p)
{
	static struct strbuf sb[4];
	static int next;
	const char *s = strrchr(p, '/');
	struct strbuf *b = &sb[next++ % 4];

	strbuf_release(b);
	strbuf_add_escaped(b, s ? s + 1 : p);
	return strbuf_str(b);
}

static const char *esc(const char *p)
{
	static struct strbuf sb[4];
	static int next;
	struct strbuf *b = &sb[next++ % 4];

	strbuf_release(b);
	strbuf_add_escaped(b, p);
	return strbuf_str(b);
}

/*
 * Recording: the first mapping of a file gets a binary identity record
 * right after it, once per path; a build-id the kernel gave with the
 * mapping wins over the file's (the file may have changed since).
 */
static void test_binary_records(const char *path)
{
	struct smpl_header h = { .clockid = -1, .nr_events = 1, .events = &ev };
	struct profile_opts o = { .cum_threshold = 100 };
	struct profile *p = profile_new(&o, &h);
	struct pf_error err;
	struct sample_out *w = sample_out_open(path, &(struct sample_out_opts){ SAMPLE_OUT_PFMON, 0 }, &h, &err);
	struct sample_record rec = { .type = SREC_MMAP };
	struct smpl_reader *r;
	int n_binary = 0, kernel_id = 0, after_mmap = 0, last_mmap = 0;

	profile_record_binaries(p, w);
	rec.mmap = (struct sample_mmap){ .pid = 7, .tid = 7, .start = 0x1000, .len = 0x1000,
					 .filename = "/proc/self/exe" };
	for (int i = 0; i < 2; i++) { /* twice the same path: one identity */
		sample_out_record(w, &rec, &err);
		profile_add(p, &rec);
	}
	rec.mmap.filename = "/bin/sh";
	rec.mmap.has_build_id = true;
	rec.mmap.build_id_size = 3;
	memcpy(rec.mmap.build_id, "\xab\xcd\xef", 3);
	sample_out_record(w, &rec, &err);
	profile_add(p, &rec);
	sample_out_close(w, &err);
	profile_free(p);

	r = smpl_reader_open(path, &err);
	while (r && smpl_reader_next(r, &rec, &err) > 0) {
		if (rec.type == SREC_BINARY) {
			n_binary++;
			after_mmap += last_mmap;
			kernel_id += !strcmp(rec.binary.path, "/bin/sh") && rec.binary.build_id_size == 3 &&
				     !memcmp(rec.binary.build_id, "\xab\xcd\xef", 3);
		}
		last_mmap = rec.type == SREC_MMAP;
	}
	smpl_reader_close(r);
	ok(n_binary == 2 && after_mmap == 2, "one identity per binary, right after its first mapping (%d)",
	   n_binary);
	ok(kernel_id == 1, "the kernel's build-id of a mapping wins over the file's");
}

int main(void)
{
	char path[] = "/tmp/pfmon-keys-XXXXXX";
	int fd = mkstemp(path);
	char *out, *want;
	bool all;

	if (fd < 0) {
		printf("Bail out! mkstemp\n");
		return 1;
	}
	close(fd);
	write_file(path);

	out = report(path, PROFILE_BY_FUNCTION, PROFILE_TEXT);
	all = true;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		want = xasprintf("%s+0x10", base(names[i]));
		all &= has_row(out, (unsigned)i + 1, want);
		free(want);
	}
	ok(all, "by function: each mapping with a 0x01 in its name keeps its own samples");
	ok(has_row(out, 5, "[kernel]"), "and [kernel] only the kernel's 5");

	out = (free(out), report(path, PROFILE_BY_BINARY, PROFILE_TEXT));
	all = true;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		all &= has_row(out, (unsigned)i + 1, esc(names[i]));
	ok(all && has_row(out, 5, "[kernel]"), "by binary: the same");

	out = (free(out), report(path, PROFILE_BY_ADDRESS, PROFILE_TEXT));
	want = xasprintf("0x0000000000100010 %s+0x10", esc(names[0]));
	/* (no kernel record: this kernel's symbols do not apply, so one lump) */
	ok(has_row(out, 1, want) && has_row(out, 5, "[kernel]"), "by address: the same");
	free(want);

	out = (free(out), report(path, PROFILE_BY_FUNCTION, PROFILE_FOLDED));
	/* folded: the process at the root, frames without a symbol by their binary alone */
	want = xasprintf("my_prog:x;[unknown] (%s);[unknown] (%s) 1\n", esc(names[0]), base(names[1]));
	if (!ok(strstr(out, want) != NULL, "folded: a user stack through two such mappings, under its process"))
		printf("# want %s# got\n%s", want, out);
	free(want);
	want = xasprintf("my_prog:x;[unknown] (%s);[unknown] (%s);[kernel] 5\n", esc(names[0]), base(names[1]));
	ok(strstr(out, want) != NULL, "folded: a kernel frame under them is the [kernel] lump");
	free(want);
	/* a ';' of a binary's name would split the frame: it is a ':' */
	want = xasprintf("my_prog:x;[unknown] (a\\x01:b\\x01) 4\n");
	ok(strstr(out, want) != NULL, "folded: unknown frames of one binary add up, ';' in names is ':'");
	free(want);
	free(out);
	test_binary_records(path);
	unlink(path);
	return tap_done();
}
