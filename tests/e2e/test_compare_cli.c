// SPDX-License-Identifier: GPL-2.0-only
/* End-to-end: pmlab compare, sweep and merge as a user runs them. */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "pmlab_run.h"

#define XEON "--machine xeon-e5-2650l-v3 --cpus 4 --workload oltp --duration 0.5"
#define TWO_GOVS "--profiles none:cpufreq=performance,none:cpufreq=powersave"
#define SWEEP "sweep --machine i7-4790 --workload pingpong --duration 0.1 " \
	      "--vary cpufreq=performance,powersave --vary pm_qos_latency_us=20,100,-1"

static struct out ok(const char *args)
{
	struct out o = run(args);

	if (o.status != 0)
		fail_msg("pmlab %s: exit %d: %s", args, o.status, o.err);
	/* In a pipe, nothing but the result: no progress on stderr. */
	assert_string_equal(o.err, "");
	return o;
}

static void assert_contains(const char *text, const char *needle)
{
	if (!strstr(text, needle))
		fail_msg("output lacks '%s':\n%s", needle, text);
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static json_t *parse(const char *text)
{
	json_error_t err;
	json_t *j = json_loads(text, 0, &err);

	if (!j)
		fail_msg("bad JSON (%s): %.200s", err.text, text);
	return j;
}

static double summary(json_t *root, int profile, const char *key)
{
	json_t *p = json_array_get(json_object_get(root, "profiles"), (size_t)profile);
	json_t *f = json_object_get(json_object_get(p, "summary"), key);

	assert_non_null(f);
	return json_number_value(json_object_get(f, "mean"));
}

static void test_compare_table(void **state)
{
	struct out o = ok("compare " XEON " " TWO_GOVS " --runs 2 --jobs 2");

	assert_contains(o.text, "pmlab compare: machine xeon-e5-2650l-v3 (4 CPUs), workload oltp\n");
	assert_contains(o.text, "2 runs of 0.5 s simulated per profile, seeds 1..2; mean \u00b1 95 %");
	assert_contains(o.text, "Throughput, latency and power\n");
	assert_contains(o.text, "(tpm)");
	assert_contains(o.text, "Bzy_MHz");
	assert_contains(o.text, " C6%");
	assert_contains(o.text, " C1E%");
	assert_contains(o.text, "Pkg0 %all_idle");
	assert_contains(o.text, "%iowait");
	assert_contains(o.text, "\n  none:cpufreq=powersave    ");
	/* wrapped to the width */
	assert_contains(o.text, "Relative to the baseline, none:cpufreq=performance (its mean = 1.000;\n"
			"  percentages as points above or below it)");
	assert_contains(o.text, "Welch's t-test, p >= 0.05");
	/* The inputs, and the command that runs the comparison again. */
	assert_contains(o.text, "\ninputs: pmlab ");
	assert_contains(o.text, "pmlab compare --machine xeon-e5-2650l-v3 --cpus 4 --workload oltp");
	/* The baseline's own row reads 1.000 in the relative table. */
	char *rel = strstr(o.text, "Relative to the baseline");
	assert_contains(rel, "\n  none:cpufreq=performance  1.000 ");
	/* ... and +0.00 points in a percentage column. */
	assert_contains(strstr(rel, "P-state and C-state"), "  +0.00 pt ");
	/* hyperfine's summary line. */
	assert_contains(rel, "\n  none:cpufreq=powersave: ");
	assert_contains(rel, "\u00d7 throughput, ");
	assert_contains(rel, " vs none:cpufreq=performance\n");
	/* Every line fits 100 columns; none ends in a space. */
	for (char *l = o.text; *l;) {
		char *e = strchr(l, '\n');
		int cols = 0;

		assert_non_null(e);
		for (char *c = l; c < e; c++)
			cols += ((unsigned char)*c & 0xc0) != 0x80;
		if (cols > 100)
			fail_msg("a line of %d columns: %.*s", cols, (int)(e - l), l);
		assert_true(e == l || e[-1] != ' ');
		l = e + 1;
	}
	out_free(&o);
}

/* The figures are the runs' own: run r of a profile is pmlab sim with seed
 * S + r and the profile's settings, and the statistics follow. */
static void test_compare_figures(void **state)
{
	/* "cpufreq=powersave" continues the entry before it. */
	struct out o = ok("compare " XEON " --profiles none:agents=4,cpufreq=performance,"
			  "none:agents=4,cpufreq=powersave --set warehouses=4 --runs 2 --seed 7 "
			  "--format json");
	struct out s = ok("sim " XEON " --set warehouses=4 --set agents=4 --cpufreq performance "
			  "--seed 8 --format json");
	json_t *c = parse(o.text), *sim = parse(s.text);
	json_t *p0 = json_array_get(json_object_get(c, "profiles"), 0);
	json_t *run1 = json_array_get(json_object_get(p0, "runs"), 1);
	json_t *fig = json_object_get(run1, "figures");

	assert_int_equal(json_integer_value(json_object_get(run1, "run")), 2);
	assert_int_equal(json_integer_value(json_object_get(run1, "seed")), 8);
	assert_float_equal(json_number_value(json_object_get(fig, "throughput")),
			   json_number_value(json_object_get(sim, "throughput")), 1e-6);
	assert_float_equal(json_number_value(json_object_get(fig, "power_w")),
			   json_number_value(json_object_get(sim, "power_w")), 1e-6);
	assert_string_equal(json_string_value(json_object_get(c, "throughput_unit")), "tpm");
	/* powersave runs at the lowest P-state (1.2 GHz) and does less work. */
	assert_float_equal(summary(c, 1, "bzy_mhz"), 1200, 10);
	assert_true(summary(c, 1, "throughput") < summary(c, 0, "throughput"));
	assert_string_equal(json_string_value(json_object_get(
				    json_array_get(json_object_get(c, "profiles"), 1), "cpufreq")),
			    "powersave");
	json_decref(c);
	json_decref(sim);
	out_free(&o);
	out_free(&s);
}

static void test_jobs_do_not_change_output(void **state)
{
	static const char *const formats[] = { "table", "csv", "json", "html" };

	for (int f = 0; f < 4; f++) {
		char a[512], b[512];

		snprintf(a, sizeof(a), "compare " XEON " " TWO_GOVS ",none:agents=8 --runs 3 "
			 "--baseline none:cpufreq=powersave --format %s --jobs 1", formats[f]);
		snprintf(b, sizeof(b), "compare " XEON " " TWO_GOVS ",none:agents=8 --runs 3 "
			 "--baseline none:cpufreq=powersave --format %s --jobs 2", formats[f]);
		struct out one = ok(a), two = ok(b);

		assert_string_equal(one.text, two.text);
		out_free(&one);
		out_free(&two);
	}
	struct out s1 = ok(SWEEP " --jobs 1"), s4 = ok(SWEEP " --jobs 4");
	assert_string_equal(s1.text, s4.text);
	out_free(&s1);
	out_free(&s4);
}

static void test_single_run(void **state)
{
	struct out o = ok("compare " XEON " " TWO_GOVS " --runs 1");

	assert_null(strstr(o.text, "\u00b1"));
	assert_null(strstr(o.text, " ~"));
	assert_contains(o.text, "no intervals, no significance test");
	out_free(&o);
}

static void test_compare_csv_and_html(void **state)
{
	struct out o = ok("compare " XEON " " TWO_GOVS " --runs 2 --format csv");

	/* the inputs, header, 2 profiles x 2 runs, 2 summaries */
	char *data = csv_data(o.text);
	assert_true(strncmp(o.text, "# pmlab_version: ", 17) == 0);
	assert_contains(o.text, "\n# profiles: none:cpufreq=powersave\n");
	assert_int_equal(count_lines(data), 1 + 4 + 2);
	assert_true(strncmp(data, "kind,profile,cpufreq,cpuidle,run,seed,", 38) == 0);
	free(data);
	assert_contains(o.text, "\nrun,none:cpufreq=powersave,powersave,menu,2,2,tpm,");
	assert_contains(o.text, "\nsummary,none:cpufreq=performance,performance,menu,,,tpm,");
	out_free(&o);
	o = ok("compare " XEON " " TWO_GOVS " --runs 2 --format html");
	assert_true(strncmp(o.text, "<!DOCTYPE html>", 15) == 0);
	assert_null(strstr(o.text, "src="));
	assert_null(strstr(o.text, "href="));
	assert_contains(o.text, "</html>\n");
	out_free(&o);
}

static int count(const char *text, const char *needle)
{
	int n = 0;

	for (const char *at = text; (at = strstr(at, needle)); at += strlen(needle))
		n++;
	return n;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	buf[fread(buf, 1, (size_t)n, f)] = '\0';
	fclose(f);
	return buf;
}

/* --timeline PREFIX: one timeline per profile (its first run), written by
 * whichever worker ran it; the result on stdout is the same as without. */
static void test_compare_timeline(void **state)
{
	static const char *const names[] = { "none_cpufreq_performance", "none_cpufreq_powersave" };
	char dir[] = "/tmp/pmlab-timeline-XXXXXX", args[1024], path[1200];
	struct out plain = ok("compare " XEON " " TWO_GOVS " --runs 2 --jobs 1");

	assert_non_null(mkdtemp(dir));
	for (int jobs = 1; jobs <= 3; jobs += 2) {
		snprintf(args, sizeof(args), "compare " XEON " " TWO_GOVS " --runs 2 --jobs %d "
			 "--timeline %s/tl", jobs, dir);
		struct out o = ok(args);

		assert_string_equal(o.text, plain.text);
		out_free(&o);
		for (int p = 0; p < 2; p++) {
			json_error_t err;
			json_t *root, *ev;
			size_t i, nx = 0, nc = 0;

			snprintf(path, sizeof(path), "%s/tl-%s.json", dir, names[p]);
			root = json_load_file(path, 0, &err);
			if (!root)
				fail_msg("%s: bad JSON (%s, line %d)", path, err.text, err.line);
			ev = json_object_get(root, "traceEvents");
			assert_true(json_is_array(ev));
			for (i = 0; i < json_array_size(ev); i++) {
				const char *ph = json_string_value(json_object_get(json_array_get(ev, i), "ph"));

				nx += ph && strcmp(ph, "X") == 0;
				nc += ph && strcmp(ph, "C") == 0;
			}
			assert_true(nx > 0);
			assert_true(nc > 0);
			json_decref(root);
			assert_int_equal(unlink(path), 0);
		}
	}
	/* Nothing else: one file per profile, not per run. */
	assert_int_equal(rmdir(dir), 0);
	/* A file that cannot be created is a runtime error, not a crash. */
	struct out bad = run("compare " XEON " " TWO_GOVS " --runs 1 --timeline /nonexistent/dir/tl");
	assert_int_not_equal(bad.status, 0);
	assert_int_not_equal(bad.status, 128);
	assert_non_null(strstr(bad.err, "/nonexistent/dir/tl-"));
	out_free(&bad);
	out_free(&plain);
}

#define HTML_ARGS "compare " XEON " " TWO_GOVS ",none:agents=8 --runs 3 --format html"

/* Four charts: power against throughput with the Pareto front, C-state
 * residency, busy frequency and the spread of the runs. */
static void test_compare_html_charts(void **state)
{
	struct out o = ok(HTML_ARGS);

	assert_int_equal(count(o.text, "<svg"), 4);
	assert_int_equal(count(o.text, "data-chart=\"scatter\""), 1);
	assert_int_equal(count(o.text, "data-chart=\"stacked\""), 1);
	assert_int_equal(count(o.text, "data-chart=\"bars\""), 1);
	assert_int_equal(count(o.text, "data-chart=\"spread\""), 1);
	assert_int_equal(count(o.text, "class=\"pareto\""), 1);
	assert_int_equal(count(o.text, "<circle class=\"point"), 3);
	assert_int_equal(count(o.text, "<circle class=\"run\""), 3 * 3);
	assert_int_equal(count(o.text, "<rect class=\"bar\""), 3);
	assert_true(count(o.text, "<rect class=\"seg\"") >= 3);
	/* The tables stay. */
	assert_int_equal(count(o.text, "<table>"), 2);
	assert_null(strstr(o.text, "src="));
	assert_null(strstr(o.text, "href="));
	assert_null(strstr(o.text, "url("));
	out_free(&o);
}

static const char *chromium(void)
{
	static const char *const names[] = { "/usr/bin/chromium", "/usr/bin/chromium-browser" };

	for (int i = 0; i < 2; i++)
		if (access(names[i], X_OK) == 0)
			return names[i];
	return NULL;
}

/* The page in a real headless browser: its own script counts the charts
 * laid out with a non-empty box. Skipped where there is no chromium. */
static void test_compare_html_browser(void **state)
{
	static const char flags[] = "--headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
				    "--disable-background-networking --disable-component-update "
				    "--disable-sync";
	const char *browser = chromium();
	char profile[] = "/tmp/pmlab-chromium-XXXXXX", cmd[4096];
	struct out o;
	char *html, *dom, *d;

	if (!browser) {
		print_message("chromium not installed (sh tools/install-deps.sh browser): browser "
			      "check skipped\n");
		skip();
	}
	o = ok(HTML_ARGS);
	html = write_temp(o.text, ".html");
	dom = write_temp("", ".html");
	assert_non_null(mkdtemp(profile));
	snprintf(cmd, sizeof(cmd), "timeout 120 %s %s --user-data-dir=%s --dump-dom file://%s > %s "
		 "2>/dev/null", browser, flags, profile, html, dom);
	assert_int_equal(system(cmd), 0);
	d = slurp(dom);
	assert_non_null(d);
	if (!strstr(d, "data-charts-drawn=\"4\""))
		fail_msg("the browser did not draw the 4 charts: %.300s",
			 strstr(d, "<body") ? strstr(d, "<body") : d);
	assert_int_equal(count(d, "<circle class=\"point"), 3);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", profile);
	(void)!system(cmd);
	unlink(html);
	unlink(dom);
	free(html);
	free(dom);
	free(d);
	out_free(&o);
}

/* What the page's layout check finds, run in the browser at 1280 px: every
 * SVG text inside its chart, no two texts of a chart overlapping, and
 * nothing wider than the window. "ok" or the faults, in data-layout. */
static const char layout_check[] =
	"<script>\n"
	"window.addEventListener('load', function () {\n"
	"  var bad = [];\n"
	"  document.querySelectorAll('svg.chart').forEach(function (svg, i) {\n"
	"    var s = svg.getBoundingClientRect(), boxes = [];\n"
	"    svg.querySelectorAll('text').forEach(function (t) {\n"
	"      var r = t.getBoundingClientRect();\n"
	"      if (r.width == 0) return;\n"
	"      if (r.left < s.left - 0.5 || r.right > s.right + 0.5 || r.top < s.top - 0.5 ||\n"
	"          r.bottom > s.bottom + 0.5)\n"
	"        bad.push('chart ' + i + ': \"' + t.textContent + '\" outside');\n"
	"      boxes.forEach(function (b) {\n"
	"        if (r.left < b[0].right - 1 && b[0].left < r.right - 1 &&\n"
	"            r.top < b[0].bottom - 1 && b[0].top < r.bottom - 1)\n"
	"          bad.push('chart ' + i + ': \"' + t.textContent + '\" over \"' + b[1] + '\"');\n"
	"      });\n"
	"      boxes.push([r, t.textContent]);\n"
	"    });\n"
	"  });\n"
	"  var w = document.documentElement.scrollWidth;\n"
	"  if (w > window.innerWidth) bad.push('page ' + w + ' px wide at ' + window.innerWidth);\n"
	"  document.body.setAttribute('data-layout', bad.length ? bad.join('; ') : 'ok');\n"
	"});\n"
	"</script>\n";

/* The page after the browser laid it out at 1280 x 1000 px, with the
 * layout check added before </body>. */
static char *browser_dom(const char *browser, const char *page)
{
	static const char flags[] = "--headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
				    "--disable-background-networking --disable-component-update "
				    "--disable-sync --window-size=1280,1000";
	char profile[] = "/tmp/pmlab-chromium-XXXXXX", cmd[4096];
	const char *end = strstr(page, "</body>");
	char *html, *dom, *d, *with;

	assert_non_null(end);
	with = malloc(strlen(page) + sizeof(layout_check));
	assert_non_null(with);
	sprintf(with, "%.*s%s%s", (int)(end - page), page, layout_check, end);
	html = write_temp(with, ".html");
	dom = write_temp("", ".html");
	assert_non_null(mkdtemp(profile));
	snprintf(cmd, sizeof(cmd), "timeout 120 %s %s --user-data-dir=%s --dump-dom file://%s > %s "
		 "2>/dev/null", browser, flags, profile, html, dom);
	assert_int_equal(system(cmd), 0);
	d = slurp(dom);
	assert_non_null(d);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", profile);
	(void)!system(cmd);
	unlink(html);
	unlink(dom);
	free(html);
	free(dom);
	free(with);
	return d;
}

static void expect_layout_ok(const char *browser, const char *what, const char *page)
{
	char *d = browser_dom(browser, page), *at = strstr(d, "data-layout=\"");

	if (!at)
		fail_msg("%s: the layout check did not run: %.300s", what,
			 strstr(d, "<body") ? strstr(d, "<body") : d);
	at += strlen("data-layout=\"");
	if (strncmp(at, "ok\"", 3) != 0)
		fail_msg("%s: %.*s", what, (int)strcspn(at, "\""), at);
	free(d);
}

/* The HTML pages of compare (long profile names, large figures), sweep and
 * replay, laid out by a real browser at 1280 px: no label clipped or on
 * another, nothing overflowing the page; readable axes; a title naming the
 * machine and the workload. Skipped where there is no chromium. */
static void test_html_layout_browser(void **state)
{
	const char *browser = chromium();
	struct out o;

	o = ok("compare --machine i7-4790 --workload pingpong --duration 0.2 --runs 2 --profiles "
	       "none:pm_qos_latency_us=20,none:pm_qos_latency_us=20,cpufreq=performance,"
	       "tuned-2.3/balanced:governor=conservative,none:cpufreq=powersave,tick_policy=legacy "
	       "--format html");
	/* Throughput near 50000 round trips/s: ticks in full, no exponent. */
	assert_null(strstr(o.text, "e+0"));
	assert_contains(o.text, "<title>pmlab compare: i7-4790, pingpong</title>");
	if (!browser) {
		out_free(&o);
		print_message("chromium not installed (sh tools/install-deps.sh browser): layout "
			      "check skipped\n");
		skip();
	}
	expect_layout_ok(browser, "compare", o.text);
	out_free(&o);
	o = ok(SWEEP " --format html");
	assert_null(strstr(o.text, "e+0"));
	assert_contains(o.text, "<title>pmlab sweep: machine i7-4790, workload pingpong</title>");
	expect_layout_ok(browser, "sweep", o.text);
	out_free(&o);
	o = ok("replay " PMLAB_SOURCE_ROOT "/data/traces/hackbench.dat --machine i7-4790 "
	       "--format html");
	assert_null(strstr(o.text, "e+0"));
	assert_contains(o.text, ": machine i7-4790, workload replay</title>");
	expect_layout_ok(browser, "replay", o.text);
	out_free(&o);
}

/* One row per point: its number, the varied values, then pmlab sim's CSV
 * columns, the same as a sim of that point prints. */
static void test_sweep_csv(void **state)
{
	struct out o = ok(SWEEP);
	struct out sim = ok("sim --machine i7-4790 --workload pingpong --duration 0.1 "
			    "--cpufreq powersave --set pm_qos_latency_us=100 --format csv");
	char *data = csv_data(sim.text), *simrow = strchr(data, '\n') + 1, *line;
	char *rows = csv_data(o.text); /* after the inputs' "#" lines */

	assert_int_equal(count_lines(rows), 1 + 2 * 3);
	assert_true(strncmp(rows, "point,vary_cpufreq,vary_pm_qos_latency_us,machine,workload,", 59) == 0);
	/* The header continues with sim's, unchanged. */
	assert_true(strncmp(strstr(rows, ",machine,") + 1, data, (size_t)(strchr(data, '\n') - data)) == 0);
	/* Point 4: powersave (second of the first list), 100 (second of the last). */
	line = strstr(rows, "\n4,powersave,100,");
	assert_non_null(line);
	assert_true(strncmp(line + strlen("\n4,powersave,100,"), simrow, strlen(simrow)) == 0);
	free(rows);
	free(data);
	out_free(&o);
	out_free(&sim);
}

static void test_sweep_json(void **state)
{
	struct out o = ok(SWEEP " --format json");
	json_t *root = parse(o.text), *a = json_object_get(root, "points"), *e;

	assert_string_equal(json_string_value(json_object_get(root, "schema")), "pmlab-sweep");
	assert_int_equal(json_integer_value(json_object_get(root, "version")), 2);
	assert_int_equal(json_array_size(a), 6);
	e = json_array_get(a, 5);
	assert_int_equal(json_integer_value(json_object_get(e, "point")), 5);
	assert_string_equal(json_string_value(json_object_get(json_object_get(e, "vary"), "cpufreq")),
			    "powersave");
	assert_string_equal(json_string_value(json_object_get(json_object_get(e, "vary"),
							      "pm_qos_latency_us")),
			    "-1");
	assert_string_equal(json_string_value(json_object_get(json_object_get(e, "result"), "cpufreq")),
			    "powersave");
	json_decref(root);
	out_free(&o);
}

static char *save(const char *text)
{
	return write_temp(text, ".out");
}

/* Shards hold the unsharded run's rows; merged in any order they give the
 * unsharded output byte for byte, CSV and JSON, even when points differ in
 * their columns (two machines with other C-states). */
static void test_shards_merge(void **state)
{
	static const char *const sweeps[] = {
		SWEEP,
		SWEEP " --format json",
		("sweep --workload pingpong --duration 0.1 --vary machine=i7-4790,xeon-e5-2650l-v3 "
		 "--vary seed=1,2,3"),
	};

	for (int k = 0; k < 3; k++) {
		char args[1024];
		struct out all, s0, s1, merged;
		char *p0, *p1;

		all = ok(sweeps[k]);
		snprintf(args, sizeof(args), "%s --shard 0/2", sweeps[k]);
		s0 = ok(args);
		snprintf(args, sizeof(args), "%s --shard 1/2 --jobs 2", sweeps[k]);
		s1 = ok(args);
		if (k == 0) {
			/* Shard 1/2 is the odd points: lines 2, 4, 6 of the whole,
			 * under the same header, each line as the whole has it after
			 * the sweep's identity, the same in both shards. */
			char id[64];
			/* the rows, after the inputs' "#" lines */
			struct out r0 = { csv_data(s0.text), NULL, 0 }, r1 = { csv_data(s1.text), NULL, 0 };
			char *rall = csv_data(all.text);
			assert_int_equal(count_lines(r1.text), 1 + 3);
			assert_true(strncmp(r0.text, "sweep,point,", 12) == 0);
			const char *row1 = strchr(r1.text, '\n') + 1;
			snprintf(id, sizeof(id), "%.*s", (int)strcspn(row1, ","), row1);
			assert_int_equal(strlen(id), 16 + 2); /* HASH/2 */
			assert_true(strncmp(row1 + strlen(id), ",1,", 3) == 0);
			for (struct out *sh = &r0; sh; sh = sh == &r0 ? &r1 : NULL)
				for (char *at = sh->text; *at; at = strchr(at, '\n') + 1) {
					char line[8192];
					const char *rest = strchr(at, ',') + 1;

					assert_true(strncmp(at, at == sh->text ? "sweep," : id,
							    at == sh->text ? 6 : strlen(id)) == 0);
					snprintf(line, sizeof(line), "%s%.*s\n", at == sh->text ? "" : "\n",
						 (int)(strchr(at, '\n') - rest), rest);
					if (at == sh->text)
						assert_true(strncmp(rall, line, strlen(line)) == 0);
					else
						assert_non_null(strstr(rall, line));
				}
			free(r0.text);
			free(r1.text);
			free(rall);
		}
		p0 = save(s0.text);
		p1 = save(s1.text);
		snprintf(args, sizeof(args), "merge %s %s", p1, p0);
		merged = ok(args);
		assert_string_equal(merged.text, all.text);
		out_free(&merged);
		/* A shard left out, or given twice, is an error. */
		snprintf(args, sizeof(args), "merge %s", p1);
		merged = run(args);
		assert_usage_error(&merged, "point 0 is missing");
		out_free(&merged);
		snprintf(args, sizeof(args), "merge %s %s %s", p0, p1, p0);
		merged = run(args);
		assert_usage_error(&merged, "appears twice");
		out_free(&merged);
		unlink(p0);
		unlink(p1);
		free(p0);
		free(p1);
		out_free(&all);
		out_free(&s0);
		out_free(&s1);
	}
}


/* merge joins shards of one sweep only; a NUL byte and a point given twice
 * are named by file and line (two sweeps' shards made one table with empty
 * cells, a NUL truncated a cell, "point N appears twice" named nothing). */
static void test_merge_checks_shards(void **state)
{
	(void)state;
	struct out a = ok(SWEEP " --shard 0/2");
	struct out b = ok("sweep --machine i7-4790 --workload pingpong --duration 0.1 "
			  "--vary cpufreq=performance,schedutil --vary pm_qos_latency_us=20,100,-1 "
			  "--shard 1/2");
	struct out c = ok(SWEEP " --shard 1/3");
	struct out j = ok(SWEEP " --format json --shard 1/2");
	char *pa = save(a.text), *pb = save(b.text), *pc = save(c.text), *pj = save(j.text);
	char args[1024], want[512];

	snprintf(args, sizeof(args), "merge %s %s", pa, pb);
	struct out o = run(args);
	/* other --vary lists: the inputs differ (line 2, the command) */
	snprintf(want, sizeof(want), "%s:2: the inputs differ from those of %s", pb, pa);
	assert_usage_error(&o, want);
	out_free(&o);
	snprintf(args, sizeof(args), "merge %s %s", pa, pc); /* 0/2 and 1/3 */
	o = run(args);
	assert_usage_error(&o, "a shard of another sweep");
	out_free(&o);
	/* the whole sweep's own output is no shard */
	struct out all = ok(SWEEP);
	char *pall = save(all.text);
	snprintf(args, sizeof(args), "merge %s %s", pa, pall);
	o = run(args);
	assert_usage_error(&o, "not a shard, the files before it are shards");
	out_free(&o);
	/* a point twice: both places */
	snprintf(args, sizeof(args), "merge %s %s", pj, pj);
	o = run(args);
	long pline = 1;
	for (const char *q = j.text; q < strstr(j.text, "\"points\""); q++)
		pline += *q == '\n';
	snprintf(want, sizeof(want), "%s:%ld: point 1 appears twice (first at %s:%ld", pj,
		 pline + 1, pj, pline + 1);
	assert_usage_error(&o, want);
	out_free(&o);
	/* a key twice in a row of a JSON shard: refused at its line */
	{
		const char *row = strstr(j.text, "\"point\"");
		assert_non_null(row);
		size_t at = (size_t)(row - j.text);
		char *dup = malloc(strlen(j.text) + 32);
		assert_non_null(dup);
		snprintf(dup, strlen(j.text) + 32, "%.*s\"point\": 7, %s", (int)at, j.text, row);
		int line = 1;
		for (size_t k = 0; k < at; k++)
			line += j.text[k] == '\n';
		char *pd = save(dup);
		snprintf(args, sizeof(args), "merge %s", pd);
		o = run(args);
		snprintf(want, sizeof(want), "%s:%d: duplicate object key", pd, line);
		assert_usage_error(&o, want);
		assert_non_null(strstr(o.err, "each key once per row"));
		out_free(&o);
		unlink(pd);
		free(pd);
		free(dup);
	}
	/* a NUL byte in a cell */
	FILE *f = fopen(pa, "r+b");
	assert_non_null(f);
	const char *head = strstr(a.text, "\nsweep,point,") + 1;
	long aline = 1;
	for (const char *q = a.text; q < head; q++)
		aline += *q == '\n';
	fseek(f, (long)(strchr(head, '\n') - a.text) + 3, SEEK_SET);
	fputc('\0', f);
	fclose(f);
	snprintf(args, sizeof(args), "merge %s", pa);
	o = run(args);
	snprintf(want, sizeof(want), "%s:%ld: a NUL byte", pa, aline + 1);
	assert_usage_error(&o, want);
	out_free(&o);
	char *paths[] = { pa, pb, pc, pj, pall };
	for (size_t i = 0; i < 5; i++) {
		unlink(paths[i]);
		free(paths[i]);
	}
	out_free(&a);
	out_free(&b);
	out_free(&c);
	out_free(&j);
	out_free(&all);
}

/* More shards than points: the extra shards are empty and merge adds
 * nothing for them. */
static void test_empty_shard(void **state)
{
	struct out all = ok("sweep --machine i7-4790 --workload pingpong --duration 0.1 --vary hz=250,1000");
	struct out s[3];
	char *path[3], args[1024];

	for (int i = 0; i < 3; i++) {
		snprintf(args, sizeof(args), "sweep --machine i7-4790 --workload pingpong --duration 0.1 "
			 "--vary hz=250,1000 --shard %d/3", i);
		s[i] = ok(args);
		path[i] = save(s[i].text);
	}
	/* no rows: the inputs only */
	char *rows = csv_data(s[2].text);
	assert_string_equal(rows, "");
	free(rows);
	assert_non_null(strstr(s[2].text, "# shard: 2/3\n"));
	snprintf(args, sizeof(args), "merge %s %s %s", path[2], path[0], path[1]);
	struct out m = ok(args);
	assert_string_equal(m.text, all.text);
	out_free(&m);
	for (int i = 0; i < 3; i++) {
		unlink(path[i]);
		free(path[i]);
		out_free(&s[i]);
	}
	out_free(&all);
}

static void test_bad_input(void **state)
{
	expect_usage_error("compare " XEON, "--profiles");
	expect_usage_error("compare " XEON " --profiles none --baseline other", "--baseline other");
	expect_usage_error("compare " XEON " --profiles none,none", "listed twice");
	expect_usage_error("compare " XEON " --profiles none --runs 0", "--runs 0");
	expect_usage_error("compare " XEON " --profiles none --jobs 0", "--jobs 0");
	expect_usage_error("compare " XEON " --profiles none --format xml", "--format xml");
	expect_usage_error("compare " XEON " --profiles none:agents=-3", "agents=-3");
	expect_usage_error("compare " XEON " --profiles none:cpufreq=nosuch", "nosuch");
	expect_usage_error("compare " XEON " --profiles none --set nosuch=1", "nosuch");
	expect_usage_error("compare --machine no-such-box --workload oltp --profiles none", "no-such-box");
	expect_usage_error("sweep --machine i7-4790 --workload pingpong --vary hz", "--vary hz");
	expect_usage_error("sweep --machine i7-4790 --workload pingpong --vary hz=100,99", "point 1 (hz=99)");
	expect_usage_error("sweep --machine i7-4790 --workload pingpong --vary hz=100,,250", "empty value");
	expect_usage_error("sweep --machine i7-4790 --workload pingpong --vary hz=100 --vary hz=250", "twice");
	expect_usage_error("sweep --machine i7-4790 --workload pingpong --vary machine=i7-4790", "--machine");
	expect_usage_error("sweep --machine i7-4790 --workload pingpong --shard 2/2", "--shard 2/2");
	expect_usage_error("sweep --machine i7-4790 --workload pingpong --shard 1", "--shard 1");
	expect_usage_error("sweep --workload pingpong --vary hz=100", "--machine");
	expect_usage_error("merge", "files");
	expect_usage_error("merge /nonexistent/shard.csv", "/nonexistent/shard.csv");
	char *bad = save("a,b\n1,2\n");
	char args[512];
	snprintf(args, sizeof(args), "merge %s", bad);
	expect_usage_error(args, "no 'point' column");
	unlink(bad);
	free(bad);
}

/* sweep --format html: one chart with a point per sweep point, the
 * Pareto front, and a table row per point; nothing fetched. */
static void test_sweep_html(void **state)
{
	struct out o = run("sweep --machine i7-4790 --workload pingpong --duration 0.2 "
			   "--vary cpufreq=performance,powersave --vary pm_qos_latency_us=-1,20 "
			   "--format html");
	if (o.status != 0)
		fail_msg("exit %d: %s", o.status, o.err);
	assert_int_equal(count(o.text, "<svg"), 1);
	assert_int_equal(count(o.text, "<circle class=\"point"), 4);
	assert_int_equal(count(o.text, "class=\"pareto\""), 1);
	assert_int_equal(count(o.text, "<tr"), 1 + 4);
	assert_non_null(strstr(o.text, "cpufreq=powersave"));
	assert_null(strstr(o.text, "src="));
	assert_null(strstr(o.text, "href="));
	out_free(&o);
}


/* ---- workers die with their parent ---- */


static void sleep_ms(int ms)
{
	nanosleep(&(struct timespec){ ms / 1000, (ms % 1000) * 1000000L }, NULL);
}

/* The children of pid (its worker processes), up to max. */
static int children(pid_t pid, pid_t *out, int max)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)pid, (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	int k = 0;
	for (char *s = buf, *end; k < max; s = end) {
		long v = strtol(s, &end, 10);
		if (end == s)
			break;
		out[k++] = (pid_t)v;
	}
	return k;
}

