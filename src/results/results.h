/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A counting run's results file as a merge reads it: the header that says
 * which rank of which job wrote it (rank, size, host, job id, the command,
 * the events and their encodings, start and end times), and the counts.
 * The header is pfmon 3.x's --with-header, '#' lines before the counts in
 * text and CSV, and in JSON a first line {"pfmon-header": {...}}.
 * results_write.c writes the header (the writer's results_header, written
 * by report_results_header); results.c reads such files back.
 */
#ifndef PFMON_RESULTS_RESULTS_H
#define PFMON_RESULTS_RESULTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "common/job.h"
#include "counts.h"
#include "format.h"

/* the results header's own version: a merge refuses another major */
#define RESULTS_FORMAT_MAJOR 1
#define RESULTS_FORMAT_MINOR 1 /* 1.1: the job's step, array task, heterogeneous job */

/* one event as programmed: what a merge compares between ranks */
struct results_event {
	const char *name;
	int set;
	uint32_t type;
	uint64_t config, config1, config2;
	bool exclude_user, exclude_kernel, exclude_hv;
};

/* the machine, for pfmon 3.x's header lines: the caller asks the system
 * (results/ makes no system calls but writing its output) */
struct results_host {
	char kernel[200]; /* "sysname release machine" (uname), "" if unknown */
	long page_size, cpus_configured, cpus_online;
	long clk_tck;             /* sysconf(_SC_CLK_TCK) */
	unsigned long long mem_kb; /* physical memory, 0 if unknown */
	char cpu[256];            /* the CPU as /proc/cpuinfo describes it, "" if unknown */
	char caches[256];         /* "L1d 32K, L1i 32K, L2 1024K" (sysfs), "" if unknown */
};

/* an event as given on the command line, for pfmon 3.x's header lines */
struct results_given_event {
	const char *event;
	size_t set;
	bool user, kernel; /* the privilege levels asked for (neither: the default) */
};

struct results_header {
	const char *pmu_name, *pmu_desc;
	const struct results_host *host;
	const struct job_identity *job;
	uint64_t start_ns, end_ns; /* CLOCK_REALTIME, ns since the epoch */
	const struct results_event *events;
	size_t n_events;
	const char **metrics; /* the metrics asked for with -M, by name */
	size_t n_metrics;
	/* pfmon 3.x's lines: the events as given, the command, the mode */
	const struct results_given_event *given;
	size_t n_given;
	char *const *command; /* argv, NULL-terminated; NULL: none */
	bool system_wide, aggregate, follow_children;
	const char *cpu_grouping; /* system-wide, perf stat --per-core, ...: "per core"; NULL: per CPU */
};

/* the names of enum pf_output_kind and enum pf_counter_format in the header */
extern const char *const results_output_names[3];
extern const char *const results_format_names[4];

/* the encoding of an event as the header writes it (and a merge compares) */
void results_event_encoding(const struct results_event *e, char *buf, size_t size);

/* ----- reading a results file back (pfmon --merge) ----- */

struct results_file {
	char *path;
	unsigned version_major, version_minor;
	uint32_t rank, size;
	char *host, *job_id, *launcher, *command, *pfmon_version;
	/* "none" when the header (before 1.1) or the launcher gives none */
	char *step, *array_job, *array_task, *het_job;
	long pid;
	uint64_t start_ns, end_ns;
	/* the header's events in its order, their counts as the saved-counts
	 * reader makes them (prescaled; names owned; sets from the header) */
	struct count_row *values;
	char **encodings; /* of each value, from the header's event lines */
	size_t n_values;
	char **metrics; /* -M names */
	size_t n_metrics;
	/* system-wide per-CPU results: the CPUs whose rows the values add up
	 * (none: one row an event) */
	int *cpus;
	size_t n_cpus;
};

/* A part (a CPU's count) into a sum of parts: a part not counted leaves
 * the sum not counted, as a part is not the total.  False when the sum
 * would pass 2^64 (it is left as it was). */
bool results_count_add(struct count_row *sum, const struct count_row *part);

/* Read one results file, len bytes of text (NUL bytes refused), from path:
 * the header here, the counts by the saved-counts reader (counts_read.h).
 * 0, or -1 with err naming the file (and line). */
int results_parse(const char *text, size_t len, const char *path, struct results_file *rf, struct pf_error *err);
void results_file_release(struct results_file *rf);

#endif
