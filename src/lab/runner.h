// SPDX-License-Identifier: GPL-2.0-only
/* The parallel runner behind pmlab compare and sweep: jobs 0..n-1, each a
 * function that writes its result (any bytes) to a FILE, run by forked
 * worker processes that send the bytes back over pipes. Results are handed
 * over in job order, never in completion order, so the output built from
 * them is the same whatever the number of workers; each as soon as the
 * jobs before it are done, and then forgotten, so a long run does not hold
 * every result in memory (jobs go out at most a window ahead of the oldest
 * one not handed over). Workers die with the parent (PR_SET_PDEATHSIG),
 * and a SIGINT or SIGTERM the parent receives while they run is passed on
 * to them before the parent ends by it. */
#ifndef PMLAB_RUNNER_H
#define PMLAB_RUNNER_H

#include <stddef.h>
#include <stdio.h>

#include "../core/diag.h"

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
	/* In the calling process, in job order: job i's bytes, which the
	 * runner frees afterwards. -1 with the reason in d stops the run. */
	int (*deliver)(void *ctx, int i, const char *data, size_t len, struct pm_diag *d);
};

/* Runs every job, delivering each result. On the first failing job the
 * others are stopped and -1 returned with that job's message in d (a
 * worker that dies gives "NAME: worker process killed by signal N"). */
int runner_run(const struct runner *r, struct pm_diag *d);
/* Processors online: the default number of workers. */
int runner_default_workers(void);

#endif
