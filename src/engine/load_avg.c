// SPDX-License-Identifier: GPL-2.0-only
/* Where the kernel updates PELT, and the clock it updates it with, as in
 * Linux v6.19 (kernel/sched/fair.c, kernel/sched/pelt.h):
 *
 * - The PELT clock (update_rq_clock_pelt()): while a CPU runs a task its
 *   clock_pelt advances at the CPU's frequency over the invariance
 *   reference; while it is idle (or waking: the idle task is current) it
 *   is the CPU's clock. When the run queue goes idle fully busy, the time
 *   its PELT clock lags is lost idle time (update_idle_rq_clock_pelt()).
 * - update_load_avg() (load_avg_update(), inline in sim_internal.h) at
 *   the kernel's call sites: enqueue, dequeue, the tick, put_prev and
 *   set_next of a context switch; a task that leaves a
 *   run queue on wakeup is removed lazily (remove_entity_load_avg()) and
 *   decayed by the estimated idle time of its old CPU
 *   (migrate_se_pelt_lag(), v6.1); one moved while queued is detached and
 *   attached at once; a dying one is removed (task_dead_fair()).
 * - Blocked load of idle CPUs: the nohz idle balancer's stats update, at
 *   most every LOAD_AVG_PERIOD ms once a tick-stopped CPU has blocked load,
 *   kicked from a busy CPU's tick (nohz_balancer_kick()) or run by a CPU
 *   going idle for long enough on average (nohz_newidle_balance()); a CPU
 *   whose tick keeps running in idle updates its own at each idle tick (the
 *   balance softirq's update_blocked_averages()). The kicked idle CPU's own
 *   wakeup is not modelled: the update happens at the kicking tick.
 *
 * Between those points a CPU's signal is what it was at its last update,
 * which is what schedutil and the balancer read (cpu_util_cfs() reads
 * cfs_rq->avg.util_avg as it stands). */
#include "sim_internal.h"

/* update_rq_clock_pelt(): the elapsed time scaled by the CPU's capacity
 * (arch_scale_cpu_capacity(): 1024 on the biggest type and on every CPU of
 * a machine without types), then by the frequency scale of the P-state it
 * ran at (its type's freq_scale[], engine/sim.c), each with cap_scale()'s
 * truncation. */
void clock_pelt_run(struct sim *s, struct sim_cpu *c, sim_ns dt, int idx)
{
	const struct sim_type *ty = cpu_type_of(s, c);
	uint64_t delta = ((uint64_t)dt * ty->capacity) >> PELT_SHIFT;
	c->clock_pelt += (delta * ty->freq_scale[idx]) >> PELT_SHIFT;
}

void load_avg_blocked(struct sim *s, struct sim_cpu *c)
{
	if (c->mode != CPU_RUNNING)
		load_avg_update(s, c, NULL, false, 0);
}

void load_avg_remove(struct sim *s, struct sim_cpu *c, struct task *t)
{
	/* sync_entity_load_avg(): decayed to the run queue's last update. */
	pelt_update(&t->pelt, c->pelt.last_update_time, false, false);
	pelt_remove(&c->pelt, &c->removed, &t->pelt);
}

void load_avg_migrate_wakeup(struct sim *s, struct task *t, struct sim_cpu *from)
{
	cpu_sync(s, from);
	load_avg_remove(s, from, t);
	t->pelt_detached = true;
	/* migrate_se_pelt_lag(): from an idle CPU, whose clock may be old,
	 * the task decays further by the time since that CPU went idle. */
	if (pelt_decayed(&t->pelt) || from->mode == CPU_RUNNING)
		return;
	uint64_t lut = from->pelt.last_update_time, now = from->clock_pelt_idle;
	if (now < lut)
		now = lut;
	else
		now += (uint64_t)(s->now - from->clock_idle);
	pelt_update(&t->pelt, now, false, false);
}

void load_avg_wakeup(struct sim *s, struct sim_cpu *c)
{
	/* ttwu_do_activate(): update_avg() of the idle time, at most twice
	 * the migration cost (max_idle_balance_cost's floor). */
	if (!c->idle_stamp)
		return;
	sim_ns max = 2 * s->par.sched_migration_cost_ns;
	c->avg_idle += (s->now - c->idle_stamp - c->avg_idle) / 8;
	if (c->avg_idle > max)
		c->avg_idle = max;
	c->idle_stamp = 0;
}

/* msecs_to_jiffies(LOAD_AVG_PERIOD) */
static sim_ns blocked_period_ns(const struct sim *s)
{
	int64_t ms_per_jiffy_num = 1000, hz = s->par.hz;
	int64_t jiffies = (LOAD_AVG_PERIOD * hz + ms_per_jiffy_num - 1) / ms_per_jiffy_num;
	return jiffies * s->tick_ns;
}

void load_avg_nohz_enter(struct sim *s, struct sim_cpu *c)
{
	/* nohz_balance_enter_idle(): each idle entry may leave blocked load. */
	c->has_blocked_load = true;
	if (!c->nohz_idle) {
		c->nohz_idle = true;
		s->nohz_nr_cpus++;
	}
	s->nohz_has_blocked = true;
}

/* update_nohz_stats() for every tick-stopped idle CPU; false when none
 * has blocked load left. Out of line: due about once a jiffy, its loop
 * would take registers in every CPU's way into idle that inlines
 * load_avg_nohz_stats() (cpu_schedule_stopped()). */
static __attribute__((noinline)) bool nohz_stats_update(struct sim *s)
{
	bool blocked = false;
	for (int i = 0; i < s->ncpus; i++) {
		struct sim_cpu *c = &s->cpus[i];
		if (!c->nohz_idle || !c->has_blocked_load || c->mode == CPU_RUNNING ||
		    c->nr_running)
			continue;
		load_avg_blocked(s, c);
		c->has_blocked_load = !pelt_decayed(&c->pelt);
		blocked |= c->has_blocked_load;
	}
	return blocked;
}

/* _nohz_idle_balance(NOHZ_STATS_KICK) once nohz.next_blocked has passed. */
void load_avg_nohz_stats(struct sim *s)
{
	if (!s->nohz_nr_cpus || !s->nohz_has_blocked)
		return;
	sim_ns jiffy = s->now / s->tick_ns * s->tick_ns;
	if (jiffy <= s->nohz_next_blocked)
		return;
	s->nohz_has_blocked = nohz_stats_update(s);
	s->nohz_next_blocked = jiffy + blocked_period_ns(s);
}

void load_avg_busy_tick(struct sim *s, struct sim_cpu *c)
{
	/* nohz_balance_exit_idle() */
	if (c->nohz_idle) {
		c->nohz_idle = false;
		s->nohz_nr_cpus--;
	}
	load_avg_nohz_stats(s);
}
