/* The comparison as one self-contained HTML page: inline CSS, no script,
 * no external asset, so it can be mailed or archived as a single file.
 * The two tables of the text report (figures, and figures relative to the
 * baseline) with the seed's blocks as column groups, and bars of the
 * headline figures relative to the baseline. */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "compare.h"
#include "result_writers.h"

static const char *const block_title[CMP_NBLOCKS] = {
	[CMP_BLOCK_PERF] = "Throughput, latency and power",
	[CMP_BLOCK_IDLE] = "P-state and C-state (turbostat)",
	[CMP_BLOCK_UTIL] = "CPU utilisation (/proc/stat)",
};

static void esc(FILE *out, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
}

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

	fputs("<table>\n<tr><th rowspan=\"2\">Profile</th>", out);
	for (b = 0; b < CMP_NBLOCKS; b++)
		fprintf(out, "<th class=\"blk\" colspan=\"%d\">%s</th>", block_size(s, b), block_title[b]);
	fputs("</tr>\n<tr>", out);
	for (b = 0; b < CMP_NBLOCKS; b++)
		for (m = 0; m < s->nmetrics; m++)
			if ((int)s->metric[m].block == b) {
				fputs("<th>", out);
				esc(out, s->metric[m].head);
				if (s->metric[m].unit[0]) {
					fputs("<br>", out);
					esc(out, s->metric[m].unit);
				}
				fputs("</th>", out);
			}
	fputs("</tr>\n", out);
	for (p = 0; p < s->nprofiles; p++) {
		fprintf(out, "<tr%s><th class=\"name\">", p == s->baseline ? " class=\"base\"" : "");
		esc(out, s->profile[p].name);
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
				esc(out, buf);
				fputs(ns ? " ~</td>" : "</td>", out);
			}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

/* Bars of the first block's figures relative to the baseline, scaled to
 * the largest ratio of each figure. */
static void bars(FILE *out, const struct cmp_set *s)
{
	char a[RESULT_NUM_MAX];
	struct cmp_summary sum;
	int m, p;

	fputs("<div class=\"charts\">\n", out);
	for (m = 0; m < s->nmetrics; m++) {
		double top = 0;

		if (s->metric[m].block != CMP_BLOCK_PERF)
			continue;
		for (p = 0; p < s->nprofiles; p++) {
			cmp_summarize(s, p, m, &sum);
			if (sum.has_ratio && fabs(sum.ratio) > top)
				top = fabs(sum.ratio);
		}
		fputs("<figure><figcaption>", out);
		esc(out, s->metric[m].head);
		if (s->metric[m].unit[0]) {
			fputc(' ', out);
			esc(out, s->metric[m].unit);
		}
		fputs(" relative to the baseline</figcaption>\n", out);
		for (p = 0; p < s->nprofiles; p++) {
			double w;

			cmp_summarize(s, p, m, &sum);
			w = sum.has_ratio && top > 0 ? 100 * fabs(sum.ratio) / top : 0;
			fputs("<div class=\"row\"><span class=\"lbl\">", out);
			esc(out, s->profile[p].name);
			fprintf(out, "</span><span class=\"bar%s\" style=\"width:%s%%\"></span>",
				sum.not_significant ? " ns" : "", result_fmt_num(a, sizeof(a), w * 0.6, 1));
			fprintf(out, "<span class=\"val\">%s</span></div>\n",
				sum.has_ratio ? result_fmt_num(a, sizeof(a), sum.ratio, 3) : "-");
		}
		fputs("</figure>\n", out);
	}
	fputs("</div>\n", out);
}

int cmp_write_html(FILE *out, const struct cmp_set *s)
{
	char d[RESULT_NUM_MAX];
	int p;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>pmlab compare: ", out);
	esc(out, s->machine);
	fputs(", ", out);
	esc(out, s->workload);
	fputs("</title>\n<style>\n"
	      "body{font-family:sans-serif;margin:2em;color:#222}\n"
	      "table{border-collapse:collapse;margin:1em 0;font-size:90%}\n"
	      "th,td{border:1px solid #bbb;padding:.25em .6em}\n"
	      "td{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	      "th{background:#eee}th.name{text-align:left;background:#f7f7f7}\n"
	      "th.blk{background:#dde}tr.base th.name{font-weight:bold}\n"
	      "td.ns{color:#888}\n"
	      ".charts{display:flex;flex-wrap:wrap;gap:2em}\n"
	      "figure{margin:0;min-width:24em}figcaption{font-weight:bold;margin-bottom:.4em}\n"
	      ".row{display:flex;align-items:center;margin:.15em 0;font-size:85%}\n"
	      ".lbl{width:16em;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}\n"
	      ".bar{display:inline-block;height:1em;background:#4a7bb7;margin-right:.4em}\n"
	      ".bar.ns{background:#aab}\n"
	      "</style>\n</head>\n<body>\n<h1>pmlab compare</h1>\n<p>Machine <b>", out);
	esc(out, s->machine);
	fprintf(out, "</b> (%d CPUs), workload <b>", s->ncpus);
	esc(out, s->workload);
	fprintf(out, "</b>; %d run%s of %s s simulated per profile, seed%s %" PRIu64, s->nruns,
		s->nruns == 1 ? "" : "s", result_fmt_num(d, sizeof(d), s->duration_s, -6),
		s->nruns == 1 ? "" : "s", s->seed);
	if (s->nruns > 1)
		fprintf(out, "..%" PRIu64 ".</p>\n<p>Mean &plusmn; 95 %% confidence interval "
			"(Student t). ", s->seed + (uint64_t)s->nruns - 1);
	else
		fputs(".</p>\n<p>One run per profile: no intervals, no significance test. ", out);
	fputs("CPU freq is turbostat's Bzy_MHz (average clock while in C0); Pkg %idle: every "
	      "core of the package idle.</p>\n<ul>\n", out);
	for (p = 0; p < s->nprofiles; p++) {
		const struct cmp_profile *e = &s->profile[p];

		fputs("<li><b>", out);
		esc(out, e->name);
		fputs("</b>: cpufreq ", out);
		esc(out, e->cpufreq);
		fputs(", cpuidle ", out);
		esc(out, e->cpuidle);
		if (e->note[0]) {
			fputs("; ", out);
			esc(out, e->note);
		}
		if (e->skipped[0]) {
			fputs("<details><summary>not modelled</summary>", out);
			esc(out, e->skipped);
			fputs("</details>", out);
		}
		fputs("</li>\n", out);
	}
	fputs("</ul>\n<h2>Figures</h2>\n", out);
	table(out, s, 0);
	fputs("<h2>Relative to the baseline, ", out);
	esc(out, s->profile[s->baseline].name);
	fputs("</h2>\n<p>Each figure divided by the baseline's mean", out);
	if (s->nruns > 1)
		fputs("; grey with ~: not significantly different from the baseline (Welch's t-test, "
		      "p &ge; 0.05)", out);
	fputs("; -: the baseline's mean is 0.</p>\n", out);
	table(out, s, 1);
	bars(out, s);
	fputs("</body>\n</html>\n", out);
	return ferror(out) ? -1 : 0;
}
