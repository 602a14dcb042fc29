// SPDX-License-Identifier: GPL-2.0-only
/* amd-pstate in active mode: the amd-pstate-epp driver, a setpolicy driver
 * like intel_pstate's, with the policies powersave and performance.
 *
 * Followed: drivers/cpufreq/amd-pstate.c, Linux v6.15 (read at commit
 * 009d1c29a451: union perf_cached, freq_to_perf()). The OS writes the
 * CPPC request once per policy change and the hardware picks the
 * frequency itself (desired perf 0, "EPP firmware control"):
 *
 *  - amd_pstate_update_min_max_limit(): min_limit_perf and max_limit_perf
 *    from scaling_min_freq and scaling_max_freq; under the performance
 *    policy min_limit_perf = min(nominal_perf, max_limit_perf), the
 *    nominal (base) frequency, not the top as intel_pstate's HWP has it.
 *  - amd_pstate_verify() (v6.11+): a scaling_min_freq nobody set is
 *    lowest_nonlinear_freq, CPPC's most efficient frequency
 *    (cpufreq_default_min()).
 *  - amd_pstate_epp_update_limit(): EPP 0 under the performance policy,
 *    else the cached EPP. amd_pstate_set_energy_pref_index() refuses an
 *    EPP above 0 under the performance policy (EBUSY); "default" is
 *    epp_default, AMD_CPPC_EPP_BALANCE_PERFORMANCE (0x80) where
 *    amd_pstate_epp_cpu_init() picks the powersave policy (the FADT's PM
 *    profile is not a server; on a server the firmware's, modelled as the
 *    same). The four hints are AMD's values
 *    (AMD_CPPC_EPP_*: 0, 0x80, 0xBF, 0xFF), not intel_pstate's (0xC0 for
 *    balance_power).
 *  - The boost (cpufreq boost, --set boost=0) caps cpuinfo_max_freq at the
 *    nominal frequency (amd_pstate_cpu_boost_update()); the engine does.
 *
 * The hardware's choice within [min_limit, max_limit] is the autonomous
 * loop of hw_autonomous.h under the EPP in force. CPPC's 8-bit perf units
 * are finer than a machine's table: the choice runs at the table entry at
 * or above it. CPUs sharing a clock run the highest choice among them.
 * The kernel installs no scheduler hook for amd-pstate-epp; the loop is
 * driven at the hook's trigger points at no CPU cost. */
#include <stdlib.h>

#include "cpufreq.h"
#include "energy_hints.h"
#include "hw_autonomous.h"

enum amd_policy { AMD_POWERSAVE, AMD_PERFORMANCE };

static const char *const policy_words[] = { "powersave=0", "performance=1", NULL };

#define EPP_UNSET (-1)
#define AMD_EPP_DEFAULT 0x80 /* epp_default off a server: AMD_CPPC_EPP_BALANCE_PERFORMANCE */

struct amd_cpu {
	uint32_t want_khz; /* the loop's last choice, unbounded */
	struct hw_auto hw;
};

struct amd_data {
	int64_t policy, epp;
	uint32_t min_limit, max_limit; /* kHz: the CPPC request's min and max */
	struct amd_cpu *cpus;
};

static const struct tunable amd_tunables[] = {
	{ "scaling_governor", "the driver's policy: powersave (the hardware picks within the "
	  "limits, steered by EPP) or performance (EPP 0, at least the nominal frequency); -1: the "
	  "platform's, performance on a server (the machine's pm_profile), else powersave",
	  TUNABLE_FIELD(struct amd_data, policy), -1, -1, 1, policy_words },
	{ "energy_performance_preference", "EPP: performance (0), balance_performance (128), "
	  "balance_power (191), power (255), default (128), or 0..255 (-1: the policy's: 128, or 0 "
	  "under performance)", TUNABLE_FIELD(struct amd_data, epp), EPP_UNSET, EPP_UNSET, 255,
	  amd_epp_words },
};

/* The EPP the hardware runs under (amd_pstate_epp_update_limit()). */
static int64_t amd_epp(const struct amd_data *ad)
{
	if (ad->policy == AMD_PERFORMANCE)
		return 0;
	return ad->epp == EPP_UNSET ? AMD_EPP_DEFAULT : ad->epp;
}

