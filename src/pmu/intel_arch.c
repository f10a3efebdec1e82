/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Intel architectural performance monitoring model (v1/v2): CPUID
 * leaf 0AH, the seven predefined events with libpfm4's ix86arch names and
 * modifiers, counter assignment over the general-purpose and fixed
 * counters, and the MSR values a v1/v2 PMU would be programmed with
 * (--check).  On an Intel CPU that reports the PMU, a run opens every event
 * as a raw perf event with the same PERFEVTSEL fields: the kernel writes
 * the MSRs.  Never prints.
 */
#include <linux/perf_event.h>
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "common/util.h"
#include "pmu/intel_arch.h"

/* SDM vol. 3, architectural events (the seed's table is missing); EBX bit i = row i */
static const struct ia_event events[IA_N_EVENTS] = {
	{ "UNHALTED_CORE_CYCLES", "UnHalted_Core_Cycles", 0x3c, 0x00, 1,
	  "core clock cycles while this core is not halted" },
	{ "INSTRUCTION_RETIRED", "Instruction_Retired", 0xc0, 0x00, 0,
	  "instructions retired" },
	{ "UNHALTED_REFERENCE_CYCLES", "UnHalted_Reference_Cycles", 0x3c, 0x01, 2,
	  "reference clock cycles while this core is not halted (a fixed rate)" },
	{ "LLC_REFERENCES", "LLC_Reference", 0x2e, 0x4f, -1,
	  "requests from this core for a line of the last-level cache" },
	{ "LLC_MISSES", "LLC_Misses", 0x2e, 0x41, -1,
	  "those last-level cache requests that missed" },
	{ "BRANCH_INSTRUCTIONS_RETIRED", "Branch_Instruction_Retired", 0xc4, 0x00, -1,
	  "branch instructions retired" },
	{ "MISPREDICTED_BRANCH_RETIRED", "Branch_Misses_Retired", 0xc5, 0x00, -1,
	  "mispredicted branch instructions retired" },
};

const struct ia_event *ia_event_at(unsigned i)
{
	return i < IA_N_EVENTS ? &events[i] : NULL;
}

int ia_find_event(const char *name)
{
	for (int i = 0; i < IA_N_EVENTS; i++)
		if (!strcasecmp(events[i].name, name) || !strcasecmp(events[i].alias, name))
			return i;
	return -1;
}

static unsigned bits(uint32_t v, unsigned hi, unsigned lo)
{
	return (unsigned)((v >> lo) & ((1ull << (hi - lo + 1)) - 1));
}

void ia_decode_cpuid(const struct ia_cpuid *r, struct ia_pmu_desc *d)
{
	memset(d, 0, sizeof(*d));
	d->version = bits(r->eax, 7, 0);
	d->n_gp = bits(r->eax, 15, 8);
	d->gp_width = bits(r->eax, 23, 16);
	d->ebx_len = bits(r->eax, 31, 24);
	/* EDX is valid from v2; the seed's "bits 0 to 5" overlaps the width: 4:0 (SDM) */
	if (d->version >= 2) {
		d->n_fixed = bits(r->edx, 4, 0);
		d->fixed_width = bits(r->edx, 12, 5);
	}
	/* EBX bit i = 1: event i unavailable; bits at or past ebx_len mean nothing: unavailable */
	for (unsigned i = 0; i < IA_N_EVENTS; i++)
		if (i >= d->ebx_len || (r->ebx >> i & 1))
			d->unavailable |= 1u << i;
}

bool ia_host_cpuid(struct ia_cpuid *r, char *vendor, size_t vendor_len, const char **why)
{
	memset(r, 0, sizeof(*r));
	snprintf(vendor, vendor_len, "unknown");
#if defined(__x86_64__) || defined(__i386__)
	unsigned max, b, c, d;

	if (!__get_cpuid(0, &max, &b, &c, &d)) {
		*why = "this CPU has no CPUID instruction";
		return false;
	}
	char v[13];
	memcpy(v, &b, 4);
	memcpy(v + 4, &d, 4);
	memcpy(v + 8, &c, 4);
	v[12] = '\0';
	snprintf(vendor, vendor_len, "%s", v);
	/* test seam: the other vendor's paths on this machine (the tests read
	 * the attributes pfmon would open; on a machine with a PMU of the
	 * other vendor a count would measure something else) */
	if (getenv("PFMON_TEST_CPU_VENDOR"))
		snprintf(vendor, vendor_len, "%s", getenv("PFMON_TEST_CPU_VENDOR"));
	if (max < 0xa) {
		*why = "this CPU's highest CPUID leaf is below 0AH";
		return false;
	}
	__cpuid_count(0xa, 0, r->eax, r->ebx, r->ecx, r->edx);
	*why = NULL;
	return true;
#else
	*why = "this host is not an x86 CPU: it has no CPUID";
	return false;
#endif
}

