/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ELF plumbing for the symbol layer: opening a file through libelf, finding
 * sections, and the interned string set.  Everything goes through gelf_*,
 * which translates the file's byte order and class, so an IA-64 (or any
 * foreign) ELF file reads the same as a native one.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/hash.h"
#include "common/util.h"
#include "symbol/sym_internal.h"

/* The checks and facts common to files and images. */
static int elf_header(const char *name, struct sym_elf *e, struct pf_error *err)
{
	GElf_Ehdr eh;

	if (!e->elf || elf_kind(e->elf) != ELF_K_ELF || !gelf_getehdr(e->elf, &eh)) {
		pf_error_set(err, PF_E_SYMBOL, name, e->elf ? "not an ELF file" : elf_errmsg(-1));
		sym_elf_close(e);
		return -1;
	}
	e->machine = eh.e_machine;
	e->type = eh.e_type;
	e->data = eh.e_ident[EI_DATA];
	return 0;
}

int sym_open_regular(const char *path, int *fd, struct stat *st, struct pf_error *err)
{
	struct stat tmp;
	int flags;

	/* O_NONBLOCK: opening a FIFO for reading waits for a writer otherwise */
	*fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (*fd < 0)
		return pf_error_set(err, PF_E_INPUT, path, strerror(errno));
	st = st ? st : &tmp;
	if (fstat(*fd, st) != 0 || !S_ISREG(st->st_mode)) {
		close(*fd);
		*fd = -1;
		return pf_error_set(err, PF_E_SYMBOL, path, "not a regular file");
	}
	/* a regular file: reads block as usual again */
	flags = fcntl(*fd, F_GETFL);
	if (flags >= 0)
		fcntl(*fd, F_SETFL, flags & ~O_NONBLOCK);
	return 0;
}

int sym_elf_open(const char *path, struct sym_elf *e, struct pf_error *err)
{
	e->fd = -1;
	e->mem = NULL;
	e->elf = NULL;
	if (sym_libelf_load(err) != 0)
		return -1;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return pf_error_set(err, PF_E_SYMBOL, path, "libelf is out of date");
	if (sym_open_regular(path, &e->fd, NULL, err) != 0)
		return -1;
	/* READ_MMAP: string tables stay mapped, so symbol names can point
	 * straight into them for the life of the dso. */
	e->elf = elf_begin(e->fd, ELF_C_READ_MMAP, NULL);
	if (elf_header(path, e, err) != 0)
		return -1;
	/* The descriptor is not kept: a report of 1,500 binaries would hold
	 * 1,500 of them.  FDREAD reads in what was not mapped (nothing, when
	 * the mmap worked), so libelf never needs the file again. */
	if (elf_cntl(e->elf, ELF_C_FDREAD) != 0) {
		sym_elf_close(e);
		return pf_error_set(err, PF_E_SYMBOL, path, elf_errmsg(-1));
	}
	close(e->fd);
	e->fd = -1;
	return 0;
}

int sym_elf_memory(const char *name, const void *image, size_t size, struct sym_elf *e,
		   struct pf_error *err)
{
	e->fd = -1;
	e->elf = NULL;
	e->mem = NULL;
	if (sym_libelf_load(err) != 0)
		return -1;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return pf_error_set(err, PF_E_SYMBOL, name, "libelf is out of date");
	/* A copy: elf_memory may convert data in place, and the names point
	 * into the image, which must live as long as the dso. */
	e->mem = xmalloc(size ? size : 1);
	memcpy(e->mem, image, size);
	e->elf = elf_memory(e->mem, size);
	return elf_header(name, e, err);
}

void sym_elf_close(struct sym_elf *e)
{
	if (e->elf)
		elf_end(e->elf);
	if (e->fd >= 0)
		close(e->fd);
	free(e->mem);
	e->elf = NULL;
	e->mem = NULL;
	e->fd = -1;
}

/* The first section of this type (and name, when name is not NULL). */
Elf_Scn *sym_elf_section(Elf *elf, uint32_t type, const char *name)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != type)
			continue;
		if (!name)
			return scn;
		n = elf_strptr(elf, shstrndx, sh.sh_name);
		if (n && strcmp(n, name) == 0)
			return scn;
	}
	return NULL;
}

/* a symbol called name in this symbol table section */
static bool table_names(Elf *elf, Elf_Scn *scn, const char *name)
{
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
	GElf_Shdr sh;
	GElf_Sym sym;

	if (!d || !gelf_getshdr(scn, &sh) || !sh.sh_entsize)
		return false;
	for (size_t i = 1; i < sh.sh_size / sh.sh_entsize; i++) {
		const char *n;

		if (!gelf_getsym(d, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) == STT_SECTION)
			continue;
		n = elf_strptr(elf, sh.sh_link, sym.st_name);
		if (n && !strcmp(n, name))
			return true;
	}
	return false;
}

bool sym_elf_names(const char *path, const char *name)
{
	struct sym_elf e;
	bool found;

	if (sym_elf_open(path, &e, NULL))
		return false;
	/* imported (undefined in .dynsym) or, in a static program, defined */
	found = table_names(e.elf, sym_elf_section(e.elf, SHT_DYNSYM, NULL), name) ||
		table_names(e.elf, sym_elf_section(e.elf, SHT_SYMTAB, NULL), name);
	sym_elf_close(&e);
	return found;
}

/* A debug section with contents: objcopy --only-keep-debug leaves the
 * code sections as NOBITS, strip removes the debug ones altogether. */
bool sym_elf_has_progbits(Elf *elf, const char *name)
{
	Elf_Scn *scn = sym_elf_section(elf, SHT_PROGBITS, name);
	GElf_Shdr sh;

	return scn && gelf_getshdr(scn, &sh) && sh.sh_size > 0;
}

/* ---- interned strings ---- */

static bool str_used(const void *slot)
{
	return *(char *const *)slot != NULL;
}

static bool str_match(const void *slot, const void *key)
{
	return strcmp(*(char *const *)slot, key) == 0;
}

static uint64_t str_hash(const void *slot)
{
	return hash_str(*(char *const *)slot);
}

static const struct hashtab_ops str_ops = {
	.slot_size = sizeof(char *),
	.min_cap = 64,
	.load_pct = 50,
	.used = str_used,
	.match = str_match,
	.hash = str_hash,
};

const char *sym_strset_intern(struct sym_strset *set, const char *s)
{
	bool added;
	char **slot = hashtab_insert(&set->tab, &str_ops, hash_str(s), s, &added);

	if (added)
		*slot = xstrdup(s);
	return *slot;
}

void sym_strset_free(struct sym_strset *set)
{
	char **slot;

	for (size_t i = 0; (slot = hashtab_next(&set->tab, &str_ops, &i));)
		free(*slot);
	hashtab_release(&set->tab);
}

const char *sym_debug_root(const char *debug_root)
{
	const char *env;

	if (debug_root)
		return debug_root;
	env = getenv(SYM_DEBUG_ROOT_ENV);
	return env && *env ? env : SYM_DEFAULT_DEBUG_ROOT;
}
