// SPDX-License-Identifier: GPL-2.0-only
/* Energy Aware Scheduling (Linux v6.12, fair_energy.h), the policy the
 * kernel runs when sched_energy_enabled(): on a machine of asymmetric
 * capacities with an energy model, schedutil and no SMT, with the sysctl
 * kernel.sched_energy_aware at 1 (engine/perf_domain.c decides).
 *
 *  - A wakeup (not a fork or exec) while the root domain is not
 *    overutilized goes where find_energy_efficient_cpu() says; otherwise,
 *    and for forks and execs, the capacity-aware CFS path places it
 *    (select_task_rq_fair()).
 *  - Load balancing stops while the root domain is not overutilized
 *    (find_busiest_group() "goto out_balanced"), except that misfit tasks
 *    always move to bigger CPUs ("Misfit tasks should be dealt with
 *    regardless of the avg load").
 *  - The root domain becomes overutilized when a CPU's utilization stops
 *    fitting its capacity, checked as a task is enqueued (not a new one)
 *    and at the tick (check_update_overutilized_status()); it is
 *    recomputed from every CPU when a load balance runs at the top level
 *    (update_sd_lb_stats() on the root domain). Such a balance runs at
 *    the top domain's interval as a busy CPU sees it (its weight in ms
 *    times the busy factor 16, sd_init()), and whenever the idle balancer
 *    is kicked (a CPU with two tasks or a misfit one, nohz_balancer_kick())
 *    or a CPU going idle balances because some CPU is overloaded
 *    (newidle_balance() with rd->overloaded). */
#include "fair_capacity.h"
#include "fair_energy.h"
#include "fair_select.h"
#include "placement_lib.h"

/* sd_init(): busy_factor, the multiplier of a busy CPU's interval. */
#define BUSY_FACTOR 16

/* rd->overloaded (SG_OVERLOADED): some CPU runs two tasks or a misfit. */
static bool rd_overloaded(const struct sim *s)
{
	const struct sched_topology *topo = sv_topology(s);
	for (int c = 0; c < topo->ncpus; c++) {
		const struct task *curr = sv_curr(s, c);
		if (sv_nr_running(s, c) > 1)
			return true;
		if (sv_cpu_mode(s, c) == SV_RUNNING && curr && curr->state == TASK_RUNNING &&
		    task_misfit(s, curr, c))
			return true;
	}
	return false;
}

static int eas_select_cpu(struct sim *s, struct task *t, const struct select_ctx *w)
{
	if (w->kind == SELECT_MOVE && t->cpu >= 0)
		return placement_spread.select_cpu(s, t, w);
	fair_record_wakee(s, w, t);
	if (w->kind == SELECT_WAKE && t->cpu >= 0 && !is_rd_overutilized(s)) {
		int cpu = find_energy_efficient_cpu(s, t, t->cpu, w->this_cpu);
		if (cpu >= 0 && task_allowed(t, cpu))
			return cpu;
	}
	return fair_select_task_rq_recorded(s, t, w);
}

static void eas_enqueued(struct sim *s, int cpu, const struct task *t, bool new_task)
{
	if (!new_task)
		check_update_overutilized_status(s, cpu);
}

static bool eas_newidle(struct sim *s, int cpu)
{
	if (!rd_overloaded(s))
		return false;
	update_overutilized_root(s);
	if (misfit_pull(s, cpu))
		return true;
	return is_rd_overutilized(s) && placement_spread.newidle_balance(s, cpu);
}

static void eas_tick_balance(struct sim *s, int cpu)
{
	const struct sched_topology *topo = sv_topology(s);
	check_update_overutilized_status(s, cpu);
	sim_ns now = sv_now(s);
	bool kick = rd_overloaded(s);
	if (kick || now >= topo->rd->next_balance) {
		update_overutilized_root(s);
		sim_ns interval = (sim_ns)topo->ncpus * BUSY_FACTOR * NS_PER_MS;
		if (now >= topo->rd->next_balance)
			topo->rd->next_balance = now + interval;
	}
	if (misfit_push(s, cpu))
		return;
	if (is_rd_overutilized(s))
		placement_spread.tick_balance(s, cpu);
}

static bool eas_selected(const struct sched_knobs *k)
{
	return k->energy_enabled;
}

const struct placement_ops placement_eas = {
	.name = "eas",
	.summary = "Energy Aware Scheduling (Linux 6.12): wakeups placed by the energy model "
		   "until a CPU is overutilized",
	.selected = eas_selected,
	.select_cpu = eas_select_cpu,
	.newidle_balance = eas_newidle,
	.tick_balance = eas_tick_balance,
	.cpu_idle = fair_update_idle_core,
	.enqueued = eas_enqueued,
};
