/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Itanium 2 EAR/BTB samples: pfmon 3.x's sampling modules.  detailed (text
 * and JSON lines), compact and the btb trace print each sample as it comes;
 * inst-hist, dear-hist and the btb pair histogram count into ia64_hist and
 * print at the end.
 */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "report/ia64_report_int.h"

/* the dump's maps hold for every process: they are kept under one pid */
#define DUMP_PID 0

/* the modules, in enum ia64_smpl_module's order: what -S prints */
static const struct {
	const char *name;
	const char *description;
	bool host; /* also for pfmon's own sample files */
	const char *options;
} modules[] = {
	{ "inst-hist", "IP-based histogram", true,
	  "\t--smpl-compact\t\tone row per sample instead of the histogram\n"
	  "\t--smpl-show-top=N\tshow only the top N rows\n"
	  "\t--smpl-cum-threshold=PCT\tstop before the row that crosses PCT % of the samples\n" },
	{ "detailed", "decode every sample (Itanium 2: each EAR and BTB register)", true, NULL },
	{ "compact", "one row per sample: ids, time, period, IIP, then the PMDs", true, NULL },
	{ "dear-hist", "Data EAR-based cache/TLB miss histograms; host samples: by their latency (weight)", true,
	  "\t--smpl-inst-view\tinstruction address histogram (default)\n"
	  "\t--smpl-data-view\tdata address histogram\n"
	  "\t--smpl-level-view\tcache latency (cycles) or TLB level histogram\n"
	  "\t--smpl-object-view\thost samples: data object (variable) histogram\n"
	  "\t--smpl-type-view\thost samples: data type histogram\n"
	  "\t--smpl-line-view\thost samples: source line histogram\n"
	  "\t--smpl-sort-byvalue\trows by address or level, not by count\n"
	  "\t--smpl-sort-bylevel\trows by estimated cycles lost (latency bucket x cost)\n"
	  "\t--smpl-show-top=N\tshow only the top N rows\n"
	  "\t--smpl-cum-threshold=PCT\tstop before the row that crosses PCT % of the samples\n" },
	{ "btb", "branch trace buffer: one line per branch, then a branch pair histogram", false,
	  "\t--smpl-show-top=N\tshow only the top N branch pairs\n"
	  "\t--smpl-cum-threshold=PCT\tstop before the pair that crosses PCT % of the branches\n" },
	/* pfmon's own (perf c2c report's view): host samples only */
	{ "c2c", "false sharing: cache lines loaded with HITM or written and touched by several threads, "
		 "their fields, threads and source lines", true,
	  "\t--smpl-show-top=N\tshow only the N lines with the most HITM\n"
	  "\t--report-format=json\tone JSON object instead of the text\n" },
};

/*
 * dear-hist's latency buckets.  pfmon classed a latency as an L2 hit up to
 * the L2 load latency PAL reports, L3 up to the L3 one, memory beyond.  A
 * dump has no PAL: these are the Itanium 2 values (L2 integer load 5
 * cycles, FP 6; L3 12 to 14 cycles depending on the part), the upper ends
 * taken so a hit of either kind lands in its level (man/pfmon.1).
 */
#define DEAR_L2_MAX_CYCLES 6
#define DEAR_L3_MAX_CYCLES 14
/* the cost per level used by --smpl-sort-bylevel, pfmon's: cycles */
static const unsigned cache_costs[IA64_HIST_LEVELS] = { 5, 10, 150 };
static const unsigned tlb_costs[IA64_HIST_LEVELS] = { 5, 30, 200 };

_Static_assert(ARRAY_SIZE(modules) == IA64_MOD_COUNT_, "one row per module");

bool ia64_smpl_module_from_name(const char *name, enum ia64_smpl_module *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(modules); i++)
		if (!strcmp(name, modules[i].name)) {
			*out = (enum ia64_smpl_module)i;
			return true;
		}
	return false;
}

const char *ia64_smpl_module_name(enum ia64_smpl_module m)
{
	return (size_t)m < ARRAY_SIZE(modules) ? modules[m].name : NULL;
}

bool ia64_smpl_module_for_host(enum ia64_smpl_module m)
{
	return modules[m].host;
}

/* the unknown module name refused with the list of the modules' names */
static int unknown_module(const char *name, struct pf_error *err)
{
	char names[128] = "";
	size_t len = 0;

	for (size_t i = 0; i < ARRAY_SIZE(modules); i++)
		len += (size_t)snprintf(names + len, len < sizeof(names) ? sizeof(names) - len : 0, "%s%s",
					i ? ", " : "", modules[i].name);
	return pf_error_set(err, PF_E_UNKNOWN_MODULE, name, names);
}

int ia64_smpl_module_lookup(const char *name, enum ia64_smpl_module *out, struct pf_error *err)
{
	return ia64_smpl_module_from_name(name, out) ? 0 : unknown_module(name, err);
}

