// SPDX-License-Identifier: GPL-2.0-only
/* The "demand based switching" core shared by ondemand and conservative,
 * as drivers/cpufreq/cpufreq_governor.c has had it since v4.7 (followed as
 * of v6.18, with the April 2025 fix for negative idle deltas).
 *
 * There is no timer: every call of the scheduler's util hook asks whether
 * sampling_rate (times ondemand's rate_mult) has passed since the last
 * sample, and if so the governor samples right there. A CPU that stays
 * idle makes no hook calls and so takes no samples; the first sample after
 * a long idle period sees a long window, which dbs_update() treats with
 * the "reuse the pre-idle load once" rule and by counting idle periods.
 *
 * A governor's per-policy data starts with its struct dbs_policy (the
 * kernel's policy_dbs_info, which each governor's own info embeds), so that
 * the core's stop, limits and hook operations serve both governors as
 * cpufreq_dbs_governor_stop(), _limits() and dbs_update_util_handler() do;
 * its tunables follow, the common ones first (struct dbs_tuners). */
#ifndef PMLAB_DBS_H
#define PMLAB_DBS_H

#include <stdbool.h>
#include <stdint.h>

#include "cpufreq.h"

/* The tunables both governors have, in sysfs units. */
struct dbs_tuners {
	int64_t sampling_rate;        /* us; -1: the kernel's default for the policy */
	int64_t up_threshold;         /* % */
	int64_t sampling_down_factor;
	int64_t ignore_nice_load;     /* accepted; the simulator has no nice time */
	int64_t io_is_busy;           /* nonzero: iowait counts as busy (ondemand only) */
};

/* What dbs_update() remembers per CPU of the policy. */
struct dbs_cpu {
	uint64_t prev_update_time; /* us */
	uint64_t prev_cpu_idle;    /* us */
	unsigned int prev_load;    /* % */
	struct cpu_counters prev_perf; /* for a load weight that measures frequency */
};

struct dbs_policy {
	const struct dbs_tuners *tuners;
	unsigned int sampling_rate;   /* us, in effect */
	unsigned int rate_mult;       /* ondemand: sampling_down_factor while at max */
	unsigned int idle_periods;    /* set by dbs_update(); UINT32_MAX: none */
	/* The one-shot "woke from long idle: reuse the previous load" rule
	 * (v3.17+). Without it (v3.10) CPUs whose window is empty or shows
	 * more idle than wall time are left out of the maximum, as then. */
	bool reuse_prev_load;
	/* The sampler before v4.6: a deferrable timer per policy, not the
	 * scheduler's hook (cpufreq_update_util() arrived in v4.6). The
	 * simulator still samples at the hook's trigger points (a deferrable
	 * timer fires only on a CPU that is awake), but the kernel makes no
	 * hook calls: the policy's hook is CPUFREQ_HOOK_EMULATED. */
	bool timer;
	sim_ns last_sample_time, sample_delay_ns;
	struct dbs_cpu *cpus;         /* policy->ncpus of them, from dbs_start() */
	/* The governor's sample; returns the delay to the next one, us. */
	unsigned int (*gov_update)(struct cpufreq_policy *p);
	/* Optional (struct dbs_governor's limits, v6.1+): after the core's
	 * limits work. */
	void (*gov_limits)(struct cpufreq_policy *p);
	/* Optional: weight CPU j's load by this (v3.10 ondemand: its average
	 * frequency); NULL weighs 1. */
	uint64_t (*load_weight)(struct cpufreq_policy *p, int j);
};

/* CPUFREQ_DBS_MIN_SAMPLING_INTERVAL: two ticks, us. */
unsigned int dbs_min_sampling_rate(const struct cpufreq_policy *p);
/* The sampling_rate in effect (v4.15+): `requested` if it is at least two
 * ticks (store_sampling_rate() rejects less with -EINVAL), or for -1 the
 * default max(two ticks, cpufreq_policy_transition_delay_us()). */
int dbs_sampling_rate(const struct cpufreq_policy *p, int64_t requested, unsigned int *out,
		      struct pm_diag *d);
/* The same before v4.15: min_sampling_rate = max(min_rate_us, 20 x latency),
 * the default max(min_sampling_rate, 1000 x latency), and writes below the
 * minimum raised to it rather than rejected. */
unsigned int dbs_legacy_sampling_rate(const struct cpufreq_policy *p, int64_t requested,
				      unsigned int min_rate_us);

/* Allocates the per-CPU state and reads the baselines; the caller has set
 * tuners, sampling_rate, gov_update, reuse_prev_load, timer and load_weight. */
int dbs_start(struct cpufreq_policy *p, struct dbs_policy *dbs, struct pm_diag *d);
/* The governor operations, for struct cpufreq_governor:
 * cpufreq_dbs_governor_stop(); */
void dbs_stop(struct cpufreq_policy *p);
/* cpufreq_dbs_governor_limits(): keep cur within the limits, sample at the
 * next hook call, then the governor's gov_limits; */
void dbs_limits(struct cpufreq_policy *p);
/* dbs_update_util_handler(): sample if the delay has passed. */
void dbs_update_hook(struct cpufreq_policy *p, int cpu, sim_ns now, unsigned flags);
/* The policy's load: the maximum over its CPUs of the busy percentage since
 * the previous call (times the load weight, if any); sets idle_periods. */
uint64_t dbs_update(struct cpufreq_policy *p, struct dbs_policy *dbs);

#endif
