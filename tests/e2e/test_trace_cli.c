// SPDX-License-Identifier: GPL-2.0-only
/* End-to-end: pmlab record (where tracefs can be written: as root),
 * pmlab replay in every output format, --timeline on sim and replay, the
 * HTML report rendered in a real headless browser (Debian's chromium, which
 * tools/install-deps.sh browser installs; skipped where it is missing), and
 * bad input. pmlab record touches the real machine: make check-real. */
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "real_machine.h"
#include "pmlab_run.h"

#define ROOT PMLAB_SOURCE_ROOT "/"
#define FIX ROOT "tests/fixtures/traces/"
#define SHIPPED ROOT "data/traces/hackbench.dat"
#define VM ROOT "data/traces/capture-vm.ini"

static double dabs(double x)
{
	return x < 0 ? -x : x;
}

static struct out ok(const char *args)
{
	struct out o = run(args);
	if (o.status != 0)
		fail_msg("pmlab %s: exit %d: %s", args, o.status, o.err);
	return o;
}

static char *temp_path(const char *suffix)
{
	char *p = write_temp("", suffix);
	return p;
}

static json_t *load_json(const char *path)
{
	json_error_t err;
	json_t *j = json_load_file(path, 0, &err);
	if (!j)
		fail_msg("%s:%d: %s", path, err.line, err.text);
	return j;
}

/* The "total" line of --per-task: traced and replayed ms. */
static void per_task_total(const char *text, double *traced, double *replayed)
{
	const char *sec = strstr(text, "Per task:");
	assert_non_null(sec);
	const char *t = strstr(sec, "\n  total ");
	assert_non_null(t);
	assert_int_equal(sscanf(t, "\n  total %lf %lf", traced, replayed), 2);
}

static void test_replay_formats(void **state)
{
	/* Table with the capture machine: every task's CPU time comes back. */
	struct out o = ok("replay " SHIPPED " --machine " VM " --set tick_cost_ns=0 "
			  "--set tick_stop_cost_ns=0 --set tick_restart_cost_ns=0 "
			  "--set background_wakeups=0 --per-task");
	assert_non_null(strstr(o.text, "replay"));
	assert_non_null(strstr(o.text, "trace_duration"));
	assert_non_null(strstr(o.text, "Per task: CPU time traced and replayed"));
	/* The time the replay took, not the --duration limit, and its energy. */
	double took, traced_s, joules;
	unsigned done, all;
	const char *sum = strstr(o.text, "Replayed work: ");
	assert_non_null(sum);
	assert_int_equal(sscanf(sum, "Replayed work: %u of %u tasks in %lf s simulated (traced: %lf "
				"s), %lf J", &done, &all, &took, &traced_s, &joules), 5);
	assert_int_equal(done, all);
	assert_true(dabs(took - traced_s) < 0.02 * traced_s);
	assert_true(joules > 0);
	double traced, replayed;
	per_task_total(o.text, &traced, &replayed);
	assert_true(traced > 10 && dabs(replayed - traced) < 0.001 * traced);
	out_free(&o);
	/* Half the capture frequency as the trace's: bursts take half as long
	 * on the 2.096 GHz machine. */
	o = ok("replay " SHIPPED " --machine " VM " --capture-khz 1048000 --per-task");
	double traced2, replayed2;
	per_task_total(o.text, &traced2, &replayed2);
	assert_true(dabs(replayed2 - traced2 / 2) < 0.01 * traced2);
	out_free(&o);
	/* JSON: the default machine is the trace's own (2 CPUs). */
	char *js = temp_path(".json");
	char args[1024];
	snprintf(args, sizeof(args), "replay " FIX "tracefs-trace-default.txt --format json > %s", js);
	o = ok(args);
	json_t *j = load_json(js);
	assert_string_equal(json_string_value(json_object_get(j, "machine")), "trace");
	assert_string_equal(json_string_value(json_object_get(j, "workload")), "replay");
	assert_int_equal(json_array_size(json_object_get(j, "per_cpu")), 2);
	json_decref(j);
	out_free(&o);
	unlink(js);
	free(js);
	/* CSV: the inputs as "#" lines (the trace named), one header line and one row. */
	o = ok("replay " FIX "trace-cmd-report-default.txt --format csv");
	assert_non_null(strstr(o.text, "extra_dependencies_wakeups"));
	assert_non_null(strstr(o.text, "\n# trace: " FIX "trace-cmd-report-default.txt\n"));
	assert_non_null(strstr(o.text, "\n# command: pmlab replay " FIX "trace-cmd-report-default.txt "));
	char *data = csv_data(o.text);
	int lines = 0;
	for (const char *c = data; *c; c++)
		lines += *c == '\n';
	assert_int_equal(lines, 2);
	free(data);
	out_free(&o);
}

