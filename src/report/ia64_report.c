/* Itanium 2 EAR/BTB samples: pfmon 3.x's detailed module, as text and as JSON lines. */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "report/ia64_report.h"
#include "report/json_writer.h"
#include "sample/ia64_ear.h"
#include "symbol/symbol.h"

/* the dump's maps hold for every process: they are kept under one pid */
#define DUMP_PID 0

static const char *const module_names[] = { "detailed" };

struct ia64_report {
	struct ia64_report_opts opts;
	FILE *out;
	struct sym_resolver *res;
	enum ia64_iear_mode iear;
	enum ia64_dear_mode dear;
	bool btb, btb_ds;
	uint64_t entry;
	struct json_writer json;
	char sym[512], line[512]; /* the last address named */
};

bool ia64_smpl_module_from_name(const char *name, enum ia64_smpl_module *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(module_names); i++)
		if (!strcmp(name, module_names[i])) {
			*out = (enum ia64_smpl_module)i;
			return true;
		}
	return false;
}

struct ia64_report *ia64_report_new(const struct ia64_report_opts *opts, FILE *out)
{
	struct ia64_report *r = xcalloc(1, sizeof(*r));

	r->opts = *opts;
	r->out = out;
	r->res = sym_resolver_new(opts->debug_root);
	json_init(&r->json, out, false);
	return r;
}

void ia64_report_free(struct ia64_report *r)
{
	if (!r)
		return;
	sym_resolver_free(r->res);
	free(r);
}

void ia64_report_config(struct ia64_report *r, const struct ia64_dump_config *c)
{
	r->iear = c->has_pmc10 ? ia64_iear_mode_of(c->pmc10) : IA64_IEAR_OFF;
	r->dear = c->has_pmc11 ? ia64_dear_mode_of(c->pmc11) : IA64_DEAR_OFF;
	r->btb = c->has_pmc12;
	r->btb_ds = c->has_pmc12 && ia64_btb_ds_of(c->pmc12);
}

void ia64_report_map(struct ia64_report *r, const struct ia64_dump_map *m)
{
	sym_maps_add(sym_resolver_maps(r->res), DUMP_PID, m->start, m->end - m->start, m->offset,
		     m->path);
}

/*
 * Name addr into r->sym ("func+0x10", "" if unknown) and r->line
 * ("file:line", "" if unknown).  Code addresses carry the slot in their
 * low bits; the symbol code looks up the bundle (sym_dso.c).
 */
static void name_address(struct ia64_report *r, uint64_t addr, bool data)
{
	const struct sym_result *res = data ? sym_resolve_data(r->res, DUMP_PID, addr)
					    : sym_resolve(r->res, DUMP_PID, addr);

	r->sym[0] = r->line[0] = '\0';
	if (!res || !res->func)
		return;
	if (res->offset)
		snprintf(r->sym, sizeof(r->sym), "%s+0x%" PRIx64, res->func, res->offset);
	else
		snprintf(r->sym, sizeof(r->sym), "%s", res->func);
	if (res->file && res->line)
		snprintf(r->line, sizeof(r->line), "%s:%u", res->file, res->line);
}

/* ---- JSON ---- */

static void json_hex(struct json_writer *w, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	json_string(w, buf);
}

