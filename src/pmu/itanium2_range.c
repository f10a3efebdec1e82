/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Itanium 2 address ranges: the code range on the instruction breakpoint
 * pairs (IBRP0-3, PMC14, PMC8.ig_ad/inv) and the data range on the data
 * breakpoint pairs (DBRP0-3), with PMC13 tying them to the memory-pipeline
 * events.  The mapping of a requested range onto the hardware follows
 * spec E.2.1/E.3 (the values pfmon 3.x programs): fine mode inside one 4 KB
 * page, else naturally aligned power-of-two blocks, never covering less
 * than asked; the slack is reported as a note.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "pmu/itanium2.h"
#include "pmu/itanium2_priv.h"

#define NPAIRS 4

struct block {
	uint64_t base;
	unsigned log2; /* size = 1 << log2 */
};

struct blocks {
	struct block b[NPAIRS];
	size_t n;
};

enum side { LEFT, RIGHT };

static unsigned floor_log2(uint64_t v)
{
	return 63u - (unsigned)__builtin_clzll(v);
}

static uint64_t size_of(unsigned p)
{
	return 1ull << p;
}

/* Cover [s, e) with at most n aligned blocks (spec E.2.1 item 5). */
static void split(uint64_t s, uint64_t e, size_t n, enum side side, struct blocks *out)
{
	unsigned p;
	uint64_t c, b, l, r;
	size_t nl, nr;

	if (n == 0 || e <= s || out->n >= NPAIRS)
		return;
	p = floor_log2(e - s);
	c = e & ~(size_of(p) - 1);
	if (c - size_of(p) >= s && c >= size_of(p)) {
		b = c - size_of(p);
	} else {
		p = p ? p - 1 : 0;
		b = c + size_of(p) <= e ? c : c - size_of(p);
	}
	if (n == 1 && side == LEFT && b > s) {
		p++;
		b = e - size_of(p);
	}
	if (n == 1 && side == RIGHT && b + size_of(p) < e) {
		p++;
		b = s;
	}
	out->b[out->n++] = (struct block){ b, p };
	n--;
	l = b - s;
	r = e - (b + size_of(p));
	nl = nr = n / 2;
	if (n % 2) {
		if (l > r)
			nl++;
		else
			nr++;
	}
	split(s, b, nl, LEFT, out);
	split(b + size_of(p), e, nr, RIGHT, out);
}

/* the smallest naturally aligned power-of-two block containing [s, e) */
static struct block one_block(uint64_t s, uint64_t e)
{
	unsigned p = floor_log2(e - s);

	if (size_of(p) < e - s)
		p++;
	while (p < 63 && (s & ~(size_of(p) - 1)) + size_of(p) < e)
		p++;
	return (struct block){ s & ~(size_of(p) - 1), p };
}

static uint64_t mask_reg(unsigned plm, unsigned p)
{
	return (uint64_t)(plm & 0xf) << ITA2_BR_PLM_SHIFT | (~(size_of(p) - 1) & ITA2_BR_MASK_BITS);
}

/* what each pair carries, for PMC13/PMC14 and the warnings */
struct pairs {
	bool code[NPAIRS]; /* code block or lower fine limit */
	bool upper[NPAIRS]; /* upper fine limit */
	bool data[NPAIRS];
	size_t n_data;
};

static const struct ita2_event *E(const struct ita2_request *req, size_t i)
{
	return ita2_event_at((size_t)req->ev[i]);
}

static bool retired_only(const struct ita2_request *req)
{
	for (size_t i = 0; i < req->n; i++)
		if (E(req, i)->code != 0x08)
			return false;
	return req->n > 0;
}

static bool any_prefetch(const struct ita2_request *req)
{
	for (size_t i = 0; i < req->n; i++)
		if (ita2_is_prefetch(E(req, i)))
			return true;
	return false;
}

/* the IBR pair that range-qualifies event i (E.2.1 item 10) */
static int qual_pair(const struct ita2_request *req, size_t i)
{
	const struct ita2_event *e = E(req, i);

	if (ita2_is_prefetch(e))
		return 1;
	if (e->code == 0x08)
		return e->umask & 3;
	return 0;
}

