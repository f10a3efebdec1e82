/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The results header (pfmon(1), CLUSTER RUNS): the writer's results_header
 * operation of each kind (writer.c's tables), and the event encoding a
 * merge compares.
 */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/json_writer.h"
#include "common/util.h"
#include "results.h"
#include "writer.h"

const char *const results_output_names[3] = { "text", "csv", "json" };
const char *const results_format_names[4] = { "plain", "us", "eu", "hex" };

/* ----- writing ----- */

static const char *plm_text(const struct results_given_event *e)
{
	static const char *const names[] = { "default", "kernel", "user", "user,kernel" };
	unsigned i = (e->user ? 2 : 0) | (e->kernel ? 1 : 0);

	return names[i];
}


void results_event_encoding(const struct results_event *e, char *buf, size_t size)
{
	snprintf(buf, size, "type=%" PRIu32 " config=%#" PRIx64 " config1=%#" PRIx64 " config2=%#" PRIx64
		 " exclude_user=%d exclude_kernel=%d exclude_hv=%d", e->type, e->config, e->config1, e->config2,
		 e->exclude_user, e->exclude_kernel, e->exclude_hv);
}

static void ns_text(uint64_t ns, char *buf, size_t size)
{
	snprintf(buf, size, "%" PRIu64 ".%09" PRIu64, ns / 1000000000u, ns % 1000000000u);
}

static void command_text(struct strbuf *sb, const struct results_header *h)
{
	for (char *const *a = h->command; a && *a; a++) {
		if (a != h->command)
			strbuf_addch(sb, ' ');
		strbuf_add_escaped(sb, *a); /* a newline in an argument must not forge a header line */
	}
}

/* pfmon 3.x's --with-header lines */
static void header_text_pfmon3(FILE *out, const struct results_header *h)
{
	char date[64] = "?";
	time_t end = (time_t)(h->end_ns / 1000000000u); /* the header is written at the end */
	struct tm tm;
	struct strbuf cmd = STRBUF_INIT;

	if (localtime_r(&end, &tm))
		strftime(date, sizeof(date), "%a %b %e %H:%M:%S %Y", &tm);
	fprintf(out, "#\n# date: %s\n# hostname: ", date);
	fput_escaped(out, h->job->host);
	fputc('\n', out);
	if (h->host->kernel[0])
		fprintf(out, "# kernel version: %s\n", h->host->kernel);
	fprintf(out, "# pfmon version: %s\n# page size: %ld\n# CPUs: %ld configured, %ld online\n",
		PACKAGE_VERSION, h->host->page_size, h->host->cpus_configured, h->host->cpus_online);
	fprintf(out, "# CLK_TCK: %ld\n", h->host->clk_tck);
	if (h->host->mem_kb)
		fprintf(out, "# physical memory: %llu kB\n", h->host->mem_kb);
	if (h->host->cpu[0])
		fprintf(out, "# CPU: %s\n", h->host->cpu);
	if (h->host->caches[0])
		fprintf(out, "# caches: %s\n", h->host->caches);
	fprintf(out, "# PMU: %s (%s)\n", h->pmu_name, h->pmu_desc);
	for (size_t i = 0; i < h->n_given; i++)
		fprintf(out, "#\tset%zu: %s = %s\n", h->given[i].set, h->given[i].event, plm_text(&h->given[i]));
	command_text(&cmd, h);
	fprintf(out, "# command: %s\n", strbuf_str(&cmd));
	strbuf_release(&cmd);
	if (h->system_wide)
		fprintf(out, "# monitoring mode: system-wide, %s\n",
			h->aggregate ? "CPUs aggregated" : h->cpu_grouping ? h->cpu_grouping : "per CPU");
	else
		fprintf(out, "# monitoring mode: per-thread%s\n", h->follow_children ? ", following children" : "");
}

/* which launch of the job, which task of its array: a merge groups by them */
static void job_lines(FILE *out, const struct job_identity *job)
{
	fputs("\n# job step: ", out);
	fput_escaped(out, job->step);
	fputs("\n# array job id: ", out);
	fput_escaped(out, job->array_job);
	fputs("\n# array task id: ", out);
	fput_escaped(out, job->array_task);
	fputs("\n# het job id: ", out);
	fput_escaped(out, job->het_job);
}

/* what a merge needs, one "key: value" a line */
static void header_text_job(FILE *out, const struct count_format_opts *fo, const struct results_header *h)
{
	char start[32], end[32], enc[256];

	ns_text(h->start_ns, start, sizeof(start));
	ns_text(h->end_ns, end, sizeof(end));
	fprintf(out, "# results format: %d.%d\n# output: %s\n", RESULTS_FORMAT_MAJOR, RESULTS_FORMAT_MINOR,
		results_output_names[fo->kind]);
	if (fo->kind == PF_OUT_CSV)
		fprintf(out, "# csv separator: %s\n", fo->csv_sep);
	fprintf(out, "# counter format: %s\n", results_format_names[fo->counter_format]);
	fprintf(out, "# rank: %u\n# job size: %u\n# job id: ", h->job->rank, h->job->size);
	fput_escaped(out, h->job->job_id);
	job_lines(out, h->job);
	fprintf(out, "\n# launcher: %s\n# pid: %ld\n# start: %s\n# end: %s\n", h->job->launcher, h->job->pid,
		start, end);
	for (size_t i = 0; i < h->n_events; i++) {
		results_event_encoding(&h->events[i], enc, sizeof(enc));
		fprintf(out, "# event: set%d ", h->events[i].set);
		fput_escaped(out, h->events[i].name);
		fprintf(out, " %s\n", enc);
	}
	for (size_t i = 0; i < h->n_metrics; i++)
		fprintf(out, "# metric: %s\n", h->metrics[i]);
	fputs("#\n", out);
}

/* JSON: one line {"pfmon-header": {...}} */
void json_results_header(struct count_writer *cw, const struct results_header *h)
{
	struct json_writer *w = &cw->json;
	struct strbuf cmd = STRBUF_INIT;
	char start[32], end[32], enc[256], version[32];

	ns_text(h->start_ns, start, sizeof(start));
	ns_text(h->end_ns, end, sizeof(end));
	snprintf(version, sizeof(version), "%d.%d", RESULTS_FORMAT_MAJOR, RESULTS_FORMAT_MINOR);
	json_begin_object(w);
	json_key(w, "pfmon-header");
	json_begin_object(w);
	json_key_string(w, "results-format", version);
	json_key_string(w, "pfmon-version", PACKAGE_VERSION);
	json_key_uint(w, "rank", h->job->rank);
	json_key_uint(w, "job-size", h->job->size);
	json_key_string(w, "job-id", h->job->job_id);
	json_key_string(w, "job-step", h->job->step);
	json_key_string(w, "array-job-id", h->job->array_job);
	json_key_string(w, "array-task-id", h->job->array_task);
	json_key_string(w, "het-job-id", h->job->het_job);
	json_key_string(w, "launcher", h->job->launcher);
	json_key_string(w, "hostname", h->job->host);
	json_key(w, "pid");
	json_int(w, h->job->pid);
	json_key_string(w, "start", start);
	json_key_string(w, "end", end);
	json_key_string(w, "pmu", h->pmu_name);
	command_text(&cmd, h);
	json_key_string(w, "command", strbuf_str(&cmd));
	strbuf_release(&cmd);
	json_key(w, "events");
	json_begin_array(w);
	for (size_t i = 0; i < h->n_events; i++) {
		results_event_encoding(&h->events[i], enc, sizeof(enc));
		json_begin_object(w);
		json_key_string(w, "event", h->events[i].name);
		json_key(w, "set");
		json_int(w, h->events[i].set);
		json_key_string(w, "encoding", enc);
		json_end_object(w);
	}
	json_end_array(w);
	json_key(w, "metrics");
	json_begin_array(w);
	for (size_t i = 0; i < h->n_metrics; i++)
		json_string(w, h->metrics[i]);
	json_end_array(w);
	json_end_object(w);
	json_end_object(w);
	json_newline(w);
}

/* text and CSV: pfmon 3.x's '#' lines, then a merge's */
void text_results_header(struct count_writer *w, const struct results_header *h)
{
	header_text_pfmon3(w->out, h);
	header_text_job(w->out, w->fo, h);
}
