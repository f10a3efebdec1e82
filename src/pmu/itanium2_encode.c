/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Itanium 2 encoder: the rules of spec section D, the counter assignment
 * search and one encoder per hardware feature (counters, I-EAR, D-EAR, BTB,
 * opcode matchers; the ranges are in itanium2_range.c), composed by
 * ita2_encode().  Every error names its rule.
 */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pmu/itanium2.h"
#include "pmu/itanium2_priv.h"

static const struct ita2_event *E(const struct ita2_request *req, size_t i)
{
	return ita2_event_at((size_t)req->ev[i]);
}

int ita2_reject(struct pf_error *err, const char *rule, unsigned events, const char *fmt, ...)
{
	char what[PF_ERROR_MSG_MAX / 2];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return pf_error_constraint(err, rule, events, what);
}

/* ---- classification helpers ------------------------------------------ */

bool ita2_is_cancels(const struct ita2_event *e)
{
	/* L2_OZQ_CANCELS0/2/1 (0xa0, 0xa8, 0xac) */
	return e->group == ITA2_GRP_L2 && (e->code == 0xa0 || e->code == 0xa8 || e->code == 0xac);
}

static bool is_set0_prime(const struct ita2_event *e)
{
	return ita2_is_cancels(e) || !strcmp(e->base, "L2_IFET_CANCELS");
}

bool ita2_is_prefetch(const struct ita2_event *e)
{
	return !strcmp(e->base, "L1I_PREFETCHES") || !strcmp(e->base, "L1I_STRM_PREFETCHES") ||
	       !strcmp(e->base, "L2_INST_PREFETCHES");
}

/* Does the umask of the PMD4 event apply to this L2 event (C-L2-5)? */
static bool shares_umask(const struct ita2_event *e)
{
	if (e->group != ITA2_GRP_L2)
		return false;
	if (e->set == 0)
		return is_set0_prime(e); /* ACQUIRE/RELEASE: no umask, don't care */
	return e->set >= 3;
}

/* companion's pattern against the prime's concrete umask u */
static bool umask_compatible(const struct ita2_event *comp, unsigned u)
{
	return ((comp->umask ^ u) & ~comp->umask_dc & 0xfu) == 0;
}

/* ---- per-event and set rules, before the search ------------------------ */

static int check_thresholds(const struct ita2_request *req, struct pf_error *err)
{
	for (size_t i = 0; i < req->n; i++) {
		const struct ita2_event *e = E(req, i);

		if (req->thres[i] > 7 || req->thres[i] >= e->maxincr)
			return ita2_reject(err, "C-GEN-2", 1u << i,
					   "event '%s': threshold %u out of range [0-%u] (max increment %u)",
					   e->name, req->thres[i], e->maxincr - 1u, e->maxincr);
		if (!(req->plm[i] & 0xf))
			return ita2_reject(err, "C-GEN-4", 1u << i, "event '%s': empty privilege mask", e->name);
		if (req->ism[i] == 3)
			return ita2_reject(err, "C-GEN-4", 1u << i, "event '%s': instruction-set mask 11 disables it",
					   e->name);
	}
	return 0;
}

static int check_sets(const struct ita2_request *req, struct pf_error *err)
{
	for (size_t i = 0; i < req->n; i++) {
		const struct ita2_event *a = E(req, i);

		for (size_t j = i + 1; j < req->n; j++) {
			const struct ita2_event *b = E(req, j);

			if (a->group == ITA2_GRP_L1D && b->group == ITA2_GRP_L1D && a->set != b->set)
				return ita2_reject(err, "C-L1D-1", 1u << i | 1u << j,
						   "events '%s' and '%s' are in different L1D sets (%d and %d)",
						   a->name, b->name, a->set, b->set);
			if (a->group == ITA2_GRP_L2 && b->group == ITA2_GRP_L2 && a->set != b->set)
				return ita2_reject(err, "C-L2-1", 1u << i | 1u << j,
						   "events '%s' and '%s' are in different L2 sets (%d and %d)",
						   a->name, b->name, a->set, b->set);
		}
	}
	return 0;
}

