// SPDX-License-Identifier: GPL-2.0-only
/* The other pmlab processes an apply must know about: `pmlab daemon`,
 * which holds the PM QoS request of the active profile (its pid in
 * run/pmlab/daemon), and `pmlab profile apply --hold` (its pid in the
 * state). A pid is always paired with the process's start time
 * (/proc/PID/stat field 22), so a recycled pid is never signalled. These
 * are processes of the running kernel: their /proc is the real one
 * whatever the root. */
#ifndef PMLAB_PEER_H
#define PMLAB_PEER_H

#include <stdbool.h>
#include <stdint.h>

#include "hostfs.h"

/* Start time of pid in clock ticks since boot; 0 if there is no such process. */
unsigned long long host_proc_start(long pid);
bool host_proc_alive(long pid, unsigned long long start);
/* Sends sig to pid only if it is still that process (its start time),
 * belongs to this user and runs this program (/proc/PID/exe): another
 * pmlab. Never this process. True if sent. */
bool host_proc_signal(long pid, unsigned long long start, int sig);
/* SIGTERM, as above. */
void host_proc_stop(long pid, unsigned long long start);

/* Records this process as the daemon; fails if another one runs. */
int host_daemon_register(struct hostfs *fs, struct pm_diag *d);
void host_daemon_unregister(struct hostfs *fs);
/* The running daemon's pid, or 0. */
long host_daemon_pid(const struct hostfs *fs);
/* The same, and the PM QoS request it says it holds (*us -1: none). */
long host_daemon_holding(const struct hostfs *fs, int64_t *us);
/* The daemon (this process) records the request it now holds (-1 none). */
int host_daemon_record(struct hostfs *fs, int64_t us, struct pm_diag *d);
/* Tells a running daemon to re-read the state (SIGHUP); true if one runs. */
bool host_daemon_notify(const struct hostfs *fs);

#endif
