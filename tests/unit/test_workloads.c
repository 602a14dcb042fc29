// SPDX-License-Identifier: GPL-2.0-only
/* The benchmark models end to end through the engine, on small machines
 * whose numbers let the expected figures be worked out by hand: per model
 * the direction of the frequency effect (or its size where the model's
 * work is simple enough to compute), conservation of messages and jobs,
 * the documented defaults, and determinism. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/sim.h"
#include "lab/runspec.h"
#include "machine/machine.h"
#include "simtest.h"
#include "workload/workload.h"

/* Two cores, 1 or 2 GHz (base 2 GHz), C1 (1 us) and C6 (100 us); no
 * kernel costs unless a test appends a [costs] section. */
static const char *const two_core_ini = SIMTEST_TWO_CORE_INI;
static const char *const costs_ini = SIMTEST_TWO_CORE_INI
	"[costs]\nsyscall_us = 0.1\nfork_us = 60\nexec_us = 200\n";
/* Four cores, or two packages of two, with the [costs] above. */
#define FOUR_CORE_INI(pkgs, cores)                                                                \
	"[machine]\nname = four\ndescription = test machine\ntdp_w = 10\n"                          \
	"[topology]\npackages = " pkgs "\ncores_per_package = " cores "\nthreads_per_core = 1\n"   \
	"freq_domain = core\n[frequency]\nbase_khz = 2000000\ntransition_latency_us = 0\n"         \
	"[pstates]\n1000000 = 800\n2000000 = 1000\n"                                               \
	"[cstate C1]\ndesc = halt\nexit_latency_us = 1\ntarget_residency_us = 2\npower_mw = 500\n" \
	"[cstate C6]\ndesc = power gated\nexit_latency_us = 100\ntarget_residency_us = 300\n"     \
	"power_mw = 0\n"                                                                          \
	"[power]\nceff_nf = 1.0\nleak_w = 1.0\nleak_beta = 0\nuncore_w = 2\nplatform_w = 10\n"     \
	"[costs]\nsyscall_us = 0.1\nfork_us = 60\nexec_us = 200\n"
static const char *const four_core_ini = FOUR_CORE_INI("1", "4");
static const char *const two_pkg_ini = FOUR_CORE_INI("2", "2");
static const char *const shared_cache_ini = SIMTEST_TWO_CORE_INI
	"[cache]\nshare_stall_cut = 0.5\nshare_window_us = 20000\n";

/* Runs `workload` with `sets` (and no CPU time charged for ticks or
 * governor calls, so completion times are work over frequency exactly) on the INI machine with `cpus` online (0:
 * all). Invariant checks cost time per event: big runs skip them. */
static void run_ini(struct run *out, const char *ini, int cpus, const char *workload,
		    const char *gov, double seconds, uint64_t seed, const char *const *sets,
		    int nsets, bool check)
{
	static const char *const defaults[] = { "tick_cost_ns=0", "cpufreq_update_cost_ns=0",
						"tick_restart_cost_ns=0", "background_wakeups=0" };
	simtest_run(out, ini, cpus, workload, gov, seconds, seed, defaults, 4, sets, nsets, check);
}

#define extra simtest_extra

/* User + system time of each CPU over the run: the share of the busiest
 * one, of the two busiest, and the sum in CPUs (1.0: one CPU's worth). */
struct run_spread {
	double top1, top2, sum;
};

static struct run_spread run_spread(const struct run_result *r)
{
	double total = 0, a = 0, b = 0;
	for (int c = 0; c < r->ncpus; c++) {
		double v = (double)(r->cpus[c].user_ns + r->cpus[c].sys_ns);
		total += v;
		if (v > a) {
			b = a;
			a = v;
		} else if (v > b) {
			b = v;
		}
	}
	assert_true(total > 0);
	return (struct run_spread){ a / total, (a + b) / total, total / (double)r->duration_ns };
}

static double util(const struct run_result *r, int which)
{
	return result_util_pct(r, which);
}

static void assert_near(double v, double want, double rel)
{
	if (!(fabs(v - want) <= fabs(want) * rel))
		fail_msg("%.9g, expected %.9g (+- %g%%)", v, want, rel * 100);
}

/* The documented default of a workload's parameter. */
static int64_t param_default(const char *workload, const char *name)
{
	const struct workload_ops *w = workload_find(workload);
	assert_non_null(w);
	for (int i = 0; i < w->nparams; i++)
		if (strcmp(w->params[i].name, name) == 0)
			return w->params[i].def;
	fail_msg("%s has no parameter %s", workload, name);
	return 0;
}

static void test_every_model_is_registered(void **state)
{
	const char *names[] = { "oltp",     "kernbench", "tbench", "hackbench", "lmbench",
				"unixbench", "stressng", "ebizzy", "rtapp",  "video",  "squarewave" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct workload_ops *w = workload_find(names[i]);
		assert_non_null(w);
		assert_non_null(w->summary);
		assert_non_null(w->throughput_unit);
		for (int p = 0; p < w->nparams; p++) {
			assert_true(w->params[p].def >= w->params[p].min);
			assert_true(w->params[p].def <= w->params[p].max);
		}
	}
}

/* --- lmbench --- */

/* A null call is the syscall entry alone: 0.1 us measured at the 2 GHz
 * base, so 100 ns at 2 GHz and 200 ns at 1 GHz, batches of 1000 calls. */
static void test_lmbench_null_scales_with_frequency(void **state)
{
	struct run fast, slow;
	run_ini(&fast, costs_ini, 0, "lmbench", "performance", 0.1, 1, NULL, 0, true);
	run_ini(&slow, costs_ini, 0, "lmbench", "powersave", 0.1, 1, NULL, 0, true);
	assert_near(extra(&fast.r, "usec"), 0.100, 0.005);
	assert_near(extra(&slow.r, "usec"), 0.200, 0.005);
	assert_int_equal(fast.r.latency.max_ns, 100);
	/* One process: one CPU busy, all of it system time. */
	assert_near(util(&fast.r, 1), 50.0, 0.01);
	assert_int_equal(fast.r.tasks_created, 1);
	result_free(&fast.r);
	result_free(&slow.r);
}

/* stat adds 350 ns of 3 GHz work (1050 cycles) to the 200-cycle entry:
 * 625 ns at 2 GHz; open+close two entries and 3000 cycles: 1.7 us. */
static void test_lmbench_cases_and_procs(void **state)
{
	const char *stat[] = { "test=stat" }, *oc[] = { "test=openclose" };
	const char *two[] = { "test=null", "procs=2" };
	struct run a, b, c;
	run_ini(&a, costs_ini, 0, "lmbench", "performance", 0.1, 1, stat, 1, true);
	run_ini(&b, costs_ini, 0, "lmbench", "performance", 0.1, 1, oc, 1, true);
	run_ini(&c, costs_ini, 0, "lmbench", "performance", 0.1, 1, two, 2, true);
	assert_near(extra(&a.r, "usec"), 0.625, 0.005);
	assert_near(extra(&b.r, "usec"), 1.7, 0.005);
	/* Two processes on two CPUs: twice the calls, the same time per call. */
	assert_near(c.r.throughput, 2e7, 0.005);
	assert_near(extra(&c.r, "usec"), 0.100, 0.005);
	assert_int_equal(param_default("lmbench", "test"), 0); /* null */
	assert_int_equal(param_default("lmbench", "procs"), 1);
	result_free(&a.r);
	result_free(&b.r);
	result_free(&c.r);
}

/* --- stress-ng --- */

/* 550 us of 3 GHz work is 825 us at 2 GHz, 1650 us at 1 GHz; one worker
 * per CPU by default; both CPUs wake from C6 (100 us) first. */
