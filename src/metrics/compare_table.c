// SPDX-License-Identifier: GPL-2.0-only
/* The comparison as the seed's mail thread prints it: one table per block
 * (throughput/latency/power, frequency and C-states, utilisation), a row
 * per profile, "|" between columns and a rule under every row; then the
 * same blocks relative to the baseline, with '~' where the difference is
 * not significant. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "result_writers.h"

static const char *const block_title[CMP_NBLOCKS] = {
	[CMP_BLOCK_PERF] = "Throughput, latency and power",
	[CMP_BLOCK_IDLE] = "P-state and C-state (turbostat)",
	[CMP_BLOCK_UTIL] = "CPU utilisation (/proc/stat, as sar)",
};

/* Columns on a terminal: UTF-8 continuation bytes take none ("±"). */
static int width(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static void pad(FILE *out, int n)
{
	while (n-- > 0)
		fputc(' ', out);
}

static void right(FILE *out, const char *s, int w)
{
	pad(out, w - width(s));
	fputs(s, out);
}

static void center(FILE *out, const char *s, int w)
{
	int gap = w - width(s);

	pad(out, gap - gap / 2);
	fputs(s, out);
	pad(out, gap / 2);
}

static int label_width(const struct cmp_set *s)
{
	int w = (int)strlen("Profile"), p;

	for (p = 0; p < s->nprofiles; p++)
		if (width(s->profile[p].name) > w)
			w = width(s->profile[p].name);
	return w;
}

static void rule(FILE *out, int total)
{
	int i;

	fputc(' ', out);
	for (i = 0; i < total; i++)
		fputc('-', out);
	fputc('\n', out);
}

static void block_lines(FILE *out, const struct cmp_set *s, enum cmp_block blk, int rel, int *w)
{
	char buf[CMP_CELL_MAX];
	int lw = label_width(s), total = lw + 1, m, p;

	for (m = 0; m < s->nmetrics; m++) {
		w[m] = 0;
		if (s->metric[m].block != blk)
			continue;
		w[m] = width(s->metric[m].head);
		if (width(s->metric[m].unit) > w[m])
			w[m] = width(s->metric[m].unit);
		for (p = 0; p < s->nprofiles; p++) {
			cmp_cell(s, p, m, rel, buf, sizeof(buf));
			if (width(buf) > w[m])
				w[m] = width(buf);
		}
		total += w[m] + 3;
	}
	fprintf(out, "\n%s\n ", block_title[blk]);
	pad(out, lw);
	for (m = 0; m < s->nmetrics; m++)
		if (w[m]) {
			fputs(" | ", out);
			center(out, s->metric[m].head, w[m]);
		}
	fprintf(out, "\n %-*s", lw, "Profile");
	for (m = 0; m < s->nmetrics; m++)
		if (w[m]) {
			fputs(" | ", out);
			center(out, s->metric[m].unit, w[m]);
		}
	fputc('\n', out);
	rule(out, total);
	for (p = 0; p < s->nprofiles; p++) {
		fputc(' ', out);
		fputs(s->profile[p].name, out);
		pad(out, lw - width(s->profile[p].name));
		for (m = 0; m < s->nmetrics; m++)
			if (w[m]) {
				fputs(" | ", out);
				cmp_cell(s, p, m, rel, buf, sizeof(buf));
				right(out, buf, w[m]);
			}
		fputc('\n', out);
		rule(out, total);
	}
}

/* Copies text without the spaces that centring leaves at line ends. */
static void put_trimmed(FILE *out, const char *text, size_t len)
{
	size_t i, start = 0;

	for (i = 0; i <= len; i++) {
		size_t end = i;

		if (i < len && text[i] != '\n')
			continue;
		while (end > start && text[end - 1] == ' ')
			end--;
		fwrite(text + start, 1, end - start, out);
		if (i < len)
			fputc('\n', out);
		start = i + 1;
	}
}

static int block(FILE *out, const struct cmp_set *s, enum cmp_block blk, int rel)
{
	int *w = calloc((size_t)s->nmetrics, sizeof(*w));
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (!w || !mem) {
		if (mem)
			fclose(mem);
		free(text);
		free(w);
		return -1;
	}
	block_lines(mem, s, blk, rel, w);
	if (fclose(mem) != 0) {
		free(text);
		free(w);
		return -1;
	}
	put_trimmed(out, text, len);
	free(text);
	free(w);
	return 0;
}

int cmp_write_table(FILE *out, const struct cmp_set *s)
{
	char d[160];
	int b, p, rc = 0, skipped = 0;

	fprintf(out, "pmlab compare: machine %s (%d CPUs), workload %s\n", s->machine, s->ncpus,
		s->workload);
	cmp_duration_text(s, d, sizeof(d));
	fprintf(out, "%d run%s %s, seed%s %" PRIu64, s->nruns,
		s->nruns == 1 ? "" : "s", d, s->nruns == 1 ? "" : "s", s->seed);
	if (s->nruns > 1)
		fprintf(out, "..%" PRIu64 "; mean \u00b1 95 %% confidence interval (Student t)",
			s->seed + (uint64_t)s->nruns - 1);
	fprintf(out, "\nCPU freq: turbostat's Bzy_MHz (average clock while in C0); "
		"Pkg %%idle: all cores of the package idle\n");
	fprintf(out, "\nProfiles\n");
	for (p = 0; p < s->nprofiles; p++) {
		const struct cmp_profile *e = &s->profile[p];

		fprintf(out, "  %s", e->name);
		pad(out, label_width(s) - width(e->name));
		fprintf(out, "  cpufreq %s, cpuidle %s%s%s\n", e->cpufreq, e->cpuidle,
			e->note[0] ? "; " : "", e->note);
		skipped |= e->skipped[0] != '\0';
	}
	if (skipped)
		fprintf(out, "(--format json and html list the options not modelled)\n");
	for (b = 0; b < CMP_NBLOCKS; b++)
		rc |= block(out, s, (enum cmp_block)b, 0);

	fprintf(out, "\n\nRelative to the baseline, %s (its mean = 1.000; percentages as points "
		"above or below it)\n", s->profile[s->baseline].name);
	if (s->nruns > 1)
		fprintf(out, "~ : not significantly different from the baseline "
			"(Welch's t-test, p >= 0.05); - : the baseline's mean is 0\n");
	else
		fprintf(out, "one run per profile: no intervals, no significance test; "
			"- : the baseline's mean is 0\n");
	for (b = 0; b < CMP_NBLOCKS; b++)
		rc |= block(out, s, (enum cmp_block)b, 1);
	return rc || ferror(out) ? -1 : 0;
}