int ia64_smpl_module_describe(const char *name, FILE *out, struct pf_error *err)
{
	enum ia64_smpl_module m;

	if (ia64_smpl_module_lookup(name, &m, err))
		return -1;
	fprintf(out, "name        : %s\ndescription : %s\nPMU models  : %s\n", modules[m].name,
		modules[m].description, m == IA64_MOD_C2C ? "[host]" : modules[m].host ? "[host] [itanium2]" : "[itanium2]");
	if (modules[m].options)
		fprintf(out, "options     :\n%s", modules[m].options);
	return 0;
}

void ia64_names_clear(struct ia64_report *r)
{
	for (size_t i = 0; i < r->n_names; i++) {
		free(r->names[i].sym);
		free(r->names[i].line);
	}
	r->n_names = 0;
	u64set_release(&r->code_names);
	u64set_release(&r->data_names);
	u64set_init(&r->code_names);
	u64set_init(&r->data_names);
}

struct ia64_report *ia64_report_new(const struct ia64_report_opts *opts, FILE *out)
{
	struct ia64_report *r = xcalloc(1, sizeof(*r));

	r->opts = *opts;
	r->out = out;
	r->res = sym_resolver_new(opts->debug_root);
	sym_resolver_demangle(r->res, !opts->no_demangle);
	strmap_init(&r->view_ids);
	ia64_hist_init(&r->hist);
	u64set_init(&r->code_names);
	u64set_init(&r->data_names);
	r->sym = r->line = "";
	json_init(&r->json, out, false);
	if (opts->annotate) {
		struct annotate_opts ao = { opts->annotate_function, opts->top, opts->source_root, opts->json };

		r->annotate = annotate_new(&ao, r->res, 1);
	}
	return r;
}

int ia64_report_load_symbols(struct ia64_report *r, struct pf_error *err)
{
	const struct ia64_report_opts *o = &r->opts;

	if (o->symbol_file && sym_symfile_open_elf(o->symbol_file, o->debug_root, &r->symfile, err))
		return -1;
	if (o->sysmap_file && sym_symfile_open_sysmap(o->sysmap_file, &r->symfile, err))
		return -1;
	if (!o->print_syms)
		return 0;
	if (!r->symfile)
		return pf_error_set(err, PF_E_OPTION_NEEDS, "--print-syms", "--symbol-file or --sysmap-file", "");
	ia64_report_print_syms(r, r->out);
	return 0;
}

void ia64_report_print_syms(const struct ia64_report *r, FILE *out)
{
	const struct ia64_report_opts *o = &r->opts;

	if (r->symfile)
		report_print_symfile(out, r->symfile, o->symbol_file ? o->symbol_file : o->sysmap_file);
}

void report_print_symfile(FILE *out, struct sym_symfile *s, const char *path)
{
	size_t n = sym_symfile_count(s);

	fprintf(out, "# symbols: %zu (%s)\n# start              end                kind name\n", n, path);
	for (size_t i = 0; i < n; i++) {
		struct sym_symfile_entry e;

		sym_symfile_get(s, i, &e);
		put_hex16(out, e.addr);
		putc_unlocked(' ', out);
		put_hex16(out, e.end);
		put_str(out, e.data ? " data " : " code ");
		fput_escaped(out, e.name);
		putc_unlocked('\n', out);
	}
}

void ia64_report_free(struct ia64_report *r)
{
	if (!r)
		return;
	sym_symfile_free(r->symfile);
	ia64_hist_release(&r->hist);
	ia64_names_clear(r);
	u64set_release(&r->code_names);
	u64set_release(&r->data_names);
	free(r->names);
	free(r->uncached.sym);
	free(r->uncached.line);
	annotate_free(r->annotate);
	c2c_free(r->c2c);
	strmap_release(&r->view_ids);
	for (size_t i = 0; i < r->n_view_names; i++)
		free(r->view_names[i]);
	free(r->view_names);
	sym_resolver_free(r->res);
	free(r);
}

