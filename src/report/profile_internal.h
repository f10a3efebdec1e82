/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the profile (report/profile*.c): the histograms, the counter
 * streams of read counts, and the functions the files share.
 *
 *   profile.c        options' names, adding records, finishing, printing's dispatch
 *   profile_keys.c   what a sample is counted under: its typed key, by sort;
 *                    the keys named at the end
 *   profile_reads.c  the increases of counts recorded in samples
 *   profile_stacks.c call stacks: typed with their process, named for folded
 *                    stacks or the flame graph (flame.c)
 *   profile_print.c  text, JSON and folded output
 *   profile_pprof.c  pprof's profile.proto, gzip-compressed
 */
#ifndef PFMON_REPORT_PROFILE_INTERNAL_H
#define PFMON_REPORT_PROFILE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/hashtab.h"
#include "common/strmap.h"
#include "common/u64set.h"
#include "common/util.h"
#include "annotate.h"
#include "kernel_check.h"
#include "profile.h"
#include "symbol/symbol.h"
#include "trace_format.h"

/*
 * What a sample is counted under, as typed data: a frame is where it ran
 * and what the symbolizer answered, never text.  Keys are named (turned
 * into text) only when the profile is finished, kernel frames included,
 * so no byte of a path or symbol can be taken for anything else.  A
 * sample's key is one frame; a folded stack is its frames, leaf first.
 */
enum frame_kind {
	FRAME_USER,          /* res: the answer (NULL never: an unmapped ip has one too) */
	FRAME_KERNEL,        /* addr: a host kernel address, named or lumped at the end */
	FRAME_GUEST_KERNEL,  /* "[guest kernel]": never this kernel's */
	FRAME_RAW,           /* addr: pfmon's instruction histogram, nothing resolved */
	FRAME_DATA,          /* res: the data address's answer, addr the address */
	FRAME_NO_DATA,       /* a sample without a data address */
	FRAME_COMM,          /* addr: the index of a process's name in comms (PROF_COMM_PID0:
			      * pid 0's, named at the end): a stack's root */
	FRAME_PID,           /* addr: the process a by-process key starts with */
	FRAME_UNWIND_END,    /* addr: why an unwound stack ends early (enum sym_unwind_end) */
	/* the memory keys: addr is the part of the data source the key's name
	 * reads (data_src_part()), or the sample's weight */
	FRAME_MEM,
	FRAME_SNOOP,
	FRAME_TLB,
	FRAME_LOCK,
	FRAME_BLOCKED,
	FRAME_WEIGHT,
	/* the data-type keys: addr is the name (the resolver's string), 0 unknown */
	FRAME_TYPE,
	FRAME_TYPEOFF,
	/* WEIGHT_STRUCT's var3_w: addr is its value */
	FRAME_P_STAGE_CYC,
};

/* pid 0's root frame: its name is known only once every record is read */
#define PROF_COMM_PID0 UINT64_MAX

struct prof_frame {
	enum frame_kind kind;
	const struct sym_result *res;
	uint64_t addr;       /* 0 when the key does not show it */
};

/* JSON: the frames a named key's separate fields are taken from, of the
 * entry with the most samples among those the name covers */
struct prof_key_fields {
	struct prof_frame code;
	uint64_t count; /* of the entry the frames are from */
	uint32_t pid;   /* by process: the key's pid */
	struct prof_frame mem[PROFILE_MAX_KEYS]; /* unused ones: FRAME_NO_DATA */
};

/* one key and what was counted under it */
struct prof_entry {
	struct prof_frame *frames; /* NULL: empty slot */
	uint32_t n;
	uint64_t count;
	uint64_t period; /* pprof: the sum of the samples' periods */
	uint64_t reads[SAMPLE_MAX_READ]; /* increases of the counts read in samples */
	/* branches and blocks (profile_branches.c): of count, how many were
	 * mispredicted, how many had cycles recorded and their sum */
	uint64_t mispred, timed, cycles;
};

