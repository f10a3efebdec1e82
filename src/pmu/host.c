/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <ctype.h>
/* the kernel's header first: libpfm4's copy then stands aside */
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/util.h"
#include "event/event_spec.h"
#include "host.h"
#include "libpfm.h"
#include "perf_generic.h"
#include "sysfs_pmu.h"
#include "tracepoint.h"

/*
 * libpfm4 is loaded and initialised (its probe of every PMU takes about
 * 2 ms) only when an event is not one of perf's generic names; pfm is the
 * library once it is.
 */
static const struct libpfm *pfm;

static int pfm_ready(struct pf_error *err)
{
	pfm = libpfm(err);
	return pfm ? 0 : -1;
}

static void apply_plm(struct perf_event_attr *attr, unsigned plm)
{
	attr->exclude_user = !(plm & PF_PLM_USER);
	attr->exclude_kernel = !(plm & PF_PLM_KERNEL);
	attr->exclude_hv = 1;
}

/* perf's modifier suffixes on generic events and tracepoints (from qualifier
 * first on): u, k, h, in any combination */
static int generic_modifiers(const struct event_spec *spec, size_t first, unsigned *plm, struct pf_error *err)
{
	unsigned mods = 0;

	for (size_t i = first; i < spec->n_quals; i++) {
		const char *k = spec->quals[i].key;
		char why[160];

		if (spec->quals[i].value || strspn(k, "ukh") != strlen(k)) {
			snprintf(why, sizeof(why), "unknown modifier '%s' (perf's generic events and tracepoints "
				 "take u, k or h)", k);
			return pf_error_set(err, PF_E_BAD_MODIFIER, spec->text, why);
		}
		for (; *k; k++)
			mods |= *k == 'u' ? PF_PLM_USER : *k == 'k' ? PF_PLM_KERNEL : 0;
	}
	if (mods)
		*plm = mods;
	return 0;
}

static void prog_init(struct counter_prog *out, const char *text, const char *name)
{
	memset(out, 0, sizeof(*out));
	out->given = xstrdup(text);
	out->name = xstrdup(name);
	out->is_live = true;
	out->attr.size = sizeof(out->attr);
}

static void encode_generic(const struct perf_generic_event *ev, const char *text, unsigned plm,
			   struct counter_prog *out)
{
	prog_init(out, text, text);
	out->attr.type = ev->type;
	out->attr.config = ev->config;
	out->is_software = perf_generic_is_software(ev);
	/* pfmon counts hardware events at user level unless told otherwise;
	 * software events live in the kernel and count at every level, as in perf */
	if (!plm)
		plm = out->is_software ? PF_PLM_USER | PF_PLM_KERNEL : PF_PLM_USER;
	out->plm = plm;
	apply_plm(&out->attr, plm);
	if (out->is_software)
		out->attr.exclude_hv = 0;
	if (ev->libpfm_name)
		out->fstr = xasprintf("perf::%s:u=%d:k=%d", ev->libpfm_name, !out->attr.exclude_user,
				      !out->attr.exclude_kernel);
}

/* perf's SUBSYSTEM:EVENT[:MODIFIERS], a tracepoint of the running kernel? */
static bool tracepoint_of(const struct event_spec *spec, uint64_t *id)
{
	if (spec->pmu || spec->dot_umask || !spec->n_quals || spec->quals[0].value)
		return false;
	return tracepoint_id(tracefs_dir(), spec->name, spec->quals[0].key, id);
}

/* an unknown SUBSYSTEM:EVENT: what tracefs has instead, or NULL */
static char *tracepoint_hint(const struct event_spec *spec)
{
	const char *dir = tracefs_dir();

	/* perf's subsystems are lower case, libpfm4's events upper case */
	if (spec->pmu || spec->dot_umask || !spec->n_quals || spec->quals[0].value ||
	    !islower((unsigned char)spec->name[0]))
		return NULL;
	if (!dir)
		return xstrdup(" (tracepoints are read from tracefs, which is not mounted here: "
			       "mount -t tracefs nodev /sys/kernel/tracing)");
	if (!tracefs_readable(dir))
		return xasprintf(" (tracepoints are read from %s, which this user cannot read)", dir);
	if (tracepoint_subsystem(dir, spec->name))
		return xasprintf(" (tracepoint subsystem '%s' has no such event: see %s/events/%s)", spec->name, dir,
				 spec->name);
	return NULL;
}

/*
 * A tracepoint fires in the kernel, so it counts at every level unless
 * told otherwise, as in perf (and as software events here); at user level
 * only it would count 0 (lower_default_levels() says so).
 */
static void encode_tracepoint(const char *text, uint64_t id, unsigned plm, struct counter_prog *out)
{
	prog_init(out, text, text);
	out->attr.type = PERF_TYPE_TRACEPOINT;
	out->attr.config = id;
	out->is_software = true; /* no PMU needed */
	out->kernel_only = true;
	out->plm = plm ? plm : PF_PLM_USER | PF_PLM_KERNEL;
	apply_plm(&out->attr, out->plm);
	out->attr.exclude_hv = 0;
}