static void test_stressng_defaults_and_frequency(void **state)
{
	struct run fast, slow;
	run_ini(&fast, two_core_ini, 0, "stressng", "performance", 1.01, 1, NULL, 0, true);
	run_ini(&slow, two_core_ini, 0, "stressng", "powersave", 1.01, 1, NULL, 0, true);
	assert_int_equal(fast.r.tasks_created, 2);
	assert_float_equal(fast.r.work_done, 2 * floor((1.01e6 - 100) / 825), 0);
	assert_float_equal(slow.r.work_done, 2 * floor((1.01e6 - 100) / 1650), 0);
	assert_near(extra(&fast.r, "bogo_ops_per_cpu_s"), 1e6 / 825, 0.002);
	assert_int_equal(param_default("stressng", "op_us"), 550);
	assert_int_equal(param_default("stressng", "cpu_load"), 100);
	result_free(&fast.r);
	result_free(&slow.r);
}

/* --cpu-load 50: each op is followed by a sleep as long as it, so the
 * worker's user time stays near half whatever the clock (the C6 exit
 * latency, up to 100 us per op, is the only other time in a cycle). */
static void test_stressng_load_holds_across_frequency(void **state)
{
	const char *sets[] = { "cpu_load=50" };
	struct run fast, slow;
	run_ini(&fast, two_core_ini, 0, "stressng", "performance", 1, 1, sets, 1, true);
	run_ini(&slow, two_core_ini, 0, "stressng", "powersave", 1, 1, sets, 1, true);
	double uf = util(&fast.r, 0), us = util(&slow.r, 0);
	assert_true(uf > 100.0 * 825 / 1750 - 0.5 && uf < 50.1);
	assert_true(us > 100.0 * 1650 / 3400 - 0.5 && us < 50.1);
	/* Half the ops of a fully loaded worker, at each frequency. */
	assert_true(slow.r.work_done < fast.r.work_done * 0.55);
	result_free(&fast.r);
	result_free(&slow.r);
}

/* The userspace governor's scaling_setspeed gives the same scaling. */
static void test_stressng_userspace_setspeed(void **state)
{
	const char *hi[] = { "scaling_setspeed=2000000" }, *lo[] = { "scaling_setspeed=1000000" };
	struct run a, b;
	run_ini(&a, two_core_ini, 0, "stressng", "userspace", 1, 1, hi, 1, true);
	run_ini(&b, two_core_ini, 0, "stressng", "userspace", 1, 1, lo, 1, true);
	assert_near(a.r.throughput / b.r.throughput, 2.0, 0.01);
	result_free(&a.r);
	result_free(&b.r);
}

/* --- ebizzy --- */

/* A record: 10 us of 3 GHz work (15 us at 2 GHz, 30 at 1 GHz) plus the
 * 512 KiB copy at 20 GB/s, 26.214 us that do not scale; two CPUs always
 * busy with four threads. So halving the clock costs only ~27 %. */
static void test_ebizzy_is_memory_bound(void **state)
{
	struct run fast, slow, again;
	run_ini(&fast, two_core_ini, 0, "ebizzy", "performance", 0.5, 1, NULL, 0, true);
	run_ini(&slow, two_core_ini, 0, "ebizzy", "powersave", 0.5, 1, NULL, 0, true);
	run_ini(&again, two_core_ini, 0, "ebizzy", "performance", 0.5, 9, NULL, 0, true);
	assert_int_equal(fast.r.tasks_created, 4); /* 2 x CPUs */
	double copy_us = 524288.0 / 20 / 1000;
	assert_near(fast.r.throughput, 2e6 / (15 + copy_us), 0.01);
	assert_near(slow.r.throughput, 2e6 / (30 + copy_us), 0.01);
	/* No randomness in the model: the seed changes nothing. */
	assert_float_equal(again.r.work_done, fast.r.work_done, 0);
	result_free(&fast.r);
	result_free(&slow.r);
	result_free(&again.r);
}

/* --- pingpong --- */

/* One latency sample per round trip, taken by ping alone: the round trips
 * follow each other (each starts where the last ended, the first as
 * ping first runs), so their times add up to the run but its start and
 * the last, unfinished one, and each holds the two bursts (5 us at the
 * 2 GHz base). */
static void test_pingpong_round_trips_tile_the_run(void **state)
{
	struct run r;
	run_ini(&r, two_core_ini, 0, "pingpong", "performance", 0.05, 1, NULL, 0, true);
	assert_true(r.r.work_done > 100);
	assert_float_equal((double)r.r.latency.count, r.r.work_done, 0);
	assert_true(r.r.latency.min_ns >= 2 * 5000);
	assert_true(hist_sum(&r.r.latency) <= (double)r.r.duration_ns);
	assert_true(hist_sum(&r.r.latency) >= (double)(r.r.duration_ns - 2 * r.r.latency.max_ns));
	result_free(&r.r);
}

/* --- tbench --- */

/* One pair on one CPU alternates with no idle time: with no send tail,
 * an operation's latency is the server's turn alone, 6 us of 3 GHz work
 * (9 us at 2 GHz) plus the copy of request and reply at 10 GB/s: from
 * 9 us + 9.3 ns (a 1-byte WriteX: 52 + 41 bytes) to 9 us + (65,587 + 41) /
 * 10 ns for a 64 KiB one. */
static void test_tbench_latency_is_the_servers_turn(void **state)
{
	const char *sets[] = { "clients=1", "tail_ns=0" };
	struct run r;
	run_ini(&r, two_core_ini, 1, "tbench", "performance", 0.05, 1, sets, 2, true);
	assert_true(r.r.latency.count > 1000);
	assert_true(r.r.latency.min_ns >= 9009);
	assert_true(r.r.latency.max_ns <= 9000 + (65587 + 41) / 10 + 1);
	assert_float_equal(extra(&r.r, "max_latency"), ((double)r.r.latency.max_ns / 1e6), 1e-12);
	result_free(&r.r);
}

/* The same with a 0.1 us system call (200 cycles of the 2 GHz base: 100 ns
 * at 2 GHz) in each turn, on the receive: every latency is 100 ns longer.
 * tbench keeps a turn's cycles from its setup; one without the system
 * call, or without the user work, fails here. */
static void test_tbench_turn_has_its_syscall(void **state)
{
	const char *sets[] = { "clients=1", "tail_ns=0" };
	struct run r;
	run_ini(&r, costs_ini, 1, "tbench", "performance", 0.05, 1, sets, 2, true);
	assert_true(r.r.latency.count > 1000);
	assert_true(r.r.latency.min_ns >= 9109);
	assert_true(r.r.latency.max_ns <= 9100 + (65587 + 41) / 10 + 1);
	result_free(&r.r);
}

static void test_tbench_conservation_frequency_determinism(void **state)
{
	struct run fast, slow, same, other;
	run_ini(&fast, two_core_ini, 0, "tbench", "performance", 0.1, 1, NULL, 0, false);
	run_ini(&slow, two_core_ini, 0, "tbench", "powersave", 0.1, 1, NULL, 0, false);
	run_ini(&same, two_core_ini, 0, "tbench", "performance", 0.1, 1, NULL, 0, false);
	run_ini(&other, two_core_ini, 0, "tbench", "performance", 0.1, 2, NULL, 0, false);
	assert_int_equal(fast.r.tasks_created, 2 * 10); /* clients = 10 by default */
	/* Each request is served once and each reply received once; at most
	 * one message per pair is in flight when the run ends. */
	double sent = extra(&fast.r, "requests_sent"), served = extra(&fast.r, "requests_served");
	double got = extra(&fast.r, "replies_received");
	assert_true(sent - served >= 0 && sent - served <= 10);
	assert_true(served - got >= 0 && served - got <= 10);
	/* Mostly kernel CPU work: a halved clock loses most of the rate. */
	assert_true(fast.r.throughput > 1.6 * slow.r.throughput);
	assert_float_equal(same.r.work_done, fast.r.work_done, 0);
	assert_true(other.r.work_done != fast.r.work_done);
	result_free(&fast.r);
	result_free(&slow.r);
	result_free(&same.r);
	result_free(&other.r);
}

