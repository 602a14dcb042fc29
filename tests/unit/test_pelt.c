// SPDX-License-Identifier: GPL-2.0-only
/* PELT against the kernel's arithmetic (v6.19 pelt.c): the decay table is
 * y^n in 0.32 fixed point, the signal halves in 32 periods, saturates at
 * 1024, moves its average only at period boundaries; the run queue side
 * attaches, detaches and removes as fair.c does. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/rng.h"
#include "sched/pelt.h"

#define PERIOD_NS (UINT64_C(1024) * 1024) /* one period: 1024 "us" of 1024 ns */

static void run_for(struct pelt *p, uint64_t *now, uint64_t ns, bool running)
{
	*now += ns;
	pelt_update(p, *now, true, running);
}

/* decay_load(v, n) is v * y^n: its table is (2^32 - 1) y^n, y = 2^(-1/32)
 * (Documentation/scheduler/sched-pelt.c), read back through v = 2^32. */
static void test_decay_table(void **state)
{
	for (uint64_t n = 0; n < 32; n++) {
		double want = 4294967295.0 * pow(pow(0.5, 1.0 / 32), (double)n);
		double got = (double)pelt_decay_load(UINT64_C(1) << 32, n);
		assert_true(fabs(got - floor(want)) <= 1.0);
	}
	/* y^32 = 1/2, y^64 = 1/4, beyond 63 half-lives nothing is left. */
	assert_int_equal(pelt_decay_load(1 << 20, 32), (1 << 19) - 1);
	assert_int_equal(pelt_decay_load(1 << 20, 64), (1 << 18) - 1);
	assert_int_equal(pelt_decay_load(UINT64_MAX, 32 * 63 + 1), 0);
}

/* Always running saturates at the top of the range. */
static void test_saturates(void **state)
{
	struct pelt p;
	uint64_t now = 0;
	pelt_init(&p, now);
	for (int i = 0; i < 1000; i++)
		run_for(&p, &now, PERIOD_NS, true);
	assert_in_range(p.util_avg, 1020, 1024);
	/* ...at every position in a period. */
	for (int i = 0; i < 100; i++) {
		run_for(&p, &now, 7 * 1024 * 13, true);
		assert_in_range(p.util_avg, 1020, 1024);
	}
}

/* 32 periods without running halve the signal (y^32 = 1/2). */
static void test_half_life(void **state)
{
	struct pelt p;
	uint64_t now = 0;
	pelt_init(&p, now);
	for (int i = 0; i < 1000; i++)
		run_for(&p, &now, PERIOD_NS, true);
	uint32_t full = p.util_avg;
	run_for(&p, &now, 32 * PERIOD_NS, false);
	assert_in_range(p.util_avg, full / 2 - 1, full / 2 + 1);
	/* Not enqueued (no load) does not run either, whatever is asked. */
	struct pelt q = p;
	uint64_t tq = now;
	tq += 32 * PERIOD_NS;
	pelt_update(&q, tq, false, true);
	assert_in_range(q.util_avg, full / 4 - 1, full / 4 + 1);
}

/* The average moves only when a period boundary is crossed; updates
 * within 1024 ns of the last one change nothing at all. */
static void test_average_at_period_boundaries(void **state)
{
	struct pelt p;
	uint64_t now = 0;
	pelt_init(&p, now);
	for (int i = 0; i < 10; i++)
		run_for(&p, &now, PERIOD_NS, true);
	uint32_t avg = p.util_avg, sum = p.util_sum;
	assert_false(pelt_update(&p, now + 1023, true, true));
	assert_int_equal(p.util_sum, sum);
	assert_true(pelt_update(&p, now, true, true) == false);
	/* 100 "us" of running: the sum grows, the average does not. */
	assert_false(pelt_update(&p, now + 100 * 1024, true, true));
	assert_true(p.util_sum > sum);
	assert_int_equal(p.util_avg, avg);
	assert_true(pelt_update(&p, now + PERIOD_NS, true, true));
	assert_true(p.util_avg > avg);
}

