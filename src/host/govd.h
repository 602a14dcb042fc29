// SPDX-License-Identifier: GPL-2.0-only
/* pmlab's own governors driving the real machine: the kernel's userspace
 * governor is selected on every policy, and the shared governor code
 * (src/cpufreq: ondemand, conservative, schedutil) runs in this process
 * on /proc/stat samples through a cpufreq driver of its own:
 *   cpu_times     busy/idle/iowait from /proc/stat (USER_HZ ticks);
 *   cpu_util      the busy fraction of the last sample, made frequency-
 *                 invariant (x cur / cpuinfo_max), 0..1024;
 *   cpu_counters  APERF/MPERF/TSC synthesised from busy time and cur;
 *   set_target    writes scaling_setspeed.
 * Each step emulates the scheduler's util hook on every CPU, so the
 * governors sample exactly as in the kernel, at their own rates. The
 * switch to userspace is a transaction (txn.h, state "govd", naming govd
 * as its owner): stopping govd -- a signal included -- restores the
 * previous governor and scaling_setspeed, and a govd killed outright is
 * restored by the next govd, pmlab profile apply or pmlab profile off
 * (govd_recover). Only one govd runs at a time. */
#ifndef PMLAB_GOVD_H
#define PMLAB_GOVD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "hostfs.h"

#define GOVD_STATE "govd"

struct govd_config {
	const char *governor;         /* ondemand, conservative or schedutil */
	const char *const *sets;      /* "TUNABLE=VALUE" for the governor */
	int nsets;
	int interval_ms;              /* between util-hook emulations */
	int hz;                       /* the kernel's HZ: the governors' 2-tick floor */
	double duration_s;            /* 0: until a signal */
	FILE *log;                    /* "t_s,policy,khz" per change; NULL quiet */
};

struct govd;

/* Checks the governor and tunables without touching the machine (-2 bad input). */
int govd_check(const struct govd_config *c, struct pm_diag *d);
/* Switches every policy to userspace and starts the governor on each
 * (-2 bad input, -1 the machine cannot: no cpufreq, no userspace). */
int govd_start(struct govd **out, struct hostfs *fs, const struct govd_config *c,
	       struct pm_diag *d);
/* One /proc/stat sample and a hook call per CPU at now_ns (since start). */
int govd_step(struct govd *g, int64_t now_ns, struct pm_diag *d);
/* Stops the governors and restores the machine; frees g. */
int govd_stop(struct govd *g, struct pm_diag *d);
/* start, print the log's CSV header, step every interval until a signal
 * or the duration, stop. */
int govd_run(struct hostfs *fs, const struct govd_config *c, struct pm_diag *d);
/* A govd state whose owner is gone (killed) is restored; one whose govd
 * still runs is left to it. Callers hold hostfs_lock(). *had: restored. */
int govd_recover(struct hostfs *fs, FILE *log, bool *had, struct pm_diag *d);

#endif
