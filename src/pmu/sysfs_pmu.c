/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "event/event_spec.h"
#include "event/plm.h"
#include "sysfs_pmu.h"

#define SYSFS_FILE_MAX 4096 /* a sysfs attribute is at most a page */
#define MAX_TERMS 64        /* terms in one event, its alias's included */

const char *sysfs_pmu_root(void)
{
	const char *dir = getenv("PFMON_TEST_SYSFS_PMUS");

	return dir && *dir ? dir : "/sys/bus/event_source/devices";
}

/* a PMU, event or term name: no '/' or '.' can climb out of the directory */
static bool plain_name(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-' && !(s[i] == '.' && i && i + 1 < n))
			return false;
	return !(n <= 2 && s[0] == '.');
}

/* the first line of file DIR/PMU/REL (a sysfs attribute), NULL if none */
static char *read_attr(const char *pmu, const char *rel)
{
	char *path = xasprintf("%s/%s/%s", sysfs_pmu_root(), pmu, rel), buf[SYSFS_FILE_MAX];
	char *line = read_first_line(path, buf, sizeof(buf)) ? xstrdup(buf) : NULL;

	free(path);
	return line;
}

unsigned sysfs_pmu_lbr_depth(void)
{
	static const char *const pmus[] = { "cpu", "cpu_core" };
	unsigned depth = 0;

	for (size_t i = 0; i < ARRAY_SIZE(pmus) && !depth; i++) {
		char *line = read_attr(pmus[i], "caps/branches");
		uint64_t v;

		if (line && parse_u64(line, &v) && v <= UINT32_MAX)
			depth = (unsigned)v;
		free(line);
	}
	return depth;
}

/* ----- formats: which bits of which config word a term sets ----- */

struct field {
	int word; /* 0: config, 1: config1, 2: config2 */
	uint64_t mask; /* the bits, in the word */
	unsigned width; /* how many */
};

static __u64 *config_word(struct perf_event_attr *a, int word)
{
	return word == 0 ? &a->config : word == 1 ? &a->config1 : &a->config2;
}

/* "config:0-7,32-35", "config1:8", "config2:0-63": NULL, or why it is none
 * (config3 came with Linux 6.3, after the headers pfmon is built with) */
static const char *parse_format(const char *s, struct field *f)
{
	const char *colon = strchr(s, ':');
	char **ranges;
	size_t n;
	const char *why = NULL;

	memset(f, 0, sizeof(*f));
	if (!colon)
		return "no ':' after the config word";
	if ((size_t)(colon - s) == 6 && !strncmp(s, "config", 6))
		f->word = 0;
	else if ((size_t)(colon - s) == 7 && !strncmp(s, "config", 6) && s[6] >= '1' && s[6] <= '2')
		f->word = s[6] - '0';
	else
		return "not one of config, config1, config2";
	ranges = str_split(colon + 1, ',', &n);
	for (size_t i = 0; i < n && !why; i++) {
		char *dash = strchr(ranges[i], '-');
		uint64_t lo, hi;

		if (dash)
			*dash = '\0';
		if (!parse_u64(ranges[i], &lo) || !parse_u64(dash ? dash + 1 : ranges[i], &hi) || lo > hi || hi > 63)
			why = "a bit range is not N or N-M within 0-63";
		for (uint64_t b = lo; !why && b <= hi; b++) {
			f->mask |= 1ull << b;
			f->width++;
		}
	}
	str_vec_free(ranges);
	return why ? why : f->width ? NULL : "no bits";
}

/* value's low bits spread over the field's bits, low to high */
static void set_field(struct perf_event_attr *a, const struct field *f, uint64_t value)
{
	__u64 *w = config_word(a, f->word);

	*w &= ~f->mask;
	for (unsigned b = 0; b < 64; b++)
		if (f->mask >> b & 1) {
			*w |= (value & 1) << b;
			value >>= 1;
		}
}

/* ----- terms ----- */

struct term {
	char *key;
	char *value; /* NULL for a bare term */
};

struct parse {
	const char *text; /* the event as given, for errors */
	struct sysfs_pmu_event *ev;
	struct pf_error *err;
	char *needed; /* an alias's "KEY=?" not yet given */
};

static int fail(struct parse *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct parse *p, const char *fmt, ...)
{
	char why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return pf_error_set(p->err, PF_E_EVENT_SYNTAX, p->text, why);
}

static int term_value(struct parse *p, const struct term *t, uint64_t *v)
{
	const char *why;

	if (!t->value) {
		*v = 1; /* a bare format term is a flag: 1, as perf sets it */
		return 0;
	}
	why = parse_u64_why(t->value, v);
	return why ? fail(p, "term '%s': %s", t->key, why) : 0;
}