/* A timeline from sim and from replay: valid JSON, a track per CPU, task
 * slices, frequency and power counters. */
static void check_timeline(const char *path, int ncpus)
{
	json_t *j = load_json(path);
	json_t *evs = json_object_get(j, "traceEvents");
	size_t i, x = 0, c = 0, names = 0;
	json_t *ev;
	json_array_foreach(evs, i, ev) {
		const char *ph = json_string_value(json_object_get(ev, "ph"));
		const char *name = json_string_value(json_object_get(ev, "name"));
		x += strcmp(ph, "X") == 0;
		c += strcmp(ph, "C") == 0;
		names += strcmp(ph, "M") == 0 && strcmp(name, "thread_name") == 0;
	}
	assert_true(x > 10 && c > 2);
	assert_int_equal(names, (size_t)ncpus);
	json_decref(j);
}

static void test_timeline(void **state)
{
	char *tl = temp_path(".json");
	char args[1024];
	snprintf(args, sizeof(args), "sim --machine i7-4790 --workload pingpong -d 0.05 "
		 "--cpufreq ondemand --timeline %s --format csv", tl);
	struct out o = ok(args);
	out_free(&o);
	check_timeline(tl, 8);
	snprintf(args, sizeof(args), "replay " SHIPPED " --timeline %s", tl);
	o = ok(args);
	out_free(&o);
	check_timeline(tl, 2);
	expect_usage_error("sim --machine i7-4790 --workload pingpong --timeline",
			   "--timeline needs a value");
	o = run("sim --machine i7-4790 --workload pingpong -d 0.01 --timeline /nonexistent/t.json");
	assert_int_equal(o.status, 1);
	assert_non_null(strstr(o.err, "/nonexistent/t.json: cannot create the timeline"));
	out_free(&o);
	unlink(tl);
	free(tl);
}

