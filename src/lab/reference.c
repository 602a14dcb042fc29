// SPDX-License-Identifier: GPL-2.0-only
#include "reference.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../cpufreq/cpufreq.h"
#include "../cpuidle/cpuidle.h"
#include "../engine/sim.h"
#include "../plugin/registry.h"
#include "../workload/workload.h"

static bool has_key(const struct tunable *t, int n, const char *key, size_t len)
{
	for (int i = 0; i < n; i++)
		if (strlen(t[i].name) == len && strncmp(t[i].name, key, len) == 0)
			return true;
	return false;
}

/* A --set only the tested frequency governor takes (ondemand's
 * up_threshold): the reference governor would refuse it. */
static bool governor_only(const char *kv, const struct cpufreq_governor *tested,
			  const struct cpufreq_governor *ref, const struct workload_ops *w,
			  const struct cpuidle_governor *idle)
{
	size_t len = strcspn(kv, "=");

	if (!tested || !has_key(tested->tunables, tested->ntunables, kv, len))
		return false;
	if (ref && has_key(ref->tunables, ref->ntunables, kv, len))
		return false;
	if (has_key(w->params, w->nparams, kv, len) ||
	    (idle && has_key(idle->tunables, idle->ntunables, kv, len)))
		return false;
	for (int i = 0; i < sim_engine_tunable_count(); i++)
		if (has_key(sim_engine_tunable_at(i), 1, kv, len))
			return false;
	return true;
}

static int run_reference(const struct runspec *rs, const struct workload_ops *w,
			 struct run_result *ref, struct pm_diag *d)
{
	const struct cpufreq_governor *tested =
		registry_cpufreq_find(rs->registry, runspec_cpufreq(rs, NULL));
	const struct cpufreq_governor *gov = registry_cpufreq_find(rs->registry, w->reference_cpufreq);
	const struct cpuidle_governor *idle = registry_cpuidle_find(rs->registry, rs->cpuidle);
	const char **sets = calloc((size_t)rs->nsets + 1, sizeof(*sets));
	struct sim_config cfg = {
		.machine = rs->m, .workload = rs->workload, .cpufreq = w->reference_cpufreq,
		.cpuidle = rs->cpuidle, .duration = runspec_duration_cap(rs->duration),
		.seed = rs->seed,
		.check_invariants = rs->check, .sets = sets, .registry = rs->registry,
	};
	struct sim *s = NULL;
	int rc;

	if (!sets)
		return pm_fail(d, "out of memory");
	for (int i = 0; i < rs->nsets; i++)
		if (!governor_only(rs->sets[i], tested, gov, w, idle))
			sets[cfg.nsets++] = rs->sets[i];
	rc = sim_create(&s, &cfg, d);
	if (rc == 0)
		rc = sim_run(s, ref, d);
	sim_destroy(s);
	free(sets);
	if (rc < 0) {
		char why[PM_DIAG_MAX];

		memcpy(why, d->msg, sizeof(why));
		return pm_fail(d, "the reference run under %s: %.*s", w->reference_cpufreq,
			       PM_DIAG_MAX - 64, why);
	}
	return 0;
}

int reference_apply(const struct runspec *rs, struct run_result *r, struct pm_diag *d)
{
	const struct workload_ops *w = registry_workload_find_spec(rs->registry, rs->workload);
	struct run_result ref;

	if (!w || !w->reference_cpufreq || !w->against_reference)
		return 0;
	if (strcmp(runspec_cpufreq(rs, NULL), w->reference_cpufreq) == 0) {
		ref = *r; /* only its extra figures are read */
		w->against_reference(r, &ref);
		return 0;
	}
	memset(&ref, 0, sizeof(ref));
	if (run_reference(rs, w, &ref, d) < 0) {
		result_free(&ref);
		return -1;
	}
	w->against_reference(r, &ref);
	result_free(&ref);
	return 0;
}
