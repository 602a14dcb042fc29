// SPDX-License-Identifier: GPL-2.0-only
/* Asymmetric placement in whole simulated runs, on the test big.LITTLE
 * machine (tests/fixtures/machines/big-little.ini: CPUs 0-3 little,
 * capacity 400; 4-7 big; cpufreq-dt with an energy model): EAS against
 * the capacity-aware CFS path it replaces, misfit migration, and ITMT on
 * a hybrid part. The figures come from the runs; the tests assert the
 * orderings the kernel's rules imply. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "simtest.h"

#include "metrics/result.h"

#define FIXTURES PMLAB_SOURCE_ROOT "/tests/fixtures/machines/"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	static char buf[16384];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

static char *write_json(const char *json)
{
	char *path = strdup("/tmp/pmlab-asym-XXXXXX.json");
	assert_non_null(path);
	int fd = mkstemps(path, 5);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(json, f);
	fclose(f);
	return path;
}

static void run_rtapp(struct run *out, const char *ini, const char *json, const char *gov,
		      double seconds, const char *const *sets, int nsets)
{
	char *path = write_json(json);
	char workload[256];
	snprintf(workload, sizeof(workload), "rtapp:%s", path);
	simtest_run(out, ini, 0, workload, gov, seconds, 1, NULL, 0, sets, nsets, true);
	unlink(path);
	free(path);
}

/* Busy time of CPUs [from, to). */
static double busy_s(const struct run_result *r, int from, int to)
{
	sim_ns ns = 0;
	for (int c = from; c < to; c++)
		ns += r->cpus[c].user_ns + r->cpus[c].sys_ns;
	return (double)ns / 1e9;
}

/* A light periodic load (three 10 % tasks, as a player's threads) runs
 * for less energy under EAS than under the capacity-aware CFS path
 * (sched_energy_aware=0), which spreads the wakeups onto whichever idle
 * CPU the task fits, big ones included; EAS keeps them on the little
 * cluster. Neither misses a deadline. */
static void test_eas_saves_energy_on_light_load(void **state)
{
	const char *json = "{ \"global\": { \"duration\": 2 }, \"tasks\": { \"t\": {"
			   " \"instance\": 3, \"run\": 1000,"
			   " \"timer\": { \"ref\": \"unique\", \"period\": 10000 } } } }";
	const char *ini = slurp(FIXTURES "big-little.ini");
	static const char *const off[] = { "sched_energy_aware=0" };
	struct run eas, cfs;
	run_rtapp(&eas, ini, json, "schedutil", 2, NULL, 0);
	run_rtapp(&cfs, ini, json, "schedutil", 2, off, 1);
	assert_string_equal(eas.r.placement, "eas");
	assert_string_equal(cfs.r.placement, "");
	assert_true(result_energy_j(&eas.r) < result_energy_j(&cfs.r));
	assert_true(busy_s(&eas.r, 0, 4) > 4 * busy_s(&eas.r, 4, 8));
	for (int i = 0; i < eas.r.ntasks; i++) {
		assert_int_equal(eas.r.tasks[i].deadline_misses, 0);
		assert_int_equal(cfs.r.tasks[i].deadline_misses, 0);
	}
	result_free(&eas.r);
	result_free(&cfs.r);
}

/* Misfit migration: a CPU-bound task held on little CPU 0 for 0.5 s, then
 * free, moves to a big CPU (it cannot fit a little one) under both the
 * CFS path and EAS (the root domain is overutilized, and misfit tasks
 * move regardless); it spends the free second on the big cluster. */
static void test_misfit_moves_to_big(void **state)
{
	const char *json = "{ \"global\": { \"duration\": 2 }, \"tasks\": { \"hog\": {"
			   " \"loop\": 1, \"phases\": {"
			   " \"held\": { \"cpus\": [ 0 ], \"runtime\": 500000 },"
			   " \"free\": { \"run\": 2000000 } } } } }";
	const char *ini = slurp(FIXTURES "big-little.ini");
	static const char *const off[] = { "sched_energy_aware=0" };
	for (int k = 0; k < 2; k++) {
		struct run r;
		run_rtapp(&r, ini, json, "schedutil", 1.5, off, k);
		assert_true(busy_s(&r.r, 4, 8) > 0.9);
		assert_true(busy_s(&r.r, 0, 4) < 0.6);
		result_free(&r.r);
	}
}

/* ITMT on an Intel hybrid part with SMT (v6.11: asym packing, capacities
 * all 1024 to the scheduler): a lone busy task ends up on a P-core even
 * when it starts on an E-core; with sched_itmt_enabled=0 the CFS path
 * leaves it where it woke. */
static void test_itmt_prefers_p_cores(void **state)
{
	/* The test hybrid with intel_pstate instead of its acpi-cpufreq. */
	const char *file = slurp(FIXTURES "good-hybrid.ini");
	const char *at = strstr(file, "[machine]\n");
	assert_non_null(at);
	char ini[16384];
	snprintf(ini, sizeof(ini), "%.*s[machine]\ncpufreq_driver = intel_pstate\n%s",
		 (int)(at - file), file, at + strlen("[machine]\n"));
	const char *json = "{ \"global\": { \"duration\": 1 }, \"tasks\": { \"hog\": {"
			   " \"loop\": 1, \"phases\": {"
			   " \"held\": { \"cpus\": [ 2 ], \"run\": 100000 },"
			   " \"free\": { \"run\": 2000000 } } } } }";
	static const char *const sets[] = { "kernel=6.11", "sched_itmt_enabled=0" };
	struct run on, off;
	run_rtapp(&on, ini, json, "performance", 1, sets, 1);
	run_rtapp(&off, ini, json, "performance", 1, sets, 2);
	assert_string_equal(on.r.placement, "itmt");
	assert_string_equal(off.r.placement, "");
	/* good-hybrid: each package has 2 P-cores with SMT and 4 E-cores:
	 * CPUs 0-1 and 6-7 are P-cores, 12-15 their siblings, 2-5 and 8-11
	 * E-cores. A P-core takes the task when it is free (an idle
	 * balancer's pull, or a P-core thread going idle: newidle). */
	double p_cores = busy_s(&on.r, 0, 2) + busy_s(&on.r, 6, 8) + busy_s(&on.r, 12, 16);
	assert_true(p_cores > 0.8);
	assert_true(busy_s(&off.r, 2, 3) > 0.8);
	result_free(&on.r);
	result_free(&off.r);
}

