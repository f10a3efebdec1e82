/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Informational commands: -l/-L, -i, -I. */
#include <config.h>

#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "common/util.h"
#include "kernel/perf.h"
#include "report/ia64_report.h"

struct list_state {
	regex_t re;
	bool filter;
	size_t matched;
};

static int print_name(const char *name, const char *desc, void *arg)
{
	struct list_state *ls = arg;

	if (ls->filter && regexec(&ls->re, name, 0, NULL, 0) != 0)
		return 0;
	ls->matched++;
	/* -L: a tracepoint's fields after it, as perf list -v shows its events' details;
	 * a pfmon 3.x (libpfm3) name says which event it names */
	if (desc && (!strncmp(desc, "Tracepoint event: ", 18) || !strncmp(desc, "libpfm3 ", 8)))
		printf("%s  [%s]\n", name, desc);
	else
		puts(name);
	return 0;
}

int cmd_list_events(const struct pf_config *cfg, const struct pmu_model *m, struct pf_error *err)
{
	struct list_state ls = { .filter = cfg->list_regex && *cfg->list_regex };
	int rc;

	if (ls.filter) {
		int e = regcomp(&ls.re, cfg->list_regex, REG_EXTENDED | REG_ICASE | REG_NOSUB);

		if (e) {
			char why[128];

			regerror(e, &ls.re, why, sizeof(why));
			return pf_error_set(err, PF_E_BAD_REGEX, cfg->list_regex, why);
		}
	}
	rc = m->list_events(m, cfg->long_list, print_name, &ls, err);
	if (ls.filter)
		regfree(&ls.re);
	if (rc)
		return -1;
	if (!ls.matched)
		return pf_error_set(err, PF_E_NO_MATCH, cfg->list_regex ? cfg->list_regex : "");
	return 0;
}

static int print_event_info(const struct pmu_model *m, const char *name, struct pf_error *err)
{
	struct event_info info = { 0 };
	size_t width = 0;

	if (m->event_info(m, name, &info, err))
		return -1;
	for (size_t i = 0; i < info.n_lines; i++)
		if (strlen(info.lines[i].key) > width)
			width = strlen(info.lines[i].key);
	for (size_t i = 0; i < info.n_lines; i++)
		printf("%-*s : %s\n", (int)width, info.lines[i].key, info.lines[i].value);
	event_info_release(&info);
	return 0;
}

/* -i REGEX: every event whose whole name matches, a blank line between */
struct info_state {
	const struct pmu_model *m;
	regex_t re;
	size_t matched;
	struct pf_error *err;
	int rc;
};

static int info_of_match(const char *name, const char *desc, void *arg)
{
	struct info_state *is = arg;

	(void)desc;
	if (regexec(&is->re, name, 0, NULL, 0) != 0)
		return 0;
	if (is->matched++)
		putchar('\n');
	is->rc = print_event_info(is->m, name, is->err);
	return is->rc;
}

/* pfmon 3.x's -i took a regular expression ('CPU_CYC.*'), matched against
 * whole names case-insensitively, as -l's; 1 when it is not one (the
 * exact lookup's error stands) or matches nothing */
static int event_info_regex(const struct pf_config *cfg, const struct pmu_model *m, struct pf_error *err)
{
	struct info_state is = { .m = m, .err = err };
	char *anchored;
	int rc;

	if (!strpbrk(cfg->event_info, ".*+?[]()|^$\\{}"))
		return 1;
	anchored = xasprintf("^(%s)$", cfg->event_info);
	rc = regcomp(&is.re, anchored, REG_EXTENDED | REG_ICASE | REG_NOSUB);
	free(anchored);
	if (rc)
		return 1;
	rc = m->list_events(m, false, info_of_match, &is, err);
	regfree(&is.re);
	if (rc || is.rc)
		return -1;
	return is.matched ? 0 : 1;
}

