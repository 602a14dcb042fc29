// SPDX-License-Identifier: GPL-2.0-only
/* The engine end to end through its library API, on small machines whose
 * numbers make the expected results computable by hand. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cpufreq/hookcost.h"
#include "engine/sim.h"
#include "engine/sim_internal.h"
#include "sched/sched_view.h"
#include "simtest.h"

static const char *const two_core_ini = SIMTEST_TWO_CORE_INI;

/* One package of four cores with turbo: 3 GHz for one busy core, 2.5 GHz
 * for up to two, base 2 GHz beyond. */
static const char *const turbo_ini =
	"[machine]\nname = turbo\ndescription = test machine\ntdp_w = 10\n"
	"[topology]\npackages = 1\ncores_per_package = 4\nthreads_per_core = 1\nfreq_domain = core\n"
	"[frequency]\nbase_khz = 2000000\ntransition_latency_us = 0\n"
	"[pstates]\n1000000 = 800\n2000000 = 1000\n2500000 = 1100\n3000000 = 1200\n"
	"[turbo]\n3000000 = 1\n2500000 = 2\n"
	"[cstate C1]\ndesc = halt\nexit_latency_us = 1\ntarget_residency_us = 2\npower_mw = 500\n"
	"[power]\nceff_nf = 1.0\nleak_w = 1.0\nleak_beta = 0\nuncore_w = 2\nplatform_w = 10\n";

/* One core with two SMT threads, each getting half the core when both run. */
static const char *const smt_ini =
	"[machine]\nname = smt\ndescription = test machine\ntdp_w = 10\n"
	"[topology]\npackages = 1\ncores_per_package = 1\nthreads_per_core = 2\nfreq_domain = core\n"
	"[frequency]\nbase_khz = 2000000\ntransition_latency_us = 0\n"
	"[pstates]\n2000000 = 1000\n"
	"[cstate C1]\ndesc = halt\nexit_latency_us = 1\ntarget_residency_us = 2\npower_mw = 500\n"
	"[power]\nceff_nf = 1.0\nleak_w = 1.0\nleak_beta = 0\nsmt_activity = 1.2\nsmt_throughput = 0.5\n"
	"uncore_w = 2\nplatform_w = 10\n";

/* Two packages of one core each: every migration changes last-level cache. */
static const char *const two_llc_ini =
	"[machine]\nname = two-llc\ndescription = test machine\ntdp_w = 10\n"
	"[topology]\npackages = 2\ncores_per_package = 1\nthreads_per_core = 1\nfreq_domain = core\n"
	"[frequency]\nbase_khz = 2000000\ntransition_latency_us = 0\n"
	"[pstates]\n2000000 = 1000\n"
	"[cstate C1]\ndesc = halt\nexit_latency_us = 1\ntarget_residency_us = 2\npower_mw = 500\n"
	"[power]\nceff_nf = 1.0\nleak_w = 1.0\nleak_beta = 0\nuncore_w = 2\nplatform_w = 10\n"
	"[cache]\nrefill_us = 1000\n";

/* Two packages of two cores, with a package C-state that saves 9 W. */
static const char *const two_pkg_ini =
	"[machine]\nname = two-pkg\ndescription = test machine\ntdp_w = 10\n"
	"[topology]\npackages = 2\ncores_per_package = 2\nthreads_per_core = 1\nfreq_domain = package\n"
	"[frequency]\nbase_khz = 2000000\ntransition_latency_us = 0\n"
	"[pstates]\n2000000 = 1000\n"
	"[cstate C1]\ndesc = halt\nexit_latency_us = 1\ntarget_residency_us = 2\npower_mw = 500\n"
	"[cstate C6]\ndesc = off\nexit_latency_us = 50\ntarget_residency_us = 150\npower_mw = 0\n"
	"[package_cstate PC6]\nrequires = C6\nexit_latency_us = 20\ntarget_residency_us = 100\npower_mw = 1000\n"
	"[power]\nceff_nf = 1.0\nleak_w = 1.0\nleak_beta = 0\nuncore_w = 10\nplatform_w = 10\n";

/* Tick interrupts (and restarting a stopped tick) cost nothing unless a
 * test says otherwise, so that
 * completion times are work / frequency exactly; invariants checked. */
static void run_ini(struct run *out, const char *ini, int cpus, const char *workload,
		    const char *gov, double seconds, uint64_t seed, const char *const *sets,
		    int nsets)
{
	/* No background wakeups unless a test asks: the checks below count
	 * every wakeup of the workload. */
	static const char *const defaults[] = { "tick_cost_ns=0", "tick_restart_cost_ns=0",
						"background_wakeups=0" };
	simtest_run(out, ini, cpus, workload, gov, seconds, seed, defaults, 3, sets, nsets, true);
}

#define extra simtest_extra

/* A task alone on an idle CPU: C6 exit latency, then work / frequency. */
static void test_batch_time_scales_with_frequency(void **state)
{
	const char *sets[] = { "work_ms=100", "stall_pct=0" };
	struct run fast, slow;
	run_ini(&fast, two_core_ini, 0, "batch", "performance", 10, 1, sets, 2);
	run_ini(&slow, two_core_ini, 0, "batch", "powersave", 10, 1, sets, 2);
	assert_float_equal(extra(&fast.r, "seconds"), 0.100100, 1e-6);
	assert_float_equal(extra(&slow.r, "seconds"), 0.200100, 1e-6);
	assert_int_equal(fast.r.tasks_finished, 2);
	result_free(&fast.r);
	result_free(&slow.r);
}

/* Memory stall does not scale with frequency. */
static void test_stall_does_not_scale(void **state)
{
	const char *sets[] = { "work_ms=100", "stall_pct=100" };
	struct run fast, slow;
	run_ini(&fast, two_core_ini, 0, "batch", "performance", 10, 1, sets, 2);
	run_ini(&slow, two_core_ini, 0, "batch", "powersave", 10, 1, sets, 2);
	assert_float_equal(extra(&fast.r, "seconds"), extra(&slow.r, "seconds"), 1e-9);
	result_free(&fast.r);
	result_free(&slow.r);
}

/* Two tasks on one CPU share it: both finish after twice the work, and
 * CFS keeps them close to each other. */
static void test_cfs_shares_one_cpu(void **state)
{
	const char *sets[] = { "tasks=2", "work_ms=100" };
	struct run r;
	run_ini(&r, two_core_ini, 1, "batch", "performance", 10, 1, sets, 2);
	assert_float_equal(extra(&r.r, "seconds"), 0.2001, 1e-6);
	/* The first to finish does so near the end too: fair sharing. */
	assert_true(hist_quantile(&r.r.latency, 0.0) > 0.18e9);
	assert_true(r.r.ctx_switches > 10);
	assert_float_equal(r.r.cycles_done_finished, r.r.cycles_requested_finished,
			   (r.r.cycles_requested_finished * 1e-12));
	result_free(&r.r);
}

static void check_accounting(const struct run_result *r)
{
	for (int c = 0; c < r->ncpus; c++) {
		const struct cpu_result *cr = &r->cpus[c];
		sim_ns sum = cr->c0_ns;
		for (int i = 0; i < r->m->ncstates; i++)
			sum += cr->cstate_ns[i];
		assert_int_equal(sum, r->duration_ns);
		assert_int_equal(cr->user_ns + cr->sys_ns + cr->iowait_ns + cr->idle_ns,
				 r->duration_ns);
		sim_ns in_pstates = 0;
		for (int i = 0; i < r->m->npstates; i++)
			in_pstates += cr->pstate_ns[i];
		assert_int_equal(in_pstates, cr->c0_ns);
	}
	double energy = result_energy_j(r);
	assert_float_equal(energy, (r->energy_core_dynamic_j + r->energy_core_static_j +
					   r->energy_uncore_j + r->energy_platform_j), 1e-9);
	assert_float_equal((result_power_w(r) * (double)r->duration_ns * 1e-9), energy, 1e-9);
}

/* Dynamic energy is Ceff V^2 f over the C0 time; static follows the states. */
static void test_energy_matches_power_model(void **state)
{
	const char *sets[] = { "tasks=1", "work_ms=100" };
	struct run r;
	run_ini(&r, two_core_ini, 0, "batch", "performance", 10, 1, sets, 2);
	check_accounting(&r.r);
	double c0 = 0;
	for (int c = 0; c < r.r.ncpus; c++)
		c0 += (double)r.r.cpus[c].c0_ns * 1e-9;
	/* 1 nF * (1.0 V)^2 * 2 GHz = 2 W while in C0; leakage 1 W. */
	assert_float_equal(r.r.energy_core_dynamic_j, (2.0 * c0), 1e-9);
	assert_float_equal(c0, 0.1001, 1e-9);
	/* Idle core sits in C6 (0 W); the busy one leaks 1 W while in C0. */
	assert_float_equal(r.r.energy_core_static_j, (1.0 * c0), 1e-9);
	assert_float_equal(r.r.energy_platform_j, (10.0 * (double)r.r.duration_ns * 1e-9), 1e-9);
	result_free(&r.r);
}

static void test_periodic_accounting_and_determinism(void **state)
{
	const char *sets[] = { "tasks=3", "period_us=10000", "run_us=3000" };
	struct run a, b, c;
	run_ini(&a, two_core_ini, 0, "periodic", "powersave", 2, 7, sets, 3);
	run_ini(&b, two_core_ini, 0, "periodic", "powersave", 2, 7, sets, 3);
	run_ini(&c, two_core_ini, 0, "periodic", "powersave", 2, 8, sets, 3);
	check_accounting(&a.r);
	char *ja = NULL, *jb = NULL, *jc = NULL;
	size_t la, lb, lc;
	FILE *fa = open_memstream(&ja, &la), *fb = open_memstream(&jb, &lb),
	     *fc = open_memstream(&jc, &lc);
	assert_int_equal(result_write(fa, &a.r, FORMAT_JSON), 0);
	assert_int_equal(result_write(fb, &b.r, FORMAT_JSON), 0);
	assert_int_equal(result_write(fc, &c.r, FORMAT_JSON), 0);
	fclose(fa);
	fclose(fb);
	fclose(fc);
	assert_string_equal(ja, jb);
	assert_true(strcmp(ja, jc) != 0);
	/* 3 tasks x 100 jobs/s for 2 s. */
	assert_true(fabs(a.r.work_done - 600) <= 3);
	free(ja);
	free(jb);
	free(jc);
	result_free(&a.r);
	result_free(&b.r);
	result_free(&c.r);
}

/* A workload's timers in the engine's lane (sim_workload_timer_lane())
 * come in the queue's order exactly: periodic's device waits (gap_us), in
 * step across tasks (many at one time, ties decided by the order of
 * posting), more than the lane holds (60 tasks: the queue takes the rest),
 * and oltp's round trips, disk and transmit interrupts (posted out of the
 * order they are due), with the ends of C1E's exit ramps on
 * xeon-e5-2650l-v3 beside them, give the same run, byte for byte, through
 * the lane as through the queue alone, every event checked. */
static void test_timer_lane_keeps_order(void **state)
{
	static const struct {
		const char *machine; /* NULL: two_core_ini */
		const char *workload;
		int nsets;
		const char *sets[6];
		sim_ns duration;
	} runs[] = {
		{ NULL, "periodic", 6, { "tasks=6", "period_us=2000", "run_us=300", "chunks=4",
					 "gap_us=150", "jitter_pct=0" }, NS_PER_SEC / 2 },
		{ NULL, "periodic", 6, { "tasks=60", "period_us=4000", "run_us=10", "chunks=4",
					 "gap_us=900", "jitter_pct=0" }, NS_PER_SEC / 4 },
		{ NULL, "oltp", 1, { "agents=12" }, NS_PER_SEC / 10 },
		{ "xeon-e5-2650l-v3", "oltp", 1, { "agents=12" }, NS_PER_SEC / 10 },
	};
	for (size_t k = 0; k < sizeof(runs) / sizeof(runs[0]); k++) {
		char *json[2];
		size_t len[2];
		for (int lane = 0; lane < 2; lane++) {
			struct pm_diag d = { { 0 } };
			struct machine m;
			const char *ini =
				runs[k].machine ? simtest_preset_text(runs[k].machine) : two_core_ini;
			assert_int_equal(machine_parse(&m, ini, "test", &d), 0);
			struct sim_config cfg = { .machine = &m, .workload = runs[k].workload,
						  .cpufreq = "schedutil", .cpuidle = "menu",
						  .duration = runs[k].duration, .seed = 3,
						  .nsets = runs[k].nsets, .sets = runs[k].sets,
						  .check_invariants = true };
			struct sim *s;
			assert_int_equal(sim_create(&s, &cfg, &d), 0);
			if (lane) {
				sim_workload_timer_lane(s);
			} else {
				s->lane.max = 0; /* the queue alone (oltp asked for the lane) */
				s->lane.engine_max = 0;
			}
			struct run_result r;
			assert_int_equal(sim_run(s, &r, &d), 0);
			FILE *f = open_memstream(&json[lane], &len[lane]);
			assert_int_equal(result_write(f, &r, FORMAT_JSON), 0);
			fclose(f);
			result_free(&r);
			sim_destroy(s);
		}
		assert_string_equal(json[0], json[1]);
		free(json[0]);
		free(json[1]);
	}
}

