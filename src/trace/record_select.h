// SPDX-License-Identifier: GPL-2.0-only
/* Which processes pmlab record keeps (record -p, --comm, --cgroup): the
 * PIDs given, the processes whose comm matches a pattern (fnmatch, as the
 * shell's) in /proc when the recording starts, and the processes of a
 * cgroup (v2: its cgroup.procs; a relative path is under /sys/fs/cgroup).
 * Read under a root directory, "/" on the machine, a fake tree in tests. */
#ifndef PMLAB_RECORD_SELECT_H
#define PMLAB_RECORD_SELECT_H

#include "../core/diag.h"

struct record_select {
	const int *pids;
	int npids;
	const char *const *comms;
	int ncomms;
	const char *cgroup; /* NULL: none */
};

/* The PIDs, sorted, without repeats, into *out (malloc'd; free it). -1
 * with d filled when a PID does not run, no process matches a --comm, or
 * the cgroup cannot be read or is empty: each names what and where. */
int record_select_pids(const char *root, const struct record_select *s, int **out, int *n,
		       struct pm_diag *d);

#endif