/* ---- events and modifiers ------------------------------------------------ */

static int bad_modifier(const struct event_spec *spec, const char *why, struct pf_error *err)
{
	return pf_error_set(err, PF_E_BAD_MODIFIER, spec->text, why);
}

/* a libpfm4 boolean modifier: ":u" or ":u=0|1" */
static int bool_modifier(const struct event_spec *spec, const struct event_qual *q, unsigned *out,
			 struct pf_error *err)
{
	char why[96];

	if (!q->value || !strcmp(q->value, "1")) {
		*out = 1;
		return 0;
	}
	if (!strcmp(q->value, "0")) {
		*out = 0;
		return 0;
	}
	snprintf(why, sizeof(why), "modifier '%s' takes 0 or 1, not '%s'", q->key, q->value);
	return bad_modifier(spec, why, err);
}

static int cmask_modifier(const struct event_spec *spec, const struct event_qual *q, unsigned *out,
			  struct pf_error *err)
{
	uint64_t v;

	if (!q->value || parse_u64_why(q->value, &v) || v > IA_EVTSEL_CMASK_MASK)
		return bad_modifier(spec, "modifier 'c' (counter mask, CMASK) takes a value 0-255, e.g. c=2", err);
	*out = (unsigned)v;
	return 0;
}

struct ia_mods {
	int u, k; /* -1: not given */
	unsigned e, i, c;
	bool any_given; /* e, i or c: a general-purpose counter only */
};

static int parse_modifiers(const struct event_spec *spec, struct ia_mods *m, struct pf_error *err)
{
	char why[128];

	*m = (struct ia_mods){ .u = -1, .k = -1 };
	for (size_t n = 0; n < spec->n_quals; n++) {
		const struct event_qual *q = &spec->quals[n];
		unsigned v = 0;
		int rc;

		if (!strcmp(q->key, "u") || !strcmp(q->key, "k")) {
			rc = bool_modifier(spec, q, &v, err);
			*(q->key[0] == 'u' ? &m->u : &m->k) = (int)v;
		} else if (!strcmp(q->key, "e")) {
			rc = bool_modifier(spec, q, &m->e, err);
			m->any_given = true;
		} else if (!strcmp(q->key, "i")) {
			rc = bool_modifier(spec, q, &m->i, err);
			m->any_given = true;
		} else if (!strcmp(q->key, "c")) {
			rc = cmask_modifier(spec, q, &m->c, err);
			m->any_given = true;
		} else {
			snprintf(why, sizeof(why), "unknown modifier '%s' (the architectural events take u, k, e, i, "
				 "c=N)", q->key);
			rc = bad_modifier(spec, why, err);
		}
		if (rc)
			return -1;
	}
	return 0;
}

static int find_spec_event(const struct event_spec *spec, struct pf_error *err)
{
	int idx;

	if (spec->breakpoint || spec->dot_umask ||
	    (spec->pmu && strcasecmp(spec->pmu, "ix86arch") && strcasecmp(spec->pmu, "intel_arch")))
		idx = -1;
	else
		idx = ia_find_event(spec->name);
	if (idx < 0)
		pf_error_set(err, PF_E_UNKNOWN_EVENT, spec->text,
			     " (the intel_arch model has the seven architectural events: see pfmon --pmu=intel_arch -l)");
	return idx;
}

