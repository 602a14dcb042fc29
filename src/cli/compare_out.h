// SPDX-License-Identifier: GPL-2.0-only
/* The comparison pmlab compare and pmlab replay --profiles run and print. */
#ifndef PMLAB_CLI_COMPARE_OUT_H
#define PMLAB_CLI_COMPARE_OUT_H

#include "../machine/machine.h"
#include "options.h"

/* Splits a --profiles list into *list (appended to, *n entries): an item
 * OPTION=VALUE continues the entry before it. -1 on OOM. */
int compare_split_profiles(const char *arg, char ***list, int *n);
struct run_inputs;
/* Runs o->workload on m under each of profiles[0..n), `runs` times each,
 * with o's governors, settings, seed, duration, jobs and timeline, and
 * prints the comparison in o->format against `baseline` (NULL: the first
 * profile), with its inputs: `in` (replay's), else those o names; the
 * profiles and runs are added. Returns the exit code, after the message
 * if not EXIT_OK. */
int compare_out(const struct cli_opts *o, const struct machine *m, const char *const *profiles,
		int n, const char *baseline, int runs, const struct run_inputs *in);

#endif
