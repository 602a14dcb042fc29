// SPDX-License-Identifier: GPL-2.0-only
/* pmlab plugins: governors built outside pmlab's tree, loaded at run time.
 *
 * A plugin is a shared object that defines one object,
 *
 *     PMLAB_PLUGIN_EXPORT const struct pmlab_plugin pmlab_plugin = {
 *             .abi = PMLAB_PLUGIN_ABI, .idle = &my_idle_governor,
 *     };
 *
 * built with  cc -shared -fPIC -I<pmlab's include dir> mygov.c -o mygov.so
 * (or $(pkg-config --cflags pmlab)) and loaded with  pmlab sim --plugin
 * ./mygov.so  or every *.so of the directories (or files) that
 * PMLAB_PLUGIN_PATH lists, ':'-separated; from C, pmlab_lab_load_plugin().
 * From then on its governors, placement policy and workload are used like
 * the built-in ones: by name (--cpuidle NAME, --cpufreq NAME, --set
 * placement=NAME, --workload NAME), in pmlab governors, workloads,
 * compare, sweep, idletrace and govtrace, their tunables and parameters
 * set with --set KEY=VALUE.
 *
 * pmlab checks `abi` against PMLAB_PLUGIN_ABI and every required operation
 * before using anything; a plugin that fails a check is refused with a
 * message that says why. A run that uses a plugin runs in a worker process:
 * a crash inside the plugin ends that process only, and is reported as the
 * plugin's (its file, governor and operation), never as pmlab's.
 *
 * Everything here is plain C data with fixed types: a plugin built against
 * this header works with any pmlab of the same PMLAB_PLUGIN_ABI, and pmlab
 * still loads plugins built for ABI 1 (see PMLAB_PLUGIN_ABI).
 *
 * Declare every table with designated initializers, as the examples do:
 *
 *     static const struct pmlab_tunable tunables[] = {
 *             { .name = "mygov_weight", .def = 2, .min = 1, .max = 8,
 *               .help = "weight of the newest period, in eighths" },
 *     };
 *
 * A member that a later ABI appends (ABI 2's `words`) is then zero, and the
 * source still builds with -Wall -Wextra -Werror; a positional initializer
 * ({ "mygov_weight", "...", 2, 1, 8 }) gets -Wmissing-field-initializers
 * from -Wextra for every member it leaves out.
 * Times are nanoseconds (int64_t), frequencies kHz (uint32_t).
 */
#ifndef PMLAB_PLUGIN_H
#define PMLAB_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Changed whenever a structure below changes incompatibly. ABI 2 added
 * `words` to struct pmlab_tunable and the placement seam; pmlab loads
 * plugins of ABI 1 (no words, no placement) and 2. */
#define PMLAB_PLUGIN_ABI 2
#define PMLAB_PLUGIN_ABI_OLDEST 1

#define PMLAB_PLUGIN_EXPORT __attribute__((visibility("default")))

/* A named knob, set with --set NAME=VALUE (checked by pmlab). Its value
 * is in the `tunables` array of the device or policy, in the order of the
 * governor's table. Names are unique across the engine, the workload and
 * the governors and placement policy of a run.
 *
 * A number by default, in min..max. With `words` (ABI 2), a NULL-terminated
 * list of at most 32 words, it takes one of them instead:
 *  - plain words ("gentle", "aggressive"): the value is the word's index;
 *    min must be 0 and max the last index. --set mygov_mode=aggressive.
 *  - named numbers ("low=10", "high=90"): each word names a number in
 *    min..max, and the knob takes either a name or a plain number. */
struct pmlab_tunable {
	const char *name;
	const char *help; /* one line, with the unit */
	int64_t def, min, max;
	const char *const *words; /* NULL: a number */
};

/* ---- idle governor (the kernel's struct cpuidle_governor) ---- */

/* One C-state of the CPU's table, as the cpuidle driver describes it. */
struct pmlab_idle_state {
	const char *name;            /* "C1E" */
	int64_t exit_latency_ns;     /* what governors and PM QoS see */
	int64_t target_residency_ns;
	bool polling;                /* state 0 polls (the core stays in C0) */
};

/* A CPU's cpuidle device as its governor sees it. The idle loop fills it
 * before each select() and reflect(); the governor writes only `data`. */
