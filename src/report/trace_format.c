/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tracepoint payloads (see trace_format.h).  The tracing data's layout is
 * perf's (../shared/spec/modern-sampling.md §8.1): a magic, "tracing", a
 * version, the byte order, the size of a long, the page size, the ring
 * buffer's header_page and header_event texts, the ftrace formats, the
 * events' formats by system, kallsyms, the printk formats and, from 0.6,
 * the saved command names.  Every size is checked against the data: the
 * file is hostile.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "common/dynlib.h"
#include "report/trace_format.h"

struct libtraceevent {
	__typeof__(tep_alloc) *alloc;
	__typeof__(tep_free) *free;
	__typeof__(tep_set_long_size) *set_long_size;
	__typeof__(tep_set_page_size) *set_page_size;
	__typeof__(tep_parse_event) *parse_event;
	__typeof__(tep_parse_kallsyms) *parse_kallsyms;
	__typeof__(tep_parse_printk_formats) *parse_printk_formats;
	__typeof__(tep_parse_saved_cmdlines) *parse_saved_cmdlines;
	__typeof__(tep_find_event_by_record) *find_event_by_record;
	__typeof__(tep_set_function_resolver) *set_function_resolver;
	__typeof__(tep_print_event) *print_event;
	__typeof__(trace_seq_init) *seq_init;
	__typeof__(trace_seq_terminate) *seq_terminate;
	__typeof__(trace_seq_destroy) *seq_destroy;
};

#define ENTRY(field, name) DYNLIB_SYMBOL(struct libtraceevent, field, name)
static const struct dynlib_symbol symbols[] = {
	ENTRY(alloc, "tep_alloc"),
	ENTRY(free, "tep_free"),
	ENTRY(set_long_size, "tep_set_long_size"),
	ENTRY(set_page_size, "tep_set_page_size"),
	ENTRY(parse_event, "tep_parse_event"),
	ENTRY(parse_kallsyms, "tep_parse_kallsyms"),
	ENTRY(parse_printk_formats, "tep_parse_printk_formats"),
	ENTRY(parse_saved_cmdlines, "tep_parse_saved_cmdlines"),
	ENTRY(find_event_by_record, "tep_find_event_by_record"),
	ENTRY(set_function_resolver, "tep_set_function_resolver"),
	ENTRY(print_event, "tep_print_event"),
	ENTRY(seq_init, "trace_seq_init"),
	ENTRY(seq_terminate, "trace_seq_terminate"),
	ENTRY(seq_destroy, "trace_seq_destroy"),
};
#undef ENTRY

struct trace_format {
	const struct libtraceevent *fn;
	struct tep_handle *tep;
	trace_kernel_name_fn *kernel_name;
	void *kernel_name_arg;
};

/* the table, filled on the first call */
static const struct libtraceevent *libtraceevent(struct pf_error *err)
{
	static struct libtraceevent loaded;
	static struct dynlib_once once;

	return dynlib_open_once(&once, "libtraceevent", TRACEEVENT_SONAME, symbols, ARRAY_SIZE(symbols), &loaded,
				err) ? NULL : &loaded;
}

/* a cursor over the tracing data; what went wrong first */
struct cursor {
	const unsigned char *p, *end;
	const char *why;
};

static bool need(struct cursor *c, size_t n, const char *what)
{
	if (c->why)
		return false;
	if ((size_t)(c->end - c->p) < n) {
		c->why = what;
		return false;
	}
	return true;
}

static uint64_t get_uint(struct cursor *c, size_t n, const char *what)
{
	uint64_t v = 0;
	uint32_t v32;

	if (!need(c, n, what))
		return 0;
	if (n == 4) {
		memcpy(&v32, c->p, 4);
		v = v32;
	} else {
		memcpy(&v, c->p, 8);
	}
	c->p += n;
	return v;
}

