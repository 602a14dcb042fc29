// SPDX-License-Identifier: GPL-2.0-only
/* Energy Aware Scheduling (fair_energy.h): Linux v6.12's
 * find_energy_efficient_cpu(), compute_energy(), eenv_task_busy_time(),
 * eenv_pd_busy_time() and eenv_pd_max_util() (the last as v6.8 reworked it
 * around sugov_effective_cpu_perf(), so that EAS predicts the frequency
 * schedutil will choose), v6.9's em_cpu_energy(), and v6.10's
 * overutilized handling (set_rd_overutilized(), is_rd_overutilized()).
 *
 * No RT, deadline or IRQ time is modelled: effective_cpu_util() is the
 * CFS utilization capped at the capacity, and a CPU's actual capacity
 * (get_actual_cpu_capacity()) is its capacity. cpu_util()'s runnable
 * boost is left out (the model keeps util_avg only, sched_view.h). */
#include "fair_energy.h"

#include <limits.h>

#include "fair_capacity.h"
#include "rq.h"
#include "uclamp.h"

unsigned long em_cpu_energy(const struct em_table *em, unsigned long max_util,
			    unsigned long sum_util, unsigned long allowed_cap)
{
	if (!sum_util || em->nr_perf_states < 1)
		return 0;
	if (max_util > allowed_cap)
		max_util = allowed_cap;
	/* em_pd_get_efficient_state(): cpufreq-backed domains skip the
	 * inefficient states (EM_PERF_DOMAIN_SKIP_INEFFICIENCIES, set by
	 * em_cpufreq_update_efficiencies()). */
	int i, last = em->nr_perf_states - 1;
	for (i = 0; i < last; i++)
		if (em->state[i].performance >= max_util && !em->state[i].inefficient)
			break;
	return em->state[i].cost * sum_util;
}

/* struct energy_env */
struct energy_env {
	unsigned long task_busy_time, pd_busy_time, cpu_cap, pd_cap;
};

/* effective_cpu_util() then sugov_effective_cpu_perf() (v6.8+): the
 * performance schedutil asks of `cpu` for utilization `util`: 25 %
 * headroom, capped by the run queue's uclamp_max (and the task's, for the
 * CPU it would join), at least the uclamp_min. */
static unsigned long cpu_perf(struct sim *s, int cpu, unsigned long util, const struct task *tsk)
{
	const struct sched_knobs *k = sv_knobs(s);
	unsigned long scale = sv_topology(s)->capacity[cpu];
	if (util > scale)
		util = scale;
	struct uclamp_rq rq;
	uclamp_rq_of(s, cpu, &rq);
	unsigned long min = uclamp_rq_min(&rq), max = uclamp_rq_max(&rq);
	if (max > scale)
		max = scale;
	if (tsk && k->uclamp_used) {
		unsigned long tmin = uclamp_eff_min(tsk, k), tmax = uclamp_eff_max(tsk, k);
		min = tmin > min ? tmin : min;
		/* No active max constraint: the task's own. */
		max = rq.idle ? tmax : (tmax > max ? tmax : max);
	}
	unsigned long actual = util + (util >> 2); /* map_util_perf() */
	if (actual < max)
		max = actual;
	return min > max ? min : max;
}

/* eenv_pd_max_util(): the performance the domain's busiest CPU asks for
 * with `p` on `dst_cpu` (-1: nowhere), at most the CPU capacity. */
static unsigned long pd_max_util(struct sim *s, const struct energy_env *eenv,
				 const struct sv_perf_domain *pd, const struct task *p, int dst_cpu)
{
	unsigned long max_util = 0;
	for (int i = 0; i < pd->ncpus; i++) {
		int cpu = pd->cpus[i];
		const struct task *tsk = cpu == dst_cpu ? p : NULL;
		unsigned long perf = cpu_perf(s, cpu, cpu_util(s, cpu, p, dst_cpu), tsk);
		if (perf > max_util)
			max_util = perf;
	}
	return max_util < eenv->cpu_cap ? max_util : eenv->cpu_cap;
}

