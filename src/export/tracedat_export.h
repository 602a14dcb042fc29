// SPDX-License-Identifier: GPL-2.0-only
/* A simulated run written as a kernel trace: a trace.dat (version 6, the
 * writer pmlab record uses) whose records are those a Linux kernel would
 * have logged -- sched_switch, sched_wakeup(_new),
 * sched_process_fork/exit, cpu_idle, cpu_frequency, the hrtimer expiry
 * around a sleep's timer wakeup -- plus pmlab/core_power and
 * pmlab/package_power with the model's power. trace-cmd report,
 * KernelShark and every libtracecmd reader open it, and pmlab replay
 * reads it back: a task woken by another is logged in the waker's
 * context, a timer wakeup inside hrtimer_expire_entry..exit, a device's
 * in a hard interrupt, as the replay model tells them apart.
 *
 * Task i of the run is PID i + 1 with the task's name as its comm (15
 * characters) and the prio of its weight; PID 0 is each CPU's idle task.
 * Records go to one temporary file per CPU as the run goes, in pages, so
 * memory stays a page per CPU. */
#ifndef PMLAB_TRACEDAT_EXPORT_H
#define PMLAB_TRACEDAT_EXPORT_H

#include "../core/diag.h"
#include "../engine/sim.h"
#include "../machine/machine.h"
#include "export_filter.h"

struct simtrace;

/* Starts the trace of a run on machine m; filter (NULL: everything) keeps
 * a window and some CPUs. The file is written at close. NULL with d filled
 * if the temporary files cannot be made. */
struct simtrace *simtrace_open(const char *path, const struct machine *m,
			       const struct export_filter *filter, struct pm_diag *d);
const struct sim_observer *simtrace_observer(struct simtrace *t);
/* Bytes of records so far, for size estimates. */
uint64_t simtrace_bytes(const struct simtrace *t);
/* Readers order the records of different CPUs by time alone, so records
 * of one simulated instant are written 1 ns apart in the order they
 * happened: the most a record has been moved so far. */
sim_ns simtrace_max_shift(const struct simtrace *t);
/* Writes the trace.dat and frees t. -1 with d filled on failure (no file
 * is left). */
int simtrace_close(struct simtrace *t, sim_ns end, struct pm_diag *d);
/* Frees t without writing anything (the run failed). */
void simtrace_discard(struct simtrace *t);

#endif
