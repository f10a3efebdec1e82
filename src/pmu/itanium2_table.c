/* SPDX-License-Identifier: GPL-2.0-or-later */
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

/*
 * pfmon 3.x's names (libpfm3's Itanium 2 table) that are not the manual's
 * spellings.  Each is either an alias of a manual entry, or a combined unit
 * mask of one: the event it denotes is the manual's entry with the unit-mask
 * bits ORed as the manual's pattern defines them (see ITANIUM2-NOTES.md).
 * Where libpfm3's bits differ from the manual's, the manual's are used.
 */
struct ita2_alias {
	const char *pfmon3; /* libpfm3 / pfmon 3.x name */
	const char *entry; /* the manual entry it names, or derives from */
	const char *umask_name; /* NULL: a plain alias; else the combined unit mask */
	uint8_t umask;
	const char *what; /* description of a combined unit mask */
};

static const struct ita2_alias ita2_aliases[] = {
	/* libpfm3 added "_THIS" to events whose only unit mask is THIS */
	{ "BUS_BACKSNP_REQ_THIS", "BUS_BACKSNP_REQ", NULL, 0, NULL },
	{ "IA64_INST_RETIRED_THIS", "IA64_INST_RETIRED", NULL, 0, NULL },
	{ "L2_FILLB_FULL_THIS", "L2_FILLB_FULL", NULL, 0, NULL },
	{ "L2_OZDB_FULL_THIS", "L2_OZDB_FULL", NULL, 0, NULL },
	{ "L2_OZQ_FULL_THIS", "L2_OZQ_FULL", NULL, 0, NULL },
	{ "L2_VICTIMB_FULL_THIS", "L2_VICTIMB_FULL", NULL, 0, NULL },
	/* libpfm3 spelled the manual's NRETIND (non-return indirect) NTRETIND */
	{ "BR_MISPRED_DETAIL_NTRETIND_ALL_PRED", "BR_MISPRED_DETAIL.NRETIND.ALL_PRED", NULL, 0, NULL },
	{ "BR_MISPRED_DETAIL_NTRETIND_CORRECT_PRED", "BR_MISPRED_DETAIL.NRETIND.CORRECT_PRED", NULL, 0, NULL },
	{ "BR_MISPRED_DETAIL_NTRETIND_WRONG_PATH", "BR_MISPRED_DETAIL.NRETIND.WRONG_PATH", NULL, 0, NULL },
	{ "BR_MISPRED_DETAIL_NTRETIND_WRONG_TARGET", "BR_MISPRED_DETAIL.NRETIND.WRONG_TARGET", NULL, 0, NULL },
	/* b0101: listed by the manual as "meaningless for this event" */
	{ "BE_LOST_BW_DUE_TO_FE_IBFULL", "BE_LOST_BW_DUE_TO_FE.FEFLUSH", "IBFULL", 0x5,
	  "IBFULL (b0101: the manual says meaningless for this event)" },
	{ "IDEAL_BE_LOST_BW_DUE_TO_FE_IBFULL", "IDEAL_BE_LOST_BW_DUE_TO_FE.FEFLUSH", "IBFULL", 0x5,
	  "IBFULL (b0101: the manual says meaningless for this event)" },
	/* DP pins: bit n of the unit mask includes pin n (the manual's bxxx1 ... b1xxx) */
	{ "EXTERN_DP_PINS_0_TO_3_ALL", "EXTERN_DP_PINS_0_TO_3.PIN0", "ALL", 0xf, "pin 0, 1, 2 or 3 asserted" },
	{ "EXTERN_DP_PINS_0_TO_3_PIN0_OR_PIN1", "EXTERN_DP_PINS_0_TO_3.PIN0", "PIN0_OR_PIN1", 0x3,
	  "pin 0 or 1 asserted" },
	{ "EXTERN_DP_PINS_0_TO_3_PIN0_OR_PIN1_OR_PIN2", "EXTERN_DP_PINS_0_TO_3.PIN0", "PIN0_OR_PIN1_OR_PIN2", 0x7,
	  "pin 0, 1 or 2 asserted" },
	{ "EXTERN_DP_PINS_0_TO_3_PIN0_OR_PIN1_OR_PIN3", "EXTERN_DP_PINS_0_TO_3.PIN0", "PIN0_OR_PIN1_OR_PIN3", 0xb,
	  "pin 0, 1 or 3 asserted" },
	{ "EXTERN_DP_PINS_0_TO_3_PIN0_OR_PIN2", "EXTERN_DP_PINS_0_TO_3.PIN0", "PIN0_OR_PIN2", 0x5,
	  "pin 0 or 2 asserted" },
	{ "EXTERN_DP_PINS_0_TO_3_PIN0_OR_PIN2_OR_PIN3", "EXTERN_DP_PINS_0_TO_3.PIN0", "PIN0_OR_PIN2_OR_PIN3", 0xd,
	  "pin 0, 2 or 3 asserted" },
	{ "EXTERN_DP_PINS_0_TO_3_PIN0_OR_PIN3", "EXTERN_DP_PINS_0_TO_3.PIN0", "PIN0_OR_PIN3", 0x9,
	  "pin 0 or 3 asserted" },
	{ "EXTERN_DP_PINS_0_TO_3_PIN1_OR_PIN2", "EXTERN_DP_PINS_0_TO_3.PIN0", "PIN1_OR_PIN2", 0x6,
	  "pin 1 or 2 asserted" },
	{ "EXTERN_DP_PINS_0_TO_3_PIN1_OR_PIN2_OR_PIN3", "EXTERN_DP_PINS_0_TO_3.PIN0", "PIN1_OR_PIN2_OR_PIN3", 0xe,
	  "pin 1, 2 or 3 asserted" },
	{ "EXTERN_DP_PINS_0_TO_3_PIN1_OR_PIN3", "EXTERN_DP_PINS_0_TO_3.PIN0", "PIN1_OR_PIN3", 0xa,
	  "pin 1 or 3 asserted" },
	{ "EXTERN_DP_PINS_0_TO_3_PIN2_OR_PIN3", "EXTERN_DP_PINS_0_TO_3.PIN0", "PIN2_OR_PIN3", 0xc,
	  "pin 2 or 3 asserted" },
	{ "EXTERN_DP_PINS_4_TO_5_ALL", "EXTERN_DP_PINS_4_TO_5.PIN4", "ALL", 0x3, "pin 4 or 5 asserted" },
	/* syllables not dispersed: EXPL b0001, IMPL b0010, FE b0100, MLI b1000; the
	 * manual: any combination of b0000-b1111 is valid */
	{ "SYLL_NOT_DISPERSED_EXPL_OR_FE", "SYLL_NOT_DISPERSED.EXPL", "EXPL_OR_FE", 0x5,
	  "explicit stop bits or front-end" },
	{ "SYLL_NOT_DISPERSED_EXPL_OR_FE_OR_MLI", "SYLL_NOT_DISPERSED.EXPL", "EXPL_OR_FE_OR_MLI", 0xd,
	  "explicit stop bits, front-end or MLI resteer" },
	{ "SYLL_NOT_DISPERSED_EXPL_OR_IMPL", "SYLL_NOT_DISPERSED.EXPL", "EXPL_OR_IMPL", 0x3,
	  "explicit or implicit stop bits" },
	{ "SYLL_NOT_DISPERSED_EXPL_OR_IMPL_OR_FE", "SYLL_NOT_DISPERSED.EXPL", "EXPL_OR_IMPL_OR_FE", 0x7,
	  "explicit or implicit stop bits or front-end" },
	{ "SYLL_NOT_DISPERSED_EXPL_OR_IMPL_OR_MLI", "SYLL_NOT_DISPERSED.EXPL", "EXPL_OR_IMPL_OR_MLI", 0xb,
	  "explicit or implicit stop bits or MLI resteer" },
	{ "SYLL_NOT_DISPERSED_EXPL_OR_MLI", "SYLL_NOT_DISPERSED.EXPL", "EXPL_OR_MLI", 0x9,
	  "explicit stop bits or MLI resteer" },
	{ "SYLL_NOT_DISPERSED_FE_OR_MLI", "SYLL_NOT_DISPERSED.EXPL", "FE_OR_MLI", 0xc, "front-end or MLI resteer" },
	{ "SYLL_NOT_DISPERSED_IMPL_OR_FE", "SYLL_NOT_DISPERSED.EXPL", "IMPL_OR_FE", 0x6,
	  "implicit stop bits or front-end" },
	{ "SYLL_NOT_DISPERSED_IMPL_OR_FE_OR_MLI", "SYLL_NOT_DISPERSED.EXPL", "IMPL_OR_FE_OR_MLI", 0xe,
	  "implicit stop bits, front-end or MLI resteer" },
	{ "SYLL_NOT_DISPERSED_IMPL_OR_MLI", "SYLL_NOT_DISPERSED.EXPL", "IMPL_OR_MLI", 0xa,
	  "implicit stop bits or MLI resteer" },
};

