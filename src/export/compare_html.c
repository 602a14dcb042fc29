// SPDX-License-Identifier: GPL-2.0-only
/* The comparison as one self-contained HTML page (src/export/html.h):
 * inline CSS and SVG, no external asset, so it can be mailed or archived
 * as a single file. The two tables of the text report (figures, and
 * figures relative to the baseline) with the seed's blocks as column
 * groups, then charts: power against throughput with the Pareto front,
 * C-state residency, busy frequency and the spread of the runs. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "compare_html.h"
#include "html.h"

static const char *const block_title[CMP_NBLOCKS] = {
	[CMP_BLOCK_PERF] = "Throughput, latency and power",
	[CMP_BLOCK_IDLE] = "P-state and C-state (turbostat)",
	[CMP_BLOCK_UTIL] = "CPU utilisation (/proc/stat)",
};

static int block_size(const struct cmp_set *s, int b)
{
	int m, n = 0;

	for (m = 0; m < s->nmetrics; m++)
		n += (int)s->metric[m].block == b;
	return n;
}

static void table(FILE *out, const struct cmp_set *s, int rel)
{
	char buf[CMP_CELL_MAX];
	int b, m, p;

	fputs("<div class=\"table\"><table>\n<tr><th rowspan=\"2\">Profile</th>", out);
	for (b = 0; b < CMP_NBLOCKS; b++)
		fprintf(out, "<th class=\"blk\" colspan=\"%d\">%s</th>", block_size(s, b), block_title[b]);
	fputs("</tr>\n<tr>", out);
	for (b = 0; b < CMP_NBLOCKS; b++)
		for (m = 0; m < s->nmetrics; m++)
			if ((int)s->metric[m].block == b) {
				fputs("<th>", out);
				html_escape(out, s->metric[m].head);
				if (s->metric[m].unit[0]) {
					fputs("<br>", out);
					html_escape(out, s->metric[m].unit);
				}
				fputs("</th>", out);
			}
	fputs("</tr>\n", out);
	for (p = 0; p < s->nprofiles; p++) {
		fprintf(out, "<tr%s><th class=\"name\">", p == s->baseline ? " class=\"base\"" : "");
		html_escape(out, s->profile[p].name);
		fputs("</th>", out);
		for (b = 0; b < CMP_NBLOCKS; b++)
			for (m = 0; m < s->nmetrics; m++) {
				size_t n;
				int ns;

				if ((int)s->metric[m].block != b)
					continue;
				cmp_cell(s, p, m, rel, buf, sizeof(buf));
				n = strlen(buf);
				while (n && buf[n - 1] == ' ')
					buf[--n] = '\0';
				ns = n > 2 && buf[n - 1] == '~';
				if (ns)
					buf[n - 2] = '\0';
				fprintf(out, "<td%s>", ns ? " class=\"ns\"" : "");
				html_escape(out, buf);
				fputs(ns ? " ~</td>" : "</td>", out);
			}
		fputs("</tr>\n", out);
	}
	fputs("</table></div>\n", out);
}

static int find_metric(const struct cmp_set *s, enum cmp_what what)
{
	for (int m = 0; m < s->nmetrics; m++)
		if (s->metric[m].what == what)
			return m;
	return -1;
}

static double mean_of(const struct cmp_set *s, int p, int m)
{
	struct cmp_summary sum;

	cmp_summarize(s, p, m, &sum);
	return sum.mean;
}

/* The charts: power against throughput with the Pareto front, C-state
 * residency, busy frequency and the spread of the runs' throughput. The
 * figures hold no time per P-state, so the frequency chart is turbostat's
 * Bzy_MHz per profile rather than a time-at-frequency breakdown. */