struct prof_keymap {
	struct hashtab tab; /* of struct prof_entry */
};

struct event_hist {
	char *name;
	bool tracepoint;         /* PERF_TYPE_TRACEPOINT: its samples carry a payload */
	bool raw;                /* PERF_TYPE_RAW: perf script shows its memory fields */
	bool clock;              /* task-clock or cpu-clock: its periods are nanoseconds */
	uint64_t period;
	bool freq;
	uint64_t random_mask;         /* --smpl-periods-random */
	uint64_t min_period, max_period; /* of the samples, to show randomization at work */
	uint64_t samples;
	uint64_t period_sum;     /* of its samples (pprof: the events they stand for) */
	bool counting;           /* not sampled: read in other events' samples */
	uint32_t n_reads;        /* events whose counts each sample records */
	uint32_t reads[SAMPLE_MAX_READ];
	struct prof_keymap counted; /* typed keys, as samples come */
	struct prof_keymap stacks;  /* pprof: this event's call stacks, typed */
	/* named when finished, for the printers: */
	struct strmap keys;
	struct strmap read_sums[SAMPLE_MAX_READ]; /* per key: the counts' increases */
	/* JSON: each named key's frames, for its separate fields */
	struct strmap key_index; /* name -> index + 1 in key_fields */
	struct prof_key_fields *key_fields;
	size_t n_key_fields, cap_key_fields;
	/* a merge of several files (pfmon --merge): each source's own counts,
	 * typed as they come, named when finished */
	struct prof_keymap *source_counted;
	struct strmap *source_keys;
};

/* JSON: a named stack's frames (leaf first): of the typed stacks with the
 * name, the one prof_stands_first() */
struct prof_stack {
	struct prof_frame *frames;
	uint32_t n;
	uint64_t count;
};

/*
 * The counts of a sample's non-sampling events are running totals of one
 * counter: with inherited per-CPU events, that of the sampled thread on the
 * sample's CPU.  Their increase since that counter's previous sample is what
 * happened in the interval the sample ends, and is credited to its key.
 */
struct read_stream {
	uint32_t evidx, tid, cpu;
	bool used;
	uint64_t last[SAMPLE_MAX_READ];
};

struct read_streams {
	struct hashtab tab; /* of struct read_stream */
};

/* --report-format=script: the samples one by one; their frames are typed
 * as the stacks' are (user frames resolved as the sample came), with each
 * frame's ip in addr (a marker's: why the unwinding ended) */
struct prof_script_sample {
	uint32_t fields, evidx, tid, cpu;
	uint64_t time, period;
	uint32_t comm;      /* index + 1 in the profile's comms, 0: none known,
			     * UINT32_MAX: pid 0's (prof_pid0_name()) */
	bool chain;         /* the sample has a call chain */
	size_t first;       /* its frames in frames[] */
	uint32_t n;
	bool payload;       /* a tracepoint's, printed as perf script does */
	size_t payload_at, payload_len; /* in the script's text */
	/* a PERF_TYPE_RAW event's memory fields (those of s->fields) */
	uint64_t addr, data_src, weight, phys_addr;
	uint32_t ins_lat;
};

struct prof_script {
	struct prof_script_sample *samples;
	size_t n, cap;
	struct prof_frame *frames;
	size_t n_frames, cap_frames;
	struct strbuf text;          /* the tracepoint payloads */
	struct trace_format *trace;  /* their formats, when the file has them */
	char *trace_error;           /* why they do not print, when it has them */
	int name_width;              /* perf script's: the longest event name */
	int data_src_width;          /* perf script's: the widest data source yet */
};

/* pprof: what the file's header says of the run, for the profile's comments */
struct prof_pprof_info {
	char *command;           /* the command monitored, its words joined, or NULL */
	char *recorder;          /* the recorder's command line, or NULL */
	uint64_t created_ns;     /* CLOCK_REALTIME at the start, 0: unknown */
	uint64_t first_time, last_time; /* of the samples with a time (sample clock) */
};

