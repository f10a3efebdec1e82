#include <config.h>

#include <math.h>

#include "json_writer.h"

void json_init(struct json_writer *w, FILE *out, bool pretty)
{
	w->out = out;
	w->depth = 0;
	w->first[0] = true;
	w->after_key = false;
	w->pretty = pretty;
}

static void indent(struct json_writer *w)
{
	if (!w->pretty)
		return;
	fputc('\n', w->out);
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->out);
}

/* separator before a value or key at the current depth */
static void before_element(struct json_writer *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (!w->first[w->depth])
		fputc(',', w->out);
	w->first[w->depth] = false;
	if (w->depth > 0)
		indent(w);
}

static void open_container(struct json_writer *w, char c)
{
	before_element(w);
	fputc(c, w->out);
	if (w->depth + 1 < JSON_MAX_DEPTH)
		w->depth++;
	w->first[w->depth] = true;
}

static void close_container(struct json_writer *w, char c)
{
	bool empty = w->first[w->depth];

	if (w->depth > 0)
		w->depth--;
	if (!empty)
		indent(w);
	fputc(c, w->out);
}

void json_begin_object(struct json_writer *w)
{
	open_container(w, '{');
}

void json_end_object(struct json_writer *w)
{
	close_container(w, '}');
}

void json_begin_array(struct json_writer *w)
{
	open_container(w, '[');
}

void json_end_array(struct json_writer *w)
{
	close_container(w, ']');
}

void json_escape(FILE *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
	}
}

void json_key(struct json_writer *w, const char *key)
{
	before_element(w);
	fputc('"', w->out);
	json_escape(w->out, key);
	fputs(w->pretty ? "\": " : "\" : ", w->out);
	w->after_key = true;
}

void json_string(struct json_writer *w, const char *s)
{
	before_element(w);
	fputc('"', w->out);
	json_escape(w->out, s ? s : "");
	fputc('"', w->out);
}

void json_uint(struct json_writer *w, uint64_t v)
{
	before_element(w);
	fprintf(w->out, "%llu", (unsigned long long)v);
}

void json_int(struct json_writer *w, int64_t v)
{
	before_element(w);
	fprintf(w->out, "%lld", (long long)v);
}

void json_double(struct json_writer *w, double v, int decimals)
{
	before_element(w);
	if (isfinite(v))
		fprintf(w->out, "%.*f", decimals, v);
	else
		fputs("null", w->out); /* JSON has no NaN or infinity */
}

void json_bool(struct json_writer *w, bool v)
{
	before_element(w);
	fputs(v ? "true" : "false", w->out);
}

void json_null(struct json_writer *w)
{
	before_element(w);
	fputs("null", w->out);
}

void json_newline(struct json_writer *w)
{
	fputc('\n', w->out);
	w->first[0] = true;
}
