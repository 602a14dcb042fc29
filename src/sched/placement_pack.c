// SPDX-License-Identifier: GPL-2.0-only
/* Power-aware packing: sched_mc_power_savings (Linux 2.6.25 to 3.4), as
 * kernel 2.6.28 with the "Tunable sched_mc_power_savings=n" series (merged
 * in 2.6.29) does it. While the machine is lightly loaded (fewer runnable
 * tasks than CPUs), the load balancer's power-savings path in
 * find_busiest_group() names a "group leader" -- the busiest package that
 * still has an idle CPU (ties: the lower package) -- and "group min" --
 * the least busy package with work (ties: the higher one) -- and a CPU of
 * the leader pulls from group min, so the other packages can idle.
 *
 * What each level does, and what it does not:
 *  fork/exec (both levels): sched_balance_self() stops below the first
 *    domain with SD_POWERSAVINGS_BALANCE, which the package-spanning CPU
 *    domain has at sched_mc > 0: a new or exec'ing process is balanced
 *    only among the cores of its parent's package (balance_self.c);
 *    find_idlest_group() itself has no power-savings logic. Packages are
 *    balanced by the load balancer alone: a full package's queued work
 *    is pushed to the other.
 *  wakeups (both levels): 2.6.29's select_task_rq_fair() (wake_2629.c):
 *    the waker's CPU when wake_affine() or passive balancing says so,
 *    else the previous CPU, idle or not (no domain has SD_WAKE_IDLE).
 *  1: only the balancer packs. The periodic balance of the leader's idle
 *    CPUs finds group min's tasks running, not queued, fails, and kicks
 *    active balancing (the migration thread pushes the running task)
 *    after cache_nice_tries + 3 failed attempts; newly idle CPUs (the
 *    series adds SD_BALANCE_NEWIDLE at sched_mc > 0) pull only queued
 *    tasks.
 *  2 (POWERSAVINGS_BALANCE_WAKEUP) adds: a newly idle CPU of the leader
 *    active-balances group min's running task on its third newly-idle
 *    balance in a row that finds it ("activate active load balancing in
 *    new idle cpus"), and a wakeup from an idle CPU (an interrupt: I/O
 *    completion, timer) whose previous CPU is idle goes to the nominated
 *    sched_mc_preferred_wakeup_cpu, the leader's first CPU ("bias task
 *    wakeups to preferred semi-idle packages"; wake_idle()).
 * Once runnable tasks outnumber CPUs, both levels' balancers balance as
 * spread's do. */
#include "fair_select.h"
#include "placement_lib.h"

/* Failed periodic balance attempts before active balancing: load_balance()
 * kicks the migration thread when nr_balance_failed > cache_nice_tries + 2,
 * and the package (CPU) domain's cache_nice_tries is 1 (SD_CPU_INIT). */
#define ACTIVE_BALANCE_TRIES 4

static bool lightly_loaded(const struct sim *s)
{
	int ncpus = sv_topology(s)->ncpus, running = 0;
	for (int c = 0; c < ncpus; c++)
		running += sv_nr_running(s, c);
	return running < ncpus;
}

static int pkg_busy_cpus(const struct sim *s, int p)
{
	const struct cpu_group *g = &sv_topology(s)->pkg[p];
	int busy = 0;
	for (int i = 0; i < g->n; i++)
		busy += !sv_cpu_idle(s, g->cpu[i]);
	return busy;
}

/* The busiest package with an idle CPU `t` may use (ties: lowest index);
 * -1 when every package is full. The idle CPU goes to *cpu, scanning from
 * `near` so a task keeps its previous CPU when it can. */
static int group_leader(const struct sim *s, const struct task *t, int near, int *cpu)
{
	const struct sched_topology *topo = sv_topology(s);
	int best = -1, best_busy = -1;
	for (int p = 0; p < topo->npkgs; p++) {
		const struct cpu_group *g = &topo->pkg[p];
		if (!g->n)
			continue;
		int start = near >= 0 && topo->cpu[near].pkg == p ? near : g->cpu[0];
		int idle = idle_in_group(s, g, start, t);
		if (idle < 0)
			continue;
		int busy = pkg_busy_cpus(s, p);
		if (busy > best_busy) {
			best = p;
			best_busy = busy;
			*cpu = idle;
		}
	}
	return best;
}

/* The least busy package that has work (ties: highest index): the one
 * the balancer drains. */
static int group_min(const struct sim *s)
{
	int best = -1, best_busy = 0;
	for (int p = 0; p < sv_topology(s)->npkgs; p++) {
		int busy = pkg_busy_cpus(s, p);
		if (busy > 0 && (best < 0 || busy <= best_busy)) {
			best = p;
			best_busy = busy;
		}
	}
	return best;
}

/* Whether draining package `from` into `leader` frees a package: the
 * leader must be at least as busy, as find_busiest_group() requires. */
static bool worth_draining(const struct sim *s, int leader, int from)
{
	return leader >= 0 && leader != from && pkg_busy_cpus(s, leader) >= pkg_busy_cpus(s, from);
}

/* find_busiest_group()'s power-savings path at level 2, from a CPU of the
 * group leader that finds a package to drain: it nominates the leader's
 * first CPU for wakeups. */
static void nominate_wakeup_cpu(const struct sim *s, int leader_pkg)
{
	const struct cpu_group *g = &sv_topology(s)->pkg[leader_pkg];
	if (sv_knobs(s)->mc_power_savings >= 2 && g->n > 0)
		sv_topology(s)->rd->mc_preferred_wakeup_cpu = g->cpu[0];
}

