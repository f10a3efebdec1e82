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

/*
 * The usage errors are grouped by what is wrong with the command line: an
 * option that needs another (OPTION_NEEDS), options that do not go together
 * (OPTIONS_EXCLUDE), an option that does nothing in this mode or with this
 * input (OPTION_NOT_USED, OPTION_APPLIES), a model's option (OPTION_FOR_MODEL),
 * what is not implemented yet (NOT_IMPLEMENTED), counts over a limit
 * (TOO_MANY, LIST_TOO_LONG), bad environment values (BAD_ENV), inputs of a
 * merge that disagree (MERGE_*).  The subject of an option row is the option
 * as typed ("--append", "-u"); a trailing %s is the reason (" (it is for
 * counting)", ": choose one output format") or empty.  The formats take %s
 * and %d only (format_escaped).
 *
 *   X(code,              exit status,   message format) */
#define PF_ERRORS(X) \
	X(OK,               0,             "success") \
	X(NOMEM,            PF_EXIT_ERROR, "out of memory") \
	X(BAD_OPTION_VALUE, PF_EXIT_USAGE, "invalid value '%s' for option '--%s': %s") \
	X(PERIOD_NONE,      PF_EXIT_USAGE, "option '--smpl-periods-random': event %d of set %d ('%s') has no period to randomize: give it one with --long-smpl-periods or --short-smpl-periods") \
	X(PERIOD_OVERFLOW,  PF_EXIT_USAGE, "option '--smpl-periods-random': event %d of set %d: period %s plus mask 0x%s can reach 2^63, which the kernel refuses") \
	X(FREQ_ABOVE_LIMIT, PF_EXIT_USAGE, "option '--smpl-freq': %s Hz is above the kernel's limit of %s Hz (kernel.perf_event_max_sample_rate)") \
	X(LEVELS_ITANIUM,   PF_EXIT_USAGE, "option '--priv-levels': levels 1 and 2 exist only on Itanium (the %s model has u and k)") \
	X(OPTIONS_EXCLUDE,  PF_EXIT_USAGE, "options '%s' and '%s' cannot be combined%s") \
	X(OPTION_NEEDS,     PF_EXIT_USAGE, "option '%s' needs %s%s") \
	X(OPTION_NOT_USED,  PF_EXIT_USAGE, "option '%s' is not used %s%s") \
	X(OPTION_APPLIES,   PF_EXIT_USAGE, "option '%s' applies to %s") \
	X(NOT_IMPLEMENTED,  PF_EXIT_USAGE, "option '%s' is not implemented %s yet%s") \
	X(HOST_CANNOT,      PF_EXIT_USAGE, "option '%s' cannot act on Linux perf_event: %s") \
	X(OPTION_OBSOLETE,  PF_EXIT_USAGE, "option '%s' is obsolete (pfmon 2.0): use %s") \
	X(OPTION_FOR_MODEL, PF_EXIT_USAGE, "option '%s' is for the %s model (--pmu=%s)") \
	X(LIST_TOO_LONG,    PF_EXIT_USAGE, "option '--%s' has %d entries but event set %d has %d event%s") \
	X(TOO_MANY,         PF_EXIT_USAGE, "%d %s: more than the %d %s") \
	X(UNKNOWN_OPTION,   PF_EXIT_USAGE, "unknown option '%s' (see 'pfmon --help')") \
	X(AMBIGUOUS_OPTION, PF_EXIT_USAGE, "unknown or ambiguous option '%s' (see 'pfmon --help')") \
	X(PERF_SPELLING,    PF_EXIT_USAGE, "option '%s %s': %s is pfmon's %s; perf's %s %s (%s) is %s%s in pfmon") \
	X(BAD_ENV,          PF_EXIT_USAGE, "%s='%s': %s") \
	X(READ_THREADS,     PF_EXIT_USAGE, "PFMON_READ_THREADS='%s': give a number of threads from 0 to %d") \
	X(JOB_RANK,         PF_EXIT_USAGE, "the launcher's rank %d (%s) is not below its job size %d (%s)") \
	X(MERGE_JOBS,       PF_EXIT_USAGE, "'%s' and '%s' are of different jobs ('%s' and '%s'): merge one job at a time") \
	X(MERGE_SIZES,      PF_EXIT_USAGE, "'%s' and '%s' have different job sizes (%d and %d)") \
	X(MERGE_RANK,       PF_EXIT_USAGE, "'%s' and '%s' are both rank %d%s") \
	X(MERGE_EVENTS,     PF_EXIT_USAGE, "'%s' and '%s' %s different events%s: merge files of one pfmon command line") \
	X(MERGE_ENCODING,   PF_EXIT_USAGE, "'%s' and '%s' programmed '%s' differently (%s; %s)") \
	X(MERGE_NO_JOB,     PF_EXIT_USAGE, "'%s' records no job (written by a pfmon before sample format 1.4, or not by a rank): it cannot be merged") \
	X(MERGE_MIXED,      PF_EXIT_USAGE, "--merge: %s and %s cannot be merged together") \
	X(MERGE_NO_FILE,    PF_EXIT_USAGE, "--merge: the directories given hold no file") \
	X(UNKNOWN_MODULE,   PF_EXIT_USAGE, "unknown sampling module '%s' (modules: %s; 'pfmon -S NAME' describes one)") \
	X(MODULE_NEEDS,     PF_EXIT_USAGE, "the %s module needs %s: %s") \
	X(BINARY_TTY,       PF_EXIT_USAGE, "the %s report is binary and standard output is a terminal: redirect it to a file") \
	X(PERF_DATA_STDOUT, PF_EXIT_USAGE, "perf.data cannot go to standard output (its header is completed at the end): give a file") \
	X(NO_SUCH_SET,      PF_EXIT_ERROR, "event set %d does not exist (the configuration has %d)") \
	X(NO_EVENT_TABLE,   PF_EXIT_USAGE, "option '--dump-event-table': the %s model has no event table (see 'pfmon --pmu=%s -I')") \
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
	X(LIBRARY,          PF_EXIT_ERROR, "cannot load %s: %s") \
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
	X(STITCH_LBR_FILE,  PF_EXIT_ERROR, "option '--stitch-lbr' cannot act on '%s': %s") \
	X(STITCH_LBR_HOST,  PF_EXIT_ERROR, "option '--stitch-lbr' cannot act on this machine: its cpu PMU names no LBR depth (%s/cpu/caps/branches): it records no LBR call stacks") \
	X(SYMBOL,           PF_EXIT_ERROR, "'%s': %s") \
	X(ANNOTATE_NONE,    PF_EXIT_ERROR, "--annotate=%s: no sampled function has that name%s") \
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
