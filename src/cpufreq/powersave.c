// SPDX-License-Identifier: GPL-2.0-only
/* powersave: always the lowest frequency the limits allow
 * (drivers/cpufreq/cpufreq_powersave.c). No periodic work. */
#include "cpufreq.h"

static void powersave_limits(struct cpufreq_policy *p)
{
	cpufreq_driver_target(p, p->min, RELATION_L);
}

const struct cpufreq_governor cpufreq_powersave = {
	.name = "powersave",
	.summary = "run at scaling_min_freq",
	.limits = powersave_limits,
};
