/*
 * The PMU-model interface and the registry of models.
 *
 * A model is one descriptor: data first (name, description, counters per
 * group), then operations.  A model is pure computation except the host
 * model, which asks libpfm4: given the configuration of one event set it
 * returns the programming of every counter (a perf_event_attr for a live
 * PMU, register values for a modelled one) or an error naming the violated
 * rule.  Nothing here prints or makes a performance-monitoring syscall.
 */
#ifndef PFMON_EVENT_PMU_MODEL_H
#define PFMON_EVENT_PMU_MODEL_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/config.h"
#include "common/error.h"

/* One register written by a modelled PMU (PMC/PMD/IBR/DBR ...). */
struct reg_write {
	char name[16]; /* "PMC12", "IBR0", "DBR3" */
	uint64_t value;
};

/* One decoded field of a register value, for -v. */
struct reg_field {
	const char *name;
	uint64_t value;
};

/* One counter's programming. */
struct counter_prog {
	char *name; /* canonical event name */
	char *given; /* the event string as the user wrote it */
	unsigned plm; /* privilege mask actually programmed */

	/* live PMU (host model) */
	bool is_live;
	struct perf_event_attr attr;
	char *fstr; /* libpfm4's canonical string, or NULL */
	bool is_software; /* kernel software event: counts without a PMU */

	/* modelled PMU */
	int pmc; /* PMCn that configures the counter, -1 if none */
	int pmd; /* PMDn that holds the count, -1 if none */
	uint64_t pmc_value; /* value as listed (see the model's notes) */
};

/* The programming of one event set. */
struct set_prog {
	struct counter_prog *counters; /* in command-line order */
	size_t n_counters;
	struct reg_write *regs; /* other registers, in write order */
	size_t n_regs;
	char **notes; /* model remarks (e.g. range over-coverage), NULL-terminated or NULL */
};

void set_prog_release(struct set_prog *prog);

void counter_prog_release(struct counter_prog *c);

/* Key/value lines describing one event, for -i. */
struct event_info_line {
	char *key;
	char *value;
};
struct event_info {
	struct event_info_line *lines;
	size_t n_lines;
};
void event_info_add(struct event_info *info, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void event_info_release(struct event_info *info);

/* Called once per event name by list_events; return non-zero to stop. */
typedef int (*event_name_cb)(const char *name, const char *desc, void *arg);

struct pmu_model {
	const char *name; /* --pmu=NAME */
	const char *desc;
	int max_counters; /* per event set (one group) */
	bool can_run; /* can program this host (else: dry run only) */

	/* is this model the host's PMU? (cheap: no libpfm4 initialisation) */
	bool (*detect)(const struct pmu_model *m);
	/* every event name, table order; long = with unit-mask variants */
	int (*list_events)(const struct pmu_model *m, bool long_names, event_name_cb cb, void *arg,
			   struct pf_error *err);
	int (*event_info)(const struct pmu_model *m, const char *name, struct event_info *out,
			  struct pf_error *err);
	/* validate, assign and encode event set 'set' of cfg */
	int (*encode_set)(const struct pmu_model *m, const struct pf_config *cfg, size_t set,
			  struct set_prog *out, struct pf_error *err);
	/* decode a register value into fields for -v; returns the field count */
	size_t (*decode_reg)(const struct pmu_model *m, const char *reg, uint64_t value,
			     struct reg_field *fields, size_t max);
};

/* Encode every event set of cfg into *sets (allocated).  *n_sets counts
 * the sets encoded, also on failure, so the caller releases them. */
int pmu_encode_config(const struct pmu_model *m, const struct pf_config *cfg, struct set_prog **sets,
		      size_t *n_sets, struct pf_error *err);

/* registry */
const struct pmu_model *pmu_model_find(const char *name);
const struct pmu_model *pmu_model_at(size_t i); /* NULL past the end */
/* --pmu or $PFMON_PMU, else the host model */
const struct pmu_model *pmu_model_select(const char *name, struct pf_error *err);

#endif
