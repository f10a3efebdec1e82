/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Names of the record types, for messages and dumps; record totals; which
 * samples fold into one.
 */
#include <config.h>

#include <string.h>

#include "common/hash.h"
#include "common/util.h"
#include "sample/sample.h"

void sample_totals_add(struct sample_totals *t, const struct sample_record *rec)
{
	t->records++;
	if (rec->type == SREC_SAMPLE)
		t->samples++;
	else if (rec->type == SREC_LOST || rec->type == SREC_LOST_SAMPLES)
		t->lost += rec->lost.lost;
	else if (rec->type == SREC_THROTTLE)
		t->throttled++;
}

bool sample_foldable(const struct sample *s)
{
	return !(s->fields & (SAMPLE_F_READ | SAMPLE_F_USER_STACK));
}

uint64_t sample_fold_hash(const struct sample *s)
{
	uint64_t h = hash_combine(hash_combine(hash_combine(s->fields, s->evidx), s->ip),
				  ((uint64_t)s->pid << 32) | s->tid);

	h = hash_combine(hash_combine(hash_combine(h, s->period), s->addr), s->cpumode);
	for (uint32_t i = 0; i < s->callchain_nr; i++)
		h = hash_combine(h, s->callchain[i]);
	for (uint32_t i = 0; i < s->branch_nr; i++)
		h = hash_combine(hash_combine(h, s->branches[i].from), s->branches[i].to);
	return hash_u64(h);
}

bool sample_fold_equal(const struct sample *a, const struct sample *b)
{
	return a->fields == b->fields && a->evidx == b->evidx && a->cpumode == b->cpumode &&
	       a->exact_ip == b->exact_ip && a->ip == b->ip && a->pid == b->pid && a->tid == b->tid &&
	       a->period == b->period && a->addr == b->addr && a->weight == b->weight &&
	       a->ins_lat == b->ins_lat && a->p_stage_cyc == b->p_stage_cyc && a->data_src == b->data_src && a->phys_addr == b->phys_addr &&
	       a->callchain_nr == b->callchain_nr && a->branch_nr == b->branch_nr &&
	       (!a->callchain_nr || !memcmp(a->callchain, b->callchain, a->callchain_nr * sizeof(*a->callchain))) &&
	       (!a->branch_nr || !memcmp(a->branches, b->branches, a->branch_nr * sizeof(*a->branches)));
}
