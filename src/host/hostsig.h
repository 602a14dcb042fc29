// SPDX-License-Identifier: GPL-2.0-only
/* Signals for the long-running host commands (daemon, govd, bench,
 * monitor, apply --hold): SIGINT, SIGTERM and SIGHUP set a flag and wake a
 * self-pipe, so a wait never misses a signal that arrives just before it
 * and every command gets to restore what it changed before it exits. */
#ifndef PMLAB_HOSTSIG_H
#define PMLAB_HOSTSIG_H

#include <stdbool.h>

/* Installs the handlers (no SA_RESTART: blocking calls return EINTR). */
int host_signals_install(void);
/* Puts the default dispositions back. */
void host_signals_restore(void);
/* The last signal received and not yet taken (0: none); taking clears it. */
int host_signal_take(void);
/* Whether a SIGINT or SIGTERM (a request to stop) has arrived. */
bool host_stop_requested(void);
/* Sleeps up to ms milliseconds (-1: forever) or until a signal arrives;
 * returns the signal (0 on timeout). */
int host_signal_wait(int ms);

#endif