/* --- hackbench --- */

static void test_hackbench_conservation(void **state)
{
	const char *sets[] = { "groups=2", "fds=5", "loops=20" };
	struct run r;
	run_ini(&r, two_core_ini, 0, "hackbench", "performance", 10, 1, sets, 3, true);
	/* groups x fds senders x fds receivers x loops */
	assert_float_equal(extra(&r.r, "messages_sent"), 2 * 5 * 5 * 20, 0);
	assert_float_equal(extra(&r.r, "messages_received"), 2 * 5 * 5 * 20, 0);
	assert_int_equal(r.r.tasks_created, 2 * 2 * 5);
	assert_int_equal(r.r.tasks_finished, 2 * 2 * 5);
	/* It ended the run itself, at the time it reports. */
	double secs = extra(&r.r, "seconds");
	assert_true(secs > 0 && secs < 1);
	assert_float_equal(secs, ((double)r.r.duration_ns * 1e-9), 1e-9);
	assert_near(r.r.throughput, 3600 / secs, 1e-9);
	result_free(&r.r);
}

/* 64 KiB messages on a 64 KiB pipe: one message per channel at a time,
 * so senders block on every write after the first; still every message
 * arrives and the run ends. */
static void test_hackbench_full_buffers_block_not_deadlock(void **state)
{
	const char *sets[] = { "groups=1", "fds=3", "loops=10", "datasize=65536", "mode=pipe" };
	struct run r;
	run_ini(&r, two_core_ini, 0, "hackbench", "performance", 10, 1, sets, 5, true);
	assert_float_equal(extra(&r.r, "messages_received"), 3 * 3 * 10, 0);
	assert_true(extra(&r.r, "seconds") > 0);
	result_free(&r.r);
}

static void test_hackbench_frequency_and_mode(void **state)
{
	const char *sock[] = { "groups=2", "loops=20" };
	const char *pipe[] = { "groups=2", "loops=20", "mode=pipe" };
	struct run fast, slow, p, again;
	run_ini(&fast, two_core_ini, 0, "hackbench", "performance", 10, 1, sock, 2, false);
	run_ini(&slow, two_core_ini, 0, "hackbench", "powersave", 10, 1, sock, 2, false);
	run_ini(&p, two_core_ini, 0, "hackbench", "performance", 10, 1, pipe, 3, false);
	run_ini(&again, two_core_ini, 0, "hackbench", "performance", 10, 5, sock, 2, false);
	/* All system-time CPU work: half the clock, about twice the time. */
	double ratio = extra(&slow.r, "seconds") / extra(&fast.r, "seconds");
	assert_true(ratio > 1.8 && ratio < 2.05);
	/* Pipes cost less per message than sockets. */
	assert_true(extra(&p.r, "seconds") < extra(&fast.r, "seconds"));
	/* Nothing random: the seed changes nothing. */
	assert_float_equal(extra(&again.r, "seconds"), extra(&fast.r, "seconds"), 0);
	assert_int_equal(param_default("hackbench", "groups"), 10);
	assert_int_equal(param_default("hackbench", "fds"), 20);
	assert_int_equal(param_default("hackbench", "loops"), 100);
	assert_int_equal(param_default("hackbench", "datasize"), 100);
	assert_int_equal(param_default("hackbench", "mode"), 0); /* socket */
	result_free(&fast.r);
	result_free(&slow.r);
	result_free(&p.r);
	result_free(&again.r);
}

/* --- kernbench --- */

static const char *const small_build[] = { "files=40", "cc1_ms=20", "link_ms=50" };

/* The build's CPU time, as kernbench prints it: user + system. */
static double cpu_time(const struct run_result *r)
{
	return extra(r, "user_time") + extra(r, "system_time");
}

static void test_kernbench_every_job_runs_once(void **state)
{
	const char *sets[] = { "files=40", "cc1_ms=20", "link_ms=50", "jobs=3" };
	struct run r;
	run_ini(&r, two_core_ini, 0, "kernbench", "performance", 100, 1, sets, 4, true);
	/* make, then per compile job the chain sh -> gcc -> cc1 + as (make
	 * forks the shell, the shell gcc, gcc cc1 and as), and the link;
	 * make itself waits when the link ends the run. */
	assert_int_equal(r.r.tasks_created, 1 + 40 * 4 + 1);
	assert_int_equal(r.r.tasks_finished, 40 * 4 + 1);
	assert_float_equal(extra(&r.r, "jobs_done"), 40, 0);
	assert_float_equal(r.r.work_done, 1.0, 0);
	double secs = extra(&r.r, "seconds");
	assert_float_equal(secs, ((double)r.r.duration_ns * 1e-9), 1e-9);
	assert_near(r.r.throughput, 3600 / secs, 1e-9);
	/* Two CPUs, never more than 200 % CPU. */
	assert_true(extra(&r.r, "percent_cpu") <= 200.0 + 1e-6);
	/* Without the assembler: no as tasks, 5 % less user time in the
	 * compiles (the link's 50 ms and the process costs stay). */
	const char *no_as[] = { "files=40", "cc1_ms=20", "link_ms=50", "jobs=3", "as_pct=0" };
	struct run n;
	run_ini(&n, two_core_ini, 0, "kernbench", "performance", 100, 1, no_as, 5, true);
	assert_int_equal(n.r.tasks_created, 1 + 40 * 3 + 1);
	double with_as = extra(&r.r, "user_time"), without = extra(&n.r, "user_time");
	double link = 0.050 * 1.5; /* 50 ms at 3 GHz on a 2 GHz core */
	assert_near((with_as - link) / (without - link), 1.05, 0.002);
	result_free(&n.r);
	result_free(&r.r);
}

/* -pipe: the gcc driver forks cc1 and as at once, and as assembles what
 * cc1 writes through the later half of its compile, on the other CPU.
 * One job slot, as running as long as cc1: the build takes about 1.5
 * times the compile-only build (as starts halfway and ends one write
 * after cc1), not twice it, as cc1 then as would. */
static void test_kernbench_pipe(void **state)
{
	const char *cc1_only[] = { "files=20", "cc1_ms=40", "link_ms=0", "jobs=1",
				   "io_pct=0", "sys_pct=0", "as_pct=0" };
	const char *with_as[] = { "files=20", "cc1_ms=40", "link_ms=0", "jobs=1",
				  "io_pct=0", "sys_pct=0", "as_pct=100" };
	struct run a, b;
	run_ini(&a, two_core_ini, 0, "kernbench", "performance", 100, 1, cc1_only, 7, true);
	run_ini(&b, two_core_ini, 0, "kernbench", "performance", 100, 1, with_as, 7, true);
	double ratio = extra(&b.r, "seconds") / extra(&a.r, "seconds");
	assert_true(ratio > 1.35 && ratio < 1.7);
	/* Twice the CPU time: as did all its work. */
	assert_near(cpu_time(&b.r) / cpu_time(&a.r), 2.0, 0.1);
	result_free(&a.r);
	result_free(&b.r);
}

/* The make slots bound the parallelism: one slot is serial, two use both
 * CPUs; the default is four slots per CPU. */
