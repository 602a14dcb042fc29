// SPDX-License-Identifier: GPL-2.0-only
/* Background wakeups: what wakes a real idle CPU besides the workload --
 * kernel timers (vmstat, the watchdog, delayed work, RCU), kworkers and
 * device interrupts. Without them an unused CPU of the model never wakes:
 * ladder never moves on it, menu 3.10's sleep length is unbounded and the
 * turbo bins count it idle forever.
 *
 * Each online CPU gets its own stream of events, from its own random
 * stream: intervals uniform in mean x (1 -+ jitter) with mean 1 /
 * wakeups_per_s ([background] of the machine, or --set
 * background_wakeups). A share timer_pct of them are timers, which the
 * idle governors see coming (they bound the next timer event, as a queued
 * timer does), the rest interrupts nobody can predict. Each one costs
 * handler_us of kernel time: on an idle CPU it ends the idle period (the
 * wake time, the handler in C0, then the governor selects again, and a
 * stopped tick stays stopped); on a busy CPU the handler takes the time
 * from the current task. */
#include "sim_internal.h"

#define BACKGROUND_STREAM UINT64_C(0x626b677200000000) /* "bkgr" */

static double background_rate(const struct sim *s)
{
	return s->par.background_wakeups >= 0 ? (double)s->par.background_wakeups
					      : s->m->bg_wakeups_per_s;
}

static void background_schedule(struct sim *s, struct sim_cpu *c)
{
	double mean_ns = 1e9 / background_rate(s);
	double j = s->m->bg_jitter;
	double dt = mean_ns * (1.0 - j + 2.0 * j * rng_uniform(&c->bg_rng));
	c->bg_next = s->now + (dt < 1.0 ? 1 : (sim_ns)dt);
	c->bg_timer = rng_uniform(&c->bg_rng) < s->m->bg_timer_share;
	sim_post(s, c->bg_next, EV_BACKGROUND, (uint32_t)c->id, 0, 0);
}

int background_init(struct sim *s, struct pm_diag *d)
{
	(void)d;
	bool on = background_rate(s) > 0;
	for (int i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[i];
		c->bg_next = SIM_NS_MAX;
		c->bg_timer = false;
		if (!on)
			continue;
		rng_init(&c->bg_rng, s->seed, BACKGROUND_STREAM + (uint64_t)i);
		background_schedule(s, c);
	}
	return 0;
}

void background_fire(struct sim *s, struct sim_cpu *c)
{
	/* Take the next one first: the handler may re-enter idle, which asks
	 * for the next timer. */
	sim_ns handler_ns = s->m->bg_handler_ns;
	background_schedule(s, c);
	cpu_interrupt(s, c, handler_ns);
}

sim_ns background_next_timer(const struct sim *s, const struct sim_cpu *c)
{
	(void)s;
	return c->bg_timer ? c->bg_next : SIM_NS_MAX;
}
