// SPDX-License-Identifier: GPL-2.0-only
/* A sweep: one run per point of the Cartesian product of some dimensions
 * (--vary KEY=V1,V2,...), numbered from 0 with the last dimension varying
 * fastest; with shards, one slice of the points (those whose number
 * modulo nshards is shard). Each point's row goes to a sweep_out
 * (metrics/sweep_out.h) as the run's CSV cells or JSON object. */
#ifndef PMLAB_SWEEP_H
#define PMLAB_SWEEP_H

#include <stdbool.h>

#include "../core/diag.h"
#include "../metrics/inputs.h"
#include "../metrics/sweep_out.h"
#include "runspec.h"

#define SWEEP_MAX_POINTS 10000000L
#define SWEEP_ID_MAX 24

struct sweep_dim {
	char *key;
	int n;
	char **val;
};

struct sweep_machine;
struct gov_registry;

struct sweep {
	/* The fixed options, which a varied key replaces; NULL: not given
	 * (the default). */
	const char *machine, *workload, *cpus, *cpufreq, *cpuidle, *profile, *duration, *seed;
	const char *const *sets; /* every point's --set, before the varied keys */
	int nsets;
	const char *const *dirs; /* searched first for profiles */
	int ndirs;
	long shard, nshards;     /* nshards 0: 1 */
	/* With shards, the sweep's identity, in every row (a "sweep" cell or
	 * key) so that merge joins only shards of one sweep: a hash of the
	 * options, the varied keys and values and N. "" without shards. */
	char id[SWEEP_ID_MAX];
	enum sweep_format format;
	int workers;
	void (*done)(void *ctx, int ndone, int njobs); /* progress; may be NULL */
	void *done_ctx;
	const struct gov_registry *registry; /* plugins' governors; may be NULL */
	bool keep_signals; /* lab/runner.h */
	/* The caller's part of the inputs every output records (version,
	 * plugins; metrics/inputs.h): sweep_setup adds the sweep's options,
	 * --vary axes, shard and machines. NULL: no inputs are written. */
	const struct run_inputs *base;
	/* Private. */
	struct run_inputs in;
	char **vary_arg;      /* "KEY=V1,V2", one per dimension */
	struct inputs_machine *in_machine;
	char shard_arg[48];
	int ndims;
	struct sweep_dim *dim;
	long npoints;
	int nrun;
	long *point;          /* the points this shard runs */
	struct runspec *spec; /* one per point run */
	int nmachines;
	struct sweep_machine **machines;
};

/* Adds the dimension "KEY=V1,V2,...". -1 with the reason in d. */
int sweep_vary(struct sweep *s, const char *arg, struct pm_diag *d);
/* Builds and checks every point of this shard: bad input is found before
 * any run. -1 with the reason in d. */
int sweep_setup(struct sweep *s, struct pm_diag *d);
/* The inputs of the sweep sweep_setup prepared, for sweep_stream_start
 * and sweep_out's HTML; NULL without s->base. */
const struct run_inputs *sweep_inputs(const struct sweep *s);
/* Runs the points and adds their rows, in point order as they complete,
 * to st (written out as they come), or else to o (o->format set; kept).
 * -1 with the reason in d. */
int sweep_run(struct sweep *s, struct sweep_out *o, struct sweep_stream *st, struct pm_diag *d);
void sweep_free(struct sweep *s);

#endif