static int check_pmd4_only(const struct ita2_request *req, struct pf_error *err)
{
	for (size_t i = 0; i < req->n; i++) {
		const struct ita2_event *a = E(req, i);

		for (size_t j = i + 1; j < req->n; j++) {
			const struct ita2_event *b = E(req, j);

			if (ita2_is_cancels(a) && ita2_is_cancels(b))
				return ita2_reject(err, "C-L2-4", 1u << i | 1u << j,
						   "events '%s' and '%s' both use an L2_OZQ_CANCELS code; only one may be counted",
						   a->name, b->name);
			if (a->counters == 0x10 && b->counters == 0x10)
				return ita2_reject(err,
						   !strcmp(a->base, "L2_FORCE_RECIRC") ? "C-L2-7" : "C-L2-6", 1u << i | 1u << j,
						   "events '%s' and '%s' can only be counted on PMC4/PMD4",
						   a->name, b->name);
		}
	}
	return 0;
}

static int check_ears(const struct ita2_request *req, struct pf_error *err)
{
	int iear = -1, dear = -1;

	for (size_t i = 0; i < req->n; i++) {
		const struct ita2_event *e = E(req, i);

		if (ita2_is_iear((size_t)req->ev[i])) {
			if (iear >= 0)
				return ita2_reject(err, "C-EAR-1", 1u << iear | 1u << i,
						   "events '%s' and '%s' both need the instruction EAR (PMC10)",
						   E(req, (size_t)iear)->name, e->name);
			iear = (int)i;
		}
		if (ita2_is_dear((size_t)req->ev[i])) {
			if (dear >= 0)
				return ita2_reject(err, "C-EAR-2", 1u << dear | 1u << i,
						   "events '%s' and '%s' both need the data EAR (PMC11)",
						   E(req, (size_t)dear)->name, e->name);
			dear = (int)i;
		}
	}
	if (dear >= 0 && E(req, (size_t)dear)->ear != ITA2_EAR_D_CACHE && ita2_btb_used(req))
		return ita2_reject(err, "C-EAR-3", 1u << dear,
				   "event '%s' (D-EAR TLB/ALAT mode) cannot be used with the BTB (PMC12)",
				   E(req, (size_t)dear)->name);
	return 0;
}

/* ---- assignment search (D.0) ------------------------------------------ */

enum { FAIL_NONE, FAIL_L1D2, FAIL_L22, FAIL_L23, FAIL_L25, FAIL_COUNT };

struct search {
	const struct ita2_request *req;
	int pmc[ITA2_MAX_EVENTS];
	int worst; /* the furthest rule a candidate failed */
	bool has_l1d, has_l2, has_set0_prime;
};

/* the first rule a complete candidate breaks, FAIL_NONE if valid */
static int candidate_fails(const struct search *s)
{
	const struct ita2_request *req = s->req;
	int on4 = -1, on5 = -1;

	for (size_t i = 0; i < req->n; i++) {
		if (s->pmc[i] == 4)
			on4 = (int)i;
		if (s->pmc[i] == 5)
			on5 = (int)i;
	}
	if (s->has_l1d && (on5 < 0 || E(req, (size_t)on5)->group != ITA2_GRP_L1D))
		return FAIL_L1D2;
	if (!s->has_l2)
		return FAIL_NONE;
	if (on4 < 0 || E(req, (size_t)on4)->group != ITA2_GRP_L2)
		return FAIL_L22;
	const struct ita2_event *prime = E(req, (size_t)on4);

	if (prime->set == 0 && s->has_set0_prime && !is_set0_prime(prime))
		return FAIL_L23;
	if (!shares_umask(prime))
		return FAIL_NONE;
	for (size_t i = 0; i < req->n; i++) {
		if ((int)i != on4 && shares_umask(E(req, i)) && !umask_compatible(E(req, i), prime->umask))
			return FAIL_L25;
	}
	return FAIL_NONE;
}

