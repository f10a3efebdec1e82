/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Saved counts read back (see counts_read.h). */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/strmap.h"
#include "common/userfile.h"
#include "common/util.h"
#include "json_lib.h"
#include "count_parse.h"
#include "counts_read.h"

#define SAVED_MAX_FILE (64u << 20) /* a larger file is refused */
#define SAVED_MAX_LINE (1u << 20) /* a JSON results header names every event */
#define SAVED_MAX_ROWS (1u << 20)
#define SAVED_MAX_NAME 512
#define SAVED_MAX_CPU 65536
#define SAVED_BLOCK_WINDOW 4096 /* a line's block is one of the last ones */

/* one header entry "#\tsetN: EVENT = levels" */
struct header_event {
	char *name;
	int set;
};

struct reader {
	const char *origin;
	int line;
	const char *sep;
	const struct saved_read_opts *o;
	struct saved_counts *out;
	size_t n_rows; /* over all blocks */
	bool probing; /* guess_format's trial read: no hook sees it */
	/* text: the current interval ("# 1.000 s"), until "# total"; its
	 * heading's number: two headings may print the same time (the last,
	 * partial interval can end within a millisecond of the one before) */
	bool interval;
	double interval_s;
	unsigned round;
	struct header_event *header;
	size_t n_header;
	uint64_t start_ns, end_ns; /* the results header's start and end (pfmon --merge's), 0 if none */
	struct pf_error *err;
};

/* the line being read is wrong */
#define bad_line(r, ...) pf_error_line((r)->err, PF_E_COUNTS_LINE, (r)->origin, (r)->line, __VA_ARGS__)

void saved_counts_release(struct saved_counts *s)
{
	for (size_t b = 0; b < s->n_blocks; b++) {
		struct saved_block *k = &s->blocks[b];

		for (size_t i = 0; i < k->n_rows; i++) {
			free((char *)k->rows[i].name);
			free((char *)k->rows[i].unit);
		}
		free(k->rows);
		free((char *)k->task.name);
	}
	free(s->blocks);
	memset(s, 0, sizeof(*s));
}

/* ----- blocks ----- */

/* what a line says about the block it belongs to */
struct block_key {
	bool per_cpu;
	int cpu;
	const char *aggr_key; /* a group of CPUs (perf stat --per-core, ...): its key, name, CPUs */
	char aggr_label[48];
	int aggr_nr;
	bool has_task;
	int pid, tid, ppid;
	const char *comm;
	bool interval;
	double interval_s;
	unsigned round; /* text: the interval heading it follows, counted */
};

static bool same_block(const struct saved_block *b, const struct block_key *k)
{
	return b->per_cpu == k->per_cpu && (!k->per_cpu || b->cpu == k->cpu) && b->aggr_key == k->aggr_key &&
	       (!k->aggr_key || !strcmp(b->aggr_label, k->aggr_label)) && b->has_task == k->has_task &&
	       (!k->has_task || (b->task.pid == k->pid && b->task.tid == k->tid &&
				 strcmp(b->task.name, k->comm) == 0)) &&
	       b->interval == k->interval && (!k->interval || b->interval_s == k->interval_s) &&
	       b->round == k->round;
}

static struct saved_block *block_for(struct reader *r, const struct block_key *k)
{
	struct saved_counts *s = r->out;
	struct saved_block *b;

	/* the lines of a block are together; an interval's CPUs interleave */
	for (size_t i = s->n_blocks; i-- > 0 && i + SAVED_BLOCK_WINDOW >= s->n_blocks;)
		if (same_block(&s->blocks[i], k))
			return &s->blocks[i];
	s->blocks = xrealloc(s->blocks, (s->n_blocks + 1) * sizeof(*s->blocks));
	b = &s->blocks[s->n_blocks++];
	*b = (struct saved_block){ .per_cpu = k->per_cpu, .cpu = k->cpu, .aggr_key = k->aggr_key,
				   .aggr_nr = k->aggr_nr, .has_task = k->has_task, .interval = k->interval,
				   .interval_s = k->interval_s, .round = k->round };
	snprintf(b->aggr_label, sizeof(b->aggr_label), "%s", k->aggr_label);
	if (k->has_task)
		b->task = (struct count_task){ k->pid, k->tid, k->ppid, xstrdup(k->comm) };
	return b;
}

