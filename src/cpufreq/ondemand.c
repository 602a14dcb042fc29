// SPDX-License-Identifier: GPL-2.0-only
/* ondemand: drivers/cpufreq/cpufreq_ondemand.c as of v6.18 (structure since
 * v4.7, relations LE/HE/CE since v5.16), over the DBS core in dbs.c.
 *
 * Every sample: a load above up_threshold jumps to scaling_max_freq (and
 * keeps it for sampling_down_factor samples); anything else maps the load
 * proportionally onto the hardware range, min + load x (max - min) / 100,
 * closest table entry. powersave_bias lowers the target by that many per
 * mille and, when that falls between two table entries, alternates them
 * within each sampling period so the average is the biased target.
 *
 * `variant` replays older decisions for matching old traces. Those kernels
 * sampled from a deferrable timer of the same period, aligned to jiffies,
 * not from the scheduler's hook (v4.6+): the samples are still taken at the
 * hook's trigger points, but no hook call is made or charged, only the
 * samples (CPUFREQ_HOOK_EMULATED):
 *   3.11  kernels 3.11-4.5: f = load x cpuinfo_max / 100, relation L.
 *   3.10  kernels up to 3.10: load weighted by each CPU's average frequency
 *         (APERF/MPERF, as acpi-cpufreq's getavg measured it, else cur);
 *         raise to max above up_threshold x cur, lower only below
 *         (up_threshold - 3) x cur, to load_freq / (up_threshold - 3),
 *         relation L; no long-idle load reuse.
 * Both use the sampling_rate default and floor of their time (10 ms minimum
 * with NOHZ idle accounting, writes below it raised to it). */
#include <stddef.h>
#include <stdlib.h>

#include "dbs.h"

enum od_variant { OD_CURRENT, OD_V3_11, OD_V3_10 };

static const char *const od_variant_words[] = { "current", "3.11", "3.10", NULL };

/* MICRO_FREQUENCY_DOWN_DIFFERENTIAL: the v3.10 gap below up_threshold. */
#define OD_V3_10_DOWN_DIFFERENTIAL 3
/* MICRO_FREQUENCY_MIN_SAMPLE_RATE: the pre-v4.15 floor with NOHZ accounting. */
#define OD_LEGACY_MIN_SAMPLING_RATE 10000

struct od_data {
	struct dbs_policy dbs;   /* first: the DBS core's operations find it there */
	struct dbs_tuners dbs_t;
	int64_t powersave_bias;  /* per mille */
	int64_t variant;
	/* powersave_bias PWM: run freq_hi for freq_hi_delay_us, then freq_lo. */
	unsigned int freq_lo, freq_lo_delay_us, freq_hi_delay_us;
	bool sub_sample;         /* OD_SUB_SAMPLE: the next sample only switches to freq_lo */
};

static const struct tunable od_tunables[] = {
	{ "sampling_rate", "us between samples, at least 2 ticks (-1: max(2 ticks, transition "
	  "delay))", TUNABLE_FIELD(struct od_data, dbs_t.sampling_rate), -1, -1, UINT32_MAX, NULL },
	/* store_up_threshold(): MIN_FREQUENCY_UP_THRESHOLD (1) to
	 * MAX_FREQUENCY_UP_THRESHOLD (100), as mainline has it (checked at
	 * v6.8); v3.10's floor was 11 (od_start() checks it for that variant). */
	{ "up_threshold", "load % above which the frequency jumps to the maximum",
	  TUNABLE_FIELD(struct od_data, dbs_t.up_threshold), 95, 1, 100, NULL },
	{ "sampling_down_factor", "samples to stay at the maximum after a jump (rate_mult)",
	  TUNABLE_FIELD(struct od_data, dbs_t.sampling_down_factor), 1, 1, 100000, NULL },
	{ "ignore_nice_load", "1: nice time counts as idle (above 1 acts as 1; no nice time here)",
	  TUNABLE_FIELD(struct od_data, dbs_t.ignore_nice_load), 0, 0, UINT32_MAX, NULL },
	{ "io_is_busy", "nonzero: iowait counts as busy (kernel default on Intel Core 2 and later)",
	  TUNABLE_FIELD(struct od_data, dbs_t.io_is_busy), 1, 0, UINT32_MAX, NULL },
	{ "powersave_bias", "per mille to lower targets by, alternating two entries (above 1000 "
	  "acts as 1000)", TUNABLE_FIELD(struct od_data, powersave_bias), 0, 0, UINT32_MAX, NULL },
	{ "variant", "decision rule: current (4.6+), 3.11 (load x max / 100) or 3.10 (frequency-"
	  "weighted load)", TUNABLE_FIELD(struct od_data, variant), OD_CURRENT, 0, 2,
	  od_variant_words },
};