int ia_encode_evtsel(const struct event_spec *spec, unsigned plm, struct ia_evsel *out, struct pf_error *err)
{
	struct ia_mods m;
	const struct ia_event *e;

	memset(out, 0, sizeof(*out));
	out->idx = find_spec_event(spec, err);
	if (out->idx < 0 || parse_modifiers(spec, &m, err))
		return -1;
	e = &events[out->idx];
	/* libpfm4: u or k given -> exactly those; neither -> the default levels */
	if (m.u >= 0 || m.k >= 0)
		plm = (m.u > 0 ? PF_PLM3 : 0) | (m.k > 0 ? PF_PLM0 : 0);
	if (!plm)
		return bad_modifier(spec, "u=0 and k=0 leave no privilege level to count at", err);
	out->plm = plm;
	out->fixed_ok = !m.any_given;
	out->value = (uint64_t)e->code << IA_EVTSEL_EVENT_SHIFT | (uint64_t)e->umask << IA_EVTSEL_UMASK_SHIFT |
		     (uint64_t)!!(plm & PF_PLM3) << IA_EVTSEL_USR_SHIFT |
		     (uint64_t)!!(plm & PF_PLM0) << IA_EVTSEL_OS_SHIFT | (uint64_t)m.e << IA_EVTSEL_E_SHIFT |
		     1ull << IA_EVTSEL_INT_SHIFT | 1ull << IA_EVTSEL_EN_SHIFT | (uint64_t)m.i << IA_EVTSEL_INV_SHIFT |
		     (uint64_t)m.c << IA_EVTSEL_CMASK_SHIFT;
	return 0;
}

/* ---- the model's options ------------------------------------------------- */

struct ia_options {
	bool cpuid_given;
	struct ia_cpuid cpuid;
	bool info;
};

static void *ia_options_new(size_t n_sets)
{
	return xcalloc(1, sizeof(struct ia_options));
}

static void ia_options_free(void *opts)
{
	free(opts);
}

static int opt_cpuid(void *opts, size_t set, const char *arg, struct pf_error *err)
{
	struct ia_options *o = opts;
	uint32_t *regs[4] = { &o->cpuid.eax, &o->cpuid.ebx, &o->cpuid.ecx, &o->cpuid.edx };
	size_t n;
	char **v = str_split(arg, ':', &n);
	int rc = 0;

	if (n != 4)
		rc = pf_error_set(err, PF_E_BAD_OPTION_VALUE, arg, "cpuid",
				  "expected EAX:EBX:ECX:EDX, the four registers of CPUID leaf 0AH");
	for (size_t i = 0; !rc && i < 4; i++) {
		uint64_t x;
		const char *why = parse_u64_why(v[i], &x);

		if (!why && x > UINT32_MAX)
			why = "a CPUID register has 32 bits";
		if (why)
			rc = pf_error_set(err, PF_E_BAD_OPTION_VALUE, arg, "cpuid", why);
		else
			*regs[i] = (uint32_t)x;
	}
	str_vec_free(v);
	o->cpuid_given = !rc;
	return rc;
}

static int opt_info(void *opts, size_t set, const char *arg, struct pf_error *err)
{
	((struct ia_options *)opts)->info = true;
	return 0;
}

static const struct pmu_option ia_option_rows[] = {
	{ "cpuid", "EAX:EBX:ECX:EDX", false, false, "CPUID leaf 0AH of the machine to model (default: this CPU's)",
	  opt_cpuid },
	{ "pmu-info", NULL, false, false, "print the decoded CPUID leaf 0AH (the PMU's description)", opt_info },
};

/* ---- a run: this CPU must be an Intel one that has the PMU ---------------- */

/*
 * The raw encodings are Intel's (an AMD CPU counts something else under
 * event 0xc0 umask 0), so a run needs a GenuineIntel CPU.  --cpuid stands
 * in for a leaf 0AH the CPU (or its hypervisor) hides; the kernel still
 * refuses the raw events when it has no PMU driver.
 */
static int check_live_host(const struct ia_options *o, struct pf_error *err)
{
	struct ia_cpuid host;
	char vendor[16], msg[256];
	const char *why;
	bool has_leaf = ia_host_cpuid(&host, vendor, sizeof(vendor), &why);

	if (strcmp(vendor, "GenuineIntel")) {
		snprintf(msg, sizeof(msg), "the intel_arch model runs live on an Intel CPU only (this one: %s); "
			 "use --check for a dry run", vendor);
		return pf_error_set(err, PF_E_NOT_THIS_HOST, msg);
	}
	if (o && o->cpuid_given)
		return 0;
	if (!has_leaf) {
		snprintf(msg, sizeof(msg), "%s: no architectural performance monitoring to run "
			 "--pmu=intel_arch on; use --check for a dry run", why);
		return pf_error_set(err, PF_E_NOT_THIS_HOST, msg);
	}
	if (bits(host.eax, 7, 0) == 0)
		return pf_error_set(err, PF_E_NOT_THIS_HOST, "this CPU reports no architectural performance "
				    "monitoring (CPUID.0AH:EAX version 0): --pmu=intel_arch cannot run here; use "
				    "--check for a dry run");
	return 0;
}

