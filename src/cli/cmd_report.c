/* Reporting from a sample file: the same profile as at the end of a run. */
#include <config.h>

#include <stdio.h>

#include "commands.h"
#include "report/profile.h"
#include "sample/smpl_file.h"

int cmd_report(const struct pf_config *cfg, struct pf_error *err)
{
	struct profile_opts po = profile_opts_from_config(cfg);
	struct smpl_reader *r = smpl_reader_open(cfg->report_file, err);
	struct sample_record rec;
	struct profile *p;
	int rc;

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
	if (rc == 0 && smpl_reader_status(r)->truncated)
		fprintf(stderr, "warning: '%s' is truncated at offset %llu: the samples after it are lost\n",
			cfg->report_file, (unsigned long long)smpl_reader_status(r)->truncated_at);
	profile_free(p);
	smpl_reader_close(r);
	return rc < 0 ? -1 : 0;
}
