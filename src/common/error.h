/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one error list of pfmon.
 *
 * Every error pfmon can report is one row of PF_ERRORS: its code, the exit
 * status main() turns it into, and the printf format of its message.  The
 * enum and the message table are both generated from the list, so a message
 * cannot drift from its code.  Deep code fills a struct pf_error and returns
 * it; only main() prints it (one line, "error: ...") and decides the status.
 */
#ifndef PFMON_COMMON_ERROR_H
#define PFMON_COMMON_ERROR_H

#include <stdarg.h>

/* exit statuses */
#define PF_EXIT_ERROR 1 /* pfmon's own errors */
#define PF_EXIT_USAGE 2 /* bad command line */

/*   X(code,              exit status,   message format) */
#define PF_ERRORS(X) \
	X(OK,               0,             "success") \
	X(NOMEM,            PF_EXIT_ERROR, "out of memory") \
	X(USAGE,            PF_EXIT_USAGE, "%s") \
	X(BAD_OPTION_VALUE, PF_EXIT_USAGE, "invalid value '%s' for option '--%s': %s") \
	X(OPTION_TWICE,     PF_EXIT_USAGE, "option '--%s' given twice for event set %d") \
	X(NO_COMMAND,       PF_EXIT_USAGE, "you need to specify a command to measure") \
	X(UNKNOWN_PMU,      PF_EXIT_USAGE, "unknown PMU model '%s' (try 'pfmon -I')") \
	X(EVENT_SYNTAX,     PF_EXIT_USAGE, "invalid event '%s': %s") \
	X(UNKNOWN_EVENT,    PF_EXIT_USAGE, "unknown event '%s'%s") \
	X(BAD_UMASK,        PF_EXIT_USAGE, "event '%s': invalid unit mask '%s'%s") \
	X(BAD_MODIFIER,     PF_EXIT_USAGE, "event '%s': %s") \
	X(TOO_MANY_EVENTS,  PF_EXIT_USAGE, "too many events in event set %d: %d given, at most %d fit in one group") \
	X(NO_MATCH,         PF_EXIT_ERROR, "no event matches '%s'") \
	X(BAD_REGEX,        PF_EXIT_USAGE, "invalid regular expression '%s': %s") \
	X(LIBPFM,           PF_EXIT_ERROR, "libpfm4: %s: %s") \
	X(CONSTRAINT,       PF_EXIT_ERROR, "%s (rule %s)") \
	X(NOT_THIS_HOST,    PF_EXIT_ERROR, "%s") \
	X(NO_HW_PMU,        PF_EXIT_ERROR, "cannot count '%s': the kernel exposes no hardware PMU (as in most VMs); software events such as task-clock, page-faults and context-switches still work") \
	X(NOT_SUPPORTED,    PF_EXIT_ERROR, "cannot count '%s': %s") \
	X(BREAKPOINTS_SILENT, PF_EXIT_ERROR, "cannot open '%s': hardware breakpoints do not fire on this machine (a probe breakpoint on pfmon's own code counted 0 hits, as under a hypervisor that does not pass debug exceptions to its guests)") \
	X(CANNOT_SAMPLE,    PF_EXIT_ERROR, "cannot sample '%s': %s") \
	X(PERM,             PF_EXIT_ERROR, "cannot open '%s': permission denied (kernel.perf_event_paranoid = %d); %s") \
	X(OPEN,             PF_EXIT_ERROR, "cannot open '%s': %s") \
	X(READ,             PF_EXIT_ERROR, "cannot read counter '%s': %s") \
	X(COMMAND_NOT_FOUND, 127,          "cannot execute '%s': %s") \
	X(FORK,             PF_EXIT_ERROR, "cannot start '%s': %s") \
	X(NO_SUCH_TASK,     PF_EXIT_ERROR, "cannot attach to %d: %s") \
	X(CPU_PERM,         PF_EXIT_ERROR, "system-wide monitoring is not permitted: it needs CAP_PERFMON (or CAP_SYS_ADMIN), or kernel.perf_event_paranoid <= 0 (it is %d)") \
	X(TASK_PERM,        PF_EXIT_ERROR, "cannot attach to %d: permission denied (%s)") \
	X(INTERRUPTED,      130,           "interrupted") \
	X(OUTPUT,           PF_EXIT_ERROR, "cannot write '%s': %s") \
	X(INPUT,            PF_EXIT_ERROR, "cannot read '%s': %s") \
	X(BAD_FILE,         PF_EXIT_ERROR, "'%s': %s") \
	X(SYMBOL,           PF_EXIT_ERROR, "'%s': %s") \
	X(DUMP_LINE,        PF_EXIT_ERROR, "'%s' line %d: %s '%s'") \
	X(KSYMS_HIDDEN,     PF_EXIT_ERROR, "'%s' shows every kernel address as 0: kernel.kptr_restrict hides them, or pfmon lacks CAP_SYSLOG") \
	X(COUNTS_LINE,      PF_EXIT_ERROR, "'%s' line %d: %s") \
	X(METRIC_DEF,       PF_EXIT_ERROR, "%s line %d: %s") \
	X(METRIC,           PF_EXIT_ERROR, "metric '%s': %s") \
	X(UNKNOWN_METRIC,   PF_EXIT_USAGE, "unknown metric or metric group '%s' (see 'pfmon --show-metrics')") \
	X(TRIGGER,          PF_EXIT_ERROR, "trigger '%s' (--%s): %s") \
	X(TRIGGER_BP_SAMPLED, PF_EXIT_ERROR, "cannot sample '%s' at a code trigger's own address: the kernel takes its samples there before the trigger switches the counters (counting it is exact)") \
	X(TRIGGER_NO_DEBUGREG, PF_EXIT_ERROR, "data triggers need the debug registers, and hardware breakpoints do not fire on this machine (a probe breakpoint on pfmon's own code counted 0 hits, as under a hypervisor that does not pass debug exceptions to its guests)") \
	X(SYSTEM,           PF_EXIT_ERROR, "%s: %s")

