// SPDX-License-Identifier: GPL-2.0-only
/* End-to-end: pmlab validate on a tiny experiment whose targets are
 * derived from a first deterministic run, so that every error is known. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pmlab_run.h"

#define FIX PMLAB_SOURCE_ROOT "/tests/fixtures/validation"
#define RUN "--machine xeon-e5-2650l-v3 --cpus 4 --workload oltp --duration 0.5 --runs 1 " \
	    "--cpuidle menu --set agents=4 --format csv"

static void assert_contains(const char *text, const char *needle)
{
	if (!strstr(text, needle))
		fail_msg("output lacks '%s':\n%s", needle, text);
}

/* Column `col` of the first data row of a compare CSV (after its "#"
 * lines, the inputs). */
static double csv_field(const char *csv, const char *col)
{
	while (csv[0] == '#' && strchr(csv, '\n'))
		csv = strchr(csv, '\n') + 1;
	const char *hdr = csv, *row = strchr(csv, '\n');
	int idx = 0;

	assert_non_null(row);
	row++;
	for (const char *p = hdr; p < row; idx++) {
		size_t n = strcspn(p, ",\n");
		if (n == strlen(col) && strncmp(p, col, n) == 0)
			break;
		p += n + 1;
		if (p >= row)
			fail_msg("no column %s", col);
	}
	for (int i = 0; i < idx; i++)
		row = strchr(row, ',') + 1;
	return strtod(row, NULL);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 1 << 20);

	assert_non_null(f);
	fread(buf, 1, (1 << 20) - 1, f);
	fclose(f);
	return buf;
}

static void test_errors_and_orderings(void **state)
{
	(void)state;
	struct out a = run("compare " RUN " --profiles none:cpufreq=performance");
	struct out b = run("compare " RUN " --profiles none:cpufreq=powersave");
	char ini[4096], args[512], *path, *md, mdpath[] = "/tmp/pmlab-validate-XXXXXX";
	double pa, pb, ca, ta, tb;
	int fd;

	assert_int_equal(a.status, 0);
	assert_int_equal(b.status, 0);
	pa = csv_field(a.text, "power_w");
	pb = csv_field(b.text, "power_w");
	ca = csv_field(a.text, "busy_pct");
	ta = csv_field(a.text, "throughput");
	tb = csv_field(b.text, "throughput");
	assert_true(pa > pb);
	assert_true(ta != tb);
	/* Row perf: power exact (+0.00 %), C0 2 points above (-2.00 pt), the
	 * packages' power exact (the preset's platform is 80 W). Row save:
	 * power target pb / 0.9 (-10.00 %), throughput relative to perf
	 * exact. One ordering true, one false; save2 runs as save does, so
	 * '~' holds between them but not between perf and save (more than
	 * 3 % apart). The two false ones name what they lack. */
	snprintf(ini, sizeof(ini),
		 "[experiment]\nname = tiny\nsource = a test,\n  two lines\n"
		 "machine = xeon-e5-2650l-v3\ncpus = 4\nworkload = oltp\n"
		 "duration = 0.5\nruns = 1\ncpuidle = menu\nbaseline = perf\ntie_tolerance = 3\n"
		 "[setup]\nwarehouses = 16\n"
		 "[calibration]\nagents = 4\n"
		 "[row perf]\nset = cpufreq=performance\ntarget.power_w = %.17g\ntarget.C0 = %.17g\n"
		 "target.pkg_power_w = %.17g\n"
		 "[row save]\nset = cpufreq=powersave\ntarget.power_w = %.17g\n"
		 "target.throughput_rel = %.17g\n"
		 "[row save2]\nset = cpufreq=powersave\n"
		 "[orderings]\npower_w: perf > save\nthroughput_tpm: save > perf\n"
		 "power_w: perf > save ~ save2\npower_w: perf ~ save\n"
		 "[missing]\nthroughput_tpm = mechanism X\npower_w = mechanism Y,\n  on two lines\n",
		 pa, ca + 2, pa - 80, pb / 0.9, tb / ta);
	path = write_temp(ini, ".ini");
	fd = mkstemp(mdpath);
	assert_true(fd >= 0);
	close(fd);
	snprintf(args, sizeof(args), "validate --jobs 2 --data %s --write %s", path, mdpath);
	struct out v = run(args);
	if (v.status != 0)
		fail_msg("exit %d: %s", v.status, v.err);
	assert_string_equal(v.text, "tiny: max error 10.00, mean error 2.40, orderings 2/4 match\n");
	md = slurp(mdpath);
	assert_contains(md, "| perf | +0.00 % | -2.00 pt | +0.00 % | |");
	assert_contains(md, "| save | -10.00 % | | | +0.00 % |");
	assert_contains(md, "Source: a test, two lines\n");
	assert_contains(md, "Setup (--set, as the source ran it; not fitted): `warehouses=16`");
	assert_contains(md, "Calibration (--set, fitted on the baseline row): `agents=4`");
	/* The summary on top: 4 of 5 cells within 5 % / 3 pt, 2 of 4
	 * orderings, and the mechanisms the false ones lack. */
	assert_contains(md, "| [tiny](#tiny) | 4/5 | 2/4 | partly reproduced; missing: mechanism X; "
			"mechanism Y, on two lines |");
	assert_contains(md, "- **mechanism X**: tiny `throughput_tpm: save > perf`.");
	assert_contains(md, "- **mechanism Y, on two lines**: tiny `power_w: perf ~ save`.");
	assert_contains(md, "- ✗ `throughput_tpm: save > perf` -- missing: mechanism X");
	assert_true(strstr(md, "## Summary") < strstr(md, "## tiny"));
	assert_contains(md, "- ✓ `power_w: perf > save`");
	assert_contains(md, "- ✗ `throughput_tpm: save > perf`");
	assert_contains(md, "- ✓ `power_w: perf > save ~ save2`");
	assert_contains(md, "- ✗ `power_w: perf ~ save`");
	assert_contains(md, "save/power_w (-10.00 %)");
	free(md);
	unlink(mdpath);
	unlink(path);
	free(path);
	out_free(&a);
	out_free(&b);
	out_free(&v);
}

