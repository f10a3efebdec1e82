/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Itanium 2 model descriptor: turns one event set of the configuration
 * (event names and the raw Itanium 2 options, as the user wrote them) into
 * an ita2_request, runs the encoder, and hands back the programming.  Also
 * the -l/-i answers and the -v register decoder.  Never prints.
 */
#include <config.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/util.h"
#include "event/pmu_model.h"
#include "pmu/itanium2.h"
#include "pmu/itanium2_priv.h"

static int bad_value(struct pf_error *err, const char *value, const char *opt, const char *why)
{
	return pf_error_set(err, PF_E_BAD_OPTION_VALUE, value, opt, why);
}

/* value of option opt as a number no larger than max, or a usage error naming opt */
static int parse_number(const char *text, const char *value, const char *opt, uint64_t max, uint64_t *out,
			struct pf_error *err)
{
	const char *why = parse_u64_why(text, out);
	char range[64];

	if (!why && *out > max) {
		snprintf(range, sizeof(range), "'%s' is above the maximum 0x%llx", text, (unsigned long long)max);
		why = range;
	}
	return why ? bad_value(err, value, opt, why) : 0;
}

static int unknown_event(const char *name, struct pf_error *err)
{
	char hint[128] = "";
	size_t len = strlen(name);

	/* a base name that needs a unit mask: suggest its first variant */
	for (size_t i = 0; i < ita2_event_count(); i++) {
		const struct ita2_event *e = ita2_event_at(i);

		if (!strncasecmp(e->name, name, len) && e->name[len] == '.') {
			snprintf(hint, sizeof(hint), "; it needs a unit mask, e.g. '%s' (see pfmon -l)", e->name);
			break;
		}
	}
	return pf_error_set(err, PF_E_UNKNOWN_EVENT, name, hint);
}

/* ---- the model's options ------------------------------------------------ */

#define ITA2_MAX_ENTRIES 8 /* per-event lists: more than the 4 counters is refused later */

struct ita2_set_opts {
	unsigned thres[ITA2_MAX_ENTRIES];
	size_t n_thres;
	char *thres_text; /* for messages only */
	int ism[ITA2_MAX_ENTRIES]; /* -1: the set's default */
	size_t n_ism;
	char *ism_text;
	bool ia32, ia64;
	bool opcm8_used, opcm9_used;
	uint64_t opcm8, opcm9;
	unsigned btb; /* enum ita2_btb_opt bits */
};

struct ita2_options {
	struct ita2_set_opts *sets;
	size_t n_sets;
	struct ita2_range irange, drange;
	bool checkpoint;
	uint64_t checkpoint_addr;
	char *checkpoint_text;
	bool inverse_irange, no_qual_check;
};

static void *ita2_options_new(size_t n_sets)
{
	struct ita2_options *o = xcalloc(1, sizeof(*o));

	o->n_sets = n_sets ? n_sets : 1;
	o->sets = xcalloc(o->n_sets, sizeof(*o->sets));
	return o;
}

static void ita2_options_free(void *opts)
{
	struct ita2_options *o = opts;

	if (!o)
		return;
	for (size_t i = 0; i < o->n_sets; i++) {
		free(o->sets[i].thres_text);
		free(o->sets[i].ism_text);
	}
	free(o->sets);
	free(o->checkpoint_text);
	free(o);
}

static struct ita2_set_opts *set_opts(void *opts, size_t set)
{
	struct ita2_options *o = opts;

	return &o->sets[set < o->n_sets ? set : o->n_sets - 1];
}

typedef int (*entry_fn)(const char *entry, size_t i, void *arg, const char *list, struct pf_error *err);

/* the comma-separated entries of a per-event list, each to fn */
static int each_entry(const char *list, const char *opt, const char *too_many, entry_fn fn, void *arg,
		      size_t *count, struct pf_error *err)
{
	size_t n;
	char **v = str_split(list, ',', &n);
	int rc = 0;

	if (n > ITA2_MAX_ENTRIES)
		rc = bad_value(err, list, opt, too_many);
	for (size_t i = 0; !rc && i < n; i++)
		rc = fn(v[i], i, arg, list, err);
	str_vec_free(v);
	*count = rc ? 0 : n;
	return rc;
}

