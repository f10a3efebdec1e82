/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sampling modules' histograms (src/report/ia64_hist.c). */
#include <config.h>

#include <stdlib.h>

#include "report/ia64_hist.h"
#include "tap.h"

static void test_rows_and_pairs(void)
{
	struct ia64_hist h;

	ia64_hist_init(&h);
	ia64_hist_count(&h, 0x10, 0);
	ia64_hist_count(&h, 0x10, 0);
	/* pairs of one source, two targets: two rows under one key */
	ia64_hist_count(&h, 0x20, 0x100)->mispredicted++;
	ia64_hist_count(&h, 0x20, 0x200);
	ia64_hist_count(&h, 0x20, 0x100);
	/* UINT64_MAX cannot be a set key: it must still be a row of its own */
	ia64_hist_count(&h, UINT64_MAX, 0);
	ia64_hist_count(&h, UINT64_MAX - 1, 0);
	ok(h.n == 5, "5 rows (got %zu)", h.n);
	ok(h.total == 7, "7 counted");
	for (size_t i = 0; i < h.n; i++) {
		const struct ia64_hist_row *r = &h.rows[i];

		if (r->key == 0x20 && r->key2 == 0x100)
			ok(r->count == 2 && r->mispredicted == 1, "pair (0x20, 0x100): 2, 1 mispredicted");
		if (r->key == UINT64_MAX)
			ok(r->count == 1, "UINT64_MAX counted apart from UINT64_MAX - 1");
	}
	ia64_hist_release(&h);
}

static void test_order_and_threshold(void)
{
	static const unsigned costs[IA64_HIST_LEVELS] = { 5, 10, 150 };
	struct ia64_hist h;
	size_t *o;

	ia64_hist_init(&h);
	for (int i = 0; i < 5; i++)
		ia64_hist_count(&h, 0x30, 0)->level[0]++; /* 5 x 5 cycles */
	for (int i = 0; i < 3; i++)
		ia64_hist_count(&h, 0x10, 0)->level[1]++; /* 3 x 10 */
	ia64_hist_count(&h, 0x20, 0)->level[2]++;         /* 1 x 150 */
	ia64_hist_count(&h, 0x05, 0)->level[2]++;
	o = ia64_hist_sorted(&h, IA64_HIST_BY_COUNT, NULL);
	ok(h.rows[o[0]].key == 0x30 && h.rows[o[1]].key == 0x10 && h.rows[o[2]].key == 0x05 &&
	   h.rows[o[3]].key == 0x20, "by count, ties by key");
	/* 5/10 = 50%: a threshold of 50 keeps it, 49 stops before it */
	ok(ia64_hist_shown(&h, o, 0, 50) == 1, "threshold 50: the 50%% row is shown");
	ok(ia64_hist_shown(&h, o, 0, 49) == 0, "threshold 49: stops before the row crossing it");
	ok(ia64_hist_shown(&h, o, 0, 80) == 2, "threshold 80: 2 rows (80%%)");
	ok(ia64_hist_shown(&h, o, 3, 100) == 3, "top 3");
	ok(ia64_hist_shown(&h, o, 0, 100) == 4, "everything at 100%%");
	free(o);
	o = ia64_hist_sorted(&h, IA64_HIST_BY_VALUE, NULL);
	ok(h.rows[o[0]].key == 0x05 && h.rows[o[3]].key == 0x30, "by value");
	free(o);
	o = ia64_hist_sorted(&h, IA64_HIST_BY_COST, costs);
	ok(h.rows[o[0]].key == 0x05 && h.rows[o[1]].key == 0x20 && h.rows[o[2]].key == 0x10 &&
	   h.rows[o[3]].key == 0x30, "by cost: 150, 150, 30, 25 cycles");
	free(o);
	ia64_hist_release(&h);
}

int main(void)
{
	test_rows_and_pairs();
	test_order_and_threshold();
	return tap_done();
}
