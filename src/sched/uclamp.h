// SPDX-License-Identifier: GPL-2.0-only
/* Utilization clamping (uclamp) as kernel/sched/core.c has it (Linux
 * v6.6): each task asks for a minimum and a maximum utilization
 * (sched_setattr()'s sched_util_min/max, rt-app's util_min/util_max); the
 * sysctls sched_util_clamp_min and sched_util_clamp_max bound what any
 * task gets (uclamp_eff_get(): a request above the system default is
 * replaced by it); a run queue's clamps are the largest of its runnable
 * tasks' (uclamp_rq_inc()'s max aggregation). schedutil clamps the CPU's
 * utilization with them (uclamp_rq_util_with()); the fair class compares
 * them with CPU capacities (util_fits_cpu(), sched/fair_capacity.c).
 *
 * The static key sched_uclamp_used (uclamp_is_used()) turns on the first
 * time a task sets a clamp or a sysctl changes and never turns off;
 * before that the fair class ignores clamps altogether. Tasks here are
 * all SCHED_NORMAL, so sched_util_clamp_min_rt_default (the boost RT
 * tasks get) has nothing to act on. */
#ifndef PMLAB_UCLAMP_H
#define PMLAB_UCLAMP_H

#include <stdbool.h>

#include "sched_view.h"
#include "task.h"

#define UCLAMP_SCALE 1024u /* SCHED_CAPACITY_SCALE: uclamp_none(UCLAMP_MAX) */

/* uclamp_eff_value(p, UCLAMP_MIN) and (p, UCLAMP_MAX). */
static inline unsigned uclamp_eff_min(const struct task *t, const struct sched_knobs *k)
{
	return t->uclamp_min > k->uclamp_util_min ? k->uclamp_util_min : t->uclamp_min;
}

static inline unsigned uclamp_eff_max(const struct task *t, const struct sched_knobs *k)
{
	return t->uclamp_max > k->uclamp_util_max ? k->uclamp_util_max : t->uclamp_max;
}

/* A run queue's clamps, folded over its runnable tasks. */
struct uclamp_rq {
	unsigned min, max;
	bool idle; /* no runnable task: UCLAMP_FLAG_IDLE, the clamps do not apply */
};

static inline void uclamp_rq_init(struct uclamp_rq *rq)
{
	*rq = (struct uclamp_rq){ .min = 0, .max = 0, .idle = true };
}

/* uclamp_rq_inc(): a runnable task joins; the run queue's clamp is the
 * largest of its tasks' effective clamps. */
static inline void uclamp_rq_add(struct uclamp_rq *rq, const struct task *t,
				 const struct sched_knobs *k)
{
	unsigned lo = uclamp_eff_min(t, k), hi = uclamp_eff_max(t, k);
	rq->min = lo > rq->min ? lo : rq->min;
	rq->max = hi > rq->max ? hi : rq->max;
	rq->idle = false;
}

/* uclamp_rq_get(): an idle run queue has no clamp (0 and 1024). */
static inline unsigned uclamp_rq_min(const struct uclamp_rq *rq)
{
	return rq->idle ? 0 : rq->min;
}

static inline unsigned uclamp_rq_max(const struct uclamp_rq *rq)
{
	return rq->idle ? UCLAMP_SCALE : rq->max;
}

/* The clamps of `cpu`'s run queue: its running and queued tasks. */
void uclamp_rq_of(const struct sim *s, int cpu, struct uclamp_rq *out);

#endif