/* Gone, or a zombie nobody has reaped yet. */
static bool dead(pid_t pid)
{
	char path[64], buf[256];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return true;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	const char *s = strrchr(buf, ')');
	return s && (s[2] == 'Z' || s[2] == 'X');
}

/* pmlab with argv, stdout to out (or /dev/null), SIGINT ignored if asked
 * (as nohup or a script's background job starts it); back once its two
 * workers run, their pids in w. */
static pid_t start_with_workers(char *const argv[], int out, bool ignore_int, pid_t w[2])
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(out >= 0 ? out : null, 1);
		dup2(null, 2);
		if (ignore_int)
			signal(SIGINT, SIG_IGN);
		execv(PMLAB_BIN, argv);
		_exit(127);
	}
	pid_t c[4];
	int n = 0;
	for (int i = 0; i < 500 && n < 2; i++) {
		sleep_ms(10);
		n = children(pid, c, 4);
	}
	assert_int_equal(n, 2);
	w[0] = c[0];
	w[1] = c[1];
	return pid;
}

/* A sweep or compare whose runs last tens of seconds, killed by pid: its
 * workers end with it, not at the end of their runs. */
static void kill_with_workers(char *const argv[], int sig)
{
	pid_t w[2];
	int n = 2;
	pid_t pid = start_with_workers(argv, -1, false, w);
	sleep_ms(100);
	kill(pid, sig);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == sig);
	for (int k = 0; k < n; k++) {
		int i = 0;
		while (!dead(w[k]) && i++ < 300)
			sleep_ms(10);
		if (!dead(w[k]))
			fail_msg("signal %d: worker %d still runs 3 s after its parent", sig, (int)w[k]);
	}
}


