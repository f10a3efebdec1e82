/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal helpers shared by the Itanium 2 model's files. */
#ifndef PFMON_PMU_ITANIUM2_PRIV_H
#define PFMON_PMU_ITANIUM2_PRIV_H

#include <stdlib.h>

#include "event/pmu_model.h"
#include "common/util.h"
#include "pmu/itanium2.h"

/* pf_error_set(PF_E_CONSTRAINT) with a formatted "what"; returns -1 */
/* rule broken by the events of bit mask 'events' (bit i: event i of the set) */
int ita2_reject(struct pf_error *err, const char *rule, unsigned events, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

bool ita2_is_cancels(const struct ita2_event *e);
bool ita2_is_prefetch(const struct ita2_event *e);
bool ita2_btb_used(const struct ita2_request *req);

/* IBR/DBR pairs, PMC8 (with a code range), PMC13, PMC14 */
int ita2_encode_ranges(const struct ita2_request *req, struct ita2_result *res, struct pf_error *err);

/* -v: the fields of a PMC/IBR/DBR value, table-driven */
size_t ita2_decode_reg(const struct pmu_model *m, const struct reg_value *r, struct reg_field *fields,
		       size_t max);

#endif