/* A 50 % duty cycle on a fine grain converges near 512, and one update
 * covering many periods gives what many small ones give (to rounding). */
static void test_duty_cycle_and_granularity(void **state)
{
	struct pelt a, b, c;
	uint64_t ta = 0, tb = 0, tc = 0;
	pelt_init(&a, 0);
	pelt_init(&b, 0);
	pelt_init(&c, 0);
	for (int i = 0; i < 2000; i++) {
		run_for(&a, &ta, 100 * 1024, true);
		run_for(&a, &ta, 100 * 1024, false);
	}
	assert_in_range(a.util_avg, 490, 530);
	for (int i = 0; i < 64; i++)
		run_for(&b, &tb, PERIOD_NS, true);
	run_for(&c, &tc, 64 * PERIOD_NS, true);
	assert_in_range(c.util_avg, b.util_avg - 2, b.util_avg + 2);
	/* After 64 periods of running from zero: 1 - y^64 = 3/4 of the top. */
	assert_in_range(b.util_avg, 760, 775);
}

/* Attach takes the run queue's clock and period position and adds the
 * task's average; detach takes it away at once, never below zero; removed
 * utilization leaves at the run queue's next update. */
static void test_attach_detach_remove(void **state)
{
	struct pelt cpu, task;
	struct pelt_removed removed = { 0, 0 };
	uint64_t now = 0, tt = 0;
	pelt_init(&cpu, 0);
	pelt_init(&task, 0);
	for (int i = 0; i < 100; i++)
		run_for(&task, &tt, PERIOD_NS, true);
	run_for(&cpu, &now, 5 * PERIOD_NS + 300 * 1024, false);
	pelt_attach(&cpu, &task);
	assert_int_equal(task.last_update_time, cpu.last_update_time);
	assert_int_equal(pelt_period_contrib(&task), pelt_period_contrib(&cpu));
	assert_int_equal(cpu.util_avg, task.util_avg);
	assert_int_equal(task.util_sum, task.util_avg * (PELT_MIN_DIVIDER + pelt_period_contrib(&cpu)));
	pelt_detach(&cpu, &task);
	assert_int_equal(cpu.util_avg, 0);
	pelt_detach(&cpu, &task); /* never negative */
	assert_int_equal(cpu.util_avg, 0);

	pelt_attach(&cpu, &task);
	assert_true(pelt_consistent(&task, false));
	pelt_remove(&cpu, &removed, &task);
	assert_int_equal(cpu.util_avg, task.util_avg); /* not yet */
	assert_true(pelt_consistent(&cpu, true));
	/* An entity attached meanwhile takes the period's end, not the flag. */
	struct pelt idle_task;
	pelt_init(&idle_task, 0);
	pelt_attach(&cpu, &idle_task);
	assert_true(pelt_consistent(&idle_task, false));
	assert_true(pelt_consistent(&cpu, true));
	/* Even an update at the same time subtracts it. */
	assert_true(pelt_update_cfs_rq(&cpu, &removed, now, false, false));
	assert_int_equal(cpu.util_avg, 0);
	assert_int_equal(removed.nr, 0);
	assert_true(pelt_consistent(&cpu, false));
	assert_false(pelt_update_cfs_rq(&cpu, &removed, now, false, false));
}

/* The kernel's representation, with period_contrib kept as a count
 * (v6.19 ___update_load_sum(), accumulate_sum() and ___update_load_avg()
 * for utilization), to check the kept period end against. */
struct ref_pelt {
	uint64_t last_update_time;
	uint32_t util_sum, period_contrib, util_avg;
};

