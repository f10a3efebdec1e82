/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: the option parser (src/cli/options.c) through its
 * public entry, options_parse().  The input is a command line, arguments
 * separated by NUL bytes, after "pfmon".  Whatever parses is then asked
 * the questions the commands ask of a configuration.
 */
#include <config.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "cli/options.h"
#include "common/config.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const pre[] = { "pfmon" };
	struct pf_error err = { .code = PF_E_OK };
	struct pf_config cfg;
	char **argv, *buf;
	int argc = fuzz_argv(data, size, pre, 1, &argv, &buf);

	pf_config_init(&cfg);
	if (options_parse(argc, argv, &cfg, &err) == 0) {
		(void)pf_config_is_sampling(&cfg);
		for (size_t s = 0; s < cfg.n_sets; s++)
			for (size_t e = 0; e < cfg.sets[s].n_events; e++)
				(void)pf_config_event_plm(&cfg, s, e);
	}
	pf_config_release(&cfg);
	free(argv);
	free(buf);
	return 0;
}