static uint32_t clampu(uint64_t v, uint32_t lo, uint32_t hi)
{
	return v < lo ? lo : v > hi ? hi : (uint32_t)v;
}

static void amd_program(struct cpufreq_policy *p, const struct amd_data *ad)
{
	uint32_t khz = 0;
	for (int j = 0; j < p->ncpus; j++) {
		uint32_t c = clampu(ad->cpus[j].want_khz, ad->min_limit, ad->max_limit);
		if (c > khz)
			khz = c;
	}
	cpufreq_driver_target(p, khz, RELATION_L);
}

/* amd_pstate_update_min_max_limit() */
static void amd_update_limits(const struct cpufreq_policy *p, struct amd_data *ad)
{
	ad->max_limit = p->max;
	ad->min_limit = p->min;
	if (ad->policy == AMD_PERFORMANCE)
		ad->min_limit = p->base_khz < ad->max_limit ? p->base_khz : ad->max_limit;
}

static void amd_hook(struct cpufreq_policy *p, int cpu, sim_ns now, unsigned flags)
{
	(void)flags;
	struct amd_data *ad = p->gov_data;
	int j = cpufreq_policy_cpu_index(p, cpu);
	if (j < 0)
		return;
	uint64_t khz = hw_auto_evaluate(&ad->cpus[j].hw, p, cpu, now, amd_epp(ad));
	if (!khz)
		return;
	ad->cpus[j].want_khz = khz > UINT32_MAX ? UINT32_MAX : (uint32_t)khz;
	amd_program(p, ad);
}

static void amd_limits(struct cpufreq_policy *p)
{
	struct amd_data *ad = p->gov_data;
	amd_update_limits(p, ad);
	amd_program(p, ad);
}

static int amd_start(struct cpufreq_policy *p, struct pm_diag *d)
{
	struct amd_data *ad = p->gov_data;
	/* amd_pstate_epp_cpu_init(): "Set the policy to provide a valid fallback
	 * value in case the default cpufreq governor is neither powersave nor
	 * performance": performance where the FADT's PM profile is a server. */
	if (ad->policy < 0)
		ad->policy = p->pm_server ? AMD_PERFORMANCE : AMD_POWERSAVE;
	if (ad->policy == AMD_PERFORMANCE && ad->epp > 0)
		return pm_fail(d, "amd_pstate: energy_performance_preference=%lld under "
			       "scaling_governor=performance: the kernel refuses an EPP above 0 "
			       "under the performance policy (EBUSY; expected performance or 0)",
			       (long long)ad->epp);
	if (!p->driver->cpu_counters)
		return pm_fail(d, "amd_pstate: the cpufreq driver reports no APERF/MPERF counters");
	ad->cpus = calloc((size_t)p->ncpus, sizeof(*ad->cpus));
	if (!ad->cpus)
		return pm_fail(d, "out of memory");
	/* amd_pstate_epp_cpu_init(): "policy->cur = policy->cpuinfo.min_freq". */
	for (int j = 0; j < p->ncpus; j++) {
		ad->cpus[j].want_khz = p->cpuinfo_min;
		hw_auto_start(&ad->cpus[j].hw, p, p->cpus[j]);
	}
	p->hook = CPUFREQ_HOOK_EMULATED;
	p->hw_loop_ns = HW_AUTO_EVAL_NS; /* the processor's loop, in C0 */
	return 0;
}

static void amd_stop(struct cpufreq_policy *p)
{
	struct amd_data *ad = p->gov_data;
	free(ad->cpus);
	ad->cpus = NULL;
}

const struct cpufreq_governor cpufreq_amd_pstate = {
	.since = 6003, /* amd-pstate-epp, the active mode: v6.3 */
	.name = "amd_pstate",
	.summary = "AMD P-state driver, active mode (amd-pstate-epp): powersave (the hardware picks, "
		   "steered by EPP) or performance",
	.tunables = amd_tunables,
	.ntunables = (int)(sizeof(amd_tunables) / sizeof(amd_tunables[0])),
	.data_size = sizeof(struct amd_data),
	.start = amd_start,
	.stop = amd_stop,
	.limits = amd_limits,
	.update = amd_hook,
};
