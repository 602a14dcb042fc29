// SPDX-License-Identifier: GPL-2.0-only
/* The DBS sampler and load computation shared by ondemand and conservative
 * (drivers/cpufreq/cpufreq_governor.c, v6.18). See dbs.h. */
#include "dbs.h"

#include <stdlib.h>

#include "hookcost.h"

unsigned int dbs_min_sampling_rate(const struct cpufreq_policy *p)
{
	return (unsigned int)(2 * p->tick_ns / NS_PER_US);
}

int dbs_sampling_rate(const struct cpufreq_policy *p, int64_t requested, unsigned int *out,
		      struct pm_diag *d)
{
	unsigned int floor = dbs_min_sampling_rate(p);
	if (requested < 0) {
		unsigned int delay = cpufreq_policy_transition_delay_us(p);
		*out = delay > floor ? delay : floor;
		return 0;
	}
	if (requested < floor)
		return pm_fail(d, "sampling_rate=%lld: below two scheduler ticks (expected at "
			       "least %u us at this HZ)", (long long)requested, floor);
	*out = (unsigned int)requested;
	return 0;
}

unsigned int dbs_legacy_sampling_rate(const struct cpufreq_policy *p, int64_t requested,
				      unsigned int min_rate_us)
{
	/* MIN_LATENCY_MULTIPLIER 20, LATENCY_MULTIPLIER 1000; latency 0 counts as 1 us. */
	uint64_t latency = (uint64_t)(p->transition_latency_ns / NS_PER_US);
	if (latency == 0)
		latency = 1;
	uint64_t min = 20 * latency > min_rate_us ? 20 * latency : min_rate_us;
	if (requested < 0)
		return (unsigned int)(1000 * latency > min ? 1000 * latency : min);
	return (unsigned int)((uint64_t)requested > min ? (uint64_t)requested : min);
}

/* get_cpu_idle_time(): idle time, plus iowait unless io_busy, and the wall
 * clock, both in us. The wall clock is the sum of the CPU's times, which
 * equals the hook time for every driver. */
static void idle_clock(const struct cpufreq_policy *p, int j, bool io_busy, uint64_t *idle_us,
		       uint64_t *wall_us)
{
	struct cpu_times t;
	p->driver->cpu_times(p->driver_ctx, p->cpus[j], &t);
	*idle_us = (uint64_t)((t.idle + (io_busy ? 0 : t.iowait)) / NS_PER_US);
	*wall_us = (uint64_t)((t.busy + t.idle + t.iowait) / NS_PER_US);
}

/* With a timer the calls before the next sample do nothing, not even a
 * check to pay (dbs_update_hook()): the driver may leave them out. Set
 * wherever the sample's time moves. */
static void dbs_set_quiet(struct cpufreq_policy *p, const struct dbs_policy *dbs)
{
	p->hook_quiet_until = dbs->timer ? dbs->last_sample_time + dbs->sample_delay_ns : 0;
}

int dbs_start(struct cpufreq_policy *p, struct dbs_policy *dbs, struct pm_diag *d)
{
	if (!p->driver->cpu_times)
		return pm_fail(d, "%s: the cpufreq driver reports no CPU times", p->gov->name);
	dbs->cpus = calloc((size_t)p->ncpus, sizeof(*dbs->cpus));
	if (!dbs->cpus)
		return pm_fail(d, "out of memory");
	bool io_busy = dbs->tuners->io_is_busy != 0;
	for (int j = 0; j < p->ncpus; j++) {
		struct dbs_cpu *c = &dbs->cpus[j];
		idle_clock(p, j, io_busy, &c->prev_cpu_idle, &c->prev_update_time);
		/* The first dbs_update() computes the load. */
		c->prev_load = 0;
		if (p->driver->cpu_counters)
			p->driver->cpu_counters(p->driver_ctx, p->cpus[j], &c->prev_perf);
	}
	dbs->rate_mult = 1;
	dbs->idle_periods = UINT32_MAX;
	/* gov_set_update_util(): the first sample is due sampling_rate after
	 * time 0; the limits() call that follows start makes it due at once. */
	dbs->sample_delay_ns = (sim_ns)dbs->sampling_rate * NS_PER_US;
	dbs->last_sample_time = 0;
	/* gov_set_update_util(): cpufreq_add_update_util_hook() on every CPU
	 * of the policy (v4.6+). */
	p->hook = dbs->timer ? CPUFREQ_HOOK_EMULATED : CPUFREQ_HOOK_UTIL;
	dbs_set_quiet(p, dbs);
	return 0;
}