static int count(const char *s, const char *needle)
{
	int n = 0;
	for (const char *p = s; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static char *slurp_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	char *buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	buf[fread(buf, 1, (size_t)n, f)] = '\0';
	fclose(f);
	return buf;
}

static const char *chromium(void)
{
	static const char *const names[] = { "/usr/bin/chromium", "/usr/bin/chromium-browser" };
	for (int i = 0; i < 2; i++)
		if (access(names[i], X_OK) == 0)
			return names[i];
	return NULL;
}

static void test_html_report(void **state)
{
	char *html = temp_path(".html");
	char args[1024];
	snprintf(args, sizeof(args), "replay " SHIPPED " --format html > %s", html);
	struct out o = ok(args);
	out_free(&o);
	char *page = slurp_file(html);
	assert_non_null(page);
	/* Self-contained: no scripts, styles, images or fonts to fetch. */
	assert_null(strstr(page, "src="));
	assert_null(strstr(page, "<link"));
	assert_null(strstr(page, "url("));
	/* Its inputs, and a title naming the machine and the workload. */
	assert_non_null(strstr(page, "to run it again: <code>pmlab replay "));
	assert_non_null(strstr(page, ", workload replay</title>"));
	/* Five charts: scatter, C-state bars per CPU, frequency bars, two spreads. */
	assert_int_equal(count(page, "<svg class=\"chart\""), 5);
	assert_int_equal(count(page, "class=\"point"), 1);
	assert_int_equal(count(page, "class=\"pareto\""), 1);
	assert_int_equal(count(page, "class=\"run\""), 2);
	int segs = count(page, "class=\"seg\"");
	assert_true(segs >= 3); /* C0 and C1 on two CPUs, one frequency */
	assert_non_null(strstr(page, "trace_duration"));

	/* A test never installs anything: tools/install-deps.sh browser does. */
	const char *browser = chromium();
	if (!browser) {
		print_message("chromium not installed (sh tools/install-deps.sh browser): browser "
			      "check skipped\n");
		free(page);
		unlink(html);
		free(html);
		skip();
	}
	/* The build directory, for the screenshot kept as a test artefact. */
	char build[1024];
	snprintf(build, sizeof(build), "%s", PMLAB_BIN);
	char *cut = strstr(build, "/src/cli/pmlab");
	assert_non_null(cut);
	*cut = '\0';
	char profile[] = "/tmp/pmlab-chromium-XXXXXX";
	assert_non_null(mkdtemp(profile));
	char *dom = temp_path(".html");
	static const char flags[] = "--headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
				    "--disable-background-networking --disable-component-update "
				    "--disable-sync";
	char cmd[4096];
	snprintf(cmd, sizeof(cmd), "timeout 120 %s %s --user-data-dir=%s --dump-dom file://%s > %s "
		 "2>/dev/null", browser, flags, profile, html, dom);
	assert_int_equal(system(cmd), 0);
	char *d = slurp_file(dom);
	assert_non_null(d);
	/* The page's own script counts the charts the browser laid out. */
	if (!strstr(d, "data-charts-drawn=\"5\""))
		fail_msg("the browser did not draw the 5 charts: %.300s", strstr(d, "<body") ? strstr(d, "<body") : d);
	assert_int_equal(count(d, "class=\"seg\""), segs);
	assert_int_equal(count(d, "class=\"point"), 1);
	snprintf(cmd, sizeof(cmd), "rm -rf %s && mkdir %s && timeout 120 %s %s --user-data-dir=%s "
		 "--window-size=1200,2400 --screenshot=%s/tests/trace-report.png file://%s "
		 ">/dev/null 2>&1", profile, profile, browser, flags, profile, build, html);
	assert_int_equal(system(cmd), 0);
	char png[1100];
	snprintf(png, sizeof(png), "%s/tests/trace-report.png", build);
	char *shot = slurp_file(png);
	assert_non_null(shot);
	assert_true(memcmp(shot, "\x89PNG", 4) == 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", profile);
	(void)!system(cmd);
	free(shot);
	free(d);
	free(page);
	unlink(dom);
	free(dom);
	unlink(html);
	free(html);
}

static char *read_tracing(const char *file)
{
	char path[256];
	snprintf(path, sizeof(path), "/sys/kernel/tracing/%s", file);
	return slurp_file(path);
}

/* Records a short command where tracefs can be written (root), checks the
 * tracing state is as before, that trace-cmd reads the file, and replays it. */
static void test_record(void **state)
{
	SKIP_UNLESS_REAL_MACHINE();
	if (geteuid() != 0) {
		print_message("not root: pmlab record skipped\n");
		skip();
	}
	if (access("/sys/kernel/tracing/tracing_on", F_OK) != 0 &&
	    system("mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null") != 0) {
		print_message("no tracefs: pmlab record skipped\n");
		skip();
	}
	char *before[3] = { read_tracing("set_event"), read_tracing("buffer_size_kb"),
			    read_tracing("tracing_on") };
	if (!before[0] || !before[1] || !before[2]) {
		print_message("tracefs not readable: pmlab record skipped\n");
		skip();
	}
	char *dat = temp_path(".dat");
	char args[1024];
	snprintf(args, sizeof(args), "record -o %s -- sh -c 'for i in 1 2 3 4 5; do "
		 "sleep 0.01; done'", dat);
	struct out o = ok(args);
	assert_non_null(strstr(o.err, "pmlab: record: "));
	assert_non_null(strstr(o.err, " events ("));
	out_free(&o);
	const char *files[3] = { "set_event", "buffer_size_kb", "tracing_on" };
	for (int i = 0; i < 3; i++) {
		char *after = read_tracing(files[i]);
		assert_non_null(after);
		/* A buffer never used says "7 (expanded: 1408)"; used, 1408. */
		if (i == 1 && strstr(before[i], "expanded"))
			assert_int_equal(atoi(strstr(before[i], "expanded: ") + 10), atoi(after));
		else if (strcmp(before[i], after) != 0)
			fail_msg("%s was '%s' before pmlab record, '%s' after", files[i], before[i],
				 after);
		free(after);
	}
	if (access("/usr/bin/trace-cmd", X_OK) == 0) {
		char cmd[1200];
		snprintf(cmd, sizeof(cmd), "trace-cmd report %s 2>/dev/null | grep -c sched_switch", dat);
		FILE *p = popen(cmd, "r");
		int n = 0;
		assert_int_equal(fscanf(p, "%d", &n), 1);
		pclose(p);
		assert_true(n >= 5); /* five sleeps at least */
	}
	snprintf(args, sizeof(args), "replay %s --per-task", dat);
	o = ok(args);
	assert_non_null(strstr(o.text, "sleep-"));
	out_free(&o);
	/* A command that cannot be run is bad usage; the state is still restored. */
	snprintf(args, sizeof(args), "record -o %s -- /nonexistent/command", dat);
	o = run(args);
	assert_usage_error(&o, "cannot run '/nonexistent/command'");
	out_free(&o);
	char *ev = read_tracing("set_event");
	assert_string_equal(ev, before[0]);
	free(ev);
	for (int i = 0; i < 3; i++)
		free(before[i]);
	unlink(dat);
	free(dat);
}

static void test_bad_input(void **state)
{
	expect_usage_error("replay " FIX "bad-not-a-trace.txt", "bad-not-a-trace.txt:1: not an ftrace");
	expect_usage_error("replay " FIX "bad-no-sched.txt", "bad-no-sched.txt: no sched_switch events");
	expect_usage_error("replay " FIX "bad-line.txt", "bad-line.txt:9: cannot read this line");
	expect_usage_error("replay " FIX "bad-fields.txt", "bad-fields.txt:8: sched_switch");
	expect_usage_error("replay " FIX "bad-cpu-beyond-header.txt",
			   "bad-cpu-beyond-header.txt:9: CPU 5, but the header says");
	expect_usage_error("replay " FIX "four-cpus.txt --machine " VM,
			   "four-cpus.txt:9: CPU 3, but machine capture-vm has 2 CPUs");
	expect_usage_error("replay " SHIPPED " --machine " VM " --cpus 1",
			   "hackbench.dat: record ");
	expect_usage_error("sim --machine " VM " --cpus 1 --workload replay:" SHIPPED,
			   "but machine capture-vm has 1 CPUs");
	expect_usage_error("replay " FIX "nonexistent.dat", "nonexistent.dat: cannot open");
	expect_usage_error("replay", "which trace?");
	expect_usage_error("replay " SHIPPED " --format xml", "--format xml");
	expect_usage_error("replay " SHIPPED " --bogus", "unknown option '--bogus'");
	expect_usage_error("replay " SHIPPED " --runs 3", "--runs goes with --profiles");
	expect_usage_error("sim --machine i7-4790 --workload replay", "which trace?");
	expect_usage_error("record --duration 0", "--duration 0");
	expect_usage_error("record --bogus", "unknown option '--bogus'");
	/* A trace.dat cut short, and one overwritten in its header. */
	char *cut = temp_path(".dat");
	char cmd[1200];
	snprintf(cmd, sizeof(cmd), "head -c 300000 " SHIPPED " > %s", cut);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "replay %s", cut);
	struct out o = run(cmd);
	assert_usage_error(&o, cut);
	assert_non_null(strstr(o.err, "trace.dat"));
	out_free(&o);
	snprintf(cmd, sizeof(cmd), "head -c 40 " SHIPPED " > %s && head -c 4000 /dev/zero >> %s", cut,
		 cut);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "replay %s", cut);
	o = run(cmd);
	assert_usage_error(&o, cut);
	out_free(&o);
	unlink(cut);
	free(cut);
	/* An empty file. */
	char *empty = write_temp("", ".txt");
	snprintf(cmd, sizeof(cmd), "replay %s", empty);
	o = run(cmd);
	assert_usage_error(&o, "empty");
	out_free(&o);
	unlink(empty);
	free(empty);
}

