// SPDX-License-Identifier: GPL-2.0-only
/* What part of a run an export keeps: a window of simulated time and a
 * set of CPUs (pmlab sim --window, --trace-cpus), so that a long run's
 * timeline stays small enough for the tool that opens it. */
#ifndef PMLAB_EXPORT_FILTER_H
#define PMLAB_EXPORT_FILTER_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/diag.h"
#include "../core/simtime.h"
#include "../machine/machine.h"

struct export_filter {
	sim_ns from, to;                   /* [from, to); to = SIM_NS_MAX: the end */
	bool all_cpus;
	bool cpu[MACHINE_MAX_CPUS];        /* with !all_cpus: the CPUs kept */
};

/* Everything. */
void export_filter_all(struct export_filter *f);
/* "FROM:TO" in seconds, either side may be empty ("2:", ":0.5"). -1 with
 * d filled when malformed or empty. */
int export_filter_window(struct export_filter *f, const char *arg, struct pm_diag *d);
/* A CPU list, "0-3,6", of CPUs below ncpus. -1 with d filled. */
int export_filter_cpus(struct export_filter *f, const char *arg, int ncpus, struct pm_diag *d);

static inline bool export_keeps_cpu(const struct export_filter *f, int cpu)
{
	return !f || f->all_cpus || (cpu >= 0 && cpu < MACHINE_MAX_CPUS && f->cpu[cpu]);
}

static inline bool export_keeps_time(const struct export_filter *f, sim_ns t)
{
	return !f || (t >= f->from && t < f->to);
}

#endif
