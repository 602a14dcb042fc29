// SPDX-License-Identifier: GPL-2.0-only
/* pmlab compare's statistics and tables: sample statistics against values
 * worked out by hand (and checked against published t tables), the figures
 * taken from a run built by hand, and the writers on a synthetic set of
 * results whose every cell is known. */
#include <jansson.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "export/compare_html.h"
#include "metrics/compare.h"
#include "metrics/stats.h"
#include "metrics/texttable.h"

#define assert_near(a, b, eps)                                                        \
	do {                                                                          \
		double a_ = (a), b_ = (b);                                            \
		if (!(fabs(a_ - b_) <= (eps)))                                        \
			fail_msg("%s = %.12g, expected %.12g (+- %g)", #a, a_, b_,    \
				 (double)(eps));                                      \
	} while (0)

static void assert_contains(const char *text, const char *needle)
{
	if (!strstr(text, needle))
		fail_msg("output lacks '%s':\n%s", needle, text);
}

static const double one_to_five[] = { 1, 2, 3, 4, 5 };

/* mean 3; sd = sqrt(10 / 4) = 1.58114; t(0.975, 4) = 2.776445 (tables);
 * half-width = 2.776445 * 1.58114 / sqrt(5) = 1.963243. */
static void test_mean_sd_interval(void **state)
{
	const double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };

	assert_near(stats_mean(one_to_five, 5), 3, 1e-12);
	assert_near(stats_sd(one_to_five, 5), sqrt(2.5), 1e-12);
	assert_near(stats_ci_half(one_to_five, 5, 0.95), 1.963243, 1e-6);
	/* mean 5, sum of squares 32, sd sqrt(32/7); t(0.975, 7) = 2.364624 */
	assert_near(stats_ci_half(x, 8, 0.95), 2.364624 * sqrt(32.0 / 7) / sqrt(8), 1e-6);
	/* A single run has no spread and no interval. */
	assert_near(stats_sd(one_to_five, 1), 0, 0);
	assert_near(stats_ci_half(one_to_five, 1, 0.95), 0, 0);
	/* Large offsets do not cancel the spread away. */
	const double big[] = { 1e9 + 1, 1e9 + 2, 1e9 + 3 };
	assert_near(stats_sd(big, 3), 1, 1e-6);
}

static void test_t_quantiles(void **state)
{
	/* Student's t table, two-sided 95 %: df 1, 2, 4, 9, 30. */
	assert_near(stats_t_quantile(0.975, 1), 12.706205, 1e-5);
	assert_near(stats_t_quantile(0.975, 2), 4.302653, 1e-5);
	assert_near(stats_t_quantile(0.975, 4), 2.776445, 1e-5);
	assert_near(stats_t_quantile(0.975, 9), 2.262157, 1e-5);
	assert_near(stats_t_quantile(0.975, 30), 2.042272, 1e-5);
	assert_near(stats_t_quantile(0.025, 4), -2.776445, 1e-5);
	assert_near(stats_t_quantile(0.995, 4), 4.604095, 1e-5);
	/* The CDF and its inverse agree; df 1 is Cauchy: P(T <= 1) = 3/4. */
	assert_near(stats_t_cdf(1, 1), 0.75, 1e-10);
	assert_near(stats_t_cdf(0, 3.5), 0.5, 1e-12);
	assert_near(stats_t_cdf(stats_t_quantile(0.9, 6.3), 6.3), 0.9, 1e-9);
}

/* Welch: a = 1..5 against b = a + 2: t = -2, df = 8, p = 0.0805 (not
 * significant at 5 %); against a + 3: t = -3, p = 0.0171 (significant).
 * Unequal sizes and spreads: {1,2,3} against {10,20,30,40}: t = -3.549,
 * df = 3.048, p = 0.0372. */
static void test_welch(void **state)
{
	const double b[] = { 3, 4, 5, 6, 7 }, c[] = { 4, 5, 6, 7, 8 };
	const double d[] = { 1, 2, 3 }, e[] = { 10, 20, 30, 40 };
	const double flat1[] = { 2, 2, 2 }, flat2[] = { 3, 3, 3 };

	assert_near(stats_welch_p(one_to_five, 5, b, 5), 0.080516, 1e-5);
	assert_near(stats_welch_p(one_to_five, 5, c, 5), 0.017072, 1e-5);
	assert_near(stats_welch_p(d, 3, e, 4), 0.037163, 1e-5);
	/* Symmetric in its arguments. */
	assert_near(stats_welch_p(e, 4, d, 3), stats_welch_p(d, 3, e, 4), 1e-12);
	assert_near(stats_welch_p(one_to_five, 5, one_to_five, 5), 1, 1e-12);
	/* No spread at all: equal means are the same, different ones differ. */
	assert_near(stats_welch_p(flat1, 3, flat1, 3), 1, 0);
	assert_near(stats_welch_p(flat1, 3, flat2, 3), 0, 0);
	/* Undefined with one run. */
	assert_true(stats_welch_p(one_to_five, 1, b, 5) < 0);
}

