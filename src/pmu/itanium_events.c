/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * First-generation Itanium events: lookup, the table self-check, and the
 * counters (PMC4-7): placement under each event's counter restriction,
 * thresholds below the max increment, qualifier support, register values.
 * The EAR and BTB registers an event programs are written by itanium.c.
 */
#include <config.h>

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/util.h"
#include "pmu/itanium.h"
#include "pmu/itanium_events.h"

size_t ita_event_count(void)
{
	return ARRAY_SIZE(ita_events);
}

const struct ita_event *ita_event_at(size_t i)
{
	return i < ARRAY_SIZE(ita_events) ? &ita_events[i] : NULL;
}

/* a number is an event code, as in pfmon 3.x: the first row with that code
 * that is not an EAR configuration */
static int find_by_code(const char *s)
{
	uint64_t code;

	if (!parse_u64(s, &code) || code > ITA_PMC_ES_MASK)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(ita_events); i++)
		if (ita_events[i].code == code && ita_events[i].ear == ITA_EAR_NONE)
			return (int)i;
	return -1;
}

int ita_find_event(const char *name)
{
	if (!name || !*name)
		return -1;
	if (isdigit((unsigned char)name[0]))
		return find_by_code(name);
	for (size_t i = 0; i < ARRAY_SIZE(ita_events); i++)
		if (!strcasecmp(name, ita_events[i].name))
			return (int)i;
	return -1;
}

/* ---- self-check ------------------------------------------------------- */

static int bad_row(char *msg, size_t len, const char *what, const char *name)
{
	snprintf(msg, len, "'%s' %s", name, what);
	return -1;
}

static int check_row(const struct ita_event *e, char *msg, size_t len)
{
	if (!e->name || !*e->name || !e->desc || !*e->desc)
		return bad_row(msg, len, "has no name or description", e->name ? e->name : "?");
	if (e->counters != ITA_PMC4_7 && e->counters != ITA_PMC4_5)
		return bad_row(msg, len, "has a counter mask other than PMC4-7 or PMC4-5", e->name);
	if (e->maxincr < 1 || e->maxincr > ITA_PMC_THRES_MASK + 1)
		return bad_row(msg, len, "has a max increment outside 1..8 (the threshold has 3 bits)", e->name);
	if (e->code > ITA_PMC_ES_MASK || e->umask > 0xf)
		return bad_row(msg, len, "has a code above 7 bits or a unit mask above 4 bits", e->name);
	if (e->qual & ~(ITA_Q_IAR | ITA_Q_OPC | ITA_Q_DAR))
		return bad_row(msg, len, "has unknown qualifier bits", e->name);
	/* the EAR events are counted by INSTRUCTION_EAR_EVENTS / DATA_EAR_EVENTS */
	if ((e->ear == ITA_EAR_I_CACHE || e->ear == ITA_EAR_I_TLB) && e->code != 0x23)
		return bad_row(msg, len, "is an instruction EAR event without code 0x23", e->name);
	if ((e->ear == ITA_EAR_D_CACHE || e->ear == ITA_EAR_D_TLB) && e->code != 0x67)
		return bad_row(msg, len, "is a data EAR event without code 0x67", e->name);
	return 0;
}

int ita_table_check(char *msg, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(ita_events); i++) {
		const struct ita_event *a = &ita_events[i];

		if (check_row(a, msg, len))
			return -1;
		for (size_t j = i + 1; j < ARRAY_SIZE(ita_events); j++) {
			const struct ita_event *b = &ita_events[j];

			if (!strcasecmp(a->name, b->name))
				return bad_row(msg, len, "is listed twice", a->name);
			if (a->code == b->code && a->umask == b->umask && a->ear == b->ear)
				return bad_row(msg, len, "programs the same code, unit mask and EAR as another row",
					       b->name);
		}
	}
	snprintf(msg, len, "%zu entries", ARRAY_SIZE(ita_events));
	return 0;
}

/* ---- the counters ------------------------------------------------------ */

static const char *const qual_names[] = { "an instruction address range", "opcode matching",
					  "a data address range" };

/* every event supports the qualifiers the set applies (libpfm3 refuses
 * the set with PFMLIB_ERR_FEATCOMB otherwise) */
