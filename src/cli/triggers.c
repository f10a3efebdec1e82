/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/util.h"
#include "kernel/perf.h"
#include "symbol/symbol.h"
#include "session/procfs.h"
#include "triggers.h"

/* the session's kinds are the configuration's, in the same order */
_Static_assert((int)STRG_CODE_START == (int)PF_TRG_CODE_START && (int)STRG_DATA_STOP == (int)PF_TRG_DATA_STOP &&
		       (int)STRG_KINDS == (int)PF_TRG_KINDS,
	       "trigger kinds");

const char *trigger_option_name(enum pf_trigger_kind kind)
{
	static const char *const names[PF_TRG_KINDS] = {
		[PF_TRG_CODE_START] = "trigger-code-start-address",
		[PF_TRG_CODE_STOP] = "trigger-code-stop-address",
		[PF_TRG_DATA_START] = "trigger-data-start-address",
		[PF_TRG_DATA_STOP] = "trigger-data-stop-address",
	};

	return names[kind];
}

static bool symbol_char(char c, bool first)
{
	return isalpha((unsigned char)c) || c == '_' || c == '.' || c == '$' || c == '@' ||
	       (!first && isdigit((unsigned char)c));
}

const char *trigger_spec_parse(const char *text, struct trigger_spec *out)
{
	const char *plus = strchr(text, '+');
	size_t len = plus ? (size_t)(plus - text) : strlen(text);
	const char *why;

	memset(out, 0, sizeof(*out));
	if (!*text)
		return "the address is empty";
	/* a well-formed number is syntax; whether the program has an
	 * instruction or a variable there (0 included) is known once it is
	 * loaded: an address outside its text is exit status 1, not a usage error */
	if (isdigit((unsigned char)text[0]))
		return parse_u64_why(text, &out->value);
	for (size_t i = 0; i < len; i++)
		if (!symbol_char(text[i], i == 0))
			return "expected an address (decimal or 0x hexadecimal), a SYMBOL or SYMBOL+OFFSET";
	if (!len)
		return "expected an address (decimal or 0x hexadecimal), a SYMBOL or SYMBOL+OFFSET";
	if (plus && (why = parse_u64_why(plus + 1, &out->value)) != NULL)
		return "the offset after SYMBOL+ is not a number";
	out->symbol = xstrndup(text, len);
	return NULL;
}

void trigger_session_opts(const struct pf_config *cfg, struct session_triggers *t)
{
	memset(t, 0, sizeof(*t));
	for (int k = 0; k < PF_TRG_KINDS; k++)
		t->n[k] = cfg->n_triggers[k];
	t->resolve = trigger_resolve;
	t->arg = (void *)cfg;
	t->code_repeat = cfg->code_trigger_repeat;
	t->data_repeat = cfg->data_trigger_repeat;
	t->code_follow = cfg->code_trigger_follow;
	t->data_follow = cfg->data_trigger_follow;
	t->data_write_only = cfg->data_trigger_wo;
	t->start_delay_ns = cfg->trigger_start_delay_ns;
	t->dont_start = cfg->dont_start;
}

/* ----- resolving in the running program ----- */

/* the process's file mappings and its program's path */
struct image {
	struct sample_record *maps;
	size_t n_maps;
	char exe[PATH_MAX];
};

static int image_read(pid_t pid, struct image *im, struct pf_error *err)
{
	char path[64];
	ssize_t n;
	long m;

	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	n = readlink(path, im->exe, sizeof(im->exe) - 1);
	if (n <= 0)
		return pf_error_set(err, PF_E_INPUT, path, strerror(errno));
	im->exe[n] = '\0';
	m = procfs_maps(pid, true, &im->maps);
	if (m < 0)
		return pf_error_set(err, PF_E_INPUT, "/proc/PID/maps", strerror(errno));
	im->n_maps = (size_t)m;
	return 0;
}

/* where path is loaded: its mapping at the lowest file offset fixes the
 * bias between the file's ELF addresses and the process's */
