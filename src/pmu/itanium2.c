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

/* the i-th comma-separated field of list (NULL if absent), into buf */
static const char *list_field(const char *list, size_t i, char *buf, size_t len)
{
	const char *p = list;

	for (; i && p; i--) {
		p = strchr(p, ',');
		if (p)
			p++;
	}
	if (!p)
		return NULL;
	size_t n = strcspn(p, ",");

	if (n >= len)
		n = len - 1;
	memcpy(buf, p, n);
	buf[n] = 0;
	return buf;
}

static size_t list_count(const char *list)
{
	size_t n = 1;

	for (const char *p = list; *p; p++)
		n += *p == ',';
	return n;
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

static int parse_thresholds(const struct pf_set_config *s, struct ita2_request *req, struct pf_error *err)
{
	char buf[32];
	uint64_t v;

	if (!s->thresholds)
		return 0;
	if (list_count(s->thresholds) > req->n)
		return bad_value(err, s->thresholds, "event-thresholds", "too many thresholds specified");
	for (size_t i = 0; i < req->n; i++) {
		const char *f = list_field(s->thresholds, i, buf, sizeof(buf));

		if (!f || !*f)
			continue;
		if (parse_number(f, s->thresholds, "event-thresholds", 255, &v, err))
			return -1;
		req->thres[i] = (unsigned)v;
	}
	return 0;
}

static int parse_insn_sets(const struct pf_set_config *s, struct ita2_request *req, struct pf_error *err)
{
	unsigned global = ITA2_ISM_BOTH;
	char buf[16];

	if (s->ia32 && !s->ia64)
		global = ITA2_ISM_IA32;
	else if (s->ia64 && !s->ia32)
		global = ITA2_ISM_IA64;
	for (size_t i = 0; i < req->n; i++) {
		const char *f = s->insn_sets ? list_field(s->insn_sets, i, buf, sizeof(buf)) : NULL;

		if (!f || !*f)
			req->ism[i] = global;
		else if (!strcasecmp(f, "ia32"))
			req->ism[i] = ITA2_ISM_IA32;
		else if (!strcasecmp(f, "ia64"))
			req->ism[i] = ITA2_ISM_IA64;
		else if (!strcasecmp(f, "both"))
			req->ism[i] = ITA2_ISM_BOTH;
		else
			return bad_value(err, s->insn_sets, "insn-sets", "expected ia32, ia64 or both");
	}
	if (s->insn_sets && list_count(s->insn_sets) > req->n)
		return bad_value(err, s->insn_sets, "insn-sets", "more entries than events");
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

/*
 * The IBR/DBR mask field has 56 bits (ITA2_BR_MASK_BITS): a range can only
 * be covered by blocks inside one naturally aligned 2^56-byte region.
 */
#define ITA2_BR_REGION_SHIFT 56

static int parse_range(const char *val, const char *opt, struct ita2_range *r, struct pf_error *err)
{
	char buf[80];
	char *dash;

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

static int parse_globals(const struct pf_config *cfg, struct ita2_request *req, struct pf_error *err)
{
	uint64_t a;

	if (cfg->irange && cfg->checkpoint_func)
		return bad_value(err, cfg->checkpoint_func, "checkpoint-func", "cannot be combined with --irange");
	if (cfg->irange && parse_range(cfg->irange, "irange", &req->irange, err))
		return -1;
	if (cfg->checkpoint_func) {
		if (parse_number(cfg->checkpoint_func, cfg->checkpoint_func, "checkpoint-func", UINT64_MAX - 16, &a,
				 err))
			return -1;
		req->irange = (struct ita2_range){ true, a, a + 16 };
		req->fine_disabled = true;
	}
	if (cfg->drange && parse_range(cfg->drange, "drange", &req->drange, err))
		return -1;
	if (cfg->inverse_irange && !req->irange.used)
		return bad_value(err, "", "inverse-irange", "needs --irange");
	req->inverse_irange = cfg->inverse_irange;
	req->no_qual_check = cfg->no_qual_check;
	req->system_wide = cfg->system_wide;
	req->default_plm = cfg->plm ? cfg->plm : PF_PLM_USER;
	return 0;
}

static int build_events(const struct pf_config *cfg, size_t set, struct ita2_request *req,
			struct pf_error *err)
{
	const struct pf_set_config *s = &cfg->sets[set];

	if (s->n_events > ITA2_MAX_EVENTS)
		return pf_error_set(err, PF_E_CONSTRAINT, "too many events: at most 4 counters (PMC4-PMC7)",
				    "C-GEN-1");
	req->n = s->n_events;
	for (size_t i = 0; i < s->n_events; i++) {
		unsigned plm = pf_config_event_plm(cfg, set, i);

		req->ev[i] = ita2_find_event(s->events[i]);
		if (req->ev[i] < 0)
			return unknown_event(s->events[i], err);
		req->own_plm[i] = i < s->n_event_plm && s->event_plm[i];
		req->plm[i] = plm ? plm : req->default_plm;
	}
	return 0;
}

/* pf_config set -> request; every option's error names the option */
int ita2_build_request(const struct pf_config *cfg, size_t set, struct ita2_request *req,
		       struct pf_error *err)
{
	const struct pf_set_config *s = &cfg->sets[set];

	memset(req, 0, sizeof(*req));
	if (parse_globals(cfg, req, err) || build_events(cfg, set, req, err) ||
	    parse_thresholds(s, req, err) || parse_insn_sets(s, req, err))
		return -1;
	if (s->opc_match8 && parse_opcm(s->opc_match8, "opc-match8", &req->opcm8, err))
		return -1;
	if (s->opc_match9 && parse_opcm(s->opc_match9, "opc-match9", &req->opcm9, err))
		return -1;
	req->opcm8_used = s->opc_match8 != NULL;
	req->opcm9_used = s->opc_match9 != NULL;
	req->btb_opts = s->btb;
	return 0;
}

/* ---- the pmu_model operations ----------------------------------------- */

static char *strdup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static int fill_counters(const struct pf_config *cfg, size_t set, const struct ita2_request *req,
			 const struct ita2_result *res, struct set_prog *out)
{
	out->counters = calloc(req->n ? req->n : 1, sizeof(*out->counters));
	if (!out->counters)
		return -1;
	out->n_counters = req->n;
	for (size_t i = 0; i < req->n; i++) {
		struct counter_prog *c = &out->counters[i];

		c->name = strdup_or_null(ita2_event_at((size_t)req->ev[i])->name);
		c->given = strdup_or_null(cfg->sets[set].events[i]);
		if (!c->name || !c->given)
			return -1;
		c->plm = req->plm[i];
		c->pmc = res->pmc[i];
		c->pmd = res->pmc[i];
		c->pmc_value = res->value[i];
	}
	return 0;
}

static int fill_regs_notes(const struct ita2_result *res, struct set_prog *out)
{
	out->regs = calloc(res->n_regs ? res->n_regs : 1, sizeof(*out->regs));
	if (!out->regs)
		return -1;
	out->n_regs = res->n_regs;
	for (size_t i = 0; i < res->n_regs; i++) {
		snprintf(out->regs[i].name, sizeof(out->regs[i].name), "%s", res->regs[i].name);
		out->regs[i].value = res->regs[i].value;
	}
	if (!res->n_notes)
		return 0;
	out->notes = calloc(res->n_notes + 1, sizeof(*out->notes));
	if (!out->notes)
		return -1;
	for (size_t i = 0; i < res->n_notes; i++)
		if (!(out->notes[i] = strdup(res->notes[i])))
			return -1;
	return 0;
}

static int ita2_encode_set(const struct pmu_model *m, const struct pf_config *cfg, size_t set,
			   struct set_prog *out, struct pf_error *err)
{
	struct ita2_request req;
	struct ita2_result res;

	memset(out, 0, sizeof(*out));
	if (set >= cfg->n_sets)
		return pf_error_set(err, PF_E_USAGE, "no such event set");
	if (ita2_build_request(cfg, set, &req, err) || ita2_encode(&req, &res, err))
		return -1;
	if (fill_counters(cfg, set, &req, &res, out) || fill_regs_notes(&res, out)) {
		set_prog_release(out);
		return pf_error_set(err, PF_E_NOMEM);
	}
	return 0;
}

static int ita2_list_events(const struct pmu_model *m, bool long_names, event_name_cb cb, void *arg,
			    struct pf_error *err)
{
	for (size_t i = 0; i < ita2_event_count(); i++) {
		const struct ita2_event *e = ita2_event_at(i);

		if (cb(long_names ? e->alt : e->name, e->desc, arg))
			break;
	}
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
	.desc = "Intel Itanium 2 (modelled: validates, assigns and prints the programming)",
	.max_counters = 4,
	.can_run = false,
	.detect = ita2_detect,
	.list_events = ita2_list_events,
	.event_info = ita2_event_info,
	.encode_set = ita2_encode_set,
	.decode_reg = ita2_decode_reg,
};
