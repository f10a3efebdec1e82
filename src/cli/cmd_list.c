/* Informational commands: -l/-L, -i, -I. */
#include <config.h>

#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "commands.h"
#include "common/util.h"

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

int cmd_event_info(const struct pf_config *cfg, const struct pmu_model *m, struct pf_error *err)
{
	struct event_info info = { 0 };
	size_t width = 0;

	if (m->event_info(m, cfg->event_info, &info, err))
		return -1;
	for (size_t i = 0; i < info.n_lines; i++)
		if (strlen(info.lines[i].key) > width)
			width = strlen(info.lines[i].key);
	for (size_t i = 0; i < info.n_lines; i++)
		printf("%-*s : %s\n", (int)width, info.lines[i].key, info.lines[i].value);
	event_info_release(&info);
	return 0;
}

int cmd_list_pmus(const struct pf_config *cfg, struct pf_error *err)
{
	const struct pmu_model *m;
	struct utsname u;

	if (uname(&u) == 0)
		printf("host kernel architecture: %s (%s %s)\n", u.machine, u.sysname, u.release);
	printf("supported pfmon PMU models:");
	for (size_t i = 0; (m = pmu_model_at(i)); i++)
		printf(" [%s]", m->name);
	printf("\n");
	for (size_t i = 0; (m = pmu_model_at(i)); i++)
		printf("  %-10s %s%s\n", m->name, m->desc,
		       m->can_run ? "" : " (dry run on this host: --check)");
	return 0;
}
