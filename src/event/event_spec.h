/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The event string grammar, PMU-independent:
 *
 *     [PMU::]NAME[.UMASK][:QUAL[=VALUE]]...
 *
 * NAME.UMASK is the Itanium 2 manual's spelling; ':'-separated qualifiers
 * are libpfm4's unit masks and modifiers (INST_RETIRED:ANY_P:u=1:c=2) and
 * perf's modifier suffixes (cycles:u).  The parser only splits; the PMU model
 * decides what each part means.  perf's breakpoint form mem:ADDR[/LEN][:rwx]
 * has a grammar of its own: it is kept whole, for the model.
 */
#ifndef PFMON_EVENT_EVENT_SPEC_H
#define PFMON_EVENT_EVENT_SPEC_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"

#define EVENT_SPEC_MAX_QUALS 16

struct event_qual {
	char *key; /* unit mask or modifier name */
	char *value; /* after '=', or NULL */
};

struct event_spec {
	char *text; /* the whole string as given */
	char *pmu; /* before "::", or NULL */
	char *name; /* event name, without .UMASK */
	char *dot_umask; /* after the first '.' (may hold more dots), or NULL */
	struct event_qual quals[EVENT_SPEC_MAX_QUALS];
	size_t n_quals;
	bool breakpoint; /* perf's mem:ADDR[/LEN][:rwx]: only text and name are set */
	bool pmu_terms; /* perf's PMU/TERMS/[MODIFIERS]: only text and name (the whole text) are set */
};

/* is text perf's PMU/TERMS/ form: a PMU name, then '/' before any ':'? */
bool event_spec_pmu_form(const char *text);

int event_spec_parse(const char *text, struct event_spec *spec, struct pf_error *err);
void event_spec_release(struct event_spec *spec);

/* Split a -e list at commas; those between a PMU form's slashes
 * (cpu/event=0x3c,umask=0/) separate its terms, not events. */
char **event_list_split(const char *list, size_t *count, struct pf_error *err);

#endif
