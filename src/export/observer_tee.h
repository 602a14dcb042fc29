// SPDX-License-Identifier: GPL-2.0-only
/* Two observers of one run as one (a timeline and a trace.dat at once). */
#ifndef PMLAB_OBSERVER_TEE_H
#define PMLAB_OBSERVER_TEE_H

#include "../engine/sim.h"

struct observer_tee {
	const struct sim_observer *o[2]; /* either may be NULL */
	struct sim_observer obs;          /* hand this one to the run */
};

/* Fills t->obs so that every callback goes to a, then b. */
void observer_tee_init(struct observer_tee *t, const struct sim_observer *a,
		       const struct sim_observer *b);

#endif
