// SPDX-License-Identifier: GPL-2.0-only
/* "runs done of total, elapsed, estimate" on stderr while a batch runs,
 * only when stderr is a terminal: in a pipe or CI the output is the result
 * and nothing else. */
#ifndef PMLAB_PROGRESS_H
#define PMLAB_PROGRESS_H

#include <stdbool.h>
#include <time.h>

struct progress {
	bool on;
	const char *what; /* "compare: runs", "sweep: points" */
	struct timespec start;
};

void progress_start(struct progress *p, const char *what);
void progress_update(struct progress *p, int done, int total);
/* Clears the line. */
void progress_end(struct progress *p);

#endif
