/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What to measure: the command line turned into data.  The CLI fills one
 * struct pf_config and reads it alone: src/cli/layer_opts.c translates it
 * into the small structs the layers below own (struct encode_opts, struct
 * record_opts, ...), so no layer below the CLI includes this header
 * (tests/check-layers.sh); the types they share with it live in theirs.
 *
 * Options that belong to a PMU model are recorded as given; the chosen model
 * parses them into a struct of its own, so nothing here knows any model.
 */
#ifndef PFMON_COMMON_CONFIG_H
#define PFMON_COMMON_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/job.h"
#include "event/plm.h"
#include "report/ia64_report.h"
#include "results/format.h" /* enum pf_counter_format, enum pf_output_kind */
#include "session/record_opts.h"

/* The four lists of trigger addresses (--trigger-{code,data}-{start,stop}-address) */
enum pf_trigger_kind {
	PF_TRG_CODE_START,
	PF_TRG_CODE_STOP,
	PF_TRG_DATA_START,
	PF_TRG_DATA_STOP,
	PF_TRG_KINDS,
};

/* One occurrence of a model's option row on the command line. */
struct pf_model_option {
	const char *model; /* the model's name */
	size_t row; /* in the model's option rows */
	size_t set; /* the event set it applies to (per-set rows) */
	const char *arg; /* NULL for a flag */
	char *resolved;  /* owned: arg with its symbol resolved (--irange=main), or NULL */
};

/* One event set (one -e).  Per-set options apply to the most recent -e,
 * as in pfmon 3.x. */
struct pf_set_config {
	char **events; /* event strings as given */
	size_t n_events;

	/* per event, parallel to events[]; 0 = use the global plm */
	unsigned *event_plm;
	size_t n_event_plm;

	/* sampling periods per event; 0 = not a sampling event */
	uint64_t *long_periods;
	size_t n_long_periods;
	uint64_t *short_periods;
	size_t n_short_periods;
	/* --smpl-periods-random, per event */
	struct pf_period_random *periods_random;
	size_t n_periods_random;
	/* perf record -c: the period of an event no per-event option gives one; 0 = none */
	uint64_t default_period;

	unsigned given; /* bit per per-set option seen, to refuse twice */
};

struct pf_config {
	struct pf_set_config *sets;
	size_t n_sets;

	unsigned plm; /* global privilege mask from -u/-k/-1/-2; 0 = default */
	const char *pmu; /* --pmu, NULL = host */
	bool verbose;
	bool check; /* --check / --check-events-only: validate, print programming */

	/* informational commands */
	bool list_events;
	bool long_list;
	const char *list_regex; /* -l[regex] */
	const char *event_info; /* -i */
	bool list_pmus; /* -I */
	bool dump_event_table;
	bool help, version;
	bool list_opts; /* --list-opts: the option table, for the shell completion */

	/* output */
	const char *outfile;
	bool append;
	bool with_header;
	enum pf_counter_format counter_format;
	enum pf_output_kind output_kind;
	const char *csv_sep;
	bool no_cmd_output;
	bool no_inherit;
	bool show_time;

	bool system_wide;
	/* system-wide results (perf stat): pfmon 3.x's per CPU, a file each
	 * with --outfile (PF_AGGR_DEFAULT); -A per CPU in one output; by
	 * topology (--per-core, ...: cache_level for --per-cache, 0 the highest) */
	enum pf_aggr { PF_AGGR_DEFAULT, PF_AGGR_CPU, PF_AGGR_CORE, PF_AGGR_DIE, PF_AGGR_SOCKET, PF_AGGR_NODE,
		       PF_AGGR_CACHE } aggr;
	const char *aggr_option; /* the option that chose it, for messages */
	int aggr_cache_level;
	int *cpu_list; /* --cpu-list/-C: the CPUs, ascending; NULL = every online CPU */
	size_t n_cpu_list;

