/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading a results file back (pfmon --merge). */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "count_parse.h"
#include "results.h"

/* ----- reading ----- */

/* a JSON header line names every event: room for thousands */
#define RESULTS_MAX_LINE (1u << 20)

bool results_value_add(struct results_value *sum, bool counted, uint64_t v)
{
	if (!counted)
		sum->state = RV_NOT_COUNTED;
	if (sum->state != RV_OK)
		return true;
	return !__builtin_add_overflow(sum->value, v, &sum->value);
}

void results_file_release(struct results_file *rf)
{
	free(rf->path);
	free(rf->host);
	free(rf->job_id);
	free(rf->launcher);
	free(rf->command);
	free(rf->pfmon_version);
	for (size_t i = 0; i < rf->n_values; i++) {
		free(rf->values[i].name);
		free(rf->values[i].encoding);
	}
	free(rf->values);
	for (size_t i = 0; i < rf->n_metrics; i++)
		free(rf->metrics[i]);
	free(rf->metrics);
	free(rf->cpus);
	memset(rf, 0, sizeof(*rf));
}

/* the state of one file being read */
struct reader {
	struct results_file *rf;
	const char *path;
	unsigned line;
	enum pf_output_kind kind;
	enum pf_counter_format format;
	char sep[16];
	bool have_header, have_rank, have_size, have_times;
	bool *assigned; /* per value: its count row was read */
	/* per-CPU rows (system-wide without --aggregate-results): a block of
	 * rows a CPU, each with every value; the file's values are their sums */
	int cpu;              /* the block's CPU, -1 before the first */
	bool *cpu_assigned;   /* per value: its row in this block was read */
	struct pf_error *err;
};

static int bad(struct reader *r, const char *what)
{
	char msg[320];

	if (r->line)
		snprintf(msg, sizeof(msg), "line %u: %s", r->line, what);
	else
		snprintf(msg, sizeof(msg), "%s", what);
	return pf_error_set(r->err, PF_E_BAD_FILE, r->path, msg);
}

static int parse_version(struct reader *r, const char *v)
{
	unsigned major, minor;
	char tail;

	if (sscanf(v, "%u.%u%c", &major, &minor, &tail) != 2)
		return bad(r, "bad results format version");
	if (major != RESULTS_FORMAT_MAJOR) {
		char msg[160];

		snprintf(msg, sizeof(msg), "results format %u.%u: this pfmon reads %d.x", major, minor,
			 RESULTS_FORMAT_MAJOR);
		return bad(r, msg);
	}
	r->rf->version_major = major;
	r->rf->version_minor = minor;
	/* a new header starts: counts before it were intervals, or an earlier
	 * run's (--append); the last run's results are the file's */
	r->have_header = true;
	r->have_rank = r->have_size = r->have_times = false;
	for (size_t i = 0; i < r->rf->n_values; i++) {
		free(r->rf->values[i].name);
		free(r->rf->values[i].encoding);
	}
	r->rf->n_values = 0;
	for (size_t i = 0; i < r->rf->n_metrics; i++)
		free(r->rf->metrics[i]);
	r->rf->n_metrics = 0;
	return 0;
}

static int parse_u32_field(struct reader *r, const char *v, uint32_t *out, const char *what)
{
	uint64_t n;

	if (!parse_u64(v, &n) || n > INT32_MAX) {
		char msg[160];

		snprintf(msg, sizeof(msg), "bad %s '%.32s'", what, v);
		return bad(r, msg);
	}
	*out = (uint32_t)n;
	return 0;
}