static unsigned int od_bias(const struct od_data *od)
{
	return od->powersave_bias > 1000 ? 1000 : (unsigned int)od->powersave_bias;
}

/* generic_powersave_bias_target(): the table entries either side of the
 * biased target and how long to run each within one sampling period. */
static unsigned int od_bias_target(struct cpufreq_policy *p, struct od_data *od,
				   unsigned int freq_next, enum cpufreq_relation relation)
{
	unsigned int efficient = (unsigned int)relation & RELATION_E;
	enum cpufreq_relation below = (enum cpufreq_relation)(RELATION_H | efficient);
	enum cpufreq_relation above = (enum cpufreq_relation)(RELATION_L | efficient);
	uint32_t freq_req = cpufreq_resolve(p, freq_next, relation);
	uint32_t freq_avg = freq_req - (uint32_t)((uint64_t)freq_req * od_bias(od) / 1000);
	uint32_t freq_lo = cpufreq_resolve(p, freq_avg, below);
	uint32_t freq_hi = cpufreq_resolve(p, freq_avg, above);
	if (freq_hi == freq_lo) {
		od->freq_lo = 0;
		od->freq_lo_delay_us = 0;
		return freq_lo;
	}
	uint64_t rate = od->dbs.sampling_rate;
	uint64_t delay_hi = ((uint64_t)(freq_avg - freq_lo) * rate + (freq_hi - freq_lo) / 2) /
			    (freq_hi - freq_lo);
	od->freq_hi_delay_us = (unsigned int)delay_hi;
	od->freq_lo = freq_lo;
	od->freq_lo_delay_us = (unsigned int)(rate - delay_hi);
	return freq_hi;
}

static void od_freq_increase(struct cpufreq_policy *p, struct od_data *od, unsigned int freq)
{
	if (od_bias(od))
		freq = od_bias_target(p, od, freq, RELATION_HE);
	else if (p->cur == p->max)
		return;
	cpufreq_driver_target(p, freq, od_bias(od) ? RELATION_LE : RELATION_HE);
}

/* Above the threshold: to the maximum, staying there sampling_down_factor
 * samples. Shared by every variant. */
static void od_jump_to_max(struct cpufreq_policy *p, struct od_data *od)
{
	if (p->cur < p->max)
		od->dbs.rate_mult = (unsigned int)od->dbs_t.sampling_down_factor;
	od_freq_increase(p, od, p->max);
}

/* Below it, with the relation of the variant. */
static void od_lower(struct cpufreq_policy *p, struct od_data *od, unsigned int freq_next,
		     enum cpufreq_relation relation)
{
	/* The biased target is the lowest entry at or above the request. */
	unsigned int efficient = (unsigned int)relation & RELATION_E;
	od->dbs.rate_mult = 1;
	if (od_bias(od))
		freq_next = od_bias_target(p, od, freq_next,
					   (enum cpufreq_relation)(RELATION_L | efficient));
	cpufreq_driver_target(p, freq_next, relation);
}

static void od_update(struct cpufreq_policy *p, struct od_data *od)
{
	uint64_t load = dbs_update(p, &od->dbs);
	uint64_t up = (uint64_t)od->dbs_t.up_threshold;
	od->freq_lo = 0;

	switch (od->variant) {
	case OD_CURRENT:
		if (load > up) {
			od_jump_to_max(p, od);
		} else {
			/* The hardware range, not the limits: cpufreq_driver_target clamps. */
			uint64_t min_f = p->cpuinfo_min, max_f = p->cpuinfo_max;
			uint64_t freq_next = min_f + load * (max_f - min_f) / 100;
			od_lower(p, od, (unsigned int)freq_next, RELATION_CE);
		}
		break;
	case OD_V3_11:
		if (load > up)
			od_jump_to_max(p, od);
		else
			od_lower(p, od, (unsigned int)(load * p->cpuinfo_max / 100), RELATION_L);
		break;
	case OD_V3_10: {
		/* load is load x average kHz here, compared with thresholds x cur. */
		uint64_t adj_up = up - OD_V3_10_DOWN_DIFFERENTIAL;
		if (load > up * p->cur) {
			od_jump_to_max(p, od);
		} else if (p->cur != p->min && load < adj_up * p->cur) {
			uint64_t freq_next = load / adj_up;
			if (freq_next < p->min)
				freq_next = p->min;
			od_lower(p, od, (unsigned int)freq_next, RELATION_L);
		}
		break;
	}
	}
}