/* a control character; tab too unless tab_ok (a separator, the header's indent) */
static bool has_control(const char *s, bool tab_ok)
{
	for (; *s; s++)
		if (((unsigned char)*s < 0x20 && !(tab_ok && *s == '\t')) || *s == 0x7f)
			return true;
	return false;
}

/* one count into its block */
static int add_row(struct reader *r, const struct block_key *k, const char *name, const struct count_row *row)
{
	struct saved_block *b;
	struct count_row *dst;

	if (!*name || strlen(name) > SAVED_MAX_NAME || has_control(name, false))
		return bad_line(r, "invalid event name (empty, longer than %d bytes, or with a control character)",
				SAVED_MAX_NAME);
	if (++r->n_rows > SAVED_MAX_ROWS)
		return bad_line(r, "more than %u counts: not a saved counts file", SAVED_MAX_ROWS);
	b = block_for(r, k);
	b->rows = xrealloc(b->rows, (b->n_rows + 1) * sizeof(*b->rows));
	dst = &b->rows[b->n_rows++];
	*dst = *row;
	dst->name = xstrdup(name);
	dst->unit = row->unit ? xstrdup(row->unit) : NULL;
	dst->prescaled = true;
	if (strcmp(name, "duration_time") == 0 && row->state == COUNT_OK)
		b->duration_ns = row->raw;
	if (r->o->hooks && r->o->hooks->count && !r->probing)
		return r->o->hooks->count(r->o->arg, b, dst, r->line);
	return 0;
}

/* ----- numbers ----- */

static bool not_state(const char *s, enum count_state *state)
{
	if (strcmp(s, "<not counted>") == 0) {
		*state = COUNT_NOT_COUNTED;
		return true;
	}
	if (strcmp(s, "<not supported>") == 0) {
		*state = COUNT_NOT_SUPPORTED;
		return true;
	}
	return false;
}

/* digits (grouped, or with decimals, as counts print) of a number past 2^64 */
static bool past_2_64(const char *s)
{
	char d[21];
	size_t n = 0;
	bool more = false;

	for (s += strspn(s, "0"); *s; s++)
		if (isdigit((unsigned char)*s) && n < 20)
			d[n++] = *s;
		else if (isdigit((unsigned char)*s))
			more = true;
		else if (!strchr(",.'", *s))
			return false;
	d[n] = '\0';
	return more || (n == 20 && strcmp(d, "18446744073709551615") > 0);
}

/* a count that did not read: -1 said when it is negative or too large, else 0 */
static int count_range_error(struct reader *r, const char *val, const char *event)
{
	if (val[0] == '-' && isdigit((unsigned char)val[1]))
		return bad_line(r, "a negative count '%.32s' for event '%.200s'", val, event);
	if (past_2_64(val))
		return bad_line(r, "a count too large (past 2^64) '%.32s' for event '%.200s'", val, event);
	return 0;
}

/*
 * The columns perf stat -x and -j share: the value (a count, or a clock in
 * msec with two decimals: perf's precision, 10 us), its unit, the event,
 * the running time in ns and the percentage of the time it ran.
 */