/* --profiles: the trace under several policies, through pmlab compare. */
static void test_profiles(void **state)
{
	struct out o = ok("replay " FIX "hackbench-default-sched-trace.txt --profiles "
			  "none,none:cpuidle=menu");
	assert_non_null(strstr(o.text, "replay:"));
	assert_non_null(strstr(o.text, "none:cpuidle=menu"));
	/* The runs last as long as the trace's tasks take, not the limit. */
	assert_non_null(strstr(o.text, "1 run per profile, each until the workload ended ("));
	assert_non_null(strstr(o.text, "Run time"));
	/* the command that runs it again names the trace, not the model's workload */
	assert_non_null(strstr(o.text, "    pmlab replay " FIX "hackbench-default-sched-trace.txt "));
	assert_null(strstr(o.text, "--workload"));
	out_free(&o);

	/* Each profile's run time and energy are those of the same replay
	 * run alone; energy is power over that time. */
	o = ok("replay " SHIPPED " --profiles none,none:cpufreq=powersave --format json");
	json_error_t err;
	json_t *root = json_loads(o.text, 0, &err);
	assert_non_null(root);
	double limit = json_number_value(json_object_get(root, "duration_s"));
	json_t *profiles = json_object_get(root, "profiles");
	assert_int_equal(json_array_size(profiles), 2);
	for (size_t i = 0; i < 2; i++) {
		json_t *fig = json_object_get(
			json_array_get(json_object_get(json_array_get(profiles, i), "runs"), 0),
			"figures");
		double t = json_number_value(json_object_get(fig, "run_time_s"));
		double e = json_number_value(json_object_get(fig, "energy_j"));
		double w = json_number_value(json_object_get(fig, "power_w"));
		assert_true(t > 0.4 && t < limit / 10);
		assert_true(dabs(e - w * t) <= 1e-6 * e);
		struct out one = ok(i ? "replay " SHIPPED " --cpufreq powersave --format json"
				      : "replay " SHIPPED " --format json");
		json_t *r1 = json_loads(one.text, 0, &err);
		assert_non_null(r1);
		assert_true(dabs(json_number_value(json_object_get(r1, "duration_s")) - t) < 1e-9);
		assert_true(dabs(json_number_value(json_object_get(r1, "energy_j")) - e) < 1e-6 * e);
		json_decref(r1);
		out_free(&one);
	}
	json_decref(root);
	out_free(&o);

	/* A workload that runs for the whole --duration has no such figure. */
	o = ok("compare -m i7-4790 -w pingpong --profiles none -d 0.05 --runs 1 --format json");
	assert_null(strstr(o.text, "run_time_s"));
	out_free(&o);
}

