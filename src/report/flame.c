/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The flame graph: a tree of named frames, and its SVG.
 *
 * The SVG is drawn by pfmon (every box is a <rect> with its place), so any
 * viewer shows it; a small inline script, no more, makes it interactive in
 * a browser: hovering shows a frame's samples and share, a click zooms into
 * a frame, a search box highlights the frames whose names match and says
 * what share of the samples they cover.  Nothing is fetched from anywhere.
 * Colours come from a hash of the names, never from chance, so the same
 * profile gives the same bytes.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "common/hash.h"
#include "common/strmap.h"
#include "common/util.h"
#include "flame.h"

struct flame_node {
	char *name;
	char *binary;
	enum flame_kind kind;
	uint64_t count;             /* samples here and above */
	size_t first_kid, n_kids;   /* in kids[], once sorted */
	size_t parent;
};

struct flame {
	struct flame_node *nodes; /* nodes[0]: all samples */
	size_t n, cap;
	struct strmap index; /* (parent, kind, binary, name) -> node index + 1 */
	struct strbuf key;
	struct flame_node **kids; /* each node's children, sorted by name */
};

struct flame *flame_new(void)
{
	struct flame *f = xcalloc(1, sizeof(*f));

	strmap_init(&f->index);
	f->cap = 64;
	f->nodes = xcalloc(f->cap, sizeof(*f->nodes));
	f->nodes[0] = (struct flame_node){ .name = xstrdup("all"), .kind = FLAME_ALL };
	f->n = 1;
	return f;
}

void flame_free(struct flame *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->n; i++) {
		free(f->nodes[i].name);
		free(f->nodes[i].binary);
	}
	free(f->nodes);
	free(f->kids);
	strmap_release(&f->index);
	strbuf_release(&f->key);
	free(f);
}

/* the child of parent that is frame fr, made when new */
static size_t child_of(struct flame *f, size_t parent, const struct flame_frame *fr)
{
	const char *bin = fr->binary ? fr->binary : "";
	uint64_t id;

	/* lengths first: no name can pass for another with a different binary */
	strbuf_reset(&f->key);
	strbuf_addf(&f->key, "%zu %d %zu %s %s", parent, (int)fr->kind, strlen(bin), bin, fr->name);
	id = strmap_get(&f->index, strbuf_str(&f->key));
	if (id)
		return (size_t)(id - 1);
	if (f->n == f->cap) {
		f->cap *= 2;
		f->nodes = xrealloc(f->nodes, f->cap * sizeof(*f->nodes));
	}
	f->nodes[f->n] = (struct flame_node){ .name = xstrdup(fr->name), .kind = fr->kind, .parent = parent,
					      .binary = fr->binary ? xstrdup(fr->binary) : NULL };
	strmap_add(&f->index, strbuf_str(&f->key), f->n + 1);
	return f->n++;
}

void flame_add(struct flame *f, const struct flame_frame *frames, size_t n, uint64_t count)
{
	size_t at = 0;

	f->nodes[0].count += count;
	for (size_t i = 0; i < n; i++) {
		at = child_of(f, at, &frames[i]);
		f->nodes[at].count += count;
	}
}

static int cmp_nodes(const void *a, const void *b)
{
	const struct flame_node *x = *(struct flame_node *const *)a, *y = *(struct flame_node *const *)b;
	int c = strcmp(x->name, y->name);

	if (!c)
		c = strcmp(x->binary ? x->binary : "", y->binary ? y->binary : "");
	return c ? c : (int)x->kind - (int)y->kind;
}

/* every node's children, alphabetically (flame graphs order boxes by name,
 * not by time, so equal stacks merge) */
static void sort_kids(struct flame *f)
{
	size_t *fill = xcalloc(f->n, sizeof(*fill));

	free(f->kids);
	f->kids = xcalloc(f->n, sizeof(*f->kids));
	for (size_t i = 1; i < f->n; i++)
		f->nodes[f->nodes[i].parent].n_kids++;
	for (size_t i = 0, at = 0; i < f->n; i++) {
		f->nodes[i].first_kid = at;
		at += f->nodes[i].n_kids;
	}
	for (size_t i = 1; i < f->n; i++) {
		struct flame_node *p = &f->nodes[f->nodes[i].parent];

		f->kids[p->first_kid + fill[f->nodes[i].parent]++] = &f->nodes[i];
	}
	for (size_t i = 0; i < f->n; i++)
		qsort(f->kids + f->nodes[i].first_kid, f->nodes[i].n_kids, sizeof(*f->kids), cmp_nodes);
	free(fill);
}

