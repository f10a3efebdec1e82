/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sampling: encode, plan (periods, counted events, sample fields), run a
 * session, report.  The records the session drains are written to the
 * sample file and fed to the profile at the same time.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "metrics.h"
#include "common/util.h"
#include "kernel/perf.h"
#include "report/profile.h"
#include "pmu/sysfs_pmu.h"
#include "report/record_kernel.h"
#include "sample/lbr_stack.h"
#include "sample/perf_record.h"
#include "sample/sample_out.h"
#include "sample/smpl_file.h"
#include "symbol/symbol.h"
#include "session/plan.h"
#include "session/session.h"
#include "count_rows.h"
#include "record_modules.h"
#include "report_setup.h"
#include "results_setup.h"
#include "session_setup.h"

static uint64_t clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct record_run {
	const struct pf_config *cfg;
	const struct metric_run *metrics; /* --smpl-print-counts: the counts' shadow metrics */
	struct set_prog *sets;
	size_t n_sets;
	struct record_plan plan;
	struct session *session;
	struct sample_out *writer;
	struct profile *profile;
	struct record_modules *module; /* --smpl-module: it prints, not the profile */
	struct sym_symfile *kernel_syms; /* the profile's --symbol-file / --sysmap-file */
	struct smpl_header header;
	struct lbr_stacks *lbr; /* the profile's LBR call stacks (the file keeps the records) */
	bool file_failed; /* the sample file was given up (write_failed) */
	char levels_note[512]; /* lower_default_levels' note, said once the counters are open */
	uint64_t start_ns, duration_ns; /* the run's, CLOCK_MONOTONIC: the counts' rates */
};

/*
 * A sample file that cannot be written (a full disk, a file-size limit, a
 * reader gone) is given up at the first error, said once, on one line: the
 * command runs on and the profile, in memory, still gets every record.
 */
static void write_failed(struct record_run *rr, const struct pf_error *why)
{
	fprintf(stderr, "error: %s: the sample file stops there; the profile keeps every sample\n", why->msg);
	profile_record_binaries(rr->profile, NULL);
	if (rr->writer)
		sample_out_close(rr->writer, NULL);
	rr->writer = NULL;
	rr->file_failed = true;
}

/* each record the session drains: into the sample file and the profile */
static int take_record(const struct sample_record *rec, void *arg, struct pf_error *err)
{
	struct record_run *rr = arg;
	struct pf_error why;

	(void)err; /* a record that cannot be written does not end the run */
	if (rr->writer && sample_out_record(rr->writer, rec, &why))
		write_failed(rr, &why);
	/* the profile still names the kernel symbols and binaries the file keeps */
	if (rec->type == SREC_SAMPLE || rec->type == SREC_FORK) {
		struct sample_record stack = *rec;

		lbr_stacks_apply(rr->lbr, &stack);
		profile_add(rr->profile, &stack);
	} else {
		profile_add(rr->profile, rec);
	}
	return rr->module ? record_modules_record(rr->module, &rr->header, rec, err) : 0;
}

static void fill_header(struct record_run *rr, int argc, char **argv)
{
	struct smpl_header *h = &rr->header;
	const struct record_plan *p = &rr->plan;

	memset(h, 0, sizeof(*h));
	h->clockid = p->randomized ? CLOCK_MONOTONIC : -1;
	h->argc = (uint32_t)argc;
	h->argv = argv;
	h->recorder_argc = (uint32_t)rr->cfg->own_argc;
	h->recorder_argv = rr->cfg->own_argv;
	if (rr->cfg->job_known) { /* the rank that wrote the file, for pfmon --merge */
		h->has_job = true;
		h->rank = rr->cfg->job.rank;
		h->size = rr->cfg->job.size;
		h->host = (char *)rr->cfg->job.host;
		h->job_id = (char *)rr->cfg->job.job_id;
		h->launcher = (char *)rr->cfg->job.launcher;
	}
	/* the LBR's depth, for --stitch-lbr, as perf record keeps it */
	h->max_branches = sysfs_pmu_lbr_depth();
	h->nr_events = (uint32_t)p->n_events;
	h->events = xcalloc(p->n_events + 1, sizeof(*h->events));
	for (size_t i = 0; i < p->n_events; i++) {
		const struct perf_event_attr *a = &p->events[i]->attr;

		h->events[i] = (struct smpl_event){
			.name = p->events[i]->name,
			/* a sample's period: the kernel's in frequency mode,
			 * else pfmon's own, which the session puts in it */
			.fields = perf_attr_fields(a) | (p->counting[i] ? 0 : SAMPLE_F_PERIOD),
			.attr_type = a->type,
			.attr_config = a->config,
			.sample_type = a->sample_type,
			.branch_sample_type = a->branch_sample_type,
			.freq = a->freq,
			/* the base period, not the first random one */
			.period = a->freq ? a->sample_freq : p->random[i].base,
			.random_mask = p->random[i].mask,
			.counting = p->counting[i],
			.n_reads = p->reads[i].n,
		};
		memcpy(h->events[i].reads, p->reads[i].idx, sizeof(p->reads[i].idx));
		if (!p->reads[i].n)
			h->events[i].fields &= ~SAMPLE_F_READ;
	}
}

