/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Histograms of the sampling modules: rows in an array, found through a u64set. */
#include <config.h>

#include <stdlib.h>

#include "common/util.h"
#include "report/ia64_hist.h"

void ia64_hist_init(struct ia64_hist *h)
{
	u64set_init(&h->index);
	h->rows = NULL;
	h->n = h->cap = 0;
	h->total = 0;
}

void ia64_hist_release(struct ia64_hist *h)
{
	u64set_release(&h->index);
	free(h->rows);
	ia64_hist_init(h);
}

static size_t new_row(struct ia64_hist *h, uint64_t key, uint64_t key2)
{
	struct ia64_hist_row *row;

	if (h->n == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 64;
		h->rows = xrealloc(h->rows, h->cap * sizeof(*h->rows));
	}
	row = &h->rows[h->n];
	*row = (struct ia64_hist_row){ .key = key, .key2 = key2, .next = SIZE_MAX };
	return h->n++;
}

/* UINT64_MAX cannot be a u64set key: it is kept under UINT64_MAX - 1's
 * chain, where key itself tells them apart */
static uint64_t index_key(uint64_t key)
{
	return key == UINT64_MAX ? UINT64_MAX - 1 : key;
}

struct ia64_hist_row *ia64_hist_count(struct ia64_hist *h, uint64_t key, uint64_t key2)
{
	uint64_t first;
	size_t i;

	h->total++;
	if (!u64set_get(&h->index, index_key(key), &first)) {
		i = new_row(h, key, key2);
		u64set_put(&h->index, index_key(key), i);
		h->rows[i].count++;
		return &h->rows[i];
	}
	for (i = (size_t)first;; i = h->rows[i].next) {
		if (h->rows[i].key == key && h->rows[i].key2 == key2)
			break;
		if (h->rows[i].next == SIZE_MAX) {
			size_t j = new_row(h, key, key2);

			h->rows[i].next = j;
			i = j;
			break;
		}
	}
	h->rows[i].count++;
	return &h->rows[i];
}

/* qsort has no context argument: the rows being sorted */
static const struct ia64_hist *sorting;
static const unsigned *sort_costs;

static int cmp_keys(const struct ia64_hist_row *a, const struct ia64_hist_row *b)
{
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->key2 != b->key2)
		return a->key2 < b->key2 ? -1 : 1;
	return 0;
}

static int by_count(const void *pa, const void *pb)
{
	const struct ia64_hist_row *a = &sorting->rows[*(const size_t *)pa];
	const struct ia64_hist_row *b = &sorting->rows[*(const size_t *)pb];

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return cmp_keys(a, b);
}

static int by_value(const void *pa, const void *pb)
{
	return cmp_keys(&sorting->rows[*(const size_t *)pa], &sorting->rows[*(const size_t *)pb]);
}

static uint64_t cost(const struct ia64_hist_row *r)
{
	uint64_t c = 0;

	for (unsigned i = 0; i < IA64_HIST_LEVELS; i++)
		c += r->level[i] * sort_costs[i];
	return c;
}

static int by_cost(const void *pa, const void *pb)
{
	const struct ia64_hist_row *a = &sorting->rows[*(const size_t *)pa];
	const struct ia64_hist_row *b = &sorting->rows[*(const size_t *)pb];
	uint64_t ca = cost(a), cb = cost(b);

	if (ca != cb)
		return ca > cb ? -1 : 1;
	return by_count(pa, pb);
}

static int by_weight(const void *pa, const void *pb)
{
	const struct ia64_hist_row *a = &sorting->rows[*(const size_t *)pa];
	const struct ia64_hist_row *b = &sorting->rows[*(const size_t *)pb];

	if (a->weight != b->weight)
		return a->weight > b->weight ? -1 : 1;
	return by_count(pa, pb);
}

size_t *ia64_hist_sorted(const struct ia64_hist *h, enum ia64_hist_order order,
			 const unsigned *costs)
{
	size_t *idx = xcalloc(h->n + 1, sizeof(*idx));

	for (size_t i = 0; i < h->n; i++)
		idx[i] = i;
	sorting = h;
	sort_costs = costs;
	qsort(idx, h->n, sizeof(*idx),
	      order == IA64_HIST_BY_VALUE    ? by_value
	      : order == IA64_HIST_BY_COST   ? by_cost
	      : order == IA64_HIST_BY_WEIGHT ? by_weight
					     : by_count);
	sorting = NULL;
	return idx;
}

size_t ia64_hist_shown(const struct ia64_hist *h, const size_t *order, uint64_t top,
		       uint64_t cum_threshold)
{
	uint64_t cum = 0;
	size_t n = h->n;

	if (top && top < n)
		n = (size_t)top;
	if (!cum_threshold || cum_threshold >= 100)
		return n;
	for (size_t i = 0; i < n; i++) {
		cum += h->rows[order[i]].count;
		/* cum / total > threshold %, in integers */
		if (cum * 100 > cum_threshold * h->total)
			return i;
	}
	return n;
}