/* Two cores, 1 or 2 GHz, no kernel costs: a replay of its own trace gives
 * every task its CPU time back. */
static const char *const two_core_ini =
	"[machine]\nname = two-core\n"
	"[topology]\npackages = 1\ncores_per_package = 2\nthreads_per_core = 1\nfreq_domain = core\n"
	"[frequency]\nbase_khz = 2000000\n[pstates]\n1000000 = 800\n2000000 = 1000\n"
	"[cstate C1]\nexit_latency_us = 1\ntarget_residency_us = 2\npower_mw = 500\n"
	"[cstate C6]\nexit_latency_us = 100\ntarget_residency_us = 300\npower_mw = 0\n"
	"[power]\nceff_nf = 1\nleak_w = 1\nuncore_w = 2\nplatform_w = 0\n"
	"[costs]\ncontext_switch_us = 0\nwakeup_ipi_us = 0\n";
#define NO_COSTS " --set tick_cost_ns=0 --set tick_stop_cost_ns=0 --set cpufreq_update_cost_ns=0" \
	" --set background_wakeups=0 --set tick_restart_cost_ns=0"

/* pmlab sim --trace: trace-cmd reads it, and pmlab replay on the same
 * model gives every task its CPU time back (tests/unit/test_simtrace.c
 * checks the tolerance task by task). */
static void test_sim_trace(void **state)
{
	char *ini = write_temp(two_core_ini, ".ini");
	char *dat = temp_path(".dat");
	char args[2048];
	snprintf(args, sizeof(args), "sim --machine %s -w video -d 1 --cpufreq performance --trace %s"
		 NO_COSTS, ini, dat);
	struct out o = ok(args);
	out_free(&o);
	if (system("command -v trace-cmd >/dev/null 2>&1") != 0) {
		print_message("trace-cmd not installed: trace-cmd report skipped\n");
	} else {
		snprintf(args, sizeof(args), "trace-cmd report %s 2>&1", dat);
		FILE *p = popen(args, "r");
		assert_non_null(p);
		char line[512];
		int seen[6] = { 0 };
		const char *want[6] = { "sched_switch:", "sched_wakeup:", "cpu_idle:",
					"cpu_frequency:", "core_power:", "hrtimer_expire_entry:" };
		while (fgets(line, sizeof(line), p))
			for (int i = 0; i < 6; i++)
				seen[i] += strstr(line, want[i]) != NULL;
		assert_int_equal(pclose(p), 0);
		for (int i = 0; i < 6; i++)
			if (!seen[i])
				fail_msg("trace-cmd report shows no %s", want[i]);
	}
	snprintf(args, sizeof(args), "replay %s --machine %s --cpufreq performance --per-task" NO_COSTS,
		 dat, ini);
	o = ok(args);
	double traced, replayed;
	per_task_total(o.text, &traced, &replayed);
	assert_true(traced > 100);
	assert_true(dabs(replayed - traced) <= 0.001);
	out_free(&o);
	unlink(dat);
	unlink(ini);
	free(dat);
	free(ini);
}