/* a named branch pair or block, with what was counted under it */
struct prof_branch_row {
	char *from, *to;   /* a block: its first and last instruction */
	char *line;        /* a block: its first instruction's source line, or NULL */
	uint64_t count, mispred, timed, cycles;
	/* --report-format=fdata: each end's function and offset, or none */
	const char *from_func, *to_func;
	uint64_t from_off, to_off;
};

/* Samples' branch stacks (profile_branches.c): typed as they come,
 * named when finished */
struct prof_branches {
	struct prof_keymap pairs;  /* [from, to], per address */
	struct prof_keymap blocks; /* [first, last instruction] */
	uint64_t samples;          /* samples with a branch stack */
	uint64_t branches, blocks_run;
	uint64_t broken;           /* ranges that cannot be a block (backwards, too long, across binaries) */
	uint64_t timed;            /* branches with cycles recorded */
	uint64_t reserved_bits;    /* perf flag bits no known kernel defines, ORed */
	uint64_t reserved_entries; /* and the branches that had any */
	struct prof_branch_row *rows;
	size_t n_rows, cap_rows;
	struct strmap row_index;   /* "from\nto" -> index + 1 in rows */
	uint64_t total;            /* of the rows' counts */
	struct strbuf brstack;     /* --report-format=brstack: the lines, in sample order */
};

/* the HTML report's parts besides the profile by function */
enum { PROF_HTML_LINES, PROF_HTML_FLAME, PROF_HTML_ANNOTATE, PROF_HTML_PARTS };
struct prof_html_header;

struct profile {
	struct profile_opts opts;
	struct sym_resolver *res;
	/* an HTML page's part: res is the page's, which alone frees it and
	 * feeds it the mappings and kernel symbols of the records */
	bool res_shared;
	struct event_hist *ev;
	size_t n_ev;
	struct prof_keymap stacks; /* call stacks, typed */
	struct strmap folded;      /* and named when finished: folded stacks */
	struct strmap stack_index; /* JSON: name -> index + 1 in stack_reps */
	struct prof_stack *stack_reps;
	size_t n_stack_reps, cap_stack_reps;
	struct flame *flame;       /* SVG: the flame graph's tree instead */
	char **comms;              /* the process names seen, each once */
	size_t n_comms, cap_comms;
	struct strmap comm_ids;    /* a name's index in comms + 1 */
	struct u64set task_comm;   /* a thread's id -> the index of its name */
	/* pid 0 is the idle task, and in a file recorded inside a pid
	 * namespace also every task outside it (the kernel reports those as
	 * pid 0): records of pid 0, or its samples in user mode, say so */
	bool pid0_shared;
	uint64_t pid0_user_samples;
	struct read_streams streams;
	uint64_t lost, throttled;
	struct smpl_status status;
	bool have_status;
	struct kernel_check kernel; /* may the running kernel's symbols be used? */
	struct u64set kernel_ips;   /* every host kernel address sampled, call chains too */
	bool kernel_recorded;       /* the file keeps the kernel symbols (SREC_KSYM), or the user gave them */
	bool kernel_given;          /* --symbol-file / --sysmap-file: the file's own are not used */
	bool kernel_named;          /* finished: kernel frames have names, not a lump */
	bool finished;
	size_t n_sources, source; /* a merge: how many files, the one being added */
	struct sym_unwinder *unwinder;   /* --call-graph=dwarf stacks, made on the first */
	struct sample_out *binaries_to;  /* recording: where binary identities go */
	struct strmap binaries_seen;     /* and the paths already recorded */
	struct prof_script script;
	struct prof_pprof_info pprof;
	struct annotate *annotate; /* --annotate: samples counted there instead */
	struct pf_error annotate_err;
	bool annotate_failed;
	struct prof_branches br;
	/* --report-format=html: the other views of the same records, each a
	 * profile of its own fed what this one is (profile_html.c) */
	struct profile *html_parts[PROF_HTML_PARTS];
	struct prof_html_header *html_header; /* the file's header, for the summary */
};

