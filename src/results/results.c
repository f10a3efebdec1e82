/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading a results file back (pfmon --merge): the header here, the counts
 * by the saved-counts reader (counts_read.c), through its hooks. */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "counts_read.h"
#include "json_lib.h"
#include "results.h"

bool results_count_add(struct count_row *sum, const struct count_row *part)
{
	if (part->state != COUNT_OK)
		sum->state = COUNT_NOT_COUNTED;
	if (sum->state != COUNT_OK)
		return true;
	return !__builtin_add_overflow(sum->raw, part->raw, &sum->raw);
}

static void free_values(struct results_file *rf)
{
	for (size_t i = 0; i < rf->n_values; i++) {
		free((char *)rf->values[i].name);
		free(rf->encodings[i]);
	}
	rf->n_values = 0;
	for (size_t i = 0; i < rf->n_metrics; i++)
		free(rf->metrics[i]);
	rf->n_metrics = 0;
	rf->n_cpus = 0;
}

void results_file_release(struct results_file *rf)
{
	free_values(rf);
	free(rf->path);
	free(rf->host);
	free(rf->job_id);
	free(rf->step);
	free(rf->array_job);
	free(rf->array_task);
	free(rf->het_job);
	free(rf->launcher);
	free(rf->command);
	free(rf->pfmon_version);
	free(rf->values);
	free(rf->encodings);
	free(rf->metrics);
	free(rf->cpus);
	memset(rf, 0, sizeof(*rf));
}

/* the rows of the file (cpu -1) or of one CPU: which values they gave */
struct part {
	int cpu;
	const char *group; /* a group of CPUs' name (perf stat --per-core, ...), or "" */
	bool *taken;       /* per value */
};

/* the state of one file being read */
struct reader {
	struct results_file *rf;
	const char *path;
	int line;
	/* what the header says of the counts below it, read by the saved-counts reader */
	struct saved_read_opts opts;
	char sep[16];
	bool have_header, have_rank, have_size, have_times;
	bool header_failed; /* the error is a header line's */
	struct part *parts;
	size_t n_parts;
	struct pf_error *err;
};

/* the line being read is wrong */
#define bad(r, ...) pf_error_line((r)->err, PF_E_COUNTS_LINE, (r)->path, (r)->line, __VA_ARGS__)

static void free_parts(struct reader *r)
{
	for (size_t i = 0; i < r->n_parts; i++) {
		free(r->parts[i].taken);
		free((char *)r->parts[i].group);
	}
	free(r->parts);
	r->parts = NULL;
	r->n_parts = 0;
}

static int parse_version(struct reader *r, const char *v)
{
	unsigned major, minor;
	char tail;

	if (sscanf(v, "%u.%u%c", &major, &minor, &tail) != 2)
		return bad(r, "bad results format version");
	if (major != RESULTS_FORMAT_MAJOR)
		return bad(r, "results format %u.%u: this pfmon reads %d.x", major, minor, RESULTS_FORMAT_MAJOR);
	r->rf->version_major = major;
	r->rf->version_minor = minor;
	/* a new header starts: counts before it were intervals, or an earlier
	 * run's (--append); the last run's results are the file's */
	r->have_header = true;
	r->have_rank = r->have_size = r->have_times = false;
	free_values(r->rf);
	free_parts(r);
	return 0;
}

static int parse_u32_field(struct reader *r, const char *v, uint32_t *out, const char *what)
{
	uint64_t n;

	if (!parse_u64(v, &n) || n > INT32_MAX)
		return bad(r, "bad %s '%.32s'", what, v);
	*out = (uint32_t)n;
	return 0;
}

/* pfmon's pid: a process id, as the rank and the job size a number below 2^31 */
static int parse_pid(struct reader *r, const char *v, long *out)
{
	uint32_t pid = 0;

	if (parse_u32_field(r, v, &pid, "pid"))
		return -1;
	*out = (long)pid;
	return 0;
}

/* "SECONDS.NANOSECONDS" */
static int parse_time(struct reader *r, const char *v, uint64_t *out)
{
	uint64_t s, ns;
	const char *dot = strchr(v, '.');
	char secs[24];

	if (!dot || (size_t)(dot - v) >= sizeof(secs) || strlen(dot + 1) != 9)
		return bad(r, "bad time (SECONDS.NANOSECONDS)");
	memcpy(secs, v, (size_t)(dot - v));
	secs[dot - v] = 0;
	if (!parse_u64(secs, &s) || s > UINT64_MAX / 1000000000u || sscanf(dot + 1, "%9" SCNu64, &ns) != 1)
		return bad(r, "bad time (SECONDS.NANOSECONDS)");
	*out = s * 1000000000u + ns;
	return 0;
}

