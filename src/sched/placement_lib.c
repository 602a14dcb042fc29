// SPDX-License-Identifier: GPL-2.0-only
/* Building blocks shared by the placement policies: finding idle CPUs,
 * load, and tasks a balancer may take. */
#include "../engine/sim_internal.h"
#include "placement_lib.h"

/* All threads of the CPU's core idle. */
bool core_idle(const struct sim *s, int cpu)
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
int idle_in_group(const struct sim *s, const struct cpu_group *g, int start,
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
int least_loaded(const struct sim *s, int prefer, const struct task *t)
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

/* Runnable tasks over the CPUs of a group: its load, as find_idlest_group()
 * compares groups. */
static int group_running(const struct sim *s, const struct cpu_group *g)
{
	int n = 0;
	for (int i = 0; i < g->n; i++)
		n += s->cpus[g->cpu[i]].nr_running + (s->cpus[g->cpu[i]].mode != CPU_IDLE);
	return n;
}

/* find_idlest_group() then find_idlest_group_cpu(): the least loaded
 * package, then its least loaded cache, then an idle CPU in the shallowest
 * C-state there (cheapest to wake); the least loaded CPU if none is idle. */
int idlest(const struct sim *s, const struct task *t)
{
	int pkg = -1, pkg_load = 0;
	for (int p = 0; p < s->npkgs; p++) {
		const struct cpu_group *g = &s->pkg_cpus[p];
		if (!g->n)
			continue;
		int load = group_running(s, g) * 1024 / g->n;
		if (pkg < 0 || load < pkg_load) {
			pkg = p;
			pkg_load = load;
		}
	}
	int llc = -1, llc_load = 0;
	for (int l = 0; l < s->nllcs; l++) {
		const struct cpu_group *g = &s->llcs[l];
		if (!g->n || s->cpus[g->cpu[0]].pkg != pkg)
			continue;
		int load = group_running(s, g) * 1024 / g->n;
		if (llc < 0 || load < llc_load) {
			llc = l;
			llc_load = load;
		}
	}
	int best = -1;
	for (int pass = 0; pass < 2 && best < 0; pass++) {
		/* First the chosen cache; then, if affinity rules it out, anywhere. */
		for (int c = 0; c < s->ncpus; c++) {
			const struct sim_cpu *cpu = &s->cpus[c];
			if ((pass == 0 && cpu->llc != llc) || !cpu_is_idle(cpu) || !task_allowed(t, c))
				continue;
			if (best < 0 || s->m->cstates[cpu->cstate].exit_ns <
						s->m->cstates[s->cpus[best].cstate].exit_ns)
				best = c;
		}
	}
	return best >= 0 ? best : least_loaded(s, -1, t);
}

/* The queued task a balancer takes from `rq`: the one furthest from
 * running there (largest vruntime). Moving to another last-level cache,
 * it skips tasks that left a CPU less than sched_migration_cost_ns ago:
 * their cache is still warm (can_migrate_task()'s task_hot()). */
struct task *migratable(const struct sim *s, const struct rq *rq, int dest,
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
int busiest_in(const struct sim *s, const struct cpu_group *g, int cpu, struct task **out)
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