/* lexicographic over (counter of event 1, counter of event 2, ...) */
static bool place(struct search *s, size_t i, unsigned used)
{
	if (i == s->req->n) {
		int f = candidate_fails(s);

		if (f > s->worst)
			s->worst = f;
		return f == FAIL_NONE;
	}
	for (int c = 4; c <= 7; c++) {
		if ((used & (1u << c)) || !(E(s->req, i)->counters & (1u << c)))
			continue;
		s->pmc[i] = c;
		if (place(s, i + 1, used | (1u << c)))
			return true;
	}
	return false;
}

static void set_names(const struct ita2_request *req, int group, bool shared_only, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = 0;
	for (size_t i = 0; i < req->n && off < len; i++) {
		const struct ita2_event *e = E(req, i);

		if (e->group != group || (shared_only && !shares_umask(e)))
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s'%s'", off ? ", " : "", e->name);
	}
}

/* the events of group (with a shared unit mask only, if asked) as a mask */
static unsigned group_mask(const struct ita2_request *req, int group, bool shared_only)
{
	unsigned mask = 0;

	for (size_t i = 0; i < req->n; i++)
		if (E(req, i)->group == group && (!shared_only || shares_umask(E(req, i))))
			mask |= 1u << i;
	return mask;
}

static int search_failed(const struct search *s, struct pf_error *err)
{
	const struct ita2_request *req = s->req;
	char names[256];

	switch (s->worst) {
	case FAIL_L25:
		for (size_t i = 0; i < req->n; i++)
			for (size_t j = i + 1; j < req->n; j++) {
				const struct ita2_event *a = E(req, i), *b = E(req, j);

				if (shares_umask(a) && shares_umask(b) && !umask_compatible(a, b->umask) &&
				    !umask_compatible(b, a->umask))
					return ita2_reject(err, "C-L2-5", 1u << i | 1u << j,
							   "events '%s' and '%s' need different unit masks (0x%x and 0x%x) but L2 set %d shares one",
							   a->name, b->name, a->umask, b->umask, a->set);
			}
		set_names(req, ITA2_GRP_L2, true, names, sizeof(names));
		return ita2_reject(err, "C-L2-5", group_mask(req, ITA2_GRP_L2, true), "events %s cannot share one unit mask", names);
	case FAIL_L23:
		set_names(req, ITA2_GRP_L2, false, names, sizeof(names));
		return ita2_reject(err, "C-L2-3", group_mask(req, ITA2_GRP_L2, false),
				   "events %s: an L2_OZQ_CANCELS or L2_IFET_CANCELS event must be on PMC4/PMD4",
				   names);
	case FAIL_L22:
		set_names(req, ITA2_GRP_L2, false, names, sizeof(names));
		return ita2_reject(err, "C-L2-2", group_mask(req, ITA2_GRP_L2, false), "events %s: no L2-set event can be placed on PMC4/PMD4",
				   names);
	default:
		set_names(req, ITA2_GRP_L1D, false, names, sizeof(names));
		return ita2_reject(err, "C-L1D-2", group_mask(req, ITA2_GRP_L1D, false), "events %s: no L1D-set event can be placed on PMC5/PMD5",
				   names);
	}
}

static int assign_counters(const struct ita2_request *req, struct ita2_result *res, struct pf_error *err)
{
	struct search s = { .req = req, .worst = FAIL_NONE };

	for (size_t i = 0; i < req->n; i++) {
		const struct ita2_event *e = E(req, i);

		s.has_l1d |= e->group == ITA2_GRP_L1D;
		s.has_l2 |= e->group == ITA2_GRP_L2;
		s.has_set0_prime |= is_set0_prime(e);
	}
	if (!place(&s, 0, 0))
		return search_failed(&s, err);
	for (size_t i = 0; i < req->n; i++)
		res->pmc[i] = s.pmc[i];
	return 0;
}

/* ---- feature encoders ------------------------------------------------- */

static uint64_t pm_bit(const struct ita2_request *req, int shift)
{
	return (uint64_t)(req->system_wide ? 1 : 0) << shift;
}

