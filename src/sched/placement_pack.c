/* Power-aware packing: the old sched_mc_power_savings (Linux 2.6.25 to
 * 3.4). While the machine is lightly loaded (fewer runnable tasks than
 * CPUs), work is consolidated onto as few packages as possible so the
 * others can reach package C-states:
 *  1: new tasks (fork/exec) go to the "group leader" -- the busiest
 *     package that still has an idle CPU -- and the balancer drains the
 *     least busy package into the leader, moving running tasks if it must
 *     (active balancing);
 *  2: also, wakeups are biased to the leader package (the kernel's
 *     sched_mc_preferred_wakeup_cpu).
 * Once runnable tasks outnumber CPUs, both levels balance as spread does. */
#include "../engine/sim_internal.h"
#include "placement_lib.h"

static bool lightly_loaded(const struct sim *s)
{
	int running = 0;
	for (int c = 0; c < s->ncpus; c++)
		running += s->cpus[c].nr_running;
	return running < s->ncpus;
}

static int pkg_busy_cpus(const struct sim *s, int p)
{
	int busy = 0;
	for (int i = 0; i < s->pkg_cpus[p].n; i++)
		busy += !cpu_is_idle(&s->cpus[s->pkg_cpus[p].cpu[i]]);
	return busy;
}

/* The busiest package with an idle CPU `t` may use (ties: lowest index);
 * -1 when every package is full. The idle CPU goes to *cpu, scanning from
 * `near` so a task keeps its previous CPU when it can. */
static int group_leader(const struct sim *s, const struct task *t, int near, int *cpu)
{
	int best = -1, best_busy = -1;
	for (int p = 0; p < s->npkgs; p++) {
		const struct cpu_group *g = &s->pkg_cpus[p];
		if (!g->n)
			continue;
		int start = near >= 0 && s->cpus[near].pkg == p ? near : g->cpu[0];
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
	for (int p = 0; p < s->npkgs; p++) {
		int busy = pkg_busy_cpus(s, p);
		if (busy > 0 && (best < 0 || busy <= best_busy)) {
			best = p;
			best_busy = busy;
		}
	}
	return best;
}

static int pack_select_cpu(struct sim *s, struct task *t, int waker_cpu, bool fork)
{
	bool wake_bias = s->par.sched_mc_power_savings >= 2;
	if (!lightly_loaded(s) || (!fork && t->cpu >= 0 && !wake_bias))
		return placement_spread.select_cpu(s, t, waker_cpu, fork);
	int cpu = -1;
	int near = t->cpu;
	if (group_leader(s, t, near, &cpu) < 0)
		return placement_spread.select_cpu(s, t, waker_cpu, fork);
	/* The previous CPU still wins when it is idle in the leader package. */
	if (near >= 0 && s->cpus[near].pkg == s->cpus[cpu].pkg && cpu_is_idle(&s->cpus[near]) &&
	    task_allowed(t, near))
		return near;
	return cpu;
}

/* A CPU going idle pulls only from its own package while packing, so the
 * balancer does not undo the consolidation. */
static bool pack_newidle(struct sim *s, int cpu)
{
	if (!lightly_loaded(s))
		return placement_spread.newidle_balance(s, cpu);
	const struct sim_cpu *c = &s->cpus[cpu];
	struct task *t = NULL;
	int from = busiest_in(s, &s->llcs[c->llc], cpu, &t);
	if (from < 0)
		from = busiest_in(s, &s->pkg_cpus[c->pkg], cpu, &t);
	if (from < 0)
		return false;
	task_migrate(s, t, &s->cpus[from], &s->cpus[cpu]);
	return true;
}

static void pack_tick_balance(struct sim *s, int cpu)
{
	if (!lightly_loaded(s)) {
		placement_spread.tick_balance(s, cpu);
		return;
	}
	struct sim_cpu *c = &s->cpus[cpu];
	int to = -1;
	/* Waiting tasks go to an idle CPU of this package, else the leader's. */
	if (c->rq.len > 0) {
		to = idle_in_group(s, &s->pkg_cpus[c->pkg], cpu, NULL);
		if (to < 0)
			group_leader(s, NULL, cpu, &to);
		if (to >= 0) {
			struct task *t = migratable(s, &c->rq, to, s->cpus[to].llc != c->llc);
			if (t)
				task_migrate(s, t, c, &s->cpus[to]);
		}
		return;
	}
	/* Drain the least busy package into the leader: move the task running
	 * here (active balancing), as the migration thread would. */
	if (c->mode != CPU_RUNNING || !c->curr || c->pkg != group_min(s))
		return;
	int leader = group_leader(s, c->curr, -1, &to);
	if (leader < 0 || leader == c->pkg || pkg_busy_cpus(s, leader) < pkg_busy_cpus(s, c->pkg))
		return;
	task_move_running(s, c, &s->cpus[to]);
}

const struct placement_ops placement_pack = {
	.name = "pack",
	.select_cpu = pack_select_cpu,
	.newidle_balance = pack_newidle,
	.tick_balance = pack_tick_balance,
};
