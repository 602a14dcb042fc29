// SPDX-License-Identifier: GPL-2.0-only
/* The default placement: CFS's spread-for-performance behaviour
 * (sched_mc_power_savings = 0), simplified to what decides where work
 * runs: select_idle_sibling() at wakeup, find_idlest_cpu() at fork,
 * newidle balancing, and the nohz idle-balance kick from a busy tick. */
#include "../engine/sim_internal.h"
#include "placement_lib.h"

static int spread_select_cpu(struct sim *s, struct task *t, int waker_cpu, bool fork)
{
	if (fork || t->cpu < 0)
		return idlest(s, t);
	int prev = t->cpu;
	if (cpu_is_idle(&s->cpus[prev]) && task_allowed(t, prev))
		return prev;
	int cpu = idle_in_group(s, &s->llcs[s->cpus[prev].llc], prev, t);
	if (cpu >= 0)
		return cpu;
	return least_loaded(s, prev, t);
}

static bool spread_newidle(struct sim *s, int cpu)
{
	const struct sim_cpu *c = &s->cpus[cpu];
	struct task *t = NULL;
	if (s->nr_queued == 0)
		return false; /* nothing waits anywhere: skip the scans */
	int from = busiest_in(s, &s->llcs[c->llc], cpu, &t);
	if (from < 0)
		from = busiest_in(s, &s->pkg_cpus[c->pkg], cpu, &t);
	for (int p = 0; p < s->npkgs && from < 0; p++)
		if (p != c->pkg)
			from = busiest_in(s, &s->pkg_cpus[p], cpu, &t);
	if (from < 0)
		return false;
	task_migrate(s, t, &s->cpus[from], &s->cpus[cpu]);
	return true;
}

/* A CPU with at least two fewer runnable tasks than `cpu`: an idle one
 * near it first (cache, then package), else the least loaded anywhere. */
static int push_target(const struct sim *s, int cpu)
{
	const struct sim_cpu *c = &s->cpus[cpu];
	int t = idle_in_group(s, &s->llcs[c->llc], cpu, NULL);
	if (t < 0)
		t = idle_in_group(s, &s->pkg_cpus[c->pkg], cpu, NULL);
	if (t < 0)
		t = idlest(s, NULL);
	if (t == cpu || s->cpus[t].nr_running + 2 > c->nr_running)
		return -1;
	return t;
}

static void spread_tick_balance(struct sim *s, int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];
	if (c->rq.len == 0)
		return;
	int to = push_target(s, cpu);
	if (to < 0)
		return;
	struct task *t = migratable(s, &c->rq, to, s->cpus[to].llc != c->llc);
	if (t)
		task_migrate(s, t, c, &s->cpus[to]);
}

const struct placement_ops placement_spread = {
	.name = "spread",
	.select_cpu = spread_select_cpu,
	.newidle_balance = spread_newidle,
	.tick_balance = spread_tick_balance,
};
