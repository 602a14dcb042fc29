// SPDX-License-Identifier: GPL-2.0-only
/* End-to-end: pmlab profile show|list and pmlab sim --profile, as a user
 * runs them: what they print, that a profile run equals the same settings
 * given by hand, and one-line FILE:LINE errors with exit code 2. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "pmlab_run.h"

#define FIXTURES PMLAB_SOURCE_ROOT "/tests/fixtures/profiles"
#define PDIR "--profile-dir " FIXTURES

static void assert_contains(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		fail_msg("output lacks '%s':\n%s", needle, hay);
}

static struct out ok(const char *args)
{
	struct out o = run(args);
	if (o.status != 0 || o.err[0])
		fail_msg("pmlab %s: exit %d, stderr: %s", args, o.status, o.err);
	return o;
}

static json_t *json_of(const char *args)
{
	struct out o = ok(args);
	json_error_t e;
	json_t *j = json_loads(o.text, 0, &e);
	if (!j)
		fail_msg("pmlab %s: not JSON (%s)", args, e.text);
	out_free(&o);
	return j;
}

static const char *str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	if (!s)
		fail_msg("no string '%s'", key);
	return s;
}

static void test_show_table(void **state)
{
	struct out o = ok("profile show balanced");
	assert_contains(o.text, "profile  balanced\n");
	assert_contains(o.text, "summary  General non-specialized tuned profile\n");
	assert_contains(o.text, "cpufreq driver acpi-cpufreq");
	/* schedutil|ondemand|powersave: the first pmlab has. */
	assert_contains(o.text, "governor schedutil\n  from ");
	assert_contains(o.text, "balanced/tuned.conf:13: [cpu] governor=schedutil|ondemand|powersave\n");
	assert_contains(o.text, "  boost=1\n    from ");
	/* EPB acts on the hardware whatever the driver (engine/epb.c) */
	assert_contains(o.text, "  energy_perf_bias=normal\n    from ");
	assert_contains(o.text, "balanced/tuned.conf:14: [cpu] energy_perf_bias=normal\n");
	assert_contains(o.text, "  [scsi_host] alpm=med_power_with_dipm\n");
	out_free(&o);

	/* The same profile for a run under intel_pstate. */
	o = ok("profile show balanced --cpufreq intel_pstate");
	assert_contains(o.text, "cpufreq driver intel_pstate");
	assert_contains(o.text, "  scaling_governor=powersave\n");
	assert_contains(o.text, "  energy_performance_preference=balance_performance\n");
	out_free(&o);
}

/* power-profiles-daemon's profiles are not tuned's: show names the
 * daemon and its driver file instead of a tuned version and a uname. */
static void test_show_ppd(void **state)
{
	struct out o = ok("profile show ppd/balanced --machine ryzen-7840u");
	assert_contains(o.text, "daemon   power-profiles-daemon 0.13 ppd-driver-amd-pstate.c\n");
	assert_null(strstr(o.text, "\ntuned "));
	assert_null(strstr(o.text, "\nuname "));
	out_free(&o);
	o = ok("profile show ppd/power-saver --machine i7-4790");
	assert_contains(o.text, "daemon   power-profiles-daemon 0.12 ppd-driver-intel-pstate.c\n");
	out_free(&o);
	o = ok("profile show ppd/performance --machine hikey960");
	assert_contains(o.text, "daemon   power-profiles-daemon ppd-driver-placeholder.c\n");
	out_free(&o);
	o = ok("profile show balanced");
	assert_contains(o.text, "\ntuned    2.");
	assert_null(strstr(o.text, "\ndaemon "));
	out_free(&o);
	json_t *p = json_of("profile show ppd/balanced --machine i7-1260p --format json");
	assert_contains(str(p, "daemon"), "power-profiles-daemon 0.12");
	assert_null(json_object_get(p, "tuned_version"));
	assert_null(json_object_get(p, "uname"));
	json_decref(p);
}

static json_t *setting(json_t *p, const char *key)
{
	size_t i;
	json_t *s;
	json_array_foreach(json_object_get(p, "settings"), i, s)
		if (strcmp(str(s, "key"), key) == 0)
			return s;
	fail_msg("no setting %s", key);
	return NULL;
}