static int columns_row(struct reader *r, const struct block_key *k, const char *val, const char *unit,
		       const char *event, uint64_t runtime, double pct)
{
	struct count_row row = { .state = COUNT_OK, .running = runtime, .enabled = runtime };

	if (pct > 100.0)
		return bad_line(r, "running percentage %.2f is above 100", pct);
	if (not_state(val, &row.state)) {
		row.running = row.enabled = 0;
	} else if (strcmp(unit, "msec") == 0) {
		const char *dot = strchr(val, '.');
		int decimals = dot ? (int)strlen(dot + 1) : 0;

		if (!count_parse_msec(val, &row.raw))
			return count_range_error(r, val, event)
				       ? -1
				       : bad_line(r, "invalid msec value '%.40s' of '%.64s'", val, event);
		row.is_clock = true;
		if (r->out->clock_decimals < 0 || decimals < r->out->clock_decimals)
			r->out->clock_decimals = decimals;
	} else if (*unit) { /* an event's own unit (.scale, .unit): "0.09" Joules */
		if (!count_parse_unit_value(val, &row.raw, &row.scale))
			return count_range_error(r, val, event)
				       ? -1
				       : bad_line(r, "invalid value '%.40s' in %.32s of '%.64s'", val, unit, event);
		row.unit = unit;
	} else if (!count_parse_perf(val, &row.raw)) {
		return count_range_error(r, val, event)
			       ? -1
			       : bad_line(r, "invalid count '%.40s' of '%.64s' (an unsigned integer, or msec for clocks)",
					  val, event);
	}
	if (row.state == COUNT_OK && pct > 0.0 && pct < 100.0)
		row.enabled = (uint64_t)llround((double)runtime * 100.0 / pct);
	return add_row(r, k, event, &row);
}

/* ----- CSV (perf stat -x SEP) ----- */

/* "comm-tid" of perf stat --per-thread */
static bool parse_thread(const char *s, struct block_key *k, char *comm, size_t size)
{
	const char *dash = strrchr(s, '-');
	uint64_t tid;

	if (!dash || dash == s || !parse_u64(dash + 1, &tid) || tid > 0x7fffffff || (size_t)(dash - s) >= size)
		return false;
	snprintf(comm, size, "%.*s", (int)(dash - s), s);
	k->has_task = true;
	k->tid = (int)tid;
	k->pid = k->ppid = -1; /* perf's column has the thread only */
	k->comm = comm;
	return true;
}

static bool parse_cpu_label(const char *s, int *cpu)
{
	uint64_t v;

	if (strncmp(s, "CPU", 3) != 0 || !parse_u64(s + 3, &v) || v >= SAVED_MAX_CPU)
		return false;
	*cpu = (int)v;
	return true;
}

/*
 * perf stat's name of a group of CPUs and the JSON key of its mode:
 * S<socket> "socket", S<s>-D<die> "die", S<s>-D<d>-C<core> "core",
 * S<s>-D<d>-L<level>-ID<id> "cache", N<node> "node"; NULL for none
 */
static const char *aggr_label_key(const char *s)
{
	static const struct {
		const char *shape, *key;
	} shapes[] = {
		{ "S", "socket" }, { "SD", "die" }, { "SDC", "core" }, { "SDLID", "cache" }, { "N", "node" },
	};
	char shape[8];
	size_t n = 0;

	while (*s) {
		size_t letters = strspn(s, "SDCLIN"), digits = strspn(s + letters, "0123456789");

		if (!letters || !digits || digits > 9 || n + letters >= sizeof(shape))
			return NULL;
		memcpy(shape + n, s, letters);
		n += letters;
		s += letters + digits;
		if (*s == '-' && !*++s)
			return NULL;
	}
	shape[n] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(shapes); i++)
		if (!strcmp(shape, shapes[i].shape))
			return shapes[i].key;
	return NULL;
}

/* a group's name as perf writes it and its number of CPUs */
static bool set_group(struct block_key *k, const char *label, uint64_t nr)
{
	const char *key = label ? aggr_label_key(label) : NULL;

	if (!key || strlen(label) >= sizeof(k->aggr_label) || nr < 1 || nr > SAVED_MAX_CPU)
		return false;
	k->aggr_key = key;
	snprintf(k->aggr_label, sizeof(k->aggr_label), "%s", label);
	k->aggr_nr = (int)nr;
	return true;
}

/* the same, the number as CSV and text write it */
static bool parse_group(const char *label, const char *nr, struct block_key *k)
{
	uint64_t v;

	return parse_u64(nr, &v) && set_group(k, label, v);
}

