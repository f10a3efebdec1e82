/*
 * Sampling: encode, plan (periods, counted events, sample fields), run a
 * session, report.  The records the session drains are written to the
 * sample file and fed to the profile at the same time.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "common/util.h"
#include "report/profile.h"
#include "sample/perf_record.h"
#include "sample/smpl_file.h"
#include "target/plan.h"
#include "target/session.h"

struct record_run {
	const struct pf_config *cfg;
	struct set_prog *sets;
	size_t n_sets;
	struct record_plan plan;
	struct session *session;
	struct smpl_writer *writer;
	struct profile *profile;
	struct smpl_header header;
};

/* each record the session drains: into the sample file and the profile */
static int take_record(const struct sample_record *rec, void *arg, struct pf_error *err)
{
	struct record_run *rr = arg;

	if (rr->writer && smpl_write_record(rr->writer, rec, err))
		return -1;
	profile_add(rr->profile, rec);
	return 0;
}

static void fill_header(struct record_run *rr, int argc, char **argv)
{
	struct smpl_header *h = &rr->header;
	const struct record_plan *p = &rr->plan;

	memset(h, 0, sizeof(*h));
	h->clockid = p->randomized ? CLOCK_MONOTONIC : -1;
	h->argc = (uint32_t)argc;
	h->argv = argv;
	h->nr_events = (uint32_t)p->n_events;
	h->events = xcalloc(p->n_events + 1, sizeof(*h->events));
	for (size_t i = 0; i < p->n_events; i++) {
		const struct perf_event_attr *a = &p->events[i]->attr;

		h->events[i] = (struct smpl_event){
			.name = p->events[i]->name,
			.fields = perf_sample_fields(a->sample_type),
			.attr_type = a->type,
			.attr_config = a->config,
			.sample_type = a->sample_type,
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
}

/* encode, decide the plan, give the events their sampling fields */
static int plan_run(struct record_run *rr, const struct pmu_model *m, struct pf_error *err)
{
	uint64_t seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);

	if (pmu_encode_config(m, rr->cfg, &rr->sets, &rr->n_sets, err) ||
	    record_plan_build(&rr->plan, rr->cfg, rr->sets, rr->n_sets, seed, err))
		return -1;
	record_plan_apply(&rr->plan, rr->cfg);
	return 0;
}

struct profile_opts profile_opts_from_config(const struct pf_config *cfg)
{
	struct profile_opts po = {
		.top = cfg->smpl_show_top,
		.cum_threshold = cfg->smpl_cum_threshold,
		.resolve = cfg->resolve_addresses,
	};

	/* the names were checked when the options were parsed */
	profile_sort_from_name(cfg->report_sort, &po.sort);
	profile_format_from_name(cfg->report_format, &po.format);
	return po;
}

void warn_lost(uint64_t lost, uint64_t throttled)
{
	if (lost)
		fprintf(stderr, "warning: %llu samples lost (the ring buffer was full): raise --smpl-entries "
				"or lower the sampling rate\n", (unsigned long long)lost);
	if (throttled)
		fprintf(stderr, "warning: the kernel throttled sampling %llu times (rate above "
				"kernel.perf_event_max_sample_rate)\n", (unsigned long long)throttled);
}

/* after each drain: the file is flushed, kernel frames named early */
static int drained(void *arg, struct pf_error *err)
{
	struct record_run *rr = arg;

	profile_prefetch_kernel(rr->profile);
	return rr->writer ? smpl_writer_flush(rr->writer, err) : 0;
}

static int run_session(struct record_run *rr, int *status, struct pf_error *err)
{
	struct session_opts so = session_opts_from_config(rr->cfg);

	rr->session = session_new(rr->sets, rr->n_sets, &rr->plan, &so);
	if (session_open_target(rr->session, rr->cfg, err) ||
	    session_run(rr->session, &(struct session_sink){ .record = take_record, .drained = drained, .arg = rr }, status, err))
		return -1;
	session_note_end(rr->session, rr->cfg);
	return 0;
}

int cmd_record(const struct pf_config *cfg, const struct pmu_model *m, struct pf_error *err)
{
	struct record_run rr = { .cfg = cfg };
	struct profile_opts po = profile_opts_from_config(cfg);
	int status = 0, rc, argc = 0;

	while (cfg->command && cfg->command[argc])
		argc++;
	rc = plan_run(&rr, m, err);
	if (!rc) {
		fill_header(&rr, argc, cfg->command);
		rr.profile = profile_new(&po, &rr.header);
		if (cfg->smpl_outfile) {
			rr.writer = smpl_writer_open(cfg->smpl_outfile, &rr.header, err);
			rc = rr.writer ? 0 : -1;
		}
		if (!rc)
			rc = record_kernel_identity(rr.writer, rr.profile, err);
	}
	if (!rc)
		rc = run_session(&rr, &status, err);
	if (!rc)
		profile_finish(rr.profile);
	if (!rc && rr.writer)
		rc = record_kernel_symbols(rr.writer, rr.profile, err);
	if (rr.writer && smpl_writer_close(rr.writer, rc ? NULL : err))
		rc = -1;
	if (!rc) {
		profile_print(rr.profile, stdout);
		warn_lost(profile_lost(rr.profile), profile_throttled(rr.profile));
	}
	run_release(&rr);
	return rc ? -1 : status;
}
