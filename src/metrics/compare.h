// SPDX-License-Identifier: GPL-2.0-only
/* A comparison of policies ("profiles"): every profile run N times with
 * seeds seed..seed+N-1, the figures of each run kept, then summarised per
 * profile (mean and 95 % confidence interval, Student t) and set against a
 * baseline profile (ratio of means, Welch's t-test at 5 %). The figures are
 * those of the seeds' tables: throughput, latency, power, CPU frequency,
 * C-state residency, /proc/stat utilisation and per-package idle. */
#ifndef PMLAB_COMPARE_H
#define PMLAB_COMPARE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../machine/machine.h"
#include "result.h"

struct run_inputs;

#define CMP_LEVEL 0.95 /* confidence level of the intervals */
#define CMP_ALPHA 0.05 /* significance level of the test against the baseline */
#define CMP_KEY_MAX 48

enum cmp_what {
	CMP_THROUGHPUT,  /* workload's unit */
	CMP_LATENCY,     /* mean of the workload's latency metric, ms */
	CMP_POWER,       /* whole machine, W */
	CMP_FREQ,        /* turbostat's Bzy_MHz */
	CMP_RESIDENCY,   /* arg: machine C-state, -1 for C0 */
	CMP_UTIL,        /* arg: 0 user, 1 sys, 2 iowait, 3 idle */
	CMP_PKG_IDLE,    /* arg: package; every core idle, % */
	CMP_PKG_CPU_IDLE,/* arg: package; mean idle (idle + iowait) of its CPUs, % */
	CMP_RUN_TIME,    /* simulated time the run lasted, s (a workload that ends itself) */
	CMP_ENERGY,      /* whole machine over the run, J */
	CMP_LATENCY_Q,   /* arg: quantile in per mille (500: p50, 990: p99) of the latency, ms */
	CMP_PKG_POWER,   /* the packages' power (cores + uncore: turbostat's PkgWatt), W */
	CMP_ENERGY_WORK, /* whole machine's energy per unit of work done, J */
};

/* The seed tables' three blocks. */
enum cmp_block { CMP_BLOCK_PERF, CMP_BLOCK_IDLE, CMP_BLOCK_UTIL, CMP_NBLOCKS };

struct cmp_metric {
	enum cmp_what what;
	int arg;
	enum cmp_block block;
	char key[CMP_KEY_MAX];  /* CSV column and JSON key: "power_w", "residency_C6_pct" */
	char head[CMP_KEY_MAX]; /* table heading: "Power", "C6%", "Pkg0 %all_idle" */
	char unit[CMP_KEY_MAX]; /* second heading line: "(W)"; "" for none */
	int decimals;           /* fixed; -1: four significant digits of the column */
	bool points;            /* a percentage: set against the baseline as a difference */
};

struct cmp_profile {
	char *name;    /* as given: "tuned-2.3/balanced:governor=conservative" */
	char *cpufreq; /* the frequency governor it ran */
	char *cpuidle; /* the idle governor it ran */
	char *note;    /* what the profile applied: "2 settings, 5 options not modelled", or "" */
	char *skipped; /* the options not modelled, "WHAT (WHY)" joined by "; ", or "" */
};

struct cmp_set {
	/* What was compared, for the headings. */
	char machine[MACHINE_NAME_MAX];
	char workload[RESULT_NAME_MAX];
	char unit[RESULT_NAME_MAX]; /* the workload's throughput unit */
	char work[RESULT_NAME_MAX]; /* one unit of its work: "round trip", "unit of work" */
	int ncpus;
	double duration_s;
	uint64_t seed;              /* run r of every profile used seed + r */

	int nmetrics;
	struct cmp_metric *metric;
	int nprofiles, nruns, baseline;
	struct cmp_profile *profile;
	double *v;                  /* [profile][metric][run]: a sample is contiguous */
	/* What the comparison was made from (metrics/inputs.h), written by
	 * every writer; not owned, may be NULL. */
	const struct run_inputs *inputs;
};

