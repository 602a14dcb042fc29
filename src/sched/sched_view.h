// SPDX-License-Identifier: GPL-2.0-only
/* The engine as a placement policy sees it: the topology, each CPU's
 * scheduler state (what the kernel's fair.c reads through cpu_rq(cpu)),
 * the scheduler's knobs, and the two moves a balancer makes. The engine
 * implements it (engine/sched_view.c); placement code includes nothing
 * else of the engine, and `struct sim` stays opaque to it. */
#ifndef PMLAB_SCHED_VIEW_H
#define PMLAB_SCHED_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/simtime.h"
#include "../machine/energy_model.h"
#include "topology.h"

struct sim;
struct task;
struct rq;

/* The scheduler's knobs a policy reads (sysctls and boot options). */
struct sched_knobs {
	sim_ns migration_cost_ns;   /* sysctl_sched_migration_cost */
	sim_ns balance_interval_ns; /* a busy CPU's periodic balance */
	int mc_power_savings;       /* sched_mc_power_savings: 0, 1, 2 */
	/* --set kernel=X.Y as MAJOR * 1000 + MINOR (0: current): a 2.6
	 * kernel wakes, forks and execs tasks by 2.6.29's rules. */
	int kernel_version;
	/* uclamp (sched/uclamp.h): the sysctls sched_util_clamp_min and
	 * sched_util_clamp_max, and the static key sched_uclamp_used. */
	unsigned uclamp_util_min, uclamp_util_max;
	bool uclamp_used;
	/* sched_energy_enabled(): Energy Aware Scheduling is on (the sysctl
	 * sched_energy_aware, asymmetric capacities, an energy model for
	 * every performance domain, schedutil, no SMT; sched/asym.c). */
	bool energy_enabled;
	/* Asym packing (ITMT) is on: the sysctl sched_itmt_enabled on a
	 * machine whose CPUs have different priorities (sched/asym.c). */
	bool asym_packing;
};

/* What a CPU is doing: in a C-state, leaving one, or running a task. */
enum sv_mode { SV_IDLE, SV_WAKING, SV_RUNNING };

const struct sched_topology *sv_topology(const struct sim *s);
const struct sched_knobs *sv_knobs(const struct sim *s);
sim_ns sv_now(const struct sim *s);

enum sv_mode sv_cpu_mode(const struct sim *s, int cpu);
/* Tasks on the CPU: queued plus the running one. */
int sv_nr_running(const struct sim *s, int cpu);
/* Idle as available_idle_cpu() has it: nothing to run and no task running
 * (a CPU waking for its idle tick is still idle). */
bool sv_cpu_idle(const struct sim *s, int cpu);
/* The exit latency of the C-state the idle governor chose for the CPU
 * (idle_get_state()), and when its idle period began (rq->idle_stamp). */
sim_ns sv_exit_latency(const struct sim *s, int cpu);
sim_ns sv_idle_since(const struct sim *s, int cpu);
/* cpu_util_cfs(): max(util_avg, util_est) of the CPU's run queue, capped
 * at its capacity (1024); an idle CPU's signal is decayed to now first. */
unsigned sv_cpu_util(struct sim *s, int cpu);
/* The run queue's PELT utilization and its util_est sum, neither capped:
 * what cpu_util() starts from (an idle CPU's signal decayed to now, as
 * sv_cpu_util() has it). */
unsigned sv_cpu_util_avg(struct sim *s, int cpu);
unsigned sv_cpu_util_est(const struct sim *s, int cpu);
/* sync_entity_load_avg(): a task that is not running has its PELT signal
 * decayed to its CPU's last PELT update (a sleeping task's utilization
 * fades as it sleeps). */
void sv_task_sync(struct sim *s, struct task *t);
/* cpu_load(): the run queue's PELT load. The model keeps one PELT signal,
 * running time (util_avg), and that stands in for load_avg: the two agree
 * for nice-0 tasks that do not wait on the run queue at the top P-state. */
unsigned sv_cpu_load(struct sim *s, int cpu);
/* The CPU's queued tasks (not the running one). */
const struct rq *sv_rq(const struct sim *s, int cpu);
/* The task running on the CPU, or NULL. */
struct task *sv_curr(const struct sim *s, int cpu);
/* Tasks a balancer can take (queued on running CPUs, see sim_internal.h's
 * cpu_stealable), on any CPU and in package `pkg`. */
long sv_nr_stealable(const struct sim *s);
long sv_pkg_stealable(const struct sim *s, int pkg);

/* A performance domain of the root domain (rd->pd): the online CPUs of one
 * cpufreq policy and their energy model (em_perf_domain). */
struct sv_perf_domain {
	int ncpus;
	const int *cpus;
	const struct em_table *em;
};
/* The performance domains in the kernel's list order (build_perf_domains()
 * puts each new one first: the domain of the highest CPU comes first);
 * 0 and none where EAS cannot run (sched_energy_enabled() false). */
int sv_perf_domains(const struct sim *s, const struct sv_perf_domain **out);

/* The run data of the policy (placement_ops.data_size bytes; NULL if 0). */
void *sv_placement_data(const struct sim *s);

/* A queued task moves to another CPU's run queue. */
void sv_migrate_queued(struct sim *s, struct task *t, int from, int to);
/* Active balancing: the task running on `from` moves, mid-burst, to `to`. */
void sv_migrate_running(struct sim *s, int from, int to);

#endif
