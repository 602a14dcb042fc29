// SPDX-License-Identifier: GPL-2.0-only
/* Workload interface. A workload creates tasks and, each time one of its
 * tasks finishes what it was doing, tells the engine what that task does
 * next: run a burst, sleep until a time, block until woken, or exit. It
 * can wake other tasks, record latencies and count completed work through
 * the engine API in engine/sim.h. */
#ifndef PMLAB_WORKLOAD_H
#define PMLAB_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/diag.h"
#include "../core/simtime.h"
#include "../core/tunable.h"
#include "../metrics/result.h"
#include "../sched/task.h"

struct sim;

enum action_kind {
	ACT_RUN,   /* execute cycles + stall_ns, as user or system time */
	ACT_SLEEP, /* sleep until `until` (absolute) */
	ACT_BLOCK, /* block until sim_wake(); iowait says whether it waits on I/O */
	ACT_EXIT,
	ACT_YIELD, /* sched_yield(): let the tasks waiting on this CPU run first */
};

struct action {
	enum action_kind kind;
	bool sys;
	bool iowait;
	double cycles;
	double stall_ns;
	sim_ns until;
};

struct workload_ops {
	const char *name;
	const char *summary;
	const char *throughput_unit; /* unit of work_done per second, e.g. "round trips/s" */
	const char *latency_what;    /* what its latency histogram measures */
	const struct tunable *params;
	int nparams;
	size_t data_size; /* instance state; starts with its int64_t params */
	int (*init)(struct sim *s, void *data, struct pm_diag *d);
	/* What t does next, into *a, which comes unfilled: every path writes
	 * the whole action, `*a = (struct action){ ... }` (or a copy of one
	 * built so), never a field alone nor nothing (--check aborts on a
	 * field left unwritten: engine/wake.c, next_checked()). */
	void (*next)(struct sim *s, void *data, struct task *t, struct action *a);
	void (*timer)(struct sim *s, void *data, uint32_t arg); /* optional */
	/* Optional: fill throughput/extra figures; by default throughput is
	 * work done per simulated second. */
	void (*report)(struct sim *s, void *data, struct run_result *r);
	void (*fini)(void *data); /* optional */
	/* Optional: the lab also runs the same simulation (machine, seed,
	 * settings) under this frequency governor, and against_reference()
	 * adds the comparison to r's figures, as cpufreq-bench measures a
	 * governor against performance. ref may be a copy of r itself (the
	 * run was under that governor); only its extra figures are read. */
	const char *reference_cpufreq;
	/* The workload ends the run itself (a batch, a build, a replayed
	 * trace): how long it took is a result, not the --duration limit. */
	bool ends_run;
	void (*against_reference)(struct run_result *r, const struct run_result *ref);
	/* A plugin's workload: what its adapter calls (plugin/workload_adapter.c);
	 * NULL for the built-in ones. */
	const void *plugin;
};

const struct workload_ops *workload_find(const char *name);
/* The workload a --workload NAME[:ARG] names, or NULL. */
const struct workload_ops *workload_find_spec(const char *spec);
int workload_count(void);
const struct workload_ops *workload_at(int i);

/* Cycles that take `us` microseconds at `khz`: how workloads turn a time
 * measured on a reference CPU into frequency-scaled work. */
static inline double workload_cycles(double us, double khz)
{
	return us * khz / 1000.0;
}

#endif
