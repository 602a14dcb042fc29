// SPDX-License-Identifier: GPL-2.0-only
/* The simulator's public API: build a run from a machine, a workload and
 * policies, run it, read the result. Also the calls workloads make while
 * the run is in progress. */
#ifndef PMLAB_SIM_H
#define PMLAB_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/diag.h"
#include "../core/rng.h"
#include "../core/simtime.h"
#include "../machine/machine.h"
#include "../metrics/result.h"
#include "../sched/task.h"

struct gov_registry;

struct sim;

/* What woke a task, as a kernel trace tells it apart. */
enum sim_wake_cause {
	SIM_WAKE_NEW,   /* a new task's first wakeup */
	SIM_WAKE_TASK,  /* the task running on the waker's CPU woke it */
	SIM_WAKE_TIMER, /* its sleep timer fired on the waker's CPU */
	SIM_WAKE_IRQ,   /* something outside the tasks (a device's interrupt) */
};

/* Watches a run as it happens, e.g. to stream a timeline to a file. Every
 * callback may be NULL; times are the simulated now. */
struct sim_observer {
	void *ctx;
	/* A CPU starts running `t` (a switch, or the end of a wakeup). */
	void (*cpu_run)(void *ctx, int cpu, sim_ns now, const struct task *t);
	/* A CPU enters idle state `state` (machine C-state index). */
	void (*cpu_idle)(void *ctx, int cpu, sim_ns now, int state);
	/* A CPU leaves its idle state (exit latency begins, counted as C0). */
	void (*cpu_waking)(void *ctx, int cpu, sim_ns now);
	/* The frequency a CPU runs at when in C0 changed (governor or turbo). */
	void (*cpu_freq)(void *ctx, int cpu, sim_ns now, uint32_t khz);
	/* A core's power changed (dynamic + static, W). */
	void (*core_power)(void *ctx, int core, sim_ns now, double watts);
	/* A package's uncore power changed (W), e.g. entering a package C-state. */
	void (*uncore_power)(void *ctx, int package, sim_ns now, double watts);
	/* A task was created; parent is the running task that created it
	 * (a fork), NULL when the workload did so at setup or from a timer. */
	void (*task_new)(void *ctx, sim_ns now, const struct task *t, const struct task *parent);
	/* A task becomes runnable on `cpu`; the wakeup ran on waker_cpu (-1:
	 * none, as for a new task), where `waker` ran (NULL: none). */
	void (*task_wakeup)(void *ctx, int cpu, int waker_cpu, sim_ns now, const struct task *t,
			    const struct task *waker, enum sim_wake_cause why);
};

struct sim_config {
	const struct machine *machine;
	const char *workload;
	const char *cpufreq;     /* governor name */
	const char *cpuidle;     /* governor name */
	sim_ns duration;
	uint64_t seed;
	int nsets;
	const char *const *sets; /* "KEY=VALUE": engine, workload and governor tunables */
	bool check_invariants;   /* verify invariants after every event (tests) */
	/* Make every cpufreq hook call, none left out where the governor says
	 * it would change nothing (tests: leaving them out changes nothing). */
	bool call_every_hook;
	/* Keep finished tasks until sim_destroy() (per-task reports after the
	 * run); otherwise a task is freed once the event that ended it is
	 * handled, so memory follows the live tasks. */
	bool keep_finished_tasks;
	const struct sim_observer *observer; /* NULL: none */
	/* Called now and then with the share of the run done (0..1); NULL: none. */
	void (*progress)(void *ctx, double done);
	void *progress_ctx;
	/* Governors loaded from plugins, found by name after the built-in
	 * ones; NULL: none. */
	const struct gov_registry *registry;
	/* What the workload reads in place of its argument's file, loaded
	 * once by the caller and only read by the run (a trace's replay
	 * model, lab/replay.h); NULL: the workload loads its own. */
	const void *workload_data;
};

int sim_create(struct sim **out, const struct sim_config *cfg, struct pm_diag *d);
/* Runs to the configured duration (or until the workload stops it) and
 * fills *r, which the caller releases with result_free(). */
int sim_run(struct sim *s, struct run_result *r, struct pm_diag *d);
void sim_destroy(struct sim *s);
/* After sim_run: the event queue's mean length at each event taken from it
 * (live or cancelled), for benchmarks that compare with a bare heap. */
double sim_mean_queue_length(const struct sim *s);

/* --set kernel=X.Y's value: "3.10", "3.10.0-123.el7", "4.8" give
 * MAJOR * 1000 + MINOR; -1 if not a version. */
int sim_kernel_version(const char *v);

/* Every --set key the engine itself knows, for help texts. */
int sim_engine_tunable_count(void);
const struct tunable *sim_engine_tunable_at(int i);
/* Whether KEY is one of the engine's --set keys: a tunable above, or one
 * of kernel, cstate_disable, pm_qos_dynamic and placement. */
bool sim_engine_key(const char *key);

