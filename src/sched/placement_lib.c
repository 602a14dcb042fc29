// SPDX-License-Identifier: GPL-2.0-only
/* Building blocks shared by the placement policies: finding idle CPUs,
 * load, and tasks a balancer may take. */
#include "placement_lib.h"

/* All threads of the CPU's core idle. */
bool core_idle(const struct sim *s, int cpu)
{
	const struct sched_topology *topo = sv_topology(s);
	const struct cpu_group *core = &topo->core[topo->cpu[cpu].core];
	for (int i = 0; i < core->n; i++)
		if (!sv_cpu_idle(s, core->cpu[i]))
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
		if (!sv_cpu_idle(s, cpu) || !task_allowed(t, cpu))
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
	const struct sched_topology *topo = sv_topology(s);
	int best = -1;
	for (int c = 0; c < topo->ncpus; c++) {
		if (!task_allowed(t, c))
			continue;
		if (best < 0) {
			best = c;
			continue;
		}
		int nb = sv_nr_running(s, best), nc = sv_nr_running(s, c);
		if (nc < nb) {
			best = c;
		} else if (nc == nb && prefer >= 0 && best != prefer) {
			if (c == prefer ||
			    (topo->cpu[c].llc == topo->cpu[prefer].llc &&
			     topo->cpu[best].llc != topo->cpu[prefer].llc))
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
		n += sv_nr_running(s, g->cpu[i]) + (sv_cpu_mode(s, g->cpu[i]) != SV_IDLE);
	return n;
}

/* find_idlest_group() then find_idlest_group_cpu(): the least loaded
 * package, then its least loaded cache, then an idle CPU in the shallowest
 * C-state there (cheapest to wake); the least loaded CPU if none is idle. */
int idlest(const struct sim *s, const struct task *t)
{
	const struct sched_topology *topo = sv_topology(s);
	int pkg = -1, pkg_load = 0;
	for (int p = 0; p < topo->npkgs; p++) {
		const struct cpu_group *g = &topo->pkg[p];
		if (!g->n)
			continue;
		int load = group_running(s, g) * 1024 / g->n;
		if (pkg < 0 || load < pkg_load) {
			pkg = p;
			pkg_load = load;
		}
	}
	int llc = -1, llc_load = 0;
	for (int l = 0; l < topo->nllcs; l++) {
		const struct cpu_group *g = &topo->llc[l];
		if (!g->n || topo->cpu[g->cpu[0]].pkg != pkg)
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
		for (int c = 0; c < topo->ncpus; c++) {
			if ((pass == 0 && topo->cpu[c].llc != llc) || !sv_cpu_idle(s, c) ||
			    !task_allowed(t, c))
				continue;
			if (best < 0 || sv_exit_latency(s, c) < sv_exit_latency(s, best))
				best = c;
		}
	}
	return best >= 0 ? best : least_loaded(s, -1, t);
}

/* The queued task a balancer takes from `rq`: the one furthest from
 * running there (largest vruntime). Moving to another last-level cache,
 * it skips tasks that left a CPU less than sched_migration_cost_ns ago:
 * their cache is still warm (can_migrate_task()'s task_hot()). */
struct task *migratable(const struct sim *s, const struct rq *rq, int dest, bool cross_llc)
{
	sim_ns now = sv_now(s), hot = sv_knobs(s)->migration_cost_ns;
	struct task *best = NULL;
	for (int i = 0; i < rq->len; i++) {
		struct task *t = rq->heap[i];
		if (!task_allowed(t, dest))
			continue;
		if (cross_llc && t->ran && now - t->last_ran < hot)
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
	const struct sched_topology *topo = sv_topology(s);
	int best = -1, best_len = 0;
	if (g->n && sv_pkg_stealable(s, topo->cpu[g->cpu[0]].pkg) == 0)
		return -1; /* groups never span packages */
	for (int i = 0; i < g->n; i++) {
		int c = g->cpu[i];
		const struct rq *rq = sv_rq(s, c);
		if (c == cpu || rq->len == 0 || sv_cpu_mode(s, c) == SV_WAKING)
			continue;
		if (best >= 0 && rq->len <= best_len)
			continue;
		struct task *t = migratable(s, rq, cpu, topo->cpu[c].llc != topo->cpu[cpu].llc);
		if (t) {
			best = c;
			best_len = rq->len;
			*out = t;
		}
	}
	return best;
}