static void test_kernbench_job_slots(void **state)
{
	const char *one[] = { "files=40", "cc1_ms=20", "link_ms=0", "jobs=1", "io_pct=0" };
	const char *two[] = { "files=40", "cc1_ms=20", "link_ms=0", "jobs=2", "io_pct=0" };
	const char *eight[] = { "files=40", "cc1_ms=20", "link_ms=50", "jobs=8" };
	struct run a, b, def, exp;
	run_ini(&a, two_core_ini, 0, "kernbench", "performance", 100, 1, one, 5, false);
	run_ini(&b, two_core_ini, 0, "kernbench", "performance", 100, 1, two, 5, false);
	run_ini(&def, two_core_ini, 0, "kernbench", "performance", 100, 1, small_build, 3, false);
	run_ini(&exp, two_core_ini, 0, "kernbench", "performance", 100, 1, eight, 4, false);
	double ratio = extra(&a.r, "seconds") / extra(&b.r, "seconds");
	assert_true(ratio > 1.7 && ratio < 2.05);
	assert_float_equal(extra(&def.r, "seconds"), extra(&exp.r, "seconds"), 0);
	assert_int_equal(param_default("kernbench", "jobs"), 0);
	assert_int_equal(param_default("kernbench", "files"), 2700);
	assert_int_equal(param_default("kernbench", "cc1_ms"), 250);
	assert_int_equal(param_default("kernbench", "procs"), 10);
	result_free(&a.r);
	result_free(&b.r);
	result_free(&def.r);
	result_free(&exp.r);
}

static void test_kernbench_frequency_and_determinism(void **state)
{
	struct run fast, slow, same, other;
	run_ini(&fast, two_core_ini, 0, "kernbench", "performance", 100, 1, small_build, 3, false);
	run_ini(&slow, two_core_ini, 0, "kernbench", "powersave", 100, 1, small_build, 3, false);
	run_ini(&same, two_core_ini, 0, "kernbench", "performance", 100, 1, small_build, 3, false);
	run_ini(&other, two_core_ini, 0, "kernbench", "performance", 100, 2, small_build, 3, false);
	/* Per 3 GHz-second of compile: 0.8 s of cycles and 0.08 s of kernel
	 * work take 1.32 s at 2 GHz, 2.64 s at 1 GHz; the 0.2 s of stall and
	 * the I/O waits do not scale: (2.64 + 0.2) / (1.32 + 0.2) = 1.87 in
	 * CPU time. The elapsed time adds the build's ragged end (the last
	 * long compiles, the link), which depends on the schedule. */
	double ratio = cpu_time(&slow.r) / cpu_time(&fast.r);
	assert_true(ratio > 1.85 && ratio < 1.89);
	ratio = extra(&slow.r, "seconds") / extra(&fast.r, "seconds");
	assert_true(ratio > 1.75 && ratio < 2.0);
	assert_float_equal(extra(&same.r, "seconds"), extra(&fast.r, "seconds"), 0);
	assert_true(extra(&other.r, "seconds") != extra(&fast.r, "seconds"));
	result_free(&fast.r);
	result_free(&slow.r);
	result_free(&same.r);
	result_free(&other.r);
}

/* fork+exec pairs come from the machine: 10 per job at 60 + 200 us, and
 * one for the link: 40 x 2.6 ms + 0.26 ms more system time. */
static void test_kernbench_process_costs(void **state)
{
	struct run with, without;
	run_ini(&with, costs_ini, 0, "kernbench", "performance", 100, 1, small_build, 3, false);
	run_ini(&without, two_core_ini, 0, "kernbench", "performance", 100, 1, small_build, 3,
		false);
	assert_near(extra(&with.r, "system_time") - extra(&without.r, "system_time"),
		    40 * 2.6e-3 + 0.26e-3, 0.001);
	result_free(&with.r);
	result_free(&without.r);
}

/* A job that reads an uncached file waits for it in iowait: with one
 * make slot nothing else runs meanwhile, so each of the 40 reads is
 * 300 us of iowait on its CPU. With every slot busy, none shows (Linux
 * counts iowait only on an idle CPU). */
static void test_kernbench_file_reads(void **state)
{
	const char *serial[] = { "files=40", "cc1_ms=20", "link_ms=50", "jobs=1", "io_pct=100" };
	const char *busy[] = { "files=40", "cc1_ms=20", "link_ms=50", "jobs=8", "io_pct=100" };
	struct run a, b;
	run_ini(&a, two_core_ini, 0, "kernbench", "performance", 100, 1, serial, 5, false);
	run_ini(&b, two_core_ini, 0, "kernbench", "performance", 100, 1, busy, 5, false);
	double iowait = 0, busy_iowait = 0;
	for (int c = 0; c < 2; c++) {
		iowait += (double)a.r.cpus[c].iowait_ns;
		busy_iowait += (double)b.r.cpus[c].iowait_ns;
	}
	assert_float_equal(iowait, 40 * 300e3, 0);
	assert_true(busy_iowait < iowait / 4);
	result_free(&a.r);
	result_free(&b.r);
}

/* The jobs share data: with the machine's share_stall_cut their stall
 * shrinks (one cache here, so all of the group's activity is local). */
static void test_kernbench_jobs_share_data(void **state)
{
	struct run shared, plain;
	run_ini(&shared, shared_cache_ini, 0, "kernbench", "performance", 100, 1, small_build, 3,
		false);
	run_ini(&plain, two_core_ini, 0, "kernbench", "performance", 100, 1, small_build, 3, false);
	/* Per 3 GHz-second of compile a job takes 1.52 s at 2 GHz, 0.2 s of it
	 * stall; halving the stall saves 0.1 s: 1.42 / 1.52 = 0.934 of the CPU
	 * time, and less than 0.97 of the elapsed time (its ragged end). */
	double ratio = cpu_time(&shared.r) / cpu_time(&plain.r);
	assert_true(ratio > 0.92 && ratio < 0.95);
	assert_true(extra(&shared.r, "seconds") < 0.97 * extra(&plain.r, "seconds"));
	result_free(&shared.r);
	result_free(&plain.r);
}

/* Mean busy share of package `p`'s CPUs, % (100 - their mean %idle). */
static double pkg_busy_pct(const struct run_result *r, int p)
{
	double busy = 0;
	int n = 0;
	for (int c = 0; c < r->ncpus; c++)
		if (r->cpus[c].package == p) {
			busy += 1.0 - (double)r->cpus[c].idle_ns / (double)r->duration_ns;
			n++;
		}
	return 100.0 * busy / n;
}

/* make -j4 on the two-socket Harpertown, sched_mc_power_savings 0/1/2: the
 * seed's orderings of where the work runs. Level 0 spreads over both
 * packages; level 1 consolidates through the balancer only (each new cc1
 * is forked into the idler package and moved once active balancing
 * kicks in); level 2 also active-balances from newly idle CPUs and biases
 * wakeups, so package 1 runs less at level 2 than at level 1. */
static void test_kernbench_sched_mc_levels(void **state)
{
	const char *sets[3][6] = {
		{ "files=300", "cc1_ms=58", "link_ms=500", "jobs=4", "sched_mc_power_savings=0" },
		{ "files=300", "cc1_ms=58", "link_ms=500", "jobs=4", "sched_mc_power_savings=1" },
		{ "files=300", "cc1_ms=58", "link_ms=500", "jobs=4", "sched_mc_power_savings=2" },
	};
	const char *ini = simtest_preset_text("xeon-2s-harpertown");
	struct run r[3];
	double busy[3][2];
	for (int l = 0; l < 3; l++) {
		run_ini(&r[l], ini, 0, "kernbench", "performance", 100, 1, sets[l], 5, true);
		assert_float_equal(r[l].r.work_done, 1.0, 0);
		for (int p = 0; p < 2; p++)
			busy[l][p] = pkg_busy_pct(&r[l].r, p);
	}
	/* Level 0: about two of the four jobs per package. */
	assert_true(fabs(busy[0][0] - busy[0][1]) < 10);
	/* Packing: package 0 busier and package 1 idler at each level. */
	assert_true(busy[1][0] > busy[0][0] + 10 && busy[2][0] > busy[1][0]);
	assert_true(busy[1][1] < busy[0][1] - 10 && busy[2][1] < busy[1][1]);
	for (int l = 0; l < 3; l++)
		result_free(&r[l].r);
}

