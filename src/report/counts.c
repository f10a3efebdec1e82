#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "common/util.h"
#include "counts.h"
#include "format.h"
#include "json_writer.h"

uint64_t count_scaled(const struct count_row *r)
{
	if (r->running == 0 || r->running >= r->enabled)
		return r->raw;
	return (uint64_t)((double)r->raw * (double)r->enabled / (double)r->running + 0.5);
}

double count_running_pct(const struct count_row *r)
{
	if (r->enabled == 0)
		return 0.0;
	return 100.0 * (double)r->running / (double)r->enabled;
}

static const char *state_text(enum count_state s)
{
	return s == COUNT_NOT_SUPPORTED ? "<not supported>" : "<not counted>";
}

static bool multiplexed(const struct count_row *r)
{
	return r->state == COUNT_OK && r->running < r->enabled;
}

/* ----- text: count right-aligned to the widest count, a space, the name ----- */

static void count_text(const struct count_row *r, const struct pf_config *cfg, char *buf, size_t size)
{
	if (r->state != COUNT_OK)
		snprintf(buf, size, "%s", state_text(r->state));
	else
		format_count(count_scaled(r), cfg->counter_format, buf, size);
}

/*
 * A task's block (pfmon 3.x, per-task with --follow-*): the count 26 wide,
 * the name padded to the longest, the command, (pid,tid,ppid).
 */
static void report_task_text(FILE *out, const struct count_report *rep, const struct pf_config *cfg)
{
	const struct count_task *t = rep->task;
	char buf[64];
	int name_width = 0;

	for (size_t i = 0; i < rep->n_rows; i++)
		if ((int)strlen(rep->rows[i].name) > name_width)
			name_width = (int)strlen(rep->rows[i].name);
	for (size_t i = 0; i < rep->n_rows; i++) {
		const struct count_row *r = &rep->rows[i];

		count_text(r, cfg, buf, sizeof(buf));
		fprintf(out, "%26s %-*s %s (%d,%d,%d)", buf, name_width, r->name, t->name, t->pid, t->tid, t->ppid);
		if (multiplexed(r))
			fprintf(out, "  (%.2f%%)", count_running_pct(r));
		fputc('\n', out);
	}
}

/*
 * A CPU's block (pfmon 3.x, system-wide): "CPU<n>" left-justified in 7
 * characters and a space; with several CPUs the count is 26 wide and the
 * name padded to the longest, else as a per-task block.
 */
static void report_cpu_text(FILE *out, const struct count_report *rep, const struct pf_config *cfg)
{
	char buf[64], label[16];
	int width = 0, name_width = 0;

	snprintf(label, sizeof(label), "CPU%d", rep->cpu);
	for (size_t i = 0; i < rep->n_rows; i++) {
		count_text(&rep->rows[i], cfg, buf, sizeof(buf));
		if ((int)strlen(buf) > width)
			width = (int)strlen(buf);
		if ((int)strlen(rep->rows[i].name) > name_width)
			name_width = (int)strlen(rep->rows[i].name);
	}
	if (rep->wide)
		width = 26;
	for (size_t i = 0; i < rep->n_rows; i++) {
		const struct count_row *r = &rep->rows[i];

		count_text(r, cfg, buf, sizeof(buf));
		fprintf(out, "%-7s %*s %-*s", label, width, buf, rep->wide ? name_width : 0, r->name);
		if (multiplexed(r))
			fprintf(out, "  (%.2f%%)", count_running_pct(r));
		fputc('\n', out);
	}
}

static void report_text(FILE *out, const struct count_report *rep, const struct pf_config *cfg)
{
	char buf[64];
	int width = 0;

	if (rep->task) {
		report_task_text(out, rep, cfg);
		return;
	}
	if (rep->per_cpu) {
		report_cpu_text(out, rep, cfg);
		return;
	}

	for (size_t i = 0; i < rep->n_rows; i++) {
		count_text(&rep->rows[i], cfg, buf, sizeof(buf));
		if ((int)strlen(buf) > width)
			width = (int)strlen(buf);
	}
	for (size_t i = 0; i < rep->n_rows; i++) {
		const struct count_row *r = &rep->rows[i];

		count_text(r, cfg, buf, sizeof(buf));
		fprintf(out, "%*s %s", width, buf, r->name);
		if (multiplexed(r))
			fprintf(out, "  (%.2f%%)", count_running_pct(r));
		if (cfg->verbose && r->fstr)
			fprintf(out, "  [%s]", r->fstr);
		fputc('\n', out);
	}
}

/* ----- perf stat -x: value,unit,event,runtime,pcnt-running,metric-value,metric-unit ----- */

static void value_and_unit(const struct count_row *r, char *val, size_t size, const char **unit)
{
	*unit = "";
	if (r->state != COUNT_OK) {
		snprintf(val, size, "%s", state_text(r->state));
	} else if (r->is_clock) {
		/* perf reports clock events in milliseconds */
		snprintf(val, size, "%.2f", (double)count_scaled(r) / 1e6);
		*unit = "msec";
	} else {
		snprintf(val, size, "%llu", (unsigned long long)count_scaled(r));
	}
}