static int thres_entry(const char *entry, size_t i, void *arg, const char *list, struct pf_error *err)
{
	uint64_t v = 0;

	if (*entry && parse_number(entry, list, "event-thresholds", 255, &v, err))
		return -1;
	((unsigned *)arg)[i] = (unsigned)v;
	return 0;
}

static int opt_thresholds(void *opts, size_t set, const char *arg, struct pf_error *err)
{
	struct ita2_set_opts *s = set_opts(opts, set);

	free(s->thres_text);
	s->thres_text = xstrdup(arg);
	return each_entry(arg, "event-thresholds", "too many thresholds specified", thres_entry, s->thres,
			  &s->n_thres, err);
}

static int ism_entry(const char *entry, size_t i, void *arg, const char *list, struct pf_error *err)
{
	int *ism = arg;

	if (!*entry)
		ism[i] = -1;
	else if (!strcasecmp(entry, "ia32"))
		ism[i] = ITA2_ISM_IA32;
	else if (!strcasecmp(entry, "ia64"))
		ism[i] = ITA2_ISM_IA64;
	else if (!strcasecmp(entry, "both"))
		ism[i] = ITA2_ISM_BOTH;
	else
		return bad_value(err, list, "insn-sets", "expected ia32, ia64 or both");
	return 0;
}

static int opt_insn_sets(void *opts, size_t set, const char *arg, struct pf_error *err)
{
	struct ita2_set_opts *s = set_opts(opts, set);

	free(s->ism_text);
	s->ism_text = xstrdup(arg);
	return each_entry(arg, "insn-sets", "more entries than events", ism_entry, s->ism, &s->n_ism, err);
}

static int opt_ia32(void *opts, size_t set, const char *arg, struct pf_error *err)
{
	set_opts(opts, set)->ia32 = true;
	return 0;
}

static int opt_ia64(void *opts, size_t set, const char *arg, struct pf_error *err)
{
	set_opts(opts, set)->ia64 = true;
	return 0;
}

/* [mifb]:match:mask -> slots<<60 | match<<33 | mask<<3 (pfmon 3.x) */
static int parse_opcm(const char *val, const char *opt, uint64_t *out, struct pf_error *err)
{
	char buf[128];
	char *m, *k;
	uint64_t slots = 0, match, mask;

	if (strlen(val) >= sizeof(buf))
		return bad_value(err, val, opt, "too long");
	strcpy(buf, val);
	m = strchr(buf, ':');
	k = m ? strchr(m + 1, ':') : NULL;
	if (!m || !k)
		return bad_value(err, val, opt, "expected [mifb]:match:mask");
	*m++ = 0;
	*k++ = 0;
	for (const char *p = buf; *p; p++) {
		const char *letters = "bfim"; /* b=1 f=2 i=4 m=8 */
		const char *q = strchr(letters, *p | 0x20);

		if (!q)
			return bad_value(err, val, opt, "slot types are letters from 'mifb'");
		slots |= 1ull << (q - letters);
	}
	/* match and mask are 27-bit fields: a wider value would be cut, silently */
	if (parse_number(m, val, opt, ITA2_OPC_FIELD_MASK, &match, err) ||
	    parse_number(k, val, opt, ITA2_OPC_FIELD_MASK, &mask, err))
		return -1;
	*out = (slots ? slots : 0xf) << ITA2_OPC_SLOT_SHIFT | match << ITA2_OPC_MATCH_SHIFT |
	       mask << ITA2_OPC_MASK_SHIFT;
	return 0;
}

static int opt_opc8(void *opts, size_t set, const char *arg, struct pf_error *err)
{
	struct ita2_set_opts *s = set_opts(opts, set);

	s->opcm8_used = true;
	return parse_opcm(arg, "opc-match8", &s->opcm8, err);
}

