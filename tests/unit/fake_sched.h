// SPDX-License-Identifier: GPL-2.0-only
/* A fake engine for placement tests. A policy sees the engine only
 * through sched/sched_view.h, so the tests implement that view
 * themselves: each CPU's state is set by hand and a policy's choice
 * checked against the kernel rule that decides it. The fake counts the
 * per-CPU reads a choice makes (the cost of a wakeup) and records the
 * moves a balancer makes. */
#ifndef PMLAB_FAKE_SCHED_H
#define PMLAB_FAKE_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "machine/machine.h"
#include "sched/placement.h"
#include "sched/rq.h"
#include "sched/sched_view.h"
#include "sched/task.h"

#define MAX_CPUS 256

struct fake_cpu {
	enum sv_mode mode;
	int nr_running;
	unsigned util, load; /* cpu_util_cfs() (also the raw util_avg) and cpu_load() */
	unsigned util_est;   /* the run queue's util_est sum */
	sim_ns exit_ns, idle_since;
	struct task *curr;
	struct rq rq;
};

/* A move a balancer made. */
struct fake_move {
	int from, to;
	struct task *t;
	bool running; /* active balancing of the running task */
};

/* The fake engine: the state a placement policy may read. */
struct sim {
	struct sched_topology topo;
	struct sched_knobs knobs;
	sim_ns now;
	struct fake_cpu cpu[MAX_CPUS];
	long reads; /* per-CPU state reads */
	int nmoves;
	struct fake_move last_move;
	int npds; /* performance domains with their energy models (EAS) */
	const struct sv_perf_domain *pds;
};

extern struct sim sim;
extern struct task tasks[4 * MAX_CPUS];
extern int ntasks;

/* A machine of `pkgs` packages of `cores` cores with `threads` threads,
 * `llc` cores per LLC; every CPU idle in a C-state of 2 us exit latency. */
struct sim *machine(int pkgs, int cores, int threads, int llc);
/* The same machine for a machine struct the test filled (CPU types...),
 * the scheduler seeing the asymmetry `asym` (sched/asym.h). */
struct sim *machine_from(struct machine *m, enum sched_asym asym);
/* A task that last ran on `prev` and now sleeps, with utilization `util`. */
struct task *sleeper(int prev, uint32_t util);
/* CPU `cpu` runs a task of utilization `util` (its PELT sums follow). */
struct task *run_on(struct sim *s, int cpu, uint32_t util);
/* A wakeup of `p` by what runs on `this_cpu` under the default policy. */
int wake(struct sim *s, struct task *p, int this_cpu, bool sync);
/* The topology's memory, for cmocka's group teardown. */
int free_topology(void **state);

#endif