struct pmlab_idle_device {
	int cpu;
	int nstates;
	const struct pmlab_idle_state *states;
	const bool *disabled;           /* per state: stateN/disable */
	int64_t now_ns;
	int64_t next_timer_ns;          /* time to the next timer event, tick included */
	int64_t next_timer_no_tick_ns;  /* ... if the tick were stopped */
	int64_t tick_period_ns;
	bool tick_stopped;              /* the tick is already stopped */
	int nr_iowait;                  /* tasks that last ran here and wait on I/O */
	int last_state;                 /* the state of the last idle period, -1 before any */
	int64_t last_residency_ns;      /* its measured length, exit latency included */
	bool tick_wakeup;               /* the tick ended it */
	bool poll_time_limit;           /* a polling state ran out of its time */
	const int64_t *tunables;        /* the governor's tunables' values */
	void *data;                     /* data_size bytes of the governor's, zeroed at start */
};

struct pmlab_idle_governor {
	const char *name;               /* --cpuidle NAME; [a-z0-9_-], unique */
	const char *summary;            /* one line for pmlab governors */
	const struct pmlab_tunable *tunables;
	int ntunables;
	size_t data_size;               /* per CPU */
	/* Optional: once per CPU before the run; 0, or -1 with a one-line
	 * message in err[0..errlen). */
	int (*init)(struct pmlab_idle_device *dev, char *err, size_t errlen);
	/* Required: the state to enter (an index of an enabled state whose exit
	 * latency fits latency_limit_ns; pmlab checks). *stop_tick starts
	 * true; clear it to keep the tick running. */
	int (*select)(struct pmlab_idle_device *dev, int64_t latency_limit_ns, bool *stop_tick);
	/* Optional: after the state was entered (state may differ from the
	 * one selected when the idle loop polled instead). */
	void (*reflect)(struct pmlab_idle_device *dev, int state);
};

/* ---- frequency governor (the kernel's struct cpufreq_governor) ---- */

/* How a target frequency maps onto the table (CPUFREQ_RELATION_*). */
enum pmlab_relation {
	PMLAB_RELATION_L = 0, /* lowest frequency >= target */
	PMLAB_RELATION_H = 1, /* highest frequency <= target */
	PMLAB_RELATION_C = 2, /* closest */
};

/* Cumulative times of a CPU since the start (get_cpu_idle_time()). */
struct pmlab_cpu_times {
	int64_t busy_ns, idle_ns, iowait_ns;
	uint64_t idle_calls;
};

/* The scheduler's utilization of a CPU, as schedutil reads it (0..capacity). */
struct pmlab_cpu_util {
	unsigned long util, capacity, uclamp_min, uclamp_max;
};

/* A cpufreq policy: the CPUs of one clock and what its governor may read
 * and call. The governor writes only `data`, and asks through the calls. */
struct pmlab_freq_policy {
	int id;
	int ncpus;
	const int *cpus;
	const uint32_t *table;          /* ascending kHz */
	int ntable;
	uint32_t cpuinfo_min, cpuinfo_max, base_khz;
	uint32_t min, max;              /* current limits */
	uint32_t cur;                   /* current frequency */
	int64_t tick_ns;
	int64_t transition_latency_ns;
	int64_t transition_delay_ns;    /* 0 if the driver has none */
	bool freq_invariant;            /* util is frequency-invariant */
	const int64_t *tunables;
	void *data;                     /* data_size bytes of the governor's, zeroed at start */
	/* Calls into pmlab; pass the policy itself. */
	void (*cpu_times)(const struct pmlab_freq_policy *p, int cpu, struct pmlab_cpu_times *out);
	void (*cpu_util)(const struct pmlab_freq_policy *p, int cpu, struct pmlab_cpu_util *out);
	/* __cpufreq_driver_target(): clamp to [min, max], resolve, program. */
	void (*target)(struct pmlab_freq_policy *p, uint32_t khz, enum pmlab_relation relation);
	/* Ask for update() from the scheduler's utilization hook (on) or not. */
	void (*use_hook)(struct pmlab_freq_policy *p, bool on);
	void *pmlab; /* pmlab's own; do not touch */
};