static int opt_opc9(void *opts, size_t set, const char *arg, struct pf_error *err)
{
	struct ita2_set_opts *s = set_opts(opts, set);

	s->opcm9_used = true;
	return parse_opcm(arg, "opc-match9", &s->opcm9, err);
}

#define BTB_OPT(fn, bit)                                                          \
	static int fn(void *opts, size_t set, const char *arg, struct pf_error *err) \
	{                                                                         \
		set_opts(opts, set)->btb |= (bit);                                \
		return 0;                                                         \
	}
BTB_OPT(opt_btb_tm_tk, ITA2_BTB_TM_TK)
BTB_OPT(opt_btb_tm_ntk, ITA2_BTB_TM_NTK)
BTB_OPT(opt_btb_ptm_correct, ITA2_BTB_PTM_CORRECT)
BTB_OPT(opt_btb_ptm_incorrect, ITA2_BTB_PTM_INCORRECT)
BTB_OPT(opt_btb_ppm_correct, ITA2_BTB_PPM_CORRECT)
BTB_OPT(opt_btb_ppm_incorrect, ITA2_BTB_PPM_INCORRECT)
BTB_OPT(opt_btb_brt_iprel, ITA2_BTB_BRT_IPREL)
BTB_OPT(opt_btb_brt_ret, ITA2_BTB_BRT_RET)
BTB_OPT(opt_btb_brt_ind, ITA2_BTB_BRT_IND)

/*
 * The IBR/DBR mask field has 56 bits (ITA2_BR_MASK_BITS): a range can only
 * be covered by blocks inside one naturally aligned 2^56-byte region.
 */
#define ITA2_BR_REGION_SHIFT 56

static int parse_range(const char *val, const char *opt, struct ita2_range *r, struct pf_error *err)
{
	char buf[80];
	char *dash;

	if (!*val)
		return bad_value(err, val, opt, "the value cannot be empty");
	if (strlen(val) >= sizeof(buf))
		return bad_value(err, val, opt, "too long");
	strcpy(buf, val);
	dash = strchr(buf, '-');
	if (!dash)
		return bad_value(err, val, opt, "expected START-END (symbols are resolved before the model)");
	*dash = 0;
	if (parse_number(buf, val, opt, UINT64_MAX, &r->start, err) ||
	    parse_number(dash + 1, val, opt, UINT64_MAX, &r->end, err))
		return -1;
	if (r->start >= r->end)
		return bad_value(err, val, opt, "start must be below end");
	if (r->start >> ITA2_BR_REGION_SHIFT != (r->end - 1) >> ITA2_BR_REGION_SHIFT)
		return bad_value(err, val, opt, "the range crosses a 2^56-byte boundary, which the 56-bit IBR/DBR "
				 "mask cannot cover");
	r->used = true;
	return 0;
}

static int opt_irange(void *opts, size_t set, const char *arg, struct pf_error *err)
{
	return parse_range(arg, "irange", &((struct ita2_options *)opts)->irange, err);
}

static int opt_drange(void *opts, size_t set, const char *arg, struct pf_error *err)
{
	return parse_range(arg, "drange", &((struct ita2_options *)opts)->drange, err);
}

static int opt_checkpoint(void *opts, size_t set, const char *arg, struct pf_error *err)
{
	struct ita2_options *o = opts;

	if (!*arg)
		return bad_value(err, arg, "checkpoint-func", "the value cannot be empty");
	free(o->checkpoint_text);
	o->checkpoint_text = xstrdup(arg);
	o->checkpoint = true;
	return parse_number(arg, arg, "checkpoint-func", UINT64_MAX - 16, &o->checkpoint_addr, err);
}

static int opt_inverse(void *opts, size_t set, const char *arg, struct pf_error *err)
{
	((struct ita2_options *)opts)->inverse_irange = true;
	return 0;
}

static int opt_no_qual_check(void *opts, size_t set, const char *arg, struct pf_error *err)
{
	((struct ita2_options *)opts)->no_qual_check = true;
	return 0;
}

#define SET_OPT(name, arg, fn, help) { name, arg, true, false, help, fn }
#define GLOBAL_OPT(name, arg, fn, help) { name, arg, false, false, help, fn }