/* C-QUAL-1/2/5/6: per-event checks common to both kinds of range */
static int check_range_events(const struct ita2_request *req, bool code, struct pf_error *err)
{
	const char *kind = code ? "instruction" : "data";

	for (size_t i = 0; i < req->n; i++) {
		const struct ita2_event *e = E(req, i);
		unsigned need = code ? ITA2_Q_IAR : ITA2_Q_DAR;

		if (!(e->qual & need) && !req->no_qual_check)
			return ita2_reject(err, code ? "C-QUAL-1" : "C-QUAL-2", 1u << i,
					   "event '%s' does not support %s address range restrictions", e->name,
					   kind);
		if (req->ism[i] == ITA2_ISM_IA32)
			return ita2_reject(err, "C-QUAL-5", 1u << i,
					   "event '%s': %s range restrictions cannot be used when monitoring IA-32 execution only",
					   e->name, kind);
		if (req->own_plm[i])
			return ita2_reject(err, "C-QUAL-6", 1u << i,
					   "event '%s': a per-event privilege mask cannot be used with an address range (%s)",
					   e->name, kind);
	}
	return 0;
}

static void report(struct ita2_result *res, const char *kind, const struct ita2_range *r, size_t npairs,
		   bool fine, uint64_t lo, uint64_t hi)
{
	set_prog_note(res->prog, "%s range [0x%llx-0x%llx): %zu register pair(s)%s, start offset -0x%llx, end offset +0x%llx",
		  kind, (unsigned long long)r->start, (unsigned long long)r->end, npairs,
		  fine ? ", fine mode" : "", (unsigned long long)(r->start - lo),
		  (unsigned long long)(hi - r->end));
}

static void add_ibr_pair(struct ita2_result *res, int pair, uint64_t addr, uint64_t mask)
{
	set_prog_reg(res->prog, REG_IBR, 2u * pair, addr);
	set_prog_reg(res->prog, REG_IBR, 2u * pair + 1, mask);
}

/* fine mode (E.2.1 item 3): lower limit on pair lo, upper on lo + 2 */
static void code_fine(const struct ita2_request *req, struct ita2_result *res, struct pairs *pp)
{
	const struct ita2_range *r = &req->irange;
	int lo = any_prefetch(req) ? 1 : 0;
	uint64_t lower = r->start & ~0x1full;
	uint64_t upper = r->end - 0x10;
	uint64_t mask = (uint64_t)(req->default_plm & 0xf) << ITA2_BR_PLM_SHIFT | 0x00fffffffffff000ull;

	/* erratum: the comparison resolves 32-byte steps (pfmon 3.x) */
	if (!(upper & 0x1f))
		upper += 0x10;
	add_ibr_pair(res, lo, lower, mask);
	add_ibr_pair(res, lo + 2, upper, mask);
	pp->code[lo] = true;
	pp->upper[lo + 2] = true;
	res->fine = true;
	report(res, "code", r, 2, true, lower, upper + 0x10);
}

static int code_pairs_counted(const struct ita2_request *req, const struct blocks *bl,
			      struct pf_error *err)
{
	for (size_t k = 0; k < bl->n; k++) {
		bool counted = false;

		for (size_t i = 0; i < req->n; i++)
			counted |= qual_pair(req, i) == (int)k;
		if (!counted)
			return ita2_reject(err, "C-TAG-3", 0,
					   "the code range needs IBR pair %zu, which no event counts (add IA64_TAGGED_INST_RETIRED with its IBRP%zu umask)",
					   k, k);
		if ((req->opcm8_used && !req->opcm9_used && (k & 1)) ||
		    (req->opcm9_used && !req->opcm8_used && !(k & 1)))
			return ita2_reject(err, "C-TAG-3", 0,
					   "the code range needs IBR pair %zu, which is tied to the other opcode matcher",
					   k);
	}
	return 0;
}

/* normal mode: one block, or up to four for retired-only lists (items 4/5) */
static int code_normal(const struct ita2_request *req, struct ita2_result *res, struct pairs *pp,
		       struct pf_error *err)
{
	const struct ita2_range *r = &req->irange;
	struct blocks bl = { .n = 0 };
	uint64_t lo = UINT64_MAX, hi = 0;

