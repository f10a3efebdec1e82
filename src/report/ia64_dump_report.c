/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pfmon --pmu=itanium2 --report=DUMP: an Itanium 2 PMD dump (pfmon-smpl(5))
 * read as a stream, each sample decoded and printed as it comes, and saved
 * as a sample file with --smpl-outfile.  A report of that file later goes
 * through the same handlers: one report path for both.  The CLI turns its
 * options into ia64_dump_report_opts.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/strmap.h"
#include "common/util.h"
#include "event/pmu_model.h"
#include "report/ia64_dump_report.h"
#include "report/ia64_report.h"
#include "sample/branch.h"
#include "sample/ia64_dump.h"
#include "sample/smpl_file.h"

/* PMC12.tm (bits 9:8): 00 captures no branch, as the PMC12 = 0 that a D-EAR
 * in TLB or ALAT mode writes (C-EAR-3): the BTB is then not in use */
#define PMC12_TM (0x3ull << 8)

struct dump_ctx {
	struct ia64_report *r;
	struct strmap unreadable; /* map= files already reported */
	struct smpl_writer *w;    /* --smpl-outfile, or NULL */
	const char *path;         /* the sample file read, for messages */
	const struct pmu_model *m; /* itanium2 */
	bool *flag_on;            /* per row of m's option table: a dump's btb-*=1 */
	struct profile *branches; /* the branch report instead of the module, or NULL */
	bool btb, btb_ds;         /* the dump's PMC12: the BTB in use, its ds bit */
};

/* Give the model's option 'name' (a flag when arg is NULL) to opts. */
static int model_option(const struct pmu_model *m, void *opts, const char *name, const char *arg,
			struct pf_error *err)
{
	for (size_t r = 0; r < m->n_options; r++)
		if (!strcmp(m->options[r].long_name, name))
			return m->options[r].apply(opts, 0, arg, err);
	return pf_error_set(err, PF_E_UNKNOWN_OPTION, name); /* defensive: the callers name its options */
}

/* A dump's btb-NAME=0|1: the model's flag option NAME, set when 1; the
 * model's option table is the one list of their names. */
static enum ia64_dump_key_status on_btb_option(void *ctx, const char *key, bool on)
{
	struct dump_ctx *d = ctx;

	for (size_t r = 0; r < d->m->n_options; r++) {
		const struct pmu_option *o = &d->m->options[r];

		if (o->arg_name || strcmp(o->long_name, key))
			continue;
		if (d->flag_on[r])
			return IA64_DUMP_KEY_TWICE;
		d->flag_on[r] = on;
		return IA64_DUMP_KEY_OK;
	}
	return IA64_DUMP_KEY_UNKNOWN;
}

/* events= and the BTB/range options: the PMCs the model programs for them (as --check) */
static int config_from_events(const struct dump_ctx *d, struct ia64_dump_config *c,
			      struct pf_error *err)
{
	const struct pmu_model *m = d->m;
	void *opts = m->options_new(1);
	size_t n_events;
	char **events = str_split(c->events, ',', &n_events);
	struct encode_opts o = { .live = true, .model_opts = opts };
	struct set_prog prog;
	int rc = 0;

	if (c->irange)
		rc = model_option(m, opts, "irange", c->irange, err);
	if (!rc && c->drange)
		rc = model_option(m, opts, "drange", c->drange, err);
	for (size_t r = 0; !rc && r < m->n_options; r++)
		if (d->flag_on[r])
			rc = m->options[r].apply(opts, 0, NULL, err);
	if (!rc)
		rc = pmu_encode_events(m, &o, events, n_events, &prog, err);
	m->options_free(opts);
	for (size_t i = 0; i < n_events; i++)
		free(events[i]);
	free(events);
	if (rc)
		return -1;
	for (size_t i = 0; i < prog.n_regs; i++) {
		const struct reg_value *w = &prog.regs[i];

		if (w->file != REG_PMC)
			continue;
		if (w->num == 10)
			c->has_pmc10 = true, c->pmc10 = w->value;
		else if (w->num == 11)
			c->has_pmc11 = true, c->pmc11 = w->value;
		else if (w->num == 12 && (w->value & PMC12_TM))
			c->has_pmc12 = true, c->pmc12 = w->value;
	}
	set_prog_release(&prog);
	return 0;
}

