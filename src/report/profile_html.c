/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --report-format=html: one self-contained page of a sampling report, for
 * a browser offline and for a text browser alike.  Nothing is recomputed
 * here: the page holds the rows of a profile by function (this one) and of
 * a profile by line, the SVG of a flame-graph profile and the text of an
 * annotating profile, each fed the same records (the parts, made by
 * prof_html_init).  The parts share the page's symbol resolver: each
 * address, binary and kernel symbol is read and named once for the page,
 * not once a part.  Every table is a real <table> written here, so no
 * content depends on the script; the only scripts are the flame graph's
 * own and the test hook below.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "profile_internal.h"

/* what the sample file's header says, kept for the summary */
struct prof_html_header {
	struct strbuf command, recorder, created, host, job;
	unsigned version_major, version_minor;
};

static void join_argv(struct strbuf *sb, uint32_t argc, char *const *argv)
{
	for (uint32_t i = 0; argv && i < argc; i++)
		strbuf_addf(sb, "%s%s", i ? " " : "", argv[i] ? argv[i] : "");
}

static struct prof_html_header *keep_header(const struct smpl_header *h)
{
	struct prof_html_header *k = xcalloc(1, sizeof(*k));

	join_argv(&k->command, h->argc, h->argv);
	join_argv(&k->recorder, h->recorder_argc, h->recorder_argv);
	if (h->created_ns) {
		time_t t = (time_t)(h->created_ns / 1000000000u);
		struct tm tm;
		char buf[64];

		if (gmtime_r(&t, &tm) && strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S UTC", &tm))
			strbuf_addstr(&k->created, buf);
	}
	if (h->has_job && h->host)
		strbuf_addstr(&k->host, h->host);
	/* a lone run's header says job "none": no cluster run to show */
	if (h->has_job && (h->size > 1 || (h->job_id && strcmp(h->job_id, "none"))))
		strbuf_addf(&k->job, "rank %u of %u, job %s (%s)", h->rank, h->size, h->job_id ? h->job_id : "?",
			    h->launcher ? h->launcher : "?");
	k->version_major = h->version_major;
	k->version_minor = h->version_minor;
	return k;
}

void prof_html_init(struct profile *p, const struct profile_opts *given, const struct smpl_header *h)
{
	struct profile_opts o = *given;

	o.annotate = false;
	o.n_keys = 0;
	o.sort = PROFILE_BY_LINE;
	o.format = PROFILE_TEXT;
	p->html_parts[PROF_HTML_LINES] = prof_new_part(&o, h, p->res);
	o.sort = PROFILE_BY_FUNCTION;
	o.format = PROFILE_SVG;
	p->html_parts[PROF_HTML_FLAME] = prof_new_part(&o, h, p->res);
	o.format = PROFILE_TEXT;
	o.annotate = true;
	p->html_parts[PROF_HTML_ANNOTATE] = prof_new_part(&o, h, p->res);
	p->html_header = keep_header(h);
}

void prof_html_release(struct profile *p)
{
	struct prof_html_header *k = p->html_header;

	for (size_t i = 0; i < PROF_HTML_PARTS; i++)
		profile_free(p->html_parts[i]);
	if (!k)
		return;
	strbuf_release(&k->command);
	strbuf_release(&k->recorder);
	strbuf_release(&k->created);
	strbuf_release(&k->host);
	strbuf_release(&k->job);
	free(k);
}

/* s[0..len) with &, <, >, quotes as entities; other bytes as they are */
static void html_entities(FILE *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		switch (s[i]) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fputc(s[i], out);
		}
	}
}

/* a name or a value from the sample file: escaped as the text report
 * escapes it (a control character is \xHH, so a row reads the same in
 * both), then as HTML */
static void html_put(FILE *out, const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_escaped(&sb, s ? s : "");
	html_entities(out, strbuf_str(&sb), sb.len);
	strbuf_release(&sb);
}

static const char page_style[] =
	"body { font-family: sans-serif; margin: 1em 2em; color: #222; background: #fff; }\n"
	"h1 { font-size: 1.5em; } h2 { font-size: 1.25em; border-bottom: 1px solid #ccc; margin-top: 1.6em; }\n"
	"h3 { font-size: 1em; }\n"
	"table { border-collapse: collapse; margin: 0.5em 0; }\n"
	"th, td { padding: 2px 8px; border-bottom: 1px solid #e4e4e4; text-align: left; }\n"
	"thead th { background: #eef; }\n"
	"td.n { text-align: right; font-variant-numeric: tabular-nums; font-family: monospace; }\n"
	"td.k { font-family: monospace; }\n"
	"table.rows tbody tr:nth-child(even) { background: #f7f7fb; }\n"
	"table.summary th { background: #f4f4f4; width: 12em; }\n"
	"pre { background: #f8f8f4; padding: 0.6em; overflow-x: auto; font-size: 12px; }\n"
	"#flame-graph svg { max-width: 100%; height: auto; }\n"
	"nav a { margin-right: 1em; }\n";