	if (retired_only(req)) {
		split(r->start, r->end, NPAIRS, LEFT, &bl);
		if (code_pairs_counted(req, &bl, err))
			return -1;
	} else {
		bl.b[bl.n++] = one_block(r->start, r->end);
	}
	for (size_t k = 0; k < bl.n; k++) {
		int pair = bl.n == 1 && any_prefetch(req) ? 1 : (int)k;

		add_ibr_pair(res, pair, bl.b[k].base, mask_reg(req->default_plm, bl.b[k].log2));
		pp->code[pair] = true;
		if (bl.b[k].base < lo)
			lo = bl.b[k].base;
		if (bl.b[k].base + size_of(bl.b[k].log2) > hi)
			hi = bl.b[k].base + size_of(bl.b[k].log2);
	}
	report(res, "code", r, bl.n, false, lo, hi);
	return 0;
}

static int check_code_range(const struct ita2_request *req, bool fine, struct pf_error *err)
{
	const struct ita2_range *r = &req->irange;

	if ((r->start | r->end) & 0xf)
		return ita2_reject(err, "C-IBR-6", 0, "code range [0x%llx-0x%llx) is not bundle (16-byte) aligned",
				   (unsigned long long)r->start, (unsigned long long)r->end);
	if (check_range_events(req, true, err))
		return -1;
	if (fine && req->opcm9_used && !any_prefetch(req))
		return ita2_reject(err, "C-TAG-3", 0,
				   "a fine-mode code range uses IBR pairs 0/2, which PMC9 does not qualify");
	if (!fine && any_prefetch(req) && !retired_only(req)) {
		for (size_t i = 0; i < req->n; i++) {
			const struct ita2_event *e = E(req, i);

			if (!ita2_is_prefetch(e) && e->code != 0x08)
				return ita2_reject(err, "C-IBR-3", 1u << i,
						   "event '%s' is range-qualified by IBR pair 0 but the prefetch events need the code range on pair 1",
						   e->name);
		}
	}
	return 0;
}

static void warn_unconstrained(const struct ita2_request *req, struct ita2_result *res,
			       const struct pairs *pp)
{
	for (size_t i = 0; i < req->n; i++) {
		int p = qual_pair(req, i);

		if ((E(req, i)->qual & ITA2_Q_IAR) && !pp->code[p] && !pp->upper[p])
			set_prog_note(res->prog, "warning: event '%s' is qualified by IBR pair %d, which carries no range: it counts the whole program",
				  E(req, i)->name, p);
	}
}

static int encode_irange(const struct ita2_request *req, struct ita2_result *res, struct pairs *pp,
			 struct pf_error *err)
{
	const struct ita2_range *r = &req->irange;
	bool fine = !req->fine_disabled && (r->start >> 12) == (r->end >> 12);

	if (check_code_range(req, fine, err))
		return -1;
	if (fine)
		code_fine(req, res, pp);
	else if (code_normal(req, res, pp, err))
		return -1;
	warn_unconstrained(req, res, pp);
	return 0;
}

/* E.3: split over the DBR pairs; r = w = 0 (C-DBR-1) */
static int encode_drange(const struct ita2_request *req, struct ita2_result *res, struct pairs *pp,
			 struct pf_error *err)
{
	const struct ita2_range *r = &req->drange;
	struct blocks bl = { .n = 0 };
	uint64_t lo = UINT64_MAX, hi = 0;

	if (check_range_events(req, false, err))
		return -1;
	split(r->start, r->end, NPAIRS, LEFT, &bl);
	for (size_t k = 0; k < bl.n; k++) {
		set_prog_reg(res->prog, REG_DBR, 2u * (unsigned)k, bl.b[k].base);
		set_prog_reg(res->prog, REG_DBR, 2u * (unsigned)k + 1, mask_reg(req->default_plm, bl.b[k].log2));
		pp->data[k] = true;
		if (bl.b[k].base < lo)
			lo = bl.b[k].base;
		if (bl.b[k].base + size_of(bl.b[k].log2) > hi)
			hi = bl.b[k].base + size_of(bl.b[k].log2);
	}
	pp->n_data = bl.n;
	report(res, "data", r, bl.n, false, lo, hi);
	if (bl.n > 1)
		set_prog_note(res->prog, "warning: the data range uses %zu DBR pairs; the manual does not recommend enabling more than one (rule C-DBR-2)",
			  bl.n);
	return 0;
}

