/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The first-generation Itanium model (see itanium.h): its options, the
 * registers it writes for the settings, and the explanations --check
 * prints for an instruction address, an opcode and a data address.
 */
#include <config.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "itanium.h"

#define ITA_WHY_MAX 2048

/* ---- the options: the settings and what to explain ---------------------- */

enum ita_access { ACC_LOAD, ACC_STORE, ACC_SEMAPHORE, ACC_LFETCH, ACC_RSE, ACC_VHPT, ACC_N };
static const char *const access_names[ACC_N] = { "load", "store", "semaphore", "lfetch", "rse", "vhpt" };

/* --event-thresholds of one event set: an entry per event, in -e order */
#define ITA_THRES_ENTRIES 8 /* more than the 4 counters is refused when encoding */
struct ita_set_thres {
	unsigned v[ITA_THRES_ENTRIES];
	bool given[ITA_THRES_ENTRIES]; /* an empty entry keeps the event's thres= */
	size_t n;
	char *text; /* the option's value (a copy: the caller's may not last), for messages */
};

struct ita_options {
	struct ita_state s;
	struct ita_set_thres *thres; /* one per event set */
	size_t n_sets;
	bool pairs_given[2][ITA_PAIRS]; /* IBR, DBR */
	bool opc_given[2];
	bool iear;
	bool iear_tlb;
	uint64_t iear_umask, iear_ism;
	bool explain_ip, explain_data, explain_op;
	uint64_t ip, data;
	enum ita_access access;
	char itype;
	uint64_t enco;
	bool pmd_given[2];
	uint64_t pmd[2];
};

static void *ita_options_new(size_t n_sets)
{
	struct ita_options *o = xcalloc(1, sizeof(*o));

	o->n_sets = n_sets ? n_sets : 1;
	o->thres = xcalloc(o->n_sets, sizeof(*o->thres));
	o->s.ta = true; /* the manual: 1 after reset */
	o->s.pt = true; /* pass tags: no data range unless asked */
	for (unsigned k = 0; k < 2; k++) { /* match every opcode: Tag(PMC8) qualifies nothing */
		o->s.mifb[k] = 0xf;
		o->s.mask[k] = ITA_OPC_FIELD_MASK;
	}
	return o;
}

static void ita_options_free(void *opts)
{
	struct ita_options *o = opts;

	if (!o)
		return;
	for (size_t i = 0; i < o->n_sets; i++)
		free(o->thres[i].text);
	free(o->thres);
	free(o);
}

static int bad(const char *opt, const char *arg, const char *why, struct pf_error *err)
{
	return pf_error_set(err, PF_E_BAD_OPTION_VALUE, arg, opt, why);
}

static int number(const char *opt, const char *arg, const char *s, uint64_t *v, struct pf_error *err)
{
	const char *why = parse_u64_why(s, v);

	return why ? bad(opt, arg, why, err) : 0;
}

static int opt_bool(const char *opt, const char *arg, bool *out, struct pf_error *err)
{
	if (strcmp(arg, "0") && strcmp(arg, "1"))
		return bad(opt, arg, "0 or 1", err);
	*out = arg[0] == '1';
	return 0;
}

static int opt_ta(void *opts, size_t set, const char *arg, struct pf_error *err)
{
	return opt_bool("pmc13-ta", arg, &((struct ita_options *)opts)->s.ta, err);
}

static int opt_pt(void *opts, size_t set, const char *arg, struct pf_error *err)
{
	return opt_bool("pmc11-pt", arg, &((struct ita_options *)opts)->s.pt, err);
}

/* PAIR:ADDR:MASK[:PLM[:x]] (IBR) or PAIR:ADDR:MASK (DBR); ranges are checked by encode */
static int opt_pair(struct ita_options *o, bool ibr, const char *arg, struct pf_error *err)
{
	const char *opt = ibr ? "ibr-pair" : "dbr-pair";
	size_t n;
	char **v = str_split(arg, ':', &n);
	uint64_t pair = 0, addr = 0, mask = 0, plm = 0xf;
	int rc = 0;

	if (n < 3 || n > (ibr ? 5u : 3u))
		rc = bad(opt, arg, ibr ? "PAIR:ADDR:MASK[:PLM[:x]]" : "PAIR:ADDR:MASK", err);
	if (!rc)
		rc = number(opt, arg, v[0], &pair, err) || number(opt, arg, v[1], &addr, err) ||
		     number(opt, arg, v[2], &mask, err) || (n > 3 && number(opt, arg, v[3], &plm, err));
	if (!rc && n > 4 && strcmp(v[4], "x"))
		rc = bad(opt, arg, "the fifth field is 'x' (the pair's fault enable is set: a debugger uses it)", err);
	if (!rc && pair >= ITA_PAIRS)
		rc = pf_error_set(err, PF_E_BAD_OPTION_VALUE, arg, opt, "the pairs are 0 to 3 (IBR0/1 ... IBR6/7)");
	if (!rc) {
		struct ita_pair *p = ibr ? &o->s.ibr[pair] : &o->s.dbr[pair];

		/* a plm above 0xf is kept (capped) for encode to refuse with its rule */
		*p = (struct ita_pair){ .set = true, .addr = addr, .mask = mask,
					.plm = (unsigned)(plm > 0xffff ? 0xffff : plm), .x = n > 4 };
		o->pairs_given[!ibr][pair] = true;
	}
	str_vec_free(v);
	return rc;
}

static int opt_ibr(void *opts, size_t set, const char *arg, struct pf_error *err)
{
	return opt_pair(opts, true, arg, err);
}

static int opt_dbr(void *opts, size_t set, const char *arg, struct pf_error *err)
{
	return opt_pair(opts, false, arg, err);
}