/*
 * The test hook (pfmon(1), HTML REPORTS): a page opened with #click=ID
 * clicks the flame graph's frame ID once the graph's own script is ready,
 * as a user would, and the page says so in <body data-clicked="ID">, so
 * that a headless browser's dump of the DOM shows the zoom it made.
 */
static const char page_script[] =
	"(function () {\n"
	"  'use strict';\n"
	"  function hook() {\n"
	"    var m = /^#click=([A-Za-z0-9_-]+)$/.exec(location.hash), g, r;\n"
	"    if (!m) return;\n"
	"    g = document.getElementById(m[1]);\n"
	"    r = g && g.querySelector('rect');\n"
	"    if (!r) return;\n"
	"    r.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, view: window }));\n"
	"    document.body.setAttribute('data-clicked', m[1]);\n"
	"  }\n"
	"  window.addEventListener('load', function () { setTimeout(hook, 0); });\n"
	"})();\n";

static void summary_row(FILE *out, const char *name, const char *value)
{
	if (!value || !*value)
		return;
	fprintf(out, "<tr><th>%s</th><td>", name);
	html_put(out, value);
	fputs("</td></tr>\n", out);
}

static void print_summary(const struct profile *p, FILE *out)
{
	const struct prof_html_header *k = p->html_header;
	struct strbuf sb = STRBUF_INIT;

	fputs("<section id=\"summary\">\n<h2>Summary</h2>\n<table class=\"summary\">\n", out);
	summary_row(out, "command", strbuf_str((struct strbuf *)&k->command));
	summary_row(out, "recorded by", strbuf_str((struct strbuf *)&k->recorder));
	summary_row(out, "recorded at", strbuf_str((struct strbuf *)&k->created));
	summary_row(out, "host", strbuf_str((struct strbuf *)&k->host));
	summary_row(out, "cluster run", strbuf_str((struct strbuf *)&k->job));
	if (k->version_major) {
		strbuf_addf(&sb, "%u.%u", k->version_major, k->version_minor);
		summary_row(out, "file version", strbuf_str(&sb));
	}
	for (size_t i = 0; i < p->n_ev; i++) {
		const struct event_hist *h = &p->ev[i];

		strbuf_reset(&sb);
		if (h->counting) {
			strbuf_addf(&sb, "%s: counted in each sample", h->name);
		} else {
			strbuf_addf(&sb, "%s: %llu samples (%s %llu", h->name, (unsigned long long)h->samples,
				    h->freq ? "frequency" : "period", (unsigned long long)h->period);
			if (h->random_mask)
				strbuf_addf(&sb, " + random & 0x%llx", (unsigned long long)h->random_mask);
			strbuf_addch(&sb, ')');
		}
		summary_row(out, "event", strbuf_str(&sb));
	}
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%llu lost, %llu throttled", (unsigned long long)p->lost, (unsigned long long)p->throttled);
	if (p->have_status && p->status.truncated)
		strbuf_addf(&sb, "; the sample file is truncated at offset %llu: later samples are missing",
			    (unsigned long long)p->status.truncated_at);
	else if (p->have_status && !p->status.complete)
		strbuf_addstr(&sb, "; the sample file has no end record: its writer did not finish");
	summary_row(out, "samples", strbuf_str(&sb));
	fputs("</table>\n</section>\n", out);
	strbuf_release(&sb);
}