static void report_csv(FILE *out, const struct count_report *rep, const struct pf_config *cfg)
{
	const char *sep = cfg->csv_sep;

	for (size_t i = 0; i < rep->n_rows; i++) {
		const struct count_row *r = &rep->rows[i];
		const char *unit;
		char val[64];

		value_and_unit(r, val, sizeof(val), &unit);
		if (rep->interval) /* perf stat -I: the time first */
			fprintf(out, "%.9f%s", rep->interval_s, sep);
		if (rep->task) { /* perf stat --per-thread: comm-tid first */
			char thread[64];

			snprintf(thread, sizeof(thread), "%s-%d", rep->task->name, rep->task->tid);
			csv_field(out, thread, sep);
			fputs(sep, out);
		} else if (rep->per_cpu) { /* perf stat -A: CPU<n> first */
			fprintf(out, "CPU%d%s", rep->cpu, sep);
		}
		csv_field(out, val, sep);
		fputs(sep, out);
		csv_field(out, unit, sep);
		fputs(sep, out);
		csv_field(out, r->name, sep);
		fprintf(out, "%s%llu%s%.2f%s%s\n", sep, (unsigned long long)r->running, sep,
			count_running_pct(r), sep, sep);
	}
}

static void report_json(FILE *out, const struct count_report *rep)
{
	struct json_writer w;

	json_init(&w, out, false);
	for (size_t i = 0; i < rep->n_rows; i++) {
		const struct count_row *r = &rep->rows[i];
		const char *unit;
		char val[64];

		value_and_unit(r, val, sizeof(val), &unit);
		json_begin_object(&w);
		if (rep->interval) { /* perf stat -I -j */
			json_key(&w, "interval");
			json_double(&w, rep->interval_s, 9);
		}
		if (rep->task) { /* perf stat --per-thread -j */
			char thread[64];

			snprintf(thread, sizeof(thread), "%s-%d", rep->task->name, rep->task->tid);
			json_key(&w, "thread");
			json_string(&w, thread);
		} else if (rep->per_cpu) { /* perf stat -A -j */
			char cpu[16];

			snprintf(cpu, sizeof(cpu), "%d", rep->cpu);
			json_key(&w, "cpu");
			json_string(&w, cpu);
		}
		json_key(&w, "counter-value");
		json_string(&w, val);
		json_key(&w, "unit");
		json_string(&w, unit);
		json_key(&w, "event");
		json_string(&w, r->name);
		json_key(&w, "event-runtime");
		json_uint(&w, r->running);
		json_key(&w, "pcnt-running");
		json_double(&w, count_running_pct(r), 2);
		json_key(&w, "metric-value");
		json_string(&w, "");
		json_key(&w, "metric-unit");
		json_string(&w, "");
		json_end_object(&w);
		json_newline(&w);
	}
}

static const char *plm_text(unsigned plm)
{
	static const char *const names[] = { "default", "kernel", "user", "user,kernel" };
	unsigned i = (plm & PF_PLM_USER ? 2 : 0) | (plm & PF_PLM_KERNEL ? 1 : 0);

	return names[i];
}

void report_header(FILE *out, const struct pf_config *cfg, const char *pmu_name, const char *pmu_desc)
{
	char host[256] = "?", date[64] = "?";
	struct utsname u;
	time_t now = time(NULL);
	struct tm tm;

	gethostname(host, sizeof(host) - 1);
	if (localtime_r(&now, &tm))
		strftime(date, sizeof(date), "%a %b %e %H:%M:%S %Y", &tm);
	fprintf(out, "#\n# date: %s\n# hostname: %s\n", date, host);
	if (uname(&u) == 0)
		fprintf(out, "# kernel version: %s %s %s\n", u.sysname, u.release, u.machine);
	fprintf(out, "# pfmon version: %s\n# page size: %ld\n# CPUs: %ld configured, %ld online\n",
		PACKAGE_VERSION, sysconf(_SC_PAGESIZE), sysconf(_SC_NPROCESSORS_CONF),
		sysconf(_SC_NPROCESSORS_ONLN));
	fprintf(out, "# PMU: %s (%s)\n", pmu_name, pmu_desc);
	for (size_t s = 0; s < cfg->n_sets; s++)
		for (size_t e = 0; e < cfg->sets[s].n_events; e++)
			fprintf(out, "#\tset%zu: %s = %s\n", s, cfg->sets[s].events[e],
				plm_text(pf_config_event_plm(cfg, s, e)));
	fputs("# command:", out);
	for (char **a = cfg->command; a && *a; a++) {
		fputc(' ', out);
		fput_escaped(out, *a); /* a newline in an argument must not forge a header line */
	}
	fprintf(out, "\n# monitoring mode: per-thread%s\n#\n", cfg->no_inherit ? "" : ", following children");
}

void report_counts(FILE *out, const struct count_report *rep, const struct pf_config *cfg)
{
	switch (cfg->output_kind) {
	case PF_OUT_CSV:
		report_csv(out, rep, cfg);
		break;
	case PF_OUT_JSON:
		report_json(out, rep);
		break;
	case PF_OUT_TEXT:
	default:
		report_text(out, rep, cfg);
	}
}

static void hms(FILE *out, const char *label, uint64_t ns)
{
	uint64_t ms = ns / 1000000;

	fprintf(out, "%s %lluh%02llum%02llu.%03llus", label, (unsigned long long)(ms / 3600000),
		(unsigned long long)(ms / 60000 % 60), (unsigned long long)(ms / 1000 % 60),
		(unsigned long long)(ms % 1000));
}

void report_times(FILE *out, uint64_t real_ns, uint64_t user_ns, uint64_t sys_ns)
{
	hms(out, "real", real_ns);
	hms(out, " user", user_ns);
	hms(out, " sys", sys_ns);
	fputc('\n', out);
}

void report_interval_header(FILE *out, double seconds, const struct pf_config *cfg)
{
	if (cfg->output_kind == PF_OUT_TEXT)
		fprintf(out, "# %.3f s\n", seconds);
}
