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
 * OMPI_MCA_ess_base_jobid, PMIX_NAMESPACE.  A value that is not a number,
 * or a rank not below the size, is an error naming the variable.
 */
int job_identity_from_env(struct job_identity *id, job_env_fn env, struct pf_error *err);

/*
 * A file name with its escapes expanded: %r rank, %s size, %h host, %p
 * pid, %j job id, %% a percent sign.  Any other %x, or a % at the end, is
 * a usage error naming the option.  *out is malloc'ed.
 */
int job_expand(const char *tmpl, const struct job_identity *id, const char *option, char **out,
	       struct pf_error *err);
/* does the name use a job escape (one that differs between ranks or runs)? */
bool job_has_escape(const char *tmpl);

#endif
