// SPDX-License-Identifier: GPL-2.0-only
/* Derived figures of a run and the format dispatch. Every ratio is taken
 * over a range of CPUs so the run-wide figure and the per-CPU column are the
 * same formula; a zero denominator gives 0, never NaN. */
#include "result.h"

#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "result_writers.h"

void result_free(struct run_result *r)
{
	int i;

	if (r->cpus) {
		for (i = 0; i < r->ncpus; i++)
			free(r->cpus[i].pstate_ns);
		free(r->cpus);
	}
	free(r->pkgs);
	free(r->tasks);
	r->cpus = NULL;
	r->pkgs = NULL;
	r->tasks = NULL;
	/* Counts go with the arrays so a stale result reads as empty. */
	r->ncpus = 0;
	r->npackages = 0;
	r->ntasks = 0;
}

static double ratio(double num, double den)
{
	double v;

	if (!(den > 0))
		return 0;
	v = num / den;
	return isfinite(v) ? v : 0;
}

static int ncpus(const struct run_result *r)
{
	return r->cpus ? r->ncpus : 0;
}

static int npkgs(const struct run_result *r)
{
	return r->pkgs ? r->npackages : 0;
}

/* CPU time available to CPUs [lo, hi), ns. */
static double span_ns(const struct run_result *r, int lo, int hi)
{
	return (double)(hi - lo) * (double)r->duration_ns;
}

static double c0_ns(const struct run_result *r, int lo, int hi)
{
	double s = 0;
	int i;

	for (i = lo; i < hi; i++)
		s += (double)r->cpus[i].c0_ns;
	return s;
}

static double mhz_ns(const struct run_result *r, int lo, int hi)
{
	double s = 0;
	int i;

	for (i = lo; i < hi; i++)
		s += r->cpus[i].c0_mhz_ns;
	return s;
}

static double avg_mhz(const struct run_result *r, int lo, int hi)
{
	return ratio(mhz_ns(r, lo, hi), span_ns(r, lo, hi));
}

static double busy_pct(const struct run_result *r, int lo, int hi)
{
	return 100 * ratio(c0_ns(r, lo, hi), span_ns(r, lo, hi));
}

static double bzy_mhz(const struct run_result *r, int lo, int hi)
{
	return ratio(mhz_ns(r, lo, hi), c0_ns(r, lo, hi));
}

static double residency_pct(const struct run_result *r, int lo, int hi, int state)
{
	double s = 0;
	int i;

	if (state < 0)
		return busy_pct(r, lo, hi);
	if (state >= result_ncstates(r))
		return 0;
	for (i = lo; i < hi; i++)
		s += (double)r->cpus[i].cstate_ns[state];
	return 100 * ratio(s, span_ns(r, lo, hi));
}

static double util_pct(const struct run_result *r, int lo, int hi, int which)
{
	double s = 0;
	int i;

	for (i = lo; i < hi; i++) {
		const struct cpu_result *c = &r->cpus[i];

		switch (which) {
		case 0: s += (double)c->user_ns; break;
		case 1: s += (double)c->sys_ns; break;
		case 2: s += (double)c->iowait_ns; break;
		case 3: s += (double)c->idle_ns; break;
		default: return 0;
		}
	}
	return 100 * ratio(s, span_ns(r, lo, hi));
}

int result_ncstates(const struct run_result *r)
{
	int n = r->m ? r->m->ncstates : 0;

	return n < MACHINE_MAX_CSTATES ? n : MACHINE_MAX_CSTATES;
}

int result_cpu_npstates(const struct run_result *r, int cpu)
{
	int n = 0;

	if (r->m && cpu >= 0 && cpu < r->ncpus)
		machine_cpu_pstates(r->m, r->cpus[cpu].cpu, &n);
	return n < MACHINE_MAX_PSTATES ? n : MACHINE_MAX_PSTATES;
}

uint32_t result_cpu_pstate_khz(const struct run_result *r, int cpu, int ps)
{
	int n = 0;
	const struct pstate *p;

	if (!r->m || cpu < 0 || cpu >= r->ncpus)
		return 0;
	p = machine_cpu_pstates(r->m, r->cpus[cpu].cpu, &n);
	return ps >= 0 && ps < n ? p[ps].khz : 0;
}

