// SPDX-License-Identifier: GPL-2.0-only
/* intel_pstate in active mode: drivers/cpufreq/intel_pstate.c as of v6.6
 * (the load-based "powersave" algorithm of v4.15+ for every model, HWP
 * dynamic boost, the limits code), intel_epb.c for energy_perf_bias.
 *
 * In the kernel intel_pstate is a driver, not a governor: in active mode it
 * offers two built-in policies under the names "powersave" and
 * "performance", and the generic governors are not used. A tuned profile
 * that says governor=powersave on such a machine therefore gets this
 * algorithm, not cpufreq_powersave. pmlab has one governor seam, so the
 * driver is one governor, "intel_pstate", whose tunable scaling_governor
 * picks the policy; pmlab's "powersave" and "performance" stay the generic
 * governors (acpi-cpufreq machines).
 *
 * P-states are ratios of the CPU's performance unit: 100 MHz on Core
 * (core_get_scaling()), 78.741 MHz on a hybrid part's P-cores
 * (hybrid_get_cpu_scaling(), HYBRID_SCALING_FACTOR_ADL, v6.x; the E-cores
 * keep 100 MHz), the policy's perf_scaling_khz: the lowest is cpuinfo_min,
 * the highest non-turbo base_khz, the highest turbo cpuinfo_max; a ratio
 * is run at the lowest table entry at or above ratio x the unit, and
 * min_perf_pct and max_perf_pct are shares of each CPU's own highest
 * ratio. Each CPU has its own request; CPUs sharing a clock run at the
 * highest request of those that vote, as the hardware resolves them
 * (cpufreq_request_cpus(), engine/freq.c).
 *
 * hwp=0, powersave: every 10 ms (on a hook call of the CPU) it reads
 * APERF, MPERF and the TSC, and asks for 1.25 x the top ratio x the busy
 * fraction MPERF/TSC (at least the I/O-wait boost), raised halfway to the
 * average ratio APERF/MPERF if that was higher, within the limits
 * (max_perf_pct, min_perf_pct, no_turbo, scaling_min/max_freq).
 *
 * hwp=1 (the default on a processor with HWP, hwp=-1): the processor
 * picks the P-state itself within the HWP_REQUEST bounds, steered by the
 * energy-performance preference (EPP); the hardware's algorithm is not
 * published: pmlab's model of it is hw_autonomous.h's, driven at the
 * hook's trigger points, its choice rounded up to a ratio. A higher EPP
 * never picks a higher frequency for the same load. The performance
 * policy asks for min = max and EPP 0. hwp_dynamic_boost raises the HWP
 * minimum on frequent I/O wakeups as the kernel does. energy_perf_bias
 * (EPB) is stored and listed; its effect on the hardware (turbo, C-state
 * demotion) is the engine's (--set energy_perf_bias, engine/epb.c). */
#include <stdbool.h>
#include <stdlib.h>

#include "cpufreq.h"
#include "energy_hints.h"
#include "hookcost.h"
#include "hw_autonomous.h"

#define CORE_SCALING_KHZ 100000 /* core_get_scaling(): 100 MHz per ratio */
#define SAMPLING_INTERVAL_NS (10 * NS_PER_MS) /* INTEL_PSTATE_SAMPLING_INTERVAL */
#define HWP_BOOST_HOLD_NS (3 * NS_PER_MS)     /* hwp_boost_hold_time_ns */

/* The driver's fixed point: 8 fractional bits, 14 for performance ratios. */
#define FRAC_BITS 8
#define EXT_FRAC_BITS 14
#define ONE_EIGHTH_FP (1 << (FRAC_BITS - 3))
#define ONE_FP (1 << FRAC_BITS)

static int64_t mul_fp(int64_t x, int64_t y) { return (x * y) >> FRAC_BITS; }
static int64_t div_fp(int64_t x, int64_t y) { return (x << FRAC_BITS) / y; }
static uint64_t mul_ext_fp(uint64_t x, uint64_t y) { return (x * y) >> EXT_FRAC_BITS; }
static uint64_t div_ext_fp(uint64_t x, uint64_t y) { return (x << EXT_FRAC_BITS) / y; }

