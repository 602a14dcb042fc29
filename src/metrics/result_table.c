// SPDX-License-Identifier: GPL-2.0-only
/* Human-readable report: the blocks the seeds' mail threads print
 * (throughput, latency, watts, frequency, C-state residency, sar-style
 * utilisation) with turbostat's column names, so a reader can set a pmlab
 * run beside a real one. Columns are right-aligned to the wider of their
 * header and their value. */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "result_writers.h"

#define IND "  "
#define COLW 6 /* "100.00": a percentage, or a MHz figure */

/* Column width for a header: turbostat's minimum, wider headers win. */
static int colw(const char *head)
{
	int n = (int)strlen(head);

	return n > COLW ? n : COLW;
}

static const char *num(char *buf, double v, int decimals)
{
	return result_fmt_num(buf, RESULT_NUM_MAX, v, decimals);
}

/* A count or an amount of work: whole numbers without decimals. */
static const char *amount(char *buf, double v)
{
	if (fabs(v) < 1e15 && v == floor(v))
		return num(buf, v, 0);
	return num(buf, v, 3);
}

/* " (the default of acpi-cpufreq)" after a governor nobody named. */
static const char *why(char *buf, size_t size, const char *s, size_t max)
{
	int n = (int)strnlen(s, max);

	if (n == 0)
		return "";
	snprintf(buf, size, " (%.*s)", n, s);
	return buf;
}

static void header(FILE *out, const struct run_result *r)
{
	char d[RESULT_NUM_MAX], wf[RESULT_NAME_MAX + 4], wi[RESULT_NAME_MAX + 4];

	/* ", profile P" only for a run that applied one: other headers stay as they were. */
	fprintf(out, "pmlab sim: machine %.*s, workload %.*s, cpufreq %.*s%s, cpuidle %.*s%s%s%.*s%s%.*s, "
		"seed %" PRIu64 ", %s s simulated\n",
		(int)strnlen(r->machine, sizeof(r->machine)), r->machine,
		(int)strnlen(r->workload, sizeof(r->workload)), r->workload,
		(int)strnlen(r->cpufreq, sizeof(r->cpufreq)), r->cpufreq,
		why(wf, sizeof(wf), r->cpufreq_why, sizeof(r->cpufreq_why)),
		(int)strnlen(r->cpuidle, sizeof(r->cpuidle)), r->cpuidle,
		why(wi, sizeof(wi), r->cpuidle_why, sizeof(r->cpuidle_why)),
		r->profile[0] ? ", profile " : "",
		(int)strnlen(r->profile, sizeof(r->profile)), r->profile,
		r->placement[0] ? ", placement " : "",
		(int)strnlen(r->placement, sizeof(r->placement)), r->placement,
		r->seed, num(d, (double)r->duration_ns / NS_PER_SEC, 3));
}