/* The lane and the queue holding timers due at one time: they fire in the
 * order they were posted (sequence numbers), whichever holds them; a
 * timer posted to the lane due before those it holds fires first; one due
 * at INT64_MAX is the queue's. The
 * workload's timer() is swapped for one that records what fires. */
static uint32_t lane_fired[5];
static int lane_nfired;

static void record_timer(struct sim *s, void *data, uint32_t arg)
{
	if (lane_nfired < 5)
		lane_fired[lane_nfired++] = arg;
}

static void test_timer_lane_ties(void **state)
{
	const char *sets[] = { "tasks=1", "period_us=100000", "run_us=10" };
	struct pm_diag d = { { 0 } };
	struct machine m;
	assert_int_equal(machine_parse(&m, two_core_ini, "test", &d), 0);
	struct sim_config cfg = { .machine = &m, .workload = "periodic", .cpufreq = "performance",
				  .cpuidle = "menu", .duration = 2 * NS_PER_MS, .seed = 1,
				  .nsets = 3, .sets = sets, .check_invariants = true };
	struct sim *s;
	assert_int_equal(sim_create(&s, &cfg, &d), 0);
	struct workload_ops ops = *s->wl;
	ops.timer = record_timer;
	s->wl = &ops;
	lane_nfired = 0;
	const sim_ns at = NS_PER_MS;
	assert_int_equal(sim_post_workload_timer(s, at, 1), 0); /* the queue: no lane yet */
	sim_workload_timer_lane(s);
	assert_int_equal(sim_post_workload_timer(s, at, 2), 0);      /* the lane */
	assert_int_equal(sim_post_workload_timer(s, at / 2, 3), 0);  /* before it */
	assert_int_equal(sim_post_workload_timer(s, at, 4), 0);      /* after 2: posted later */
	assert_int_equal(sim_post_workload_timer(s, at * 3 / 4, 5), 0);
	assert_int_equal(s->lane.n, 4);
	/* A timer due at INT64_MAX goes to the queue: in the lane it would
	 * pass the sentinel that ends lane_push()'s loop. It never fires. */
	assert_int_equal(sim_post_workload_timer(s, INT64_MAX, 6), 0);
	assert_int_equal(s->lane.n, 4);
	struct run_result r;
	assert_int_equal(sim_run(s, &r, &d), 0);
	assert_int_equal(lane_nfired, 5);
	assert_int_equal(lane_fired[0], 3);
	assert_int_equal(lane_fired[1], 5);
	assert_int_equal(lane_fired[2], 1);
	assert_int_equal(lane_fired[3], 2);
	assert_int_equal(lane_fired[4], 4);
	result_free(&r);
	sim_destroy(s);
}

/* A sleep until a time already past is no sleep: the task asks the
 * workload again and runs on, no timer, no wakeup, no switch (its start
 * is its one wakeup and switch). A periodic task whose job outlasts its
 * period sleeps until its latest release, which has come already
 * (periodic.c skips the missed ones). */
static void test_sleep_already_ended_runs_on(void **state)
{
	const char *sets[] = { "tasks=1", "period_us=1000", "run_us=1500" };
	struct run r;
	run_ini(&r, two_core_ini, 1, "periodic", "performance", 0.1, 3, sets, 3);
	/* Jobs came and went: 100 ms of 1.5 ms jobs. */
	assert_true(r.r.latency.count > 50);
	assert_int_equal(r.r.wakeups, 1); /* its start */
	assert_int_equal(r.r.ctx_switches, 1);
	result_free(&r.r);
}

/* A wakeup from C6 takes the state's measured wake time (wake_us) when the
 * machine gives one, the table's exit latency otherwise: one periodic
 * task, each job a timer wakeup from C6 (100 us in the table). */
static void test_wake_us_sets_wakeup_time(void **state)
{
	static const char *const ini_wake =
		"[machine]\nname = two-core\ndescription = test machine\ntdp_w = 10\n"
		"[topology]\npackages = 1\ncores_per_package = 2\nthreads_per_core = 1\n"
		"freq_domain = core\n[frequency]\nbase_khz = 2000000\ntransition_latency_us = 0\n"
		"[pstates]\n1000000 = 800\n2000000 = 1000\n"
		"[cstate C1]\ndesc = halt\nexit_latency_us = 1\ntarget_residency_us = 2\n"
		"power_mw = 500\n"
		"[cstate C6]\ndesc = power gated\nexit_latency_us = 100\ntarget_residency_us = 300\n"
		"wake_us = 10\npower_mw = 0\n"
		"[power]\nceff_nf = 1.0\nleak_w = 1.0\nleak_beta = 0\nuncore_w = 2\nplatform_w = 10\n";
	const char *sets[] = { "tasks=1", "period_us=10000", "run_us=1000" };
	struct run table, measured;
	run_ini(&table, two_core_ini, 1, "periodic", "performance", 1, 3, sets, 3);
	run_ini(&measured, ini_wake, 1, "periodic", "performance", 1, 3, sets, 3);
	double t = hist_mean(&table.r.wakeup_latency) / NS_PER_US;
	double m = hist_mean(&measured.r.wakeup_latency) / NS_PER_US;
	/* The wakeup latency is the wake time plus the same small dispatch
	 * cost in both runs. */
	assert_true(t >= 100 && t < 105);
	assert_true(m >= 10 && m < 15);
	assert_true(fabs((t - 100) - (m - 10)) < 0.5);
	result_free(&table.r);
	result_free(&measured.r);
}

/* One busy core runs at the single-core turbo bin; four at base. */
static void test_turbo_bins(void **state)
{
	const char *one[] = { "tasks=1", "work_ms=30", "turbo_eval_us=0" };
	const char *four[] = { "tasks=4", "work_ms=30", "turbo_eval_us=0" };
	struct run a, b;
	run_ini(&a, turbo_ini, 0, "batch", "performance", 10, 1, one, 3);
	run_ini(&b, turbo_ini, 0, "batch", "performance", 10, 1, four, 3);
	/* 30 ms at 2 GHz is 60 M cycles: 20 ms at 3 GHz, 30 ms at 2 GHz. */
	assert_float_equal(extra(&a.r, "seconds"), 0.020001, 2e-6);
	assert_float_equal(extra(&b.r, "seconds"), 0.030001, 2e-6);
	assert_float_equal(result_bzy_mhz(&a.r), 3000, 1);
	const char *noboost[] = { "tasks=1", "work_ms=30", "boost=0" };
	struct run c;
	run_ini(&c, turbo_ini, 0, "batch", "performance", 10, 1, noboost, 3);
	assert_float_equal(extra(&c.r, "seconds"), 0.030001, 2e-6);
	/* With the package re-evaluating its ceiling every 500 us, four cores
	 * keep the idle package's 3 GHz until the first evaluation at 500 us:
	 * 1.497 M cycles by then (from 1 us), the other 58.503 M at 2 GHz. */
	const char *lazy[] = { "tasks=4", "work_ms=30", "turbo_eval_us=500" };
	struct run d;
	run_ini(&d, turbo_ini, 0, "batch", "performance", 10, 1, lazy, 3);
	assert_float_equal(extra(&d.r, "seconds"), (0.0005 + 58.503e6 / 2e9), 2e-6);
	result_free(&d.r);
	result_free(&a.r);
	result_free(&b.r);
	result_free(&c.r);
}

/* Intel counts cores in C0 and C1/C1E as active for the turbo bins: the
 * same one-task run as test_turbo_bins, with the three idle cores in a
 * turbo_active C1, runs at base (four active cores), not at 3 GHz. */
static void test_turbo_active_idle_cores(void **state)
{
	char ini[2048];
	const char *c1 = "power_mw = 500\n";
	const char *at = strstr(turbo_ini, c1);
	assert_non_null(at);
	snprintf(ini, sizeof(ini), "%.*sturbo_active = 1\n%s", (int)(at - turbo_ini) + (int)strlen(c1),
		 turbo_ini, at + strlen(c1));
	const char *one[] = { "tasks=1", "work_ms=30", "turbo_eval_us=0" };
	struct run a;
	run_ini(&a, ini, 0, "batch", "performance", 10, 1, one, 3);
	assert_float_equal(extra(&a.r, "seconds"), 0.030001, 2e-6);
	assert_float_equal(result_bzy_mhz(&a.r), 2000, 1);
	result_free(&a.r);
}

/* Auto-demotion: under "deepest" every idle period asks for C6 (target
 * residency 300 us). Gaps of 200 us never reach it, so with the c1 option
 * the hardware stays in C1 while cpuidle still counts C6 requests; gaps
 * of 9 ms reach it and keep C6 after the first. */
static void test_cstate_auto_demotion(void **state)
{
	const char *shortgap[] = { "tasks=1", "period_us=1200", "run_us=1000", "jitter_pct=0",
				   "cstate_auto_demotion=c1" };
	const char *shortoff[] = { "tasks=1", "period_us=1200", "run_us=1000", "jitter_pct=0",
				   "cstate_auto_demotion=off" };
	const char *longgap[] = { "tasks=1", "period_us=10000", "run_us=1000", "jitter_pct=0",
				  "cstate_auto_demotion=c1" };
	struct run a, b, c;
	run_ini(&a, two_core_ini, 1, "periodic", "performance", 1, 1, shortgap, 5);
	run_ini(&b, two_core_ini, 1, "periodic", "performance", 1, 1, shortoff, 5);
	run_ini(&c, two_core_ini, 1, "periodic", "performance", 1, 1, longgap, 5);
	check_accounting(&a.r);
	enum { C1 = 0, C6 = 1 };
	const struct cpu_result *ca = &a.r.cpus[0], *cb = &b.r.cpus[0], *cc = &c.r.cpus[0];
	/* The requests are the same; where the core went is not. */
	assert_true(ca->cstate_usage[C6] > 700);
	assert_int_equal(ca->cstate_usage[C6], cb->cstate_usage[C6]);
	assert_true(ca->cstate_ns[C6] == 0 && ca->cstate_ns[C1] > 100 * NS_PER_MS);
	assert_true(cb->cstate_ns[C6] > 50 * NS_PER_MS && cb->cstate_ns[C1] == 0);
	/* C1's 1 us wakeup instead of C6's 100 us: more of each period idle. */
	assert_true(ca->cstate_ns[C1] > cb->cstate_ns[C6]);
	assert_true(cc->cstate_ns[C6] > 800 * NS_PER_MS);
	assert_true(cc->cstate_ns[C1] < 10 * NS_PER_MS);
	result_free(&a.r);
	result_free(&b.r);
	result_free(&c.r);
}

/* Two SMT threads share the core's cycles. */
static void test_smt_shares_core(void **state)
{
	const char *one[] = { "tasks=1", "work_ms=10" };
	const char *two[] = { "tasks=2", "work_ms=10" };
	struct run a, b;
	run_ini(&a, smt_ini, 0, "batch", "performance", 10, 1, one, 2);
	run_ini(&b, smt_ini, 0, "batch", "performance", 10, 1, two, 2);
	assert_float_equal(extra(&a.r, "seconds"), 0.010001, 2e-6);
	assert_float_equal(extra(&b.r, "seconds"), 0.020001, 2e-6);
	result_free(&a.r);
	result_free(&b.r);
}

/* A PM QoS limit keeps CPUs out of C6, so the ping-pong partner wakes in
 * 1 us instead of 100 us: more round trips per second. */
static void test_pm_qos_speeds_up_pingpong(void **state)
{
	const char *deep[] = { "burst_ns=5000" };
	const char *qos[] = { "burst_ns=5000", "pm_qos_latency_us=10" };
	struct run a, b;
	run_ini(&a, two_core_ini, 0, "pingpong", "performance", 1, 1, deep, 1);
	run_ini(&b, two_core_ini, 0, "pingpong", "performance", 1, 1, qos, 2);
	check_accounting(&a.r);
	assert_true(b.r.throughput > 1.5 * a.r.throughput);
	assert_true(a.r.cpus[0].cstate_ns[1] + a.r.cpus[1].cstate_ns[1] > 0);
	/* deepest picks C6 (300 us residency) for idle periods of ~110 us: each
	 * entry but the last of a CPU is "above" (too deep). */
	for (int c = 0; c < 2; c++)
		assert_true(a.r.cpus[c].cstate_above[1] + 1 >= a.r.cpus[c].cstate_usage[1]);
	assert_true(a.r.cpus[0].cstate_above[1] > 100);
	assert_int_equal(b.r.cpus[0].cstate_ns[1] + b.r.cpus[1].cstate_ns[1], 0);
	result_free(&a.r);
	result_free(&b.r);
}

