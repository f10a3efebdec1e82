/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Alpha 21264/EV67 ProfileMe counting (seed 003, ../shared/spec/other-pmus.md
 * §2): the counting inputs of PCTR0 and PCTR1, their counter constraints,
 * the ProfileMe window semantics and the manual's caveats.  Pure computation.
 */
#ifndef PFMON_PMU_EV67_H
#define PFMON_PMU_EV67_H

#include "event/pmu_model.h"

extern const struct pmu_model pmu_ev67;

#endif
