// SPDX-License-Identifier: GPL-2.0-only
/* Task placement policies: where a waking or new task runs and how work
 * is spread across CPUs. A policy is an ops table in its own file, listed
 * in the registry (placement.c); it sees the engine only through
 * sched_view.h. The default ("spread") follows CFS: prefer the previous
 * CPU if idle, else an idle CPU under the same last-level cache (an idle
 * core before an idle SMT sibling), else the least loaded CPU; balance by
 * pulling work to CPUs that go idle and by pushing queued work to idle
 * CPUs from the tick (the nohz idle-balance kick). Power-aware packing
 * (sched_mc_power_savings) is another policy.
 *
 * Adding a policy: one file with its ops and one line in placement.c. */
#ifndef PMLAB_PLACEMENT_H
#define PMLAB_PLACEMENT_H

#include <stdbool.h>

#include "sched_view.h"

struct placement_ops {
	const char *name;
	const char *summary;
	/* Whether the kernel's settings turn this policy on (e.g.
	 * sched_mc_power_savings > 0); NULL: the default, taken when no
	 * other policy is selected. */
	bool (*selected)(const struct sched_knobs *k);
	/* CPU for a waking (or new, `fork`) task. */
	int (*select_cpu)(struct sim *s, struct task *t, int waker_cpu, bool fork);
	/* A CPU is about to go idle: move a queued task to it; true if it did. */
	bool (*newidle_balance)(struct sim *s, int cpu);
	/* Periodic balancing from a busy CPU's tick. */
	void (*tick_balance)(struct sim *s, int cpu);
};

/* The policy the knobs select: the first in the registry whose selected()
 * accepts them, else the default. */
const struct placement_ops *placement_for(const struct sched_knobs *k);
int placement_count(void);
const struct placement_ops *placement_at(int i);
const struct placement_ops *placement_find(const char *name);

#endif