/* eenv_pd_busy_time(): the domain's utilization without `p`. */
static void pd_busy_time(struct sim *s, struct energy_env *eenv, const struct sv_perf_domain *pd,
			 const struct task *p)
{
	unsigned long busy = 0;
	for (int i = 0; i < pd->ncpus; i++) {
		int cpu = pd->cpus[i];
		unsigned long util = cpu_util(s, cpu, p, -1), cap = sv_topology(s)->capacity[cpu];
		busy += util < cap ? util : cap; /* effective_cpu_util(), no RT/DL/IRQ */
	}
	eenv->pd_busy_time = busy < eenv->pd_cap ? busy : eenv->pd_cap;
}

/* compute_energy(): the domain's energy with `p` on `dst_cpu` (-1: the
 * domain without it). */
static unsigned long compute_energy(struct sim *s, const struct energy_env *eenv,
				    const struct sv_perf_domain *pd, const struct task *p,
				    int dst_cpu)
{
	unsigned long max_util = pd_max_util(s, eenv, pd, p, dst_cpu);
	unsigned long busy = eenv->pd_busy_time;
	if (dst_cpu >= 0) {
		busy += eenv->task_busy_time;
		if (busy > eenv->pd_cap)
			busy = eenv->pd_cap;
	}
	return em_cpu_energy(pd->em, max_util, busy, eenv->cpu_cap);
}

/* The lowest domain of this_cpu with SD_ASYM_CPUCAPACITY_FULL that spans
 * prev_cpu; NULL if none. */
static const struct sched_domain *eas_domain(const struct sched_topology *topo, int this_cpu,
					     int prev_cpu)
{
	for (int k = 0; k < topo->cpu_ndom[this_cpu]; k++) {
		const struct sched_domain *sd = topo->cpu_dom[this_cpu][k];
		if (sd->asym_cpucapacity_full && cpu_group_has(topo, sd->span, prev_cpu))
			return sd;
	}
	return NULL;
}