static const struct pmu_option ita2_option_rows[] = {
	SET_OPT("event-thresholds", "T1,T2,...", opt_thresholds, "per-event threshold (0 to max increment - 1)"),
	SET_OPT("opc-match8", "[mifb]:MATCH:MASK", opt_opc8, "program the opcode matcher PMC8"),
	SET_OPT("opc-match9", "[mifb]:MATCH:MASK", opt_opc9, "program the opcode matcher PMC9"),
	SET_OPT("btb-tm-tk", NULL, opt_btb_tm_tk, "BTB: taken branches only"),
	SET_OPT("btb-tm-ntk", NULL, opt_btb_tm_ntk, "BTB: not-taken branches only"),
	SET_OPT("btb-ptm-correct", NULL, opt_btb_ptm_correct, "BTB: correctly predicted targets only"),
	SET_OPT("btb-ptm-incorrect", NULL, opt_btb_ptm_incorrect, "BTB: mispredicted targets only"),
	SET_OPT("btb-ppm-correct", NULL, opt_btb_ppm_correct, "BTB: correctly predicted paths only"),
	SET_OPT("btb-ppm-incorrect", NULL, opt_btb_ppm_incorrect, "BTB: mispredicted paths only"),
	SET_OPT("btb-brt-iprel", NULL, opt_btb_brt_iprel, "BTB: IP-relative branches only"),
	SET_OPT("btb-brt-ret", NULL, opt_btb_brt_ret, "BTB: return branches only"),
	SET_OPT("btb-brt-ind", NULL, opt_btb_brt_ind, "BTB: non-return indirect branches only"),
	GLOBAL_OPT("irange", "START-END", opt_irange, "instruction address range restriction"),
	GLOBAL_OPT("drange", "START-END", opt_drange, "data address range restriction"),
	GLOBAL_OPT("checkpoint-func", "ADDR", opt_checkpoint, "count only at the bundle at ADDR"),
	GLOBAL_OPT("inverse-irange", NULL, opt_inverse, "count outside the --irange"),
	{ "ia32", NULL, true, true, "monitor IA-32 execution only", opt_ia32 },
	{ "ia64", NULL, true, true, "monitor IA-64 execution only", opt_ia64 },
	SET_OPT("insn-sets", "S1,S2,...", opt_insn_sets, "per-event instruction set: ia32, ia64 or both"),
	GLOBAL_OPT("no-qual-check", NULL, opt_no_qual_check, "skip the per-event qualifier support checks"),
};

/* ---- request building: parsed options and event specs -> ita2_request -- */

static int apply_thresholds(const struct ita2_set_opts *s, struct ita2_request *req, struct pf_error *err)
{
	if (s->n_thres > req->n)
		return bad_value(err, s->thres_text, "event-thresholds", "too many thresholds specified");
	for (size_t i = 0; i < s->n_thres; i++)
		req->thres[i] = s->thres[i];
	return 0;
}

static int apply_insn_sets(const struct ita2_set_opts *s, struct ita2_request *req, struct pf_error *err)
{
	unsigned global = ITA2_ISM_BOTH;

	if (s->ia32 && !s->ia64)
		global = ITA2_ISM_IA32;
	else if (s->ia64 && !s->ia32)
		global = ITA2_ISM_IA64;
	for (size_t i = 0; i < req->n; i++)
		req->ism[i] = i < s->n_ism && s->ism[i] >= 0 ? (unsigned)s->ism[i] : global;
	if (s->n_ism > req->n)
		return bad_value(err, s->ism_text, "insn-sets", "more entries than events");
	return 0;
}

static int apply_globals(const struct ita2_options *o, struct ita2_request *req, struct pf_error *err)
{
	if (o->irange.used && o->checkpoint)
		return bad_value(err, o->checkpoint_text, "checkpoint-func", "cannot be combined with --irange");
	req->irange = o->irange;
	if (o->checkpoint) {
		req->irange = (struct ita2_range){ true, o->checkpoint_addr, o->checkpoint_addr + 16 };
		req->fine_disabled = true;
	}
	req->drange = o->drange;
	if (o->inverse_irange && !req->irange.used)
		return bad_value(err, "", "inverse-irange", "needs --irange");
	req->inverse_irange = o->inverse_irange;
	req->no_qual_check = o->no_qual_check;
	return 0;
}