#define N_ALIASES ARRAY_SIZE(ita2_aliases)

/* The combined-unit-mask events, built once from their manual entries and
 * numbered after the manual's table: index ARRAY_SIZE(ita2_events) + k is
 * alias k.  Plain aliases leave their slot unused. */
static struct ita2_event derived[N_ALIASES];
static char derived_text[N_ALIASES][3][160];
static bool derived_built;

static int find_manual(const char *name);

static void build_derived(void)
{
	if (derived_built)
		return;
	derived_built = true;
	for (size_t k = 0; k < N_ALIASES; k++) {
		const struct ita2_alias *a = &ita2_aliases[k];
		int from = find_manual(a->entry);

		if (!a->umask_name || from < 0)
			continue;
		derived[k] = ita2_events[from];
		snprintf(derived_text[k][0], sizeof(derived_text[k][0]), "%s.%s", derived[k].base, a->umask_name);
		snprintf(derived_text[k][1], sizeof(derived_text[k][1]), "%s", a->pfmon3);
		/* the entry's description is "EVENT -- ITS UNIT MASK": keep the event part */
		const char *sep = strstr(derived[k].desc, " -- ");
		int event_len = sep ? (int)(sep - derived[k].desc) : (int)strlen(derived[k].desc);

		snprintf(derived_text[k][2], sizeof(derived_text[k][2]), "%.*s -- %s", event_len, derived[k].desc,
			 a->what);
		derived[k].name = derived_text[k][0];
		derived[k].alt = derived_text[k][1];
		derived[k].umask_name = a->umask_name;
		derived[k].umask = a->umask;
		derived[k].umask_dc = 0;
		derived[k].desc = derived_text[k][2];
	}
}

