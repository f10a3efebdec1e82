/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kallsyms cache.  Reading /proc/kallsyms costs tens of milliseconds
 * of CPU (the kernel formats ~120,000 lines, pfmon parses them) and some
 * 8 MB, more than the rest of a sampling run; most kernel samples of a
 * program land in the kernel image (system calls, faults, interrupts),
 * whose symbols are fixed by the build and, under KASLR, by the boot.
 * So the image's text symbols are kept in a file per build and boot,
 *
 *   $XDG_CACHE_HOME/pfmon/kallsyms-BUILDID-BOOTID   (else ~/.cache/pfmon)
 *
 * written after a whole /proc/kallsyms was read, and mapped by the next
 * runs: a lookup touches a few of its pages, never the whole.
 *
 * Naming stays exactly that of /proc/kallsyms.  The file holds the sorted
 * run of kernel-image symbols (no module, BPF or trampoline symbol, which
 * come and go within a boot) and serves only addresses between the first
 * of them and the start of the last: there, the symbol covering an address
 * and its end (the next symbol) are those of the whole table, since
 * nothing else is ever placed inside the kernel image.  An address outside
 * that range makes the caller read the whole /proc/kallsyms.  _text is
 * read live (a few lines of /proc/kallsyms) and must be the file's: when
 * kptr_restrict hides addresses, no cache is used and the error is
 * /proc/kallsyms' own.
 *
 * Layout, in this machine's byte order (a cache is never moved):
 *   header (struct kcache_header), u64 addrs[nr] (ascending),
 *   u32 name_at[nr] (offsets into names), char names[names_len]
 * The last symbol is the end of the range and is never served.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/util.h"
#include "symbol/sym_internal.h"

#define KCACHE_MAGIC "PFKSYMS1"
/* a kernel image of a few hundred thousand functions: far below these */
#define KCACHE_MAX_SYMS (16u << 20)
#define KCACHE_MAX_NAMES (256u << 20)

struct kcache_header {
	char magic[8];
	uint64_t text;     /* _text when written: the boot's KASLR offset */
	uint64_t nr;       /* symbols, the last one the range's end */
	uint64_t names_len;
	uint8_t build_id[SYM_KERNEL_BUILD_ID_MAX];
	uint64_t build_id_len;
	char boot_id[SYM_KERNEL_BOOT_ID_MAX + 4];
};

struct sym_kcache_map {
	void *base;
	size_t len;
	const uint32_t *name_at;
	const char *names;
	size_t names_len;
};

/* a cache only for the running kernel's own kallsyms, never for a file
 * given by --kallsyms or $PFMON_KALLSYMS */
static bool running_kallsyms(void)
{
	const char *env = getenv(SYM_KALLSYMS_ENV);

	return !env || !*env;
}

/* the cache file of this kernel and boot, or NULL (no id, no directory) */
static char *cache_path(const struct sym_kernel_id *id)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	struct strbuf sb = STRBUF_INIT;

	if (!id->build_id_len || !id->boot_id[0] || strchr(id->boot_id, '/'))
		return NULL;
	if (xdg && xdg[0] == '/')
		strbuf_addf(&sb, "%s/pfmon", xdg);
	else if (home && home[0] == '/')
		strbuf_addf(&sb, "%s/.cache/pfmon", home);
	else
		return NULL;
	strbuf_addstr(&sb, "/kallsyms-");
	for (size_t i = 0; i < id->build_id_len; i++)
		strbuf_addf(&sb, "%02x", id->build_id[i]);
	strbuf_addf(&sb, "-%s", id->boot_id);
	return strbuf_detach(&sb);
}

static bool header_matches(const struct kcache_header *h, const struct sym_kernel_id *id, uint64_t text,
			   size_t file_len)
{
	size_t body;

	if (memcmp(h->magic, KCACHE_MAGIC, 8) || h->text != text || h->build_id_len != id->build_id_len ||
	    memcmp(h->build_id, id->build_id, id->build_id_len) || strcmp(h->boot_id, id->boot_id))
		return false;
	if (h->nr < 2 || h->nr > KCACHE_MAX_SYMS || h->names_len == 0 || h->names_len > KCACHE_MAX_NAMES)
		return false;
	body = (size_t)h->nr * (sizeof(uint64_t) + sizeof(uint32_t)) + (size_t)h->names_len;
	return file_len == sizeof(*h) + body;
}

/* the addresses ascend (the search needs it); the names end in a NUL (a
 * name cannot run off the mapping); each offset is checked when used */
static bool body_sane(const uint64_t *addrs, size_t nr, const char *names, size_t names_len)
{
	for (size_t i = 1; i < nr; i++)
		if (addrs[i] <= addrs[i - 1])
			return false;
	return names[names_len - 1] == '\0';
}

static struct sym_kallsyms *table_from_map(struct sym_kcache_map *m, const struct kcache_header *h)
{
	struct sym_kallsyms *ks = xcalloc(1, sizeof(*ks));
	size_t nr = (size_t)h->nr;

