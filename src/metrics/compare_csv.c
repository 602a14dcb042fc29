// SPDX-License-Identifier: GPL-2.0-only
/* The comparison as CSV: one row per run ("run", numbered from 1, with
 * its seed) with the figures, then
 * one row per profile ("summary") with, for every figure, the mean, the
 * 95 % interval's half-width, the ratio to the baseline's mean and the
 * p-value of Welch's test against the baseline. Cells that do not apply
 * (a run's summary columns, intervals of a single run, the baseline's own
 * test) are empty. */
#include <inttypes.h>
#include <string.h>

#include "compare.h"
#include "inputs.h"
#include "result_writers.h"

static void str(FILE *out, const char *s, int first)
{
	if (!first)
		fputc(',', out);
	result_csv_quote(out, s, strlen(s));
}

static void num(FILE *out, double v)
{
	char b[RESULT_NUM_MAX];

	fprintf(out, ",%s", result_fmt_num(b, sizeof(b), v, -10));
}

static void header(FILE *out, const struct cmp_set *s)
{
	static const char *const suffix[] = { "", "_ci95", "_vs_baseline", "_p_welch" };
	char col[CMP_KEY_MAX + 16];
	int m, k;

	fputs("kind,profile,cpufreq,cpuidle,run,seed,throughput_unit", out);
	for (m = 0; m < s->nmetrics; m++)
		for (k = 0; k < 4; k++) {
			snprintf(col, sizeof(col), "%s%s", s->metric[m].key, suffix[k]);
			str(out, col, 0);
		}
	fputc('\n', out);
}

static void lead(FILE *out, const struct cmp_set *s, const char *kind, int p)
{
	str(out, kind, 1);
	str(out, s->profile[p].name, 0);
	str(out, s->profile[p].cpufreq, 0);
	str(out, s->profile[p].cpuidle, 0);
}

int cmp_write_csv(FILE *out, const struct cmp_set *s)
{
	struct cmp_summary sum;
	int p, r, m;

	if (s->inputs)
		inputs_write_csv(out, s->inputs);
	header(out, s);
	for (p = 0; p < s->nprofiles; p++)
		for (r = 0; r < s->nruns; r++) {
			lead(out, s, "run", p);
			fprintf(out, ",%d,%" PRIu64, r + 1, s->seed + (uint64_t)r);
			str(out, s->unit, 0);
			for (m = 0; m < s->nmetrics; m++) {
				num(out, cmp_samples(s, p, m)[r]);
				fputs(",,,", out);
			}
			fputc('\n', out);
		}
	for (p = 0; p < s->nprofiles; p++) {
		lead(out, s, "summary", p);
		fputs(",,", out);
		str(out, s->unit, 0);
		for (m = 0; m < s->nmetrics; m++) {
			cmp_summarize(s, p, m, &sum);
			num(out, sum.mean);
			if (s->nruns > 1)
				num(out, sum.ci);
			else
				fputc(',', out);
			if (sum.has_ratio)
				num(out, sum.ratio);
			else
				fputc(',', out);
			if (sum.p >= 0)
				num(out, sum.p);
			else
				fputc(',', out);
		}
		fputc('\n', out);
	}
	return ferror(out) ? -1 : 0;
}