static void add_value(struct reader *r, const char *name, int set, const char *encoding)
{
	struct results_file *rf = r->rf;

	rf->values = xrealloc(rf->values, (rf->n_values + 1) * sizeof(*rf->values));
	rf->encodings = xrealloc(rf->encodings, (rf->n_values + 1) * sizeof(*rf->encodings));
	/* a sum of the parts that give it, none yet */
	rf->values[rf->n_values] = (struct count_row){ .name = xstrdup(name), .set = set, .prescaled = true };
	rf->encodings[rf->n_values] = xstrdup(encoding);
	for (size_t i = 0; i < r->n_parts; i++) { /* an event line after counts: their parts lack it */
		r->parts[i].taken = xrealloc(r->parts[i].taken, (rf->n_values + 1) * sizeof(bool));
		r->parts[i].taken[rf->n_values] = false;
	}
	rf->n_values++;
}

/* "set0 NAME ENCODING" */
static int parse_event_line(struct reader *r, const char *v)
{
	int set, n = 0;
	char name[512];

	if (sscanf(v, "set%d %511s %n", &set, name, &n) != 2 || !n || set < 0)
		return bad(r, "bad event line");
	add_value(r, name, set, v + n);
	return 0;
}

static void add_metric(struct results_file *rf, const char *name)
{
	rf->metrics = xrealloc(rf->metrics, (rf->n_metrics + 1) * sizeof(*rf->metrics));
	rf->metrics[rf->n_metrics++] = xstrdup(name);
}

static int set_kind(struct reader *r, const char *v)
{
	for (size_t i = 0; i < 3; i++)
		if (!strcmp(v, results_output_names[i]))
			return 0;
	return bad(r, "unknown output kind");
}

/* the counts below are read in this format ("1.234.567": eu) */
static int set_format(struct reader *r, const char *v)
{
	for (size_t i = 0; i < 4; i++)
		if (!strcmp(v, results_format_names[i])) {
			r->opts.eu_counts = i == PF_FMT_EU;
			return 0;
		}
	return bad(r, "unknown counter format");
}

static void set_str(char **field, const char *v)
{
	free(*field);
	*field = xstrdup(v);
}

/* one "# key: value" line of the header */
static int header_line(struct reader *r, const char *key, const char *v)
{
	struct results_file *rf = r->rf;

	if (!strcmp(key, "results format"))
		return parse_version(r, v);
	if (!strcmp(key, "hostname"))
		set_str(&rf->host, v);
	else if (!strcmp(key, "command"))
		set_str(&rf->command, v);
	else if (!strcmp(key, "pfmon version"))
		set_str(&rf->pfmon_version, v);
	if (!r->have_header) /* the job's lines come after the format line */
		return 0;
	if (!strcmp(key, "output"))
		return set_kind(r, v);
	if (!strcmp(key, "counter format"))
		return set_format(r, v);
	if (!strcmp(key, "csv separator") && !*v)
		return bad(r, "an empty csv separator"); /* pfmon writes none: a damaged header */
	if (!strcmp(key, "csv separator"))
		snprintf(r->sep, sizeof(r->sep), "%s", v);
	else if (!strcmp(key, "rank"))
		return (r->have_rank = true, parse_u32_field(r, v, &rf->rank, "rank"));
	else if (!strcmp(key, "job size"))
		return (r->have_size = true, parse_u32_field(r, v, &rf->size, "job size"));
	else if (!strcmp(key, "job id"))
		set_str(&rf->job_id, v);
	else if (!strcmp(key, "job step"))
		set_str(&rf->step, v);
	else if (!strcmp(key, "array job id"))
		set_str(&rf->array_job, v);
	else if (!strcmp(key, "array task id"))
		set_str(&rf->array_task, v);
	else if (!strcmp(key, "het job id"))
		set_str(&rf->het_job, v);
	else if (!strcmp(key, "launcher"))
		set_str(&rf->launcher, v);
	else if (!strcmp(key, "pid"))
		return parse_pid(r, v, &rf->pid);
	else if (!strcmp(key, "start"))
		return (r->have_times = true, parse_time(r, v, &rf->start_ns));
	else if (!strcmp(key, "end"))
		return parse_time(r, v, &rf->end_ns);
	else if (!strcmp(key, "event") && rf->n_values < 65536)
		return rf->version_major ? parse_event_line(r, v) : 0;
	else if (!strcmp(key, "metric"))
		add_metric(rf, v);
	/* other keys: a later minor version's, skipped */
	return 0;
}

