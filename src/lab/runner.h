// SPDX-License-Identifier: GPL-2.0-only
/* The parallel runner behind pmlab compare and sweep: jobs 0..n-1, each a
 * function that writes its result (any bytes) to a FILE, run by forked
 * worker processes that send the bytes back over pipes. Results are kept
 * by job index, never by completion order, so the output built from them
 * is the same whatever the number of workers. */
#ifndef PMLAB_RUNNER_H
#define PMLAB_RUNNER_H

#include <stddef.h>
#include <stdio.h>

#include "../core/diag.h"

struct runner_result {
	char *data; /* what the job wrote; malloc'd */
	size_t len;
};

struct runner {
	int njobs;
	int workers; /* processes to fork; 1 or less runs every job here */
	/* Runs job i (in a worker: a copy of the caller's memory at the fork).
	 * 0 ok; -1 with the reason in d. */
	int (*job)(void *ctx, int i, FILE *out, struct pm_diag *d);
	void *ctx;
	/* In the calling process after each job: progress. NULL: none. */
	void (*done)(void *ctx, int ndone, int njobs);
	/* Names job i in messages ("sweep: point 7"). NULL: "job I". */
	void (*name)(void *ctx, int i, char *buf, size_t size);
};

/* Runs every job and fills res[0..njobs-1]. On the first failing job the
 * others are stopped and -1 returned with that job's message in d (a
 * worker that dies gives "NAME: worker process killed by signal N"); res
 * then holds what finished. */
int runner_run(const struct runner *r, struct runner_result *res, struct pm_diag *d);
void runner_results_free(struct runner_result *res, int n);
/* Processors online: the default number of workers. */
int runner_default_workers(void);

#endif