enum pstate_policy { POLICY_POWERSAVE, POLICY_PERFORMANCE };

static const char *const policy_words[] = { "powersave", "performance", NULL };
struct pstate_cpu {
	int current_pstate;      /* the ratio this CPU asks for */
	int64_t iowait_boost;    /* fraction, FRAC_BITS */
	sim_ns last_update;      /* of any hook call */
	sim_ns sample_time, last_sample_time;
	struct cpu_counters prev; /* at the previous sample */
	/* HWP model and dynamic boost */
	int hwp_target;          /* the ratio the hardware's loop wants */
	int hwp_boost_min;       /* raised HWP minimum, 0: none */
	sim_ns last_io_update, boost_last_update;
	struct hw_auto hwp;      /* the processor's loop */
};

struct pstate_data {
	int64_t policy, hwp, epp, epb, min_perf_pct, max_perf_pct, no_turbo, hwp_dynamic_boost;
	int min_pstate, max_pstate, turbo_pstate; /* ratios of the hardware */
	int64_t scaling;                          /* kHz per ratio (the hybrid scaling factor) */
	int min_perf_ratio, max_perf_ratio;       /* the limits in force */
	struct pstate_cpu *cpus;
	uint32_t *req_khz;                        /* each CPU's request, kHz */
};

static const struct tunable pstate_tunables[] = {
	{ "scaling_governor", "the driver's policy: powersave (the load-based algorithm, or "
	  "HWP) or performance", TUNABLE_FIELD(struct pstate_data, policy), POLICY_POWERSAVE, 0, 1,
	  policy_words },
	{ "hwp", "1: hardware P-states (Skylake and later), 0: the kernel picks P-states "
	  "(intel_pstate=no_hwp); -1: HWP where the machine has it",
	  TUNABLE_FIELD(struct pstate_data, hwp), -1, -1, 1, NULL },
	{ "energy_performance_preference", "EPP with hwp=1, 0 (performance) .. 255 (power) or "
	  "a name; -1 (balance_performance, default): the model's balance_performance EPP, 128 "
	  "unless the machine gives epp_balance_performance",
	  TUNABLE_FIELD(struct pstate_data, epp), -1, -1, 255, epp_words },
	{ "energy_perf_bias", "EPB, 0 (performance) .. 15 (power) or a name (stored; no effect "
	  "modelled)", TUNABLE_FIELD(struct pstate_data, epb), 6, 0, 15, epb_words },
	{ "min_perf_pct", "lowest P-state, % of the highest turbo one (raised to the hardware's "
	  "minimum; above max_perf_pct acts as it)", TUNABLE_FIELD(struct pstate_data, min_perf_pct),
	  0, 0, UINT32_MAX, NULL },
	{ "max_perf_pct", "highest P-state, % of the highest turbo one (above 100 acts as 100)",
	  TUNABLE_FIELD(struct pstate_data, max_perf_pct), 100, 0, UINT32_MAX, NULL },
	{ "no_turbo", "nonzero: never above the base frequency",
	  TUNABLE_FIELD(struct pstate_data, no_turbo), 0, 0, UINT32_MAX, NULL },
	{ "hwp_dynamic_boost", "nonzero: raise the HWP minimum on frequent I/O wakeups (hwp=1)",
	  TUNABLE_FIELD(struct pstate_data, hwp_dynamic_boost), 0, 0, UINT32_MAX, NULL },
};

static int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static int div_round_up(int64_t a, int64_t b)
{
	return (int)((a + b - 1) / b);
}

/* Each CPU writes its own request (IA32_PERF_CTL, or the P-state the HWP
 * loop picked within its IA32_HWP_REQUEST); the hardware resolves the
 * clock its CPUs share from them (cpufreq_request_cpus()). */
