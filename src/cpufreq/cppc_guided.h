// SPDX-License-Identifier: GPL-2.0-only
/* amd-pstate's guided mode (amd_pstate=guided, v6.4+): a generic governor
 * runs, and the driver writes what it asks for as the CPPC request's
 * minimum with desired perf 0, so the hardware picks on its own at or
 * above the governor's choice (drivers/cpufreq/amd-pstate.c v6.15,
 * amd_pstate_update(): "if (cppc_state == AMD_PSTATE_GUIDED && gov_flags &
 * CPUFREQ_GOV_DYNAMIC_SWITCHING) { min_perf = des_perf; des_perf = 0; }").
 * Only governors that switch dynamically (schedutil, ondemand,
 * conservative) are handed over so; performance, powersave and userspace
 * get the frequency they ask for. The request's EPP field is written as 0
 * (amd_pstate_update() passes epp 0 to msr_update_perf()), so the loop of
 * hw_autonomous.h runs under EPP 0.
 *
 * A driver calls cppc_guided_request() with each target and
 * cppc_guided_evaluate() at the scheduler hook's trigger points; each
 * returns the kHz the hardware then runs (the highest choice among the
 * CPUs sharing the clock, within [floor, policy max]). */
#ifndef PMLAB_CPPC_GUIDED_H
#define PMLAB_CPPC_GUIDED_H

#include "hw_autonomous.h"

struct cppc_guided {
	uint32_t floor;      /* the governor's request: the CPPC minimum */
	int ncpus;
	uint32_t *want;      /* per CPU of the policy: the loop's last choice */
	struct hw_auto *hw;  /* per CPU of the policy */
};

int cppc_guided_init(struct cppc_guided *g, struct cpufreq_policy *p, struct pm_diag *d);
void cppc_guided_fini(struct cppc_guided *g);
/* The governor asked for `khz`: the kHz the hardware runs now. */
uint32_t cppc_guided_request(struct cppc_guided *g, const struct cpufreq_policy *p, uint32_t khz);
/* The loop of CPU `cpu` at `now`: the kHz the hardware runs, 0 if the
 * loop did not evaluate (nothing changes). */
uint32_t cppc_guided_evaluate(struct cppc_guided *g, struct cpufreq_policy *p, int cpu,
			      sim_ns now);

#endif