/* ---- the machine: --cpuid, this CPU, or a generic v2 PMU ----------------- */

/* Core 2 Duo's leaf: v2, 2 counters of 40 bits, 7 events, 3 fixed of 40 bits */
static const struct ia_cpuid generic_v2 = { 0x07280202, 0x0, 0x0, 0x503 };

struct ia_machine {
	struct ia_cpuid regs;
	struct ia_pmu_desc d;
	const char *source; /* in words */
	char vendor[16];
	const char *why_not_host; /* this CPU reports nothing: why */
};

static void machine_of(const void *opts, struct ia_machine *mc)
{
	const struct ia_options *o = opts;
	bool host;

	memset(mc, 0, sizeof(*mc));
	if (o && o->cpuid_given) {
		/* no CPUID instruction then: in a VM each one traps to the hypervisor */
		mc->regs = o->cpuid;
		mc->source = "--cpuid";
		ia_decode_cpuid(&mc->regs, &mc->d);
		return;
	}
	host = ia_host_cpuid(&mc->regs, mc->vendor, sizeof(mc->vendor), &mc->why_not_host);
	if (host && bits(mc->regs.eax, 7, 0) > 0) {
		mc->source = "this CPU";
	} else {
		if (host)
			mc->why_not_host = !strcmp(mc->vendor, "AuthenticAMD")
						   ? "an AMD CPU reserves CPUID leaf 0AH: it returns nothing"
						   : "this CPU's CPUID leaf 0AH reports version 0 (a VM that hides "
						     "the PMU, or no architectural monitoring)";
		mc->regs = generic_v2;
		mc->source = "a generic v2 PMU (Core 2 Duo's leaf 0AH; give --cpuid=EAX:EBX:ECX:EDX for another)";
	}
	ia_decode_cpuid(&mc->regs, &mc->d);
}

/* ---- encode: validate, assign, program ----------------------------------- */

struct ia_assign {
	struct ia_evsel ev[IA_MAX_GP + IA_MAX_FIXED + 1];
	int fixed[IA_MAX_GP + IA_MAX_FIXED + 1]; /* fixed counter, or -1 */
	int gp[IA_MAX_GP + IA_MAX_FIXED + 1]; /* general-purpose counter, or -1 */
};

static int check_machine(const struct ia_machine *mc, struct pf_error *err)
{
	if (mc->d.version == 0)
		return pf_error_constraint(err, "C-IA-VER", 0,
					   "CPUID.0AH reports version 0: no architectural performance monitoring");
	return 0;
}

