// SPDX-License-Identifier: GPL-2.0-only
/* The one pipeline behind pmlab compare, sweep and validate: a list of run
 * specifications, each run `runs` times (run r with seed spec.seed + r),
 * in forked worker processes (runner.c). A worker keeps what emit() writes
 * of each run; the caller gets those bytes back through collect(), in job
 * order (spec-major), whatever the number of workers -- which is why the
 * output of every batch command is the same for any --jobs. */
#ifndef PMLAB_BATCH_H
#define PMLAB_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../core/diag.h"
#include "runspec.h"

struct batch {
	const char *cmd; /* "compare": the first word of every message */
	const struct runspec *spec;
	int nspecs;
	int runs;         /* per spec, >= 1 */
	bool name_runs;   /* messages name the run: "LABEL, run 2 (seed 8)" */
	int workers;      /* processes; 1 or less runs every job in this one */
	/* Names spec i in messages and timeline files ("balanced",
	 * "point 3 (hz=100)"). */
	void (*label)(void *ctx, int i, char *buf, size_t size);
	/* In the worker: writes what the caller needs of a run. -1 on failure. */
	int (*emit)(void *ctx, const struct run_result *r, FILE *out);
	/* In the caller, in job order: the bytes emit() wrote for run `run` of
	 * spec i. -1 with the reason in d stops the batch. */
	int (*collect)(void *ctx, int i, int run, const char *data, size_t len, struct pm_diag *d);
	/* In the caller after each job (progress); NULL: nothing. */
	void (*done)(void *ctx, int ndone, int njobs);
	/* Not NULL: each spec's first run is also written as a Chrome/Perfetto
	 * timeline to batch_timeline_path(timeline, label). */
	const char *timeline;
	void *ctx;
	bool keep_signals; /* lab/runner.h */
};

/* PREFIX-LABEL.json with '/', ':', ',' and '=' in the label replaced by
 * '_'. NULL on OOM; the caller frees it. */
char *batch_timeline_path(const char *prefix, const char *label);
/* Bad input found before any run: two specs whose timelines would go to
 * the same file. -1 with the reason in d. */
int batch_check(const struct batch *b, struct pm_diag *d);
/* Runs every job. -1 with the reason in d: "CMD: LABEL[, run R (seed S)]:
 * why" for a failed run. */
int batch_run(const struct batch *b, struct pm_diag *d);

#endif