/* the table index of a parsed event: NAME[.UMASK] alone, no qualifiers */
static int find_spec(const struct event_spec *spec)
{
	char name[128];

	if (spec->pmu || spec->n_quals || spec->breakpoint)
		return -1;
	if (snprintf(name, sizeof(name), "%s%s%s", spec->name, spec->dot_umask ? "." : "",
		     spec->dot_umask ? spec->dot_umask : "") >= (int)sizeof(name))
		return -1;
	return ita2_find_event(name);
}

static int build_events(const struct pmu_set_request *r, struct ita2_request *req, struct pf_error *err)
{
	if (r->n_events > ITA2_MAX_EVENTS)
		return pf_error_constraint(err, "C-GEN-1", r->n_events >= 32 ? UINT32_MAX : (1u << r->n_events) - 1,
					   "too many events: at most 4 counters (PMC4-PMC7)");
	req->n = r->n_events;
	for (size_t i = 0; i < r->n_events; i++) {
		unsigned plm = r->plm[i] ? r->plm[i] : r->default_plm;

		req->ev[i] = find_spec(&r->events[i]);
		if (req->ev[i] < 0)
			return unknown_event(r->events[i].text, err);
		req->own_plm[i] = r->plm[i] != 0;
		req->plm[i] = plm ? plm : req->default_plm;
	}
	return 0;
}

/* one event set of the model's interface -> the encoder's request */
static int ita2_build_request(const struct pmu_set_request *r, struct ita2_request *req, struct pf_error *err)
{
	static const struct ita2_set_opts no_set_opts;
	const struct ita2_options *o = r->opts;
	const struct ita2_set_opts *s = o && r->set < o->n_sets ? &o->sets[r->set] : &no_set_opts;

	memset(req, 0, sizeof(*req));
	req->system_wide = r->system_wide;
	req->default_plm = r->default_plm ? r->default_plm : PF_PLM_USER;
	if ((o && apply_globals(o, req, err)) || build_events(r, req, err) || apply_thresholds(s, req, err) ||
	    apply_insn_sets(s, req, err))
		return -1;
	req->opcm8_used = s->opcm8_used;
	req->opcm9_used = s->opcm9_used;
	req->opcm8 = s->opcm8;
	req->opcm9 = s->opcm9;
	req->btb_opts = s->btb;
	return 0;
}

/* ---- the pmu_model operations ----------------------------------------- */

static char *strdup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static int fill_counters(const struct pmu_set_request *r, const struct ita2_request *req,
			 const struct ita2_result *res, struct set_prog *out)
{
	out->counters = calloc(req->n ? req->n : 1, sizeof(*out->counters));
	if (!out->counters)
		return -1;
	out->n_counters = req->n;
	for (size_t i = 0; i < req->n; i++) {
		struct counter_prog *c = &out->counters[i];

		c->name = strdup_or_null(ita2_event_at((size_t)req->ev[i])->name);
		c->given = strdup_or_null(r->events[i].text);
		if (!c->name || !c->given)
			return -1;
		/* a libpfm3 name is echoed as given: pfmon 3.x printed the name the script used */
		if (!ita2_is_manual_name(c->given) && strcasecmp(c->given, c->name) && !(c->alias = strdup(c->given)))
			return -1;
		c->plm = req->plm[i];
		c->ctl = (struct reg_value){ REG_PMC, (unsigned)res->pmc[i], res->value[i] };
		c->ctr = (struct reg_value){ REG_PMD, (unsigned)res->pmc[i], 0 };
	}
	return 0;
}

static int ita2_encode_set(const struct pmu_model *m, const struct pmu_set_request *r, struct set_prog *out,
			   struct pf_error *err)
{
	struct ita2_request req;
	struct ita2_result res;