static bool ref_update(struct ref_pelt *sa, uint64_t now, bool load, bool running)
{
	uint64_t delta = now - sa->last_update_time;
	if ((int64_t)delta < 0) {
		sa->last_update_time = now;
		return false;
	}
	delta >>= 10;
	if (!delta)
		return false;
	sa->last_update_time += delta << 10;
	if (!load)
		running = false;
	uint32_t contrib = (uint32_t)delta;
	uint64_t d = delta + sa->period_contrib;
	uint64_t periods = d / 1024;
	if (periods) {
		sa->util_sum = (uint32_t)pelt_decay_load(sa->util_sum, periods);
		d %= 1024;
		if (load) {
			uint32_t c1 = (uint32_t)pelt_decay_load(1024 - sa->period_contrib, periods);
			uint32_t c2 = LOAD_AVG_MAX - (uint32_t)pelt_decay_load(LOAD_AVG_MAX, periods) -
				      1024;
			contrib = c1 + c2 + (uint32_t)d;
		}
	}
	sa->period_contrib = (uint32_t)d;
	if (running)
		sa->util_sum += contrib << PELT_SHIFT;
	if (!periods)
		return false;
	sa->util_avg = sa->util_sum / (PELT_MIN_DIVIDER + sa->period_contrib);
	return true;
}

/* Random updates (same time, under a "us", within a period, across one
 * or many, the clock going back), enqueued or not, running or not, and
 * attaches: exactly the kernel's sums, averages, clock and period_contrib
 * at every step. */
static void test_same_as_kernel_representation(void **state)
{
	struct pelt p, cfs;
	struct ref_pelt r = { 0 }, rcfs = { 0 };
	struct rng g;
	uint64_t now = 5000, cnow = 5000;
	(void)state;
	rng_init(&g, 7, 1);
	pelt_init(&p, now);
	pelt_init(&cfs, cnow);
	r.last_update_time = rcfs.last_update_time = now;
	for (int i = 0; i < 200000; i++) {
		uint64_t step;
		switch (rng_below(&g, 8)) {
		case 0: step = 0; break;
		case 1: step = rng_below(&g, 1024); break;
		case 2: step = rng_below(&g, 8 * PERIOD_NS); break;
		case 3: step = (uint64_t)-(int64_t)rng_below(&g, 3000); break; /* back */
		default: step = rng_below(&g, 100 * 1024); break;
		}
		now += step;
		bool load = rng_below(&g, 4) != 0, running = rng_below(&g, 2) != 0;
		assert_int_equal(pelt_update(&p, now, load, running), ref_update(&r, now, load, running));
		assert_int_equal(p.last_update_time, r.last_update_time);
		assert_int_equal(pelt_period_contrib(&p), r.period_contrib);
		assert_int_equal(p.util_sum, r.util_sum);
		assert_int_equal(p.util_avg, r.util_avg);
		assert_true(pelt_consistent(&p, false));
		if (rng_below(&g, 50) == 0) {
			/* The entity joins a run queue at its clock and place. */
			cnow = now + rng_below(&g, 3 * PERIOD_NS);
			pelt_update(&cfs, cnow, true, false);
			ref_update(&rcfs, cnow, true, false);
			pelt_attach(&cfs, &p);
			r.last_update_time = rcfs.last_update_time;
			r.period_contrib = rcfs.period_contrib;
			r.util_sum = r.util_avg * (PELT_MIN_DIVIDER + rcfs.period_contrib);
			assert_int_equal(p.last_update_time, r.last_update_time);
			assert_int_equal(pelt_period_contrib(&p), r.period_contrib);
			assert_int_equal(p.util_sum, r.util_sum);
			assert_true(pelt_consistent(&p, false));
			assert_true(pelt_consistent(&cfs, false));
			now = cnow;
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decay_table),
		cmocka_unit_test(test_saturates),
		cmocka_unit_test(test_half_life),
		cmocka_unit_test(test_average_at_period_boundaries),
		cmocka_unit_test(test_duty_cycle_and_granularity),
		cmocka_unit_test(test_attach_detach_remove),
		cmocka_unit_test(test_same_as_kernel_representation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
