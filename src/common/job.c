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
static const char *const job_id_vars[] = { "SLURM_JOB_ID", "OMPI_MCA_ess_base_jobid", "PMIX_NAMESPACE", NULL };
/* older Slurm spells the step SLURM_STEPID */
static const char *const step_vars[] = { "SLURM_STEP_ID", "SLURM_STEPID", NULL };
static const char *const array_job_vars[] = { "SLURM_ARRAY_JOB_ID", NULL };
static const char *const array_task_vars[] = { "SLURM_ARRAY_TASK_ID", NULL };
static const char *const het_job_vars[] = { "SLURM_HET_JOB_ID", NULL };

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

/* the first of vars set and not empty, else "none" */
static void id_from(char *out, size_t size, job_env_fn env, const char *const *vars)
{
	snprintf(out, size, "none");
	for (; *vars; vars++) {
		const char *v = env(*vars);

		if (v && *v) {
			snprintf(out, size, "%s", v);
			return;
		}
	}
}

/*
 * The launch within the job: Slurm's step; mpirun on the allocation's one
 * node starts its ranks without srun, so no step is set: there each
 * mpirun's own job id tells two mpiruns of one allocation apart.
 */
static void step_from(struct job_identity *id, job_env_fn env)
{
	static const char *const ompi_job[] = { "OMPI_MCA_ess_base_jobid", NULL };

	id_from(id->step, sizeof(id->step), env, step_vars);
	if (!strcmp(id->step, "none") && env("SLURM_JOB_ID") && env("OMPI_COMM_WORLD_RANK"))
		id_from(id->step, sizeof(id->step), env, ompi_job);
}

const char *job_whole_id(const char *job_id, const char *array_job, const char *het_job)
{
	if (strcmp(het_job, "none"))
		return het_job;
	return strcmp(array_job, "none") ? array_job : job_id;
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
	id_from(id->job_id, sizeof(id->job_id), env, job_id_vars);
	step_from(id, env);
	id_from(id->array_job, sizeof(id->array_job), env, array_job_vars);
	id_from(id->array_task, sizeof(id->array_task), env, array_task_vars);
	id_from(id->het_job, sizeof(id->het_job), env, het_job_vars);
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
		case 'S': add_name_part(&sb, id->step); break;
		case 'J':
			add_name_part(&sb, id->job_id);
			if (strcmp(id->step, "none")) {
				strbuf_addch(&sb, '.');
				add_name_part(&sb, id->step);
			}
			break;
		case 'A': add_name_part(&sb, strcmp(id->array_job, "none") ? id->array_job : id->job_id); break;
		case 'a': add_name_part(&sb, id->array_task); break;
		case '%': strbuf_addch(&sb, '%'); break;
		default: {
			char why[320];

			if (p[1])
				snprintf(why, sizeof(why), "unknown escape '%%%c'", p[1]);
			else
				snprintf(why, sizeof(why), "a '%%' ends the name");
			snprintf(why + strlen(why), sizeof(why) - strlen(why), "; the escapes are %%r (rank), "
				 "%%s (job size), %%h (host), %%p (pid), %%j (job id), %%S (step), %%J (job.step), "
				 "%%A (array job id), %%a (array task) and %%%%");
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
		if (p[1] && strchr("rshpjSJAa", p[1]))
			return true;
		if (p[1])
			p++;
	}
	return false;
}