static void pstate_program(struct cpufreq_policy *p, const struct pstate_data *pd)
{
	for (int j = 0; j < p->ncpus; j++)
		pd->req_khz[j] = (uint32_t)(pd->cpus[j].current_pstate * pd->scaling);
	cpufreq_request_cpus(p, pd->req_khz);
}

/* intel_pstate_update_perf_limits() with global (not per-CPU) limits:
 * min_perf_pct and max_perf_pct are clamped as their store functions do,
 * min first. */
static void pstate_update_perf_limits(const struct cpufreq_policy *p, struct pstate_data *pd)
{
	int turbo_max = pd->turbo_pstate;
	int min_pct_min = pd->min_pstate * 100 / turbo_max; /* min_perf_pct_min() */
	int64_t min_pct = pd->min_perf_pct < min_pct_min ? min_pct_min : pd->min_perf_pct;
	if (min_pct > 100)
		min_pct = 100;
	/* store_no_turbo() squashes the minimum into the non-turbo range. */
	if (pd->no_turbo && min_pct > pd->max_pstate * 100 / turbo_max)
		min_pct = pd->max_pstate * 100 / turbo_max;
	int64_t max_pct = pd->max_perf_pct > 100 ? 100 : pd->max_perf_pct;
	if (max_pct < min_pct)
		max_pct = min_pct;

	int max_policy_perf = (int)(p->max / pd->scaling);
	if (pd->no_turbo && max_policy_perf > pd->max_pstate)
		max_policy_perf = pd->max_pstate; /* verify_policy caps scaling_max_freq */
	int min_policy_perf = p->max == p->min ? max_policy_perf
					       : clampi((int)(p->min / pd->scaling), 0,
							max_policy_perf);
	int global_max = div_round_up(turbo_max * max_pct, 100);
	int global_min = clampi(div_round_up(turbo_max * min_pct, 100), 0, global_max);

	int min_ratio = min_policy_perf > global_min ? min_policy_perf : global_min;
	if (min_ratio > max_policy_perf)
		min_ratio = max_policy_perf;
	int max_ratio = max_policy_perf < global_max ? max_policy_perf : global_max;
	if (max_ratio < min_policy_perf)
		max_ratio = min_policy_perf;
	pd->min_perf_ratio = min_ratio < max_ratio ? min_ratio : max_ratio;
	pd->max_perf_ratio = max_ratio;
}

/* intel_pstate_prepare_request() */
static int pstate_prepare_request(const struct pstate_data *pd, int pstate)
{
	int min = pd->min_pstate > pd->min_perf_ratio ? pd->min_pstate : pd->min_perf_ratio;
	int max = min > pd->max_perf_ratio ? min : pd->max_perf_ratio;
	return clampi(pstate, min, max);
}

/* intel_pstate_sample(): false when the CPU was fully idle (MPERF or the TSC
 * did not move) or when this only primed the counters. */
static bool pstate_sample(struct cpufreq_policy *p, struct pstate_cpu *c, int cpu, sim_ns time,
			  struct cpu_counters *delta)
{
	struct cpu_counters now;
	p->driver->cpu_counters(p->driver_ctx, cpu, &now);
	if (c->prev.mperf == now.mperf || c->prev.tsc == now.tsc)
		return false;
	c->last_sample_time = c->sample_time;
	c->sample_time = time;
	delta->aperf = now.aperf - c->prev.aperf;
	delta->mperf = now.mperf - c->prev.mperf;
	delta->tsc = now.tsc - c->prev.tsc;
	c->prev = now;
	return c->last_sample_time != 0;
}

