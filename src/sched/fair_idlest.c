// SPDX-License-Identifier: GPL-2.0-only
/* Fork and exec balancing of Linux 6.1 (kernel/sched/fair.c):
 * find_idlest_cpu() walks down from the highest domain with
 * SD_BALANCE_FORK/EXEC (all of them here); at each level
 * find_idlest_group() classifies the groups as update_sg_wakeup_stats()
 * and group_classify() do (has spare capacity, fully busy, overloaded),
 * keeps the task in the local group unless another is clearly idler
 * (more idle CPUs; less load beyond imbalance_pct; at a NUMA level, a
 * small imbalance is allowed while the local node has few tasks), and
 * find_idlest_group_cpu() takes the idle CPU in the shallowest C-state
 * (the most recently idled on ties), else the least loaded. An exec'ing
 * task is discounted from its own CPU (the *_without() helpers).
 *
 * PELT stand-ins: the model keeps util_avg only, so the groups' load and
 * runnable sums are their util_avg sums. */
#include <limits.h>

#include "fair_capacity.h"
#include "fair_select.h"
#include "placement_lib.h"

enum group_type { GROUP_HAS_SPARE, GROUP_FULLY_BUSY, GROUP_MISFIT, GROUP_OVERLOADED };

struct sg_stats {
	uint64_t load, util, runnable, capacity, avg_load;
	uint32_t max_capacity;
	int sum_nr_running, idle_cpus, weight;
	bool misfit; /* with asymmetric capacities: the task fits none of its CPUs */
	enum group_type type;
};

/* `p` counts on `cpu` (task_running_on_cpu()): queued or running there. */
static bool counts_on(const struct task *p, int cpu)
{
	return p->cpu == cpu && (p->state == TASK_QUEUED || p->state == TASK_RUNNING);
}

static uint64_t minus(uint64_t v, uint64_t d)
{
	return v > d ? v - d : 0;
}

/* group_classify() without the types the slow path never meets. */
static enum group_type classify(int pct, const struct sg_stats *g)
{
	if (g->sum_nr_running > g->weight &&
	    (g->capacity * 100 < g->util * (uint64_t)pct ||
	     g->capacity * (uint64_t)pct < g->runnable * 100))
		return GROUP_OVERLOADED;
	if (g->misfit)
		return GROUP_MISFIT;
	if (g->sum_nr_running < g->weight)
		return GROUP_HAS_SPARE;
	if (g->capacity * (uint64_t)pct < g->runnable * 100)
		return GROUP_FULLY_BUSY;
	return g->capacity * 100 > g->util * (uint64_t)pct ? GROUP_HAS_SPARE : GROUP_FULLY_BUSY;
}

/* update_sg_wakeup_stats(). */
static void group_stats(struct sim *s, const struct sched_domain *sd, const struct cpu_group *g,
			const struct task *p, struct sg_stats *out)
{
	const struct sched_topology *topo = sv_topology(s);
	/* SD_ASYM_CPUCAPACITY (v6.6): the task is assumed to fit none of the
	 * group's CPUs until one is found that it fits. */
	*out = (struct sg_stats){ .weight = g->n, .misfit = sd->asym_cpucapacity };
	for (int i = 0; i < g->n; i++) {
		int cpu = g->cpu[i];
		out->capacity += topo->capacity[cpu];
		if (topo->capacity[cpu] > out->max_capacity)
			out->max_capacity = topo->capacity[cpu];
		if (out->misfit && task_fits_cpu(s, p, cpu))
			out->misfit = false;
		int local = counts_on(p, cpu);
		uint64_t util = sv_cpu_util(s, cpu), load = sv_cpu_load(s, cpu);
		if (local) {
			/* cpu_util_without(): its PELT share and its util_est. */
			util = minus(util, p->pelt.util_avg > p->util_est_queued ? p->pelt.util_avg
										  : p->util_est_queued);
			load = minus(load, p->pelt.util_avg);
		}
		out->load += load;
		out->util += util;
		out->runnable += util;
		int nr = sv_nr_running(s, cpu) - local;
		out->sum_nr_running += nr;
		/* idle_cpu_without(): nothing else would run there. */
		struct task *curr = sv_curr(s, cpu);
		if (!nr && (sv_cpu_mode(s, cpu) != SV_RUNNING || !curr || curr == p))
			out->idle_cpus++;
	}
	out->type = classify(sd->imbalance_pct, out);
	if (out->type == GROUP_FULLY_BUSY || out->type == GROUP_OVERLOADED)
		out->avg_load = out->load * PELT_SCALE / out->capacity;
}

/* update_pick_idlest(): is `g` idler than the idlest so far? */
static bool idler(const struct sg_stats *g, const struct sg_stats *idlest)
{
	if (g->type != idlest->type)
		return g->type < idlest->type;
	if (g->type == GROUP_MISFIT)
		return g->max_capacity > idlest->max_capacity; /* the biggest CPUs */
	if (g->type != GROUP_HAS_SPARE)
		return g->avg_load < idlest->avg_load;
	if (idlest->idle_cpus != g->idle_cpus)
		return g->idle_cpus > idlest->idle_cpus;
	return g->util < idlest->util;
}

static bool group_allows(const struct cpu_group *g, const struct task *p)
{
	for (int i = 0; i < g->n; i++)
		if (task_allowed(p, g->cpu[i]))
			return true;
	return false;
}

/* adjust_numa_imbalance(): an imbalance of up to two idle CPUs is allowed
 * while the destination runs no more than imb_numa_nr tasks. */
static int numa_imbalance(int imbalance, int dst_running, int imb_numa_nr)
{
	if (dst_running > imb_numa_nr)
		return imbalance;
	return imbalance <= 2 ? 0 : imbalance;
}

