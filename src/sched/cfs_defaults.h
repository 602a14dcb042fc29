// SPDX-License-Identifier: GPL-2.0-only
/* The CFS tunables' defaults as the kernel sets them at boot
 * (kernel/sched/fair.c, v6.5, the last before EEVDF): the normalized
 * values 6 ms (sched_latency_ns), 0.75 ms (sched_min_granularity_ns) and
 * 1 ms (sched_wakeup_granularity_ns), times get_update_sysctl_factor()
 * under the default SCHED_TUNABLESCALING_LOG: 1 + ilog2(CPUs), the CPUs
 * online capped at 8. The engine uses them when a knob is left at 0, the
 * profile mapper as the value a '>'/'<' modifier compares against. */
#ifndef PMLAB_CFS_DEFAULTS_H
#define PMLAB_CFS_DEFAULTS_H

#include <stdint.h>

struct cfs_defaults {
	int64_t latency_ns, min_granularity_ns, wakeup_granularity_ns;
};

struct cfs_defaults cfs_defaults(int online_cpus);

#endif
