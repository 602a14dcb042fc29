// SPDX-License-Identifier: GPL-2.0-only
/* pmlab daemon: the process that holds the active profile's PM QoS
 * request (/dev/cpu_dma_latency lasts only while a descriptor is open).
 *
 * At start it registers in run/pmlab/daemon and re-applies the active
 * profile (a restore, then a fresh apply, so the values are current); with
 * no active profile it applies `profile` if one is given. It then holds
 * the request until SIGINT or SIGTERM. SIGHUP -- sent by pmlab profile
 * apply and off -- makes it re-read the state and hold the new request, or
 * none. With tuned's dynamic PM QoS (a profile without force_latency,
 * tuned before 2.22) it re-reads the load average every 10 s, as tuned's
 * update_interval, and moves the request between latency_low and
 * latency_high. Exiting drops the request and leaves the profile applied
 * (pmlab profile off restores the files). */
#ifndef PMLAB_DAEMON_H
#define PMLAB_DAEMON_H

#include <stdio.h>

#include "hostfs.h"

struct daemon_config {
	const char *profile;      /* applied when none is active; NULL: none */
	const char *const *dirs;  /* profile directories searched first */
	int ndirs;
	FILE *log;                /* what it does, a line each */
};

/* -2: bad input (the profile, or state in run/pmlab that is malformed or
 * untrusted), -1: runtime failure. */
int host_daemon_run(struct hostfs *fs, const struct daemon_config *c, struct pm_diag *d);

#endif
