/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The match equations of the first-generation Itanium (seed 000 §6.2.4-
 * 6.2.6), bit group by bit group as the manual writes them, each result
 * with the reason: the first bit that fails, or what made it hold.
 */
#include <config.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "itanium.h"

#define BITS(hi, lo) ((~0ull >> (63 - (hi))) & ~((1ull << (lo)) - 1))

static void say(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *why, size_t len, const char *fmt, ...)
{
	size_t used = strlen(why);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(why + used, len - used, fmt, ap);
	va_end(ap);
}

static int top_bit(uint64_t v)
{
	return 63 - __builtin_clzll(v);
}

/*
 * The address part shared by IBR and DBR matching, 54 implemented virtual
 * bits: 50:0 under the mask, 55:51 against the sign bit 50 under the mask,
 * 60:56 against bit 50 unmasked, 63:61 (the region) unmasked.
 */
static bool address_match(uint64_t reg_addr, uint64_t mask, uint64_t a, char *why, size_t len)
{
	uint64_t sign = (a >> 50) & 1 ? ~0ull : 0;
	struct {
		uint64_t diff;
		const char *what;
	} groups[] = {
		{ (reg_addr ^ a) & BITS(63, 61), "region bits 63:61 differ (compared unmasked)" },
		{ (reg_addr ^ sign) & BITS(60, 56), "bits 60:56 of the register differ from address bit 50 "
						     "(compared unmasked)" },
		{ (reg_addr ^ sign) & mask & BITS(55, 51), "masked bits 55:51 of the register differ from address "
							    "bit 50" },
		{ (reg_addr ^ a) & mask & BITS(50, 0), "masked bits 50:0 differ" },
	};

	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
		if (groups[i].diff) {
			say(why, len, "no: %s, first at bit %d", groups[i].what, top_bit(groups[i].diff));
			return false;
		}
	say(why, len, "the address matches under mask 0x%" PRIx64, mask);
	return true;
}

bool ita_ibr_match(const struct ita_state *s, unsigned pair, uint64_t ip, char *why, size_t len)
{
	const struct ita_pair *p = &s->ibr[pair];

	say(why, len, "IBRmatch%u (IBR%u=0x%" PRIx64 ", IBR%u.mask=0x%" PRIx64 ", plm=0x%x): ", pair, 2 * pair,
	    p->addr, 2 * pair + 1, p->mask, p->plm);
	if (!((p->plm >> s->cpl) & 1)) {
		say(why, len, "no: plm bit %u (PSR.cpl) is 0", s->cpl);
		return false;
	}
	return address_match(p->addr, p->mask, ip, why, len);
}

bool ita_ibr_range_tag(const struct ita_state *s, uint64_t ip, char *why, size_t len)
{
	bool any = false, x = false;
	char one[256];

	if (s->ta) {
		say(why, len, "IBRRangeTag = 1: PMC13.ta = 1 tags every instruction, IA-64 and IA-32, whatever the IBRs");
		return true;
	}
	if (s->psr_is) {
		say(why, len, "IBRRangeTag = 0: PSR.is = 1 (IA-32) and PMC13.ta = 0: IA-32 instructions are never tagged");
		return false;
	}
	for (unsigned i = 0; i < ITA_PAIRS; i++) {
		bool m;

		one[0] = '\0';
		m = ita_ibr_match(s, i, ip, one, sizeof(one));
		say(why, len, "%s; ", one);
		any |= m;
		x |= s->ibr[i].x;
	}
	if (!any) {
		say(why, len, "IBRRangeTag = 0: no IBR pair matches");
		return false;
	}
	if (s->psr_db || x) {
		say(why, len, "IBRRangeTag = 0: %s is set, the IBRs serve a debugger (range checking is off)",
		    s->psr_db ? "PSR.db" : "an IBR x-bit");
		return false;
	}
	say(why, len, "IBRRangeTag = 1");
	return true;
}

/* encoding bits 40:27 and 12:0, as the 27-bit field of PMC8/9 holds them */
static uint32_t enco_field(uint64_t enco)
{
	return (uint32_t)((((enco >> 27) & 0x3fff) << 13) | (enco & 0x1fff));
}

static bool imatch(unsigned mifb, char itype)
{
	switch (itype) {
	case 'M':
		return mifb & 8;
	case 'I':
		return mifb & 4;
	case 'F':
		return mifb & 2;
	case 'B':
		return mifb & 1;
	default:
		return false;
	}
}

bool ita_opcode_match(const struct ita_state *s, unsigned pmc, char itype, uint64_t enco, char *why, size_t len)
{
	unsigned k = pmc == 9;
	uint32_t diff = (enco_field(enco) ^ s->match[k]) & ~s->mask[k] & ITA_OPC_FIELD_MASK;

	say(why, len, "Match(PMC%u): ", pmc);
	if (!imatch(s->mifb[k], itype)) {
		say(why, len, "no: imatch: the %c bit is 0 (mifb=%c%c%c%c)", itype, s->mifb[k] & 8 ? 'm' : '-',
		    s->mifb[k] & 4 ? 'i' : '-', s->mifb[k] & 2 ? 'f' : '-', s->mifb[k] & 1 ? 'b' : '-');
		return false;
	}
	if (diff) {
		int f = top_bit(diff);

		say(why, len, "no: ematch: encoding bit %d is %u, match bit %d is %u and not masked", f >= 13 ? f + 14 : f,
		    (enco_field(enco) >> f) & 1, f, (s->match[k] >> f) & 1);
		return false;
	}
	say(why, len, "yes: the %c bit is set and encoding bits 40:27 and 12:0 match under the mask", itype);
	return true;
}

bool ita_dbr_range_match(const struct ita_state *s, uint64_t addr, char *why, size_t len)
{
	bool any = false;

	for (unsigned i = 0; i < ITA_PAIRS; i++) {
		const struct ita_pair *p = &s->dbr[i];

		say(why, len, "DBRRangeMatch%u (DBR%u=0x%" PRIx64 ", DBR%u.mask=0x%" PRIx64 "): ", i, 2 * i, p->addr,
		    2 * i + 1, p->mask);
		any |= address_match(p->addr, p->mask, addr, why, len);
		say(why, len, "; ");
	}
	if (any && s->psr_db) {
		say(why, len, "DBRRangeMatch = 0: PSR.db is set");
		return false;
	}
	say(why, len, "DBRRangeMatch = %d", any);
	return any;
}

uint64_t ita_pmc13(const struct ita_state *s)
{
	return (uint64_t)s->ta << ITA_PMC13_TA_SHIFT;
}

uint64_t ita_opc_pmc(const struct ita_state *s, unsigned pmc)
{
	unsigned k = pmc == 9, mifb = s->mifb[k];

	return ((uint64_t)(s->mask[k] & ITA_OPC_FIELD_MASK) << ITA_OPC_MASK_SHIFT) |
	       ((uint64_t)(s->match[k] & ITA_OPC_FIELD_MASK) << ITA_OPC_MATCH_SHIFT) |
	       ((uint64_t)((mifb >> 0) & 1) << ITA_OPC_B_SHIFT) | ((uint64_t)((mifb >> 1) & 1) << ITA_OPC_F_SHIFT) |
	       ((uint64_t)((mifb >> 2) & 1) << ITA_OPC_I_SHIFT) | ((uint64_t)((mifb >> 3) & 1) << ITA_OPC_M_SHIFT);
}
