/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Trigger addresses as the user gives them (pfmon 3.x): a number (an
 * address of the launched program as nm and objdump print it), a symbol,
 * or SYMBOL+OFFSET.  They are parsed with the command line and resolved
 * in the running program by the session, at its entry point, through the
 * ELF symbol tables of the program and of the libraries loaded then.
 */
#ifndef PFMON_CLI_TRIGGERS_H
#define PFMON_CLI_TRIGGERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/config.h"
#include "common/error.h"
#include "session/session.h"

struct trigger_spec {
	char *symbol;    /* NULL: a number */
	uint64_t value;  /* the address, or the offset after SYMBOL+ */
};

/* NULL and *out (symbol allocated), or why the text is not a trigger address */
const char *trigger_spec_parse(const char *text, struct trigger_spec *out);

/* the option that gives a kind of trigger, for messages */
const char *trigger_option_name(enum pf_trigger_kind kind);

/* what the session needs to apply cfg's triggers (resolve: see below) */
void trigger_session_opts(const struct pf_config *cfg, struct session_triggers *t);

/* The resolver the session calls: arg is the pf_config. */
int trigger_resolve(void *arg, pid_t pid, enum session_trigger_kind kind, size_t i, struct session_trigger_addr *out,
		    struct pf_error *err);

/* the checks of the trigger options against each other and the run */
int trigger_check_options(const struct pf_config *cfg, bool follows, struct pf_error *err);

/*
 * pfmon 3.x's --irange=SYMBOL, --drange=SYMBOL, --checkpoint-func=SYMBOL:
 * the symbol looked up in the command's symbol table (a function, or a data
 * object for --drange), resolved before the model parses its option: *out
 * the model's spelling ("0x1000-0x1040" for a range, the address alone for
 * --checkpoint-func), allocated; NULL when arg is not a symbol, or the
 * option takes none.  0, or -1 with err (no command, no such symbol).
 */
int model_symbol_resolve(const char *option, const char *arg, char *const *command, char **out,
			 struct pf_error *err);

#endif