/* PMC13 (E.2.1 item 9): per pair, cfg from what constrains it */
static uint64_t pmc13_value(const struct ita2_request *req, const struct pairs *pp)
{
	uint64_t v = ITA2_PMC13_RESET;

	for (int n = 0; n < NPAIRS; n++) {
		bool i = pp->code[n], d = pp->data[n];
		bool o = (n & 1) ? req->opcm9_used : req->opcm8_used;
		uint64_t cfg = 3;

		if (!req->irange.used && !req->drange.used && n == 0 && req->opcm8_used)
			i = true; /* Tab 10-3 "opcode matching only": [1,01] */
		if (d && !i && !o)
			cfg = 2;
		else if (i && !d)
			cfg = 1;
		else if (d)
			cfg = 0;
		v &= ~(3ull << ITA2_PMC13_CFG_SHIFT(n)) & ~(1ull << ITA2_PMC13_ENA_SHIFT(n));
		v |= cfg << ITA2_PMC13_CFG_SHIFT(n) | (uint64_t)(i || d) << ITA2_PMC13_ENA_SHIFT(n);
	}
	return v;
}

static void replace_reg(struct ita2_result *res, enum reg_file file, unsigned n, uint64_t value)
{
	for (size_t i = 0; i < res->prog->n_regs; i++)
		if (res->prog->regs[i].file == file && res->prog->regs[i].num == n) {
			res->prog->regs[i].value = value;
			return;
		}
	set_prog_reg(res->prog, file, n, value);
}

static void encode_pmc8_14(const struct ita2_request *req, struct ita2_result *res, const struct pairs *pp)
{
	uint64_t pmc14 = ITA2_PMC14_RESET, pmc8;

	for (int n = 0; n < NPAIRS; n++)
		if (pp->code[n] || pp->upper[n])
			pmc14 &= ~ITA2_PMC14_IBRP_BIT(n);
	if (res->fine)
		pmc14 |= ITA2_PMC14_FINE;
	pmc8 = req->opcm8_used ? req->opcm8 : ~0ull;
	pmc8 = (pmc8 & ~(ITA2_PMC8_IG_AD | ITA2_PMC8_INV)) | ITA2_PMC8_ONE |
	       (req->inverse_irange ? ITA2_PMC8_INV : 0);
	replace_reg(res, REG_PMC, 8, pmc8);
	set_prog_reg(res->prog, REG_PMC, 14, pmc14);
}

/*
 * Every block of a cover is a naturally aligned power of two, so a range
 * holding bytes of both halves of the address space needs one block of
 * 2^64 bytes, which neither a register mask nor a shift of a uint64_t
 * expresses (the split shifted by 64: undefined behaviour, found by
 * tests/fuzz).  On IA-64 the halves are regions 0-3 and 4-7: no range of
 * one program crosses, so such a range is refused, naming it.
 */
static int check_halves(const struct ita2_range *r, const char *opt, struct pf_error *err)
{
	char val[48];

	if (!((r->start ^ (r->end - 1)) >> 63))
		return 0;
	snprintf(val, sizeof(val), "0x%llx-0x%llx", (unsigned long long)r->start,
		 (unsigned long long)r->end);
	return pf_error_set(err, PF_E_BAD_OPTION_VALUE, val, opt,
			    "the range crosses 0x8000000000000000 (regions 3 and 4): no register pair covers it");
}

int ita2_encode_ranges(const struct ita2_request *req, struct ita2_result *res, struct pf_error *err)
{
	struct pairs pp;

	memset(&pp, 0, sizeof(pp));
	if (req->irange.used && check_halves(&req->irange, "irange", err))
		return -1;
	if (req->drange.used && check_halves(&req->drange, "drange", err))
		return -1;
	if (req->irange.used && encode_irange(req, res, &pp, err))
		return -1;
	if (req->drange.used && encode_drange(req, res, &pp, err))
		return -1;
	if (req->irange.used)
		encode_pmc8_14(req, res, &pp);
	if (req->irange.used || req->drange.used || req->opcm8_used) {
		uint64_t pmc13 = pmc13_value(req, &pp);

		/* C-IBR-4: a code range with no PMC13 enable bit mis-tags I-side events */
		if (req->irange.used && !(pmc13 >> ITA2_PMC13_ENA_SHIFT(0) & 0xf))
			return ita2_reject(err, "C-IBR-4", 0, "a code range needs a PMC13 enable bit");
		set_prog_reg(res->prog, REG_PMC, 13, pmc13);
	}
	return 0;
}
