// SPDX-License-Identifier: GPL-2.0-only
/* One run of a specification, as pmlab sim and pmlab replay make it,
 * optionally written as it goes as a Chrome/Perfetto timeline, as a
 * trace.dat, or both, limited to a window and some CPUs. A timeline or
 * trace that is going to be large is announced early, with its estimated
 * size, while there is time to stop the run and narrow it. */
#ifndef PMLAB_SINGLE_RUN_H
#define PMLAB_SINGLE_RUN_H

#include "../core/diag.h"
#include "../export/export_filter.h"
#include "runspec.h"

/* Sizes above which the run warns (MB): what the Perfetto UI loads
 * comfortably as JSON, and a trace.dat that large. PMLAB_EXPORT_WARN_MB
 * overrides both (tests). */
#define SINGLE_RUN_TIMELINE_WARN_MB 256
#define SINGLE_RUN_TRACE_WARN_MB 1024

struct run_exports {
	const char *timeline;  /* Chrome trace JSON, or NULL */
	const char *trace;     /* trace.dat, or NULL */
	const char *cmd;       /* "sim": the warning's first word */
	const struct export_filter *filter; /* NULL: everything */
	bool quiet;            /* no size warning */
	/* Where the size warning goes (one line, no newline); NULL: standard
	 * error, as "pmlab: CMD: ...". */
	void (*warn)(void *ctx, const char *msg);
	void *warn_ctx;
};

/* Runs rs, writing the exports x asks for (x may be NULL; title names the
 * run inside the timeline). use() gets the result while the simulation
 * exists. -1 with the reason in d if an export, the run or use() failed;
 * an export that fails only when it is finished still lets use() run. */
int single_run(const struct runspec *rs, const struct run_exports *x, const char *title,
	       int (*use)(void *ctx, struct sim *s, const struct run_result *r), void *ctx,
	       struct pm_diag *d);

#endif
