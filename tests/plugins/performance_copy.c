// SPDX-License-Identifier: GPL-2.0-only
/* src/cpufreq/performance.c against pmlab/plugin.h: the highest frequency
 * the limits allow. Run beside the built-in performance, byte-identical. */
#include <pmlab/plugin.h>

static void performance_limits(struct pmlab_freq_policy *p)
{
	p->target(p, p->max, PMLAB_RELATION_H);
}

static const struct pmlab_freq_governor performance_copy = {
	.name = "performance_copy",
	.summary = "the built-in performance, as a plugin",
	.limits = performance_limits,
};

PMLAB_PLUGIN_EXPORT const struct pmlab_plugin pmlab_plugin = {
	.abi = PMLAB_PLUGIN_ABI,
	.freq = &performance_copy,
};
