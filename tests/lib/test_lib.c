// SPDX-License-Identifier: GPL-2.0-only
/* libpmlab through its installed interface only (include/pmlab/pmlab.h,
 * linked against the shared library): runs, results, errors, comparisons,
 * sweeps, the catalog, and separate runs in separate threads. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <pmlab/plugin.h>
#include <pmlab/pmlab.h>

#define MS 1000000LL

static pmlab_lab *lab;

static int setup(void **state)
{
	return pmlab_lab_new(&lab, NULL) == PMLAB_OK ? 0 : -1;
}

static int teardown(void **state)
{
	pmlab_lab_free(lab);
	return 0;
}

/* A run of workload on machine for ms milliseconds, with settings (NULL-ended). */
static pmlab_result *run_of(const char *machine, const char *workload, const char *cpufreq,
			    int ms, uint64_t seed, const char *const *sets)
{
	pmlab_machine *m = NULL;
	pmlab_run *run = NULL;
	pmlab_result *res = NULL;
	pmlab_error err;

	assert_int_equal(pmlab_machine_load(machine, &m, &err), PMLAB_OK);
	assert_int_equal(pmlab_run_new(lab, m, workload, &run, &err), PMLAB_OK);
	pmlab_machine_free(m); /* the run keeps its own copy */
	if (cpufreq)
		assert_int_equal(pmlab_run_cpufreq(run, cpufreq, &err), PMLAB_OK);
	for (int i = 0; sets && sets[i]; i++)
		assert_int_equal(pmlab_run_set(run, sets[i], &err), PMLAB_OK);
	assert_int_equal(pmlab_run_duration(run, ms * MS, &err), PMLAB_OK);
	pmlab_run_seed(run, seed);
	if (pmlab_run_exec(run, &res, &err) != PMLAB_OK)
		fail_msg("run: %s", err.message);
	assert_string_equal(err.message, "");
	pmlab_run_free(run);
	return res;
}

static double number(const pmlab_result *res, const char *path)
{
	pmlab_error err;
	double v = -1;

	if (pmlab_result_number(res, path, &v, &err) != PMLAB_OK)
		fail_msg("%s", err.message);
	return v;
}

/* Equal to the JSON's 10 significant digits. */
static int close_to(double a, double b)
{
	double d = a > b ? a - b : b - a;
	return d <= 1e-9 * (a > 0 ? a : -a) + 1e-12;
}

static void test_version(void **state)
{
	assert_int_equal(pmlab_api_version(), PMLAB_API_VERSION);
	assert_int_equal(pmlab_api_version() / 1000, PMLAB_API_VERSION_MAJOR);
	assert_true(strlen(pmlab_version()) > 0);
	assert_string_equal(pmlab_status_name(PMLAB_ERR_INPUT), "input");
}

/* Every format of one run, the same run's figures in each, and the run
 * described as asked. */
static void test_run_result(void **state)
{
	pmlab_result *res = run_of("i7-4790", "pingpong", "performance", 200, 1, NULL);
	const char *table = pmlab_result_text(res, PMLAB_TABLE);
	const char *json = pmlab_result_text(res, PMLAB_JSON);

	assert_non_null(table);
	assert_non_null(pmlab_result_text(res, PMLAB_CSV));
	assert_null(pmlab_result_text(res, PMLAB_HTML));
	assert_non_null(strstr(table, "machine i7-4790, workload pingpong, cpufreq performance"));
	assert_non_null(strstr(json, "\"cpufreq\": \"performance\""));
	assert_true(number(res, "duration_s") > 0.19 && number(res, "duration_s") < 0.21);
	/* Energy is power over the run; throughput is work done over the run. */
	assert_true(close_to(number(res, "energy_j"), number(res, "power_w") * 0.2));
	assert_true(close_to(number(res, "throughput"), number(res, "work_done") / 0.2));
	assert_true(number(res, "energy_core_dynamic_j") > 0);
	pmlab_result_free(res);
}

/* The same inputs give the same bytes; another seed of a random workload
 * other ones; a setting changes the run. */
static void test_determinism(void **state)
{
	static const char *const hz100[] = { "hz=100", NULL };
	pmlab_result *a = run_of("i7-4790", "oltp", NULL, 200, 3, NULL);
	pmlab_result *b = run_of("i7-4790", "oltp", NULL, 200, 3, NULL);
	pmlab_result *c = run_of("i7-4790", "oltp", NULL, 200, 4, NULL);
	pmlab_result *d = run_of("i7-4790", "oltp", NULL, 200, 3, hz100);

	assert_string_equal(pmlab_result_text(a, PMLAB_JSON), pmlab_result_text(b, PMLAB_JSON));
	assert_string_not_equal(pmlab_result_text(a, PMLAB_JSON), pmlab_result_text(c, PMLAB_JSON));
	assert_true(number(d, "events") != number(a, "events"));
	pmlab_result_free(a);
	pmlab_result_free(b);
	pmlab_result_free(c);
	pmlab_result_free(d);
}

static void expect(pmlab_status got, const pmlab_error *err, pmlab_status code, const char *part)
{
	assert_int_equal(got, code);
	assert_int_equal(err->code, code);
	if (!strstr(err->message, part))
		fail_msg("'%s' does not say '%s'", err->message, part);
	assert_null(strchr(err->message, '\n'));
}