/* profile_keys.c */
/* Of two typed keys or stacks with one name, the one JSON shows the frames
 * of: the one counted more, of equals the one with lower addresses (leaf
 * first).  Never the first one met: the order of a hash map is not the
 * same from run to run (its keys hold pointers). */
bool prof_stands_first(const struct prof_frame *a, uint32_t na, uint64_t ca, const struct prof_frame *b, uint32_t nb,
		       uint64_t cb);
enum frame_kind prof_frame_kind(uint8_t cpumode);
/* the typed key of a sample by the profile's sort */
struct prof_frame prof_sample_frame(struct profile *p, const struct sample *s);
/* a sample's key by every key of the profile, in order: how many frames */
uint32_t prof_sample_key(struct profile *p, const struct sample *s, struct prof_frame *key);
/* its memory keys' frames alone, last key first (a folded stack's leaves) */
uint32_t prof_mem_frames(struct profile *p, const struct sample *s, struct prof_frame *f);
/* a memory key's frame (FRAME_MEM .. FRAME_WEIGHT)? its name into sb */
bool prof_is_mem_frame(enum frame_kind k);
void prof_mem_frame_name(const struct prof_frame *f, struct strbuf *sb);
/* the --report-sort name of a memory frame's key ("mem", "weight") */
const char *prof_mem_frame_key(enum frame_kind k);
/* count samples under key (n frames); the entry, for the counts read in the sample */
struct prof_entry *prof_keymap_add(struct prof_keymap *m, const struct prof_frame *key, uint32_t n, uint64_t count);
void prof_keymap_release(struct prof_keymap *m);
/* the next entry at or after slot *i, in no order, or NULL:
 * for (size_t i = 0; (e = prof_keymap_next(m, &i));) ... */
struct prof_entry *prof_keymap_next(const struct prof_keymap *m, size_t *i);
const char *prof_base_name(const char *path);
struct prof_frame prof_user_frame(struct profile *p, uint32_t pid, uint64_t ip, bool show_ip);
/* "function [module]", or its address when no symbol covers it */
void prof_kernel_frame_name(struct strbuf *sb, const struct sym_result *r, uint64_t ip);
/* the context (kernel, user, guest) a callchain marker starts */
uint8_t prof_context_cpumode(uint64_t marker);

/* profile_unwind.c: the frames of a sample with a user stack (--call-graph=dwarf),
 * leaf first: the kernel's call chain, then the unwound user frames, then a
 * marker frame when they end before the outermost one; show_ip keeps each
 * user frame's ip (perf script's lines show it) */
size_t prof_unwound_frames(struct profile *p, const struct sample *s, bool show_ip, struct prof_frame *f,
			   size_t max);
/* Name every key (after the kernel's symbols are known): into keys and
 * read_sums; entries whose names are equal add up. */
void prof_name_keys(struct profile *p, struct event_hist *h);

/* profile_stacks.c */
/* COMM and FORK records: which name each thread has */
void prof_set_comm(struct profile *p, uint32_t tid, const char *comm);
void prof_fork_comm(struct profile *p, uint32_t ptid, uint32_t tid);
void prof_release_comms(struct profile *p);
/* the name records gave process pid (pid 0's: prof_pid0_name()), or NULL */
const char *prof_comm_of(const struct profile *p, uint32_t pid);
/* "swapper", as perf names the idle task; PROF_PID0_SHARED when pid 0
 * also stands for tasks outside the recorder's pid namespace */
