/* The default placement: CFS's spread-for-performance behaviour
 * (sched_mc_power_savings = 0), simplified to what decides where work
 * runs: select_idle_sibling() at wakeup, find_idlest_cpu() at fork,
 * newidle balancing, and the nohz idle-balance kick from a busy tick. */
#include "../engine/sim_internal.h"

/* All threads of the CPU's core idle. */
static bool core_idle(const struct sim *s, int cpu)
{
	const struct sim_core *core = &s->cores[s->cpus[cpu].core];
	for (int i = 0; i < core->ncpus; i++)
		if (!cpu_is_idle(&s->cpus[core->cpus[i]]))
			return false;
	return true;
}

/* An idle CPU in the group that `t` may use (any task if t is NULL),
 * scanning from `start`: an idle core first, then any idle SMT thread.
 * -1 if none. */
static int idle_in_group(const struct sim *s, const struct cpu_group *g, int start,
			 const struct task *t)
{
	int from = 0;
	for (int i = 0; i < g->n; i++)
		if (g->cpu[i] == start)
			from = i;
	int thread = -1;
	for (int k = 0; k < g->n; k++) {
		int cpu = g->cpu[(from + k) % g->n];
		if (!cpu_is_idle(&s->cpus[cpu]) || !task_allowed(t, cpu))
			continue;
		if (core_idle(s, cpu))
			return cpu;
		if (thread < 0)
			thread = cpu;
	}
	return thread;
}

/* Least loaded CPU `t` may use; ties go to `prefer`, then its cache, then
 * the lowest id. */
static int least_loaded(const struct sim *s, int prefer, const struct task *t)
{
	int best = -1;
	for (int c = 0; c < s->ncpus; c++) {
		if (!task_allowed(t, c))
			continue;
		if (best < 0) {
			best = c;
			continue;
		}
		int nb = s->cpus[best].nr_running, nc = s->cpus[c].nr_running;
		if (nc < nb) {
			best = c;
		} else if (nc == nb && prefer >= 0 && best != prefer) {
			if (c == prefer ||
			    (s->cpus[c].llc == s->cpus[prefer].llc &&
			     s->cpus[best].llc != s->cpus[prefer].llc))
				best = c;
		}
	}
	return best;
}

/* find_idlest_cpu(): an idle CPU in the shallowest C-state (cheapest to
 * wake), else the least loaded. */
static int idlest(const struct sim *s, const struct task *t)
{
	int best = -1;
	for (int c = 0; c < s->ncpus; c++) {
		const struct sim_cpu *cpu = &s->cpus[c];
		if (!cpu_is_idle(cpu) || !task_allowed(t, c))
			continue;
		if (best < 0 || s->m->cstates[cpu->cstate].exit_ns <
					s->m->cstates[s->cpus[best].cstate].exit_ns)
			best = c;
	}
	return best >= 0 ? best : least_loaded(s, -1, t);
}

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

/* The queued task a balancer takes from `rq`: the one furthest from
 * running there (largest vruntime). Moving to another last-level cache,
 * it skips tasks that left a CPU less than sched_migration_cost_ns ago:
 * their cache is still warm (can_migrate_task()'s task_hot()). */
static struct task *migratable(const struct sim *s, const struct rq *rq, int dest,
			       bool cross_llc)
{
	struct task *best = NULL;
	for (int i = 0; i < rq->len; i++) {
		struct task *t = rq->heap[i];
		if (!task_allowed(t, dest))
			continue;
		if (cross_llc && t->ran && s->now - t->last_ran < s->par.sched_migration_cost_ns)
			continue;
		if (!best || t->vruntime > best->vruntime ||
		    (t->vruntime == best->vruntime && t->id > best->id))
			best = t;
	}
	return best;
}

/* Among `g`, the CPU with the most queued tasks that has one `cpu` may
 * take; stores that task in *out. A CPU still waking from idle is skipped:
 * the tasks woken onto it sit on its wake list (TTWU_QUEUE) until it runs,
 * out of other CPUs' reach. */
static int busiest_in(const struct sim *s, const struct cpu_group *g, int cpu, struct task **out)
{
	int best = -1;
	if (g->n && s->pkgs[s->cpus[g->cpu[0]].pkg].nr_stealable == 0)
		return -1; /* groups never span packages */
	for (int i = 0; i < g->n; i++) {
		int c = g->cpu[i];
		const struct sim_cpu *src = &s->cpus[c];
		if (c == cpu || src->rq.len == 0 || src->mode == CPU_WAKING)
			continue;
		if (best >= 0 && src->rq.len <= s->cpus[best].rq.len)
			continue;
		struct task *t = migratable(s, &src->rq, cpu, src->llc != s->cpus[cpu].llc);
		if (t) {
			best = c;
			*out = t;
		}
	}
	return best;
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
