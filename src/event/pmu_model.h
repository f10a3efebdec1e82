/* SPDX-License-Identifier: GPL-2.0-or-later */
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

#include "common/error.h"
#include "event/event_spec.h"
#include "event/plm.h"

/* Register files of the modelled PMUs.  A register travels as (file,
 * number, value); only printers name it (pmu_reg_name). */
enum reg_file {
	REG_PMC, /* performance monitor configuration */
	REG_PMD, /* performance monitor data (counter) */
	REG_IBR, /* instruction breakpoint (range) */
	REG_DBR, /* data breakpoint (range) */
	REG_MSR, /* x86 model-specific register, by MSR address */
	REG_FILE_COUNT,
};

struct reg_value {
	enum reg_file file;
	unsigned num;
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
	char *alias; /* the user's name when it is another name of 'name' (pfmon 3.x's): --check echoes it */
	unsigned plm; /* privilege mask actually programmed */

	/* live PMU: is_live = programmed only through perf (the host model:
	 * --check prints attr); attr = what a run opens, also filled by a
	 * modelled PMU that runs live on this host (--check prints its registers) */
	bool is_live;
	struct perf_event_attr attr;
	char *fstr; /* libpfm4's canonical string, or NULL */
	bool is_software; /* kernel software event: counts without a PMU */
	bool kernel_only; /* fires in the kernel only (a tracepoint): at user level it counts 0 */
	bool levels_given; /* the event's own modifiers (":u", "u=1") chose its levels */
	double scale; /* one count is scale units (a sysfs event's .scale); 0 means 1 */
	char *unit; /* the unit scaled counts are in (a sysfs event's .unit), or NULL */
	/* system-wide: the CPUs the event's PMU counts on (its sysfs cpumask,
	 * "0,8" for an uncore PMU of two packages), or NULL for every CPU */
	char *cpus;
	bool per_pkg;  /* one count a package: read on one CPU of each (sysfs .per-pkg) */
	bool snapshot; /* a reading is a value, not a running count: intervals show it (.snapshot) */
	bool aux_trace; /* its samples are an AUX trace (Arm SPE): pfmon maps no AUX buffer */

	/* modelled PMU */
	struct reg_value ctl; /* the register that configures the counter, its value as listed */
	struct reg_value ctr; /* the register that holds the count (value unused) */
};

/* The programming of one event set. */
struct set_prog {
	struct counter_prog *counters; /* in command-line order */
	size_t n_counters;
	struct reg_value *regs; /* other registers, in write order */
	size_t n_regs;
	char **notes; /* model remarks (e.g. range over-coverage), NULL-terminated or NULL */
};

