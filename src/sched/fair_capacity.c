// SPDX-License-Identifier: GPL-2.0-only
/* Capacity awareness (fair_capacity.h), Linux v6.6's kernel/sched/fair.c. */
#include "fair_capacity.h"

#include <stddef.h>

#include "rq.h"
#include "uclamp.h"

unsigned long task_util(const struct task *p)
{
	return p->pelt.util_avg;
}

/* _task_util_est(): max(ewma, enqueued), enqueued being util_avg at the
 * last dequeue. */
static unsigned long task_util_est_only(const struct task *p)
{
	return p->util_est_ewma > p->util_est_last ? p->util_est_ewma : p->util_est_last;
}

unsigned long task_util_est(const struct task *p)
{
	unsigned long u = task_util(p), e = task_util_est_only(p);
	return u > e ? u : e;
}

int util_fits_cpu(const struct sim *s, unsigned long util, unsigned long uclamp_min,
		  unsigned long uclamp_max, int cpu)
{
	unsigned long capacity = sv_topology(s)->capacity[cpu];
	bool fits = fits_capacity(util, capacity);
	if (!sv_knobs(s)->uclamp_used)
		return fits;
	/* uclamp_max at or below the CPU's capacity forces a fit (a capped
	 * task belongs where its cap is), except 1024 on a CPU of 1024,
	 * which must not hide an overutilized system. No thermal pressure:
	 * capacity_orig_thermal is the capacity. */
	bool max_fits = capacity == UCLAMP_SCALE && uclamp_max == UCLAMP_SCALE;
	max_fits = !max_fits && uclamp_max <= capacity;
	fits = fits || max_fits;
	/* A boost the CPU cannot give: it fits, but not fully. */
	if (uclamp_min > uclamp_max)
		uclamp_min = uclamp_max;
	if (fits && util < uclamp_min && uclamp_min > capacity)
		return -1;
	return fits;
}

bool task_fits_cpu(const struct sim *s, const struct task *p, int cpu)
{
	const struct sched_knobs *k = sv_knobs(s);
	return util_fits_cpu(s, task_util_est(p), uclamp_eff_min(p, k), uclamp_eff_max(p, k),
			     cpu) > 0;
}

static unsigned long sub_positive(unsigned long v, unsigned long d)
{
	return v > d ? v - d : 0;
}

unsigned long cpu_util(struct sim *s, int cpu, const struct task *p, int dst_cpu)
{
	unsigned long util = sv_cpu_util_avg(s, cpu);
	/* @p leaves @cpu, or joins it from elsewhere; otherwise the signal
	 * already holds it. */
	if (p && p->cpu == cpu && dst_cpu != cpu)
		util = sub_positive(util, task_util(p));
	else if (p && p->cpu != cpu && dst_cpu == cpu)
		util += task_util(p);
	/* util_est: a waking @p is not in any CPU's sum yet; a queued or
	 * running one is in its CPU's (what it added then). */
	unsigned long est = sv_cpu_util_est(s, cpu);
	if (p && dst_cpu == cpu)
		est += task_util_est_only(p);
	else if (p && p->cpu == cpu && (p->state == TASK_QUEUED || p->state == TASK_RUNNING))
		est = sub_positive(est, p->util_est_queued);
	if (est > util)
		util = est;
	unsigned long cap = sv_topology(s)->capacity[cpu];
	return util < cap ? util : cap;
}

const struct sched_domain *sd_asym_cpucapacity(const struct sched_topology *t, int cpu)
{
	for (int k = 0; k < t->cpu_ndom[cpu]; k++)
		if (t->cpu_dom[cpu][k]->asym_cpucapacity_full)
			return t->cpu_dom[cpu][k];
	return NULL;
}

int select_idle_capacity(struct sim *s, struct task *p, const struct sched_domain *sd,
			 int target)
{
	const struct sched_topology *topo = sv_topology(s);
	const struct sched_knobs *k = sv_knobs(s);
	unsigned long util = task_util_est(p), umin = uclamp_eff_min(p, k),
		      umax = uclamp_eff_max(p, k), best_cap = 0;
	int best_fits = 0, best_cpu = -1;
	const struct cpu_group *g = sd->span;
	int from = 0;
	for (int i = 0; i < g->n; i++)
		if (g->cpu[i] == target)
			from = i;
	for (int i = 0; i < g->n; i++) {
		int cpu = g->cpu[(from + i) % g->n];
		if (!task_allowed(p, cpu) || !sv_cpu_idle(s, cpu))
			continue;
		int fits = util_fits_cpu(s, util, umin, umax, cpu);
		if (fits > 0)
			return cpu;
		/* Only the boost does not fit (-1, better than 0): the CPU of
		 * greatest capacity among those. */
		unsigned long cap = topo->capacity[cpu];
		if (fits < best_fits || (fits == best_fits && cap > best_cap)) {
			best_cap = cap;
			best_cpu = cpu;
			best_fits = fits;
		}
	}
	return best_cpu;
}

bool asym_fits_cpu(const struct sim *s, unsigned long util, unsigned long uclamp_min,
		   unsigned long uclamp_max, int cpu)
{
	if (!sched_asym_cpucap_active(sv_topology(s)))
		return true;
	return util_fits_cpu(s, util, uclamp_min, uclamp_max, cpu) > 0;
}