/* --- oltp --- */

/* One agent, no CPU work, no I/O, 100 us round trips, C1 only (1 us exit):
 * every statement is 101 us, plus half a round trip for the last reply:
 * Stock-Level (2 statements) is the fastest, Delivery (70) the slowest. */
static void test_oltp_latency_by_hand(void **state)
{
	const char *sets[] = { "agents=1",	   "stmt_us=0",	 "net_sys_us=0", "page_miss_pct=0",
			       "fsync_us=0",	   "client_us=0", "net_rtt_us=100",
			       "pm_qos_latency_us=50", "tick_stop_cost_ns=0" };
	struct run r;
	run_ini(&r, two_core_ini, 0, "oltp", "performance", 5, 1, sets, 9, true);
	assert_int_equal(r.r.latency.min_ns, 2 * 101000 + 50000);
	assert_int_equal(r.r.latency.max_ns, 70 * 101000 + 50000);
	assert_float_equal(extra(&r.r, "lock_waits"), 0, 0);
	assert_float_equal(util(&r.r, 2), 0, 0); /* no I/O, no iowait */
	result_free(&r.r);
}

static void test_oltp_mix_locks_and_io(void **state)
{
	const char *sets[] = { "warehouses=1" };
	struct run r;
	run_ini(&r, two_core_ini, 0, "oltp", "performance", 5, 1, sets, 1, false);
	double all = extra(&r.r, "transactions");
	assert_true(all > 1000);
	/* 10:10:1:1:1 */
	assert_near(extra(&r.r, "new_order") / all, 10.0 / 23, 0.08);
	assert_near(extra(&r.r, "payment") / all, 10.0 / 23, 0.08);
	assert_near(extra(&r.r, "delivery") / all, 1.0 / 23, 0.35);
	assert_float_equal((extra(&r.r, "new_order") + extra(&r.r, "payment") +
				   extra(&r.r, "order_status") + extra(&r.r, "delivery") +
				   extra(&r.r, "stock_level")),
			   all, 0);
	/* The score counts New-Order per minute. */
	assert_near(r.r.throughput, extra(&r.r, "new_order") / ((double)r.r.duration_ns * 1e-9 / 60), 1e-9);
	/* 16 agents on one warehouse's rows: waits happen, and are resolved. */
	assert_true(extra(&r.r, "lock_waits") > 100);
	/* Page reads and log flushes are iowait. */
	assert_true(util(&r.r, 2) > 0);
	/* 16 backends and the server's bgwriter, WAL writer, checkpointer and
	 * statistics collector, which write what the transactions dirtied */
	assert_int_equal(r.r.tasks_created, 16 + 4);
	assert_true(extra(&r.r, "buffers_written") > 0);
	assert_int_equal(param_default("oltp", "agents"), 16);
	assert_int_equal(param_default("oltp", "warehouses"), 16);
	assert_int_equal(param_default("oltp", "think_ms"), 0);
	result_free(&r.r);
}

/* The server's own activity: with one NIC queue and the disk's interrupt
 * both on CPU 0, that CPU takes every interrupt (system time even while
 * idle) and wakes the backends from its softirq; the disk is busy for the
 * platform model; a disk interrupt CPU that does not exist is an error. */
static void test_oltp_server_activity(void **state)
{
	const char *one_queue[] = { "nic_queues=1", "disk_irq_cpu=0", "agents=4", "net_sys_us=40" };
	const char *spread[] = { "nic_queues=0", "disk_irq_cpu=1", "agents=4", "net_sys_us=40" };
	const char *plat = SIMTEST_TWO_CORE_INI "[platform]\ndisk_active_w = 3\nnic_packet_uj = 2\n";
	struct run a, b;
	run_ini(&a, plat, 0, "oltp", "performance", 2, 1, one_queue, 4, false);
	run_ini(&b, plat, 0, "oltp", "performance", 2, 1, spread, 4, false);
	/* One queue: CPU 0's system time carries every receive softirq. */
	double sys0 = (double)a.r.cpus[0].sys_ns, sys1 = (double)a.r.cpus[1].sys_ns;
	assert_true(sys0 > 1.3 * sys1);
	assert_true((double)b.r.cpus[1].sys_ns > 0.7 * (double)b.r.cpus[0].sys_ns);
	/* Each statement is two packets; the disk served fsyncs and reads. */
	assert_true(a.r.platform.nic_j > 0);
	assert_true(a.r.platform.disk_j > 0);
	assert_true(a.r.platform.disk_j < 3.0 * 2.0); /* at most busy the whole run */
	result_free(&a.r);
	result_free(&b.r);

	struct machine m;
	struct pm_diag d = { { 0 } };
	assert_int_equal(machine_parse(&m, two_core_ini, "test", &d), 0);
	const char *bad[] = { "disk_irq_cpu=7" };
	struct sim_config cfg = { .machine = &m, .workload = "oltp", .cpufreq = "performance",
				  .cpuidle = "menu", .duration = NS_PER_SEC, .nsets = 1, .sets = bad };
	struct sim *s;
	assert_int_equal(sim_create(&s, &cfg, &d), -1);
	assert_non_null(strstr(d.msg, "--set disk_irq_cpu=7: no such CPU (expected 0..1)"));
	sim_destroy(s);
}

static void test_oltp_frequency_and_determinism(void **state)
{
	/* The backends alone: interrupts and background processes run at the
	 * clock too. */
	const char *stall[] = { "stall_pct=100", "net_sys_us=0", "server=0" };
	struct run fast, slow, same, other, sfast, sslow;
	run_ini(&fast, two_core_ini, 0, "oltp", "performance", 3, 1, NULL, 0, false);
	run_ini(&slow, two_core_ini, 0, "oltp", "powersave", 3, 1, NULL, 0, false);
	run_ini(&same, two_core_ini, 0, "oltp", "performance", 3, 1, NULL, 0, false);
	run_ini(&other, two_core_ini, 0, "oltp", "performance", 3, 2, NULL, 0, false);
	run_ini(&sfast, two_core_ini, 0, "oltp", "performance", 3, 1, stall, 3, false);
	run_ini(&sslow, two_core_ini, 0, "oltp", "powersave", 3, 1, stall, 3, false);
	/* 16 agents on 2 CPUs are CPU bound: the clock matters. */
	assert_true(fast.r.throughput > 1.3 * slow.r.throughput);
	assert_true(hist_mean(&slow.r.latency) > 1.3 * hist_mean(&fast.r.latency));
	/* All stall: the clock does not. */
	assert_near(sslow.r.throughput / sfast.r.throughput, 1.0, 0.02);
	assert_float_equal(same.r.throughput, fast.r.throughput, 0);
	assert_true(other.r.throughput != fast.r.throughput);
	result_free(&fast.r);
	result_free(&slow.r);
	result_free(&same.r);
	result_free(&other.r);
	result_free(&sfast.r);
	result_free(&sslow.r);
}

/* Transparent hugepages cut the statement's stall by thp_stall_cut_pct only
 * under transparent_hugepage=always (3.10 backs anonymous private memory
 * only when enabled is "always"); with the cut at its default 0 the mode
 * changes nothing, as PostgreSQL's shared buffer pool is not THP-backed. */
