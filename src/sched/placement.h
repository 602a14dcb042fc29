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
#include <stddef.h>

#include "../core/diag.h"
#include "../core/tunable.h"
#include "sched_view.h"

/* What a CPU is chosen for (the kernel's WF_TTWU, WF_FORK, WF_EXEC). */
enum select_kind {
	SELECT_WAKE, /* try_to_wake_up() */
	SELECT_FORK, /* wake_up_new_task() */
	SELECT_EXEC, /* sched_exec(): the task runs on this_cpu */
	SELECT_MOVE, /* its affinity no longer allows the CPU it is on */
};

struct select_ctx {
	enum select_kind kind;
	/* The CPU the request runs on: the waker's, the parent's, the
	 * interrupt's (a timer: where it was armed); -1 if unknown. */
	int this_cpu;
	struct task *waker; /* the task running there (current), or NULL */
	bool sync;          /* WF_SYNC: the waker is about to sleep */
};

struct placement_ops {
	const char *name;
	const char *summary;
	/* Whether the kernel's settings turn this policy on (e.g.
	 * sched_mc_power_savings > 0); NULL: the default, taken when no
	 * other policy is selected. */
	bool (*selected)(const struct sched_knobs *k);
	/* The CPU for `t` (select_task_rq()). */
	int (*select_cpu)(struct sim *s, struct task *t, const struct select_ctx *w);
	/* A CPU is about to go idle: move a queued task to it; true if it did. */
	bool (*newidle_balance)(struct sim *s, int cpu);
	/* newidle_balance() pulls only a stealable task (sv_nr_stealable()) on
	 * a machine of symmetric capacities: with none anywhere it returns
	 * false and changes nothing, and the engine leaves the call out. */
	bool newidle_needs_stealable;
	/* Periodic balancing from a busy CPU's tick. */
	void (*tick_balance)(struct sim *s, int cpu);
	/* Optional: `cpu` has nothing left to run and goes idle (the kernel
	 * calls update_idle_core() as it switches to the idle task). Called
	 * only when the topology has SMT and the CPU's LLC has no idle core
	 * flagged (update_idle_core()'s tests, made by the engine). */
	void (*cpu_idle)(struct sim *s, int cpu);
	/* Optional: `t` has just joined `cpu`'s run queue (enqueue_task_fair()),
	 * for the first time if `new_task`. */
	void (*enqueued)(struct sim *s, int cpu, const struct task *t, bool new_task);
	/* A policy with tunables (a plugin's, --set placement=NAME): each an
	 * int64_t at the start of its run data, data_size bytes that the
	 * engine allocates per run (sv_placement_data()). */
	const struct tunable *tunables;
	int ntunables;
	size_t data_size;
	/* Optional: once before the run, after the topology is built. */
	int (*init)(struct sim *s, const struct placement_ops *self, struct pm_diag *d);
	const void *plugin; /* a plugin's adapter (plugin/adapter.h); NULL: built in */
};

/* The policy the knobs select: the first in the registry whose selected()
 * accepts them, else the default. */
const struct placement_ops *placement_for(const struct sched_knobs *k);
int placement_count(void);
const struct placement_ops *placement_at(int i);
const struct placement_ops *placement_find(const char *name);

#endif
