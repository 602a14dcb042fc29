// SPDX-License-Identifier: GPL-2.0-only
/* The host profile actions behind `pmlab profile apply|off|verify|active`:
 * a tuned profile, resolved for this machine (hostprofile.h), translated
 * into a write plan (plan.h) and applied as one transaction (txn.h) whose
 * state lives in run/pmlab/profile of the root.
 *
 * apply: a profile already active (or an apply interrupted by a crash) is
 *        restored first, then the new one applied; on any failure the
 *        machine is left exactly as before.
 * off:   restores the saved values and removes the state.
 * verify: compares every file the active profile set with its live value.
 * The PM QoS request (force_latency) is held by whoever holds the
 * descriptor txn_result.latency_fd: `pmlab daemon`, `apply --hold`, or the
 * applying process until it exits. */
#ifndef PMLAB_APPLY_H
#define PMLAB_APPLY_H

#include <stdbool.h>
#include <stdio.h>

#include "plan.h"
#include "state.h"
#include "txn.h"

#define HOST_STATE_PROFILE "profile"
/* Returned, with the message, for bad input: an unknown profile, a value
 * no interface here takes. Runtime failures return -1. */
#define HOST_BAD_INPUT (-2)
/* Returned when a peer (tuned, power-profiles-daemon, pmlab govd) runs and
 * --force was not given; the message names it and how to stop it. */
#define HOST_PEER_REFUSED (-3)
/* tuned's update_interval (tuned-main.conf, 10 s): how often the holder
 * re-reads the load average for the dynamic PM QoS. */
#define HOST_DYNAMIC_INTERVAL_MS 10000

struct host_profile_opts {
	const char *const *dirs;  /* profile directories searched first */
	int ndirs;
	FILE *log;                /* one line per change; NULL: quiet */
	FILE *notes;              /* what was skipped or is not applied, and why */
	bool hold;                /* this process holds the PM QoS request: record it */
	bool dry_run;             /* print the plan; write nothing */
	bool force;               /* apply even while a peer runs (warned on notes) */
};

/* The plan for spec on this machine (what apply would do). */
int host_profile_plan(struct hostfs *fs, const char *spec, const struct host_profile_opts *o,
		      struct host_plan *pl, struct pm_diag *d);
int host_profile_apply(struct hostfs *fs, const char *spec, const struct host_profile_opts *o,
		       struct txn_result *r, struct pm_diag *d);
/* *had: whether a profile was active. */
int host_profile_off(struct hostfs *fs, FILE *log, bool *had, struct pm_diag *d);
/* The same; *left: files another program changed since, left as they are
 * (logged). */
int host_profile_off_left(struct hostfs *fs, FILE *log, bool *had, int *left,
			  struct pm_diag *d);
/* Prints each mismatch to out, and the peers running that may have made
 * it; *mismatches counts them (0: all match). */
int host_profile_verify(struct hostfs *fs, FILE *out, int *mismatches, struct pm_diag *d);
/* The PM QoS request the active profile makes now: the static one, or
 * tuned's dynamic one at the load average now; -1 none. */
int64_t host_profile_latency_now(const struct hostfs *fs, const struct host_state *st);

/* Files of the active profile that another program changed since, each
 * reported once (monitor calls it every interval). */
struct host_drift {
	int n, cap;
	char **seen;              /* "PATH=VALUE" already reported */
};
/* Prints "PATH: now 'X', profile P set 'Y' (running: PEERS)" for each new
 * change to out; returns how many were new. */
int host_profile_drift(const struct hostfs *fs, struct host_drift *dr, FILE *out);
void host_drift_free(struct host_drift *dr);
/* The active profile's state (*has false when none). */
int host_profile_active(const struct hostfs *fs, struct host_state *st, bool *has,
			struct pm_diag *d);

/* "PATH: OLD -> NEW" for each entry (reading OLD now), then the notes. */
void host_plan_print(FILE *out, const struct hostfs *fs, const struct host_plan *pl);
void host_plan_print_notes(FILE *out, const struct host_plan *pl);

#endif
