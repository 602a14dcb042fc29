// SPDX-License-Identifier: GPL-2.0-only
/* Running the command a measurement wraps (pmlab monitor -- CMD, pmlab
 * bench -- CMD), as turbostat and time(1) do. A SIGINT from the terminal
 * reaches the command too (same process group); a SIGTERM sent to pmlab
 * alone is passed on to it. Either way pmlab waits for the command, so it
 * can still measure and restore what it changed. */
#ifndef PMLAB_RUNCMD_H
#define PMLAB_RUNCMD_H

#include "../core/diag.h"

/* Runs argv (argv[0] looked up in PATH) and waits. *status: the exit code,
 * or 128 + N if killed by signal N. HOST_RUN_CANNOT_EXEC (with d) if the
 * command could not be run (not found, not executable: the user's
 * mistake); -1 if no process could be made (fork failed). */
#define HOST_RUN_CANNOT_EXEC (-2)
/* 0 if name would be found and run (execvp's PATH search), else -1 with
 * "cannot run 'NAME': why" in d: checked before anything is measured. */
int host_command_runnable(const char *name, struct pm_diag *d);
int host_run_command(char *const *argv, int *status, struct pm_diag *d);

#endif