/* the bits of an access string: r, w, x, rw (perf's letters); 0 if invalid */
static unsigned breakpoint_access(const char *s)
{
	unsigned type = 0;

	for (; *s; s++) {
		if (*s == 'r')
			type |= HW_BREAKPOINT_R;
		else if (*s == 'w')
			type |= HW_BREAKPOINT_W;
		else if (*s == 'x')
			type |= HW_BREAKPOINT_X;
		else
			return 0;
	}
	return type;
}

/* Every 64-bit Linux keeps the kernel in the upper half of the address space. */
static bool kernel_address(uint64_t addr)
{
	return sizeof(long) == 8 && (addr >> 63) != 0;
}

static bool breakpoint_length(uint64_t len)
{
	return len == 1 || len == 2 || len == 4 || len == 8;
}

/* why the parts of mem:ADDR[/LEN][:rwx] are not what the kernel takes, or NULL */
static const char *breakpoint_fields(const char *a, const char *l, const char *rwx, uint64_t *addr,
				     uint64_t *len, unsigned *type, char *msg, size_t size)
{
	const char *why = parse_u64_why(a, addr);

	if (why) {
		snprintf(msg, size, "breakpoint address: %s (expected mem:ADDR[/LEN][:rwx])", why);
		return msg;
	}
	if (l && (parse_u64_why(l, len) || !breakpoint_length(*len)))
		return "breakpoint length must be 1, 2, 4 or 8";
	if (rwx && !(*type = breakpoint_access(rwx)))
		return "breakpoint access after ':' is r, w, x or rw";
	if ((*type & HW_BREAKPOINT_X) && *type != HW_BREAKPOINT_X)
		return "an execute breakpoint cannot also watch data";
	if (*addr > UINT64_MAX - (*len - 1)) {
		snprintf(msg, size, "breakpoint [%#llx, +%llu) wraps past the end of the address space",
			 (unsigned long long)*addr, (unsigned long long)*len);
		return msg;
	}
	return NULL;
}

static int parse_breakpoint(const char *text, uint64_t *addr, uint64_t *len, unsigned *type, struct pf_error *err)
{
	char *copy = xstrdup(text + 4);
	char *colon = strchr(copy, ':');
	char *slash;
	const char *why;
	char msg[160];

	if (colon)
		*colon++ = '\0';
	slash = strchr(copy, '/'); /* in ADDR/LEN, before the access letters */
	if (slash)
		*slash++ = '\0';
	*len = sizeof(long);
	*type = HW_BREAKPOINT_RW;
	why = breakpoint_fields(copy, slash, colon, addr, len, type, msg, sizeof(msg));
	if (why)
		pf_error_set(err, PF_E_EVENT_SYNTAX, text, why);
	free(copy);
	return why ? -1 : 0;
}

/* perf's breakpoint syntax: mem:ADDR[/LEN][:rwx] */
static int encode_breakpoint(const char *text, unsigned plm, struct counter_prog *out, struct pf_error *err)
{
	uint64_t addr, len;
	unsigned type;

	if (parse_breakpoint(text, &addr, &len, &type, err))
		return -1;
	if (!plm)
		plm = PF_PLM_USER;
	/* the kernel refuses it with a bare EINVAL */
	if (kernel_address(addr) && !(plm & PF_PLM_KERNEL))
		return pf_error_set(err, PF_E_EVENT_SYNTAX, text,
				    "a kernel address cannot be watched at user level (add -k, or --priv-levels=k)");
	prog_init(out, text, text);
	out->attr.type = PERF_TYPE_BREAKPOINT;
	out->attr.bp_type = type;
	out->attr.bp_addr = addr;
	out->attr.bp_len = type == HW_BREAKPOINT_X ? sizeof(long) : len;
	out->is_software = true; /* debug registers, not the PMU */
	out->plm = plm;
	apply_plm(&out->attr, out->plm);
	return 0;
}

/* ----- libpfm4 events ----- */

static int attr_matches(int eidx, const char *key)
{
	pfm_event_info_t info = { .size = sizeof(info) };

	if (pfm->get_event_info(eidx, PFM_OS_PERF_EVENT_EXT, &info) != PFM_SUCCESS)
		return 0;
	for (int a = 0; a < info.nattrs; a++) {
		pfm_event_attr_info_t ai = { .size = sizeof(ai) };

		if (pfm->get_event_attr_info(eidx, a, PFM_OS_PERF_EVENT_EXT, &ai) == PFM_SUCCESS &&
		    strcasecmp(ai.name, key) == 0)
			return 1;
	}
	return 0;
}

/* the unit masks an error line lists before "and N more" (an event of
 * libpfm4's icx has 90, in 2,400 characters) */
#define UMASK_LIST_MAX 320

/* " (valid: A, B, and 12 more: 'pfmon -i EVENT' lists them)" */
static void list_umasks(int eidx, const char *event, struct strbuf *sb)
{
	pfm_event_info_t info = { .size = sizeof(info) };
	size_t start = sb->len;
	int n = 0, more = 0;

	if (pfm->get_event_info(eidx, PFM_OS_PERF_EVENT_EXT, &info) != PFM_SUCCESS)
		return;
	for (int a = 0; a < info.nattrs; a++) {
		pfm_event_attr_info_t ai = { .size = sizeof(ai) };

		if (pfm->get_event_attr_info(eidx, a, PFM_OS_PERF_EVENT_EXT, &ai) != PFM_SUCCESS ||
		    ai.type != PFM_ATTR_UMASK)
			continue;
		if (more || sb->len - start + strlen(ai.name) > UMASK_LIST_MAX) {
			more++;
			continue;
		}
		strbuf_addstr(sb, n++ ? ", " : " (valid: ");
		strbuf_addstr(sb, ai.name);
	}
	if (more)
		strbuf_addf(sb, ", and %d more: 'pfmon -i %s' lists them", more, event);
	if (n)
		strbuf_addch(sb, ')');
}