	memset(out, 0, sizeof(*out));
	if (ita2_build_request(r, &req, err))
		return -1;
	if (ita2_encode(&req, &res, out, err)) {
		set_prog_release(out);
		return -1;
	}
	if (fill_counters(r, &req, &res, out)) {
		set_prog_release(out);
		return pf_error_set(err, PF_E_NOMEM);
	}
	return 0;
}

/* -l: the manual's entries, then the libpfm3 names with their marker
 * ("libpfm3 alias of ..."), which the list prints after the name */
static int ita2_list_events(const struct pmu_model *m, bool long_names, event_name_cb cb, void *arg,
			    struct pf_error *err)
{
	char marker[200];
	int idx;

	for (size_t i = 0; i < ita2_event_count(); i++) {
		const struct ita2_event *e = ita2_event_at(i);

		if (cb(long_names ? e->alt : e->name, e->desc, arg))
			return 0;
	}
	for (size_t k = 0; k < ita2_alias_count(); k++)
		if (!ita2_alias_marker(k, marker, sizeof(marker)) && cb(ita2_alias_at(k, &idx), marker, arg))
			return 0;
	return 0;
}

static const char *ear_text(const struct ita2_event *e)
{
	static const char *const text[] = {
		[ITA2_EAR_NONE] = "None",
		[ITA2_EAR_I_CACHE] = "Code (Cache Mode)",
		[ITA2_EAR_I_TLB] = "Code (TLB Mode)",
		[ITA2_EAR_D_CACHE] = "Data (Cache Mode)",
		[ITA2_EAR_D_TLB] = "Data (TLB Mode)",
		[ITA2_EAR_D_ALAT] = "Data (ALAT Mode)",
	};

	return text[e->ear];
}

static void info_qual(struct event_info *out, const struct ita2_event *e)
{
	if (!e->qual) {
		event_info_add(out, "Qual", "None");
		return;
	}
	event_info_add(out, "Qual", "%s%s%s", e->qual & ITA2_Q_OPC ? "[Opcode Match] " : "",
		       e->qual & ITA2_Q_IAR ? "[Instruction Address Range] " : "",
		       e->qual & ITA2_Q_DAR ? "[Data Address Range]" : "");
}

static int ita2_event_info(const struct pmu_model *m, const char *name, struct event_info *out,
			   struct pf_error *err)
{
	int idx = ita2_find_event(name);
	const struct ita2_event *e;
	char ctrs[32] = "";

	if (idx < 0)
		return unknown_event(name, err);
	e = ita2_event_at((size_t)idx);
	for (int c = 4; c <= 7; c++)
		if (e->counters & (1u << c))
			snprintf(ctrs + strlen(ctrs), sizeof(ctrs) - strlen(ctrs), "%d ", c);
	event_info_add(out, "Name", "%s", e->name);
	event_info_add(out, "Alias", "%s", e->alt);
	for (size_t k = 0; k < ita2_alias_count(); k++) {
		int of;
		const char *alias = ita2_alias_at(k, &of);

		if (of == idx && strcasecmp(alias, e->alt))
			event_info_add(out, "Alias", "%s (pfmon 3.x)", alias);
	}
	event_info_add(out, "Code", "0x%x", e->code);
	event_info_add(out, "Counters", "[ %s]", ctrs);
	event_info_add(out, "Desc", "%s", e->desc);
	event_info_add(out, "Umask", "0x%x", e->ear ? 0u : e->umask);
	event_info_add(out, "EAR", "%s", ear_text(e));
	if (e->ear)
		event_info_add(out, "EAR umask", "0x%x", e->ear_umask);
	event_info_add(out, "BTB", "%s", e->btb ? "Yes" : "No");
	if (e->maxincr > 1)
		event_info_add(out, "MaxIncr", "%u  (Threshold [0-%u])", e->maxincr, e->maxincr - 1u);
	else
		event_info_add(out, "MaxIncr", "1  (Threshold 0)");
	info_qual(out, e);
	event_info_add(out, "Group", "%s", e->group == ITA2_GRP_L1D ? "L1D Cache" :
					    e->group == ITA2_GRP_L2 ? "L2 Cache" : "None");
	if (e->set >= 0)
		event_info_add(out, "Set", "%d", e->set);
	else
		event_info_add(out, "Set", "None");
	return 0;
}