static int pack_select_cpu(struct sim *s, struct task *t, const struct select_ctx *w)
{
	int cpu = select_cpu_2629(s, t, w, true);
	return cpu >= 0 ? cpu : placement_spread.select_cpu(s, t, w);
}

/* The package a newly idle `cpu` would drain as the leader: the least
 * busy other package with work, if this one (without `cpu`, which is
 * about to idle) is busier, or as busy and lower (the leader's tie-break);
 * -1 if none. */
static int newidle_drain_from(const struct sim *s, int cpu)
{
	int here = sv_topology(s)->cpu[cpu].pkg;
	int busy_here = pkg_busy_cpus(s, here) - !sv_cpu_idle(s, cpu);
	int from = -1, from_busy = 0;
	for (int p = 0; p < sv_topology(s)->npkgs; p++) {
		int busy = pkg_busy_cpus(s, p);
		if (p != here && busy > 0 && (from < 0 || busy <= from_busy)) {
			from = p;
			from_busy = busy;
		}
	}
	if (from < 0 || busy_here < from_busy || (busy_here == from_busy && here > from))
		return -1;
	return from;
}

/* Level 2: a newly idle CPU of the leader takes group min's running task
 * (active balancing from load_balance_newidle(), Linux 2.6.29), but only
 * once this CPU's package-level newly-idle balance has failed twice in a
 * row before (`if (sd->nr_balance_failed++ < 2) return -1;`); a balance
 * that finds nothing to drain (out_balanced) starts the count again. True
 * if it moved a task. */
static bool newidle_active(struct sim *s, int cpu)
{
	int *failed = &sv_topology(s)->pkg_newidle_failed[cpu];
	int from_pkg = newidle_drain_from(s, cpu);
	if (from_pkg < 0) {
		*failed = 0;
		return false;
	}
	nominate_wakeup_cpu(s, sv_topology(s)->cpu[cpu].pkg);
	if ((*failed)++ < 2)
		return false;
	const struct cpu_group *g = &sv_topology(s)->pkg[from_pkg];
	for (int i = 0; i < g->n; i++) {
		int src = g->cpu[i];
		struct task *curr = sv_curr(s, src);
		if (sv_cpu_mode(s, src) == SV_RUNNING && curr && sv_rq(s, src)->len == 0 &&
		    task_allowed(curr, cpu)) {
			sv_migrate_running(s, src, cpu);
			return true;
		}
	}
	return false;
}

/* A CPU going idle pulls queued work from its cache, then its package
 * (never across packages while packing, so the balancer does not undo the
 * consolidation); at level 2 it may then take a running task from group
 * min. */
static bool pack_newidle(struct sim *s, int cpu)
{
	if (!lightly_loaded(s))
		return placement_spread.newidle_balance(s, cpu);
	const struct sched_topology *topo = sv_topology(s);
	const struct cpu_place *c = &topo->cpu[cpu];
	struct task *t = NULL;
	int from = busiest_in(s, &topo->llc[c->llc], cpu, &t);
	if (from < 0)
		from = busiest_in(s, &topo->pkg[c->pkg], cpu, &t);
	if (from >= 0) {
		sv_migrate_queued(s, t, from, cpu);
		return true;
	}
	return sv_knobs(s)->mc_power_savings >= 2 && newidle_active(s, cpu);
}

/* The periodic balancer has failed to move the task running on `c` (it is
 * running, not queued) for as many attempts as it takes to kick active
 * balancing: it has run there for that many balance intervals. */
static bool active_balance_due(const struct sim *s, const struct task *curr)
{
	sim_ns ran = curr->sum_exec - curr->exec_at_pick;
	return ran >= (sim_ns)ACTIVE_BALANCE_TRIES * sv_knobs(s)->balance_interval_ns;
}

static void pack_tick_balance(struct sim *s, int cpu)
{
	if (!lightly_loaded(s)) {
		placement_spread.tick_balance(s, cpu);
		return;
	}
	const struct sched_topology *topo = sv_topology(s);
	const struct cpu_place *c = &topo->cpu[cpu];
	const struct rq *rq = sv_rq(s, cpu);
	int to = -1;
	/* Waiting tasks go to an idle CPU of this package, else the leader's. */
	if (rq->len > 0) {
		to = idle_in_group(s, &topo->pkg[c->pkg], cpu, NULL);
		if (to < 0)
			group_leader(s, NULL, cpu, &to);
		if (to >= 0) {
			struct task *t = migratable(s, rq, to, topo->cpu[to].llc != c->llc);
			if (t)
				sv_migrate_queued(s, t, cpu, to);
		}
		return;
	}
	/* Drain the least busy package into the leader once the leader's idle
	 * CPUs have failed often enough to kick active balancing: the
	 * migration thread moves the task running here. */
	struct task *curr = sv_curr(s, cpu);
	if (sv_cpu_mode(s, cpu) != SV_RUNNING || !curr || c->pkg != group_min(s) ||
	    !active_balance_due(s, curr))
		return;
	int leader = group_leader(s, curr, -1, &to);
	if (!worth_draining(s, leader, c->pkg))
		return;
	nominate_wakeup_cpu(s, leader);
	sv_migrate_running(s, cpu, to);
}

static bool pack_selected(const struct sched_knobs *k)
{
	return k->mc_power_savings > 0;
}

const struct placement_ops placement_pack = {
	.name = "pack",
	.summary = "sched_mc_power_savings 1 and 2 as Linux 2.6.29 packs work onto fewer packages",
	.selected = pack_selected,
	.select_cpu = pack_select_cpu,
	.newidle_balance = pack_newidle,
	.tick_balance = pack_tick_balance,
	/* Its busy wakeups fall back on spread's, which keeps this hint. */
	.cpu_idle = fair_update_idle_core,
};