int find_energy_efficient_cpu(struct sim *s, struct task *p, int prev_cpu, int this_cpu)
{
	const struct sched_topology *topo = sv_topology(s);
	const struct sched_knobs *k = sv_knobs(s);
	const struct sv_perf_domain *pds;
	int npds = sv_perf_domains(s, &pds);
	if (!npds)
		return -1;
	/* Energy-aware wake-up happens on the lowest domain from this CPU's
	 * sd_asym_cpucapacity up that spans prev_cpu. */
	const struct sched_domain *sd = eas_domain(topo, this_cpu >= 0 ? this_cpu : prev_cpu,
						   prev_cpu);
	if (!sd)
		return -1;
	unsigned long p_min = k->uclamp_used ? uclamp_eff_min(p, k) : 0;
	unsigned long p_max = k->uclamp_used ? uclamp_eff_max(p, k) : UCLAMP_SCALE;
	sv_task_sync(s, p);
	if (!task_util_est(p) && p_min == 0)
		return prev_cpu;

	struct energy_env eenv;
	/* eenv_task_busy_time(): no IRQ time to scale by. */
	eenv.task_busy_time = task_util_est(p);
	unsigned long prev_delta = ULONG_MAX, best_delta = ULONG_MAX;
	unsigned long best_actual_cap = 0, prev_actual_cap = 0;
	int prev_fits = -1, best_fits = -1, best_energy_cpu = prev_cpu;
	for (int d = 0; d < npds; d++) {
		const struct sv_perf_domain *pd = &pds[d];
		unsigned long cpu_actual_cap = topo->capacity[pd->cpus[0]];
		long prev_spare_cap = -1, max_spare_cap = -1;
		int max_spare_cap_cpu = -1, max_fits = -1;
		eenv.cpu_cap = cpu_actual_cap;
		eenv.pd_cap = 0;
		for (int i = 0; i < pd->ncpus; i++) {
			int cpu = pd->cpus[i];
			eenv.pd_cap += cpu_actual_cap;
			if (!cpu_group_has(topo, sd->span, cpu) || !task_allowed(p, cpu))
				continue;
			unsigned long util = cpu_util(s, cpu, p, cpu), cpu_cap = topo->capacity[cpu];
			unsigned long util_min = p_min, util_max = p_max;
			/* Skip CPUs that cannot satisfy the request: the run queue's
			 * clamps join the task's (max aggregation, no clamping). */
			if (k->uclamp_used) {
				struct uclamp_rq rq;
				uclamp_rq_of(s, cpu, &rq);
				if (!rq.idle) {
					util_min = rq.min > p_min ? rq.min : p_min;
					util_max = rq.max > p_max ? rq.max : p_max;
				}
			}
			int fits = util_fits_cpu(s, util, util_min, util_max, cpu);
			if (!fits)
				continue;
			cpu_cap = cpu_cap > util ? cpu_cap - util : 0;
			if (cpu == prev_cpu) {
				/* Always use prev_cpu as a candidate. */
				prev_spare_cap = (long)cpu_cap;
				prev_fits = fits;
			} else if (fits > max_fits ||
				   (fits == max_fits && (long)cpu_cap > max_spare_cap)) {
				/* The CPU with the most spare capacity. */
				max_spare_cap = (long)cpu_cap;
				max_spare_cap_cpu = cpu;
				max_fits = fits;
			}
		}
		if (max_spare_cap_cpu < 0 && prev_spare_cap < 0)
			continue;
		pd_busy_time(s, &eenv, pd, p);
		unsigned long base_energy = compute_energy(s, &eenv, pd, p, -1);
		/* Evaluate the energy impact of using prev_cpu. */
		if (prev_spare_cap > -1) {
			prev_delta = compute_energy(s, &eenv, pd, p, prev_cpu);
			if (prev_delta < base_energy)
				return prev_cpu; /* utilization changed meanwhile */
			prev_delta -= base_energy;
			prev_actual_cap = cpu_actual_cap;
			if (prev_delta < best_delta)
				best_delta = prev_delta;
		}
		/* Evaluate the energy impact of using max_spare_cap_cpu. */
		if (max_spare_cap_cpu >= 0 && max_spare_cap > prev_spare_cap) {
			/* The current best fits better. */
			if (max_fits < best_fits)
				continue;
			/* Neither fits the boost, but the best has more capacity. */
			if (max_fits < 0 && cpu_actual_cap <= best_actual_cap)
				continue;
			unsigned long cur_delta = compute_energy(s, &eenv, pd, p, max_spare_cap_cpu);
			if (cur_delta < base_energy)
				return prev_cpu;
			cur_delta -= base_energy;
			/* Both fit, the best costs less. */
			if (max_fits > 0 && best_fits > 0 && cur_delta >= best_delta)
				continue;
			best_delta = cur_delta;
			best_energy_cpu = max_spare_cap_cpu;
			best_fits = max_fits;
			best_actual_cap = cpu_actual_cap;
		}
	}
	if (best_fits > prev_fits || (best_fits > 0 && best_delta < prev_delta) ||
	    (best_fits < 0 && best_actual_cap > prev_actual_cap))
		return best_energy_cpu;
	return prev_cpu;
}

bool is_rd_overutilized(const struct sim *s)
{
	return !sv_knobs(s)->energy_enabled || sv_topology(s)->rd->overutilized;
}

void check_update_overutilized_status(struct sim *s, int cpu)
{
	if (sv_knobs(s)->energy_enabled && !sv_topology(s)->rd->overutilized &&
	    cpu_overutilized(s, cpu))
		sv_topology(s)->rd->overutilized = true;
}

void update_overutilized_root(struct sim *s)
{
	const struct sched_topology *topo = sv_topology(s);
	if (!sv_knobs(s)->energy_enabled)
		return;
	bool over = false;
	for (int c = 0; c < topo->ncpus && !over; c++)
		over = cpu_overutilized(s, c);
	topo->rd->overutilized = over;
}
