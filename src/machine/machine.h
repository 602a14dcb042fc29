// SPDX-License-Identifier: GPL-2.0-only
/* The machine model: topology, P-states, turbo, C-states, package
 * C-states and power-model parameters. A machine is plain data; it is
 * filled by the INI parser (machine_ini.c) from a file or from a built-in
 * preset (presets.c), checked by machine_validate(), and read-only after.
 *
 * CPU numbering follows Linux on x86: first the first hardware thread of
 * every core (package-major), then the second threads, and so on:
 *     cpu = thread * (packages * cores_per_package) + package * cores_per_package + core
 * so restricting a preset to N online CPUs (online_cpus = N, `--cpus N`)
 * keeps N distinct cores before any SMT sibling comes online, as a BIOS
 * core limit does.
 *
 * Power model (all per core unless said otherwise), see power.c:
 *   running:  P = ceff_nf * 1e-9 * V^2 * f_Hz * activity + leak(V)
 *             activity = 1 with one busy thread, smt_activity with all busy
 *   leak(V) = leak_w * (V / Vmax) * exp(leak_beta * (V - Vmax))   [V in volts]
 *             (Vmax = voltage of the highest P-state)
 *   idle in C-state s: P = s.power_mw / 1000 (a fixed figure per state)
 *   package: uncore_w while any core of the package is out of a package
 *            C-state, else the package C-state's power_mw / 1000
 *   platform: platform_w, constant, for the whole machine (wall power not
 *             attributable to the CPUs: fans, disks, memory, PSU losses);
 *             with [platform], the DC floor under the parts that follow
 *             the work (DRAM, disk, NIC, fans) and the PSU's losses.
 *   uncore clock, memory stall, EPB: [uncore], [memory], [energy_bias]. */
#ifndef PMLAB_MACHINE_H
#define PMLAB_MACHINE_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/diag.h"
#include "../core/simtime.h"

#define MACHINE_NAME_MAX 64
#define MACHINE_DESC_MAX 160
#define MACHINE_MAX_PSTATES 64
#define MACHINE_MAX_TURBO 32
#define MACHINE_MAX_CSTATES 12
#define MACHINE_MAX_PKG_CSTATES 8
#define MACHINE_MAX_CPUS 1024
#define CSTATE_NAME_MAX 16
#define CSTATE_DESC_MAX 48
#define MACHINE_MAX_TYPES 4
#define CPU_TYPE_NAME_MAX 16
#define CAPACITY_SCALE 1024 /* SCHED_CAPACITY_SCALE: the biggest CPU's capacity */

enum freq_domain_kind {
	FREQ_DOMAIN_CORE,    /* one clock per core (SMT siblings share it) */
	FREQ_DOMAIN_CLUSTER, /* one clock per cluster_cores consecutive cores */
	FREQ_DOMAIN_PACKAGE, /* one clock per package */
};

/* The kernel drivers a machine runs under a stock kernel. They decide the
 * default governors (lab/runspec.c); the simulator itself is the driver. */
enum cpufreq_driver_kind {
	CPUFREQ_DRIVER_ACPI,          /* acpi-cpufreq: the generic governors */
	CPUFREQ_DRIVER_INTEL_PSTATE,  /* intel_pstate in active mode: its own policies */
	CPUFREQ_DRIVER_INTEL_CPUFREQ, /* intel_pstate in passive mode: the generic governors */
	CPUFREQ_DRIVER_POWERNV,       /* powernv-cpufreq (POWER): the generic governors */
	CPUFREQ_DRIVER_CPUFREQ_DT,    /* cpufreq-dt (Arm, the device tree's OPPs): the generic
					 governors; registers the energy model EAS reads */
	CPUFREQ_DRIVER_AMD_PSTATE,    /* amd-pstate, passive or guided: the generic governors */
	CPUFREQ_DRIVER_AMD_PSTATE_EPP, /* amd-pstate-epp, the active mode: its own policies */
	CPUFREQ_DRIVER_NONE,          /* none: the clock stays where the firmware set it */
	CPUFREQ_NDRIVERS,
};