/* A sweep's rows go out as its points complete, in point order: point 0's
 * row is on stdout while point 1 still runs (every row waited for the end
 * before, held in memory). */
static void test_sweep_streams_rows(void **state)
{
	(void)state;
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(fds[1], 1);
		dup2(null, 2);
		close(fds[0]);
		execl(PMLAB_BIN, "pmlab", "sweep", "--machine", "i7-4790", "--workload", "tbench",
		      "--vary", "duration=0.01,300", "--format", "json", "--jobs", "2", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	char buf[65536];
	size_t got = 0;
	bool seen = false;
	for (int i = 0; i < 3000 && !seen; i++) {
		ssize_t n = read(fds[0], buf + got, sizeof(buf) - 1 - got);
		if (n > 0) {
			got += (size_t)n;
			buf[got] = '\0';
			seen = strstr(buf, "\"point\": 0,") && strstr(buf, "\n    }");
		} else {
			sleep_ms(10);
		}
	}
	int st;
	bool running = waitpid(pid, &st, WNOHANG) == 0;
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	close(fds[0]);
	assert_true(seen);
	assert_true(running); /* point 1 (300 s of tbench) was still running */
	assert_null(strstr(buf, "\"point\": 1,"));
}

static void test_workers_die_with_parent(void **state)
{
	(void)state;
	char *const sweep[] = { "pmlab", "sweep", "--machine", "i7-4790", "--workload", "tbench",
				"--duration", "200", "--vary", "seed=1,2", "--jobs", "2", NULL };
	char *const compare[] = { "pmlab", "compare", "--machine", "i7-4790", "--workload", "tbench",
				  "--duration", "200", "--profiles", "none,powersave", "--runs", "1",
				  "--jobs", "2", NULL };
	kill_with_workers(sweep, SIGTERM);
	kill_with_workers(sweep, SIGINT);
	kill_with_workers(sweep, SIGKILL);
	kill_with_workers(compare, SIGTERM);
}

/* A sweep started with SIGINT ignored (nohup, a script's background job)
 * goes on through a SIGINT, and so do its workers: the signal was passed
 * on to them and the sweep failed before. */
static void test_ignored_sigint_ignored_by_workers(void **state)
{
	(void)state;
	char *const sweep[] = { "pmlab", "sweep", "--machine", "i7-4790", "--workload", "tbench",
				"--duration", "2", "--vary", "seed=1,2", "--jobs", "2", NULL };
	char *csv = write_temp("", ".csv");
	int out = open(csv, O_WRONLY | O_TRUNC);
	assert_true(out >= 0);
	pid_t w[2];
	pid_t pid = start_with_workers(sweep, out, true, w);
	close(out);
	kill(pid, SIGINT);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	char *all = slurp(csv);
	assert_non_null(all);
	char *text = csv_data(all);
	free(all);
	int rows = 0;
	for (const char *p = text; (p = strchr(p, '\n')); p++)
		rows++;
	assert_int_equal(rows, 3); /* the header and both points */
	free(text);
	unlink(csv);
	free(csv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compare_table),
		cmocka_unit_test(test_compare_figures),
		cmocka_unit_test(test_jobs_do_not_change_output),
		cmocka_unit_test(test_single_run),
		cmocka_unit_test(test_compare_csv_and_html),
		cmocka_unit_test(test_compare_timeline),
		cmocka_unit_test(test_compare_html_charts),
		cmocka_unit_test(test_compare_html_browser),
		cmocka_unit_test(test_html_layout_browser),
		cmocka_unit_test(test_sweep_csv),
		cmocka_unit_test(test_sweep_json),
		cmocka_unit_test(test_sweep_html),
		cmocka_unit_test(test_workers_die_with_parent),
		cmocka_unit_test(test_ignored_sigint_ignored_by_workers),
		cmocka_unit_test(test_sweep_streams_rows),
		cmocka_unit_test(test_shards_merge),
		cmocka_unit_test(test_empty_shard),
		cmocka_unit_test(test_merge_checks_shards),
		cmocka_unit_test(test_bad_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
