/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The DWARF sections libdwarf reads, handed to it through its object-access
 * interface (dwarf_object_init_b) rather than dwarf_elf_init_b, for two
 * reasons:
 *
 *   - Compressed sections (SHF_COMPRESSED, or the older .zdebug_* with a
 *     "ZLIB" header) are inflated here with libdeflate, which decodes a
 *     whole buffer two to three times faster than the zlib uncompress()
 *     libdwarf calls.  libdwarf sees plain .debug_* sections of their
 *     inflated size and never inflates anything itself.  Debian's debug
 *     files (libc6-dbg: 2.3 MB of .debug_info that inflate to 5.8 MB) are
 *     all compressed, and inflating them was most of a report's time.
 *
 *   - Only the sections a line lookup reads are listed.  libdwarf loads
 *     .debug_info together with .debug_loclists and .debug_rnglists; the
 *     location lists (1.4 MB inflated for libc) serve no line lookup.
 *
 * Everything else is the file mapping libelf already has: a plain section
 * is passed as the pointer into it, never copied.
 *
 * Caveats of this libdwarf (20210528), both checked against its source:
 *
 *   - It looks SHF_COMPRESSED up through a process-wide function pointer
 *     that dwarf_elf_init_b and dwarf_init_b set and that then assumes
 *     libdwarf's own object.  As long as nothing in the process calls those
 *     two, the pointer stays NULL and our sections are taken as they are
 *     described.  The symbol layer is pfmon's only libdwarf user: keep it so.
 *   - A .debug_rnglists table header it cannot parse makes it free a
 *     context and then keep it (a double free, found by tests/fuzz/); it
 *     reads the section whenever it loads .debug_info.  Every table
 *     header is checked here first, and a section with a bad one is
 *     described to libdwarf as absent.
 *   - No relocations are applied.  Executables, shared objects and their
 *     separate debug files need none; a relocatable object (ET_REL) would,
 *     so it gets no line tables rather than wrong ones.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <libdeflate.h>
#include <libdwarf.h>

#include "common/dynlib.h"
#include "common/util.h"
#include "symbol/sym_internal.h"

/* Sections a line lookup can read: the CU DIE and its abbreviations,
 * strings (DWARF 5 adds line_str, str_offsets and addr), the line
 * programs, and the CU address ranges. */
static const char *const line_sections[] = {
	".debug_info", ".debug_abbrev", ".debug_line", ".debug_line_str",
	".debug_str", ".debug_str_offsets", ".debug_addr", ".debug_aranges",
	".debug_ranges", ".debug_rnglists",
};

/* DEFLATE cannot expand more than about 1032:1; a header claiming more
 * is corrupt, and must not make us allocate its claim. */
#define MAX_INFLATION 1032

enum sec_form { SEC_PLAIN, SEC_ZLIB };

struct dwsec {
	const char *name;           /* from line_sections: never ".zdebug_*" */
	Elf_Scn *scn;
	GElf_Shdr sh;
	enum sec_form form;
	uint64_t size;              /* what libdwarf is told: inflated size */
	const unsigned char *zdata; /* SEC_ZLIB: the zlib stream in the mapping */
	size_t zsize;
	unsigned char *data;        /* loaded bytes (mapping or inflated copy) */
	bool inflated;              /* data is ours to free */
	int error;                  /* DW_DLE_* of a failed inflation: not retried */
	bool broken;                /* refused by a check of ours: never handed out */
};

struct sym_dwsec {
	Dwarf_Obj_Access_Interface iface; /* libdwarf keeps a pointer to it */
	Elf *elf;
	Dwarf_Endianness order;
	Dwarf_Small length_size, pointer_size;
	struct dwsec *secs; /* [0] is empty: libdwarf skips section 0 */
	size_t nr;
	struct libdeflate_decompressor *inflater;
};

/* The line_sections name for an ELF section name, ".zdebug_x" read as
 * ".debug_x"; NULL when a line lookup does not need it. */
