// SPDX-License-Identifier: GPL-2.0-only
/* The outcome of one simulated run, as plain data: what the engine
 * measured, ready for the table, CSV and JSON writers. Every number here
 * was produced by the simulation; the writers only format and derive
 * ratios (percentages, averages) from these totals. */
#ifndef PMLAB_RESULT_H
#define PMLAB_RESULT_H

#include <stdint.h>
#include <stdio.h>

#include "../core/simtime.h"
#include "../machine/machine.h"
#include "histogram.h"

#define RESULT_MAX_EXTRA 32
#define RESULT_NAME_MAX 64

/* A workload-specific figure reported beside throughput (e.g. "seconds",
 * "deadline_misses"). */
struct result_extra {
	char name[RESULT_NAME_MAX];
	char unit[RESULT_NAME_MAX];
	double value;
};

/* One task a workload follows individually, as rt-app's per-thread log does:
 * its activations (loops of its phases) and how they went. Totals, not
 * averages, so every writer derives the means the same way. */
struct task_result {
	char name[RESULT_NAME_MAX];
	uint64_t activations;     /* activations completed (rt-app log lines) */
	uint64_t timed;           /* of those, activations with a timer: slack measured */
	uint64_t deadline_misses; /* timed activations whose slack was negative */
	sim_ns run_ns;            /* time spent in run and runtime events */
	sim_ns period_ns;         /* time from each activation's start to its end */
	sim_ns slack_ns;          /* slack of the timed activations (negative: late) */
	sim_ns slack_min_ns;      /* smallest such slack; 0 when none was timed */
	struct histogram wakeup_latency; /* timer expiry to running again (wu_lat) */
};

struct cpu_result {
	int cpu, core, package;
	sim_ns c0_ns;                            /* running a task or waking from idle */
	sim_ns cstate_ns[MACHINE_MAX_CSTATES];   /* per machine C-state; + c0_ns == duration */
	uint64_t cstate_usage[MACHINE_MAX_CSTATES];
	uint64_t cstate_above[MACHINE_MAX_CSTATES]; /* idle shorter than the state's residency */
	uint64_t cstate_below[MACHINE_MAX_CSTATES]; /* a deeper enabled state would have fit */
	sim_ns user_ns, sys_ns, iowait_ns, idle_ns; /* sum == duration */
	sim_ns *pstate_ns;                       /* C0 time per machine P-state (npstates) */
	double c0_mhz_ns;                        /* integral of MHz over C0 time, MHz*ns */
	uint64_t ctx_switches, wakeups, migrations, ticks;
};

struct package_result {
	int package;
	sim_ns all_idle_ns;                          /* every core of the package idle */
	sim_ns pkg_cstate_ns[MACHINE_MAX_PKG_CSTATES];
	double energy_core_dynamic_j, energy_core_static_j, energy_uncore_j;
	sim_ns power_limited_ns; /* a power limit's ceiling in force (RAPL PL1/PL2, PPT) */
};

/* The platform's energy (run_result.energy_platform_j is their sum): the
 * idle floor (platform_w) and what follows the work, for machines with
 * [platform] or [memory] (engine/platform_power.c); all but floor_j are 0
 * otherwise. */
struct platform_energy {
	double floor_j, dram_j, disk_j, nic_j, fans_j, psu_loss_j;
};

struct run_result {
	/* What ran. */
	char machine[MACHINE_NAME_MAX];
	char workload[RESULT_NAME_MAX];
	char cpufreq[RESULT_NAME_MAX];
	char cpuidle[RESULT_NAME_MAX];
	/* Why a governor nobody named ran ("the default of acpi-cpufreq");
	 * "" when the user or a profile named it. */
	char cpufreq_why[RESULT_NAME_MAX];
	char cpuidle_why[RESULT_NAME_MAX];
	uint64_t seed;
	const struct machine *m; /* the machine model, for state names and P-states */
	int ncpus, npackages;

	sim_ns duration_ns;
	/* Workload's headline metric. */
	double throughput;
	char throughput_unit[RESULT_NAME_MAX];
	double work_done;        /* workload units completed (ops, round trips, jobs) */
	int nextra;
	struct result_extra extra[RESULT_MAX_EXTRA];
	struct histogram latency;        /* the workload's latency metric */
	char latency_what[RESULT_NAME_MAX];
	struct histogram wakeup_latency; /* scheduler: wakeup to running */

	/* Energy by component, whole machine (J). */
	double energy_core_dynamic_j, energy_core_static_j, energy_uncore_j, energy_platform_j;
	struct platform_energy platform;

	/* Work accounting: cycles requested by finished tasks and cycles they ran. */
	double cycles_requested_finished, cycles_done_finished;
	uint64_t tasks_created, tasks_finished;

	uint64_t ctx_switches, migrations, wakeups, freq_transitions;
	uint64_t cpufreq_updates; /* calls of the governor's utilization hook */
	uint64_t events;          /* events the engine processed (live ones) */
	uint64_t stale_events;    /* events popped but cancelled before their time */

	struct cpu_result *cpus;      /* ncpus entries */
	struct package_result *pkgs;  /* npackages entries */

	/* Per-task figures of workloads that follow tasks individually (rt-app);
	 * NULL and 0 for the others. Owned by the result: result_free() frees it. */
	struct task_result *tasks;
	int ntasks;

	/* The profile the run applied (pmlab sim --profile), "" if none; set by
	 * the caller after sim_run(). */
	char profile[RESULT_NAME_MAX];
	/* The placement policy when it is not the default spread (sched/
	 * placement.c: pack, itmt, eas), "" for spread. */
	char placement[RESULT_NAME_MAX];
};

void result_free(struct run_result *r);

/* Derived figures, computed the same way by every writer. */
double result_energy_j(const struct run_result *r);
double result_power_w(const struct run_result *r);
double result_package_power_w(const struct run_result *r); /* cores + uncore, RAPL PKG-like */
/* turbostat: Avg_MHz = C0 MHz-time / total time; Busy% = C0 share; Bzy_MHz = Avg/Busy */
double result_avg_mhz(const struct run_result *r);
double result_busy_pct(const struct run_result *r);
double result_bzy_mhz(const struct run_result *r);
/* Share of all CPU time in C-state `state` (machine index), or C0 when state < 0. */
double result_residency_pct(const struct run_result *r, int state);
/* CPU utilisation as /proc/stat: 0 user, 1 sys, 2 iowait, 3 idle. */
double result_util_pct(const struct run_result *r, int which);

/* One CSV field as the CSV writer quotes it (RFC 4180: quoted only when it
 * holds a comma, a quote or a line end), for tools that write rows of
 * their own beside the writer's (pmlab sweep, merge, compare). */
void result_csv_quote(FILE *out, const char *s, size_t len);

enum result_format { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON };
int result_write(FILE *out, const struct run_result *r, enum result_format f);
/* ... with the inputs it was made from (metrics/inputs.h; NULL: none):
 * a paragraph under the table's header, "# " lines before the CSV
 * header, the JSON's "inputs" object. */
struct run_inputs;
int result_write_inputs(FILE *out, const struct run_result *r, enum result_format f,
			const struct run_inputs *in);

/* Formats v with printf's `%.*f` (decimals >= 0) or `%.*g` (decimals < 0,
 * -decimals significant digits) into buf, always with a '.' decimal point
 * whatever the locale, and 0 for NaN, infinities and negative zero. */
const char *result_fmt_num(char *buf, size_t size, double v, int decimals);
#define RESULT_NUM_MAX 48

#endif
