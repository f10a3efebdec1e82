/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reporting from a sample file: the same profile as at the end of a run. */
#include <config.h>

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "report_setup.h"
#include "common/util.h"
#include "report/ia64_dump_report.h"
#include "report/ia64_report.h"
#include "report/kernel_check.h"
#include "report/profile.h"
#include "results/output.h"
#include "sample/lbr_stack.h"
#include "sample/sample_out.h"
#include "sample/sample_source.h"
#include "sample/smpl_file.h"
#include "symbol/symbol.h"

/* --smpl-module on pfmon's own sample file: its samples one by one (the
 * first record already read, unless first is NULL), as a live run feeds
 * them to the module (cmd_record.c) */
static int report_module(const struct pf_config *cfg, struct smpl_reader *rd,
			 const struct sample_record *first, struct pf_error *err)
{
	struct ia64_report_opts ro;
	struct sample_record rec;
	struct ia64_report *r;
	int rc = 0;

	if (host_module_options(cfg, &ro, err))
		return -1;
	r = ia64_report_host_new(&ro, stdout, err);
	if (!r)
		return -1;
	rc = 1; /* after the end, the reader says 0 again */
	if (first && ia64_report_host_record(r, smpl_reader_header(rd), first, err))
		rc = -1;
	while (rc > 0 && (rc = smpl_reader_next(rd, &rec, err)) > 0)
		if (ia64_report_host_record(r, smpl_reader_header(rd), &rec, err))
			rc = -1;
	if (rc == 0 && ia64_report_finish(r, err))
		rc = -1;
	ia64_report_free(r);
	if (rc == 0)
		sample_source_warn(cfg->report_file, smpl_reader_status(rd));
	/* a live run prints the events' counts: its sample file keeps none */
	if (rc == 0 && cfg->smpl_print_counts)
		fprintf(stderr, "note: '%s' keeps no counts: --smpl-print-counts gives the number of its samples "
			"and the sum of their periods\n", cfg->report_file);
	return rc < 0 ? -1 : 0;
}

/*
 * Every record into the profile, the first already read.  A regular file
 * is read again from its start by a reading thread, which decodes and folds
 * the samples while this thread profiles them (PFMON_READ_THREADS not 0);
 * perf script's sample by sample takes each sample in this thread.
 */
static int read_into(struct profile *p, const struct pf_config *cfg, enum profile_format format, unsigned threads,
		     struct smpl_reader *r, const struct sample_record *first, struct smpl_status *st,
		     struct pf_error *err)
{
	struct sample_source src = { .r = r };
	const struct sample_record *rec;
	const char *path = cfg->report_file;
	struct stat sb;
	uint64_t count;
	int rc;

	if (threads && !profile_format_each_sample(format) && stat(path, &sb) == 0 && S_ISREG(sb.st_mode))
		src.ra = smpl_readahead_start(&path, 1, 1, true, &(struct smpl_read_opts){ true, cfg->stitch_lbr });
	if (!src.ra && first)
		profile_add(p, first);
	while ((rc = sample_source_next(&src, &rec, &count, err)) > 0)
		profile_add_n(p, rec, count);
	*st = *sample_source_status(&src);
	if (src.ra)
		smpl_readahead_stop(src.ra);
	return rc;
}

/* the profile, as at the end of a run (the first record already read) */
static int report_profile(const struct pf_config *cfg, struct smpl_reader *r,
			  const struct sample_record *first, struct pf_error *err)
{
	struct profile_opts po;
	struct smpl_status st;
	struct profile *p;
	unsigned threads;
	int rc;

	if (cfg->smpl_print_counts || cfg->smpl_view_given || cfg->smpl_sort_given)
		return pf_error_set(err, PF_E_OPTION_APPLIES, cfg->smpl_print_counts ? "--smpl-print-counts"
				    : cfg->smpl_view_given ? "--smpl-*-view" : "--smpl-sort-*",
				    MODULE_APPLIES);
	if (sample_read_threads(&threads, err))
		return -1;
	po = profile_opts_from_config(cfg);
	if (profile_symbol_file(cfg, stdout, &po.kernel_symbols, err))
		return -1;
	p = profile_new(&po, smpl_reader_header(r));
	rc = read_into(p, cfg, po.format, threads, r, first, &st, err);
	/* a corrupted file still shows what came before the damage */
	profile_set_status(p, &st);
	profile_print(p, stdout);
	if (rc == 0 && profile_print_status(p, err))
		rc = -1;
	profile_print_warnings(p, stderr);
	if (rc == 0)
		profile_print_notes(p, stderr);
	profile_print_lost(p, stderr);
	if (rc == 0)
		sample_source_warn(cfg->report_file, &st);
	profile_free(p);
	sym_symfile_free(po.kernel_symbols);
	return rc < 0 ? -1 : 0;
}

/* A pfmon file's kernel record says which boot took the samples; in this
 * boot, the running kernel's _text goes with it, so that perf report can
 * relocate kallsyms and name the kernel frames. */
static int export_record(struct sample_out *o, const struct sample_record *rec, struct pf_error *err)
{
	struct sample_record k;
	struct kernel_check kc;

	if (rec->type != SREC_KERNEL || rec->kernel.text_addr)
		return sample_out_record(o, rec, err);
	k = *rec;
	memset(&kc, 0, sizeof(kc));
	kernel_check_record(&kc, &k.kernel);
	if (kernel_check_same(&kc))
		k.kernel.text_addr = sym_kernel_text_address();
	return sample_out_record(o, &k, err);
}