/* The section of the report about one experiment: from its heading to the
 * next experiment's (a copy, NUL-terminated). */
static char *section_of(const char *md, const char *name)
{
	char head[128];
	const char *from, *to;

	snprintf(head, sizeof(head), "\n## %s\n", name);
	from = strstr(md, head);
	if (!from)
		fail_msg("report has no section %s", name);
	to = strstr(from + strlen(head), "\n## ");
	return strndup(from, to ? (size_t)(to - from) : strlen(from));
}

/* The published orderings pmlab reproduces, checked on every change (the
 * issue's rule: they must keep holding). The ones it misses are listed in
 * docs/validation.md with the mechanism each lacks ([missing] in its data
 * file); add each here once it holds. Left out although they hold today:
 * tuned-balanced-conservative's throughput_tpm and power_w orderings, whose
 * latency-performance > throughput-performance steps the model takes by
 * under 1 % (C1E's exit ramp; its notes explain), and sched-mc-power-savings'
 * runtime_s, whose levels 1 and 2 differ by under 1 % (level 2's gain is
 * the cache sharing the model underrates, its notes explain). */
static void test_published_orderings(void **state)
{
	(void)state;
	static const struct {
		const char *experiment, *ordering;
	} held[] = {
		{ "tuned-balanced-conservative",
		  "`latency_ms: balanced ~ powersave > balanced-conservative > latency-performance`" },
		{ "tuned-balanced-conservative",
		  "`freq_ghz: latency-performance > throughput-performance > balanced-conservative > "
		  "balanced ~ powersave`" },
		{ "sched-mc-power-savings", "`pkg0_cpu_idle: sched_mc=0 > sched_mc=1 > sched_mc=2`" },
		{ "sched-mc-power-savings", "`pkg1_cpu_idle: sched_mc=2 > sched_mc=1 > sched_mc=0`" },
		{ "sched-mc-power-savings", "`energy_rel: sched_mc=0 > sched_mc=1 > sched_mc=2`" },
		{ "freqinv-tbench8-haswell", "`throughput: intel_pstate > 1C-turbo > baseline`" },
		{ "freqinv-gitsource-skylake", "`runtime_rel: 4C-turbo ~ 1C-turbo`" },
		{ "freqinv-gitsource-skylake",
		  "`runtime_rel: baseline > intel_pstate/hwp > 1C-turbo`" },
		{ "freqinv-gitsource-skylake",
		  "`pkg_power_w: 1C-turbo > intel_pstate/hwp > baseline`" },
		{ "idle-pingpong-fast-2023", "`latency_us: ladder > teo ~ menu`" },
		{ "idle-pingpong-medium-2023", "`latency_us: ladder > menu ~ teo`" },
		{ "membw-haswell-ep", "`throughput_rel: turbo ~ 1.2GHz`" },
	};
	char args[512], line[512], mdpath[] = "/tmp/pmlab-published-XXXXXX";
	int fd = mkstemp(mdpath);

	assert_true(fd >= 0);
	close(fd);
	snprintf(args, sizeof(args), "validate --data %s/data/validation --write %s",
		 PMLAB_SOURCE_ROOT, mdpath);
	struct out v = run(args);
	if (v.status != 0)
		fail_msg("exit %d: %s", v.status, v.err);
	char *md = slurp(mdpath);
	for (size_t i = 0; i < sizeof(held) / sizeof(held[0]); i++) {
		char *sec = section_of(md, held[i].experiment);

		snprintf(line, sizeof(line), "- ✓ %s\n", held[i].ordering);
		if (!strstr(sec, line))
			fail_msg("%s: no longer holds: %s", held[i].experiment, held[i].ordering);
		free(sec);
	}
	/* At least eight experiments, each a row of the summary on top. */
	char *top = strndup(md, (size_t)(strstr(md, "\n## Where the model") - md));
	int rows = 0;
	for (const char *p = top; (p = strstr(p, "\n| [")); p++)
		rows++;
	assert_true(rows >= 8);
	free(top);
	free(md);
	unlink(mdpath);
	out_free(&v);
}