/* get_target_pstate() */
static int pstate_get_target(const struct pstate_data *pd, const struct pstate_cpu *c,
			     const struct cpu_counters *s)
{
	int64_t busy_frac = div_fp((int64_t)s->mperf, (int64_t)s->tsc);
	if (busy_frac < c->iowait_boost)
		busy_frac = c->iowait_boost;
	int64_t target = pd->no_turbo ? pd->max_pstate : pd->turbo_pstate;
	target += target >> 2;
	target = mul_fp(target, busy_frac);
	if (target < pd->min_pstate)
		target = pd->min_pstate;
	/* Half the way up to last period's average ratio, against oscillation. */
	uint64_t core_avg_perf = div_ext_fp(s->aperf, s->mperf);
	int64_t avg_pstate = (int64_t)mul_ext_fp((uint64_t)pd->max_pstate, core_avg_perf);
	if (avg_pstate > target)
		target += (avg_pstate - target) >> 1;
	return (int)target;
}

/* intel_pstate_update_util(), the software algorithm. */
static void pstate_update_util(struct cpufreq_policy *p, struct pstate_data *pd,
			       struct pstate_cpu *c, int cpu, sim_ns time, unsigned flags)
{
	sim_ns delta_ns = time - c->last_update;
	if (flags & CPUFREQ_UPDATE_IOWAIT) {
		/* Start over if the CPU may have been idle. */
		if (delta_ns > p->tick_ns)
			c->iowait_boost = ONE_EIGHTH_FP;
		else if (c->iowait_boost >= ONE_EIGHTH_FP)
			c->iowait_boost = c->iowait_boost >= ONE_FP / 2 ? ONE_FP
									 : c->iowait_boost << 1;
		else
			c->iowait_boost = ONE_EIGHTH_FP;
	} else if (c->iowait_boost) {
		c->iowait_boost = delta_ns > p->tick_ns ? 0 : c->iowait_boost >> 1;
	}
	c->last_update = time;
	cpufreq_hook_spend(p, CPUFREQ_CYCLES_CHECK);
	if (time - c->sample_time < SAMPLING_INTERVAL_NS)
		return;
	/* intel_pstate_sample(): RDMSR of APERF and MPERF (and RDTSC). */
	cpufreq_hook_spend(p, 2 * CPUFREQ_CYCLES_MSR_READ);
	struct cpu_counters s;
	if (!pstate_sample(p, c, cpu, time, &s))
		return;
	cpufreq_hook_spend(p, CPUFREQ_CYCLES_SELECT);
	int target = pstate_prepare_request(pd, pstate_get_target(pd, c, &s));
	if (target != c->current_pstate) {
		/* intel_pstate_update_pstate(): WRMSR of IA32_PERF_CTL. */
		cpufreq_hook_spend(p, CPUFREQ_CYCLES_MSR_WRITE);
		c->current_pstate = target;
		pstate_program(p, pd);
	}
}

/* The HWP request in force: min, max and EPP as intel_pstate_hwp_set()
 * writes them (performance: min = max, EPP 0), with the dynamic boost. */
static int hwp_min(const struct pstate_data *pd, const struct pstate_cpu *c)
{
	int min = pd->policy == POLICY_PERFORMANCE ? pd->max_perf_ratio : pd->min_perf_ratio;
	if (c->hwp_boost_min > min)
		min = c->hwp_boost_min;
	return min > pd->min_pstate ? min : pd->min_pstate;
}

static int hwp_max(const struct pstate_data *pd)
{
	return pd->max_perf_ratio > pd->min_pstate ? pd->max_perf_ratio : pd->min_pstate;
}

/* The hardware runs its loop's choice within the request's bounds. */
static int hwp_ratio(const struct pstate_data *pd, const struct pstate_cpu *c)
{
	int min = hwp_min(pd, c), max = hwp_max(pd);
	return clampi(c->hwp_target, min, max > min ? max : min);
}

static void hwp_apply(struct cpufreq_policy *p, struct pstate_data *pd, struct pstate_cpu *c)
{
	int ratio = hwp_ratio(pd, c);
	if (ratio != c->current_pstate) {
		c->current_pstate = ratio;
		pstate_program(p, pd);
	}
}