enum cpuidle_driver_kind {
	CPUIDLE_DRIVER_ACPI,     /* acpi_idle */
	CPUIDLE_DRIVER_INTEL,    /* intel_idle */
	CPUIDLE_DRIVER_POWERNV,  /* powernv_idle */
	CPUIDLE_DRIVER_HALTPOLL, /* cpuidle-haltpoll (a KVM guest) */
	CPUIDLE_DRIVER_PSCI,     /* psci_idle (Arm: the device tree's idle states) */
	CPUIDLE_DRIVER_NONE,     /* none: the idle loop's default_idle_call() */
	CPUIDLE_NDRIVERS,
};

/* The ACPI FADT's Preferred_PM_Profile (values 0..8), which drivers read:
 * amd-pstate loads by default only on a known profile, and picks the
 * performance policy on a server (amd_pstate_acpi_pm_profile_server()). */
enum pm_profile {
	PM_PROFILE_UNSPECIFIED, PM_PROFILE_DESKTOP, PM_PROFILE_MOBILE, PM_PROFILE_WORKSTATION,
	PM_PROFILE_ENTERPRISE_SERVER, PM_PROFILE_SOHO_SERVER, PM_PROFILE_APPLIANCE_PC,
	PM_PROFILE_PERFORMANCE_SERVER, PM_PROFILE_TABLET, PM_NPROFILES,
};
const char *machine_pm_profile_name(enum pm_profile p);
bool machine_pm_profile_server(enum pm_profile p);

/* "acpi-cpufreq", "intel_idle": the kernel's names, as INI values. */
const char *machine_cpufreq_driver_name(enum cpufreq_driver_kind k);
const char *machine_cpuidle_driver_name(enum cpuidle_driver_kind k);

/* The frequency the architecture's frequency invariance divides by, as
 * the kernel chooses it for the CPU (x86: arch_max_freq_ratio, set in
 * arch/x86/kernel/cpu/aperfmperf.c): the scheduler's utilization counts
 * running time times cur / reference, capped at 1. */
enum freq_invariance {
	FIE_MAX,      /* the highest P-state (cpufreq-driven invariance, AMD's boost) */
	FIE_TURBO_4C, /* Intel: the turbo ratio with 4 cores active (core_set_max_freq_ratio(),
			 skx_set_max_freq_ratio(4)); the 1-core one below 4 cores */
	FIE_TURBO_1C, /* Intel Atom/Goldmont, Xeon Phi: the 1-core turbo ratio */
	FIE_BASE,     /* the base frequency (what turbo_disabled() chooses) */
	FIE_NONE,     /* none: no APERF/MPERF-based invariance (Core 2, POWER) */
};

/* Who picks a turbo frequency ([frequency] turbo). */
enum turbo_control {
	TURBO_OS,       /* every turbo bin is a P-state the OS may request */
	TURBO_HARDWARE, /* the OS sees one turbo entry (ACPI _PSS's P0 above base, AMD's
			   boost); asking for it lets the hardware pick the bin */
};

struct pstate {
	uint32_t khz;
	uint32_t mv;
};

/* A turbo frequency and the largest number of active (C0) cores in the
 * package for which the hardware grants it. */
struct turbo_bin {
	uint32_t khz;
	uint32_t max_active_cores;
};

