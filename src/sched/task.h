// SPDX-License-Identifier: GPL-2.0-only
/* A simulated task: what the scheduler needs (vruntime, weight, where it
 * runs), the burst it is executing, and a few fields owned by the workload
 * that drives it. */
#ifndef PMLAB_TASK_H
#define PMLAB_TASK_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/simtime.h"
#include "pelt.h"

#define TASK_NAME_MAX 24
#define NICE_0_WEIGHT 1024

enum task_state {
	TASK_NEW,      /* created, first wakeup pending */
	TASK_QUEUED,   /* runnable, on a run queue */
	TASK_RUNNING,  /* the current task of a CPU */
	TASK_SLEEPING, /* timed sleep */
	TASK_BLOCKED,  /* waiting for another task or I/O */
	TASK_DEAD,
};

struct task {
	uint32_t id;       /* unique, in creation order */
	uint32_t slot;     /* the engine's (events name tasks by slot) */
	char name[TASK_NAME_MAX];
	enum task_state state;
	int cpu;           /* current CPU, or last one it ran on */
	int last_llc;      /* last-level cache it last ran under; -1 before first run */
	bool ran;          /* has run at least once */

	/* CFS. */
	uint64_t vruntime;
	uint32_t weight;
	int rq_pos;        /* index in its run queue's heap, -1 if not queued */
	sim_ns sum_exec;   /* total CPU time */
	sim_ns exec_at_pick; /* sum_exec when it last got the CPU (for slices) */
	sim_ns last_ran;   /* when it last left a CPU (cache hotness) */

	/* Wakeup placement (select_task_rq_fair()). */
	int recent_used_cpu;            /* the previous CPU before the last wakeup; -1 none */
	/* The task it last woke (record_wakee()), by id + 1 (0: none): ids are
	 * never reused, where a finished task's memory is. */
	uint32_t last_wakee;
	uint32_t wakee_flips;           /* how often it switched wakee, halved each second */
	sim_ns wakee_flip_decay_ts;
	int exec_cpu;                   /* sched_exec() moves it here at its next switch; -1 none */

	/* The current CPU burst: cycles scale with frequency, stall does not.
	 * Both shrink in proportion as the burst progresses. */
	double rem_cycles, rem_stall_ns;
	bool burst_sys;    /* accounted as system time */
	bool in_burst;
	double pending_stall_ns; /* cache refill owed, added to its next burst */

	/* uclamp (sched_setattr): bounds on the utilization schedutil sees. */
	uint16_t uclamp_min, uclamp_max;

	/* Utilization (sched/pelt.h). */
	struct pelt pelt;
	bool pelt_detached;       /* off every run queue's signal (migrating, or new) */
	uint32_t util_est_ewma;   /* EWMA of util_avg at dequeue */
	uint32_t util_est_last;   /* util_avg at the last dequeue */
	uint32_t util_est_queued; /* what it added to its CPU's util_est sum */

	/* Blocking. */
	bool iowait;       /* blocked on I/O: counts as iowait on its CPU */
	bool was_iowait;   /* woken from an I/O wait, not yet run */
	bool wake_pending; /* woken while still running: its next block returns at once */
	uint32_t timer_gen;
	sim_ns wake_time;  /* when it was last woken, for wakeup latency; -1 none */

	/* Work accounting. */
	double cycles_requested, cycles_done;

	uint32_t share_group; /* tasks sharing data (sim_share_group_new), 0: none */
	double mlp;           /* misses in flight while it stalls; 0: the machine's [memory] mlp */
	double mem_gbps;      /* what its present burst asks of memory (engine/memory.c) */
	uint64_t *affinity;   /* bitmap of CPUs it may run on; NULL: all */

	/* Owned by the workload. */
	int wl_role;
	int64_t wl_state;
	sim_ns wl_t0;
	uint32_t wl_peer;
	void *wl_ptr;
};

static inline bool task_allowed(const struct task *t, int cpu)
{
	return !t || !t->affinity || ((t->affinity[cpu / 64] >> (cpu % 64)) & 1);
}

#endif
