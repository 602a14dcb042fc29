// SPDX-License-Identifier: GPL-2.0-only
/* Which asymmetry between CPUs the scheduler sees, as the kernel decides
 * it when it builds the sched domains (Linux v6.6, with the intel_pstate
 * rule of v6.12):
 *
 *  - asymmetric CPU capacity (SD_ASYM_CPUCAPACITY): the CPUs' capacities
 *    (arch_scale_cpu_capacity()) differ. On Arm the architecture sets them
 *    from the device tree (topology_normalize_cpu_scale()). On x86 every
 *    CPU has capacity 1024 except on an Intel hybrid part driven by
 *    intel_pstate from v6.12 with SMT off: hybrid_init_cpu_capacity_scaling()
 *    then sets each CPU's capacity from HWP's highest performance and
 *    calls sched_clear_itmt_support() ("use asym capacity instead of
 *    ITMT, but ... do not do that when SMT is in use").
 *  - asym packing (SD_ASYM_PACKING, ITMT): CPUs of one capacity in the
 *    scheduler's eyes but different priorities (arch_asym_cpu_priority():
 *    sched_core_priority, which intel_pstate_set_itmt_prio() sets to each
 *    CPU's CPPC highest_perf and enables once two differ), as on an Intel
 *    hybrid part with SMT or before v6.12; on while the sysctl
 *    kernel.sched_itmt_enabled is 1. x86 puts the flag on the MC and DIE
 *    domains, not on SMT (v6.5's "Remove SD_ASYM_PACKING from the SMT
 *    domain flags"), and gives the SMT siblings of a core one priority.
 *    On AMD under amd-pstate (v6.9+) the same ITMT runs from the
 *    firmware's preferred-core ranking (each core's CPPC highest_perf):
 *    one capacity, priorities per core, SD_ASYM_PACKING on MC only.
 *  - none.
 *
 * The priority of a CPU here is its type's capacity: both come from the
 * same highest performance (hybrid_set_cpu_capacity() normalises it), so
 * they order CPUs alike, and CPUs of one type tie (the model has no
 * favoured cores within a type).
 *
 * Energy Aware Scheduling (sched_energy_enabled(), build_perf_domains()
 * in kernel/sched/topology.c, v6.6) needs on top of asymmetric capacity:
 * the sysctl kernel.sched_energy_aware, no SMT, frequency-invariant load
 * tracking, schedutil on every policy and an energy model for every
 * performance domain. */
#ifndef PMLAB_SCHED_ASYM_H
#define PMLAB_SCHED_ASYM_H

#include <stdbool.h>

#include "topology.h"

struct machine;

/* What the kernel (MAJOR * 1000 + MINOR; 0: current) builds on the online
 * CPUs of `m` whose topology is `t`, with sched_itmt_enabled `itmt` and
 * amd-pstate's preferred cores allowed (`amd_prefcore`: the kernel
 * parameter amd_prefcore=disable clears it). */
enum sched_asym sched_asym_mode(const struct machine *m, const struct sched_topology *t,
				int kernel, bool itmt, bool amd_prefcore);
/* Whether amd-pstate ranks preferred cores (v6.9+, amd_pstate_prefcore):
 * an amd-pstate driver, cores whose highest performance differ, and the
 * feature not disabled. The priorities are then the cores' highest
 * performance ([highest_perf]), the sysfs amd_pstate_prefcore_ranking. */
bool sched_amd_prefcore(const struct machine *m, int kernel, bool amd_prefcore);
/* Sets the topology's capacities, priorities and flags for `mode`; -1
 * with a message on out of memory. */
int sched_topology_set_asym(struct sched_topology *t, const struct machine *m,
			    enum sched_asym mode, struct pm_diag *d);
/* Whether the cpufreq driver registers an energy model for every
 * performance domain: cpufreq-dt does from the device tree's
 * dynamic-power-coefficient (dev_pm_opp_of_register_em()), which a type
 * without dynamic power (ceff_nf 0) lacks. intel_pstate's artificial
 * model of hybrid parts (v6.16, hybrid_register_perf_domain(): costs from
 * the perf-to-frequency scaling, not power) is not modelled: no EAS there. */
bool sched_energy_model(const struct machine *m);
/* "none", "capacity" or "packing", for messages and reports. */
const char *sched_asym_name(enum sched_asym mode);

#endif