static bool load_bias(const struct image *im, const char *path, const struct sym_dso *dso, uint64_t *bias)
{
	const struct sample_mmap *low = NULL;

	for (size_t i = 0; i < im->n_maps; i++) {
		const struct sample_mmap *m = &im->maps[i].mmap;

		if (!strcmp(m->filename, path) && (!low || m->pgoff < low->pgoff))
			low = m;
	}
	if (!low)
		return false;
	*bias = low->start - sym_dso_offset_to_addr(dso, low->pgoff);
	return true;
}

/* is addr in an executable mapping of path (any file when path is NULL)? */
static bool in_text(const struct image *im, const char *path, uint64_t addr)
{
	for (size_t i = 0; i < im->n_maps; i++) {
		const struct sample_mmap *m = &im->maps[i].mmap;

		if ((m->prot & PROT_EXEC) && addr >= m->start && addr - m->start < m->len &&
		    (!path || !strcmp(m->filename, path)))
			return true;
	}
	return false;
}

/* a code trigger's address inside an instruction (never fires, or breaks it) */
struct mid_insn {
	bool inside;
	char func[128];
	uint64_t off, insn_off, insn_size; /* from the function's start */
};

static void check_insn(struct sym_dso *dso, uint64_t addr, struct mid_insn *mid)
{
	struct sym_insn in;

	if (sym_dso_insn_place(dso, addr, &in) != SYM_INSN_INSIDE)
		return;
	mid->inside = true;
	snprintf(mid->func, sizeof(mid->func), "%s", in.func);
	mid->off = addr - in.func_addr;
	mid->insn_off = in.start - in.func_addr;
	mid->insn_size = in.size;
}

/* the symbol in file path: 0 and its address in the process; a code
 * address is checked against the disassembly of its function (mid) */
static int find_in(const struct image *im, const char *path, const struct trigger_spec *spec, bool code,
		   uint64_t *addr, uint64_t *size, struct mid_insn *mid)
{
	struct sym_dso *dso;
	uint64_t at, bias;
	int rc = -1;

	if (path[0] == '[' || sym_dso_open(path, NULL, &dso, NULL))
		return -1;
	if (!spec->symbol) {
		if (load_bias(im, path, dso, &bias) && (code || sym_dso_loads(dso, spec->value))) {
			*addr = spec->value + bias;
			*size = 1;
			rc = 0;
		}
	} else if (!(code ? sym_dso_find_func(dso, spec->symbol, &at, size)
			  : sym_dso_find_data(dso, spec->symbol, &at, size)) &&
		   load_bias(im, path, dso, &bias)) {
		*addr = at + spec->value + bias;
		rc = 0;
	}
	if (!rc && code)
		check_insn(dso, *addr - bias, mid);
	sym_dso_close(dso);
	return rc;
}

/* the program first, then each library mapped (in map order) */
static int find_symbol(const struct image *im, const struct trigger_spec *spec, bool code, uint64_t *addr,
		       uint64_t *size, const char **where, struct mid_insn *mid)
{
	if (!find_in(im, im->exe, spec, code, addr, size, mid)) {
		*where = im->exe;
		return 0;
	}
	for (size_t i = 0; spec->symbol && i < im->n_maps; i++) {
		const char *path = im->maps[i].mmap.filename;
		bool seen = !strcmp(path, im->exe);

		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(path, im->maps[j].mmap.filename);
		if (!seen && !find_in(im, path, spec, code, addr, size, mid)) {
			*where = path;
			return 0;
		}
	}
	return -1;
}

/* a data trigger watches an aligned 1, 2, 4 or 8 bytes from addr, within the variable */
static uint64_t watch_length(uint64_t addr, uint64_t size)
{
	for (uint64_t len = 8; len > 1; len /= 2)
		if (size >= len && addr % len == 0)
			return len;
	return 1;
}