static int check_quals(const struct ita_counters_req *req, struct pf_error *err)
{
	static const char *const rules[] = { "ITA-QUAL-IAR", "ITA-QUAL-OPC", "ITA-QUAL-DAR" };
	char what[PF_ERROR_MSG_MAX / 2];

	for (size_t i = 0; i < req->n; i++)
		for (unsigned q = 0; q < 3; q++) {
			const struct ita_event *e = &ita_events[req->ev[i]];

			if (!(req->quals_used & (1u << q)) || (e->qual & (1u << q)))
				continue;
			snprintf(what, sizeof(what), "event '%s' cannot be qualified by %s (%s)", req->text[i],
				 qual_names[q], req->qual_why[q] ? req->qual_why[q] : "");
			return pf_error_constraint(err, rules[q], 1u << i, what);
		}
	return 0;
}

static int check_thresholds(const struct ita_counters_req *req, struct pf_error *err)
{
	char what[PF_ERROR_MSG_MAX / 2];

	for (size_t i = 0; i < req->n; i++) {
		const struct ita_event *e = &ita_events[req->ev[i]];

		if (req->thres[i] < e->maxincr)
			continue;
		snprintf(what, sizeof(what), "threshold %u of '%s' is not below its max increment %u (0-%u)",
			 req->thres[i], req->text[i], e->maxincr, e->maxincr - 1u);
		return pf_error_constraint(err, "ITA-THRESHOLD", 1u << i, what);
	}
	return 0;
}

/* Exhaustive, lexicographic over (counter of event 0, event 1, ...), PMC4
 * first: the first placement where each event sits on a counter it may use. */
static bool place(const struct ita_counters_req *req, size_t i, unsigned used, int *pmc)
{
	if (i == req->n)
		return true;
	for (int c = 4; c <= 7; c++) {
		if ((used & (1u << c)) || !(ita_events[req->ev[i]].counters & (1u << c)))
			continue;
		pmc[i] = c;
		if (place(req, i + 1, used | (1u << c), pmc))
			return true;
	}
	return false;
}

/* no placement: the events restricted to PMC4-5 are more than two */
static int no_placement(const struct ita_counters_req *req, struct pf_error *err)
{
	char what[PF_ERROR_MSG_MAX / 2] = "";
	unsigned mask = 0;
	size_t n = 0;

	for (size_t i = 0; i < req->n; i++)
		if (ita_events[req->ev[i]].counters == ITA_PMC4_5) {
			snprintf(what + strlen(what), sizeof(what) - strlen(what), "%s'%s'", n++ ? ", " : "",
				 req->text[i]);
			mask |= 1u << i;
		}
	snprintf(what + strlen(what), sizeof(what) - strlen(what), " count on PMC4 or PMC5 only: %zu events for "
		 "2 counters", n);
	return pf_error_constraint(err, "ITA-COUNTERS", mask, what);
}

int ita_assign_counters(const struct ita_counters_req *req, int *pmc, uint64_t *value, struct pf_error *err)
{
	if (req->n > ITA_MAX_EVENTS)
		return pf_error_constraint(err, "ITA-TOOMANY", (1u << ITA_MAX_EVENTS) - 1,
					   "too many events: at most 4 counters (PMC4-PMC7)");
	if (check_quals(req, err) || check_thresholds(req, err))
		return -1;
	if (!place(req, 0, 0, pmc))
		return no_placement(req, err);
	for (size_t i = 0; i < req->n; i++) {
		const struct ita_event *e = &ita_events[req->ev[i]];

		/* an EAR event's counter counts its captures: umask 0, the
		 * event's umask goes to PMC10/PMC11 */
		value[i] = (uint64_t)req->plm[i] << ITA_PMC_PLM_SHIFT | 1ull << ITA_PMC_OI_SHIFT |
			   (uint64_t)req->system_wide << ITA_PMC_PM_SHIFT | (uint64_t)e->code << ITA_PMC_ES_SHIFT |
			   (uint64_t)(e->ear ? 0 : e->umask) << ITA_PMC_UMASK_SHIFT |
			   (uint64_t)req->thres[i] << ITA_PMC_THRES_SHIFT;
	}
	return 0;
}