/* PMC4-7: the listed value (bit 23 clear; C-REG-1 adds it for PMC4) */
static void encode_counters(const struct ita2_request *req, struct ita2_result *res)
{
	for (size_t i = 0; i < req->n; i++) {
		const struct ita2_event *e = E(req, i);
		uint64_t umask = e->ear != ITA2_EAR_NONE ? 0 : e->umask;

		res->value[i] = (req->plm[i] & ITA2_PMC_PLM_MASK) | 1ull << ITA2_PMC_OI_SHIFT |
				pm_bit(req, ITA2_PMC_PM_SHIFT) | (uint64_t)e->code << ITA2_PMC_ES_SHIFT |
				umask << ITA2_PMC_UMASK_SHIFT |
				(uint64_t)req->thres[i] << ITA2_PMC_THRES_SHIFT |
				(uint64_t)req->ism[i] << ITA2_PMC_ISM_SHIFT;
		if (res->pmc[i] == 4)
			set_prog_note(res->prog, "PMC4 is written with bit 23 (enable) set: 0x%llx",
				  (unsigned long long)(res->value[i] | ITA2_PMC4_ENABLE));
	}
}

static int find_ear(const struct ita2_request *req, bool data)
{
	for (size_t i = 0; i < req->n; i++)
		if (data ? ita2_is_dear((size_t)req->ev[i]) : ita2_is_iear((size_t)req->ev[i]))
			return (int)i;
	return -1;
}

/* PMC10 (F.1): cache mode ct = 1x with the 8-bit umask in 12:5, TLB mode ct = 00 */
static void encode_iear(const struct ita2_request *req, struct ita2_result *res)
{
	int i = find_ear(req, false);
	uint64_t v;

	if (i < 0)
		return;
	const struct ita2_event *e = E(req, (size_t)i);

	v = (req->plm[i] & ITA2_PMC_PLM_MASK) | pm_bit(req, ITA2_PMC10_PM_SHIFT) |
	    (uint64_t)e->ear_umask << ITA2_PMC10_UMASK_SHIFT | (uint64_t)req->ism[i] << ITA2_PMC10_ISM_SHIFT;
	if (e->ear == ITA2_EAR_I_CACHE)
		v |= 2ull << ITA2_PMC10_CT_SHIFT;
	set_prog_reg(res->prog, REG_PMC, 10, v);
}

/* PMC11 (F.2): mode 00 cache, 01 TLB, 10 ALAT */
static void encode_dear(const struct ita2_request *req, struct ita2_result *res)
{
	int i = find_ear(req, true);
	uint64_t mode;

	if (i < 0)
		return;
	const struct ita2_event *e = E(req, (size_t)i);

	mode = e->ear == ITA2_EAR_D_TLB ? 1 : e->ear == ITA2_EAR_D_ALAT ? 2 : 0;
	set_prog_reg(res->prog, REG_PMC, 11,
		     (req->plm[i] & ITA2_PMC_PLM_MASK) | pm_bit(req, ITA2_PMC11_PM_SHIFT) |
			     mode << ITA2_PMC11_MODE_SHIFT |
			     (uint64_t)e->ear_umask << ITA2_PMC11_UMASK_SHIFT |
			     (uint64_t)req->ism[i] << ITA2_PMC_ISM_SHIFT);
}

bool ita2_btb_used(const struct ita2_request *req)
{
	if (req->btb_opts)
		return true;
	for (size_t i = 0; i < req->n; i++)
		if (E(req, i)->btb)
			return true;
	return false;
}

/* two options of a pair select both halves; none selects both (record all) */
static unsigned btb_mask(unsigned opts, unsigned hi, unsigned lo)
{
	unsigned m = ((opts & hi) ? 2u : 0u) | ((opts & lo) ? 1u : 0u);

	return m ? m : 3u;
}

static int btb_brt(unsigned opts, unsigned *brt, struct pf_error *err)
{
	unsigned n = 0;

	*brt = 0; /* all branches (Tab 10-25) */
	if (opts & ITA2_BTB_BRT_IPREL)
		*brt = 1, n++;
	if (opts & ITA2_BTB_BRT_RET)
		*brt = 2, n++;
	if (opts & ITA2_BTB_BRT_IND)
		*brt = 3, n++;
	if (n > 1)
		return ita2_reject(err, "C-BTB-1", 0,
				   "the BTB records one branch type: give at most one of --btb-brt-iprel, --btb-brt-ret, --btb-brt-ind");
	return 0;
}

