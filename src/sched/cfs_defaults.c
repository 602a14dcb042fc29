// SPDX-License-Identifier: GPL-2.0-only
/* The CFS defaults scaled by CPUs. See cfs_defaults.h. */
#include "cfs_defaults.h"

static int ilog2(int v)
{
	int r = 0;
	while (v >>= 1)
		r++;
	return r;
}

struct cfs_defaults cfs_defaults(int online_cpus)
{
	int64_t factor = 1 + ilog2(online_cpus < 8 ? online_cpus : 8);
	return (struct cfs_defaults){
		.latency_ns = 6000000 * factor,
		.min_granularity_ns = 750000 * factor,
		.wakeup_granularity_ns = 1000000 * factor,
	};
}
