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
};

/* Cumulative per-CPU times since the start, as get_cpu_idle_time() and
 * get_cpu_iowait_time() give them. */
struct cpu_times {
	sim_ns busy, idle, iowait;
};

/* Flags of the scheduler's cpufreq_update_util() hook. */
#define CPUFREQ_UPDATE_IOWAIT 1u

struct cpufreq_driver {
	void (*cpu_times)(void *ctx, int cpu, struct cpu_times *out);
	/* Program the hardware; khz is a table entry within [min, max]. */
	void (*set_target)(void *ctx, struct cpufreq_policy *p, uint32_t khz);
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
	/* The scheduler's per-CPU utilization hook; NULL if not needed. */
	void (*update)(struct cpufreq_policy *p, int cpu, sim_ns now, unsigned flags);
};

struct cpufreq_policy {
	int id;
	int ncpus;
	const int *cpus;          /* online CPUs of this clock domain */
	const uint32_t *table;    /* ascending kHz */
	int ntable;
	uint32_t cpuinfo_min, cpuinfo_max; /* hardware limits */
	uint32_t min, max;        /* current limits, within cpuinfo */
	uint32_t cur;             /* last frequency set */
	sim_ns transition_latency_ns;
	const struct cpufreq_governor *gov;
	void *gov_data;
	const struct cpufreq_driver *driver;
	void *driver_ctx;
};

/* The table entry for `target` under `relation`, after clamping to [min, max]. */
uint32_t cpufreq_resolve(const struct cpufreq_policy *p, uint32_t target,
			 enum cpufreq_relation relation);
/* __cpufreq_driver_target(): resolve and program if it differs from cur. */
void cpufreq_driver_target(struct cpufreq_policy *p, uint32_t target,
			   enum cpufreq_relation relation);
/* Change limits (clamped to cpuinfo) and tell the governor. */
int cpufreq_set_limits(struct cpufreq_policy *p, uint32_t min, uint32_t max, struct pm_diag *d);

/* Registry. */
const struct cpufreq_governor *cpufreq_governor_find(const char *name);
int cpufreq_governor_count(void);
const struct cpufreq_governor *cpufreq_governor_at(int i);

#endif