	/* options of the PMU models, as given (the CLI records them; the chosen
	 * model parses them into model_opts, which it owns) */
	struct pf_model_option *model_options;
	size_t n_model_options;
	void *model_opts;
	const void *model_opts_owner; /* the model that made model_opts */
	void (*model_opts_free)(void *opts);

	/* perf's spellings resolved once every option is read (options_parse) */
	const char *perf_output; /* -o/--output: --outfile, or a perf.data when sampling */
	uint64_t perf_count;     /* -c/--count: every event's default period */
	bool perf_timestamp;     /* -T: samples carry their time (pfmon's always do) */
	uint64_t repeat;         /* -r/--repeat: runs of the command; 0 = one, no variance */
	unsigned detailed;       /* -d, -dd, -ddd: perf stat's detailed events, up to level 3 */
	bool null_run;           /* -n/--null: no counter, the command's times only */
	bool metric_no_group;    /* --metric-no-group: each metric event a set of its own */
	bool quiet;              /* -q/--quiet: no note or warning lines on stderr */

	/* sampling */
	const char *smpl_outfile;
	const char *smpl_format; /* pfmon (NULL) or perf: the sample file written */
	uint64_t compression_level; /* -z: perf.data's records compressed (zstd level), 0: not */
	const char *export_perf_data; /* --report: write the file read as perf.data */
	bool dump_aux;           /* --dump-aux: a perf.data file's AUX trace, packet by packet */
	uint64_t smpl_entries;
	bool resolve_addresses;
	uint64_t smpl_freq; /* frequency mode, Hz */
	bool callchain;     /* -g, --call-graph: record call chains */
	bool callchain_dwarf; /* --call-graph=dwarf: user stacks copied, unwound at report time */
	bool callchain_lbr;   /* --call-graph=lbr: user call stacks from the LBR (perf's attr) */
	bool stitch_lbr;      /* --stitch-lbr: LBR call stacks deeper than the LBR, stitched as perf does */
	uint32_t stack_dump_size; /* --call-graph=dwarf,SIZE: bytes of user stack per sample */
	bool smpl_data_addr, smpl_weight, smpl_data_src, smpl_branch_stack;
	uint64_t branch_filter; /* perf record -j (--branch-filter), -b: branch_sample_type; 0 = pfmon's */
	uint64_t mmap_pages;    /* perf record -m: ring pages per CPU; 0 = pfmon's choice */
	const char *mmap_pages_rounded; /* -m's value when it was not the pages (noted) */
	const char *report_file; /* report from a sample file */
	const char *report_sort; /* function, line, binary */
	const char *report_format; /* text, json, folded, script */
	bool no_demangle; /* --no-demangle: C++ and Rust names as in the symbol table */
	bool annotate;    /* --annotate[=FUNCTION]: annotated functions instead of the profile */
	const char *annotate_function; /* its FUNCTION, or NULL: the hottest */
	const char *source_root; /* --source-root: where --annotate finds moved sources */
	const char *smpl_module; /* --smpl-module: Itanium 2 dump reports (pfmon 3.x's modules) */
	uint64_t smpl_show_top;
	uint64_t smpl_cum_threshold;
	const char *smpl_module_info; /* -S: describe a sampling module */
	enum pf_smpl_view smpl_view;
	enum pf_smpl_sort smpl_sort;
	bool smpl_view_given, smpl_sort_given;
	bool smpl_compact;      /* inst-hist: one row per sample (pfmon 3.9) */
	bool smpl_print_counts; /* also print the totals after a sampling output */
	const char *symbol_file; /* --symbol-file: an ELF naming Itanium 2 addresses no map covers */
	const char *sysmap_file; /* --sysmap-file: a System.map doing the same */
	bool print_syms;         /* --print-syms: print the table of one of them */
	bool smpl_ignore_pids;   /* system-wide profiles: every process's samples together */
	bool smpl_per_function;  /* --smpl-per-function: histograms by function */
	bool smpl_raw;           /* --smpl-raw: the samples to --smpl-outfile, no profile */
	bool saturate_smpl;      /* --saturate-smpl-buffer: the ring read once, at the end */
	bool demangle_java;      /* --demangle-java: JIT names from /tmp/perf-PID.map */