/* the columns before perf's: [interval] [CPU<n> | GROUP,NR] [comm-tid] */
static bool csv_leading(char **f, size_t lead, struct block_key *k, char *comm, size_t size)
{
	for (size_t i = 0; i < lead; i++) {
		if (i == 0 && parse_real(f[i], &k->interval_s)) {
			k->interval = true;
			continue;
		}
		if (!k->per_cpu && !k->has_task && parse_cpu_label(f[i], &k->cpu)) {
			k->per_cpu = true;
			continue;
		}
		if (!k->per_cpu && !k->aggr_key && i + 1 < lead && parse_group(f[i], f[i + 1], k)) {
			i++;
			continue;
		}
		if (i == lead - 1 && !k->has_task && parse_thread(f[i], k, comm, size))
			continue;
		return false;
	}
	return true;
}

/* 1: a CSV line taken, 0: not a CSV line, -1: a CSV line with a bad value */
static int csv_line(struct reader *r, const char *line)
{
	size_t n;
	char **f = count_csv_split(line, r->sep, &n);
	static const size_t tails[] = { 7, 5 }; /* with and without the metric columns */
	int rc = 0;

	for (size_t t = 0; f && t < ARRAY_SIZE(tails) && !rc; t++) {
		struct block_key k = { 0 };
		char comm[64];
		size_t lead;
		char **c;
		uint64_t runtime;
		double pct;

		if (n < tails[t] || n - tails[t] > 3 || !csv_leading(f, n - tails[t], &k, comm, sizeof(comm)))
			continue;
		lead = n - tails[t];
		c = f + lead;
		if (!*c[0] && !*c[2]) { /* a metric's own line: computed again */
			rc = 1;
			break;
		}
		if (!parse_u64(c[3], &runtime) || !parse_real(c[4], &pct))
			continue;
		rc = columns_row(r, &k, c[0], c[1], c[2], runtime, pct) ? -1 : 1;
	}
	str_vec_free(f);
	return rc;
}

/* "SECONDS.NANOSECONDS" of the results header; *ns stays 0 when it is not one */
static void header_time(const char *s, uint64_t *ns)
{
	const char *dot = strchr(s, '.');
	char sec[24];
	uint64_t a, b = 0;

	if (!dot || dot == s || (size_t)(dot - s) >= sizeof(sec) || strlen(dot + 1) != 9 ||
	    strspn(dot + 1, "0123456789") != 9)
		return;
	snprintf(sec, sizeof(sec), "%.*s", (int)(dot - s), s);
	if (!parse_u64(sec, &a) || a >= 18000000000ull) /* the nanoseconds fit in 64 bits */
		return;
	for (const char *d = dot + 1; *d; d++) /* nine digits, leading zeros included */
		b = b * 10 + (uint64_t)(*d - '0');
	*ns = a * 1000000000ull + b;
}

/* ----- JSON lines (perf stat -j) ----- */

static const char *json_text(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* perf stat --per-core -j: "core" : "S0-D0-C1", "aggregate-number" : 2 (later perf: "counters") */
static int json_group(struct reader *r, json_t *o, struct block_key *k)
{
	static const char *const keys[] = { "core", "die", "socket", "node", "cache" };
	json_t *nr = json_object_get(o, "aggregate-number");
	double cpus;

	if (!nr)
		nr = json_object_get(o, "counters");
	cpus = json_is_number(nr) ? json_number_value(nr) : 0;
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		if (!json_object_get(o, keys[i]))
			continue;
		if (cpus < 1 || cpus > SAVED_MAX_CPU || cpus != floor(cpus) ||
		    !set_group(k, json_text(o, keys[i]), (uint64_t)cpus) || strcmp(k->aggr_key, keys[i]))
			return bad_line(r, "\"%s\" is not a group of CPUs as perf names it, with its \"aggregate-number\"",
					keys[i]);
		return 0;
	}
	return 0;
}

