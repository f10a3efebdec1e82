/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A sampling run's module output: one module, or one a CPU of a
 * system-wide run (record_modules.h).  The modules are report/'s, the ones
 * a report of the sample file uses; this file only routes the records.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/record_modules.h"
#include "cli/report_setup.h"
#include "common/util.h"
#include "report/ia64_report.h"

struct record_modules {
	FILE *out;
	size_t n;                    /* 1, or a module a CPU of the session */
	struct ia64_report **module; /* n of them */
	FILE **section;              /* per CPU: each module's temporary file (NULL: one module, into out) */
	const int *cpus;             /* per CPU: the session's CPUs, ascending */
	int *of_cpu;                 /* CPU number -> its module, -1: none */
	int ncpu;                    /* CPU numbers are below this */
};

/* pfmon 3.x: a system-wide run's module output a CPU, unless --aggregate-results */
static bool per_cpu_sections(const struct pf_config *cfg)
{
	return cfg->system_wide && !cfg->aggregate;
}

/* a CPU's module, writing its section into a temporary file: the CPUs'
 * samples come interleaved, their sections are printed one after another */
static int open_cpu_module(struct record_modules *m, size_t i, struct ia64_report_opts ro, struct pf_error *err)
{
	m->section[i] = tmpfile();
	if (!m->section[i])
		return pf_error_set(err, PF_E_SYSTEM, "a temporary file for a CPU's sampling module output",
				    strerror(errno));
	ro.per_cpu = true;
	ro.cpu = m->cpus[i];
	ro.print_syms = false; /* printed once, into the output */
	m->module[i] = ia64_report_host_new(&ro, m->section[i], err);
	m->of_cpu[m->cpus[i]] = (int)i;
	return m->module[i] ? 0 : -1;
}

static int open_per_cpu(struct record_modules *m, const struct session *s, const struct ia64_report_opts *ro,
			struct pf_error *err)
{
	m->n = session_n_cpus(s);
	m->cpus = session_cpus(s);
	m->ncpu = m->cpus[m->n - 1] + 1;
	m->module = xcalloc(m->n, sizeof(*m->module));
	m->section = xcalloc(m->n, sizeof(*m->section));
	m->of_cpu = xcalloc((size_t)m->ncpu, sizeof(*m->of_cpu));
	for (int c = 0; c < m->ncpu; c++)
		m->of_cpu[c] = -1;
	for (size_t i = 0; i < m->n; i++)
		if (open_cpu_module(m, i, *ro, err))
			return -1;
	if (ro->print_syms)
		ia64_report_print_syms(m->module[0], m->out);
	return 0;
}

int record_modules_open(const struct pf_config *cfg, const struct session *s, FILE *out,
			struct record_modules **out_m, struct pf_error *err)
{
	struct ia64_report_opts ro;
	struct record_modules *m;

	*out_m = NULL;
	if (!host_module_wanted(cfg))
		return 0;
	if (host_module_options(cfg, &ro, err))
		return -1;
	/* the run prints the events' counts themselves (cmd_record.c), not
	 * the samples' totals a report of its file can only give */
	ro.print_counts = false;
	m = xcalloc(1, sizeof(*m));
	m->out = out;
	*out_m = m;
	if (per_cpu_sections(cfg))
		return open_per_cpu(m, s, &ro, err);
	m->n = 1;
	m->module = xcalloc(1, sizeof(*m->module));
	m->module[0] = ia64_report_host_new(&ro, out, err);
	return m->module[0] ? 0 : -1;
}

int record_modules_record(struct record_modules *m, const struct smpl_header *h, const struct sample_record *rec,
			  struct pf_error *err)
{
	int cpu = (int)rec->sample.cpu;

	if (!m->section)
		return ia64_report_host_record(m->module[0], h, rec, err);
	/* a sample to its CPU's module; mappings and tasks to every one */
	if (rec->type == SREC_SAMPLE) {
		if (!(rec->sample.fields & SAMPLE_F_CPU) || cpu < 0 || cpu >= m->ncpu || m->of_cpu[cpu] < 0)
			return 0; /* the session opened nothing else: not reached */
		return ia64_report_host_record(m->module[m->of_cpu[cpu]], h, rec, err);
	}
	for (size_t i = 0; i < m->n; i++)
		if (ia64_report_host_record(m->module[i], h, rec, err))
			return -1;
	return 0;
}

/* a CPU's section, from its temporary file into the output */
static int copy_section(FILE *from, FILE *to, struct pf_error *err)
{
	char buf[65536];
	size_t n;

	if (fflush(from) || ferror(from) || fseek(from, 0, SEEK_SET))
		return pf_error_set(err, PF_E_SYSTEM, "a CPU's sampling module output (temporary file)",
				    strerror(errno ? errno : EIO));
	while ((n = fread(buf, 1, sizeof(buf), from)) > 0)
		fwrite(buf, 1, n, to);
	return 0;
}

int record_modules_finish(struct record_modules *m, struct pf_error *err)
{
	for (size_t i = 0; i < m->n; i++) {
		if (ia64_report_finish(m->module[i], err))
			return -1;
		if (m->section && copy_section(m->section[i], m->out, err))
			return -1;
	}
	return 0;
}

void record_modules_free(struct record_modules *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++) {
		ia64_report_free(m->module ? m->module[i] : NULL);
		if (m->section && m->section[i])
			fclose(m->section[i]);
	}
	free(m->module);
	free(m->section);
	free(m->of_cpu);
	free(m);
}