/* one event's rows: those the text report prints, in its order, its cells */
static void print_event_table(const struct profile *p, const struct event_hist *h, const char *what,
			      FILE *out)
{
	struct strmap_entry *v = strmap_sorted(&h->keys);
	size_t n = prof_shown_entries(p, v, strmap_len(&h->keys), h->samples);
	uint64_t cum = 0;

	fputs("<h3>", out);
	html_put(out, h->name);
	fprintf(out, ": %llu samples</h3>\n", (unsigned long long)h->samples);
	if (!h->samples) {
		fputs("<p>no samples</p>\n", out);
		free(v);
		return;
	}
	fprintf(out, "<table class=\"rows\" data-sort=\"%s\" data-event=\"", what);
	html_put(out, h->name);
	fputs("\">\n<thead><tr><th>samples</th><th>%self</th><th>%cum</th>", out);
	for (uint32_t j = 0; j < h->n_reads; j++) {
		fputs("<th>", out);
		html_put(out, p->ev[h->reads[j]].name);
		fputs("</th>", out);
	}
	fprintf(out, "<th>%s%s</th></tr></thead>\n<tbody>\n", p->opts.by_process ? "pid:command " : "",
		!strcmp(what, "line") ? "source line" : "function");
	for (size_t i = 0; i < n; i++) {
		cum += v[i].value;
		fprintf(out, "<tr><td class=\"n\">%llu</td><td class=\"n\">%.2f%%</td><td class=\"n\">%.2f%%</td>",
			(unsigned long long)v[i].value, 100.0 * (double)v[i].value / (double)h->samples,
			100.0 * (double)cum / (double)h->samples);
		for (uint32_t j = 0; j < h->n_reads; j++)
			fprintf(out, "<td class=\"n\">%llu</td>",
				(unsigned long long)strmap_get(&h->read_sums[j], v[i].key));
		fputs("<td class=\"k\">", out);
		html_put(out, v[i].key);
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
	free(v);
}

static void print_tables(const struct profile *p, const char *id, const char *title, const char *what,
			 FILE *out)
{
	fprintf(out, "<section id=\"%s\">\n<h2>%s</h2>\n", id, title);
	for (size_t i = 0; i < p->n_ev; i++)
		if (!p->ev[i].counting)
			print_event_table(p, &p->ev[i], what, out);
	fputs("</section>\n", out);
}

/* a part's output, whole, in memory */
static char *part_output(struct profile *part, size_t *len)
{
	char *buf = NULL;
	FILE *mem = open_memstream(&buf, len);

	*len = 0;
	if (!mem) /* out of memory: the part is left out */
		return NULL;
	profile_print(part, mem);
	fclose(mem);
	return buf;
}

/* the flame graph's SVG inline: the same document as --report-format=svg,
 * without its XML declaration (HTML has none) */
static void print_flame(struct profile *p, FILE *out)
{
	size_t len;
	char *svg = part_output(p->html_parts[PROF_HTML_FLAME], &len);
	const char *s = svg ? svg : "";

	if (!strncmp(s, "<?xml", 5) && strchr(s, '\n'))
		s = strchr(s, '\n') + 1;
	fputs("<section id=\"flame-graph\">\n<h2>Flame graph</h2>\n"
	      "<p>Click a frame to zoom into it, Reset Zoom to go back; search names with a regular "
	      "expression.</p>\n", out);
	fputs(s, out);
	fputs("</section>\n", out);
	free(svg);
}

static void print_annotation(struct profile *p, FILE *out)
{
	size_t len;
	char *text = part_output(p->html_parts[PROF_HTML_ANNOTATE], &len);

	fputs("<section id=\"annotated\">\n<h2>Annotated hot functions</h2>\n<pre>", out);
	html_entities(out, text ? text : "", len);
	fputs("</pre>\n</section>\n", out);
	free(text);
}

/* the binaries without symbols or debug information, as the text report lists them */
static void print_missing(const struct profile *p, FILE *out)
{
	size_t len;
	char *buf = NULL;
	FILE *mem = open_memstream(&buf, &len);

	if (!mem)
		return;
	prof_print_missing(p, mem, "", true);
	fclose(mem);
	if (len) {
		fputs("<section id=\"notes\">\n<h2>Notes</h2>\n<pre>", out);
		html_entities(out, buf, len);
		fputs("</pre>\n</section>\n", out);
	}
	free(buf);
}

void prof_print_html(struct profile *p, FILE *out)
{
	const struct prof_html_header *k = p->html_header;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"generator\" content=\"pfmon\">\n<title>pfmon profile", out);
	if (k->command.len) {
		fputs(": ", out);
		html_put(out, strbuf_str((struct strbuf *)&k->command));
	}
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>pfmon profile</h1>\n", page_style);
	fputs("<nav><a href=\"#summary\">Summary</a><a href=\"#by-function\">Functions</a>"
	      "<a href=\"#by-line\">Lines</a><a href=\"#flame-graph\">Flame graph</a>"
	      "<a href=\"#annotated\">Annotated</a></nav>\n", out);
	print_summary(p, out);
	print_tables(p, "by-function", "Top functions", "function", out);
	print_tables(p->html_parts[PROF_HTML_LINES], "by-line", "Top source lines", "line", out);
	print_flame(p, out);
	print_annotation(p, out);
	print_missing(p, out);
	fprintf(out, "<script>\n%s</script>\n</body>\n</html>\n", page_script);
}