/* ---- text in XML ---- */

/* the length of the valid UTF-8 character at s that XML allows, 0: none */
static size_t utf8_char(const unsigned char *s)
{
	if (s[0] >= 0x20 && s[0] < 0x7f)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		return (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (s[0] >= 0xe0 && s[0] <= 0xef) {
		if ((s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80)
			return 0;
		if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0)) /* overlong, surrogate */
			return 0;
		return s[0] == 0xef && s[1] == 0xbf && s[2] >= 0xbe ? 0 : 3; /* U+FFFE, U+FFFF */
	}
	if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		if ((s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 || (s[3] & 0xc0) != 0x80)
			return 0;
		return (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90) ? 0 : 4;
	}
	return 0;
}

/*
 * At most max characters of s (SIZE_MAX: all) as XML text or attribute
 * value: markup characters as entities, and what XML cannot hold (control
 * characters, bytes that are not UTF-8: names come from hostile files) as
 * \xHH, the escape of pfmon's other outputs.  Returns the characters left.
 */
static size_t xml_put(FILE *out, const char *s, size_t max)
{
	const unsigned char *u = (const unsigned char *)s;

	for (; *u && max; max--) {
		size_t len = utf8_char(u);

		if (!len)
			fprintf(out, "\\x%02x", *u++);
		else if (*u == '&' || *u == '<' || *u == '>' || *u == '"' || *u == '\'')
			fputs(*u == '&' ? "&amp;" : *u == '<' ? "&lt;" : *u == '>' ? "&gt;" : *u == '"' ? "&quot;" : "&#39;",
			      out), u++;
		else
			u += fwrite(u, 1, len, out);
	}
	return strlen((const char *)u);
}

static size_t utf8_chars(const char *s)
{
	size_t n = 0;

	for (const unsigned char *u = (const unsigned char *)s; *u; n++) {
		size_t len = utf8_char(u);

		u += len ? len : 1;
	}
	return n;
}

/* ---- geometry and colour ---- */

#define SVG_WIDTH 1200
#define SVG_PAD 10
#define FRAME_H 16
#define TOP 68      /* title, subtitle, search box */
#define BOTTOM 28   /* the details line */
#define CHAR_W 7.3  /* 12px monospace, for labels before the script measures them */
#define MIN_W 0.1   /* narrower frames are not drawn (they would be invisible) */

/* h in degrees [0, 360), s and l in [0, 1] */
static void hsl_rgb(double h, double s, double l, int rgb[3])
{
	double c = (1 - (l > 0.5 ? 2 * l - 1 : 1 - 2 * l)) * s;
	int sector = (int)(h / 60) % 6;
	double frac = h / 60 - (int)(h / 60), x = c * (sector % 2 ? 1 - frac : frac), m = l - c / 2;
	static const int8_t comp[6][3] = { { 2, 1, 0 }, { 1, 2, 0 }, { 0, 2, 1 },
					   { 0, 1, 2 }, { 1, 0, 2 }, { 2, 0, 1 } }; /* 2: c, 1: x, 0: none */

	for (int i = 0; i < 3; i++) {
		double v = comp[sector][i] == 2 ? c : comp[sector][i] == 1 ? x : 0;

		rgb[i] = (int)((v + m) * 255 + 0.5);
	}
}

/* User code in warm colours, one hue per binary; the kernel in blues;
 * unknown frames grey; processes lavender.  The name varies the shade. */
static void frame_fill(const struct flame_node *n, FILE *out)
{
	/* FNV-1a 32: a stable hash, so a name always gets the same colour */
	uint32_t hb = hash_str32(n->binary), hn = hash_str32(n->name);
	double shade = (double)(hn % 1000) / 1000.0;
	int rgb[3];

	switch (n->kind) {
	case FLAME_USER:
		hsl_rgb((double)(hb % 56), 0.80, 0.55 + 0.15 * shade, rgb);
		break;
	case FLAME_KERNEL:
		hsl_rgb(190.0 + (double)(hb % 30), 0.60, 0.58 + 0.15 * shade, rgb);
		break;
	case FLAME_UNKNOWN:
		hsl_rgb(0, 0, 0.66 + 0.12 * shade, rgb);
		break;
	case FLAME_PROCESS:
		hsl_rgb(265.0 + (double)(hn % 30), 0.45, 0.72, rgb);
		break;
	case FLAME_ALL:
	default:
		hsl_rgb(0, 0, 0.86, rgb);
	}
	fprintf(out, "rgb(%d,%d,%d)", rgb[0], rgb[1], rgb[2]);
}