/* A profile's figure set against the baseline's. */
struct cmp_summary {
	double mean, ci;         /* ci: half-width, 0 with one run */
	bool has_ratio;          /* false when the baseline's mean is 0 (ratios only) */
	bool points;             /* ratio and ratio_ci are percentage points, not a ratio */
	double ratio, ratio_ci;  /* mean and ci divided by the baseline's mean; for a
				  * percentage, mean minus the baseline's mean and ci */
	double p;                /* Welch p-value; < 0 for the baseline or one run */
	bool not_significant;    /* p >= CMP_ALPHA: marked '~' */
	bool constant;           /* every run gave the same figure: no spread to show */
};

enum cmp_format { CMP_TABLE, CMP_CSV, CMP_JSON };

/* Sizes the set for machine m (its C-states and packages), nprofiles and
 * nruns, with every figure 0. -1 on OOM. */
int cmp_init(struct cmp_set *s, const struct machine *m, int nprofiles, int nruns);
void cmp_free(struct cmp_set *s);
/* Describes profile p (copies the strings; note and skipped may be NULL).
 * -1 on OOM. */
int cmp_set_profile(struct cmp_set *s, int p, const char *name, const char *cpufreq,
		    const char *cpuidle, const char *note, const char *skipped);
/* For a workload that ends its runs itself (a replayed trace, a build):
 * adds the run time and energy of each run to the first block, and the
 * headings say the runs lasted until the workload ended. Call it before
 * the first run is stored. */
void cmp_add_run_figures(struct cmp_set *s);
/* "of 10 s simulated per profile", or "per profile, each until the
 * workload ended (0.53 s simulated on average, limit 54.4 s)": how long
 * the runs were, for the headings. */
void cmp_duration_text(const struct cmp_set *s, char *buf, size_t size);
/* The workload's throughput unit ("tpm"), for the headings. */
void cmp_set_unit(struct cmp_set *s, const char *unit);
/* Figures of one run, in metric order, into out[s->nmetrics]. */
void cmp_sample(const struct cmp_set *s, const struct run_result *r, double *out);
/* The nruns figures of metric m for profile p. */
static inline double *cmp_samples(const struct cmp_set *s, int p, int m)
{
	return &s->v[((size_t)p * (size_t)s->nmetrics + (size_t)m) * (size_t)s->nruns];
}
/* Stores the figures of one run (from cmp_sample). */
void cmp_put_run(struct cmp_set *s, int p, int run, const double *figures);
void cmp_summarize(const struct cmp_set *s, int p, int m, struct cmp_summary *out);
/* Decimals to print metric m with: its own, or four significant digits of
 * the largest mean in the column. */
int cmp_decimals(const struct cmp_set *s, int m);
/* Text of one table cell: "mean ± ci" on the metric's scale (rel = 0), or
 * the ratio to the baseline's mean (rel = 1; for a percentage the
 * difference in points, "+1.23 pt") followed by two characters, " ~" when
 * not significant, so that columns align; "-" where a ratio's baseline
 * mean is 0. Only the mean with a single run. */
#define CMP_CELL_MAX 96
void cmp_cell(const struct cmp_set *s, int p, int m, int rel, char *buf, size_t size);

/* The hyperfine-like line of profile p against the baseline: "1.12x
 * throughput, 1.06x power, 0.95x energy per round trip, 0.98x p99 latency
 * vs powersave". */
void cmp_summary_line(const struct cmp_set *s, int p, char *buf, size_t size);

int cmp_write(FILE *out, const struct cmp_set *s, enum cmp_format f);
int cmp_write_table(FILE *out, const struct cmp_set *s);
int cmp_write_csv(FILE *out, const struct cmp_set *s);
int cmp_write_json(FILE *out, const struct cmp_set *s);
/* HTML: export/compare_html.h. */

#endif