/* PMC12 (F.3), or PMC12 = 0 when a D-EAR TLB/ALAT needs it clear (C-EAR-3) */
static int encode_btb(const struct ita2_request *req, struct ita2_result *res, struct pf_error *err)
{
	unsigned tm, ptm, ppm, brt, plm = req->default_plm;
	int dear = find_ear(req, true);

	if (!ita2_btb_used(req)) {
		if (dear >= 0 && E(req, (size_t)dear)->ear != ITA2_EAR_D_CACHE)
			set_prog_reg(res->prog, REG_PMC, 12, 0);
		return 0;
	}
	tm = btb_mask(req->btb_opts, ITA2_BTB_TM_TK, ITA2_BTB_TM_NTK);
	ptm = btb_mask(req->btb_opts, ITA2_BTB_PTM_CORRECT, ITA2_BTB_PTM_INCORRECT);
	ppm = btb_mask(req->btb_opts, ITA2_BTB_PPM_CORRECT, ITA2_BTB_PPM_INCORRECT);
	if (btb_brt(req->btb_opts, &brt, err))
		return -1;
	if (ptm == 1 && ppm == 1)
		return ita2_reject(err, "C-BTB-1", 0,
				   "--btb-ptm-incorrect and --btb-ppm-incorrect together capture nothing");
	for (size_t i = 0; i < req->n; i++) {
		if (E(req, i)->btb)
			plm = req->plm[i];
		if (req->ism[i] == ITA2_ISM_IA32)
			return ita2_reject(err, "C-BTB-2", 1u << i,
					   "the BTB records only Itanium branches: event '%s' monitors IA-32 execution only",
					   E(req, i)->name);
	}
	set_prog_reg(res->prog, REG_PMC, 12,
		     (plm & ITA2_PMC_PLM_MASK) | pm_bit(req, ITA2_PMC12_PM_SHIFT) |
			     (uint64_t)tm << ITA2_PMC12_TM_SHIFT | (uint64_t)ptm << ITA2_PMC12_PTM_SHIFT |
			     (uint64_t)ppm << ITA2_PMC12_PPM_SHIFT | (uint64_t)brt << ITA2_PMC12_BRT_SHIFT);
	return 0;
}

static bool lists_event(const struct ita2_request *req, const char *name)
{
	for (size_t i = 0; i < req->n; i++)
		if (!strcmp(E(req, i)->name, name))
			return true;
	return false;
}

/* PMC15 bits: clear the one tagged pair named alone, else both (E.4) */
static uint64_t pmc15_clear(const struct ita2_request *req, const char *a, int abit, const char *b,
			    int bbit)
{
	bool ha = lists_event(req, a), hb = lists_event(req, b);

	if (ha && !hb)
		return 1ull << abit;
	if (hb && !ha)
		return 1ull << bbit;
	return 1ull << abit | 1ull << bbit;
}

static int check_opcm(const struct ita2_request *req, struct pf_error *err)
{
	for (size_t i = 0; i < req->n; i++) {
		const struct ita2_event *e = E(req, i);

		if (req->opcm8_used && !(e->qual & ITA2_Q_OPC) && !req->no_qual_check)
			return ita2_reject(err, "C-QUAL-3", 1u << i, "event '%s' does not support opcode matching (PMC8)",
					   e->name);
		if (req->opcm9_used && e->code != 0x08)
			return ita2_reject(err, "C-QUAL-4", 1u << i,
					   "PMC9 only qualifies IA64_INST_RETIRED-code events, not '%s'", e->name);
	}
	return 0;
}