static int json_block_key(struct reader *r, json_t *o, struct block_key *k, char *comm, size_t size)
{
	json_t *iv = json_object_get(o, "interval");
	json_t *cpu = json_object_get(o, "cpu");
	const char *thread = json_text(o, "thread");
	uint64_t c;

	if (iv) {
		if (!json_is_number(iv) || !isfinite(json_number_value(iv)) || json_number_value(iv) < 0)
			return bad_line(r, "\"interval\" is not a number of seconds");
		k->interval = true;
		k->interval_s = json_number_value(iv);
	}
	if (cpu) {
		if (!json_is_string(cpu) || !parse_u64(json_string_value(cpu), &c) || c >= SAVED_MAX_CPU)
			return bad_line(r, "\"cpu\" is not a CPU number");
		k->per_cpu = true;
		k->cpu = (int)c;
	}
	if (json_object_get(o, "thread") && (!thread || !parse_thread(thread, k, comm, size)))
		return bad_line(r, "\"thread\" is not COMM-TID");
	return json_group(r, o, k);
}

static int json_line(struct reader *r, const char *line)
{
	json_error_t e;
	json_t *o;
	struct block_key k = { 0 };
	char comm[64], num[32];
	const char *val, *unit, *event;
	json_t *rt, *pc, *cv;
	int rc = -1;

	if (json_lib_load(r->err)) /* jansson reads it: say it is missing, not that the line is wrong */
		return -1;
	o = json_loads(line, JSON_REJECT_DUPLICATES, &e);
	if (!o)
		return bad_line(r, "invalid JSON at column %d: %s", e.column, e.text);
	if (!json_is_object(o)) {
		bad_line(r, "not a JSON object");
		goto out;
	}
	event = json_text(o, "event");
	if (json_is_object(json_object_get(o, "pfmon-header"))) { /* the results header of pfmon --merge */
		json_t *h = json_object_get(o, "pfmon-header");

		if (json_text(h, "start"))
			header_time(json_text(h, "start"), &r->start_ns);
		if (json_text(h, "end"))
			header_time(json_text(h, "end"), &r->end_ns);
		rc = r->o->hooks && r->o->hooks->header ? r->o->hooks->header(r->o->arg, line, r->line) : 0;
		goto out;
	}
	if (!json_object_get(o, "event") && json_object_get(o, "metric-value")) {
		rc = 0; /* a metric's own line: computed again */
		goto out;
	}
	cv = json_object_get(o, "counter-value");
	val = json_is_integer(cv) ? (snprintf(num, sizeof(num), "%lld", (long long)json_integer_value(cv)), num)
				  : json_text(o, "counter-value");
	unit = json_text(o, "unit");
	rt = json_object_get(o, "event-runtime");
	pc = json_object_get(o, "pcnt-running");
	if (!event || !val || !unit || !json_is_integer(rt) || json_integer_value(rt) < 0 || !json_is_number(pc) ||
	    json_number_value(pc) < 0) {
		bad_line(r, "not a count: it needs \"counter-value\", \"unit\", \"event\", \"event-runtime\" and "
			    "\"pcnt-running\" (perf stat -j keys)");
		goto out;
	}
	if (json_block_key(r, o, &k, comm, sizeof(comm)))
		goto out;
	rc = columns_row(r, &k, val, unit, event, (uint64_t)json_integer_value(rt), json_number_value(pc));
out:
	json_decref(o);
	return rc;
}

/* ----- pfmon's text ----- */

/* "# SECONDS s" starts an interval: 1, its time in parse_real's syntax as
 * the CSV's (no sign); 0: not such a line; -1: a time that is no number */
static int interval_line(struct reader *r, const char *s, double *t)
{
	size_t n = strlen(s);
	char num[32];

	if (n < 5 || strncmp(s, "# ", 2) || strcmp(s + n - 2, " s") || n - 4 >= sizeof(num) ||
	    strcspn(s + 2, " \t") != n - 4)
		return 0;
	snprintf(num, sizeof(num), "%.*s", (int)(n - 4), s + 2);
	if (!parse_real(num, t))
		return bad_line(r, "bad interval time '%s'", num);
	return 1;
}