/* "key": "0x...", then "key_symbol" and "key_line" when the maps name it */
static void json_address(struct ia64_report *r, const char *key, uint64_t addr, bool data)
{
	char k[64];

	json_key(&r->json, key);
	json_hex(&r->json, addr);
	name_address(r, addr, data);
	if (r->sym[0]) {
		snprintf(k, sizeof(k), "%s_symbol", key);
		json_key(&r->json, k);
		json_string(&r->json, r->sym);
	}
	if (r->line[0]) {
		snprintf(k, sizeof(k), "%s_line", key);
		json_key(&r->json, k);
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

static const char *yes_no(bool v)
{
	return v ? "y" : "n";
}

/* " <sym>" or "" */
static const char *text_sym(struct ia64_report *r, uint64_t addr, bool data)
{
	static char buf[sizeof(((struct ia64_report *)0)->sym) + 3];

	name_address(r, addr, data);
	if (!r->sym[0])
		return "";
	snprintf(buf, sizeof(buf), " <%s>", r->sym);
	return buf;
}

static void text_id(FILE *out, const char *label, bool has, uint64_t v)
{
	if (has)
		fprintf(out, " %s:%" PRIu64, label, v);
	else
		fprintf(out, " %s:-", label);
}

static void text_iear(struct ia64_report *r, const struct ia64_iear *e)
{
	fprintf(r->out, "\tPMD0  : valid=%s, cache line addr=0x%016" PRIx64 "%s", yes_no(e->valid),
		e->address, text_sym(r, e->address, false));
	if (e->mode == IA64_IEAR_TLB)
		fprintf(r->out, ", TLB:%s\n", e->valid ? ia64_tlb_name(e->tlb, false) : "-");
	else
		fprintf(r->out, "\n\tPMD1  : latency=%u cycles, latency overflow=%s\n", e->latency,
			yes_no(e->overflow));
}

static void text_dear(struct ia64_report *r, const struct ia64_dear *d)
{
	if (d->has_data_address)
		fprintf(r->out, "\tPMD2  : miss addr=0x%016" PRIx64 "%s\n", d->data_address,
			text_sym(r, d->data_address, true));
	fprintf(r->out, "\tPMD3  : valid=%s", yes_no(d->valid));
	if (d->has_latency)
		fprintf(r->out, ", latency=%u cycles, latency overflow=%s", d->latency,
			yes_no(d->overflow));
	if (d->mode == IA64_DEAR_TLB && d->valid)
		fprintf(r->out, ", TLB:%s", ia64_tlb_name(d->tlb, true));
	fputc('\n', r->out);
	fprintf(r->out, "\tPMD17 : valid=%s", yes_no(d->has_iaddr));
	if (d->has_iaddr)
		fprintf(r->out, ", instr addr=0x%016" PRIx64 " slot %u%s", d->iaddr, d->slot,
			text_sym(r, d->iaddr | d->slot, false));
	fputc('\n', r->out);
}

static const char *prediction(const struct ia64_btb_entry *e)
{
	if (!e->mispredicted)
		return "success";
	return e->bruflush ? "BE failure" : "FE failure";
}

static void text_btb(struct ia64_report *r, const struct ia64_btb *b)
{
	for (unsigned i = 0; i < b->nr_entries; i++) {
		const struct ia64_btb_entry *e = &b->entries[i];

		fprintf(r->out, "\tPMD%-2u : ", e->pmd);
		if (e->kind == IA64_BTB_BRANCH)
			fprintf(r->out, "source addr=0x%016" PRIx64 " slot %s taken=%s prediction=%s%s\n",
				e->address, e->taken ? (const char *[]){ "0", "1", "2" }[e->slot] : "-",
				yes_no(e->taken), prediction(e), text_sym(r, e->address | e->slot, false));
		else if (e->kind == IA64_BTB_TARGET)
			fprintf(r->out, "target addr=0x%016" PRIx64 "%s\n", e->address,
				text_sym(r, e->address, false));
		else
			fprintf(r->out, "prediction detail=0x%05x branch addr bits=0x%016" PRIx64 "\n",
				e->detail, e->address);
	}
}

static void text_sample(struct ia64_report *r, const struct ia64_dump_sample *s,
			const struct ia64_iear *ie, const struct ia64_dear *de,
			const struct ia64_btb *bt)
{
	FILE *out = r->out;

	fprintf(out, "entry %" PRIu64, r->entry);
	text_id(out, "PID", s->fields & IA64_DUMP_F_PID, s->pid);
	text_id(out, "TID", s->fields & IA64_DUMP_F_TID, s->tid);
	text_id(out, "CPU", s->fields & IA64_DUMP_F_CPU, s->cpu);
	if (s->fields & IA64_DUMP_F_TIME)
		fprintf(out, " STAMP:0x%" PRIx64, s->time);
	else
		fputs(" STAMP:-", out);
	/* a dump does not say which PMD overflowed */
	fputs(" OVFL:-", out);
	text_id(out, "LAST_VAL", s->fields & IA64_DUMP_F_PERIOD, s->period);
	fprintf(out, " SET:0 IIP:0x%016" PRIx64 "%s\n", s->ip, text_sym(r, s->ip, false));
	if (ie)
		text_iear(r, ie);
	if (de)
		text_dear(r, de);
	if (bt)
		text_btb(r, bt);
	/* the PMDs no configured unit explains, raw */
	for (unsigned n = 0; n < IA64_DUMP_NR_PMDS; n++) {
		bool decoded = (ie && n <= 1) || (de && (n == 2 || n == 3 || n == 17)) ||
			       (bt && n >= 8 && n <= 16);

		if ((s->pmd_mask & (1u << n)) && !decoded)
			fprintf(out, "\tPMD%-2u : 0x%016" PRIx64 "\n", n, s->pmd[n]);
	}
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
	if (r->opts.json)
		json_sample(r, s, has_ie ? &ie : NULL, has_de ? &de : NULL, r->btb ? &bt : NULL);
	else
		text_sample(r, s, has_ie ? &ie : NULL, has_de ? &de : NULL, r->btb ? &bt : NULL);
	r->entry++;
}
