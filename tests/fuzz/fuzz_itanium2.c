/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: the Itanium 2 model's set encoder (src/pmu/itanium2*.c),
 * driven the way --check drives it.  The input is a command line, arguments
 * separated by NUL bytes, after "pfmon --pmu=itanium2 --check": events and
 * the qualifier options (--irange, --drange, --opc-match8, --btb-*, ...).
 * The configuration comes from options_parse() and every set is encoded by
 * the model's encode_set() and printed (with -v's decoded fields) to
 * /dev/null, as cmd_check() does.
 */
#include <config.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/layer_opts.h"
#include "cli/options.h"
#include "common/config.h"
#include "common/util.h"
#include "event/pmu_model.h"
#include "cli/check_print.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;

static void encode_all(const struct pmu_model *m, struct pf_config *cfg)
{
	struct pf_error err = { .code = PF_E_OK };
	struct encode_opts o;

	/* no -e: the model's default event, as main() chooses it */
	if (cfg->n_sets == 1 && !cfg->sets[0].n_events)
		cfg->sets[0].events = str_split("CPU_CYCLES", ',', &cfg->sets[0].n_events);
	config_encode_opts(cfg, m, &o);
	for (size_t s = 0; s < cfg->n_sets; s++) {
		struct set_prog prog;

		/* as pmu_encode_config(): a set that failed holds nothing to release */
		if (pmu_encode_set(m, &o, s, &prog, &err))
			break;
		check_print_set(devnull, m, s, cfg->n_sets, &prog, true);
		set_prog_release(&prog);
	}
	config_encode_opts_release(&o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const pre[] = { "pfmon", "--pmu=itanium2", "--check" };
	const struct pmu_model *m = pmu_model_find("itanium2");
	struct pf_error err = { .code = PF_E_OK };
	struct pf_config cfg;
	char **argv, *buf;
	int argc = fuzz_argv(data, size, pre, sizeof(pre) / sizeof(pre[0]), &argv, &buf);

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	pf_config_init(&cfg);
	/* the model parses its own options as main() has it do */
	if (m && options_parse(argc, argv, &cfg, &err) == 0 && options_validate(&cfg, m, &err) == 0)
		encode_all(m, &cfg);
	pf_config_release(&cfg);
	free(argv);
	free(buf);
	return 0;
}