/* userspace runs at scaling_setspeed; scaling_max_khz caps performance. */
static void test_userspace_and_limits(void **state)
{
	const char *us[] = { "work_ms=100", "scaling_setspeed=1000000" };
	const char *capped[] = { "work_ms=100", "scaling_max_khz=1500000" };
	struct run a, b;
	run_ini(&a, two_core_ini, 0, "batch", "userspace", 10, 1, us, 2);
	run_ini(&b, two_core_ini, 0, "batch", "performance", 10, 1, capped, 2);
	assert_float_equal(extra(&a.r, "seconds"), 0.200100, 1e-6);
	/* 1.5 GHz is not a P-state: the highest one below it, 1 GHz, is used. */
	assert_float_equal(extra(&b.r, "seconds"), 0.200100, 1e-6);
	result_free(&a.r);
	result_free(&b.r);
}

/* Three tasks on two caches: the balancer moves tasks between caches and
 * each move costs the refill stall; a long sched_migration_cost_ns keeps
 * recently run (cache-hot) tasks where they are. */
static void test_migration_refill_and_hotness(void **state)
{
	const char *warm[] = { "tasks=3", "work_ms=50", "sched_migration_cost_ns=0" };
	const char *hot[] = { "tasks=3", "work_ms=50", "sched_migration_cost_ns=1000000000" };
	struct run a, b;
	run_ini(&a, two_llc_ini, 0, "batch", "performance", 10, 1, warm, 3);
	run_ini(&b, two_llc_ini, 0, "batch", "performance", 10, 1, hot, 3);
	assert_true(a.r.migrations > 0);
	assert_true(b.r.migrations < a.r.migrations);
	/* 150 ms of work on 2 CPUs: at least 75 ms; each migration adds 1 ms. */
	double ideal = 0.075;
	assert_true(extra(&a.r, "seconds") > ideal);
	assert_true(a.r.cycles_done_finished > 0);
	assert_float_equal(a.r.cycles_done_finished, a.r.cycles_requested_finished,
			   (a.r.cycles_requested_finished * 1e-12));
	/* The refill stall is time on the CPU: C0 time exceeds pure work by at
	 * least a refill per migration into a task that had run. */
	double c0 = 0;
	for (int c = 0; c < a.r.ncpus; c++)
		c0 += (double)a.r.cpus[c].c0_ns * 1e-9;
	assert_true(c0 >= 0.150 + 0.001 * 1);
	result_free(&a.r);
	result_free(&b.r);
}

/* Each tick on a busy CPU steals tick_cost_ns from the running task. */
static void test_tick_cost(void **state)
{
	const char *sets[] = { "tasks=1", "work_ms=100", "hz=1000", "tick_cost_ns=1000" };
	struct run r;
	run_ini(&r, two_core_ini, 0, "batch", "performance", 10, 1, sets, 4);
	/* 100 ms of work plus 100 ticks of 1 us, after the 100 us C6 exit. */
	assert_float_equal(extra(&r.r, "seconds"), 0.100200, 2e-6);
	result_free(&r.r);
}

static uint64_t entries(const struct cpu_result *c, int nstates)
{
	uint64_t n = 0;
	for (int i = 0; i < nstates; i++)
		n += c->cstate_usage[i];
	return n;
}

/* With nohz off the tick wakes an idle CPU every period; the other tick
 * policies let an idle CPU with no timer sleep through. */
static void test_tick_policy_periodic_wakes_idle_cpu(void **state)
{
	const char *periodic[] = { "tasks=1", "period_us=10000", "run_us=1000", "hz=250",
				   "tick_policy=periodic" };
	const char *legacy[] = { "tasks=1", "period_us=10000", "run_us=1000", "hz=250",
				 "tick_policy=legacy" };
	struct run a, b;
	run_ini(&a, two_core_ini, 0, "periodic", "performance", 1, 1, periodic, 5);
	run_ini(&b, two_core_ini, 0, "periodic", "performance", 1, 1, legacy, 5);
	check_accounting(&a.r);
	/* CPU 1 never runs a task: 250 tick wakeups in 1 s under periodic. */
	assert_int_equal(a.r.cpus[1].c0_ns > 0, 1);
	assert_in_range(a.r.cpus[1].ticks, 249, 251);
	assert_in_range(entries(&a.r.cpus[1], a.m.ncstates), 250, 252);
	assert_int_equal(entries(&b.r.cpus[1], b.m.ncstates), 1);
	assert_int_equal(b.r.cpus[1].c0_ns, 0);
	assert_true(result_energy_j(&a.r) > result_energy_j(&b.r));
	result_free(&a.r);
	result_free(&b.r);
}

/* A disabled state is never entered; the governor falls back to the next. */
static void test_cstate_disable(void **state)
{
	const char *sets[] = { "cstate_disable=C6" };
	struct run r;
	run_ini(&r, two_core_ini, 0, "pingpong", "performance", 0.5, 1, sets, 1);
	for (int c = 0; c < r.r.ncpus; c++) {
		assert_int_equal(r.r.cpus[c].cstate_ns[1], 0);
		assert_true(r.r.cpus[c].cstate_ns[0] > 0);
	}
	result_free(&r.r);
	struct pm_diag d = { { 0 } };
	struct machine m;
	assert_int_equal(machine_parse(&m, two_core_ini, "test", &d), 0);
	const char *bad[] = { "cstate_disable=C9" };
	struct sim_config cfg = { .machine = &m, .workload = "batch", .cpufreq = "performance",
				  .cpuidle = "deepest", .duration = NS_PER_SEC, .seed = 1,
				  .nsets = 1, .sets = bad };
	struct sim *s;
	assert_int_equal(sim_create(&s, &cfg, &d), -1);
	assert_non_null(strstr(d.msg, "no C-state 'C9'"));
	sim_destroy(s);
}

static double total_c0(const struct run_result *r)
{
	double c0 = 0;
	for (int c = 0; c < r->ncpus; c++)
		c0 += (double)r->cpus[c].c0_ns * 1e-9;
	return c0;
}

/* A sharing group's stall shrinks with the share of its activity under
 * the cache the burst runs on: spread over two caches, each burst finds
 * half the data warm; packed under one, all of it. */
static void test_shared_data_prefers_one_cache(void **state)
{
	static char ini[2048];
	snprintf(ini, sizeof(ini), "%s[cache]\nrefill_us = 0\nshare_stall_cut = 0.5\n"
		 "share_window_us = 10000\n", strstr(two_llc_ini, "[machine]"));
	/* Drop the original [cache] section (it comes last). */
	char *dup = strstr(ini, "[cache]\nrefill_us = 1000\n");
	assert_non_null(dup);
	memmove(dup, dup + strlen("[cache]\nrefill_us = 1000\n"),
		strlen(dup + strlen("[cache]\nrefill_us = 1000\n")) + 1);
	const char *sets[] = { "tasks=2", "work_ms=10", "stall_pct=100", "slice_us=100", "share=1" };
	const char *alone[] = { "tasks=2", "work_ms=10", "stall_pct=100", "slice_us=100", "share=0" };
	struct run spread, packed, unshared;
	run_ini(&spread, ini, 0, "batch", "performance", 10, 1, sets, 5);
	run_ini(&packed, ini, 1, "batch", "performance", 10, 1, sets, 5);
	run_ini(&unshared, ini, 0, "batch", "performance", 10, 1, alone, 5);
	/* 20 ms of stall in all: no cut, cut 0.25, cut 0.5 (first bursts excepted). */
	assert_float_equal(total_c0(&unshared.r), 0.020 + 2 * 100e-9 * 0, 0.0002);
	assert_float_equal(total_c0(&spread.r), 0.015, 0.0003);
	assert_float_equal(total_c0(&packed.r), 0.010, 0.0003);
	result_free(&spread.r);
	result_free(&packed.r);
	result_free(&unshared.r);
}

/* Context switches and remote wakeups cost CPU time from the machine's
 * [costs]: ping-pong across two CPUs slows down as they grow. */
static void test_system_costs(void **state)
{
	static char ini[2048];
	snprintf(ini, sizeof(ini), "%s[costs]\ncontext_switch_us = 2\nwakeup_ipi_us = 1\n",
		 two_core_ini);
	const char *sets[] = { "burst_ns=5000", "pm_qos_latency_us=0", "tick_stop_cost_ns=0" };
	struct run cheap, costly;
	run_ini(&cheap, two_core_ini, 0, "pingpong", "performance", 0.2, 1, sets, 3);
	run_ini(&costly, ini, 0, "pingpong", "performance", 0.2, 1, sets, 3);
	/* Each message: 5 us of work + 1 us C1 exit; costs add 1 + 1 us: the
	 * IPI (C1 here halts: no MWAIT) and the switching-in half of the 2 us
	 * context switch. The other half, the sender's switch to idle, runs
	 * on its own CPU while the message travels (done after 1 us, long
	 * before the reply). */
	assert_float_equal(hist_quantile(&cheap.r.latency, 0.5), 2 * 6000, 2 * 6000 * 0.02);
	assert_float_equal(hist_quantile(&costly.r.latency, 0.5), 2 * 8000, 2 * 8000 * 0.02);
	/* Restarting the stopped tick when the task leaves idle adds 2 us
	 * more per message (tick_nohz_idle_exit() runs before schedule_idle()). */
	const char *nohz[] = { "burst_ns=5000", "pm_qos_latency_us=0", "tick_stop_cost_ns=0",
			       "tick_restart_cost_ns=2000", "tick_reprogram_cost_ns=2000" };
	struct run with_nohz;
	run_ini(&with_nohz, two_core_ini, 0, "pingpong", "performance", 0.2, 1, nohz, 5);
	assert_float_equal(hist_quantile(&with_nohz.r.latency, 0.5), 2 * 8000, 2 * 8000 * 0.02);
	result_free(&with_nohz.r);
	/* Stopping it happens on idle entry: done long before the partner's
	 * message comes 6 us later, it delays nothing. A stop that outlasts
	 * the gap delays the wakeup by what is left of it: each side's idle
	 * lasts x = 1 us exit + (8 - x) left of the stop + 5 us of work, so
	 * x = 7 us and the round trip is 14 us. */
	const char *stop[] = { "burst_ns=5000", "pm_qos_latency_us=0", "tick_stop_cost_ns=2000" };
	const char *long_stop[] = { "burst_ns=5000", "pm_qos_latency_us=0",
				    "tick_stop_cost_ns=8000", "tick_reprogram_cost_ns=8000" };
	struct run with_stop, with_long_stop;
	run_ini(&with_stop, two_core_ini, 0, "pingpong", "performance", 0.2, 1, stop, 3);
	run_ini(&with_long_stop, two_core_ini, 0, "pingpong", "performance", 0.2, 1, long_stop, 4);
	assert_true(hist_quantile(&with_stop.r.latency, 0.5) ==
		    hist_quantile(&cheap.r.latency, 0.5));
	assert_float_equal(hist_quantile(&with_long_stop.r.latency, 0.5), 2 * 7000,
			   2 * 7000 * 0.02);
	result_free(&with_stop.r);
	result_free(&with_long_stop.r);
	result_free(&cheap.r);
	result_free(&costly.r);
}

/* A remote wakeup sends an IPI only to a CPU that does not watch its
 * thread flags: C1 entered with MWAIT (Linux 3.13+) gets the flag store
 * alone, C1 as HLT the IPI; before 3.13 every cpuidle state got it. */
static void test_remote_wakeup_ipi(void **state)
{
	static char halt_ini[2048], mwait_ini[2048];
	snprintf(halt_ini, sizeof(halt_ini), "%s[costs]\nwakeup_ipi_us = 3\n", two_core_ini);
	const char *desc = strstr(halt_ini, "desc = halt");
	assert_non_null(desc);
	snprintf(mwait_ini, sizeof(mwait_ini), "%.*sdesc = MWAIT 0x00%s", (int)(desc - halt_ini),
		 halt_ini, desc + strlen("desc = halt"));
	const char *sets[] = { "burst_ns=5000", "pm_qos_latency_us=0", "tick_stop_cost_ns=0" };
	const char *old[] = { "burst_ns=5000", "pm_qos_latency_us=0", "tick_stop_cost_ns=0",
			      "kernel=3.10" };
	struct run halt, mwait, mwait_3_10;
	run_ini(&halt, halt_ini, 0, "pingpong", "performance", 0.2, 1, sets, 3);
	run_ini(&mwait, mwait_ini, 0, "pingpong", "performance", 0.2, 1, sets, 3);
	run_ini(&mwait_3_10, mwait_ini, 0, "pingpong", "performance", 0.2, 1, old, 4);
	/* 5 us of work + 1 us C1 exit per message, + 3 us of IPI when sent. */
	assert_float_equal(hist_quantile(&halt.r.latency, 0.5), 2 * 9000, 2 * 9000 * 0.02);
	assert_float_equal(hist_quantile(&mwait.r.latency, 0.5), 2 * 6000, 2 * 6000 * 0.02);
	assert_float_equal(hist_quantile(&mwait_3_10.r.latency, 0.5), 2 * 9000, 2 * 9000 * 0.02);
	result_free(&halt.r);
	result_free(&mwait.r);
	result_free(&mwait_3_10.r);
}

