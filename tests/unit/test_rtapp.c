// SPDX-License-Identifier: GPL-2.0-only
/* rt-app descriptions: the loader's checks and messages, and the runtime's
 * events against figures worked out by hand on a two-core test machine. */
#include <jansson.h>
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

#include "engine/sim.h"
#include "workload/rtapp.h"

/* Two cores, 1 or 2 GHz (base 2 GHz), C1 (1 us exit) and C6 (100 us). */
static const char *const two_core_ini = SIMTEST_TWO_CORE_INI;

/* Writes `json` to a temporary file; the caller unlinks it. */
static char *write_json(const char *json)
{
	char *path = strdup("/tmp/pmlab-rtapp-XXXXXX.json");
	assert_non_null(path);
	int fd = mkstemps(path, 5);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(json, f);
	fclose(f);
	return path;
}

/* Runs the description on the test machine (no CPU time for ticks and
 * governor calls, no cost to stop the tick, so times are exact). */
static void run_json(struct run *out, const char *json, const char *gov, double seconds,
		     uint64_t seed, const char *const *sets, int nsets)
{
	static const char *const defaults[] = { "tick_cost_ns=0", "cpufreq_update_cost_ns=0",
						"tick_stop_cost_ns=0", "tick_restart_cost_ns=0",
						"background_wakeups=0" };
	char *path = write_json(json);
	char workload[256];
	snprintf(workload, sizeof(workload), "rtapp:%s", path);
	simtest_run(out, two_core_ini, 0, workload, gov, seconds, seed, defaults, 5, sets, nsets,
		    true);
	unlink(path);
	free(path);
}

static const struct task_result *task(const struct run *r, const char *name)
{
	for (int i = 0; i < r->r.ntasks; i++)
		if (strcmp(r->r.tasks[i].name, name) == 0)
			return &r->r.tasks[i];
	fail_msg("no task %s in the result", name);
	return NULL;
}

static double run_us(const struct task_result *t)
{
	return (double)t->run_ns / (double)t->activations / 1000.0;
}

static double period_us(const struct task_result *t)
{
	return (double)t->period_ns / (double)t->activations / 1000.0;
}

static void assert_near(double v, double want, double tol)
{
	if (!(fabs(v - want) <= tol))
		fail_msg("%.9g, expected %.9g (+- %g)", v, want, tol);
}

/* The loader's verdict on `json` (as file "t.json", 2 CPUs). */
static int load(const char *json, struct rtapp_spec *sp, struct pm_diag *d)
{
	return rtapp_load_text(sp, json, strlen(json), "t.json", 2, d);
}

static void assert_load_error(const char *json, const char *needle)
{
	struct rtapp_spec sp;
	struct pm_diag d = { { 0 } };
	assert_int_equal(load(json, &sp, &d), -1);
	if (strncmp(d.msg, "t.json", 6) != 0 || !strstr(d.msg, needle))
		fail_msg("message '%s' lacks the file or '%s'", d.msg, needle);
}

/* --- loader --- */

