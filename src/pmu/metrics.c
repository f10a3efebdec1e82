/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which built-in metric list belongs to which PMU model. */
#include <config.h>

#include <string.h>

#include "metrics.h"

static const struct {
	const char *model;
	const char *text;
} lists[] = {
	{ "host", pmu_host_metrics },
	{ "itanium2", pmu_itanium2_metrics },
};

const char *pmu_metric_definitions(const char *model)
{
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		if (strcmp(lists[i].model, model) == 0)
			return lists[i].text;
	return NULL;
}