/* Pinned tasks stay on their CPU even with another idle. */
static void test_affinity(void **state)
{
	const char *sets[] = { "tasks=2", "work_ms=50", "pin_cpu=1" };
	struct run r;
	run_ini(&r, two_core_ini, 0, "batch", "performance", 10, 1, sets, 3);
	assert_float_equal(extra(&r.r, "seconds"), 0.1001, 1e-6);
	assert_int_equal(r.r.cpus[0].c0_ns, 0);
	assert_int_equal(r.r.migrations, 0);
	result_free(&r.r);
	const char *bad[] = { "pin_cpu=5" };
	struct pm_diag d = { { 0 } };
	struct machine m;
	assert_int_equal(machine_parse(&m, two_core_ini, "test", &d), 0);
	struct sim_config cfg = { .machine = &m, .workload = "batch", .cpufreq = "performance",
				  .cpuidle = "deepest", .duration = NS_PER_SEC, .seed = 1,
				  .nsets = 1, .sets = bad };
	struct sim *s;
	assert_int_equal(sim_create(&s, &cfg, &d), -1);
	assert_non_null(strstr(d.msg, "CPU 5 is not online"));
	sim_destroy(s);
}

/* sched_mc_power_savings: spread puts two tasks in two packages. Packing
 * (both levels) starts the second task in package 1 too -- fork balancing
 * has no power awareness in 2.6.28 -- and the balancer's power-savings
 * path moves it to package 0 once the periodic balance has failed often
 * enough to kick active balancing: 4 attempts x 4 ms = 16 ms of running
 * there. From then on package 1 sits in its package C-state. */
static void test_sched_mc_power_savings(void **state)
{
	const char *spread[] = { "tasks=2", "work_ms=200", "sched_mc_power_savings=0" };
	const char *pack[] = { "tasks=2", "work_ms=200", "sched_mc_power_savings=1" };
	const char *pack2[] = { "tasks=2", "work_ms=200", "sched_mc_power_savings=2" };
	struct run a, b, c;
	run_ini(&a, two_pkg_ini, 0, "batch", "performance", 10, 1, spread, 3);
	run_ini(&b, two_pkg_ini, 0, "batch", "performance", 10, 1, pack, 3);
	run_ini(&c, two_pkg_ini, 0, "batch", "performance", 10, 1, pack2, 3);
	check_accounting(&b.r);
	/* Spread: one task per package, neither package ever all idle while
	 * they run. */
	assert_true(a.r.pkgs[0].all_idle_ns < a.r.duration_ns / 10);
	assert_true(a.r.pkgs[1].all_idle_ns < a.r.duration_ns / 10);
	/* Pack, either level: package 1 busy only until the active balance,
	 * 16 ms (to the next 4 ms balance tick), then idle to the end. */
	const struct run *packed[] = { &b, &c };
	for (int i = 0; i < 2; i++) {
		const struct run_result *r = &packed[i]->r;
		sim_ns busy1 = r->duration_ns - r->pkgs[1].all_idle_ns;
		assert_true(r->pkgs[0].all_idle_ns < r->duration_ns / 10);
		assert_true(busy1 >= 16 * NS_PER_MS && busy1 <= 21 * NS_PER_MS);
	}
	/* Same work, same time (no cache to refill here), less uncore energy:
	 * ~180 ms of 9 W saved. */
	assert_float_equal(extra(&a.r, "seconds"), extra(&b.r, "seconds"), 2e-4);
	assert_true(b.r.energy_uncore_j < a.r.energy_uncore_j - 1.0);
	result_free(&a.r);
	result_free(&b.r);
	result_free(&c.r);
}

/* Wakeups: two periodic tasks (6 ms of work every 10 ms, released 5 ms
 * apart, so the second is forked into package 1 while the first runs)
 * never run the 16 ms it takes level 1's balancer to move them, and
 * their timer wakeups go back to their previous, idle CPU: level 1 leaves
 * them spread, as level 0 does. Level 2 sends a wakeup whose waker and
 * previous CPU are both idle to the preferred wakeup CPU in the leader
 * package (the busy one), so one package empties. */
static void test_sched_mc_wakeup_bias(void **state)
{
	const char *l1[] = { "tasks=2", "period_us=10000", "run_us=6000", "jitter_pct=0",
			     "sched_mc_power_savings=1" };
	const char *l2[] = { "tasks=2", "period_us=10000", "run_us=6000", "jitter_pct=0",
			     "sched_mc_power_savings=2" };
	struct run one, two;
	run_ini(&one, two_pkg_ini, 0, "periodic", "performance", 1, 1, l1, 5);
	run_ini(&two, two_pkg_ini, 0, "periodic", "performance", 1, 1, l2, 5);
	check_accounting(&two.r);
	/* Level 1: each package runs one task, 60 % of the time. */
	for (int p = 0; p < 2; p++)
		assert_true(one.r.pkgs[p].all_idle_ns < one.r.duration_ns / 2);
	/* Level 2: one package idle from the first periods on, the other
	 * running both tasks: ~1.8 J less uncore energy over the second. */
	sim_ns most_idle = two.r.pkgs[0].all_idle_ns > two.r.pkgs[1].all_idle_ns
				   ? two.r.pkgs[0].all_idle_ns
				   : two.r.pkgs[1].all_idle_ns;
	assert_true(most_idle > two.r.duration_ns / 100 * 95);
	assert_true(two.r.energy_uncore_j < one.r.energy_uncore_j - 1.0);
	result_free(&one.r);
	result_free(&two.r);
}

/* A polling state keeps the core in C0 (active power) and, with a latency
 * limit of 0, is the only state entered; its time limit makes the idle
 * loop select again without leaving idle. */
static void test_poll_state(void **state)
{
	static char ini[2048];
	const char *c1 = strstr(two_core_ini, "[cstate C1]");
	snprintf(ini, sizeof(ini), "%.*s[cstate POLL]\ndesc = poll\nexit_latency_us = 0\n"
		 "target_residency_us = 0\npower_mw = 0\npoll = 1\n%s",
		 (int)(c1 - two_core_ini), two_core_ini, c1);
	const char *sets[] = { "tasks=1", "period_us=10000", "run_us=1000", "pm_qos_latency_us=0" };
	struct run r;
	run_ini(&r, ini, 0, "periodic", "performance", 0.5, 1, sets, 4);
	check_accounting(&r.r);
	const struct cpu_result *idle_cpu = &r.r.cpus[1];
	assert_int_equal(idle_cpu->cstate_ns[1] + idle_cpu->cstate_ns[2], 0);
	assert_int_equal(idle_cpu->cstate_ns[0], r.r.duration_ns);
	/* Re-selected at every poll time limit: C6's 300 us residency (the
	 * first enabled state of >= 10 us) capped at tick/16 = 250 us, so about
	 * 2000 entries in 0.5 s. */
	assert_in_range(idle_cpu->cstate_usage[0], 1990, 2010);
	/* Polling burns the active power: 2 W dynamic + 1 W leakage per core. */
	assert_true(r.r.energy_core_dynamic_j > 2.0 * 0.5 * 1.5);
	result_free(&r.r);
}

/* A job in chunks waits for its device between them: response time is the
 * work plus each wait plus the C1 exit that follows it. */
static void test_periodic_chunks(void **state)
{
	const char *sets[] = { "tasks=1", "period_us=10000", "run_us=1000", "jitter_pct=0",
			       "chunks=4", "gap_us=200", "pm_qos_latency_us=0", "tick_stop_cost_ns=0" };
	struct run r;
	run_ini(&r, two_core_ini, 0, "periodic", "performance", 0.5, 1, sets, 8);
	/* The first job also pays the 1 us exit of its first wakeup. */
	assert_float_equal(hist_quantile(&r.r.latency, 0.5), 1000e3 + 3 * 201e3, 1000e3 * 0.02);
	assert_int_equal(r.r.latency.max_ns, 1000000 + 3 * 201000 + 1000);
	assert_true(fabs(r.r.work_done - 50) <= 1);
	result_free(&r.r);
}

/* When the scheduler calls the governor: classic at every enqueue and
 * dequeue (two per message of a ping-pong), consolidated at context
 * switches only once utilization decayed (about once per 1 ms PELT
 * period). Each call costs CPU time, so fewer calls mean more messages. */
static void test_cpufreq_update_triggers(void **state)
{
	const char *classic[] = { "burst_ns=5000", "pm_qos_latency_us=0", "cpufreq_updates=classic",
				  "cpufreq_update_cost_ns=1000" };
	const char *consolidated[] = { "burst_ns=5000", "pm_qos_latency_us=0",
				       "cpufreq_updates=consolidated", "cpufreq_update_cost_ns=1000" };
	struct run a, b, none;
	run_ini(&a, two_core_ini, 0, "pingpong", "schedutil", 0.5, 1, classic, 4);
	run_ini(&b, two_core_ini, 0, "pingpong", "schedutil", 0.5, 1, consolidated, 4);
	run_ini(&none, two_core_ini, 0, "pingpong", "performance", 0.5, 1, classic, 4);
	/* Two messages per round trip, an enqueue and a dequeue each. */
	assert_true(a.r.cpufreq_updates >= (uint64_t)(4 * a.r.work_done));
	assert_true(b.r.cpufreq_updates * 10 < a.r.cpufreq_updates);
	assert_true(b.r.throughput > a.r.throughput * 1.05);
	/* A governor without a hook is never called and pays nothing. */
	assert_int_equal(none.r.cpufreq_updates, 0);
	result_free(&a.r);
	result_free(&b.r);
	result_free(&none.r);
}

/* intel_pstate_set_policy(): the performance policy removes the hook, and
 * HWP keeps one only for hwp_dynamic_boost. Without a hook there is no
 * call and no cost: intel_pstate's performance policy then runs exactly as
 * the generic performance governor. */
static void test_cpufreq_hook_installation(void **state)
{
	const char *perf[] = { "burst_ns=5000", "pm_qos_latency_us=0",
			       "scaling_governor=performance" };
	const char *hwp[] = { "burst_ns=5000", "pm_qos_latency_us=0", "hwp=1" };
	const char *boost[] = { "burst_ns=5000", "pm_qos_latency_us=0", "hwp=1",
				"hwp_dynamic_boost=1" };
	struct run pstate_perf, generic, hwp_only, hwp_boost;
	run_ini(&pstate_perf, two_core_ini, 0, "pingpong", "intel_pstate", 0.2, 1, perf, 3);
	run_ini(&generic, two_core_ini, 0, "pingpong", "performance", 0.2, 1, perf, 2);
	run_ini(&hwp_only, two_core_ini, 0, "pingpong", "intel_pstate", 0.2, 1, hwp, 3);
	run_ini(&hwp_boost, two_core_ini, 0, "pingpong", "intel_pstate", 0.2, 1, boost, 4);
	assert_int_equal(pstate_perf.r.cpufreq_updates, 0);
	assert_true(pstate_perf.r.throughput == generic.r.throughput);
	assert_int_equal(hwp_only.r.cpufreq_updates, 0);
	assert_true(hwp_boost.r.cpufreq_updates >= (uint64_t)(4 * hwp_boost.r.work_done));
	result_free(&pstate_perf.r);
	result_free(&generic.r);
	result_free(&hwp_only.r);
	result_free(&hwp_boost.r);
}

/* A call's cost is its path at the CPU's clock: schedutil, rate-limited
 * after its first evaluation, pays the dispatch and its check, 60 cycles,
 * per call. That first evaluation sees a new task's initial utilization
 * (at least 512, half an idle CPU's spare capacity) and asks 1.25 x 2 GHz
 * x 512 / 1024 = 1.25 GHz, which resolves up to 2 GHz: 60 cycles are
 * 30 ns. The same run with a fixed 30 ns per call is the same run. */
static void test_cpufreq_hook_cost_model(void **state)
{
	const char *model[] = { "burst_ns=5000", "pm_qos_latency_us=0", "rate_limit_us=10000000" };
	const char *fixed[] = { "burst_ns=5000", "pm_qos_latency_us=0", "rate_limit_us=10000000",
				"cpufreq_update_cost_ns=30" };
	struct run a, b;
	run_ini(&a, two_core_ini, 0, "pingpong", "schedutil", 0.2, 1, model, 3);
	run_ini(&b, two_core_ini, 0, "pingpong", "schedutil", 0.2, 1, fixed, 4);
	assert_int_equal(CPUFREQ_CYCLES_DISPATCH + CPUFREQ_CYCLES_CHECK, 60);
	assert_true(a.r.cpufreq_updates > 0);
	assert_true(a.r.throughput == b.r.throughput);
	result_free(&a.r);
	result_free(&b.r);
}

/* post_init_entity_util_avg(): new tasks start with half the spare
 * capacity of the CPU they are placed on. Three batch tasks started on
 * one CPU, looked at before any has run: 512, 256, 128, as the kernel's
 * comment lists the series. */