static void test_errors(void **state)
{
	pmlab_machine *m = NULL;
	pmlab_run *run = NULL;
	pmlab_result *res = NULL;
	pmlab_error err;
	double v;

	expect(pmlab_machine_load("no-such-machine", &m, &err), &err, PMLAB_ERR_INPUT,
	       "no-such-machine");
	assert_null(m);
	expect(pmlab_machine_parse("[machine]\nname = x\ncores = banana\n", "mine.ini", &m, &err),
	       &err, PMLAB_ERR_INPUT, "mine.ini:");
	assert_int_equal(pmlab_machine_load("i7-4790", &m, &err), PMLAB_OK);
	expect(pmlab_machine_set_cpus(m, 99, &err), &err, PMLAB_ERR_INPUT, "1..8");
	assert_int_equal(pmlab_machine_cpus(m), 8);
	expect(pmlab_run_new(lab, m, "", &run, &err), &err, PMLAB_ERR_INPUT, "workload");
	assert_int_equal(pmlab_run_new(lab, m, "no-such-workload", &run, &err), PMLAB_OK);
	expect(pmlab_run_validate(run, &err), &err, PMLAB_ERR_INPUT, "no-such-workload");
	expect(pmlab_run_exec(run, &res, &err), &err, PMLAB_ERR_INPUT, "no-such-workload");
	assert_null(res);
	pmlab_run_free(run);

	assert_int_equal(pmlab_run_new(lab, m, "pingpong", &run, &err), PMLAB_OK);
	expect(pmlab_run_duration(run, 0, &err), &err, PMLAB_ERR_INPUT, "duration");
	assert_int_equal(pmlab_run_set(run, "no_such_key=1", &err), PMLAB_OK);
	expect(pmlab_run_validate(run, &err), &err, PMLAB_ERR_INPUT, "no_such_key");
	pmlab_run_free(run);

	assert_int_equal(pmlab_run_new(lab, m, "pingpong", &run, &err), PMLAB_OK);
	assert_int_equal(pmlab_run_cpuidle(run, "no-such-governor", &err), PMLAB_OK);
	expect(pmlab_run_validate(run, &err), &err, PMLAB_ERR_INPUT, "no-such-governor");
	expect(pmlab_run_window(run, "2:1", &err), &err, PMLAB_ERR_INPUT, "2:1");
	expect(pmlab_run_trace_cpus(run, "0-99", &err), &err, PMLAB_ERR_INPUT, "99");
	pmlab_run_free(run);

	assert_int_equal(pmlab_run_new(lab, m, "pingpong", &run, &err), PMLAB_OK);
	assert_int_equal(pmlab_run_duration(run, 20 * MS, &err), PMLAB_OK);
	assert_int_equal(pmlab_run_timeline(run, "/nonexistent-dir/t.json", &err), PMLAB_OK);
	expect(pmlab_run_exec(run, &res, &err), &err, PMLAB_ERR_RUN, "/nonexistent-dir/t.json");
	assert_int_equal(pmlab_run_timeline(run, NULL, &err), PMLAB_OK);
	assert_int_equal(pmlab_run_exec(run, &res, &err), PMLAB_OK);
	expect(pmlab_result_number(res, "no.such.path", &v, &err), &err, PMLAB_ERR_INPUT,
	       "no.such.path");
	expect(pmlab_result_number(res, "machine", &v, &err), &err, PMLAB_ERR_INPUT, "not a number");
	pmlab_result_free(res);
	pmlab_run_free(run);
	pmlab_machine_free(m);
}

/* An INI text and the preset it came from give the same run. */
static void test_machine_text(void **state)
{
	pmlab_machine *a = NULL, *b = NULL;
	pmlab_error err;
	char *ini;

	assert_true(pmlab_machine_preset_count() > 3);
	assert_null(pmlab_machine_preset_name(pmlab_machine_preset_count()));
	assert_int_equal(pmlab_machine_load("xeon-e5-2650l-v3", &a, &err), PMLAB_OK);
	assert_int_equal(pmlab_machine_set_cpus(a, 4, &err), PMLAB_OK);
	ini = pmlab_machine_ini(a);
	assert_non_null(ini);
	assert_int_equal(pmlab_machine_parse(ini, "copy.ini", &b, &err), PMLAB_OK);
	assert_string_equal(pmlab_machine_name(b), pmlab_machine_name(a));
	assert_int_equal(pmlab_machine_cpus(b), 4);
	pmlab_free(ini);
	pmlab_machine_free(a);
	pmlab_machine_free(b);
}

/* Separate runs in separate threads at once give what they give alone. */
struct job {
	const char *workload, *cpufreq;
	pmlab_result *res;
};

static void *thread_run(void *arg)
{
	struct job *j = arg;
	j->res = run_of("i7-4790", j->workload, j->cpufreq, 150, 2, NULL);
	return NULL;
}

static void test_threads(void **state)
{
	struct job jobs[] = {
		{ "oltp", "schedutil", NULL }, { "pingpong", "ondemand", NULL },
		{ "video", "powersave", NULL }, { "tbench", "conservative", NULL },
	};
	pthread_t t[4];

	for (int i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&t[i], NULL, thread_run, &jobs[i]), 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
	for (int i = 0; i < 4; i++) {
		pmlab_result *alone = run_of("i7-4790", jobs[i].workload, jobs[i].cpufreq, 150, 2, NULL);
		assert_string_equal(pmlab_result_text(jobs[i].res, PMLAB_JSON),
				    pmlab_result_text(alone, PMLAB_JSON));
		pmlab_result_free(alone);
		pmlab_result_free(jobs[i].res);
	}
}

static void test_compare(void **state)
{
	pmlab_machine *m = NULL;
	pmlab_compare *c = NULL;
	pmlab_result *res = NULL;
	pmlab_error err;

	assert_int_equal(pmlab_machine_load("i7-4790", &m, &err), PMLAB_OK);
	assert_int_equal(pmlab_compare_new(lab, m, "pingpong", &c, &err), PMLAB_OK);
	expect(pmlab_compare_exec(c, &res, &err), &err, PMLAB_ERR_INPUT, "policy");
	assert_int_equal(pmlab_compare_policy(c, "none", "stock", &err), PMLAB_OK);
	assert_int_equal(pmlab_compare_policy(c, "none:pm_qos_latency_us=20", NULL, &err), PMLAB_OK);
	expect(pmlab_compare_policy(c, "none", NULL, &err), &err, PMLAB_ERR_INPUT, "twice");
	expect(pmlab_compare_runs(c, 0, &err), &err, PMLAB_ERR_INPUT, "runs");
	assert_int_equal(pmlab_compare_runs(c, 2, &err), PMLAB_OK);
	assert_int_equal(pmlab_compare_duration(c, 100 * MS, &err), PMLAB_OK);
	assert_int_equal(pmlab_compare_baseline(c, "nope", &err), PMLAB_OK);
	expect(pmlab_compare_validate(c, &err), &err, PMLAB_ERR_INPUT, "nope");
	assert_int_equal(pmlab_compare_baseline(c, NULL, &err), PMLAB_OK);
	assert_int_equal(pmlab_compare_validate(c, &err), PMLAB_OK);
	assert_int_equal(pmlab_compare_exec(c, &res, &err), PMLAB_OK);
	assert_non_null(strstr(pmlab_result_text(res, PMLAB_TABLE), "stock"));
	assert_non_null(strstr(pmlab_result_text(res, PMLAB_HTML), "<html"));
	assert_non_null(strstr(pmlab_result_text(res, PMLAB_CSV), "none:pm_qos_latency_us=20"));
	assert_non_null(strstr(pmlab_result_text(res, PMLAB_JSON), "\"stock\""));
	pmlab_result_free(res);
	pmlab_compare_free(c);
	pmlab_machine_free(m);
}

