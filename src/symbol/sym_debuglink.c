/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Finding the separate debug file of a stripped binary, the way gdb and
 * elfutils do:
 *
 *   1. <root>/.build-id/xx/yyyy.debug   from the NT_GNU_BUILD_ID note
 *   2. .gnu_debuglink name, checked with its CRC32, in
 *        <dir>/<name>, <dir>/.debug/<name>, <root>/<dir>/<name>
 *
 * <root> is /usr/lib/debug unless the caller (or $PFMON_DEBUG_ROOT) says
 * otherwise.  A candidate must itself be ELF and, for build-id, carry the
 * same build-id, so a stale debug file is not silently used.
 */
#include <config.h>

#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "common/util.h"
#include "symbol/sym_internal.h"

static size_t note_build_id(Elf_Data *data, uint8_t *buf, size_t bufsz)
{
	GElf_Nhdr nh;
	size_t off = 0, next, name_off, desc_off;

	while ((next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		const char *name = (const char *)data->d_buf + name_off;

		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    memcmp(name, "GNU", 4) == 0 && nh.n_descsz > 0 && nh.n_descsz <= bufsz) {
			memcpy(buf, (const char *)data->d_buf + desc_off, nh.n_descsz);
			return nh.n_descsz;
		}
		off = next;
	}
	return 0;
}

/* The build-id bytes, from a note section or, when the section headers are
 * gone, from a PT_NOTE segment.  0 when there is none. */
size_t sym_build_id(Elf *elf, uint8_t *buf, size_t bufsz)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t n, phnum;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		if (data && (n = note_build_id(data, buf, bufsz)) > 0)
			return n;
	}
	if (elf_getphdrnum(elf, &phnum) != 0)
		return 0;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		Elf_Data *data;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_NOTE)
			continue;
		data = elf_getdata_rawchunk(elf, (int64_t)ph.p_offset, ph.p_filesz, ELF_T_NHDR);
		if (data && (n = note_build_id(data, buf, bufsz)) > 0)
			return n;
	}
	return 0;
}

/* The CRC32 .gnu_debuglink uses is zlib's crc32 over the whole file. */
uint32_t sym_crc32_file(int fd, bool *ok)
{
	struct stat st;
	uLong crc = crc32(0L, Z_NULL, 0);
	void *p;

	*ok = false;
	if (fstat(fd, &st) != 0)
		return 0;
	if (st.st_size == 0) {
		*ok = true;
		return (uint32_t)crc;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return 0;
	for (off_t done = 0; done < st.st_size;) {
		/* zlib takes a uInt length: feed big files in 1 GiB pieces */
		size_t chunk = (size_t)(st.st_size - done);

		if (chunk > (1u << 30))
			chunk = 1u << 30;
		crc = crc32(crc, (const Bytef *)p + done, (uInt)chunk);
		done += (off_t)chunk;
	}
	munmap(p, (size_t)st.st_size);
	*ok = true;
	return (uint32_t)crc;
}

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

static bool try_build_id(const char *cand, const uint8_t *id, size_t idlen)
{
	struct sym_elf e;
	uint8_t got[64];
	bool match;

	if (sym_elf_open(cand, &e, NULL) != 0)
		return false;
	match = sym_build_id(e.elf, got, sizeof(got)) == idlen && memcmp(got, id, idlen) == 0;
	sym_elf_close(&e);
	return match;
}

static char *build_id_path(const char *root, const uint8_t *id, size_t idlen)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/.build-id/%02x/", root, id[0]);
	strbuf_addhex(&sb, id + 1, idlen - 1);
	strbuf_addstr(&sb, ".debug");
	return strbuf_detach(&sb);
}

/* .gnu_debuglink: file name, NUL, pad to 4, CRC32 in the file's byte order */
static const char *debuglink(struct sym_elf *e, uint32_t *crc)
{
	Elf_Scn *scn = sym_elf_section(e->elf, SHT_PROGBITS, ".gnu_debuglink");
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
	const unsigned char *p;
	size_t len, off;

	if (!d || !d->d_buf || d->d_size < 6)
		return NULL;
	p = d->d_buf;
	len = strnlen((const char *)p, d->d_size);
	off = (len + 1 + 3) & ~(size_t)3;
	if (len == 0 || off + 4 > d->d_size)
		return NULL;
	if (e->data == ELFDATA2MSB)
		*crc = (uint32_t)p[off] << 24 | (uint32_t)p[off + 1] << 16 |
		       (uint32_t)p[off + 2] << 8 | p[off + 3];
	else
		*crc = (uint32_t)p[off + 3] << 24 | (uint32_t)p[off + 2] << 16 |
		       (uint32_t)p[off + 1] << 8 | p[off];
	return (const char *)p;
}

static bool try_debuglink(const char *path, const char *cand, uint32_t want)
{
	bool ok = false;
	uint32_t got;
	int fd;

	if (same_file(path, cand))
		return false;
	if (sym_open_regular(cand, &fd, NULL, NULL) != 0)
		return false;
	got = sym_crc32_file(fd, &ok);
	close(fd);
	return ok && got == want;
}

static char *find_by_debuglink(const char *path, struct sym_elf *e, const char *root)
{
	char real[PATH_MAX], *slash, *cand[3];
	const char *name;
	uint32_t crc = 0;
	char *found = NULL;

	name = debuglink(e, &crc);
	if (!name || !realpath(path, real))
		return NULL;
	slash = strrchr(real, '/');
	*slash = '\0'; /* real is absolute: there is a slash */
	cand[0] = xasprintf("%s/%s", real, name);
	cand[1] = xasprintf("%s/.debug/%s", real, name);
	cand[2] = xasprintf("%s%s/%s", root, real, name);
	for (size_t i = 0; i < ARRAY_SIZE(cand); i++) {
		if (!found && try_debuglink(path, cand[i], crc))
			found = cand[i];
		else
			free(cand[i]);
	}
	return found;
}

int sym_find_debug_file(const char *path, struct sym_elf *e, const char *debug_root,
			const uint8_t *build_id, size_t build_id_len, char **out)
{
	const char *root = sym_debug_root(debug_root);

	*out = NULL;
	if (build_id_len > 1) {
		char *cand = build_id_path(root, build_id, build_id_len);

		if (!same_file(path, cand) && try_build_id(cand, build_id, build_id_len)) {
			*out = cand;
			return 0;
		}
		free(cand);
	}
	*out = find_by_debuglink(path, e, root);
	return *out ? 0 : -1;
}