static int resolve_error(const char *text, enum pf_trigger_kind k, struct pf_error *err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int resolve_error(const char *text, enum pf_trigger_kind k, struct pf_error *err, const char *fmt, ...)
{
	char why[PF_ERROR_MSG_MAX / 2];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return pf_error_set(err, PF_E_TRIGGER, text, trigger_option_name(k), why);
}

int trigger_resolve(void *arg, pid_t pid, enum session_trigger_kind kind, size_t i, struct session_trigger_addr *out,
		    struct pf_error *err)
{
	const struct pf_config *cfg = arg;
	enum pf_trigger_kind k = (enum pf_trigger_kind)kind;
	const char *text = cfg->triggers[k][i], *where = NULL, *why;
	bool code = k == PF_TRG_CODE_START || k == PF_TRG_CODE_STOP;
	struct trigger_spec spec;
	struct mid_insn mid = { 0 };
	struct image im = { 0 };
	uint64_t addr = 0, size = 0;
	int rc = 0;

	why = trigger_spec_parse(text, &spec);
	if (why)
		return resolve_error(text, k, err, "%s", why);
	if (image_read(pid, &im, err)) {
		free(spec.symbol);
		return -1;
	}
	if (find_symbol(&im, &spec, code, &addr, &size, &where, &mid))
		rc = spec.symbol ? resolve_error(text, k, err, "unknown %s symbol: not in the symbol tables of %s "
						 "or of the libraries it loaded", code ? "function" : "data", im.exe)
			  : resolve_error(text, k, err, "not an address of %s's %s", im.exe,
					  code ? "text" : "loaded segments");
	else if (code && !in_text(&im, spec.symbol ? NULL : im.exe, addr))
		rc = resolve_error(text, k, err, "0x%llx is outside the text of %s", (unsigned long long)addr,
				   where);
	else if (mid.inside)
		rc = resolve_error(text, k, err, "%s+0x%llx is inside the instruction at %s+0x%llx (%llu bytes): "
				   "a code trigger must be where an instruction starts", mid.func,
				   (unsigned long long)mid.off, mid.func, (unsigned long long)mid.insn_off,
				   (unsigned long long)mid.insn_size);
	out->addr = addr;
	out->size = code ? 0 : watch_length(addr, spec.symbol ? size - (size > spec.value ? spec.value : size) : 1);
	free(spec.symbol);
	procfs_maps_free(im.maps, im.n_maps);
	return rc;
}

/* ----- the checks of the command line ----- */

static size_t n_kind(const struct pf_config *cfg, enum pf_trigger_kind a, enum pf_trigger_kind b)
{
	return cfg->n_triggers[a] + cfg->n_triggers[b];
}

/* "--NAME" of a trigger kind's option, for messages */
static const char *dashed(enum pf_trigger_kind k, char *buf, size_t size)
{
	snprintf(buf, size, "--%s", trigger_option_name(k));
	return buf;
}

/* the option of the first code or data trigger given, for messages */
static const char *first_given(const struct pf_config *cfg, char *buf, size_t size)
{
	int k = 0;

	while (k < PF_TRG_KINDS - 1 && !cfg->n_triggers[k])
		k++;
	return dashed((enum pf_trigger_kind)k, buf, size);
}

static int check_kind(const struct pf_config *cfg, const char *what, enum pf_trigger_kind start,
		      enum pf_trigger_kind stop, bool repeat, bool follow, struct pf_error *err)
{
	char opt[64], needs[160], a[48], b[48];

	if (repeat && (!cfg->n_triggers[start] || !cfg->n_triggers[stop])) {
		snprintf(opt, sizeof(opt), "--trigger-%s-repeat", what);
		snprintf(needs, sizeof(needs), "%s and %s", dashed(start, a, sizeof(a)), dashed(stop, b, sizeof(b)));
		return pf_error_set(err, PF_E_OPTION_NEEDS, opt, needs, " (it repeats their windows)");
	}
	if (follow && !n_kind(cfg, start, stop)) {
		snprintf(opt, sizeof(opt), "--trigger-%s-follow", what);
		snprintf(needs, sizeof(needs), "a %s trigger (%s or %s)", what, dashed(start, a, sizeof(a)),
			 dashed(stop, b, sizeof(b)));
		return pf_error_set(err, PF_E_OPTION_NEEDS, opt, needs, "");
	}
	return 0;
}

static int check_data(const struct pf_config *cfg, struct pf_error *err)
{
	size_t n = n_kind(cfg, PF_TRG_DATA_START, PF_TRG_DATA_STOP);

	if (cfg->data_trigger_ro && cfg->data_trigger_wo)
		return pf_error_set(err, PF_E_OPTIONS_EXCLUDE, "--trigger-data-ro", "--trigger-data-wo", "");
	if (cfg->data_trigger_ro)
		return pf_error_set(err, PF_E_OPTION_NOT_USED, "--trigger-data-ro", "on x86",
				    " (its debug registers watch writes, or reads and writes, never reads alone: "
				    "use --trigger-data-wo, or neither for both)");
	if (n > SESSION_MAX_DATA_TRIGGERS)
		return pf_error_set(err, PF_E_TOO_MANY, (int)n, "data triggers", SESSION_MAX_DATA_TRIGGERS,
				    "debug registers of x86");
	for (size_t i = 0; i < cfg->n_triggers[PF_TRG_DATA_START]; i++)
		for (size_t j = 0; j < cfg->n_triggers[PF_TRG_DATA_STOP]; j++)
			if (!strcmp(cfg->triggers[PF_TRG_DATA_START][i], cfg->triggers[PF_TRG_DATA_STOP][j]))
				return pf_error_set(err, PF_E_BAD_OPTION_VALUE, cfg->triggers[PF_TRG_DATA_STOP][j],
						    trigger_option_name(PF_TRG_DATA_STOP),
						    "it is also a data start trigger: one access would do both");
	if (n && kperf_breakpoints_fire() == KPERF_BP_SILENT)
		return pf_error_set(err, PF_E_TRIGGER_NO_DEBUGREG);
	return 0;
}

/* the start and stop rules of triggers, --trigger-start-delay and --dont-start */
static int check_starts(const struct pf_config *cfg, bool per_task, struct pf_error *err)
{
	bool starts = cfg->n_triggers[PF_TRG_CODE_START] || cfg->n_triggers[PF_TRG_DATA_START];
	char opt[48];

	if ((cfg->data_trigger_ro || cfg->data_trigger_wo) && !n_kind(cfg, PF_TRG_DATA_START, PF_TRG_DATA_STOP))
		return pf_error_set(err, PF_E_OPTION_NEEDS, cfg->data_trigger_ro ? "--trigger-data-ro"
				    : "--trigger-data-wo", "a data trigger", "");
	if (cfg->trigger_start_delay_ns && starts)
		return pf_error_set(err, PF_E_OPTIONS_EXCLUDE, "--trigger-start-delay",
				    dashed(cfg->n_triggers[PF_TRG_CODE_START] ? PF_TRG_CODE_START : PF_TRG_DATA_START,
					   opt, sizeof(opt)),
				    ": both say when counting starts, give one");
	if (cfg->dont_start && !starts && !cfg->trigger_start_delay_ns)
		return pf_error_set(err, PF_E_OPTION_NEEDS, "--dont-start", "a start trigger or --trigger-start-delay",
				    ": nothing else would start the counters (a task cannot start counters pfmon "
				    "opened on it, as perfmon let it)");
	if ((cfg->trigger_start_delay_ns || cfg->dont_start) && per_task)
		return pf_error_set(err, PF_E_NOT_IMPLEMENTED,
				    cfg->trigger_start_delay_ns ? "--trigger-start-delay" : "--dont-start",
				    "with per-task results (--follow-*, --per-thread)", "");
	return 0;
}

int trigger_check_options(const struct pf_config *cfg, bool follows, struct pf_error *err)
{
	size_t code = n_kind(cfg, PF_TRG_CODE_START, PF_TRG_CODE_STOP);
	size_t data = n_kind(cfg, PF_TRG_DATA_START, PF_TRG_DATA_STOP);
	char opt[48];

	if (check_kind(cfg, "code", PF_TRG_CODE_START, PF_TRG_CODE_STOP, cfg->code_trigger_repeat,
		       cfg->code_trigger_follow, err) ||
	    check_kind(cfg, "data", PF_TRG_DATA_START, PF_TRG_DATA_STOP, cfg->data_trigger_repeat,
		       cfg->data_trigger_follow, err) ||
	    check_starts(cfg, follows || cfg->per_thread, err))
		return -1;
	if (!code && !data)
		return 0;
	first_given(cfg, opt, sizeof(opt));
	if (!session_triggers_supported())
		return pf_error_set(err, PF_E_NOT_IMPLEMENTED, opt, "on this architecture",
				    " (code and data triggers are x86-64 only)");
	if (cfg->system_wide || cfg->n_attach)
		return pf_error_set(err, PF_E_OPTION_NOT_USED, opt,
				    cfg->system_wide ? "with --system-wide" : "with --attach-task",
				    " (code and data triggers act in a launched command, as in pfmon 3.x)");
	if (!cfg->command)
		return pf_error_set(err, PF_E_NO_COMMAND);
	if (follows || cfg->per_thread)
		return pf_error_set(err, PF_E_NOT_IMPLEMENTED, opt, "with per-task results (--follow-*, --per-thread)",
				    ": --trigger-code-follow and --trigger-data-follow apply the triggers to every "
				    "task of the command");
	return check_data(cfg, err);
}

/* a command as execvp(3) finds it: a name without '/' along $PATH */
static char *program_path(const char *cmd)
{
	const char *path = getenv("PATH");
	char *dirs, *save = NULL;

	if (strchr(cmd, '/'))
		return xstrdup(cmd);
	dirs = xstrdup(path && *path ? path : "/usr/local/bin:/usr/bin:/bin");
	for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		char *p = xasprintf("%s/%s", *d ? d : ".", cmd);

		if (access(p, X_OK) == 0) {
			free(dirs);
			return p;
		}
		free(p);
	}
	free(dirs);
	return xstrdup(cmd);
}

