// SPDX-License-Identifier: GPL-2.0-only
/* Human-readable report: the blocks the seeds' mail threads print
 * (throughput, latency, watts, frequency, C-state residency, sar-style
 * utilisation) with turbostat's column names, so a reader can set a pmlab
 * run beside a real one. Columns are right-aligned to the wider of their
 * header and their value. */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "inputs.h"
#include "result_writers.h"
#include "texttable.h"

#define IND "  "
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

static void header(FILE *out, const struct run_result *r, const struct run_inputs *in)
{
	char d[RESULT_NUM_MAX], wf[RESULT_NAME_MAX + 4], wi[RESULT_NAME_MAX + 4], text[1024];

	/* ", profile P" and ", placement P" only for a run that applied one. */
	snprintf(text, sizeof(text), "machine %.*s, workload %.*s, cpufreq %.*s%s, cpuidle %.*s%s%s%.*s%s%.*s, "
		 "seed %" PRIu64 ", %s s simulated",
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
	char first[64];

	/* "pmlab replay: ..." for a replay's run */
	snprintf(first, sizeof(first), "pmlab %.32s: ", in && in->command ? in->command : "sim");
	text_wrap(out, first, text, 4);
}

/* One row of the latency table: count, mean and quantiles in `unit`. */
static void latency_row(struct text_table *t, const char *what, const char *unit,
			const struct histogram *h, double ns_per_unit, int decimals)
{
	static const double qs[] = { 0.50, 0.90, 0.99, 0.999 };
	char b[RESULT_NUM_MAX];
	size_t i;

	ttab_cellf(t, "%s (%s)", what, unit);
	ttab_cellf(t, "%" PRIu64, h->count);
	ttab_cell(t, h->count ? num(b, hist_mean(h) / ns_per_unit, decimals) : "-");
	for (i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
		ttab_cell(t, h->count ? num(b, hist_quantile(h, qs[i]) / ns_per_unit, decimals) : "-");
	ttab_cell(t, h->count ? num(b, (double)h->max_ns / ns_per_unit, decimals) : "-");
}

static void performance(FILE *out, const struct run_result *r)
{
	int w = 24, i, n = r->nextra < RESULT_MAX_EXTRA ? r->nextra : RESULT_MAX_EXTRA;
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

	static const char *const heads[] = { "latency", "count", "mean", "p50", "p90", "p99",
					     "p99.9", "max" };
	struct text_table *t = ttab_new(1, 2);

	if (!t)
		return;
	for (i = 0; i < 8; i++)
		ttab_col(t, heads[i], NULL);
	latency_row(t, what, "ms", &r->latency, NS_PER_MS, 3);
	latency_row(t, "wakeup to running", "us", &r->wakeup_latency, NS_PER_US, 1);
	fputc('\n', out);
	ttab_write(out, t);
	ttab_free(t);
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

/* turbostat's figures of one CPU (cpu >= 0) or of all (cpu < 0):
 * Avg_MHz, Busy%, Bzy_MHz, then each cpuidle state's residency. */
static void freq_cols(struct text_table *t, const struct run_result *r)
{
	char h[CSTATE_NAME_MAX + 2];

	ttab_col(t, "Avg_MHz", NULL);
	ttab_col(t, "Busy%", NULL);
	ttab_col(t, "Bzy_MHz", NULL);
	ttab_group(t);
	for (int s = 0; s < result_ncstates(r); s++) {
		snprintf(h, sizeof(h), "%.*s%%", CSTATE_NAME_MAX, r->m->cstates[s].name);
		ttab_col(t, h, NULL);
	}
}

static void freq_cells(struct text_table *t, const struct run_result *r, int cpu)
{
	char b[RESULT_NUM_MAX];

	ttab_cell(t, num(b, cpu < 0 ? result_avg_mhz(r) : result_cpu_avg_mhz(r, cpu), 0));
	ttab_cell(t, num(b, cpu < 0 ? result_busy_pct(r) : result_cpu_busy_pct(r, cpu), 2));
	ttab_cell(t, num(b, cpu < 0 ? result_bzy_mhz(r) : result_cpu_bzy_mhz(r, cpu), 0));
	for (int s = 0; s < result_ncstates(r); s++)
		ttab_cell(t, num(b, cpu < 0 ? result_residency_pct(r, s)
					    : result_cpu_residency_pct(r, cpu, s), 2));
}

/* sar's names for /proc/stat's shares. */
static const char *const util_heads[] = { "%user", "%system", "%iowait", "%idle" };

static void util_cols(struct text_table *t)
{
	for (int i = 0; i < 4; i++)
		ttab_col(t, util_heads[i], NULL);
}

static void util_cells(struct text_table *t, const struct run_result *r, int cpu)
{
	char b[RESULT_NUM_MAX];

	for (int i = 0; i < 4; i++)
		ttab_cell(t, num(b, cpu < 0 ? result_util_pct(r, i) : result_cpu_util_pct(r, cpu, i), 2));
}

static void write_free(FILE *out, struct text_table *t)
{
	if (t)
		ttab_write(out, t);
	ttab_free(t);
}

static void frequency_idle(FILE *out, const struct run_result *r)
{
	struct text_table *t = ttab_new(0, 2);
	char a[RESULT_NUM_MAX], h[CSTATE_NAME_MAX + 8];
	int p, s;

	fprintf(out, "\nFrequency and idle (turbostat)\n");
	if (t) {
		freq_cols(t, r);
		freq_cells(t, r, -1);
	}
	write_free(out, t);
	if (!r->pkgs || r->npackages <= 0)
		return;
	fputc('\n', out);
	t = ttab_new(1, 2);
	if (!t)
		return;
	ttab_col(t, "Pkg", NULL);
	ttab_col(t, "%all_idle", NULL);
	for (s = 0; s < result_npkg_cstates(r); s++) {
		/* turbostat's Pkg%pc6 for a package C-state named PC6 */
		const char *n = r->m->pkg_cstates[s].name;

		snprintf(h, sizeof(h), "Pkg%%%s%.*s", strncmp(n, "PC", 2) ? "" : "pc",
			 CSTATE_NAME_MAX, strncmp(n, "PC", 2) ? n : n + 2);
		ttab_col(t, h, NULL);
	}
	ttab_col(t, "PkgWatt", NULL);
	ttab_col(t, "Pkg_J", NULL);
	for (p = 0; p < r->npackages; p++) {
		ttab_cellf(t, "%d", r->pkgs[p].package);
		ttab_cell(t, num(a, result_pkg_all_idle_pct(r, p), 2));
		for (s = 0; s < result_npkg_cstates(r); s++)
			ttab_cell(t, num(a, result_pkg_cstate_pct(r, p, s), 2));
		ttab_cell(t, num(a, result_pkg_power_w(r, p), 3));
		ttab_cell(t, num(a, result_pkg_energy_j(r, p), 3));
	}
	write_free(out, t);
	/* Only runs that met a package power limit say so (RAPL, PPT). */
	for (p = 0; p < r->npackages; p++)
		if (r->pkgs[p].power_limited_ns > 0)
			fprintf(out, IND "package %d: a power limit held its clock down %s %% of the "
				"run\n", r->pkgs[p].package,
				num(a, result_pkg_power_limited_pct(r, p), 2));
}

static void utilisation(FILE *out, const struct run_result *r)
{
	struct text_table *t = ttab_new(0, 2);

	fprintf(out, "\nCPU utilisation (/proc/stat, as sar)\n");
	if (t) {
		util_cols(t);
		util_cells(t, r, -1);
	}
	write_free(out, t);
}

static void counters(FILE *out, const struct run_result *r)
{
	static const char *const heads[] = { "ctx_switches", "migrations", "wakeups",
					     "freq_transitions", "cpufreq_updates", "events",
					     "tasks_created", "tasks_finished" };
	uint64_t v[] = { r->ctx_switches, r->migrations, r->wakeups, r->freq_transitions,
			 r->cpufreq_updates, r->events, r->tasks_created, r->tasks_finished };
	struct text_table *t = ttab_new(0, 2);

	fprintf(out, "\nScheduler\n");
	for (int i = 0; t && i < 8; i++) {
		if (i == 4)
			ttab_group(t);
		ttab_col(t, heads[i], NULL);
	}
	for (int i = 0; t && i < 8; i++)
		ttab_cellf(t, "%" PRIu64, v[i]);
	write_free(out, t);
}

/* cpuidle's own view: entries per state and how many were mispredicted
 * (sysfs usage/above/below summed over CPUs). */
static void idle_states(FILE *out, const struct run_result *r)
{
	struct text_table *t;

	if (!r->m || !r->cpus || r->ncpus <= 0 || !(t = ttab_new(1, 2)))
		return;
	fprintf(out, "\nIdle states (cpuidle usage, above, below)\n");
	ttab_col(t, "state", NULL);
	ttab_col(t, "usage", NULL);
	ttab_col(t, "above", NULL);
	ttab_col(t, "below", NULL);
	for (int s = 0; s < r->m->ncstates; s++) {
		uint64_t use = 0, above = 0, below = 0;
		for (int c = 0; c < r->ncpus; c++) {
			use += r->cpus[c].cstate_usage[s];
			above += r->cpus[c].cstate_above[s];
			below += r->cpus[c].cstate_below[s];
		}
		ttab_cellf(t, "%.*s", CSTATE_NAME_MAX, r->m->cstates[s].name);
		ttab_cellf(t, "%" PRIu64, use);
		ttab_cellf(t, "%" PRIu64, above);
		ttab_cellf(t, "%" PRIu64, below);
	}
	write_free(out, t);
}

static void per_cpu(FILE *out, const struct run_result *r)
{
	struct text_table *t;

	if (!r->cpus || r->ncpus <= 0 || !(t = ttab_new(3, 2)))
		return;
	fprintf(out, "\nPer CPU\n");
	ttab_col(t, "CPU", NULL);
	ttab_col(t, "Core", NULL);
	ttab_col(t, "Pkg", NULL);
	freq_cols(t, r);
	ttab_group(t);
	util_cols(t);
	for (int i = 0; i < r->ncpus; i++) {
		const struct cpu_result *cr = &r->cpus[i];

		ttab_cellf(t, "%d", cr->cpu);
		ttab_cellf(t, "%d", cr->core);
		ttab_cellf(t, "%d", cr->package);
		freq_cells(t, r, i);
		util_cells(t, r, i);
	}
	write_free(out, t);
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
	struct text_table *t;
	int i, k;

	if (!r->tasks || r->ntasks <= 0 || !(t = ttab_new(1, 2)))
		return;
	fprintf(out, "\nPer task (means per activation)\n");
	ttab_col(t, "task", NULL);
	for (k = 0; k < NHEADS; k++)
		ttab_col(t, heads[k], NULL);
	for (i = 0; i < r->ntasks; i++) {
		const struct task_result *tr = &r->tasks[i];
		const struct histogram *h = &tr->wakeup_latency;
		double v[NHEADS] = {
			(double)tr->activations, (double)tr->deadline_misses,
			result_task_run_us(r, i), result_task_period_us(r, i),
			result_task_slack_us(r, i), (double)tr->slack_min_ns / NS_PER_US,
			hist_quantile(h, 0.50) / NS_PER_US, hist_quantile(h, 0.99) / NS_PER_US,
			(double)h->max_ns / NS_PER_US,
		};

		ttab_cellf(t, "%.32s", tr->name);
		for (k = 0; k < NHEADS; k++)
			ttab_cell(t, k < 2 ? amount(b, v[k]) : num(b, v[k], 1));
	}
	write_free(out, t);
}

int result_write_table(FILE *out, const struct run_result *r, const struct run_inputs *in)
{
	header(out, r, in);
	if (in)
		inputs_write_table(out, in);
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
