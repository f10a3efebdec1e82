/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The report options of the command line, shared by recording, reporting
 * and merging: a profile's options, and the sampling modules' (--smpl-module
 * and its views) with the checks of what does not go together.  Translation
 * only: report/ prints.
 */
#include <config.h>

#include <string.h>

#include "cli/report_setup.h"
#include "symbol/symbol.h"

struct profile_opts profile_opts_from_config(const struct pf_config *cfg)
{
	struct profile_opts po = {
		.top = cfg->smpl_show_top,
		.cum_threshold = cfg->smpl_cum_threshold,
		.resolve = cfg->resolve_addresses,
		/* pfmon 3.x: a system-wide profile is per process unless --smpl-ignore-pids
		 * (a sample file does not say it was system-wide: its report is merged) */
		.by_process = cfg->system_wide && !cfg->smpl_ignore_pids && !cfg->report_file,
		.no_demangle = cfg->no_demangle,
		.annotate = cfg->annotate,
		.annotate_function = cfg->annotate_function,
		.source_root = cfg->source_root,
		.perf_maps = cfg->demangle_java,
	};

	/* the names were checked when the options were parsed */
	char bad[64];

	profile_sort_parse(cfg->report_sort, &po, bad, sizeof(bad));
	profile_format_from_name(cfg->report_format, &po.format);
	return po;
}

int smpl_module_options(const struct pf_config *cfg, struct ia64_report_opts *ro,
			struct pf_error *err)
{
	memset(ro, 0, sizeof(*ro));
	/* a dump's default is detailed (every register decoded); pfmon 3.9's
	 * --smpl-compact turns the default inst-hist into one row per sample */
	ro->module = cfg->smpl_compact ? IA64_MOD_COMPACT : IA64_MOD_DETAILED;
	if (cfg->smpl_module && ia64_smpl_module_lookup(cfg->smpl_module, &ro->module, err))
		return -1;
	if (cfg->smpl_compact && ro->module == IA64_MOD_INST_HIST)
		ro->module = IA64_MOD_COMPACT;
	if (cfg->smpl_compact && ro->module != IA64_MOD_COMPACT)
		return pf_error_set(err, PF_E_OPTION_APPLIES, "--smpl-compact", "the inst-hist module");
	if ((cfg->smpl_view_given || cfg->smpl_sort_given) && ro->module != IA64_MOD_DEAR_HIST)
		return pf_error_set(err, PF_E_OPTION_APPLIES, cfg->smpl_view_given ? "--smpl-*-view" : "--smpl-sort-*",
				    "the dear-hist module");
	ro->json = cfg->report_format && !strcmp(cfg->report_format, "json");
	if (ro->json && ro->module != IA64_MOD_DETAILED && ro->module != IA64_MOD_C2C)
		return pf_error_set(err, PF_E_OPTION_APPLIES, "--report-format=json", "the detailed and c2c modules");
	ro->view = cfg->smpl_view;
	ro->sort = cfg->smpl_sort;
	ro->top = cfg->smpl_show_top;
	ro->cum_threshold = cfg->smpl_cum_threshold;
	ro->print_counts = cfg->smpl_print_counts;
	if (cfg->symbol_file && cfg->sysmap_file)
		return pf_error_set(err, PF_E_OPTIONS_EXCLUDE, "--symbol-file", "--sysmap-file", "");
	ro->symbol_file = cfg->symbol_file;
	ro->sysmap_file = cfg->sysmap_file;
	ro->print_syms = cfg->print_syms;
	ro->no_demangle = cfg->no_demangle;
	if (cfg->annotate && (cfg->smpl_module || cfg->smpl_compact))
		return pf_error_set(err, PF_E_OPTIONS_EXCLUDE, "--annotate",
				    cfg->smpl_module ? "--smpl-module" : "--smpl-compact",
				    ": the annotation replaces the sampling module's output");
	ro->annotate = cfg->annotate;
	ro->annotate_function = cfg->annotate_function;
	ro->source_root = cfg->source_root;
	return 0;
}

int profile_symbol_file(const struct pf_config *cfg, FILE *out, struct sym_symfile **syms,
			   struct pf_error *err)
{
	const char *path = cfg->symbol_file ? cfg->symbol_file : cfg->sysmap_file;

	*syms = NULL;
	if (cfg->symbol_file && cfg->sysmap_file)
		return pf_error_set(err, PF_E_OPTIONS_EXCLUDE, "--symbol-file", "--sysmap-file", "");
	if (cfg->symbol_file && sym_symfile_open_elf(cfg->symbol_file, NULL, syms, err))
		return -1;
	if (cfg->sysmap_file && sym_symfile_open_sysmap(cfg->sysmap_file, syms, err))
		return -1;
	if (*syms && cfg->print_syms)
		report_print_symfile(out, *syms, path);
	return 0;
}

bool host_module_wanted(const struct pf_config *cfg)
{
	return cfg->smpl_module || cfg->smpl_compact;
}

int host_module_options(const struct pf_config *cfg, struct ia64_report_opts *ro, struct pf_error *err)
{
	if (smpl_module_options(cfg, ro, err))
		return -1;
	if (cfg->report_sort)
		return pf_error_set(err, PF_E_OPTIONS_EXCLUDE, "--report-sort", cfg->smpl_module ? "--smpl-module"
				    : "--smpl-compact", ": the module's rows are its own");
	if (cfg->report_format && strcmp(cfg->report_format, "text") && strcmp(cfg->report_format, "json"))
		return pf_error_set(err, PF_E_OPTIONS_EXCLUDE, "--report-format", cfg->smpl_module ? "--smpl-module"
				    : "--smpl-compact", ": a sampling module prints text");
	return 0;
}

static int check_format(const struct pf_config *cfg, bool branches, struct pf_error *err)
{
	if (branches && (cfg->smpl_module || cfg->smpl_compact))
		return pf_error_set(err, PF_E_OPTIONS_EXCLUDE, "--report-sort", cfg->smpl_module ? "--smpl-module"
				    : "--smpl-compact", ": a branch report is not a sampling module's");
	if (branches) /* the host's branch stacks' report: its formats */
		return 0;
	if (cfg->report_format && strcmp(cfg->report_format, "text") &&
	    strcmp(cfg->report_format, "json"))
		return pf_error_set(err, PF_E_OPTION_NOT_USED, "--report-format", "with an Itanium 2 dump",
				    " (it is reported as text or json, not as stacks)");
	return 0;
}

int dump_report_opts(const struct pf_config *cfg, struct ia64_dump_report_opts *o, struct pf_error *err)
{
	o->profile = profile_opts_from_config(cfg);
	o->branches = profile_branch_view(&o->profile);
	if (check_format(cfg, o->branches, err) || smpl_module_options(cfg, &o->report, err))
		return -1;
	o->path = cfg->report_file;
	o->smpl_outfile = cfg->smpl_outfile;
	return 0;
}
