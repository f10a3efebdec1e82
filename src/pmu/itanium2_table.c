/*
 * Itanium 2 event table: lookup, the libpfm_itanium2(3)-style queries and
 * the table self-check.  The table itself is generated (itanium2_events.h).
 */
#include <config.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/util.h"
#include "pmu/itanium2.h"
#include "pmu/itanium2_events.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

size_t ita2_event_count(void)
{
	return ARRAY_SIZE(ita2_events);
}

const struct ita2_event *ita2_event_at(size_t i)
{
	return i < ARRAY_SIZE(ita2_events) ? &ita2_events[i] : NULL;
}

/* A name starting with a digit is an event code, as in pfmon 3.x. */
static int find_by_code(const char *s)
{
	uint64_t code;

	if (!parse_u64(s, &code) || code > 0xff)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(ita2_events); i++)
		if (ita2_events[i].code == code && ita2_events[i].ear == ITA2_EAR_NONE)
			return (int)i;
	return -1;
}

int ita2_find_event(const char *name)
{
	size_t lo = 0, hi = ARRAY_SIZE(ita2_names);

	if (!name || !*name)
		return -1;
	if (isdigit((unsigned char)name[0]))
		return find_by_code(name);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcasecmp(name, ita2_names[mid].name);

		if (c == 0)
			return ita2_names[mid].idx;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

static const struct ita2_event *ev(size_t i)
{
	return ita2_event_at(i);
}

bool ita2_is_ear(size_t i)
{
	return ev(i) && ev(i)->ear != ITA2_EAR_NONE;
}

bool ita2_is_dear(size_t i)
{
	return ita2_is_dear_cache(i) || ita2_is_dear_tlb(i) || ita2_is_dear_alat(i);
}

bool ita2_is_dear_tlb(size_t i)
{
	return ev(i) && ev(i)->ear == ITA2_EAR_D_TLB;
}

bool ita2_is_dear_cache(size_t i)
{
	return ev(i) && ev(i)->ear == ITA2_EAR_D_CACHE;
}

bool ita2_is_dear_alat(size_t i)
{
	return ev(i) && ev(i)->ear == ITA2_EAR_D_ALAT;
}

bool ita2_is_iear(size_t i)
{
	return ita2_is_iear_cache(i) || ita2_is_iear_tlb(i);
}

bool ita2_is_iear_tlb(size_t i)
{
	return ev(i) && ev(i)->ear == ITA2_EAR_I_TLB;
}

bool ita2_is_iear_cache(size_t i)
{
	return ev(i) && ev(i)->ear == ITA2_EAR_I_CACHE;
}

bool ita2_is_btb(size_t i)
{
	return ev(i) && ev(i)->btb;
}

bool ita2_support_opcm(size_t i)
{
	return ev(i) && (ev(i)->qual & ITA2_Q_OPC);
}

bool ita2_support_iarr(size_t i)
{
	return ev(i) && (ev(i)->qual & ITA2_Q_IAR);
}

bool ita2_support_darr(size_t i)
{
	return ev(i) && (ev(i)->qual & ITA2_Q_DAR);
}

int ita2_get_event_maxincr(size_t i, unsigned *maxincr)
{
	if (!ev(i) || !maxincr)
		return -1;
	*maxincr = ev(i)->maxincr;
	return 0;
}

int ita2_get_event_umask(size_t i, unsigned long *umask)
{
	if (!ev(i) || !umask)
		return -1;
	*umask = ev(i)->umask;
	return 0;
}

int ita2_get_event_group(size_t i, int *grp)
{
	if (!ev(i) || !grp)
		return -1;
	*grp = ev(i)->group;
	return 0;
}

int ita2_get_event_set(size_t i, int *set)
{
	if (!ev(i) || !set)
		return -1;
	*set = ev(i)->set;
	return 0;
}

int ita2_get_ear_mode(size_t i, enum ita2_ear_mode *mode)
{
	if (!ita2_is_ear(i) || !mode)
		return -1;
	switch (ev(i)->ear) {
	case ITA2_EAR_I_TLB:
	case ITA2_EAR_D_TLB:
		*mode = ITA2_EAR_TLB_MODE;
		break;
	case ITA2_EAR_D_ALAT:
		*mode = ITA2_EAR_ALAT_MODE;
		break;
	default:
		*mode = ITA2_EAR_CACHE_MODE;
		break;
	}
	return 0;
}

/* ---- self-check ------------------------------------------------------- */

static int check_fail(char *msg, size_t len, const char *fmt, const char *name)
{
	snprintf(msg, len, fmt, name);
	return -1;
}

static int check_row(const struct ita2_event *e, char *msg, size_t len)
{
	if (!e->name || !*e->name || !e->alt || !e->base)
		return check_fail(msg, len, "row after '%s' has no name", e->name ? e->name : "?");
	if (!e->desc || !*e->desc)
		return check_fail(msg, len, "'%s' has no description", e->name);
	if (!(e->counters & 0xf0) || (e->counters & ~0xf0))
		return check_fail(msg, len, "'%s' has a bad counter mask", e->name);
	if (e->maxincr < 1 || e->maxincr > 7)
		return check_fail(msg, len, "'%s' max increment out of 1..7", e->name);
	if (e->umask > 0xf || (e->umask & e->umask_dc))
		return check_fail(msg, len, "'%s' umask and don't-care bits overlap", e->name);
	if ((e->group == ITA2_GRP_NONE) != (e->set < 0))
		return check_fail(msg, len, "'%s' group and set disagree", e->name);
	if (e->group == ITA2_GRP_L1D && e->set > 4)
		return check_fail(msg, len, "'%s' L1D set out of 0..4", e->name);
	if (e->group == ITA2_GRP_L2 && e->set > 5)
		return check_fail(msg, len, "'%s' L2 set out of 0..5", e->name);
	if (e->ear != ITA2_EAR_NONE && e->code != 0x43 && e->code != 0xc8)
		return check_fail(msg, len, "EAR name '%s' is not counted by an EAR event", e->name);
	if (strncmp(e->name, e->base, strlen(e->base)))
		return check_fail(msg, len, "'%s' does not start with its base name", e->name);
	return 0;
}

/* Two rows of one set programming the same (code, umask) would be one
 * event under two names; the shared-code sets 3/4 must differ in bit 3. */
static int check_pairs(char *msg, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(ita2_events); i++) {
		const struct ita2_event *a = &ita2_events[i];

		for (size_t j = i + 1; j < ARRAY_SIZE(ita2_events); j++) {
			const struct ita2_event *b = &ita2_events[j];

			if (!strcasecmp(a->name, b->name) || !strcasecmp(a->alt, b->alt))
				return check_fail(msg, len, "duplicate name '%s'", a->name);
			if (a->ear || b->ear || a->code != b->code || a->umask != b->umask)
				continue;
			if (!strcmp(a->base, b->base) && a->group == b->group)
				return check_fail(msg, len, "'%s' duplicates another row", b->name);
			if (a->group == ITA2_GRP_L2 && b->group == ITA2_GRP_L2 && a->set != b->set &&
			    ((a->umask ^ b->umask) & 0x8) == 0)
				return check_fail(msg, len, "'%s' shares code and set bit", b->name);
		}
	}
	return 0;
}

static int check_index(char *msg, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(ita2_names); i++) {
		const struct ita2_name_key *k = &ita2_names[i];

		if (k->idx < 0 || (size_t)k->idx >= ARRAY_SIZE(ita2_events))
			return check_fail(msg, len, "name index '%s' out of range", k->name);
		if (strcasecmp(k->name, ita2_events[k->idx].name) &&
		    strcasecmp(k->name, ita2_events[k->idx].alt))
			return check_fail(msg, len, "name index '%s' points elsewhere", k->name);
		if (i && strcasecmp(ita2_names[i - 1].name, k->name) >= 0)
			return check_fail(msg, len, "name index not sorted at '%s'", k->name);
	}
	return 0;
}

int ita2_table_check(char *msg, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(ita2_events); i++)
		if (check_row(&ita2_events[i], msg, len))
			return -1;
	if (check_pairs(msg, len) || check_index(msg, len))
		return -1;
	snprintf(msg, len, "%zu entries", ARRAY_SIZE(ita2_events));
	return 0;
}
