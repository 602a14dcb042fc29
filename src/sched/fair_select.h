// SPDX-License-Identifier: GPL-2.0-only
/* select_task_rq_fair() as Linux 6.1 has it (kernel/sched/fair.c): the fast
 * path of a wakeup (wake_affine() then select_idle_sibling(), in
 * fair_wakeup.c) and the slow path of fork and exec balancing
 * (find_idlest_cpu(), in fair_idlest.c). */
#ifndef PMLAB_FAIR_SELECT_H
#define PMLAB_FAIR_SELECT_H

#include "placement.h"

struct task;

/* The CPU for `p` as select_task_rq_fair() picks it (SELECT_WAKE, _FORK,
 * _EXEC), always one `p` may use. */
int fair_select_task_rq(struct sim *s, struct task *p, const struct select_ctx *w);
/* Its two steps: record_wakee() (the waker's wakee flips, first thing on
 * a wakeup), then the choice. A policy that decides some wakeups itself
 * (EAS) records first and falls back on the second. */
void fair_record_wakee(struct sim *s, const struct select_ctx *w, const struct task *p);
int fair_select_task_rq_recorded(struct sim *s, struct task *p, const struct select_ctx *w);
/* update_idle_core(): `cpu` goes idle; if its SMT siblings are idle too,
 * its LLC has an idle core again. */
void fair_update_idle_core(struct sim *s, int cpu);
/* find_idlest_cpu(): fork and exec balancing from `cpu` down the domains
 * of its hierarchy, starting at its highest. */
int fair_find_idlest_cpu(struct sim *s, struct task *p, int cpu, int prev);

#endif