struct cstate {
	char name[CSTATE_NAME_MAX];
	char desc[CSTATE_DESC_MAX];
	sim_ns exit_ns; /* the driver's table: what governors and PM QoS see (worst case) */
	sim_ns residency_ns;
	/* Measured time from the wakeup event until the core runs (INI:
	 * wake_us); 0: exit_ns. Real wakeups are usually several times
	 * faster than the table says (KUtrace; docs/sources.md 2.4). */
	sim_ns wake_ns;
	double power_w; /* core power while in this state (INI: power_mw) */
	int poll;       /* 1 for the polling state 0 (POLL on x86): the core stays in C0 */
	/* 1: a core here still counts as active for the turbo bins (Intel
	 * counts cores in C0 and C1/C1E; C3 and deeper are inactive). */
	int turbo_active;
	/* 1: a cluster power-down state (INI: cluster), as a device tree lists
	 * one in cpu-idle-states under PSCI's platform-coordinated mode
	 * (drivers/cpuidle/cpuidle-psci.c, v6.x): each CPU asks for it as for
	 * any state; the core powers down, and the cluster's shared logic
	 * (its power: cluster_w) goes down once every CPU of the cluster (its
	 * clock domain) is in it. Until then a CPU wakes as from the state
	 * before it (engine/cluster_idle.c). */
	int cluster;
	/* 1: the core's clock and voltage drop to its lowest P-state here
	 * (Intel's C1E: "the processor automatically transitions to the lowest
	 * supported core clock frequency, followed by a reduction in voltage");
	 * after the wakeup it runs at that P-state while the voltage ramps back
	 * at [power] vr_slew_mv_per_us (engine/exit_ramp.c). */
	int lowest_pstate;
	/* 1: the state gates the core's clock but keeps its clock domain's
	 * voltage (HLT on a part whose cores share one VID): its power is the
	 * core's leakage at that voltage -- the running P-state's, the lowest
	 * P-state's once the package is in a package C-state (Core 2's
	 * Extended HALT) -- and power_mw is not used. */
	int leak_at_vid;
};

struct pkg_cstate {
	char name[CSTATE_NAME_MAX];
	int requires;   /* index into cstates: every core must be at least this deep */
	sim_ns exit_ns; /* added to the waking core's exit latency */
	sim_ns residency_ns;
	double power_w; /* package (uncore) power while in this state (INI: power_mw) */
};

/* [uncore] The uncore clock (ring, last-level cache, home agent) as
 * Haswell-EP and later scale it (engine/uncore.c). max_khz 0: no clock
 * model, the uncore draws uncore_w while a core of the package is out of a
 * package C-state. Given, uncore_w is its power at max_khz, and
 *   P = static_w + (uncore_w - static_w) * (f / max_khz) * (V / max_mv)^2,
 *   V linear in f from min_mv at min_khz to max_mv at max_khz. */
struct machine_uncore {
	uint32_t min_khz, max_khz;
	int min_mv, max_mv;
	double static_w;
	/* A busy package runs the uncore at max_khz while the energy/performance
	 * bias is at most this (0..15); above it the clock follows the fastest
	 * core in C0. */
	int epb_max_clock;
};

/* [memory] A last-level cache miss (engine/memory.c): the time a stalled
 * core waits splits into the core's clock (L1/L2 miss handling), the
 * uncore's (ring, LLC lookup, home agent; a fixed clock without [uncore])
 * and a fixed DRAM part. A workload's stall is given at a 3 GHz core and
 * a 3 GHz uncore. core_cycles + uncore_cycles + dram_ns 0: no model (stall
 * time is fixed). */
struct machine_memory {
	double core_cycles;
	double uncore_cycles;
	double dram_ns;
	double mlp;     /* misses in flight while a core stalls (bytes moved = lines x 64) */
	double line_nj; /* DRAM energy per 64-byte line read or written */
	/* Cross-package coherence (engine/memory.c): the share of a task's
	 * stall that becomes snoops of another package while its sharing group
	 * runs there, and what such a miss costs over a local one (x). */
	double snoop_share;
	double snoop_x;
	double size_mb; /* installed memory: what vm.dirty_*ratio are shares of (0: 16384) */
	/* A package's memory bandwidth, GB/s (engine/memory.c: a burst's stall
	 * stretches while its package's running tasks ask for more); 0: none. */
	double peak_gbps;
};

/* [platform] Wall power that follows the work (engine/platform_power.c):
 * platform_w becomes the DC idle floor of the rest of the server. psu_w 0:
 * no PSU model, platform_w is at the wall as before. */