static void test_new_task_util_is_half_the_spare_capacity(void **state)
{
	struct machine m;
	struct pm_diag d = { { 0 } };
	assert_int_equal(machine_parse(&m, two_core_ini, "test", &d), 0);
	assert_int_equal(machine_set_online(&m, 1, &d), 0);
	const char *sets[] = { "tasks=3" };
	struct sim_config cfg = { .machine = &m, .workload = "batch", .cpufreq = "performance",
				  .cpuidle = "deepest", .duration = 1, .seed = 1, .nsets = 1,
				  .sets = sets, .check_invariants = true };
	struct sim *s;
	assert_int_equal(sim_create(&s, &cfg, &d), 0);
	struct run_result r;
	assert_int_equal(sim_run(s, &r, &d), 0);
	uint32_t want = 512;
	for (uint32_t i = 0; i < 3; i++, want /= 2) {
		const struct task *t = sim_task(s, i);
		assert_int_equal(t->state, TASK_QUEUED);
		assert_int_equal(t->pelt.util_avg, want);
	}
	result_free(&r);
	sim_destroy(s);
}

/* Four CPUs, one clock: a schedutil policy shared by all. */
static const char shared_ini[] =
	"[machine]\nname = shared\ndescription = test machine\ntdp_w = 10\n"
	"[topology]\npackages = 1\ncores_per_package = 4\nthreads_per_core = 1\n"
	"freq_domain = package\n"
	"[frequency]\nbase_khz = 2000000\ntransition_latency_us = 0\n"
	"[pstates]\n800000 = 700\n1000000 = 800\n1500000 = 900\n2000000 = 1000\n"
	"[cstate C1]\ndesc = halt\nexit_latency_us = 1\ntarget_residency_us = 2\n"
	"power_mw = 500\n"
	"[power]\nceff_nf = 1.0\nleak_w = 1.0\nleak_beta = 0\nuncore_w = 2\n"
	"platform_w = 10\n";

/* schedutil on a policy of four CPUs keeps the policy's largest util and
 * how many CPUs have it between calls (sugov_shared_util()); --check
 * compares both with a scan after every event and aborts on a mismatch.
 * Two ping-pong pairs move the CPUs' utils up and down, through ties. */
static void test_schedutil_shared_max_checked(void **state)
{
	const char *sets[] = { "pairs=2" };
	struct run r;
	simtest_run(&r, shared_ini, 0, "pingpong", "schedutil", 0.2, 1, NULL, 0, sets, 1, true);
	/* The policy's clock moved: the governor ran on the shared path. */
	int used = 0;
	for (int i = 0; i < r.m.npstates; i++)
		used += r.r.cpus[0].pstate_ns[i] > 0;
	assert_true(used >= 2);
	result_free(&r.r);
}

/* A run's JSON result, with every cpufreq hook call made or not
 * (sim_config's call_every_hook), under --check. */
static char *run_json(const char *ini, const char *workload, const char *const *sets, int nsets,
		      double seconds, bool every_hook)
{
	struct machine m;
	struct pm_diag d = { { 0 } };
	if (machine_parse(&m, ini, "test", &d) < 0)
		fail_msg("machine: %s", d.msg);
	struct sim_config cfg = { .machine = &m, .workload = workload, .cpufreq = "schedutil",
				  .cpuidle = "menu", .duration = (sim_ns)(seconds * 1e9), .seed = 5,
				  .nsets = nsets, .sets = sets, .check_invariants = true,
				  .call_every_hook = every_hook };
	struct sim *s;
	if (sim_create(&s, &cfg, &d) < 0)
		fail_msg("sim_create: %s", d.msg);
	struct run_result r;
	if (sim_run(s, &r, &d) < 0)
		fail_msg("sim_run: %s", d.msg);
	char *json = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&json, &len);
	assert_non_null(out);
	assert_int_equal(result_write(out, &r, FORMAT_JSON), 0);
	fclose(out);
	result_free(&r);
	sim_destroy(s);
	return json;
}

/* The schedutil hook calls the simulator's driver leaves out (the governor
 * says they would return at its rate limit, or keep its target:
 * cpufreq_policy's util_quiet_*) change nothing: the runs that make every
 * call give the same result, byte for byte, calls and their cost
 * included. ping-pong pairs make calls without flags, oltp's I/O wakeups
 * calls with them; on a machine of four CPUs with and without frequency
 * invariance (without, schedutil's reference is the current frequency),
 * and on the i7-4790, also with limits between two table entries (no
 * entry in range: each target resolves to itself, clamped, so the span of
 * targets kept for an entry is the target alone). */
static void test_schedutil_left_out_calls_change_nothing(void **state)
{
	const char *pairs[] = { "pairs=3", "freq_invariant=0" };
	const char *plain[] = { "freq_invariant=0" };
	const char *between[] = { "pairs=3", "scaling_min_khz=1510000", "scaling_max_khz=1590000" };
	struct {
		const char *ini, *workload;
		const char *const *sets;
		int nsets;
	} runs[] = {
		{ shared_ini, "pingpong", pairs, 2 },
		{ shared_ini, "oltp", plain, 1 },
		{ shared_ini, "pingpong", pairs, 1 },
		{ shared_ini, "oltp", NULL, 0 },
		{ simtest_preset_text("i7-4790"), "pingpong", pairs, 1 },
		{ simtest_preset_text("i7-4790"), "oltp", NULL, 0 },
		{ simtest_preset_text("i7-4790"), "pingpong", between, 3 },
	};
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		char *left_out = run_json(runs[i].ini, runs[i].workload, runs[i].sets, runs[i].nsets,
					  0.3, false);
		char *every = run_json(runs[i].ini, runs[i].workload, runs[i].sets, runs[i].nsets,
				       0.3, true);
		assert_string_equal(left_out, every);
		free(left_out);
		free(every);
	}
	/* A light task that now and then waits on I/O ten times in a row,
	 * the boosts doubling on wakeups within a tick (they move the clock)
	 * and dying out in between, beside a steady one. */
	static const char *const json =
		"{ \"global\" : { \"duration\" : 1 },\n"
		"  \"tasks\" : {\n"
		"    \"io\" : { \"loop\" : -1, \"cpus\" : [ 0 ], \"phases\" : {\n"
		"      \"calm\" : { \"loop\" : 60, \"run\" : 100, \"sleep\" : 400 },\n"
		"      \"io\" : { \"loop\" : 10, \"run\" : 100, \"iorun\" : 1000 } } },\n"
		"    \"steady\" : { \"loop\" : -1, \"cpus\" : [ 1 ], \"run\" : 300, \"sleep\" : 700 } } }\n";
	char path[] = "/tmp/pmlab-test-left-out-XXXXXX";
	char wl[64];
	simtest_rtapp_file(path, wl, sizeof(wl), json);
	char *left_out = run_json(simtest_preset_text("i7-4790"), wl, NULL, 0, 0.5, false);
	char *every = run_json(simtest_preset_text("i7-4790"), wl, NULL, 0, 0.5, true);
	unlink(path);
	assert_string_equal(left_out, every);
	free(left_out);
	free(every);
}

/* An I/O wakeup's boost makes schedutil read every CPU (sugov_read_all()),
 * again only those boosted or marked changed, keeping the others'
 * figures: --check compares each CPU's kept figure with a fresh read
 * after every event. oltp's page reads and commits wait on I/O. */
static void test_schedutil_boosted_reads_checked(void **state)
{
	struct run r;
	simtest_run(&r, shared_ini, 0, "oltp", "schedutil", 0.5, 1, NULL, 0, NULL, 0, true);
	/* Tasks woke from I/O, and the policy's clock moved. */
	sim_ns iowait = 0;
	int used = 0;
	for (int c = 0; c < r.r.ncpus; c++)
		iowait += r.r.cpus[c].iowait_ns;
	for (int i = 0; i < r.m.npstates; i++)
		used += r.r.cpus[0].pstate_ns[i] > 0;
	assert_true(iowait > 0);
	assert_true(used >= 2);
	result_free(&r.r);
}

/* The P-state CPU 0 of `ini` spent most of its busy time in, kHz, and the
 * work rate (Avg_MHz: MHz-time in C0 over wall time). */
static uint32_t settled_khz(const char *ini, const char *const *sets, int nsets, double *work_mhz)
{
	struct run r;
	simtest_run(&r, ini, 1, "periodic", "schedutil", 4, 1, NULL, 0, sets, nsets, true);
	const struct cpu_result *c = &r.r.cpus[0];
	int best = 0;
	for (int i = 1; i < r.m.npstates; i++)
		if (c->pstate_ns[i] > c->pstate_ns[best])
			best = i;
	*work_mhz = c->c0_mhz_ns / (double)r.r.duration_ns;
	uint32_t khz = r.m.pstates[best].khz;
	result_free(&r.r);
	return khz;
}

/* PELT's frequency invariance (arch_scale_freq_capacity()) divides by the
 * machine's reference: the i7-4790's 4-core turbo, 3.8 GHz. On a steady
 * load W (MHz of work per second) util = W / 3.8 GHz x 1024 and schedutil
 * settles at the lowest entry at or above 1.25 x 4.0 GHz x W / 3.8 GHz;
 * with the highest P-state as the reference, 1.25 x W: about 5 % lower,
 * two 100 MHz steps here (W ~ 2.8 GHz: 3.66 -> 3.7 GHz against 3.45 ->
 * 3.5 GHz). util_est keeps the utilization at its peak at dequeue, above
 * the mean, so each may settle a step higher (200 MHz allowed). */
static void test_pelt_invariance_reference(void **state)
{
	static const char *const load[] = { "tasks=1", "period_us=4000", "run_us=3100",
					    "jitter_pct=0" };
	const char *ini = simtest_preset_text("i7-4790");
	const char *key = strstr(ini, "freq_invariance = turbo_4c");
	assert_non_null(key);
	char max_ini[16384];
	assert_true(strlen(ini) < sizeof(max_ini));
	snprintf(max_ini, sizeof(max_ini), "%.*sfreq_invariance = max%s", (int)(key - ini), ini,
		 key + strlen("freq_invariance = turbo_4c"));
	double w4, wmax;
	uint32_t f4 = settled_khz(ini, load, 4, &w4);
	uint32_t fmax = settled_khz(max_ini, load, 4, &wmax);
	/* Within two steps: W (C0 MHz-time) also counts the time spent
	 * leaving C7s each period, which PELT does not see as running. */
	if (fabs((double)f4 - 1.25 * 4.0 / 3.8 * w4 * 1000.0) > 200000 ||
	    fabs((double)fmax - 1.25 * wmax * 1000.0) > 200000)
		fail_msg("settled at %u and %u kHz for W %.0f and %.0f MHz", f4, fmax, w4, wmax);
	assert_true(f4 > fmax);
	/* Without invariance, or with a kernel before 5.7, the reference is
	 * gone: running time counts whatever the clock, and schedutil maps it
	 * from cur (a different rule, so a different frequency). */
	const char *off[] = { load[0], load[1], load[2], load[3], "freq_invariant=0" };
	const char *k56[] = { load[0], load[1], load[2], load[3], "kernel=5.6" };
	/* ...and schedutil's rate limit from the driver: intel_pstate's passive
	 * mode (intel_cpufreq) sets a transition delay of 500 us. */
	const char *k56_by_hand[] = { load[0], load[1], load[2], load[3], "freq_invariant=0",
				      "variant=4.7", "rate_limit_us=500" };
	double w;
	uint32_t foff = settled_khz(ini, off, 5, &w);
	assert_true(foff != f4);
	struct run a, b;
	simtest_run(&a, ini, 1, "periodic", "schedutil", 1, 1, NULL, 0, k56, 5, true);
	simtest_run(&b, ini, 1, "periodic", "schedutil", 1, 1, NULL, 0, k56_by_hand, 7, true);
	assert_true(a.r.cpus[0].c0_mhz_ns == b.r.cpus[0].c0_mhz_ns);
	assert_int_equal(a.r.freq_transitions, b.r.freq_transitions);
	result_free(&a.r);
	result_free(&b.r);
}

/* The 2020 x86 series' NC-turbo variants (--set freq_invariance_cores=N)
 * divide by the N-active-cores turbo frequency whatever the machine's
 * freq_invariance says. The i7-4790's 1-core turbo is its highest P-state
 * and its 4-core turbo its reference: N = 1 must run exactly as
 * freq_invariance = max, N = 4 on that machine exactly as the preset, and
 * with turbo off every N falls back to the base frequency. */
