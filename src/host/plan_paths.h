// SPDX-License-Identifier: GPL-2.0-only
/* The files a write plan may name: the one allow-list behind both sides of
 * a transaction. host_plan_add() refuses any other path, so apply writes
 * only these; the state parser refuses any other path, so a restore (off,
 * the recovery before an apply, govd's exit) writes only these too, even
 * from a state file someone forged. Each pattern mirrors a path the
 * planner (plan.c), govd or the inventory's path builders produce; a new
 * key of the planner adds its pattern here. */
#ifndef PMLAB_PLAN_PATHS_H
#define PMLAB_PLAN_PATHS_H

#include <stdbool.h>

/* Patterns: '#' stands for a decimal number (a policy, CPU or state
 * index), '*' for one name of [a-z0-9_] (a governor or its tunable). */
extern const char *const host_plan_paths[];
extern const int host_plan_npaths;

/* Whether rel (relative to the root) is one of the files above. */
bool host_plan_path_ok(const char *rel);

#endif