/* libpfm4 says only "invalid or missing unit mask": name the culprit */
static int umask_error(const struct event_spec *spec, struct pf_error *err)
{
	char *base = xasprintf("%s%s%s", spec->pmu ? spec->pmu : "", spec->pmu ? "::" : "", spec->name);
	int eidx = pfm->find_event(base);
	struct strbuf valid = STRBUF_INIT;
	const char *bad = "";

	if (eidx >= 0) {
		for (size_t i = 0; i < spec->n_quals; i++)
			if (!spec->quals[i].value && !attr_matches(eidx, spec->quals[i].key)) {
				bad = spec->quals[i].key;
				break;
			}
		list_umasks(eidx, base, &valid);
	}
	free(base);
	if (!*bad)
		bad = spec->n_quals ? "(combination)" : "(missing)";
	pf_error_set(err, PF_E_BAD_UMASK, spec->text, bad, strbuf_str(&valid));
	strbuf_release(&valid);
	return -1;
}

/* libpfm4 says "invalid event attribute (value)": name the qualifier */
static int attr_error(const struct event_spec *spec, int rc, struct pf_error *err)
{
	char *base = xasprintf("%s%s%s", spec->pmu ? spec->pmu : "", spec->pmu ? "::" : "", spec->name);
	int eidx = pfm->find_event(base);
	char why[256];

	free(base);
	for (size_t i = 0; eidx >= 0 && i < spec->n_quals; i++) {
		const struct event_qual *q = &spec->quals[i];

		if (!attr_matches(eidx, q->key)) {
			if (!q->value)
				return umask_error(spec, err);
			snprintf(why, sizeof(why), "unknown modifier '%s' (see 'pfmon -i %s')", q->key, spec->name);
			return pf_error_set(err, PF_E_BAD_MODIFIER, spec->text, why);
		}
		if (q->value && rc == PFM_ERR_ATTR_VAL) {
			snprintf(why, sizeof(why), "invalid value '%s' for modifier '%s'", q->value, q->key);
			return pf_error_set(err, PF_E_BAD_MODIFIER, spec->text, why);
		}
	}
	return pf_error_set(err, PF_E_BAD_MODIFIER, spec->text, pfm->strerror(rc));
}

static int pfm_error(const struct event_spec *spec, int rc, struct pf_error *err)
{
	char *hint;

	switch (rc) {
	case PFM_ERR_NOTFOUND:
		hint = tracepoint_hint(spec);
		if (!hint)
			hint = host_suggest(spec->name);
		pf_error_set(err, PF_E_UNKNOWN_EVENT, spec->text, hint);
		free(hint);
		return -1;
	case PFM_ERR_UMASK:
		return umask_error(spec, err);
	case PFM_ERR_ATTR:
	case PFM_ERR_ATTR_VAL:
		return attr_error(spec, rc, err);
	case PFM_ERR_ATTR_SET:
	case PFM_ERR_FEATCOMB:
		return pf_error_set(err, PF_E_BAD_MODIFIER, spec->text, pfm->strerror(rc));
	default:
		return pf_error_set(err, PF_E_LIBPFM, spec->text, pfm->strerror(rc));
	}
}

/*
 * Modifiers pfmon would let libpfm4 accept and then not honour: a period or
 * a frequency is pfmon's own option (the sampling plan overwrites the attr's
 * and a count would become a sampler's), and libpfm4's cpu= is returned
 * outside the attr, where nothing reads it.
 */
static const struct {
	const char *key;
	const char *instead;
} refused_modifiers[] = {
	{ "period", "set periods with --long-smpl-periods or --short-smpl-periods" },
	{ "freq", "set a sampling frequency with --smpl-freq" },
	{ "cpu", "pfmon measures the command on every CPU it runs on" },
};

/* libpfm4 reads modifier values with strtoull(base 0): "010" would be 8 and "-1" all ones */
static int check_modifier(const struct event_spec *spec, const struct event_qual *q, struct pf_error *err)
{
	const char *why;
	uint64_t v;
	char msg[256];

	for (size_t i = 0; i < ARRAY_SIZE(refused_modifiers); i++) {
		if (strcasecmp(q->key, refused_modifiers[i].key) == 0) {
			snprintf(msg, sizeof(msg), "modifier '%s' is not supported: %s", q->key,
				 refused_modifiers[i].instead);
			return pf_error_set(err, PF_E_BAD_MODIFIER, spec->text, msg);
		}
	}
	if (!q->value || (strlen(q->value) == 1 && strchr("yYnNtTfF", q->value[0])))
		return 0; /* a unit mask, or a boolean spelled as libpfm4 spells it */
	why = parse_u64_why(q->value, &v);
	if (!why)
		return 0;
	snprintf(msg, sizeof(msg), "invalid value '%s' for modifier '%s': %s", q->value, q->key, why);
	return pf_error_set(err, PF_E_BAD_MODIFIER, spec->text, msg);
}