static int set_format(struct parse *p, const struct term *t, const char *spec)
{
	struct field f;
	const char *why = parse_format(spec, &f);
	uint64_t v;

	if (why)
		return fail(p, "%s/format/%s is '%s': %s", p->ev->pmu, t->key, spec, why);
	if (term_value(p, t, &v))
		return -1;
	if (f.width < 64 && v >> f.width)
		return fail(p, "term '%s': %#llx does not fit its %u bits", t->key, (unsigned long long)v, f.width);
	set_field(&p->ev->attr, &f, v);
	return 0;
}

static int apply_terms(struct parse *p, char *list, int depth);

/* events/EVENT.KIND holds 1 (.per-pkg, .snapshot) */
static bool flag_attr(const char *pmu, const char *event, const char *kind)
{
	char *rel = xasprintf("events/%s.%s", event, kind), *v = read_attr(pmu, rel);
	bool set = v && !strcmp(v, "1");

	free(rel);
	free(v);
	return set;
}

/* PMU/EVENT/: the terms in events/EVENT, and its scale and unit */
static int apply_alias(struct parse *p, const char *name, const char *terms, int depth)
{
	char *rel = xasprintf("events/%s.scale", name), *scale = read_attr(p->ev->pmu, rel), *copy;
	int rc;

	free(rel);
	if (scale && !parse_real(scale, &p->ev->scale)) {
		rc = fail(p, "%s/events/%s.scale is '%s', not a number", p->ev->pmu, name, scale);
		free(scale);
		return rc;
	}
	free(scale);
	rel = xasprintf("events/%s.unit", name);
	free(p->ev->unit);
	p->ev->unit = read_attr(p->ev->pmu, rel);
	free(rel);
	p->ev->per_pkg = flag_attr(p->ev->pmu, name, "per-pkg");
	p->ev->snapshot = flag_attr(p->ev->pmu, name, "snapshot");
	copy = xstrdup(terms);
	rc = apply_terms(p, copy, depth + 1);
	free(copy);
	return rc;
}

static int apply_term(struct parse *p, const struct term *t, int depth)
{
	static const char *const words[] = { "config", "config1", "config2" };
	char *rel, *spec;
	uint64_t v;
	int rc;

	if (!plain_name(t->key, strlen(t->key)))
		return fail(p, "'%s' is not a term name", t->key);
	if (t->value && !strcmp(t->value, "?")) {
		if (!p->needed) /* the alias leaves it to the user */
			p->needed = xstrdup(t->key);
		return 0;
	}
	if (p->needed && !strcmp(p->needed, t->key)) {
		free(p->needed);
		p->needed = NULL;
	}
	for (int w = 0; w < 3; w++)
		if (!strcmp(t->key, words[w])) {
			if (term_value(p, t, &v))
				return -1;
			*config_word(&p->ev->attr, w) = v;
			return 0;
		}
	if (!strcmp(t->key, "name")) {
		if (!t->value)
			return fail(p, "term 'name' needs a value");
		free(p->ev->name);
		p->ev->name = xstrdup(t->value);
		return 0;
	}
	if (!strcmp(t->key, "period") || !strcmp(t->key, "freq")) {
		if (!t->value || parse_u64_why(t->value, &v) || !v)
			return fail(p, "term '%s' needs a number above 0", t->key);
		p->ev->attr.sample_period = v; /* sample_freq shares the field */
		p->ev->attr.freq = t->key[0] == 'f';
		return 0;
	}
	rel = xasprintf("format/%s", t->key);
	spec = read_attr(p->ev->pmu, rel);
	free(rel);
	if (spec) {
		rc = set_format(p, t, spec);
		free(spec);
		return rc;
	}
	rel = xasprintf("events/%s", t->key);
	spec = t->value ? NULL : read_attr(p->ev->pmu, rel);
	free(rel);
	if (spec) {
		rc = depth ? fail(p, "%s/events/%s names another event", p->ev->pmu, t->key)
			   : apply_alias(p, t->key, spec, depth);
		free(spec);
		return rc;
	}
	return fail(p, "PMU '%s' has no event or term '%s' (see 'pfmon -L %s/')", p->ev->pmu, t->key, p->ev->pmu);
}

/* "event=0x3c,umask=0x1,edge": each term in order, a later one overriding */
static int apply_terms(struct parse *p, char *list, int depth)
{
	size_t n;
	char **terms;
	int rc = 0;

	if (!*list)
		return 0;
	terms = str_split(list, ',', &n);
	if (n > MAX_TERMS)
		rc = fail(p, "more than %d terms", MAX_TERMS);
	for (size_t i = 0; i < n && !rc; i++) {
		char *eq = strchr(terms[i], '=');
		struct term t = { terms[i], eq ? eq + 1 : NULL };

		if (eq)
			*eq = '\0';
		if (!*t.key)
			rc = fail(p, "an empty term");
		else
			rc = apply_term(p, &t, depth);
	}
	str_vec_free(terms);
	return rc;
}