/* "# 1.000 s" (interval), "# total", "#\tsetN: EVENT = levels" (--with-header),
 * "# start: T", "# end: T" (the results header) */
static int text_comment(struct reader *r, const char *s)
{
	double t;
	int set, len = 0, used = 0, rc;
	char tail[4];

	if (strcmp(s, "# total") == 0) {
		r->interval = false;
		return 0;
	}
	if (strncmp(s, "# start: ", 9) == 0)
		return header_time(s + 9, &r->start_ns), 0;
	if (strncmp(s, "# end: ", 7) == 0)
		return header_time(s + 7, &r->end_ns), 0;
	if ((rc = interval_line(r, s, &t)) < 0)
		return -1;
	if (rc) {
		r->interval = true;
		r->interval_s = t;
		r->round++;
		return 0;
	}
	if (strncmp(s, "#\tset", 5) == 0 && sscanf(s, "#\tset%d: %n%*s%n", &set, &len, &used) == 1 && set >= 0 &&
	    used > len) {
		const char *eq = strstr(s + len, " = ");

		if (!eq || sscanf(eq, " = %3s", tail) != 1 || r->n_header >= SAVED_MAX_ROWS)
			return 0;
		r->header = xrealloc(r->header, (r->n_header + 1) * sizeof(*r->header));
		r->header[r->n_header++] = (struct header_event){ xstrndup(s + len, (size_t)(eq - (s + len))), set };
	}
	return 0;
}

/* the next blank-separated word of *s, NUL-terminated in place */
static char *word(char **s)
{
	char *w = *s + strspn(*s, " \t"), *end;

	if (!*w)
		return NULL;
	end = w + strcspn(w, " \t");
	*s = *end ? end + 1 : end;
	*end = '\0';
	return w;
}

/* "(12.34%)": the share of the time the event ran, the last one on the line */
static bool running_share(const char *rest, double *pct)
{
	bool found = false;

	for (const char *p = strchr(rest, '('); p; p = strchr(p + 1, '(')) {
		const char *close = strstr(p, "%)");
		char num[32];
		double v;

		if (!close || (size_t)(close - p) >= sizeof(num))
			continue;
		snprintf(num, sizeof(num), "%.*s", (int)(close - p - 1), p + 1);
		if (parse_real(num, &v) && v <= 100) {
			*pct = v;
			found = true;
		}
	}
	return found;
}

/* "COMM (pid,tid,ppid)" of a per-task block, at the start of rest */
static bool task_of(char *rest, struct block_key *k)
{
	rest += strspn(rest, " \t");
	if (!*rest || *rest == '#' || *rest == '(' || *rest == '[')
		return false;
	for (char *p = strstr(rest, " ("); p; p = strstr(p + 1, " (")) {
		int pid, tid, ppid, used = 0;

		if (sscanf(p, " (%d,%d,%d)%n", &pid, &tid, &ppid, &used) == 3 && used > 0 &&
		    (!p[used] || p[used] == ' ')) {
			*p = '\0';
			*k = (struct block_key){ .has_task = true, .pid = pid, .tid = tid, .ppid = ppid, .comm = rest };
			return true;
		}
	}
	return false;
}

#define NOT_TEXT "not a count line of pfmon's text output (COUNT EVENT), perf stat -x CSV or perf stat -j JSON"