static void test_oltp_thp_cuts_private_stall(void **state)
{
	const char *never[] = { "stall_pct=100", "server=0", "thp_stall_cut_pct=50",
				"transparent_hugepage=never" };
	const char *always[] = { "stall_pct=100", "server=0", "thp_stall_cut_pct=50",
				 "transparent_hugepage=always" };
	const char *madvise[] = { "stall_pct=100", "server=0", "thp_stall_cut_pct=50",
				  "transparent_hugepage=madvise" };
	const char *dflt_never[] = { "stall_pct=100", "server=0", "transparent_hugepage=never" };
	const char *dflt_always[] = { "stall_pct=100", "server=0", "transparent_hugepage=always" };
	struct run n, a, m, dn, da;
	run_ini(&n, two_core_ini, 0, "oltp", "performance", 2, 1, never, 4, false);
	run_ini(&a, two_core_ini, 0, "oltp", "performance", 2, 1, always, 4, false);
	run_ini(&m, two_core_ini, 0, "oltp", "performance", 2, 1, madvise, 4, false);
	run_ini(&dn, two_core_ini, 0, "oltp", "performance", 2, 1, dflt_never, 3, false);
	run_ini(&da, two_core_ini, 0, "oltp", "performance", 2, 1, dflt_always, 3, false);
	/* 16 agents on 2 CPUs, all stall: half the stall serves clearly more. */
	assert_true(a.r.throughput > 1.3 * n.r.throughput);
	/* madvise backs nothing the database asks for. */
	assert_float_equal(m.r.throughput, n.r.throughput, 0);
	assert_float_equal(da.r.throughput, dn.r.throughput, 0);
	result_free(&n.r);
	result_free(&a.r);
	result_free(&m.r);
	result_free(&dn.r);
	result_free(&da.r);
}

/* --- UnixBench --- */

/* One loop: exec (200 us measured at the 2 GHz base) and 100 us of 3 GHz
 * start-up work (150 us at 2 GHz): 350 us, 700 us at 1 GHz. */
static void test_unixbench_execl(void **state)
{
	const char *two[] = { "copies=2" };
	struct run fast, slow, copies;
	run_ini(&fast, costs_ini, 0, "unixbench", "performance", 1, 1, NULL, 0, true);
	run_ini(&slow, costs_ini, 0, "unixbench", "powersave", 1, 1, NULL, 0, true);
	run_ini(&copies, costs_ini, 0, "unixbench", "performance", 1, 1, two, 1, true);
	assert_near(fast.r.throughput, 1e6 / 350, 0.002);
	assert_near(slow.r.throughput, 1e6 / 700, 0.002);
	assert_near(copies.r.throughput, 2e6 / 350, 0.002);
	assert_string_equal(fast.r.throughput_unit, "lps");
	/* The exec is system time, the start-up user time: 200 : 150. */
	assert_near(util(&fast.r, 1) / util(&fast.r, 0), 200.0 / 150, 0.01);
	assert_int_equal(param_default("unixbench", "test"), 0); /* execl */
	assert_int_equal(param_default("unixbench", "copies"), 1);
	result_free(&fast.r);
	result_free(&slow.r);
	result_free(&copies.r);
}

/* Both processes on one CPU: a round trip is two bursts of two syscall
 * entries (0.1 us each at base) and 800 ns of 3 GHz pipe work: 2 x 1.4 us
 * at 2 GHz, twice that at 1 GHz. */
static void test_unixbench_context1(void **state)
{
	const char *sets[] = { "test=context1" };
	struct run fast, slow;
	run_ini(&fast, costs_ini, 1, "unixbench", "performance", 0.5, 1, sets, 1, true);
	run_ini(&slow, costs_ini, 1, "unixbench", "powersave", 0.5, 1, sets, 1, true);
	assert_near(fast.r.throughput, 1e6 / 2.8, 0.002);
	assert_near(slow.r.throughput, 1e6 / 5.6, 0.002);
	result_free(&fast.r);
	result_free(&slow.r);
}

/* tbench 1 on two packages, menu choosing the idle states: the pair stays
 * where wake_affine() puts it -- two CPUs do all the work, as a real
 * tbench 1 shows, not every CPU in turn -- and the two sides overlap: the
 * partner is woken from the sender's softirq and computes while the
 * sender finishes its send path (tail_ns), so the two CPUs together run
 * more than one CPU's worth. A tail longer than the path is refused. */
static void test_tbench_one_pair(void **state)
{
	const char *sets[] = { "clients=1" };
	struct run r;
	simtest_run_idle(&r, two_pkg_ini, 0, "tbench", "performance", "menu", 0.5, 1,
			 (const char *const[]){ "tick_cost_ns=0" }, 1, sets, 1, false);
	struct run_spread sp = run_spread(&r.r);
	assert_true(sp.top2 > 0.99);
	assert_true(sp.sum > 1.05);
	assert_true(r.r.migrations * 1000 < r.r.wakeups);
	result_free(&r.r);

	struct machine m;
	struct pm_diag d = { { 0 } };
	assert_int_equal(machine_parse(&m, two_core_ini, "test", &d), 0);
	const char *bad[] = { "tail_ns=6000" };
	struct sim_config cfg = { .machine = &m, .workload = "tbench", .cpufreq = "performance",
				  .cpuidle = "menu", .duration = NS_PER_SEC, .nsets = 1,
				  .sets = bad };
	struct sim *s;
	assert_int_equal(sim_create(&s, &cfg, &d), -1);
	assert_non_null(strstr(d.msg, "tail_ns=6000"));
	sim_destroy(s);
}

/* shell1: each command is forked while its script still runs, so fork
 * balancing places it on another, idle core; the commands' work spreads
 * over the machine instead of following the shell onto its CPU, which
 * went idle by the time a child placed after the fork looked. */
static void test_unixbench_fork_places_child_while_parent_runs(void **state)
{
	const char *sh1[] = { "test=shell1" };
	struct run r;
	run_ini(&r, four_core_ini, 0, "unixbench", "performance", 1, 1, sh1, 1, true);
	struct run_spread sp = run_spread(&r.r);
	assert_true(r.r.work_done > 10);
	assert_true(sp.top1 < 0.5);
	result_free(&r.r);
}

/* A loop that would take no time is refused: fork-based tests need the
 * machine's fork cost, context1 some pipe work. */
static void test_unixbench_needs_costs(void **state)
{
	struct machine m;
	struct pm_diag d = { { 0 } };
	assert_int_equal(machine_parse(&m, two_core_ini, "test", &d), 0);
	const char *cases[][2] = { { "test=spawn", "copies=1" }, { "test=shell1", "copies=1" },
				   { "test=context1", "pipe_ns=0" } };
	for (int i = 0; i < 3; i++) {
		struct sim_config cfg = { .machine = &m, .workload = "unixbench",
					  .cpufreq = "performance", .cpuidle = "deepest",
					  .duration = NS_PER_SEC, .nsets = 2, .sets = cases[i] };
		struct sim *s;
		assert_int_equal(sim_create(&s, &cfg, &d), -1);
		assert_non_null(strstr(d.msg, "would take no time"));
		sim_destroy(s);
	}
}