/* A machine with two C-states and one package. */
static struct machine mach;

static void fill_machine(void)
{
	memset(&mach, 0, sizeof(mach));
	strcpy(mach.name, "tiny");
	mach.packages = 1;
	mach.cores_per_package = 4;
	mach.threads_per_core = 1;
	mach.online_cpus = 4;
	mach.ncstates = 2;
	strcpy(mach.cstates[0].name, "C1");
	strcpy(mach.cstates[1].name, "C6");
}

static int metric(const struct cmp_set *s, const char *key)
{
	for (int m = 0; m < s->nmetrics; m++)
		if (strcmp(s->metric[m].key, key) == 0)
			return m;
	fail_msg("no metric %s", key);
	return -1;
}

/* One CPU for one second: C0 400 ms at 2000 MHz, C6 600 ms; user 300,
 * sys 100, iowait 100, idle 500 ms; 20 J; the package all idle 500 ms;
 * latencies 1 and 3 ms. So: 2.0 GHz Bzy (Avg_MHz would be 800), C0 40 %,
 * C6 60 %, 20 W, Pkg0 idle 50 %, latency 2 ms. */
static void test_figures_of_a_run(void **state)
{
	struct cpu_result cpu = { 0 };
	struct package_result pkg = { 0 };
	struct run_result r = { 0 };
	struct cmp_set s;
	double v[64];

	fill_machine();
	mach.online_cpus = 1;
	r.m = &mach;
	r.ncpus = 1;
	r.cpus = &cpu;
	r.npackages = 1;
	r.pkgs = &pkg;
	r.duration_ns = NS_PER_SEC;
	r.throughput = 1234.5;
	hist_init(&r.latency);
	hist_add(&r.latency, 1 * NS_PER_MS);
	hist_add(&r.latency, 3 * NS_PER_MS);
	r.energy_core_dynamic_j = 15;
	r.energy_platform_j = 5;
	cpu.c0_ns = 400 * NS_PER_MS;
	cpu.c0_mhz_ns = 400.0 * NS_PER_MS * 2000;
	cpu.cstate_ns[1] = 600 * NS_PER_MS;
	cpu.user_ns = 300 * NS_PER_MS;
	cpu.sys_ns = 100 * NS_PER_MS;
	cpu.idle_ns = 500 * NS_PER_MS;
	cpu.iowait_ns = 100 * NS_PER_MS;
	pkg.all_idle_ns = 500 * NS_PER_MS;

	assert_int_equal(cmp_init(&s, &mach, 1, 1), 0);
	/* throughput, latency (mean, p50, p99), power (total, package), energy
	 * per unit of work, freq, C0 C1 C6, Pkg0 both ways, 4 utilisation */
	assert_int_equal(s.nmetrics, 17);
	assert_true(s.nmetrics <= 64);
	cmp_sample(&s, &r, v);
	assert_near(v[metric(&s, "throughput")], 1234.5, 1e-9);
	assert_near(v[metric(&s, "latency_mean_ms")], 2, 0.05);
	assert_near(v[metric(&s, "power_w")], 20, 1e-9);
	assert_near(v[metric(&s, "bzy_mhz")], 2000, 1e-9);
	assert_near(v[metric(&s, "busy_pct")], 40, 1e-9);
	assert_near(v[metric(&s, "residency_C1_pct")], 0, 1e-9);
	assert_near(v[metric(&s, "residency_C6_pct")], 60, 1e-9);
	assert_near(v[metric(&s, "pkg0_idle_pct")], 50, 1e-9);
	/* The package's CPUs idle (idle + iowait) 600 of 1000 ms. */
	assert_near(v[metric(&s, "pkg0_cpu_idle_pct")], 60, 1e-9);
	assert_near(v[metric(&s, "util_user_pct")], 30, 1e-9);
	assert_near(v[metric(&s, "util_sys_pct")], 10, 1e-9);
	assert_near(v[metric(&s, "util_iowait_pct")], 10, 1e-9);
	assert_near(v[metric(&s, "util_idle_pct")], 50, 1e-9);
	cmp_free(&s);
}