static void test_pelt_invariance_cores(void **state)
{
	static const char *const one[] = { "tasks=1", "period_us=4000", "run_us=3100",
					   "jitter_pct=0", "freq_invariant=1",
					   "freq_invariance_cores=1" };
	static const char *const four[] = { "tasks=1", "period_us=4000", "run_us=3100",
					    "jitter_pct=0", "freq_invariant=1",
					    "freq_invariance_cores=4" };
	static const char *const own[] = { "tasks=1", "period_us=4000", "run_us=3100",
					   "jitter_pct=0", "freq_invariant=1" };
	static const char *const off_n[] = { "tasks=1", "period_us=4000", "run_us=3100",
					     "jitter_pct=0", "freq_invariant=1", "boost=0",
					     "freq_invariance_cores=1" };
	static const char *const off[] = { "tasks=1", "period_us=4000", "run_us=3100",
					   "jitter_pct=0", "freq_invariant=1", "boost=0" };
	const char *ini = simtest_preset_text("i7-4790");
	const char *key = strstr(ini, "freq_invariance = turbo_4c");
	assert_non_null(key);
	char max_ini[16384];
	assert_true(strlen(ini) < sizeof(max_ini));
	snprintf(max_ini, sizeof(max_ini), "%.*sfreq_invariance = max%s", (int)(key - ini), ini,
		 key + strlen("freq_invariance = turbo_4c"));
	const struct {
		const char *ini_a, *ini_b;
		const char *const *a, *const *b;
		int na, nb;
		bool same;
	} pairs[] = {
		{ ini, max_ini, one, own, 6, 5, true },
		{ max_ini, ini, four, own, 6, 5, true },
		{ ini, ini, off_n, off, 7, 6, true },
		{ ini, ini, one, own, 6, 5, false },
	};
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		struct run a, b;
		simtest_run(&a, pairs[i].ini_a, 1, "periodic", "schedutil", 1, 1, NULL, 0, pairs[i].a,
			    pairs[i].na, true);
		simtest_run(&b, pairs[i].ini_b, 1, "periodic", "schedutil", 1, 1, NULL, 0, pairs[i].b,
			    pairs[i].nb, true);
		bool same = a.r.cpus[0].c0_mhz_ns == b.r.cpus[0].c0_mhz_ns &&
			    a.r.freq_transitions == b.r.freq_transitions;
		if (same != pairs[i].same)
			fail_msg("pair %zu: runs %s (C0 MHz-ns %.0f and %.0f)", i,
				 same ? "alike" : "differ", (double)a.r.cpus[0].c0_mhz_ns,
				 (double)b.r.cpus[0].c0_mhz_ns);
		result_free(&a.r);
		result_free(&b.r);
	}
}

/* ---- the idle loop, the tick and background wakeups (issue 13) ---- */

/* Linux 4.16's tick_nohz_stop_sched_tick(): the legacy idle loop stops
 * the tick only when the next timer is more than a tick after the last
 * jiffy. A job every 2 ms (tick 4 ms) sleeps until a timer within the
 * tick: the tick is kept, and no restart cost reaches the job; every
 * 20 ms the tick stops and restarting it (50 us here) delays each job.
 * The 4.17+ loop with a governor that always stops it pays either way. */
static void test_legacy_tick_keeps_tick_for_near_timer(void **state)
{
	const char *near[] = { "tasks=1", "period_us=2000", "run_us=500", "jitter_pct=0",
			       "tick_policy=legacy", "tick_restart_cost_ns=50000" };
	const char *far[] = { "tasks=1", "period_us=20000", "run_us=500", "jitter_pct=0",
			      "tick_policy=legacy", "tick_restart_cost_ns=50000" };
	const char *near_gov[] = { "tasks=1", "period_us=2000", "run_us=500", "jitter_pct=0",
				   "tick_policy=governor", "tick_restart_cost_ns=50000",
				   "tick_reprogram_cost_ns=50000" };
	struct run a, b, c;
	run_ini(&a, two_core_ini, 1, "periodic", "performance", 0.2, 1, near, 6);
	run_ini(&b, two_core_ini, 1, "periodic", "performance", 0.2, 1, far, 6);
	run_ini(&c, two_core_ini, 1, "periodic", "performance", 0.2, 1, near_gov, 7);
	/* 500 us of work (2 GHz = base) and C6's 100 us exit. */
	assert_float_equal(hist_quantile(&a.r.latency, 0.5), 600e3, 600e3 * 0.02);
	assert_float_equal(hist_quantile(&b.r.latency, 0.5), 650e3, 650e3 * 0.02);
	assert_float_equal(hist_quantile(&c.r.latency, 0.5), 650e3, 650e3 * 0.02);
	result_free(&a.r);
	result_free(&b.r);
	result_free(&c.r);
}

/* Stopping and restarting the tick cost their whole path only when their
 * once-a-jiffy bookkeeping has work (kernel/time/tick-sched.c, v4.16 and
 * v6.18): a restart after an idle period that crossed a jiffy boundary
 * (jiffies update, idle tick accounting), a stop after a busy tick has
 * cleared the CPU's nohz state (nohz_balance_enter_idle()). Otherwise
 * only the tick timer's reprogramming is paid. A 2-CPU ping-pong (5 us of
 * work and C1's 1 us exit per message, HZ=250) stays within a jiffy and
 * runs no tick in most of its idle periods: each message pays the
 * reprogramming restart (1 us), not the whole one (8 us), and a stop of
 * 20 us, which would delay every reply, costs nothing in the median. */
static void test_tick_stop_restart_once_a_jiffy(void **state)
{
	const char *sub[] = { "burst_ns=5000", "pm_qos_latency_us=0", "tick_stop_cost_ns=20000",
			      "tick_restart_cost_ns=8000", "tick_reprogram_cost_ns=1000" };
	const char *full[] = { "burst_ns=5000", "pm_qos_latency_us=0", "tick_stop_cost_ns=0",
			       "tick_restart_cost_ns=8000", "tick_reprogram_cost_ns=8000" };
	struct run r, f;
	run_ini(&r, two_core_ini, 0, "pingpong", "performance", 0.2, 1, sub, 5);
	run_ini(&f, two_core_ini, 0, "pingpong", "performance", 0.2, 1, full, 5);
	assert_float_equal(hist_quantile(&r.r.latency, 0.5), 2 * 7000, 2 * 7000 * 0.02);
	assert_float_equal(hist_quantile(&f.r.latency, 0.5), 2 * 14000, 2 * 14000 * 0.02);
	result_free(&r.r);
	result_free(&f.r);
}

/* A tick stopped at a jiffy's very start was stopped in that jiffy: a
 * restart later in it pays the reprogramming alone. The run's CPUs enter
 * idle, stopping the tick, at 0 ns, the first jiffy's start; the one job
 * (released at 0, 500 us of work, C6's 100 us exit) restarts it within
 * that jiffy: 600 us, not the whole restart's 50 us more. */
static void test_tick_stop_at_jiffy_start_same_jiffy(void **state)
{
	const char *sets[] = { "tasks=1", "period_us=20000", "run_us=500", "jitter_pct=0",
			       "tick_stop_cost_ns=0", "tick_restart_cost_ns=50000",
			       "tick_reprogram_cost_ns=0" };
	struct run a;
	run_ini(&a, two_core_ini, 1, "periodic", "performance", 0.01, 1, sets, 7);
	assert_int_equal(a.r.latency.count, 1);
	assert_float_equal(hist_quantile(&a.r.latency, 0.5), 600e3, 600e3 * 0.02);
	result_free(&a.r);
}

/* The tick is stopped once per idle stretch: background interrupts that
 * leave the CPU idle re-enter the idle loop with the tick still stopped
 * and pay no stop again. A job every 20 ms (500 us of work) on a CPU that
 * 1000 background wakeups a second interrupt: a 400 us stop paid on each
 * re-entry would keep the CPU busy a third of the time and delay about a
 * third of the jobs; paid once, after the job, it is over long before
 * the next one. (One CPU online.) */
static void test_tick_stop_once_per_idle_stretch(void **state)
{
	const char *stop[] = { "tasks=1", "period_us=20000", "run_us=500", "jitter_pct=0",
			       "background_wakeups=1000", "tick_stop_cost_ns=400000",
			       "tick_reprogram_cost_ns=400000" };
	const char *none[] = { "tasks=1", "period_us=20000", "run_us=500", "jitter_pct=0",
			       "background_wakeups=1000", "tick_stop_cost_ns=0" };
	struct run a, b;
	run_ini(&a, two_core_ini, 1, "periodic", "performance", 1, 1, stop, 7);
	run_ini(&b, two_core_ini, 1, "periodic", "performance", 1, 1, none, 6);
	double with_stop = hist_quantile(&a.r.latency, 0.75);
	double without = hist_quantile(&b.r.latency, 0.75);
	if (fabs(with_stop - without) > 0.02 * without)
		fail_msg("p75 latency %.0f ns with a 400 us stop, %.0f ns without", with_stop,
			 without);
	result_free(&a.r);
	result_free(&b.r);
}

/* Background wakeups wake an unused CPU at the machine's rate, and an
 * interrupt that leaves the CPU idle keeps a stopped tick stopped: the
 * unused CPU pays its wake time and handler per wakeup, never the tick's
 * restart (set to 50 us here to show). 1000/s for 1 s with 100 %
 * jitter: about 1000 wakeups; each costs C6's 100 us exit + 2 us handler. */
static void test_background_wakeups(void **state)
{
	const char *bg[] = { "tasks=1", "work_ms=2000", "pin_cpu=0", "background_wakeups=1000",
			     "tick_restart_cost_ns=50000" };
	const char *quiet[] = { "tasks=1", "work_ms=2000", "pin_cpu=0" };
	struct run r, q;
	run_ini(&r, two_core_ini, 0, "batch", "performance", 1, 1, bg, 5);
	run_ini(&q, two_core_ini, 0, "batch", "performance", 1, 1, quiet, 3);
	const struct cpu_result *idle = &r.r.cpus[1];
	uint64_t wakes = idle->cstate_usage[0] + idle->cstate_usage[1];
	assert_in_range(wakes, 900, 1100);
	double want = (double)(wakes - 1) * 102000.0;
	if (fabs((double)idle->c0_ns - want) > want * 0.02)
		fail_msg("the idle CPU spent %lld ns in C0, expected about %.0f", (long long)idle->c0_ns,
			 want);
	/* Each handler is system time, not idle, on a CPU that runs no
	 * task; the CPU times still sum to the run's length. */
	assert_in_range(idle->sys_ns, (wakes - 1) * 2000, wakes * 2000);
	check_accounting(&r.r);
	/* Without them the CPU enters idle once and stays. */
	assert_int_equal(q.r.cpus[1].cstate_usage[0] + q.r.cpus[1].cstate_usage[1], 1);
	assert_int_equal(q.r.cpus[1].c0_ns, 0);
	result_free(&r.r);
	result_free(&q.r);
}

/* Without background wakeups ladder never moves on an unused CPU: it sits
 * in the state of its first idle period. With them its idle periods
 * (0..2 ms, against C1's 1 us exit) vote for promotion and it goes to C6,
 * where it spends most of its time (the few periods under C6's 100 us
 * exit latency send it back to C1 for four more). */
static void test_background_moves_ladder(void **state)
{
	const char *bg[] = { "tasks=1", "work_ms=2000", "pin_cpu=0", "background_wakeups=1000" };
	const char *quiet[] = { "tasks=1", "work_ms=2000", "pin_cpu=0", "background_wakeups=0" };
	struct run r, q;
	simtest_run_idle(&r, two_core_ini, 0, "batch", "performance", "ladder", 1, 1, NULL, 0, bg,
			 4, true);
	simtest_run_idle(&q, two_core_ini, 0, "batch", "performance", "ladder", 1, 1, NULL, 0,
			 quiet, 4, true);
	assert_true(r.r.cpus[1].cstate_ns[1] > r.r.duration_ns * 7 / 10);
	assert_int_equal(q.r.cpus[1].cstate_ns[1], 0);
	result_free(&r.r);
	result_free(&q.r);
}

/* Entries of states from C3 on (index 3: POLL, C1, C1E before it), over
 * all entries. */
static double deep_share(const struct run_result *r)
{
	uint64_t all = 0, deep = 0;
	for (int c = 0; c < r->ncpus; c++)
		for (int i = 0; i < MACHINE_MAX_CSTATES; i++) {
			all += r->cpus[c].cstate_usage[i];
			deep += i >= 3 ? r->cpus[c].cstate_usage[i] : 0;
		}
	return all ? (double)deep / (double)all : 0;
}

/* A 1000 Hz pipe ping-pong on the i7-4790 preset (1-byte messages: 0.5 us
 * of work): menu keeps to the shallowest states and is no slower than teo,
 * where it ran 30 times slower while C7s lacked a wake time (issue 13
 * item 7). (With idles shorter than C1's 2 us exit latency v6.18's menu
 * polls, teo takes C1: menu is the faster here.) The legacy idle loop
 * (4.16), which stops and restarts the tick on every idle entry, costs
 * it, but not the 1.5x it did (item 8): its passes are far shorter than a
 * jiffy, so each stop and restart does only the tick timer's
 * reprogramming (the preset's tick_reprogram_us, docs/sources.md 2.7),
 * and of the two only the restart, on the woken CPU, is on the round
 * trip's path: two per round trip. */
