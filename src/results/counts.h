/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The results of a counting run and how a block of them is written:
 * pfmon's text layout, CSV with perf stat -x columns, JSON lines with
 * perf stat -j keys, by the one writer of writer.h. */
#ifndef PFMON_RESULTS_COUNTS_H
#define PFMON_RESULTS_COUNTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "format.h"

enum count_state {
	COUNT_OK,
	COUNT_NOT_COUNTED, /* opened, but never on a counter */
	COUNT_NOT_SUPPORTED, /* this machine cannot count it */
};

struct count_row {
	const char *name;
	int set;
	enum count_state state;
	bool is_clock; /* a clock event: the value is in ns */
	uint64_t raw, enabled, running;
	const char *fstr; /* canonical string, for -v */
	/* one count is scale units (a sysfs event's .scale and .unit: RAPL's
	 * energy in Joules); scale 0 and unit NULL: a plain count */
	double scale;
	const char *unit;
	/* raw is a scaled count already (read back from saved results):
	 * enabled and running only say which share of the time it ran */
	bool prescaled;
	/* perf stat -r: raw is the mean of the runs' scaled counts (the
	 * report's runs), variance_pct the relative standard error of that
	 * mean, as perf's "( +- 0.52% )"; run_values each run's count */
	double variance_pct;
	const uint64_t *run_values;
};

/* value scaled for multiplexing: raw * enabled / running */
uint64_t count_scaled(const struct count_row *r);
/* percentage of the enabled time the event was on a counter */
double count_running_pct(const struct count_row *r);

/* The task a block of results belongs to (per-task results), or none. */
struct count_task {
	int pid, tid, ppid;
	const char *name; /* the command, or the program of one exec */
};

struct metric_list;
struct metric_value;
struct results_header;

struct count_report {
	const struct count_row *rows;
	size_t n_rows;
	size_t runs; /* perf stat -r N: the rows are means of N runs; 0: one run */
	const struct count_task *task; /* NULL: the whole run */
	/* system-wide, one CPU's block (pfmon 3.x: "CPU<n>" first); wide: the
	 * session has several CPUs (counts 26 wide, names padded) */
	bool per_cpu, wide;
	int cpu;
	/* system-wide counts summed over a group of CPUs (perf stat
	 * --per-core, ...): perf's JSON key ("core"), the group's name
	 * ("S0-D0-C1") and how many CPUs it sums (perf's aggregate-number) */
	const char *aggr_key, *aggr_label;
	int aggr_nr;
	/* --print-interval: the end of the interval, seconds since the start
	 * (perf stat -I's first column); the rows are its deltas */
	bool interval;
	double interval_s;
	/* derived metrics (results/metric.h): on their count line, or after the counts */
	const struct metric_list *metric_defs;
	const struct metric_value *metrics;
	size_t n_metrics;
};

void report_counts(FILE *out, const struct count_report *rep, const struct count_format_opts *fo);
/* --print-interval, text: the line before each round of deltas */
void report_interval_header(FILE *out, double seconds, const struct count_format_opts *fo);
/* --print-interval, text: the line before the run's total ("# total") */
void report_total(FILE *out, const struct count_format_opts *fo);
/* the results header in the output's kind (text and CSV: '#' lines; JSON: one object line) */
void report_results_header(FILE *out, const struct results_header *h, const struct count_format_opts *fo);

/* --perf-style: what perf stat prints around the counts */
struct count_perf_frame {
	const char *target;           /* "'make -j2'", "'system wide'", "process id '42'" */
	size_t runs;                  /* -r's runs; 0 or 1: one run */
	double elapsed_s, elapsed_sd_s; /* the real time; -r: the runs' mean and its standard error */
	bool rusage;                  /* one run of a command: its user and sys seconds */
	bool null_run;                /* perf stat -n: no count came before the times */
	double user_s, sys_s;
};
/* " Performance counter stats for 'CMD' (N runs):" and its blank lines */
void report_perf_heading(FILE *out, const struct count_perf_frame *f);
/* the elapsed seconds (-r: "+- SD ( +- PCT% )"), the user and sys seconds */
void report_perf_footer(FILE *out, const struct count_perf_frame *f);

/* --show-time: "real 0h00m00.098s user 0h00m00.000s sys 0h00m00.095s" (ns each) */
void report_times(FILE *out, uint64_t real_ns, uint64_t user_ns, uint64_t sys_ns);

#endif