size_t ita2_event_count(void)
{
	return ARRAY_SIZE(ita2_events);
}

const struct ita2_event *ita2_event_at(size_t i)
{
	if (i < ARRAY_SIZE(ita2_events))
		return &ita2_events[i];
	i -= ARRAY_SIZE(ita2_events);
	build_derived();
	return i < N_ALIASES && ita2_aliases[i].umask_name && derived[i].name ? &derived[i] : NULL;
}

size_t ita2_alias_count(void)
{
	return N_ALIASES;
}

const char *ita2_alias_at(size_t k, int *idx)
{
	if (k >= N_ALIASES)
		return NULL;
	*idx = ita2_find_event(ita2_aliases[k].pfmon3);
	return ita2_aliases[k].pfmon3;
}

/* How -l and --dump-event-table mark libpfm3 name k: an alias of a manual
 * entry, or the name of a combined (or meaningless) unit mask built from one */
int ita2_alias_marker(size_t k, char *buf, size_t len)
{
	int idx;
	const char *name = ita2_alias_at(k, &idx);

	if (!name || idx < 0)
		return -1;
	snprintf(buf, len, "libpfm3 %s of %s", ita2_aliases[k].umask_name ? "name" : "alias",
		 ita2_event_at((size_t)idx)->name);
	return 0;
}

bool ita2_is_manual_name(const char *name)
{
	return find_manual(name) >= 0;
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

static int find_alias(const char *name)
{
	for (size_t k = 0; k < N_ALIASES; k++) {
		const struct ita2_alias *a = &ita2_aliases[k];
		char canon[160];

		if (a->umask_name && ita2_event_at(ARRAY_SIZE(ita2_events) + k))
			snprintf(canon, sizeof(canon), "%s", derived[k].name);
		else
			canon[0] = 0;
		if (!strcasecmp(name, a->pfmon3) || (*canon && !strcasecmp(name, canon)))
			return a->umask_name ? (ita2_event_at(ARRAY_SIZE(ita2_events) + k) ?
						(int)(ARRAY_SIZE(ita2_events) + k) : -1)
					     : find_manual(a->entry);
	}
	return -1;
}

int ita2_find_event(const char *name)
{
	int i = name ? find_manual(name) : -1;

	return i >= 0 || !name ? i : find_alias(name);
}

/* the manual's table alone: either spelling, or an event code */
static int find_manual(const char *name)
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