int ia64_report_config(struct ia64_report *r, const struct ia64_dump_config *c,
		       struct pf_error *err)
{
	r->iear = c->has_pmc10 ? ia64_iear_mode_of(c->pmc10) : IA64_IEAR_OFF;
	r->dear = c->has_pmc11 ? ia64_dear_mode_of(c->pmc11) : IA64_DEAR_OFF;
	r->btb = c->has_pmc12;
	r->btb_ds = c->has_pmc12 && ia64_btb_ds_of(c->pmc12);
	if (r->opts.module == IA64_MOD_C2C)
		return pf_error_set(err, PF_E_MODULE_NEEDS, "c2c", "host samples (perf.data or pfmon's sample file)",
				    "a D-EAR sample names no thread and no load or store");
	if (r->opts.module == IA64_MOD_DEAR_HIST && r->dear == IA64_DEAR_OFF)
		return pf_error_set(err, PF_E_MODULE_NEEDS, "dear-hist", "D-EAR samples",
				    "the dump gives no pmc11= and no DATA_EAR_* event");
	if (r->opts.module == IA64_MOD_DEAR_HIST && pf_smpl_view_named(r->opts.view))
		return pf_error_set(err, PF_E_OPTION_NOT_USED, "--smpl-object-view, --smpl-type-view or --smpl-line-view",
				    "with an Itanium 2 dump", " (host samples only)");
	if (r->opts.module == IA64_MOD_DEAR_HIST && r->dear == IA64_DEAR_ALAT &&
	    r->opts.view == PF_VIEW_DATA)
		return pf_error_set(err, PF_E_OPTION_NOT_USED, "--smpl-data-view", "with a D-EAR in ALAT mode",
				    " (it captures no data address)");
	if (r->opts.module == IA64_MOD_BTB && !r->btb)
		return pf_error_set(err, PF_E_MODULE_NEEDS, "btb", "BTB samples",
				    "the dump gives no pmc12= and no BTB event");
	return 0;
}

void ia64_report_map(struct ia64_report *r, const struct ia64_dump_map *m)
{
	ia64_names_clear(r);
	sym_maps_add(sym_resolver_maps(r->res), DUMP_PID, m->start, m->end - m->start, m->offset,
		     m->path);
}

/* the names of addr as the resolver gives them, formatted */
static void format_names(struct ia64_report *r, uint64_t addr, bool data, struct address_names *n)
{
	const struct sym_result *res = data ? sym_resolve_data(r->res, r->pid, addr)
					    : sym_resolve(r->res, r->pid, addr);
	struct sym_result given;

	/* no map covers it: the symbols of --symbol-file / --sysmap-file */
	if ((!res || !res->binary) && r->symfile) {
		sym_symfile_lookup(r->symfile, addr, data, &given);
		res = &given;
	}
	n->pid = r->pid;
	n->sym = n->line = NULL;
	if (!res || !res->func)
		return;
	if (res->offset)
		n->sym = xasprintf("%s+0x%" PRIx64, res->func, res->offset);
	else
		n->sym = xstrdup(res->func);
	if (res->file && res->line)
		n->line = xasprintf("%s:%u", res->file, res->line);
}

/*
 * Name addr into r->sym ("func+0x10", "" if unknown) and r->line
 * ("file:line", "" if unknown).  Code addresses carry the slot in their
 * low bits; the symbol code looks up the bundle (sym_dso.c).
 */
static void name_address(struct ia64_report *r, uint64_t addr, bool data)
{
	struct u64set *set = data ? &r->data_names : &r->code_names;
	struct address_names *n;
	uint64_t i;

	if (addr == UINT64_MAX || (u64set_get(set, addr, &i) && r->names[i].pid != r->pid)) {
		/* a set cannot hold UINT64_MAX; another process's names of the
		 * address replace the cached ones */
		n = addr == UINT64_MAX ? &r->uncached : &r->names[i];
		free(n->sym);
		free(n->line);
		format_names(r, addr, data, n);
	} else if (u64set_get(set, addr, &i)) {
		n = &r->names[i];
	} else {
		if (r->n_names == r->cap_names) {
			r->cap_names = r->cap_names ? 2 * r->cap_names : 256;
			r->names = xrealloc(r->names, r->cap_names * sizeof(*r->names));
		}
		n = &r->names[r->n_names];
		format_names(r, addr, data, n);
		u64set_put(set, addr, r->n_names++);
	}
	r->sym = n->sym ? n->sym : "";
	r->line = n->line ? n->line : "";
}

/* ---- JSON ---- */

/* "key": "0x...", then "key_symbol" and "key_line" when the maps name it */
static void json_address(struct ia64_report *r, const char *key, uint64_t addr, bool data)
{
	json_key(&r->json, key);
	json_hex(&r->json, addr);
	name_address(r, addr, data);
	if (r->sym[0]) {
		json_key_suffix(&r->json, key, "_symbol");
		json_string(&r->json, r->sym);
	}
	if (r->line[0]) {
		json_key_suffix(&r->json, key, "_line");
		json_string(&r->json, r->line);
	}
}

static void json_opt_uint(struct json_writer *w, const char *key, bool has, uint64_t v)
{
	json_key(w, key);
	if (has)
		json_uint(w, v);
	else
		json_null(w);
}

static void json_opt_bool(struct json_writer *w, const char *key, bool has, bool v)
{
	json_key(w, key);
	if (has)
		json_bool(w, v);
	else
		json_null(w);
}

