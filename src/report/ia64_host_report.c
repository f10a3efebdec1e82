/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pfmon's own sample files and perf.data (host samples) through the
 * sampling modules that need no EAR or BTB: detailed, compact, inst-hist,
 * and dear-hist by the samples' latencies.
 */
#include <config.h>

#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "report/ia64_report_int.h"
#include "sample/data_src.h"
#include "sample/ibs.h"
#include "sample/smpl_file.h"

/* "DATA_SRC: 0x...", then each part named as perf script -F data_src
 * names it: |OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 hit|LCK No|BLK N/A */
static void data_src_line(FILE *out, uint64_t v)
{
	static const struct {
		const char *label;
		enum data_src_part part;
	} parts[] = {
		{ "OP", DATA_SRC_PART_OP },     { "LVL", DATA_SRC_PART_MEM },	 { "SNP", DATA_SRC_PART_SNOOP },
		{ "TLB", DATA_SRC_PART_TLB },   { "LCK", DATA_SRC_PART_LOCK }, { "BLK", DATA_SRC_PART_BLOCKED },
	};
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(parts); i++) {
		strbuf_addf(&sb, "|%s ", parts[i].label);
		data_src_name(&sb, v, parts[i].part);
	}
	fprintf(out, "\tDATA_SRC: 0x%" PRIx64 " %s\n", v, strbuf_str(&sb));
	strbuf_release(&sb);
}

/* an IBS sample's registers, each field named */
static void ibs_lines(FILE *out, const struct smpl_header *h, const struct sample *s)
{
	const struct smpl_event *e = s->evidx < h->nr_events ? &h->events[s->evidx] : NULL;
	struct ibs_cpu cpu = { h->cpu_family, h->cpu_model };
	struct strbuf sb = STRBUF_INIT;
	struct ibs_sample ibs;

	if (!e || e->ibs == IBS_NONE || !s->raw)
		return;
	if (!ibs_read(e->ibs, s->raw, s->raw_size, &ibs))
		strbuf_addf(&sb, "\tIBS: %u bytes, too short for its registers\n", s->raw_size);
	else
		ibs_print(&sb, &ibs, &cpu);
	fputs(strbuf_str(&sb), out);
	strbuf_release(&sb);
}

static void host_detailed(struct ia64_report *r, const struct smpl_header *h, const struct sample *s,
			  const char *event)
{
	FILE *out = r->out;

	put_str(out, "entry ");
	put_uint(out, r->entry, 10);
	put_id(out, "PID", s->fields & SAMPLE_F_TID, s->pid, 10);
	put_id(out, "TID", s->fields & SAMPLE_F_TID, s->tid, 10);
	put_id(out, "CPU", s->fields & SAMPLE_F_CPU, s->cpu, 10);
	put_id(out, "STAMP", s->fields & SAMPLE_F_TIME, s->time, 16);
	put_id(out, "OVFL", true, s->evidx, 10);
	put_id(out, "LAST_VAL", s->fields & SAMPLE_F_PERIOD, s->period, 10);
	put_str(out, " SET:0 IIP:");
	put_hex16(out, s->ip);
	ia64_put_sym(r, s->ip, false);
	fprintf(out, "\n\tEVENT : %s\n", event);
	if (s->fields & SAMPLE_F_ADDR) {
		put_str(out, "\tADDR  : ");
		put_hex16(out, s->addr);
		ia64_put_sym(r, s->addr, true);
		putc_unlocked('\n', out);
	}
	if (s->fields & SAMPLE_F_WEIGHT)
		fprintf(out, "\tWEIGHT: %" PRIu64 "\n", s->weight);
	if (s->fields & SAMPLE_F_INS_LAT)
		fprintf(out, "\tINS_LAT: %" PRIu32 "\n", s->ins_lat);
	if (s->fields & SAMPLE_F_P_STAGE_CYC)
		fprintf(out, "\tP_STAGE_CYC: %" PRIu16 "\n", s->p_stage_cyc);
	if (s->fields & SAMPLE_F_DATA_SRC)
		data_src_line(out, s->data_src);
	for (uint32_t i = 0; i < s->read_nr; i++)
		fprintf(out, "\tREAD%-2u: %" PRIu64 "\n", i, s->read[i]);
	/* the branch stack oldest first, a chronological trace like the BTB's */
	for (uint32_t i = s->branch_nr; i-- > 0;) {
		const struct sample_branch *b = &s->branches[i];

		put_str(out, "\tBRANCH: source addr=");
		put_hex16(out, b->from);
		ia64_put_sym(r, b->from, false);
		put_str(out, " target addr=");
		put_hex16(out, b->to);
		ia64_put_sym(r, b->to, false);
		put_str(out, b->flags & SAMPLE_BR_MISPRED ? " prediction=failure\n" : " prediction=success\n");
	}
	for (uint32_t i = 0; i < s->callchain_nr; i++)
		fprintf(out, "\tCALLCHAIN%-2u: 0x%016" PRIx64 "\n", i, s->callchain[i]);
	ibs_lines(out, h, s);
}