static int encode_libpfm(const struct event_spec *spec, unsigned plm, struct counter_prog *out,
			 struct pf_error *err)
{
	struct perf_event_attr attr = { .size = sizeof(attr) };
	pfm_perf_encode_arg_t arg = { .size = sizeof(arg) };
	char *fstr = NULL;
	int rc;

	for (size_t i = 0; i < spec->n_quals; i++)
		if (check_modifier(spec, &spec->quals[i], err))
			return -1;
	if (pfm_ready(err))
		return -1;
	arg.attr = &attr;
	arg.fstr = &fstr;
	/* libpfm4 numbers privilege levels as pfmon does (PFM_PLM3 = user) */
	rc = pfm->get_os_event_encoding(spec->text, plm ? (int)plm : PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	if (rc != PFM_SUCCESS)
		return pfm_error(spec, rc, err);
	prog_init(out, spec->text, spec->text);
	out->attr = attr;
	out->attr.size = sizeof(out->attr);
	out->fstr = fstr;
	out->plm = (attr.exclude_user ? 0 : PF_PLM_USER) | (attr.exclude_kernel ? 0 : PF_PLM_KERNEL);
	out->is_software = attr.type == PERF_TYPE_SOFTWARE || attr.type == PERF_TYPE_TRACEPOINT;
	out->kernel_only = attr.type == PERF_TYPE_TRACEPOINT; /* libpfm4's, under debugfs */
	for (size_t i = 0; i < spec->n_quals; i++)
		out->levels_given |= !strcasecmp(spec->quals[i].key, "u") || !strcasecmp(spec->quals[i].key, "k");
	return 0;
}

/*
 * perf's PMU/TERMS/[MODIFIERS] for a PMU sysfs describes.  Its levels are
 * perf's: the modifiers', else pfmon's -u/-k when given, else every level
 * with nothing excluded (some PMUs, msr among them, refuse any exclusion,
 * so pfmon's usual user-level default would make them fail to open).
 */
static int encode_sysfs(const char *text, unsigned plm, struct counter_prog *out, struct pf_error *err)
{
	struct sysfs_pmu_event ev;

	if (sysfs_pmu_encode(text, &ev, err)) {
		sysfs_pmu_event_release(&ev);
		return -1;
	}
	prog_init(out, text, ev.name ? ev.name : text);
	out->attr = ev.attr;
	out->is_software = ev.attr.type == PERF_TYPE_SOFTWARE;
	out->kernel_only = ev.attr.type == PERF_TYPE_TRACEPOINT;
	out->scale = ev.scale == 1 ? 0 : ev.scale; /* 0: a plain count */
	out->unit = ev.unit ? xstrdup(ev.unit) : NULL;
	out->cpus = ev.cpus ? xstrdup(ev.cpus) : NULL;
	out->per_pkg = ev.per_pkg;
	out->snapshot = ev.snapshot;
	out->aux_trace = ev.aux_trace;
	if (ev.levels_given) {
		out->plm = ev.plm;
		out->levels_given = true;
	} else if (plm) {
		out->plm = plm;
		apply_plm(&out->attr, plm);
	} else {
		out->plm = PF_PLM_USER | PF_PLM_KERNEL;
	}
	sysfs_pmu_event_release(&ev);
	return 0;
}

/* who encodes an event: perf's generic names, tracefs's tracepoints and
 * sysfs's PMUs are the kernel ABI's; every other name is libpfm4's */
enum host_source {
	HOST_GENERIC,
	HOST_TRACEPOINT,
	HOST_SYSFS,
	HOST_LIBPFM,
};

static enum host_source source_of(const struct event_spec *spec, const struct perf_generic_event **gen,
				  uint64_t *tracepoint)
{
	*gen = !spec->pmu && !spec->dot_umask && !spec->pmu_terms ? perf_generic_find(spec->name) : NULL;
	if (*gen)
		return HOST_GENERIC;
	if (spec->pmu_terms)
		return HOST_SYSFS;
	return tracepoint_of(spec, tracepoint) ? HOST_TRACEPOINT : HOST_LIBPFM;
}

int host_encode_event(const char *text, unsigned plm, struct counter_prog *out, struct pf_error *err)
{
	struct event_spec spec;
	const struct perf_generic_event *gen;
	uint64_t id;
	int rc;

	if (strncasecmp(text, "mem:", 4) == 0)
		return encode_breakpoint(text, plm, out, err);
	if (event_spec_parse(text, &spec, err)) {
		event_spec_release(&spec);
		return -1;
	}
	switch (source_of(&spec, &gen, &id)) {
	case HOST_GENERIC:
		rc = generic_modifiers(&spec, 0, &plm, err);
		if (!rc)
			encode_generic(gen, text, plm, out);
		if (!rc)
			out->levels_given = spec.n_quals != 0;
		break;
	case HOST_TRACEPOINT:
		rc = generic_modifiers(&spec, 1, &plm, err);
		if (!rc)
			encode_tracepoint(text, id, plm, out);
		if (!rc)
			out->levels_given = spec.n_quals > 1;
		break;
	case HOST_SYSFS:
		rc = encode_sysfs(text, plm, out, err);
		break;
	default:
		rc = encode_libpfm(&spec, plm, out, err);
	}
	event_spec_release(&spec);
	return rc;
}

bool host_event_is_libpfm(const char *text)
{
	struct event_spec spec = { 0 };
	const struct perf_generic_event *gen;
	uint64_t id;
	bool libpfm = false;

	if (strncasecmp(text, "mem:", 4) != 0 && event_spec_parse(text, &spec, NULL) == 0)
		libpfm = source_of(&spec, &gen, &id) == HOST_LIBPFM;
	event_spec_release(&spec);
	return libpfm;
}

/* ----- suggestions, listing, info ----- */

struct suggestion {
	const char *want;
	char best[128];
	size_t best_dist;
};

static void consider(struct suggestion *s, const char *name)
{
	size_t d = edit_distance_ci(s->want, name);

	if (d < s->best_dist) {
		s->best_dist = d;
		snprintf(s->best, sizeof(s->best), "%s", name);
	}
}

static int consider_cb(const char *name, const char *desc, void *arg)
{
	const char *sep = strstr(name, "::");

	consider(arg, sep ? sep + 2 : name);
	return 0;
}

static int host_list(const struct pmu_model *m, bool long_names, event_name_cb cb, void *arg,
		     struct pf_error *err);

char *host_suggest(const char *name)
{
	struct suggestion s = { .want = name, .best_dist = (size_t)-1 };
	size_t limit = strlen(name) / 3 + 1;

	host_list(&pmu_host, false, consider_cb, &s, NULL);
	if (s.best_dist > limit || !s.best[0])
		return xstrdup(" (see 'pfmon -l')");
	return xasprintf("; did you mean '%s'?", s.best);
}

static int list_generic(event_name_cb cb, void *arg)
{
	const struct perf_generic_event *ev;

	for (size_t i = 0; (ev = perf_generic_at(i)); i++)
		if (cb(ev->name, ev->desc, arg))
			return 1;
	return 0;
}

static int list_umask_names(int eidx, const char *full, event_name_cb cb, void *arg)
{
	pfm_event_info_t info = { .size = sizeof(info) };
	int stop = 0;

	pfm->get_event_info(eidx, PFM_OS_PERF_EVENT_EXT, &info);
	for (int a = 0; a < info.nattrs && !stop; a++) {
		pfm_event_attr_info_t ai = { .size = sizeof(ai) };
		char *name;

		if (pfm->get_event_attr_info(eidx, a, PFM_OS_PERF_EVENT_EXT, &ai) != PFM_SUCCESS ||
		    ai.type != PFM_ATTR_UMASK)
			continue;
		name = xasprintf("%s:%s", full, ai.name);
		stop = cb(name, ai.desc, arg);
		free(name);
	}
	return stop;
}

static int list_pmu_events(const pfm_pmu_info_t *pinfo, bool long_names, event_name_cb cb, void *arg)
{
	for (int e = pinfo->first_event; e != -1; e = pfm->get_event_next(e)) {
		pfm_event_info_t info = { .size = sizeof(info) };
		char *full;
		int stop;

		if (pfm->get_event_info(e, PFM_OS_PERF_EVENT_EXT, &info) != PFM_SUCCESS)
			continue;
		full = xasprintf("%s::%s", pinfo->name, info.name);
		stop = cb(full, info.desc, arg);
		if (!stop && long_names)
			stop = list_umask_names(e, full, cb, arg);
		free(full);
		if (stop)
			return 1;
	}
	return 0;
}

/* a PMU of libpfm4 whose events -l, --dump-event-table and -I show: detected
 * here (or forced), and not perf's generic PMU, which pfmon lists under
 * perf's own names */
static bool shown_pmu(int p, pfm_pmu_info_t *pinfo)
{
	*pinfo = (pfm_pmu_info_t){ .size = sizeof(*pinfo) };
	return pfm->get_pmu_info(p, pinfo) == PFM_SUCCESS && pinfo->is_present && pinfo->pmu != PFM_PMU_PERF_EVENT &&
	       pinfo->pmu != PFM_PMU_PERF_EVENT_RAW;
}

/* the kernel's own events after perf's generic names, as perf lists them:
 * each sysfs PMU's, then the tracepoints (if this user may read tracefs) */
static int list_kernel(bool long_names, event_name_cb cb, void *arg)
{
	const char *dir = tracefs_dir();

	if (sysfs_pmu_list(long_names, cb, arg))
		return 1;
	return dir && tracefs_readable(dir) ? tracepoint_list(dir, long_names, cb, arg) : 0;
}

static int host_list(const struct pmu_model *m, bool long_names, event_name_cb cb, void *arg,
		     struct pf_error *err)
{
	int p;

