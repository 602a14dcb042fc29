// SPDX-License-Identifier: GPL-2.0-only
/* The capacity-aware parts of kernel/sched/fair.c (Linux v6.6) for
 * machines whose CPUs differ in capacity (SD_ASYM_CPUCAPACITY, a
 * big.LITTLE phone or a hybrid laptop with capacity scaling): whether a
 * task fits a CPU (util_fits_cpu() with uclamp), the CPU utilization
 * with or without a task (cpu_util()), the wakeup's search for an idle
 * CPU big enough (select_idle_capacity()), whether a CPU is overutilized
 * (cpu_overutilized()), and misfit migration: a task too big for its CPU
 * moves to an idle CPU of noticeably greater capacity, by active
 * balancing when it is running (update_misfit_status(),
 * check_misfit_status(), group_misfit_task, migrate_misfit). */
#ifndef PMLAB_FAIR_CAPACITY_H
#define PMLAB_FAIR_CAPACITY_H

#include <stdbool.h>

#include "sched_view.h"
#include "task.h"

/* fits_capacity(): `util` fits `max` with a 20 % margin. */
static inline bool fits_capacity(unsigned long util, unsigned long max)
{
	return util * 1280 < max * 1024;
}

/* capacity_greater(): `a` is noticeably (about 5 %) greater than `b`. */
static inline bool capacity_greater(unsigned long a, unsigned long b)
{
	return a * 1024 > b * 1078;
}

/* task_util() and task_util_est() = max(util_avg, util_est), where the
 * task's util_est is max(its EWMA, its utilization at the last dequeue). */
unsigned long task_util(const struct task *p);
unsigned long task_util_est(const struct task *p);

/* util_fits_cpu(): 1 if `util` fits the CPU's capacity (a task capped by
 * uclamp_max at or below the CPU's capacity always fits), -1 if it fits
 * but the CPU cannot give the uclamp_min boost, 0 if it does not fit. */
int util_fits_cpu(const struct sim *s, unsigned long util, unsigned long uclamp_min,
		  unsigned long uclamp_max, int cpu);
/* task_fits_cpu(): the task's util_est and effective clamps fit fully. */
bool task_fits_cpu(const struct sim *s, const struct task *p, int cpu);

/* cpu_util(cpu, p, dst_cpu, 0): the CPU's utilization (max of util_avg
 * and util_est, capped at its capacity) with `p` moved to `dst_cpu`
 * (-1: `p` taken out of `cpu`; NULL p: as it is). */
unsigned long cpu_util(struct sim *s, int cpu, const struct task *p, int dst_cpu);

/* The lowest domain of `cpu` that spans every capacity
 * (sd_asym_cpucapacity), or NULL. */
const struct sched_domain *sd_asym_cpucapacity(const struct sched_topology *t, int cpu);
/* select_idle_capacity(): the first idle CPU of `sd` from `target` on
 * that the task fits; else the idle one of greatest capacity; -1 if no
 * CPU of `sd` is idle. */
int select_idle_capacity(struct sim *s, struct task *p, const struct sched_domain *sd,
			 int target);
/* asym_fits_cpu(): on a symmetric machine always; else util_fits_cpu()
 * fully. */
bool asym_fits_cpu(const struct sim *s, unsigned long util, unsigned long uclamp_min,
		   unsigned long uclamp_max, int cpu);

/* cpu_overutilized(): the CPU's utilization does not fit its capacity
 * (its run queue's clamps considered). */
bool cpu_overutilized(struct sim *s, int cpu);

/* update_misfit_status() (v6.10): with asymmetric capacities, the task
 * does not fit `cpu` and its affinity allows a bigger CPU
 * (p->max_allowed_capacity). */
bool task_misfit(const struct sim *s, const struct task *p, int cpu);

/* Misfit migration from a busy CPU's periodic balance (the nohz kick of
 * check_misfit_status() and the idle CPU's load_balance()): if the task
 * running on `cpu` does not fit it, it moves to the first idle CPU of
 * noticeably greater capacity that it may use, in the order the idle
 * balancer visits them. True if a task moved. */
bool misfit_push(struct sim *s, int cpu);
/* The same from a CPU going idle (newidle_balance()): `cpu` takes the
 * running misfit task of a CPU of noticeably smaller capacity. */
bool misfit_pull(struct sim *s, int cpu);

#endif
