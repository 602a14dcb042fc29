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

struct host_profile_opts {
	const char *const *dirs;  /* profile directories searched first */
	int ndirs;
	FILE *log;                /* one line per change; NULL: quiet */
	FILE *notes;              /* what was skipped or is not applied, and why */
	bool hold;                /* this process holds the PM QoS request: record it */
	bool dry_run;             /* print the plan; write nothing */
};

/* The plan for spec on this machine (what apply would do). */
int host_profile_plan(struct hostfs *fs, const char *spec, const struct host_profile_opts *o,
		      struct host_plan *pl, struct pm_diag *d);
int host_profile_apply(struct hostfs *fs, const char *spec, const struct host_profile_opts *o,
		       struct txn_result *r, struct pm_diag *d);
/* *had: whether a profile was active. */
int host_profile_off(struct hostfs *fs, FILE *log, bool *had, struct pm_diag *d);
/* Prints each mismatch to out; *mismatches counts them (0: all match). */
int host_profile_verify(struct hostfs *fs, FILE *out, int *mismatches, struct pm_diag *d);
/* The active profile's state (*has false when none). */
int host_profile_active(const struct hostfs *fs, struct host_state *st, bool *has,
			struct pm_diag *d);

/* "PATH: OLD -> NEW" for each entry (reading OLD now), then the notes. */
void host_plan_print(FILE *out, const struct hostfs *fs, const struct host_plan *pl);
void host_plan_print_notes(FILE *out, const struct host_plan *pl);

#endif