	/* attaching: -p/--attach-task/--pid (processes) or --tid (threads) */
	int *attach;
	size_t n_attach;
	bool attach_threads;
	uint64_t session_timeout_ns; /* -t SECS (fractions too), in ns; 0 = none */
	uint64_t print_interval;  /* --print-interval, ms; 0 = none */
	uint64_t interval_count;  /* --interval-count: end after N intervals; 0 = none */

	/* following a command's tasks (pfmon 3.x) and per-task results */
	bool follow_fork, follow_vfork, follow_pthread, follow_exec;
	const char *follow_exec_pattern; /* --follow-exec=REGEX */
	const char *follow_exec_exclude;
	bool exec_split;  /* --exec-split-results */
	bool aggregate;   /* --aggregate-results */
	bool per_thread;  /* --per-thread (perf) */
	bool pin_command; /* --pin-command: the command runs on --cpu-list's CPUs */
	bool cpu_set_relative; /* --cpu-set-relative: --cpu-list counts in pfmon's affinity set */
	bool exclude_idle;     /* --exclude-idle: system-wide, not in the idle task */
	uint64_t switch_timeout_ns; /* --switch-timeout: pfmon rotates the event sets; 0: the kernel */
	unsigned debug;        /* --debug[=LEVEL]: debug lines on stderr */

	/* triggers (pfmon 3.x): the addresses or symbols given, each entry of
	 * each list apart */
	char **triggers[PF_TRG_KINDS];
	size_t n_triggers[PF_TRG_KINDS];
	bool code_trigger_repeat, code_trigger_follow;
	bool data_trigger_repeat, data_trigger_follow;
	bool data_trigger_ro, data_trigger_wo;
	uint64_t trigger_start_delay_ns; /* --trigger-start-delay SECS (fractions too), in ns; 0 = none */
	bool dont_start;

	/* derived metrics (-M, --metrics-file, --show-metrics, --metric-only) */
	const char **metric_args; /* each -M value as given (comma lists) */
	size_t n_metric_args;
	const char *metrics_file;
	const char *metrics_from; /* --metrics-from FILE: saved counts */
	bool show_metrics;
	const char *show_metrics_regex; /* --show-metrics=REGEX */
	bool metric_only;

	char **command; /* argv of the command, NULL-terminated; NULL if none */
	char **own_argv; /* pfmon's own command line, NULL-terminated */
	int own_argc;

	/* cluster runs: this rank's identity (the launcher's environment), the
	 * output names with their %-escapes expanded (owned), --merge's inputs */
	struct job_identity job;
	bool job_known;
	char *outfile_expanded, *smpl_outfile_expanded; /* outfile, smpl_outfile point here */
	bool outfile_escaped; /* the --outfile name had a job escape (%r, %s, %h, %p, %j) */
	char **merge_files; /* argv entries */
	size_t n_merge_files;
	bool merge;
	bool merge_ranks; /* --merge-ranks: per-rank rows too */

	/* which rows of the CLI's option table were given, for its checks */
	bool *options_given;
	/* the long options given abbreviated (getopt_long takes a unique
	 * prefix): what was typed (owned) and the option it was taken as */
	struct pf_abbreviation {
		char *typed;
		const char *taken;
	} *abbreviations;
	size_t n_abbreviations;
};

void pf_config_init(struct pf_config *cfg);
void pf_config_release(struct pf_config *cfg);
void pf_set_config_release(struct pf_set_config *s);
/* does the configuration ask for samples (a period in any set, a frequency or a sample file)? */
bool pf_config_is_sampling(const struct pf_config *cfg);
/* The privilege mask asked for an event: its own, else the global one, else
 * 0 = nothing asked; the model applies its default (pfmon's: user level for
 * hardware events; software events count at every level, as perf does). */
unsigned pf_config_event_plm(const struct pf_config *cfg, size_t set, size_t ev);

#endif
