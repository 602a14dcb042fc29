// SPDX-License-Identifier: GPL-2.0-only
/* The comparison as the seed's mail thread prints it: one table per block
 * (throughput/latency/power, frequency and C-states, utilisation), a row
 * per profile, cut into further blocks where it would not fit the width;
 * then the same blocks relative to the baseline, with '~' where the
 * difference is not significant; then a line per profile as hyperfine
 * sums up ("1.12x throughput, 1.06x power, ... vs powersave"). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "inputs.h"
#include "result_writers.h"
#include "texttable.h"

static const char *const block_title[CMP_NBLOCKS] = {
	[CMP_BLOCK_PERF] = "Throughput, latency and power",
	[CMP_BLOCK_IDLE] = "P-state and C-state (turbostat)",
	[CMP_BLOCK_UTIL] = "CPU utilisation (/proc/stat, as sar)",
};

static int label_width(const struct cmp_set *s)
{
	int w = (int)strlen("Profile"), p;

	for (p = 0; p < s->nprofiles; p++)
		if (text_cols(s->profile[p].name) > w)
			w = text_cols(s->profile[p].name);
	return w;
}

/* One block as a table that fits the width: a row per profile. */
static int block(FILE *out, const struct cmp_set *s, enum cmp_block blk, int rel)
{
	struct text_table *t = ttab_new(1, 2);
	char buf[CMP_CELL_MAX];
	int m, p, rc;

	if (!t)
		return -1;
	ttab_col(t, "Profile", NULL);
	for (m = 0; m < s->nmetrics; m++)
		if (s->metric[m].block == blk)
			ttab_col(t, s->metric[m].head, s->metric[m].unit);
	for (p = 0; p < s->nprofiles; p++) {
		ttab_cell(t, s->profile[p].name);
		for (m = 0; m < s->nmetrics; m++)
			if (s->metric[m].block == blk) {
				cmp_cell(s, p, m, rel, buf, sizeof(buf));
				ttab_cell(t, buf);
			}
	}
	fprintf(out, "\n%s\n", block_title[blk]);
	rc = ttab_write(out, t);
	ttab_free(t);
	return rc;
}

int cmp_write_table(FILE *out, const struct cmp_set *s)
{
	char d[160], line[1024];
	int b, p, rc = 0, skipped = 0;

	fprintf(out, "pmlab compare: machine %s (%d CPUs), workload %s\n", s->machine, s->ncpus,
		s->workload);
	if (s->inputs)
		inputs_write_table(out, s->inputs);
	cmp_duration_text(s, d, sizeof(d));
	snprintf(line, sizeof(line), "%d run%s %s, seed%s %" PRIu64, s->nruns,
		 s->nruns == 1 ? "" : "s", d, s->nruns == 1 ? "" : "s", s->seed);
	if (s->nruns > 1)
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 "..%" PRIu64 "; mean \u00b1 95 %% confidence interval (Student t)",
			 s->seed + (uint64_t)s->nruns - 1);
	text_wrap(out, "", line, 2);
	text_wrap(out, "", "Latency: the mean, p50 and p99 of the workload's own latency; "
		  "PkgWatt: cores and uncore (RAPL's package); Power: the whole machine; "
		  "Energy: the whole machine's per unit of work; Busy%: time in C0; "
		  "Pkg %all_idle: all cores of the package idle", 2);
	fprintf(out, "\nProfiles\n");
	for (p = 0; p < s->nprofiles; p++) {
		const struct cmp_profile *e = &s->profile[p];
		char first[512];

		/* the name padded to the longest, then its governors wrapped under themselves */
		snprintf(first, sizeof(first), "  %s%*s", e->name,
			 label_width(s) - text_cols(e->name) + 2, "");
		snprintf(line, sizeof(line), "cpufreq %s, cpuidle %s%s%s", e->cpufreq, e->cpuidle,
			 e->note[0] ? "; " : "", e->note);
		text_wrap(out, first, line, label_width(s) + 4);
		skipped |= e->skipped[0] != '\0';
	}
	if (skipped)
		fprintf(out, "(--format json and html list the options not modelled)\n");
	for (b = 0; b < CMP_NBLOCKS; b++)
		rc |= block(out, s, (enum cmp_block)b, 0);

	fprintf(out, "\n");
	snprintf(line, sizeof(line), "Relative to the baseline, %s (its mean = 1.000; percentages "
		 "as points above or below it)", s->profile[s->baseline].name);
	text_wrap(out, "", line, 2);
	if (s->nruns > 1)
		text_wrap(out, "", "~ : not significantly different from the baseline "
			  "(Welch's t-test, p >= 0.05); - : the baseline's mean is 0", 2);
	else
		text_wrap(out, "", "one run per profile: no intervals, no significance test; "
			  "- : the baseline's mean is 0", 2);
	for (b = 0; b < CMP_NBLOCKS; b++)
		rc |= block(out, s, (enum cmp_block)b, 1);

	if (s->nprofiles > 1) {
		fprintf(out, "\nSummary%s\n", s->nruns > 1 ? " ((~): not significant)" : "");
		for (p = 0; p < s->nprofiles; p++) {
			char first[512];

			if (p == s->baseline)
				continue;
			snprintf(first, sizeof(first), "  %s: ", s->profile[p].name);
			cmp_summary_line(s, p, line, sizeof(line));
			text_wrap(out, first, line, 4);
		}
	}
	return rc || ferror(out) ? -1 : 0;
}