static void test_show_json(void **state)
{
	json_t *p = json_of("profile show tuned-2.3/latency-performance --machine xeon-e5-2650l-v3 "
			    "--format json");
	assert_string_equal(str(p, "profile"), "tuned-2.3/latency-performance");
	assert_string_equal(str(p, "machine"), "xeon-e5-2650l-v3");
	assert_int_equal(json_integer_value(json_object_get(p, "cpus")), 24);
	assert_string_equal(str(p, "cpufreq"), "performance");
	assert_string_equal(str(setting(p, "pm_qos_latency_us"), "value"), "1");
	assert_string_equal(str(setting(p, "sched_migration_cost_ns"), "value"), "5000000");
	assert_contains(str(setting(p, "sched_migration_cost_ns"), "origin"),
			"tuned-2.3/latency-performance/tuned.conf:45: [sysctl] "
			"kernel.sched_migration_cost_ns=5000000");
	/* [vm] and the vm.dirty_* sysctls are the engine's, EPB the hardware's */
	assert_string_equal(str(setting(p, "transparent_hugepage"), "value"), "never");
	assert_contains(str(setting(p, "transparent_hugepage"), "origin"),
			"[vm] transparent_hugepages=never");
	assert_string_equal(str(setting(p, "dirty_background_ratio"), "value"), "3");
	assert_string_equal(str(setting(p, "energy_perf_bias"), "value"), "performance");
	assert_int_equal(json_array_size(json_object_get(p, "settings")), 7);
	bool swappiness = false;
	size_t i;
	json_t *s;
	json_array_foreach(json_object_get(p, "not_applied"), i, s)
		swappiness |= strcmp(str(s, "what"), "[sysctl] vm.swappiness=10") == 0 &&
			      strcmp(str(s, "why"), "not modelled") == 0;
	assert_true(swappiness);
	json_decref(p);

	/* cstate.id_no_zero:1|3 on xeon-2s-quad: state1 = C1, 3 us. */
	p = json_of("profile show latency-performance --machine xeon-2s-quad --format json");
	assert_string_equal(str(setting(p, "pm_qos_latency_us"), "value"), "3");
	json_decref(p);
}

static void test_list(void **state)
{
	struct out o = ok("profile list");
	assert_contains(o.text, "  balanced                         General non-specialized tuned profile\n");
	assert_contains(o.text, "  tuned-2.3/balanced               -\n");
	assert_contains(o.text, "  virtual-guest ");
	out_free(&o);

	o = ok("profile list " PDIR);
	assert_true(strncmp(o.text, FIXTURES ":\n", strlen(FIXTURES) + 2) == 0);
	assert_contains(o.text, "  chain-top ");
	assert_contains(o.text, "  balanced                         (hidden by " FIXTURES "/balanced)\n");
	out_free(&o);
}

/* The JSON of a run, without the "profile" key. */
static char *run_json(const char *args, const char *profile)
{
	json_t *j = json_of(args);
	json_t *p = json_object_get(j, "profile");

	/* The figures, not the inputs (which name the profile or the settings). */
	assert_non_null(json_object_get(j, "inputs"));
	json_object_del(j, "inputs");
	if (profile) {
		assert_non_null(p);
		assert_string_equal(json_string_value(p), profile);
		json_object_del(j, "profile");
	} else {
		assert_null(p); /* a run without a profile has no such key */
	}
	char *text = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	json_decref(j);
	return text;
}

#define SIM "sim --machine xeon-e5-2650l-v3 --cpus 4 --workload pingpong --duration 0.3 --format json "

/* A profile run is the run of its settings given by hand. */
static void test_sim_profile_equals_settings(void **state)
{
	char *a = run_json(SIM "--profile tuned-2.3/latency-performance", "tuned-2.3/latency-performance");
	char *b = run_json(SIM "--cpufreq performance --set pm_qos_latency_us=1 "
			   "--set energy_perf_bias=0 --set transparent_hugepage=never "
			   "--set sched_min_granularity_ns=10000000 --set dirty_ratio=10 "
			   "--set dirty_background_ratio=3 --set sched_migration_cost_ns=5000000",
			   NULL);
	assert_string_equal(a, b);
	free(a);
	free(b);

	/* The seed's "balanced with conservative". */
	a = run_json(SIM "--profile tuned-2.3/balanced:governor=conservative",
		     "tuned-2.3/balanced:governor=conservative");
	b = run_json(SIM "--cpufreq conservative --set energy_perf_bias=normal", NULL);
	assert_string_equal(a, b);
	free(a);
	free(b);
}