static const char *line_section_name(const char *name, bool *gnu_z)
{
	const char *rest; /* the name past its "." or ".z" */

	*gnu_z = strncmp(name, ".zdebug_", 8) == 0;
	if (name[0] != '.')
		return NULL;
	rest = *gnu_z ? name + 2 : name + 1;
	for (size_t i = 0; i < ARRAY_SIZE(line_sections); i++)
		if (strcmp(rest, line_sections[i] + 1) == 0)
			return line_sections[i];
	return NULL;
}

/* ELF compression (gabi): an Elf32/64_Chdr, read by libelf in the file's
 * byte order, then a zlib stream.  Other ch_types (zstd) stay unsupported,
 * as they were when libdwarf inflated. */
static bool elf_zlib(Elf *elf, struct dwsec *s)
{
	Elf_Data *raw = elf_rawdata(s->scn, NULL);
	size_t hdr = gelf_fsize(elf, ELF_T_CHDR, 1, EV_CURRENT);
	GElf_Chdr ch;

	if (!raw || !raw->d_buf || !hdr || raw->d_size < hdr || !gelf_getchdr(s->scn, &ch) ||
	    ch.ch_type != ELFCOMPRESS_ZLIB)
		return false;
	s->zdata = (const unsigned char *)raw->d_buf + hdr;
	s->zsize = raw->d_size - hdr;
	s->size = ch.ch_size;
	return true;
}

/* GNU .zdebug_*: "ZLIB", the inflated size as 8 big-endian bytes, then a
 * zlib stream. */
static bool gnu_zlib(struct dwsec *s)
{
	Elf_Data *raw = elf_rawdata(s->scn, NULL);
	const unsigned char *p;
	uint64_t size = 0;

	if (!raw || !raw->d_buf || raw->d_size < 12 || memcmp(raw->d_buf, "ZLIB", 4) != 0)
		return false;
	p = raw->d_buf;
	for (int i = 4; i < 12; i++)
		size = size << 8 | p[i];
	s->zdata = p + 12;
	s->zsize = raw->d_size - 12;
	s->size = size;
	return true;
}

/* Plain, or compressed and inflated on load.  A compressed section we
 * cannot inflate keeps its raw size and fails to load (zdata NULL), as it
 * did when libdwarf inflated. */
static void describe(Elf *elf, struct dwsec *s, bool gnu_z)
{
	s->form = SEC_PLAIN;
	s->size = s->sh.sh_size;
	if (!gnu_z && !(s->sh.sh_flags & SHF_COMPRESSED))
		return;
	s->form = SEC_ZLIB;
	if (!(gnu_z ? gnu_zlib(s) : elf_zlib(elf, s)) || s->size / MAX_INFLATION > s->zsize) {
		s->zdata = NULL;
		s->size = s->sh.sh_size;
	}
}

static void add_section(struct sym_dwsec *d, Elf_Scn *scn, const GElf_Shdr *sh,
			const char *name, bool gnu_z)
{
	struct dwsec *s;

	d->secs = xrealloc(d->secs, (d->nr + 1) * sizeof(*d->secs));
	s = &d->secs[d->nr++];
	*s = (struct dwsec){ .name = name, .scn = scn, .sh = *sh };
	describe(d->elf, s, gnu_z);
}

static void collect_sections(struct sym_dwsec *d)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	d->secs = xcalloc(1, sizeof(*d->secs));
	d->nr = 1;
	if (elf_getshdrstrndx(d->elf, &shstrndx) != 0)
		return;
	while ((scn = elf_nextscn(d->elf, scn)) != NULL) {
		GElf_Shdr sh;
		const char *n, *name;
		bool gnu_z;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		n = elf_strptr(d->elf, shstrndx, sh.sh_name);
		if (n && (name = line_section_name(n, &gnu_z)) != NULL)
			add_section(d, scn, &sh, name, gnu_z);
	}
}

