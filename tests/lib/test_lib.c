// SPDX-License-Identifier: GPL-2.0-only
/* libpmlab through its installed interface only (include/pmlab/pmlab.h,
 * linked against the shared library): runs, results, errors, comparisons,
 * sweeps, the catalog, and separate runs in separate threads. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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
	assert_true(number(res, "energy_by_component_j.core_dynamic") > 0);
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
	assert_true(number(d, "counters.events") != number(a, "counters.events"));
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version),     cmocka_unit_test(test_run_result),
		cmocka_unit_test(test_determinism), cmocka_unit_test(test_errors),
		cmocka_unit_test(test_machine_text), cmocka_unit_test(test_threads),
		cmocka_unit_test(test_compare),     cmocka_unit_test(test_sweep),
		cmocka_unit_test(test_catalog),     cmocka_unit_test(test_plugin_in_process),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
