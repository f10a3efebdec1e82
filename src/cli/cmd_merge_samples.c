/* pfmon --merge of sample files: one profile of every rank */
#include <config.h>

#include "cli/commands.h"

int merge_samples(const struct pf_config *cfg, const char *const *paths, size_t n, struct pf_error *err)
{
	(void)cfg;
	(void)paths;
	(void)n;
	return pf_error_set(err, PF_E_USAGE, "not yet");
}
