/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Cluster runs: which rank of which job this pfmon is, as the job launcher
 * (mpirun, srun, a PMI or PMIx process manager) told it through the
 * environment, and the %-escapes of output file names built from it.
 * pfmon is no distributed system: the launcher starts one pfmon per rank,
 * each writes its own files, and `pfmon --merge` reads them afterwards.
 */
#ifndef PFMON_COMMON_JOB_H
#define PFMON_COMMON_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"

#define JOB_HOST_MAX 256
#define JOB_ID_MAX 128

struct job_identity {
	uint32_t rank;            /* 0 outside a launcher */
	uint32_t size;            /* ranks in the job; 1 outside a launcher */
	const char *launcher;     /* "openmpi", "pmix", "pmi", "slurm" or "none" */
	char host[JOB_HOST_MAX];  /* gethostname() */
	char job_id[JOB_ID_MAX];  /* the launcher's job id; "none" when it gives none */
	/* one launch in the job (a Slurm step, an mpirun), one task of a job
	 * array, the job a heterogeneous job's component is of: "none" when
	 * the launcher gives none */
	char step[JOB_ID_MAX];
	char array_job[JOB_ID_MAX], array_task[JOB_ID_MAX];
	char het_job[JOB_ID_MAX];
	long pid;                 /* pfmon's own process id */
};

/* reads one environment variable: getenv, or a test's table */
typedef const char *(*job_env_fn)(const char *name);

/*
 * The identity from the environment (env NULL: getenv).  The rank comes
 * from the first launcher, in this order, whose rank variable is set:
 * Open MPI (OMPI_COMM_WORLD_RANK), PMIx (PMIX_RANK), MPICH/Hydra and PMI
 * (PMI_RANK), Slurm (SLURM_PROCID); the size from the same launcher
 * (OMPI_COMM_WORLD_SIZE, PMI_SIZE, SLURM_NTASKS), or when it names none
 * (PMIx) from the first of those set.  The job id: SLURM_JOB_ID,
 * OMPI_MCA_ess_base_jobid, PMIX_NAMESPACE.  The step: SLURM_STEP_ID (or
 * SLURM_STEPID), else an mpirun's own job id (OMPI_MCA_ess_base_jobid)
 * inside a Slurm job, each mpirun of an allocation a launch of its own.
 * The array: SLURM_ARRAY_JOB_ID and SLURM_ARRAY_TASK_ID; the
 * heterogeneous job: SLURM_HET_JOB_ID.  A value that is not a number, or a
 * rank not below the size, is an error naming the variable.
 */
int job_identity_from_env(struct job_identity *id, job_env_fn env, struct pf_error *err);

/*
 * The job a run belongs to as a whole: the heterogeneous job, else the
 * job array, else the job itself (each array task and each component of a
 * heterogeneous job has a job id of its own).  Any of them "none".
 */
const char *job_whole_id(const char *job_id, const char *array_job, const char *het_job);

/*
 * A file name with its escapes expanded: %r rank, %s size, %h host, %p
 * pid, %j job id, %S step, %J job id and step (Slurm's "job.step"; the job
 * id alone outside a step), %A the array's job id (the job id outside an
 * array), %a the array task, %% a percent sign.  Any other %x, or a % at
 * the end, is a usage error naming the option.  *out is malloc'ed.
 */
int job_expand(const char *tmpl, const struct job_identity *id, const char *option, char **out,
	       struct pf_error *err);
/* does the name use a job escape (one that differs between ranks or runs)? */
bool job_has_escape(const char *tmpl);

#endif
