// SPDX-License-Identifier: GPL-2.0-only
/* PELT against the kernel's numbers: a 32 ms half-life, a signal that
 * converges to the running fraction times the frequency scale. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "sched/pelt.h"

#define PERIOD_NS (1024 * 1024) /* one PELT period: 1024 "us" of 1024 ns */

static void run_for(struct pelt *p, sim_ns *now, sim_ns ns, bool running, uint32_t scale)
{
	*now += ns;
	pelt_update(p, *now, running, scale);
}

/* Always running at full speed saturates at 1024 (minus rounding). */
static void test_saturates(void **state)
{
	struct pelt p;
	sim_ns now = 0;
	pelt_init(&p, now);
	for (int i = 0; i < 1000; i++)
		run_for(&p, &now, PERIOD_NS, true, 1024);
	assert_in_range(p.util_avg, 1010, 1024);
}

/* Frequency invariance: running all the time at half the maximum
 * frequency reads as half utilization. */
static void test_frequency_invariant(void **state)
{
	struct pelt p;
	sim_ns now = 0;
	pelt_init(&p, now);
	for (int i = 0; i < 1000; i++)
		run_for(&p, &now, PERIOD_NS, true, 512);
	assert_in_range(p.util_avg, 500, 512);
}

/* 32 periods without running halve the signal (y^32 = 1/2). */
static void test_half_life(void **state)
{
	struct pelt p;
	sim_ns now = 0;
	pelt_init(&p, now);
	for (int i = 0; i < 1000; i++)
		run_for(&p, &now, PERIOD_NS, true, 1024);
	uint32_t full = p.util_avg;
	run_for(&p, &now, 32 * (sim_ns)PERIOD_NS, false, 0);
	assert_in_range(p.util_avg, full / 2 - 2, full / 2 + 2);
}

/* A 50 % duty cycle on a fine grain converges near 512; one update
 * covering many periods gives the same as many small ones. */
static void test_duty_cycle_and_granularity(void **state)
{
	struct pelt a, b;
	sim_ns ta = 0, tb = 0;
	pelt_init(&a, 0);
	pelt_init(&b, 0);
	for (int i = 0; i < 2000; i++) {
		run_for(&a, &ta, 100 * 1024, true, 1024);
		run_for(&a, &ta, 100 * 1024, false, 0);
	}
	assert_in_range(a.util_avg, 490, 530);
	for (int i = 0; i < 64; i++)
		run_for(&b, &tb, PERIOD_NS, true, 1024);
	struct pelt c;
	sim_ns tc = 0;
	pelt_init(&c, 0);
	run_for(&c, &tc, 64 * (sim_ns)PERIOD_NS, true, 1024);
	assert_in_range(c.util_avg, b.util_avg - 2, b.util_avg + 2);
	/* After 64 ms of running from zero: 1 - y^64 = 3/4 of the maximum. */
	assert_in_range(b.util_avg, 760, 775);
}

static void test_attach_detach(void **state)
{
	struct pelt cpu, task;
	sim_ns now = 0;
	pelt_init(&cpu, 0);
	pelt_init(&task, 0);
	for (int i = 0; i < 100; i++)
		run_for(&task, &now, PERIOD_NS, true, 1024);
	pelt_attach(&cpu, &task);
	assert_in_range(cpu.util_avg, task.util_avg - 1, task.util_avg + 1);
	pelt_detach(&cpu, &task);
	assert_int_equal(cpu.util_avg, 0);
	pelt_detach(&cpu, &task); /* never negative */
	assert_int_equal(cpu.util_avg, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_saturates),
		cmocka_unit_test(test_frequency_invariant),
		cmocka_unit_test(test_half_life),
		cmocka_unit_test(test_duty_cycle_and_granularity),
		cmocka_unit_test(test_attach_detach),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