/* --window and --trace-cpus: the timeline keeps those CPUs' tracks and
 * slices within the window (clipped to it); bad values are bad input. */
static void test_export_filters(void **state)
{
	char *js = temp_path(".json");
	char args[1024];
	snprintf(args, sizeof(args), "sim -m i7-4790 -w pingpong -d 0.5 --timeline %s "
		 "--window 0.2:0.3 --trace-cpus 1,4-5", js);
	struct out o = ok(args);
	out_free(&o);
	json_t *j = load_json(js);
	json_t *ev = json_object_get(j, "traceEvents");
	size_t i, slices = 0;
	json_t *e;
	json_array_foreach(ev, i, e) {
		const char *ph = json_string_value(json_object_get(e, "ph"));
		json_int_t pid = json_integer_value(json_object_get(e, "pid"));
		if (strcmp(ph, "X") == 0) {
			json_int_t tid = json_integer_value(json_object_get(e, "tid"));
			double ts = json_number_value(json_object_get(e, "ts"));
			double dur = json_number_value(json_object_get(e, "dur"));
			assert_true(tid == 101 || tid == 104 || tid == 105);
			assert_true(ts >= 200000 && ts + dur <= 300000 + 1e-6);
			slices++;
		}
		if (strcmp(ph, "C") == 0 && pid == 2) {
			double ts = json_number_value(json_object_get(e, "ts"));
			const char *name = json_string_value(json_object_get(e, "name"));
			assert_true(ts >= 200000 && ts < 300000);
			assert_true(strcmp(name, "cpu1 freq") == 0 || strcmp(name, "cpu4 freq") == 0 ||
				    strcmp(name, "cpu5 freq") == 0);
		}
	}
	assert_true(slices > 10);
	json_decref(j);
	unlink(js);
	free(js);
	expect_usage_error("sim -m i7-4790 -w pingpong --timeline /tmp/x.json --window 2:1",
			   "--window 2:1");
	expect_usage_error("sim -m i7-4790 -w pingpong --timeline /tmp/x.json --window soon",
			   "--window soon");
	expect_usage_error("sim -m i7-4790 -w pingpong --trace /tmp/x.dat --trace-cpus 8",
			   "--trace-cpus 8: CPU 8, but the machine has 8 CPUs");
	/* The option's own name, and plain decimal: no sign, no blanks. */
	expect_usage_error("sim -m i7-4790 -w pingpong --trace /tmp/x.dat --trace-cpus +1",
			   "--trace-cpus +1: expected a CPU list");
	expect_usage_error("sim -m i7-4790 -w pingpong --trace /tmp/x.dat --trace-cpus 0-+3",
			   "--trace-cpus 0-+3: expected a CPU list");
	expect_usage_error("sim -m i7-4790 -w pingpong --window 1:2", "give one of them");
	expect_usage_error("sim -m i7-4790 -w pingpong --timeline /tmp/x --trace /tmp/x",
			   "the same file");
}

/* A timeline bigger than the limit is announced with its estimated size,
 * early, and the estimate is near the size written. */
