// SPDX-License-Identifier: GPL-2.0-only
/* Frequency-governor interface, shaped like the kernel's cpufreq core.
 *
 * A policy covers the CPUs that share one clock. A governor sees only what
 * the kernel's governors see -- per-CPU busy/idle/iowait times, the
 * frequency table, the limits and the clock -- through the policy's
 * `driver` callbacks, and asks for a frequency with cpufreq_driver_target().
 * The simulator and the host backend each provide a driver, so one
 * governor implementation serves both. */
#ifndef PMLAB_CPUFREQ_H
#define PMLAB_CPUFREQ_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/diag.h"
#include "../core/simtime.h"
#include "../core/tunable.h"

struct cpufreq_policy;

/* How a target kHz maps onto the table (kernel CPUFREQ_RELATION_*). */
enum cpufreq_relation {
	RELATION_L = 0, /* lowest frequency >= target */
	RELATION_H = 1, /* highest frequency <= target */
	RELATION_C = 2, /* closest to target */
	/* Flag (CPUFREQ_RELATION_E, v5.16+): prefer energy-efficient entries,
	 * skipping those a driver marks inefficient. The machine model has no
	 * inefficient operating points, so E never changes the result; the
	 * governors pass it where the kernel does, to read like the kernel. */
	RELATION_E = 4,
	RELATION_LE = RELATION_L | RELATION_E,
	RELATION_HE = RELATION_H | RELATION_E,
	RELATION_CE = RELATION_C | RELATION_E,
};

/* Cumulative per-CPU times since the start, as get_cpu_idle_time() and
 * get_cpu_iowait_time() give them (idle excludes iowait), and the number
 * of times the CPU entered the idle loop (tick_nohz_get_idle_calls_cpu()). */
struct cpu_times {
	sim_ns busy, idle, iowait;
	uint64_t idle_calls;
};

/* The scheduler's view of a CPU's utilization, as schedutil reads it. */
struct cpu_util {
	unsigned long util;       /* CFS util: max(util_avg, util_est), frequency- and
				     capacity-invariant, 0..capacity (cpu_util_cfs_boost) */
	unsigned long capacity;   /* arch_scale_cpu_capacity(): 1024 on the biggest CPU */
	unsigned long uclamp_min; /* max of runnable tasks' uclamp.min (0 if none) */
	unsigned long uclamp_max; /* max of runnable tasks' uclamp.max (1024 if none) */
};

/* Where the scheduler keeps one CPU's CFS utilization signals, for a
 * governor that reads them as schedutil does in the kernel (a part of the
 * scheduler there: cpu_util_cfs_boost() loads cfs_rq->avg.util_avg and
 * util_est), without a driver call: cpu_util()'s `util` is
 * min(max(*util_avg, *util_est), capacity), its clamps the whole range. */
struct cpu_util_src {
	const uint32_t *util_avg;
	const uint32_t *util_est;
	unsigned long capacity;
};

/* APERF/MPERF/TSC-like cumulative counters, as intel_pstate samples them. */
struct cpu_counters {
	uint64_t aperf; /* cycles at the actual frequency while in C0 */
	uint64_t mperf; /* cycles at the reference (base) frequency while in C0 */
	uint64_t tsc;   /* cycles at the reference frequency, all the time */
};

/* Flags of the scheduler's cpufreq_update_util() hook. */
#define CPUFREQ_UPDATE_IOWAIT 1u /* SCHED_CPUFREQ_IOWAIT: enqueue of a task that waited on I/O */
#define CPUFREQ_UPDATE_FORCE 2u  /* consolidated updates: ignore the rate limit */
/* Not the scheduler's: a call by the processor's own P-state loop (HWP,
 * CPPC autonomous selection), which runs every policy->hw_loop_ns while
 * the CPU is in C0, scheduler events or not, at no CPU cost; the governor
 * does only the hardware's part. */
#define CPUFREQ_UPDATE_HW 4u

/* The scheduler's cpufreq hook as the kernel installs it for a policy
 * (the cpufreq_add_update_util_hook() call sites), and what calls a
 * governor that has none. A governor sets its policy's `hook` in start()
 * and whenever limits() changes what it needs. */
