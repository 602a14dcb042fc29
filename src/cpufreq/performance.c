// SPDX-License-Identifier: GPL-2.0-only
/* performance: always the highest frequency the limits allow
 * (drivers/cpufreq/cpufreq_performance.c). No periodic work. */
#include "cpufreq.h"

static void performance_limits(struct cpufreq_policy *p)
{
	cpufreq_driver_target(p, p->max, RELATION_H);
}

const struct cpufreq_governor cpufreq_performance = {
	.name = "performance",
	.summary = "run at scaling_max_freq",
	.limits = performance_limits,
};
