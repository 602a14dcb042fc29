// SPDX-License-Identifier: GPL-2.0-only
/* A comparison of policies: one machine and workload, each policy (a
 * profile entry, see runspec_profile) run `runs` times with seeds
 * seed..seed+runs-1, the figures of every run gathered into a cmp_set
 * (metrics/compare.h) for the writers. pmlab compare is one; so is each
 * seed experiment of pmlab validate, and pmlab replay --profiles. */
#ifndef PMLAB_COMPARISON_H
#define PMLAB_COMPARISON_H

#include <stdint.h>

#include "../core/diag.h"
#include "../core/simtime.h"
#include "../machine/machine.h"
#include "../metrics/compare.h"
#include "runspec.h"

struct gov_registry;

struct comparison {
	const char *cmd; /* "compare": the first word of run failures */
	const struct machine *m;
	const char *workload;
	const char *cpufreq, *cpuidle; /* NULL: the defaults (cpufreq: each profile's) */
	sim_ns duration;
	uint64_t seed;
	int runs;
	const char *const *sets; /* applied after each policy's own settings */
	int nsets;
	const char *const *dirs; /* searched first for profiles */
	int ndirs;
	const char *const *policy; /* profile entries */
	const char *const *label;  /* each policy's name in the output; NULL: the entry */
	int npolicies;
	int baseline;              /* index of the policy the others are set against */
	const char *timeline;      /* not NULL: PREFIX of each policy's first-run timeline */
	int workers;
	void (*done)(void *ctx, int ndone, int njobs); /* progress; may be NULL */
	void *done_ctx;
	const struct gov_registry *registry; /* plugins' governors; may be NULL */
	const void *workload_data; /* runspec's; may be NULL */
	bool keep_signals; /* lab/runner.h */
	/* Private. */
	struct runspec *spec;
};

/* Builds and checks every policy's run and sizes set for them: bad input
 * is found before any run. -1 with the reason in d, and in *bad the index
 * of the policy at fault (-1 if none is). */
int comparison_setup(struct comparison *c, struct cmp_set *set, int *bad, struct pm_diag *d);
/* Runs them all and stores their figures in set. -1 with the reason in d. */
int comparison_run(struct comparison *c, struct cmp_set *set, struct pm_diag *d);
void comparison_free(struct comparison *c);

#endif
