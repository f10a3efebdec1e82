/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Intel architectural perfmon model: CPUID.0AH decoding from raw
 * values, counter assignment over fixed and general-purpose counters,
 * and the golden test: for every architectural event and modifier
 * combination, the IA32_PERFEVTSELx value the model programs equals what
 * libpfm4 encodes with LIBPFM_FORCE_PMU=ix86arch and the same privilege
 * levels (libpfm4's API, PFM_OS_NONE: the raw register value).
 */
#include <config.h>

#include <inttypes.h>
#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "event/pmu_model.h"
#include "pmu/intel_arch.h"
#include "tap.h"

static void test_decode(void)
{
	struct ia_pmu_desc d;

	/* Core 2 Duo: v2, 2 x 40-bit counters, 7 events, 3 x 40-bit fixed */
	ia_decode_cpuid(&(struct ia_cpuid){ 0x07280202, 0, 0, 0x503 }, &d);
	ok(d.version == 2 && d.n_gp == 2 && d.gp_width == 40 && d.ebx_len == 7, "Core 2: version, counters, width");
	ok(d.n_fixed == 3 && d.fixed_width == 40 && d.unavailable == 0, "Core 2: fixed counters, all events");
	/* version 1: EDX means nothing */
	ia_decode_cpuid(&(struct ia_cpuid){ 0x07280201, 0, 0, 0x503 }, &d);
	ok(d.version == 1 && d.n_fixed == 0 && d.fixed_width == 0, "v1: no fixed counters whatever EDX says");
	/* EBX bit 3 set: LLC_REFERENCES unavailable; EAX[31:24] = 5: events 5, 6 not enumerated */
	ia_decode_cpuid(&(struct ia_cpuid){ 0x05300402, 0x8, 0, 0x603 }, &d);
	ok(d.unavailable == (1u << 3 | 1u << 5 | 1u << 6), "EBX bit and vector length mark events unavailable");
	ok(d.n_gp == 4 && d.gp_width == 48 && d.n_fixed == 3 && d.fixed_width == 48, "4 x 48, 3 x 48");
	/* the seed's "EDX bits 0 to 5": bit 5 belongs to the width (SDM: 4:0) */
	ia_decode_cpuid(&(struct ia_cpuid){ 0x07300402, 0, 0, 0x3f }, &d);
	ok(d.n_fixed == 31 && d.fixed_width == 1, "EDX[4:0] counters, EDX[12:5] width");
	ia_decode_cpuid(&(struct ia_cpuid){ 0, 0, 0, 0 }, &d);
	ok(d.version == 0 && d.unavailable == 0x7f, "version 0: nothing");
}

static void test_host(void)
{
	struct ia_cpuid r;
	char vendor[16];
	const char *why = NULL;
	bool have = ia_host_cpuid(&r, vendor, sizeof(vendor), &why);

	ok(have || why, "host CPUID: a leaf, or why not");
	printf("# host: vendor %s, leaf 0AH %s: EAX=0x%08x EBX=0x%08x EDX=0x%08x\n", vendor,
	       have ? "read" : why, r.eax, r.ebx, r.edx);
}

/* encode one set through the model with the given CPUID leaf */
static int encode(const char *events, const char *cpuid, struct set_prog *prog, struct pf_error *err)
{
	const struct pmu_model *m = &pmu_intel_arch;
	void *opts = m->options_new(1);
	struct encode_opts o = { .live = false, .model_opts = opts }; /* --check: the dry run's encoding */
	size_t n;
	char **ev = str_split(events, ',', &n);
	int rc;

	rc = m->options[0].apply(opts, 0, cpuid, err);
	if (!rc)
		rc = pmu_encode_events(m, &o, ev, n, prog, err);
	str_vec_free(ev);
	m->options_free(opts);
	return rc;
}

static void test_assign(void)
{
	struct set_prog p;
	struct pf_error err = { 0 };

	/* v2 with 2 counters: the cycles and instructions go to fixed counters */
	ok(encode("UNHALTED_CORE_CYCLES,INSTRUCTION_RETIRED,LLC_MISSES,LLC_REFERENCES,UNHALTED_REFERENCE_CYCLES",
		  "0x07280202:0:0:0x503", &p, &err) == 0, "5 events on 2 + 3 counters");
	ok(p.counters[0].ctr.num == IA_MSR_FIXED_CTR0 + 1 && p.counters[1].ctr.num == IA_MSR_FIXED_CTR0 &&
		   p.counters[4].ctr.num == IA_MSR_FIXED_CTR0 + 2,
	   "fixed events on their fixed counters");
	ok(p.counters[2].ctl.num == IA_MSR_PERFEVTSEL0 && p.counters[3].ctl.num == IA_MSR_PERFEVTSEL0 + 1,
	   "the others on PERFEVTSEL0, 1");
	is_u64(p.counters[0].ctl.value, 0xaaa, "FIXED_CTR_CTRL: USR (2) | PMI (8) on counters 0, 1, 2");
	ok(p.n_regs == 2 && p.regs[1].num == IA_MSR_PERF_GLOBAL_CTRL, "v2: global control written");
	is_u64(p.regs[1].value, 0x700000003ull, "GLOBAL_CTRL enables PMC0-1 and the 3 fixed");
	is_u64(p.regs[0].value, 0xc000000700000003ull, "OVF_CTRL clears them, OvfBuffer and CondChgd");
	set_prog_release(&p);

	/* a counter mask keeps an event off its fixed counter */
	ok(encode("INSTRUCTION_RETIRED:c=1,INSTRUCTION_RETIRED", "0x07280202:0:0:0x503", &p, &err) == 0 &&
		   p.counters[0].ctl.num == IA_MSR_PERFEVTSEL0 && p.counters[1].ctr.num == IA_MSR_FIXED_CTR0,
	   "c=1 needs a general-purpose counter");
	set_prog_release(&p);

	ok(encode("LLC_MISSES,LLC_REFERENCES,BRANCH_INSTRUCTIONS_RETIRED", "0x07280202:0:0:0x503", &p, &err) != 0 &&
		   !strcmp(err.rule, "C-IA-CTR"),
	   "3 events for 2 general-purpose counters: C-IA-CTR (%s)", err.msg);
	ok(encode("UNHALTED_CORE_CYCLES,INSTRUCTION_RETIRED", "0x07280201:0:0:0", &p, &err) == 0 &&
		   p.n_regs == 0 && p.counters[0].ctl.num == IA_MSR_PERFEVTSEL0,
	   "v1: no fixed counters, no global MSRs");
	set_prog_release(&p);
	ok(encode("LLC_REFERENCES", "0x07280202:0x8:0:0x503", &p, &err) != 0 && !strcmp(err.rule, "C-IA-AVAIL"),
	   "EBX bit 3: LLC_REFERENCES unavailable (%s)", err.msg);
	ok(encode("LLC_MISSES", "0:0:0:0", &p, &err) != 0 && !strcmp(err.rule, "C-IA-VER"), "version 0 refused");
	ok(encode("LLC_MISSES:c=256", "0x07280202:0:0:0x503", &p, &err) != 0 && err.code == PF_E_BAD_MODIFIER,
	   "c=256 refused (%s)", err.msg);
	ok(encode("LLC_MISSES:t", "0x07280202:0:0:0x503", &p, &err) != 0 && err.code == PF_E_BAD_MODIFIER,
	   "t (AnyThread, v3) refused");
	ok(encode("Branch_Misses_Retired:u=0:k", "0x07280202:0:0:0x503", &p, &err) == 0 &&
		   p.counters[0].ctl.value == 0x5200c5,
	   "the seed's name, u=0:k");
	set_prog_release(&p);
	ok(encode("LLC_MISSES", "1:2:3", &p, &err) != 0 && err.code == PF_E_BAD_OPTION_VALUE, "--cpuid needs 4");
	ok(encode("LLC_MISSES", "0x100000000:0:0:0", &p, &err) != 0 && err.code == PF_E_BAD_OPTION_VALUE,
	   "--cpuid registers have 32 bits");
}

/* libpfm4's PERFEVTSEL for ix86arch::name+mods with default levels plm */
static int libpfm_evtsel(const char *name, const char *mods, unsigned plm, uint64_t *out)
{
	char text[160];
	uint64_t *codes = NULL;
	int count = 0, rc;

	snprintf(text, sizeof(text), "ix86arch::%s%s", name, mods);
	rc = pfm_get_event_encoding(text, (int)plm, NULL, NULL, &codes, &count);
	if (rc == PFM_SUCCESS && count >= 1)
		*out = codes[0];
	free(codes);
	return rc == PFM_SUCCESS && count >= 1 ? 0 : -1;
}

static void test_golden(void)
{
	static const char *const plms[] = { "", ":u", ":k", ":u:k" };
	static const char *const edges[] = { "", ":e" };
	static const char *const invs[] = { "", ":i" };
	static const char *const cmasks[] = { "", ":c=1", ":c=2", ":c=255" };
	int rc;

	setenv("LIBPFM_FORCE_PMU", "ix86arch", 1);
	rc = pfm_initialize();
	if (!ok(rc == PFM_SUCCESS, "libpfm4 with LIBPFM_FORCE_PMU=ix86arch: %s", pfm_strerror(rc)))
		return;
	for (unsigned ev = 0; ia_event_at(ev); ev++) {
		const char *name = ia_event_at(ev)->name;
		size_t n = 0, bad = 0;
		char first[512] = "";

		for (size_t a = 0; a < ARRAY_SIZE(plms); a++)
			for (size_t b = 0; b < ARRAY_SIZE(edges); b++)
				for (size_t c = 0; c < ARRAY_SIZE(invs); c++)
					for (size_t d = 0; d < ARRAY_SIZE(cmasks); d++)
						for (unsigned dfl = 1; dfl <= 3; dfl++) {
							char mods[64], events[128], cpuid[32];
							unsigned plm = (dfl & 1 ? PF_PLM3 : 0) | (dfl & 2 ? PF_PLM0 : 0);
							uint64_t want = 0, got = 0;
							struct set_prog p;
							struct pf_error err = { 0 };
							bool fail;

							snprintf(mods, sizeof(mods), "%s%s%s%s", plms[a], edges[b], invs[c],
								 cmasks[d]);
							snprintf(events, sizeof(events), "%s%s", name, mods);
							/* v1: every event on IA32_PERFEVTSEL0 */
							snprintf(cpuid, sizeof(cpuid), "0x07280201:0:0:0");
							n++;
							fail = libpfm_evtsel(name, mods, plm, &want) != 0;
							if (!fail) {
								const char *cm[] = { "", ":u", ":k", ":u:k" };
								char with_plm[160];

								/* the default levels as a -u/-k would give them:
								 * the model sees them as the event's own */
								snprintf(with_plm, sizeof(with_plm), "%s%s", events,
									 *plms[a] ? "" : cm[dfl]);
								fail = encode(with_plm, cpuid, &p, &err) != 0;
								if (!fail) {
									got = p.counters[0].ctl.value;
									fail = got != want ||
									       p.counters[0].ctl.num != IA_MSR_PERFEVTSEL0;
									set_prog_release(&p);
								}
							}
							if (fail && !bad++)
								snprintf(first, sizeof(first),
									 "%s (levels %u): libpfm4 0x%" PRIx64
									 ", pfmon 0x%" PRIx64 " %.100s",
									 events, plm, want, got, err.msg);
						}
		if (!ok(!bad, "%s: %zu encodings equal libpfm4's", name, n))
			printf("#   %zu differ, first: %s\n", bad, first);
	}
}

/* every register of p by name: the counters' control registers and the others */
static bool reg_is(const struct set_prog *p, const char *name, uint64_t value)
{
	char buf[64];

	for (size_t i = 0; i < p->n_counters; i++) {
		pmu_reg_name(&pmu_intel_arch, &p->counters[i].ctl, buf, sizeof(buf));
		if (!strcmp(buf, name))
			return p->counters[i].ctl.value == value;
	}
	for (size_t i = 0; i < p->n_regs; i++) {
		pmu_reg_name(&pmu_intel_arch, &p->regs[i], buf, sizeof(buf));
		if (!strcmp(buf, name))
			return p->regs[i].value == value;
	}
	return false;
}

static bool counters_are(const struct set_prog *p, const char *list)
{
	size_t n;
	char **v = str_split(list, ',', &n);
	bool same = n == p->n_counters;
	char buf[64];

	for (size_t i = 0; same && i < n; i++) {
		pmu_reg_name(&pmu_intel_arch, &p->counters[i].ctr, buf, sizeof(buf));
		same = !strcmp(buf, v[i]);
	}
	str_vec_free(v);
	return same;
}

/* "ok at=... REG=VAL ...": the first token that does not hold, or NULL */
static const char *check_ok(const struct set_prog *p, char **tok, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		char *eq = strchr(tok[i], '=');
		uint64_t v;

		if (!eq)
			return tok[i];
		*eq = '\0';
		if (!strcmp(tok[i], "at") ? !counters_are(p, eq + 1) : !parse_u64(eq + 1, &v) || !reg_is(p, tok[i], v)) {
			*eq = '=';
			return tok[i];
		}
		*eq = '=';
	}
	return NULL;
}