static void test_export_size_warning(void **state)
{
	char *js = temp_path(".json");
	char args[1024];
	snprintf(args, sizeof(args), "sim -m i7-4790 -w pingpong -d 1 --cpufreq performance "
		 "--timeline %s", js);
	setenv("PMLAB_EXPORT_WARN_MB", "0.5", 1);
	struct out o = run(args);
	unsetenv("PMLAB_EXPORT_WARN_MB");
	assert_int_equal(o.status, 0);
	/* A steadier run: one warning, early, and within a factor of 1.5 (menu
	 * and the turbo bins settle in the first percent of the run). */
	const char *w = strstr(o.err, "will be about ");
	assert_non_null(w);
	assert_null(strstr(w + 1, "will be about "));
	double mb, at;
	assert_int_equal(sscanf(w, "will be about %lf MB (estimated at %lf %%", &mb, &at), 2);
	assert_true(at <= 5);
	/* It says what it assumes: that the run lasts to its end. */
	assert_non_null(strstr(w, "of the run, if it lasts to 1 s;"));
	FILE *f = fopen(js, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	double real = (double)ftell(f) / 1e6;
	fclose(f);
	assert_true(mb > real / 1.5 && mb < 1.5 * real);
	out_free(&o);
	/* Below the limit: nothing said. */
	o = ok(args);
	assert_null(strstr(o.err, "will be about"));
	out_free(&o);
	/* A run whose pace changes as the governor moves the clock: the early
	 * estimate may be off (by 2x here), but a file over the limit is
	 * always announced. */
	snprintf(args, sizeof(args), "sim -m i7-4790 -w pingpong -d 1 --cpufreq schedutil "
		 "--timeline %s", js);
	setenv("PMLAB_EXPORT_WARN_MB", "0.5", 1);
	o = run(args);
	unsetenv("PMLAB_EXPORT_WARN_MB");
	assert_int_equal(o.status, 0);
	const char *last = NULL;
	for (w = strstr(o.err, "will be about "); w; w = strstr(w + 1, "will be about "))
		last = w;
	assert_non_null(last);
	assert_int_equal(sscanf(last, "will be about %lf MB", &mb), 1);
	assert_true(mb > 0.5);
	f = fopen(js, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	real = (double)ftell(f) / 1e6;
	fclose(f);
	assert_true(real > 0.5);
	out_free(&o);
	unlink(js);
	free(js);
}

/* replay --comm, --pid on the shipped trace: only hackbench's processes
 * (the recording's pmlab forked them), every one replayed with its CPU
 * time; record's choice of processes is checked before anything is
 * recorded. */
static void test_keep_some_processes(void **state)
{
	struct out o = ok("replay " SHIPPED " --comm 'sched-messag*' --per-task");
	const char *sec = strstr(o.text, "Per task:");
	assert_non_null(sec);
	int tasks = 0;
	for (const char *l = strstr(sec, "\n  ") + 1; l && strncmp(l, "  total", 7) != 0;
	     l = strchr(l, '\n') + 1) {
		if (strncmp(l, "  task ", 7) == 0)
			continue;
		assert_true(strncmp(l, "  sched-messaging-", 18) == 0);
		tasks++;
	}
	assert_int_equal(tasks, 41);
	double traced, replayed;
	per_task_total(o.text, &traced, &replayed);
	assert_true(traced > 900 && traced < 1009);
	assert_true(dabs(replayed - traced) < 0.001);
	out_free(&o);
	/* The recording pmlab (PID 21472) and everything it forked: one more. */
	o = ok("replay " SHIPPED " --pid 21472 --format json");
	assert_non_null(strstr(o.text, "\"tasks_replayed\""));
	out_free(&o);
	expect_usage_error("replay " SHIPPED " --pid 12,x", "--pid 12,x: 'x' is not a PID");
	expect_usage_error("replay " SHIPPED " --comm nosuch", "no task of the trace is among");
	expect_usage_error("record -o /tmp/pmlab-never.dat -p 4194304 -d 0.1",
			   "-p 4194304: no such process");
	expect_usage_error("record -o /tmp/pmlab-never.dat --comm 'pmlab-no-such-process-*' -d 0.1",
			   "no process of that name runs");
	expect_usage_error("record -o /tmp/pmlab-never.dat --cgroup pmlab-no-such-cgroup -d 0.1",
			   "--cgroup pmlab-no-such-cgroup: cannot read");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replay_formats),
		cmocka_unit_test(test_timeline),
		cmocka_unit_test(test_html_report),
		cmocka_unit_test(test_record),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_profiles),
		cmocka_unit_test(test_sim_trace),
		cmocka_unit_test(test_export_filters),
		cmocka_unit_test(test_export_size_warning),
		cmocka_unit_test(test_keep_some_processes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