struct svg_ctx {
	FILE *out;
	struct flame *f;
	uint64_t total;
	double scale;     /* pixels per sample */
	int max_depth;    /* of the frames drawn */
	size_t next_id;
	size_t hidden;    /* frames too narrow to draw */
};

static size_t subtree_size(const struct flame *f, const struct flame_node *n)
{
	size_t s = 1;

	for (size_t i = 0; i < n->n_kids; i++)
		s += subtree_size(f, f->kids[n->first_kid + i]);
	return s;
}

static bool drawn(const struct svg_ctx *c, const struct flame_node *n)
{
	return (double)n->count * c->scale >= MIN_W;
}

static void measure(struct svg_ctx *c, const struct flame_node *n, int depth)
{
	if (!drawn(c, n)) {
		c->hidden += subtree_size(c->f, n);
		return;
	}
	if (depth > c->max_depth)
		c->max_depth = depth;
	for (size_t i = 0; i < n->n_kids; i++)
		measure(c, c->f->kids[n->first_kid + i], depth + 1);
}

/* the tooltip: the frame, where it ran, its samples and share */
static void write_title(struct svg_ctx *c, const struct flame_node *n)
{
	xml_put(c->out, n->name, SIZE_MAX);
	if (n->kind == FLAME_USER && n->binary) {
		fputs(" (", c->out);
		xml_put(c->out, n->binary, SIZE_MAX);
		fputc(')', c->out);
	} else if (n->kind == FLAME_KERNEL && n->name[0] != '[') {
		fputs(" (kernel)", c->out);
	}
	fprintf(c->out, ": %llu sample%s, %.2f%%", (unsigned long long)n->count, n->count == 1 ? "" : "s",
		100.0 * (double)n->count / (double)c->total);
}

/* the box's label as it fits before the script measures it: "name" or "na.." */
static void write_label(struct svg_ctx *c, const struct flame_node *n, double w)
{
	size_t fit = w > 6 ? (size_t)((w - 6) / CHAR_W) : 0;

	if (fit < 3)
		return;
	if (utf8_chars(n->name) <= fit)
		xml_put(c->out, n->name, SIZE_MAX);
	else if (xml_put(c->out, n->name, fit - 2) > 0)
		fputs("..", c->out);
}

static void write_node(struct svg_ctx *c, const struct flame_node *n, uint64_t start, int depth)
{
	double x = SVG_PAD + (double)start * c->scale, w = (double)n->count * c->scale;
	int y = TOP + (c->max_depth - depth) * FRAME_H;

	if (!drawn(c, n))
		return;
	fprintf(c->out, "<g class=\"f\" id=\"f%zu\" data-a=\"%llu\" data-s=\"%llu\" data-d=\"%d\" data-n=\"",
		c->next_id++, (unsigned long long)start, (unsigned long long)n->count, depth);
	xml_put(c->out, n->name, SIZE_MAX);
	fputs("\"><title>", c->out);
	write_title(c, n);
	fprintf(c->out, "</title><rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" rx=\"2\" fill=\"", x, y, w,
		FRAME_H - 1);
	frame_fill(n, c->out);
	fprintf(c->out, "\"/><text x=\"%.2f\" y=\"%.1f\">", x + 3, y + 11.5);
	write_label(c, n, w);
	fputs("</text></g>\n", c->out);
	for (size_t i = 0; i < n->n_kids; i++) {
		const struct flame_node *k = c->f->kids[n->first_kid + i];

		write_node(c, k, start, depth + 1);
		start += k->count;
	}
}

