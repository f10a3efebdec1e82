/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libpfm4 loaded on first use (see libpfm.h). */
#include <config.h>

#include "common/dynlib.h"
#include "common/util.h"
#include "libpfm.h"

/* the table, and libpfm4's initialisation, called once */
struct libpfm_loaded {
	struct libpfm fn;
	__typeof__(pfm_initialize) *initialize;
};

#define ENTRY(field) DYNLIB_SYMBOL(struct libpfm_loaded, fn.field, "pfm_" #field)
static const struct dynlib_symbol symbols[] = {
	ENTRY(get_event_info), ENTRY(get_event_attr_info), ENTRY(get_pmu_info), ENTRY(get_event_next),
	ENTRY(find_event),     ENTRY(get_os_event_encoding), ENTRY(strerror),   ENTRY(get_version),
	DYNLIB_SYMBOL(struct libpfm_loaded, initialize, "pfm_initialize"),
};
#undef ENTRY

static int load(struct libpfm_loaded *l, struct pf_error *err)
{
	int rc;

	/* the soname pfmon was built against: its ABI, not whatever libpfm.so is */
	if (dynlib_open("libpfm4", "libpfm.so.4", symbols, ARRAY_SIZE(symbols), l, err))
		return -1;
	rc = l->initialize();
	if (rc != PFM_SUCCESS)
		return pf_error_set(err, PF_E_LIBPFM, "initialisation", l->fn.strerror(rc));
	return 0;
}

const struct libpfm *libpfm(struct pf_error *err)
{
	static struct libpfm_loaded loaded;
	static int state; /* 0: not tried, 1: ready, -1: failed (the same error again) */
	static struct pf_error failure;

	if (!state)
		state = load(&loaded, &failure) ? -1 : 1;
	if (state > 0)
		return &loaded.fn;
	if (err)
		*err = failure;
	return NULL;
}
