// SPDX-License-Identifier: GPL-2.0-only
/* The governors a run may name: the built-in registries
 * (cpufreq_governor_find(), cpuidle_governor_find()) and, after them, the
 * ones a lab loaded from plugins. Every lookup that resolves a name a user
 * gave goes through here, so that a plugin's governor is found, listed and
 * suggested like a built-in one. A NULL registry holds no plugins. */
#ifndef PMLAB_PLUGIN_REGISTRY_H
#define PMLAB_PLUGIN_REGISTRY_H

#include "../cpufreq/cpufreq.h"
#include "../cpuidle/cpuidle.h"
#include "../sched/placement.h"
#include "../workload/workload.h"

struct gov_registry {
	int ncpufreq, ncpuidle, nworkload, nplacement;
	const struct cpufreq_governor **cpufreq; /* plugins' */
	const struct cpuidle_governor **cpuidle;
	const struct workload_ops **workload;
	const struct placement_ops **placement;
};

const struct cpufreq_governor *registry_cpufreq_find(const struct gov_registry *r,
						     const char *name);
/* Built-in ones first, then the plugins'. */
int registry_cpufreq_count(const struct gov_registry *r);
const struct cpufreq_governor *registry_cpufreq_at(const struct gov_registry *r, int i);

const struct cpuidle_governor *registry_cpuidle_find(const struct gov_registry *r,
						     const char *name);
int registry_cpuidle_count(const struct gov_registry *r);
const struct cpuidle_governor *registry_cpuidle_at(const struct gov_registry *r, int i);

/* Workloads likewise; _find_spec takes "NAME[:ARG]" as --workload does. */
const struct workload_ops *registry_workload_find(const struct gov_registry *r, const char *name);
const struct workload_ops *registry_workload_find_spec(const struct gov_registry *r,
						       const char *spec);
int registry_workload_count(const struct gov_registry *r);
const struct workload_ops *registry_workload_at(const struct gov_registry *r, int i);

/* Placement policies likewise (--set placement=NAME). */
const struct placement_ops *registry_placement_find(const struct gov_registry *r,
						    const char *name);
int registry_placement_count(const struct gov_registry *r);
const struct placement_ops *registry_placement_at(const struct gov_registry *r, int i);

/* Whether KEY is a --set key of some run: the engine's, or a tunable of a
 * governor, placement policy or workload parameter, built in or r's. */
bool registry_key_known(const struct gov_registry *r, const char *key);
/* Whether KEY is a --set key of a run of these governors, placement
 * policy (NULL: a built-in one) and workload ("NAME[:ARG]"): the engine's
 * or one of theirs. True for a name r does not know (the run reports it). */
bool registry_run_has_key(const struct gov_registry *r, const char *cpufreq, const char *cpuidle,
			  const char *placement, const char *workload, const char *key);

/* Whether r holds any plugin's governor: runs that use r then go to a
 * worker process (plugin/guard.h). */
static inline bool registry_has_plugins(const struct gov_registry *r)
{
	return r && (r->ncpufreq > 0 || r->ncpuidle > 0 || r->nworkload > 0 || r->nplacement > 0);
}

#endif
