/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpfm4, opened on first use (dlopen).  Most runs name only perf's
 * generic events, tracepoints or breakpoints: they pay neither for the
 * library's relocations at start-up (41,000 of the 45,000 a linked pfmon
 * had) nor for its probe of every PMU it knows.  The table's types are
 * libpfm4's own prototypes, so a call through it is checked as a direct
 * call would be.
 */
#ifndef PFMON_PMU_LIBPFM_H
#define PFMON_PMU_LIBPFM_H

#include <perfmon/pfmlib_perf_event.h>

#include "common/error.h"

struct libpfm {
	__typeof__(pfm_get_event_info) *get_event_info;
	__typeof__(pfm_get_event_attr_info) *get_event_attr_info;
	__typeof__(pfm_get_pmu_info) *get_pmu_info;
	__typeof__(pfm_get_event_next) *get_event_next;
	__typeof__(pfm_find_event) *find_event;
	__typeof__(pfm_get_os_event_encoding) *get_os_event_encoding;
	__typeof__(pfm_strerror) *strerror;
	__typeof__(pfm_get_version) *get_version;
};

/* libpfm4, loaded and initialized; NULL with err (when err is not NULL)
 * naming the library that could not be loaded, or libpfm4's reason */
const struct libpfm *libpfm(struct pf_error *err);

#endif