static int allowed_in(const struct cpu_group *g, const struct task *p)
{
	int n = 0;
	for (int i = 0; i < g->n; i++)
		n += task_allowed(p, g->cpu[i]);
	return n;
}

/* find_idlest_group(): the group to push `p` to, or NULL to stay in the
 * local one. Groups are visited from the local one on, as sd->groups
 * starts at the group of the CPU that owns the domain. */
static const struct cpu_group *find_idlest_group(struct sim *s, const struct sched_domain *sd,
						 const struct task *p, int this_cpu)
{
	const struct sched_topology *topo = sv_topology(s);
	const struct cpu_group *idlest = NULL, *local = NULL;
	struct sg_stats local_sgs = { 0 }, idlest_sgs = { .avg_load = UINT64_MAX,
							 .type = GROUP_OVERLOADED };
	int first = 0;
	for (int i = 0; i < sd->ngroups; i++)
		if (cpu_group_has(topo, sd->groups[i], this_cpu))
			first = i;
	for (int k = 0; k < sd->ngroups; k++) {
		const struct cpu_group *g = sd->groups[(first + k) % sd->ngroups];
		if (!group_allows(g, p))
			continue;
		struct sg_stats sgs;
		group_stats(s, sd, g, p, &sgs);
		if (cpu_group_has(topo, g, this_cpu)) {
			local = g;
			local_sgs = sgs;
		} else if (!idlest || idler(&sgs, &idlest_sgs)) {
			idlest = g;
			idlest_sgs = sgs;
		}
	}
	if (!idlest)
		return NULL;
	if (!local)
		return idlest; /* the local group is out of the task's affinity */
	if (local_sgs.type != idlest_sgs.type)
		return local_sgs.type > idlest_sgs.type ? idlest : NULL;
	if (local_sgs.type == GROUP_MISFIT)
		return local_sgs.max_capacity >= idlest_sgs.max_capacity ? NULL : idlest;
	if (local_sgs.type != GROUP_HAS_SPARE) {
		uint64_t imbalance = PELT_SCALE * (uint64_t)(sd->imbalance_pct - 100) / 100;
		if (sd->numa && idlest_sgs.avg_load + imbalance >= local_sgs.avg_load)
			return NULL;
		if (idlest_sgs.avg_load >= local_sgs.avg_load + imbalance)
			return NULL;
		if (100 * local_sgs.avg_load <= (uint64_t)sd->imbalance_pct * idlest_sgs.avg_load)
			return NULL;
		return idlest;
	}
	if (sd->numa) {
		/* Keep the task near its parent while the node has few tasks. */
		int imb_numa_nr = allowed_in(local, p);
		if (imb_numa_nr > sd->imb_numa_nr)
			imb_numa_nr = sd->imb_numa_nr;
		int imbalance = local_sgs.idle_cpus - idlest_sgs.idle_cpus;
		if (imbalance < 0)
			imbalance = -imbalance;
		if (!numa_imbalance(imbalance, local_sgs.sum_nr_running + 1, imb_numa_nr))
			return NULL;
	}
	return local_sgs.idle_cpus >= idlest_sgs.idle_cpus ? NULL : idlest;
}

/* find_idlest_group_cpu(): the idle CPU with the smallest exit latency
 * (ties: the most recently idled, its cache the warmest), else the least
 * loaded one, else `this_cpu`. */
static int find_idlest_group_cpu(struct sim *s, const struct cpu_group *g, const struct task *p,
				 int this_cpu)
{
	if (g->n == 1)
		return g->cpu[0];
	sim_ns min_exit = SIM_NS_MAX, latest_idle = 0;
	unsigned min_load = UINT_MAX;
	int least_loaded = this_cpu, shallowest = -1;
	for (int i = 0; i < g->n; i++) {
		int cpu = g->cpu[i];
		if (!task_allowed(p, cpu))
			continue;
		if (sv_cpu_idle(s, cpu)) {
			sim_ns exit = sv_exit_latency(s, cpu), since = sv_idle_since(s, cpu);
			if (exit < min_exit) {
				min_exit = exit;
				latest_idle = since;
				shallowest = cpu;
			} else if (exit == min_exit && since > latest_idle) {
				latest_idle = since;
				shallowest = cpu;
			}
		} else if (shallowest == -1) {
			unsigned load = sv_cpu_load(s, cpu);
			if (load < min_load) {
				min_load = load;
				least_loaded = cpu;
			}
		}
	}
	return shallowest != -1 ? shallowest : least_loaded;
}

int fair_find_idlest_cpu(struct sim *s, struct task *p, int cpu, int prev)
{
	const struct sched_topology *topo = sv_topology(s);
	int k = topo->cpu_ndom[cpu] - 1;
	const struct sched_domain *sd = cpu_domain(topo, cpu, k);
	if (!sd || !group_allows(sd->span, p))
		return prev;
	int new_cpu = cpu;
	while (sd) {
		const struct cpu_group *group = find_idlest_group(s, sd, p, cpu);
		if (group)
			new_cpu = find_idlest_group_cpu(s, group, p, cpu);
		if (!group || new_cpu == cpu) {
			/* Balance at the next level down of `cpu`. */
			sd = cpu_domain(topo, cpu, --k);
			continue;
		}
		/* Now balance within new_cpu's domains narrower than this one. */
		int weight = sd->span->n;
		cpu = new_cpu;
		sd = NULL;
		for (int j = 0; j < topo->cpu_ndom[cpu]; j++) {
			const struct sched_domain *tmp = cpu_domain(topo, cpu, j);
			if (weight <= tmp->span->n)
				break;
			sd = tmp;
			k = j;
		}
	}
	return new_cpu;
}
