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
 * written after a whole /proc/kallsyms was read, and read by the next
 * runs: its addresses at once (12 bytes a symbol), a name when a lookup
 * needs it.
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

/* names are read one at a time into blocks of this size (a name is at
 * most KSYM_NAME_LEN, 512 bytes) */
#define NAME_BLOCK 16384u
#define NAME_MAX_LEN 512u

struct name_block {
	struct name_block *next;
	size_t used;
	char text[NAME_BLOCK];
};

struct sym_kcache_map {
	int fd;
	uint64_t *index;          /* addrs[nr] then name_at[nr], read at once */
	const uint32_t *name_at;
	off_t names_at;           /* where the names start in the file */
	size_t names_len;
	void *lazy;               /* the table's syms and used: anonymous, zero until touched */
	size_t lazy_len;
	struct name_block *names; /* the names read so far */
};

/* a cache only for the running kernel's own kallsyms and identity, never
 * for a file given by --kallsyms or $PFMON_KALLSYMS, nor under the notes of
 * $PFMON_KERNEL_NOTES (another build's name for this kernel's symbols) */
static bool running_kallsyms(void)
{
	const char *ks = getenv(SYM_KALLSYMS_ENV), *notes = getenv(SYM_KERNEL_NOTES_ENV);

	return (!ks || !*ks) && (!notes || !*notes);
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
	strbuf_addhex(&sb, id->build_id, id->build_id_len);
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

static bool read_at(int fd, void *buf, size_t len, off_t off)
{
	char *p = buf;

	while (len) {
		ssize_t k = pread(fd, p, len, off);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		p += k;
		len -= (size_t)k;
		off += k;
	}
	return true;
}

/* the addresses ascend: the search needs it (a name's offset is checked
 * when the name is read) */
static bool ascending(const uint64_t *addrs, size_t nr)
{
	for (size_t i = 1; i < nr; i++)
		if (addrs[i] <= addrs[i - 1])
			return false;
	return true;
}

/*
 * The table over the cache.  The addresses and name offsets (12 bytes a
 * symbol) are read; the names (most of the file) only when a lookup needs
 * one: the file is read, not mapped, since a mapping's faults may bring
 * in whole large folios of it.  The syms and used arrays are an anonymous
 * mapping whose pages stay unallocated until a lookup fills an entry
 * (calloc may hand back, and clear, 4 MB of the heap).
 */
static struct sym_kallsyms *table_from_file(struct sym_kcache_map *m, const struct kcache_header *h)
{
	struct sym_kallsyms *ks;
	size_t nr = (size_t)h->nr, syms_len = nr * sizeof(*ks->syms);

	m->index = xmalloc(nr * (sizeof(uint64_t) + sizeof(uint32_t)));
	if (!read_at(m->fd, m->index, nr * (sizeof(uint64_t) + sizeof(uint32_t)), (off_t)sizeof(*h)) ||
	    !ascending(m->index, nr))
		return NULL;
	m->name_at = (const uint32_t *)(m->index + nr);
	m->names_at = (off_t)(sizeof(*h) + nr * (sizeof(uint64_t) + sizeof(uint32_t)));
	m->names_len = (size_t)h->names_len;
	m->lazy_len = syms_len + nr * sizeof(*ks->used);
	m->lazy = mmap(NULL, m->lazy_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m->lazy == MAP_FAILED) {
		m->lazy = NULL;
		return NULL;
	}
	ks = xcalloc(1, sizeof(*ks));
	ks->addrs = m->index;
	ks->nr = nr - 1; /* the last symbol only ends the one before it */
	ks->syms = m->lazy;
	ks->used = (bool *)((char *)m->lazy + syms_len);
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
	    !read_at(fd, &h, sizeof(h), 0) || !header_matches(&h, &id, text, (size_t)st.st_size)) {
		close(fd);
		return -1;
	}
	m = xcalloc(1, sizeof(*m));
	m->fd = fd;
	*out = table_from_file(m, &h);
	if (!*out) {
		sym_kcache_close(m);
		return -1;
	}
	return 0;
}

/* name i, read into the blocks: NULL when the file is damaged there */
static const char *read_name(struct sym_kcache_map *m, size_t i)
{
	uint32_t at = m->name_at[i];
	size_t len = m->names_len - at < NAME_MAX_LEN ? m->names_len - at : NAME_MAX_LEN;
	struct name_block *b = m->names;
	char *name, *nul;

	if (at >= m->names_len)
		return NULL;
	if (!b || NAME_BLOCK - b->used < len) {
		b = xmalloc(sizeof(*b));
		b->next = m->names;
		b->used = 0;
		m->names = b;
	}
	name = b->text + b->used;
	if (!read_at(m->fd, name, len, m->names_at + (off_t)at) || !(nul = memchr(name, '\0', len)))
		return NULL;
	b->used += (size_t)(nul - name) + 1;
	return name;
}

const struct sym_ksym *sym_kcache_fill(const struct sym_kallsyms *ks, size_t i)
{
	struct sym_ksym *k = &ks->syms[i];

	if (!k->name) {
		const char *name = read_name(ks->cached, i);

		if (!name) /* a damaged file: as if it missed */
			return NULL;
		*k = (struct sym_ksym){ ks->addrs[i], ks->addrs[i + 1], name, NULL };
	}
	return k;
}

void sym_kcache_close(struct sym_kcache_map *m)
{
	if (!m)
		return;
	close(m->fd);
	free(m->index);
	if (m->lazy)
		munmap(m->lazy, m->lazy_len);
	while (m->names) {
		struct name_block *b = m->names;

		m->names = b->next;
		free(b);
	}
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
