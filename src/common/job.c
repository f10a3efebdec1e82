/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "job.h"
#include "util.h"

/* one launcher's variables, in the order of precedence */
struct launcher {
	const char *name;
	const char *rank_var;
	const char *size_var; /* NULL: the launcher sets none */
};

/*
 * The MPI launchers first: inside a Slurm allocation mpirun starts its
 * daemons with srun, so SLURM_PROCID is then the daemon's number, not the
 * rank; only a pfmon started by srun itself has no MPI variable.
 */
static const struct launcher launchers[] = {
	{ "openmpi", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE" },
	{ "pmix", "PMIX_RANK", NULL },
	{ "pmi", "PMI_RANK", "PMI_SIZE" },
	{ "slurm", "SLURM_PROCID", "SLURM_NTASKS" },
};

static const char *const size_vars[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS", "SLURM_NPROCS" };
static const char *const job_id_vars[] = { "SLURM_JOB_ID", "OMPI_MCA_ess_base_jobid", "PMIX_NAMESPACE" };

/* a rank or size: a decimal number below 2^31 */
static int env_number(job_env_fn env, const char *var, uint32_t *out, struct pf_error *err)
{
	const char *v = env(var);
	uint64_t n;
	const char *why = parse_u64_why(v, &n);

	if (!why && n <= INT32_MAX) {
		*out = (uint32_t)n;
		return 0;
	}
	return pf_error_set(err, PF_E_BAD_ENV, var, v, why ? why : "expected a number below 2^31");
}

static int job_size(const struct launcher *l, job_env_fn env, struct job_identity *id, struct pf_error *err)
{
	const char *var = l->size_var && env(l->size_var) ? l->size_var : NULL;

	for (size_t i = 0; !var && i < ARRAY_SIZE(size_vars); i++)
		if (env(size_vars[i]))
			var = size_vars[i];
	if (!var) /* PMIx alone says no size: the rank is known, the size is not */
		return pf_error_set(err, PF_E_BAD_ENV, "PMIX_RANK", env("PMIX_RANK"),
				    "the launcher gives no job size (OMPI_COMM_WORLD_SIZE, PMI_SIZE or SLURM_NTASKS)");
	if (env_number(env, var, &id->size, err))
		return -1;
	if (id->rank >= id->size)
		return pf_error_set(err, PF_E_JOB_RANK, (int)id->rank, l->rank_var, (int)id->size, var);
	return 0;
}

static const char *real_getenv(const char *name)
{
	return getenv(name);
}

int job_identity_from_env(struct job_identity *id, job_env_fn env, struct pf_error *err)
{
	const struct launcher *l = NULL;

	if (!env)
		env = real_getenv;
	memset(id, 0, sizeof(*id));
	id->size = 1;
	id->launcher = "none";
	id->pid = (long)getpid();
	if (gethostname(id->host, sizeof(id->host) - 1) != 0 || !id->host[0])
		snprintf(id->host, sizeof(id->host), "unknown");
	snprintf(id->job_id, sizeof(id->job_id), "none");
	for (size_t i = 0; i < ARRAY_SIZE(job_id_vars); i++) {
		const char *v = env(job_id_vars[i]);

		if (v && *v) {
			snprintf(id->job_id, sizeof(id->job_id), "%s", v);
			break;
		}
	}
	for (size_t i = 0; !l && i < ARRAY_SIZE(launchers); i++)
		if (env(launchers[i].rank_var))
			l = &launchers[i];
	if (!l)
		return 0;
	id->launcher = l->name;
	if (env_number(env, l->rank_var, &id->rank, err))
		return -1;
	return job_size(l, env, id, err);
}

/* a job id or host name in a file name: a '/' would name a directory */
static void add_name_part(struct strbuf *sb, const char *s)
{
	for (; *s; s++)
		strbuf_addch(sb, *s == '/' ? '_' : *s);
}

int job_expand(const char *tmpl, const struct job_identity *id, const char *option, char **out,
	       struct pf_error *err)
{
	struct strbuf sb = STRBUF_INIT;

	*out = NULL;
	for (const char *p = tmpl; *p; p++) {
		if (*p != '%') {
			strbuf_addch(&sb, *p);
			continue;
		}
		switch (p[1]) {
		case 'r': strbuf_addf(&sb, "%u", id->rank); break;
		case 's': strbuf_addf(&sb, "%u", id->size); break;
		case 'p': strbuf_addf(&sb, "%ld", id->pid); break;
		case 'h': add_name_part(&sb, id->host); break;
		case 'j': add_name_part(&sb, id->job_id); break;
		case '%': strbuf_addch(&sb, '%'); break;
		default: {
			char why[160];

			if (p[1])
				snprintf(why, sizeof(why), "unknown escape '%%%c'", p[1]);
			else
				snprintf(why, sizeof(why), "a '%%' ends the name");
			snprintf(why + strlen(why), sizeof(why) - strlen(why), "; the escapes are %%r (rank), "
				 "%%s (job size), %%h (host), %%p (pid), %%j (job id) and %%%%");
			strbuf_release(&sb);
			return pf_error_set(err, PF_E_BAD_OPTION_VALUE, tmpl, option, why);
		}
		}
		p++;
	}
	*out = strbuf_detach(&sb);
	return 0;
}

bool job_has_escape(const char *tmpl)
{
	for (const char *p = tmpl; p && *p; p++) {
		if (*p != '%')
			continue;
		if (p[1] && strchr("rshpj", p[1]))
			return true;
		if (p[1])
			p++;
	}
	return false;
}