static void test_bad_data(void **state)
{
	(void)state;
	expect_usage_error("validate --data " FIX "/bad/bad-target.ini", "bad-target.ini:9: ");
	expect_usage_error("validate --data " FIX "/bad/bad-ordering.ini", "bad-ordering.ini:12: ");
	expect_usage_error("validate --data " FIX "/bad", "bad-ordering.ini:12: ");
	expect_usage_error("validate --data " FIX "/nosuch", "no such file");
	expect_usage_error("validate --data " FIX "/bad/bad-tie.ini",
			   "bad-tie.ini:14: power_w: '~' needs tie_tolerance =");
	expect_usage_error("validate --data " FIX "/bad/bad-row-setup.ini",
			   "bad-row-setup.ini:11: [row a]: hz is also a [setup] key");
	expect_usage_error("validate --data " FIX "/bad/bad-unknown-missing.ini",
			   "bad-unknown-missing.ini:11: [missing]: unknown figure 'watts'");
	/* NAME operands: only those experiments are read, and each must be there. */
	expect_usage_error("validate --data " FIX "/bad bad-tie", "bad-tie.ini:14: ");
	expect_usage_error("validate --data " FIX "/bad bad-tie nosuch",
			   "bad: no experiment nosuch.ini");
	expect_usage_error("validate --data " FIX "/bad/bad-tie.ini bad-target",
			   "no experiment bad-target.ini");
}

/* validate NAME...: the named experiments alone, in the directory's order. */
static void test_named_experiments(void **state)
{
	(void)state;
	char args[512];
	snprintf(args, sizeof(args), "validate --data %s/data/validation sched-mc-power-savings "
		 "idle-pingpong-slow-2023", PMLAB_SOURCE_ROOT);
	struct out o = run(args);
	if (o.status != 0)
		fail_msg("exit %d: %s", o.status, o.err);
	const char *second = strchr(o.text, '\n');
	assert_non_null(second);
	assert_int_equal(strncmp(o.text, "idle-pingpong-slow-2023: max error", 34), 0);
	assert_int_equal(strncmp(second + 1, "sched-mc-power-savings: max error", 33), 0);
	assert_string_equal(strchr(second + 1, '\n'), "\n");
	out_free(&o);
}


/* Every key's error names its own line (machine, cpus and baseline were
 * reported at line 1; workload, kernel and calibration keys at the first
 * [row]; duration = 1e12 overflowed into a message about something else). */
