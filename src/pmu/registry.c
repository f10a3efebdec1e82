/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <stdlib.h>
#include <strings.h>

#include "common/util.h"
#include "pmu/ev67.h"
#include "pmu/host.h"
#include "pmu/intel_arch.h"
#include "pmu/itanium.h"
#include "pmu/itanium2.h"
#include "event/pmu_model.h"

/* The models pfmon knows, host first.  Adding a PMU = one row here. */
static const struct pmu_model *const models[] = {
	&pmu_host,
	&pmu_itanium2,
	&pmu_intel_arch,
	&pmu_itanium,
	&pmu_ev67,
};

const struct pmu_model *pmu_model_at(size_t i)
{
	return i < ARRAY_SIZE(models) ? models[i] : NULL;
}

const struct pmu_model *pmu_model_dump_reader(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(models); i++)
		if (models[i]->register_dumps)
			return models[i];
	return NULL;
}

bool pmu_model_reads_dumps(const char *name)
{
	const struct pmu_model *m = name ? pmu_model_find(name) : NULL;

	return m && m->register_dumps;
}

const struct pmu_model *pmu_model_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(models); i++)
		if (strcasecmp(models[i]->name, name) == 0)
			return models[i];
	return NULL;
}

const struct pmu_model *pmu_model_select(const char *name, struct pf_error *err)
{
	const struct pmu_model *m;

	if (!name || !*name)
		name = getenv("PFMON_PMU");
	if (!name || !*name)
		return &pmu_host;
	m = pmu_model_find(name);
	if (!m)
		pf_error_set(err, PF_E_UNKNOWN_PMU, name);
	return m;
}

