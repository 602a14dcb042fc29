#include "cpuidle.h"

#include <string.h>

extern const struct cpuidle_governor cpuidle_deepest;

/* Adding a governor: one file and one line here. */
static const struct cpuidle_governor *const governors[] = {
	&cpuidle_deepest,
};

int cpuidle_governor_count(void)
{
	return (int)(sizeof(governors) / sizeof(governors[0]));
}

const struct cpuidle_governor *cpuidle_governor_at(int i)
{
	return governors[i];
}

const struct cpuidle_governor *cpuidle_governor_find(const char *name)
{
	for (int i = 0; i < cpuidle_governor_count(); i++)
		if (strcmp(governors[i]->name, name) == 0)
			return governors[i];
	return NULL;
}

int cpuidle_deepest_allowed(const struct cpuidle_device *dev, sim_ns latency_limit_ns)
{
	int best = 0;
	for (int i = 1; i < dev->nstates; i++) {
		if (dev->disabled[i] || dev->states[i].exit_ns > latency_limit_ns)
			continue;
		best = i;
	}
	return best;
}