void set_prog_release(struct set_prog *prog);
/* a model remark added to prog->notes, which stays NULL-terminated */
void set_prog_note(struct set_prog *prog, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* one more register written, after the others */
void set_prog_reg(struct set_prog *prog, enum reg_file file, unsigned num, uint64_t value);

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

/*
 * One option row of a model.  The CLI adds the rows of every registered
 * model to its option table (getopt, --help, the docs-drift list), records
 * each occurrence, and once the model is chosen hands them to the model's
 * apply() in command-line order: the model parses the value into its own
 * options struct.  An occurrence of another model's option is a usage error
 * naming that model.
 */
struct pmu_option {
	const char *long_name;
	const char *arg_name; /* NULL: takes no value */
	bool per_set; /* applies to the most recent -e, once per set */
	bool may_repeat; /* per-set flag that may be given again */
	const char *help;
	/* parse arg (NULL for a flag) into opts for set; a usage error names the option */
	int (*apply)(void *opts, size_t set, const char *arg, struct pf_error *err);
};

/* One event set to encode: parsed, nothing textual left to interpret. */
struct pmu_set_request {
	size_t set; /* index of the set, for messages */
	const struct event_spec *events; /* in list order */
	size_t n_events;
	const unsigned *plm; /* per event: its own privilege mask, 0 = not given */
	unsigned default_plm; /* -u/-k/-1/-2; 0 = not given: the model's default */
	bool system_wide;
	bool live; /* for a run, not --check: a model that cannot run here refuses */
	const void *opts; /* the model's parsed options, NULL = defaults */
};

/* One row of --dump-event-table: the same keys for every row of a model. */
typedef struct event_info table_row;

struct pmu_model {
	const char *name; /* --pmu=NAME */
	const char *title; /* in messages: "the Itanium 2 model" */
	const char *desc;
	int max_counters; /* per event set (one group) */
	bool can_run; /* can program a host it detects (else: dry run only) */
	unsigned plm_levels; /* PF_PLM* levels the PMU has */
	bool system_wide; /* --system-wide is implemented */
	bool register_dumps; /* --report reads its EAR/BTB register dumps (pfmon 3.x's) */
	bool family_metrics; /* -M also has the metrics of the PMU family libpfm4 detects */
	const char *default_events; /* no -e: these (comma list) */
	const char *default_software; /* no hardware PMU here: these instead (live models) */

	/* its own options (NULL if none), under a --help heading */
	const struct pmu_option *options;
	size_t n_options;
	const char *options_group;
	void *(*options_new)(size_t n_sets);
	void (*options_free)(void *opts);

	/* is this model the host's PMU? (cheap: no libpfm4 initialisation) */
	bool (*detect)(const struct pmu_model *m);
	/* the event table self-check: 0, or -1 with a message naming the bad row */
	int (*validate_table)(const struct pmu_model *m, char *msg, size_t len);
	/* every event name, table order; long = with unit-mask variants */
	int (*list_events)(const struct pmu_model *m, bool long_names, event_name_cb cb, void *arg,
			   struct pf_error *err);
	int (*event_info)(const struct pmu_model *m, const char *name, struct event_info *out,
			  struct pf_error *err);
	/* row i of --dump-event-table (key = column); 1 past the end, NULL if no table */
	int (*table_row)(const struct pmu_model *m, size_t i, table_row *out);
	/* validate, assign and encode one event set */
	int (*encode_set)(const struct pmu_model *m, const struct pmu_set_request *req, struct set_prog *out,
			  struct pf_error *err);
	/* the register's name ("PMC12", "IA32_PERFEVTSEL0"); NULL: file prefix + number */
	void (*reg_name)(const struct pmu_model *m, const struct reg_value *r, char *buf, size_t len);
	/* decode a register value into fields for -v; returns the field count */
	size_t (*decode_reg)(const struct pmu_model *m, const struct reg_value *r, struct reg_field *fields,
			     size_t max);
	/* key/value lines describing the PMU itself (-I --pmu=NAME); NULL if none */
	int (*describe)(const struct pmu_model *m, const void *opts, struct event_info *out,
			struct pf_error *err);
	/* did the model's options ask for describe() instead of a run (e.g. --pmu-info)? */
	bool (*wants_describe)(const void *opts);
};

/* does m run live on this machine (can_run, and its detect says so)? */
bool pmu_model_live_here(const struct pmu_model *m);

/* r's name, for printers */
void pmu_reg_name(const struct pmu_model *m, const struct reg_value *r, char *buf, size_t len);

/* One event set to encode, as given: the strings and their own levels. */
struct encode_set_opts {
	char *const *events; /* event strings as given */
	size_t n_events;
	const unsigned *event_plm; /* per event, 0 = not given; may be shorter than events */
	size_t n_event_plm;
};

/* What encoding needs of the command line; the CLI fills it. */
struct encode_opts {
	const struct encode_set_opts *sets;
	size_t n_sets;
	unsigned plm; /* -u/-k/-1/-2; 0 = the model's default */
	bool system_wide;
	bool live; /* for a run, not --check */
	const void *model_opts; /* the encoding model's parsed options, NULL = defaults */
};

/* Encode event set 'set' of o: parse its event strings, gather the
 * privilege masks and the model's parsed options, call m->encode_set. */
int pmu_encode_set(const struct pmu_model *m, const struct encode_opts *o, size_t set, struct set_prog *out,
		   struct pf_error *err);

/* Encode these events as one set under o's global options (o's sets unused). */
int pmu_encode_events(const struct pmu_model *m, const struct encode_opts *o, char *const *events, size_t n,
		      struct set_prog *out, struct pf_error *err);

/* Encode every event set of o into *sets (allocated).  *n_sets counts
 * the sets encoded, also on failure, so the caller releases them. */
int pmu_encode_config(const struct pmu_model *m, const struct encode_opts *o, struct set_prog **sets,
		      size_t *n_sets, struct pf_error *err);

/* the registry (src/pmu/registry.c) */
const struct pmu_model *pmu_model_find(const char *name);
const struct pmu_model *pmu_model_at(size_t i); /* NULL past the end */
/* the model whose register dumps --report reads, or NULL */
const struct pmu_model *pmu_model_dump_reader(void);
/* does --pmu=name (NULL: none given) name that model? */
bool pmu_model_reads_dumps(const char *name);
/* --pmu or $PFMON_PMU, else the host model */
const struct pmu_model *pmu_model_select(const char *name, struct pf_error *err);

#endif