/* Three profiles, five runs. Throughput: "base" 98..102 (mean 100, half
 * width 1.963), "fast" the same + 10 (Welch t = -10: significant), "same"
 * + 0.5 (t = 0.5: not significant). C6 residency is 0 in the baseline. */
static void fill_set(struct cmp_set *s, int nruns)
{
	static const double base[] = { 100, 102, 98, 101, 99 };
	static const double shift[] = { 0, 10, 0.5 };
	static const char *const names[] = { "base", "fast", "same" };

	fill_machine();
	assert_int_equal(cmp_init(s, &mach, 3, nruns), 0);
	strcpy(s->workload, "oltp");
	s->duration_s = 10;
	s->seed = 1;
	cmp_set_unit(s, "tpm");
	for (int p = 0; p < 3; p++) {
		assert_int_equal(cmp_set_profile(s, p, names[p], p == 1 ? "performance" : "ondemand",
						 "menu", p == 1 ? "2 settings" : NULL,
						 p == 1 ? "[disk] readahead=4096 (not modelled)" : NULL),
				 0);
		for (int r = 0; r < nruns; r++) {
			double v[64] = { 0 };

			v[metric(s, "throughput")] = base[r] + shift[p];
			v[metric(s, "power_w")] = 100 + 10 * p + 0.1 * r;
			v[metric(s, "busy_pct")] = 50 + r;
			v[metric(s, "residency_C6_pct")] = p == 0 ? 0 : 5;
			cmp_put_run(s, p, r, v);
		}
	}
}

/* CMP_TABLE, CMP_CSV, CMP_JSON, or this for export/compare_html.c. */
#define FORMAT_HTML ((enum cmp_format)-1)

static char *write_set(const struct cmp_set *s, enum cmp_format f)
{
	/* On the heap: the stream keeps the address of the buffer pointer,
	 * which -O3's dangling-pointer analysis would not let live on the
	 * stack past the return. */
	struct { char *text; size_t len; } *m = calloc(1, sizeof(*m));
	FILE *out;
	char *text;

	assert_non_null(m);
	out = open_memstream(&m->text, &m->len);
	assert_non_null(out);
	assert_int_equal(f == FORMAT_HTML ? cmp_write_html(out, s) : cmp_write(out, s, f), 0);
	fclose(out);
	text = m->text;
	free(m);
	return text;
}

/* The line of the table that starts with " NAME " after `after`. */
static char *row(char *text, const char *after, const char *name)
{
	char key[64], *at = strstr(text, after), *end;
	static char line[1024];

	assert_non_null(at);
	snprintf(key, sizeof(key), "\n  %s ", name);
	at = strstr(at, key);
	assert_non_null(at);
	at += 3;
	end = strchr(at, '\n');
	snprintf(line, sizeof(line), "%.*s", (int)(end - at), at);
	return line;
}

static void test_summary(void **state)
{
	struct cmp_set s;
	struct cmp_summary sum;

	fill_set(&s, 5);
	cmp_summarize(&s, 1, metric(&s, "throughput"), &sum);
	assert_near(sum.mean, 110, 1e-9);
	assert_near(sum.ci, 1.963243, 1e-6);
	assert_true(sum.has_ratio);
	assert_near(sum.ratio, 1.1, 1e-12);
	assert_near(sum.ratio_ci, 0.01963243, 1e-8);
	assert_true(sum.p >= 0 && sum.p < 1e-5);
	assert_false(sum.not_significant);
	cmp_summarize(&s, 2, metric(&s, "throughput"), &sum);
	assert_true(sum.not_significant);
	/* The baseline is not tested against itself. */
	cmp_summarize(&s, 0, metric(&s, "throughput"), &sum);
	assert_true(sum.p < 0);
	assert_false(sum.not_significant);
	/* A baseline mean of 0 gives no ratio (power is 100 + 10 p + 0.1 r, so
	 * set one to 0 by hand) ... */
	for (int r = 0; r < 5; r++)
		cmp_samples(&s, 0, metric(&s, "power_w"))[r] = 0;
	cmp_summarize(&s, 1, metric(&s, "power_w"), &sum);
	assert_false(sum.has_ratio);
	/* ... but a percentage is set against it in points: C6 5 % against 0. */
	cmp_summarize(&s, 1, metric(&s, "residency_C6_pct"), &sum);
	assert_true(sum.has_ratio && sum.points);
	assert_near(sum.ratio, 5, 1e-12);
	assert_near(sum.ratio_ci, 0, 1e-12);
	/* C0 is the same in every profile: +0 points. */
	cmp_summarize(&s, 2, metric(&s, "busy_pct"), &sum);
	assert_true(sum.points);
	assert_near(sum.ratio, 0, 1e-12);
	assert_near(sum.ratio_ci, sum.ci, 1e-12);
	/* Four significant digits for throughput, two decimals for %. */
	assert_int_equal(cmp_decimals(&s, metric(&s, "throughput")), 1);
	assert_int_equal(cmp_decimals(&s, metric(&s, "busy_pct")), 2);
	cmp_free(&s);
}