/* One row of the latency table: count, mean and quantiles in `unit`. */
static void latency_row(FILE *out, int w, const char *what, const char *unit,
			const struct histogram *h, double ns_per_unit, int decimals)
{
	static const double qs[] = { 0.50, 0.90, 0.99, 0.999 };
	char label[2 * RESULT_NAME_MAX], b[RESULT_NUM_MAX];
	size_t i;

	snprintf(label, sizeof(label), "%s (%s)", what, unit);
	fprintf(out, IND "%-*.*s %10" PRIu64, w, w, label, h->count);
	if (h->count == 0) {
		fprintf(out, "  (no samples)\n");
		return;
	}
	fprintf(out, " %9s", num(b, hist_mean(h) / ns_per_unit, decimals));
	for (i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
		fprintf(out, " %9s", num(b, hist_quantile(h, qs[i]) / ns_per_unit, decimals));
	fprintf(out, " %9s\n", num(b, (double)h->max_ns / ns_per_unit, decimals));
}

static void performance(FILE *out, const struct run_result *r)
{
	int w = 24, i, n = r->nextra < RESULT_MAX_EXTRA ? r->nextra : RESULT_MAX_EXTRA;
	int wl = (int)strnlen(r->latency_what, sizeof(r->latency_what)) + 5;
	const char *what = r->latency_what[0] ? r->latency_what : "latency";
	char b[RESULT_NUM_MAX];

	fprintf(out, "\nPerformance\n");
	fprintf(out, IND "%-*s %s %.*s\n", w, "throughput", num(b, r->throughput, 2),
		(int)strnlen(r->throughput_unit, sizeof(r->throughput_unit)), r->throughput_unit);
	fprintf(out, IND "%-*s %s\n", w, "work done", amount(b, r->work_done));
	for (i = 0; i < n; i++) {
		const struct result_extra *x = &r->extra[i];

		fprintf(out, IND "%-*.*s %s %.*s\n", w, (int)strnlen(x->name, sizeof(x->name)), x->name,
			amount(b, x->value), (int)strnlen(x->unit, sizeof(x->unit)), x->unit);
	}

	/* The latency label column fits the workload's description, within reason. */
	if (wl > w)
		w = wl < 40 ? wl : 40;
	fprintf(out, "\n" IND "%-*s %10s %9s %9s %9s %9s %9s %9s\n", w, "latency", "count", "mean",
		"p50", "p90", "p99", "p99.9", "max");
	latency_row(out, w, what, "ms", &r->latency, NS_PER_MS, 3);
	latency_row(out, w, "wakeup to running", "us", &r->wakeup_latency, NS_PER_US, 1);
}

static void power_row(FILE *out, const char *what, double j, double dur_s)
{
	char a[RESULT_NUM_MAX], b[RESULT_NUM_MAX];

	fprintf(out, IND "%-24s %12s %10s\n", what, num(a, j, 3),
		num(b, dur_s > 0 ? j / dur_s : 0, 3));
}

static void power(FILE *out, const struct run_result *r)
{
	double dur = (double)r->duration_ns / NS_PER_SEC;
	double pkg = r->energy_core_dynamic_j + r->energy_core_static_j + r->energy_uncore_j;

	fprintf(out, "\nPower\n" IND "%-24s %12s %10s\n", "", "energy J", "power W");
	power_row(out, "total", result_energy_j(r), dur);
	power_row(out, "package (cores+uncore)", pkg, dur);
	power_row(out, "  core dynamic", r->energy_core_dynamic_j, dur);
	power_row(out, "  core static", r->energy_core_static_j, dur);
	power_row(out, "  uncore", r->energy_uncore_j, dur);
	power_row(out, "platform", r->energy_platform_j, dur);
	const struct platform_energy *pe = &r->platform;
	if (pe->dram_j + pe->disk_j + pe->nic_j + pe->fans_j + pe->psu_loss_j > 0) {
		power_row(out, "  idle floor", pe->floor_j, dur);
		power_row(out, "  DRAM", pe->dram_j, dur);
		power_row(out, "  disk", pe->disk_j, dur);
		power_row(out, "  NIC", pe->nic_j, dur);
		power_row(out, "  fans", pe->fans_j, dur);
		power_row(out, "  PSU losses", pe->psu_loss_j, dur);
	}
}

/* "%C0 %POLL %C1 ..." header cells, shared by the summary and per-CPU rows. */
static void cstate_heads(FILE *out, const struct run_result *r)
{
	char h[CSTATE_NAME_MAX + 2];
	int s;

	for (s = -1; s < result_ncstates(r); s++) {
		snprintf(h, sizeof(h), "%%%.*s", CSTATE_NAME_MAX, s < 0 ? "C0" : r->m->cstates[s].name);
		fprintf(out, " %*s", colw(h), h);
	}
}

/* Residency cells of one CPU, or of all when cpu < 0. */
static void cstate_cells(FILE *out, const struct run_result *r, int cpu)
{
	char h[CSTATE_NAME_MAX + 2], b[RESULT_NUM_MAX];
	int s;

	for (s = -1; s < result_ncstates(r); s++) {
		double v = cpu < 0 ? result_residency_pct(r, s) : result_cpu_residency_pct(r, cpu, s);

		snprintf(h, sizeof(h), "%%%.*s", CSTATE_NAME_MAX, s < 0 ? "C0" : r->m->cstates[s].name);
		fprintf(out, " %*s", colw(h), num(b, v, 2));
	}
}

static void frequency_idle(FILE *out, const struct run_result *r)
{
	char a[RESULT_NUM_MAX], b[RESULT_NUM_MAX], c[RESULT_NUM_MAX];
	int p, s;

	fprintf(out, "\nFrequency and idle (turbostat)\n" IND "%s %*s %s", "Avg_MHz",
		colw("Busy%"), "Busy%", "Bzy_MHz");
	cstate_heads(out, r);
	fprintf(out, "\n" IND "%*s %*s %*s", colw("Avg_MHz"), num(a, result_avg_mhz(r), 0),
		colw("Busy%"), num(b, result_busy_pct(r), 2), colw("Bzy_MHz"),
		num(c, result_bzy_mhz(r), 0));
	cstate_cells(out, r, -1);
	fputc('\n', out);

	if (!r->pkgs || r->npackages <= 0)
		return;
	fprintf(out, "\n" IND "%4s %*s", "Pkg", colw("%all_idle"), "%all_idle");
	for (s = 0; s < result_npkg_cstates(r); s++) {
		char h[CSTATE_NAME_MAX + 2];

		snprintf(h, sizeof(h), "%%%.*s", CSTATE_NAME_MAX, r->m->pkg_cstates[s].name);
		fprintf(out, " %*s", colw(h), h);
	}
	fprintf(out, " %10s %12s\n", "power W", "energy J");
	for (p = 0; p < r->npackages; p++) {
		fprintf(out, IND "%4d %*s", r->pkgs[p].package, colw("%all_idle"),
			num(a, result_pkg_all_idle_pct(r, p), 2));
		for (s = 0; s < result_npkg_cstates(r); s++) {
			char h[CSTATE_NAME_MAX + 2];

			snprintf(h, sizeof(h), "%%%.*s", CSTATE_NAME_MAX, r->m->pkg_cstates[s].name);
			fprintf(out, " %*s", colw(h), num(a, result_pkg_cstate_pct(r, p, s), 2));
		}
		fprintf(out, " %10s %12s\n", num(a, result_pkg_power_w(r, p), 3),
			num(b, result_pkg_energy_j(r, p), 3));
	}
	/* Only runs that met a package power limit say so (RAPL, PPT). */
	for (p = 0; p < r->npackages; p++)
		if (r->pkgs[p].power_limited_ns > 0)
			fprintf(out, IND "package %d: a power limit held its clock down %s %% of the "
				"run\n", r->pkgs[p].package,
				num(a, result_pkg_power_limited_pct(r, p), 2));
}

static const char *const util_heads[] = { "%usr", "%sys", "%iow", "%idle" };

static void utilisation(FILE *out, const struct run_result *r)
{
	char b[RESULT_NUM_MAX];
	int i;

	fprintf(out, "\nCPU utilisation (/proc/stat)\n" IND);
	for (i = 0; i < 4; i++)
		fprintf(out, "%s%*s", i ? " " : "", colw(util_heads[i]), util_heads[i]);
	fprintf(out, "\n" IND);
	for (i = 0; i < 4; i++)
		fprintf(out, "%s%*s", i ? " " : "", colw(util_heads[i]),
			num(b, result_util_pct(r, i), 2));
	fputc('\n', out);
}

static void counters(FILE *out, const struct run_result *r)
{
	static const char *const heads[] = { "ctx_switches", "migrations", "wakeups",
					     "freq_transitions", "cpufreq_updates", "events",
					     "tasks_created", "tasks_finished" };
	uint64_t v[] = { r->ctx_switches, r->migrations, r->wakeups, r->freq_transitions,
			 r->cpufreq_updates, r->events, r->tasks_created, r->tasks_finished };
	char cells[8][24];
	int w[8], i;

	for (i = 0; i < 8; i++) {
		int n = snprintf(cells[i], sizeof(cells[i]), "%" PRIu64, v[i]);
		int hn = (int)strlen(heads[i]);

		w[i] = n > hn ? n : hn;
	}
	fprintf(out, "\nScheduler\n" IND);
	for (i = 0; i < 8; i++)
		fprintf(out, "%s%*s", i ? "  " : "", w[i], heads[i]);
	fprintf(out, "\n" IND);
	for (i = 0; i < 8; i++)
		fprintf(out, "%s%*s", i ? "  " : "", w[i], cells[i]);
	fputc('\n', out);
}

/* cpuidle's own view: entries per state and how many were mispredicted
 * (sysfs usage/above/below summed over CPUs). */
static void idle_states(FILE *out, const struct run_result *r)
{
	if (!r->m || !r->cpus || r->ncpus <= 0)
		return;
	fprintf(out, "\nIdle states (cpuidle usage, above, below)\n" IND "%-10s %12s %12s %12s\n",
		"state", "usage", "above", "below");
	for (int s = 0; s < r->m->ncstates; s++) {
		uint64_t use = 0, above = 0, below = 0;
		for (int c = 0; c < r->ncpus; c++) {
			use += r->cpus[c].cstate_usage[s];
			above += r->cpus[c].cstate_above[s];
			below += r->cpus[c].cstate_below[s];
		}
		fprintf(out, IND "%-10.*s %12" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n",
			CSTATE_NAME_MAX, r->m->cstates[s].name, use, above, below);
	}
}

static void per_cpu(FILE *out, const struct run_result *r)
{
	char a[RESULT_NUM_MAX], b[RESULT_NUM_MAX], c[RESULT_NUM_MAX];
	int i, u;

	if (!r->cpus || r->ncpus <= 0)
		return;
	fprintf(out, "\nPer CPU\n" IND "%4s %4s %4s %s %*s %s", "CPU", "Core", "Pkg",
		"Avg_MHz", colw("Busy%"), "Busy%", "Bzy_MHz");
	cstate_heads(out, r);
	for (u = 0; u < 4; u++)
		fprintf(out, " %*s", colw(util_heads[u]), util_heads[u]);
	fputc('\n', out);
	for (i = 0; i < r->ncpus; i++) {
		const struct cpu_result *cr = &r->cpus[i];

		fprintf(out, IND "%4d %4d %4d %*s %*s %*s", cr->cpu, cr->core, cr->package,
			colw("Avg_MHz"), num(a, result_cpu_avg_mhz(r, i), 0),
			colw("Busy%"), num(b, result_cpu_busy_pct(r, i), 2),
			colw("Bzy_MHz"), num(c, result_cpu_bzy_mhz(r, i), 0));
		cstate_cells(out, r, i);
		for (u = 0; u < 4; u++)
			fprintf(out, " %*s", colw(util_heads[u]), num(a, result_cpu_util_pct(r, i, u), 2));
		fputc('\n', out);
	}
}

/* rt-app's per-thread log columns, as means per activation (us), and the
 * timer wake-up latency's spread. */
static void per_task(FILE *out, const struct run_result *r)
{
	static const char *const heads[] = { "activations", "misses", "run_us", "period_us",
					     "slack_us", "min_slack_us", "wu_p50_us", "wu_p99_us",
					     "wu_max_us" };
	enum { NHEADS = sizeof(heads) / sizeof(heads[0]) };
	char b[RESULT_NUM_MAX];
	int i, k, w = 4;

	if (!r->tasks || r->ntasks <= 0)
		return;
	for (i = 0; i < r->ntasks; i++) {
		int n = (int)strnlen(r->tasks[i].name, sizeof(r->tasks[i].name));

		if (n > w)
			w = n < 32 ? n : 32;
	}
	fprintf(out, "\nPer task (means per activation)\n" IND "%-*s", w, "task");
	for (k = 0; k < NHEADS; k++)
		fprintf(out, " %*s", colw(heads[k]), heads[k]);
	fputc('\n', out);
	for (i = 0; i < r->ntasks; i++) {
		const struct task_result *t = &r->tasks[i];
		const struct histogram *h = &t->wakeup_latency;
		double v[NHEADS] = {
			(double)t->activations, (double)t->deadline_misses,
			result_task_run_us(r, i), result_task_period_us(r, i),
			result_task_slack_us(r, i), (double)t->slack_min_ns / NS_PER_US,
			hist_quantile(h, 0.50) / NS_PER_US, hist_quantile(h, 0.99) / NS_PER_US,
			(double)h->max_ns / NS_PER_US,
		};

		fprintf(out, IND "%-*.*s", w, w, t->name);
		for (k = 0; k < NHEADS; k++)
			fprintf(out, " %*s", colw(heads[k]), k < 2 ? amount(b, v[k]) : num(b, v[k], 1));
		fputc('\n', out);
	}
}

int result_write_table(FILE *out, const struct run_result *r)
{
	header(out, r);
	performance(out, r);
	power(out, r);
	frequency_idle(out, r);
	utilisation(out, r);
	counters(out, r);
	idle_states(out, r);
	per_cpu(out, r);
	per_task(out, r);
	return ferror(out) ? -1 : 0;
}