static int text_line(struct reader *r, char *line)
{
	char *s = line, *w, *name;
	struct block_key k = { 0 };
	struct count_row row = { .state = COUNT_OK };
	char state[32];
	double pct;
	bool count;

	if (*s == '#')
		return text_comment(r, s);
	s += strspn(s, " \t");
	if (!*s || *s == '#') /* a metric continued under its count line */
		return 0;
	if (strncmp(s, "real ", 5) == 0 && strstr(s, " user ") && strstr(s, " sys ")) /* --show-time */
		return 0;
	w = word(&s);
	if (parse_cpu_label(w, &k.cpu)) { /* pfmon 3.x, system-wide: "CPU0   1234 CYCLES" */
		k.per_cpu = true;
		w = word(&s);
	} else if (w && aggr_label_key(w)) { /* --per-core: "S0-D0-C1   2   1234 cycles" */
		char *nr = word(&s);

		if (!nr || !parse_group(w, nr, &k))
			return bad_line(r, "a group of CPUs '%.48s' without its number of CPUs", w);
		w = word(&s);
	}
	if (w && w[0] == '<') { /* <not counted>, <not supported>; <not available> is a metric's */
		char *second = word(&s);

		snprintf(state, sizeof(state), "%s %s", w, second ? second : "");
		if (strcmp(state, "<not available>") == 0)
			return 0;
		if (!not_state(state, &row.state))
			return bad_line(r, "unknown state '%.32s'", state);
	}
	count = w && (row.state != COUNT_OK || count_parse_text(w, r->o->eu_counts, &row.raw));
	name = word(&s);
	/* a count in its event's unit (.scale, .unit): "0.09 Joules power/energy-pkg/";
	 * "1.500 NAME", "1.500 NAME  # unit", "1.500 NAME  (multiplexed inputs)"
	 * are a metric's lines, as before */
	if (w && name && !count && !r->o->eu_counts && strchr(w, '.') && !strchr("#(", s[strspn(s, " \t")]) &&
	    count_parse_unit_value(w, &row.raw, &row.scale)) {
		row.unit = name;
		name = word(&s);
		count = true;
	}
	if (name && r->o->is_metric && r->o->is_metric(name, r->o->arg)) /* a metric's line: computed again */
		return 0;
	if (!count)
		return name && count_range_error(r, w, name) ? -1 : bad_line(r, NOT_TEXT);
	if (!name)
		return bad_line(r, "a count '%.32s' without an event name", w);
	if (!k.per_cpu && task_of(s, &k))
		s += strlen(s) + 1; /* task_of cut the comm off: the rest follows it */
	k.interval = r->interval;
	k.interval_s = r->interval_s;
	k.round = r->interval ? r->round : 0;
	if (row.state == COUNT_OK && running_share(s, &pct) && pct < 100.0) {
		row.enabled = 10000;
		row.running = (uint64_t)llround(pct * 100.0);
	}
	return add_row(r, &k, name, &row);
}

/* ----- the file ----- */

static enum saved_format guess_format(struct reader *r, const char *line)
{
	char *copy;
	struct saved_counts probe = { .clock_decimals = -1 }, *keep = r->out;
	int rc;

	if (*line == '{')
		return SAVED_JSON;
	copy = xstrdup(line);
	r->out = &probe; /* try the line as CSV without keeping it */
	r->probing = true;
	rc = csv_line(r, copy);
	r->probing = false;
	saved_counts_release(&probe);
	r->out = keep;
	r->n_rows = 0;
	free(copy);
	return rc != 0 ? SAVED_CSV : SAVED_TEXT; /* -1: CSV with a bad value, said when read */
}

static int one_line(struct reader *r, char *line, bool *format_known)
{
	const struct saved_hooks *h = r->o->hooks;
	int rc;

	r->sep = r->o->csv_sep && *r->o->csv_sep ? r->o->csv_sep : ","; /* a header may have said it */
	if (*line == '#' && h && h->header && h->header(r->o->arg, line, r->line))
		return -1;
	if (!*format_known && *line && *line != '#' && line[strspn(line, " \t")]) {
		r->out->format = guess_format(r, line);
		*format_known = true;
	}
	if (!*format_known)
		return text_line(r, line); /* comments before the first count */
	switch (r->out->format) {
	case SAVED_JSON:
		return *line ? json_line(r, line) : 0;
	case SAVED_CSV:
		if (!*line || *line == '#') /* perf stat -x: "# started on ..." */
			return 0;
		rc = csv_line(r, line);
		if (rc == 0)
			return bad_line(r, "not a CSV count line (perf stat -x columns: value%sunit%sevent%sruntime%s"
					   "percentage)", r->sep, r->sep, r->sep, r->sep);
		return rc < 0 ? -1 : 0;
	case SAVED_TEXT:
	default:
		return text_line(r, line);
	}
}