static void test_pingpong_idle_governors_and_tick(void **state)
{
	const char *gov[] = { "hz=1000", "burst_ns=500" };
	const char *legacy[] = { "hz=1000", "burst_ns=500", "tick_policy=legacy" };
	const char *ini = simtest_preset_text("i7-4790");
	struct run menu, teo, menu_legacy;
	simtest_run_idle(&menu, ini, 0, "pingpong", "performance", "menu", 0.5, 1, NULL, 0, gov, 2,
			 false);
	simtest_run_idle(&teo, ini, 0, "pingpong", "performance", "teo", 0.5, 1, NULL, 0, gov, 2,
			 false);
	simtest_run_idle(&menu_legacy, ini, 0, "pingpong", "performance", "menu", 0.5, 1, NULL, 0,
			 legacy, 3, false);
	assert_true(menu.r.throughput > 0.9 * teo.r.throughput);
	assert_true(deep_share(&menu.r) < 0.01);
	assert_true(deep_share(&teo.r) < 0.01);
	double extra_ns = 1e9 / menu_legacy.r.throughput - 1e9 / menu.r.throughput;
	double restarts_ns = 2.0 * (double)menu.m.tick_reprogram_ns;
	if (fabs(extra_ns - restarts_ns) > 0.1 * restarts_ns)
		fail_msg("the legacy loop adds %.0f ns per round trip, expected two restarts "
			 "(%.0f ns)", extra_ns, restarts_ns);
	result_free(&menu.r);
	result_free(&teo.r);
	result_free(&menu_legacy.r);
}

/* update_idle_core(): whenever a CPU goes idle with every sibling of its
 * core idle, its LLC's has_idle_cores hint is set next. The engine makes
 * the hook's first tests itself (no call without SMT or while the hint is
 * set already, cpu_schedule()); 16 hackbench tasks on the SMT i7-4790
 * clear the hint (a wakeup's scan finds no idle core) within 3 ms. */
struct idle_core_watch {
	struct sim *s;
	long idle_cores;
};

static void watch_idle_core(void *ctx, int cpu, sim_ns now, int state)
{
	(void)state;
	struct idle_core_watch *w = ctx;
	const struct sched_topology *topo = &w->s->topo;
	const struct cpu_group *core = &topo->core[topo->cpu[cpu].core];
	for (int i = 0; i < core->n; i++)
		if (core->cpu[i] != cpu && !sv_cpu_idle(w->s, core->cpu[i]))
			return;
	w->idle_cores++;
	if (!topo->cpu[cpu].shared->has_idle_cores)
		fail_msg("CPU %d idle with its core at %lld ns, has_idle_cores clear", cpu,
			 (long long)now);
}

static void test_idle_core_hint_set_on_idle(void **state)
{
	struct machine m;
	struct pm_diag d = { "" };
	struct idle_core_watch w = { NULL, 0 };
	struct sim_observer obs = { .ctx = &w, .cpu_idle = watch_idle_core };
	const char *sets[] = { "groups=2", "fds=4" };
	struct sim_config cfg = { .machine = &m, .workload = "hackbench", .cpufreq = "performance",
				  .cpuidle = "menu", .duration = 10000000, .seed = 1,
				  .nsets = 2, .sets = sets, .check_invariants = true,
				  .observer = &obs };
	struct run_result r;
	if (machine_parse(&m, simtest_preset_text("i7-4790"), "i7-4790", &d) != 0 ||
	    sim_create(&w.s, &cfg, &d) != 0)
		fail_msg("%s", d.msg);
	assert_true(w.s->topo.smt);
	if (sim_run(w.s, &r, &d) != 0)
		fail_msg("%s", d.msg);
	assert_true(w.idle_cores > 0);
	result_free(&r);
	sim_destroy(w.s);
}

/* An observer sees every power change and every run/idle transition:
 * integrating what it was told gives the run's energy and busy time. */
struct watch {
	double w[4], e;
	sim_ns since[4];
	sim_ns run_since[2], busy;
	bool running[2];
	uint64_t idles;
};

static void watch_power(void *ctx, int core, sim_ns now, double watts)
{
	struct watch *w = ctx;
	w->e += w->w[core] * (double)(now - w->since[core]) * 1e-9;
	w->w[core] = watts;
	w->since[core] = now;
}

static void watch_run(void *ctx, int cpu, sim_ns now, const struct task *t)
{
	struct watch *w = ctx;
	if (!w->running[cpu])
		w->run_since[cpu] = now;
	w->running[cpu] = true;
}

static void watch_idle(void *ctx, int cpu, sim_ns now, int state)
{
	struct watch *w = ctx;
	if (w->running[cpu])
		w->busy += now - w->run_since[cpu];
	w->running[cpu] = false;
	w->idles++;
}

static void test_observer(void **state)
{
	struct watch w;
	memset(&w, 0, sizeof(w));
	struct sim_observer obs = { .ctx = &w, .core_power = watch_power, .cpu_run = watch_run,
				    .cpu_idle = watch_idle };
	struct pm_diag d = { { 0 } };
	struct machine m;
	assert_int_equal(machine_parse(&m, two_core_ini, "test", &d), 0);
	/* No interrupts: their handlers are system time (as /proc/stat counts
	 * irq and softirq time) on a CPU that runs no task. */
	const char *sets[] = { "tasks=3", "period_us=10000", "run_us=3000", "tick_cost_ns=0",
			       "background_wakeups=0" };
	struct sim_config cfg = { .machine = &m, .workload = "periodic", .cpufreq = "powersave",
				  .cpuidle = "deepest", .duration = NS_PER_SEC / 2, .seed = 1,
				  .nsets = 5, .sets = sets, .observer = &obs };
	struct sim *s;
	assert_int_equal(sim_create(&s, &cfg, &d), 0);
	struct run_result r;
	assert_int_equal(sim_run(s, &r, &d), 0);
	for (int c = 0; c < 2; c++) {
		watch_power(&w, c, r.duration_ns, 0);
		if (w.running[c])
			w.busy += r.duration_ns - w.run_since[c];
	}
	assert_float_equal(w.e, (r.energy_core_dynamic_j + r.energy_core_static_j), 1e-9);
	assert_int_equal(w.busy, r.cpus[0].user_ns + r.cpus[0].sys_ns + r.cpus[1].user_ns +
					 r.cpus[1].sys_ns);
	assert_int_equal(w.idles, r.cpus[0].cstate_usage[0] + r.cpus[0].cstate_usage[1] +
					  r.cpus[1].cstate_usage[0] + r.cpus[1].cstate_usage[1]);
	result_free(&r);
	sim_destroy(s);
}

/* schedutil on a shared policy reads each CPU's utilization as it last
 * stood (cfs_rq->avg.util_avg): a CPU that went idle after heavy work
 * holds the policy high until its blocked load decays, which the nohz
 * idle balancer's stats kick does from a busy CPU's tick. Here CPU 0 runs
 * some 100 ms and sleeps; CPU 1, from 50 ms on, runs 1 ms every 10 ms
 * (util ~100, 1 GHz on its own). While CPU 0 works CPU 1 runs mostly at
 * 2 GHz; from 110 ms on mostly at 1 GHz, where an idle CPU never updated
 * would keep all of it at 2 GHz. */
static void test_idle_cpu_blocked_load_decays(void **state)
{
	static const char *const ini =
		"[machine]\nname = shared\ndescription = test machine\ntdp_w = 10\n"
		"[topology]\npackages = 1\ncores_per_package = 2\nthreads_per_core = 1\n"
		"freq_domain = package\n"
		"[frequency]\nbase_khz = 2000000\ntransition_latency_us = 0\n"
		"[pstates]\n1000000 = 800\n2000000 = 1000\n"
		"[cstate C6]\ndesc = power gated\nexit_latency_us = 10\ntarget_residency_us = 30\n"
		"power_mw = 0\n"
		"[power]\nceff_nf = 1.0\nleak_w = 1.0\nleak_beta = 0\nuncore_w = 2\nplatform_w = 10\n";
	static const char *const json =
		"{ \"global\" : { \"duration\" : -1 },\n"
		"  \"tasks\" : {\n"
		"    \"heavy\" : { \"loop\" : 1, \"cpus\" : [ 0 ],\n"
		"                \"phases\" : { \"p\" : { \"run\" : 100000, \"sleep\" : 100000000 } } },\n"
		"    \"light\" : { \"loop\" : -1, \"delay\" : 50000, \"cpus\" : [ 1 ], \"run\" : 1000,\n"
		"                \"timer\" : { \"ref\" : \"t\", \"period\" : 10000 } } } }\n";
	char path[] = "/tmp/pmlab-test-blocked-XXXXXX";
	char wl[64];
	simtest_rtapp_file(path, wl, sizeof(wl), json);
	static const char *const sets[] = { "rate_limit_us=0" };
	struct run early, late;
	simtest_run(&early, ini, 0, wl, "schedutil", 0.11, 1, NULL, 0, sets, 1, true);
	simtest_run(&late, ini, 0, wl, "schedutil", 2.0, 1, NULL, 0, sets, 1, true);
	unlink(path);
	/* CPU 1 after the first 110 ms: C0 time at 1 and at 2 GHz. */
	sim_ns low = late.r.cpus[1].pstate_ns[0] - early.r.cpus[1].pstate_ns[0];
	sim_ns high = late.r.cpus[1].pstate_ns[1] - early.r.cpus[1].pstate_ns[1];
	if (low < 4 * high)
		fail_msg("CPU 1 after 110 ms: %lld ns at 1 GHz, %lld ns at 2 GHz", (long long)low,
			 (long long)high);
	/* ...while CPU 0's work was still recent, the policy ran high. */
	assert_true(early.r.cpus[1].pstate_ns[1] > early.r.cpus[1].pstate_ns[0]);
	result_free(&early.r);
	result_free(&late.r);
}

/* A shared clock resolves intel_pstate's per-CPU requests from the CPUs
 * that vote (engine/freq.c): those in C0 or C1, not those in a deeper
 * state. CPU 0 runs 100 ms (asking for the top P-state) and sleeps; CPU 1
 * from 150 ms on runs 1 ms every 10 ms, which asks for the lowest. With
 * CPU 0 in C6, CPU 1 runs at its own request; with C6 disabled CPU 0
 * idles in C1, keeps its vote, and holds the clock at 2 GHz. Without HWP:
 * the kernel's load-based rule asks for what the load needs (the HWP
 * model's own loop would take CPU 1 up by itself; the requests meet the
 * clock by the same path). */
static void shared_clock_run(struct run *out, const char *wl, double seconds, bool c1_only)
{
	static const char *const ini =
		"[machine]\nname = shared\ndescription = test machine\ntdp_w = 10\n"
		"[topology]\npackages = 1\ncores_per_package = 2\nthreads_per_core = 1\n"
		"freq_domain = package\n"
		"[frequency]\nbase_khz = 2000000\ntransition_latency_us = 0\n"
		"[pstates]\n1000000 = 800\n1100000 = 820\n1200000 = 840\n1300000 = 860\n"
		"1400000 = 880\n1500000 = 900\n1600000 = 920\n1700000 = 940\n1800000 = 960\n"
		"1900000 = 980\n2000000 = 1000\n"
		"[cstate C1]\ndesc = halt\nexit_latency_us = 1\ntarget_residency_us = 2\n"
		"power_mw = 500\n"
		"[cstate C6]\ndesc = power gated\nexit_latency_us = 10\ntarget_residency_us = 30\n"
		"power_mw = 0\n"
		"[power]\nceff_nf = 1.0\nleak_w = 1.0\nleak_beta = 0\nuncore_w = 2\nplatform_w = 10\n";
	const char *sets[3] = { "hwp=0", "background_wakeups=0", "cstate_disable=C6" };
	simtest_run(out, ini, 0, wl, "intel_pstate", seconds, 1, NULL, 0, sets, c1_only ? 3 : 2,
		    true);
}

static void test_shared_clock_idle_cpus_do_not_vote(void **state)
{
	static const char *const json =
		"{ \"global\" : { \"duration\" : -1 },\n"
		"  \"tasks\" : {\n"
		"    \"heavy\" : { \"loop\" : 1, \"cpus\" : [ 0 ],\n"
		"                \"phases\" : { \"p\" : { \"run\" : 100000, \"sleep\" : 100000000 } } },\n"
		"    \"light\" : { \"loop\" : -1, \"delay\" : 150000, \"cpus\" : [ 1 ], \"run\" : 1000,\n"
		"                \"timer\" : { \"ref\" : \"t\", \"period\" : 10000 } } } }\n";
	char path[] = "/tmp/pmlab-test-vote-XXXXXX";
	char wl[64];
	simtest_rtapp_file(path, wl, sizeof(wl), json);
	struct run c6, c1;
	shared_clock_run(&c6, wl, 1.0, false);
	shared_clock_run(&c1, wl, 1.0, true);
	unlink(path);
	/* CPU 1's C0 time at 2 GHz and below it. */
	const struct run_result *r[2] = { &c6.r, &c1.r };
	sim_ns top[2], below[2];
	for (int i = 0; i < 2; i++) {
		top[i] = r[i]->cpus[1].pstate_ns[10];
		below[i] = 0;
		for (int k = 0; k < 10; k++)
			below[i] += r[i]->cpus[1].pstate_ns[k];
	}
	if (below[0] < 4 * top[0])
		fail_msg("CPU 0 in C6: CPU 1 %lld ns below 2 GHz, %lld ns at it",
			 (long long)below[0], (long long)top[0]);
	if (top[1] < 4 * below[1])
		fail_msg("CPU 0 in C1: CPU 1 %lld ns below 2 GHz, %lld ns at it",
			 (long long)below[1], (long long)top[1]);
	result_free(&c6.r);
	result_free(&c1.r);
}

