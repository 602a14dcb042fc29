// SPDX-License-Identifier: GPL-2.0-only
/* Figures are the writers' own (metrics/result.h), averaged over a
 * group's runs, so the page agrees with the table, CSV and JSON. */
#include "html_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../metrics/histogram.h"
#include "../metrics/result_writers.h"
#include "html.h"

#define CELL 64

static double mean(const struct html_group *g, double (*f)(const struct run_result *))
{
	double s = 0;
	for (int i = 0; i < g->nruns; i++)
		s += f(g->runs[i]);
	return g->nruns ? s / g->nruns : 0;
}

/* %.*g below 10^digits, whole numbers above (46853, not 4.685e+04), and 0
 * for what is not a number: a page never shows nan or an exponent. */
static const char *fmt(char *buf, size_t size, double v, int digits)
{
	if (!isfinite(v))
		v = 0;
	if (fabs(v) >= pow(10, digits))
		snprintf(buf, size, "%.0f", v);
	else if (v != 0 && fabs(v) < 1e-3)
		snprintf(buf, size, "%.6f", v);
	else
		snprintf(buf, size, "%.*g", digits, v);
	return buf;
}

static double throughput(const struct run_result *r) { return r->throughput; }
static double latency_ms(const struct run_result *r) { return hist_mean(&r->latency) / 1e6; }
static double duration_s(const struct run_result *r) { return (double)r->duration_ns * 1e-9; }

static void summary(struct html *h, int ng, const struct html_group *g)
{
	static const char *const head[] = { "configuration", "runs", "throughput", "unit",
					    "latency (ms)", "power (W)", "PkgWatt (W)", "energy (J)",
					    "Avg_MHz", "Busy%", "Bzy_MHz", "duration (s)" };
	enum { NC = sizeof(head) / sizeof(head[0]) };
	char (*cell)[CELL] = calloc((size_t)ng * NC, CELL);
	const char **cells = calloc((size_t)ng * NC, sizeof(*cells));
	if (!cell || !cells)
		goto out;
	for (int i = 0; i < ng; i++) {
		const struct run_result *r0 = g[i].runs[0];
		double v[] = { mean(&g[i], throughput), mean(&g[i], latency_ms),
			       mean(&g[i], result_power_w), mean(&g[i], result_package_power_w),
			       mean(&g[i], result_energy_j), mean(&g[i], result_avg_mhz),
			       mean(&g[i], result_busy_pct), mean(&g[i], result_bzy_mhz),
			       mean(&g[i], duration_s) };
		char (*row)[CELL] = &cell[i * NC];
		snprintf(row[0], CELL, "%s", g[i].label);
		snprintf(row[1], CELL, "%d", g[i].nruns);
		snprintf(row[3], CELL, "%s", r0->throughput_unit);
		int at[] = { 2, 4, 5, 6, 7, 8, 9, 10, 11 };
		for (size_t k = 0; k < sizeof(at) / sizeof(at[0]); k++)
			fmt(row[at[k]], CELL, v[k], 4);
		for (int c = 0; c < NC; c++)
			cells[i * NC + c] = row[c];
	}
	html_table(h, "Summary (means over each configuration's runs)", NC, head, ng, cells);
out:
	free(cell);
	free(cells);
}

/* The workload's own figures (rt-app's misses, replay's trace figures),
 * from the first run of each configuration. */
static void extras(struct html *h, int ng, const struct html_group *g)
{
	const struct run_result *r0 = g[0].runs[0];
	if (r0->nextra == 0)
		return;
	int nc = ng + 2;
	const char **head = calloc((size_t)nc, sizeof(*head));
	const char **cells = calloc((size_t)(r0->nextra * nc), sizeof(*cells));
	char (*num)[CELL] = calloc((size_t)(r0->nextra * ng), CELL);
	if (!head || !cells || !num)
		goto out;
	head[0] = "figure";
	head[1] = "unit";
	for (int i = 0; i < ng; i++)
		head[i + 2] = g[i].label;
	for (int e = 0; e < r0->nextra; e++) {
		cells[e * nc] = r0->extra[e].name;
		cells[e * nc + 1] = r0->extra[e].unit;
		for (int i = 0; i < ng; i++) {
			const struct run_result *r = g[i].runs[0];
			double v = e < r->nextra ? r->extra[e].value : 0;
			cells[e * nc + 2 + i] = fmt(num[e * ng + i], CELL, v, 6);
		}
	}
	html_table(h, "Workload figures (first run)", nc, head, r0->nextra, cells);
out:
	free(head);
	free(cells);
	free(num);
}

