/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The host metrics of the PMU families (src/pmu/metrics_host_family.c):
 * for every libpfm4 PMU a list names, in a child process with
 * LIBPFM_FORCE_PMU set to it (libpfm4 initialises once per process), the
 * list applies, parses and resolves, every event of every metric encodes
 * with libpfm4, and all the metrics are planned into sets by counter
 * capacity.  Then the formulas on known counts, and the answer on this
 * host's real PMU: no hardware counting here, so not available.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "event/pmu_model.h"
#include "pmu/host.h"
#include "pmu/metrics.h"
#include "pmu/planner.h"
#include "results/metric.h"
#include "tap.h"

/* in the child: what went wrong, or "" */
static void check_pmu(const char *pmu, const char *text, char *why, size_t size)
{
	char name[64];
	char *all = pmu_host_family_metrics(name, sizeof(name));
	struct metric_list l = { 0 };
	struct pf_error err;
	struct encode_opts o = { .live = true };
	struct plan_group *g;
	struct plan p;

	*why = '\0';
	if (!all || !strstr(all, text) || strcmp(name, pmu) != 0) {
		snprintf(why, size, "the list does not apply (detected '%s')", name);
		free(all);
		return;
	}
	/* exactly the lists that name this PMU */
	for (const struct pmu_family_metrics *f = pmu_family_metrics; f->pmus && !*why; f++) {
		bool names = false;

		for (const char *const *q = f->pmus; *q; q++)
			names |= strcmp(*q, pmu) == 0;
		if (names != (strstr(all, f->text) != NULL))
			snprintf(why, size, "list %zu %s", (size_t)(f - pmu_family_metrics),
				 names ? "is missing" : "applies but does not name this PMU");
	}
	if (*why) {
		free(all);
		return;
	}
	if (metric_list_add_text(&l, all, pmu, &err) || metric_list_resolve(&l, &err)) {
		snprintf(why, size, "%.400s", err.msg);
		free(all);
		return;
	}
	free(all);
	g = calloc(l.n + 1, sizeof(*g));
	for (size_t i = 0; i < l.n && !*why; i++) {
		metric_events(&l, i, &g[i].events, &g[i].n);
		for (size_t k = 0; k < g[i].n && !*why; k++) {
			struct counter_prog c = { 0 };

			if (host_encode_event(g[i].events[k], 0, &c, &err))
				snprintf(why, size, "%.64s: %.400s", l.defs[i].name, err.msg);
			counter_prog_release(&c);
		}
	}
	if (!*why && plan_sets(&pmu_host, &o, g, l.n, &p, &err))
		snprintf(why, size, "plan: %.400s", err.msg);
	else if (!*why)
		plan_release(&p);
	plan_groups_free(g, l.n);
	metric_list_release(&l);
}

static void forced(const char *pmu, const char *text)
{
	int fd[2];
	pid_t pid;
	char why[512] = "";
	ssize_t n;
	int status = 0;

	if (pipe(fd)) {
		ok(0, "pipe");
		return;
	}
	pid = fork();
	if (pid == 0) {
		close(fd[0]);
		setenv("LIBPFM_FORCE_PMU", pmu, 1);
		check_pmu(pmu, text, why, sizeof(why));
		if (write(fd[1], why, strlen(why)) < 0)
			_exit(2);
		_exit(*why ? 1 : 0);
	}
	close(fd[1]);
	n = read(fd[0], why, sizeof(why) - 1);
	why[n > 0 ? n : 0] = '\0';
	close(fd[0]);
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: the family list applies, its events encode, "
	   "its metrics are planned%s%s", pmu, *why ? ": " : "", why);
}

static double value_of(const struct metric_list *l, const char *name, const struct count_row *rows, size_t n,
		       bool *okp)
{
	size_t want = (size_t)metric_list_find(l, name);
	struct metric_value v[16];
	size_t got = metric_evaluate(l, &want, 1, false, rows, n, 0, v);

	*okp = got == 1 && v[0].ok;
	return v[0].value;
}

int main(void)
{
	struct metric_list l = { 0 };
	struct pf_error err;
	bool avail;
	size_t rows_n;

	for (const struct pmu_family_metrics *f = pmu_family_metrics; f->pmus; f++)
		for (const char *const *p = f->pmus; *p; p++)
			forced(*p, f->text);

	/* the formulas on known counts: Zen, its op cache, Intel Core with the
	 * LLC's REFERENCE unit mask (REFERENCES would define the metric twice) */
	for (size_t i = 0; i < 4 && pmu_family_metrics[i].pmus; i++)
		ok(metric_list_add_text(&l, pmu_family_metrics[i].text, "test", &err) == 0, "list %zu parses", i);
	ok(metric_list_resolve(&l, &err) == 0, "the lists resolve");
	{
		struct count_row rows[] = {
			{ .name = "RETIRED_INSTRUCTIONS", .raw = 3000, .enabled = 10, .running = 10 },
			{ .name = "CYCLES_NOT_IN_HALT", .raw = 2000, .enabled = 10, .running = 10 },
			{ .name = "task-clock", .raw = 1000, .enabled = 10, .running = 10, .is_clock = true },
			{ .name = "CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:LS_RD_BLK_C", .raw = 25, .enabled = 10,
			  .running = 10 },
			{ .name = "CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:LS_RD_BLK_C:LS_RD_BLK_X:LS_RD_BLK_L_HIT_S:"
				  "LS_RD_BLK_L_HIT_X:LS_RD_BLK_C_S",
			  .raw = 200, .enabled = 10, .running = 10 },
			{ .name = "INST_RETIRED:ANY_P", .raw = 500, .enabled = 10, .running = 10 },
			{ .name = "CPU_CLK_UNHALTED:THREAD_P", .raw = 1000, .enabled = 10, .running = 10 },
			{ .name = "LONGEST_LAT_CACHE:MISS", .raw = 0, .enabled = 10, .running = 10 },
			{ .name = "LONGEST_LAT_CACHE:REFERENCE", .raw = 0, .enabled = 10, .running = 10 },
			{ .name = "BR_MISP_RETIRED:ALL_BRANCHES", .state = COUNT_NOT_SUPPORTED },
			{ .name = "BR_INST_RETIRED:ALL_BRANCHES", .raw = 100, .enabled = 10, .running = 10 },
		};
		rows_n = sizeof(rows) / sizeof(rows[0]);
		ok(value_of(&l, "zen.ipc", rows, rows_n, &avail) == 1.5 && avail, "zen.ipc = 3000 / 2000");
		ok(value_of(&l, "zen.frequency", rows, rows_n, &avail) == 2.0 && avail, "zen.frequency = 2 GHz");
		ok(value_of(&l, "zen.l2_dc_miss_rate", rows, rows_n, &avail) == 12.5 && avail,
		   "zen.l2_dc_miss_rate = 100 * 25 / 200");
		ok(value_of(&l, "core.ipc", rows, rows_n, &avail) == 0.5 && avail, "core.ipc = 500 / 1000");
		value_of(&l, "core.llc_miss_rate", rows, rows_n, &avail);
		ok(!avail, "core.llc_miss_rate of 0 / 0 is not available, not 0");
		value_of(&l, "core.branch_miss_rate", rows, rows_n, &avail);
		ok(!avail, "core.branch_miss_rate of an event not supported is not available");
		value_of(&l, "zen.branch_miss_rate", rows, rows_n, &avail);
		ok(!avail, "zen.branch_miss_rate of events not counted is not available");
	}
	metric_list_release(&l);
	return tap_done();
}
