/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one JSON writer: it owns commas, nesting and escaping ("\\", "\"",
 * control characters as \u00XX), so no caller assembles JSON by hand. */
#ifndef PFMON_COMMON_JSON_WRITER_H
#define PFMON_COMMON_JSON_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json_writer {
	FILE *out;
	int depth;
	bool first[JSON_MAX_DEPTH]; /* no element written yet at this depth */
	bool after_key;
	bool pretty; /* false: one line (JSON lines) */
	size_t len;  /* bytes in buf, not yet in out */
	char buf[4096];
};

void json_init(struct json_writer *w, FILE *out, bool pretty);
void json_begin_object(struct json_writer *w);
void json_end_object(struct json_writer *w);
void json_begin_array(struct json_writer *w);
void json_end_array(struct json_writer *w);
void json_key(struct json_writer *w, const char *key);
/* the key key followed by suffix ("ip" "_symbol"), without formatting it first */
void json_key_suffix(struct json_writer *w, const char *key, const char *suffix);
void json_string(struct json_writer *w, const char *s);
void json_uint(struct json_writer *w, uint64_t v);
/* v as the string "0x..." (lower-case hex): 64-bit values do not fit a double */
void json_hex(struct json_writer *w, uint64_t v);
void json_int(struct json_writer *w, int64_t v);
void json_double(struct json_writer *w, double v, int decimals);
void json_bool(struct json_writer *w, bool v);
void json_null(struct json_writer *w);
/* a key and its value, the pair an object's members mostly are */
void json_key_string(struct json_writer *w, const char *key, const char *s);
void json_key_uint(struct json_writer *w, const char *key, uint64_t v);
/* end of one top-level value: a newline (JSON lines) */
void json_newline(struct json_writer *w);

/* escape s into out as a JSON string body (no quotes) */
void json_escape(FILE *out, const char *s);
/* how many bytes at the start of s need no escape (the run written in one call) */
size_t json_safe_run(const char *s);

#endif