static void test_table(void **state)
{
	struct cmp_set s;
	char *t;

	fill_set(&s, 5);
	t = write_set(&s, CMP_TABLE);
	assert_contains(t, "pmlab compare: machine tiny (4 CPUs), workload oltp\n");
	assert_contains(t, "5 runs of 10 s simulated per profile, seeds 1..5; mean \u00b1 95 % "
			   "confidence interval (Student t)");
	assert_contains(t, "Bzy_MHz");
	assert_contains(t, "\n  fast     cpufreq performance, cpuidle menu; 2 settings\n"
			   "  same     cpufreq ondemand, cpuidle menu\n"
			   "(--format json and html list the options not modelled)\n");
	/* Headings: the workload's unit under Throughput, a column per state,
	 * turbostat's and sar's names. */
	assert_contains(t, "(tpm)");
	assert_contains(t, "  C6%");
	assert_contains(t, "  Busy%");
	assert_contains(t, "  PkgWatt");
	assert_contains(t, "  Pkg0 %all_idle");
	assert_contains(t, "  %system");
	/* Absolute figures with their interval, "constant" where every run
	 * gave the same figure; one rule under the headings, none between rows. */
	assert_contains(row(t, "Throughput, latency and power", "base"),
			"base     100.0 \u00b1 2.0  0.00 constant");
	assert_contains(t, "-\n  base ");
	assert_null(strstr(t, "--\n  fast "));
	/* Relative table: the baseline at 1.000, a significant difference
	 * unmarked, an insignificant one marked, no ratio against 0. */
	char *rel = strstr(t, "Relative to the baseline, base");
	assert_non_null(rel);
	assert_contains(rel, "Welch's t-test, p >= 0.05");
	assert_contains(row(t, "Relative", "base"), "  1.000 \u00b1 0.020  ");
	assert_contains(row(t, "Relative", "fast"), "  1.100 \u00b1 0.020  ");
	assert_contains(row(t, "Relative", "same"), "  1.005 \u00b1 0.020 ~");
	/* Bzy_MHz is 0 in the baseline: no ratio; the percentages are set
	 * against the baseline in points, C6's 5 % against 0 among them. */
	assert_contains(row(strstr(t, "Relative"), "P-state", "fast"),
			"fast         -    +0.00 pt \u00b1 1.96 ~");
	assert_contains(row(strstr(t, "Relative"), "P-state", "fast"), "+5.00 pt constant");
	/* hyperfine's summary: ratios of means, '(~)' when not significant;
	 * energy per unit of work and p99 latency are 0 in the baseline. */
	assert_contains(t, "\nSummary ((~): not significant)\n"
			   "  fast: 1.100\u00d7 throughput, 1.100\u00d7 power vs base\n"
			   "  same: 1.005\u00d7 throughput (~), 1.200\u00d7 power vs base\n");
	/* Every line fits 100 columns. */
	for (char *l = t; *l;) {
		char *e = strchr(l, '\n'), one[1024];
		size_t n = e ? (size_t)(e - l) : strlen(l);

		snprintf(one, sizeof(one), "%.*s", (int)n, l);
		if (text_cols(one) > 100)
			fail_msg("line wider than 100 columns: %s", one);
		l += n + (e != NULL);
	}
	/* No line ends in a space. */
	assert_null(strstr(t, " \n"));
	free(t);
	cmp_free(&s);
}

static void test_single_run_has_no_intervals(void **state)
{
	struct cmp_set s;
	char *t;

	fill_set(&s, 1);
	t = write_set(&s, CMP_TABLE);
	assert_null(strstr(t, "\u00b1"));
	assert_null(strstr(t, " ~"));
	assert_contains(t, "1 run of 10 s simulated per profile, seed 1\n");
	assert_contains(t, "no intervals, no significance test");
	assert_contains(row(t, "Throughput, latency and power", "fast"), "fast          110.0     0.00  0.00  0.00  110.0");
	free(t);
	cmp_free(&s);
}