/* The setpoint of the model: the busy share the hardware aims for. */
static void hwp_evaluate(struct cpufreq_policy *p, struct pstate_data *pd, struct pstate_cpu *c,
			 int cpu, sim_ns time)
{
	/* intel_epp_default[]: balance_performance, and the boot EPP, are the
	 * model's value. */
	int64_t balance_perf = p->epp_balance_perf ? p->epp_balance_perf : 128;
	int64_t epp = pd->policy == POLICY_PERFORMANCE ? 0 : pd->epp < 0 ? balance_perf : pd->epp;
	uint64_t target_khz = hw_auto_evaluate(&c->hwp, p, cpu, time, epp);
	if (!target_khz)
		return;
	c->hwp_target = div_round_up((int64_t)target_khz, pd->scaling);
	hwp_apply(p, pd, c);
}

/* intel_pstate_hwp_boost_up(): min, then halfway to guaranteed (P1), then
 * P1, then max. */
static void hwp_boost_up(struct pstate_data *pd, struct pstate_cpu *c, sim_ns time)
{
	int max_limit = hwp_max(pd), min_limit = pd->min_perf_ratio;
	int guaranteed = pd->max_pstate;
	if (max_limit == min_limit || c->hwp_boost_min >= max_limit)
		return;
	if (!c->hwp_boost_min)
		c->hwp_boost_min = min_limit;
	int level1 = (guaranteed + min_limit) >> 1;
	if (c->hwp_boost_min < level1)
		c->hwp_boost_min = level1;
	else if (c->hwp_boost_min < guaranteed)
		c->hwp_boost_min = guaranteed;
	else if (c->hwp_boost_min == guaranteed && max_limit != guaranteed)
		c->hwp_boost_min = max_limit;
	else
		return;
	c->boost_last_update = time;
}

/* intel_pstate_update_util_hwp_local(): I/O wakeups in two consecutive
 * ticks boost; a call more than 3 ms after the previous one (the CPU
 * idled) drops the boost. */
static void hwp_dynamic_boost(struct cpufreq_policy *p, struct pstate_data *pd,
			      struct pstate_cpu *c, sim_ns time, unsigned flags)
{
	int boost_before = c->hwp_boost_min;
	cpufreq_hook_spend(p, CPUFREQ_CYCLES_CHECK);
	if (flags & CPUFREQ_UPDATE_IOWAIT) {
		bool do_io = time < c->last_io_update + 2 * p->tick_ns;
		c->last_io_update = time;
		if (do_io)
			hwp_boost_up(pd, c, time);
	} else {
		if (c->hwp_boost_min && time > c->boost_last_update + HWP_BOOST_HOLD_NS)
			c->hwp_boost_min = 0;
		c->boost_last_update = time;
	}
	/* A new boost level is a WRMSR of IA32_HWP_REQUEST. */
	if (c->hwp_boost_min != boost_before)
		cpufreq_hook_spend(p, CPUFREQ_CYCLES_MSR_WRITE);
}

/* intel_pstate_set_policy() and intel_pstate_set_update_util_hook(): the
 * performance policy removes the hook; with HWP the kernel installs it
 * only for hwp_dynamic_boost. Without one, HWP's own loop still runs: the
 * model of it is driven at the hook's trigger points, at no CPU cost. */
static void pstate_set_hook(struct cpufreq_policy *p, const struct pstate_data *pd)
{
	if (pd->policy == POLICY_PERFORMANCE)
		p->hook = CPUFREQ_HOOK_NONE;
	else if (pd->hwp && !pd->hwp_dynamic_boost)
		p->hook = CPUFREQ_HOOK_EMULATED;
	else
		p->hook = CPUFREQ_HOOK_UTIL;
}

static void pstate_hook(struct cpufreq_policy *p, int cpu, sim_ns now, unsigned flags)
{
	struct pstate_data *pd = p->gov_data;
	int j = cpufreq_policy_cpu_index(p, cpu);
	if (j < 0 || pd->policy == POLICY_PERFORMANCE)
		return;
	struct pstate_cpu *c = &pd->cpus[j];
	if (!pd->hwp) {
		pstate_update_util(p, pd, c, cpu, now, flags);
		return;
	}
	/* hwp=1: the kernel's hook only boosts; the rest is the hardware's
	 * loop, which costs the CPU nothing. */
	if (pd->hwp_dynamic_boost)
		hwp_dynamic_boost(p, pd, c, now, flags);
	hwp_evaluate(p, pd, c, cpu, now);
	hwp_apply(p, pd, c);
}