static const char *json_str(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* {"pfmon-header": {...}}: the header's keys as the text's lines */
static int json_header(struct reader *r, json_t *h)
{
	const char *keys[] = { "rank", "job-size", "job-id", "job-step", "array-job-id", "array-task-id", "het-job-id",
			       "launcher", "hostname", "start", "end", "command", "pfmon-version" };
	json_t *events = json_object_get(h, "events"), *metrics = json_object_get(h, "metrics");
	const char *version = json_str(h, "results-format");
	char num[32], key[32];
	size_t i;
	json_t *e;

	if (!version)
		return bad(r, "header without results-format");
	if (parse_version(r, version))
		return -1;
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		json_t *v = json_object_get(h, keys[i]);

		snprintf(key, sizeof(key), "%s", keys[i]);
		for (char *c = key; *c; c++)
			*c = *c == '-' ? ' ' : *c;
		if (json_is_integer(v))
			snprintf(num, sizeof(num), "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		if ((json_is_integer(v) || json_is_string(v)) &&
		    header_line(r, key, json_is_integer(v) ? num : json_string_value(v)))
			return -1;
	}
	json_array_foreach(events, i, e) {
		const char *name = json_str(e, "event"), *enc = json_str(e, "encoding");
		json_t *set = json_object_get(e, "set");

		if (!name || !enc || !json_is_integer(set) || json_integer_value(set) < 0)
			return bad(r, "bad event in the header");
		add_value(r, name, (int)json_integer_value(set), enc);
	}
	json_array_foreach(metrics, i, e)
		if (json_is_string(e))
			add_metric(r->rf, json_string_value(e));
	return 0;
}

/* a '#' line: "# key: value" is the header's, others are not */
static int comment_line(struct reader *r, const char *line)
{
	const char *colon = strstr(line, ": ");
	size_t n = colon ? (size_t)(colon - line - 2) : 0;
	char key[64];

	if (line[1] != ' ' || !colon || n >= sizeof(key))
		return 0;
	memcpy(key, line + 2, n);
	key[n] = '\0';
	return header_line(r, key, colon + 2);
}

/* the saved-counts reader's header hook: a '#' line, or a JSON line with a
 * "pfmon-header" object (the reader parsed it) */
static int header_hook(void *arg, const char *line, int line_no)
{
	struct reader *r = arg;
	json_t *o;
	int rc;

	r->line = line_no;
	if (*line == '{' && json_lib_load(r->err)) { /* jansson reads it: say it is missing */
		r->header_failed = true;
		return -1;
	}
	o = *line == '{' ? json_loads(line, JSON_REJECT_DUPLICATES, NULL) : NULL;
	rc = o ? json_header(r, json_object_get(o, "pfmon-header")) : comment_line(r, line);
	json_decref(o);
	r->header_failed |= rc != 0;
	return rc;
}

/* how many of the header's events are named so */
static size_t events_named(const struct results_file *rf, const char *name)
{
	size_t n = 0;

	for (size_t i = 0; i < rf->n_values; i++)
		n += !strcmp(rf->values[i].name, name);
	return n;
}

/* a text line that is no count of the header's events, whatever its value:
 * above the header (intervals, an earlier run's), or a metric's below it */
static bool not_an_event(const char *name, void *arg)
{
	struct reader *r = arg;

	return !r->have_header || !events_named(r->rf, name);
}

/* the part of the file a count belongs to: the file's, its CPU's or its group of CPUs' */
static struct part *part_of(struct reader *r, const struct saved_block *b)
{
	int cpu = b->per_cpu ? b->cpu : -1;
	const char *group = b->aggr_key ? b->aggr_label : "";
	struct results_file *rf = r->rf;

	for (size_t i = r->n_parts; i-- > 0;) /* a CPU's rows are mostly together: the last part first */
		if (r->parts[i].cpu == cpu && !strcmp(r->parts[i].group, group))
			return &r->parts[i];
	if (cpu >= 0) {
		rf->cpus = xrealloc(rf->cpus, (rf->n_cpus + 1) * sizeof(*rf->cpus));
		rf->cpus[rf->n_cpus++] = cpu;
	}
	r->parts = xrealloc(r->parts, (r->n_parts + 1) * sizeof(*r->parts));
	r->parts[r->n_parts] = (struct part){ cpu, xstrdup(group), xcalloc(rf->n_values + 1, sizeof(bool)) };
	return &r->parts[r->n_parts++];
}

/*
 * The saved-counts reader's count hook: a count of a header event goes to
 * the first value of its name (an event in two sets has a row each) its
 * part has not given yet; a CPU's count adds to the other CPUs'.  Counts
 * of other names (metrics) are no event's.
 */