	if (list_generic(cb, arg) || list_kernel(long_names, cb, arg))
		return 0;
	if (pfm_ready(err))
		return -1;
	pfm_for_all_pmus(p) {
		pfm_pmu_info_t pinfo;

		if (shown_pmu(p, &pinfo) && list_pmu_events(&pinfo, long_names, cb, arg))
			return 0;
	}
	return 0;
}

/* ----- --dump-event-table: the events -l lists, one TSV row each ----- */

/* the libpfm4 events of the shown PMUs, in -l's order, indexed once */
static const int *libpfm_events(size_t *n)
{
	static int *events;
	static size_t count;
	static bool built;
	int p;

	if (!built && !pfm_ready(NULL)) {
		pfm_for_all_pmus(p) {
			pfm_pmu_info_t pinfo;

			if (!shown_pmu(p, &pinfo))
				continue;
			for (int e = pinfo.first_event; e != -1; e = pfm->get_event_next(e)) {
				pfm_event_info_t info = { .size = sizeof(info) };

				if (pfm->get_event_info(e, PFM_OS_PERF_EVENT_EXT, &info) != PFM_SUCCESS)
					continue;
				events = xrealloc(events, (count + 1) * sizeof(*events));
				events[count++] = e;
			}
		}
	}
	built = true;
	*n = count;
	return events;
}

/* a description in one TSV field: no tab or line break */
static char *tsv_field(const char *s)
{
	char *f = xstrdup(s && *s ? s : "-");

	for (char *c = f; *c; c++)
		if (*c == '\t' || *c == '\n' || *c == '\r')
			*c = ' ';
	return f;
}

static void row_add(table_row *out, const char *key, char *value)
{
	event_info_add(out, key, "%s", value);
	free(value);
}

static void libpfm_row(int eidx, table_row *out)
{
	pfm_event_info_t info = { .size = sizeof(info) };
	pfm_pmu_info_t pinfo = { .size = sizeof(pinfo) };
	struct strbuf umasks = STRBUF_INIT;

	pfm->get_event_info(eidx, PFM_OS_PERF_EVENT_EXT, &info);
	pfm->get_pmu_info(info.pmu, &pinfo);
	for (int a = 0; a < info.nattrs; a++) {
		pfm_event_attr_info_t ai = { .size = sizeof(ai) };

		if (pfm->get_event_attr_info(eidx, a, PFM_OS_PERF_EVENT_EXT, &ai) == PFM_SUCCESS &&
		    ai.type == PFM_ATTR_UMASK)
			strbuf_addf(&umasks, "%s%s%s", umasks.len ? "," : "", ai.name, ai.is_dfl ? "*" : "");
	}
	event_info_add(out, "name", "%s", info.name);
	event_info_add(out, "pmu", "%s", pinfo.name);
	event_info_add(out, "code", "0x%llx", (unsigned long long)info.code);
	row_add(out, "umasks", tsv_field(strbuf_str(&umasks)));
	row_add(out, "desc", tsv_field(info.desc));
	strbuf_release(&umasks);
}

/* the kernel's events -l lists (sysfs PMUs', tracepoints), collected once */
struct kernel_event {
	char *name, *desc;
};

struct kernel_events {
	struct kernel_event *v;
	size_t n;
};

static int collect_kernel_event(const char *name, const char *desc, void *arg)
{
	struct kernel_events *all = arg;

	all->v = xrealloc(all->v, (all->n + 1) * sizeof(*all->v));
	all->v[all->n++] = (struct kernel_event){ xstrdup(name), xstrdup(desc) };
	return 0;
}

static const struct kernel_event *kernel_events(size_t *n)
{
	static struct kernel_events all;
	static bool built;

	if (!built)
		list_kernel(false, collect_kernel_event, &all);
	built = true;
	*n = all.n;
	return all.v;
}

/* a sysfs event's row (its PMU, its config) or a tracepoint's ("tracepoint", its id) */
static void kernel_row(const char *name, const char *desc, table_row *out)
{
	struct counter_prog c;
	bool encoded = host_encode_event(name, 0, &c, NULL) == 0;

	event_info_add(out, "name", "%s", name);
	if (event_spec_pmu_form(name))
		event_info_add(out, "pmu", "%.*s", (int)strcspn(name, "/"), name);
	else
		event_info_add(out, "pmu", "tracepoint");
	if (encoded)
		event_info_add(out, "code", "0x%llx", (unsigned long long)c.attr.config);
	else
		event_info_add(out, "code", "-");
	event_info_add(out, "umasks", "-");
	row_add(out, "desc", tsv_field(desc));
	if (encoded)
		counter_prog_release(&c);
}

/* row i: perf's generic events, the kernel's, then libpfm4's (umasks: '*' marks the default) */
static int host_table_row(const struct pmu_model *m, size_t i, table_row *out)
{
	const struct perf_generic_event *gen = perf_generic_at(i);
	const struct kernel_event *kernel;
	size_t n_generic = 0, n;
	const int *events;

	if (gen) {
		event_info_add(out, "name", "%s", gen->name);
		event_info_add(out, "pmu", "%s", perf_generic_is_software(gen) ? "perf_sw" : "perf_hw");
		event_info_add(out, "code", "0x%llx", (unsigned long long)gen->config);
		event_info_add(out, "umasks", "-");
		row_add(out, "desc", tsv_field(gen->desc));
		return 0;
	}
	while (perf_generic_at(n_generic))
		n_generic++;
	i -= n_generic;
	kernel = kernel_events(&n);
	if (i < n) {
		kernel_row(kernel[i].name, kernel[i].desc, out);
		return 0;
	}
	i -= n;
	events = libpfm_events(&n);
	if (i >= n)
		return 1;
	libpfm_row(events[i], out);
	return 0;
}

static void info_encoding(struct event_info *out, const struct counter_prog *c)
{
	if (c->fstr)
		event_info_add(out, "Canonical", "%s", c->fstr);
	event_info_add(out, "Encoding", "type=%u config=%#llx config1=%#llx config2=%#llx", c->attr.type,
		       (unsigned long long)c->attr.config, (unsigned long long)c->attr.config1,
		       (unsigned long long)c->attr.config2);
}

static const char *attr_kind(pfm_attr_t t)
{
	return t == PFM_ATTR_MOD_BOOL ? "boolean" : t == PFM_ATTR_MOD_INTEGER ? "integer" : "raw";
}

static void info_attrs(struct event_info *out, int eidx, int nattrs)
{
	for (int a = 0; a < nattrs; a++) {
		pfm_event_attr_info_t ai = { .size = sizeof(ai) };

		if (pfm->get_event_attr_info(eidx, a, PFM_OS_PERF_EVENT_EXT, &ai) != PFM_SUCCESS)
			continue;
		if (ai.type == PFM_ATTR_UMASK)
			event_info_add(out, "Umask", "0x%02llx : %s%s : %s", (unsigned long long)ai.code, ai.name,
				       ai.is_dfl ? " [default]" : "", ai.desc);
		else
			event_info_add(out, "Modifier", "%s (%s) : %s", ai.name, attr_kind(ai.type), ai.desc);
	}
}

static int info_libpfm(const char *name, struct event_info *out, struct pf_error *err)
{
	pfm_event_info_t info = { .size = sizeof(info) };
	pfm_pmu_info_t pinfo = { .size = sizeof(pinfo) };
	struct counter_prog c;
	struct event_spec spec;
	int eidx;

	if (pfm_ready(err))
		return -1;
	eidx = pfm->find_event(name);
	if (eidx < 0 || pfm->get_event_info(eidx, PFM_OS_PERF_EVENT_EXT, &info) != PFM_SUCCESS) {
		if (event_spec_parse(name, &spec, err) == 0)
			pfm_error(&spec, PFM_ERR_NOTFOUND, err);
		event_spec_release(&spec);
		return -1;
	}
	pfm->get_pmu_info(info.pmu, &pinfo);
	event_info_add(out, "Name", "%s", info.name);
	event_info_add(out, "PMU", "%s (%s)", pinfo.name, pinfo.desc);
	event_info_add(out, "Code", "0x%llx", (unsigned long long)info.code);
	event_info_add(out, "Desc", "%s", info.desc ? info.desc : "");
	info_attrs(out, eidx, info.nattrs);
	if (host_encode_event(name, 0, &c, NULL) == 0) {
		info_encoding(out, &c);
		counter_prog_release(&c);
	} else {
		event_info_add(out, "Encoding", "needs a unit mask: name one of the Umask lines");
	}
	return 0;
}

/* -i SUBSYSTEM:EVENT; 1 if name is no tracepoint */
static int info_tracepoint(const char *name, struct event_info *out)
{
	char *fields;
	struct event_spec spec;
	struct counter_prog c;
	uint64_t id;
	int found;

	found = event_spec_parse(name, &spec, NULL) == 0 && spec.n_quals == 1 && tracepoint_of(&spec, &id);
	if (found) {
		encode_tracepoint(name, id, 0, &c);
		event_info_add(out, "Name", "%s", name);
		event_info_add(out, "PMU", "kernel tracepoint (%s/events/%s/%s)", tracefs_dir(), spec.name,
			       spec.quals[0].key);
		event_info_add(out, "Desc", "fires in the kernel only: counted at kernel level too by default, "
			       "as in perf (at user level only it counts 0)");
		event_info_add(out, "Modifier", "u : count at user level");
		event_info_add(out, "Modifier", "k : count at kernel level");
		fields = tracepoint_fields(tracefs_dir(), spec.name, spec.quals[0].key);
		if (*fields)
			event_info_add(out, "Fields", "%s", fields);
		free(fields);
		info_encoding(out, &c);
		counter_prog_release(&c);
	}
	event_spec_release(&spec);
	return found ? 0 : 1;
}

static int host_info(const struct pmu_model *m, const char *name, struct event_info *out, struct pf_error *err)
{
	const struct perf_generic_event *gen = perf_generic_find(name);
	struct counter_prog c;

	if (event_spec_pmu_form(name))
		return sysfs_pmu_info(name, out, err);
	if (!gen && info_tracepoint(name, out) == 0)
		return 0;
	if (!gen)
		return info_libpfm(name, out, err);
	encode_generic(gen, gen->name, 0, &c);
	event_info_add(out, "Name", "%s", gen->name);
	if (gen->alias)
		event_info_add(out, "Alias", "%s", gen->alias);
	event_info_add(out, "PMU", "%s", perf_generic_is_software(gen) ? "perf software events (kernel)"
									 : "perf generic hardware events");
	event_info_add(out, "Desc", "%s", gen->desc);
	event_info_add(out, "Modifier", "u : count at user level");
	event_info_add(out, "Modifier", "k : count at kernel level");
	info_encoding(out, &c);
	counter_prog_release(&c);
	return 0;
}

/* the libpfm4 PMU that encoded c ("skl" of "skl::INST_RETIRED:..."), or "" */
static void pmu_of(const struct counter_prog *c, char *pmu, size_t size)
{
	const char *sep = c->fstr && !c->is_software ? strstr(c->fstr, "::") : NULL;

	snprintf(pmu, size, "%.*s", sep ? (int)(sep - c->fstr) : 0, sep ? c->fstr : "");
}

/* counters (generic + fixed) of a present core PMU, 0 if unknown; with
 * libpfm4 not loaded no event is its own (perf's generic names say "perf",
 * no core PMU), and the library is not loaded to say so */
static int pmu_capacity(const char *pmu)
{
	int p;

	if (!pfm)
		return 0;

	pfm_for_all_pmus(p) {
		pfm_pmu_info_t pinfo = { .size = sizeof(pinfo) };

		if (pfm->get_pmu_info(p, &pinfo) == PFM_SUCCESS && pinfo.is_present && strcmp(pinfo.name, pmu) == 0)
			return pinfo.type == PFM_PMU_TYPE_CORE ? pinfo.num_cntrs + pinfo.num_fixed_cntrs : 0;
	}
	return 0;
}

/*
 * A group is scheduled on the PMU all at once, so a set with more hardware
 * events of one PMU than it has counters could never count at all.
 */
static int check_group_size(const struct set_prog *prog, size_t set, struct pf_error *err)
{
	for (size_t i = 0; i < prog->n_counters; i++) {
		char pmu[64], other[64];
		int cap, n = 0;

		pmu_of(&prog->counters[i], pmu, sizeof(pmu));
		cap = *pmu ? pmu_capacity(pmu) : 0;
		if (!cap)
			continue;
		for (size_t j = 0; j < prog->n_counters; j++) {
			pmu_of(&prog->counters[j], other, sizeof(other));
			n += strcmp(pmu, other) == 0;
		}
		if (n > cap)
			return pf_error_set(err, PF_E_TOO_MANY_EVENTS, (int)set, n, cap);
	}
	return 0;
}

static int host_encode_set(const struct pmu_model *m, const struct pmu_set_request *req, struct set_prog *out,
			   struct pf_error *err)
{
	memset(out, 0, sizeof(*out));
	out->counters = xcalloc(req->n_events ? req->n_events : 1, sizeof(*out->counters));
	for (size_t i = 0; i < req->n_events; i++) {
		unsigned plm = req->plm[i] ? req->plm[i] : req->default_plm;

		/* libpfm4 parses the string itself: hand it the text the spec came from */
		if (host_encode_event(req->events[i].text, plm, &out->counters[i], err)) {
			set_prog_release(out);
			return -1;
		}
		out->n_counters++;
	}
	if (check_group_size(out, req->set, err)) {
		set_prog_release(out);
		return -1;
	}
	return 0;
}

bool host_pmu_present(const char *libpfm_name)
{
	pfm_pmu_info_t pinfo = { .size = sizeof(pinfo) };
	int p;

	if (pfm_ready(NULL))
		return false;
	pfm_for_all_pmus(p) {
		if (pfm->get_pmu_info(p, &pinfo) == PFM_SUCCESS && pinfo.is_present && pinfo.name &&
		    strcmp(pinfo.name, libpfm_name) == 0)
			return true;
		pinfo = (pfm_pmu_info_t){ .size = sizeof(pinfo) };
	}
	return false;
}

/* -I: libpfm4's view of this machine, as pfmon 3.x's "detected libpfm PMU model" */
static int host_describe(const struct pmu_model *m, const void *opts, struct event_info *out,
			 struct pf_error *err)
{
	char names[256] = "";
	unsigned max = 0;
	int p, v;