int result_npkg_cstates(const struct run_result *r)
{
	int n = r->m ? r->m->npkg_cstates : 0;

	return n < MACHINE_MAX_PKG_CSTATES ? n : MACHINE_MAX_PKG_CSTATES;
}

double result_energy_j(const struct run_result *r)
{
	return r->energy_core_dynamic_j + r->energy_core_static_j +
	       r->energy_uncore_j + r->energy_platform_j;
}

double result_power_w(const struct run_result *r)
{
	return ratio(result_energy_j(r), (double)r->duration_ns / NS_PER_SEC);
}

double result_package_power_w(const struct run_result *r)
{
	double e = r->energy_core_dynamic_j + r->energy_core_static_j + r->energy_uncore_j;

	return ratio(e, (double)r->duration_ns / NS_PER_SEC);
}

double result_avg_mhz(const struct run_result *r)
{
	return avg_mhz(r, 0, ncpus(r));
}

double result_busy_pct(const struct run_result *r)
{
	return busy_pct(r, 0, ncpus(r));
}

double result_bzy_mhz(const struct run_result *r)
{
	return bzy_mhz(r, 0, ncpus(r));
}

double result_residency_pct(const struct run_result *r, int state)
{
	return residency_pct(r, 0, ncpus(r), state);
}

double result_util_pct(const struct run_result *r, int which)
{
	return util_pct(r, 0, ncpus(r), which);
}

static int cpu_ok(const struct run_result *r, int cpu)
{
	return cpu >= 0 && cpu < ncpus(r);
}

double result_cpu_avg_mhz(const struct run_result *r, int cpu)
{
	return cpu_ok(r, cpu) ? avg_mhz(r, cpu, cpu + 1) : 0;
}

double result_cpu_busy_pct(const struct run_result *r, int cpu)
{
	return cpu_ok(r, cpu) ? busy_pct(r, cpu, cpu + 1) : 0;
}

double result_cpu_bzy_mhz(const struct run_result *r, int cpu)
{
	return cpu_ok(r, cpu) ? bzy_mhz(r, cpu, cpu + 1) : 0;
}

double result_cpu_residency_pct(const struct run_result *r, int cpu, int state)
{
	return cpu_ok(r, cpu) ? residency_pct(r, cpu, cpu + 1, state) : 0;
}

double result_cpu_util_pct(const struct run_result *r, int cpu, int which)
{
	return cpu_ok(r, cpu) ? util_pct(r, cpu, cpu + 1, which) : 0;
}

double result_cpu_pstate_pct(const struct run_result *r, int cpu, int ps)
{
	const struct cpu_result *c;

	if (!cpu_ok(r, cpu) || ps < 0 || ps >= result_cpu_npstates(r, cpu))
		return 0;
	c = &r->cpus[cpu];
	if (!c->pstate_ns)
		return 0;
	return 100 * ratio((double)c->pstate_ns[ps], (double)c->c0_ns);
}

static int pkg_ok(const struct run_result *r, int pkg)
{
	return pkg >= 0 && pkg < npkgs(r);
}

double result_pkg_energy_j(const struct run_result *r, int pkg)
{
	const struct package_result *p;

	if (!pkg_ok(r, pkg))
		return 0;
	p = &r->pkgs[pkg];
	return p->energy_core_dynamic_j + p->energy_core_static_j + p->energy_uncore_j;
}

double result_pkg_power_w(const struct run_result *r, int pkg)
{
	return ratio(result_pkg_energy_j(r, pkg), (double)r->duration_ns / NS_PER_SEC);
}

double result_pkg_all_idle_pct(const struct run_result *r, int pkg)
{
	if (!pkg_ok(r, pkg))
		return 0;
	return 100 * ratio((double)r->pkgs[pkg].all_idle_ns, (double)r->duration_ns);
}

double result_pkg_power_limited_pct(const struct run_result *r, int pkg)
{
	if (!pkg_ok(r, pkg))
		return 0;
	return 100 * ratio((double)r->pkgs[pkg].power_limited_ns, (double)r->duration_ns);
}