/* --export-perf-data: every record read, into a perf.data file (the first
 * record already read); a file cut short is converted up to the damage,
 * and said so */
static int export_perf_data(const struct pf_config *cfg, struct smpl_reader *r,
			    const struct sample_record *first, struct pf_error *err)
{
	struct sample_out_opts so = { SAMPLE_OUT_PERF, (int)cfg->compression_level };
	struct sample_out *o = sample_out_open(cfg->export_perf_data, &so, smpl_reader_header(r), err);
	struct sample_record rec;
	struct pf_error why;
	int rc = 1; /* after the end, the reader says 0 again */

	if (!o)
		return -1;
	if (first && export_record(o, first, err))
		rc = -1;
	while (rc > 0 && (rc = smpl_reader_next(r, &rec, err)) > 0)
		if (export_record(o, &rec, err))
			rc = -1;
	/* what was read is kept even after a damaged record: the error says where */
	if (sample_out_close(o, rc < 0 ? &why : err) && rc >= 0)
		rc = -1;
	if (rc == 0)
		sample_source_warn(cfg->report_file, smpl_reader_status(r));
	return rc < 0 ? -1 : 0;
}

/* The reader's options: a report's samples of LBR call stacks with their
 * user stacks (an exported file keeps the records as they are), stitched
 * with --stitch-lbr: for the profile, of a file whose LBR call stacks say
 * where they overlap.  Set before the first record. */
static int read_setup(const struct pf_config *cfg, struct smpl_reader *r, struct pf_error *err)
{
	struct smpl_read_opts ro = { .lbr_call_stacks = !cfg->export_perf_data, .stitch_lbr = cfg->stitch_lbr };
	const char *why;

	if (cfg->stitch_lbr && (cfg->export_perf_data || cfg->dump_aux || host_module_wanted(cfg)))
		return pf_error_set(err, PF_E_OPTION_APPLIES, "--stitch-lbr",
				    "the profile's call stacks (not --export-perf-data, --dump-aux or a sampling module)");
	why = cfg->stitch_lbr ? lbr_stitch_unable(smpl_reader_header(r)) : NULL;
	if (why)
		return pf_error_set(err, PF_E_STITCH_LBR_FILE, cfg->report_file, why);
	smpl_reader_set_opts(r, &ro);
	return 0;
}

static int report(const struct pf_config *cfg, struct pf_error *err)
{
	struct ia64_dump_report_opts dump;
	struct sample_record first;
	struct smpl_reader *r;
	int rc;

	/* with the Itanium 2 model the file is a PMD dump */
	if (pmu_model_reads_dumps(cfg->pmu) && cfg->stitch_lbr)
		return pf_error_set(err, PF_E_OPTION_APPLIES, "--stitch-lbr", "host samples' LBR call stacks, not Itanium 2 dumps");
	if (pmu_model_reads_dumps(cfg->pmu))
		return dump_report_opts(cfg, &dump, err) ? -1 : ia64_dump_report(&dump, err);
	r = smpl_reader_open(cfg->report_file, err);
	if (!r)
		return -1;
	if (read_setup(cfg, r, err)) {
		smpl_reader_close(r);
		return -1;
	}
	/* a dump's sample file (1.3) starts with its Itanium 2 configuration;
	 * a perf.data file is not read here: a reading thread may read it */
	rc = smpl_reader_is_perf_data(r) ? 0 : smpl_reader_next(r, &first, err);
	if (rc >= 0 && (cfg->export_perf_data || cfg->dump_aux) && (cfg->symbol_file || cfg->sysmap_file))
		rc = pf_error_set(err, PF_E_OPTION_NOT_USED, cfg->symbol_file ? "--symbol-file" : "--sysmap-file",
				  cfg->export_perf_data ? "with --export-perf-data" : "with --dump-aux",
				  " (it names addresses in a report)");
	else if (rc > 0 && first.type == SREC_IA64_CONFIG && cfg->export_perf_data)
		rc = pf_error_set(err, PF_E_OPTION_NOT_USED, "--export-perf-data", "with an Itanium 2 dump",
				  " (its samples, PMD registers, have no perf.data form)");
	else if (rc > 0 && first.type == SREC_IA64_CONFIG)
		rc = dump_report_opts(cfg, &dump, err) ? -1 : ia64_dump_report_file(&dump, r, &first, err);
	else if (rc >= 0 && cfg->dump_aux)
		rc = smpl_reader_dump_aux(r, stdout, err);
	else if (rc >= 0 && cfg->export_perf_data)
		rc = export_perf_data(cfg, r, rc > 0 ? &first : NULL, err);
	else if (rc >= 0 && host_module_wanted(cfg))
		rc = report_module(cfg, r, rc > 0 ? &first : NULL, err);
	else if (!host_module_wanted(cfg))
		/* even after an error at the first record: the profile says
		 * what came before the damage (nothing), then the error */
		rc = report_profile(cfg, r, rc > 0 ? &first : NULL, err);
	smpl_reader_close(r);
	return rc < 0 ? -1 : 0;
}

/* A report standard output could not take (a reader gone, a full disk) is
 * an error, said in one line, as for counts (pfmon(1) FAILURES): never a
 * silent death by SIGPIPE.  An error reading the file comes first. */
int cmd_report(const struct pf_config *cfg, struct pf_error *err)
{
	int rc = report(cfg, err);

	if (results_close(stdout, NULL, rc ? NULL : err))
		rc = -1;
	return rc;
}