/* PMC8, PMC9, PMC15; PMC8 may be rewritten by the code-range encoder */
static void encode_opcm(const struct ita2_request *req, struct ita2_result *res)
{
	uint64_t pmc15 = ITA2_PMC15_RESET | 0xf;

	if (req->opcm8_used) {
		set_prog_reg(res->prog, REG_PMC, 8, (req->opcm8 | ITA2_PMC8_ONE | ITA2_PMC8_IG_AD) & ~ITA2_PMC8_INV);
		pmc15 &= ~pmc15_clear(req, "IA64_TAGGED_INST_RETIRED.IBRP0_PMC8", 0,
				      "IA64_TAGGED_INST_RETIRED.IBRP2_PMC8", 2);
	}
	if (req->opcm9_used) {
		set_prog_reg(res->prog, REG_PMC, 9, (req->opcm9 | ITA2_PMC8_ONE | ITA2_PMC8_IG_AD) & ~ITA2_PMC8_INV);
		pmc15 &= ~pmc15_clear(req, "IA64_TAGGED_INST_RETIRED.IBRP1_PMC9", 1,
				      "IA64_TAGGED_INST_RETIRED.IBRP3_PMC9", 3);
	}
	if (req->opcm8_used || req->opcm9_used)
		set_prog_reg(res->prog, REG_PMC, 15, pmc15);
}

/* ---- final checks on register values (C-REG) ---------------------------- */

static int check_regs(const struct ita2_request *req, const struct ita2_result *res, struct pf_error *err)
{
	for (size_t i = 0; i < req->n; i++)
		if (res->value[i] & ITA2_PMC_MBZ_MASK)
			return ita2_reject(err, "C-REG-2", 1u << i, "PMC%d bits 27:26 must be 0", res->pmc[i]);
	for (size_t i = 0; i < res->prog->n_regs; i++) {
		const struct reg_value *r = &res->prog->regs[i];
		bool pmc = r->file == REG_PMC;

		if (pmc && (r->num == 8 || r->num == 9) && !(r->value & ITA2_PMC8_ONE))
			return ita2_reject(err, "C-REG-4", 0, "PMC%u bit 2 must be 1", r->num);
		if (pmc && r->num == 15 && (r->value | 0xf) != (ITA2_PMC15_RESET | 0xf))
			return ita2_reject(err, "C-REG-5", 0, "PMC15 must keep 0xfffffff0 outside bits 3:0");
	}
	return 0;
}

static int cmp_reg(const struct reg_value *a, const struct reg_value *b)
{
	/* PMCs by number, then IBRs, then DBRs: the order of enum reg_file */
	if (a->file != b->file)
		return a->file < b->file ? -1 : 1;
	return a->num < b->num ? -1 : a->num > b->num;
}

static void sort_regs(struct ita2_result *res)
{
	/* insertion sort: a dozen registers at most */
	for (size_t i = 1; i < res->prog->n_regs; i++) {
		struct reg_value r = res->prog->regs[i];
		size_t j = i;

		while (j > 0 && cmp_reg(&res->prog->regs[j - 1], &r) > 0) {
			res->prog->regs[j] = res->prog->regs[j - 1];
			j--;
		}
		res->prog->regs[j] = r;
	}
}

/* ---- the dispatcher --------------------------------------------------- */

int ita2_encode(const struct ita2_request *req, struct ita2_result *res, struct set_prog *prog, struct pf_error *err)
{
	memset(res, 0, sizeof(*res));
	res->prog = prog;
	if (req->n > ITA2_MAX_EVENTS)
		return ita2_reject(err, "C-GEN-1", (1u << req->n) - 1, "%zu events given, at most 4 counters (PMC4-PMC7)", req->n);
	if (check_thresholds(req, err) || check_ears(req, err) || check_sets(req, err) ||
	    check_pmd4_only(req, err) || check_opcm(req, err))
		return -1;
	if (assign_counters(req, res, err))
		return -1;
	encode_counters(req, res);
	encode_iear(req, res);
	encode_dear(req, res);
	if (encode_btb(req, res, err))
		return -1;
	encode_opcm(req, res);
	if (ita2_encode_ranges(req, res, err))
		return -1;
	sort_regs(res);
	return check_regs(req, res, err);
}
