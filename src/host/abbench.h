// SPDX-License-Identifier: GPL-2.0-only
/* A/B benchmark of profiles on the real machine (pmlab bench). Each round
 * runs the command once under every profile, the order rotating from
 * round to round (interleaved, so drift -- heat, background load -- falls
 * on every profile alike); each run is applied, measured (wall time, RAPL
 * energy and power, Busy%, Bzy_MHz from the monitor) and the next apply
 * restores it. At the end, and on SIGINT/SIGTERM, the machine is restored
 * and a profile that was active before is applied again. Every profile is
 * resolved before anything is touched, so bad input changes nothing. */
#ifndef PMLAB_ABBENCH_H
#define PMLAB_ABBENCH_H

#include <stdbool.h>
#include <stdio.h>

#include "hostfs.h"

enum hb_metric { HB_TIME, HB_ENERGY, HB_POWER, HB_BUSY, HB_BZY, HB_NMETRICS };

struct hbench_config {
	const char *const *profiles;
	int nprofiles;
	int runs;                   /* per profile */
	int baseline;               /* index into profiles */
	char *const *argv;          /* the command */
	const char *const *dirs;    /* profile directories searched first */
	int ndirs;
	FILE *log;                  /* progress, a line per run; NULL quiet */
};

struct hbench {
	int nprofiles, runs;
	int rounds;                 /* complete rounds measured */
	double *v;                  /* [profile][metric][run]; NAN where absent */
};

/* -2 bad input, -1 runtime failure or interruption (the machine restored
 * either way; b holds the complete rounds). */
int hbench_run(struct hostfs *fs, const struct hbench_config *c, struct hbench *b,
	       struct pm_diag *d);
void hbench_free(struct hbench *b);
static inline double *hbench_samples(const struct hbench *b, int p, int m)
{
	return &b->v[((size_t)p * HB_NMETRICS + (size_t)m) * (size_t)b->runs];
}
/* The normalised table (mean ± 95 % interval, ratio to the baseline,
 * '~' where Welch's test finds no difference at 5 %), or CSV of every run. */
int hbench_write(FILE *out, const struct hbench_config *c, const struct hbench *b, bool csv);

#endif