static void run_release(struct record_run *rr)
{
	session_free(rr->session);
	record_plan_release(&rr->plan);
	free(rr->header.events);
	for (size_t i = 0; i < rr->n_sets; i++)
		set_prog_release(&rr->sets[i]);
	free(rr->sets);
	profile_free(rr->profile);
	record_modules_free(rr->module);
	lbr_stacks_free(rr->lbr);
	sym_symfile_free(rr->kernel_syms);
}

/* kernel software events, breakpoints and tracepoints never record a
 * latency or a data source: the kernel would take the request and store
 * zeros, so it is refused before anything runs */
static bool records_no_memory_info(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE || a->type == PERF_TYPE_BREAKPOINT || a->type == PERF_TYPE_TRACEPOINT;
}

static int check_memory_fields(const struct record_plan *p, struct pf_error *err)
{
	for (size_t i = 0; i < p->n_events; i++) {
		const struct perf_event_attr *a = &p->events[i]->attr;

		if (p->counting[i] || !(a->sample_type & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC)) ||
		    !records_no_memory_info(a))
			continue;
		/* a usage error naming the event (BAD_MODIFIER: "event '%s': %s", exit 2) */
		return pf_error_set(err, PF_E_BAD_MODIFIER, p->events[i]->name,
				    a->sample_type & PERF_SAMPLE_WEIGHT
					    ? "--smpl-weight needs a hardware event that records latencies; software "
					      "events and breakpoints never do"
					    : "--smpl-data-src needs a hardware event that records data sources; software "
					      "events and breakpoints never do");
	}
	return 0;
}

/* encode, decide the plan, give the events their sampling fields */
static int plan_run(struct record_run *rr, const struct pmu_model *m, struct pf_error *err)
{
	uint64_t seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	struct record_opts ro;
	int rc;

	if (config_encode_sets(rr->cfg, m, &rr->sets, &rr->n_sets, err))
		return -1;
	lower_default_levels(rr->cfg, rr->sets, rr->n_sets, rr->levels_note, sizeof(rr->levels_note));
	config_record_opts(rr->cfg, &ro);
	rc = record_plan_build(&rr->plan, &ro, rr->sets, rr->n_sets, seed, err);
	if (!rc)
		record_plan_apply(&rr->plan, &ro);
	config_record_opts_release(&ro);
	return rc ? -1 : check_memory_fields(&rr->plan, err);
}

/* after each drain: the file is flushed, kernel frames named early */
static int drained(void *arg, struct pf_error *err)
{
	struct record_run *rr = arg;

	struct pf_error why;

	(void)err;
	profile_prefetch_kernel(rr->profile);
	if (rr->writer && sample_out_flush(rr->writer, &why))
		write_failed(rr, &why);
	return 0;
}

/* the kernel symbols that named samples, the end record: a failure here
 * loses the file, never the profile */
static void finish_file(struct record_run *rr)
{
	struct sample_out *w = rr->writer;
	struct pf_error why;

	if (w && record_kernel_symbols(w, rr->profile, &why)) {
		write_failed(rr, &why);
		return;
	}
	if (!w)
		return;
	profile_record_binaries(rr->profile, NULL);
	rr->writer = NULL;
	if (sample_out_close(w, &why))
		write_failed(rr, &why);
}

/* --smpl-format: the names were checked when the options were parsed */
static enum sample_out_format smpl_format(const struct pf_config *cfg)
{
	enum sample_out_format f = SAMPLE_OUT_PFMON;

	sample_out_format_from_name(cfg->smpl_format, &f);
	return f;
}

static bool sample_stream_on_stdout(const struct pf_config *cfg)
{
	return cfg->smpl_outfile && !strcmp(cfg->smpl_outfile, "-");
}

/*
 * --smpl-print-counts: the events' final counts after the samples, as
 * pfmon 3.x printed them: what a counting run prints for these events
 * (its layout, scaling, <not counted>), a CPU's each system-wide unless
 * --aggregate-results.
 */
static int print_counts(struct record_run *rr, FILE *out, struct pf_error *err)
{
	const struct pf_config *cfg = rr->cfg;
	const struct count_print_opts po = count_print_opts_from_config(cfg);
	struct count_blocks cb;
	int rc;

	if (!cfg->smpl_print_counts)
		return 0;
	if (cfg->system_wide && !cfg->aggregate)
		rc = count_blocks_cpus(rr->session, NULL, rr->metrics, rr->duration_ns, &cb, err);
	else
		rc = count_blocks_run(rr->session, rr->metrics, rr->duration_ns, &cb, err);
	if (!rc)
		rc = count_results_print(out, &(struct count_results){ .blocks = cb.blocks, .n_blocks = cb.n }, &po,
					 err);
	count_blocks_release(&cb);
	return rc;
}