struct pmlab_freq_governor {
	const char *name;               /* --cpufreq NAME */
	const char *summary;
	const struct pmlab_tunable *tunables;
	int ntunables;
	size_t data_size;               /* per policy */
	/* Optional: once the policy is set up; 0, or -1 with a message. */
	int (*start)(struct pmlab_freq_policy *p, char *err, size_t errlen);
	void (*stop)(struct pmlab_freq_policy *p);            /* optional */
	/* Required: at start and whenever min or max change. */
	void (*limits)(struct pmlab_freq_policy *p);
	/* Required with use_hook(p, true): the scheduler's hook on a CPU of
	 * the policy (enqueue, tick); flags: 1 = a task that waited on I/O. */
	void (*update)(struct pmlab_freq_policy *p, int cpu, int64_t now_ns, unsigned flags);
};

/* ---- workload (pmlab's struct workload_ops) ---- */

/* What a task does next, once it has finished what it was doing. */
enum pmlab_action_kind {
	PMLAB_ACT_RUN,   /* run cycles (scale with the clock) + stall_ns (do not) */
	PMLAB_ACT_SLEEP, /* sleep until until_ns (absolute) */
	PMLAB_ACT_BLOCK, /* block until another task or a timer() wakes it */
	PMLAB_ACT_EXIT,
	PMLAB_ACT_YIELD, /* sched_yield() */
};

struct pmlab_action {
	enum pmlab_action_kind kind;
	bool sys;        /* RUN: as system time, not user */
	bool iowait;     /* BLOCK: waiting on I/O (counts as iowait) */
	double cycles;   /* RUN */
	double stall_ns; /* RUN */
	int64_t until_ns;/* SLEEP */
};

/* A run as its workload sees it: the parameters' values, the workload's
 * own data, and the calls it may make. Passed to every operation. */
struct pmlab_run_ctx {
	const int64_t *params;
	void *data;        /* data_size bytes, zeroed at start */
	uint32_t base_khz; /* the machine's base frequency: cycles = us * khz / 1000 */
	int ncpus;         /* online CPUs */
	uint64_t seed;     /* the run's seed: draw random numbers from it */
	int64_t (*now)(const struct pmlab_run_ctx *c);
	/* A new task, runnable at start_ns (init only, or from next/timer to
	 * fork one): its id, or -1 if none could be made. */
	int (*task_new)(struct pmlab_run_ctx *c, const char *name, int64_t start_ns);
	/* Wakes a blocked task (a pipe write, a lock release). */
	void (*wake)(struct pmlab_run_ctx *c, int task);
	/* A device's event (an I/O completion): timer(c, arg) at when_ns. */
	int (*post_timer)(struct pmlab_run_ctx *c, int64_t when_ns, uint32_t arg);
	/* The workload's latency metric, and completed work (throughput). */
	void (*record_latency)(struct pmlab_run_ctx *c, int64_t ns);
	void (*add_work)(struct pmlab_run_ctx *c, double units);
	void *pmlab; /* pmlab's own; do not touch */
};

struct pmlab_workload {
	const char *name;             /* --workload NAME */
	const char *summary;
	const char *throughput_unit;  /* of add_work() per second: "requests/s" */
	const char *latency_what;     /* what record_latency() measures */
	const struct pmlab_tunable *params; /* set with --set, like a built-in's */
	int nparams;
	size_t data_size;
	/* Required: create the tasks. 0, or -1 with a message. */
	int (*init)(struct pmlab_run_ctx *c, char *err, size_t errlen);
	/* Required: what task does next, into *a (which starts as EXIT). */
	void (*next)(struct pmlab_run_ctx *c, int task, struct pmlab_action *a);
	/* Optional: a post_timer() event. */
	void (*timer)(struct pmlab_run_ctx *c, uint32_t arg);
};

/* ---- placement policy (the kernel's select_task_rq() and balancers) ---- */

/* Where a CPU sits; fixed for the run. */
struct pmlab_cpu_place {
	int pkg;                /* package (socket) */
	int llc;                /* last-level cache */
	int core;               /* core: SMT siblings share it */
	unsigned long capacity; /* 1024 for the biggest CPUs of the machine */
};