static void host_compact(struct ia64_report *r, const struct sample *s)
{
	FILE *out = r->out;

	if (r->entry == 0)
		ia64_compact_header(out);
	ia64_compact_entry(out, r->entry);
	ia64_compact_field(out, s->fields & SAMPLE_F_TID, s->pid, 10);
	ia64_compact_field(out, s->fields & SAMPLE_F_TID, s->tid, 10);
	ia64_compact_field(out, s->fields & SAMPLE_F_CPU, s->cpu, 10);
	ia64_compact_field(out, s->fields & SAMPLE_F_TIME, s->time, 16);
	ia64_compact_field(out, true, s->evidx, 10);
	ia64_compact_field(out, s->fields & SAMPLE_F_PERIOD, s->period, 10);
	put_str(out, " 0 ");
	put_hex16(out, s->ip);
	for (uint32_t i = 0; i < s->read_nr; i++)
		fprintf(out, " %" PRIu64, s->read[i]);
	fputc('\n', out);
}

/*
 * dear-hist of host samples: the heirs of the D-EAR (PEBS load latency,
 * IBS op, SPE) give each sampled access's latency as its weight, where the
 * Itanium 2 gave PMD3's.  Its buckets, in cycles, each 4 times the last:
 * an L1 hit is within the first, a memory access in the last two on any
 * machine of today; the level itself is the memory profile's (mem key).
 */
static const uint64_t lat_bucket_max[IA64_HIST_LAT_BUCKETS - 1] = { 15, 63, 255, 1023 };

static unsigned lat_bucket(uint64_t lat)
{
	unsigned b = 0;

	while (b < IA64_HIST_LAT_BUCKETS - 1 && lat > lat_bucket_max[b])
		b++;
	return b;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* A sample's row name in a named view, as the profile's keys name it:
 * the variable and its binary (symbol_daddr), the type, or the source
 * line (else the function); "[unknown]" when nothing tells */
static void view_name(struct ia64_report *r, const struct sample *s, struct strbuf *sb)
{
	bool user = (s->cpumode & SAMPLE_CPUMODE_MASK) == PERF_RECORD_MISC_USER;
	const struct sym_result *res = NULL;
	struct sym_dtype t = { NULL, NULL };

	switch (r->opts.view) {
	case PF_VIEW_OBJECT:
		res = sym_resolve_data(r->res, s->pid, s->addr);
		if (res && res->func && res->binary)
			strbuf_addf(sb, "%s (%s)", res->func, base_name(res->binary));
		else if (res && res->binary)
			strbuf_addf(sb, "[unknown] (%s)", base_name(res->binary));
		break;
	case PF_VIEW_TYPE:
		if (user)
			sym_resolve_dtype(r->res, s->pid, s->ip, s->addr, &t);
		if (t.type)
			strbuf_addstr(sb, t.type);
		break;
	default: /* the line */
		res = user ? sym_resolve(r->res, s->pid, s->ip) : NULL;
		if (res && res->file && res->line)
			strbuf_addf(sb, "%s:%u", res->file, res->line);
		else if (res && res->func && res->binary)
			strbuf_addf(sb, "%s (%s)", res->func, base_name(res->binary));
		break;
	}
	if (!sb->len)
		strbuf_addstr(sb, "[unknown]");
}

/* the index of a row's name, given one the first time it comes */
static uint64_t view_id(struct ia64_report *r, const char *name)
{
	uint64_t id = strmap_get(&r->view_ids, name);

	if (id)
		return id - 1;
	XGROW(r->view_names, r->cap_view_names, r->n_view_names);
	r->view_names[r->n_view_names] = xstrdup(name);
	strmap_add(&r->view_ids, name, ++r->n_view_names);
	return r->n_view_names - 1;
}

/* the row key of a sample: an address (of one process: the same address
 * is another object in another), a latency, or a name's index */
static struct ia64_hist_row *dear_row(struct ia64_report *r, const struct sample *s)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t id;

	switch (r->opts.view) {
	case PF_VIEW_LEVEL:
		return ia64_hist_count(&r->hist, s->weight, 0);
	case PF_VIEW_INST:
		return ia64_hist_count(&r->hist, s->ip, s->pid);
	case PF_VIEW_DATA:
		return ia64_hist_count(&r->hist, s->addr, s->pid);
	default:
		view_name(r, s, &sb);
		id = view_id(r, strbuf_str(&sb));
		strbuf_release(&sb);
		return ia64_hist_count(&r->hist, id, 0);
	}
}