static int charts(struct html *h, const struct cmp_set *s)
{
	int np = s->nprofiles, thr = find_metric(s, CMP_THROUGHPUT);
	int pow = find_metric(s, CMP_POWER), freq = find_metric(s, CMP_FREQ);
	int nres = 0, rc = -1;
	struct html_point *pts = calloc((size_t)np, sizeof(*pts));
	const char **names = calloc((size_t)np, sizeof(*names));
	const char **series = calloc((size_t)s->nmetrics, sizeof(*series));
	double *res = calloc((size_t)np * (size_t)s->nmetrics, sizeof(*res));
	double *runs = calloc((size_t)np * (size_t)s->nruns, sizeof(*runs));
	double *mhz = calloc((size_t)np, sizeof(*mhz));
	int *counts = calloc((size_t)np, sizeof(*counts));
	char ylabel[RESULT_NAME_MAX + 16], cap[RESULT_NAME_MAX + 64];

	if (!pts || !names || !series || !res || !runs || !mhz || !counts || thr < 0 || pow < 0 ||
	    freq < 0)
		goto out;
	for (int m = 0; m < s->nmetrics; m++)
		if (s->metric[m].what == CMP_RESIDENCY)
			series[nres++] = s->metric[m].head;
	for (int p = 0; p < np; p++) {
		names[p] = s->profile[p].name;
		pts[p] = (struct html_point){ s->profile[p].name, mean_of(s, p, pow), mean_of(s, p, thr) };
		for (int m = 0, k = 0; m < s->nmetrics; m++)
			if (s->metric[m].what == CMP_RESIDENCY)
				res[p * nres + k++] = mean_of(s, p, m);
		memcpy(runs + (size_t)p * (size_t)s->nruns, cmp_samples(s, p, thr),
		       (size_t)s->nruns * sizeof(*runs));
		counts[p] = s->nruns;
		mhz[p] = mean_of(s, p, freq);
	}
	snprintf(ylabel, sizeof(ylabel), "throughput (%s)", s->unit[0] ? s->unit : "work");
	html_heading(h, "Charts");
	html_scatter(h, "Power against throughput (mean per profile; dashed: Pareto front)",
		     "power (W)", ylabel, np, pts, true);
	html_stacked(h, "C-state residency (% of CPU time, mean per profile)", np, names, nres,
		     series, res);
	html_bars(h, "CPU frequency while busy (turbostat Bzy_MHz, mean per profile)", "MHz", np,
		  names, mhz);
	snprintf(cap, sizeof(cap), "Throughput of each run (%s)", s->unit[0] ? s->unit : "work");
	html_spread(h, cap, s->unit, np, names, counts, runs);
	rc = 0;
out:
	free(pts);
	free(names);
	free(series);
	free(res);
	free(runs);
	free(mhz);
	free(counts);
	return rc;
}

static const char css[] =
	"table{font-size:90%}\n"
	"td{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	"th.name{text-align:left;background:#f7f7f7}\n"
	"th.blk{background:#dde}tr.base th.name{font-weight:bold}\n"
	"td.ns{color:#888}\n";

int cmp_write_html(FILE *out, const struct cmp_set *s)
{
	char d[160], title[MACHINE_NAME_MAX + RESULT_NAME_MAX + 32];
	struct html *h;
	int p, rc;

	snprintf(title, sizeof(title), "pmlab compare: %s, %s", s->machine, s->workload);
	h = html_begin_styled(out, title, css);
	if (!h)
		return -1;
	fputs("<p>Machine <b>", out);
	html_escape(out, s->machine);
	fprintf(out, "</b> (%d CPUs), workload <b>", s->ncpus);
	html_escape(out, s->workload);
	cmp_duration_text(s, d, sizeof(d));
	fprintf(out, "</b>; %d run%s %s, seed%s %" PRIu64, s->nruns,
		s->nruns == 1 ? "" : "s", d, s->nruns == 1 ? "" : "s", s->seed);
	if (s->nruns > 1)
		fprintf(out, "..%" PRIu64 ".</p>\n<p>Mean &plusmn; 95 %% confidence interval "
			"(Student t). ", s->seed + (uint64_t)s->nruns - 1);
	else
		fputs(".</p>\n<p>One run per profile: no intervals, no significance test. ", out);
	fputs("Latency: the mean, p50 and p99 of the workload's own latency; PkgWatt: cores and "
	      "uncore (RAPL's package); Power: the whole machine; Energy: the whole machine's per "
	      "unit of work; Busy%: time in C0 (turbostat); Pkg %all_idle: every core of the "
	      "package idle.</p>\n", out);
	if (s->inputs)
		html_inputs(h, s->inputs);
	fputs("<ul>\n", out);
	for (p = 0; p < s->nprofiles; p++) {
		const struct cmp_profile *e = &s->profile[p];

		fputs("<li><b>", out);
		html_escape(out, e->name);
		fputs("</b>: cpufreq ", out);
		html_escape(out, e->cpufreq);
		fputs(", cpuidle ", out);
		html_escape(out, e->cpuidle);
		if (e->note[0]) {
			fputs("; ", out);
			html_escape(out, e->note);
		}
		if (e->skipped[0]) {
			fputs("<details><summary>not modelled</summary>", out);
			html_escape(out, e->skipped);
			fputs("</details>", out);
		}
		fputs("</li>\n", out);
	}
	fputs("</ul>\n", out);
	html_heading(h, "Figures");
	table(out, s, 0);
	fputs("<h2>Relative to the baseline, ", out);
	html_escape(out, s->profile[s->baseline].name);
	fputs("</h2>\n<p>Each figure divided by the baseline's mean, percentages as points above "
	      "or below it", out);
	if (s->nruns > 1)
		fputs("; grey with ~: not significantly different from the baseline (Welch's t-test, "
		      "p &ge; 0.05)", out);
	fputs("; -: the baseline's mean is 0.</p>\n", out);
	table(out, s, 1);
	rc = charts(h, s);
	if (html_end(h) < 0)
		rc = -1;
	return rc;
}