/* A comparison records what it was made from, as pmlab compare does: the
 * machine as it was named (a path stays a path), --cpus only when the
 * caller limited them, --baseline only when given. */
static void test_compare_inputs(void **state)
{
	pmlab_machine *m = NULL;
	pmlab_compare *c = NULL;
	pmlab_result *res = NULL;
	pmlab_error err;
	const char *csv;

	assert_int_equal(pmlab_machine_load("tests/fixtures/machines/good-minimal.ini", &m, &err),
			 PMLAB_OK);
	assert_int_equal(pmlab_compare_new(lab, m, "batch", &c, &err), PMLAB_OK);
	assert_int_equal(pmlab_compare_policy(c, "none", NULL, &err), PMLAB_OK);
	assert_int_equal(pmlab_compare_policy(c, "none:cpufreq=powersave", NULL, &err), PMLAB_OK);
	assert_int_equal(pmlab_compare_runs(c, 1, &err), PMLAB_OK);
	assert_int_equal(pmlab_compare_duration(c, 50 * MS, &err), PMLAB_OK);
	assert_int_equal(pmlab_compare_exec(c, &res, &err), PMLAB_OK);
	csv = pmlab_result_text(res, PMLAB_CSV);
	assert_non_null(strstr(csv, "# command: pmlab compare --machine "
				    "tests/fixtures/machines/good-minimal.ini --workload batch "
				    "--profiles none,none:cpufreq=powersave --runs 1"));
	assert_null(strstr(csv, "--baseline"));
	assert_null(strstr(csv, "--cpus"));
	pmlab_result_free(res);
	pmlab_compare_free(c);
	pmlab_machine_free(m);

	assert_int_equal(pmlab_machine_load("i7-4790", &m, &err), PMLAB_OK);
	assert_int_equal(pmlab_machine_set_cpus(m, 4, &err), PMLAB_OK);
	assert_int_equal(pmlab_compare_new(lab, m, "pingpong", &c, &err), PMLAB_OK);
	assert_int_equal(pmlab_compare_policy(c, "none", NULL, &err), PMLAB_OK);
	assert_int_equal(pmlab_compare_policy(c, "none:cpuidle=teo", NULL, &err), PMLAB_OK);
	assert_int_equal(pmlab_compare_baseline(c, "none:cpuidle=teo", &err), PMLAB_OK);
	assert_int_equal(pmlab_compare_runs(c, 1, &err), PMLAB_OK);
	assert_int_equal(pmlab_compare_duration(c, 50 * MS, &err), PMLAB_OK);
	assert_int_equal(pmlab_compare_exec(c, &res, &err), PMLAB_OK);
	assert_non_null(strstr(pmlab_result_text(res, PMLAB_CSV),
			       "# command: pmlab compare --machine i7-4790 --cpus 4 --workload pingpong "
			       "--profiles none,none:cpuidle=teo --runs 1 --baseline none:cpuidle=teo "
			       "--seed 1 --duration 0.05\n"));
	assert_non_null(strstr(pmlab_result_text(res, PMLAB_JSON), "\"baseline\""));
	pmlab_result_free(res);
	pmlab_compare_free(c);
	pmlab_machine_free(m);
}

