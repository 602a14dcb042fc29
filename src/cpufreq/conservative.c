// SPDX-License-Identifier: GPL-2.0-only
/* conservative: drivers/cpufreq/cpufreq_conservative.c as of v6.18
 * (structure since v4.7, relations HE/LE since v5.16, and cs_limits() of
 * March 2026), over the DBS core in dbs.c.
 *
 * The governor keeps its own requested_freq in kHz, independent of the
 * table, and moves it one freq_step (% of scaling_max_freq) per sample: up
 * when the load is above up_threshold (highest entry at or below it), down
 * when it is below down_threshold and sampling_down_factor samples have
 * passed (lowest entry at or above it). Small steps accumulate until they
 * cross a table entry. After a long idle window it first steps down once
 * per idle sampling period it missed. iowait counts as idle.
 *
 * variant=3.10 replays the kernel up to 3.10 (sampled at the hook's
 * trigger points, but as the timer of those kernels: no hook calls are
 * made or charged, only the samples): down only below down_threshold - 10, relation H both
 * ways, no down-step deferral (sampling_down_factor had no effect), no
 * idle-period catch-up, no long-idle load reuse, down_threshold at least
 * 11, and the sampling_rate default and floor of that time (20 ticks,
 * "bound to jiffies"; writes below it raised to it). */
#include <stddef.h>
#include <stdlib.h>

#include "dbs.h"

enum cs_variant { CS_CURRENT, CS_V3_10 };

static const char *const cs_variant_words[] = { "current", "3.10", NULL };

/* DEF_FREQUENCY_STEP: the step when freq_step % of max rounds to 0 kHz. */
#define CS_MIN_STEP_KHZ 5

struct cs_data {
	struct dbs_policy dbs;   /* first: the DBS core's operations find it there */
	struct dbs_tuners dbs_t; /* io_is_busy stays 0: conservative has none */
	int64_t down_threshold;  /* % */
	int64_t freq_step;       /* % of scaling_max_freq */
	int64_t variant;
	uint32_t requested_freq; /* kHz; may lie between table entries */
	unsigned int down_skip;
};

static const struct tunable cs_tunables[] = {
	{ "sampling_rate", "us between samples, at least 2 ticks (-1: max(2 ticks, transition "
	  "delay))", TUNABLE_FIELD(struct cs_data, dbs_t.sampling_rate), -1, -1, UINT32_MAX, NULL },
	{ "up_threshold", "load % above which the frequency steps up (must exceed down_threshold)",
	  TUNABLE_FIELD(struct cs_data, dbs_t.up_threshold), 80, 0, 100, NULL },
	{ "down_threshold", "load % below which the frequency steps down (below up_threshold)",
	  TUNABLE_FIELD(struct cs_data, down_threshold), 20, 1, 100, NULL },
	{ "sampling_down_factor", "samples below down_threshold before each step down",
	  TUNABLE_FIELD(struct cs_data, dbs_t.sampling_down_factor), 1, 1, 10, NULL },
	{ "ignore_nice_load", "1: nice time counts as idle (above 1 acts as 1; no nice time here)",
	  TUNABLE_FIELD(struct cs_data, dbs_t.ignore_nice_load), 0, 0, UINT32_MAX, NULL },
	{ "freq_step", "step, % of scaling_max_freq (0 freezes the frequency; above 100 acts as 100)",
	  TUNABLE_FIELD(struct cs_data, freq_step), 5, 0, UINT32_MAX, NULL },
	{ "variant", "decision rule: current (4.8+) or 3.10",
	  TUNABLE_FIELD(struct cs_data, variant), CS_CURRENT, 0, 1, cs_variant_words },
};

/* get_freq_step() */
static uint32_t cs_freq_step(const struct cpufreq_policy *p, const struct cs_data *cs)
{
	uint64_t pct = cs->freq_step > 100 ? 100 : (uint64_t)cs->freq_step;
	uint32_t step = (uint32_t)(pct * p->max / 100);
	return step ? step : CS_MIN_STEP_KHZ;
}

static void cs_request(struct cpufreq_policy *p, struct cs_data *cs, uint32_t freq,
		       enum cpufreq_relation relation)
{
	cpufreq_driver_target(p, freq, relation);
	cs->requested_freq = freq;
}

static void cs_update_current(struct cpufreq_policy *p, struct cs_data *cs, unsigned int load)
{
	uint32_t req = cs->requested_freq;
	/* The limits moved under it: start again from where the hardware is. */
	if (req > p->max || req < p->min) {
		req = p->cur;
		cs->requested_freq = req;
	}
	uint32_t step = cs_freq_step(p, cs);

	/* One step down for each sampling period the CPU spent idle. */
	if (cs->dbs.idle_periods < UINT32_MAX) {
		uint64_t steps = (uint64_t)cs->dbs.idle_periods * step;
		req = req > p->min + steps ? (uint32_t)(req - steps) : p->min;
		cs->dbs.idle_periods = UINT32_MAX;
	}

	if (load > cs->dbs_t.up_threshold) {
		cs->down_skip = 0;
		if (req == p->max)
			return;
		req = req + step > p->max ? p->max : req + step;
		cs_request(p, cs, req, RELATION_HE);
		return;
	}

	if (++cs->down_skip < cs->dbs_t.sampling_down_factor)
		return;
	cs->down_skip = 0;

	if (load < cs->down_threshold) {
		if (req == p->min)
			return;
		req = req > step ? req - step : p->min;
		cs_request(p, cs, req, RELATION_LE);
	}
}