/* Mean frequency of CPU `cpu` in C0, kHz. */
static double busy_khz(const struct run_result *r, int cpu)
{
	const struct cpu_result *a = &r->cpus[cpu];
	return a->c0_ns > 0 ? a->c0_mhz_ns / (double)a->c0_ns * 1000 : 0;
}

/* amd-pstate's preferred cores (v6.9+) on tests/fixtures/machines/
 * prefcore.ini (core 2 ranked best, 4 GHz; core 0, where the task starts,
 * lowest, 3 GHz): ITMT moves a lone busy task to CPU 2 and it runs at
 * the best core's top; with amd_prefcore=0 (amd_prefcore=disable) the
 * scheduler leaves it on CPU 0, which boosts only to its own 3 GHz. */
static void test_amd_prefcore_prefers_best_core(void **state)
{
	const char *ini = slurp(FIXTURES "prefcore.ini");
	const char *json = "{ \"global\": { \"duration\": 1 }, \"tasks\": { \"hog\": {"
			   " \"loop\": 1, \"phases\": {"
			   " \"start\": { \"cpus\": [ 0 ], \"run\": 20000 },"
			   " \"free\": { \"run\": 2000000 } } } } }";
	static const char *const sets[] = { "amd_prefcore=0" };
	struct run on, off;
	run_rtapp(&on, ini, json, "amd_pstate", 1, NULL, 0);
	run_rtapp(&off, ini, json, "amd_pstate", 1, sets, 1);
	assert_string_equal(on.r.placement, "itmt");
	assert_string_equal(off.r.placement, "");
	assert_true(busy_s(&on.r, 2, 3) > 0.9);
	assert_true(busy_s(&off.r, 0, 1) > 0.9);
	assert_true(busy_khz(&on.r, 2) > 3900000);
	assert_true(busy_khz(&off.r, 0) <= 3000000);
	assert_true(busy_khz(&off.r, 0) > 2900000);
	result_free(&on.r);
	result_free(&off.r);
}

/* Cluster sleep on the HiKey960 (PSCI platform-coordinated: each CPU asks
 * for CLUSTER_SLEEP, the cluster goes down with its last CPU), under the
 * deepest-state idle policy. A periodic task on big CPU 4 wakes from
 * CLUSTER_SLEEP: with its cluster down it pays the state's 2.9 ms; with a
 * hog keeping big CPU 5 busy the cluster stays up and CPU 4 was only
 * powered down as a core, waking as from CPU_SLEEP (0.55 ms). With
 * CLUSTER_SLEEP disabled the clusters' shared logic (cluster_w: 70 mW big,
 * 25 mW little) never stops: the uncore energy is that plus the uncore's
 * 0.3 W over the run, exactly; with it, the idle clusters save much of it. */
static void test_hikey960_cluster_sleep(void **state)
{
	const char *ini = simtest_preset_text("hikey960");
	const char *tick = "{ \"global\": { \"duration\": 1 }, \"tasks\": { \"t\": {"
			   " \"cpus\": [ 4 ], \"run\": 200,"
			   " \"timer\": { \"ref\": \"unique\", \"period\": 20000 } } } }";
	const char *with_hog = "{ \"global\": { \"duration\": 1 }, \"tasks\": { \"t\": {"
			       " \"cpus\": [ 4 ], \"run\": 200,"
			       " \"timer\": { \"ref\": \"unique\", \"period\": 20000 } },"
			       " \"hog\": { \"cpus\": [ 5 ], \"run\": 2000000 } } }";
	static const char *const off[] = { "cstate_disable=CLUSTER_SLEEP" };
	struct run down, up, none;
	run_rtapp(&down, ini, tick, "performance", 1, NULL, 0);
	run_rtapp(&up, ini, with_hog, "performance", 1, NULL, 0);
	run_rtapp(&none, ini, tick, "performance", 1, off, 1);
	/* Medians: background wakeups of CPUs 5-7 keep the cluster up at times. */
	double lat_down = hist_quantile(&down.r.tasks[0].wakeup_latency, 0.5) / 1e3;
	double lat_up = hist_quantile(&up.r.tasks[0].wakeup_latency, 0.5) / 1e3;
	assert_true(lat_down > 2500 && lat_down < 3500);
	assert_true(lat_up > 550 && lat_up < 1000);
	double t = (double)none.r.duration_ns / 1e9;
	assert_true(fabs(none.r.energy_uncore_j - (0.3 + 0.070 + 0.025) * t) < 1e-6);
	assert_true(down.r.energy_uncore_j < none.r.energy_uncore_j - 0.04 * t);
	result_free(&down.r);
	result_free(&up.r);
	result_free(&none.r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_eas_saves_energy_on_light_load),
		cmocka_unit_test(test_misfit_moves_to_big),
		cmocka_unit_test(test_itmt_prefers_p_cores),
		cmocka_unit_test(test_amd_prefcore_prefers_best_core),
		cmocka_unit_test(test_hikey960_cluster_sleep),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
