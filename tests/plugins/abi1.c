// SPDX-License-Identifier: GPL-2.0-only
/* A plugin as one built against pmlab/plugin.h of plugin ABI 1 is laid
 * out: its tunables without `words` (five members each). pmlab still
 * loads it: listed, its tunables set and range-checked, its run as a C
 * governor's. An idle governor that enters the deepest enabled state whose
 * exit latency fits abi1_max_exit_us and the PM QoS limit. */
#include <pmlab/plugin.h>

/* struct pmlab_tunable as ABI 1 had it. */
struct tunable_abi1 {
	const char *name;
	const char *help;
	int64_t def, min, max;
};

static const struct tunable_abi1 tunables[] = {
	{ "abi1_max_exit_us", "deepest exit latency allowed, us", 1000, 0, 100000 },
	{ "abi1_keep_tick", "1: never stop the tick", 0, 0, 1 },
};

static int abi1_select(struct pmlab_idle_device *dev, int64_t limit, bool *stop_tick)
{
	int64_t max_ns = dev->tunables[0] * 1000;
	int best = 0;

	for (int i = 1; i < dev->nstates; i++)
		if (!dev->disabled[i] && dev->states[i].exit_latency_ns <= limit &&
		    dev->states[i].exit_latency_ns <= max_ns)
			best = i;
	if (dev->tunables[1])
		*stop_tick = false;
	return best;
}

static const struct pmlab_idle_governor abi1 = {
	.name = "abi1",
	.summary = "built for plugin ABI 1",
	.tunables = (const struct pmlab_tunable *)(const void *)tunables,
	.ntunables = 2,
	.select = abi1_select,
};

PMLAB_PLUGIN_EXPORT const struct pmlab_plugin pmlab_plugin = {
	.abi = 1,
	.idle = &abi1,
};