static void power_throughput(struct html *h, int ng, const struct html_group *g)
{
	struct html_point *pts = calloc((size_t)ng, sizeof(*pts));
	if (!pts)
		return;
	for (int i = 0; i < ng; i++)
		pts[i] = (struct html_point){ g[i].label, mean(&g[i], result_power_w),
					      mean(&g[i], throughput) };
	char ylabel[RESULT_NAME_MAX + 16];
	snprintf(ylabel, sizeof(ylabel), "throughput (%s)", g[0].runs[0]->throughput_unit);
	html_scatter(h, "Power against throughput (Pareto front dashed: the configurations "
		     "no other beats on both)", "power (W)", ylabel, ng, pts, true);
	free(pts);
}

/* Shares of CPU time: C0 then each C-state, summed over CPUs (one CPU
 * when cpu >= 0) and runs. */
static void residency_of(const struct run_result *r, int cpu, double *v)
{
	int ns = r->m->ncstates;
	for (int c = 0; c < r->ncpus; c++) {
		if (cpu >= 0 && c != cpu)
			continue;
		v[0] += (double)r->cpus[c].c0_ns;
		for (int s = 0; s < ns; s++)
			v[1 + s] += (double)r->cpus[c].cstate_ns[s];
	}
}

static void residency(struct html *h, int ng, const struct html_group *g)
{
	const struct machine *m = g[0].runs[0]->m;
	int ns = 1 + m->ncstates, ncpu = g[0].runs[0]->ncpus;
	/* One configuration: its CPUs one by one say more than one bar. */
	int nbars = ng > 1 ? ng : ncpu;
	const char **series = calloc((size_t)ns, sizeof(*series));
	const char **bars = calloc((size_t)nbars, sizeof(*bars));
	char (*names)[CELL] = calloc((size_t)nbars, CELL);
	double *v = calloc((size_t)(nbars * ns), sizeof(*v));
	if (!series || !bars || !names || !v)
		goto out;
	series[0] = "C0";
	for (int s = 1; s < ns; s++)
		series[s] = m->cstates[s - 1].name;
	for (int b = 0; b < nbars; b++) {
		const struct html_group *gr = ng > 1 ? &g[b] : &g[0];
		for (int i = 0; i < gr->nruns; i++)
			residency_of(gr->runs[i], ng > 1 ? -1 : b, &v[b * ns]);
		if (ng > 1)
			bars[b] = gr->label;
		else
			bars[b] = (snprintf(names[b], CELL, "CPU %d", b), names[b]);
	}
	html_stacked(h, ng > 1 ? "C-state residency (share of CPU time)"
			       : "C-state residency per CPU (share of its time)",
		     nbars, bars, ns, series, v);
out:
	free(series);
	free(bars);
	free(names);
	free(v);
}

/* The frequencies of every CPU type of the machine, ascending, distinct. */
static int machine_khz(const struct machine *m, uint32_t *out)
{
	int n = 0;
	for (int t = 0; t < machine_ntypes(m); t++) {
		struct cpu_type ty;
		machine_type_get(m, t, &ty);
		for (int p = 0; p < ty.npstates; p++) {
			int i = n;
			while (i > 0 && out[i - 1] > ty.pstates[p].khz)
				i--;
			if (i > 0 && out[i - 1] == ty.pstates[p].khz)
				continue;
			memmove(&out[i + 1], &out[i], (size_t)(n - i) * sizeof(*out));
			out[i] = ty.pstates[p].khz;
			n++;
		}
	}
	return n;
}

static int khz_index(const uint32_t *khz, int n, uint32_t f)
{
	for (int i = 0; i < n; i++)
		if (khz[i] == f)
			return i;
	return -1;
}

/* Share of C0 time at each frequency (a hybrid machine's types have
 * tables of their own); only the frequencies used appear. */