static void json_opt_str(struct json_writer *w, const char *key, bool has, const char *v)
{
	json_key(w, key);
	if (has)
		json_string(w, v);
	else
		json_null(w);
}

static void json_iear(struct ia64_report *r, const struct ia64_iear *e)
{
	struct json_writer *w = &r->json;

	json_key(w, "iear");
	json_begin_object(w);
	json_key(w, "mode");
	json_string(w, ia64_iear_mode_name(e->mode));
	json_key(w, "valid");
	json_bool(w, e->valid);
	json_address(r, "address", e->address, false);
	json_opt_uint(w, "latency", e->has_latency, e->latency);
	json_opt_bool(w, "overflow", e->has_latency, e->overflow);
	json_opt_str(w, "tlb", e->mode == IA64_IEAR_TLB && e->valid, ia64_tlb_name(e->tlb, false));
	json_end_object(w);
}

static void json_dear(struct ia64_report *r, const struct ia64_dear *d)
{
	struct json_writer *w = &r->json;

	json_key(w, "dear");
	json_begin_object(w);
	json_key(w, "mode");
	json_string(w, ia64_dear_mode_name(d->mode));
	json_key(w, "valid");
	json_bool(w, d->valid);
	if (d->has_data_address)
		json_address(r, "data_address", d->data_address, true);
	else
		json_opt_uint(w, "data_address", false, 0);
	json_opt_uint(w, "latency", d->has_latency, d->latency);
	json_opt_bool(w, "overflow", d->has_latency, d->overflow);
	json_opt_str(w, "tlb", d->mode == IA64_DEAR_TLB && d->valid, ia64_tlb_name(d->tlb, true));
	if (d->has_iaddr)
		json_address(r, "instruction_address", d->iaddr | d->slot, false);
	else
		json_opt_uint(w, "instruction_address", false, 0);
	json_opt_uint(w, "slot", d->has_iaddr, d->slot);
	json_end_object(w);
}

static void json_btb(struct ia64_report *r, const struct ia64_btb *b)
{
	struct json_writer *w = &r->json;

	json_key(w, "btb_entries");
	json_begin_array(w);
	for (unsigned i = 0; i < b->nr_entries; i++) {
		const struct ia64_btb_entry *e = &b->entries[i];
		bool br = e->kind == IA64_BTB_BRANCH;

		json_begin_object(w);
		json_key(w, "pmd");
		json_uint(w, e->pmd);
		json_key(w, "kind");
		json_string(w, ia64_btb_kind_name(e->kind));
		json_address(r, "address", br ? e->address | e->slot : e->address, false);
		json_opt_uint(w, "slot", br && e->taken, e->slot);
		json_opt_bool(w, "taken", br, e->taken);
		json_opt_bool(w, "mispredicted", br, e->mispredicted);
		json_opt_bool(w, "bruflush", br, e->bruflush);
		json_opt_uint(w, "detail", e->kind == IA64_BTB_DETAIL, e->detail);
		json_end_object(w);
	}
	json_end_array(w);
	json_key(w, "branches");
	json_begin_array(w);
	for (unsigned i = 0; i < b->nr_branches; i++) {
		const struct ia64_btb_branch *p = &b->branches[i];

		json_begin_object(w);
		json_address(r, "source", p->source, false);
		if (p->has_target)
			json_address(r, "target", p->target, false);
		else
			json_opt_uint(w, "target", false, 0);
		json_key(w, "taken");
		json_bool(w, p->taken);
		json_key(w, "mispredicted");
		json_bool(w, p->mispredicted);
		json_key(w, "bruflush");
		json_bool(w, p->bruflush);
		json_opt_uint(w, "detail", p->has_detail, p->detail);
		json_end_object(w);
	}
	json_end_array(w);
}

static void json_sample(struct ia64_report *r, const struct ia64_dump_sample *s,
			const struct ia64_iear *ie, const struct ia64_dear *de,
			const struct ia64_btb *bt)
{
	struct json_writer *w = &r->json;

	json_begin_object(w);
	json_address(r, "ip", s->ip, false);
	json_opt_uint(w, "pid", s->fields & IA64_DUMP_F_PID, s->pid);
	json_opt_uint(w, "tid", s->fields & IA64_DUMP_F_TID, s->tid);
	json_opt_uint(w, "cpu", s->fields & IA64_DUMP_F_CPU, s->cpu);
	json_opt_uint(w, "time", s->fields & IA64_DUMP_F_TIME, s->time);
	json_opt_uint(w, "period", s->fields & IA64_DUMP_F_PERIOD, s->period);
	if (ie)
		json_iear(r, ie);
	if (de)
		json_dear(r, de);
	if (bt)
		json_btb(r, bt);
	json_end_object(w);
	json_newline(w);
}

/* ---- text: pfmon 3.x's detailed module ---- */