	ks->addrs = (uint64_t *)((char *)m->base + sizeof(*h));
	m->name_at = (const uint32_t *)(ks->addrs + nr);
	m->names = (const char *)(m->name_at + nr);
	m->names_len = (size_t)h->names_len;
	ks->nr = nr - 1; /* the last symbol only ends the one before it */
	ks->syms = xcalloc(nr, sizeof(*ks->syms));
	ks->used = xcalloc(nr, sizeof(*ks->used));
	ks->cached = m;
	return ks;
}

int sym_kcache_load(struct sym_kallsyms **out)
{
	struct sym_kernel_id id;
	struct kcache_header h;
	struct sym_kcache_map *m;
	struct stat st;
	uint64_t text;
	char *path;
	int fd;

	*out = NULL;
	if (!running_kallsyms())
		return -1;
	sym_kernel_id_running(&id);
	path = cache_path(&id);
	text = path ? sym_kernel_text_address() : 0;
	fd = text ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	free(path);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (size_t)st.st_size < sizeof(h) ||
	    pread(fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h) || !header_matches(&h, &id, text, (size_t)st.st_size)) {
		close(fd);
		return -1;
	}
	m = xcalloc(1, sizeof(*m));
	m->len = (size_t)st.st_size;
	m->base = mmap(NULL, m->len, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m->base == MAP_FAILED) {
		free(m);
		return -1;
	}
	*out = table_from_map(m, &h);
	if (!body_sane((*out)->addrs, (size_t)h.nr, m->names, m->names_len)) {
		sym_kallsyms_free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

const struct sym_ksym *sym_kcache_fill(const struct sym_kallsyms *ks, size_t i)
{
	const struct sym_kcache_map *m = ks->cached;
	struct sym_ksym *k = &ks->syms[i];

	if (!k->name) {
		uint32_t at = m->name_at[i];

		if (at >= m->names_len) /* a damaged file: as if it missed */
			return NULL;
		*k = (struct sym_ksym){ ks->addrs[i], ks->addrs[i + 1], m->names + at, NULL };
	}
	return k;
}

void sym_kcache_unmap(struct sym_kcache_map *m)
{
	if (!m)
		return;
	munmap(m->base, m->len);
	free(m);
}

/* the longest run of kernel-image symbols from the first: [0, *n) */
static size_t image_run(const struct sym_kallsyms *full, size_t *names_len)
{
	size_t n = 0;

	*names_len = 0;
	while (n < full->nr && !full->syms[n].module) {
		*names_len += strlen(full->syms[n].name) + 1;
		n++;
	}
	return n;
}

static bool write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t k = write(fd, p, len);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		p += k;
		len -= (size_t)k;
	}
	return true;
}

static bool write_table(int fd, const struct kcache_header *h, const struct sym_kallsyms *full)
{
	size_t nr = (size_t)h->nr, at = 0;
	uint64_t *addrs = xmalloc(nr * sizeof(*addrs));
	uint32_t *name_at = xmalloc(nr * sizeof(*name_at));
	char *names = xmalloc((size_t)h->names_len);
	bool ok;

	for (size_t i = 0; i < nr; i++) {
		size_t l = strlen(full->syms[i].name) + 1;

		addrs[i] = full->syms[i].addr;
		name_at[i] = (uint32_t)at;
		memcpy(names + at, full->syms[i].name, l);
		at += l;
	}
	ok = write_all(fd, h, sizeof(*h)) && write_all(fd, addrs, nr * sizeof(*addrs)) &&
	     write_all(fd, name_at, nr * sizeof(*name_at)) && write_all(fd, names, at);
	free(addrs);
	free(name_at);
	free(names);
	return ok;
}

/* mkdir -p of the cache file's directory, private as ~/.cache is */
static bool make_dirs(char *path)
{
	for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(path, 0700) && errno != EEXIST) {
			*p = '/';
			return false;
		}
		*p = '/';
	}
	return true;
}

void sym_kcache_store(const struct sym_kallsyms *full)
{
	struct kcache_header h = { .magic = KCACHE_MAGIC };
	struct sym_kernel_id id;
	size_t nr, names_len;
	char *path, *tmp;
	int fd;

	if (!running_kallsyms() || full->cached)
		return;
	nr = image_run(full, &names_len);
	sym_kernel_id_running(&id);
	path = cache_path(&id);
	h.text = path ? sym_kernel_text_address() : 0;
	if (nr < 2 || names_len > KCACHE_MAX_NAMES || nr > KCACHE_MAX_SYMS || !h.text) {
		free(path);
		return;
	}
	h.nr = nr;
	h.names_len = names_len;
	memcpy(h.build_id, id.build_id, id.build_id_len);
	h.build_id_len = id.build_id_len;
	memcpy(h.boot_id, id.boot_id, sizeof(id.boot_id));
	/* written aside, then renamed: a reader sees a whole file or none */
	tmp = xasprintf("%s.%ld", path, (long)getpid());
	fd = make_dirs(tmp) ? open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600) : -1;
	if (fd >= 0) {
		bool ok = write_table(fd, &h, full);

		if (close(fd) || !ok || rename(tmp, path))
			unlink(tmp);
	}
	free(tmp);
	free(path);
}