#define PF_ERR_ENUM(code, status, fmt) PF_E_##code,
enum pf_errcode { PF_ERRORS(PF_ERR_ENUM) PF_E_COUNT };
#undef PF_ERR_ENUM

#define PF_ERROR_MSG_MAX 768

#define PF_ERROR_RULE_MAX 16
#define PF_ERROR_MAX_EVENTS 8

struct pf_error {
	enum pf_errcode code;
	char msg[PF_ERROR_MSG_MAX]; /* formatted message, without "error: " */
	/* PF_E_CONSTRAINT: the violated rule ("C-L2-5") and the events of the
	 * set that violate it (indexes in list order), as fields */
	char rule[PF_ERROR_RULE_MAX];
	unsigned n_events;
	unsigned events[PF_ERROR_MAX_EVENTS];
};

/* Fill err from the list's format for code; returns -1 so callers can
 * write "return pf_error_set(err, ...);". err may be NULL. */
int pf_error_set(struct pf_error *err, enum pf_errcode code, ...);
int pf_error_vset(struct pf_error *err, enum pf_errcode code, va_list ap);

/* A line of a text input is wrong (saved counts, metric definitions): code's
 * format takes the origin, the line number and the reason, which is
 * formatted from fmt.  Returns -1. */
int pf_error_line(struct pf_error *err, enum pf_errcode code, const char *origin, int line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* A hardware rule broken by events of a set: fills rule and events (bit i of
 * event_mask: event i of the set) and formats the message from what and the
 * rule.  Returns -1. */
int pf_error_constraint(struct pf_error *err, const char *rule, unsigned event_mask, const char *what);

const char *pf_error_format(enum pf_errcode code);
int pf_error_exit_status(enum pf_errcode code);
const char *pf_error_name(enum pf_errcode code);

#endif