const char *prof_pid0_name(const struct profile *p);
#define PROF_PID0_SHARED "[other pid namespace]"
/* a sample's call stack, its process at the root, counted in m */
struct prof_entry *prof_add_stack(struct profile *p, struct prof_keymap *m, const struct sample *s, uint64_t count);
/* name the stacks: into folded (and stack_reps for JSON), or into flame for the SVG */
/* the same for one source's keys of a merge (no read counts) */
void prof_name_keymap(struct profile *p, struct prof_keymap *m, struct strmap *out);
void prof_name_stacks(struct profile *p);
/* one frame of a call chain as folded stacks name it (the process's too) */
void prof_stack_frame_name(const struct profile *p, const struct prof_frame *f, struct strbuf *out);

/* a frame's name as the given sort names it (kernel frames too) */
void prof_name_frame(struct profile *p, const struct prof_frame *f, enum profile_sort sort, struct strbuf *out);

/* profile_branches.c */
/* a sample's branch stack (most recent first): its pairs and blocks */
void prof_add_branches(struct profile *p, const struct sample *s, uint64_t count);
/* name the pairs or blocks into rows (profile_finish) */
void prof_name_branches(struct profile *p);
void prof_release_branches(struct prof_branches *b);
void prof_print_branches_text(const struct profile *p, FILE *out);
void prof_print_branches_json(const struct profile *p, FILE *out);
void prof_print_branches_folded(const struct profile *p, FILE *out);
void prof_print_branches_svg(const struct profile *p, FILE *out);
void prof_print_fdata(const struct profile *p, FILE *out);
/* one note line when branches had flag bits no known kernel defines */
void prof_print_branch_note(const struct profile *p, FILE *err);

/* profile.c: the --report-sort name of a sort */
const char *prof_sort_name(enum profile_sort s);
/* function, line, binary, address or data: a key of where, not of how */
bool prof_is_code_key(enum profile_sort s);

/* profile_reads.c */
void prof_add_reads(struct profile *p, struct event_hist *h, const struct sample *s, struct prof_entry *e);

/* profile_script.c */
void prof_add_script(struct profile *p, const struct sample *s);
void prof_print_script(struct profile *p, FILE *out);
/* the script's event names and tracepoint formats, from the file's header */
void prof_script_init(struct profile *p, const struct smpl_header *h);
void prof_script_release(struct prof_script *sc);

/* profile_pprof.c */
/* the header's command lines and start time */
void prof_pprof_init(struct profile *p, const struct smpl_header *h);
void prof_pprof_release(struct prof_pprof_info *pi);
/* a sample into its event's stacks, with its period */
void prof_add_pprof(struct profile *p, struct event_hist *h, const struct sample *s, uint64_t count);
/* the gzip-compressed profile.proto */
void prof_print_pprof(struct profile *p, FILE *out);

/* profile_print.c */
void prof_print_json(const struct profile *p, FILE *out);
void prof_print_folded(const struct profile *p, FILE *out);
void prof_print_svg(const struct profile *p, FILE *out);
void prof_print_text(const struct profile *p, FILE *out);
/* how many of the sorted entries v[0..n) a report shows (--smpl-show-top,
 * --smpl-cum-threshold) */
size_t prof_shown_entries(const struct profile *p, const struct strmap_entry *v, size_t n, uint64_t total);
/* profile_html.c: --report-format=html */
/* a profile answered by RES, a resolver of another (an HTML page's part) */
struct profile *prof_new_part(const struct profile_opts *opts, const struct smpl_header *h,
			      struct sym_resolver *res);
void prof_html_init(struct profile *p, const struct profile_opts *given, const struct smpl_header *h);
void prof_html_release(struct profile *p);
void prof_print_html(struct profile *p, FILE *out);
/* each binary without symbols or line table (or unreadable), a line after
 * prefix; wrong_files: those not the binary recorded too */
void prof_print_missing(const struct profile *p, FILE *out, const char *prefix, bool wrong_files);

#endif
