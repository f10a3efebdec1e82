/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one option table.  Every option is declared once, with its pfmon 3.x
 * name, its argument and its help line; getopt_long's tables and --help are
 * generated from it, and the docs-drift test compares it with the man page
 * and the shell completion.
 */
#ifndef PFMON_CLI_OPTIONS_H
#define PFMON_CLI_OPTIONS_H

#include <stdio.h>

#include "common/config.h"
#include "common/error.h"

struct cli_state; /* parsing state: the config plus the pending per-set options */

enum opt_arg {
	ARG_NONE,
	ARG_REQUIRED,
	ARG_OPTIONAL,
};

enum opt_store {
	STORE_CALL, /* apply() does the work */
	STORE_BOOL, /* sets the bool at offset in pf_config */
	STORE_STR, /* keeps the argument in the const char * at offset */
};

/* Where an option acts (opt_def.modes).  An option given outside its modes
 * is refused: no option is accepted and silently ignored. */
enum opt_mode {
	M_COUNT = 1u << 0, /* counting a command */
	M_SAMPLE = 1u << 1, /* sampling a command */
	M_REPORT = 1u << 2, /* --report FILE */
	M_CHECK = 1u << 3, /* --check */
	M_MERGE = 1u << 4, /* --merge FILES */
	M_SAVED = 1u << 5, /* --metrics-from FILE: metrics of saved counts */
	M_RUN = M_COUNT | M_SAMPLE,
	M_PROFILE = M_SAMPLE | M_REPORT,
	M_ANY = M_COUNT | M_SAMPLE | M_REPORT | M_CHECK | M_MERGE | M_SAVED,
};

struct opt_def {
	const char *long_name;
	const char *short_names; /* e.g. "u3": -u and -3 are this option */
	enum opt_arg arg;
	/* in --help; also what the shell completion offers (options_list_table):
	 * FILE, EVENT, EV1,EV2,..., PID, PID,... and TID,... */
	const char *arg_name;
	const char *group; /* section of --help; NULL: hidden from --help */
	enum opt_store store;
	size_t offset; /* STORE_BOOL, STORE_STR and opt_one_of: field of pf_config */
	int (*apply)(struct cli_state *st, const struct opt_def *o, const char *arg, struct pf_error *err);
	const char *help;
	unsigned modes; /* enum opt_mode bits */
};

/* Parse argv into cfg (pf_config_init first).  Returns 0, or -1 with err. */
int options_parse(int argc, char **argv, struct pf_config *cfg, struct pf_error *err);
/* An error that speaks of a long option given abbreviated says so first:
 * "'--smpl-period' was taken as --smpl-periods-random: ..." */
void options_explain_abbreviation(const struct pf_config *cfg, struct pf_error *err);
void options_usage(FILE *out);
/*
 * --list-opts: every name of every option but the hidden ones, a line each,
 * for the shell completion: "NAME none|required|optional [VALUES]", where
 * VALUES is the names the option accepts, space separated, or one of @file,
 * @event, @events (a comma-separated list of events), @pid, @pids (a
 * comma-separated list); no VALUES: any text.
 */
void options_list_table(FILE *out);
/* false, naming it, if a list of accepted names is kept for an option that
 * does not exist or takes no value (the unit test) */
bool options_names_known(const char **unknown);
/* the option table, for the checks of validate.c */
const struct opt_def *options_table(size_t *count);

struct pmu_model;

/*
 * After the mode and the model are known (and the default events chosen):
 * refuse every option given where it does nothing, options that contradict
 * each other, and values the kernel would refuse; then the model parses its
 * own options into cfg->model_opts.  0, or -1 with err (a usage error naming
 * the option).  model is NULL for --report.
 */
int options_validate(struct pf_config *cfg, const struct pmu_model *model, struct pf_error *err);

/* Only the model's own options, for -I: each must be m's; parsed into
 * cfg->model_opts in any mode. */
int options_apply_model(struct pf_config *cfg, const struct pmu_model *m, struct pf_error *err);

#endif