static void test_sim_user_wins(void **state)
{
	/* --cpufreq wins over the profile's governor, --set over its settings. */
	char *a = run_json(SIM "--profile tuned-2.3/latency-performance --cpufreq ondemand "
			   "--set pm_qos_latency_us=50", "tuned-2.3/latency-performance");
	char *b = run_json(SIM "--cpufreq ondemand --set energy_perf_bias=performance "
			   "--set transparent_hugepage=never --set sched_min_granularity_ns=10000000 "
			   "--set dirty_ratio=10 --set dirty_background_ratio=3 "
			   "--set sched_migration_cost_ns=5000000 --set pm_qos_latency_us=50", NULL);
	assert_string_equal(a, b);
	free(a);
	free(b);

	/* sampling_down_factor goes to the governor that runs: conservative's. */
	a = run_json(SIM "--profile tuned-2.3/balanced:sampling_down_factor=5 --cpufreq conservative",
		     "tuned-2.3/balanced:sampling_down_factor=5");
	b = run_json(SIM "--cpufreq conservative --set energy_perf_bias=6 --set sampling_down_factor=5",
		     NULL);
	assert_string_equal(a, b);
	free(a);
	free(b);
}

static void test_sim_table_header(void **state)
{
	struct out o = ok("sim --machine i7-4790 --workload pingpong --duration 0.1 --profile "
			  "latency-performance");
	const char *head = "pmlab sim: machine i7-4790, workload pingpong, cpufreq performance, "
			   "cpuidle menu (the kernel's default), profile latency-performance, seed 1,";
	char *h = out_header(o.text);
	assert_true(strncmp(h, head, strlen(head)) == 0);
	free(h);
	out_free(&o);
	o = ok("sim --machine i7-4790 --workload pingpong --duration 0.1");
	assert_null(strstr(o.text, "profile"));
	out_free(&o);
}

static void test_bad_input(void **state)
{
	expect_usage_error("sim --machine i7-4790 --workload pingpong --profile " FIXTURES "/bad-latency",
			   FIXTURES "/bad-latency/tuned.conf:3: [cpu] force_latency=abc: 'abc' is not "
			   "a latency");
	expect_usage_error("profile show unknown-option " PDIR,
			   FIXTURES "/unknown-option/tuned.conf:6: unknown [cpu] option 'frobnicate' "
			   "(expected governor, ");
	expect_usage_error("profile show cycle-a " PDIR,
			   FIXTURES "/cycle-b/tuned.conf:2: include cycle: ");
	expect_usage_error("profile show missing-include " PDIR,
			   FIXTURES "/missing-include/tuned.conf:3: include=no-such-profile-anywhere");
	expect_usage_error("profile show bad-governor " PDIR,
			   FIXTURES "/bad-governor/tuned.conf:2: [cpu] governor=: empty governor name");
	expect_usage_error("profile show unknown-variable " PDIR,
			   FIXTURES "/unknown-variable/tuned.conf:3: unknown variable 'no_such_variable'");
	expect_usage_error("profile show no-such-profile", "pmlab: profile 'no-such-profile': not found");
	expect_usage_error("profile show balanced:frob=1", "override: unknown [cpu] option 'frob'");
	expect_usage_error("sim --machine i7-4790 --workload pingpong --profile balanced:governor=",
			   "override: [cpu] governor=: empty governor name");
	expect_usage_error("profile", "profile: expected 'show NAME' or 'list'");
	expect_usage_error("profile show", "profile: show needs a profile NAME or PATH");
	expect_usage_error("profile show balanced --format xml", "--format xml: expected table or json");
	expect_usage_error("profile frob", "unknown subcommand 'frob'");
	expect_usage_error("profile list --machine i7-4790", "list takes only --profile-dir");
	expect_usage_error("profile show balanced --machine nosuch", "unknown machine 'nosuch'");
	expect_usage_error("sim --machine i7-4790 --workload pingpong --profile", "--profile needs a value");
}

static void test_help(void **state)
{
	struct out o = ok("profile --help");
	assert_contains(o.text, "usage: pmlab profile show NAME|PATH");
	out_free(&o);
	o = ok("help");
	assert_contains(o.text, "  profile ");
	out_free(&o);
	o = ok("sim --help");
	assert_contains(o.text, "--profile P");
	out_free(&o);
}

int main(void)
{
	/* The repository's profiles, wherever the build directory is. */
	setenv("PMLAB_PROFILE_PATH", PMLAB_SOURCE_ROOT "/data/profiles", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_show_table),
		cmocka_unit_test(test_show_json),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_sim_profile_equals_settings),
		cmocka_unit_test(test_sim_user_wins),
		cmocka_unit_test(test_sim_table_header),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_show_ppd),
		cmocka_unit_test(test_help),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
