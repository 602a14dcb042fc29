// SPDX-License-Identifier: GPL-2.0-only
/* Private to src/machine: where each value of a machine came from.
 *
 * The invariants of a machine are written once, in machine_check()
 * (machine.c). machine_validate() runs them with no line table, for a
 * machine built in code; the INI parser runs them with the table it filled
 * while reading, so a bad value is reported at the line that set it. A line
 * of 0 means "not from a line" (a default, or no file at all). */
#ifndef PMLAB_MACHINE_LINES_H
#define PMLAB_MACHINE_LINES_H

#include "machine.h"

#include <stddef.h>
#include <stdio.h>

struct cstate_lines {
	int section, desc, exit, residency, wake, power, poll, turbo_active, lowest_pstate, leak_at_vid,
		cluster;
};

struct pkg_cstate_lines {
	int section, requires, exit, residency, power;
};

/* A [cpu_type NAME] section and its [pstates NAME], [turbo NAME] and
 * [cstate STATE NAME] sections (0: not given, the machine's value). */
struct cpu_type_lines {
	int section, cores, threads_per_core, capacity, freq_domain, cluster_cores, base_khz;
	int lowest_nonlinear, perf_scaling;
	int ceff_nf, leak_w, leak_beta, smt_activity, smt_throughput, cluster_w;
	int pstates, pstate[MACHINE_MAX_PSTATES];
	int turbo, turbo_bin[MACHINE_MAX_TURBO];
	struct cstate_lines cstate[MACHINE_MAX_CSTATES];
};

struct machine_lines {
	int machine, name, description, tdp_w, cpufreq_driver, cpuidle_driver, pm_profile;
	int topology, packages, cores_per_package, threads_per_core, llc_cores;
	int freq_domain, cluster_cores, online_cpus;
	int frequency, base_khz, transition_latency, freq_invariance, turbo_control;
	int hwp, lowest_nonlinear, perf_scaling, epp_balance_perf;
	int power_limits, pl1_w, pl2_w, pl1_window, pl2_window, pl_control;
	int pstates, pstate[MACHINE_MAX_PSTATES]; /* parallel to m->pstates */
	int turbo, turbo_bin[MACHINE_MAX_TURBO];  /* parallel to m->turbo */
	struct cstate_lines cstate[MACHINE_MAX_CSTATES];
	struct pkg_cstate_lines pkg[MACHINE_MAX_PKG_CSTATES];
	int power, ceff_nf, leak_w, leak_beta, smt_activity, smt_throughput, cluster_w;
	int uncore_w, platform_w, vr_slew;
	int cache, refill, share_stall_cut, share_window;
	int costs, syscall, context_switch, wakeup_ipi, fork, exec;
	int tick_cost, tick_stop, tick_restart, tick_reprogram, idle_entry, idle_exit;
	int background, bg_wakeups, bg_jitter, bg_timer, bg_handler;
	int uncore, unc_min_khz, unc_max_khz, unc_min_mv, unc_max_mv, unc_static, unc_epb;
	int memory, mem_core, mem_uncore, mem_dram, mem_mlp, mem_line, mem_snoop_share, mem_snoop_x, mem_size, mem_peak;
	int platform, psu_w, psu_eff[4], disk_active, nic_packet, disk_mbps, fan_min, fan_max;
	int energy_bias, epb_demotion, epb_turbo_delay;
	struct cpu_type_lines type[MACHINE_MAX_TYPES];
	int highest_perf, highest_perf_core[MACHINE_MAX_CPUS]; /* [highest_perf], per core */
};

/* machine_platform.c: the rules of [uncore], [memory], [platform] and
 * [energy_bias]. */
int machine_check_platform(const struct machine *m, const struct machine_lines *ln,
			   const char *where, struct pm_diag *d);

/* machine_cppc.c: one "CORE = PERF" or "FIRST-LAST = PERF" line of
 * [highest_perf] on `line`; 0, or -1 with "what (expected ...)" in msg. */
int machine_cppc_line(struct machine *m, struct machine_lines *ln, int line, const char *name,
		      const char *value, char *msg, size_t size);
/* Every core given once and none beyond the topology's. */
int machine_check_cppc(const struct machine *m, const struct machine_lines *ln,
		       const char *where, struct pm_diag *d);
/* [highest_perf] in runs of equal values, nothing without one. */
void machine_cppc_write(FILE *f, const struct machine *m);

/* Checks every invariant of `m`; `ln` may be NULL. */
int machine_check(const struct machine *m, const struct machine_lines *ln,
		  const char *where, struct pm_diag *d);

/* NULL when a P-state's kHz or mV is acceptable, else "what (expected ...)";
 * shared so the parser can refuse a value it cannot store with the same words. */
const char *machine_khz_problem(long long khz);
const char *machine_mv_problem(long long mv);

/* Names and descriptions must survive a trip through machine_to_ini(). */
int machine_name_ok(const char *s);
int machine_text_ok(const char *s);

#endif