/* The policy's struct dbs_policy: the first member of the governor's data. */
static struct dbs_policy *dbs_of(struct cpufreq_policy *p)
{
	return p->gov_data;
}

void dbs_stop(struct cpufreq_policy *p)
{
	struct dbs_policy *dbs = dbs_of(p);

	free(dbs->cpus);
	dbs->cpus = NULL;
}

void dbs_update_hook(struct cpufreq_policy *p, int cpu, sim_ns now, unsigned flags)
{
	struct dbs_policy *dbs = dbs_of(p);

	/* dbs_update_util_handler(): every call pays its check; a timer makes
	 * no call until it is due. */
	if (!dbs->timer)
		cpufreq_hook_spend(p, CPUFREQ_CYCLES_CHECK);
	/* The kernel queues the sample as irq_work; here it runs at once. The
	 * timestamp is the trigger's, not the work's. */
	if (now - dbs->last_sample_time < dbs->sample_delay_ns)
		return;
	dbs->last_sample_time = now;
	/* Its cost: the kworker's run (irq_work and a self-IPI, or the timer's
	 * interrupt), dbs_update() over the policy's CPUs, the decision, and
	 * __cpufreq_driver_target()'s slow path if the frequency changes. */
	uint32_t cur = p->cur;
	cpufreq_hook_defer(p);
	cpufreq_hook_spend(p, CPUFREQ_CYCLES_UTIL_CPU * (uint32_t)p->ncpus + CPUFREQ_CYCLES_SELECT);
	dbs->sample_delay_ns = (sim_ns)dbs->gov_update(p) * NS_PER_US;
	if (p->cur != cur)
		cpufreq_hook_spend(p, CPUFREQ_CYCLES_SLOW_SWITCH + CPUFREQ_CYCLES_MSR_WRITE);
	dbs_set_quiet(p, dbs);
}

uint64_t dbs_update(struct cpufreq_policy *p, struct dbs_policy *dbs)
{
	/* rate_mult stretches the "long idle" threshold with the sample delay. */
	uint64_t sampling_rate = (uint64_t)dbs->sampling_rate * dbs->rate_mult;
	bool io_busy = dbs->tuners->io_is_busy != 0;
	uint64_t max_load = 0;
	unsigned int idle_periods = UINT32_MAX;

	for (int j = 0; j < p->ncpus; j++) {
		struct dbs_cpu *c = &dbs->cpus[j];
		uint64_t cur_idle, update_time;
		idle_clock(p, j, io_busy, &cur_idle, &update_time);
		uint64_t time_elapsed = update_time - c->prev_update_time;
		c->prev_update_time = update_time;
		uint64_t idle_time = cur_idle > c->prev_cpu_idle ? cur_idle - c->prev_cpu_idle : 0;
		c->prev_cpu_idle = cur_idle;
		/* ignore_nice_load would add the nice time to idle_time: there is none. */

		unsigned int load;
		if (!dbs->reuse_prev_load) {
			if (!time_elapsed || time_elapsed < idle_time)
				continue;
			load = (unsigned int)(100 * (time_elapsed - idle_time) / time_elapsed);
		} else if (!time_elapsed) {
			/* Called twice in a row: the previous load stands. */
			load = c->prev_load;
		} else if (idle_time > 2 * sampling_rate && c->prev_load) {
			/* Woke from a long idle: a window full of idle would say
			 * "no load" whatever the waking task needs, so reuse the
			 * pre-idle load, once. */
			load = c->prev_load;
			c->prev_load = 0;
		} else {
			uint64_t busy = time_elapsed > idle_time ? time_elapsed - idle_time : 0;
			load = (unsigned int)(100 * busy / time_elapsed);
			c->prev_load = load;
		}
		if (idle_time > 2 * sampling_rate) {
			uint64_t periods = idle_time / sampling_rate;
			if (periods < idle_periods)
				idle_periods = (unsigned int)periods;
		}
		uint64_t weighted = load * (dbs->load_weight ? dbs->load_weight(p, j) : 1);
		if (weighted > max_load)
			max_load = weighted;
	}
	dbs->idle_periods = idle_periods;
	return max_load;
}

void dbs_limits(struct cpufreq_policy *p)
{
	struct dbs_policy *dbs = dbs_of(p);

	cpufreq_policy_apply_limits(p);
	dbs->sample_delay_ns = 0;
	dbs_set_quiet(p, dbs);
	if (dbs->gov_limits)
		dbs->gov_limits(p);
}