/* " <sym>" when the maps name addr */
void ia64_put_sym(struct ia64_report *r, uint64_t addr, bool data)
{
	name_address(r, addr, data);
	if (!r->sym[0])
		return;
	put_str(r->out, " <");
	put_str(r->out, r->sym);
	putc_unlocked('>', r->out);
}

static void text_iear(struct ia64_report *r, const struct ia64_iear *e)
{
	FILE *out = r->out;

	put_str(out, "\tPMD0  : valid=");
	put_str(out, yes_no(e->valid));
	put_str(out, ", cache line addr=");
	put_hex16(out, e->address);
	ia64_put_sym(r, e->address, false);
	if (e->mode == IA64_IEAR_TLB) {
		put_str(out, ", TLB:");
		put_str(out, e->valid ? ia64_tlb_name(e->tlb, false) : "-");
		putc_unlocked('\n', out);
		return;
	}
	put_str(out, "\n\tPMD1  : latency=");
	put_uint(out, e->latency, 10);
	put_str(out, " cycles, latency overflow=");
	put_str(out, yes_no(e->overflow));
	putc_unlocked('\n', out);
}

static void text_dear(struct ia64_report *r, const struct ia64_dear *d)
{
	FILE *out = r->out;

	if (d->has_data_address) {
		put_str(out, "\tPMD2  : miss addr=");
		put_hex16(out, d->data_address);
		ia64_put_sym(r, d->data_address, true);
		putc_unlocked('\n', out);
	}
	put_str(out, "\tPMD3  : valid=");
	put_str(out, yes_no(d->valid));
	if (d->has_latency) {
		put_str(out, ", latency=");
		put_uint(out, d->latency, 10);
		put_str(out, " cycles, latency overflow=");
		put_str(out, yes_no(d->overflow));
	}
	if (d->mode == IA64_DEAR_TLB && d->valid) {
		put_str(out, ", TLB:");
		put_str(out, ia64_tlb_name(d->tlb, true));
	}
	put_str(out, "\n\tPMD17 : valid=");
	put_str(out, yes_no(d->has_iaddr));
	if (d->has_iaddr) {
		put_str(out, ", instr addr=");
		put_hex16(out, d->iaddr);
		put_str(out, " slot ");
		put_uint(out, d->slot, 10);
		ia64_put_sym(r, d->iaddr | d->slot, false);
	}
	putc_unlocked('\n', out);
}

static const char *prediction(const struct ia64_btb_entry *e)
{
	if (!e->mispredicted)
		return "success";
	return e->bruflush ? "BE failure" : "FE failure";
}

static void text_btb_entry(struct ia64_report *r, const struct ia64_btb_entry *e)
{
	FILE *out = r->out;

	put_str(out, "\tPMD");
	put_uint(out, e->pmd, 10);
	put_str(out, e->pmd < 10 ? "  : " : " : ");
	if (e->kind == IA64_BTB_BRANCH) {
		put_str(out, "source addr=");
		put_hex16(out, e->address);
		put_str(out, " slot ");
		put_str(out, e->taken ? (const char *[]){ "0", "1", "2" }[e->slot] : "-");
		put_str(out, " taken=");
		put_str(out, yes_no(e->taken));
		put_str(out, " prediction=");
		put_str(out, prediction(e));
		ia64_put_sym(r, e->address | e->slot, false);
	} else if (e->kind == IA64_BTB_TARGET) {
		put_str(out, "target addr=");
		put_hex16(out, e->address);
		ia64_put_sym(r, e->address, false);
	} else {
		fprintf(out, "prediction detail=0x%05x branch addr bits=", e->detail);
		put_hex16(out, e->address);
	}
	putc_unlocked('\n', out);
}

static void text_sample(struct ia64_report *r, const struct ia64_dump_sample *s,
			const struct ia64_iear *ie, const struct ia64_dear *de,
			const struct ia64_btb *bt)
{
	FILE *out = r->out;

	put_str(out, "entry ");
	put_uint(out, r->entry, 10);
	put_id(out, "PID", s->fields & IA64_DUMP_F_PID, s->pid, 10);
	put_id(out, "TID", s->fields & IA64_DUMP_F_TID, s->tid, 10);
	put_id(out, "CPU", s->fields & IA64_DUMP_F_CPU, s->cpu, 10);
	put_id(out, "STAMP", s->fields & IA64_DUMP_F_TIME, s->time, 16);
	/* a dump does not say which PMD overflowed */
	put_str(out, " OVFL:-");
	put_id(out, "LAST_VAL", s->fields & IA64_DUMP_F_PERIOD, s->period, 10);
	put_str(out, " SET:0 IIP:");
	put_hex16(out, s->ip);
	ia64_put_sym(r, s->ip, false);
	putc_unlocked('\n', out);
	if (ie)
		text_iear(r, ie);
	if (de)
		text_dear(r, de);
	for (unsigned i = 0; bt && i < bt->nr_entries; i++)
		text_btb_entry(r, &bt->entries[i]);
	/* the PMDs no configured unit explains, raw */
	for (unsigned n = 0; n < IA64_DUMP_NR_PMDS; n++) {
		bool decoded = (ie && n <= 1) || (de && (n == 2 || n == 3 || n == 17)) ||
			       (bt && n >= 8 && n <= 16);

		if ((s->pmd_mask & (1u << n)) && !decoded) {
			put_str(out, "\tPMD");
			put_uint(out, n, 10);
			put_str(out, n < 10 ? "  : " : " : ");
			put_hex16(out, s->pmd[n]);
			putc_unlocked('\n', out);
		}
	}
}