/* What a CPU is chosen for (the kernel's WF_TTWU, WF_FORK, WF_EXEC). */
enum pmlab_select_kind {
	PMLAB_SELECT_WAKE = 0, /* try_to_wake_up() */
	PMLAB_SELECT_FORK = 1, /* wake_up_new_task() */
	PMLAB_SELECT_EXEC = 2, /* sched_exec() */
	PMLAB_SELECT_MOVE = 3, /* its affinity no longer allows the CPU it is on */
};

/* One request for a CPU. */
struct pmlab_select {
	enum pmlab_select_kind kind;
	int task;     /* the task's id (creation order) */
	int prev_cpu; /* the CPU it last ran on; -1 for a task that never ran */
	int this_cpu; /* the CPU the request runs on (the waker's, the parent's); -1 unknown */
	bool sync;    /* WF_SYNC: the waker is about to sleep */
};

/* The scheduler as a placement policy sees it: the CPUs, what it may read
 * of them, and the calls it may make. Passed to every operation. The
 * default_* calls do what the built-in policy the kernel's settings select
 * would do (spread; pack under sched_mc_power_savings, itmt, eas), so a
 * policy can change one decision and leave the rest to the kernel's. */
struct pmlab_sched {
	int ncpus;
	const struct pmlab_cpu_place *cpus;
	const int64_t *tunables; /* the policy's tunables' values */
	void *data;              /* data_size bytes of the policy's, zeroed at start */
	int64_t (*now)(const struct pmlab_sched *s);
	/* Nothing to run and no task running (available_idle_cpu()). */
	bool (*cpu_idle)(const struct pmlab_sched *s, int cpu);
	/* Tasks on the CPU: queued plus the running one. */
	int (*nr_running)(const struct pmlab_sched *s, int cpu);
	/* The exit latency of the C-state an idle CPU is in (0 when busy). */
	int64_t (*exit_latency_ns)(const struct pmlab_sched *s, int cpu);
	/* cpu_util_cfs(): the CPU's utilization, 0..1024. */
	unsigned long (*cpu_util)(struct pmlab_sched *s, int cpu);
	/* In select_cpu(): whether the task being placed may run on cpu. */
	bool (*allowed)(const struct pmlab_sched *s, int cpu);
	/* In select_cpu(): the CPU the kernel's policy would choose. */
	int (*default_cpu)(struct pmlab_sched *s, const struct pmlab_select *w);
	/* In the balancers: move a task queued on `from` that may run on `to`
	 * (the one the kernel's balancer would take); false if none may. */
	bool (*pull)(struct pmlab_sched *s, int from, int to);
	/* The kernel's balancers, for a policy that balances as they do. */
	bool (*default_newidle)(struct pmlab_sched *s, int cpu);
	void (*default_tick)(struct pmlab_sched *s, int cpu);
	void *pmlab; /* pmlab's own; do not touch */
};

struct pmlab_placement {
	const char *name;               /* --set placement=NAME; [a-z0-9_-], unique */
	const char *summary;
	const struct pmlab_tunable *tunables;
	int ntunables;
	size_t data_size;               /* per run */
	/* Optional: once before the run; 0, or -1 with a message. */
	int (*init)(struct pmlab_sched *s, char *err, size_t errlen);
	/* Required: the CPU for the task (select_task_rq()): one it is
	 * allowed on (pmlab checks). */
	int (*select_cpu)(struct pmlab_sched *s, const struct pmlab_select *w);
	/* Optional: `cpu` is about to go idle; pull work to it, and say whether
	 * it did. NULL: the kernel's (default_newidle). */
	bool (*newidle_balance)(struct pmlab_sched *s, int cpu);
	/* Optional: periodic balancing from a busy CPU's tick. NULL: the
	 * kernel's (default_tick). */
	void (*tick_balance)(struct pmlab_sched *s, int cpu);
};

/* ---- the plugin ---- */

struct pmlab_plugin {
	unsigned abi;                               /* PMLAB_PLUGIN_ABI */
	const struct pmlab_idle_governor *idle;     /* NULL: none */
	const struct pmlab_freq_governor *freq;     /* NULL: none */
	const struct pmlab_workload *workload;      /* NULL: none */
	const struct pmlab_placement *placement;    /* NULL: none (ABI 2) */
};

#ifdef __cplusplus
}
#endif

#endif
