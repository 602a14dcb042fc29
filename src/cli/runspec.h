// SPDX-License-Identifier: GPL-2.0-only
/* One simulation put together from the command line and, optionally, a
 * tuned profile: what pmlab compare runs for each profile and run, and
 * pmlab sweep for each point. */
#ifndef PMLAB_RUNSPEC_H
#define PMLAB_RUNSPEC_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/diag.h"
#include "../core/simtime.h"
#include "../machine/machine.h"
#include "../metrics/result.h"

#define RUNSPEC_NAME_MAX 64

struct sim_observer;

struct runspec {
	const struct machine *m; /* not owned */
	const char *workload;    /* not owned */
	char cpufreq[RUNSPEC_NAME_MAX];
	bool cpufreq_fixed;      /* the user named it: it wins over a profile's */
	char cpuidle[RUNSPEC_NAME_MAX];
	sim_ns duration;
	uint64_t seed;
	int nsets;
	char **sets; /* "KEY=VALUE", owned; applied in order, so a later one wins */
	char profile[RESULT_NAME_MAX]; /* the tuned profile applied, as given; "" for none */
	char *note;    /* what a profile did: "2 settings, 5 options not modelled"; owned, may be NULL */
	char *skipped; /* the options not modelled, "WHAT (WHY)", "; "-separated; owned, may be NULL */
	const struct sim_observer *observer; /* sim_config.observer of runspec_run; not owned, may be NULL */
};

/* Loads machine SPEC (a built-in name or an INI file), limited to its
 * first CPUS CPUs when cpus is not NULL (--cpus). -1 with the reason in d. */
int runspec_load_machine(struct machine *m, const char *spec, const char *cpus, struct pm_diag *d);
/* Appends a copy of "KEY=VALUE". -1 on OOM. */
int runspec_set(struct runspec *rs, const char *kv);
/* Applies a profile entry: "none" (nothing), "none:KEY=VALUE,..." (--set
 * keys, plus cpufreq=G and cpuidle=G), or a tuned profile name or path
 * with optional ":option=value,..." overrides, loaded against rs->m and
 * searched first in dirs[]. As with pmlab sim --profile, the profile's
 * governor replaces rs->cpufreq unless rs->cpufreq_fixed, and its
 * settings are appended, so --set options added afterwards override them.
 * -1 with the reason in d. */
int runspec_profile(struct runspec *rs, const char *spec, const char *const *dirs, int ndirs,
		    struct pm_diag *d);
/* Builds the simulation without running it, so that bad input is found
 * before any run starts. -1 with the reason in d. */
int runspec_check(const struct runspec *rs, struct pm_diag *d);
/* Runs it and hands the result to use() while the simulation, whose
 * machine model the result points to, still exists. Returns -1 with the
 * reason in d if the run fails, else what use() returns. */
int runspec_run(const struct runspec *rs, int (*use)(void *ctx, const struct run_result *r),
		void *ctx, struct pm_diag *d);
/* A deep copy (sets, note and skipped duplicated). -1 on OOM. */
int runspec_copy(struct runspec *dst, const struct runspec *src);
void runspec_free(struct runspec *rs);

#endif