static int count_hook(void *arg, const struct saved_block *b, const struct count_row *row, int line_no)
{
	struct reader *r = arg;
	struct results_file *rf = r->rf;
	size_t n = events_named(rf, row->name), at = rf->n_values;
	struct part *p;

	r->line = line_no;
	if (!r->have_header || b->interval || !n) /* before the header: intervals, or an earlier run's */
		return 0;
	p = part_of(r, b);
	for (size_t i = 0; i < rf->n_values && at == rf->n_values; i++)
		if (!p->taken[i] && !strcmp(rf->values[i].name, row->name))
			at = i;
	if (at == rf->n_values && p->cpu >= 0)
		return bad(r, "CPU %d has a second row of event '%.200s'", p->cpu, row->name);
	if (at == rf->n_values && *p->group)
		return bad(r, "CPUs %s have a second row of event '%.200s'", p->group, row->name);
	if (at == rf->n_values)
		return n == 1 ? bad(r, "a second row of event '%.200s'", row->name)
			      : bad(r, "more rows of event '%.200s' than the %zu sets counting it", row->name, n);
	if (row->unit) /* "0.09 Joules": rounded to its printed decimals, no count to add up */
		return bad(r, "event '%.200s' is in its own unit (%.32s), rounded as printed: --merge adds counts", row->name,
			   row->unit);
	p->taken[at] = true;
	rf->values[at].is_clock = row->is_clock; /* CSV and JSON write clocks in ms */
	if (!results_count_add(&rf->values[at], row))
		return bad(r, "the CPUs' counts add up past 2^64");
	return 0;
}

static int bad_file(struct reader *r, const char *what)
{
	return pf_error_set(r->err, PF_E_BAD_FILE, r->path, what);
}

/* value i has no count in part p (NULL: the file has none) */
static int no_count(struct reader *r, size_t i, const struct part *p)
{
	char msg[600], cpu[32] = "";

	if (p && p->cpu >= 0)
		snprintf(cpu, sizeof(cpu), " on CPU %d", p->cpu);
	else if (p && *p->group)
		snprintf(cpu, sizeof(cpu), " on CPUs %.20s", p->group);
	snprintf(msg, sizeof(msg), "no count for event '%s' of set %d%s", r->rf->values[i].name,
		 r->rf->values[i].set, cpu);
	return bad_file(r, msg);
}

/* a header before 1.1 names no step, array or heterogeneous job */
static void default_ids(struct results_file *rf)
{
	char **ids[] = { &rf->step, &rf->array_job, &rf->array_task, &rf->het_job };

	for (size_t i = 0; i < ARRAY_SIZE(ids); i++)
		if (!*ids[i])
			*ids[i] = xstrdup("none");
}

/* what a merge needs is all there */
static int check_complete(struct reader *r)
{
	struct results_file *rf = r->rf;

	if (!r->have_header)
		return bad_file(r, "no pfmon results header (write results with --with-header, "
				   "or to an --outfile name with a %-escape such as %r)");
	if (!r->have_rank || !r->have_size || !r->have_times || !rf->job_id || !rf->host)
		return bad_file(r, "incomplete results header (rank, job size, job id, hostname, start and end)");
	if (rf->rank >= rf->size)
		return bad_file(r, "the rank is not below the job size");
	if (!rf->n_values)
		return bad_file(r, "the header names no event");
	if (!r->n_parts)
		return no_count(r, 0, NULL);
	for (size_t k = 0; k < r->n_parts; k++)
		for (size_t i = 0; i < rf->n_values; i++)
			if (!r->parts[k].taken[i])
				return no_count(r, i, &r->parts[k]);
	if (!rf->command)
		rf->command = xstrdup("");
	if (!rf->launcher)
		rf->launcher = xstrdup("none");
	default_ids(rf);
	return 0;
}

int results_parse(const char *text, size_t len, const char *path, struct results_file *rf, struct pf_error *err)
{
	static const struct saved_hooks hooks = { header_hook, count_hook };
	struct reader r = { .rf = rf, .path = path, .err = err, .sep = "," };
	struct saved_counts counts;
	int rc;

	memset(rf, 0, sizeof(*rf));
	rf->path = xstrdup(path);
	r.opts = (struct saved_read_opts){ .csv_sep = r.sep, .is_metric = not_an_event, .hooks = &hooks,
					   .arg = &r };
	rc = saved_counts_parse(text, len, path, &r.opts, &counts, err);
	if (!rc)
		saved_counts_release(&counts);
	/* a line that is no count before any header: a file that is no results file at all */
	if (!rc || (!r.have_header && !r.header_failed && err && err->code == PF_E_COUNTS_LINE))
		rc = check_complete(&r);
	free_parts(&r);
	if (rc)
		results_file_release(rf);
	return rc;
}