static void pstate_limits(struct cpufreq_policy *p)
{
	struct pstate_data *pd = p->gov_data;
	pstate_set_hook(p, pd);
	pstate_update_perf_limits(p, pd);
	for (int j = 0; j < p->ncpus; j++) {
		struct pstate_cpu *c = &pd->cpus[j];
		if (pd->hwp)
			/* The hardware honours a new HWP_REQUEST at once. */
			c->current_pstate = hwp_ratio(pd, c);
		else if (pd->policy == POLICY_PERFORMANCE)
			/* intel_pstate_max_within_limits() */
			c->current_pstate = pd->min_pstate > pd->max_perf_ratio ? pd->min_pstate
										 : pd->max_perf_ratio;
		/* powersave keeps its ratio; the next sample applies the limits. */
	}
	pstate_program(p, pd);
}

static void pstate_stop(struct cpufreq_policy *p)
{
	struct pstate_data *pd = p->gov_data;
	free(pd->cpus);
	free(pd->req_khz);
	pd->cpus = NULL;
	pd->req_khz = NULL;
}

static int pstate_start(struct cpufreq_policy *p, struct pm_diag *d)
{
	struct pstate_data *pd = p->gov_data;
	if (pd->policy == POLICY_POWERSAVE && !p->driver->cpu_counters)
		return pm_fail(d, "intel_pstate: the cpufreq driver reports no APERF/MPERF counters");
	pd->scaling = p->perf_scaling_khz ? p->perf_scaling_khz : CORE_SCALING_KHZ;
	if (pd->hwp < 0)
		pd->hwp = p->hwp;
	pd->min_pstate = div_round_up(p->cpuinfo_min, pd->scaling);
	pd->max_pstate = (int)(p->base_khz / pd->scaling);
	pd->turbo_pstate = (int)(p->cpuinfo_max / pd->scaling);
	if (pd->max_pstate < 1 || pd->min_pstate > pd->max_pstate ||
	    pd->max_pstate > pd->turbo_pstate)
		return pm_fail(d, "intel_pstate: the frequencies %u..%u kHz (base %u) give no "
			       "P-state ratios (expected multiples of %lld kHz, base within them)",
			       p->cpuinfo_min, p->cpuinfo_max, p->base_khz, (long long)pd->scaling);
	pd->cpus = calloc((size_t)p->ncpus, sizeof(*pd->cpus));
	pd->req_khz = calloc((size_t)p->ncpus, sizeof(*pd->req_khz));
	if (!pd->cpus || !pd->req_khz) {
		pstate_stop(p);
		return pm_fail(d, "out of memory");
	}
	pstate_set_hook(p, pd);
	for (int j = 0; j < p->ncpus; j++) {
		/* intel_pstate_get_cpu_pstates() leaves every CPU at the minimum. */
		pd->cpus[j].current_pstate = pd->min_pstate;
		pd->cpus[j].hwp_target = pd->min_pstate;
		hw_auto_start(&pd->cpus[j].hwp, p, p->cpus[j]);
	}
	return 0;
}


const struct cpufreq_governor cpufreq_intel_pstate = {
	.since = 3009,
	.name = "intel_pstate",
	.summary = "Intel P-state driver, active mode: powersave (load-based or HWP with EPP) "
		   "or performance",
	.tunables = pstate_tunables,
	.ntunables = (int)(sizeof(pstate_tunables) / sizeof(pstate_tunables[0])),
	.data_size = sizeof(struct pstate_data),
	.start = pstate_start,
	.stop = pstate_stop,
	.limits = pstate_limits,
	.update = pstate_hook,
};