/* ---- compact: one row per sample, pfmon 3.9's --smpl-compact columns ---- */

void ia64_compact_header(FILE *out)
{
	static const char *const columns[] = {
		"entry number", "process id", "thread id", "CPU number", "timestamp",
		"overflowed PMD index (a dump does not say: -)", "sampling period", "event set",
		"interrupted IP", "each PMD the sample gives, in register order (PMDn=value)",
	};

	fputs("# description of columns:\n", out);
	for (size_t i = 0; i < ARRAY_SIZE(columns); i++)
		fprintf(out, "#\tcolumn %2zu%s: %s\n", i + 1, i + 1 == ARRAY_SIZE(columns) ? "+" : "",
			columns[i]);
}

/* " v" (base 10, or 16 as 0x%016lx), or " -" when the input does not give it */
void ia64_compact_field(FILE *out, bool has, uint64_t v, unsigned base)
{
	putc_unlocked(' ', out);
	if (!has)
		putc_unlocked('-', out);
	else if (base == 16)
		put_hex16(out, v);
	else
		put_uint(out, v, 10);
}

/* the entry number left-aligned in 8 columns, as %-8lu */
void ia64_compact_entry(FILE *out, uint64_t entry)
{
	char b[24];
	int n = snprintf(b, sizeof(b), "%" PRIu64, entry);

	fwrite_unlocked(b, 1, (size_t)n, out);
	for (; n < 8; n++)
		putc_unlocked(' ', out);
}

static void compact_sample(struct ia64_report *r, const struct ia64_dump_sample *s)
{
	FILE *out = r->out;

	if (r->entry == 0)
		ia64_compact_header(out);
	ia64_compact_entry(out, r->entry);
	ia64_compact_field(out, s->fields & IA64_DUMP_F_PID, s->pid, 10);
	ia64_compact_field(out, s->fields & IA64_DUMP_F_TID, s->tid, 10);
	ia64_compact_field(out, s->fields & IA64_DUMP_F_CPU, s->cpu, 10);
	ia64_compact_field(out, s->fields & IA64_DUMP_F_TIME, s->time, 16);
	put_str(out, " -");
	ia64_compact_field(out, s->fields & IA64_DUMP_F_PERIOD, s->period, 10);
	put_str(out, " 0 ");
	put_hex16(out, s->ip);
	for (unsigned n = 0; n < IA64_DUMP_NR_PMDS; n++)
		if (s->pmd_mask & (1u << n)) {
			put_str(out, " PMD");
			put_uint(out, n, 10);
			putc_unlocked('=', out);
			put_hex16(out, s->pmd[n]);
		}
	putc_unlocked('\n', out);
}

/* ---- histograms ---- */

static void dear_count(struct ia64_report *r, const struct ia64_dump_sample *s,
		       const struct ia64_dear *d)
{
	struct ia64_hist_row *row;
	uint64_t key;
	int level = -1;

	if (!d->valid) {
		r->invalid++;
		return;
	}
	if (d->mode == IA64_DEAR_CACHE)
		level = d->latency <= DEAR_L2_MAX_CYCLES ? 0 : d->latency <= DEAR_L3_MAX_CYCLES ? 1 : 2;
	else if (d->mode == IA64_DEAR_TLB)
		level = (int)d->tlb - 1;
	if (r->opts.view == PF_VIEW_DATA)
		key = d->data_address;
	else if (r->opts.view == PF_VIEW_LEVEL)
		key = d->mode == IA64_DEAR_CACHE ? d->latency : (uint64_t)d->tlb;
	else /* PMD17 when its vl bit says it holds the instruction, else the IIP */
		key = d->has_iaddr ? d->iaddr | d->slot : s->ip;
	row = ia64_hist_count(&r->hist, key, 0);
	if (level >= 0 && r->opts.view != PF_VIEW_LEVEL)
		row->level[level]++;
}

