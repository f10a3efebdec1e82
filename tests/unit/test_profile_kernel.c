/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Profile keys of kernel samples, exactly, for every sort key and for
 * folded stacks, against the fixture kallsyms ($PFMON_KALLSYMS) and a fixed
 * build-id ($PFMON_KERNEL_NOTES); and the kernel check: no kernel record,
 * another kernel's record, with the one note line each gives.
 */
#include <config.h>

#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"
#include "report/kernel_check.h"
#include "report/profile.h"
#include "tap.h"

#ifndef KERNFIX_DIR
#define KERNFIX_DIR "tests/fixtures/kernel"
#endif

static struct smpl_event ev = { .name = "cpu-clock", .fields = SAMPLE_F_IP | SAMPLE_F_TID,
				.period = 1000 };
static const struct smpl_header header = { .nr_events = 1, .events = &ev };

static void feed_kernel_record(struct profile *p, bool other_build)
{
	struct sample_record rec = { .type = SREC_KERNEL };

	kernel_record_running(&rec.kernel);
	if (other_build)
		rec.kernel.build_id[0] ^= 0xff;
	profile_add(p, &rec);
}

static void feed_sample(struct profile *p, uint8_t cpumode, uint64_t ip, const uint64_t *chain,
			uint32_t nchain)
{
	struct sample_record rec = { .type = SREC_SAMPLE };

	rec.sample = (struct sample){ .fields = ev.fields | (nchain ? SAMPLE_F_CALLCHAIN : 0),
				      .cpumode = cpumode, .ip = ip, .pid = 42, .tid = 42,
				      .callchain_nr = nchain, .callchain = chain };
	profile_add(p, &rec);
}

/* the report of a profile fed with: a kernel record (none, this kernel's,
 * another build's), then kernel samples at fixture addresses */
static char *report(enum profile_sort sort, enum profile_format fmt, int record)
{
	static const uint64_t chain[] = {
		(uint64_t)PERF_CONTEXT_KERNEL, 0xffffffffc0001104ull, 0xffffffff81000060ull,
		(uint64_t)PERF_CONTEXT_USER, 0x401000,
	};
	struct profile_opts o = { .sort = sort, .format = fmt, .cum_threshold = 100, .resolve = true };
	struct profile *p = profile_new(&o, &header);
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	if (record)
		feed_kernel_record(p, record == 2);
	feed_sample(p, PERF_RECORD_MISC_KERNEL, 0xffffffff81000060ull, NULL, 0);
	feed_sample(p, PERF_RECORD_MISC_KERNEL, 0xffffffff81000060ull, NULL, 0);
	feed_sample(p, PERF_RECORD_MISC_KERNEL, 0xffffffffc0001104ull, chain, ARRAY_SIZE(chain));
	feed_sample(p, PERF_RECORD_MISC_KERNEL, 0xffffffff80000000ull, NULL, 0);
	feed_sample(p, PERF_RECORD_MISC_GUEST_KERNEL, 0xffffffff81000060ull, NULL, 0);
	profile_print(p, f);
	fclose(f);
	profile_free(p);
	return buf;
}

/* a row of the text profile: N samples, then two spaces and the key */
static bool has_row(const char *out, unsigned n, const char *key)
{
	char want[512];
	const char *s;

	snprintf(want, sizeof(want), "  %s\n", key);
	for (s = strstr(out, want); s; s = strstr(s + 1, want)) {
		const char *line = s;

		while (line > out && line[-1] != '\n')
			line--;
		if (strtoul(line, NULL, 10) == n && line[0] != '#')
			return true;
	}
	return false;
}