struct machine_platform {
	double psu_w;          /* the power supply's rating */
	double psu_eff[4];     /* its efficiency at 10, 20, 50 and 100 % load (0..1) */
	double disk_active_w;  /* a disk serving I/O, above its idle power */
	double nic_packet_uj;  /* a packet sent or received */
	double disk_mbps;      /* the disk's write bandwidth (writeback's disk time) */
	double fan_min_w, fan_max_w; /* fans at their lowest and full speed */
};

/* [energy_bias] How the energy/performance bias (IA32_ENERGY_PERF_BIAS,
 * 0 performance .. 15 energy) acts on the hardware (engine/epb.c), as
 * x86_energy_perf_policy(8) describes it: how readily the hardware enters
 * the C-states the OS asks for, and how fast it takes turbo. */
struct machine_energy_bias {
	/* The previous idle period a deep C-state request needs before the
	 * hardware grants it (auto-demotion), in its target residencies, at
	 * EPB 0; 1 at EPB 15, linear between. 0: EPB has no such effect. */
	double demotion_x;
	/* Delay before a package's turbo ceiling rises, at EPB 15; 0 at EPB 0,
	 * linear between. */
	sim_ns turbo_delay_ns;
};

/* A kind of core (issue 16): the P- and E-cores of a hybrid part, the
 * clusters of an Arm big.LITTLE SoC. Each has its own clock table, turbo
 * bins, C-state figures (the machine's states, by the same names, with
 * their own latencies and power) and power coefficients, and its
 * capacity: the kernel's arch_scale_cpu_capacity() (capacity_orig), the
 * work it does at its highest P-state with 1024 for the biggest type.
 *
 * A machine file without [cpu_type] sections has one implicit type, the
 * machine's own fields below (ntypes == 0): every file written before
 * types existed loads and simulates as it did. With [cpu_type NAME]
 * sections the machine's [pstates], [turbo], [cstate] and [power] values
 * are the defaults each type takes unless it gives its own, and types[]
 * holds every type fully resolved. The cores of each package are its
 * types' cores in the order the types are declared. */
struct cpu_type {
	char name[CPU_TYPE_NAME_MAX];
	int cores;              /* per package */
	int threads_per_core;
	uint32_t capacity;      /* 1..CAPACITY_SCALE at its highest P-state */
	enum freq_domain_kind freq_domain; /* package: one clock for the type's cores of a package */
	int cluster_cores;      /* for FREQ_DOMAIN_CLUSTER; divides cores */
	uint32_t base_khz;
	uint32_t lowest_nonlinear_khz; /* as the machine's; 0: its lowest P-state */
	uint32_t perf_scaling_khz;     /* as the machine's; 0: 100000 */
	int npstates;
	struct pstate pstates[MACHINE_MAX_PSTATES];
	int nturbo;             /* bins count the type's active cores in the package */
	struct turbo_bin turbo[MACHINE_MAX_TURBO];
	struct cstate cstates[MACHINE_MAX_CSTATES]; /* the machine's ncstates */
	double ceff_nf, leak_w, leak_beta, smt_activity, smt_throughput;
	double cluster_w; /* as the machine's: each cluster's shared logic while it is up */
};

struct machine {
	char name[MACHINE_NAME_MAX];
	char description[MACHINE_DESC_MAX];
	double tdp_w;
	/* [machine] cpufreq_driver and cpuidle_driver; absent: acpi-cpufreq,
	 * acpi_idle (files older than the keys load unchanged). */
	enum cpufreq_driver_kind cpufreq_driver;
	enum cpuidle_driver_kind cpuidle_driver;
	enum pm_profile pm_profile; /* [machine] pm_profile; absent: unspecified */

	/* [topology] */
	int packages;
	int cores_per_package;
	int threads_per_core;
	int llc_cores;     /* cores sharing one last-level cache; divides cores_per_package */
	enum freq_domain_kind freq_domain;
	int cluster_cores; /* for FREQ_DOMAIN_CLUSTER; divides cores_per_package */
	int online_cpus;   /* <= packages*cores_per_package*threads_per_core */