/* the views that need a data address */
static bool view_of_data(enum pf_smpl_view v)
{
	return v == PF_VIEW_DATA || v == PF_VIEW_OBJECT || v == PF_VIEW_TYPE;
}

/* a sample into the histogram, by its view's row */
static void host_dear_count(struct ia64_report *r, const struct sample *s)
{
	struct ia64_hist_row *row;

	r->host_dear = true;
	if (!(s->fields & SAMPLE_F_WEIGHT) || (view_of_data(r->opts.view) && !(s->fields & SAMPLE_F_ADDR))) {
		r->invalid++;
		return;
	}
	row = dear_row(r, s);
	row->lat[lat_bucket(s->weight)]++;
	row->weight += s->weight;
}

static void host_dear_header(struct ia64_report *r)
{
	static const char *const views[] = { "instruction addr", "data addr", "latency", "data object", "data type",
					     "source line" };
	static const char *const sorts[] = { "count", "value", "latency" };
	FILE *out = r->out;

	fprintf(out, "# total samples %" PRIu64 "\n", r->hist.total);
	fprintf(out, "# samples without a latency%s (not counted) %" PRIu64 "\n",
		view_of_data(r->opts.view) ? " or a data address" : "", r->invalid);
	fprintf(out, "# %s view\n# sorted by %s\n", views[r->opts.view], sorts[r->opts.sort]);
	if (r->opts.view == PF_VIEW_LEVEL) {
		fputs("# #count    %self    %cum lat(cycles)\n", out);
		return;
	}
	fputs("# latency of each row's samples, % in cycles up to", out);
	for (unsigned b = 0; b < IA64_HIST_LAT_BUCKETS - 1; b++)
		fprintf(out, " %" PRIu64, lat_bucket_max[b]);
	fputs(", above; and their average\n# #count    %self    %cum ", out);
	for (unsigned b = 0; b < IA64_HIST_LAT_BUCKETS - 1; b++)
		fprintf(out, " %6s%-4" PRIu64, "<=", lat_bucket_max[b]);
	fprintf(out, " %6s%-4" PRIu64 " %8s %18s\n", ">", lat_bucket_max[IA64_HIST_LAT_BUCKETS - 2], "avg",
		views[r->opts.view]);
}

struct named_row {
	const char *name;
	size_t row;
};

static int cmp_named_rows(const void *a, const void *b)
{
	return strcmp(((const struct named_row *)a)->name, ((const struct named_row *)b)->name);
}

/* --smpl-sort-byvalue of a named view: the rows by name */
static void order_by_name(struct ia64_report *r, size_t *order)
{
	struct named_row *v = xcalloc(r->hist.n ? r->hist.n : 1, sizeof(*v));

	for (size_t i = 0; i < r->hist.n; i++)
		v[i] = (struct named_row){ r->view_names[r->hist.rows[i].key], i };
	qsort(v, r->hist.n, sizeof(*v), cmp_named_rows);
	for (size_t i = 0; i < r->hist.n; i++)
		order[i] = v[i].row;
	free(v);
}