/* a NUL-terminated string in the data */
static const char *get_cstring(struct cursor *c, const char *what)
{
	const char *s = (const char *)c->p;
	const unsigned char *nul;

	if (c->why)
		return NULL;
	nul = memchr(c->p, 0, (size_t)(c->end - c->p));
	if (!nul) {
		c->why = what;
		return NULL;
	}
	c->p = nul + 1;
	return s;
}

/* n bytes of the data (a format's text) */
static const char *get_bytes(struct cursor *c, uint64_t n, const char *what)
{
	const char *s;

	if (!need(c, 0, what) || n > (uint64_t)(c->end - c->p)) {
		if (!c->why)
			c->why = what;
		return NULL;
	}
	s = (const char *)c->p;
	c->p += n;
	return s;
}

/* count formats of one system, each a u64 size and its text */
static void parse_formats(struct trace_format *tf, struct cursor *c, const char *sys)
{
	uint32_t count = (uint32_t)get_uint(c, 4, "truncated in the number of formats");

	for (uint32_t i = 0; i < count && !c->why; i++) {
		uint64_t size = get_uint(c, 8, "truncated in a format's size");
		const char *text = get_bytes(c, size, "a format runs past the tracing data");

		/* a format libtraceevent cannot parse leaves that event's
		 * payloads unprinted, as perf leaves them */
		if (text)
			tf->fn->parse_event(tf->tep, text, (unsigned long)size, sys);
	}
}

/* a text the parser wants NUL-terminated: a copy */
static char *text_copy(struct cursor *c, uint64_t size, const char *what)
{
	const char *text = get_bytes(c, size, what);
	char *copy;

	if (!text)
		return NULL;
	copy = xmalloc(size + 1);
	memcpy(copy, text, size);
	copy[size] = '\0';
	return copy;
}

/*
 * The printk formats' lines that libtraceevent 1.7 reads safely: it splits
 * "ADDR : "FORMAT"" at the first ':' and copies from two bytes after it,
 * past the end of a line with nothing after the ':' (and it cannot take a
 * line that starts with one).  Lines otherwise are dropped: their formats
 * print as addresses.
 */
static void keep_printk_lines(char *text)
{
	char *out = text;

	for (char *line = text, *next; *line; line = next) {
		char *colon;
		size_t len;

		next = strchr(line, '\n');
		next = next ? next + 1 : line + strlen(line);
		len = (size_t)(next - line);
		colon = memchr(line, ':', len);
		if (!colon || colon == line || colon + 2 >= line + len - (next[-1] == '\n'))
			continue;
		memmove(out, line, len);
		out += len;
	}
	*out = '\0';
}

static void parse_tables(struct trace_format *tf, struct cursor *c, bool saved_cmdlines)
{
	char *text;

	text = text_copy(c, get_uint(c, 4, "truncated in kallsyms' size"), "kallsyms run past the tracing data");
	if (text)
		tf->fn->parse_kallsyms(tf->tep, text);
	free(text);
	text = text_copy(c, get_uint(c, 4, "truncated in the printk formats' size"),
			 "the printk formats run past the tracing data");
	if (text) {
		keep_printk_lines(text);
		tf->fn->parse_printk_formats(tf->tep, text);
	}
	free(text);
	if (!saved_cmdlines)
		return;
	text = text_copy(c, get_uint(c, 8, "truncated in the saved command names' size"),
			 "the saved command names run past the tracing data");
	if (text)
		tf->fn->parse_saved_cmdlines(tf->tep, text);
	free(text);
}

