// SPDX-License-Identifier: GPL-2.0-only
#include "registry.h"

#include <string.h>

#include "../engine/sim.h"

const struct cpufreq_governor *registry_cpufreq_find(const struct gov_registry *r,
						     const char *name)
{
	for (int i = 0; r && i < r->ncpufreq; i++)
		if (strcmp(r->cpufreq[i]->name, name) == 0)
			return r->cpufreq[i];
	return cpufreq_governor_find(name);
}

int registry_cpufreq_count(const struct gov_registry *r)
{
	return cpufreq_governor_count() + (r ? r->ncpufreq : 0);
}

const struct cpufreq_governor *registry_cpufreq_at(const struct gov_registry *r, int i)
{
	int n = cpufreq_governor_count();
	return i < n ? cpufreq_governor_at(i) : r->cpufreq[i - n];
}

const struct cpuidle_governor *registry_cpuidle_find(const struct gov_registry *r,
						     const char *name)
{
	for (int i = 0; r && i < r->ncpuidle; i++)
		if (strcmp(r->cpuidle[i]->name, name) == 0)
			return r->cpuidle[i];
	return cpuidle_governor_find(name);
}

int registry_cpuidle_count(const struct gov_registry *r)
{
	return cpuidle_governor_count() + (r ? r->ncpuidle : 0);
}

const struct cpuidle_governor *registry_cpuidle_at(const struct gov_registry *r, int i)
{
	int n = cpuidle_governor_count();
	return i < n ? cpuidle_governor_at(i) : r->cpuidle[i - n];
}

const struct workload_ops *registry_workload_find(const struct gov_registry *r, const char *name)
{
	for (int i = 0; r && i < r->nworkload; i++)
		if (strcmp(r->workload[i]->name, name) == 0)
			return r->workload[i];
	return workload_find(name);
}

const struct workload_ops *registry_workload_find_spec(const struct gov_registry *r,
						       const char *spec)
{
	for (int i = 0; r && i < r->nworkload; i++)
		if (strcmp(r->workload[i]->name, spec) == 0)
			return r->workload[i];
	return workload_find_spec(spec);
}

int registry_workload_count(const struct gov_registry *r)
{
	return workload_count() + (r ? r->nworkload : 0);
}

const struct workload_ops *registry_workload_at(const struct gov_registry *r, int i)
{
	int n = workload_count();
	return i < n ? workload_at(i) : r->workload[i - n];
}

const struct placement_ops *registry_placement_find(const struct gov_registry *r,
						    const char *name)
{
	for (int i = 0; r && i < r->nplacement; i++)
		if (strcmp(r->placement[i]->name, name) == 0)
			return r->placement[i];
	return placement_find(name);
}

int registry_placement_count(const struct gov_registry *r)
{
	return placement_count() + (r ? r->nplacement : 0);
}

const struct placement_ops *registry_placement_at(const struct gov_registry *r, int i)
{
	int n = placement_count();
	return i < n ? placement_at(i) : r->placement[i - n];
}

static bool in_table(const struct tunable *t, int n, const char *key)
{
	for (int i = 0; i < n; i++)
		if (strcmp(t[i].name, key) == 0)
			return true;
	return false;
}

bool registry_key_known(const struct gov_registry *r, const char *key)
{
	if (sim_engine_key(key))
		return true;
	for (int i = 0; i < registry_cpufreq_count(r); i++)
		if (in_table(registry_cpufreq_at(r, i)->tunables, registry_cpufreq_at(r, i)->ntunables,
			     key))
			return true;
	for (int i = 0; i < registry_cpuidle_count(r); i++)
		if (in_table(registry_cpuidle_at(r, i)->tunables, registry_cpuidle_at(r, i)->ntunables,
			     key))
			return true;
	for (int i = 0; i < registry_placement_count(r); i++)
		if (in_table(registry_placement_at(r, i)->tunables,
			     registry_placement_at(r, i)->ntunables, key))
			return true;
	for (int i = 0; i < registry_workload_count(r); i++)
		if (in_table(registry_workload_at(r, i)->params, registry_workload_at(r, i)->nparams,
			     key))
			return true;
	return false;
}

bool registry_run_has_key(const struct gov_registry *r, const char *cpufreq, const char *cpuidle,
			  const char *placement, const char *workload, const char *key)
{
	const struct cpufreq_governor *cf = registry_cpufreq_find(r, cpufreq);
	const struct cpuidle_governor *ci = registry_cpuidle_find(r, cpuidle);
	const struct workload_ops *wl = registry_workload_find_spec(r, workload);
	const struct placement_ops *pl = placement ? registry_placement_find(r, placement) : NULL;

	if (!cf || !ci || !wl || (placement && !pl) || sim_engine_key(key))
		return true;
	return in_table(cf->tunables, cf->ntunables, key) ||
	       in_table(ci->tunables, ci->ntunables, key) ||
	       in_table(wl->params, wl->nparams, key) ||
	       (pl && in_table(pl->tunables, pl->ntunables, key));
}
