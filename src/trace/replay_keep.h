// SPDX-License-Identifier: GPL-2.0-only
/* A replay of only some processes of a trace (pmlab replay --pid,
 * --comm), so that the rest of what ran on the machine does not pollute
 * the what-if. The trace is read twice: first to find the processes kept
 * -- the PIDs given, the tasks whose comm matches a pattern (fnmatch, as
 * the shell's), and every task they fork -- then to build the model with
 * every other task as the idle task: its CPU time is not replayed, and a
 * wakeup it caused becomes a wakeup from outside, at its recorded time. */
#ifndef PMLAB_REPLAY_KEEP_H
#define PMLAB_REPLAY_KEEP_H

#include "replay_model.h"

struct replay_keep {
	const int *pids;
	int npids;
	const char *const *comms; /* patterns */
	int ncomms;
};

/* As replay_model_load(). -1 with d filled, also when nothing in the trace
 * matches (naming what was asked for). */
int replay_model_load_keep(struct replay_model *m, const char *path, const struct replay_keep *k,
			   struct pm_diag *d);

#endif