bool cpu_overutilized(struct sim *s, int cpu)
{
	struct uclamp_rq rq;
	uclamp_rq_of(s, cpu, &rq);
	return !util_fits_cpu(s, cpu_util(s, cpu, NULL, -1), uclamp_rq_min(&rq), uclamp_rq_max(&rq),
			      cpu);
}

bool task_misfit(const struct sim *s, const struct task *p, int cpu)
{
	const struct sched_topology *topo = sv_topology(s);
	if (!sched_asym_cpucap_active(topo))
		return false;
	/* p->max_allowed_capacity: the biggest CPU its affinity allows. */
	uint32_t max_allowed = topo->rd->max_cpu_capacity;
	if (p->affinity) {
		max_allowed = 0;
		for (int c = 0; c < topo->ncpus; c++)
			if (task_allowed(p, c) && topo->capacity[c] > max_allowed)
				max_allowed = topo->capacity[c];
	}
	return topo->capacity[cpu] < max_allowed && !task_fits_cpu(s, p, cpu);
}

/* The misfit task of `src` that `dst` takes: a queued one that does not
 * fit `src` first (detach_tasks() for migrate_misfit), else the running
 * one, which active balancing moves; NULL if none. *running says which. */
static struct task *misfit_task(struct sim *s, int src, int dst, bool *running)
{
	struct task *curr = sv_curr(s, src);
	if (sv_cpu_mode(s, src) != SV_RUNNING || !curr || curr->state != TASK_RUNNING ||
	    !task_misfit(s, curr, src))
		return NULL;
	const struct rq *rq = sv_rq(s, src);
	for (int i = 0; i < rq->len; i++) {
		struct task *t = rq->heap[i];
		if (task_allowed(t, dst) && !task_fits_cpu(s, t, src)) {
			*running = false;
			return t;
		}
	}
	*running = true;
	return task_allowed(curr, dst) ? curr : NULL;
}

static void move(struct sim *s, struct task *t, bool running, int src, int dst)
{
	if (running)
		sv_migrate_running(s, src, dst);
	else
		sv_migrate_queued(s, t, src, dst);
}

bool misfit_push(struct sim *s, int cpu)
{
	const struct sched_topology *topo = sv_topology(s);
	if (!sched_asym_cpucap_active(topo) || topo->capacity[cpu] >= topo->rd->max_cpu_capacity)
		return false;
	/* check_misfit_status(): the running task is misfit here. */
	struct task *curr = sv_curr(s, cpu);
	if (sv_cpu_mode(s, cpu) != SV_RUNNING || !curr || curr->state != TASK_RUNNING ||
	    !task_misfit(s, curr, cpu))
		return false;
	/* find_new_ilb() picks the first idle CPU; _nohz_idle_balance()
	 * balances the idle CPUs after it in order, itself last. */
	int ilb = -1;
	for (int c = 0; c < topo->ncpus && ilb < 0; c++)
		if (sv_cpu_idle(s, c))
			ilb = c;
	if (ilb < 0)
		return false;
	for (int k = 1; k <= topo->ncpus; k++) {
		int dst = (ilb + k) % topo->ncpus;
		if (!sv_cpu_idle(s, dst) || !capacity_greater(topo->capacity[dst], topo->capacity[cpu]))
			continue;
		bool running;
		struct task *t = misfit_task(s, cpu, dst, &running);
		if (!t)
			continue; /* its affinity keeps it off `dst` */
		move(s, t, running, cpu, dst);
		return true;
	}
	return false;
}

bool misfit_pull(struct sim *s, int cpu)
{
	const struct sched_topology *topo = sv_topology(s);
	if (!sched_asym_cpucap_active(topo))
		return false;
	/* load_balance() from the lowest domain up; at a domain with
	 * SD_ASYM_CPUCAPACITY the busiest group is the one with the biggest
	 * misfit task (update_sd_pick_busiest()), pulled only to a CPU of
	 * noticeably greater capacity. */
	for (int k = 0; k < topo->cpu_ndom[cpu]; k++) {
		const struct sched_domain *sd = topo->cpu_dom[cpu][k];
		if (!sd->asym_cpucapacity)
			continue;
		int src = -1;
		unsigned long load = 0;
		for (int i = 0; i < sd->span->n; i++) {
			int c = sd->span->cpu[i];
			struct task *curr = sv_curr(s, c);
			if (c == cpu || !capacity_greater(topo->capacity[cpu], topo->capacity[c]) ||
			    sv_cpu_mode(s, c) != SV_RUNNING || !curr || curr->state != TASK_RUNNING ||
			    !task_misfit(s, curr, c))
				continue;
			unsigned long l = task_util(curr) ? task_util(curr) : 1;
			if (src < 0 || l > load) {
				src = c;
				load = l;
			}
		}
		if (src < 0)
			continue;
		bool running;
		struct task *t = misfit_task(s, src, cpu, &running);
		if (!t)
			return false;
		move(s, t, running, src, cpu);
		return true;
	}
	return false;
}