/* the model options that take an address range or an address */
static const struct {
	const char *option;
	bool data;  /* a data object (else a function) */
	bool range; /* START-END (else the address alone) */
} symbol_options[] = {
	{ "irange", false, true },
	{ "drange", true, true },
	{ "checkpoint-func", false, false },
};

int model_symbol_resolve(const char *option, const char *arg, char *const *command, char **out,
			 struct pf_error *err)
{
	size_t k = 0;
	struct sym_dso *dso;
	uint64_t addr, size;
	char *path;
	int rc;

	*out = NULL;
	while (k < ARRAY_SIZE(symbol_options) && strcmp(symbol_options[k].option, option))
		k++;
	/* a number or a range of numbers is the model's to parse */
	if (k == ARRAY_SIZE(symbol_options) || !*arg || isdigit((unsigned char)arg[0]) ||
	    !(isalpha((unsigned char)arg[0]) || arg[0] == '_' || arg[0] == '.'))
		return 0;
	if (!command || !command[0])
		return pf_error_set(err, PF_E_OPTION_NEEDS, option[0] == 'i' ? "--irange" : option[0] == 'd' ? "--drange"
								 : "--checkpoint-func",
				    "a command when it names a symbol", " (its symbol table says where the symbol is)");
	path = program_path(command[0]);
	if (sym_dso_open(path, NULL, &dso, err)) {
		free(path);
		return -1;
	}
	rc = symbol_options[k].data ? sym_dso_find_data(dso, arg, &addr, &size)
				    : sym_dso_find_func(dso, arg, &addr, &size);
	sym_dso_close(dso);
	if (rc) {
		char why[PATH_MAX + 64];

		snprintf(why, sizeof(why), "no %s of that name in %s's symbol table",
			 symbol_options[k].data ? "data object" : "function", path);
		free(path);
		return pf_error_set(err, PF_E_BAD_OPTION_VALUE, arg, option, why);
	}
	free(path);
	/* a range covers the symbol in whole bundles (16 bytes: the ranges
	 * are the Itanium models'), as an IA-64 symbol's extent always did */
	if (symbol_options[k].range)
		*out = xasprintf("%#llx-%#llx", (unsigned long long)(addr & ~15ull),
				 (unsigned long long)((addr + (size ? size : 1) + 15) & ~15ull));
	else
		*out = xasprintf("%#llx", (unsigned long long)addr);
	return 0;
}