enum cpufreq_hook {
	/* Nothing to call: performance, powersave, userspace, and
	 * intel_pstate's performance policy (intel_pstate_set_policy()
	 * removes the hook). */
	CPUFREQ_HOOK_NONE,
	/* cpufreq_update_util() calls update(): schedutil, ondemand and
	 * conservative since v4.6, intel_pstate's powersave policy without
	 * HWP, or with HWP and hwp_dynamic_boost. Each call is counted and
	 * costs the CPU the dispatch plus what the governor's path costs. */
	CPUFREQ_HOOK_UTIL,
	/* No kernel hook: the simulator calls update() at the hook's trigger
	 * points to drive what runs on its own -- the DBS governors'
	 * deferrable timer before v4.6, the processor's HWP control loop.
	 * Not counted; costs only what the governor reports. */
	CPUFREQ_HOOK_EMULATED,
};

struct cpufreq_driver {
	void (*cpu_times)(void *ctx, int cpu, struct cpu_times *out);
	void (*cpu_util)(void *ctx, int cpu, struct cpu_util *out);
	void (*cpu_counters)(void *ctx, int cpu, struct cpu_counters *out);
	/* Program the hardware; khz is a table entry within [min, max]. */
	void (*set_target)(void *ctx, struct cpufreq_policy *p, uint32_t khz);
	/* Optional: take per-CPU requests (kHz, by index in the policy) and
	 * resolve the clock from them as the hardware does, which
	 * cpufreq_request_cpus() otherwise does by taking the highest. */
	void (*request_cpus)(void *ctx, struct cpufreq_policy *p, const uint32_t *khz);
};

struct cpufreq_governor {
	const char *name;
	const char *summary;
	const struct tunable *tunables;
	int ntunables;
	size_t data_size; /* per-policy governor state; starts with its int64_t tunables */
	/* Called once the policy is set up (gov_data holds the tunables). */
	int (*start)(struct cpufreq_policy *p, struct pm_diag *d);
	void (*stop)(struct cpufreq_policy *p);
	/* Start and every change of min/max. */
	void (*limits)(struct cpufreq_policy *p);
	/* The scheduler's per-CPU utilization hook; NULL if not needed. Called
	 * only while the policy's `hook` is not CPUFREQ_HOOK_NONE; reports the
	 * CPU cycles of the path it took with cpufreq_hook_spend(). */
	void (*update)(struct cpufreq_policy *p, int cpu, sim_ns now, unsigned flags);
	/* Optional, for --check: whether the state it keeps between calls
	 * agrees with what it was derived from. */
	bool (*check)(const struct cpufreq_policy *p);
	/* --set kernel=X.Y: the KEY=VALUE that selects this governor's rules
	 * as kernel X.Y (version X * 1000 + Y) had them; NULL: today's. */
	const char *(*kernel_rules)(int version);
	int since; /* first kernel with it (MAJOR * 1000 + MINOR); 0: every one modelled */
	/* CPUFREQ_GOV_DYNAMIC_SWITCHING: it changes the frequency itself
	 * (schedutil, ondemand, conservative), which amd-pstate's guided mode
	 * hands to the hardware as a minimum (cppc_guided.h). */
	bool dynamic_switching;
	/* A plugin's governor: what its adapter calls (plugin/freq_adapter.c);
	 * NULL for the built-in ones. */
	const void *plugin;
};

/* amd-pstate's mode for a policy (/sys/devices/system/cpu/amd_pstate/status):
 * none where another driver runs it. */
enum cppc_mode { CPPC_NONE, CPPC_PASSIVE, CPPC_GUIDED, CPPC_ACTIVE };