int cmd_event_info(const struct pf_config *cfg, const struct pmu_model *m, struct pf_error *err)
{
	struct pf_error exact = { .code = PF_E_OK };
	int rc;

	if (print_event_info(m, cfg->event_info, &exact) == 0)
		return 0;
	if (exact.code != PF_E_UNKNOWN_EVENT && exact.code != PF_E_EVENT_SYNTAX)
		return *err = exact, -1;
	rc = event_info_regex(cfg, m, err);
	if (rc > 0)
		*err = exact;
	return rc ? -1 : 0;
}

static void print_lines(const struct event_info *info, const char *indent)
{
	for (size_t i = 0; i < info->n_lines; i++)
		printf("%s%s: %s\n", indent, info->lines[i].key, info->lines[i].value);
}

static int describe(const struct pmu_model *m, const struct pf_config *cfg, const char *indent,
		    struct pf_error *err)
{
	struct event_info info = { 0 };

	if (!m->describe)
		return 0;
	if (m->describe(m, config_model_opts(cfg, m), &info, err)) {
		event_info_release(&info);
		return -1;
	}
	print_lines(&info, indent);
	event_info_release(&info);
	return 0;
}

/* "2-way Intel(R) Xeon(R) Processor", from /proc/cpuinfo */
static void print_host_cpus(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256], model[200] = "unknown CPU";
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (colon && !strncmp(line, "model name", 10)) {
			colon[strcspn(colon, "\n")] = '\0';
			snprintf(model, sizeof(model), "%s", colon + 2);
			break;
		}
	}
	if (f)
		fclose(f);
	printf("detected host CPUs: %ld-way %s\n", n, model);
}

/* the models other than host that say this machine is theirs: "intel_arch" or "none" */
static void print_detected_models(void)
{
	const struct pmu_model *m;
	bool any = false;

	printf("detected pfmon PMU model: %s (runs live)\n", pmu_model_at(0)->name);
	printf("detected modelled PMUs:");
	for (size_t i = 1; (m = pmu_model_at(i)); i++)
		if (m->detect && m->detect(m)) {
			printf(" [%s]%s", m->name, m->can_run ? "" : " (dry run)");
			any = true;
		}
	printf("%s\n", any ? "" : " none");
}

static const char *run_mode(const struct pmu_model *m, bool hw)
{
	if (!pmu_model_live_here(m))
		return "dry run (--check)";
	return hw ? "live" : "live (software only)";
}

int cmd_list_pmus(const struct pf_config *cfg, const struct pmu_model *chosen, struct pf_error *err)
{
	const struct pmu_model *m, *host = pmu_model_at(0);
	bool hw = kperf_hw_counting_works();
	struct utsname u;
	struct timespec res;

	print_host_cpus();
	print_detected_models();
	if (describe(host, cfg, "", err))
		return -1;
	printf("supported pfmon PMU models:");
	for (size_t i = 0; (m = pmu_model_at(i)); i++)
		printf(" [%s]", m->name);
	printf("\n");
	for (size_t i = 0; (m = pmu_model_at(i)); i++)
		printf("  %-12s %-20s %s\n", m->name, run_mode(m, hw), m->desc);
	printf("supported sampling modules:");
	for (int i = 0; i < IA64_MOD_COUNT_; i++)
		printf(" [%s]", ia64_smpl_module_name((enum ia64_smpl_module)i));
	printf(" (reports of --report=FILE)\n");
	printf("kernel perf_event: hardware PMU %s, perf_event_paranoid=%d\n",
	       hw ? "exposed" : "not exposed (as in most VMs)", kperf_paranoid());
	if (clock_getres(CLOCK_MONOTONIC, &res) == 0)
		printf("kernel clock resolution: %ldns\n", res.tv_sec * 1000000000L + res.tv_nsec);
	if (uname(&u) == 0)
		printf("host kernel architecture: %s (%s %s)\n", u.machine, u.sysname, u.release);
	if (chosen && chosen != host && chosen->describe) {
		printf("%s model (--pmu=%s):\n", chosen->title, chosen->name);
		return describe(chosen, cfg, "  ", err);
	}
	return 0;
}

int cmd_describe_pmu(const struct pf_config *cfg, const struct pmu_model *m, struct pf_error *err)
{
	return describe(m, cfg, "", err);
}