/* Each spawn loop is one child, created and reaped once. */
static void test_unixbench_spawn_and_shell_conservation(void **state)
{
	const char *spawn[] = { "test=spawn" }, *sh1[] = { "test=shell1" };
	const char *sh8[] = { "test=shell8" };
	struct run sp, s1, s8;
	run_ini(&sp, costs_ini, 0, "unixbench", "performance", 0.2, 1, spawn, 1, true);
	run_ini(&s1, costs_ini, 0, "unixbench", "performance", 1, 1, sh1, 1, false);
	run_ini(&s8, costs_ini, 0, "unixbench", "performance", 1, 1, sh8, 1, false);
	double loops = sp.r.work_done;
	assert_true(loops > 100);
	/* The parent, each reaped child, and at most one child in flight. */
	assert_true((double)sp.r.tasks_created >= 1 + loops &&
		    (double)sp.r.tasks_created <= 2 + loops);
	/* shell1: per loop one script and its ten commands. */
	double l1 = s1.r.work_done;
	assert_true(l1 > 10);
	assert_true((double)s1.r.tasks_created >= 1 + 11 * l1 &&
		    (double)s1.r.tasks_created <= 1 + 11 * (l1 + 1));
	assert_string_equal(s1.r.throughput_unit, "lpm");
	assert_near(s1.r.throughput, l1 * 60, 1e-9);
	/* Eight scripts a loop on two CPUs: each loop takes about 4x longer. */
	assert_true(s8.r.throughput < s1.r.throughput / 2.5);
	result_free(&sp.r);
	result_free(&s1.r);
	result_free(&s8.r);
}

/* --- video --- */

/* Light decoding and rendering on the 2 GHz machine: every frame shown;
 * the renderer wakes at each tick from C6 (100 us) and renders 1000 us of
 * 3 GHz work in 1.5 ms, so each frame's latency is 1.6 ms plus whatever
 * the decoder, woken by the same take, costs it. Ticks at (k + 1) x 40 ms
 * within 2 s: 49 frames finish (the 50th tick is at 2 s). */
static void test_video_by_hand(void **state)
{
	const char *sets[] = { "fps=25", "decode_us=4000", "render_us=1000", "jitter_pct=0",
			       "stall_pct=0", "audio_us=0", "ahead=1" };
	struct run fast, slow;
	run_ini(&fast, two_core_ini, 0, "video", "performance", 2, 1, sets, 7, true);
	run_ini(&slow, two_core_ini, 0, "video", "powersave", 2, 1, sets, 7, true);
	assert_int_equal((int)fast.r.work_done, 49);
	assert_int_equal((int)extra(&fast.r, "frames_dropped"), 0);
	assert_int_equal(fast.r.latency.count, 49);
	assert_true(fast.r.latency.min_ns >= 1600000);
	assert_near(hist_quantile(&fast.r.latency, 0.5) / 1e6, 1.6, 0.02);
	/* At 1 GHz rendering takes 3 ms: the latency roughly doubles. */
	assert_int_equal((int)extra(&slow.r, "frames_dropped"), 0);
	assert_near(hist_quantile(&slow.r.latency, 0.5) / 1e6, 3.1, 0.02);
	assert_string_equal(fast.r.throughput_unit, "frames/s");
	assert_near(fast.r.throughput, 49 / 2.0, 1e-9);
	result_free(&fast.r);
	result_free(&slow.r);
}

/* ahead=0: each frame is decoded at its own tick, so its latency is the
 * decode (6 ms at 2 GHz) and the render (1.5 ms) plus wakeups. */
static void test_video_decode_at_tick(void **state)
{
	const char *sets[] = { "fps=25", "decode_us=4000", "render_us=1000", "jitter_pct=0",
			       "stall_pct=0", "audio_us=0", "ahead=0" };
	struct run r;
	run_ini(&r, two_core_ini, 0, "video", "performance", 2, 1, sets, 7, true);
	assert_int_equal((int)extra(&r.r, "frames_dropped"), 0);
	assert_true(r.r.latency.min_ns >= 7500000);
	assert_true(r.r.latency.max_ns <= 7800000);
	/* Ticks at k x 40 ms: frames 0..49 finish within 2 s. */
	assert_int_equal((int)r.r.work_done, 50);
	result_free(&r.r);
}

/* 20 ms of 3 GHz decoding per frame at 25 fps: 30 ms at 2 GHz fits the
 * 40 ms period, 60 ms at 1 GHz does not. At 1 GHz the decoder manages at
 * most one frame per 60 ms, so at most 16.7 frames/s are shown and at
 * least a third of the frames are dropped -- and every frame due is
 * either shown or dropped. */
static void test_video_drops_what_it_cannot_decode(void **state)
{
	const char *sets[] = { "fps=25", "decode_us=20000", "render_us=500", "jitter_pct=0",
			       "stall_pct=0", "audio_us=0" };
	struct run fast, slow;
	run_ini(&fast, two_core_ini, 0, "video", "performance", 4, 1, sets, 6, true);
	run_ini(&slow, two_core_ini, 0, "video", "powersave", 4, 1, sets, 6, true);
	assert_int_equal((int)extra(&fast.r, "frames_dropped"), 0);
	double shown = slow.r.work_done, dropped = extra(&slow.r, "frames_dropped");
	assert_true(dropped > 0);
	assert_true(shown > 0);
	assert_true(shown / 4.0 <= 1000.0 / 60.0 + 0.25);
	assert_true(extra(&slow.r, "dropped_pct") >= 100.0 / 3.0 - 1.0);
	/* Ticks at (k + 1) x 40 ms: 99 intervals begin within 4 s; the last
	 * two or three may still be in flight when the run ends. */
	assert_true(shown + dropped >= 96 && shown + dropped <= 99);
	assert_near(extra(&slow.r, "dropped_pct"), 100.0 * dropped / (shown + dropped), 1e-9);
	result_free(&fast.r);
	result_free(&slow.r);
}

/* 2500 us of audio work every 5 ms: 3.75 ms at 2 GHz, 7.5 ms at 1 GHz --
 * every period of the slow run underruns. */
static void test_video_audio_underruns(void **state)
{
	const char *sets[] = { "decode_us=100", "render_us=100", "audio_period_us=5000",
			       "audio_us=2500" };
	struct run fast, slow;
	run_ini(&fast, two_core_ini, 0, "video", "performance", 1, 1, sets, 4, true);
	run_ini(&slow, two_core_ini, 0, "video", "powersave", 1, 1, sets, 4, true);
	assert_int_equal((int)extra(&fast.r, "audio_underruns"), 0);
	/* Each burst takes 7.5 ms, so about 1 s / 7.5 ms of them, all late. */
	assert_true(extra(&slow.r, "audio_underruns") >= 130);
	assert_true(extra(&slow.r, "audio_underruns") <= 134);
	result_free(&fast.r);
	result_free(&slow.r);
}

/* 24 fps: ticks at exact multiples of 1/24 s, and the same seed gives the
 * same run. */
static void test_video_24fps_and_determinism(void **state)
{
	const char *sets[] = { "fps=24" };
	struct run a, b;
	run_ini(&a, two_core_ini, 0, "video", "performance", 10, 7, sets, 1, false);
	run_ini(&b, two_core_ini, 0, "video", "performance", 10, 7, sets, 1, false);
	/* (k + 1) / 24 s < 10 s for k = 0..238. */
	assert_int_equal((int)(a.r.work_done + extra(&a.r, "frames_dropped")), 239);
	assert_int_equal(a.r.events, b.r.events);
	assert_int_equal(a.r.latency.max_ns, b.r.latency.max_ns);
	assert_int_equal(param_default("video", "fps"), 30);
	assert_int_equal(param_default("video", "ahead"), 1);
	result_free(&a.r);
	result_free(&b.r);
}

/* --- squarewave --- */

static const char *const square_sets[] = { "rounds=3", "cycles=2", "load_us=10000",
					   "sleep_us=5000", "load_step_us=10000",
					   "sleep_step_us=5000", "cpu=1" };

/* Pinned to CPU 1, the load calibrated at 2 GHz (the top P-state, no
 * turbo): round N's load takes its length at 2 GHz, twice that at 1 GHz,
 * plus the 100 us C6 exit after each sleep. The run ends after the last
 * cycle: 2 x (15.1 + 30.1 + 45.1) ms at 2 GHz. */
