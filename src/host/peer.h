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

/* The other power managers a profile apply must know about.
 *
 * tuned: run/tuned/tuned.pid (tuned.service runs "tuned -l -P", -P writes
 * it) naming a process whose proc/PID/comm is "tuned", else any process
 * so named; it conflicts only with a profile active (etc/tuned/active_profile
 * not empty: tuned-adm off leaves it running idle).
 * power-profiles-daemon: a process whose comm is "power-profiles-" (the
 * kernel keeps 15 characters) and whose cmdline names
 * power-profiles-daemon. Not running but D-Bus-activatable (its
 * net.hadess.PowerProfiles or org.freedesktop.UPower.PowerProfiles
 * service file in usr/share/dbus-1/system-services): any client -- a
 * desktop's power menu -- starts it, so it is named, as a warning.
 * pmlab: govd or bench running on the same root (the real /proc: they are
 * processes of this kernel); pmlab daemon cooperates and is not a peer.
 *
 * Why files and /proc rather than the bus (NameHasOwner): no D-Bus
 * library for three questions /proc answers the same way -- a name on the
 * bus belongs to a running process -- and a fake tree under --root can
 * pose them in tests. The activation files answer what the bus would
 * start on demand. */
#define HOST_MAX_PEERS 8

struct host_peer {
	char name[48];           /* "tuned", "power-profiles-daemon", "pmlab govd" */
	long pid;                /* 0: not running */
	bool conflict;           /* it writes what pmlab writes: apply refuses unless forced */
	char evidence[512];      /* how it was found */
	char stop[240];          /* how to stop it */
};

/* The peers found under fs's root; returns how many (at most max). */
int host_find_peers(const struct hostfs *fs, struct host_peer *out, int max);
/* "tuned (pid 812), power-profiles-daemon (pid 900)" of the running ones; "" if none. */
void host_peers_running(const struct host_peer *p, int n, char *buf, size_t len);

#endif