/* ----- modifiers ----- */

/* perf's modifiers after the closing '/': u, k, h levels; p precision; G, H */
static int apply_modifiers(struct parse *p, const char *mods)
{
	struct perf_event_attr *a = &p->ev->attr;
	bool u = false, k = false, h = false;
	unsigned precise = 0;

	if (*mods == ':')
		mods++;
	for (const char *m = mods; *m; m++) {
		switch (*m) {
		case 'u': u = true; break;
		case 'k': k = true; break;
		case 'h': h = true; break;
		case 'p': precise++; break;
		case 'G': a->exclude_host = 1; break;
		case 'H': a->exclude_guest = 1; break;
		default:
			if (!isgraph((unsigned char)*m))
				return fail(p, "byte %#x after the PMU's terms", (unsigned char)*m);
			return fail(p, "unknown modifier '%c' after the PMU's terms (u, k, h, p, G and H are taken)", *m);
		}
	}
	if (precise > 3)
		return fail(p, "at most 3 'p' modifiers");
	a->precise_ip = precise;
	if (u || k || h) {
		a->exclude_user = !u;
		a->exclude_kernel = !k;
		a->exclude_hv = !h;
		p->ev->levels_given = true;
		p->ev->plm = (u ? PF_PLM_USER : 0) | (k ? PF_PLM_KERNEL : 0);
	}
	return 0;
}

/* perf's PMU name without its instance number: "arm_spe" is the first
 * "arm_spe_N" of the directory (NULL if none) */
static char *pmu_instance(const char *name)
{
	size_t n, len = strlen(name);
	char **names = dir_names_sorted(sysfs_pmu_root(), &n), *found = NULL;

	for (size_t i = 0; i < n && !found; i++) {
		const char *rest = names[i] + len;

		if (!strncmp(names[i], name, len) && rest[0] == '_' && rest[1] &&
		    strspn(rest + 1, "0123456789") == strlen(rest + 1))
			found = xstrdup(names[i]);
	}
	str_vec_free(names);
	return found;
}

static int pmu_type(struct parse *p)
{
	char *type = read_attr(p->ev->pmu, "type"), *inst;
	uint64_t v;
	bool ok;

	if (!type && (inst = pmu_instance(p->ev->pmu)) != NULL) {
		free(p->ev->pmu);
		p->ev->pmu = inst;
		type = read_attr(p->ev->pmu, "type");
	}
	ok = type && parse_u64(type, &v) && v <= UINT32_MAX;
	free(type);
	/* AMD's IBS, the D-EAR's heir: say what it takes, not just that it is absent */
	if (!ok && (!strcmp(p->ev->pmu, "ibs_op") || !strcmp(p->ev->pmu, "ibs_fetch")))
		return fail(p, "no PMU '%s' in %s: AMD IBS needs an AMD CPU with IBS and a kernel that exposes it "
			    "(virtual machines seldom do)", p->ev->pmu, sysfs_pmu_root());
	if (!ok && !strncmp(p->ev->pmu, "arm_spe", 7))
		return fail(p, "no PMU '%s' in %s: Arm SPE needs an arm64 CPU with the Statistical Profiling "
			    "Extension and the kernel's arm_spe_pmu driver", p->ev->pmu, sysfs_pmu_root());
	if (!ok)
		return fail(p, "no PMU '%s' in %s (see 'pfmon -l')", p->ev->pmu, sysfs_pmu_root());
	p->ev->attr.type = (uint32_t)v;
	return 0;
}

int sysfs_pmu_encode(const char *text, struct sysfs_pmu_event *ev, struct pf_error *err)
{
	struct parse p = { text, ev, err, NULL };
	const char *open = strchr(text, '/'), *close = open ? strchr(open + 1, '/') : NULL;
	char *terms;
	int rc;

	memset(ev, 0, sizeof(*ev));
	ev->scale = 1;
	ev->attr.size = sizeof(ev->attr);
	if (!event_spec_pmu_form(text))
		return fail(&p, "expected PMU/TERMS/");
	if (!close)
		return fail(&p, "no '/' closes the PMU's terms");
	ev->pmu = xstrndup(text, (size_t)(open - text));
	if (!plain_name(ev->pmu, strlen(ev->pmu)))
		return fail(&p, "'%s' is not a PMU name", ev->pmu);
	if (pmu_type(&p))
		return -1;
	ev->aux_trace = !strncmp(ev->pmu, "arm_spe", 7);
	/* uncore and RAPL PMUs count on one CPU of each package (cpumask),
	 * hybrid cores' PMUs on theirs (cpus) */
	ev->cpus = read_attr(ev->pmu, "cpumask");
	if (!ev->cpus)
		ev->cpus = read_attr(ev->pmu, "cpus");
	terms = xstrndup(open + 1, (size_t)(close - open - 1));
	rc = apply_terms(&p, terms, 0);
	free(terms);
	if (!rc && p.needed)
		rc = fail(&p, "the event needs a value for '%s' (%s=N)", p.needed, p.needed);
	free(p.needed);
	return rc ? rc : apply_modifiers(&p, close + 1);
}

