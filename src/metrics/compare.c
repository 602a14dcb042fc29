// SPDX-License-Identifier: GPL-2.0-only
/* The comparison's figures and its statistics; the writers are in
 * compare_table.c, compare_csv.c, compare_json.c and compare_html.c. */
#include "compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "result_writers.h"
#include "stats.h"

static void add(struct cmp_set *s, enum cmp_what what, int arg, enum cmp_block block,
		const char *key, const char *head, const char *unit, int decimals)
{
	struct cmp_metric *m = &s->metric[s->nmetrics++];

	m->what = what;
	m->arg = arg;
	m->block = block;
	snprintf(m->key, sizeof(m->key), "%s", key);
	snprintf(m->head, sizeof(m->head), "%s", head);
	snprintf(m->unit, sizeof(m->unit), "%s", unit);
	m->decimals = decimals;
	/* Ratios of percentages explode near 0 % (a C-state barely used by
	 * the baseline): they are set against it in points instead. */
	m->points = what == CMP_RESIDENCY || what == CMP_UTIL || what == CMP_PKG_IDLE ||
		    what == CMP_PKG_CPU_IDLE;
}

int cmp_init(struct cmp_set *s, const struct machine *m, int nprofiles, int nruns)
{
	static const char *const util_key[] = { "user", "sys", "iowait", "idle" };
	/* sar's headings */
	static const char *const util_head[] = { "%user", "%system", "%iowait", "%idle" };
	char key[CMP_KEY_MAX], head[CMP_KEY_MAX];
	/* + 2: room for cmp_add_run_figures() */
	int n = 4 + 4 + 1 + m->ncstates + 4 + 2 * m->packages + 2, i;

	memset(s, 0, sizeof(*s));
	s->metric = calloc((size_t)n, sizeof(*s->metric));
	s->profile = calloc((size_t)nprofiles, sizeof(*s->profile));
	s->v = calloc((size_t)n * (size_t)nprofiles * (size_t)nruns, sizeof(*s->v));
	s->nprofiles = nprofiles;
	s->nruns = nruns;
	if (!s->metric || !s->profile || !s->v) {
		cmp_free(s);
		return -1;
	}
	snprintf(s->machine, sizeof(s->machine), "%s", m->name);
	s->ncpus = m->online_cpus;
	/* The unit comes with the first run; the heading needs a placeholder. */
	add(s, CMP_THROUGHPUT, 0, CMP_BLOCK_PERF, "throughput", "Throughput", "", -1);
	add(s, CMP_LATENCY, 0, CMP_BLOCK_PERF, "latency_mean_ms", "Latency", "(ms)", -1);
	add(s, CMP_LATENCY_Q, 500, CMP_BLOCK_PERF, "latency_p50_ms", "p50", "(ms)", -1);
	add(s, CMP_LATENCY_Q, 990, CMP_BLOCK_PERF, "latency_p99_ms", "p99", "(ms)", -1);
	add(s, CMP_POWER, 0, CMP_BLOCK_PERF, "power_w", "Power", "(W)", -1);
	add(s, CMP_PKG_POWER, 0, CMP_BLOCK_PERF, "package_power_w", "PkgWatt", "(W)", -1);
	add(s, CMP_ENERGY_WORK, 0, CMP_BLOCK_PERF, "energy_per_work_j", "Energy", "(J/unit)", -1);
	/* The seed's "CPU freq (GHz)" is old turbostat's GHz column: the
	 * average clock while in C0, today's Bzy_MHz, not Avg_MHz (its
	 * latency-performance row, 2.30 GHz at 48 % C0, exceeds what Avg_MHz
	 * could show on a 2.5 GHz part). */
	add(s, CMP_FREQ, 0, CMP_BLOCK_IDLE, "bzy_mhz", "Bzy_MHz", "", 0);
	add(s, CMP_RESIDENCY, -1, CMP_BLOCK_IDLE, "busy_pct", "Busy%", "", 2);
	for (i = 0; i < m->ncstates; i++) {
		snprintf(key, sizeof(key), "residency_%.*s_pct", CSTATE_NAME_MAX, m->cstates[i].name);
		snprintf(head, sizeof(head), "%.*s%%", CSTATE_NAME_MAX, m->cstates[i].name);
		add(s, CMP_RESIDENCY, i, CMP_BLOCK_IDLE, key, head, "", 2);
	}
	for (i = 0; i < m->packages; i++) {
		snprintf(key, sizeof(key), "pkg%d_idle_pct", i);
		snprintf(head, sizeof(head), "Pkg%d %%all_idle", i);
		add(s, CMP_PKG_IDLE, i, CMP_BLOCK_IDLE, key, head, "", 2);
	}
	/* Idle time averaged over a package's CPUs: the "Package Idle" of the
	 * sched_mc_power_savings threads, where packing moves idle time from
	 * one package to the other and the two add up to about the same. */
	for (i = 0; i < m->packages; i++) {
		snprintf(key, sizeof(key), "pkg%d_cpu_idle_pct", i);
		snprintf(head, sizeof(head), "Pkg%d %%cpuidle", i);
		add(s, CMP_PKG_CPU_IDLE, i, CMP_BLOCK_IDLE, key, head, "", 2);
	}
	for (i = 0; i < 4; i++) {
		snprintf(key, sizeof(key), "util_%s_pct", util_key[i]);
		add(s, CMP_UTIL, i, CMP_BLOCK_UTIL, key, util_head[i], "", 2);
	}
	return 0;
}

