/*
 * --check output.  A modelled PMU lists, per event in command-line order,
 *
 *     EVENT                              PMC4/PMD4  0x001228
 *
 * then every other register it writes (PMC8-15, IBRs, DBRs) with its value,
 * then the model's notes (range over-coverage, warnings).  A live PMU lists
 * the perf_event_attr type, config and privilege levels instead.  -v adds one
 * line of decoded fields under each register (for a live PMU: the rest of
 * the attr that the event string decides, and libpfm4's canonical string).
 */
#include <config.h>

#include <inttypes.h>
#include <string.h>

#include "report/check.h"

#define NAME_WIDTH 40
#define MAX_FIELDS 16

static void print_fields(FILE *out, const struct pmu_model *m, const char *reg, uint64_t value)
{
	struct reg_field f[MAX_FIELDS];
	size_t n;

	if (!m->decode_reg)
		return;
	n = m->decode_reg(m, reg, value, f, MAX_FIELDS);
	if (!n)
		return;
	fprintf(out, "    ");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%s=0x%" PRIx64, i ? " " : "", f[i].name, f[i].value);
	fprintf(out, "\n");
}

static void print_counter(FILE *out, const struct pmu_model *m, const struct counter_prog *c, bool verbose)
{
	char reg[16];

	if (c->is_live) {
		fprintf(out, "%-*s type=0x%x config=0x%llx levels=%s%s\n", NAME_WIDTH, c->name, (unsigned)c->attr.type,
			(unsigned long long)c->attr.config, c->attr.exclude_user ? "" : "u",
			c->attr.exclude_kernel ? "" : "k");
		if (verbose)
			fprintf(out, "    config1=0x%llx config2=0x%llx exclude_hv=%u precise_ip=%u%s%s\n",
				(unsigned long long)c->attr.config1, (unsigned long long)c->attr.config2,
				c->attr.exclude_hv, c->attr.precise_ip, c->fstr ? " canonical=" : "",
				c->fstr ? c->fstr : "");
		return;
	}
	snprintf(reg, sizeof(reg), "PMC%d", c->pmc);
	fprintf(out, "%-*s PMC%d/PMD%d  0x%06" PRIx64 "\n", NAME_WIDTH, c->name, c->pmc, c->pmd, c->pmc_value);
	if (verbose)
		print_fields(out, m, reg, c->pmc_value);
}

void check_print_set(FILE *out, const struct pmu_model *m, size_t set, size_t n_sets,
		     const struct set_prog *prog, bool verbose)
{
	if (n_sets > 1)
		fprintf(out, "set %zu:\n", set);
	for (size_t i = 0; i < prog->n_counters; i++)
		print_counter(out, m, &prog->counters[i], verbose);
	for (size_t i = 0; i < prog->n_regs; i++) {
		fprintf(out, "%-*s 0x%016" PRIx64 "\n", NAME_WIDTH, prog->regs[i].name, prog->regs[i].value);
		if (verbose)
			print_fields(out, m, prog->regs[i].name, prog->regs[i].value);
	}
	for (size_t i = 0; prog->notes && prog->notes[i]; i++)
		fprintf(out, "note: %s\n", prog->notes[i]);
}

void check_print_table_header(FILE *out)
{
	fprintf(out, "name\tcode\tumask\tgroup\tset\tear\tbtb\tiar\tdar\topc\tmaxincr\tcounters\n");
}

static const char *ear_name(unsigned ear)
{
	static const char *const names[] = { "none", "icache", "itlb", "dcache", "dtlb", "dalat" };

	return ear < sizeof(names) / sizeof(names[0]) ? names[ear] : "?";
}

void check_print_table_row(FILE *out, const struct ita2_event *e)
{
	static const char *const groups[] = { "none", "L1D", "L2" };
	char ctrs[16] = "";

	for (int c = 4; c <= 7; c++)
		if (e->counters & (1u << c))
			snprintf(ctrs + strlen(ctrs), sizeof(ctrs) - strlen(ctrs), "%s%d", *ctrs ? "," : "", c);
	fprintf(out, "%s\t0x%02x\t0x%x\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%u\t%s\n", e->name, e->code,
		e->ear ? (unsigned)e->ear_umask : (unsigned)e->umask, groups[e->group], e->set,
		ear_name(e->ear), e->btb ? "Y" : "N", e->qual & ITA2_Q_IAR ? "Y" : "N",
		e->qual & ITA2_Q_DAR ? "Y" : "N", e->qual & ITA2_Q_OPC ? "Y" : "N", e->maxincr, ctrs);
}