/* the fixed counters first (each counts one event: no umask, no e/i/c), then PMC0.. */
static int assign(const struct ia_machine *mc, size_t n, struct ia_assign *a, struct pf_error *err)
{
	unsigned n_gp = mc->d.n_gp < IA_MAX_GP ? mc->d.n_gp : IA_MAX_GP;
	unsigned n_fixed = mc->d.n_fixed < IA_MAX_FIXED ? mc->d.n_fixed : IA_MAX_FIXED;
	unsigned used_fixed = 0, next_gp = 0;

	for (size_t i = 0; i < n; i++) {
		int f = events[a->ev[i].idx].fixed;

		a->fixed[i] = a->gp[i] = -1;
		if (a->ev[i].fixed_ok && f >= 0 && (unsigned)f < n_fixed && !(used_fixed & 1u << f)) {
			used_fixed |= 1u << f;
			a->fixed[i] = f;
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (a->fixed[i] >= 0)
			continue;
		if (next_gp >= n_gp) {
			char what[160];

			snprintf(what, sizeof(what), "too many events: %u general-purpose counter%s%s, and the fixed "
				 "counters count only their own event without e, i or c", n_gp, n_gp == 1 ? "" : "s",
				 n_fixed ? "" : " and no fixed counter");
			return pf_error_constraint(err, "C-IA-CTR", (1u << n) - 1, what);
		}
		a->gp[i] = (int)next_gp++;
	}
	return 0;
}

static int encode_events(const struct pmu_set_request *r, const struct ia_machine *mc, struct ia_assign *a,
			 struct pf_error *err)
{
	if (r->n_events > IA_MAX_GP + IA_MAX_FIXED)
		return pf_error_constraint(err, "C-IA-CTR", (1u << (IA_MAX_GP + IA_MAX_FIXED)) - 1,
					   "too many events: at most 8 general-purpose and 3 fixed counters");
	for (size_t i = 0; i < r->n_events; i++) {
		unsigned plm = r->plm[i] ? r->plm[i] : r->default_plm ? r->default_plm : PF_PLM_USER;
		char what[160];

		if (ia_encode_evtsel(&r->events[i], plm, &a->ev[i], err))
			return -1;
		if (mc->d.unavailable & 1u << a->ev[i].idx) {
			snprintf(what, sizeof(what), "%s is not available on this machine (CPUID.0AH EBX bit %d, or "
				 "past the EAX[31:24] = %u events it enumerates)", events[a->ev[i].idx].name,
				 a->ev[i].idx, mc->d.ebx_len);
			return pf_error_constraint(err, "C-IA-AVAIL", 1u << i, what);
		}
	}
	return 0;
}

static unsigned fixed_field(unsigned plm)
{
	return (plm & PF_PLM0 ? IA_FIXED_EN_OS : 0) | (plm & PF_PLM3 ? IA_FIXED_EN_USR : 0) | IA_FIXED_PMI;
}

/*
 * What a run opens: PERF_TYPE_RAW with PERFEVTSEL's event select, umask, E,
 * INV and CMASK (the kernel's raw mask); USR and OS become the exclude
 * bits, INT and EN are the kernel's.  An event on fixed counter 0 or 1
 * opens as the same raw code (0xc0, 0x3c): the kernel moves it to its
 * fixed counter itself, and a general counter counts the same.  Fixed
 * counter 2 is another matter: it counts reference cycles at the TSC rate,
 * while raw 0x013c on a general counter counts the slower bus/crystal
 * clock on many CPUs, and the kernel does not move raw 0x013c there; the
 * kernel's generic ref-cycles event is the one it gives fixed counter 2.
 */
static void fill_attr(const struct ia_evsel *ev, int fixed, struct perf_event_attr *a)
{
	const uint64_t kernel_owned = 1ull << IA_EVTSEL_USR_SHIFT | 1ull << IA_EVTSEL_OS_SHIFT |
				      1ull << IA_EVTSEL_INT_SHIFT | 1ull << IA_EVTSEL_EN_SHIFT;

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_RAW;
	a->config = ev->value & ~kernel_owned;
	if (fixed == 2) {
		a->type = PERF_TYPE_HARDWARE;
		a->config = PERF_COUNT_HW_REF_CPU_CYCLES;
	}
	a->exclude_user = !(ev->plm & PF_PLM_USER);
	a->exclude_kernel = !(ev->plm & PF_PLM_KERNEL);
	a->exclude_hv = 1;
}

static void fill_prog(const struct pmu_set_request *r, const struct ia_machine *mc, const struct ia_assign *a,
		      struct set_prog *out)
{
	uint64_t fixed_ctrl = 0, global = 0;

	for (size_t i = 0; i < r->n_events; i++)
		if (a->fixed[i] >= 0)
			fixed_ctrl |= (uint64_t)fixed_field(a->ev[i].plm) << (IA_FIXED_FIELD_BITS * a->fixed[i]);
	out->counters = xcalloc(r->n_events ? r->n_events : 1, sizeof(*out->counters));
	out->n_counters = r->n_events;
	for (size_t i = 0; i < r->n_events; i++) {
		struct counter_prog *c = &out->counters[i];

		c->name = xstrdup(events[a->ev[i].idx].name);
		c->given = xstrdup(r->events[i].text);
		c->plm = a->ev[i].plm;
		fill_attr(&a->ev[i], a->fixed[i], &c->attr);
		if (a->fixed[i] >= 0) {
			c->ctl = (struct reg_value){ REG_MSR, IA_MSR_FIXED_CTR_CTRL, fixed_ctrl };
			c->ctr = (struct reg_value){ REG_MSR, IA_MSR_FIXED_CTR0 + (unsigned)a->fixed[i], 0 };
			global |= 1ull << (IA_GLOBAL_FIXED_SHIFT + (unsigned)a->fixed[i]);
		} else {
			c->ctl = (struct reg_value){ REG_MSR, IA_MSR_PERFEVTSEL0 + (unsigned)a->gp[i], a->ev[i].value };
			c->ctr = (struct reg_value){ REG_MSR, IA_MSR_PMC0 + (unsigned)a->gp[i], 0 };
			global |= 1ull << a->gp[i];
		}
	}
	/* v2: clear stale overflow status first (the seed's rule), then enable; v1 has no global MSRs */
	if (mc->d.version >= 2) {
		out->regs = xcalloc(2, sizeof(*out->regs));
		out->n_regs = 2;
		out->regs[0] = (struct reg_value){ REG_MSR, IA_MSR_PERF_GLOBAL_OVF_CTRL,
						   global | 1ull << IA_GLOBAL_OVF_BUFFER_SHIFT |
							   1ull << IA_GLOBAL_COND_CHGD_SHIFT };
		out->regs[1] = (struct reg_value){ REG_MSR, IA_MSR_PERF_GLOBAL_CTRL, global };
	}
	set_prog_note(out, "machine: %s", mc->source);
	if (mc->why_not_host)
		set_prog_note(out, "host: %s", mc->why_not_host);
	if (mc->d.n_gp > IA_MAX_GP)
		set_prog_note(out, "%s", "CPUID reports more than 8 general-purpose counters: the "
					      "architectural MSR range has 8, modelled here");
}

static int ia_encode_set(const struct pmu_model *m, const struct pmu_set_request *r, struct set_prog *out,
			 struct pf_error *err)
{
	struct ia_machine mc;
	struct ia_assign a;

	memset(out, 0, sizeof(*out));
	if (r->live && check_live_host(r->opts, err))
		return -1;
	machine_of(r->opts, &mc);
	if (check_machine(&mc, err) || encode_events(r, &mc, &a, err) || assign(&mc, r->n_events, &a, err))
		return -1;
	fill_prog(r, &mc, &a, out);
	return 0;
}

/* ---- names, decoding, -l, -i, -I ------------------------------------------ */

static void ia_reg_name(const struct pmu_model *m, const struct reg_value *r, char *buf, size_t len)
{
	unsigned n = r->num;

	if (n >= IA_MSR_PERFEVTSEL0 && n < IA_MSR_PERFEVTSEL0 + IA_MAX_GP)
		snprintf(buf, len, "IA32_PERFEVTSEL%u", n - IA_MSR_PERFEVTSEL0);
	else if (n >= IA_MSR_PMC0 && n < IA_MSR_PMC0 + IA_MAX_GP)
		snprintf(buf, len, "IA32_PMC%u", n - IA_MSR_PMC0);
	else if (n >= IA_MSR_FIXED_CTR0 && n < IA_MSR_FIXED_CTR0 + IA_MAX_FIXED)
		snprintf(buf, len, "IA32_FIXED_CTR%u", n - IA_MSR_FIXED_CTR0);
	else if (n == IA_MSR_FIXED_CTR_CTRL)
		snprintf(buf, len, "IA32_FIXED_CTR_CTRL");
	else if (n == IA_MSR_PERF_GLOBAL_STATUS)
		snprintf(buf, len, "IA32_PERF_GLOBAL_STATUS");
	else if (n == IA_MSR_PERF_GLOBAL_CTRL)
		snprintf(buf, len, "IA32_PERF_GLOBAL_CTRL");
	else if (n == IA_MSR_PERF_GLOBAL_OVF_CTRL)
		snprintf(buf, len, "IA32_PERF_GLOBAL_OVF_CTRL");
	else
		snprintf(buf, len, "MSR_0x%x", n);
}

#define FIELD(nm, v) (struct reg_field){ nm, (v) }

static size_t ia_decode_reg(const struct pmu_model *m, const struct reg_value *r, struct reg_field *f, size_t max)
{
	uint64_t v = r->value;
	size_t n = 0;

	if (max < 12)
		return 0;
	if (r->num >= IA_MSR_PERFEVTSEL0 && r->num < IA_MSR_PERFEVTSEL0 + IA_MAX_GP) {
		f[n++] = FIELD("event", v >> IA_EVTSEL_EVENT_SHIFT & IA_EVTSEL_EVENT_MASK);
		f[n++] = FIELD("umask", v >> IA_EVTSEL_UMASK_SHIFT & IA_EVTSEL_UMASK_MASK);
		f[n++] = FIELD("usr", v >> IA_EVTSEL_USR_SHIFT & 1);
		f[n++] = FIELD("os", v >> IA_EVTSEL_OS_SHIFT & 1);
		f[n++] = FIELD("e", v >> IA_EVTSEL_E_SHIFT & 1);
		f[n++] = FIELD("pc", v >> IA_EVTSEL_PC_SHIFT & 1);
		f[n++] = FIELD("int", v >> IA_EVTSEL_INT_SHIFT & 1);
		f[n++] = FIELD("any", v >> IA_EVTSEL_ANY_SHIFT & 1);
		f[n++] = FIELD("en", v >> IA_EVTSEL_EN_SHIFT & 1);
		f[n++] = FIELD("inv", v >> IA_EVTSEL_INV_SHIFT & 1);
		f[n++] = FIELD("cmask", v >> IA_EVTSEL_CMASK_SHIFT & IA_EVTSEL_CMASK_MASK);
	} else if (r->num == IA_MSR_FIXED_CTR_CTRL) {
		static const char *const names[IA_MAX_FIXED][3] = {
			{ "en0", "any0", "pmi0" }, { "en1", "any1", "pmi1" }, { "en2", "any2", "pmi2" }
		};
		for (unsigned i = 0; i < IA_MAX_FIXED; i++) {
			unsigned fld = (unsigned)(v >> (IA_FIXED_FIELD_BITS * i)) & 0xf;

			f[n++] = FIELD(names[i][0], fld & 3);
			f[n++] = FIELD(names[i][1], !!(fld & IA_FIXED_ANY));
			f[n++] = FIELD(names[i][2], !!(fld & IA_FIXED_PMI));
		}
	} else if (r->num == IA_MSR_PERF_GLOBAL_CTRL || r->num == IA_MSR_PERF_GLOBAL_OVF_CTRL ||
		   r->num == IA_MSR_PERF_GLOBAL_STATUS) {
		f[n++] = FIELD("pmc", v & 0xffffffffull);
		f[n++] = FIELD("fixed", v >> IA_GLOBAL_FIXED_SHIFT & 0x7);
		if (r->num != IA_MSR_PERF_GLOBAL_CTRL) {
			f[n++] = FIELD("ovf_buffer", v >> IA_GLOBAL_OVF_BUFFER_SHIFT & 1);
			f[n++] = FIELD("cond_chgd", v >> IA_GLOBAL_COND_CHGD_SHIFT & 1);
		}
	}
	return n;
}

static int ia_list_events(const struct pmu_model *m, bool long_names, event_name_cb cb, void *arg,
			  struct pf_error *err)
{
	for (unsigned i = 0; i < IA_N_EVENTS; i++)
		if (cb(events[i].name, events[i].desc, arg))
			break;
	return 0;
}

static int ia_event_info(const struct pmu_model *m, const char *name, struct event_info *out,
			 struct pf_error *err)
{
	int idx = ia_find_event(name);
	const struct ia_event *e;

	if (idx < 0)
		return pf_error_set(err, PF_E_UNKNOWN_EVENT, name,
				    " (the intel_arch model has the seven architectural events: see -l)");
	e = &events[idx];
	event_info_add(out, "Name", "%s", e->name);
	event_info_add(out, "Alias", "%s (the seed's and SDM's name)", e->alias);
	event_info_add(out, "Code", "0x%02x", e->code);
	event_info_add(out, "Umask", "0x%02x", e->umask);
	if (e->fixed >= 0)
		event_info_add(out, "Counters", "IA32_PMCx, IA32_FIXED_CTR%d (v2)", e->fixed);
	else
		event_info_add(out, "Counters", "IA32_PMCx");
	event_info_add(out, "CPUID.0AH", "EBX bit %d = 1: unavailable", idx);
	event_info_add(out, "Modifiers", "u, k, e (edge), i (invert), c=N (counter mask 0-255)");
	event_info_add(out, "Desc", "%s", e->desc);
	return 0;
}

static int ia_table_row(const struct pmu_model *m, size_t i, table_row *out)
{
	if (i >= IA_N_EVENTS)
		return 1;
	event_info_add(out, "name", "%s", events[i].name);
	event_info_add(out, "code", "0x%02x", events[i].code);
	event_info_add(out, "umask", "0x%02x", events[i].umask);
	event_info_add(out, "ebx_bit", "%zu", i);
	if (events[i].fixed >= 0)
		event_info_add(out, "fixed", "%d", events[i].fixed);
	else
		event_info_add(out, "fixed", "-");
	return 0;
}

static int ia_validate_table(const struct pmu_model *m, char *msg, size_t len)
{
	for (unsigned i = 0; i < IA_N_EVENTS; i++)
		for (unsigned j = 0; j < i; j++)
			if (events[i].code == events[j].code && events[i].umask == events[j].umask) {
				snprintf(msg, len, "%s and %s have the same code and umask", events[i].name,
					 events[j].name);
				return -1;
			}
	return 0;
}

static int ia_describe(const struct pmu_model *m, const void *opts, struct event_info *out, struct pf_error *err)
{
	struct ia_machine mc;

	machine_of(opts, &mc);
	if (mc.why_not_host)
		event_info_add(out, "host CPUID.0AH", "%s (vendor %s)", mc.why_not_host, mc.vendor);
	event_info_add(out, "modelled machine", "%s", mc.source);
	event_info_add(out, "CPUID.0AH", "EAX=0x%08x EBX=0x%08x ECX=0x%08x EDX=0x%08x", mc.regs.eax, mc.regs.ebx,
		       mc.regs.ecx, mc.regs.edx);
	event_info_add(out, "version", "%u%s", mc.d.version,
		       mc.d.version == 0 ? " (no architectural monitoring)" : mc.d.version > 2 ? " (modelled as v2)" : "");
	event_info_add(out, "general-purpose counters", "%u, %u bits wide", mc.d.n_gp, mc.d.gp_width);
	if (mc.d.version >= 2)
		event_info_add(out, "fixed counters", "%u, %u bits wide", mc.d.n_fixed, mc.d.fixed_width);
	else
		event_info_add(out, "fixed counters", "none before version 2");
	event_info_add(out, "EBX event vector", "%u bits", mc.d.ebx_len);
	for (unsigned i = 0; i < IA_N_EVENTS; i++)
		event_info_add(out, "event", "%-28s %s", events[i].name,
			       mc.d.unavailable & 1u << i ? "unavailable" : "available");
	return 0;
}

static bool ia_wants_describe(const void *opts)
{
	return opts && ((const struct ia_options *)opts)->info;
}

static bool ia_detect(const struct pmu_model *m)
{
	struct ia_cpuid r;
	char vendor[16];
	const char *why;

	return ia_host_cpuid(&r, vendor, sizeof(vendor), &why) && !strcmp(vendor, "GenuineIntel") &&
	       bits(r.eax, 7, 0) > 0;
}

const struct pmu_model pmu_intel_arch = {
	.name = "intel_arch",
	.title = "Intel architectural perfmon",
	.desc = "Intel architectural performance monitoring v1/v2 (CPUID.0AH, PERFEVTSELx, fixed counters; "
		"live as raw events on an Intel CPU that has it)",
	.max_counters = IA_MAX_GP + IA_MAX_FIXED,
	.can_run = true, /* where detect() says: an Intel CPU with CPUID.0AH version > 0 */
	.plm_levels = PF_PLM0 | PF_PLM3,
	.system_wide = true,
	.default_events = "UNHALTED_CORE_CYCLES,INSTRUCTION_RETIRED",
	.options = ia_option_rows,
	.n_options = ARRAY_SIZE(ia_option_rows),
	.options_group = "Intel architectural perfmon options (--pmu=intel_arch)",
	.options_new = ia_options_new,
	.options_free = ia_options_free,
	.detect = ia_detect,
	.validate_table = ia_validate_table,
	.list_events = ia_list_events,
	.event_info = ia_event_info,
	.table_row = ia_table_row,
	.encode_set = ia_encode_set,
	.reg_name = ia_reg_name,
	.decode_reg = ia_decode_reg,
	.describe = ia_describe,
	.wants_describe = ia_wants_describe,
};
