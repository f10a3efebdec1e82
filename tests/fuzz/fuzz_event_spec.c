/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: the event string grammar (src/event/event_spec.c).
 * The input is one -e argument: a comma-separated list split the way the
 * CLI splits it, then each event string parsed; one in perf's PMU/TERMS/
 * form also through the sysfs term parser (src/pmu/sysfs_pmu.c), against
 * the PMUs of the machine it runs on.
 */
#include <config.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "event/event_spec.h"
#include "common/util.h"
#include "pmu/sysfs_pmu.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstring(data, size);
	struct pf_error err = { .code = PF_E_OK };
	struct event_spec spec;
	size_t n = 0;
	char **list;

	/* the whole input as one event string, then as a -e list */
	/* the spec holds what was parsed before an error too: released either way */
	event_spec_parse(text, &spec, &err);
	event_spec_release(&spec);
	list = event_list_split(text, &n, &err);
	for (size_t i = 0; list && i < n; i++) {
		struct sysfs_pmu_event ev;

		event_spec_parse(list[i], &spec, &err);
		if (spec.pmu_terms) {
			sysfs_pmu_encode(list[i], &ev, &err);
			sysfs_pmu_event_release(&ev);
		}
		event_spec_release(&spec);
	}
	str_vec_free(list);
	free(text);
	return 0;
}