static unsigned int od_dbs_update(struct cpufreq_policy *p)
{
	struct od_data *od = p->gov_data;
	bool sub_sample = od->sub_sample;
	od->sub_sample = false;
	/* A sub-sample makes no sense once the delay was reset (limits changed). */
	if (sub_sample && od->dbs.sample_delay_ns > 0) {
		cpufreq_driver_target(p, od->freq_lo, RELATION_HE);
		return od->freq_lo_delay_us;
	}
	od_update(p, od);
	if (od->freq_lo) {
		od->sub_sample = true;
		return od->freq_hi_delay_us;
	}
	return od->dbs.sampling_rate * od->dbs.rate_mult;
}

/* v3.10 __cpufreq_driver_getavg() on acpi-cpufreq: the average frequency
 * while in C0 since the previous call, from APERF/MPERF in 1/1024 steps
 * (calc_aperfmperf_ratio()); 0, i.e. "use cur", without counters. */
static uint64_t od_measured_khz(struct cpufreq_policy *p, int j)
{
	struct od_data *od = p->gov_data;
	if (!p->driver->cpu_counters)
		return p->cur;
	struct cpu_counters now, *prev = &od->dbs.cpus[j].prev_perf;
	p->driver->cpu_counters(p->driver_ctx, p->cpus[j], &now);
	uint64_t aperf = now.aperf - prev->aperf;
	uint64_t mperf = (now.mperf - prev->mperf) >> 10;
	*prev = now;
	uint64_t ratio = mperf ? aperf / mperf : aperf;
	uint64_t khz = (uint64_t)p->base_khz * ratio >> 10;
	return khz ? khz : p->cur;
}

static int od_start(struct cpufreq_policy *p, struct pm_diag *d)
{
	struct od_data *od = p->gov_data;
	struct dbs_policy *dbs = &od->dbs;
	/* v3.10's MIN_FREQUENCY_UP_THRESHOLD was 11: its lowering rule divides
	 * by up_threshold minus the down differential. */
	if (od->variant == OD_V3_10 && od->dbs_t.up_threshold < 11)
		return pm_fail(d, "up_threshold=%lld: out of range for variant 3.10 (expected "
			       "11..100)", (long long)od->dbs_t.up_threshold);
	dbs->tuners = &od->dbs_t;
	dbs->gov_update = od_dbs_update;
	dbs->gov_limits = NULL;
	dbs->reuse_prev_load = od->variant != OD_V3_10;
	/* Both older variants stand for kernels before v4.6: a timer samples. */
	dbs->timer = od->variant != OD_CURRENT;
	dbs->load_weight = od->variant == OD_V3_10 ? od_measured_khz : NULL;
	if (od->variant == OD_CURRENT) {
		if (dbs_sampling_rate(p, od->dbs_t.sampling_rate, &dbs->sampling_rate, d) < 0)
			return -1;
	} else {
		dbs->sampling_rate = dbs_legacy_sampling_rate(p, od->dbs_t.sampling_rate,
							      OD_LEGACY_MIN_SAMPLING_RATE);
	}
	od->sub_sample = false;
	od->freq_lo = 0;
	return dbs_start(p, dbs, d);
}

_Static_assert(offsetof(struct od_data, dbs) == 0, "the DBS core finds dbs first");

static const char *od_kernel_rules(int version)
{
	if (version <= 3010)
		return "variant=3.10";
	return version <= 4005 ? "variant=3.11" : NULL;
}

const struct cpufreq_governor cpufreq_ondemand = {
	.name = "ondemand",
	.dynamic_switching = true,
	.summary = "sample the busiest CPU's load; above up_threshold jump to max, else scale",
	.kernel_rules = od_kernel_rules,
	.tunables = od_tunables,
	.ntunables = (int)(sizeof(od_tunables) / sizeof(od_tunables[0])),
	.data_size = sizeof(struct od_data),
	.start = od_start,
	.stop = dbs_stop,
	.limits = dbs_limits,
	.update = dbs_update_hook,
};