static void cs_update_v3_10(struct cpufreq_policy *p, struct cs_data *cs, unsigned int load)
{
	/* The transition notifier pulled requested_freq back inside the limits. */
	if (cs->requested_freq > p->max || cs->requested_freq < p->min)
		cs->requested_freq = p->cur;
	uint32_t step = cs_freq_step(p, cs);

	if (load > cs->dbs_t.up_threshold) {
		cs->down_skip = 0;
		if (cs->requested_freq == p->max)
			return;
		cs->requested_freq += step;
		if (cs->requested_freq > p->max)
			cs->requested_freq = p->max;
		cpufreq_driver_target(p, cs->requested_freq, RELATION_H);
		return;
	}

	/* "To be safe, we focus 10 points under the threshold." */
	if (load < cs->down_threshold - 10) {
		/* The kernel's unsigned subtraction could wrap; saturate instead. */
		cs->requested_freq = cs->requested_freq > step ? cs->requested_freq - step : 0;
		if (cs->requested_freq < p->min)
			cs->requested_freq = p->min;
		if (p->cur == p->min)
			return;
		cpufreq_driver_target(p, cs->requested_freq, RELATION_H);
	}
}

static unsigned int cs_dbs_update(struct cpufreq_policy *p)
{
	struct cs_data *cs = p->gov_data;
	unsigned int load = (unsigned int)dbs_update(p, &cs->dbs);
	/* freq_step 0: the user asked for a frozen frequency. */
	if (cs->freq_step != 0) {
		if (cs->variant == CS_V3_10)
			cs_update_v3_10(p, cs, load);
		else
			cs_update_current(p, cs, load);
	}
	return cs->dbs.sampling_rate;
}

/* cs_limits(), the DBS core's gov_limits: step from where the limits left
 * the hardware. */
static void cs_limits(struct cpufreq_policy *p)
{
	struct cs_data *cs = p->gov_data;
	cs->requested_freq = p->cur;
}


static int cs_start(struct cpufreq_policy *p, struct pm_diag *d)
{
	struct cs_data *cs = p->gov_data;
	struct dbs_policy *dbs = &cs->dbs;
	/* The kernel checks each write against the other threshold; here both
	 * are known at once, so the pair is checked. */
	if (cs->dbs_t.up_threshold <= cs->down_threshold)
		return pm_fail(d, "up_threshold=%lld: must be above down_threshold=%lld",
			       (long long)cs->dbs_t.up_threshold, (long long)cs->down_threshold);
	if (cs->variant == CS_V3_10 && cs->down_threshold < 11)
		return pm_fail(d, "down_threshold=%lld: out of range for variant 3.10 (expected "
			       "11..100)", (long long)cs->down_threshold);
	dbs->tuners = &cs->dbs_t;
	dbs->gov_update = cs_dbs_update;
	dbs->gov_limits = cs_limits;
	dbs->reuse_prev_load = cs->variant != CS_V3_10;
	/* The 3.10 variant stands for kernels before v4.8; those before v4.6
	 * sampled from a timer. v4.6 and v4.7 had the hook already: the
	 * variant's sampler is the older one (kernel_rules() cannot tell). */
	dbs->timer = cs->variant == CS_V3_10;
	dbs->load_weight = NULL;
	if (cs->variant == CS_CURRENT) {
		if (dbs_sampling_rate(p, cs->dbs_t.sampling_rate, &dbs->sampling_rate, d) < 0)
			return -1;
	} else {
		/* MIN_SAMPLING_RATE_RATIO x 10 ticks. */
		unsigned int ticks20 = (unsigned int)(20 * p->tick_ns / NS_PER_US);
		dbs->sampling_rate = dbs_legacy_sampling_rate(p, cs->dbs_t.sampling_rate, ticks20);
	}
	cs->down_skip = 0;
	cs->requested_freq = p->cur;
	return dbs_start(p, dbs, d);
}

_Static_assert(offsetof(struct cs_data, dbs) == 0, "the DBS core finds dbs first");

/* The 3.10 rule stands for every kernel before the v4.8 rework of the
 * frequency stepping; the changes in between are not modelled. */
static const char *cs_kernel_rules(int version)
{
	return version < 4008 ? "variant=3.10" : NULL;
}

const struct cpufreq_governor cpufreq_conservative = {
	.name = "conservative",
	.dynamic_switching = true,
	.kernel_rules = cs_kernel_rules,
	.summary = "sample the busiest CPU's load; step the frequency up or down by freq_step",
	.tunables = cs_tunables,
	.ntunables = (int)(sizeof(cs_tunables) / sizeof(cs_tunables[0])),
	.data_size = sizeof(struct cs_data),
	.start = cs_start,
	.stop = dbs_stop,
	.limits = dbs_limits,
	.update = dbs_update_hook,
};