static int count_lines(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void test_sweep(void **state)
{
	pmlab_sweep *s = NULL;
	pmlab_result *res = NULL;
	pmlab_error err;

	assert_int_equal(pmlab_sweep_new(lab, &s, &err), PMLAB_OK);
	assert_int_equal(pmlab_sweep_option(s, "machine", "i7-4790", &err), PMLAB_OK);
	assert_int_equal(pmlab_sweep_option(s, "workload", "pingpong", &err), PMLAB_OK);
	assert_int_equal(pmlab_sweep_option(s, "duration", "0.05", &err), PMLAB_OK);
	expect(pmlab_sweep_option(s, "colour", "red", &err), &err, PMLAB_ERR_INPUT, "colour");
	assert_int_equal(pmlab_sweep_vary(s, "cpufreq=performance,powersave", &err), PMLAB_OK);
	assert_int_equal(pmlab_sweep_vary(s, "pm_qos_latency_us=-1,20,100", &err), PMLAB_OK);
	expect(pmlab_sweep_vary(s, "cpufreq=schedutil", &err), &err, PMLAB_ERR_INPUT, "twice");
	expect(pmlab_sweep_vary(s, "hz", &err), &err, PMLAB_ERR_INPUT, "KEY=VALUE");
	assert_int_equal(pmlab_sweep_exec(s, &res, &err), PMLAB_OK);
	/* the inputs' "#" lines (9: no --set, --cpus or plugin), the header, 6 rows */
	assert_int_equal(count_lines(pmlab_result_text(res, PMLAB_CSV)), 9 + 1 + 6);
	assert_non_null(strstr(pmlab_result_text(res, PMLAB_CSV),
			       "# vary: pm_qos_latency_us=-1,20,100\n"));
	assert_null(pmlab_result_text(res, PMLAB_JSON));
	pmlab_result_free(res);
	assert_int_equal(pmlab_sweep_format(s, PMLAB_JSON, &err), PMLAB_OK);
	assert_int_equal(pmlab_sweep_shard(s, 1, 2, &err), PMLAB_OK);
	assert_int_equal(pmlab_sweep_exec(s, &res, &err), PMLAB_OK);
	/* Shard 1 of 2 runs the odd points, each under the settings it names. */
	assert_true(number(res, "points.0.point") == 1 && number(res, "points.2.point") == 5);
	assert_non_null(strstr(pmlab_result_text(res, PMLAB_JSON), "\"pm_qos_latency_us\": \"100\""));
	assert_true(number(res, "points.0.result.duration_s") == 0.05);
	assert_true(number(res, "inputs.duration_s") == 0.05);
	{
		pmlab_error e;
		double v;
		expect(pmlab_result_number(res, "points.3.point", &v, &e), &e, PMLAB_ERR_INPUT,
		       "points.3.point");
	}
	pmlab_result_free(res);
	assert_int_equal(pmlab_sweep_option(s, "machine", "no-such-machine", &err), PMLAB_OK);
	expect(pmlab_sweep_exec(s, &res, &err), &err, PMLAB_ERR_INPUT, "no-such-machine");
	pmlab_sweep_free(s);
}

/* What write(ctx, out) writes, as a string the caller frees. */
static char *written(pmlab_status (*write)(void *ctx, FILE *out), void *ctx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	assert_int_equal(write(ctx, out), PMLAB_OK);
	assert_int_equal(fclose(out), 0);
	return buf;
}

struct form_of {
	void *h;
	const pmlab_trace *t;
	pmlab_format f;
};

static pmlab_status compare_form(void *ctx, FILE *out)
{
	struct form_of *x = ctx;
	return pmlab_compare_write(x->h, out, x->f, NULL);
}

static pmlab_status idletrace_form(void *ctx, FILE *out)
{
	struct form_of *x = ctx;
	return pmlab_idletrace_write(x->h, x->t, out, x->f, NULL);
}

static pmlab_status govtrace_form(void *ctx, FILE *out)
{
	struct form_of *x = ctx;
	return pmlab_govtrace_write(x->h, x->t, out, x->f, NULL);
}

/* A form written alone is the result's text of that form, byte for byte. */
static void test_write_one_form(void **state)
{
	pmlab_machine *m = NULL;
	pmlab_compare *c = NULL;
	pmlab_idletrace *it = NULL;
	pmlab_govtrace *g = NULL;
	pmlab_trace *idle = NULL, *util = NULL;
	pmlab_result *res = NULL;
	pmlab_error err;
	char *text;

	assert_int_equal(pmlab_machine_load("i7-4790", &m, &err), PMLAB_OK);
	assert_int_equal(pmlab_compare_new(lab, m, "pingpong", &c, &err), PMLAB_OK);
	assert_int_equal(pmlab_compare_policy(c, "none", NULL, &err), PMLAB_OK);
	assert_int_equal(pmlab_compare_policy(c, "none:cpuidle=teo", NULL, &err), PMLAB_OK);
	assert_int_equal(pmlab_compare_runs(c, 2, &err), PMLAB_OK);
	assert_int_equal(pmlab_compare_duration(c, 30 * MS, &err), PMLAB_OK);
	assert_int_equal(pmlab_compare_exec(c, &res, &err), PMLAB_OK);
	for (int f = PMLAB_TABLE; f <= PMLAB_HTML; f++) {
		text = written(compare_form, &(struct form_of){ c, NULL, (pmlab_format)f });
		assert_string_equal(text, pmlab_result_text(res, (pmlab_format)f));
		free(text);
	}
	expect(pmlab_compare_write(c, NULL, PMLAB_CSV, &err), &err, PMLAB_ERR_INPUT, "stream");
	pmlab_result_free(res);

	assert_int_equal(pmlab_trace_load("data/samples/idletrace-video.csv", PMLAB_TRACE_IDLE, &idle,
					  &err), PMLAB_OK);
	assert_int_equal(pmlab_idletrace_new(lab, m, "menu", &it, &err), PMLAB_OK);
	assert_int_equal(pmlab_idletrace_exec(it, idle, &res, &err), PMLAB_OK);
	for (int f = PMLAB_CSV; f <= PMLAB_JSON; f++) {
		text = written(idletrace_form, &(struct form_of){ it, idle, (pmlab_format)f });
		assert_string_equal(text, pmlab_result_text(res, (pmlab_format)f));
		free(text);
	}
	expect(pmlab_idletrace_write(it, idle, stdout, PMLAB_HTML, &err), &err, PMLAB_ERR_INPUT, "CSV");
	pmlab_result_free(res);

	assert_int_equal(pmlab_trace_load("data/samples/govtrace-load-steps.csv", PMLAB_TRACE_UTIL,
					  &util, &err), PMLAB_OK);
	assert_int_equal(pmlab_govtrace_new(lab, "conservative", &g, &err), PMLAB_OK);
	assert_int_equal(pmlab_govtrace_freqs(g, "1200000,1800000,2400000", &err), PMLAB_OK);
	assert_int_equal(pmlab_govtrace_exec(g, util, &res, &err), PMLAB_OK);
	for (int f = PMLAB_CSV; f <= PMLAB_JSON; f++) {
		text = written(govtrace_form, &(struct form_of){ g, util, (pmlab_format)f });
		assert_string_equal(text, pmlab_result_text(res, (pmlab_format)f));
		free(text);
	}
	expect(pmlab_govtrace_write(g, idle, stdout, PMLAB_CSV, &err), &err, PMLAB_ERR_INPUT,
	       "idletrace-video.csv");
	pmlab_result_free(res);

	pmlab_govtrace_free(g);
	pmlab_idletrace_free(it);
	pmlab_trace_free(util);
	pmlab_trace_free(idle);
	pmlab_compare_free(c);
	pmlab_machine_free(m);
}

/* What pmlab_sweep_write streams, f's text; the caller frees it. */
static char *sweep_written(pmlab_sweep *s, pmlab_format f)
{
	pmlab_error err;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	assert_int_equal(pmlab_sweep_format(s, f, &err), PMLAB_OK);
	if (pmlab_sweep_write(s, out, &err) != PMLAB_OK)
		fail_msg("sweep: %s", err.message);
	assert_int_equal(fclose(out), 0);
	return buf;
}

/* Streamed rows are the result's text byte for byte, in every form; a
 * bad point is found before any runs. */
static void test_sweep_write(void **state)
{
	static const pmlab_format forms[] = { PMLAB_CSV, PMLAB_JSON, PMLAB_HTML };
	pmlab_sweep *s = NULL;
	pmlab_result *res = NULL;
	pmlab_error err;

	assert_int_equal(pmlab_sweep_new(lab, &s, &err), PMLAB_OK);
	assert_int_equal(pmlab_sweep_option(s, "machine", "i7-4790", &err), PMLAB_OK);
	assert_int_equal(pmlab_sweep_option(s, "workload", "pingpong", &err), PMLAB_OK);
	assert_int_equal(pmlab_sweep_option(s, "duration", "0.02", &err), PMLAB_OK);
	assert_int_equal(pmlab_sweep_vary(s, "cpufreq=performance,nosuch", &err), PMLAB_OK);
	expect(pmlab_sweep_validate(s, &err), &err, PMLAB_ERR_INPUT, "nosuch");
	expect(pmlab_sweep_write(s, NULL, &err), &err, PMLAB_ERR_INPUT, "stream");
	pmlab_sweep_free(s);

	assert_int_equal(pmlab_sweep_new(lab, &s, &err), PMLAB_OK);
	assert_int_equal(pmlab_sweep_option(s, "machine", "i7-4790", &err), PMLAB_OK);
	assert_int_equal(pmlab_sweep_option(s, "workload", "pingpong", &err), PMLAB_OK);
	assert_int_equal(pmlab_sweep_option(s, "duration", "0.02", &err), PMLAB_OK);
	assert_int_equal(pmlab_sweep_vary(s, "seed=1,2,3", &err), PMLAB_OK);
	assert_int_equal(pmlab_sweep_jobs(s, 2, &err), PMLAB_OK);
	assert_int_equal(pmlab_sweep_validate(s, &err), PMLAB_OK);
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		char *text = sweep_written(s, forms[i]);
		assert_int_equal(pmlab_sweep_exec(s, &res, &err), PMLAB_OK);
		assert_string_equal(text, pmlab_result_text(res, forms[i]));
		if (forms[i] == PMLAB_HTML)
			assert_non_null(strstr(text, "machine i7-4790, workload pingpong"));
		pmlab_result_free(res);
		free(text);
	}
	pmlab_sweep_free(s);
}