/* MIFB:MATCH:MASK, MIFB letters from "mifb" (or "-" for none) */
static int opt_opc(struct ita_options *o, unsigned k, const char *arg, struct pf_error *err)
{
	const char *opt = k ? "pmc9-match" : "pmc8-match";
	size_t n;
	char **v = str_split(arg, ':', &n);
	uint64_t match = 0, mask = 0;
	unsigned mifb = 0;
	int rc = n == 3 ? 0 : bad(opt, arg, "MIFB:MATCH:MASK (e.g. mi:0x1000:0x7ff0000)", err);

	for (const char *c = !rc ? v[0] : ""; !rc && *c; c++) {
		const char *p = strchr("bfim", *c);

		if (*c == '-' && !c[1] && c == v[0])
			break;
		if (!p)
			rc = bad(opt, arg, "MIFB is letters from m, i, f, b (or '-' for none)", err);
		else
			mifb |= 1u << (p - "bfim");
	}
	if (!rc)
		rc = number(opt, arg, v[1], &match, err) || number(opt, arg, v[2], &mask, err);
	if (!rc && (match > ITA_OPC_FIELD_MASK || mask > ITA_OPC_FIELD_MASK))
		rc = bad(opt, arg, "MATCH and MASK are 27-bit fields (encoding bits 40:27 in 26:13, 12:0 in 12:0)", err);
	if (!rc) {
		o->s.mifb[k] = mifb;
		o->s.match[k] = (uint32_t)match;
		o->s.mask[k] = (uint32_t)mask;
		o->opc_given[k] = true;
	}
	str_vec_free(v);
	return rc;
}

static int opt_pmc8(void *opts, size_t set, const char *arg, struct pf_error *err)
{
	return opt_opc(opts, 0, arg, err);
}

static int opt_pmc9(void *opts, size_t set, const char *arg, struct pf_error *err)
{
	return opt_opc(opts, 1, arg, err);
}

/* is, db, cpl=N */
static int opt_psr(void *opts, size_t set, const char *arg, struct pf_error *err)
{
	struct ita_state *s = &((struct ita_options *)opts)->s;
	size_t n;
	char **v = str_split(arg, ',', &n);
	int rc = 0;

	for (size_t i = 0; i < n && !rc; i++) {
		uint64_t cpl;

		if (strcmp(v[i], "is") == 0)
			s->psr_is = true;
		else if (strcmp(v[i], "db") == 0)
			s->psr_db = true;
		else if (strncmp(v[i], "cpl=", 4) == 0 && parse_u64(v[i] + 4, &cpl) && cpl <= 3)
			s->cpl = (unsigned)cpl;
		else
			rc = bad("psr", arg, "a list of is, db and cpl=0..3", err);
	}
	str_vec_free(v);
	return rc;
}

/* cache:UMASK[:ISM] or tlb:UMASK[:ISM] */
static int opt_iear(void *opts, size_t set, const char *arg, struct pf_error *err)
{
	struct ita_options *o = opts;
	size_t n;
	char **v = str_split(arg, ':', &n);
	int rc = 0;

	if (n < 2 || n > 3 || (strcmp(v[0], "cache") && strcmp(v[0], "tlb")))
		rc = bad("iear", arg, "cache:UMASK[:ISM] or tlb:UMASK[:ISM]", err);
	if (!rc)
		rc = number("iear", arg, v[1], &o->iear_umask, err) || (n > 2 && number("iear", arg, v[2], &o->iear_ism, err));
	o->iear = !rc;
	o->iear_tlb = !rc && v[0][0] == 't';
	str_vec_free(v);
	return rc;
}

static int opt_explain_address(void *opts, size_t set, const char *arg, struct pf_error *err)
{
	struct ita_options *o = opts;

	o->explain_ip = true;
	return number("explain-address", arg, arg, &o->ip, err);
}

/* ADDR[:KIND] */
static int opt_explain_data(void *opts, size_t set, const char *arg, struct pf_error *err)
{
	struct ita_options *o = opts;
	const char *colon = strchr(arg, ':');
	char *addr = colon ? xstrndup(arg, (size_t)(colon - arg)) : xstrdup(arg);
	int rc = number("explain-data-address", arg, addr, &o->data, err);

	free(addr);
	o->access = ACC_LOAD;
	if (!rc && colon) {
		size_t k = 0;

		while (k < ACC_N && strcmp(colon + 1, access_names[k]))
			k++;
		if (k == ACC_N)
			rc = bad("explain-data-address", arg, "KIND is load, store, semaphore, lfetch, rse or vhpt", err);
		o->access = (enum ita_access)k;
	}
	o->explain_data = !rc;
	return rc;
}

/* ITYPE:ENCODING, ITYPE one of M I F B (A: an A-unit instruction in an M or I slot) */
static int opt_explain_opcode(void *opts, size_t set, const char *arg, struct pf_error *err)
{
	struct ita_options *o = opts;
	int rc;

	if (!strchr("MIFBA", arg[0]) || !arg[0] || arg[1] != ':')
		return bad("explain-opcode", arg, "ITYPE:ENCODING, ITYPE one of M, I, F, B or A", err);
	o->itype = arg[0];
	rc = number("explain-opcode", arg, arg + 2, &o->enco, err);
	o->explain_op = !rc;
	return rc;
}

/* N:VALUE, N 0 or 1 */
static int opt_decode_pmd(void *opts, size_t set, const char *arg, struct pf_error *err)
{
	struct ita_options *o = opts;
	uint64_t v;

	if ((arg[0] != '0' && arg[0] != '1') || arg[1] != ':')
		return bad("decode-pmd", arg, "N:VALUE, N 0 or 1 (the instruction EAR's data registers)", err);
	if (number("decode-pmd", arg, arg + 2, &v, err))
		return -1;
	o->pmd_given[arg[0] - '0'] = true;
	o->pmd[arg[0] - '0'] = v;
	return 0;
}

/* T1,T2,...: the Itanium 2 model's option, the same thresholds as EVENT:thres=N
 * (the 3-bit field, 0-7); an empty entry keeps the event's own */
static int opt_thresholds(void *opts, size_t set, const char *arg, struct pf_error *err)
{
	struct ita_options *o = opts;
	struct ita_set_thres *t = &o->thres[set < o->n_sets ? set : o->n_sets - 1];
	size_t n;
	char **v = str_split(arg, ',', &n);
	int rc = n > ITA_THRES_ENTRIES ? bad("event-thresholds", arg, "too many thresholds specified", err) : 0;

	free(t->text);
	memset(t, 0, sizeof(*t));
	t->text = xstrdup(arg);
	for (size_t i = 0; !rc && i < n; i++) {
		uint64_t x;

		if (!*v[i])
			continue;
		rc = number("event-thresholds", arg, v[i], &x, err);
		if (!rc && x > ITA_PMC_THRES_MASK)
			rc = bad("event-thresholds", arg, "a threshold is 0-7 (the 3-bit field)", err);
		t->v[i] = (unsigned)x;
		t->given[i] = true;
	}
	t->n = rc ? 0 : n;
	str_vec_free(v);
	return rc;
}

