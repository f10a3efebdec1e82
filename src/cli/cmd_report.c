/* Reporting from a sample file: the same profile as at the end of a run. */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "common/util.h"
#include "report/profile.h"
#include "sample/smpl_file.h"

int cmd_report(const struct pf_config *cfg, struct pf_error *err)
{
	struct profile_opts po;
	struct smpl_reader *r;
	struct sample_record rec;
	struct profile *p;
	int rc;

	/* with the Itanium 2 model the file is a PMD dump */
	if (cfg->pmu && !strcmp(cfg->pmu, "itanium2"))
		return cmd_report_dump(cfg, err);
	if (cfg->smpl_module)
		return pf_error_set(err, PF_E_USAGE,
				    "--smpl-module applies to Itanium 2 dumps (--pmu=itanium2 --report=DUMP)");
	po = profile_opts_from_config(cfg);
	r = smpl_reader_open(cfg->report_file, err);
	if (!r)
		return -1;
	p = profile_new(&po, smpl_reader_header(r));
	while ((rc = smpl_reader_next(r, &rec, err)) > 0)
		profile_add(p, &rec);
	/* a corrupted file still shows what came before the damage */
	profile_set_status(p, smpl_reader_status(r));
	profile_print(p, stdout);
	profile_print_warnings(p, stderr);
	warn_lost(profile_lost(p), profile_throttled(p));
	if (rc == 0 && smpl_reader_status(r)->truncated) {
		fputs("warning: '", stderr);
		fput_escaped(stderr, cfg->report_file);
		fprintf(stderr, "' is truncated at offset %llu: the samples after it are lost\n",
			(unsigned long long)smpl_reader_status(r)->truncated_at);
	}
	profile_free(p);
	smpl_reader_close(r);
	return rc < 0 ? -1 : 0;
}