/* --- Calls for workloads --- */
sim_ns sim_now(const struct sim *s);
uint64_t sim_seed(const struct sim *s);
int sim_ncpus(const struct sim *s);
const struct machine *sim_machine(const struct sim *s);
/* The workload running (a plugin's adapter finds its plugin there). */
const struct workload_ops *sim_workload_ops(const struct sim *s);
/* A new task whose first wakeup happens at `start` (>= now). NULL on OOM.
 * Once the workload hands it ACT_EXIT, the task is freed when the current
 * event is handled (unless keep_finished_tasks): drop every pointer to it. */
struct task *sim_task_new(struct sim *s, const char *name, sim_ns start);
/* fork() from `parent`'s next() (the parent is running): a new task that
 * starts on the parent's CPU with its CPU affinity, not yet runnable: set
 * up its workload fields, then sim_wake_up_new_task(). NULL on OOM. Freed
 * after its exit as sim_task_new()'s tasks are. */
struct task *sim_fork(struct sim *s, struct task *parent, const char *name);
/* wake_up_new_task(), still inside the parent's fork: fork balancing from
 * the parent's CPU while the parent runs, then the task is queued there
 * with half its CPU's spare capacity as utilization. */
void sim_wake_up_new_task(struct sim *s, struct task *t);
/* execve()'s sched_exec() for the running task `t`, from its next():
 * exec balancing may move it to an idler CPU, where the burst next()
 * returns (the exec's work and the new image) then runs. */
void sim_exec(struct sim *s, struct task *t);
/* The task with this id (task->id), or NULL if none lives (any more). */
struct task *sim_task(struct sim *s, uint32_t id);
/* Wake a blocked task (no-op on a sleeping, new or dead one; a running or
 * queued task remembers it and skips its next block). */
void sim_wake(struct sim *s, struct task *t);
/* The same, as a waker that is about to sleep wakes (WF_SYNC): pipe and
 * socket writes. The wakee may then be placed on the waker's CPU. */
void sim_wake_sync(struct sim *s, struct task *t);
void sim_record_latency(struct sim *s, sim_ns latency);
void sim_add_work(struct sim *s, double units);
/* Ends the run at the current time (e.g. a batch finished). */
void sim_stop(struct sim *s);
/* The text after ':' in --workload NAME:ARG (e.g. rtapp:FILE.json), or NULL. */
const char *sim_workload_arg(const struct sim *s);
/* sim_config's workload_data, or NULL. */
const void *sim_workload_data(const struct sim *s);
/* Restrict a task to the listed CPUs (sched_setaffinity); -1 with a message
 * if a CPU is out of range or the list is empty. A task on a CPU it may no
 * longer use is moved, as the kernel does. */
int sim_task_set_affinity(struct sim *s, struct task *t, const int *cpus, int n,
			  struct pm_diag *d);
/* sched_setattr() with SCHED_FLAG_UTIL_CLAMP: the task's uclamp.min and
 * uclamp.max (-1 leaves one as it is; 0..1024, min <= max checked by the
 * caller). Turns on the static key sched_uclamp_used, as uclamp_validate()
 * does for a user's request (sched/uclamp.h). */
void sim_task_set_uclamp(struct sim *s, struct task *t, int util_min, int util_max);
/* A new group of tasks that share data (set task->share_group to it);
 * see the machine's share_stall_cut. Returns 0 on OOM. */
uint32_t sim_share_group_new(struct sim *s);
/* Calls the workload's timer(arg) at `when`. -1 when there is no memory
 * for it: the run then fails with "out of memory". */
int sim_post_workload_timer(struct sim *s, sim_ns when, uint32_t arg);
/* The workload's timers from now on go in the engine's lane, a ring beside
 * its queue kept in the queue's order, where a pop is a load and a push
 * moves the timers due later: for device completions, which mostly come in
 * the order they are posted (oltp's round trips, disk and transmit
 * interrupts). Output is the same either way. For the workload's init(). */
void sim_workload_timer_lane(struct sim *s);

/* --- Devices (engine/device.c, engine/writeback.c) --- */
/* An interrupt on `cpu` whose handler (hardirq and softirq) does ref_ns
 * of kernel work on a 3 GHz core (longer at a lower clock): an idle CPU
 * wakes for it, a busy one lends its current task's time. */
void sim_interrupt(struct sim *s, int cpu, double ref_ns);
/* sim_wake() from the softirq of `cpu` (a NIC queue's): placement sees
 * that CPU as the waker's. */
void sim_wake_from(struct sim *s, struct task *t, int cpu);
/* A disk served I/O for busy_ns; packets crossed the NIC (platform power). */
void sim_disk_io(struct sim *s, sim_ns busy_ns);
void sim_net_packets(struct sim *s, double n);
/* Bytes written into the page cache, for the flusher to write back. */
void sim_dirty(struct sim *s, double bytes);
/* Transparent hugepages as sysfs says: THP_NEVER, THP_MADVISE, THP_ALWAYS. */
enum thp_mode { THP_NEVER, THP_MADVISE, THP_ALWAYS };
int sim_thp(const struct sim *s);

#endif
