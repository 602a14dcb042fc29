// SPDX-License-Identifier: GPL-2.0-only
/* Building blocks shared by the placement policies (placement_lib.c). */
#ifndef PMLAB_PLACEMENT_LIB_H
#define PMLAB_PLACEMENT_LIB_H

#include <stdbool.h>
#include <stddef.h>

#include "placement.h"
#include "rq.h"
#include "task.h"

/* The default policy, which others fall back on. */
extern const struct placement_ops placement_spread;

/* All threads of the CPU's core idle. */
bool core_idle(const struct sim *s, int cpu);
/* An idle CPU of `g` that `t` may use (NULL: any task), scanning from
 * `start`: an idle core first, then an idle SMT thread; -1 if none. */
int idle_in_group(const struct sim *s, const struct cpu_group *g, int start,
		  const struct task *t);
/* Least loaded CPU `t` may use; ties: `prefer`, its cache, lowest id. */
int least_loaded(const struct sim *s, int prefer, const struct task *t);
/* An idle CPU in the shallowest C-state, else the least loaded. */
int idlest(const struct sim *s, const struct task *t);
/* The queued task a balancer moves from `rq` to `dest` (NULL if none). */
struct task *migratable(const struct sim *s, const struct rq *rq, int dest, bool cross_llc);
/* Among `g`, the CPU with the most queued tasks `cpu` may take (-1 if
 * none); the task goes to *out. */
int busiest_in(const struct sim *s, const struct cpu_group *g, int cpu, struct task **out);
/* sched_balance_self() of Linux 2.6.29 (balance_self.c): where a task
 * forked or exec'ed on `cpu` starts; under sched_mc_power_savings
 * (`power_savings`) found only inside `cpu`'s package. */
int sched_balance_self_2629(const struct sim *s, const struct task *p, int cpu, bool power_savings);
/* Whether the knobs' kernel wakes, forks and execs by 2.6.29's rules (a
 * 2.6 kernel: --set kernel=2.6 or 2.6.N). */
bool sched_rules_2629(const struct sched_knobs *k);
/* select_task_rq_fair() of Linux 2.6.29 at a wakeup (wake_2629.c): the
 * CPU for `p` woken from `this_cpu` (-1: an interrupt), WF_SYNC or not. */
int select_task_rq_fair_2629(const struct sim *s, const struct task *p, int this_cpu, bool sync);
/* 2.6.29's choice for a wakeup, fork or exec of `t` (the two above), -1
 * where it has none (a first wakeup, an affinity move) or `t` may not run
 * there. */
int select_cpu_2629(const struct sim *s, const struct task *t, const struct select_ctx *w,
		    bool power_savings);

#endif
