// SPDX-License-Identifier: GPL-2.0-only
/* The HTML report of one or more configurations ("profiles"), each run
 * one or more times: a summary table, power against throughput with the
 * Pareto front, C-state residency and time at each frequency as stacked
 * bars, and how the runs of each configuration spread. Built on html.h;
 * pmlab replay --format html writes it, compare and sweep can too. */
#ifndef PMLAB_HTML_REPORT_H
#define PMLAB_HTML_REPORT_H

#include <stdio.h>

#include "../metrics/result.h"

struct html_group {
	const char *label;                  /* the configuration: a profile name, "performance" */
	const struct run_result *const *runs;
	int nruns;                          /* >= 1 */
};

/* Writes the page; `note` (may be NULL) is a paragraph under the title.
 * Every run must be of the same machine. -1 on a write error or OOM. */
struct run_inputs;
/* in: what the runs were made from (metrics/inputs.h), or NULL. */
int html_report(FILE *out, const char *title, const char *note, const struct run_inputs *in,
		int ngroups,
		const struct html_group *groups);

#endif