static void test_load_structure(void **state)
{
	struct rtapp_spec sp;
	struct pm_diag d = { { 0 } };
	const char *json =
		"{ \"global\": { \"duration\": 3, \"calibration\": \"CPU1\", \"logdir\": \"./\" },\n"
		"  \"tasks\": {\n"
		"    \"a\": { \"instance\": 2, \"delay\": 50, \"priority\": -5, \"util_min\": 256,\n"
		"           \"loop\": 4, \"run0\": 100, \"sleep\": 200, \"run1\": 300 },\n"
		"    \"b\": { \"cpus\": [1], \"phases\": {\n"
		"      \"p0\": { \"loop\": 2, \"runtime\": 10, \"sync\": { \"ref\": \"c\", \"mutex\": \"m\" } },\n"
		"      \"p1\": { \"policy\": \"SCHED_IDLE\", \"timer\": { \"ref\": \"t\", \"period\": 1000,\n"
		"                 \"mode\": \"absolute\" }, \"fork\": \"a\" } } } } }";
	if (load(json, &sp, &d) < 0)
		fail_msg("%s", d.msg);
	assert_int_equal(sp.duration_s, 3);
	assert_int_equal(sp.nthreads, 2);
	const struct rtapp_thread *a = &sp.threads[0], *b = &sp.threads[1];
	assert_string_equal(a->name, "a");
	assert_int_equal(a->instances, 2);
	assert_int_equal(a->delay_us, 50);
	assert_int_equal(a->sched.weight, 3121); /* nice -5 */
	assert_int_equal(a->sched.util_min, 256);
	assert_int_equal(a->sched.util_max, -1);
	/* Inline events: one phase run 4 times, the thread once. */
	assert_int_equal(a->nphases, 1);
	assert_int_equal(a->loop, 1);
	assert_int_equal(a->phases[0].loop, 4);
	assert_int_equal(a->phases[0].nevents, 3);
	assert_int_equal(a->phases[0].events[0].kind, RTAPP_RUN);
	assert_int_equal(a->phases[0].events[1].kind, RTAPP_SLEEP);
	assert_int_equal(a->phases[0].events[2].value, 300);
	assert_true(a->forked);
	/* Phases: the thread loops for ever; sync is lock, signal, wait, unlock. */
	assert_int_equal(b->loop, -1);
	assert_int_equal(b->sched.weight, 1024);
	assert_int_equal(b->sched.ncpus, 1);
	assert_int_equal(b->sched.cpus[0], 1);
	assert_int_equal(b->nphases, 2);
	assert_int_equal(b->phases[0].loop, 2);
	assert_int_equal(b->phases[0].nevents, 5);
	assert_int_equal(b->phases[0].events[0].kind, RTAPP_RUNTIME);
	assert_int_equal(b->phases[0].events[1].kind, RTAPP_LOCK);
	assert_int_equal(b->phases[0].events[2].kind, RTAPP_SIGNAL);
	assert_int_equal(b->phases[0].events[3].kind, RTAPP_WAIT);
	assert_int_equal(b->phases[0].events[4].kind, RTAPP_UNLOCK);
	assert_int_equal(b->phases[0].sched.weight, -1); /* unchanged */
	assert_int_equal(b->phases[1].sched.weight, 3);  /* SCHED_IDLE */
	const struct rtapp_event *t = &b->phases[1].events[0];
	assert_int_equal(t->kind, RTAPP_TIMER);
	assert_int_equal(t->value, 1000);
	assert_true(sp.res[t->res].absolute);
	assert_false(sp.res[t->res].unique);
	assert_int_equal(b->phases[1].events[1].kind, RTAPP_FORK);
	assert_int_equal(b->phases[1].events[1].res, 0);
	rtapp_spec_free(&sp);
}

