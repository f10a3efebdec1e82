/* Internal helpers shared by the Itanium 2 model's files. */
#ifndef PFMON_PMU_ITANIUM2_PRIV_H
#define PFMON_PMU_ITANIUM2_PRIV_H

#include <stdlib.h>

#include "common/config.h"
#include "common/util.h"
#include "pmu/itanium2.h"

/* pf_error_set(PF_E_CONSTRAINT) with a formatted "what"; returns -1 */
int ita2_reject(struct pf_error *err, const char *rule, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void ita2_note(struct ita2_result *res, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ita2_add_reg(struct ita2_result *res, const char *name, int n, uint64_t value);

bool ita2_is_cancels(const struct ita2_event *e);
bool ita2_is_prefetch(const struct ita2_event *e);
bool ita2_btb_used(const struct ita2_request *req);

/* IBR/DBR pairs, PMC8 (with a code range), PMC13, PMC14 */
int ita2_encode_ranges(const struct ita2_request *req, struct ita2_result *res, struct pf_error *err);

struct pmu_model;
struct reg_field;
/* -v: the fields of a PMC/IBR/DBR value, table-driven */
size_t ita2_decode_reg(const struct pmu_model *m, const char *reg, uint64_t value,
		       struct reg_field *fields, size_t max);
int ita2_build_request(const struct pf_config *cfg, size_t set, struct ita2_request *req,
		       struct pf_error *err);

/* the number in a register name ("PMC12" -> 12), -1 if it has none */
static inline int atoi_digits(const char *s)
{
	uint64_t n;

	while (*s && (*s < '0' || *s > '9'))
		s++;
	return parse_u64(s, &n) && n <= 0xffff ? (int)n : -1;
}

#endif