static const char *const code_names[] = {
#define PF_ERR_NAME(code, status, fmt) #code,
	PF_ERRORS(PF_ERR_NAME)
#undef PF_ERR_NAME
};

static void golden_row(char **col, int line)
{
	struct set_prog p;
	struct pf_error err = { 0 };
	size_t n;
	char **tok = str_split(col[2], ' ', &n);
	int rc = encode(col[1], col[0], &p, &err);

	if (!strcmp(tok[0], "ok")) {
		const char *bad = rc ? "the encoding failed" : check_ok(&p, tok, n);

		if (!ok(!bad, "line %d: %s ok", line, col[1]))
			printf("#   %s: %s\n", bad, rc ? err.msg : "");
		if (!rc)
			set_prog_release(&p);
	} else {
		const char *want = tok[0] + strlen("error:");
		bool same = rc && (!strcmp(err.rule, want) || !strcmp(code_names[err.code], want));

		if (!rc)
			set_prog_release(&p);
		if (!ok(same, "line %d: %s refused: %s", line, col[1], want))
			printf("#   got: %s\n", rc ? err.msg : "accepted");
	}
	str_vec_free(tok);
}

static void test_golden_table(const char *dir)
{
	char path[512], line[1024];
	FILE *f;
	int no = 0;

	snprintf(path, sizeof(path), "%s/golden/intel_arch.tsv", dir);
	f = fopen(path, "r");
	if (!ok(f != NULL, "open %s", path))
		return;
	while (fgets(line, sizeof(line), f)) {
		size_t n;
		char **col;

		no++;
		line[strcspn(line, "\n")] = '\0';
		if (!*line || *line == '#')
			continue;
		col = str_split(line, '\t', &n);
		if (ok(n == 3, "line %d has 3 columns", no))
			golden_row(col, no);
		str_vec_free(col);
	}
	fclose(f);
}

int main(int argc, char **argv)
{
	const char *srcdir = getenv("TESTS_SRCDIR");

	test_decode();
	test_host();
	test_assign();
	test_golden_table(argc > 1 ? argv[1] : srcdir ? srcdir : "tests");
	test_golden();
	return tap_done();
}