/* The processor's own loop (HWP) runs while a CPU is in C0, not only at
 * the scheduler's events: a 3 ms burst every 20 ms with 10 ms ticks
 * starts at 1 GHz (the window before it was idle: the lowest), and 1 ms
 * into it the loop (EPP performance, setpoint 50 %) sees a fully busy
 * window and asks twice its clock: the rest of the burst runs at 2 GHz.
 * Driven only at scheduler events the loop would see the busy window at
 * the burst's end, then the idle one at the next wake, and never run it
 * above 1 GHz. */
static void test_hwp_loop_runs_in_c0(void **state)
{
	static const char *const ini =
		"[machine]\nname = hwp\ndescription = test machine\ntdp_w = 10\n"
		"cpufreq_driver = intel_pstate\n"
		"[topology]\npackages = 1\ncores_per_package = 1\nthreads_per_core = 1\n"
		"freq_domain = core\n"
		"[frequency]\nbase_khz = 2000000\ntransition_latency_us = 0\nhwp = 1\n"
		"[pstates]\n1000000 = 800\n1100000 = 820\n1200000 = 840\n1300000 = 860\n"
		"1400000 = 880\n1500000 = 900\n1600000 = 920\n1700000 = 940\n1800000 = 960\n"
		"1900000 = 980\n2000000 = 1000\n"
		"[cstate C1]\ndesc = halt\nexit_latency_us = 1\ntarget_residency_us = 2\n"
		"power_mw = 500\n"
		"[power]\nceff_nf = 1.0\nleak_w = 1.0\nleak_beta = 0\nuncore_w = 2\nplatform_w = 10\n";
	const char *sets[] = { "energy_performance_preference=performance", "hz=100",
			       "period_us=20000", "run_us=3000", "jitter_pct=0" };
	struct run r;
	run_ini(&r, ini, 0, "periodic", "intel_pstate", 0.5, 1, sets, 5);
	sim_ns top = r.r.cpus[0].pstate_ns[10], low = r.r.cpus[0].pstate_ns[0];
	if (top < low)
		fail_msg("C0 at 2 GHz %lld ns, at 1 GHz %lld ns", (long long)top, (long long)low);
	result_free(&r.r);
}

/* intel_pstate's passive mode (intel_cpufreq) sets its own transition
 * delay, 500 us (intel_cpufreq_cpu_init(), v4.14+), which is schedutil's
 * default rate limit there; acpi-cpufreq has none, so the cpufreq core
 * derives one from the 10 us transition latency: 10 ms (v4.14-v6.8).
 * Without invariance schedutil climbs 1.25 x per update once a busy
 * task's utilization passes 80 %: 1.0 to 2.0 GHz in 100 MHz steps takes
 * four updates, 2 ms in passive mode against 30 ms: some 20 ms more at the
 * top in 200 ms (10 asserted). Before v4.14 the driver set none, and
 * both machines run alike. */
static void run_driver(struct run *out, const char *driver, const char *kernel)
{
	char ini[2048];
	snprintf(ini, sizeof(ini),
		 "[machine]\nname = drv\ndescription = test machine\ntdp_w = 10\n"
		 "cpufreq_driver = %s\n"
		 "[topology]\npackages = 1\ncores_per_package = 2\nthreads_per_core = 1\n"
		 "freq_domain = core\n"
		 "[frequency]\nbase_khz = 2000000\ntransition_latency_us = 10\n"
		 "[pstates]\n1000000 = 800\n1100000 = 820\n1200000 = 840\n1300000 = 860\n"
		 "1400000 = 880\n1500000 = 900\n1600000 = 920\n1700000 = 940\n1800000 = 960\n"
		 "1900000 = 980\n2000000 = 1000\n"
		 "[cstate C1]\ndesc = halt\nexit_latency_us = 1\ntarget_residency_us = 2\n"
		 "power_mw = 500\n"
		 "[power]\nceff_nf = 1.0\nleak_w = 1.0\nleak_beta = 0\nuncore_w = 2\n"
		 "platform_w = 10\n", driver);
	const char *sets[] = { kernel, "tasks=1", "work_ms=10000", "freq_invariant=0" };
	run_ini(out, ini, 0, "batch", "schedutil", 0.2, 1, sets, 4);
}

/* C0 time at the top P-state, over the CPUs. */
static sim_ns top_ns(const struct run *r)
{
	sim_ns t = 0;
	for (int c = 0; c < 2; c++)
		t += r->r.cpus[c].pstate_ns[10];
	return t;
}

static void test_passive_intel_pstate_transition_delay(void **state)
{
	struct run passive, acpi, passive_old, acpi_old;
	run_driver(&passive, "intel_pstate", "kernel=5.2");
	run_driver(&acpi, "acpi-cpufreq", "kernel=5.2");
	run_driver(&passive_old, "intel_pstate", "kernel=4.13");
	run_driver(&acpi_old, "acpi-cpufreq", "kernel=4.13");
	if (top_ns(&passive) < top_ns(&acpi) + 10 * NS_PER_MS)
		fail_msg("C0 ns at 2 GHz: intel_cpufreq %lld, acpi-cpufreq %lld",
			 (long long)top_ns(&passive), (long long)top_ns(&acpi));
	assert_int_equal(top_ns(&passive_old), top_ns(&acpi_old));
	assert_int_equal(passive_old.r.freq_transitions, acpi_old.r.freq_transitions);
	result_free(&passive.r);
	result_free(&acpi.r);
	result_free(&passive_old.r);
	result_free(&acpi_old.r);
}

/* UnixBench spawn forks a child, waits, again: the finished children are
 * freed (sim_task() no longer finds them, and their ids are never given
 * again) unless the run keeps them; the figures are the same either way. */
static void run_spawn(bool keep, struct run_result *r, uint32_t *found)
{
	struct pm_diag d = { { 0 } };
	struct machine m;
	/* spawn needs a fork cost: a loop that takes no time has no rate. */
	assert_int_equal(machine_parse(&m, SIMTEST_TWO_CORE_INI "[costs]\nfork_us = 60\n", "test",
				       &d), 0);
	const char *sets[] = { "test=spawn", "copies=2" };
	struct sim_config cfg = { .machine = &m, .workload = "unixbench", .cpufreq = "ondemand",
				  .cpuidle = "deepest", .duration = NS_PER_SEC / 5, .seed = 1,
				  .nsets = 2, .sets = sets, .check_invariants = true,
				  .keep_finished_tasks = keep };
	struct sim *s;
	assert_int_equal(sim_create(&s, &cfg, &d), 0);
	assert_int_equal(sim_run(s, r, &d), 0);
	*found = 0;
	for (uint32_t id = 0; id < r->tasks_created + 10; id++) {
		const struct task *t = sim_task(s, id);
		if (t) {
			assert_int_equal(t->id, id);
			(*found)++;
		}
	}
	sim_destroy(s);
}

static void test_finished_tasks_freed(void **state)
{
	struct run_result freed, kept;
	uint32_t nfreed, nkept;
	run_spawn(false, &freed, &nfreed);
	run_spawn(true, &kept, &nkept);
	assert_true(freed.tasks_created > 100);
	/* the two parents and at most the child each waits for */
	assert_true(nfreed >= 2 && nfreed <= 4);
	assert_int_equal(nfreed + freed.tasks_finished, freed.tasks_created);
	assert_int_equal(nkept, kept.tasks_created);
	assert_int_equal(freed.events, kept.events);
	assert_int_equal(freed.tasks_finished, kept.tasks_finished);
	assert_float_equal(freed.work_done, kept.work_done, 0);
	assert_float_equal(freed.energy_core_dynamic_j, kept.energy_core_dynamic_j, 0);
	result_free(&freed);
	result_free(&kept);
}

static void test_bad_set_key(void **state)
{
	struct pm_diag d = { { 0 } };
	struct machine m;
	assert_int_equal(machine_parse(&m, two_core_ini, "test", &d), 0);
	const char *sets[] = { "no_such_knob=1" };
	struct sim_config cfg = { .machine = &m, .workload = "batch", .cpufreq = "performance",
				  .cpuidle = "deepest", .duration = NS_PER_SEC, .seed = 1,
				  .nsets = 1, .sets = sets };
	struct sim *s;
	assert_int_equal(sim_create(&s, &cfg, &d), -1);
	assert_non_null(strstr(d.msg, "unknown key 'no_such_knob'"));
	sim_destroy(s);
	const char *range[] = { "hz=333" };
	cfg.sets = range;
	assert_int_equal(sim_create(&s, &cfg, &d), -1);
	assert_non_null(strstr(d.msg, "hz"));
	sim_destroy(s);
	cfg.sets = NULL;
	cfg.nsets = 0;
	cfg.cpufreq = "turbo-mode";
	assert_int_equal(sim_create(&s, &cfg, &d), -1);
	assert_non_null(strstr(d.msg, "unknown cpufreq governor 'turbo-mode'"));
	sim_destroy(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_batch_time_scales_with_frequency),
		cmocka_unit_test(test_stall_does_not_scale),
		cmocka_unit_test(test_cfs_shares_one_cpu),
		cmocka_unit_test(test_energy_matches_power_model),
		cmocka_unit_test(test_periodic_accounting_and_determinism),
		cmocka_unit_test(test_timer_lane_keeps_order),
		cmocka_unit_test(test_timer_lane_ties),
		cmocka_unit_test(test_turbo_active_idle_cores),
		cmocka_unit_test(test_cstate_auto_demotion),
		cmocka_unit_test(test_sleep_already_ended_runs_on),
		cmocka_unit_test(test_wake_us_sets_wakeup_time),
		cmocka_unit_test(test_turbo_bins),
		cmocka_unit_test(test_smt_shares_core),
		cmocka_unit_test(test_idle_core_hint_set_on_idle),
		cmocka_unit_test(test_pm_qos_speeds_up_pingpong),
		cmocka_unit_test(test_userspace_and_limits),
		cmocka_unit_test(test_migration_refill_and_hotness),
		cmocka_unit_test(test_tick_cost),
		cmocka_unit_test(test_tick_policy_periodic_wakes_idle_cpu),
		cmocka_unit_test(test_cstate_disable),
		cmocka_unit_test(test_shared_data_prefers_one_cache),
		cmocka_unit_test(test_system_costs),
		cmocka_unit_test(test_remote_wakeup_ipi),
		cmocka_unit_test(test_affinity),
		cmocka_unit_test(test_sched_mc_power_savings),
		cmocka_unit_test(test_sched_mc_wakeup_bias),
		cmocka_unit_test(test_poll_state),
		cmocka_unit_test(test_periodic_chunks),
		cmocka_unit_test(test_cpufreq_update_triggers),
		cmocka_unit_test(test_cpufreq_hook_installation),
		cmocka_unit_test(test_cpufreq_hook_cost_model),
		cmocka_unit_test(test_new_task_util_is_half_the_spare_capacity),
		cmocka_unit_test(test_schedutil_shared_max_checked),
		cmocka_unit_test(test_schedutil_boosted_reads_checked),
		cmocka_unit_test(test_schedutil_left_out_calls_change_nothing),
		cmocka_unit_test(test_pelt_invariance_reference),
		cmocka_unit_test(test_pelt_invariance_cores),
		cmocka_unit_test(test_legacy_tick_keeps_tick_for_near_timer),
		cmocka_unit_test(test_tick_stop_restart_once_a_jiffy),
		cmocka_unit_test(test_tick_stop_at_jiffy_start_same_jiffy),
		cmocka_unit_test(test_tick_stop_once_per_idle_stretch),
		cmocka_unit_test(test_background_wakeups),
		cmocka_unit_test(test_background_moves_ladder),
		cmocka_unit_test(test_pingpong_idle_governors_and_tick),
		cmocka_unit_test(test_observer),
		cmocka_unit_test(test_bad_set_key),
		cmocka_unit_test(test_finished_tasks_freed),
		cmocka_unit_test(test_idle_cpu_blocked_load_decays),
		cmocka_unit_test(test_shared_clock_idle_cpus_do_not_vote),
		cmocka_unit_test(test_passive_intel_pstate_transition_delay),
		cmocka_unit_test(test_hwp_loop_runs_in_c0),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