static void btb_lines(struct ia64_report *r, const struct ia64_btb *b)
{
	for (unsigned i = 0; i < b->nr_branches; i++) {
		const struct ia64_btb_branch *p = &b->branches[i];
		uint64_t target = p->has_target ? p->target : 0;

		put_hex16(r->out, p->source);
		putc_unlocked(' ', r->out);
		put_hex16(r->out, target);
		putc_unlocked('\n', r->out);
		ia64_hist_count(&r->hist, p->source, target)->mispredicted += p->mispredicted;
	}
}

double ia64_percent(uint64_t part, uint64_t whole)
{
	return whole ? (double)part * 100.0 / (double)whole : 0.0;
}

void ia64_hist_counts(struct ia64_report *r, const struct ia64_hist_row *row, uint64_t *cum)
{
	*cum += row->count;
	fprintf(r->out, "  %8" PRIu64 " %6.2f%% %6.2f%% ", row->count, ia64_percent(row->count, r->hist.total),
		ia64_percent(*cum, r->hist.total));
}

const char *ia64_row_symbol(struct ia64_report *r, uint64_t addr, bool data)
{
	name_address(r, addr, data);
	return r->sym;
}

static void print_inst_hist(struct ia64_report *r)
{
	size_t *order = ia64_hist_sorted(&r->hist, IA64_HIST_BY_COUNT, NULL);
	size_t shown = ia64_hist_shown(&r->hist, order, r->opts.top, r->opts.cum_threshold);
	uint64_t cum = 0;

	/* pfmon 3.x: a system-wide run's histogram a CPU, unless --aggregate-results */
	if (r->opts.per_cpu)
		fprintf(r->out, "# results for CPU%d\n", r->opts.cpu);
	else
		fputs("# aggregated results\n", r->out);
	fprintf(r->out, "# total samples          : %" PRIu64 "\n"
			"# #count    %%self    %%cum          code addr symbol\n", r->hist.total);
	for (size_t i = 0; i < shown; i++) {
		const struct ia64_hist_row *row = &r->hist.rows[order[i]];

		ia64_hist_counts(r, row, &cum);
		r->pid = (uint32_t)row->key2; /* host samples: the process (a dump's: 0) */
		fprintf(r->out, "0x%016" PRIx64 " %s\n", row->key, ia64_row_symbol(r, row->key, false));
	}
	free(order);
}

static void dear_hist_header(struct ia64_report *r)
{
	static const char *const views[] = { "instruction addr", "data addr", "level" };
	static const char *const sorts[] = { "count", "value", "level" };
	FILE *out = r->out;
	bool tlb = r->dear == IA64_DEAR_TLB, levels = r->dear != IA64_DEAR_ALAT;

	fprintf(out, "# total samples %" PRIu64 "\n", r->hist.total);
	fprintf(out, "# samples without a captured miss (not counted) %" PRIu64 "\n", r->invalid);
	fprintf(out, "# %s view\n# sorted by %s\n", views[r->opts.view], sorts[r->opts.sort]);
	if (r->dear == IA64_DEAR_CACHE)
		fprintf(out, "# L2   : latency up to %u cycles\n# L3   : latency up to %u cycles\n"
			     "# RAM  : latency above %u cycles\n", DEAR_L2_MAX_CYCLES, DEAR_L3_MAX_CYCLES,
			DEAR_L3_MAX_CYCLES);
	fputs("# #count    %self    %cum ", out);
	if (r->opts.view == PF_VIEW_LEVEL)
		fputs(tlb ? "level\n" : "lat(cycles)\n", out);
	else if (!levels)
		fprintf(out, "%18s\n", views[r->opts.view]);
	else
		fprintf(out, "%7s %7s %7s %18s\n", "%L2", tlb ? "%VHPT" : "%L3", tlb ? "%SW" : "%RAM",
			views[r->opts.view]);
}

static void print_dear_hist(struct ia64_report *r)
{
	enum ia64_hist_order ord = r->opts.sort == PF_SORT_VALUE ? IA64_HIST_BY_VALUE :
				   r->opts.sort == PF_SORT_LEVEL ? IA64_HIST_BY_COST : IA64_HIST_BY_COUNT;
	size_t *order = ia64_hist_sorted(&r->hist, ord,
					 r->dear == IA64_DEAR_TLB ? tlb_costs : cache_costs);
	size_t shown = ia64_hist_shown(&r->hist, order, r->opts.top, r->opts.cum_threshold);
	uint64_t cum = 0;

	dear_hist_header(r);
	for (size_t i = 0; i < shown; i++) {
		const struct ia64_hist_row *row = &r->hist.rows[order[i]];

		ia64_hist_counts(r, row, &cum);
		if (r->opts.view == PF_VIEW_LEVEL) {
			if (r->dear == IA64_DEAR_TLB)
				fprintf(r->out, "%s\n", ia64_tlb_name((enum ia64_tlb_level)row->key, true));
			else
				fprintf(r->out, "%11" PRIu64 "\n", row->key);
			continue;
		}
		if (r->dear != IA64_DEAR_ALAT)
			for (unsigned j = 0; j < IA64_HIST_LEVELS; j++)
				fprintf(r->out, "%6.2f%% ", ia64_percent(row->level[j], row->count));
		fprintf(r->out, "0x%016" PRIx64 " %s\n", row->key,
			ia64_row_symbol(r, row->key, r->opts.view == PF_VIEW_DATA));
	}
	free(order);
}

