// SPDX-License-Identifier: GPL-2.0-only
/* Helpers shared by the workload models: how a model turns its work
 * figures and the machine's kernel costs into bursts, random draws the
 * rng streams lack, wait queues, and the extra figures of a report.
 *
 * Units. A model states the CPU work of its program (a compile job, a
 * database statement) as time on a 3 GHz core, WL_REF_KHZ: a fixed number
 * of cycles, so the same benchmark takes longer on a slower machine and
 * stretches when the clock drops. Memory stall is given as a share of that
 * time and does not scale. Kernel work the machine's [costs] section
 * measures (syscall_ns, fork_ns, exec_ns) was measured on that machine, so
 * it becomes cycles at the machine's base frequency: system time that
 * scales with frequency as kernel code does. */
#ifndef PMLAB_WLUTIL_H
#define PMLAB_WLUTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/rng.h"
#include "workload.h"

#define WL_REF_KHZ 3000000.0

#define WL_NPARAMS(params) ((int)(sizeof(params) / sizeof((params)[0])))

/* A burst of `us` of work on the reference core, stall_pct percent of it
 * memory stall; user time unless `sys`. */
struct action wl_work(double us, int64_t stall_pct, bool sys);
/* A system-time burst of `ns` of kernel work as the machine's [costs]
 * measure it (at its base frequency). */
struct action wl_kernel(const struct sim *s, double ns);
/* Adds b's work to a (both ACT_RUN); a keeps its user/system kind. */
void wl_add(struct action *a, const struct action *b);

/* Standard normal draw (Box-Muller on two uniforms of r). */
double wl_normal(struct rng *r);
/* Lognormal draw with the given median and sigma of its logarithm. */
double wl_lognormal(struct rng *r, double median, double sigma);

/* A FIFO of small integers (task indices of a model): who waits on a lock,
 * a channel or a barrier, in arrival order. */
struct wl_fifo {
	int *v;
	int head, len, cap;
};

int wl_fifo_push(struct wl_fifo *q, int x); /* -1 on OOM */
int wl_fifo_pop(struct wl_fifo *q);         /* -1 when empty */
void wl_fifo_free(struct wl_fifo *q);

/* Appends an extra figure to a report (ignored beyond RESULT_MAX_EXTRA). */
void wl_extra(struct run_result *r, const char *name, const char *unit, double value);
/* User and system CPU time of the whole run, seconds (sar's totals). */
double wl_user_s(const struct run_result *r);
double wl_sys_s(const struct run_result *r);
/* Simulated seconds the result covers. */
double wl_seconds(const struct run_result *r);

#endif
