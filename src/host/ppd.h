// SPDX-License-Identifier: GPL-2.0-only
/* power-profiles-daemon's three profiles as built-in pmlab profiles,
 * ppd/power-saver, ppd/balanced and ppd/performance: the writes ppd makes
 * on this machine, by the first of its drivers that probes here, in its
 * order (src/power-profiles-daemon.c objects[]):
 *
 *   platform_profile  (0.12, ppd-driver-platform-profile.c) when
 *                     platform_profile_choices has low-power, cool or
 *                     quiet, and balanced and performance: it writes
 *                     low-power (else cool, else quiet) | balanced |
 *                     performance, and nothing else;
 *   intel_pstate      (0.12, ppd-driver-intel-pstate.c) in active mode:
 *                     scaling_governor=powersave on every policy with an
 *                     energy_performance_preference, then EPP power |
 *                     balance_performance | performance; and EPB 15 | 6 | 0
 *                     on every CPU that has energy_perf_bias (in passive
 *                     mode EPB alone);
 *   amd-pstate        (0.13, ppd-driver-amd-pstate.c; 0.12 has none) in
 *                     active mode: powersave and EPP as intel_pstate, no EPB;
 *   placeholder       anything else: no write at all.
 *
 * The result is an ordinary resolved profile; the planner checks and
 * orders its writes as any other's. */
#ifndef PMLAB_PPD_H
#define PMLAB_PPD_H

#include "../profile/profile.h"
#include "inventory.h"

/* spec: "ppd/power-saver", "ppd/balanced" or "ppd/performance". */
int host_ppd_profile(struct profile *p, const char *spec, const struct hostfs *fs,
		     const struct host_info *hi, struct pm_diag *d);

#endif