static bool header_matches(const struct reader *r, const struct saved_block *b)
{
	if (b->n_rows != r->n_header)
		return false;
	for (size_t i = 0; i < b->n_rows; i++)
		if (strcasecmp(b->rows[i].name, r->header[i].name) != 0)
			return false;
	return true;
}

/* how many rows of block k before row i name its event (any case); seen:
 * those counted so far, for a large block (a map costs more than a scan) */
static int earlier_lines(const struct saved_block *k, size_t i, struct strmap *seen)
{
	char *key;
	int n = 0;

	if (k->n_rows <= 64) {
		for (size_t j = 0; j < i; j++)
			n += !strcasecmp(k->rows[j].name, k->rows[i].name);
		return n;
	}
	key = xstrdup(k->rows[i].name);
	for (char *c = key; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	n = (int)strmap_get(seen, key);
	strmap_add(seen, key, 1);
	free(key);
	return n;
}

/* the set of each row: the header's, else the n-th line of an event is its n-th set */
static void assign_sets(struct reader *r)
{
	struct saved_counts *s = r->out;

	for (size_t b = 0; b < s->n_blocks; b++) {
		struct saved_block *k = &s->blocks[b];
		bool header = header_matches(r, k);
		struct strmap seen;

		s->sets_from_header |= header;
		strmap_init(&seen);
		for (size_t i = 0; i < k->n_rows; i++)
			k->rows[i].set = header ? r->header[i].set : earlier_lines(k, i, &seen);
		strmap_release(&seen);
	}
}

int saved_counts_parse(const char *text, size_t len, const char *origin, const struct saved_read_opts *o,
		       struct saved_counts *out, struct pf_error *err)
{
	struct reader r = { .origin = origin, .o = o, .out = out, .err = err };
	bool format_known = false;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->clock_decimals = -1;
	if (memchr(text, '\0', len))
		return pf_error_set(err, PF_E_BAD_FILE, origin, "holds a NUL byte: not a saved counts file");
	for (size_t at = 0; at < len && !rc;) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
		char *line;

		r.line++;
		if (n > SAVED_MAX_LINE) {
			rc = bad_line(&r, "longer than %u bytes", SAVED_MAX_LINE);
			break;
		}
		line = xstrndup(text + at, n);
		if (n && line[n - 1] == '\r')
			line[n - 1] = '\0';
		if (has_control(line, true))
			rc = bad_line(&r, "a control character");
		else
			rc = one_line(&r, line, &format_known);
		free(line);
		at += n + 1;
	}
	if (!rc && r.n_rows == 0 && !o->hooks) /* with hooks, theirs says what is missing */
		rc = pf_error_set(err, PF_E_BAD_FILE, origin, "no counts in it (pfmon text, CSV or JSON lines)");
	if (!rc)
		assign_sets(&r);
	/* the elapsed time of the run, from its results header, for the blocks of
	 * the whole run (an interval's is its own length, which the file lacks) */
	for (size_t b = 0; !rc && r.end_ns > r.start_ns && r.start_ns && b < out->n_blocks; b++)
		if (!out->blocks[b].interval && !out->blocks[b].duration_ns)
			out->blocks[b].duration_ns = r.end_ns - r.start_ns;
	for (size_t i = 0; i < r.n_header; i++)
		free(r.header[i].name);
	free(r.header);
	if (rc)
		saved_counts_release(out);
	return rc;
}

int saved_counts_read(const char *path, const struct saved_read_opts *o, struct saved_counts *out,
		      struct pf_error *err)
{
	char *text;
	size_t n;
	int rc;

	memset(out, 0, sizeof(*out));
	if (user_file_read(path, SAVED_MAX_FILE, "saved counts file", &text, &n, err))
		return -1;
	rc = saved_counts_parse(text, n, path, o, out, err);
	free(text);
	return rc;
}
