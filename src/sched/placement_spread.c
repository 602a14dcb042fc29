// SPDX-License-Identifier: GPL-2.0-only
/* The default placement: CFS's spread-for-performance behaviour
 * (sched_mc_power_savings = 0): Linux 6.1's select_task_rq_fair() at
 * wakeup, fork and exec (fair_wakeup.c, fair_idlest.c), or 2.6.29's
 * (wake_2629.c, balance_self.c) under --set kernel=2.6; the balancers
 * simplified to what decides where work runs: newidle balancing, and the
 * nohz idle-balance kick from a busy tick. With asymmetric capacities
 * (v6.6) the wakeup is capacity-aware and the balancers move misfit tasks
 * to bigger CPUs first (fair_capacity.c). */
#include "fair_capacity.h"
#include "fair_select.h"
#include "placement_lib.h"

/* A task whose affinity no longer allows its CPU: the previous CPU if
 * idle, else an idle CPU of its LLC, else the least loaded it may use. */
static int move_cpu(struct sim *s, struct task *t)
{
	const struct sched_topology *topo = sv_topology(s);
	int prev = t->cpu;
	if (sv_cpu_idle(s, prev) && task_allowed(t, prev))
		return prev;
	int cpu = idle_in_group(s, &topo->llc[topo->cpu[prev].llc], prev, t);
	if (cpu >= 0)
		return cpu;
	return least_loaded(s, prev, t);
}

/* The placements other than Linux 6.1's wakeup, fork and exec: 2.6.29's
 * rules, and a task its affinity moves. Out of line, so that the common
 * case (spread_select_cpu()) saves no registers on its way. */
__attribute__((noinline)) static int select_cpu_other(struct sim *s, struct task *t,
						      const struct select_ctx *w)
{
	if (sched_rules_2629(sv_knobs(s))) {
		int cpu = select_cpu_2629(s, t, w, false);
		if (cpu >= 0)
			return cpu;
	}
	if (w->kind == SELECT_MOVE && t->cpu >= 0)
		return move_cpu(s, t);
	return fair_select_task_rq(s, t, w);
}

static int spread_select_cpu(struct sim *s, struct task *t, const struct select_ctx *w)
{
	if (sched_rules_2629(sv_knobs(s)))
		return select_cpu_other(s, t, w);
	/* A wakeup, the common case, first: fair_select_task_rq() tests
	 * the kind again, and the compiler merges the two tests. */
	if (w->kind == SELECT_WAKE)
		return fair_select_task_rq(s, t, w);
	if (w->kind == SELECT_MOVE)
		return select_cpu_other(s, t, w);
	return fair_select_task_rq(s, t, w);
}

/* The scans of spread_newidle(), out of line so that the common case
 * there, nothing stealable, saves no registers. */
__attribute__((noinline)) static bool newidle_pull(struct sim *s, int cpu)
{
	const struct sched_topology *topo = sv_topology(s);
	const struct cpu_place *c = &topo->cpu[cpu];
	struct task *t = NULL;
	int from = -1;
	/* Nothing stealable in its own package: neither its cache nor the
	 * rest of the package has a task to give (busiest_in() would say so
	 * twice). */
	if (sv_pkg_stealable(s, c->pkg)) {
		from = busiest_in(s, &topo->llc[c->llc], cpu, &t);
		if (from < 0 && topo->pkg[c->pkg].n > topo->llc[c->llc].n)
			from = busiest_in(s, &topo->pkg[c->pkg], cpu, &t);
	}
	for (int p = 0; p < topo->npkgs && from < 0; p++)
		if (p != c->pkg)
			from = busiest_in(s, &topo->pkg[p], cpu, &t);
	if (from < 0)
		return sched_asym_cpucap_active(topo) && misfit_pull(s, cpu);
	sv_migrate_queued(s, t, from, cpu);
	return true;
}

static bool spread_newidle(struct sim *s, int cpu)
{
	/* Nothing a balancer could take anywhere (every package's
	 * busiest_in() would say so): skip the scans. The engine makes this
	 * test itself on a machine of symmetric capacities
	 * (newidle_needs_stealable): keep the two in step. */
	if (sv_nr_stealable(s) == 0)
		return sched_asym_cpucap_active(sv_topology(s)) && misfit_pull(s, cpu);
	return newidle_pull(s, cpu);
}

/* A CPU with at least two fewer runnable tasks than `cpu`: an idle one
 * near it first (cache, then package), else the least loaded anywhere. */
static int push_target(const struct sim *s, int cpu)
{
	const struct sched_topology *topo = sv_topology(s);
	const struct cpu_place *c = &topo->cpu[cpu];
	int t = idle_in_group(s, &topo->llc[c->llc], cpu, NULL);
	if (t < 0)
		t = idle_in_group(s, &topo->pkg[c->pkg], cpu, NULL);
	if (t < 0)
		t = idlest(s, NULL);
	if (t == cpu || sv_nr_running(s, t) + 2 > sv_nr_running(s, cpu))
		return -1;
	return t;
}

static void spread_tick_balance(struct sim *s, int cpu)
{
	const struct sched_topology *topo = sv_topology(s);
	if (misfit_push(s, cpu))
		return;
	const struct rq *rq = sv_rq(s, cpu);
	if (rq->len == 0)
		return;
	int to = push_target(s, cpu);
	if (to < 0)
		return;
	struct task *t = migratable(s, rq, to, topo->cpu[to].llc != topo->cpu[cpu].llc);
	if (t)
		sv_migrate_queued(s, t, cpu, to);
}

const struct placement_ops placement_spread = {
	.name = "spread",
	.summary = "CFS spreading for performance (sched_mc_power_savings=0)",
	.select_cpu = spread_select_cpu,
	.newidle_balance = spread_newidle,
	.newidle_needs_stealable = true,
	.tick_balance = spread_tick_balance,
	.cpu_idle = fair_update_idle_core,
};