struct cpufreq_policy {
	int id;
	int ncpus;
	const int *cpus;          /* online CPUs of this clock domain */
	const uint32_t *table;    /* ascending kHz */
	int ntable;
	uint32_t cpuinfo_min, cpuinfo_max; /* hardware limits (max includes turbo when boost is on) */
	uint32_t base_khz;        /* highest non-turbo frequency; the APERF/MPERF reference */
	sim_ns tick_ns;           /* the scheduler tick period (TICK_NSEC) */
	uint32_t min, max;        /* current limits, within cpuinfo */
	uint32_t cur;             /* last frequency set */
	enum cpufreq_hook hook;   /* set by the governor (here: a hole before the sim_ns) */
	sim_ns transition_latency_ns;
	sim_ns transition_delay_ns; /* driver's transition_delay_us, 0 if none */
	/* arch_scale_freq_invariant(): the utilization the driver reports is
	 * frequency-invariant (scaled by cur over a reference frequency). */
	bool freq_invariant;
	/* The cpufreq core's rules: kernel MAJOR * 1000 + MINOR (--set
	 * kernel=X.Y); 0 for today's. */
	int kernel;
	/* What the processor offers a P-state driver (issue 16): HWP
	 * (X86_FEATURE_HWP, which intel_pstate uses unless told not to); the
	 * kHz of one HWP/CPPC performance unit (intel_pstate's 100 MHz; a
	 * hybrid part's P-cores 78741, HYBRID_SCALING_FACTOR_ADL; 0 reads as
	 * 100000); ACPI _CPC's lowest nonlinear performance as a frequency,
	 * where amd-pstate's schedutil path stops going down (0: cpuinfo_min). */
	bool hwp;
	uint32_t perf_scaling_khz;
	uint32_t lowest_nonlinear_khz;
	enum cppc_mode amd_pstate; /* amd-pstate drives the policy in this mode */
	bool pm_server;            /* the FADT's PM profile is a server's */
	/* intel_pstate's balance_performance EPP for this model, which it also
	 * writes at boot (intel_epp_default[], v6.x); 0: HWP_EPP_BALANCE_PERFORMANCE, 128. */
	uint32_t epp_balance_perf;
	/* Set by a governor whose hook the kernel does not call
	 * (CPUFREQ_HOOK_EMULATED; the DBS governors' timer before v4.6):
	 * update() does nothing and costs nothing before this time, so the
	 * driver may leave those calls out; 0: none. */
	sim_ns hook_quiet_until;
	/* Set by a governor whose choice the processor makes by itself: the
	 * period of the processor's loop, which the driver runs while each CPU
	 * is in C0 (update() with CPUFREQ_UPDATE_HW); 0: none. */
	sim_ns hw_loop_ns;
	uint32_t hook_cycles;     /* CPU cycles the current update() call spent */
	uint32_t hook_deferred;   /* kernel-thread runs it queued (irq_work + kworker) */
	const struct cpufreq_governor *gov;
	void *gov_data;
	const struct cpufreq_driver *driver;
	void *driver_ctx;
	/* Set by a driver that can tell (NULL otherwise): a bit per CPU of
	 * the policy (bit i of word i / 64) set whenever what cpu_util()
	 * reports for it may have changed, which the governor clears once it
	 * has read the CPU, so that it may keep what it derived from the last
	 * report until then; and, by CPU number, each CPU's index in its
	 * own policy's `cpus`, which a driver sets only if it calls the
	 * governor for the policy's own CPUs alone (the simulator's does:
	 * engine/freq.c; --check verifies the indices), so that
	 * cpufreq_policy_cpu_index() reads it without a test. */
	uint64_t *util_dirty;
	const int *cpu_index;
	/* Set by a driver whose scheduler's signals a governor may read in
	 * place (the simulator's), per CPU of the policy (by index); NULL
	 * otherwise, and from the moment a run queue's uclamp range can be
	 * other than the whole one (sched_uclamp_used), when only cpu_util()
	 * tells it. --check verifies it against cpu_util(). */
	const struct cpu_util_src *util_src;
	/* Set by a driver that offers util_dirty and may leave calls out (the
	 * simulator's; NULL otherwise): words laid out as util_dirty's, with
	 * the bits of CPUs whose call the driver left out (util_quiet_*) moved
	 * there from util_dirty; the governor reads them as marked. */
	uint64_t *util_stale;
	/* Set by a governor (schedutil, shared policies of up to 64 CPUs)
	 * that can tell which hook calls would change nothing; util_quiet_from
	 * SIM_NS_MAX (where the driver starts it): none. Otherwise, for a call
	 * with no flags:
	 * - before util_quiet_from (the rate limit's end), it returns at the
	 *   rate limit and spends util_limited_cycles;
	 * - from then, if no other CPU of the policy is marked in util_dirty
	 *   and the calling CPU reports a util (cpu_util()'s, before the
	 *   capacity clamp: max(util_avg, util_est)) of at most util_quiet_hi,
	 *   it keeps the target and spends util_quiet_cycles, as long as some
	 *   CPU's util is at least util_quiet_lo. util_quiet_holders has the
	 *   bits of CPUs known to be so (one when the governor sets it); the
	 *   driver keeps it as it leaves calls out (an unmarked CPU's util has
	 *   not moved), and moves the calling CPU's bit from util_dirty to
	 *   util_stale, so that the governor still reads that CPU again.
	 * The driver may leave such calls out and charge them. The governor
	 * withdraws it wherever its inputs may move (the limits, a boost, any
	 * path but its common one), the driver once a clamp is in use; the
	 * governor's check() verifies it. */
	sim_ns util_quiet_from;
	uint32_t util_quiet_lo, util_quiet_hi, util_quiet_cycles, util_limited_cycles;
	uint64_t util_quiet_holders;
};

