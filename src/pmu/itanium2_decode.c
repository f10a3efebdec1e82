/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -v: decode an Itanium 2 register value into its fields.  One layout table
 * per register kind, SHIFT/width pairs from the manual's figures (chapter
 * 10); nothing here knows about events.
 */
#include <config.h>

#include <string.h>

#include "event/pmu_model.h"
#include "pmu/itanium2.h"
#include "pmu/itanium2_priv.h"

struct field_def {
	const char *name;
	unsigned shift, width;
};

#define F(n, s, w) { n, s, w }

static const struct field_def counter_fields[] = { /* PMC4-7, Fig 10-11 */
	F("plm", 0, 4), F("ev", 4, 1), F("oi", 5, 1), F("pm", 6, 1), F("es", 8, 8),
	F("umask", 16, 4), F("threshold", 20, 3), F("enable", 23, 1), F("ism", 24, 2), { NULL, 0, 0 },
};
static const struct field_def opcm_fields[] = { /* PMC8/9, Fig 10-14 */
	F("ig_ad", 0, 1), F("inv", 1, 1), F("mask", 3, 27), F("match", 33, 27), F("b", 60, 1),
	F("f", 61, 1), F("i", 62, 1), F("m", 63, 1), { NULL, 0, 0 },
};
static const struct field_def iear_fields[] = { /* PMC10, Fig 10-18 */
	F("plm", 0, 4), F("pm", 4, 1), F("umask", 5, 8), F("ct", 12, 2), F("ism", 14, 2), { NULL, 0, 0 },
};
static const struct field_def dear_fields[] = { /* PMC11, Fig 10-20 */
	F("plm", 0, 4), F("pm", 6, 1), F("mode", 7, 2), F("umask", 16, 4), F("ism", 24, 2), { NULL, 0, 0 },
};
static const struct field_def btb_fields[] = { /* PMC12, Fig 10-22 */
	F("plm", 0, 4), F("pm", 6, 1), F("ds", 7, 1), F("tm", 8, 2), F("ptm", 10, 2), F("ppm", 12, 2),
	F("brt", 14, 2), { NULL, 0, 0 },
};
static const struct field_def pmc13_fields[] = { /* Fig 10-17 */
	F("cfg_dbrp0", 3, 2), F("cfg_dbrp1", 11, 2), F("cfg_dbrp2", 19, 2), F("cfg_dbrp3", 27, 2),
	F("ena_dbrp0", 45, 1), F("ena_dbrp1", 46, 1), F("ena_dbrp2", 47, 1), F("ena_dbrp3", 48, 1),
	{ NULL, 0, 0 },
};
static const struct field_def pmc14_fields[] = { /* Fig 10-16 */
	F("ibrp0", 1, 1), F("ibrp1", 4, 1), F("ibrp2", 7, 1), F("ibrp3", 10, 1), F("fine", 13, 1),
	{ NULL, 0, 0 },
};
static const struct field_def pmc15_fields[] = { /* Fig 10-15 */
	F("ibrp0_pmc8", 0, 1), F("ibrp1_pmc9", 1, 1), F("ibrp2_pmc8", 2, 1), F("ibrp3_pmc9", 3, 1),
	{ NULL, 0, 0 },
};
static const struct field_def br_addr_fields[] = { F("addr", 0, 64), { NULL, 0, 0 } };
static const struct field_def br_mask_fields[] = { /* IBR/DBR odd: mask 55:0, plm 59:56 */
	F("mask", 0, 56), F("plm", 56, 4), { NULL, 0, 0 },
};

static const struct field_def *layout(const struct reg_value *r)
{
	unsigned n = r->num;

	if (r->file == REG_IBR || r->file == REG_DBR)
		return n % 2 ? br_mask_fields : br_addr_fields;
	if (r->file != REG_PMC)
		return NULL;
	if (n >= 4 && n <= 7)
		return counter_fields;
	switch (n) {
	case 8:
	case 9:
		return opcm_fields;
	case 10:
		return iear_fields;
	case 11:
		return dear_fields;
	case 12:
		return btb_fields;
	case 13:
		return pmc13_fields;
	case 14:
		return pmc14_fields;
	case 15:
		return pmc15_fields;
	default:
		return NULL;
	}
}

size_t ita2_decode_reg(const struct pmu_model *m, const struct reg_value *r, struct reg_field *fields,
		       size_t max)
{
	const struct field_def *f = layout(r);
	uint64_t value = r->value;
	size_t n = 0;

	for (; f && f->name && n < max; f++, n++) {
		uint64_t mask = f->width >= 64 ? ~0ull : (1ull << f->width) - 1;

		fields[n].name = f->name;
		fields[n].value = (value >> f->shift) & mask;
	}
	return n;
}