double result_pkg_cpu_idle_pct(const struct run_result *r, int pkg)
{
	double idle = 0, span = 0;
	if (!pkg_ok(r, pkg))
		return 0;
	for (int i = 0; i < ncpus(r); i++) {
		const struct cpu_result *c = &r->cpus[i];
		if (c->package != r->pkgs[pkg].package)
			continue;
		idle += (double)(c->idle_ns + c->iowait_ns);
		span += (double)r->duration_ns;
	}
	return 100 * ratio(idle, span);
}

double result_pkg_cstate_pct(const struct run_result *r, int pkg, int state)
{
	if (!pkg_ok(r, pkg) || state < 0 || state >= result_npkg_cstates(r))
		return 0;
	return 100 * ratio((double)r->pkgs[pkg].pkg_cstate_ns[state], (double)r->duration_ns);
}

double result_all_idle_pct(const struct run_result *r)
{
	double s = 0;
	int p;

	for (p = 0; p < npkgs(r); p++)
		s += (double)r->pkgs[p].all_idle_ns;
	return 100 * ratio(s, (double)npkgs(r) * (double)r->duration_ns);
}

double result_pkg_cstate_avg_pct(const struct run_result *r, int state)
{
	double s = 0;
	int p;

	if (state < 0 || state >= result_npkg_cstates(r))
		return 0;
	for (p = 0; p < npkgs(r); p++)
		s += (double)r->pkgs[p].pkg_cstate_ns[state];
	return 100 * ratio(s, (double)npkgs(r) * (double)r->duration_ns);
}

static int task_ok(const struct run_result *r, int i)
{
	return r->tasks && i >= 0 && i < r->ntasks;
}

double result_task_run_us(const struct run_result *r, int i)
{
	if (!task_ok(r, i))
		return 0;
	return ratio((double)r->tasks[i].run_ns, (double)r->tasks[i].activations) / NS_PER_US;
}

double result_task_period_us(const struct run_result *r, int i)
{
	if (!task_ok(r, i))
		return 0;
	return ratio((double)r->tasks[i].period_ns, (double)r->tasks[i].activations) / NS_PER_US;
}

double result_task_slack_us(const struct run_result *r, int i)
{
	if (!task_ok(r, i))
		return 0;
	return ratio((double)r->tasks[i].slack_ns, (double)r->tasks[i].timed) / NS_PER_US;
}

const char *result_fmt_num(char *buf, size_t size, double v, int decimals)
{
	const char *dp = localeconv()->decimal_point;
	char *at;

	/* Output must not depend on the machine, so no NaN, no "-0". */
	if (!isfinite(v) || v == 0)
		v = 0;
	if (decimals >= 0)
		snprintf(buf, size, "%.*f", decimals, v);
	else
		snprintf(buf, size, "%.*g", -decimals, v);
	/* A rounded tiny negative prints as "-0.00": drop the sign. */
	if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1))
		memmove(buf, buf + 1, strlen(buf));
	/* A program that set LC_NUMERIC must still get machine-readable numbers. */
	if (dp && strcmp(dp, ".") != 0 && dp[0] && (at = strstr(buf, dp))) {
		size_t n = strlen(dp);

		*at = '.';
		memmove(at + 1, at + n, strlen(at + n) + 1);
	}
	return buf;
}

int result_write(FILE *out, const struct run_result *r, enum result_format f)
{
	return result_write_inputs(out, r, f, NULL);
}

int result_write_inputs(FILE *out, const struct run_result *r, enum result_format f,
			const struct run_inputs *in)
{
	int rc;

	switch (f) {
	case FORMAT_TABLE: rc = result_write_table(out, r, in); break;
	case FORMAT_CSV:   rc = result_write_csv(out, r, in); break;
	case FORMAT_JSON:  rc = result_write_json(out, r, in); break;
	default:           return -1;
	}
	/* A full disk often shows only when the buffer is flushed. */
	if (fflush(out) != 0 || ferror(out))
		return -1;
	return rc;
}