	/* [frequency] and [pstates] (ascending kHz) and [turbo] (descending kHz) */
	uint32_t base_khz; /* P-states above this are turbo: granted per turbo bins */
	sim_ns transition_latency_ns;
	enum freq_invariance freq_invariance; /* INI: freq_invariance; absent: max */
	enum turbo_control turbo_control;     /* INI: turbo = os|hardware; absent: os */
	/* What the processor offers a P-state driver: Intel HWP (hwp = 1);
	 * ACPI _CPC's lowest nonlinear performance as a frequency (0: the
	 * lowest P-state), where amd-pstate's schedutil path stops going down;
	 * the kHz of one HWP/CPPC performance unit (intel_pstate's 100 MHz;
	 * 78741 on a hybrid part's P-cores; 0: 100000). */
	int hwp;
	uint32_t lowest_nonlinear_khz;
	uint32_t perf_scaling_khz;
	/* intel_pstate's balance_performance EPP on this model
	 * (intel_epp_default[]), also its boot EPP; 0: 128. */
	int epp_balance_perf;
	int npstates;
	struct pstate pstates[MACHINE_MAX_PSTATES];
	int nturbo;
	struct turbo_bin turbo[MACHINE_MAX_TURBO];

	/* [cstate NAME] in order of depth; [package_cstate NAME] likewise */
	int ncstates;
	struct cstate cstates[MACHINE_MAX_CSTATES];
	int npkg_cstates;
	struct pkg_cstate pkg_cstates[MACHINE_MAX_PKG_CSTATES];

	/* [power] */
	double ceff_nf;
	double leak_w;
	double leak_beta;
	double smt_activity;   /* dynamic power factor with all SMT threads busy */
	double smt_throughput; /* per-thread share of the core's cycles with all threads busy */
	double uncore_w;
	double platform_w;
	/* The shared logic of each cluster (its clock domain: L2, snoop
	 * control) while the cluster is up, counted with the uncore; 0 W with
	 * a `cluster` C-state down (INI: cluster_w; absent: 0, no such power). */
	double cluster_w;
	/* The core voltage regulator's slew rate, mV per us, up from a
	 * lowest_pstate C-state (engine/exit_ramp.c); 0: instant. */
	double vr_slew_mv_per_us;

	/* [cache] */
	sim_ns refill_ns; /* extra stall paid by a task that changes last-level cache */
	/* Tasks of one sharing group (e.g. the compile jobs of one build, which
	 * read the same headers) find their data warm in a last-level cache
	 * where the group ran within share_window_ns: their bursts' stall is
	 * cut by share_stall_cut (0..1). */
	double share_stall_cut;
	sim_ns share_window_ns;

	/* [costs] kernel work, in ns of CPU time, shared by every workload */
	sim_ns syscall_ns;        /* entry and exit of a cheap system call */
	sim_ns context_switch_ns; /* switching from one task to another */
	sim_ns wakeup_ipi_ns;     /* waking a task on another CPU, paid by the waker */
	sim_ns fork_ns;           /* fork() of a small process */
	sim_ns exec_ns;           /* execve() of a small binary */
	/* The idle loop and the tick (absent: MACHINE_DEFAULT_* below). */
	sim_ns tick_cost_ns;      /* one tick interrupt: irq entry, tick_sched_timer(), exit */
	sim_ns tick_stop_ns;      /* tick_nohz_stop_sched_tick() when it stops the tick */
	sim_ns tick_restart_ns;   /* tick_nohz_restart_sched_tick() on leaving idle */
	sim_ns tick_reprogram_ns; /* either of them when its once-a-jiffy bookkeeping
				     returns early: the tick hrtimer and the clock event */
	sim_ns idle_entry_ns;     /* do_idle() to the C-state: nohz bookkeeping, the
				     governor's select(), the driver's enter */
	sim_ns idle_exit_ns;      /* C-state to schedule_idle(): cpuidle's accounting,
				     reflect(), tick_nohz_idle_exit()'s accounting */