/* the script: interaction only; the picture is drawn without it */
static const char flame_script[] =
	"'use strict';\n"
	"var frames = [], details, matched, box, unzoom, searching = '';\n"
	"function frameOf(e) {\n"
	"  for (; e && e.classList; e = e.parentNode)\n"
	"    if (e.classList.contains('f')) return e;\n"
	"  return null;\n"
	"}\n"
	"function label(g, x, w) {\n"
	"  var t = g.querySelector('text'), name = g.getAttribute('data-n'), len, n;\n"
	"  t.setAttribute('x', (x + 3).toFixed(2));\n"
	"  t.textContent = name;\n"
	"  if (w < 3 * CHAR_W + 6) { t.textContent = ''; return; }\n"
	"  len = t.getComputedTextLength();\n"
	"  if (len <= w - 6) return;\n"
	"  for (n = Math.floor(name.length * (w - 6) / len); n > 2; n--) {\n"
	"    t.textContent = name.substring(0, n - 2) + '..';\n"
	"    if (t.getComputedTextLength() <= w - 6) return;\n"
	"  }\n"
	"  t.textContent = '';\n"
	"}\n"
	"function place(g, x, w) {\n"
	"  var r = g.querySelector('rect');\n"
	"  g.style.display = '';\n"
	"  r.setAttribute('x', x.toFixed(2));\n"
	"  r.setAttribute('width', w.toFixed(2));\n"
	"  label(g, x, w);\n"
	"}\n"
	"/* z: the frame that fills the width (its ancestors too, dimmed); null: all */\n"
	"function zoom(z) {\n"
	"  var a = z ? z.a : 0, s = z ? z.s : TOTAL, d = z ? z.d : 0, k = (WIDTH - 2 * PAD) / s;\n"
	"  frames.forEach(function (g) {\n"
	"    if (g.d >= d && g.a >= a && g.a + g.s <= a + s) {\n"
	"      place(g, PAD + (g.a - a) * k, g.s * k);\n"
	"      g.classList.remove('anc');\n"
	"    } else if (g.d < d && g.a <= a && g.a + g.s >= a + s) {\n"
	"      place(g, PAD, WIDTH - 2 * PAD);\n"
	"      g.classList.add('anc');\n"
	"    } else {\n"
	"      g.style.display = 'none';\n"
	"    }\n"
	"  });\n"
	"  unzoom.style.display = z ? '' : 'none';\n"
	"}\n"
	"/* highlight the frames whose names match (a regular expression, else\n"
	"   the text itself); their share counts each sample once */\n"
	"function search(term) {\n"
	"  var re = null, hits = [], sum = 0, end = -1;\n"
	"  searching = term;\n"
	"  try { re = term ? new RegExp(term, 'i') : null; } catch (e) { re = null; }\n"
	"  frames.forEach(function (g) {\n"
	"    var hit = term !== '' && (re ? re.test(g.n) : g.n.toLowerCase().indexOf(term.toLowerCase()) >= 0);\n"
	"    g.querySelector('rect').setAttribute('fill', hit ? 'rgb(230,0,230)' : g.fill);\n"
	"    g.classList.toggle('match', hit);\n"
	"    if (hit) hits.push([g.a, g.a + g.s]);\n"
	"  });\n"
	"  hits.sort(function (x, y) { return x[0] - y[0] || y[1] - x[1]; });\n"
	"  hits.forEach(function (h) {\n"
	"    if (h[1] <= end) return;\n"
	"    sum += h[1] - Math.max(h[0], end);\n"
	"    end = h[1];\n"
	"  });\n"
	"  matched.textContent = term ? 'Matched: ' + (100 * sum / TOTAL).toFixed(2) + '%' : '';\n"
	"}\n"
	"function init() {\n"
	"  var q = new URLSearchParams(location.search), z;\n"
	"  details = document.getElementById('details');\n"
	"  matched = document.getElementById('matched');\n"
	"  box = document.getElementById('search');\n"
	"  unzoom = document.getElementById('unzoom');\n"
	"  document.querySelectorAll('g.f').forEach(function (g) {\n"
	"    g.a = +g.getAttribute('data-a'); g.s = +g.getAttribute('data-s');\n"
	"    g.d = +g.getAttribute('data-d'); g.n = g.getAttribute('data-n');\n"
	"    g.fill = g.querySelector('rect').getAttribute('fill');\n"
	"    frames.push(g);\n"
	"  });\n"
	"  var all = document.getElementById('frames');\n"
	"  all.addEventListener('mouseover', function (e) {\n"
	"    var g = frameOf(e.target);\n"
	"    if (g) details.textContent = g.querySelector('title').textContent;\n"
	"  });\n"
	"  all.addEventListener('mouseout', function () { details.textContent = ''; });\n"
	"  all.addEventListener('click', function (e) {\n"
	"    var g = frameOf(e.target);\n"
	"    if (g) zoom(g);\n"
	"  });\n"
	"  unzoom.addEventListener('click', function () { zoom(null); });\n"
	"  box.addEventListener('input', function () { search(box.value); });\n"
	"  document.addEventListener('keydown', function (e) {\n"
	"    if ((e.ctrlKey || e.metaKey) && e.key === 'f') { e.preventDefault(); box.focus(); }\n"
	"    else if (e.key === 'Escape') { box.value = ''; search(''); zoom(null); }\n"
	"  });\n"
	"  /* ?z=ID zooms into a frame and ?s=TERM searches, for links */\n"
	"  z = q.get('z') ? document.getElementById(q.get('z')) : null;\n"
	"  zoom(z && z.classList.contains('f') ? z : null);\n"
	"  if (q.get('s')) { box.value = q.get('s'); search(q.get('s')); }\n"
	"  document.documentElement.setAttribute('data-ready', '1');\n"
	"}\n"
	"window.addEventListener('load', init);\n";