/*
 * The profile goes to stdout, or to stderr when stdout carries the sample
 * file (--smpl-outfile=-).  When stdout cannot take it (a full disk, a
 * closed descriptor, a reader gone), stderr gets it and one error says why.
 */
static int print_profile(struct record_run *rr, struct pf_error *err)
{
	FILE *out = sample_stream_on_stdout(rr->cfg) ? stderr : stdout;
	int failed, e;

	kperf_test_pause("PFMON_TEST_REPORT_DELAY");
	if (rr->module && (record_modules_finish(rr->module, err) || print_counts(rr, out, err)))
		return -1;
	if (!rr->cfg->smpl_raw && !rr->module) /* --smpl-raw: the samples went to their file alone */
		profile_print(rr->profile, out);
	failed = out == stdout && fflush(stdout) != 0;
	e = failed ? errno : EIO;
	if (failed || (out == stdout && ferror(stdout))) {
		if (!rr->module)
			profile_print(rr->profile, stderr);
		profile_print_lost(rr->profile, stderr);
		return pf_error_set(err, PF_E_OUTPUT, "standard output", strerror(e));
	}
	profile_print_lost(rr->profile, stderr);
	if (rr->module) /* the profile's notes are about its own names */
		return 0;
	profile_print_warnings(rr->profile, stderr);
	profile_print_notes(rr->profile, stderr);
	return profile_print_status(rr->profile, err);
}

/* the session, and with --smpl-module (or --smpl-compact) the module a
 * report of the sample file would use (cmd_report.c), fed the same records
 * as they are drained, a CPU's each system-wide; its symbols loaded, and
 * listed with --print-syms, before the sample file is created */
static int new_session(struct record_run *rr, struct pf_error *err)
{
	struct session_opts so = session_opts_from_config(rr->cfg);

	rr->session = session_new(rr->sets, rr->n_sets, &rr->plan, &so);
	return record_modules_open(rr->cfg, rr->session, sample_stream_on_stdout(rr->cfg) ? stderr : stdout,
				   &rr->module, err);
}

static int run_session(struct record_run *rr, int *status, struct pf_error *err)
{
	rr->start_ns = clock_ns();
	if (session_open_target(rr->session, rr->cfg, err))
		return -1;
	fputs(rr->levels_note, stderr);
	if (session_run(rr->session, &(struct session_sink){ .record = take_record, .drained = drained, .arg = rr },
			status, err))
		return -1;
	session_note_end(rr->session, rr->cfg);
	rr->duration_ns = clock_ns() - rr->start_ns;
	return 0;
}


int cmd_record(const struct pf_config *cfg, const struct pmu_model *m, struct metric_run *run,
	       struct pf_error *err)
{
	struct record_run rr = { .cfg = cfg, .metrics = run };
	struct profile_opts po = profile_opts_from_config(cfg);
	int status = 0, rc, argc = 0;

	while (cfg->command && cfg->command[argc])
		argc++;
	rc = plan_run(&rr, m, err);
	/* the counts --smpl-print-counts prints bear their shadow metrics, as
	 * a counting run's do */
	if (!rc && cfg->smpl_print_counts)
		rc = metrics_add_shadows(run, rr.sets, rr.n_sets, err);
	/* the profile's kernel symbols, listed before the command starts (a
	 * module reads its own: new_session) */
	if (!rc && !host_module_wanted(cfg))
		rc = profile_symbol_file(cfg, sample_stream_on_stdout(cfg) ? stderr : stdout, &rr.kernel_syms, err);
	po.kernel_symbols = rr.kernel_syms;
	if (!rc) {
		fill_header(&rr, argc, cfg->command);
		rr.profile = profile_new(&po, &rr.header);
		rr.lbr = lbr_stacks_new(&rr.header, cfg->stitch_lbr);
		rc = new_session(&rr, err);
	}
	if (!rc && cfg->stitch_lbr && !rr.header.max_branches)
		rc = pf_error_set(err, PF_E_STITCH_LBR_HOST, sysfs_pmu_root());
	if (!rc) {
		if (cfg->smpl_outfile) {
			struct sample_out_opts so = { smpl_format(cfg), (int)cfg->compression_level };

			rr.writer = sample_out_open(cfg->smpl_outfile, &so, &rr.header, err);
			rc = rr.writer ? 0 : -1;
		}
		if (!rc)
			rc = record_kernel_identity(rr.writer, rr.profile, err);
	}
	if (!rc)
		rc = run_session(&rr, &status, err);
	if (!rc) {
		profile_finish(rr.profile);
		finish_file(&rr);
		rc = print_profile(&rr, err);
	} else if (rr.writer) {
		sample_out_close(rr.writer, NULL);
	}
	run_release(&rr);
	if (rc)
		return -1;
	/* the one error line was printed when the file failed */
	return rr.file_failed ? PF_EXIT_ERROR : status;
}