	/* [background]: what wakes an idle CPU besides the workload (timers,
	 * RCU, kworkers, device interrupts), per CPU. */
	double bg_wakeups_per_s;  /* mean rate; 0: none */
	double bg_jitter;         /* 0..1: each interval uniform in mean x (1 -+ jitter) */
	double bg_timer_share;    /* 0..1: the share that are timers the governors see coming */
	sim_ns bg_handler_ns;     /* kernel work of one (irq and softirq or kworker) */

	/* [power_limits]: each package's running-average power limits, what
	 * RAPL's PL1 and PL2 are on Intel (MSR_PKG_POWER_LIMIT; the kernel's
	 * powercap intel_rapl constraint_0 long_term and constraint_1
	 * short_term) and the SMU's slow and fast PPT on AMD (TDC and EDC, the
	 * current limits, folded into them). 0 W: no such limit. */
	double pl1_w, pl2_w;
	sim_ns pl1_window_ns, pl2_window_ns; /* the averages' time constants (Tau) */
	sim_ns pl_control_ns;     /* the power controller's period; 0: MACHINE_DEFAULT_PL_CONTROL_NS */

	struct machine_uncore unc;
	struct machine_memory mem;
	struct machine_platform plat;
	struct machine_energy_bias epb;
	/* [cpu_type NAME] with [pstates NAME], [turbo NAME], [cstate STATE
	 * NAME]: 0 for a machine of one implicit type (the fields above). */
	int ntypes;
	struct cpu_type types[MACHINE_MAX_TYPES];
	/* [highest_perf]: each core's CPPC highest performance (ACPI _CPC,
	 * AMD's MSR_AMD_CPPC_CAP1), by global core index (package-major), on
	 * CPPC's abstract scale, linear in frequency; 0 for every core when the
	 * file has none (machine_cppc.c). Cores of one part differ when the
	 * firmware ranks its preferred cores (amd-pstate's prefcore_ranking). */
	uint8_t highest_perf[MACHINE_MAX_CPUS];
};

/* Defaults of the optional keys above, for files that leave them out:
 * the pre-issue-13 engine figures for the tick (1 us per tick, 2 us to
 * stop and restart it), and for [background] the idle laptop measured
 * with powertop 1.x in docs/ARCHITECTURE.md (about 80 wakeups/s, 72 %
 * timers, interrupts the rest). */
#define MACHINE_DEFAULT_TICK_NS (1 * NS_PER_US)
#define MACHINE_DEFAULT_TICK_STOP_NS (1 * NS_PER_US)
#define MACHINE_DEFAULT_TICK_RESTART_NS (1 * NS_PER_US)
#define MACHINE_DEFAULT_TICK_REPROGRAM_NS (NS_PER_US / 2)
#define MACHINE_DEFAULT_BG_WAKEUPS 80.0
#define MACHINE_DEFAULT_BG_JITTER 1.0
#define MACHINE_DEFAULT_BG_TIMER_SHARE 0.72
#define MACHINE_DEFAULT_BG_HANDLER_NS (2 * NS_PER_US)
#define MACHINE_DEFAULT_PL_CONTROL_NS NS_PER_MS
/* [uncore] epb_max_clock when absent: the top of x86_energy_perf_policy's
 * "performance" side (0 performance, 4 balance-performance). */
#define MACHINE_DEFAULT_UNCORE_EPB_MAX 3

/* CPU types: at least 1 (the implicit one of a machine without types). */
static inline int machine_ntypes(const struct machine *m)
{
	return m->ntypes > 0 ? m->ntypes : 1;
}
/* The CPU's or the core's type index, -1 out of range. */
int machine_cpu_type(const struct machine *m, int cpu);
int machine_core_type(const struct machine *m, int core);
/* Type `t` fully resolved: a copy of types[t], or the implicit type made
 * of the machine's own fields (named "cpu", capacity 1024). */
void machine_type_get(const struct machine *m, int t, struct cpu_type *out);
/* Fills types[0] from the machine's own fields when it has none, so that
 * every type is in types[] (the engine does this on its own copy). */