static void write_head(struct svg_ctx *c, const struct flame_svg_opts *o, int height)
{
	FILE *out = c->out;

	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		     "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" "
		     "viewBox=\"0 0 %d %d\">\n",
		SVG_WIDTH, height, SVG_WIDTH, height);
	fputs("<style>\n"
	      "text { font-family: monospace; font-size: 12px; fill: #000; }\n"
	      "#title { font-size: 17px; text-anchor: middle; }\n"
	      "#subtitle { fill: #555; text-anchor: middle; }\n"
	      "#unzoom { cursor: pointer; fill: #00c; }\n"
	      "g.f { cursor: pointer; }\n"
	      "g.f:hover rect { stroke: #000; stroke-width: 0.5; }\n"
	      "g.anc rect { fill-opacity: 0.55; }\n"
	      "</style>\n", out);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#f8f8f4\"/>\n", SVG_WIDTH, height);
	fprintf(out, "<text id=\"title\" x=\"%d\" y=\"24\">", SVG_WIDTH / 2);
	xml_put(out, o->title, SIZE_MAX);
	fprintf(out, "</text>\n<text id=\"subtitle\" x=\"%d\" y=\"42\">", SVG_WIDTH / 2);
	xml_put(out, o->subtitle ? o->subtitle : "", SIZE_MAX);
	if (c->hidden)
		fprintf(out, "%s%zu frames narrower than %.1f pixel not drawn", o->subtitle && *o->subtitle ? "; " : "",
			c->hidden, MIN_W);
	fputs("</text>\n", out);
	fprintf(out, "<text id=\"unzoom\" x=\"%d\" y=\"24\" style=\"display: none\">Reset Zoom</text>\n", SVG_PAD);
	fprintf(out, "<text x=\"%d\" y=\"60\">Search:</text>\n"
		     "<foreignObject x=\"%d\" y=\"47\" width=\"%d\" height=\"20\">"
		     "<input xmlns=\"http://www.w3.org/1999/xhtml\" id=\"search\" type=\"search\" "
		     "placeholder=\"regular expression\" style=\"width: 100%%; font: 12px monospace\"/>"
		     "</foreignObject>\n",
		SVG_WIDTH - 290, SVG_WIDTH - 230, 220);
	fprintf(out, "<script type=\"text/ecmascript\"><![CDATA[\nvar WIDTH = %d, PAD = %d, CHAR_W = %.1f, TOTAL = %llu;\n",
		SVG_WIDTH, SVG_PAD, CHAR_W, (unsigned long long)c->total);
	fputs(flame_script, out);
	fputs("]]></script>\n", out);
}

void flame_write_svg(struct flame *f, const struct flame_svg_opts *o, FILE *out)
{
	struct svg_ctx c = { .out = out, .f = f, .total = f->nodes[0].count };
	int height;

	sort_kids(f);
	c.scale = c.total ? (double)(SVG_WIDTH - 2 * SVG_PAD) / (double)c.total : 0;
	if (c.total)
		measure(&c, &f->nodes[0], 0);
	height = TOP + (c.max_depth + 1) * FRAME_H + BOTTOM;
	write_head(&c, o, height);
	fputs("<g id=\"frames\">\n", out);
	if (c.total)
		write_node(&c, &f->nodes[0], 0, 0);
	else
		fprintf(out, "<text x=\"%d\" y=\"%d\">no samples</text>\n", SVG_PAD, TOP + 12);
	fputs("</g>\n", out);
	fprintf(out, "<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n", SVG_PAD, height - 10);
	fprintf(out, "<text id=\"matched\" x=\"%d\" y=\"%d\" style=\"text-anchor: end\"> </text>\n",
		SVG_WIDTH - SVG_PAD, height - 10);
	fputs("</svg>\n", out);
}