static void test_csv(void **state)
{
	struct cmp_set s;
	char *t, *line;
	int lines = 0;

	fill_set(&s, 5);
	t = write_set(&s, CMP_CSV);
	for (char *p = t; *p; p++)
		lines += *p == '\n';
	/* header, 3 x 5 runs, 3 summaries */
	assert_int_equal(lines, 1 + 15 + 3);
	assert_true(strncmp(t, "kind,profile,cpufreq,cpuidle,run,seed,throughput_unit,throughput,"
			       "throughput_ci95,throughput_vs_baseline,throughput_p_welch,", 108) == 0);
	assert_contains(t, "\nrun,fast,performance,menu,5,5,tpm,109,,,,");
	line = strstr(t, "\nsummary,same,ondemand,menu,,,tpm,100.5,1.963243");
	assert_non_null(line);
	/* The baseline's summary has no p-value. */
	assert_contains(t, "\nsummary,base,ondemand,menu,,,tpm,100,1.963243");
	assert_contains(strstr(t, "\nsummary,base"), ",1,,");
	free(t);
	cmp_free(&s);
}

static void test_json(void **state)
{
	struct cmp_set s;
	json_error_t err;
	json_t *root, *fast, *thr;
	char *t;

	fill_set(&s, 5);
	t = write_set(&s, CMP_JSON);
	root = json_loads(t, 0, &err);
	if (!root)
		fail_msg("bad JSON: %s", err.text);
	assert_string_equal(json_string_value(json_object_get(root, "baseline")), "base");
	assert_int_equal(json_integer_value(json_object_get(root, "runs")), 5);
	fast = json_array_get(json_object_get(root, "profiles"), 1);
	assert_int_equal(json_array_size(json_object_get(fast, "runs")), 5);
	thr = json_object_get(json_object_get(fast, "summary"), "throughput");
	assert_near(json_number_value(json_object_get(thr, "mean")), 110, 1e-9);
	assert_near(json_number_value(json_object_get(thr, "vs_baseline")), 1.1, 1e-9);
	assert_true(json_is_true(json_object_get(thr, "significant")));
	/* A percentage's vs_baseline is a difference in points, and the
	 * metric list says so. */
	json_t *c6 = json_object_get(json_object_get(fast, "summary"), "residency_C6_pct");
	assert_near(json_number_value(json_object_get(c6, "vs_baseline")), 5, 1e-9);
	json_t *metrics = json_object_get(root, "metrics");
	for (size_t i = 0; i < json_array_size(metrics); i++) {
		json_t *mm = json_array_get(metrics, i);
		const char *key = json_string_value(json_object_get(mm, "key"));
		const char *vs = json_string_value(json_object_get(mm, "vs_baseline"));
		assert_non_null(vs);
		assert_string_equal(vs, strstr(key, "_pct") ? "points" : "ratio");
	}
	assert_string_equal(json_string_value(json_object_get(fast, "not_modelled")),
			    "[disk] readahead=4096 (not modelled)");
	thr = json_object_get(json_object_get(json_array_get(json_object_get(root, "profiles"), 0),
					      "summary"), "throughput");
	assert_true(json_is_null(json_object_get(thr, "p_welch")));
	json_decref(root);
	free(t);
	cmp_free(&s);
}

static void test_html_is_self_contained(void **state)
{
	struct cmp_set s;
	char *t;

	fill_set(&s, 5);
	strcpy(s.workload, "<oltp & co>");
	t = write_set(&s, FORMAT_HTML);
	assert_true(strncmp(t, "<!DOCTYPE html>", 15) == 0);
	assert_contains(t, "<style>");
	assert_contains(t, "&lt;oltp &amp; co&gt;");
	assert_null(strstr(t, "<oltp"));
	/* Two tables, nothing fetched from elsewhere. */
	assert_non_null(strstr(strstr(t, "<table>") + 1, "<table>"));
	assert_null(strstr(t, "src="));
	assert_null(strstr(t, "href="));
	assert_null(strstr(t, "@import"));
	assert_contains(t, "<td class=\"ns\">1.005 \u00b1 0.020 ~</td>");
	assert_contains(t, "<details><summary>not modelled</summary>[disk] readahead=4096 (not "
			   "modelled)</details>");
	assert_contains(t, "</html>\n");
	free(t);
	cmp_free(&s);
}

int main(void)
{
	/* The width tables fit, whatever the terminal or $COLUMNS. */
	text_width_set(100);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mean_sd_interval),
		cmocka_unit_test(test_t_quantiles),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_figures_of_a_run),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_single_run_has_no_intervals),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_html_is_self_contained),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