static void test_load_errors(void **state)
{
	/* JSON syntax: file and line. */
	struct rtapp_spec sp;
	struct pm_diag d = { { 0 } };
	assert_int_equal(load("{\n  \"tasks\": {\n    \"a\": { \"run\": 10, }\n  }\n}\n", &sp, &d), -1);
	assert_true(strncmp(d.msg, "t.json:3: ", 10) == 0);
	assert_int_equal(load("{ \"tasks\": {\n \"a\": { \"run\": 1, \"run\": 2 } } }", &sp, &d), -1);
	assert_true(strncmp(d.msg, "t.json:2: ", 10) == 0);
	assert_non_null(strstr(d.msg, "run0, run1"));
	/* Keys the simulator does not know or cannot model: named, never
	 * ignored. */
	assert_load_error("{ \"tasks\": { \"a\": { \"run\": 10, \"frobnicate\": 1 } } }",
			  "unsupported key 'frobnicate'");
	assert_load_error("{ \"tasks\": { \"a\": { \"run\": 10 } }, \"extra\": 1 }",
			  "unsupported key 'extra'");
	assert_load_error("{ \"global\": { \"dureation\": 1 }, \"tasks\": { \"a\": { \"run\": 1 } } }",
			  "unsupported key 'dureation'");
	assert_load_error("{ \"tasks\": { \"a\": { \"mem\": 10 } } }", "event 'mem'");
	assert_load_error("{ \"tasks\": { \"a\": { \"run\": 1, \"taskgroup\": \"/x\" } } }",
			  "'taskgroup'");
	assert_load_error("{ \"tasks\": { \"a\": { \"policy\": \"SCHED_FIFO\", \"run\": 1 } } }",
			  "SCHED_FIFO is not simulated");
	assert_load_error("{ \"tasks\": { \"a\": { \"cpus\": [2], \"run\": 1 } } }",
			  "CPU 2 is not online");
	assert_load_error("{ \"tasks\": { \"a\": { \"util_min\": 2000, \"run\": 1 } } }", "util_min");
	assert_load_error("{ \"tasks\": { \"a\": { \"run\": \"long\" } } }", "must be an integer");
	assert_load_error("{ \"tasks\": { \"a\": { \"run\": 1, \"fork\": \"zz\" } } }",
			  "no task named 'zz'");
	assert_load_error("{ \"tasks\": { \"a\": { \"loop\": 3 } } }", "no events");
	assert_load_error("{ \"tasks\": { \"a\": { \"run\": 1, \"phases\": { \"p\": { \"run\": 1 } } } } }",
			  "events go in the phases");
	assert_load_error("{ \"tasks\": { \"a\": { \"instance\": 0, \"run\": 1 } } }", "no task to start");
	assert_load_error("{ \"tasks\": { \"a\": { \"timer\": { \"ref\": \"t\" } } } }", "period");
	assert_load_error("{ \"tasks\": { \"a\": { \"run\": 1, \"fork\": \"b\" },"
			  " \"b\": { \"instance\": 0, \"barrier\": \"x\" } } }",
			  "fork starts");
	assert_load_error("[1, 2]", "tasks");
}


/* Errors about a value name the line where it stands, like syntax errors
 * do (only the file was named before). */