/* An update() call's path cost, in CPU cycles (hookcost.h has the figures). */
static inline void cpufreq_hook_spend(struct cpufreq_policy *p, uint32_t cycles)
{
	p->hook_cycles += cycles;
}

/* The call queued work for a kernel thread (irq_work_queue(), then a
 * kworker or the sugov kthread runs it): the driver charges a self-IPI and
 * two kernel-thread switches. */
static inline void cpufreq_hook_defer(struct cpufreq_policy *p)
{
	p->hook_deferred++;
}

/* The table entry for `target` under `relation`, after clamping to [min, max]. */
uint32_t cpufreq_resolve(const struct cpufreq_policy *p, uint32_t target,
			 enum cpufreq_relation relation);
/* cpufreq_resolve(p, target, RELATION_L) and targets around it that give
 * the same entry: every target in [*lo, *hi] does (it holds target; the
 * whole span between in-range entries, up to the limits' ends; only
 * target itself where no entry is in range). A function of the table and
 * the limits alone. */
uint32_t cpufreq_resolve_low_span(const struct cpufreq_policy *p, uint32_t target, uint32_t *lo,
				  uint32_t *hi);
/* __cpufreq_driver_target(): resolve and program if it differs from cur. */
void cpufreq_driver_target(struct cpufreq_policy *p, uint32_t target,
			   enum cpufreq_relation relation);
/* A driver whose requests are per CPU (intel_pstate: IA32_PERF_CTL and
 * IA32_HWP_REQUEST belong to each logical CPU) asks for khz[j] on the
 * policy's CPU j; the hardware resolves one clock from them. The driver's
 * request_cpus() models that resolution (engine/freq.c: the highest
 * request of the CPUs that vote); without one the policy runs at the
 * highest request, as cpufreq_driver_target(RELATION_L). */
void cpufreq_request_cpus(struct cpufreq_policy *p, const uint32_t *khz);
/* Change limits (clamped to cpuinfo) and tell the governor. */
int cpufreq_set_limits(struct cpufreq_policy *p, uint32_t min, uint32_t max, struct pm_diag *d);
/* cpufreq_policy_apply_limits(): move cur inside [min, max] if it is outside. */
void cpufreq_policy_apply_limits(struct cpufreq_policy *p);
/* cpufreq_policy_transition_delay_us(), by p->kernel: the driver's
 * transition delay if it has one, else from the transition latency L (us):
 *   v6.12+ (commit 37c6dccd6837): L + L/2, else 1000 us;
 *   v6.9-6.11: L if over 2 ms, else min(1000 L, 2000 us), else 1000 us;
 *   v4.14-6.8: min(1000 L, 10000 us), else 1000 us;
 *   v4.7-4.13 (schedutil's own default then): 1000 L, else 1000 us.
 * Default of schedutil's rate_limit_us and the lower bound of the DBS
 * sampling_rate default. */
uint32_t cpufreq_policy_transition_delay_us(const struct cpufreq_policy *p);
/* scaling_min_freq when nobody set it: amd_pstate_verify() (v6.11+, every
 * amd-pstate mode) makes it lowest_nonlinear_freq, CPPC's most efficient
 * frequency; otherwise cpuinfo_min. */
uint32_t cpufreq_default_min(const struct cpufreq_policy *p);
/* Position of CPU `cpu` in p->cpus, or -1 if the policy does not cover it;
 * with the driver's cpu_index, `cpu` must be one of the policy's (no
 * bounds test at every hook call). */
int cpufreq_policy_cpu_scan(const struct cpufreq_policy *p, int cpu);
static inline int cpufreq_policy_cpu_index(const struct cpufreq_policy *p, int cpu)
{
	if (p->cpu_index)
		return p->cpu_index[cpu];
	return cpufreq_policy_cpu_scan(p, cpu);
}

/* Registry. */
const struct cpufreq_governor *cpufreq_governor_find(const char *name);
int cpufreq_governor_count(void);
const struct cpufreq_governor *cpufreq_governor_at(int i);

#endif