void machine_types_resolve(struct machine *m);
/* The P-states of the CPU's type (the machine's own without types). */
const struct pstate *machine_cpu_pstates(const struct machine *m, int cpu, int *n);

/* machine_cppc.c: the per-core highest performance ([highest_perf]). */
bool machine_has_highest_perf(const struct machine *m);
/* Whether two cores' highest performance differ: amd_detect_prefcore()
 * (arch/x86/kernel/acpi/cppc.c, v6.12) finds preferred cores. */
bool machine_highest_perf_differs(const struct machine *m);
/* The core's own top frequency: its type's highest P-state scaled by its
 * highest performance over the greatest of its type (CPPC's linear scale:
 * perf_to_freq(), drivers/cpufreq/amd-pstate.c v6.15); without
 * [highest_perf], the type's highest P-state. */
uint32_t machine_core_max_khz(const struct machine *m, int core);

/* Total logical CPUs the topology has, ignoring online_cpus. */
int machine_possible_cpus(const struct machine *m);
static inline int machine_cores(const struct machine *m)
{
	return m->packages * m->cores_per_package;
}

/* Topology of logical CPU `cpu` under the numbering above. */
int machine_cpu_core(const struct machine *m, int cpu);    /* global core index */
int machine_cpu_package(const struct machine *m, int cpu);
int machine_cpu_thread(const struct machine *m, int cpu);
int machine_cpu_llc(const struct machine *m, int cpu);     /* global LLC index */
int machine_cpu_freq_domain(const struct machine *m, int cpu);
int machine_freq_domains(const struct machine *m);

/* Index of the highest P-state at or below `khz`, or 0. */
int machine_pstate_at_most(const struct machine *m, uint32_t khz);
int machine_type_pstate_at_most(const struct cpu_type *t, uint32_t khz);
/* machine_turbo_limit_khz() and machine_invariance_khz() for one type
 * (the reference kind is the machine's freq_invariance). */
uint32_t machine_type_turbo_limit_khz(const struct cpu_type *t, int active_cores);
uint32_t machine_type_invariance_khz(const struct machine *m, const struct cpu_type *t, int boost);
/* Highest frequency the turbo bins allow with `active_cores` busy cores in a
 * package: base_khz when active_cores exceeds every bin, the top P-state when
 * the machine has no turbo bins. */
uint32_t machine_turbo_limit_khz(const struct machine *m, int active_cores);
/* The reference frequency of frequency invariance, kHz, with turbo on or
 * off; 0 for FIE_NONE. */
uint32_t machine_invariance_khz(const struct machine *m, int boost);
/* "os", "hardware" */
const char *machine_turbo_control_name(enum turbo_control t);
/* "max", "turbo_4c", ... for writers and messages. */
const char *machine_invariance_name(enum freq_invariance f);

/* Index of a C-state by name, or -1. */
int machine_cstate_index(const struct machine *m, const char *name);

/* Checks every invariant (see the parser for the messages); `where` names the
 * file for messages not tied to a line. */
int machine_validate(const struct machine *m, const char *where, struct pm_diag *d);

/* Parse INI text. `where` names the source in messages ("FILE" or
 * "preset NAME"); errors read "WHERE:LINE: what is wrong (expected ...)". */
int machine_parse(struct machine *m, const char *text, const char *where, struct pm_diag *d);
int machine_load_file(struct machine *m, const char *path, struct pm_diag *d);
/* Writes the machine as INI that machine_parse reads back to an equal machine. */
char *machine_to_ini(const struct machine *m); /* malloc'd */

/* Built-in presets. */
int machine_preset_count(void);
const char *machine_preset_name(int i);
const char *machine_preset_text(int i);
/* Load a preset by name, or a file if `spec` contains '/' or ends in ".ini". */
int machine_load(struct machine *m, const char *spec, struct pm_diag *d);
/* Restrict to the first n CPUs (1 <= n <= possible). */
int machine_set_online(struct machine *m, int n, struct pm_diag *d);

#endif