/* pfmon's pid: a process id, as the rank and the job size a number below 2^31 */
static int parse_pid(struct reader *r, const char *v, long *out)
{
	uint32_t pid;

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
	rf->values[rf->n_values] = (struct results_value){ .name = xstrdup(name), .set = set,
							   .encoding = xstrdup(encoding),
							   .state = RV_NOT_COUNTED };
	r->assigned = xrealloc(r->assigned, (rf->n_values + 1) * sizeof(*r->assigned));
	r->assigned[rf->n_values] = false;
	if (r->cpu_assigned) { /* an event line after a CPU's rows: its block covers it too */
		r->cpu_assigned = xrealloc(r->cpu_assigned, (rf->n_values + 2) * sizeof(*r->cpu_assigned));
		r->cpu_assigned[rf->n_values] = false;
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
		if (!strcmp(v, results_output_names[i])) {
			r->kind = (enum pf_output_kind)i;
			return 0;
		}
	return bad(r, "unknown output kind");
}

static int set_format(struct reader *r, const char *v)
{
	for (size_t i = 0; i < 4; i++)
		if (!strcmp(v, results_format_names[i])) {
			r->format = (enum pf_counter_format)i;
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

/* the first header event of this name whose row was not read yet */
/* the first value named name whose row is not taken yet (an event in two
 * sets has a row each); taken NULL: any */
static struct results_value *value_of(struct reader *r, const char *name, const bool *taken, size_t *idx)
{
	for (size_t i = 0; i < r->rf->n_values; i++)
		if ((!taken || !taken[i]) && !strcmp(r->rf->values[i].name, name)) {
			*idx = i;
			return &r->rf->values[i];
		}
	return NULL;
}

static void assign(struct reader *r, size_t i, bool counted, uint64_t v, bool clock)
{
	r->assigned[i] = true;
	r->rf->values[i].state = counted ? RV_OK : RV_NOT_COUNTED;
	r->rf->values[i].value = v;
	r->rf->values[i].is_clock = clock;
}

/* every value of the CPU block that ends has its row */
static int check_cpu_block(struct reader *r)
{
	for (size_t i = 0; r->cpu >= 0 && i < r->rf->n_values; i++)
		if (!r->cpu_assigned[i]) {
			char msg[600];

			snprintf(msg, sizeof(msg), "no count for event '%s' of set %d on CPU %d", r->rf->values[i].name,
				 r->rf->values[i].set, r->cpu);
			return bad(r, msg);
		}
	return 0;
}

/* a row of CPU cpu: the next CPU's block starts where the CPU changes */
static int enter_cpu(struct reader *r, long cpu)
{
	struct results_file *rf = r->rf;

	if (cpu == r->cpu)
		return 0;
	if (cpu < 0 || cpu > INT32_MAX)
		return bad(r, "a CPU number out of range");
	if (check_cpu_block(r))
		return -1;
	for (size_t i = 0; i < rf->n_cpus; i++)
		if (rf->cpus[i] == cpu) {
			char msg[80];

			snprintf(msg, sizeof(msg), "CPU %ld has two blocks of rows", cpu);
			return bad(r, msg);
		}
	rf->cpus = xrealloc(rf->cpus, (rf->n_cpus + 1) * sizeof(*rf->cpus));
	rf->cpus[rf->n_cpus++] = (int)cpu;
	r->cpu = (int)cpu;
	r->cpu_assigned = xrealloc(r->cpu_assigned, (rf->n_values + 1) * sizeof(*r->cpu_assigned));
	memset(r->cpu_assigned, 0, (rf->n_values + 1) * sizeof(*r->cpu_assigned));
	return 0;
}

/* A CPU's row of the event named name: added to the file's value.  One
 * CPU not counted makes the sum not counted: a part is not the total. */
static int add_cpu_row(struct reader *r, const char *name, bool counted, uint64_t v, bool clock)
{
	size_t i;
	struct results_value *val = value_of(r, name, r->cpu_assigned, &i);

	if (!val) {
		char msg[400];

		if (!value_of(r, name, NULL, &i))
			return 0; /* not an event of the header: a metric's line */
		snprintf(msg, sizeof(msg), "CPU %d has a second row of event '%.200s'", r->cpu, name);
		return bad(r, msg);
	}
	r->cpu_assigned[i] = true;
	val->is_clock = clock;
	if (!r->assigned[i]) {
		val->state = counted ? RV_OK : RV_NOT_COUNTED;
		val->value = v;
	} else if (!results_value_add(val, counted, v)) {
		return bad(r, "the CPUs' counts add up past 2^64");
	}
	r->assigned[i] = true;
	return 0;
}

/* "CPU<n>", the first field of a per-CPU row: n, else -1 */
static long row_cpu(const char *field)
{
	uint64_t cpu;

	if (strncmp(field, "CPU", 3) || field[3] < '0' || field[3] > '9')
		return -1;
	return parse_u64(field + 3, &cpu) && cpu <= INT32_MAX ? (long)cpu : -2;
}

/* every row of event name was read: one more is refused, never ignored */
static int extra_row(struct reader *r, const char *name)
{
	size_t n = 0;
	char msg[400];

	for (size_t i = 0; i < r->rf->n_values; i++)
		n += !strcmp(r->rf->values[i].name, name);
	if (n == 1)
		snprintf(msg, sizeof(msg), "a second row of event '%.200s'", name);
	else
		snprintf(msg, sizeof(msg), "more rows of event '%.200s' than the %zu sets counting it", name, n);
	return bad(r, msg);
}

/*
 * The value of a row that did not read as a count: a line of another name
 * (a metric, a time) is no count, but a row of a header event is one, and
 * its value is wrong: negative, too large (past 2^64), or not a number.
 */
static int bad_value(struct reader *r, const char *value, const char *name)
{
	char digits[64], msg[400];
	size_t n = 0, i;
	const char *why;

	if (!value_of(r, name, NULL, &i))
		return 0;
	for (const char *c = value; *c && n + 1 < sizeof(digits); c++)
		if (*c != ',' && *c != '.' && *c != '\'')
			digits[n++] = *c;
	digits[n] = '\0';
	if (value[0] == '-')
		why = "a negative count";
	else if (n && strspn(digits, "0123456789") == n)
		why = "a count too large (past 2^64)";
	else
		why = "not a count";
	snprintf(msg, sizeof(msg), "%s '%.32s' for event '%.200s'", why, value, name);
	return bad(r, msg);
}

/* a count row: with a CPU, into that CPU's block */
static int count_row(struct reader *r, long cpu, const char *name, bool counted, uint64_t v, bool clock)
{
	size_t i;

	if (cpu == -2)
		return bad(r, "a CPU number out of range");
	if (cpu < 0) {
		if (value_of(r, name, r->assigned, &i))
			assign(r, i, counted, v, clock);
		else if (value_of(r, name, NULL, &i))
			return extra_row(r, name);
		return 0;
	}
	if (enter_cpu(r, cpu))
		return -1;
	return add_cpu_row(r, name, counted, v, clock);
}

/* "[CPUn] VALUE NAME ..." or "[CPUn] <not counted> NAME ...": lines of
 * other names (metrics of no count line, --show-time) are not counts */
static int text_row(struct reader *r, char *line)
{
	char *save = NULL, *first = strtok_r(line, " \t", &save), *name;
	bool counted = true;
	uint64_t v = 0;
	long cpu;

	if (!first)
		return 0;
	cpu = row_cpu(first);
	if (cpu != -1 && !(first = strtok_r(NULL, " \t", &save)))
		return 0;
	if (!strcmp(first, "<not")) {
		strtok_r(NULL, " \t", &save); /* counted> / supported> */
		counted = false;
	} else if (!count_parse_text(first, r->format == PF_FMT_EU, &v)) {
		name = strtok_r(NULL, " \t", &save);
		return name ? bad_value(r, first, name) : 0;
	}
	name = strtok_r(NULL, " \t", &save);
	return name ? count_row(r, cpu, name, counted, v, false) : 0;
}

/* a count in perf stat's units: clocks in ms, back to ns */
static bool parse_unit_count(const char *val, const char *unit, uint64_t *out, bool *clock)
{
	*clock = !strcmp(unit, "msec");
	return *clock ? count_parse_msec(val, out) : count_parse_perf(val, out);
}

/* [CPUn,]value,unit,event,...: a line of a metric has no event */
static int csv_row(struct reader *r, const char *line)
{
	size_t n;
	char **f = count_csv_split(line, r->sep, &n);
	long cpu = f && n ? row_cpu(f[0]) : -1;
	size_t at = cpu != -1; /* the CPU's field first */
	uint64_t v = 0;
	bool clock = false, counted;
	int rc = 0;

	if (f && n >= at + 3 && *f[at + 2]) {
		counted = f[at][0] != '<';
		if (!counted || parse_unit_count(f[at], f[at + 1], &v, &clock))
			rc = count_row(r, cpu, f[at + 2], counted, v, clock);
		else
			rc = bad_value(r, f[at], f[at + 2]);
	}
	str_vec_free(f);
	return rc;
}

static const char *json_str(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

static int json_header(struct reader *r, json_t *h)
{
	const char *keys[] = { "rank", "job-size", "job-id", "launcher", "hostname", "start", "end", "command",
			       "pfmon-version" };
	json_t *events = json_object_get(h, "events"), *metrics = json_object_get(h, "metrics");
	const char *version = json_str(h, "results-format");
	char num[32];
	size_t i;
	json_t *e;

	if (!version)
		return bad(r, "header without results-format");
	if (parse_version(r, version))
		return -1;
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		json_t *v = json_object_get(h, keys[i]);
		int rc;

		if (json_is_integer(v)) {
			snprintf(num, sizeof(num), "%" JSON_INTEGER_FORMAT, json_integer_value(v));
			rc = header_line(r, !strcmp(keys[i], "job-size") ? "job size" : keys[i], num);
		} else if (json_is_string(v)) {
			char key[32];

			snprintf(key, sizeof(key), "%s", keys[i]);
			for (char *c = key; *c; c++)
				*c = *c == '-' ? ' ' : *c;
			rc = header_line(r, key, json_string_value(v));
		} else {
			continue;
		}
		if (rc)
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

/* one JSON line: the header, or a count (perf stat -j keys) */
static int json_row(struct reader *r, const char *line)
{
	json_error_t je;
	json_t *o = json_loads(line, JSON_REJECT_DUPLICATES, &je), *h;
	const char *name, *val, *unit, *cpu_text;
	uint64_t v = 0;
	bool clock = false;
	long cpu;
	int rc = 0;

	if (!json_is_object(o)) {
		json_decref(o);
		return bad(r, "not a JSON object");
	}
	h = json_object_get(o, "pfmon-header");
	if (h) {
		rc = json_is_object(h) ? json_header(r, h) : bad(r, "bad pfmon-header");
	} else if ((name = json_str(o, "event")) && (val = json_str(o, "counter-value"))) {
		char cpu_field[32];

		/* perf stat -a -A: "cpu" : "N" */
		cpu_text = json_str(o, "cpu");
		snprintf(cpu_field, sizeof(cpu_field), "CPU%.20s", cpu_text ? cpu_text : "");
		cpu = cpu_text ? row_cpu(cpu_field) : -1;
		cpu = cpu_text && cpu == -1 ? -2 : cpu;
		unit = json_str(o, "unit");
		if (val[0] == '<')
			rc = count_row(r, cpu, name, false, 0, false);
		else if (parse_unit_count(val, unit ? unit : "", &v, &clock))
			rc = count_row(r, cpu, name, true, v, clock);
		else
			rc = bad_value(r, val, name);
	}
	json_decref(o);
	return rc;
}

/* a "# key: value" line, split; false for other comment lines */
static bool split_header(char *line, char **key, char **value)
{
	char *colon;

	if (line[0] != '#' || line[1] != ' ')
		return false;
	colon = strstr(line + 2, ": ");
	if (!colon)
		return false;
	*colon = 0;
	*key = line + 2;
	*value = colon + 2;
	return true;
}

static int read_line(struct reader *r, char *line)
{
	char *key, *value;

	line[strcspn(line, "\r\n")] = 0;
	if (line[0] == '{')
		return json_row(r, line);
	if (line[0] == '#')
		return split_header(line, &key, &value) ? header_line(r, key, value) : 0;
	if (!r->have_header || !line[0])
		return 0; /* counts before the header: intervals, read again below it */
	if (r->kind == PF_OUT_CSV)
		return csv_row(r, line);
	if (r->kind == PF_OUT_TEXT)
		return text_row(r, line);
	return 0;
}

/* what a merge needs is all there */
static int check_complete(struct reader *r)
{
	struct results_file *rf = r->rf;

	r->line = 0;
	if (!r->have_header)
		return bad(r, "no pfmon results header (write results with --with-header, "
			   "or to an --outfile name with a %-escape such as %r)");
	if (!r->have_rank || !r->have_size || !r->have_times || !rf->job_id || !rf->host)
		return bad(r, "incomplete results header (rank, job size, job id, hostname, start and end)");
	if (rf->rank >= rf->size)
		return bad(r, "the rank is not below the job size");
	if (!rf->n_values)
		return bad(r, "the header names no event");
	if (check_cpu_block(r))
		return -1;
	for (size_t i = 0; i < rf->n_values; i++)
		if (!r->assigned[i]) {
			char msg[600];

			snprintf(msg, sizeof(msg), "no count for event '%s' of set %d", rf->values[i].name,
				 rf->values[i].set);
			return bad(r, msg);
		}
	if (!rf->command)
		rf->command = xstrdup("");
	if (!rf->launcher)
		rf->launcher = xstrdup("none");
	return 0;
}

int results_parse(const char *text, size_t len, const char *path, struct results_file *rf, struct pf_error *err)
{
	struct reader r = { .rf = rf, .path = path, .err = err, .sep = ",", .cpu = -1 };
	size_t at = 0;
	int rc = 0;

	memset(rf, 0, sizeof(*rf));
	rf->path = xstrdup(path);
	if (memchr(text, '\0', len))
		rc = bad(&r, "holds a NUL byte: not a results file");
	while (!rc && at < len) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
		char *line;

		r.line++;
		if (n > RESULTS_MAX_LINE) {
			char msg[64];

			snprintf(msg, sizeof(msg), "longer than %u bytes", RESULTS_MAX_LINE);
			rc = bad(&r, msg);
			break;
		}
		line = xstrndup(text + at, n);
		rc = read_line(&r, line);
		free(line);
		at += n + 1;
	}
	if (!rc)
		rc = check_complete(&r);
	free(r.assigned);
	free(r.cpu_assigned);
	if (rc)
		results_file_release(rf);
	return rc;
}