static void frequency(struct html *h, int ng, const struct html_group *g)
{
	const struct machine *m = g[0].runs[0]->m;
	uint32_t khz[MACHINE_MAX_TYPES * MACHINE_MAX_PSTATES];
	int np = machine_khz(m, khz);
	double *all = calloc((size_t)(ng * np), sizeof(*all));
	double *v = calloc((size_t)(ng * np), sizeof(*v));
	const char **series = calloc((size_t)np, sizeof(*series));
	const char **bars = calloc((size_t)ng, sizeof(*bars));
	char (*names)[CELL] = calloc((size_t)np, CELL);
	if (!all || !v || !series || !bars || !names)
		goto out;
	for (int i = 0; i < ng; i++) {
		bars[i] = g[i].label;
		for (int k = 0; k < g[i].nruns; k++) {
			const struct run_result *r = g[i].runs[k];
			for (int c = 0; c < r->ncpus; c++)
				for (int p = 0; p < result_cpu_npstates(r, c) && r->cpus[c].pstate_ns;
				     p++) {
					int at = khz_index(khz, np, result_cpu_pstate_khz(r, c, p));
					if (at >= 0)
						all[i * np + at] += (double)r->cpus[c].pstate_ns[p];
				}
		}
	}
	int used = 0;
	for (int p = 0; p < np; p++) {
		bool any = false;
		for (int i = 0; i < ng; i++)
			any |= all[i * np + p] > 0;
		if (!any)
			continue;
		snprintf(names[used], CELL, "%.0f MHz", khz[p] / 1000.0);
		series[used] = names[used];
		for (int i = 0; i < ng; i++)
			v[i * np + used] = all[i * np + p];
		used++;
	}
	if (used) {
		/* Rows of `used` values each. */
		for (int i = 1; i < ng; i++)
			memmove(&v[i * used], &v[i * np], (size_t)used * sizeof(*v));
		html_stacked(h, "Time at each frequency (share of C0 time)", ng, bars, used, series,
			     v);
	}
out:
	free(all);
	free(v);
	free(series);
	free(bars);
	free(names);
}

static void spread(struct html *h, int ng, const struct html_group *g, const char *what,
		   const char *unit, double (*f)(const struct run_result *))
{
	int total = 0;
	for (int i = 0; i < ng; i++)
		total += g[i].nruns;
	double *v = calloc((size_t)total, sizeof(*v));
	int *counts = calloc((size_t)ng, sizeof(*counts));
	const char **labels = calloc((size_t)ng, sizeof(*labels));
	if (!v || !counts || !labels)
		goto out;
	int k = 0;
	for (int i = 0; i < ng; i++) {
		labels[i] = g[i].label;
		counts[i] = g[i].nruns;
		for (int j = 0; j < g[i].nruns; j++)
			v[k++] = f(g[i].runs[j]);
	}
	char caption[128];
	snprintf(caption, sizeof(caption), "%s of each run (dots) and the mean (tick)", what);
	html_spread(h, caption, unit, ng, labels, counts, v);
out:
	free(v);
	free(counts);
	free(labels);
}

int html_report(FILE *out, const char *title, const char *note, const struct run_inputs *in,
		int ngroups, const struct html_group *groups)
{
	if (ngroups < 1 || groups[0].nruns < 1)
		return -1;
	struct html *h = html_begin(out, title);
	if (!h)
		return -1;
	const struct run_result *r0 = groups[0].runs[0];
	char line[512];
	snprintf(line, sizeof(line), "Machine %s (%d CPUs), workload %s, idle governor %s.",
		 r0->machine, r0->ncpus, r0->workload, r0->cpuidle);
	html_text(h, line);
	if (note)
		html_text(h, note);
	if (in)
		html_inputs(h, in);
	summary(h, ngroups, groups);
	extras(h, ngroups, groups);
	html_heading(h, "Power and throughput");
	power_throughput(h, ngroups, groups);
	html_heading(h, "Idle states and frequency");
	residency(h, ngroups, groups);
	frequency(h, ngroups, groups);
	html_heading(h, "Run to run");
	char unit[RESULT_NAME_MAX + 16];
	snprintf(unit, sizeof(unit), "throughput (%s)", r0->throughput_unit);
	spread(h, ngroups, groups, "Throughput", unit, throughput);
	spread(h, ngroups, groups, "Power", "power (W)", result_power_w);
	return html_end(h);
}