static const struct pmu_option ita_option_rows[] = {
	{ "event-thresholds", "T1,T2,...", true, false,
	  "per-event threshold, as EVENT:thres=N (0 to the event's max increment - 1)", opt_thresholds },
	{ "pmc13-ta", "0|1", false, false, "PMC13.ta: 1 tags every instruction (the reset value), 0 applies the IBR range",
	  opt_ta },
	{ "ibr-pair", "I:ADDR:MASK[:PLM[:x]]", false, true,
	  "program IBR pair I (0-3): address, mask, privilege levels (default 0xf); x: a debugger uses it", opt_ibr },
	{ "dbr-pair", "I:ADDR:MASK", false, true, "program DBR pair I (0-3) for the data address range", opt_dbr },
	{ "pmc8-match", "MIFB:MATCH:MASK", false, false,
	  "PMC8: syllable types (letters of mifb) and the 27-bit match and mask fields (default: all)", opt_pmc8 },
	{ "pmc9-match", "MIFB:MATCH:MASK", false, false, "PMC9, as --pmc8-match", opt_pmc9 },
	{ "pmc11-pt", "0|1", false, false, "PMC11.pt: 1 passes every tag (default), 0 checks the DBR range", opt_pt },
	{ "psr", "is,db,cpl=N", false, false, "the PSR the explanations assume (default: IA-64, no db, cpl 0)",
	  opt_psr },
	{ "iear", "cache|tlb:UMASK[:ISM]", false, false, "program the instruction EAR (PMC10) in cache or TLB mode",
	  opt_iear },
	{ "explain-address", "ADDR", false, false, "explain whether an instruction at ADDR is tagged by the range check",
	  opt_explain_address },
	{ "explain-opcode", "ITYPE:ENCODING", false, false,
	  "explain whether PMC8 and PMC9 match an instruction (type M, I, F, B or A; 41-bit encoding)",
	  opt_explain_opcode },
	{ "explain-data-address", "ADDR[:KIND]", false, false,
	  "explain whether an access (load, store, semaphore, lfetch, rse, vhpt) to ADDR is tagged", opt_explain_data },
	{ "decode-pmd", "N:VALUE", false, true, "decode a value of the instruction EAR's PMD0 or PMD1", opt_decode_pmd },
};

/* ---- the hardware rules the settings must keep ------------------------- */

/* a virtual address of the 54 implemented bits: 60:51 copy bit 50 */
static bool implemented(uint64_t a)
{
	uint64_t mid = (a >> 51) & 0x3ff;

	return mid == ((a >> 50) & 1 ? 0x3ffull : 0);
}

