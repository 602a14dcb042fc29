// SPDX-License-Identifier: GPL-2.0-only
/* deepest: the deepest enabled state the latency limit allows, whatever
 * the expected idle time -- what a machine does with no idle governor
 * intelligence at all. It is the baseline the kernel's governors (menu,
 * teo, ladder) improve on, and keeps the engine usable end to end. */
#include "cpuidle.h"

static int deepest_select(struct cpuidle_device *dev, sim_ns latency_limit_ns, bool *stop_tick)
{
	return cpuidle_deepest_allowed(dev, latency_limit_ns);
}

const struct cpuidle_governor cpuidle_deepest = {
	.name = "deepest",
	.summary = "deepest enabled state within the PM QoS latency limit",
	.select = deepest_select,
	.blind = true,
};
