// SPDX-License-Identifier: GPL-2.0-only
/* One run of a specification, as pmlab sim and pmlab replay make it,
 * optionally written as a Chrome/Perfetto timeline as it goes. */
#ifndef PMLAB_SINGLE_RUN_H
#define PMLAB_SINGLE_RUN_H

#include "../core/diag.h"
#include "runspec.h"

/* Runs rs; with timeline not NULL also writes the run to that file (title
 * names it inside). use() gets the result while the simulation exists.
 * -1 with the reason in d if the timeline, the run or use() failed; a
 * timeline that fails only when it is finished still lets use() run. */
int single_run(const struct runspec *rs, const char *timeline, const char *title,
	       int (*use)(void *ctx, struct sim *s, const struct run_result *r), void *ctx,
	       struct pm_diag *d);

#endif