static const char *parse(struct trace_format *tf, struct cursor *c)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	const char *version;
	int long_size;
	uint32_t nr_systems;

	if (!need(c, sizeof(magic), "shorter than its magic") || memcmp(c->p, magic, sizeof(magic)))
		return c->why ? c->why : "not tracing data (no magic)";
	c->p += sizeof(magic);
	version = get_cstring(c, "truncated in its version");
	if (!need(c, 2, "truncated after its version"))
		return c->why;
	if (c->p[0] != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__))
		return "tracing data of the other byte order";
	long_size = c->p[1];
	c->p += 2;
	tf->fn->set_long_size(tf->tep, long_size);
	tf->fn->set_page_size(tf->tep, (int)get_uint(c, 4, "truncated in its page size"));
	/* header_page and header_event: the ring buffer's, not the records' */
	if (!need(c, 12, "truncated in header_page") || memcmp(c->p, "header_page", 12))
		return c->why ? c->why : "no header_page";
	c->p += 12;
	get_bytes(c, get_uint(c, 8, "truncated in header_page"), "header_page runs past the tracing data");
	if (!need(c, 13, "truncated in header_event") || memcmp(c->p, "header_event", 13))
		return c->why ? c->why : "no header_event";
	c->p += 13;
	get_bytes(c, get_uint(c, 8, "truncated in header_event"), "header_event runs past the tracing data");
	parse_formats(tf, c, "ftrace");
	nr_systems = (uint32_t)get_uint(c, 4, "truncated in the number of systems");
	for (uint32_t i = 0; i < nr_systems && !c->why; i++) {
		const char *sys = get_cstring(c, "truncated in a system's name");

		if (sys)
			parse_formats(tf, c, sys);
	}
	if (!c->why)
		parse_tables(tf, c, version && strcmp(version, "0.6") >= 0);
	return c->why;
}

struct trace_format *trace_format_new(const void *data, size_t size, struct pf_error *err)
{
	const struct libtraceevent *fn = libtraceevent(err);
	struct trace_format *tf;
	struct cursor c = { data, (const unsigned char *)data + size, NULL };
	const char *why;

	if (!fn)
		return NULL;
	tf = xcalloc(1, sizeof(*tf));
	tf->fn = fn;
	tf->tep = fn->alloc();
	if (!tf->tep) {
		free(tf);
		pf_error_set(err, PF_E_NOMEM);
		return NULL;
	}
	why = parse(tf, &c);
	if (why) {
		trace_format_free(tf);
		pf_error_set(err, PF_E_BAD_FILE, "tracing data (HEADER_TRACING_DATA)", why);
		return NULL;
	}
	return tf;
}

bool trace_format_knows(struct trace_format *tf, const void *raw, uint32_t raw_size)
{
	struct tep_record rec = { .size = (int)raw_size, .data = (void *)raw };

	return raw_size <= INT32_MAX && tf->fn->find_event_by_record(tf->tep, &rec);
}

/* libtraceevent's resolver: the name, the start in *addrp */
static char *resolve(void *priv, unsigned long long *addrp, char **modp)
{
	struct trace_format *tf = priv;
	const char *module = NULL, *name;
	uint64_t start = 0;

	name = tf->kernel_name(tf->kernel_name_arg, *addrp, &start, &module);
	if (!name)
		return NULL;
	*addrp = start;
	if (modp)
		*modp = (char *)module;
	return (char *)name;
}

void trace_format_kernel_names(struct trace_format *tf, trace_kernel_name_fn *fn, void *arg)
{
	tf->kernel_name = fn;
	tf->kernel_name_arg = arg;
	tf->fn->set_function_resolver(tf->tep, resolve, tf);
}

bool trace_format_payload(struct trace_format *tf, const void *raw, uint32_t raw_size, uint32_t cpu,
			  struct strbuf *sb)
{
	struct tep_record rec = { .size = (int)raw_size, .data = (void *)raw, .cpu = (int)cpu };
	struct trace_seq seq;

	if (raw_size > INT32_MAX || !tf->fn->find_event_by_record(tf->tep, &rec))
		return false;
	tf->fn->seq_init(&seq);
	tf->fn->print_event(tf->tep, &seq, &rec, "%s", TEP_PRINT_INFO);
	tf->fn->seq_terminate(&seq);
	strbuf_add(sb, seq.buffer, seq.len);
	tf->fn->seq_destroy(&seq);
	return true;
}

void trace_format_free(struct trace_format *tf)
{
	if (!tf)
		return;
	tf->fn->free(tf->tep);
	free(tf);
}
