/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The flame graph's tree and SVG, alone (report/flame.c and common/ only):
 * equal stacks merge, the order stacks come in changes no byte, box widths
 * are the samples' shares, frames too narrow are counted and left out, and
 * names that XML cannot hold are escaped.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "report/flame.h"
#include "tap.h"

#define F(n, b, k) { n, b, k }

static const struct flame_frame hot[] = { F("prog", NULL, FLAME_PROCESS), F("main", "prog", FLAME_USER),
					  F("hot", "prog", FLAME_USER) };
static const struct flame_frame cold[] = { F("prog", NULL, FLAME_PROCESS), F("main", "prog", FLAME_USER),
					   F("cold", "prog", FLAME_USER) };
static const struct flame_frame kern[] = { F("prog", NULL, FLAME_PROCESS), F("main", "prog", FLAME_USER),
					   F("write", "libc.so.6", FLAME_USER),
					   F("ksys_write", "[kernel]", FLAME_KERNEL) };

static char *svg_of(struct flame *f)
{
	struct flame_svg_opts o = { .title = "t", .subtitle = "s" };
	char *buf = NULL;
	size_t len;
	FILE *out = open_memstream(&buf, &len);

	flame_write_svg(f, &o, out);
	fclose(out);
	flame_free(f);
	return buf;
}

/* the <g> of the frame named name, from its start to its end */
static char *frame_of(const char *svg, const char *name)
{
	char *want = xasprintf("data-n=\"%s\"", name);
	const char *at = strstr(svg, want), *start, *end;

	free(want);
	if (!at)
		return NULL;
	for (start = at; start > svg && strncmp(start, "<g ", 3); start--)
		;
	end = strstr(at, "</g>");
	return end ? xstrndup(start, (size_t)(end - start)) : NULL;
}

static double attr(const char *g, const char *name)
{
	char *want = xasprintf(" %s=\"", name);
	const char *at = g ? strstr(g, want) : NULL;

	free(want);
	return at ? strtod(strchr(at, '"') + 1, NULL) : -1;
}

static void test_merge_and_order(void)
{
	struct flame *a = flame_new(), *b = flame_new();
	char *sa, *sb, *g;

	flame_add(a, hot, 3, 6);
	flame_add(a, cold, 3, 2);
	flame_add(a, hot, 3, 1);
	flame_add(a, kern, 4, 1);
	flame_add(b, kern, 4, 1);
	flame_add(b, hot, 3, 7);
	flame_add(b, cold, 3, 2);
	sa = svg_of(a);
	sb = svg_of(b);
	ok(!strcmp(sa, sb), "the same stacks in another order: the same bytes");
	g = frame_of(sa, "hot");
	ok(attr(g, "data-s") == 7 && attr(g, "width") == 1180.0 * 7 / 10,
	   "equal stacks merge: hot has 7 of 10 samples, 70%% of the width");
	ok(g && strstr(g, "<title>hot (prog): 7 samples, 70.00%</title>"), "its tooltip");
	free(g);
	g = frame_of(sa, "main");
	ok(attr(g, "data-s") == 10 && attr(g, "data-d") == 2 && attr(g, "width") == 1180,
	   "main: every sample, level 2 (all, prog, main)");
	free(g);
	g = frame_of(sa, "cold");
	ok(attr(g, "x") == 10 && attr(g, "data-a") == 0, "boxes by name: cold first");
	free(g);
	g = frame_of(sa, "ksys_write");
	ok(g && strstr(g, "(kernel): 1 sample, 10.00%"), "a kernel frame says so; 1 sample");
	free(g);
	free(sa);
	free(sb);
}

static void test_narrow_and_empty(void)
{
	struct flame *f = flame_new();
	char *s;

	flame_add(f, hot, 3, 1000000);
	flame_add(f, cold, 3, 1); /* 0.00118 pixels */
	s = svg_of(f);
	ok(!strstr(s, "data-n=\"cold\"") && strstr(s, "1 frames narrower than 0.1 pixel not drawn"),
	   "a frame under a tenth of a pixel is left out, and counted");
	free(s);
	s = svg_of(flame_new());
	ok(strstr(s, ">no samples<") && !strstr(s, "class=\"f\""), "no samples: said, no frames");
	free(s);
}

static void test_escaping(void)
{
	static const struct flame_frame bad[] = {
		F("<a&b>\"'", NULL, FLAME_PROCESS),
		F("bad\xff\xc0\x80utf8\x01", "x]]>y", FLAME_USER),
		F("caf\xc3\xa9", "x", FLAME_UNKNOWN),
	};
	struct flame *f = flame_new();
	char *s;

	flame_add(f, bad, 3, 1);
	s = svg_of(f);
	ok(strstr(s, "data-n=\"&lt;a&amp;b&gt;&quot;&#39;\"") != NULL, "markup characters as entities");
	ok(strstr(s, "data-n=\"bad\\xff\\xc0\\x80utf8\\x01\"") != NULL,
	   "bytes that are not UTF-8, and control characters, as \\xHH");
	ok(strstr(s, "(x]]&gt;y)") != NULL, "a binary's name cannot end the CDATA or the markup");
	ok(strstr(s, "data-n=\"caf\xc3\xa9\"") != NULL, "UTF-8 passes as it is");
	free(s);
}

int main(void)
{
	test_merge_and_order();
	test_narrow_and_empty();
	test_escaping();
	return tap_done();
}