/* ---- the methods libdwarf calls ---- */

static int get_section_info(void *obj, Dwarf_Half i, Dwarf_Obj_Access_Section *out, int *error)
{
	const struct sym_dwsec *d = obj;
	const struct dwsec *s;

	if (i >= d->nr) {
		*error = DW_DLE_SECTION_INDEX_BAD;
		return DW_DLV_ERROR;
	}
	memset(out, 0, sizeof(*out));
	out->name = "";
	if (i == 0)
		return DW_DLV_OK;
	s = &d->secs[i];
	out->addr = s->sh.sh_addr;
	out->type = s->sh.sh_type;
	out->size = s->size;
	out->name = s->name;
	out->entrysize = s->sh.sh_entsize;
	/* link and info stay 0: no relocation section is ever listed */
	return DW_DLV_OK;
}

static Dwarf_Endianness get_byte_order(void *obj)
{
	return ((const struct sym_dwsec *)obj)->order;
}

static Dwarf_Small get_length_size(void *obj)
{
	return ((const struct sym_dwsec *)obj)->length_size;
}

static Dwarf_Small get_pointer_size(void *obj)
{
	return ((const struct sym_dwsec *)obj)->pointer_size;
}

static Dwarf_Unsigned get_section_count(void *obj)
{
	return ((const struct sym_dwsec *)obj)->nr;
}

/* libdeflate, loaded when a compressed section is first read: most runs
 * read none */
static struct {
	__typeof__(libdeflate_alloc_decompressor) *alloc_decompressor;
	__typeof__(libdeflate_zlib_decompress) *zlib_decompress;
	__typeof__(libdeflate_free_decompressor) *free_decompressor;
} deflate;

#define ENTRY(field) DYNLIB_SYMBOL(__typeof__(deflate), field, "libdeflate_" #field)
static const struct dynlib_symbol deflate_symbols[] = {
	ENTRY(alloc_decompressor), ENTRY(zlib_decompress), ENTRY(free_decompressor),
};
#undef ENTRY

static int deflate_load(void)
{
	static struct dynlib_once once;

	return dynlib_open_once(&once, "libdeflate", LIBDEFLATE_SONAME, deflate_symbols, ARRAY_SIZE(deflate_symbols),
				&deflate, NULL);
}

/* Whole-buffer inflation into a buffer of exactly the promised size:
 * libdeflate fails on a stream that is longer, shorter or corrupt (its
 * zlib wrapper checks the Adler-32 too). */
static int inflate_section(struct sym_dwsec *d, struct dwsec *s)
{
	enum libdeflate_result r;

	if (!s->zdata)
		return DW_DLE_ZDEBUG_INPUT_FORMAT_ODD;
	if (!d->inflater && (deflate_load() != 0 || !(d->inflater = deflate.alloc_decompressor())))
		return DW_DLE_ALLOC_FAIL;
	s->data = malloc(s->size);
	if (!s->data)
		return DW_DLE_ALLOC_FAIL;
	r = deflate.zlib_decompress(d->inflater, s->zdata, s->zsize, s->data, s->size, NULL);
	if (r != LIBDEFLATE_SUCCESS) {
		free(s->data);
		s->data = NULL;
		return DW_DLE_ZLIB_DATA_ERROR;
	}
	s->inflated = true;
	return 0;
}

/* an unsigned of n bytes in the file's byte order */
static uint64_t read_un(const unsigned char *p, size_t n, bool msb)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)p[msb ? n - 1 - i : i] << (8 * i);
	return v;
}

/*
 * Is every table header of a .debug_rnglists section whole and sane?
 * (DWARF 5, 7.28: initial length, version 5, address size, segment
 * selector size, offset entry count, then the offsets.)  Stricter than
 * libdwarf, so that libdwarf never takes its broken error path.
 */