void cmp_add_run_figures(struct cmp_set *s)
{
	int i, at = 0, n = s->nmetrics;

	for (i = 0; i < n; i++)
		if (s->metric[i].what == CMP_RUN_TIME)
			return;
	/* After the first block's figures, so the tables keep them together. */
	while (at < n && s->metric[at].block == CMP_BLOCK_PERF)
		at++;
	memmove(&s->metric[at + 2], &s->metric[at], (size_t)(n - at) * sizeof(*s->metric));
	s->nmetrics = at;
	add(s, CMP_RUN_TIME, 0, CMP_BLOCK_PERF, "run_time_s", "Run time", "(s)", -1);
	add(s, CMP_ENERGY, 0, CMP_BLOCK_PERF, "energy_j", "Energy", "(J)", -1);
	s->nmetrics = n + 2;
}

void cmp_duration_text(const struct cmp_set *s, char *buf, size_t size)
{
	char a[RESULT_NUM_MAX], b[RESULT_NUM_MAX];
	double sum = 0;
	int m, p, r, n = 0;

	for (m = 0; m < s->nmetrics && s->metric[m].what != CMP_RUN_TIME; m++)
		;
	if (m == s->nmetrics) {
		snprintf(buf, size, "of %s s simulated per profile",
			 result_fmt_num(a, sizeof(a), s->duration_s, -6));
		return;
	}
	for (p = 0; p < s->nprofiles; p++)
		for (r = 0; r < s->nruns; r++, n++)
			sum += cmp_samples(s, p, m)[r];
	snprintf(buf, size, "per profile, each until the workload ended (%s s simulated on "
		 "average, limit %s s)",
		 result_fmt_num(a, sizeof(a), n ? sum / n : 0, -4),
		 result_fmt_num(b, sizeof(b), s->duration_s, -6));
}