void sysfs_pmu_event_release(struct sysfs_pmu_event *ev)
{
	free(ev->pmu);
	free(ev->name);
	free(ev->unit);
	free(ev->cpus);
	memset(ev, 0, sizeof(*ev));
}

/* ----- listing ----- */

/* a PMU's events or formats: not the .scale and .unit beside an event */
static bool companion_file(const char *name)
{
	const char *dot = strrchr(name, '.');

	return dot && (!strcmp(dot, ".scale") || !strcmp(dot, ".unit") || !strcmp(dot, ".per-pkg") ||
		       !strcmp(dot, ".snapshot"));
}

/* "PMU/NAME/" (an event) or "PMU/NAME=N/" (a format term), the file's text its description */
static int list_one(const char *pmu, const char *sub, const char *name, event_name_cb cb, void *arg)
{
	bool format = !strcmp(sub, "format");
	char *rel = xasprintf("%s/%s", sub, name), *body = read_attr(pmu, rel);
	char *unit_rel = xasprintf("events/%s.unit", name), *unit = format ? NULL : read_attr(pmu, unit_rel);
	char *full = xasprintf("%s/%s%s/", pmu, name, format ? "=N" : "");
	char *desc = xasprintf("%s%s%s%s", format ? "format " : "Kernel PMU event: ", body ? body : "",
			       unit ? ", in " : "", unit ? unit : "");
	int stop = cb(full, desc, arg);

	free(rel);
	free(body);
	free(unit_rel);
	free(unit);
	free(full);
	free(desc);
	return stop;
}

/* each name in PMU/SUB (events or format) */
static int list_dir(const char *pmu, const char *sub, event_name_cb cb, void *arg)
{
	char *path = xasprintf("%s/%s/%s", sysfs_pmu_root(), pmu, sub);
	size_t n;
	char **names = dir_names_sorted(path, &n);
	int stop = 0;

	free(path);
	for (size_t i = 0; i < n && !stop; i++)
		if (!companion_file(names[i]))
			stop = list_one(pmu, sub, names[i], cb, arg);
	str_vec_free(names);
	return stop;
}

int sysfs_pmu_list(bool long_names, event_name_cb cb, void *arg)
{
	size_t n;
	char **pmus = dir_names_sorted(sysfs_pmu_root(), &n);
	int stop = 0;

	for (size_t i = 0; i < n && !stop; i++) {
		stop = list_dir(pmus[i], "events", cb, arg);
		if (!stop && long_names)
			stop = list_dir(pmus[i], "format", cb, arg);
	}
	str_vec_free(pmus);
	return stop;
}

int sysfs_pmu_info(const char *text, struct event_info *out, struct pf_error *err)
{
	struct sysfs_pmu_event ev;
	size_t n;
	char *path, **formats;

	if (sysfs_pmu_encode(text, &ev, err)) {
		sysfs_pmu_event_release(&ev);
		return -1;
	}
	event_info_add(out, "Name", "%s", ev.name ? ev.name : text);
	event_info_add(out, "PMU", "%s (type %u, %s/%s)", ev.pmu, ev.attr.type, sysfs_pmu_root(), ev.pmu);
	if (ev.unit || ev.scale != 1)
		event_info_add(out, "Scale", "one count is %g %s", ev.scale, ev.unit ? ev.unit : "");
	path = xasprintf("%s/%s/format", sysfs_pmu_root(), ev.pmu);
	formats = dir_names_sorted(path, &n);
	for (size_t i = 0; i < n; i++) {
		char *rel = xasprintf("format/%s", formats[i]), *body = read_attr(ev.pmu, rel);

		event_info_add(out, "Term", "%s : %s", formats[i], body ? body : "?");
		free(rel);
		free(body);
	}
	str_vec_free(formats);
	free(path);
	event_info_add(out, "Encoding", "type=%u config=%#llx config1=%#llx config2=%#llx", ev.attr.type,
		       (unsigned long long)ev.attr.config, (unsigned long long)ev.attr.config1,
		       (unsigned long long)ev.attr.config2);
	sysfs_pmu_event_release(&ev);
	return 0;
}