static void test_keys(void)
{
	char *s = report(PROFILE_BY_FUNCTION, PROFILE_TEXT, 1);

	if (!ok(has_row(s, 2, "[kernel] do_syscall_64"), "by function: [kernel] func"))
		printf("%s", s);
	ok(has_row(s, 1, "[kernel] ext4_sync_file [ext4]"), "a module function: [kernel] func [module]");
	ok(has_row(s, 1, "[kernel] 0xffffffff80000000"), "no symbol covers it: [kernel] address");
	ok(has_row(s, 1, "[guest kernel]"), "guest kernel: a lump of its own");
	ok(!strstr(s, "  [kernel]\n") && !strstr(s, "not symbolized"), "no [kernel] lump, no note");
	ok(!strstr(s, "no symbols") && !strstr(s, "no debug info"),
	   "the kernel is not listed as lacking symbols or debug info");
	free(s);

	s = report(PROFILE_BY_LINE, PROFILE_TEXT, 1);
	ok(has_row(s, 2, "[kernel] do_syscall_64") && has_row(s, 1, "[kernel] ext4_sync_file [ext4]"),
	   "by line: the function (no kernel DWARF)");
	free(s);

	s = report(PROFILE_BY_BINARY, PROFILE_TEXT, 1);
	ok(has_row(s, 3, "[kernel]") && has_row(s, 1, "[kernel] [ext4]"),
	   "by binary: [kernel] and [kernel] [module]");
	free(s);

	s = report(PROFILE_BY_ADDRESS, PROFILE_TEXT, 1);
	ok(has_row(s, 2, "0xffffffff81000060 [kernel] do_syscall_64+0x10") &&
		   has_row(s, 1, "0xffffffffc0001104 [kernel] ext4_sync_file+0x4 [ext4]") &&
		   has_row(s, 1, "0xffffffff80000000 [kernel]"),
	   "by address: address, [kernel], func+offset [module]");
	free(s);

	s = report(PROFILE_BY_FUNCTION, PROFILE_FOLDED, 1);
	/* no COMM record named pid 42: ":42" as perf has it; an unmapped ip: [unknown] */
	ok(strstr(s, ":42;[unknown];do_syscall_64;ext4_sync_file [ext4] 1\n") != NULL,
	   "folded: each kernel frame by its function, root first");
	ok(strstr(s, ":42;do_syscall_64 2\n") != NULL, "folded: a kernel leaf alone");
	ok(strstr(s, ":42;[unknown] ([kernel]) 1\n") != NULL, "folded: no symbol covers it: [unknown] ([kernel])");
	if (!ok(strstr(s, ":42;[guest kernel] 1\n") != NULL, "folded: guest kernel lump"))
		printf("%s", s);
	free(s);
}

static void test_not_this_kernel(void)
{
	char *s = report(PROFILE_BY_FUNCTION, PROFILE_TEXT, 0);

	ok(has_row(s, 4, "[kernel]") && !strstr(s, "  [kernel] "),
	   "no kernel record: every kernel sample in the [kernel] lump");
	ok(strstr(s, "\n# kernel samples not symbolized: the sample file does not say which kernel "
		     "took them (written by an older pfmon)\n") != NULL,
	   "and one note saying why");
	free(s);

	s = report(PROFILE_BY_FUNCTION, PROFILE_TEXT, 2);
	ok(has_row(s, 4, "[kernel]"), "another build's record: the [kernel] lump");
	ok(strstr(s, "\n# kernel samples not symbolized: they were taken under kernel ") &&
		   strstr(s, "(build-id b7dc540c8b76") && /* 0x48 ^ 0xff */
		   strstr(s, ", not the running ") && strstr(s, "(build-id 48dc540c8b76"),
	   "and a note naming both build-ids");
	free(s);

	s = report(PROFILE_BY_FUNCTION, PROFILE_FOLDED, 2);
	ok(strstr(s, ":42;[unknown];[kernel] 1\n") != NULL,
	   "folded: a kernel stack of another kernel is one [kernel] frame");
	free(s);

	s = report(PROFILE_BY_FUNCTION, PROFILE_JSON, 0);
	ok(strstr(s, "\"notes\": [\n") &&
		   strstr(s, "\"kernel samples not symbolized: the sample file does not say"),
	   "JSON: the note in \"notes\"");
	free(s);
}

/* no kernel sample, no note, and kallsyms never read */
static void test_user_only(void)
{
	struct profile_opts o = { .sort = PROFILE_BY_FUNCTION, .cum_threshold = 100 };
	struct profile *p = profile_new(&o, &header);
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	setenv("PFMON_KALLSYMS", "/nonexistent/kallsyms", 1);
	feed_sample(p, PERF_RECORD_MISC_USER, 0x401000, NULL, 0);
	profile_print(p, f);
	fclose(f);
	ok(!strstr(buf, "kernel"), "user samples only: no note, no kernel listed");
	profile_free(p);
	free(buf);
	setenv("PFMON_KALLSYMS", KERNFIX_DIR "/kallsyms", 1);
}

int main(void)
{
	/* a fixed running build-id, 48dc540c..., in a note of native byte order */
	static const uint32_t head[3] = { 4, 20, 3 };
	static const unsigned char name_id[] = {
		'G', 'N', 'U', 0, 0x48, 0xdc, 0x54, 0x0c, 0x8b, 0x76, 0x39, 0x38, 0x04, 0xca,
		0x80, 0x88, 0xdb, 0xfa, 0x7d, 0x42, 0x91, 0x1a, 0x94, 0x44,
	};
	unsigned char notes[sizeof(head) + sizeof(name_id)];
	char path[] = "/tmp/pfmon-notes-XXXXXX";
	int fd = mkstemp(path);

	memcpy(notes, head, sizeof(head));
	memcpy(notes + sizeof(head), name_id, sizeof(name_id));
	if (fd < 0 || write(fd, notes, sizeof(notes)) != (ssize_t)sizeof(notes))
		return 99;
	close(fd);
	setenv("PFMON_KERNEL_NOTES", path, 1);
	setenv("PFMON_KALLSYMS", KERNFIX_DIR "/kallsyms", 1);
	test_keys();
	test_not_this_kernel();
	test_user_only();
	unlink(path);
	return tap_done();
}
