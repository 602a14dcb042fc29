// SPDX-License-Identifier: GPL-2.0-only
/* A run measured against the same run under another frequency governor,
 * for workloads that ask for it (workload_ops.reference_cpufreq): the
 * squarewave against performance, as cpufreq-bench measures a governor.
 * runspec_run() calls it for every run, so sim, compare, sweep and
 * validate all report the comparison. */
#ifndef PMLAB_REFERENCE_H
#define PMLAB_REFERENCE_H

#include "../core/diag.h"
#include "../metrics/result.h"
#include "runspec.h"

/* When rs's workload has a reference governor: runs rs under it (same
 * machine, seed, duration and settings, less those only the tested
 * governor knows) unless rs already is that run, and lets the workload add
 * the comparison to r. 0 when there is nothing to do; -1 with the reason
 * in d if the reference run fails. */
int reference_apply(const struct runspec *rs, struct run_result *r, struct pm_diag *d);

#endif