static int on_config(void *ctx, struct ia64_dump_config *c, struct pf_error *err)
{
	struct dump_ctx *d = ctx;

	if (c->events && config_from_events(d, c, err))
		return -1;
	if (d->w) {
		/* the PMCs as programmed, events= turned into them already */
		struct sample_record rec = { .type = SREC_IA64_CONFIG };

		rec.ia64_config.has_pmc10 = c->has_pmc10;
		rec.ia64_config.has_pmc11 = c->has_pmc11;
		rec.ia64_config.has_pmc12 = c->has_pmc12;
		rec.ia64_config.pmc10 = c->pmc10;
		rec.ia64_config.pmc11 = c->pmc11;
		rec.ia64_config.pmc12 = c->pmc12;
		if (smpl_write_record(d->w, &rec, err))
			return -1;
	}
	d->btb = c->has_pmc12;
	d->btb_ds = c->has_pmc12 && ia64_btb_ds_of(c->pmc12);
	if (d->branches && !d->btb)
		return pf_error_set(err, PF_E_OPTION_NEEDS, "--report-sort", "BTB samples",
				    " (the dump gives no pmc12= and no BTB event)");
	return d->branches ? 0 : ia64_report_config(d->r, c, err);
}

/* the BTB's pairs (oldest first) into the branch report, newest first,
 * under the pid the dump's maps hold for */
static void btb_branches(struct dump_ctx *d, const struct ia64_dump_sample *s)
{
	struct ia64_btb bt;
	struct branch v[IA64_BTB_ENTRIES];

	ia64_btb_decode(d->btb_ds, &s->pmd[8], s->pmd[16], &bt);
	for (unsigned i = 0; i < bt.nr_branches; i++)
		branch_from_ia64(&bt.branches[i], &v[bt.nr_branches - 1 - i]);
	profile_add_branches(d->branches, SMPL_IA64_ALL_PIDS, v, bt.nr_branches, 1);
}

/* A map= file that cannot be opened would silently name nothing: say so,
 * once per file. */
static void check_map_file(struct dump_ctx *d, const struct ia64_dump_map *m)
{
	FILE *f = fopen(m->path, "r");

	if (f) {
		fclose(f);
		return;
	}
	if (strmap_get(&d->unreadable, m->path))
		return;
	strmap_add(&d->unreadable, m->path, 1);
	if (m->line)
		fprintf(stderr, "warning: map= line %u: ", m->line);
	else
		fputs("warning: mapping record: ", stderr);
	fputs("cannot open '", stderr);
	fput_escaped(stderr, m->path);
	fprintf(stderr, "': %s; its addresses get no symbols\n", strerror(errno));
}

static int on_map(void *ctx, const struct ia64_dump_map *m, struct pf_error *err)
{
	struct dump_ctx *d = ctx;

	if (d->w) {
		/* the dump's maps hold for every process (SMPL_IA64_ALL_PIDS) */
		struct sample_mmap mm = { .pid = SMPL_IA64_ALL_PIDS, .tid = SMPL_IA64_ALL_PIDS,
					  .start = m->start, .len = m->end - m->start,
					  .pgoff = m->offset, .filename = m->path };

		if (smpl_write_mmap(d->w, &mm, NULL, err))
			return -1;
	}
	check_map_file(d, m);
	if (d->branches) {
		struct sample_record rec = { .type = SREC_MMAP };

		rec.mmap = (struct sample_mmap){ .pid = SMPL_IA64_ALL_PIDS, .tid = SMPL_IA64_ALL_PIDS,
						 .start = m->start, .len = m->end - m->start, .pgoff = m->offset,
						 .filename = m->path };
		profile_add(d->branches, &rec);
		return 0;
	}
	ia64_report_map(d->r, m);
	return 0;
}

static int on_sample(void *ctx, const struct ia64_dump_sample *s, struct pf_error *err)
{
	struct dump_ctx *d = ctx;

	if (d->w) {
		struct sample_record rec = { .type = SREC_IA64_SAMPLE };

		rec.ia64_sample = *s;
		rec.ia64_sample.line = 0;
		if (smpl_write_record(d->w, &rec, err))
			return -1;
	}
	if (d->branches)
		btb_branches(d, s);
	else
		ia64_report_sample(d->r, s);
	return 0;
}

/* --smpl-outfile: the dump as a sample file (the header names no event:
 * the samples are the dump's own records) */
static int open_outfile(const struct ia64_dump_report_opts *o, struct dump_ctx *d, struct pf_error *err)
{
	struct smpl_header h = { .clockid = -1 };

	if (!o->smpl_outfile)
		return 0;
	d->w = smpl_writer_open(o->smpl_outfile, &h, err);
	return d->w ? 0 : -1;
}