void cmp_free(struct cmp_set *s)
{
	int p;

	if (s->profile)
		for (p = 0; p < s->nprofiles; p++) {
			free(s->profile[p].name);
			free(s->profile[p].cpufreq);
			free(s->profile[p].cpuidle);
			free(s->profile[p].note);
			free(s->profile[p].skipped);
		}
	free(s->profile);
	free(s->metric);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

int cmp_set_profile(struct cmp_set *s, int p, const char *name, const char *cpufreq,
		    const char *cpuidle, const char *note, const char *skipped)
{
	struct cmp_profile *e = &s->profile[p];

	free(e->name);
	free(e->cpufreq);
	free(e->cpuidle);
	free(e->note);
	free(e->skipped);
	e->name = strdup(name);
	e->cpufreq = strdup(cpufreq);
	e->cpuidle = strdup(cpuidle);
	e->note = strdup(note ? note : "");
	e->skipped = strdup(skipped ? skipped : "");
	return e->name && e->cpufreq && e->cpuidle && e->note && e->skipped ? 0 : -1;
}

void cmp_set_unit(struct cmp_set *s, const char *unit)
{
	int n = (int)strnlen(unit, RESULT_NAME_MAX), m;

	snprintf(s->unit, sizeof(s->unit), "%.*s", n, unit);
	snprintf(s->metric[0].unit, sizeof(s->metric[0].unit), "(%.*s)", n, unit);
	/* "round trips/s" does round trips: one is a "round trip". */
	if (n > 3 && strcmp(unit + n - 3, "s/s") == 0)
		snprintf(s->work, sizeof(s->work), "%.*s", n - 3, unit);
	else if (n > 2 && strcmp(unit + n - 2, "/s") == 0)
		snprintf(s->work, sizeof(s->work), "%.*s", n - 2, unit);
	else
		snprintf(s->work, sizeof(s->work), "unit of work");
	for (m = 0; m < s->nmetrics; m++)
		if (s->metric[m].what == CMP_ENERGY_WORK)
			snprintf(s->metric[m].unit, sizeof(s->metric[m].unit), "(J/%.*s)", 40,
				 strcmp(s->work, "unit of work") ? s->work : "unit");
}

static double figure(const struct cmp_metric *m, const struct run_result *r)
{
	switch (m->what) {
	case CMP_THROUGHPUT: return r->throughput;
	case CMP_LATENCY:    return hist_mean(&r->latency) / NS_PER_MS;
	case CMP_POWER:      return result_power_w(r);
	case CMP_FREQ:       return result_bzy_mhz(r);
	case CMP_RESIDENCY:  return result_residency_pct(r, m->arg);
	case CMP_UTIL:       return result_util_pct(r, m->arg);
	case CMP_PKG_IDLE:   return result_pkg_all_idle_pct(r, m->arg);
	case CMP_PKG_CPU_IDLE: return result_pkg_cpu_idle_pct(r, m->arg);
	case CMP_RUN_TIME:   return (double)r->duration_ns / NS_PER_SEC;
	case CMP_ENERGY:     return result_energy_j(r);
	case CMP_LATENCY_Q:  return hist_quantile(&r->latency, m->arg / 1000.0) / NS_PER_MS;
	case CMP_PKG_POWER:  return result_package_power_w(r);
	case CMP_ENERGY_WORK: return r->work_done > 0 ? result_energy_j(r) / r->work_done : 0;
	}
	return 0;
}

void cmp_sample(const struct cmp_set *s, const struct run_result *r, double *out)
{
	int i;

	for (i = 0; i < s->nmetrics; i++)
		out[i] = figure(&s->metric[i], r);
}

void cmp_put_run(struct cmp_set *s, int p, int run, const double *figures)
{
	int m;

	for (m = 0; m < s->nmetrics; m++)
		cmp_samples(s, p, m)[run] = figures[m];
}

void cmp_summarize(const struct cmp_set *s, int p, int m, struct cmp_summary *out)
{
	const double *x = cmp_samples(s, p, m), *b = cmp_samples(s, s->baseline, m);
	double base = stats_mean(b, s->nruns);

	memset(out, 0, sizeof(*out));
	out->mean = stats_mean(x, s->nruns);
	out->ci = stats_ci_half(x, s->nruns, CMP_LEVEL);
	out->constant = s->nruns > 1;
	for (int r = 1; r < s->nruns; r++)
		out->constant &= x[r] == x[0];
	/* The ratio's interval treats the baseline's mean as exact: it says
	 * how precisely this profile is known on the baseline's scale, while
	 * the test below is what decides whether the two differ. */
	out->points = s->metric[m].points;
	out->has_ratio = isfinite(base) && (out->points || base != 0);
	if (out->has_ratio && out->points) {
		out->ratio = out->mean - base;
		out->ratio_ci = out->ci;
	} else if (out->has_ratio) {
		out->ratio = out->mean / base;
		out->ratio_ci = out->ci / fabs(base);
	}
	out->p = -1;
	if (p != s->baseline && s->nruns > 1) {
		out->p = stats_welch_p(x, s->nruns, b, s->nruns);
		out->not_significant = out->p >= CMP_ALPHA;
	}
}

int cmp_decimals(const struct cmp_set *s, int m)
{
	double top = 0;
	int p, d;

	if (s->metric[m].decimals >= 0)
		return s->metric[m].decimals;
	for (p = 0; p < s->nprofiles; p++) {
		double v = fabs(stats_mean(cmp_samples(s, p, m), s->nruns));

		if (isfinite(v) && v > top)
			top = v;
	}
	if (!(top > 0))
		return 2;
	d = 3 - (int)floor(log10(top));
	return d < 0 ? 0 : d > 6 ? 6 : d;
}

/* "mean ± ci" on the metric's scale, or the ratio to the baseline's mean
 * followed by the significance mark (two characters, so columns align). */
void cmp_cell(const struct cmp_set *s, int p, int m, int rel, char *buf, size_t size)
{
	char a[RESULT_NUM_MAX], b[RESULT_NUM_MAX];
	const char *mark;
	struct cmp_summary sum;
	int dec = rel ? (s->metric[m].points ? 2 : 3) : cmp_decimals(s, m);
	double v, ci;

	cmp_summarize(s, p, m, &sum);
	if (rel && !sum.has_ratio) {
		snprintf(buf, size, "-%s", s->nruns > 1 ? "  " : "");
		return;
	}
	v = rel ? sum.ratio : sum.mean;
	ci = rel ? sum.ratio_ci : sum.ci;
	result_fmt_num(a, sizeof(a), v, dec);
	if (rel && sum.points) {
		/* "+1.23 pt": signed, so that a fall reads as one */
		char signed_pt[RESULT_NUM_MAX + 8];
		snprintf(signed_pt, sizeof(signed_pt), "%s%s pt", a[0] == '-' ? "" : "+", a);
		snprintf(a, sizeof(a), "%.*s", (int)sizeof(a) - 1, signed_pt);
	}
	if (s->nruns < 2) {
		snprintf(buf, size, "%s", a);
		return;
	}
	mark = !rel ? "" : sum.not_significant ? " ~" : "  ";
	/* Every run the same: no spread to give, and "± 0.0" would hide that. */
	if (sum.constant) {
		snprintf(buf, size, "%s constant%s", a, mark);
		return;
	}
	/* A spread too small for the decimals shown is "< 0.01", not "0.00". */
	if (ci < 0.5 * pow(10, -dec)) {
		result_fmt_num(b, sizeof(b), pow(10, -dec), dec);
		snprintf(buf, size, "%s \u00b1 <%s%s", a, b, mark);
		return;
	}
	result_fmt_num(b, sizeof(b), ci, dec);
	snprintf(buf, size, "%s \u00b1 %s%s", a, b, mark);
}

static int find(const struct cmp_set *s, enum cmp_what what)
{
	for (int m = 0; m < s->nmetrics; m++)
		if (s->metric[m].what == what)
			return m;
	return -1;
}

/* "1.12x throughput" of the summary line, "" when there is no ratio. */
static size_t ratio_text(const struct cmp_set *s, int p, enum cmp_what what, const char *name,
			 char *buf, size_t size, bool first)
{
	struct cmp_summary sum;
	char a[RESULT_NUM_MAX];
	int m = find(s, what);

	if (m < 0 || size == 0)
		return 0;
	for (int k = m; k < s->nmetrics; k++)
		if (s->metric[k].what == what && (what != CMP_LATENCY_Q || s->metric[k].arg == 990))
			m = k;
	cmp_summarize(s, p, m, &sum);
	if (!sum.has_ratio)
		return 0;
	return (size_t)snprintf(buf, size, "%s%s\u00d7 %s%s", first ? "" : ", ",
				result_fmt_num(a, sizeof(a), sum.ratio, 3), name,
				sum.not_significant ? " (~)" : "");
}

void cmp_summary_line(const struct cmp_set *s, int p, char *buf, size_t size)
{
	char energy[RESULT_NAME_MAX + 24];
	size_t n = 0;

	snprintf(energy, sizeof(energy), "energy per %s", s->work[0] ? s->work : "unit of work");
	buf[0] = '\0';
	n += ratio_text(s, p, CMP_THROUGHPUT, "throughput", buf + n, size - n, n == 0);
	if (n < size)
		n += ratio_text(s, p, CMP_POWER, "power", buf + n, size - n, n == 0);
	if (n < size)
		n += ratio_text(s, p, CMP_ENERGY_WORK, energy, buf + n, size - n, n == 0);
	if (n < size)
		n += ratio_text(s, p, CMP_LATENCY_Q, "p99 latency", buf + n, size - n, n == 0);
	if (n < size)
		snprintf(buf + n, size - n, " vs %s", s->profile[s->baseline].name);
}

int cmp_write(FILE *out, const struct cmp_set *s, enum cmp_format f)
{
	int rc;

	switch (f) {
	case CMP_TABLE: rc = cmp_write_table(out, s); break;
	case CMP_CSV:   rc = cmp_write_csv(out, s); break;
	case CMP_JSON:  rc = cmp_write_json(out, s); break;
	default:        return -1;
	}
	if (fflush(out) != 0 || ferror(out))
		return -1;
	return rc;
}
