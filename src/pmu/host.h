/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The host model: the PMUs libpfm4 detects on this machine plus perf's
 * generic, software and breakpoint events.  Encodings come from libpfm4 and
 * the kernel ABI, never from tables of our own. */
#ifndef PFMON_PMU_HOST_H
#define PFMON_PMU_HOST_H

#include "event/pmu_model.h"

extern const struct pmu_model pmu_host;

/* Encode one event string for the host (exposed for the unit tests).
 * plm 0 = nothing asked: user level for hardware events (pfmon's default),
 * every level for software events (perf's). */
int host_encode_event(const char *text, unsigned plm, struct counter_prog *out, struct pf_error *err);

/* Is text an event libpfm4 encodes (not one of perf's generic names, a
 * tracepoint or a breakpoint)?  Answered without loading libpfm4. */
bool host_event_is_libpfm(const char *text);

/* Does libpfm4 detect (or LIBPFM_FORCE_PMU force) its PMU of this name here? */
bool host_pmu_present(const char *libpfm_name);

/* Names close to an unknown one, for "did you mean"; "" when none. */
char *host_suggest(const char *name);

#endif