/* a dump that fails half-way leaves no file that looks complete */
static int close_outfile(const struct ia64_dump_report_opts *o, struct dump_ctx *d, int rc,
			 struct pf_error *err)
{
	if (!d->w)
		return rc;
	if (smpl_writer_close(d->w, rc ? NULL : err))
		rc = -1;
	if (rc && strcmp(o->smpl_outfile, "-"))
		unlink(o->smpl_outfile);
	return rc;
}

static void dump_ctx_init(struct dump_ctx *d, const struct ia64_dump_report_opts *o)
{
	static const struct smpl_header no_events = { .clockid = -1 };

	d->r = ia64_report_new(&o->report, stdout);
	if (o->branches)
		d->branches = profile_new(&o->profile, &no_events);
	strmap_init(&d->unreadable);
	d->m = pmu_model_dump_reader();
	d->flag_on = xcalloc(d->m->n_options + 1, sizeof(*d->flag_on));
}

/* the report at the end: the module's, or the branch report */
static int dump_finish(struct dump_ctx *d, struct pf_error *err)
{
	if (!d->branches)
		return ia64_report_finish(d->r, err);
	profile_print(d->branches, stdout);
	profile_print_warnings(d->branches, stderr);
	profile_print_notes(d->branches, stderr);
	return 0;
}

static void dump_ctx_release(struct dump_ctx *d)
{
	profile_free(d->branches);
	ia64_report_free(d->r);
	strmap_release(&d->unreadable);
	free(d->flag_on);
}

int ia64_dump_report(const struct ia64_dump_report_opts *o, struct pf_error *err)
{
	static const struct ia64_dump_handler h = { on_config, on_map, on_sample, on_btb_option };
	const char *path = o->path;
	struct dump_ctx d = { 0 };
	FILE *f;
	int rc;

	f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!f)
		return pf_error_set(err, PF_E_INPUT, path, strerror(errno));
	d.path = path;
	dump_ctx_init(&d, o);
	rc = ia64_report_load_symbols(d.r, err);
	if (rc == 0)
		rc = open_outfile(o, &d, err);
	if (rc == 0)
		rc = ia64_dump_read_file(f, path, &h, &d, err);
	rc = close_outfile(o, &d, rc, err);
	if (rc == 0)
		rc = dump_finish(&d, err);
	dump_ctx_release(&d);
	if (f != stdin)
		fclose(f);
	return rc;
}

/* one record of the dump's sample file, through the dump's handlers */
static int file_record(struct dump_ctx *d, const struct sample_record *rec, struct pf_error *err)
{
	struct ia64_dump_config c;
	struct ia64_dump_map m;

	switch (rec->type) {
	case SREC_IA64_CONFIG:
		c = rec->ia64_config;
		c.events = c.irange = c.drange = NULL;
		return on_config(d, &c, err);
	case SREC_MMAP:
		if (!rec->mmap.len || rec->mmap.start + rec->mmap.len < rec->mmap.start ||
		    !rec->mmap.filename || !rec->mmap.filename[0])
			return pf_error_set(err, PF_E_BAD_FILE, d->path,
					    "a mapping record with an empty or wrapping range, or no path");
		m = (struct ia64_dump_map){ .start = rec->mmap.start,
					    .end = rec->mmap.start + rec->mmap.len,
					    .offset = rec->mmap.pgoff, .path = rec->mmap.filename };
		return on_map(d, &m, err);
	case SREC_IA64_SAMPLE:
		return on_sample(d, &rec->ia64_sample, err);
	default:
		return 0; /* the end record; nothing else is written with a dump */
	}
}

int ia64_dump_report_file(const struct ia64_dump_report_opts *o, struct smpl_reader *rd,
			  const struct sample_record *first, struct pf_error *err)
{
	struct sample_record rec;
	struct dump_ctx d = { 0 };
	int rc;

	d.path = o->path;
	dump_ctx_init(&d, o);
	rc = ia64_report_load_symbols(d.r, err) || file_record(&d, first, err) ? -1 : 1;
	while (rc > 0 && (rc = smpl_reader_next(rd, &rec, err)) > 0)
		if (file_record(&d, &rec, err))
			rc = -1;
	if (rc == 0)
		rc = dump_finish(&d, err);
	dump_ctx_release(&d);
	if (rc == 0 && smpl_reader_status(rd)->truncated) {
		fputs("warning: '", stderr);
		fput_escaped(stderr, o->path);
		fprintf(stderr, "' is truncated at offset %llu: the samples after it are lost\n",
			(unsigned long long)smpl_reader_status(rd)->truncated_at);
	}
	return rc < 0 ? -1 : 0;
}
