/* The one JSON writer: it owns commas, nesting and escaping ("\\", "\"",
 * control characters as \u00XX), so no caller assembles JSON by hand. */
#ifndef PFMON_REPORT_JSON_WRITER_H
#define PFMON_REPORT_JSON_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json_writer {
	FILE *out;
	int depth;
	bool first[JSON_MAX_DEPTH]; /* no element written yet at this depth */
	bool after_key;
	bool pretty; /* false: one line (JSON lines) */
};

void json_init(struct json_writer *w, FILE *out, bool pretty);
void json_begin_object(struct json_writer *w);
void json_end_object(struct json_writer *w);
void json_begin_array(struct json_writer *w);
void json_end_array(struct json_writer *w);
void json_key(struct json_writer *w, const char *key);
void json_string(struct json_writer *w, const char *s);
void json_uint(struct json_writer *w, uint64_t v);
void json_int(struct json_writer *w, int64_t v);
void json_double(struct json_writer *w, double v, int decimals);
void json_bool(struct json_writer *w, bool v);
void json_null(struct json_writer *w);
/* end of one top-level value: a newline (JSON lines) */
void json_newline(struct json_writer *w);

/* escape s into out as a JSON string body (no quotes) */
void json_escape(FILE *out, const char *s);

#endif