void ia64_host_dear_print(struct ia64_report *r)
{
	enum ia64_hist_order ord = r->opts.sort == PF_SORT_VALUE ? IA64_HIST_BY_VALUE :
				   r->opts.sort == PF_SORT_LEVEL ? IA64_HIST_BY_WEIGHT : IA64_HIST_BY_COUNT;
	size_t *order = ia64_hist_sorted(&r->hist, ord, NULL);
	size_t shown;
	uint64_t cum = 0;

	if (pf_smpl_view_named(r->opts.view) && r->opts.sort == PF_SORT_VALUE)
		order_by_name(r, order);
	shown = ia64_hist_shown(&r->hist, order, r->opts.top, r->opts.cum_threshold);
	host_dear_header(r);
	for (size_t i = 0; i < shown; i++) {
		const struct ia64_hist_row *row = &r->hist.rows[order[i]];

		ia64_hist_counts(r, row, &cum);
		if (r->opts.view == PF_VIEW_LEVEL) {
			fprintf(r->out, "%11" PRIu64 "\n", row->key);
			continue;
		}
		for (unsigned b = 0; b < IA64_HIST_LAT_BUCKETS; b++)
			fprintf(r->out, "%9.2f%% ", ia64_percent(row->lat[b], row->count));
		fprintf(r->out, "%8.1f ", (double)row->weight / (double)row->count);
		if (pf_smpl_view_named(r->opts.view)) {
			fprintf(r->out, "%s\n", r->view_names[row->key]);
			continue;
		}
		r->pid = (uint32_t)row->key2;
		fprintf(r->out, "0x%016" PRIx64 " %s\n", row->key,
			ia64_row_symbol(r, row->key, r->opts.view == PF_VIEW_DATA));
	}
	free(order);
}

struct ia64_report *ia64_report_host_new(const struct ia64_report_opts *opts, FILE *out, struct pf_error *err)
{
	struct ia64_report *r;

	if (!ia64_smpl_module_for_host(opts->module)) {
		pf_error_set(err, PF_E_MODULE_NEEDS, ia64_smpl_module_name(opts->module),
			     "an Itanium 2 dump (--pmu=itanium2)", "sample files hold no EAR or BTB registers");
		return NULL;
	}
	if (opts->json && opts->module != IA64_MOD_C2C) {
		pf_error_set(err, PF_E_OPTION_APPLIES, "--report-format=json", "Itanium 2 dumps with --smpl-module");
		return NULL;
	}
	r = ia64_report_new(opts, out);
	if (opts->module == IA64_MOD_C2C)
		r->c2c = c2c_new(r->res, opts->json, opts->top);
	if (ia64_report_load_symbols(r, err)) {
		ia64_report_free(r);
		return NULL;
	}
	/* inst-hist says it in its own header, after the samples */
	if (opts->per_cpu && opts->module != IA64_MOD_INST_HIST)
		fprintf(out, "# results for CPU%d\n", opts->cpu);
	return r;
}

int ia64_report_host_record(struct ia64_report *r, const struct smpl_header *h,
			    const struct sample_record *rec, struct pf_error *err)
{
	struct sym_maps *maps = sym_resolver_maps(r->res);
	const struct sample *s = &rec->sample;

	switch (rec->type) {
	case SREC_MMAP:
		ia64_names_clear(r);
		sym_maps_add(maps, rec->mmap.pid, rec->mmap.start, rec->mmap.len, rec->mmap.pgoff,
			     rec->mmap.filename);
		return 0;
	case SREC_FORK:
		if (rec->task.pid != rec->task.ppid) {
			ia64_names_clear(r);
			sym_maps_fork(maps, rec->task.ppid, rec->task.pid);
		}
		return 0;
	case SREC_COMM:
		if (r->c2c)
			c2c_comm(r->c2c, rec->comm.tid, rec->comm.comm);
		if (rec->comm.exec) {
			ia64_names_clear(r);
			sym_maps_clear(maps, rec->comm.pid);
		}
		return 0;
	case SREC_SAMPLE:
		break;
	default:
		return 0;
	}
	r->pid = s->pid;
	switch (r->opts.module) {
	case IA64_MOD_DETAILED:
		host_detailed(r, h, s, s->evidx < h->nr_events ? h->events[s->evidx].name : "?");
		break;
	case IA64_MOD_COMPACT:
		host_compact(r, s);
		break;
	case IA64_MOD_INST_HIST:
		/* one row per (process, address): the same address names another
		 * binary in another process */
		ia64_hist_count(&r->hist, s->ip, s->pid);
		break;
	case IA64_MOD_DEAR_HIST:
		host_dear_count(r, s);
		break;
	case IA64_MOD_C2C:
		c2c_sample(r->c2c, s);
		break;
	default:
		return pf_error_set(err, PF_E_MODULE_NEEDS, ia64_smpl_module_name(r->opts.module),
				    "an Itanium 2 dump (--pmu=itanium2)", "sample files hold no EAR or BTB registers");
	}
	r->period_sum += s->period;
	r->entry++;
	return 0;
}
