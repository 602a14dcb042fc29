// SPDX-License-Identifier: GPL-2.0-only
/* Task placement policy: where a waking task runs and how work is spread
 * across CPUs. The default ("spread") follows CFS: prefer the previous CPU
 * if idle, else an idle CPU under the same last-level cache (an idle core
 * before an idle SMT sibling), else the least loaded CPU; balance by
 * pulling work to CPUs that go idle and by pushing queued work to idle
 * CPUs from the tick (the nohz idle-balance kick). Power-aware packing
 * (sched_mc_power_savings) plugs in as another ops table. */
#ifndef PMLAB_PLACEMENT_H
#define PMLAB_PLACEMENT_H

#include <stdbool.h>

struct sim;
struct task;

struct placement_ops {
	const char *name;
	/* CPU for a waking (or new, `fork`) task. */
	int (*select_cpu)(struct sim *s, struct task *t, int waker_cpu, bool fork);
	/* A CPU is about to go idle: move a queued task to it; true if it did. */
	bool (*newidle_balance)(struct sim *s, int cpu);
	/* Periodic balancing from a busy CPU's tick. */
	void (*tick_balance)(struct sim *s, int cpu);
};

extern const struct placement_ops placement_spread;
extern const struct placement_ops placement_pack; /* sched_mc_power_savings 1, 2 */

#endif