static void print_btb_pairs(struct ia64_report *r)
{
	size_t *order = ia64_hist_sorted(&r->hist, IA64_HIST_BY_COUNT, NULL);
	size_t shown = ia64_hist_shown(&r->hist, order, r->opts.top, r->opts.cum_threshold);
	uint64_t cum = 0;

	fprintf(r->out, "# branch pairs: %zu distinct, %" PRIu64 " branches\n"
			"# #count    %%self    %%cum  mispred             source             target\n",
		r->hist.n, r->hist.total);
	for (size_t i = 0; i < shown; i++) {
		const struct ia64_hist_row *row = &r->hist.rows[order[i]];

		ia64_hist_counts(r, row, &cum);
		fprintf(r->out, "%8" PRIu64 " 0x%016" PRIx64 " 0x%016" PRIx64, row->mispredicted, row->key,
			row->key2);
		fprintf(r->out, " %s", ia64_row_symbol(r, row->key, false));
		fprintf(r->out, " -> %s\n", row->key2 ? ia64_row_symbol(r, row->key2, false) : "");
	}
	free(order);
}

/* the one event of a dump's samples, for --annotate */
#define DUMP_EVENT_NAME "dump samples"

int ia64_report_finish(struct ia64_report *r, struct pf_error *err)
{
	static const char *const names[] = { DUMP_EVENT_NAME };

	if (r->annotate)
		return annotate_print(r->annotate, names, r->out, stderr, err);
	switch (r->opts.module) {
	case IA64_MOD_INST_HIST:
		print_inst_hist(r);
		break;
	case IA64_MOD_DEAR_HIST:
		if (r->host_dear)
			ia64_host_dear_print(r);
		else
			print_dear_hist(r);
		break;
	case IA64_MOD_BTB:
		print_btb_pairs(r);
		break;
	case IA64_MOD_C2C:
		if (r->c2c)
			c2c_print(r->c2c, r->out);
		break;
	case IA64_MOD_COMPACT:
		fprintf(r->out, "# total samples %" PRIu64 "\n", r->entry);
		break;
	default:
		break;
	}
	if (r->opts.print_counts && !r->opts.json)
		fprintf(r->out, "# counts\n%20" PRIu64 " samples\n%20" PRIu64
				" sum of the sample periods (period=)\n", r->entry, r->period_sum);
	return 0;
}

void ia64_report_sample(struct ia64_report *r, const struct ia64_dump_sample *s)
{
	struct ia64_iear ie;
	struct ia64_dear de;
	struct ia64_btb bt;
	bool has_ie = r->iear != IA64_IEAR_OFF, has_de = r->dear != IA64_DEAR_OFF;

	if (has_ie)
		ia64_iear_decode(r->iear, s->pmd[0], s->pmd[1], &ie);
	if (has_de)
		ia64_dear_decode(r->dear, s->pmd[2], s->pmd[3], s->pmd[17], &de);
	if (r->btb)
		ia64_btb_decode(r->btb_ds, &s->pmd[8], s->pmd[16], &bt);
	if (r->annotate) {
		annotate_add(r->annotate, 0, sym_resolve(r->res, r->pid, s->ip), 1);
		r->entry++;
		return;
	}
	switch (r->opts.module) {
	case IA64_MOD_DETAILED:
		if (r->opts.json)
			json_sample(r, s, has_ie ? &ie : NULL, has_de ? &de : NULL, r->btb ? &bt : NULL);
		else
			text_sample(r, s, has_ie ? &ie : NULL, has_de ? &de : NULL, r->btb ? &bt : NULL);
		break;
	case IA64_MOD_COMPACT:
		compact_sample(r, s);
		break;
	case IA64_MOD_INST_HIST:
		ia64_hist_count(&r->hist, s->ip, 0);
		break;
	case IA64_MOD_DEAR_HIST:
		dear_count(r, s, &de);
		break;
	case IA64_MOD_BTB:
		if (r->entry == 0)
			fputs("# btb only sampling output format (1 branch event/line)\n", r->out);
		btb_lines(r, &bt);
		break;
	default:
		break;
	}
	if (s->fields & IA64_DUMP_F_PERIOD)
		r->period_sum += s->period;
	r->entry++;
}
