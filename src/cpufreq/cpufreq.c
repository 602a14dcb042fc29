// SPDX-License-Identifier: GPL-2.0-only
#include "cpufreq.h"

#include <string.h>

extern const struct cpufreq_governor cpufreq_performance;
extern const struct cpufreq_governor cpufreq_powersave;
extern const struct cpufreq_governor cpufreq_userspace;
extern const struct cpufreq_governor cpufreq_ondemand;
extern const struct cpufreq_governor cpufreq_conservative;
extern const struct cpufreq_governor cpufreq_schedutil;
extern const struct cpufreq_governor cpufreq_intel_pstate;
extern const struct cpufreq_governor cpufreq_amd_pstate;

/* Adding a governor: one file and one line here. */
static const struct cpufreq_governor *const governors[] = {
	&cpufreq_performance,
	&cpufreq_powersave,
	&cpufreq_userspace,
	&cpufreq_ondemand,
	&cpufreq_conservative,
	&cpufreq_schedutil,
	&cpufreq_intel_pstate,
	&cpufreq_amd_pstate,
};

int cpufreq_governor_count(void)
{
	return (int)(sizeof(governors) / sizeof(governors[0]));
}

const struct cpufreq_governor *cpufreq_governor_at(int i)
{
	return governors[i];
}

const struct cpufreq_governor *cpufreq_governor_find(const char *name)
{
	for (int i = 0; i < cpufreq_governor_count(); i++)
		if (strcmp(governors[i]->name, name) == 0)
			return governors[i];
	return NULL;
}

uint32_t cpufreq_resolve(const struct cpufreq_policy *p, uint32_t target,
			 enum cpufreq_relation relation)
{
	uint32_t min = p->min > p->max ? p->max : p->min;
	if (target < min)
		target = min;
	if (target > p->max)
		target = p->max;
	/* lo: largest entry <= target; hi: smallest entry >= target. Entries
	 * outside [min, max] are not candidates. */
	int lo = -1, hi = -1;
	for (int i = 0; i < p->ntable; i++) {
		uint32_t f = p->table[i];
		if (f < min || f > p->max)
			continue;
		if (f <= target)
			lo = i;
		if (f >= target && hi < 0)
			hi = i;
	}
	if (lo < 0 && hi < 0)
		return target; /* no table entry in range: the limits themselves */
	switch ((int)relation & ~RELATION_E) {
	case RELATION_L:
		return p->table[hi >= 0 ? hi : lo];
	case RELATION_H:
		return p->table[lo >= 0 ? lo : hi];
	case RELATION_C:
	default:
		if (lo < 0)
			return p->table[hi];
		if (hi < 0)
			return p->table[lo];
		return (target - p->table[lo] > p->table[hi] - target) ? p->table[hi] : p->table[lo];
	}
}

/* RELATION_L gives the smallest in-range entry at or above the clamped
 * target, the largest in-range one above the top: each in-range entry f
 * takes the targets above the next in-range entry below it (all, from 0,
 * for the lowest) up to f (up to any, for the highest). */
uint32_t cpufreq_resolve_low_span(const struct cpufreq_policy *p, uint32_t target, uint32_t *lo,
				  uint32_t *hi)
{
	uint32_t f = cpufreq_resolve(p, target, RELATION_L);
	uint32_t min = p->min > p->max ? p->max : p->min;
	bool entry = false, above = false, below = false;
	uint32_t prev = 0;
	for (int i = 0; i < p->ntable; i++) {
		uint32_t e = p->table[i];
		if (e < min || e > p->max)
			continue;
		entry |= e == f;
		above |= e > f;
		if (e < f) {
			prev = !below || e > prev ? e : prev;
			below = true;
		}
	}
	*lo = *hi = target;
	if (!entry)
		return f; /* the limits themselves: each target its own */
	*lo = below ? prev + 1 : 0;
	*hi = above ? f : UINT32_MAX;
	return f;
}

void cpufreq_driver_target(struct cpufreq_policy *p, uint32_t target,
			   enum cpufreq_relation relation)
{
	uint32_t f = cpufreq_resolve(p, target, relation);
	if (f == p->cur)
		return;
	p->cur = f;
	p->driver->set_target(p->driver_ctx, p, f);
}

void cpufreq_request_cpus(struct cpufreq_policy *p, const uint32_t *khz)
{
	if (p->driver->request_cpus) {
		p->driver->request_cpus(p->driver_ctx, p, khz);
		return;
	}
	uint32_t top = 0;
	for (int j = 0; j < p->ncpus; j++)
		if (khz[j] > top)
			top = khz[j];
	cpufreq_driver_target(p, top, RELATION_L);
}

int cpufreq_set_limits(struct cpufreq_policy *p, uint32_t min, uint32_t max, struct pm_diag *d)
{
	if (min > max)
		return pm_fail(d, "scaling_min_freq %u kHz above scaling_max_freq %u kHz", min, max);
	if (max < p->cpuinfo_min || min > p->cpuinfo_max)
		return pm_fail(d, "limits %u..%u kHz outside the hardware's %u..%u kHz", min, max,
			       p->cpuinfo_min, p->cpuinfo_max);
	p->min = min < p->cpuinfo_min ? p->cpuinfo_min : min;
	p->max = max > p->cpuinfo_max ? p->cpuinfo_max : max;
	if (p->gov && p->gov->limits)
		p->gov->limits(p);
	return 0;
}

void cpufreq_policy_apply_limits(struct cpufreq_policy *p)
{
	if (p->max < p->cur)
		cpufreq_driver_target(p, p->max, RELATION_HE);
	else if (p->min > p->cur)
		cpufreq_driver_target(p, p->min, RELATION_LE);
}

#define LATENCY_MULTIPLIER 1000u

uint32_t cpufreq_policy_transition_delay_us(const struct cpufreq_policy *p)
{
	if (p->transition_delay_ns)
		return (uint32_t)(p->transition_delay_ns / NS_PER_US);
	uint32_t latency = (uint32_t)(p->transition_latency_ns / NS_PER_US);
	if (!latency)
		return LATENCY_MULTIPLIER;
	if (!p->kernel || p->kernel >= 6012)
		return latency + (latency >> 1); /* 50 % breathing room between updates */
	uint64_t delay = (uint64_t)latency * LATENCY_MULTIPLIER;
	if (p->kernel >= 6009) {
		/* Qais Yousef, "cpufreq: Change default transition delay to 2ms". */
		if (latency > 2000)
			return latency;
		return delay < 2000 ? (uint32_t)delay : 2000;
	}
	if (p->kernel >= 4014)
		return delay < 10000 ? (uint32_t)delay : 10000;
	return delay < UINT32_MAX ? (uint32_t)delay : UINT32_MAX;
}

int cpufreq_policy_cpu_scan(const struct cpufreq_policy *p, int cpu)
{
	for (int i = 0; i < p->ncpus; i++)
		if (p->cpus[i] == cpu)
			return i;
	return -1;
}

uint32_t cpufreq_default_min(const struct cpufreq_policy *p)
{
	/* amd_pstate_verify(): "Initialize lower frequency limit (i.e.
	 * policy->min) with lowest_nonlinear_frequency which is the most energy
	 * efficient frequency" (drivers/cpufreq/amd-pstate.c, v6.11+). */
	bool verify = p->kernel == 0 || p->kernel >= 6011;
	uint32_t lnl = p->lowest_nonlinear_khz;
	if (p->amd_pstate != CPPC_NONE && verify && lnl > p->cpuinfo_min && lnl <= p->cpuinfo_max)
		return lnl;
	return p->cpuinfo_min;
}
