// SPDX-License-Identifier: GPL-2.0-only
/* Applying a write plan as one transaction, and undoing it.
 *
 *   1. an earlier state of the same name (a crashed or still active apply)
 *      is restored first;
 *   2. every file the plan touches is read (the snapshot); an unreadable
 *      one stops here, nothing changed;
 *   3. the state -- the snapshot and the plan -- is saved (status
 *      applying) before the first write;
 *   4. each entry is written in order unless it already holds the value,
 *      then read back; the PM QoS request is written last;
 *   5. the state is saved again (status applied).
 * If a write or a read-back fails, every entry already written is put back
 * in reverse order (a file is rewritten only if it differs from its
 * snapshot), the state is removed and the call fails naming the file, the
 * value and the error: the machine is as before. The same restore serves
 * `off` and recovery after a crash, from the saved state; there a file
 * that no longer holds what pmlab wrote (another program -- tuned,
 * power-profiles-daemon -- changed it) is left as it is and reported.
 * Modules the plan needs (tuned's [modules]) are loaded after the state
 * is saved and before the first write, and stay loaded, as under tuned.
 *
 * Callers hold hostfs_lock() around these calls. */
#ifndef PMLAB_TXN_H
#define PMLAB_TXN_H

#include <stdbool.h>
#include <stdio.h>

#include "plan.h"
#include "state.h"

struct txn_opts {
	const char *state_name;          /* "profile", "govd", ... */
	FILE *log;                       /* "PATH: OLD -> NEW" lines; NULL: quiet */
	long holder_pid;                 /* recorded as holding the PM QoS request; 0 none */
	unsigned long long holder_start;
};

struct txn_result {
	int latency_fd;                  /* the open /dev/cpu_dma_latency; -1 none */
	bool latency_device;             /* false: a fake tree's plain file */
	int written, unchanged;
	bool recovered;                  /* an earlier state was restored first */
};

int host_txn_apply(struct hostfs *fs, const struct host_plan *pl, const struct txn_opts *o,
		   struct txn_result *r, struct pm_diag *d);
/* Restores the state saved under `name`, if any (*had says), then removes
 * it. A failure keeps the state file so that the restore can be retried.
 * A state that is malformed or untrusted (hostfs.h) fails with
 * HOSTFS_UNTRUSTED before anything is written; so do apply and load. */
int host_txn_restore(struct hostfs *fs, const char *name, bool *had, FILE *log,
		     struct pm_diag *d);
/* The same; a file another program changed since the apply is left as
 * it is, logged, and counted in *left (NULL: not counted). */
int host_txn_restore_left(struct hostfs *fs, const char *name, bool *had, FILE *log, int *left,
			  struct pm_diag *d);
/* The saved state, if any. */
int host_txn_load(const struct hostfs *fs, const char *name, struct host_state *st, bool *had,
		  struct pm_diag *d);
/* Saves st under name (used to record a holder after the fact). */
int host_txn_save(struct hostfs *fs, const char *name, const struct host_state *st,
		  struct pm_diag *d);

#endif
