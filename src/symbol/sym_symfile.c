/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Symbols given by the user for addresses no map covers (pfmon 3.x's
 * --symbol-file and --sysmap-file): an ELF file whose symbol values are
 * the addresses themselves, or a System.map ("ADDRESS TYPE NAME" lines,
 * kallsyms' format, read by the kallsyms parser), its text symbols naming
 * code and its data objects naming data.
 */
#include <config.h>

#include <stdlib.h>

#include "common/util.h"
#include "symbol/sym_internal.h"

struct sym_symfile {
	struct sym_dso *elf;                /* --symbol-file */
	struct sym_kallsyms *text, *data;   /* --sysmap-file */
	bool data_loaded;                   /* the ELF's data objects */
};

int sym_symfile_open_elf(const char *path, const char *debug_root, struct sym_symfile **out,
			 struct pf_error *err)
{
	struct sym_dso *dso;

	*out = NULL;
	if (sym_dso_open(path, debug_root, &dso, err))
		return -1;
	if (dso->source == SYM_SRC_NONE) {
		sym_dso_close(dso);
		return pf_error_set(err, PF_E_SYMBOL, path, "no function symbols in the file");
	}
	*out = xcalloc(1, sizeof(**out));
	(*out)->elf = dso;
	return 0;
}

int sym_symfile_open_sysmap(const char *path, struct sym_symfile **out, struct pf_error *err)
{
	struct sym_kallsyms *text, *data;

	*out = NULL;
	if (sym_kallsyms_load_kind(path, false, &text, err))
		return -1;
	if (sym_kallsyms_load_kind(path, true, &data, err)) {
		sym_kallsyms_free(text);
		return -1;
	}
	*out = xcalloc(1, sizeof(**out));
	(*out)->text = text;
	(*out)->data = data;
	return 0;
}

void sym_symfile_free(struct sym_symfile *s)
{
	if (!s)
		return;
	sym_dso_close(s->elf);
	sym_kallsyms_free(s->text);
	sym_kallsyms_free(s->data);
	free(s);
}

void sym_symfile_lookup(struct sym_symfile *s, uint64_t addr, bool data, struct sym_result *res)
{
	const struct sym_ksym *k;

	if (s->elf) {
		if (data)
			sym_dso_lookup_data(s->elf, addr, res);
		else
			sym_dso_lookup(s->elf, addr, res);
		return;
	}
	*res = (struct sym_result){ .addr = addr, .offset = addr };
	/* IA-64 code addresses carry the slot in their low bits */
	k = sym_kallsyms_find(data ? s->data : s->text, data ? addr : addr & ~(uint64_t)0xf);
	if (k) {
		res->func = k->name;
		res->offset = addr - k->addr;
	}
}

/* the ELF's data objects, loaded as a data lookup loads them */
static const struct sym_table *elf_data(struct sym_symfile *s)
{
	struct sym_result ignored;

	if (!s->data_loaded)
		sym_dso_lookup_data(s->elf, 0, &ignored);
	s->data_loaded = true;
	return &s->elf->data;
}

size_t sym_symfile_count(struct sym_symfile *s)
{
	if (s->elf)
		return s->elf->funcs.nr + elf_data(s)->nr;
	return s->text->nr + s->data->nr;
}

void sym_symfile_get(struct sym_symfile *s, size_t i, struct sym_symfile_entry *e)
{
	size_t nr_text = s->elf ? s->elf->funcs.nr : s->text->nr;

	e->data = i >= nr_text;
	if (s->elf) {
		const struct sym_func *f = e->data ? &elf_data(s)->syms[i - nr_text] : &s->elf->funcs.syms[i];

		e->addr = f->addr;
		e->end = f->end;
		e->name = f->name;
	} else {
		const struct sym_ksym *k = e->data ? &s->data->syms[i - nr_text] : &s->text->syms[i];

		e->addr = k->addr;
		e->end = k->end;
		e->name = k->name;
	}
}
