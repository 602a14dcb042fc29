// SPDX-License-Identifier: GPL-2.0-only
/* End-to-end: the workload models and rt-app descriptions through the
 * pmlab binary, as a user runs them: listing, --set, rtapp:FILE, and the
 * messages and exit codes for bad descriptions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "pmlab_run.h"
#include <jansson.h>

static void test_workloads_listed_with_parameters(void **state)
{
	struct out o = run("workloads");
	assert_int_equal(o.status, 0);
	const char *names[] = { "oltp", "kernbench", "tbench", "hackbench", "lmbench",
				"unixbench", "stressng", "ebizzy", "rtapp", "video", "squarewave" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strstr(o.text, names[i]))
			fail_msg("pmlab workloads does not list %s", names[i]);
	/* Parameters from the tunable tables, with their choices. */
	assert_non_null(strstr(o.text, "warehouses"));
	assert_non_null(strstr(o.text, "socket|pipe"));
	assert_non_null(strstr(o.text, "null|read|write|stat|fstat|openclose"));
	assert_non_null(strstr(o.text, "execl|context1|spawn|shell1|shell8"));
	assert_non_null(strstr(o.text, "audio_period_us"));
	assert_non_null(strstr(o.text, "load_step_us"));
	out_free(&o);
}

static void test_set_parameters(void **state)
{
	struct out o = run("sim -m i7-4790 -w hackbench --set groups=2 --set mode=pipe "
			   "--format json");
	assert_int_equal(o.status, 0);
	json_error_t err;
	json_t *root = json_loads(o.text, 0, &err);
	assert_non_null(root);
	assert_string_equal(json_string_value(json_object_get(root, "throughput_unit")), "runs/h");
	json_t *sent = json_object_get(json_object_get(root, "extra"), "messages_sent");
	assert_int_equal((int)json_number_value(json_object_get(sent, "value")), 2 * 20 * 20 * 100);
	json_decref(root);
	out_free(&o);
	o = run("sim -m i7-4790 -w hackbench --set mode=carrier-pigeon");
	assert_usage_error(&o, "mode");
	out_free(&o);
	o = run("sim -m i7-4790 -w lmbench --set test=stat -d 0.1 --format csv");
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.text, "calls/s"));
	assert_non_null(strstr(o.text, "extra_usec_us_call"));
	out_free(&o);
}

static void test_rtapp_example_runs(void **state)
{
	char args[1024];
	snprintf(args, sizeof(args), "sim -m i7-4790 -w rtapp:%s/data/workloads/video.json "
		 "--format json", PMLAB_SOURCE_ROOT);
	struct out o = run(args);
	assert_int_equal(o.status, 0);
	json_error_t err;
	json_t *root = json_loads(o.text, 0, &err);
	assert_non_null(root);
	/* global.duration is 5 s, shorter than --duration's 10. */
	assert_true(json_number_value(json_object_get(root, "duration_s")) == 5.0);
	json_t *tasks = json_object_get(root, "per_task");
	assert_int_equal(json_array_size(tasks), 3);
	assert_string_equal(json_string_value(json_object_get(json_array_get(tasks, 0), "name")),
			    "decoder-0");
	json_decref(root);
	out_free(&o);
	/* The table has the per-task block too. */
	snprintf(args, sizeof(args), "sim -m i7-4790 -w rtapp:%s/data/workloads/periodic.json",
		 PMLAB_SOURCE_ROOT);
	o = run(args);
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.text, "Per task"));
	assert_non_null(strstr(o.text, "periodic-1"));
	out_free(&o);
}

static void test_rtapp_errors(void **state)
{
	char args[1024];
	/* Malformed JSON: file and line. */
	char *bad = write_temp("{\n  \"tasks\": {\n    \"a\": { \"run\": 100 \n  }\n}\n", ".json");
	snprintf(args, sizeof(args), "sim -m i7-4790 -w rtapp:%s", bad);
	struct out o = run(args);
	char want[512];
	snprintf(want, sizeof(want), "pmlab: %s:", bad);
	assert_usage_error(&o, want);
	/* jansson names the line where it noticed: the end of the text. */
	assert_non_null(strstr(o.err, ".json:6:"));
	out_free(&o);
	unlink(bad);
	free(bad);
	/* An unsupported key: named, with the file. */
	bad = write_temp("{ \"tasks\": { \"a\": { \"run\": 100, \"dl-runtime\": 10 } } }", ".json");
	snprintf(args, sizeof(args), "sim -m i7-4790 -w rtapp:%s", bad);
	o = run(args);
	assert_usage_error(&o, "unsupported key 'dl-runtime'");
	assert_non_null(strstr(o.err, bad));
	out_free(&o);
	unlink(bad);
	free(bad);
	/* No file, or none named. */
	o = run("sim -m i7-4790 -w rtapp:/nonexistent/none.json");
	assert_usage_error(&o, "/nonexistent/none.json: cannot open");
	out_free(&o);
	o = run("sim -m i7-4790 -w rtapp");
	assert_usage_error(&o, "rtapp:FILE.json");
	out_free(&o);
}

/* squarewave's comparison with performance reaches every output, and a
 * CPU the machine lacks is bad input. */
static void test_squarewave_cli(void **state)
{
	struct out o = run("sim -m i7-4790 -w squarewave --cpufreq powersave --set rounds=2 "
			   "--set cycles=2 --format json");
	assert_int_equal(o.status, 0);
	json_error_t err;
	json_t *root = json_loads(o.text, 0, &err);
	assert_non_null(root);
	json_t *extra = json_object_get(root, "extra");
	double at = json_number_value(json_object_get(json_object_get(extra, "perf_at_pct"), "value"));
	double loss = json_number_value(
		json_object_get(json_object_get(extra, "performance_loss_pct"), "value"));
	/* 800 MHz against the 4 GHz one-core turbo: about a fifth. */
	assert_true(at > 15 && at < 25);
	assert_true(loss > 300 && loss < 600);
	assert_non_null(json_object_get(extra, "round_2_perf_at_pct"));
	assert_null(json_object_get(extra, "round_3_perf_at_pct"));
	json_decref(root);
	out_free(&o);
	o = run("sim -m i7-4790 -w squarewave --set cpu=8");
	assert_usage_error(&o, "cpu=8");
	out_free(&o);
	o = run("sim -m i7-4790 -w squarewave --set rounds=13");
	assert_usage_error(&o, "rounds");
	out_free(&o);
}

/* video at 24 fps: its figures in CSV, by name. */
static void test_video_cli(void **state)
{
	struct out o = run("sim -m i7-4790 -w video --set fps=24 -d 2 --format csv");
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.text, "frames/s"));
	assert_non_null(strstr(o.text, "extra_frames_dropped_frames"));
	assert_non_null(strstr(o.text, "extra_audio_underruns_periods"));
	out_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_workloads_listed_with_parameters),
		cmocka_unit_test(test_set_parameters),
		cmocka_unit_test(test_rtapp_example_runs),
		cmocka_unit_test(test_rtapp_errors),
		cmocka_unit_test(test_squarewave_cli),
		cmocka_unit_test(test_video_cli),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
