// SPDX-License-Identifier: GPL-2.0-only
/* The validation model: a published experiment described by an INI file
 * of data/validation (where it was published, machine, workload, the
 * source's kernel, its setup, the calibration, one row per policy with the
 * measured figures, the measured orderings, the mechanism each ordering's
 * figure lacks when it fails, and notes), run as a comparison, and its
 * figures set against the measured ones cell by cell: relative error (%)
 * for throughput, latency, power, frequency, runtime and energy;
 * percentage points for percentages. The report is honest, not a gate:
 * large errors are data. */
#ifndef PMLAB_VALIDATION_H
#define PMLAB_VALIDATION_H

#include <stdbool.h>
#include <stdio.h>

#include "../core/diag.h"
#include "../metrics/compare.h"

#define V_MAX 48 /* rows, targets per row, sets, orderings, maps */
#define V_NAME 64
#define V_TEXT 512
#define V_NOTE 2048

struct vtarget {
	char fig[V_NAME];
	double v;
	int line;
};

struct vrow {
	char name[V_NAME];
	char policy[V_TEXT]; /* a compare profile entry */
	int line;
	int ntargets;
	struct vtarget t[V_MAX];
};

struct vkeyed {
	char key[V_NAME];
	char val[V_TEXT];
	int line;
};

struct vnote {
	char key[V_NAME];
	char val[V_NOTE];
	int line;
};

struct validation {
	const char *path;
	char name[V_NAME], seed_file[V_TEXT], machine[V_TEXT], cpus[V_NAME], workload[V_NAME];
	char cpuidle[V_NAME], cpufreq[V_NAME], baseline[V_NAME], kernel[V_NAME];
	char source[V_NOTE];  /* where the measurements were published */
	double duration;
	/* Lines of [experiment]'s keys (0: not given), for messages. */
	int line_machine, line_cpus, line_workload, line_cpufreq, line_cpuidle, line_baseline,
		line_kernel, line_duration;
	double tie_tolerance; /* % (relative figures) or points: what '~' in an ordering allows */
	double order_margin;  /* likewise: how much more '>' needs (0: any) */
	double platform_w;    /* > 0: replaces the machine's platform_w (calibration) */
	double platform_run;  /* the platform power the runs had (validation_run) */
	int runs;
	int nsetup, nsets, nmaps, nrows, norders, nnotes, nmissing;
	/* setup: --set keys the source states (not fitted); set: fitted on the baseline */
	struct vkeyed setup[V_MAX], set[V_MAX], map[V_MAX], order[V_MAX];
	struct vnote note[V_MAX];
	struct vnote missing[V_MAX]; /* FIGURE = the mechanism its failing ordering lacks */
	struct vrow row[V_MAX];
};

/* How the model did. */
struct vscore {
	double max_err, mean_err; /* over the comparable cells, mixing % and points */
	int ncells;
	int nwithin;              /* cells within 5 % (relative) or 3 points */
	int nmatch;               /* orderings reproduced */
	bool order_ok[V_MAX];
};

/* Reads and checks the experiment at path. -1 with "PATH:LINE: what" in d. */
int validation_load(struct validation *v, const char *path, struct pm_diag *d);
/* Runs it (workers processes) into set, which the caller frees with
 * cmp_free(), and notes the platform power the runs had. -1 with the
 * reason in d and *bad_input set when the data file is at fault
 * ("PATH:LINE: ..."), not the run. */
int validation_run(struct validation *v, int workers, struct cmp_set *set, bool *bad_input,
		   struct pm_diag *d);
/* The model's value of figure fig for row p; NAN when not comparable. */
double validation_model_value(const struct validation *v, const struct cmp_set *s, int p,
			      const char *fig);
/* Error of a cell: relative % or points; NAN when not comparable. */
double validation_cell_error(const char *fig, double model, double target);
/* Whether fig is a percentage (its errors are in points). */
bool validation_fig_is_points(const char *fig);
/* Whether an error is within what the summary counts as a hit: 5 % of
 * the measured value, or 3 points for percentages. */
bool validation_cell_within(const char *fig, double err);
/* The mechanism the data file names for a failing ordering of fig, or NULL. */
const char *validation_missing(const struct validation *v, const char *fig);
/* The row's target for fig, or NULL. */
const struct vtarget *validation_target(const struct validation *v, int row, const char *fig);
/* The same for the error: NULL also for the baseline row's relative
 * figures, which are 1 by definition. */
const struct vtarget *validation_scored_target(const struct validation *v, int row, const char *fig);
/* The figures of the targets, in order of first appearance; at most max. */
int validation_figures(const struct validation *v, char figs[][V_NAME], int max);
/* Row index of a row name, -1 if none. */
int validation_row(const struct validation *v, const char *name);
void validation_score(const struct validation *v, const struct cmp_set *s, struct vscore *out);

/* What the summary on top of the report keeps of one experiment. */
struct vsummary {
	char name[V_NAME];
	int ncells, nwithin, norders, nmatch;
	int nfailed;
	struct vkeyed failed[V_MAX]; /* key: figure, val: the ordering */
	bool explained[V_MAX];       /* why[k] holds the [missing] mechanism */
	char why[V_MAX][V_NOTE];
};
void validation_summarize(const struct validation *v, const struct vscore *sc,
			  struct vsummary *out);

/* validation_report.c: the markdown report: the head, the summary and
 * "where the model is not to be trusted" (both need every experiment's
 * summary), then one section per experiment. */
void validation_report_head(FILE *md);
void validation_report_summary(FILE *md, const struct vsummary *sum, int n);
void validation_report(FILE *md, const struct validation *v, const struct cmp_set *s,
		       const struct vscore *sc);

#endif