static int rule(struct pf_error *err, const char *id, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int rule(struct pf_error *err, const char *id, const char *fmt, ...)
{
	char what[PF_ERROR_MSG_MAX / 2];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return pf_error_constraint(err, id, 0, what);
}

static int check_pairs(const struct ita_options *o, struct pf_error *err)
{
	for (unsigned k = 0; k < 2; k++)
		for (unsigned i = 0; i < ITA_PAIRS; i++) {
			const struct ita_pair *p = k ? &o->s.dbr[i] : &o->s.ibr[i];
			const char *r = k ? "DBR" : "IBR";

			if (!p->set)
				continue;
			if (p->mask & ~ITA_BR_MASK_MASK)
				return rule(err, k ? "ITA-DBR-MASK" : "ITA-IBR-MASK", "%s%u.mask 0x%" PRIx64 " has bits "
					    "above 55 (the mask field is 55:0)", r, 2 * i + 1, p->mask);
			if (!k && p->plm > 0xf)
				return rule(err, "ITA-IBR-PLM", "IBR%u.plm has 4 bits (levels 0-3)", 2 * i + 1);
		}
	return 0;
}

static int check_options(const struct pmu_set_request *r, const struct ita_options *o, struct pf_error *err)
{
	bool any_dbr = false;

	if (check_pairs(o, err))
		return -1;
	for (unsigned i = 0; i < ITA_PAIRS; i++)
		any_dbr |= o->s.dbr[i].set;
	if (!o->s.pt && !any_dbr)
		return rule(err, "ITA-DBR-NONE", "PMC11.pt = 0 checks the data address range, but no DBR pair is "
			    "programmed (--dbr-pair)");
	if (o->iear && (o->iear_umask > ITA_PMC10_UMASK_MASK || o->iear_ism > ITA_PMC10_ISM_MASK))
		return rule(err, "ITA-IEAR-FIELD", "PMC10.umask has 4 bits (19:16) and PMC10.ism 2 bits (25:24)");
	if (o->explain_ip && !implemented(o->ip))
		return rule(err, "ITA-VA", "0x%" PRIx64 " is not an implemented address (bits 60:51 must copy bit 50: "
			    "54 virtual address bits)", o->ip);
	if (o->explain_data && !implemented(o->data))
		return rule(err, "ITA-VA", "0x%" PRIx64 " is not an implemented address (bits 60:51 must copy bit 50: "
			    "54 virtual address bits)", o->data);
	if (o->explain_op && (o->enco & ~ITA_ENCO_MASK))
		return rule(err, "ITA-ENCO", "an instruction encoding has 41 bits (40:0), 0x%" PRIx64 " has more", o->enco);
	return 0;
}

/* ---- the programming and the explanations ------------------------------- */

/* unused pairs: an IBR pair with plm 0 matches nothing; a DBR pair's plm is
 * ignored, so an unused DBR pair repeats the first one set (it must not widen the range) */
static void fill_pairs(struct ita_state *s)
{
	int first = -1;

	for (unsigned i = 0; i < ITA_PAIRS; i++) {
		if (!s->ibr[i].set)
			s->ibr[i] = (struct ita_pair){ .plm = 0 };
		if (s->dbr[i].set && first < 0)
			first = (int)i;
	}
	for (unsigned i = 0; first >= 0 && i < ITA_PAIRS; i++)
		if (!s->dbr[i].set)
			s->dbr[i] = s->dbr[first];
}

/* PMC10 and PMC11 share the EAR layout (Fig 6-17; PMC11 per libpfm3's pfm_ita_pmc_reg_t) */
static uint64_t ear_pmc(unsigned plm, bool pm, bool tlb, uint64_t umask, uint64_t ism)
{
	return (uint64_t)(plm & ITA_PMC10_PLM_MASK) << ITA_PMC10_PLM_SHIFT | (uint64_t)pm << ITA_PMC10_PM_SHIFT |
	       (uint64_t)tlb << ITA_PMC10_TLB_SHIFT | umask << ITA_PMC10_UMASK_SHIFT | ism << ITA_PMC10_ISM_SHIFT;
}

/* what the events of the set program beyond their counters */
struct ita_set_events {
	int iear, dear, btb; /* table index of the event that programs PMC10/11/12, or -1 */
	unsigned iear_plm, dear_plm, btb_plm;
	const char *iear_text, *dear_text; /* as given, for messages */
};

static void write_registers(const struct ita_options *o, const struct ita_state *s, unsigned plm, bool pm,
			    const struct ita_set_events *ev, struct set_prog *out)
{
	set_prog_reg(out, REG_PMC, 13, ita_pmc13(s));
	set_prog_reg(out, REG_PMC, 8, ita_opc_pmc(s, 8));
	set_prog_reg(out, REG_PMC, 9, ita_opc_pmc(s, 9));
	if (o->iear)
		set_prog_reg(out, REG_PMC, 10, ear_pmc(plm, pm, o->iear_tlb, o->iear_umask, o->iear_ism));
	else if (ev->iear >= 0)
		set_prog_reg(out, REG_PMC, 10, ear_pmc(ev->iear_plm, pm, ita_event_at((size_t)ev->iear)->ear == ITA_EAR_I_TLB,
						      ita_event_at((size_t)ev->iear)->umask, 0));
	if (ev->dear >= 0 || !s->pt) {
		const struct ita_event *d = ev->dear >= 0 ? ita_event_at((size_t)ev->dear) : NULL;

		set_prog_reg(out, REG_PMC, 11, (d ? ear_pmc(ev->dear_plm, pm, d->ear == ITA_EAR_D_TLB, d->umask, 0) : 0) |
						       (uint64_t)s->pt << ITA_PMC11_PT_SHIFT);
	}
	/* the BTB records every branch with its target, as libpfm3 programs it without options */
	if (ev->btb >= 0)
		set_prog_reg(out, REG_PMC, 12, (uint64_t)(ev->btb_plm & ITA_PMC10_PLM_MASK) | (uint64_t)pm << ITA_PMC12_PM_SHIFT |
						       1ull << ITA_PMC12_TAR_SHIFT | 3ull << ITA_PMC12_TM_SHIFT |
						       3ull << ITA_PMC12_PTM_SHIFT | 3ull << ITA_PMC12_PPM_SHIFT |
						       1ull << ITA_PMC12_BPT_SHIFT | 1ull << ITA_PMC12_BAC_SHIFT);
	for (unsigned i = 0; !s->ta && i < ITA_PAIRS; i++) {
		set_prog_reg(out, REG_IBR, 2 * i, s->ibr[i].addr);
		set_prog_reg(out, REG_IBR, 2 * i + 1, s->ibr[i].mask | (uint64_t)s->ibr[i].plm << ITA_BR_PLM_SHIFT |
						     (uint64_t)s->ibr[i].x << ITA_IBR_X_SHIFT);
	}
	for (unsigned i = 0; !s->pt && i < ITA_PAIRS; i++) {
		set_prog_reg(out, REG_DBR, 2 * i, s->dbr[i].addr);
		set_prog_reg(out, REG_DBR, 2 * i + 1, s->dbr[i].mask); /* r = w = 0: no debug faults; plm is ignored */
	}
	for (unsigned k = 0; k < 2; k++)
		if (o->pmd_given[k])
			set_prog_reg(out, REG_PMD, k, o->pmd[k]);
}

static const char *tri_word(enum ita_tri t)
{
	return t == ITA_YES ? "yes" : t == ITA_NO ? "no" : "unknown";
}

/* Match(PMCk) of the instruction asked about; an A-unit instruction sits in an M or an I slot */
static enum ita_tri opcode_match(const struct ita_options *o, unsigned pmc, char *why, size_t len)
{
	bool m, i;
	char b[ITA_WHY_MAX] = "";

	if (o->itype != 'A')
		return ita_opcode_match(&o->s, pmc, o->itype, o->enco, why, len) ? ITA_YES : ITA_NO;
	m = ita_opcode_match(&o->s, pmc, 'M', o->enco, b, sizeof(b));
	i = ita_opcode_match(&o->s, pmc, 'I', o->enco, b, sizeof(b));
	snprintf(why + strlen(why), len - strlen(why), "A-unit instruction, in an M slot and in an I slot: %s", b);
	return m && i ? ITA_YES : !m && !i ? ITA_NO : ITA_UNKNOWN;
}

/* Tag(PMCk) = Match(PMCk) and IBRRangeTag and not PSR.is */
static enum ita_tri tag(const struct ita_options *o, unsigned pmc, enum ita_tri match, enum ita_tri range)
{
	if (o->s.psr_is || match == ITA_NO || range == ITA_NO)
		return ITA_NO;
	return match == ITA_YES && range == ITA_YES ? ITA_YES : ITA_UNKNOWN;
}

static bool matches_all(const struct ita_state *s, unsigned k)
{
	return s->mifb[k] == 0xf && s->mask[k] == ITA_OPC_FIELD_MASK;
}

static enum ita_tri explain_range(const struct ita_options *o, struct set_prog *out)
{
	char why[ITA_WHY_MAX] = "";
	bool t;

	if (!o->explain_ip)
		return o->s.ta ? ITA_YES : ITA_UNKNOWN;
	t = ita_ibr_range_tag(&o->s, o->ip, why, sizeof(why));
	set_prog_note(out, "instruction address 0x%" PRIx64 " (PSR.is=%d, PSR.db=%d, cpl=%u): %s", o->ip, o->s.psr_is,
	     o->s.psr_db, o->s.cpl, why);
	return t ? ITA_YES : ITA_NO;
}

static enum ita_tri explain_opcodes(const struct ita_options *o, enum ita_tri range, struct set_prog *out)
{
	enum ita_tri tag8 = ITA_UNKNOWN;

	for (unsigned pmc = 8; pmc <= 9; pmc++) {
		char why[ITA_WHY_MAX] = "";
		enum ita_tri match, t;

		if (o->explain_op)
			match = opcode_match(o, pmc, why, sizeof(why));
		else if (matches_all(&o->s, pmc == 9))
			match = ITA_YES, snprintf(why, sizeof(why), "Match(PMC%u): yes: every type and opcode", pmc);
		else
			match = ITA_UNKNOWN, snprintf(why, sizeof(why), "Match(PMC%u): unknown (give --explain-opcode)", pmc);
		t = tag(o, pmc, match, range);
		if (pmc == 8)
			tag8 = t;
		if (o->explain_op || o->explain_ip)
			set_prog_note(out, "%s; Tag(PMC%u) = Match and IBRRangeTag%s and not PSR.is: %s%s", why, pmc,
			     range == ITA_UNKNOWN ? " (unknown: give --explain-address)" : "", tri_word(t),
			     pmc == 9 ? " (Tag(PMC9) is countable at retirement only; it qualifies no other event)"
				      : " (Tag(PMC8) qualifies most downstream events)");
	}
	return tag8;
}

static void explain_data(const struct ita_options *o, enum ita_tri tag8, struct set_prog *out)
{
	char why[ITA_WHY_MAX] = "";
	bool rse = o->access == ACC_RSE || o->access == ACC_VHPT;
	enum ita_tri dtag;
	bool range;

	if (!o->explain_data)
		return;
	range = o->s.pt ? false : ita_dbr_range_match(&o->s, o->data, why, sizeof(why));
	if (o->s.pt) /* every tag passes */
		dtag = tag8;
	else if (rse) /* pt = 0: an RSE operation or VHPT walk is tagged by the range alone */
		dtag = range ? ITA_YES : ITA_NO;
	else
		dtag = !range || tag8 == ITA_NO ? ITA_NO : tag8;
	set_prog_note(out, "data address 0x%" PRIx64 " (%s): %s%sDBRRangeTag = %s: %s", o->data, access_names[o->access],
	     why, *why ? "; " : "", tri_word(dtag),
	     o->s.pt ? (rse ? "PMC11.pt = 1: an RSE operation or VHPT walk is tagged only if Tag(PMC8) was set for "
			      "the operation that caused it"
			    : "PMC11.pt = 1 passes Tag(PMC8) whatever the address")
		     : rse ? "PMC11.pt = 0: an RSE operation or VHPT walk that hits the DBR range is tagged, whatever "
			     "Tag(PMC8)"
			   : "Tag(PMC8) and (PMC11.pt or DBRRangeMatch)");
	if (dtag == ITA_UNKNOWN)
		set_prog_note(out, "the data tag depends on Tag(PMC8), which needs --explain-opcode and --explain-address");
}

static void explain(const struct ita_options *o, struct set_prog *out)
{
	enum ita_tri range = explain_range(o, out);
	enum ita_tri tag8 = explain_opcodes(o, range, out);

	explain_data(o, tag8, out);
}

/* ---- the events: names, thresholds, the registers they program ---------- */

/* NAME[:thres=N]: a table name, or an event code */
static int resolve_event(const struct event_spec *spec, int *idx, unsigned *thres, bool *thres_given,
			 struct pf_error *err)
{
	uint64_t v;

	*idx = spec->pmu || spec->breakpoint || spec->pmu_terms || spec->dot_umask ? -1 : ita_find_event(spec->name);
	if (*idx < 0)
		return pf_error_set(err, PF_E_UNKNOWN_EVENT, spec->text,
				    " (the first-generation Itanium events: pfmon --pmu=itanium -l)");
	*thres = 0;
	*thres_given = spec->n_quals > 0;
	for (size_t q = 0; q < spec->n_quals; q++) {
		const struct event_qual *qual = &spec->quals[q];

		if (strcmp(qual->key, "thres") || !qual->value || !parse_u64(qual->value, &v) || v > ITA_PMC_THRES_MASK)
			return pf_error_set(err, PF_E_BAD_MODIFIER, spec->text,
					    "the Itanium events take one modifier, thres=N (the threshold, 0-7)");
		*thres = (unsigned)v;
	}
	return 0;
}

/* one EAR event per EAR: the second, or one besides --iear, is refused */
static int take_ear(int *slot, unsigned *slot_plm, const char **slot_text, int idx, unsigned plm, const char *text,
		    bool option, struct pf_error *err)
{
	const struct ita_event *e = ita_event_at((size_t)idx);
	bool data = e->ear == ITA_EAR_D_CACHE || e->ear == ITA_EAR_D_TLB;

	if (option)
		return rule(err, "ITA-EAR", "event '%s' programs the instruction EAR (PMC10), which --iear programs "
			    "already", text);
	if (*slot >= 0)
		return rule(err, "ITA-EAR", "events '%s' and '%s' both program the %s EAR (PMC%d), which has one "
			    "configuration", *slot_text, text, data ? "data" : "instruction", data ? 11 : 10);
	*slot = idx;
	*slot_plm = plm;
	*slot_text = text;
	return 0;
}

static int note_registers(const struct ita_counters_req *req, const struct ita_options *o, struct ita_set_events *ev,
			  struct pf_error *err)
{
	for (size_t i = 0; i < req->n; i++) {
		const struct ita_event *e = ita_event_at((size_t)req->ev[i]);
		int rc = 0;

		if (e->ear == ITA_EAR_I_CACHE || e->ear == ITA_EAR_I_TLB)
			rc = take_ear(&ev->iear, &ev->iear_plm, &ev->iear_text, req->ev[i], req->plm[i], req->text[i],
				      o->iear, err);
		else if (e->ear != ITA_EAR_NONE)
			rc = take_ear(&ev->dear, &ev->dear_plm, &ev->dear_text, req->ev[i], req->plm[i], req->text[i],
				      false, err);
		if (rc)
			return -1;
		if (e->btb && ev->btb < 0) {
			ev->btb = req->ev[i];
			ev->btb_plm = req->plm[i];
		}
	}
	return 0;
}

/* the qualifiers the settings apply, which each event must support */
static void quals_used(const struct ita_options *o, struct ita_counters_req *req)
{
	if (!o->s.ta) {
		req->quals_used |= ITA_Q_IAR;
		req->qual_why[0] = "--pmc13-ta=0 applies the IBR range";
	}
	for (unsigned k = 0; k < 2; k++)
		if (o->opc_given[k] && !matches_all(&o->s, k)) {
			req->quals_used |= ITA_Q_OPC;
			req->qual_why[1] = k ? "--pmc9-match" : "--pmc8-match";
		}
	if (!o->s.pt) {
		req->quals_used |= ITA_Q_DAR;
		req->qual_why[2] = "--pmc11-pt=0 applies the DBR range";
	}
}

static void fill_counters(const struct pmu_set_request *r, const struct ita_counters_req *req, const int *pmc,
			  const uint64_t *value, struct set_prog *out)
{
	out->counters = xcalloc(req->n, sizeof(*out->counters));
	out->n_counters = req->n;
	for (size_t i = 0; i < req->n; i++) {
		struct counter_prog *c = &out->counters[i];

		c->name = xstrdup(ita_event_at((size_t)req->ev[i])->name);
		c->given = xstrdup(r->events[i].text);
		c->plm = req->plm[i];
		c->ctl = (struct reg_value){ REG_PMC, (unsigned)pmc[i], value[i] };
		c->ctr = (struct reg_value){ REG_PMD, (unsigned)pmc[i], 0 };
	}
}

/* --event-thresholds into the events' threshold fields, as their thres=
 * would be: the model's rule (below the max increment) then checks them */
static int set_thresholds(const struct ita_set_thres *t, const bool *thres_given, struct ita_counters_req *req,
			  struct pf_error *err)
{
	if (t->n > req->n)
		return bad("event-thresholds", t->text, "too many thresholds specified", err);
	for (size_t i = 0; i < t->n; i++) {
		if (!t->given[i])
			continue;
		if (thres_given[i])
			return pf_error_set(err, PF_E_BAD_MODIFIER, req->text[i],
					    "its threshold is given twice, by thres= and by --event-thresholds");
		req->thres[i] = t->v[i];
	}
	return 0;
}

/* the events of the set: resolved, placed on the counters they may use, and
 * the EAR and BTB configuration they ask for */
static int encode_events(const struct pmu_set_request *r, const struct ita_options *o, struct ita_set_events *ev,
			 struct set_prog *out, struct pf_error *err)
{
	struct ita_counters_req req = { .n = r->n_events, .system_wide = r->system_wide };
	unsigned plm = r->default_plm ? r->default_plm : PF_PLM3;
	int pmc[ITA_MAX_EVENTS];
	uint64_t value[ITA_MAX_EVENTS];
	bool thres_given[ITA_MAX_EVENTS];

	*ev = (struct ita_set_events){ .iear = -1, .dear = -1, .btb = -1 };
	if (!r->n_events)
		return 0;
	if (r->n_events > ITA_MAX_EVENTS)
		return pf_error_constraint(err, "ITA-TOOMANY", r->n_events >= 32 ? UINT32_MAX : (1u << r->n_events) - 1,
					   "too many events: at most 4 counters (PMC4-PMC7)");
	for (size_t i = 0; i < r->n_events; i++) {
		if (resolve_event(&r->events[i], &req.ev[i], &req.thres[i], &thres_given[i], err))
			return -1;
		req.text[i] = r->events[i].text;
		req.plm[i] = r->plm && r->plm[i] ? r->plm[i] : plm;
	}
	if (set_thresholds(&o->thres[r->set < o->n_sets ? r->set : o->n_sets - 1], thres_given, &req, err))
		return -1;
	quals_used(o, &req);
	if (note_registers(&req, o, ev, err) || ita_assign_counters(&req, pmc, value, err))
		return -1;
	fill_counters(r, &req, pmc, value, out);
	return 0;
}

static void general_notes(const struct ita_options *o, const struct ita_set_events *ev, size_t n_events,
			  struct set_prog *out)
{
	if (!n_events)
		set_prog_note(out, "no events: the model programs and explains the range, opcode and EAR registers only "
			     "(pfmon --pmu=itanium -l lists the events)");
	if (!o->s.pt || ev->dear >= 0)
		set_prog_note(out, "PMC11 (pt bit 28, the data EAR fields at PMC10's positions) follows libpfm3's "
			     "pfm_ita_pmc_reg_t: its section (§6.2.7.4) is not in the seed");
	else if (o->explain_data)
		set_prog_note(out, "PMC11.pt = 1 (pass tags): PMC11 is written only for a data range or a data EAR event");
	if (!o->s.ta)
		set_prog_note(out, "range tags are computed early in the pipeline: they include speculative, wrong-path and "
			     "predicated-off instructions, and are inaccurate for fetch, cache and bus events and for "
			     "non-looping code shorter than the pipeline (§6.2.4)");
	if (o->pmd_given[0])
		set_prog_note(out, "PMD0 = 0x%" PRIx64 ": %s", o->pmd[0],
		     !(o->pmd[0] >> ITA_PMD0_V_SHIFT & 1) ? "v = 0: no qualified event was captured"
		     : !o->iear || !o->iear_tlb ? "v = 1: the instruction cache line at bits 63:5 missed (cache mode: "
						   "the tlb bit is undefined)"
						 : "v = 1; in TLB mode its fields are those of Tab 6-16, not in the seed");
	if (o->pmd_given[1])
		set_prog_note(out, "PMD1 = 0x%" PRIx64 ": %s", o->pmd[1],
		     o->iear && o->iear_tlb ? "TLB mode: its format (Tab 6-16) is not in the seed"
					    : "cache mode: latency (bits 11:0) in processor cycles");
	if (o->iear)
		set_prog_note(out, "PMC10.umask in %s mode: its values (Tab 6-%s) are not in the seed; PMD0-1 are valid only "
			     "while PMC0.fr = 1", o->iear_tlb ? "TLB" : "cache", o->iear_tlb ? "15" : "13");
}

static int encode_set(const struct pmu_set_request *r, const struct ita_options *opts, struct set_prog *out,
		      struct pf_error *err)
{
	struct ita_options o = *opts;
	struct ita_set_events ev;

	memset(out, 0, sizeof(*out));
	if (r->default_plm && !o.iear && !r->n_events)
		return pf_error_set(err, PF_E_OPTION_NEEDS, "-u, -k, -1, -2", "--iear or -e",
				    ": privilege levels program the counters and the instruction EAR's PMC10.plm");
	if (r->system_wide && !o.iear && !r->n_events)
		return pf_error_set(err, PF_E_OPTION_NEEDS, "--system-wide", "--iear or -e",
				    ": it sets the pm bit of the counters and of the instruction EAR's PMC10");
	if (check_options(r, &o, err) || encode_events(r, &o, &ev, out, err)) {
		set_prog_release(out);
		return -1;
	}
	fill_pairs(&o.s);
	write_registers(&o, &o.s, r->default_plm ? r->default_plm : PF_PLM3, r->system_wide, &ev, out);
	general_notes(&o, &ev, r->n_events, out);
	explain(&o, out);
	return 0;
}

static int ita_encode_set(const struct pmu_model *m, const struct pmu_set_request *r, struct set_prog *out,
			  struct pf_error *err)
{
	struct ita_options *defaults = r->opts ? NULL : ita_options_new(0);
	int rc = encode_set(r, r->opts ? r->opts : defaults, out, err);

	(void)m;
	ita_options_free(defaults);
	return rc;
}

/* ---- names and fields of the registers ----------------------------------- */

static size_t field(struct reg_field *f, size_t i, size_t max, const char *name, uint64_t v)
{
	if (i < max)
		f[i] = (struct reg_field){ name, v };
	return i + 1;
}

static size_t decode_pmc(unsigned num, uint64_t v, struct reg_field *f, size_t max)
{
	size_t i = 0;

	switch (num) {
	case 0:
		i = field(f, i, max, "fr", v >> ITA_PMC0_FR_SHIFT & 1);
		return field(f, i, max, "overflow", v >> ITA_PMC0_OVFL_SHIFT & ITA_PMC0_OVFL_MASK);
	case 13:
		return field(f, i, max, "ta", v >> ITA_PMC13_TA_SHIFT & 1);
	case 8:
	case 9:
		i = field(f, i, max, "m", v >> ITA_OPC_M_SHIFT & 1);
		i = field(f, i, max, "i", v >> ITA_OPC_I_SHIFT & 1);
		i = field(f, i, max, "f", v >> ITA_OPC_F_SHIFT & 1);
		i = field(f, i, max, "b", v >> ITA_OPC_B_SHIFT & 1);
		i = field(f, i, max, "match", v >> ITA_OPC_MATCH_SHIFT & ITA_OPC_FIELD_MASK);
		return field(f, i, max, "mask", v >> ITA_OPC_MASK_SHIFT & ITA_OPC_FIELD_MASK);
	case 10:
	case 11:
		i = field(f, i, max, "plm", v >> ITA_PMC10_PLM_SHIFT & ITA_PMC10_PLM_MASK);
		i = field(f, i, max, "pm", v >> ITA_PMC10_PM_SHIFT & 1);
		i = field(f, i, max, "tlb", v >> ITA_PMC10_TLB_SHIFT & 1);
		i = field(f, i, max, "umask", v >> ITA_PMC10_UMASK_SHIFT & ITA_PMC10_UMASK_MASK);
		i = field(f, i, max, "ism", v >> ITA_PMC10_ISM_SHIFT & ITA_PMC10_ISM_MASK);
		return num == 11 ? field(f, i, max, "pt", v >> ITA_PMC11_PT_SHIFT & 1) : i;
	case 12:
		i = field(f, i, max, "plm", v & ITA_PMC10_PLM_MASK);
		i = field(f, i, max, "pm", v >> ITA_PMC12_PM_SHIFT & 1);
		i = field(f, i, max, "tar", v >> ITA_PMC12_TAR_SHIFT & 1);
		i = field(f, i, max, "tm", v >> ITA_PMC12_TM_SHIFT & 3);
		i = field(f, i, max, "ptm", v >> ITA_PMC12_PTM_SHIFT & 3);
		i = field(f, i, max, "ppm", v >> ITA_PMC12_PPM_SHIFT & 3);
		i = field(f, i, max, "bpt", v >> ITA_PMC12_BPT_SHIFT & 1);
		return field(f, i, max, "bac", v >> ITA_PMC12_BAC_SHIFT & 1);
	case 4:
	case 5:
	case 6:
	case 7:
		i = field(f, i, max, "plm", v >> ITA_PMC_PLM_SHIFT & ITA_PMC10_PLM_MASK);
		i = field(f, i, max, "oi", v >> ITA_PMC_OI_SHIFT & 1);
		i = field(f, i, max, "pm", v >> ITA_PMC_PM_SHIFT & 1);
		i = field(f, i, max, "es", v >> ITA_PMC_ES_SHIFT & ITA_PMC_ES_MASK);
		i = field(f, i, max, "umask", v >> ITA_PMC_UMASK_SHIFT & ITA_PMC10_UMASK_MASK);
		i = field(f, i, max, "threshold", v >> ITA_PMC_THRES_SHIFT & ITA_PMC_THRES_MASK);
		return field(f, i, max, "ism", v >> ITA_PMC_ISM_SHIFT & ITA_PMC10_ISM_MASK);
	default:
		return 0;
	}
}

static size_t ita_decode_reg(const struct pmu_model *m, const struct reg_value *r, struct reg_field *f, size_t max)
{
	size_t i = 0;

	switch (r->file) {
	case REG_PMC:
		return decode_pmc(r->num, r->value, f, max);
	case REG_PMD:
		if (r->num == 1)
			return field(f, i, max, "latency", r->value & ITA_PMD1_LAT_MASK);
		i = field(f, i, max, "v", r->value >> ITA_PMD0_V_SHIFT & 1);
		i = field(f, i, max, "tlb", r->value >> ITA_PMD0_TLB_SHIFT & 1);
		return field(f, i, max, "line_address", r->value & ~((1ull << ITA_PMD0_ADDR_SHIFT) - 1));
	case REG_IBR:
	case REG_DBR:
		if (r->num % 2 == 0)
			return field(f, i, max, "addr", r->value);
		i = field(f, i, max, "mask", r->value & ITA_BR_MASK_MASK);
		i = field(f, i, max, "plm", r->value >> ITA_BR_PLM_SHIFT & ITA_BR_PLM_MASK);
		if (r->file == REG_IBR)
			return field(f, i, max, "x", r->value >> ITA_IBR_X_SHIFT & 1);
		i = field(f, i, max, "w", r->value >> ITA_DBR_W_SHIFT & 1);
		return field(f, i, max, "r", r->value >> ITA_DBR_R_SHIFT & 1);
	default:
		return 0;
	}
}

/* ---- the event table: -l, -i, --dump-event-table ---------------------------- */

static int ita_list_events(const struct pmu_model *m, bool long_names, event_name_cb cb, void *arg,
			   struct pf_error *err)
{
	for (size_t i = 0; i < ita_event_count(); i++)
		if (cb(ita_event_at(i)->name, ita_event_at(i)->desc, arg))
			break;
	return 0;
}

static const char *const ear_texts[] = {
	[ITA_EAR_NONE] = "None",
	[ITA_EAR_I_CACHE] = "Code (Cache Mode)",
	[ITA_EAR_I_TLB] = "Code (TLB Mode)",
	[ITA_EAR_D_CACHE] = "Data (Cache Mode)",
	[ITA_EAR_D_TLB] = "Data (TLB Mode)",
};

static void counters_text(const struct ita_event *e, char *buf, size_t len, const char *sep)
{
	*buf = 0;
	for (int c = 4; c <= 7; c++)
		if (e->counters & (1u << c))
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%d", *buf ? sep : "", c);
}

static int ita_event_info(const struct pmu_model *m, const char *name, struct event_info *out, struct pf_error *err)
{
	int idx = ita_find_event(name);
	const struct ita_event *e;
	char ctrs[32];

	if (idx < 0)
		return pf_error_set(err, PF_E_UNKNOWN_EVENT, name,
				    " (the first-generation Itanium events: pfmon --pmu=itanium -l)");
	e = ita_event_at((size_t)idx);
	counters_text(e, ctrs, sizeof(ctrs), " ");
	event_info_add(out, "Name", "%s", e->name);
	event_info_add(out, "Code", "0x%x", e->code);
	event_info_add(out, "Counters", "[ %s ]", ctrs);
	event_info_add(out, "Desc", "%s", e->desc);
	event_info_add(out, "Umask", "0x%x", e->ear ? 0u : e->umask);
	event_info_add(out, "EAR", "%s", ear_texts[e->ear]);
	if (e->ear)
		event_info_add(out, "EAR umask", "0x%x (PMC%d)", e->umask, e->ear <= ITA_EAR_I_TLB ? 10 : 11);
	event_info_add(out, "BTB", "%s", e->btb ? "Yes (PMC12)" : "No");
	event_info_add(out, "MaxIncr", "%u  (Threshold [0-%u], EVENT:thres=N)", e->maxincr, e->maxincr - 1u);
	event_info_add(out, "Qual", "%s%s%s%s", e->qual & ITA_Q_OPC ? "[Opcode Match] " : "",
		       e->qual & ITA_Q_IAR ? "[Instruction Address Range] " : "",
		       e->qual & ITA_Q_DAR ? "[Data Address Range]" : "", e->qual ? "" : "None");
	return 0;
}

static int ita_table_row(const struct pmu_model *m, size_t i, table_row *out)
{
	static const char *const ears[] = { "none", "icache", "itlb", "dcache", "dtlb" };
	const struct ita_event *e = ita_event_at(i);
	char ctrs[16];

	if (!e)
		return 1;
	counters_text(e, ctrs, sizeof(ctrs), ",");
	event_info_add(out, "name", "%s", e->name);
	event_info_add(out, "code", "0x%02x", e->code);
	event_info_add(out, "umask", "0x%x", e->umask);
	event_info_add(out, "ear", "%s", ears[e->ear]);
	event_info_add(out, "btb", "%s", e->btb ? "Y" : "N");
	event_info_add(out, "iar", "%s", e->qual & ITA_Q_IAR ? "Y" : "N");
	event_info_add(out, "dar", "%s", e->qual & ITA_Q_DAR ? "Y" : "N");
	event_info_add(out, "opc", "%s", e->qual & ITA_Q_OPC ? "Y" : "N");
	event_info_add(out, "maxincr", "%u", e->maxincr);
	event_info_add(out, "counters", "%s", ctrs);
	return 0;
}

static int ita_validate_table(const struct pmu_model *m, char *msg, size_t len)
{
	return ita_table_check(msg, len);
}

static int ita_describe(const struct pmu_model *m, const void *opts, struct event_info *out, struct pf_error *err)
{
	event_info_add(out, "PMU", "first-generation Itanium (Itanium Processor Reference Manual ch. 6, seed 000)");
	event_info_add(out, "event table", "%zu events (the manual's, as libpfm3 carried them: codes, unit masks, "
					   "counters PMC4-7 or PMC4-5, max increment, IAR/OPC/DAR, EAR and BTB)",
		       ita_event_count());
	event_info_add(out, "modelled", "PMC4-7 counters (placement, thresholds, qualifier support), "
					"PMC13 instruction address range check (IBR pairs, ta), PMC8/PMC9 opcode "
					"matching, the data address range check (DBR pairs, PMC11.pt), PMC0 overflow "
					"status, the EARs (PMC10, PMC11, PMD0, PMD1), the BTB (PMC12), with the match "
					"equations");
	event_info_add(out, "not in the seed", "counter, PMC11 and PMC12 layouts (from libpfm3's "
					       "pfm_ita_pmc_reg_t), the data EAR data (PMD2, PMD3, PMD17), "
					       "Tab 6-5 (plm, pm, ism), Tab 6-13 to 6-16 (EAR unit masks)");
	event_info_add(out, "explain", "--check with --explain-address, --explain-opcode, --explain-data-address "
				       "(and -v for the register fields)");
	return 0;
}

static bool ita_detect(const struct pmu_model *m)
{
	return false; /* an IA-64 host would be a first-generation Itanium only by CPUID family 7: not this build */
}

const struct pmu_model pmu_itanium = {
	.name = "itanium",
	.title = "first-generation Itanium",
	.desc = "Itanium (first generation): events, counters, range, opcode, EAR and BTB registers with the "
		"manual's match equations (modelled)",
	.max_counters = 4,
	.can_run = false,
	.plm_levels = PF_PLM0 | PF_PLM1 | PF_PLM2 | PF_PLM3,
	.system_wide = true, /* the pm bit of the counters and of PMC10-12 */
	.options = ita_option_rows,
	.n_options = ARRAY_SIZE(ita_option_rows),
	.options_group = "first-generation Itanium options (--pmu=itanium)",
	.options_new = ita_options_new,
	.options_free = ita_options_free,
	.detect = ita_detect,
	.validate_table = ita_validate_table,
	.list_events = ita_list_events,
	.event_info = ita_event_info,
	.table_row = ita_table_row,
	.encode_set = ita_encode_set,
	.decode_reg = ita_decode_reg,
	.describe = ita_describe,
};
