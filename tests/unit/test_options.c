/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The option table: pfmon 3.x semantics of event sets and per-set options. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "optparse.h"
#include "tap.h"

int main(void)
{
	struct pf_config cfg;
	struct pf_error err;

	ok(parse(&cfg, &err, "-e", "cycles,instructions", "-e", "task-clock", "ls", "-l", NULL) == 0,
	   "two sets and a command");
	ok(cfg.n_sets == 2 && cfg.sets[0].n_events == 2 && cfg.sets[1].n_events == 1, "set sizes");
	ok(cfg.command && strcmp(cfg.command[0], "ls") == 0 && strcmp(cfg.command[1], "-l") == 0,
	   "parsing stops at the command (its -l is its own)");
	pf_config_release(&cfg);

	ok(parse(&cfg, &err, "true", NULL) == 0 && cfg.n_sets == 1 && cfg.sets[0].n_events == 0,
	   "no -e: one set for the default events");
	pf_config_release(&cfg);

	ok(parse(&cfg, &err, "--priv-levels=u,k", "-e", "a,b", "--long-smpl-periods=10,20", "-e", "c",
		 "--long-smpl-periods=5", "x", NULL) == 0,
	   "per-set options");
	ok(cfg.sets[0].n_event_plm == 2 && cfg.sets[0].event_plm[0] == PF_PLM3 &&
		   cfg.sets[0].event_plm[1] == PF_PLM0,
	   "options before the first -e carry over to set 0");
	ok(cfg.sets[0].n_long_periods == 2 && cfg.sets[0].long_periods[1] == 20, "set 0 periods");
	ok(cfg.sets[1].n_long_periods == 1 && cfg.sets[1].long_periods[0] == 5,
	   "per-set option applies to the most recent -e");
	ok(pf_config_event_plm(&cfg, 1, 0) == 0, "nothing asked: 0 (model default)");
	pf_config_release(&cfg);

	ok(parse(&cfg, &err, "-e", "a,b,c", "--smpl-periods-random=0xff:5,,0x10", "x", NULL) == 0 &&
		   cfg.sets[0].n_periods_random == 3,
	   "--smpl-periods-random: one entry per event, empty entries allowed");
	ok(cfg.sets[0].periods_random[0].mask == 0xff && cfg.sets[0].periods_random[0].seed == 5 &&
		   cfg.sets[0].periods_random[0].seeded,
	   "MASK:SEED");
	ok(cfg.sets[0].periods_random[1].mask == 0, "an empty entry: a fixed period");
	ok(cfg.sets[0].periods_random[2].mask == 0x10 && !cfg.sets[0].periods_random[2].seeded,
	   "MASK alone: no seed given");
	pf_config_release(&cfg);

	/* its companion: a period for each randomized event (a usage error, as every missing companion) */
	ok(parse(&cfg, &err, "-e", "a,b", "--long-smpl-periods=,10", "--smpl-periods-random=0xff", "x", NULL) == 0 &&
		   options_validate(&cfg, NULL, &err) < 0 && err.code == PF_E_PERIOD_NONE &&
		   pf_error_exit_status(err.code) == PF_EXIT_USAGE,
	   "a random period without a period is a usage error");
	is_str(err.msg, "option '--smpl-periods-random': event 1 of set 0 ('a') has no period to randomize: give it "
	       "one with --long-smpl-periods or --short-smpl-periods", "message names the event");
	pf_config_release(&cfg);
	ok(parse(&cfg, &err, "-e", "a", "--long-smpl-periods=10", "--smpl-periods-random=1,1", "x", NULL) == 0 &&
		   options_validate(&cfg, NULL, &err) < 0 && err.code == PF_E_LIST_TOO_LONG && strstr(err.msg, "2 entries"),
	   "more random entries than events: %s", err.msg);
	pf_config_release(&cfg);
	ok(parse(&cfg, &err, "-e", "a,b", "--short-smpl-periods=,10", "--smpl-periods-random=,0xff", "x", NULL) == 0 &&
		   options_validate(&cfg, NULL, &err) == 0,
	   "a randomized event with its period is accepted: %s", err.msg);
	pf_config_release(&cfg);

	ok(parse(&cfg, &err, "-e", "a", "--smpl-periods-random=0xff:", "x", NULL) < 0 &&
		   err.code == PF_E_BAD_OPTION_VALUE,
	   "an empty seed after the colon is refused");
	pf_config_release(&cfg);

	ok(parse(&cfg, &err, "-e", "a", "--long-smpl-periods=1", "--long-smpl-periods=2", "x", NULL) < 0 &&
		   err.code == PF_E_OPTION_TWICE,
	   "a per-set option twice for one set is refused");
	is_str(err.msg, "option '--long-smpl-periods' given twice for event set 0", "message");
	pf_config_release(&cfg);

	ok(parse(&cfg, &err, "-k", "-u", "x", NULL) == 0 && cfg.plm == (PF_PLM0 | PF_PLM3), "levels add up");
	pf_config_release(&cfg);

	ok(parse(&cfg, &err, "--us-counter", "--with-h", "x", NULL) == 0 && cfg.counter_format == PF_FMT_US &&
		   cfg.with_header,
	   "unique prefixes of long options");
	pf_config_release(&cfg);

	ok(parse(&cfg, &err, "--long-smpl-periods=0", "x", NULL) < 0 && err.code == PF_E_BAD_OPTION_VALUE,
	   "period 0 refused");
	pf_config_release(&cfg);
	ok(parse(&cfg, &err, "--smpl-entries=many", "x", NULL) < 0, "non-numeric entries refused");
	is_str(err.msg, "invalid value 'many' for option '--smpl-entries': not a number; expected an integer from 1 to "
	       "262144",
	       "message names option and range");
	pf_config_release(&cfg);
	ok(parse(&cfg, &err, "--smpl-entries=010", "x", NULL) < 0 && strstr(err.msg, "leading 0"),
	   "010 is refused, not read as octal 8");
	pf_config_release(&cfg);
	ok(parse(&cfg, &err, "--smpl-entries=0x10", "x", NULL) == 0 && cfg.smpl_entries == 16, "0x hex accepted");
	pf_config_release(&cfg);
	ok(parse(&cfg, &err, "-e", "a", "--long-smpl-periods=0x8000000000000000", "x", NULL) < 0 &&
		   strstr(err.msg, "2^63"),
	   "a period with bit 63 set is refused (the kernel would)");
	pf_config_release(&cfg);
	ok(parse(&cfg, &err, "-e", "a", "--long-smpl-periods=", "x", NULL) < 0 && strstr(err.msg, "empty"),
	   "an empty period list is refused");
	pf_config_release(&cfg);
	ok(parse(&cfg, &err, "--outfile", NULL) < 0 && err.code == PF_E_OPTION_NEEDS, "missing value refused");
	pf_config_release(&cfg);
	ok(parse(&cfg, &err, "--nope", NULL) < 0 && err.code == PF_E_AMBIGUOUS_OPTION, "unknown option refused");
	pf_config_release(&cfg);
	ok(parse(&cfg, &err, "-e", "a,,b", "x", NULL) < 0 && err.code == PF_E_EVENT_SYNTAX, "empty event refused");
	pf_config_release(&cfg);
	ok(parse(&cfg, &err, "--csv=;", "--btb-tm-tk", "-e", "x", "--btb-ppm-correct", "-e", "y", "--btb-tm-ntk",
		 "z", NULL) == 0,
	   "csv separator and BTB options");
	ok(strcmp(cfg.csv_sep, ";") == 0 && cfg.n_model_options == 3 && cfg.model_options[0].set == 0 &&
		   cfg.model_options[1].set == 0 && cfg.model_options[2].set == 1 &&
		   !strcmp(cfg.model_options[2].model, "itanium2"),
	   "model options recorded per set, for their model");
	pf_config_release(&cfg);
	ok(parse(&cfg, &err, "--btb-tm-tk", "-e", "x", "--btb-tm-tk", "z", NULL) < 0 && err.code == PF_E_OPTION_TWICE,
	   "a BTB option before -e and again after it is given twice for set 0");
	pf_config_release(&cfg);
	ok(parse(&cfg, &err, "-l", NULL) == 0 && cfg.list_events && !cfg.list_regex, "-l without regex");
	pf_config_release(&cfg);
	ok(parse(&cfg, &err, "-lCYC", NULL) == 0 && cfg.list_regex && strcmp(cfg.list_regex, "CYC") == 0,
	   "-lREGEX attached");
	pf_config_release(&cfg);

	/* --list-opts: hidden from --help, the table for the shell completion */
	ok(parse(&cfg, &err, "--list-opts", NULL) == 0 && cfg.list_opts, "--list-opts parses");
	pf_config_release(&cfg);
	{
		const char *unknown = NULL;
		char *help = NULL, *table = NULL;
		size_t help_len = 0, table_len = 0;
		FILE *f = open_memstream(&help, &help_len);

		options_usage(f);
		fclose(f);
		f = open_memstream(&table, &table_len);
		options_list_table(f);
		fclose(f);
		ok(options_names_known(&unknown), "every list of accepted names is an option's that takes a value");
		ok(!strstr(help, "list-opts") && !strstr(table, "list-opts"), "--list-opts is hidden");
		ok(strstr(table, "\n--report-sort required function line binary address data symbol_daddr mem snoop tlb lock blocked weight type typeoff p_stage_cyc local_p_stage_cyc "
			   "symbol_from,symbol_to srcline_from,srcline_to block mispredict\n") != NULL,
		   "--report-sort lists the names profile_sort_from_name accepts");
		ok(strstr(table, "\n-e required @events\n--events required @events\n") != NULL,
		   "-e and --events: a list of events");
		ok(strstr(table, "\n--smpl-outfile required @file\n") != NULL, "FILE: a file");
		ok(strstr(table, "\n--show-events optional\n") != NULL, "REGEX: any text");
		ok(strstr(table, "\n--btb-tm-tk none\n") != NULL, "the models' options follow");
		free(help);
		free(table);
	}
	return tap_done();
}