static void test_load_error_lines(void **state)
{
	(void)state;
	static const struct {
		const char *json, *want;
	} cases[] = {
		{ "{\n \"tasks\": {\n  \"a\": {\n   \"run\": 10,\n   \"frob\": 1\n  }\n }\n}\n",
		  "t.json:5: task 'a': unsupported key 'frob'" },
		{ "{ \"tasks\": {\n \"a\": {\n  \"run\":\n    \"long\" } } }", "t.json:4: task 'a': 'run'" },
		{ "{ \"tasks\": {\n \"a\": { \"run\": 1 },\n \"b\": {\n  \"cpus\": [0,\n   7],\n"
		  "  \"run\": 1 } } }", "t.json:5: task 'b': cpus: CPU 7 is not online" },
		{ "{ \"global\": {\n \"duration\": 1,\n \"calibration\": \"GPU0\" },\n"
		  " \"tasks\": { \"a\": { \"run\": 1 } } }", "t.json:3: global: calibration" },
		{ "{ \"tasks\": {\n \"a\": {\n  \"phases\": {\n   \"p0\": { \"run\": 1 },\n"
		  "   \"p1\": { \"loop\": 3 } } } } }", "t.json:5: task 'a' phase 'p1': no events" },
		{ "{ \"tasks\": {\n \"a\": { \"run\": 1,\n  \"timer\": { \"ref\": \"t\",\n"
		  "   \"mode\": \"sometimes\", \"period\": 5 } } } }", "t.json:4: task 'a': 'timer': mode" },
		{ "{ \"tasks\": {\n \"a\": { \"run\": 1,\n  \"loop\":\n  true } } }",
		  "t.json:2: task 'a': 'loop' must be an integer" },
		{ "{ \"tasks\": {\n \"a\": { \"run\": 1 },\n \"b\": { \"instance\": 0,\n"
		  "   \"barrier\": \"x\" },\n \"c\": { \"run\": 1, \"fork\": \"b\" } } }",
		  "t.json:3: task 'b': barrier 'x'" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_load_error(cases[i].json, cases[i].want);
}

/* --- runtime --- */

/* `run` is work at the base frequency (2 GHz here): 10 ms at 2 GHz, 20 ms
 * at 1 GHz. `runtime` is 10 ms at either. */
static void test_run_scales_runtime_does_not(void **state)
{
	const char *json = "{ \"global\": { \"duration\": -1 }, \"tasks\": {"
			   " \"work\": { \"loop\": 5, \"run\": 10000, \"sleep\": 5000 },"
			   " \"time\": { \"loop\": 5, \"runtime\": 10000, \"sleep\": 5000 } } }";
	struct run fast, slow;
	run_json(&fast, json, "performance", 10, 1, NULL, 0);
	run_json(&slow, json, "powersave", 10, 1, NULL, 0);
	assert_int_equal(fast.r.ntasks, 2);
	assert_int_equal(task(&fast, "work-0")->activations, 5);
	assert_near(run_us(task(&fast, "work-0")), 10000, 1);
	assert_near(run_us(task(&slow, "work-0")), 20000, 1);
	assert_near(run_us(task(&fast, "time-0")), 10000, 1);
	assert_near(run_us(task(&slow, "time-0")), 10000, 1);
	/* Both exited: the run ended with the slower task: 5 x (20 ms of run,
	 * 5 ms of sleep and the CPU's 100 us C6 exit after it), after the
	 * first 100 us exit (the engine rounds a burst's end up to the ns). */
	assert_near((double)slow.r.duration_ns, (5 * 25100 + 100) * 1e3, 10);
	result_free(&fast.r);
	result_free(&slow.r);
}

/* Alone on a CPU: each activation wakes from C6 100 us after the expiry,
 * runs 3 ms and reaches the timer 6.9 ms before the next expiry. */
static void test_timer_slack_and_wakeup_latency(void **state)
{
	const char *json = "{ \"global\": { \"duration\": 1 }, \"tasks\": {"
			   " \"t\": { \"loop\": -1, \"run\": 3000,"
			   " \"timer\": { \"ref\": \"unique\", \"period\": 10000 } } } }";
	struct run r;
	run_json(&r, json, "performance", 10, 1, NULL, 0);
	const struct task_result *t = task(&r, "t-0");
	assert_int_equal(r.r.duration_ns, 1000000000); /* global.duration */
	assert_true(t->activations >= 99 && t->activations <= 100);
	assert_int_equal(t->timed, t->activations);
	assert_int_equal(t->deadline_misses, 0);
	assert_int_equal(t->slack_min_ns, 6900000);
	assert_int_equal(t->wakeup_latency.max_ns, 100000);
	assert_int_equal(t->wakeup_latency.count, t->activations);
	assert_near(period_us(t), 10000, 2);
	result_free(&r.r);
}

/* A 9 ms run sharing CPU 0 with a CPU hog is preempted (CFS slices of
 * 6 ms for two tasks), so its run takes longer than 9 ms of wall time.
 * The timer's expiries stay on their 30 ms grid all the same; a sleep
 * after the run pushes the period out by the stretch instead. */
static void test_timer_period_holds_under_preemption(void **state)
{
	const char *timer = "{ \"global\": { \"duration\": 3 }, \"tasks\": {"
			    " \"hog\": { \"cpus\": [0], \"loop\": -1, \"run\": 100000 },"
			    " \"rt\": { \"cpus\": [0], \"loop\": -1, \"run\": 9000,"
			    " \"timer\": { \"ref\": \"unique\", \"period\": 30000 } } } }";
	const char *sleep = "{ \"global\": { \"duration\": 3 }, \"tasks\": {"
			    " \"hog\": { \"cpus\": [0], \"loop\": -1, \"run\": 100000 },"
			    " \"rt\": { \"cpus\": [0], \"loop\": -1, \"run\": 9000, \"sleep\": 21000 } } }";
	struct run a, b;
	run_json(&a, timer, "performance", 10, 1, NULL, 0);
	run_json(&b, sleep, "performance", 10, 1, NULL, 0);
	const struct task_result *ta = task(&a, "rt-0"), *tb = task(&b, "rt-0");
	/* Preempted: at least one minimum granularity (1.5 ms) of the hog. */
	assert_true(run_us(ta) > 10400);
	assert_near(period_us(ta), 30000, 30);
	assert_int_equal(ta->deadline_misses, 0);
	assert_true(run_us(tb) > 10400);
	assert_true(period_us(tb) > 31400);
	/* Neither task ever ran on CPU 1. */
	assert_int_equal(a.r.cpus[1].user_ns + a.r.cpus[1].sys_ns, 0);
	result_free(&a.r);
	result_free(&b.r);
}

/* A mutex held around a 1 ms run serialises two tasks that would
 * otherwise run side by side on two CPUs (C1 only: each hand-over wakes
 * the waiter's CPU in 1 us). */
static void test_mutex_serialises(void **state)
{
	const char *c1[] = { "pm_qos_latency_us=50" };
	const char *locked = "{ \"tasks\": { \"w\": { \"instance\": 2, \"loop\": 50,"
			     " \"lock\": \"m\", \"run\": 1000, \"unlock\": \"m\" } } }";
	const char *free_ = "{ \"tasks\": { \"w\": { \"instance\": 2, \"loop\": 50, \"run\": 1000 } } }";
	struct run a, b;
	run_json(&a, locked, "performance", 10, 1, c1, 1);
	run_json(&b, free_, "performance", 10, 1, c1, 1);
	assert_near((double)a.r.duration_ns * 1e-9, 100 * 1001e-6, 2e-6);
	assert_near((double)b.r.duration_ns * 1e-9, 50 * 1000e-6 + 1e-6, 1e-7);
	assert_int_equal(task(&a, "w-0")->activations, 50);
	assert_int_equal(task(&a, "w-1")->activations, 50);
	result_free(&a.r);
	result_free(&b.r);
}

/* The consumer waits on a condition the producer signals every 10 ms: it
 * runs once per signal. */
static void test_wait_signal(void **state)
{
	const char *json =
		"{ \"global\": { \"duration\": 1 }, \"tasks\": {"
		" \"producer\": { \"loop\": -1, \"run\": 1000, \"lock\": \"m\", \"signal\": \"c\","
		"  \"unlock\": \"m\", \"timer\": { \"ref\": \"unique\", \"period\": 10000 } },"
		" \"consumer\": { \"loop\": -1, \"lock\": \"m\","
		"  \"wait\": { \"ref\": \"c\", \"mutex\": \"m\" }, \"unlock\": \"m\", \"run\": 500 } } }";
	struct run r;
	run_json(&r, json, "performance", 10, 1, NULL, 0);
	uint64_t p = task(&r, "producer-0")->activations, c = task(&r, "consumer-0")->activations;
	assert_true(p >= 99 && p <= 100);
	/* The consumer's loop ends right after each signal, the producer's at
	 * the next expiry: it may be one ahead when the run stops. */
	assert_true(c >= p && c <= p + 1);
	assert_near(run_us(task(&r, "consumer-0")), 500, 1);
	result_free(&r.r);
}

/* Tasks meeting at a barrier go at the pace of the slowest. */
static void test_barrier(void **state)
{
	const char *json = "{ \"tasks\": {"
			   " \"fast\": { \"loop\": 20, \"run\": 1000, \"barrier\": \"b\" },"
			   " \"slow\": { \"loop\": 20, \"run\": 5000, \"barrier\": \"b\" } } }";
	struct run r;
	run_json(&r, json, "performance", 10, 1, NULL, 0);
	const struct task_result *f = task(&r, "fast-0");
	assert_int_equal(f->activations, 20);
	assert_near(period_us(f), 5000, 60);
	assert_near(run_us(f), 1000, 1);
	result_free(&r.r);
}

/* fork starts instances of a task defined with instance 0. */
static void test_fork(void **state)
{
	const char *json = "{ \"tasks\": {"
			   " \"parent\": { \"loop\": 3, \"run\": 100, \"fork\": \"child\" },"
			   " \"child\": { \"instance\": 0, \"loop\": 1, \"run\": 1000 } } }";
	struct run r;
	run_json(&r, json, "performance", 10, 1, NULL, 0);
	assert_int_equal(r.r.ntasks, 4);
	assert_int_equal(r.r.tasks_created, 4);
	assert_int_equal(r.r.tasks_finished, 4);
	for (int i = 0; i < 3; i++) {
		char name[16];
		snprintf(name, sizeof(name), "child-%d", i);
		assert_int_equal(task(&r, name)->activations, 1);
	}
	result_free(&r.r);
}

/* iorun: a write of 50,000 bytes at 500 MB/s (100 us) after the device's
 * 100 us latency: an iowait block of 200 us each time. */
static void test_iorun_blocks_in_iowait(void **state)
{
	const char *json = "{ \"tasks\": { \"io\": { \"loop\": 100, \"iorun\": 50000 } } }";
	struct run r;
	run_json(&r, json, "performance", 10, 1, NULL, 0);
	const struct task_result *t = task(&r, "io-0");
	assert_int_equal(t->activations, 100);
	/* 200 us of I/O, then the CPU's exit from C6 (100 us). */
	assert_near(period_us(t), 300, 1);
	double iowait = 0;
	for (int c = 0; c < r.r.ncpus; c++)
		iowait += (double)r.r.cpus[c].iowait_ns;
	assert_near(iowait / 1e3, 100 * 200, 100);
	result_free(&r.r);
}

/* Each phase's cpus take effect when the phase starts, a phase without
 * them falls back to the task's (here: all CPUs). */
/* yield puts the yielder behind the task waiting on its CPU: a CPU hog
 * sharing the CPU with a task that yields after each 100 us runs nearly
 * alone, where against a plain 100 us loop it gets only half the CPU. */
static void test_yield_lets_the_other_run(void **state)
{
	const char *yielding = "{ \"global\": { \"duration\": 1 }, \"tasks\": {"
			       " \"a\": { \"loop\": -1, \"cpus\": [0], \"run\": 100, \"yield\": 0 },"
			       " \"b\": { \"loop\": 1, \"cpus\": [0], \"run\": 50000 } } }";
	const char *plain = "{ \"global\": { \"duration\": 1 }, \"tasks\": {"
			    " \"a\": { \"loop\": -1, \"cpus\": [0], \"run\": 100 },"
			    " \"b\": { \"loop\": 1, \"cpus\": [0], \"run\": 50000 } } }";
	struct run y, p;
	run_json(&y, yielding, "performance", 1, 1, NULL, 0);
	run_json(&p, plain, "performance", 1, 1, NULL, 0);
	double with_yield = period_us(task(&y, "b-0")), without = period_us(task(&p, "b-0"));
	/* 50 ms of work at base: alone it would take 50 ms. */
	assert_true(with_yield < 50000 * 1.05);
	assert_true(without > 50000 * 1.4);
	result_free(&y.r);
	result_free(&p.r);
}

static void test_phase_affinity(void **state)
{
	const char *json = "{ \"tasks\": { \"t\": { \"loop\": 1, \"phases\": {"
			   " \"a\": { \"loop\": 10, \"cpus\": [0], \"run\": 1000 },"
			   " \"b\": { \"loop\": 10, \"cpus\": [1], \"run\": 2000 },"
			   " \"c\": { \"loop\": 1, \"run\": 500 } } } } }";
	struct run r;
	run_json(&r, json, "performance", 10, 1, NULL, 0);
	assert_int_equal(task(&r, "t-0")->activations, 21);
	/* 10 ms on CPU 0, 20 ms on CPU 1, then 0.5 ms on either. */
	double cpu0 = (double)r.r.cpus[0].user_ns / 1e6, cpu1 = (double)r.r.cpus[1].user_ns / 1e6;
	assert_true(cpu0 >= 10.0 - 1e-6 && cpu0 <= 10.5 + 1e-6);
	assert_true(cpu1 >= 20.0 - 1e-6 && cpu1 <= 20.5 + 1e-6);
	assert_near(cpu0 + cpu1, 30.5, 1e-5); /* the engine rounds burst ends up to the ns */
	result_free(&r.r);
}

/* util_min reaches the task: schedutil, which would run a 10 % task at
 * the lowest frequency (2 ms runs at 1 GHz), runs it at the highest when
 * its utilization is clamped to at least 1024. */
static void test_util_min_boosts_schedutil(void **state)
{
	const char *plain = "{ \"global\": { \"duration\": 2 }, \"tasks\": { \"t\": {"
			    " \"run\": 1000, \"timer\": { \"ref\": \"unique\", \"period\": 10000 } } } }";
	const char *boosted = "{ \"global\": { \"duration\": 2 }, \"tasks\": { \"t\": {"
			      " \"util_min\": 1024, \"run\": 1000,"
			      " \"timer\": { \"ref\": \"unique\", \"period\": 10000 } } } }";
	struct run a, b;
	run_json(&a, plain, "schedutil", 10, 1, NULL, 0);
	run_json(&b, boosted, "schedutil", 10, 1, NULL, 0);
	assert_true(run_us(task(&a, "t-0")) > 1500);
	assert_near(run_us(task(&b, "t-0")), 1000, 50);
	result_free(&a.r);
	result_free(&b.r);
}

/* util_max caps schedutil's frequency (uclamp_rq_util_with()): a 60 %
 * task (6 ms of every 10 at 2 GHz) makes schedutil choose 2 GHz; capped
 * at 200 it runs at 1 GHz, twice as long, 12 ms each time (it then
 * overruns its period). The sysctl sched_util_clamp_max caps every task
 * the same way, and sched_util_clamp_min takes away a util_min boost. */
static void test_util_max_caps_schedutil(void **state)
{
	const char *plain = "{ \"global\": { \"duration\": 2 }, \"tasks\": { \"t\": {"
			    " \"run\": 6000, \"timer\": { \"ref\": \"unique\", \"period\": 10000 } } } }";
	const char *capped = "{ \"global\": { \"duration\": 2 }, \"tasks\": { \"t\": {"
			     " \"util_max\": 200, \"run\": 6000,"
			     " \"timer\": { \"ref\": \"unique\", \"period\": 10000 } } } }";
	const char *boosted = "{ \"global\": { \"duration\": 2 }, \"tasks\": { \"t\": {"
			      " \"util_min\": 1024, \"run\": 1000,"
			      " \"timer\": { \"ref\": \"unique\", \"period\": 10000 } } } }";
	/* sysctl_sched_uclamp_handler() refuses min > max: min goes down too. */
	static const char *const sysctl_max[] = { "sched_util_clamp_min=200",
						  "sched_util_clamp_max=200" };
	static const char *const sysctl_min[] = { "sched_util_clamp_min=0" };
	struct run a, b, c, d;
	run_json(&a, plain, "schedutil", 10, 1, NULL, 0);
	run_json(&b, capped, "schedutil", 10, 1, NULL, 0);
	run_json(&c, plain, "schedutil", 10, 1, sysctl_max, 2);
	run_json(&d, boosted, "schedutil", 10, 1, sysctl_min, 1);
	assert_true(run_us(task(&a, "t-0")) < 6600);
	assert_near(run_us(task(&b, "t-0")), 12000, 300);
	assert_near(run_us(task(&c, "t-0")), run_us(task(&b, "t-0")), 1);
	assert_true(run_us(task(&d, "t-0")) > 1500); /* as without util_min */
	result_free(&a.r);
	result_free(&b.r);
	result_free(&c.r);
	result_free(&d.r);
}

static void test_json_per_task_and_determinism(void **state)
{
	const char *json = "{ \"global\": { \"duration\": 1 }, \"tasks\": {"
			   " \"p\": { \"instance\": 2, \"run\": 2000,"
			   " \"timer\": { \"ref\": \"unique\", \"period\": 5000 } } } }";
	struct run a, b;
	run_json(&a, json, "performance", 10, 1, NULL, 0);
	run_json(&b, json, "performance", 10, 2, NULL, 0);
	char *text = NULL, *other = NULL;
	size_t len, olen;
	FILE *f = open_memstream(&text, &len), *g = open_memstream(&other, &olen);
	assert_int_equal(result_write(f, &a.r, FORMAT_JSON), 0);
	assert_int_equal(result_write(g, &b.r, FORMAT_JSON), 0);
	fclose(f);
	fclose(g);
	json_error_t err;
	json_t *root = json_loads(text, 0, &err);
	assert_non_null(root);
	json_t *tasks = json_object_get(root, "per_task");
	assert_int_equal(json_array_size(tasks), 2);
	json_t *t0 = json_array_get(tasks, 0);
	assert_string_equal(json_string_value(json_object_get(t0, "name")), "p-0");
	assert_int_equal(json_integer_value(json_object_get(t0, "activations")),
			 a.r.tasks[0].activations);
	assert_near(json_number_value(json_object_get(t0, "run_us_mean")), 2000, 1);
	assert_near(json_number_value(json_object_get(t0, "period_us_mean")), 5000, 2);
	assert_non_null(json_object_get(t0, "wakeup_latency_p99_us"));
	json_decref(root);
	/* Nothing in rt-app is random: another seed gives the same run, all
	 * but the seed itself. */
	char *seed_a = strstr(text, "\"seed\""), *seed_b = strstr(other, "\"seed\"");
	assert_non_null(seed_a);
	assert_non_null(seed_b);
	assert_string_equal(strchr(seed_a, '\n'), strchr(seed_b, '\n'));
	free(text);
	free(other);
	result_free(&a.r);
	result_free(&b.r);
}

/* Every example that ships loads and runs. */
static void test_shipped_examples(void **state)
{
	const char *files[] = { "periodic.json", "video.json", "mutex-contention.json",
				"phases.json" };
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[512];
		struct rtapp_spec sp;
		struct pm_diag d = { { 0 } };
		snprintf(path, sizeof(path), "%s/data/workloads/%s", PMLAB_SOURCE_ROOT, files[i]);
		if (rtapp_load_file(&sp, path, 8, &d) < 0)
			fail_msg("%s", d.msg);
		rtapp_spec_free(&sp);
	}
	struct rtapp_spec sp;
	struct pm_diag d = { { 0 } };
	assert_int_equal(rtapp_load_file(&sp, "/nonexistent/x.json", 8, &d), -1);
	assert_non_null(strstr(d.msg, "/nonexistent/x.json: cannot open"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_structure),
		cmocka_unit_test(test_load_errors),
		cmocka_unit_test(test_load_error_lines),
		cmocka_unit_test(test_run_scales_runtime_does_not),
		cmocka_unit_test(test_timer_slack_and_wakeup_latency),
		cmocka_unit_test(test_timer_period_holds_under_preemption),
		cmocka_unit_test(test_mutex_serialises),
		cmocka_unit_test(test_wait_signal),
		cmocka_unit_test(test_barrier),
		cmocka_unit_test(test_fork),
		cmocka_unit_test(test_iorun_blocks_in_iowait),
		cmocka_unit_test(test_yield_lets_the_other_run),
		cmocka_unit_test(test_phase_affinity),
		cmocka_unit_test(test_util_min_boosts_schedutil),
		cmocka_unit_test(test_util_max_caps_schedutil),
		cmocka_unit_test(test_json_per_task_and_determinism),
		cmocka_unit_test(test_shipped_examples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