	if (pfm_ready(err))
		return -1;
	v = pfm->get_version();
	pfm_for_all_pmus(p) {
		pfm_pmu_info_t pinfo;
		size_t len = strlen(names);

		if (!shown_pmu(p, &pinfo))
			continue;
		snprintf(names + len, sizeof(names) - len, "%s%s", len ? " " : "", pinfo.name);
		if ((unsigned)(pinfo.num_cntrs + pinfo.num_fixed_cntrs) > max)
			max = (unsigned)(pinfo.num_cntrs + pinfo.num_fixed_cntrs);
	}
	event_info_add(out, "detected libpfm PMU model", "%s", *names ? names : "none (perf's generic and "
							     "software events only)");
	if (max)
		event_info_add(out, "max counters/set", "%u", max);
	else
		event_info_add(out, "max counters/set", "set by the kernel (no hardware PMU known to libpfm4)");
	event_info_add(out, "libpfm version", "%d.%d (API)", PFM_MAJ_VERSION(v), PFM_MIN_VERSION(v));
	return 0;
}

static bool host_detect(const struct pmu_model *m)
{
	return true;
}

const struct pmu_model pmu_host = {
	.name = "host",
	.title = "host",
	.desc = "this machine: libpfm4's detected PMUs, perf's generic, software and breakpoint events",
	.max_counters = 0, /* per PMU, known to the kernel */
	.can_run = true,
	.system_wide = true, /* per-CPU sessions (session/session.c) */
	.family_metrics = true,
	.plm_levels = PF_PLM_USER | PF_PLM_KERNEL,
	.default_events = "cycles,instructions",
	.default_software = "task-clock",
	.detect = host_detect,
	.list_events = host_list,
	.event_info = host_info,
	.table_row = host_table_row,
	.encode_set = host_encode_set,
	.describe = host_describe,
};