static bool rnglists_headers_ok(const unsigned char *p, uint64_t size, bool msb)
{
	uint64_t off = 0;

	while (off < size) {
		uint64_t left = size - off, len, need;
		size_t lsize = 4, offsize = 4;
		const unsigned char *h;
		unsigned addr_size;

		if (left < 4)
			return false;
		len = read_un(p + off, 4, msb);
		if (len == 0xffffffffu) {
			if (left < 12)
				return false;
			len = read_un(p + off + 4, 8, msb);
			lsize = 12;
			offsize = 8;
		} else if (len >= 0xfffffff0u) {
			return false; /* reserved initial lengths */
		}
		/* version, address size, selector size, offset entry count */
		if (len < 8 || len > left - lsize)
			return false;
		h = p + off + lsize;
		addr_size = h[2];
		if (read_un(h, 2, msb) != 5 || (addr_size != 2 && addr_size != 4 && addr_size != 8))
			return false;
		need = read_un(h + 4, 4, msb);
		if (need > (len - 8) / offsize)
			return false;
		off += lsize + len;
	}
	return true;
}

static int load_section(void *obj, Dwarf_Half i, Dwarf_Small **data, int *error)
{
	struct sym_dwsec *d = obj;
	struct dwsec *s;
	Elf_Data *ed;

	if (i == 0 || i >= d->nr)
		return DW_DLV_NO_ENTRY;
	s = &d->secs[i];
	if (!s->data && s->size) {
		if (s->form == SEC_ZLIB && !s->error)
			s->error = inflate_section(d, s);
		if (s->error) {
			*error = s->error;
			return DW_DLV_ERROR;
		}
		/* libdwarf only reads section data (it writes only to apply
		 * relocations, and we list none): the mapping will do */
		if (s->form == SEC_PLAIN && (ed = elf_getdata(s->scn, NULL)) != NULL)
			s->data = ed->d_buf;
		/* what libdwarf cannot take safely is not there (see the top) */
		if (s->data && strcmp(s->name, ".debug_rnglists") == 0 &&
		    !rnglists_headers_ok(s->data, s->size, d->order == DW_OBJECT_MSB))
			s->broken = true;
	}
	if (s->broken)
		return DW_DLV_NO_ENTRY;
	if (!s->data)
		return DW_DLV_NO_ENTRY;
	*data = s->data;
	return DW_DLV_OK;
}

static const Dwarf_Obj_Access_Methods methods = {
	.get_section_info = get_section_info,
	.get_byte_order = get_byte_order,
	.get_length_size = get_length_size,
	.get_pointer_size = get_pointer_size,
	.get_section_count = get_section_count,
	.load_section = load_section,
	.relocate_a_section = NULL,
};

struct sym_dwsec *sym_dwsec_new(Elf *elf)
{
	struct sym_dwsec *d;
	GElf_Ehdr eh;
	bool is64;

	if (!gelf_getehdr(elf, &eh) || eh.e_type == ET_REL)
		return NULL;
	is64 = eh.e_ident[EI_CLASS] == ELFCLASS64;
	d = xcalloc(1, sizeof(*d));
	d->elf = elf;
	d->order = eh.e_ident[EI_DATA] == ELFDATA2MSB ? DW_OBJECT_MSB : DW_OBJECT_LSB;
	/* as libdwarf's own ELF reader: 64-bit IRIX alone uses 8-byte
	 * initial lengths (DWARF 2); only an approximation depends on it */
	d->length_size = is64 && eh.e_machine == EM_MIPS ? 8 : 4;
	d->pointer_size = is64 ? 8 : 4;
	collect_sections(d);
	d->iface.object = d;
	d->iface.methods = &methods;
	return d;
}

Dwarf_Obj_Access_Interface *sym_dwsec_access(struct sym_dwsec *d)
{
	return &d->iface;
}

void sym_dwsec_free(struct sym_dwsec *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nr; i++)
		if (d->secs[i].inflated)
			free(d->secs[i].data);
	free(d->secs);
	if (d->inflater)
		deflate.free_decompressor(d->inflater);
	free(d);
}