static void test_squarewave_by_hand(void **state)
{
	struct run fast, slow;
	run_ini(&fast, two_core_ini, 0, "squarewave", "performance", 10, 1, square_sets, 7, true);
	run_ini(&slow, two_core_ini, 0, "squarewave", "powersave", 10, 1, square_sets, 7, true);
	for (int n = 1; n <= 3; n++) {
		char name[32];
		snprintf(name, sizeof(name), "round_%d_load_us", n);
		assert_near(extra(&fast.r, name), 10000.0 * n + 100, 0.001);
		assert_near(extra(&slow.r, name), 20000.0 * n + 100, 0.001);
	}
	assert_near((double)fast.r.duration_ns, 2 * (15.1 + 30.1 + 45.1) * 1e6, 0.001);
	assert_int_equal((int)fast.r.work_done, 6);
	assert_near(extra(&fast.r, "load_ms"), 2 * (10.1 + 20.1 + 30.1), 0.001);
	/* Pinned: CPU 0 never runs it. */
	assert_int_equal(fast.r.cpus[0].user_ns + fast.r.cpus[0].sys_ns, 0);
	assert_true(fast.r.cpus[1].user_ns > 0);
	result_free(&fast.r);
	result_free(&slow.r);
}

static int keep_result(void *ctx, struct sim *s, const struct run_result *r)
{
	struct run_result *out = ctx;
	*out = *r;
	out->cpus = NULL; /* runspec_run frees the arrays with the run */
	out->pkgs = NULL;
	out->tasks = NULL;
	return 0;
}

/* Through the lab, the run is measured against the same run under
 * performance, as cpufreq-bench does: at 1 GHz each round's load takes
 * twice as long, so performance is at (L + 100) / (2L + 100) and the loss
 * is the rest. Settings only the tested governor knows (ondemand's
 * up_threshold) do not reach the reference run. */
static void test_squarewave_against_performance(void **state)
{
	struct machine m;
	struct pm_diag d = { { 0 } };
	struct runspec rs;
	struct run_result r;
	assert_int_equal(machine_parse(&m, two_core_ini, "test", &d), 0);
	assert_int_equal(runspec_init(&rs, &m, "squarewave", "powersave", "deepest", &d), 0);
	assert_int_equal(runspec_set_all(&rs, square_sets, 7, &d), 0);
	assert_int_equal(runspec_set(&rs, "tick_cost_ns=0"), 0);
	assert_int_equal(runspec_run(&rs, keep_result, &r, &d), 0);
	double gov = 0, perf = 0;
	for (int n = 1; n <= 3; n++) {
		char name[32];
		snprintf(name, sizeof(name), "round_%d_perf_at_pct", n);
		double want = (10000.0 * n + 100) / (20000.0 * n + 100) * 100;
		assert_near(extra(&r, name), want, 0.002);
		gov += 20000.0 * n + 100;
		perf += 10000.0 * n + 100;
	}
	assert_near(extra(&r, "perf_at_pct"), perf / gov * 100, 0.002);
	assert_near(extra(&r, "performance_loss_pct"), (gov - perf) / perf * 100, 0.002);
	runspec_free(&rs);

	/* Under performance the run is its own reference. */
	assert_int_equal(runspec_init(&rs, &m, "squarewave", "performance", "deepest", &d), 0);
	assert_int_equal(runspec_set_all(&rs, square_sets, 7, &d), 0);
	assert_int_equal(runspec_run(&rs, keep_result, &r, &d), 0);
	assert_near(extra(&r, "performance_loss_pct"), 0, 1e-12);
	assert_near(extra(&r, "round_2_perf_at_pct"), 100, 1e-12);
	runspec_free(&rs);

	assert_int_equal(runspec_init(&rs, &m, "squarewave", "ondemand", "deepest", &d), 0);
	assert_int_equal(runspec_set(&rs, "up_threshold=50"), 0);
	if (runspec_run(&rs, keep_result, &r, &d) < 0)
		fail_msg("%s", d.msg);
	assert_true(extra(&r, "performance_loss_pct") >= 0);
	runspec_free(&rs);
}

/* A CPU the machine lacks is bad input. */
static void test_squarewave_bad_cpu(void **state)
{
	struct machine m;
	struct pm_diag d = { { 0 } };
	const char *sets[] = { "cpu=2" };
	assert_int_equal(machine_parse(&m, two_core_ini, "test", &d), 0);
	struct sim_config cfg = { .machine = &m, .workload = "squarewave", .cpufreq = "performance",
				  .cpuidle = "menu", .duration = NS_PER_SEC, .seed = 1,
				  .nsets = 1, .sets = sets };
	struct sim *s = NULL;
	assert_int_equal(sim_create(&s, &cfg, &d), -1);
	assert_non_null(strstr(d.msg, "cpu=2"));
	assert_non_null(strstr(d.msg, "2 CPUs"));
	sim_destroy(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_model_is_registered),
		cmocka_unit_test(test_lmbench_null_scales_with_frequency),
		cmocka_unit_test(test_lmbench_cases_and_procs),
		cmocka_unit_test(test_stressng_defaults_and_frequency),
		cmocka_unit_test(test_stressng_load_holds_across_frequency),
		cmocka_unit_test(test_stressng_userspace_setspeed),
		cmocka_unit_test(test_ebizzy_is_memory_bound),
		cmocka_unit_test(test_tbench_latency_is_the_servers_turn),
		cmocka_unit_test(test_tbench_turn_has_its_syscall),
		cmocka_unit_test(test_tbench_conservation_frequency_determinism),
		cmocka_unit_test(test_tbench_one_pair),
		cmocka_unit_test(test_hackbench_conservation),
		cmocka_unit_test(test_hackbench_full_buffers_block_not_deadlock),
		cmocka_unit_test(test_hackbench_frequency_and_mode),
		cmocka_unit_test(test_kernbench_every_job_runs_once),
		cmocka_unit_test(test_kernbench_job_slots),
		cmocka_unit_test(test_kernbench_pipe),
		cmocka_unit_test(test_kernbench_frequency_and_determinism),
		cmocka_unit_test(test_kernbench_process_costs),
		cmocka_unit_test(test_kernbench_file_reads),
		cmocka_unit_test(test_kernbench_jobs_share_data),
		cmocka_unit_test(test_kernbench_sched_mc_levels),
		cmocka_unit_test(test_oltp_latency_by_hand),
		cmocka_unit_test(test_oltp_mix_locks_and_io),
		cmocka_unit_test(test_oltp_server_activity),
		cmocka_unit_test(test_oltp_frequency_and_determinism),
		cmocka_unit_test(test_oltp_thp_cuts_private_stall),
		cmocka_unit_test(test_unixbench_execl),
		cmocka_unit_test(test_unixbench_context1),
		cmocka_unit_test(test_unixbench_spawn_and_shell_conservation),
		cmocka_unit_test(test_unixbench_fork_places_child_while_parent_runs),
		cmocka_unit_test(test_unixbench_needs_costs),
		cmocka_unit_test(test_video_by_hand),
		cmocka_unit_test(test_video_decode_at_tick),
		cmocka_unit_test(test_video_drops_what_it_cannot_decode),
		cmocka_unit_test(test_video_audio_underruns),
		cmocka_unit_test(test_video_24fps_and_determinism),
		cmocka_unit_test(test_squarewave_by_hand),
		cmocka_unit_test(test_squarewave_against_performance),
		cmocka_unit_test(test_squarewave_bad_cpu),
		cmocka_unit_test(test_pingpong_round_trips_tile_the_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
