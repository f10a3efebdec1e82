/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The running kernel: which one it is (build-id, boot id, release), and
 * its vDSO image.
 *
 * Kernel symbols and the vDSO are read from the running system, so they
 * are right for a sample only if the running kernel took it.  The
 * build-id (the GNU note of vmlinux, which the kernel exports in
 * /sys/kernel/notes) names the build; the boot id names one boot of it,
 * and matters because kernel and module addresses move at every boot
 * (KASLR), so even the same build's kallsyms is wrong after a reboot.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "common/util.h"
#include "symbol/sym_internal.h"

#define BOOT_ID_PATH "/proc/sys/kernel/random/boot_id"
#define NOTES_MAX (64u << 10) /* /sys/kernel/notes is a few hundred bytes */
#define VDSO_MAX_PAGES 64     /* x86-64 and arm64 vDSOs take two to four */

/* up to max bytes of a small file; 0 if it cannot be read */
static size_t read_small(const char *path, void *buf, size_t max)
{
	size_t n = 0;
	int fd;

	if (sym_open_regular(path, &fd, NULL, NULL) != 0)
		return 0;
	while (n < max) {
		ssize_t k = read(fd, (char *)buf + n, max - n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		n += (size_t)k;
	}
	close(fd);
	return n;
}

static uint32_t get_u32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v)); /* the running kernel's notes: native order */
	return v;
}

static size_t align4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

/* The NT_GNU_BUILD_ID of a raw note stream (namesz, descsz, type, name,
 * descriptor, each padded to 4 bytes, as the kernel lays out its own). */
static size_t notes_build_id(const unsigned char *b, size_t len, uint8_t *out, size_t max)
{
	size_t off = 0;

	while (len - off >= 12) {
		uint32_t namesz = get_u32(b + off), descsz = get_u32(b + off + 4);
		size_t name_at = off + 12, desc_at, next;

		if (namesz > len || descsz > len)
			return 0;
		desc_at = name_at + align4(namesz);
		next = desc_at + align4(descsz);
		if (next > len)
			return 0;
		if (get_u32(b + off + 8) == NT_GNU_BUILD_ID && namesz == 4 &&
		    memcmp(b + name_at, "GNU", 4) == 0 && descsz > 0 && descsz <= max) {
			memcpy(out, b + desc_at, descsz);
			return descsz;
		}
		off = next;
	}
	return 0;
}

static const char *notes_path(void)
{
	const char *env = getenv(SYM_KERNEL_NOTES_ENV);

	return env && *env ? env : SYM_DEFAULT_KERNEL_NOTES;
}

static void read_boot_id(char *out, size_t size)
{
	size_t n = read_small(BOOT_ID_PATH, out, size - 1);

	while (n && (out[n - 1] == '\n' || out[n - 1] == ' '))
		n--;
	out[n] = '\0';
}

void sym_kernel_id_running(struct sym_kernel_id *id)
{
	unsigned char *notes = xmalloc(NOTES_MAX);
	size_t n = read_small(notes_path(), notes, NOTES_MAX);
	struct utsname u;

	memset(id, 0, sizeof(*id));
	id->build_id_len = notes_build_id(notes, n, id->build_id, sizeof(id->build_id));
	free(notes);
	read_boot_id(id->boot_id, sizeof(id->boot_id));
	if (uname(&u) == 0)
		snprintf(id->release, sizeof(id->release), "%s", u.release);
}

enum sym_kernel_match sym_kernel_id_match(const struct sym_kernel_id *then,
					  const struct sym_kernel_id *now)
{
	bool builds = then->build_id_len && now->build_id_len;
	bool boots = then->boot_id[0] && now->boot_id[0];

	if (builds && (then->build_id_len != now->build_id_len ||
		       memcmp(then->build_id, now->build_id, now->build_id_len) != 0))
		return SYM_KERNEL_OTHER_BUILD;
	if (boots && strcmp(then->boot_id, now->boot_id) != 0)
		return SYM_KERNEL_OTHER_BOOT;
	/* one boot runs one kernel: an equal boot id alone is enough */
	return builds || boots ? SYM_KERNEL_SAME : SYM_KERNEL_UNKNOWN;
}

/*
 * The vDSO's size, from its program headers: the kernel maps the whole
 * image, in whole pages, and the section headers (which libelf needs to
 * find .dynsym) lie in the last page, past the PT_LOAD's bytes.  The image
 * is this process's own, so its headers are native structs; libelf cannot
 * read them before it is given a size that covers the section headers.
 */
static int vdso_size(const unsigned char *base, size_t page, size_t *size, struct pf_error *err)
{
	const ElfW(Ehdr) *eh = (const void *)base;
	size_t end = 0;

	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_phentsize != sizeof(ElfW(Phdr)) ||
	    eh->e_phoff > page || eh->e_phnum > (page - eh->e_phoff) / sizeof(ElfW(Phdr)))
		return pf_error_set(err, PF_E_SYMBOL, "[vdso]", "unexpected ELF header");
	for (size_t i = 0; i < eh->e_phnum; i++) {
		const ElfW(Phdr) *ph = (const void *)(base + eh->e_phoff + i * sizeof(*ph));

		if (ph->p_type == PT_LOAD && ph->p_offset + ph->p_filesz > end)
			end = ph->p_offset + ph->p_filesz;
	}
	*size = (end + page - 1) / page * page;
	if (end == 0 || *size > VDSO_MAX_PAGES * page)
		return pf_error_set(err, PF_E_SYMBOL, "[vdso]", "unexpected program headers");
	return 0;
}

int sym_dso_open_vdso(struct sym_dso **out, struct pf_error *err)
{
	const unsigned char *base = (const unsigned char *)getauxval(AT_SYSINFO_EHDR);
	size_t page = (size_t)sysconf(_SC_PAGESIZE), size = 0;

	*out = NULL;
	if (!base)
		return pf_error_set(err, PF_E_SYMBOL, "[vdso]", "this process has no vDSO");
	if (vdso_size(base, page, &size, err) != 0)
		return -1;
	return sym_dso_open_memory("[vdso]", base, size, out, err);
}
