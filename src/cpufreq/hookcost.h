// SPDX-License-Identifier: GPL-2.0-only
/* What a call of the scheduler's cpufreq hook costs the CPU that makes it,
 * in CPU cycles, by how far the governor's handler goes (issue 13 item 10).
 *
 * The figures follow the length of the kernel's code paths (x86-64, v6.x,
 * read in kernel/sched/cpufreq_schedutil.c, drivers/cpufreq/
 * cpufreq_governor.c and intel_pstate.c): the instructions each path
 * executes at about one per cycle -- a fair rate for short, branchy code
 * that runs once per scheduler event with cold branch predictors -- plus
 * a 64-bit division where the path has one (~40 cycles). MSR accesses are
 * serialising instructions whose latency Intel does not publish; the
 * figures below are ESTIMATES of the usual order. Work the kernel defers
 * to a kernel thread (the DBS governors' kworker) is charged apart, as a
 * self-IPI and two kernel-thread switches of the machine's [costs]
 * (cpufreq_hook_defer()).
 *
 * A governor reports its path with cpufreq_hook_spend(); the engine adds
 * CPUFREQ_CYCLES_DISPATCH for a real hook (CPUFREQ_HOOK_UTIL) and charges
 * the sum at the CPU's clock. */
#ifndef PMLAB_CPUFREQ_HOOKCOST_H
#define PMLAB_CPUFREQ_HOOKCOST_H

/* cpufreq_update_util(): the per-CPU hook pointer (rcu_dereference_sched),
 * rq_clock(), and an indirect call through the retpoline/return thunks of
 * a post-2018 kernel: ~10 instructions and ~20 cycles of thunks. */
#define CPUFREQ_CYCLES_DISPATCH 30u

/* A handler up to its rate limit or sampling check: schedutil's
 * sugov_iowait_boost(), ignore_dl_rate_limit() and
 * sugov_should_update_freq(); dbs_update_util_handler()'s delta against
 * sample_delay_ns; intel_pstate_update_util()'s I/O-wait boost and delta
 * against the 10 ms sampling interval: ~30 instructions each. */
#define CPUFREQ_CYCLES_CHECK 30u

/* One CPU's demand: sugov_get_util() (cpu_util_cfs_boost(),
 * effective_cpu_util() with its IRQ scaling division, uclamp,
 * sugov_effective_cpu_perf()) and sugov_iowait_apply(); or dbs_update()'s
 * get_cpu_idle_time_us() (ktime_get(), the idle seqcount) and its load
 * division: ~100 instructions and a division. */
#define CPUFREQ_CYCLES_UTIL_CPU 150u

/* From demand to a table entry: schedutil's get_next_freq() (a division)
 * and cpufreq_driver_resolve_freq()'s scan of a sorted table (half of ~30
 * entries at ~6 instructions); intel_pstate's intel_pstate_calc_avg_perf()
 * and get_target_pstate() (two fixed-point divisions); the DBS
 * governors' decision and lookup. */
#define CPUFREQ_CYCLES_SELECT 200u

/* RDMSR of APERF or MPERF; WRMSR of IA32_PERF_CTL or IA32_HWP_REQUEST
 * (serialising; a P-state request also goes to the power controller).
 * ESTIMATES. */
#define CPUFREQ_CYCLES_MSR_READ 100u
#define CPUFREQ_CYCLES_MSR_WRITE 400u

/* Besides the MSR write: cpufreq_driver_fast_switch()'s clamping, the
 * driver's entry lookup, arch_set_freq_scale() and cpufreq_stats (~150
 * instructions); __cpufreq_driver_target()'s slow path adds the
 * transition notifier chains (begin and end) and their locks (~600). */
#define CPUFREQ_CYCLES_FAST_SWITCH 150u
#define CPUFREQ_CYCLES_SLOW_SWITCH 600u

#endif