static const char *ear_name(unsigned ear)
{
	static const char *const names[] = { "none", "icache", "itlb", "dcache", "dtlb", "dalat" };

	return ear < ARRAY_SIZE(names) ? names[ear] : "?";
}

/* row i of --dump-event-table: a manual entry, or past them libpfm3 name k
 * with its marker in the name column; the other columns are its event's */
static const struct ita2_event *table_entry(size_t i, char *name, size_t len)
{
	const struct ita2_event *e = i < ita2_event_count() ? ita2_event_at(i) : NULL;
	size_t k = i - ita2_event_count();
	char marker[200];
	int idx;

	if (e) {
		snprintf(name, len, "%s", e->name);
		return e;
	}
	if (ita2_alias_marker(k, marker, sizeof(marker)))
		return NULL;
	snprintf(name, len, "%s [%s]", ita2_alias_at(k, &idx), marker);
	return ita2_event_at((size_t)idx);
}

/* --dump-event-table: one row per table entry, the columns of pfmon's TSV */
static int ita2_table_row(const struct pmu_model *m, size_t i, table_row *out)
{
	static const char *const groups[] = { "none", "L1D", "L2" };
	char ctrs[16] = "", name[300];
	const struct ita2_event *e = table_entry(i, name, sizeof(name));

	if (!e)
		return 1;
	for (int c = 4; c <= 7; c++)
		if (e->counters & (1u << c))
			snprintf(ctrs + strlen(ctrs), sizeof(ctrs) - strlen(ctrs), "%s%d", *ctrs ? "," : "", c);
	event_info_add(out, "name", "%s", name);
	event_info_add(out, "code", "0x%02x", e->code);
	event_info_add(out, "umask", "0x%x", e->ear ? (unsigned)e->ear_umask : (unsigned)e->umask);
	event_info_add(out, "group", "%s", groups[e->group]);
	event_info_add(out, "set", "%d", e->set);
	event_info_add(out, "ear", "%s", ear_name(e->ear));
	event_info_add(out, "btb", "%s", e->btb ? "Y" : "N");
	event_info_add(out, "iar", "%s", e->qual & ITA2_Q_IAR ? "Y" : "N");
	event_info_add(out, "dar", "%s", e->qual & ITA2_Q_DAR ? "Y" : "N");
	event_info_add(out, "opc", "%s", e->qual & ITA2_Q_OPC ? "Y" : "N");
	event_info_add(out, "maxincr", "%u", e->maxincr);
	event_info_add(out, "counters", "%s", ctrs);
	return 0;
}

static int ita2_validate_table(const struct pmu_model *m, char *msg, size_t len)
{
	return ita2_table_check(msg, len);
}

static bool ita2_detect(const struct pmu_model *m)
{
#ifdef __ia64__
	return true; /* every ia64 Linux host since 2002 is Itanium 2 or later */
#else
	return false;
#endif
}

const struct pmu_model pmu_itanium2 = {
	.name = "itanium2",
	.title = "Itanium 2",
	.desc = "Intel Itanium 2 (modelled: validates, assigns and prints the programming)",
	.max_counters = 4,
	.can_run = false,
	.plm_levels = PF_PLM0 | PF_PLM1 | PF_PLM2 | PF_PLM3,
	.system_wide = true, /* the pm bit */
	.register_dumps = true,
	.default_events = "CPU_CYCLES",
	.options = ita2_option_rows,
	.n_options = ARRAY_SIZE(ita2_option_rows),
	.options_group = "Itanium 2 options (--pmu=itanium2)",
	.options_new = ita2_options_new,
	.options_free = ita2_options_free,
	.detect = ita2_detect,
	.validate_table = ita2_validate_table,
	.list_events = ita2_list_events,
	.event_info = ita2_event_info,
	.table_row = ita2_table_row,
	.encode_set = ita2_encode_set,
	.decode_reg = ita2_decode_reg,
};