/* How many times needle occurs in hay. */
static int occurrences(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static char *file_text(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	int c;

	assert_non_null(f);
	assert_non_null(out);
	while ((c = fgetc(f)) != EOF)
		fputc(c, out);
	fclose(f);
	fclose(out);
	return buf;
}

/* Kernel traces as events: each tracepoint of the text once per line of
 * it, a trace.dat by its magic; bad files named with their line. */
static void test_trace_events(void **state)
{
	const char *path = "tests/fixtures/traces/tracefs-one-of-each.txt";
	char *text = file_text(path), *csv;
	pmlab_trace *t = NULL;
	pmlab_error err;

	assert_int_equal(pmlab_trace_load(path, PMLAB_TRACE_ANY, &t, &err), PMLAB_OK);
	assert_int_equal(pmlab_trace_kind_of(t), PMLAB_TRACE_EVENTS);
	assert_int_equal(pmlab_trace_cpus(t), 2); /* its header's #P:2 */
	csv = pmlab_trace_csv(t);
	assert_non_null(csv);
	assert_int_equal(count_lines(csv), 1 + (int)pmlab_trace_count(t));
	assert_int_equal(occurrences(csv, ",sched_switch,"), occurrences(text, " sched_switch: "));
	assert_int_equal(occurrences(csv, ",cpu_idle,"), occurrences(text, " cpu_idle: "));
	assert_int_equal(occurrences(csv, ",sched_process_fork,"),
			 occurrences(text, " sched_process_fork: "));
	assert_int_equal(occurrences(csv, ",timer_expire_entry,"),
			 occurrences(text, " hrtimer_expire_entry: "));
	pmlab_free(csv);
	pmlab_trace_free(t);
	/* the same text from memory */
	assert_int_equal(pmlab_trace_parse(text, strlen(text), "mem", PMLAB_TRACE_EVENTS, &t, &err),
			 PMLAB_OK);
	assert_true(pmlab_trace_count(t) > 0);
	pmlab_trace_free(t);
	free(text);

	assert_int_equal(pmlab_trace_load("data/traces/hackbench.dat", PMLAB_TRACE_ANY, &t, &err),
			 PMLAB_OK);
	assert_string_equal(pmlab_trace_format(t), "trace.dat");
	csv = pmlab_trace_csv(t);
	assert_int_equal(count_lines(csv), 1 + (int)pmlab_trace_count(t));
	assert_true(occurrences(csv, ",sched_switch,") > 0);
	pmlab_free(csv);
	pmlab_trace_free(t);

	expect(pmlab_trace_load("tests/fixtures/traces/bad-line.txt", PMLAB_TRACE_ANY, &t, &err), &err,
	       PMLAB_ERR_INPUT, "bad-line.txt:");
	assert_null(t);
	expect(pmlab_trace_load("no/such/trace.dat", PMLAB_TRACE_ANY, &t, &err), &err,
	       PMLAB_ERR_INPUT, "no/such/trace.dat");
	text = file_text("data/traces/hackbench.dat");
	expect(pmlab_trace_parse(text, 64, "mem.dat", PMLAB_TRACE_ANY, &t, &err), &err,
	       PMLAB_ERR_INPUT, "pmlab_trace_load");
	free(text);
}

/* The CSV traces: read by header, written back in the same form, and
 * driving governors as pmlab idletrace and govtrace do. */
static void test_trace_governors(void **state)
{
	pmlab_trace *t = NULL, *again = NULL;
	pmlab_machine *m = NULL;
	pmlab_idletrace *it = NULL;
	pmlab_govtrace *g = NULL;
	pmlab_result *res = NULL, *res2 = NULL;
	pmlab_error err;
	char *csv;

	assert_int_equal(pmlab_trace_load("data/samples/idletrace-video.csv", PMLAB_TRACE_ANY, &t,
					  &err), PMLAB_OK);
	assert_int_equal(pmlab_trace_kind_of(t), PMLAB_TRACE_IDLE);
	csv = pmlab_trace_csv(t);
	assert_int_equal(pmlab_trace_parse(csv, strlen(csv), "again", PMLAB_TRACE_ANY, &again, &err),
			 PMLAB_OK);
	assert_int_equal(pmlab_trace_count(again), pmlab_trace_count(t));
	pmlab_free(csv);

	assert_int_equal(pmlab_machine_load("i7-4790", &m, &err), PMLAB_OK);
	assert_int_equal(pmlab_idletrace_new(lab, m, "nosuch", &it, &err), PMLAB_OK);
	expect(pmlab_idletrace_validate(it, &err), &err, PMLAB_ERR_INPUT, "nosuch");
	pmlab_idletrace_free(it);
	assert_int_equal(pmlab_idletrace_new(lab, m, "teo", &it, &err), PMLAB_OK);
	expect(pmlab_idletrace_hz(it, 200, &err), &err, PMLAB_ERR_INPUT, "200");
	expect(pmlab_idletrace_tick_policy(it, "sometimes", &err), &err, PMLAB_ERR_INPUT, "sometimes");
	assert_int_equal(pmlab_idletrace_validate(it, &err), PMLAB_OK);
	assert_int_equal(pmlab_idletrace_exec(it, t, &res, &err), PMLAB_OK);
	assert_int_equal(pmlab_idletrace_exec(it, again, &res2, &err), PMLAB_OK);
	/* the trace written back drives the governor to the same choices */
	assert_string_equal(pmlab_result_text(res, PMLAB_CSV), pmlab_result_text(res2, PMLAB_CSV));
	/* one row per period plus header and summary; JSON agrees with CSV */
	assert_int_equal(count_lines(pmlab_result_text(res, PMLAB_CSV)),
			 2 + (int)pmlab_trace_count(t));
	assert_true(number(res, "above") == occurrences(pmlab_result_text(res, PMLAB_CSV), ",1,0\n"));
	assert_true(number(res, "below") == occurrences(pmlab_result_text(res, PMLAB_CSV), ",0,1\n"));
	pmlab_result_free(res2);
	pmlab_result_free(res);

	/* a trace of the other kind is refused, naming it */
	pmlab_trace_free(again);
	assert_int_equal(pmlab_trace_load("data/samples/govtrace-load-steps.csv", PMLAB_TRACE_ANY,
					  &again, &err), PMLAB_OK);
	assert_int_equal(pmlab_trace_kind_of(again), PMLAB_TRACE_UTIL);
	expect(pmlab_idletrace_exec(it, again, &res, &err), &err, PMLAB_ERR_INPUT,
	       "govtrace-load-steps.csv");

	assert_int_equal(pmlab_govtrace_new(lab, "ondemand", &g, &err), PMLAB_OK);
	expect(pmlab_govtrace_validate(g, NULL, &err), &err, PMLAB_ERR_INPUT, "--freqs");
	expect(pmlab_govtrace_freqs(g, "1200000,x", &err), &err, PMLAB_ERR_INPUT, "'x'");
	assert_int_equal(pmlab_govtrace_freqs(g, "1800000,1200000,2400000", &err), PMLAB_OK);
	assert_int_equal(pmlab_govtrace_exec(g, again, &res, &err), PMLAB_OK);
	csv = (char *)pmlab_result_text(res, PMLAB_CSV);
	/* the CPU starts at the highest frequency, and the idle trace moves it */
	assert_int_equal(strncmp(csv, "t_us,freq_khz\n0,2400000\n", 24), 0);
	assert_true(count_lines(csv) > 2);
	assert_true(number(res, "changes.0.freq_khz") == 2400000);
	expect(pmlab_govtrace_exec(g, t, &res2, &err), &err, PMLAB_ERR_INPUT, "idletrace-video.csv");
	pmlab_result_free(res);
	pmlab_govtrace_free(g);
	/* schedutil needs the util column this trace has; ondemand's does not */
	assert_int_equal(pmlab_govtrace_new(lab, "schedutil", &g, &err), PMLAB_OK);
	assert_int_equal(pmlab_govtrace_freqs(g, "1200000,2400000", &err), PMLAB_OK);
	assert_int_equal(pmlab_govtrace_validate(g, again, &err), PMLAB_OK);
	pmlab_govtrace_free(g);

	pmlab_idletrace_free(it);
	pmlab_machine_free(m);
	pmlab_trace_free(again);
	pmlab_trace_free(t);
}

static void test_catalog(void **state)
{
	char *cat = pmlab_lab_catalog(lab);

	assert_non_null(cat);
	assert_non_null(strstr(cat, "\"name\": \"menu\""));
	assert_non_null(strstr(cat, "\"name\": \"schedutil\""));
	assert_non_null(strstr(cat, "\"name\": \"pingpong\""));
	assert_non_null(strstr(cat, "\"i7-4790\""));
	pmlab_free(cat);
}

/* An idle governor of this process: the shallowest enabled state, or,
 * with test_bad set, a state that does not exist. */
static int test_bad;

static int shallow_select(struct pmlab_idle_device *dev, int64_t limit, bool *stop_tick)
{
	int i = 0;

	if (test_bad)
		return dev->nstates;
	while (i + 1 < dev->nstates && dev->disabled[i])
		i++;
	*stop_tick = dev->tunables[0] != 0;
	return i;
}

static const struct pmlab_tunable shallow_tunables[] = {
	{ "shallow_stop_tick", "1: stop the tick", 1, 0, 1, NULL },
};
static const struct pmlab_idle_governor shallow = {
	.name = "shallow", .summary = "the shallowest enabled state", .tunables = shallow_tunables,
	.ntunables = 1, .select = shallow_select,
};
static const struct pmlab_plugin shallow_plugin = { .abi = PMLAB_PLUGIN_ABI, .idle = &shallow };

static char *json_of(pmlab_lab *l, const char *cpuidle, const char *set, pmlab_error *err)
{
	pmlab_machine *m = NULL;
	pmlab_run *run = NULL;
	pmlab_result *res = NULL;
	char *text = NULL;

	assert_int_equal(pmlab_machine_load("i7-4790", &m, err), PMLAB_OK);
	assert_int_equal(pmlab_run_new(l, m, "pingpong", &run, err), PMLAB_OK);
	assert_int_equal(pmlab_run_cpuidle(run, cpuidle, err), PMLAB_OK);
	if (set)
		assert_int_equal(pmlab_run_set(run, set, err), PMLAB_OK);
	assert_int_equal(pmlab_run_duration(run, 100 * MS, err), PMLAB_OK);
	if (pmlab_run_exec(run, &res, err) == PMLAB_OK)
		text = strdup(pmlab_result_text(res, PMLAB_JSON));
	pmlab_result_free(res);
	pmlab_run_free(run);
	pmlab_machine_free(m);
	return text;
}

/* Governors of this process through the plugin seam: in a worker process
 * and in this one alike; broken ones refused or failing as the plugin's. */
static void test_plugin_in_process(void **state)
{
	static const struct pmlab_plugin wrong_abi = { .abi = 8, .idle = &shallow };
	pmlab_lab *l = NULL;
	pmlab_error err;
	char *isolated, *here, *ticking, *cat;

	assert_int_equal(pmlab_lab_new(&l, &err), PMLAB_OK);
	expect(pmlab_lab_add_plugin(l, &wrong_abi, "test", &err), &err, PMLAB_ERR_PLUGIN,
	       "plugin test: built for plugin ABI 8");
	expect(pmlab_lab_load_plugin(l, "./no-such-plugin.so", &err), &err, PMLAB_ERR_PLUGIN,
	       "no such file");
	assert_int_equal(pmlab_lab_add_plugin(l, &shallow_plugin, "test", &err), PMLAB_OK);
	expect(pmlab_lab_add_plugin(l, &shallow_plugin, "again", &err), &err, PMLAB_ERR_PLUGIN,
	       "already defined by test");
	cat = pmlab_lab_catalog(l);
	assert_non_null(strstr(cat, "\"name\": \"shallow\""));
	assert_non_null(strstr(cat, "\"origin\": \"test\""));
	pmlab_free(cat);

	isolated = json_of(l, "shallow", NULL, &err);
	assert_non_null(isolated);
	assert_non_null(strstr(isolated, "\"cpuidle\": \"shallow\""));
	pmlab_lab_isolate(l, 0);
	here = json_of(l, "shallow", NULL, &err);
	assert_non_null(here);
	assert_string_equal(isolated, here);
	ticking = json_of(l, "shallow", "shallow_stop_tick=0", &err);
	assert_string_not_equal(here, ticking);
	assert_null(json_of(l, "shallow", "shallow_stop_tick=2", &err));
	assert_int_equal(err.code, PMLAB_ERR_INPUT);

	test_bad = 1;
	assert_null(json_of(l, "shallow", NULL, &err));
	expect(err.code, &err, PMLAB_ERR_PLUGIN, "plugin test: idle governor 'shallow': select "
	       "returned state");
	pmlab_lab_isolate(l, 1);
	assert_null(json_of(l, "shallow", NULL, &err));
	expect(err.code, &err, PMLAB_ERR_PLUGIN, "select returned state");
	test_bad = 0;
	free(isolated);
	free(here);
	free(ticking);
	pmlab_lab_free(l);
}

/* A loaded replay of path on its own machine (NULL: the recorded or
 * capture-like one), keeping the pid given (0: all). */
static pmlab_replay *replay_of(const char *path, const char *machine, int pid)
{
	pmlab_replay *rp = NULL;
	pmlab_error err;

	assert_int_equal(pmlab_replay_new(path, &rp, &err), PMLAB_OK);
	assert_int_equal(pmlab_replay_machine(rp, machine, &err), PMLAB_OK);
	if (pid)
		assert_int_equal(pmlab_replay_keep_pid(rp, pid, &err), PMLAB_OK);
	if (pmlab_replay_load(rp, &err) != PMLAB_OK)
		fail_msg("replay: %s", err.message);
	return rp;
}

static pmlab_result *replay_run(const pmlab_replay *rp, int per_task, int64_t ns)
{
	pmlab_run *run = NULL;
	pmlab_result *res = NULL;
	pmlab_error err;

	assert_int_equal(pmlab_replay_run(lab, rp, &run, &err), PMLAB_OK);
	assert_int_equal(pmlab_run_per_task(run, per_task, &err), PMLAB_OK);
	if (ns)
		assert_int_equal(pmlab_run_duration(run, ns, &err), PMLAB_OK);
	if (pmlab_run_exec(run, &res, &err) != PMLAB_OK)
		fail_msg("replay run: %s", err.message);
	pmlab_run_free(run);
	return res;
}

static void *thread_replay(void *arg)
{
	const pmlab_replay *rp = ((void **)arg)[0];
	((void **)arg)[1] = replay_run(rp, 0, 0);
	return NULL;
}

static void count_warning(void *ctx, const char *msg)
{
	if (strstr(msg, "stopped at the --duration limit"))
		++*(int *)ctx;
}

/* Recorded traces replayed as pmlab replay does: every task of the trace
 * (or of the processes kept) runs to its end, the table says so, two
 * replays of different traces run side by side, in threads too. */
static void test_replay(void **state)
{
	pmlab_replay *hb = replay_of("data/traces/hackbench.dat", NULL, 0);
	pmlab_replay *tb = replay_of("tests/fixtures/traces/tbench-sched-trace.txt", "i7-4790", 0);
	pmlab_result *a, *b;
	char line[128], *path;
	int n = pmlab_replay_task_count(hb), warned = 0;
	pmlab_error err;
	pmlab_run *run = NULL;

	assert_true(n > 1);
	assert_string_equal(pmlab_replay_machine_name(hb), "trace");
	assert_string_equal(pmlab_replay_machine_name(tb), "i7-4790");
	assert_int_equal(pmlab_replay_duration(hb), 100 * pmlab_replay_traced_ns(hb) + 1000 * MS);
	a = replay_run(hb, 1, 0);
	b = replay_run(tb, 0, 0);
	assert_true(close_to(number(a, "tasks_finished"), n));
	assert_true(close_to(number(b, "tasks_finished"), pmlab_replay_task_count(tb)));
	assert_true(pmlab_replay_task_count(tb) != n);
	snprintf(line, sizeof(line), "\nReplayed work: %d of %d tasks in ", n, n);
	assert_non_null(strstr(pmlab_result_text(a, PMLAB_TABLE), line));
	assert_non_null(strstr(pmlab_result_text(a, PMLAB_TABLE), "\nPer task: CPU time traced"));
	assert_null(strstr(pmlab_result_text(b, PMLAB_TABLE), "\nPer task:"));
	assert_non_null(strstr(pmlab_result_text(a, PMLAB_JSON), "pmlab replay data/traces/hackbench.dat"));
	assert_non_null(strstr(pmlab_result_text(a, PMLAB_HTML), "<html"));
	/* One form written: the same text as that form of the result. */
	for (int f = PMLAB_TABLE; f <= PMLAB_HTML; f++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&buf, &len);
		assert_int_equal(pmlab_replay_run(lab, hb, &run, &err), PMLAB_OK);
		assert_int_equal(pmlab_run_per_task(run, 1, &err), PMLAB_OK);
		assert_int_equal(pmlab_run_write(run, mem, (pmlab_format)f, &err), PMLAB_OK);
		fclose(mem);
		assert_string_equal(buf, pmlab_result_text(a, (pmlab_format)f));
		free(buf);
		pmlab_run_free(run);
	}
	/* The same in two threads at once. */
	void *args[2][2] = { { hb, NULL }, { tb, NULL } };
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&t[i], NULL, thread_replay, args[i]), 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
	assert_string_equal(pmlab_result_text(args[0][1], PMLAB_JSON), pmlab_result_text(a, PMLAB_JSON));
	assert_string_equal(pmlab_result_text(args[1][1], PMLAB_JSON), pmlab_result_text(b, PMLAB_JSON));
	pmlab_result_free(args[0][1]);
	pmlab_result_free(args[1][1]);
	pmlab_result_free(b);
	/* Stopped early: said to the warning callback, tasks left unfinished. */
	assert_int_equal(pmlab_replay_run(lab, hb, &run, &err), PMLAB_OK);
	assert_int_equal(pmlab_run_duration(run, 20 * MS, &err), PMLAB_OK);
	pmlab_run_on_warning(run, count_warning, &warned);
	assert_int_equal(pmlab_run_exec(run, &b, &err), PMLAB_OK);
	assert_int_equal(warned, 1);
	assert_true(number(b, "tasks_finished") < n);
	pmlab_result_free(b);
	pmlab_run_free(run);
	/* One process kept: fewer tasks. */
	pmlab_replay *one = replay_of("data/traces/hackbench.dat", NULL, 21472);
	assert_true(pmlab_replay_task_count(one) >= 1 && pmlab_replay_task_count(one) < n);
	b = replay_run(one, 0, 0);
	assert_true(close_to(number(b, "tasks_finished"), pmlab_replay_task_count(one)));
	assert_non_null(strstr(pmlab_result_text(b, PMLAB_JSON), "--pid 21472"));
	pmlab_result_free(b);
	pmlab_replay_free(one);
	/* A comparison of policies on the trace, as pmlab replay --profiles. */
	pmlab_compare *c = NULL;
	assert_int_equal(pmlab_replay_compare(lab, hb, &c, &err), PMLAB_OK);
	assert_int_equal(pmlab_compare_policy(c, "none", NULL, &err), PMLAB_OK);
	assert_int_equal(pmlab_compare_policy(c, "none:cpufreq=powersave", NULL, &err), PMLAB_OK);
	assert_int_equal(pmlab_compare_exec(c, &b, &err), PMLAB_OK);
	assert_non_null(strstr(pmlab_result_text(b, PMLAB_TABLE), "pmlab replay data/traces/hackbench.dat"));
	pmlab_result_free(b);
	pmlab_compare_free(c);
	/* Errors. */
	pmlab_machine *m = NULL;
	assert_int_equal(pmlab_machine_load("i7-4790", &m, &err), PMLAB_OK);
	assert_int_equal(pmlab_run_new(lab, m, "pingpong", &run, &err), PMLAB_OK);
	expect(pmlab_run_per_task(run, 1, &err), &err, PMLAB_ERR_STATE, "replay");
	expect(pmlab_run_write(run, stdout, PMLAB_HTML, &err), &err, PMLAB_ERR_INPUT, "HTML");
	pmlab_run_free(run);
	pmlab_machine_free(m);
	expect(pmlab_replay_machine(hb, "i7-4790", &err), &err, PMLAB_ERR_STATE, "loaded already");
	pmlab_replay *bad = NULL;
	assert_int_equal(pmlab_replay_new("/nonexistent/t.dat", &bad, &err), PMLAB_OK);
	expect(pmlab_replay_run(lab, bad, &run, &err), &err, PMLAB_ERR_STATE, "not loaded");
	expect(pmlab_replay_load(bad, &err), &err, PMLAB_ERR_INPUT, "/nonexistent/t.dat");
	expect(pmlab_replay_keep_pid(bad, 0, &err), &err, PMLAB_ERR_INPUT, "not a PID");
	expect(pmlab_replay_capture_khz(bad, 0, &err), &err, PMLAB_ERR_INPUT, "--capture-khz 0");
	pmlab_replay_free(bad);
	assert_int_equal(pmlab_replay_new("data/traces/hackbench.dat", &bad, &err), PMLAB_OK);
	assert_int_equal(pmlab_replay_machine(bad, "i7-4790", &err), PMLAB_OK);
	assert_int_equal(pmlab_replay_cpus(bad, 1, &err), PMLAB_OK);
	expect(pmlab_replay_load(bad, &err), &err, PMLAB_ERR_INPUT, "has 1 CPUs");
	pmlab_replay_free(bad);
	path = pmlab_replay_machine_path("x/t.dat");
	assert_string_equal(path, "x/t.dat.machine.ini");
	pmlab_free(path);
	pmlab_result_free(a);
	pmlab_replay_free(tb);
	pmlab_replay_free(hb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version),     cmocka_unit_test(test_run_result),
		cmocka_unit_test(test_determinism), cmocka_unit_test(test_errors),
		cmocka_unit_test(test_machine_text), cmocka_unit_test(test_threads),
		cmocka_unit_test(test_compare),     cmocka_unit_test(test_sweep),
		cmocka_unit_test(test_compare_inputs), cmocka_unit_test(test_sweep_write),
		cmocka_unit_test(test_trace_events), cmocka_unit_test(test_trace_governors),
		cmocka_unit_test(test_write_one_form),
		cmocka_unit_test(test_catalog),     cmocka_unit_test(test_plugin_in_process),
		cmocka_unit_test(test_replay),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