static void test_errors_at_their_line(void **state)
{
	(void)state;
#define HEAD "[experiment]\nname = t\nmachine = %s\ncpus = %s\nworkload = %s\nduration = %s\n" \
	"baseline = %s\nkernel = %s\nruns = 1\n[calibration]\n%s\n[row a]\nset = cpufreq=performance\n"
	static const struct {
		const char *machine, *cpus, *workload, *duration, *baseline, *kernel, *cal, *want;
	} cases[] = {
		{ "nosuch", "2", "oltp", "0.1", "a", "4.0", "agents = 2", ":3: machine = nosuch" },
		{ "i7-4790", "99", "oltp", "0.1", "a", "4.0", "agents = 2", ":4: cpus = 99" },
		{ "i7-4790", "2", "nosuch", "0.1", "a", "4.0", "agents = 2", ":5: workload = nosuch" },
		{ "i7-4790", "2", "oltp", "1e12", "a", "4.0", "agents = 2",
		  ":6: duration = 1e12: expected seconds above 0, at most 1000000" },
		{ "i7-4790", "2", "oltp", "0.1", "b", "4.0", "agents = 2", ":7: baseline = b: no [row b]" },
		{ "i7-4790", "2", "oltp", "0.1", "a", "0.1", "agents = 2", ":8: kernel = 0.1" },
		{ "i7-4790", "2", "oltp", "0.1", "a", "4.0", "agents = 2\nbogus_key = 3",
		  ":12: bogus_key = 3" },
		{ "i7-4790", "2", "oltp", "0.1", "a", "4.0", "agents = 99999999999999999999",
		  ":11: agents = 99999999999999999999" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char ini[2048], args[512];
		snprintf(ini, sizeof(ini), HEAD, cases[i].machine, cases[i].cpus, cases[i].workload,
			 cases[i].duration, cases[i].baseline, cases[i].kernel, cases[i].cal);
		char *path = write_temp(ini, ".ini");
		snprintf(args, sizeof(args), "validate --jobs 1 --data %s --write /dev/null", path);
		struct out o = run(args);
		char want[256];
		snprintf(want, sizeof(want), "%s%s", path, cases[i].want);
		assert_usage_error(&o, want);
		out_free(&o);
		unlink(path);
		free(path);
	}
#undef HEAD
	/* a line longer than the reader takes, and a NUL byte: refused at their line */
	char ini[8192];
	int n = snprintf(ini, sizeof(ini), "[experiment]\nname = t\n; ");
	memset(ini + n, 'x', 5000);
	snprintf(ini + n + 5000, sizeof(ini) - (size_t)n - 5000, "\nmachine = i7-4790\n");
	char *path = write_temp(ini, ".ini"), args[512], want[256];
	snprintf(args, sizeof(args), "validate --data %s --write /dev/null", path);
	snprintf(want, sizeof(want), "%s:3: a line longer than", path);
	struct out o = run(args);
	assert_usage_error(&o, want);
	out_free(&o);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fwrite("[experiment]\nname = t\nmachine = i7\0-4790\n", 1, 42, f);
	fclose(f);
	snprintf(want, sizeof(want), "%s:3: a NUL byte", path);
	o = run(args);
	assert_usage_error(&o, want);
	out_free(&o);
	unlink(path);
	free(path);
}

/* A key given twice, an indented line outside [notes] and numbers strtod
 * alone would take: each refused at its line (the later value silently
 * won, the indented line replaced the value above it, 0x10 was 16). */
static void test_no_silent_values(void **state)
{
	(void)state;
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "[experiment]\nmachine = i7-4790\nmachine = xeon-2s-quad\n",
		  ":3: [experiment] machine: given twice (first at line 2)" },
		{ "[experiment]\nmachine = i7-4790\n[row a]\nset = hz=250\ntarget.runtime_s = 1\n"
		  "target.runtime_s = 2\n", ":6: [row a] target.runtime_s: given twice (first at line 5)" },
		{ "[experiment]\nmachine = i7-4790\n[row a]\nprofile = balanced\nset = hz=250\n",
		  ":5: [row a] profile = or set =: given twice (first at line 4)" },
		{ "[experiment]\nmachine = i7-4790\n[calibration]\nagents = 2\nagents = 3\n",
		  ":5: [calibration] agents: given twice" },
		{ "[experiment]\nmachine = i7-4790\n  xeon-2s-quad\n", ":3: an indented line" },
		{ "[experiment]\nmachine = i7-4790\n[row a]\nset = hz=250\ntarget.runtime_s = 0x10\n",
		  ":5: target.runtime_s = 0x10: expected a number" },
		{ "[experiment]\nduration = +5\n", ":2: duration = +5" },
		{ "[experiment]\nruns = +5\n", ":2: runs = +5" },
		{ "[experiment]\ntie_tolerance = inf\n", ":2: tie_tolerance = inf" },
		{ "[experiment]\n[calibration]\nplatform_w = 0x10\n", ":3: platform_w = 0x10" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *path = write_temp(cases[i].text, ".ini"), args[512], want[256];
		snprintf(args, sizeof(args), "validate --jobs 1 --data %s --write /dev/null", path);
		snprintf(want, sizeof(want), "%s%s", path, cases[i].want);
		struct out o = run(args);
		assert_usage_error(&o, want);
		out_free(&o);
		unlink(path);
		free(path);
	}
	/* a note's text goes on below its line, as before */
	char *path = write_temp("[experiment]\nmachine = nosuch\n[notes]\ntopic = one\n  two\n",
				".ini"), args[512], want[256];
	snprintf(args, sizeof(args), "validate --jobs 1 --data %s --write /dev/null", path);
	snprintf(want, sizeof(want), "%s:1: [experiment] needs machine, workload and baseline", path);
	struct out o = run(args);
	assert_usage_error(&o, want);
	out_free(&o);
	unlink(path);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_errors_and_orderings),
		cmocka_unit_test(test_published_orderings),
		cmocka_unit_test(test_bad_data),
		cmocka_unit_test(test_named_experiments),
		cmocka_unit_test(test_errors_at_their_line),
		cmocka_unit_test(test_no_silent_values),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
